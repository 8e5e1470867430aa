/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ring-buffer cases that need nothing but what a ring buffer shows
 * through its interface: records written by one event, the mmap page
 * user space reads, the buffer's head/lost/wakeup/events/nest counters,
 * the event's lost_samples and pending_wakeup, pause and resume. They are
 * written once (tests/lib/rb_cases.c) against a backend and run on two:
 *   core/'s ring buffer      tests/core/test_ring_buffer (its helper
 *                            ring_buffer_backend.c)
 *   the kernel's own         tests/ksrc/test_ring_buffer_cases, through
 *   ring_buffer.c            the bridge (ksrc/ring_buffer_ksrc.h); part
 *                            of make ksrc-check
 */
#ifndef PMUSIM_TESTS_LIB_RB_CASES_H
#define PMUSIM_TESTS_LIB_RB_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

/* The id of the event every case writes with. */
#define RB_CASE_ID	42

struct rb_state {
	unsigned long head;		/* rb->head */
	long lost, wakeup, events;	/* rb->lost, rb->wakeup, rb->events */
	unsigned int nest;		/* rb->nest */
	uint64_t lost_samples;		/* the event's */
};

struct rb_backend {
	const char *name;
	/*
	 * rb_alloc(@nr_pages, @watermark, writable or not) and one event
	 * with @attr and id RB_CASE_ID attached to it. Fails the test if it
	 * cannot.
	 */
	void *(*open)(int nr_pages, long watermark, bool writable,
		      const struct perf_event_attr *attr);
	void (*close)(void *b);
	struct perf_event_mmap_page *(*user_page)(void *b);
	/*
	 * A tagged record of @size bytes (rb_view.h's pattern) through
	 * perf_output_begin/copy/end; with @sample, perf_output_sample_wakeup
	 * too. Returns perf_output_begin()'s result.
	 */
	int (*write)(void *b, unsigned int size, uint64_t tag, bool sample);
	/* rb_toggle_paused() */
	void (*pause)(void *b, bool pause);
	struct rb_state (*state)(void *b);
	/* The event's pending_wakeup, cleared. */
	bool (*take_wakeup)(void *b);
};

/* Run every case on @backend, as the cmocka group @group. */
int rb_cases_run(const struct rb_backend *backend, const char *group);

#endif
