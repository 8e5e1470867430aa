/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of tests/core/test_ring_buffer.c: a tiny user-space view of a
 * buffer (only through the mmap page, as a reader sees it: tests/lib/
 * rb_view.h), a writer of tagged records, core/ as a backend of the cases
 * shared with the kernel's own file (tests/lib/rb_cases.h), and a
 * scripted NMI on the interleaving hook.
 */
#ifndef PMUSIM_TESTS_RING_BUFFER_TEST_H
#define PMUSIM_TESTS_RING_BUFFER_TEST_H

#include "core/internal.h"
#include "tests/lib/rb_cases.h"
#include "tests/lib/rb_view.h"

/* ---- user-space side (tests/lib/rb_view.h) --------------------------------- */

static inline void rbt_view_init(struct rbt_view *v, struct perf_buffer *rb)
{
	rbt_view_init_page(v, rb->user_page);
}

/* ---- writer (ring_buffer_writer.c) ---------------------------------------- */

/*
 * One record of @size bytes (>= 16) in @event's direction: the header,
 * @tag, then a byte pattern derived from @tag. With @sample it also
 * counts as a sample for wakeup_events. Returns perf_output_begin()'s
 * result.
 */
int rbt_write(struct perf_event *event, unsigned int size, u64 tag, bool sample);

/* ---- the shared cases' backend (ring_buffer_backend.c) ------------------- */

/* core/ under the cases of tests/lib/rb_cases.c */
extern const struct rb_backend rb_backend_core;

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
