/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the record tests: an event writing into a real ring buffer,
 * a fixed clock, CPU and task, and an expected-bytes builder.
 */
#ifndef PMUSIM_TESTS_RECORDS_FIXTURE_H
#define PMUSIM_TESTS_RECORDS_FIXTURE_H

#include "core/perf_event.h"
#include "core/internal.h"

struct expect {
	u8 b[8192];
	size_t n;
};

static inline void put_bytes(struct expect *e, const void *p, size_t len)
{
	memcpy(e->b + e->n, p, len);
	e->n += len;
}
static inline void put64(struct expect *e, u64 v) { put_bytes(e, &v, 8); }
static inline void put32(struct expect *e, u32 v) { put_bytes(e, &v, 4); }
static inline void put16(struct expect *e, u16 v) { put_bytes(e, &v, 2); }
static inline void put_header(struct expect *e, u32 type, u16 misc, u16 size)
{
	put32(e, type);
	put16(e, misc);
	put16(e, size);
}

static u64 fixture_now;
static u64 fixture_clock(void) { return fixture_now; }

static inline void fixture_event(struct perf_event *ev, struct perf_buffer **rbp)
{
	static struct task_struct task = { .pid = 100, .tid = 101, .comm = "work" };

	memset(ev, 0, sizeof(*ev));
	ev->group_leader = ev;
	ev->id = 7;
	ev->cpu = -1;
	ev->pid = 100;
	ev->state = PERF_EVENT_STATE_ACTIVE;
	pmusim_this_cpu = 3;
	pmusim_curr[3] = &task;
	pmusim_clock_ns = fixture_clock;
	fixture_now = 123456789;
	*rbp = rb_alloc(4, 0, 3, RING_BUFFER_WRITABLE);
	assert_non_null(*rbp);
	refcount_inc(&(*rbp)->refcount);
	ring_buffer_attach(ev, *rbp);
}

static inline void fixture_sizes(struct perf_event *ev)
{
	perf_event__header_size(ev);
	perf_event__id_header_size(ev);
}

/* Everything written so far, compared with the expectation byte by byte. */
static inline void assert_buffer(struct perf_buffer *rb, const struct expect *e)
{
	const u8 *data = (const u8 *)rb->user_page + rb->user_page->data_offset;

	assert_int_equal(rb->user_page->data_head, e->n);
	assert_memory_equal(data, e->b, e->n);
}

static inline void fixture_done(struct perf_event *ev, struct perf_buffer *rb)
{
	ring_buffer_attach(ev, NULL);
	ring_buffer_put(rb);
}

#endif
