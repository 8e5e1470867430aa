/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test support: records whose bytes prove themselves. A writer fills
 * each record with rb_oracle_encode(); a reader, given only the bytes it
 * got back, checks with rb_oracle_check() that they are one whole record
 * of one writer (id, sequence number, size) and not a mix of two.
 *
 *   perf_event_header  type PERF_RECORD_SAMPLE, misc 0, size
 *   u32 writer, u32 size
 *   u64 seq
 *   filler             words derived from (writer, seq, offset)
 *   u64 checksum       over every byte before it
 *
 * Used by the real-thread stress test (tests/stress/) and meant for the
 * fuzzers, so both judge records by the same rule.
 */
#ifndef PMUSIM_TESTS_LIB_RINGBUF_ORACLE_H
#define PMUSIM_TESTS_LIB_RINGBUF_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

/* header, writer/size, seq, checksum */
#define RB_ORACLE_MIN_SIZE	32u
/* header.size is a u16 and records are 8-aligned */
#define RB_ORACLE_MAX_SIZE	65528u

struct rb_oracle_rec {
	uint32_t writer;
	uint32_t size;
	uint64_t seq;
};

/*
 * Fill @buf with the record @writer writes as its @seq-th, @size bytes
 * (a multiple of 8 from RB_ORACLE_MIN_SIZE to RB_ORACLE_MAX_SIZE).
 */
void rb_oracle_encode(void *buf, uint32_t writer, uint64_t seq, uint32_t size);

/*
 * Check the @size bytes at @rec. Returns NULL and fills @out when they
 * are one record rb_oracle_encode() made; otherwise a short description
 * of the first thing wrong (static text).
 */
const char *rb_oracle_check(const void *rec, size_t size, struct rb_oracle_rec *out);

/*
 * A PERF_RECORD_LOST of @event_id with @trailer bytes of sample_id
 * after it: NULL and the count in @lost, or what is wrong. The count
 * may be 0: the writer saw records lost, then a nested writer took the
 * count into its own LOST record first (the kernel does the same).
 */
const char *rb_oracle_check_lost(const void *rec, size_t size, uint64_t event_id,
				 size_t trailer, uint64_t *lost);

#endif
