/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space readers of a perf ring buffer (the counterpart of libperf's
 * tools/lib/perf/mmap.c). They see only what a process sees after
 * mmap(): the control page and, at pg->data_offset, pg->data_size bytes
 * of data. data_head is loaded with acquire semantics and data_tail
 * stored with release semantics, the pairing of the kernel's barriers C
 * and D (kernel/events/ring_buffer.c).
 *
 * Four readers, one per way a buffer can be mapped and read:
 *
 *   perf_mmap_reader__read_forward    writable mapping (non-overwrite):
 *       consumes records from data_tail to data_head and moves data_tail
 *       after each record, once the callback has returned.
 *   perf_mmap_reader__read_backward   read-only mapping, write_backward:
 *       the records that are whole in [data_head, data_head + size),
 *       newest first (libperf's overwrite_rb_find_range). The buffer must
 *       be paused (or its events stopped) while it is read.
 *   perf_mmap_reader__read_overwrite_forward   read-only, forward: the
 *       writer ignores the reader, and nothing in the buffer says where
 *       the oldest whole record starts once data_head has passed the
 *       buffer size. The reader keeps its own position (0 at first, as
 *       the writer starts there) and reads [prev, data_head) while that
 *       is at most one buffer; beyond that it has lost its place, says
 *       so (PERF_MMAP_READ_FELL_BEHIND) and resynchronises at data_head,
 *       which is what perf's old check_messup did. It cannot do better.
 *   perf_mmap_reader__read_backward_verify   read-only, write_backward,
 *       NOT paused: copy a header, re-read data_head, check the bytes
 *       could not have been overwritten, copy the record, check again
 *       (Wang Nan's scheme from the write_backward review). Each record
 *       goes to the callback from a private copy.
 *
 * Records are handed to a callback with a pointer and a size. A record
 * that wraps the end of the buffer (or every record, for the verifying
 * reader) is reassembled in the reader's copy buffer, grown as needed up
 * to PERF_MMAP_COPY_MAX; any other pointer points into the ring and is
 * valid only until the callback returns.
 */
#ifndef PMUSIM_SIM_MMAP_READ_H
#define PMUSIM_SIM_MMAP_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

/* The largest record: header.size is a u16 and records are 8-aligned. */
#define PERF_MMAP_COPY_MAX	65536

/* The user-space side of the kernel's barrier pairing (C and D). */
static inline uint64_t perf_mmap__read_head(struct perf_event_mmap_page *pg)
{
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static inline void perf_mmap__write_tail(struct perf_event_mmap_page *pg, uint64_t tail)
{
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Why a reader returned. */
enum perf_mmap_read_status {
	PERF_MMAP_READ_END,			/* no more data (or max records read) */
	PERF_MMAP_READ_STOPPED,			/* the callback asked to stop */
	PERF_MMAP_READ_FELL_BEHIND,		/* the writer lapped the reader */
	PERF_MMAP_READ_BAD_SIZE,		/* header.size < 8, unaligned, or past the data */
	PERF_MMAP_READ_NOMEM,			/* the copy buffer could not grow */
	PERF_MMAP_READ_HEADER_OVERWRITTEN,	/* verify: header may be overwritten */
	PERF_MMAP_READ_RECORD_OVERWRITTEN,	/* verify: body may be overwritten */
};

const char *perf_mmap_read_status_name(enum perf_mmap_read_status status);

struct perf_mmap_read_stats {
	uint64_t records;	/* handed to the callback */
	uint64_t bytes;
	uint64_t copies;	/* records reassembled in the copy buffer */
	uint64_t fell_behind;	/* times the reader lost its place */
	uint64_t skipped_bytes;	/* bytes given up when it did */
	uint64_t bad_size;
	uint64_t overwritten;	/* verify: records given up as overwritten */
	uint64_t dropped;	/* backward: the record crossing the window's end */
};

/* The steps of the verifying reader, for tests and fuzzers. */
enum perf_mmap_verify_step {
	PERF_MMAP_VERIFY_HEADER_COPIED,		/* header copied, head not re-read */
	PERF_MMAP_VERIFY_RECORD_COPIED,		/* record copied, head not re-read */
};

struct perf_mmap_reader;
typedef void (*perf_mmap_step_fn)(struct perf_mmap_reader *reader,
				  enum perf_mmap_verify_step step, void *arg);

/*
 * Return 0 to go on, anything else to stop after this record (which then
 * counts as read: the forward reader moves data_tail past it).
 */
typedef int (*perf_mmap_record_fn)(const struct perf_event_header *rec,
				   size_t size, void *arg);

struct perf_mmap_reader {
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	uint64_t size;			/* data_size: a power of two */
	uint64_t mask;
	uint64_t prev;			/* forward readers: next byte to read */
	/*
	 * Verifying reader: a writer may have reserved and be filling up
	 * to @guard bytes beyond the data_head it published; treat them as
	 * overwritten too. 0 trusts the published head alone, as in the
	 * original scheme.
	 */
	uint64_t guard;
	uint64_t stop;			/* backward readers: where the last walk stopped */
	perf_mmap_step_fn step;		/* verifying reader: called between steps */
	void *step_arg;
	unsigned char *copy;		/* reassembly buffer */
	size_t copy_size;
	struct perf_mmap_read_stats stats;
};

/*
 * Set up a reader on a mapping whose control page is @base. prev starts
 * at data_tail, which is 0 on a fresh buffer. Returns 0, or -EINVAL when
 * data_size is not a power of two of at least 8 bytes.
 */
int perf_mmap_reader__init(struct perf_mmap_reader *reader, void *base);
void perf_mmap_reader__exit(struct perf_mmap_reader *reader);

/* Up to @max records (0: all there are). */
enum perf_mmap_read_status
perf_mmap_reader__read_forward(struct perf_mmap_reader *reader, unsigned long max,
			       perf_mmap_record_fn fn, void *arg);
/* The same walk over [prev, data_head), but data_tail is left alone. */
enum perf_mmap_read_status
perf_mmap_reader__peek_forward(struct perf_mmap_reader *reader,
			       perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_reader__read_overwrite_forward(struct perf_mmap_reader *reader,
					 perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_reader__read_backward(struct perf_mmap_reader *reader,
				perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_reader__read_backward_verify(struct perf_mmap_reader *reader,
				       perf_mmap_record_fn fn, void *arg);

#endif /* PMUSIM_SIM_MMAP_READ_H */
