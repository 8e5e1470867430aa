/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of tests/core/test_ring_buffer.c: a tiny user-space view of a
 * buffer (only through the mmap page, as a reader sees it), a writer of
 * tagged records, and a scripted NMI on the interleaving hook.
 */
#ifndef PMUSIM_TESTS_RING_BUFFER_TEST_H
#define PMUSIM_TESTS_RING_BUFFER_TEST_H

#include "core/internal.h"

/* ---- user-space side (ring_buffer_parse.c) ------------------------------ */

struct rbt_view {
	struct perf_event_mmap_page *pg;
	unsigned char *data;		/* pg + data_offset */
	u64 size;			/* data_size */
};

struct rbt_rec {
	u64 pos;			/* free-running position of the header */
	u32 type;
	u16 misc;
	u16 size;
	u64 word1;			/* the u64 after the header: tag, or LOST id */
	u64 word2;			/* the next one: LOST count */
};

void rbt_view_init(struct rbt_view *v, struct perf_buffer *rb);
u64 rbt_read_head(const struct rbt_view *v);
void rbt_write_tail(const struct rbt_view *v, u64 tail);
/* Copy @len bytes from position @pos on, wrapping at the end of the data. */
void rbt_copy_out(const struct rbt_view *v, u64 pos, void *dst, size_t len);
/*
 * Walk the records of [start, end). Returns how many there are, or -1
 * when a header is short or the records do not end exactly at @end.
 */
int rbt_parse(const struct rbt_view *v, u64 start, u64 end,
	      struct rbt_rec *recs, int max);

/* ---- writer (ring_buffer_writer.c) ---------------------------------------- */

#define RBT_TYPE	PERF_RECORD_SAMPLE

/*
 * One record of @size bytes (>= 16) in @event's direction: the header,
 * @tag, then a byte pattern derived from @tag. With @sample it also
 * counts as a sample for wakeup_events. Returns perf_output_begin()'s
 * result.
 */
int rbt_write(struct perf_event *event, unsigned int size, u64 tag, bool sample);
/* Is the record at @r the one rbt_write() wrote for its tag and size? */
bool rbt_record_intact(const struct rbt_view *v, const struct rbt_rec *r);
/* The byte rbt_write() puts at offset @i (>= 16) of a record tagged @tag. */
static inline u8 rbt_pattern(u64 tag, unsigned int i)
{
	return (u8)(tag * 131 + i * 7 + 1);
}

/* ---- scripted NMI on the interleaving hook (ring_buffer_writer.c) ------- */

struct rbt_nmi {
	struct perf_buffer *rb;
	enum perf_interleave_point point;	/* where the action runs */
	unsigned int times;			/* at this many hits of it */
	void (*action)(void *arg);
	void *arg;
	bool backward;				/* for the monotonic check */

	bool fired;
	unsigned int fires;			/* actions run so far */
	bool in_action;
	unsigned int nest_at_fire;
	u64 data_head_before, data_head_after;
	unsigned long head_after;		/* rb->head after the action */
	int hits[PI__MAX];			/* every point, nested ones too */
	u64 last_data_head;
	int head_went_back;			/* data_head moved backwards */
	int publish_count;			/* distinct data_head values seen */
};

extern struct rbt_nmi rbt_nmi;

/* Observe every point of @rb; run @action once at the first hit of @point. */
void rbt_nmi_arm(struct perf_buffer *rb, bool backward,
		 enum perf_interleave_point point,
		 void (*action)(void *arg), void *arg);
/*
 * The same, but the action runs at each of the first @times hits of
 * @point outside it: a new NMI each time the interrupted code comes
 * back to the point (a loop's next pass). What the action does itself
 * fires nothing; nest_at_fire and data_head_before are the first's,
 * data_head_after and head_after the last's.
 */
void rbt_nmi_arm_times(struct perf_buffer *rb, bool backward,
		       enum perf_interleave_point point, unsigned int times,
		       void (*action)(void *arg), void *arg);
void rbt_nmi_disarm(void);

#endif
