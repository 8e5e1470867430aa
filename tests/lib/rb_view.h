/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A minimal reader for the ring-buffer tests (tests/lib/rb_view.c): it
 * knows a buffer only through its mmap page (data_offset, data_size,
 * data_head, data_tail), as user space does, so the same checks read
 * core/'s buffer and the kernel's own ring_buffer.c's (ksrc/). The real
 * readers live in tools/lib/perf/. Records written by the tests carry a
 * tag and a byte pattern derived from it, checked here.
 */
#ifndef PMUSIM_TESTS_LIB_RB_VIEW_H
#define PMUSIM_TESTS_LIB_RB_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

struct rbt_view {
	struct perf_event_mmap_page *pg;
	unsigned char *data;		/* pg + data_offset */
	uint64_t size;			/* data_size */
};

struct rbt_rec {
	uint64_t pos;			/* free-running position of the header */
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint64_t word1;			/* the u64 after the header: tag, or LOST id */
	uint64_t word2;			/* the next one: LOST count */
};

/* The type of the tests' tagged records. */
#define RBT_TYPE	PERF_RECORD_SAMPLE

void rbt_view_init_page(struct rbt_view *v, struct perf_event_mmap_page *pg);
uint64_t rbt_read_head(const struct rbt_view *v);
void rbt_write_tail(const struct rbt_view *v, uint64_t tail);
/* Copy @len bytes from position @pos on, wrapping at the end of the data. */
void rbt_copy_out(const struct rbt_view *v, uint64_t pos, void *dst, size_t len);
/*
 * Walk the records of [start, end). Returns how many there are, or -1
 * when a header is short or the records do not end exactly at @end.
 */
int rbt_parse(const struct rbt_view *v, uint64_t start, uint64_t end,
	      struct rbt_rec *recs, int max);
/*
 * Records of [from, data_head) or, backward, [data_head, from), in the
 * order they were reserved. A backward buffer holds the newest
 * reservation first, each with its LOST record (if any) in front.
 */
int rbt_parse_since(const struct rbt_view *v, bool backward, uint64_t from,
		    struct rbt_rec *recs, int max);
/* A perf_event_header as the u64 it occupies in the buffer. */
uint64_t rbt_header_word(uint32_t type, uint16_t misc, uint16_t size);

/* The byte a tagged record of @tag has at offset @i (>= 16). */
static inline uint8_t rbt_pattern(uint64_t tag, unsigned int i)
{
	return (uint8_t)(tag * 131 + i * 7 + 1);
}
/* Is the record at @r a tagged record, whole, for its tag and size? */
bool rbt_record_intact(const struct rbt_view *v, const struct rbt_rec *r);

#endif
