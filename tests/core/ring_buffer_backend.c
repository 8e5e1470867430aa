// SPDX-License-Identifier: GPL-2.0-only
/*
 * core/'s ring buffer as a backend of the shared ring-buffer cases
 * (tests/lib/rb_cases.h), for tests/core/test_ring_buffer: rb_alloc(),
 * one event attached with ring_buffer_attach(), records written by
 * rbt_write() (ring_buffer_writer.c).
 */
#include <stdlib.h>

#include "tests/core/ring_buffer_test.h"
#include "tests/test.h"
#include "tests/lib/rb_cases.h"

struct core_rb {
	struct perf_buffer *rb;
	struct perf_event ev;
};

static void *core_open(int nr_pages, long watermark, bool writable,
		       const struct perf_event_attr *attr)
{
	struct core_rb *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	c->rb = rb_alloc(nr_pages, watermark, 0, writable ? RING_BUFFER_WRITABLE : 0);
	assert_non_null(c->rb);
	c->ev.attr = *attr;
	c->ev.id = RB_CASE_ID;
	c->ev.stream_id = RB_CASE_ID;
	perf_event__id_header_size(&c->ev);
	ring_buffer_attach(&c->ev, c->rb);
	return c;
}

static void core_close(void *b)
{
	struct core_rb *c = b;

	ring_buffer_attach(&c->ev, NULL);
	free(c);
}

static struct perf_event_mmap_page *core_user_page(void *b)
{
	return ((struct core_rb *)b)->rb->user_page;
}

static int core_write(void *b, unsigned int size, uint64_t tag, bool sample)
{
	return rbt_write(&((struct core_rb *)b)->ev, size, tag, sample);
}

static void core_pause(void *b, bool pause)
{
	rb_toggle_paused(((struct core_rb *)b)->rb, pause);
}

static struct rb_state core_state(void *b)
{
	struct core_rb *c = b;

	return (struct rb_state){
		.head = local_read(&c->rb->head),
		.lost = local_read(&c->rb->lost),
		.wakeup = local_read(&c->rb->wakeup),
		.events = local_read(&c->rb->events),
		.nest = c->rb->nest,
		.lost_samples = atomic64_read(&c->ev.lost_samples),
	};
}

static bool core_take_wakeup(void *b)
{
	struct core_rb *c = b;
	bool woke = c->ev.pending_wakeup;

	c->ev.pending_wakeup = 0;
	return woke;
}

const struct rb_backend rb_backend_core = {
	.name = "core",
	.open = core_open,
	.close = core_close,
	.user_page = core_user_page,
	.write = core_write,
	.pause = core_pause,
	.state = core_state,
	.take_wakeup = core_take_wakeup,
};
