// SPDX-License-Identifier: GPL-2.0-only
/*
 * The three ways into the ring buffer (perf_output_begin() choosing by
 * attr.write_backward, perf_output_begin_forward() and
 * perf_output_begin_backward() as perf_event_output_forward/_backward
 * call them) each get their own copy of __perf_output_begin(): every
 * edge case is run through each of them, in both directions. No buffer;
 * a paused buffer counting what it refuses, then the LOST record (with
 * its sample_id trailer) ahead of the next record; a full buffer in
 * non-overwrite mode and the same in overwrite mode; an inherited event
 * writing into its parent's buffer. Plus rb_alloc()'s refusals and
 * ring_buffer_get() on a buffer being torn down.
 */
#include "tests/test.h"
#include "core/internal.h"

enum entry { ENTRY_BEGIN, ENTRY_FORWARD, ENTRY_BACKWARD };

static const struct way {
	const char *name;
	enum entry entry;
	bool write_backward;		/* the event's attr */
	bool backward;			/* the direction it writes */
} ways[] = {
	{ "perf_output_begin, forward event", ENTRY_BEGIN, false, false },
	{ "perf_output_begin, backward event", ENTRY_BEGIN, true, true },
	{ "perf_output_begin_forward", ENTRY_FORWARD, false, false },
	{ "perf_output_begin_backward", ENTRY_BACKWARD, false, true },
};

static int begin(const struct way *w, struct perf_output_handle *h, struct perf_sample_data *d,
		 struct perf_event *ev, unsigned int size)
{
	switch (w->entry) {
	case ENTRY_FORWARD:
		return perf_output_begin_forward(h, d, ev, size);
	case ENTRY_BACKWARD:
		return perf_output_begin_backward(h, d, ev, size);
	default:
		return perf_output_begin(h, d, ev, size);
	}
}

static void event_init(struct perf_event *ev, const struct way *w)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.write_backward = w->write_backward;
	ev->attr.sample_id_all = 1;
	ev->attr.sample_type = PERF_SAMPLE_ID;
	ev->id = 77;
	perf_event__id_header_size(ev);
}

/* A 32-byte record tagged @tag; returns begin()'s result. */
static int write32(const struct way *w, struct perf_event *ev, u64 tag)
{
	struct perf_output_handle h;
	struct perf_sample_data d;
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = 32 };
	u64 pad[3] = { tag, ~tag, tag ^ 0x5a5a };
	int ret;

	perf_sample_data_init(&d, 0, 0);
	ret = begin(w, &h, &d, ev, 32);
	if (ret)
		return ret;
	perf_output_put(&h, hdr);
	perf_output_copy(&h, pad, sizeof(pad));
	perf_output_end(&h);
	return 0;
}

/* The record at free-running position @pos of the one-page data area. */
static const u64 *at(struct perf_buffer *rb, u64 pos)
{
	return (const u64 *)((char *)rb->data_pages[0] + (pos & (PAGE_SIZE - 1)));
}

static void test_no_buffer_through_every_entry(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(ways); i++) {
		struct perf_event ev;

		struct perf_buffer *rb = rb_alloc(0, 0, 0, RING_BUFFER_WRITABLE);

		event_init(&ev, &ways[i]);
		assert_int_equal(write32(&ways[i], &ev, 1), -ENOSPC);
		assert_int_equal(atomic64_read(&ev.lost_samples), 0);
		/* a buffer of no data pages (a user page only) stays paused, losing nothing */
		assert_non_null(rb);
		ring_buffer_attach(&ev, rb);
		assert_int_equal(write32(&ways[i], &ev, 2), -ENOSPC);
		assert_int_equal(atomic64_read(&ev.lost_samples), 0);
		assert_int_equal(local_read(&rb->lost), 0);
		ring_buffer_attach(&ev, NULL);
	}
}

/*
 * Paused: every record refused is counted; after resume the next record
 * is preceded by one LOST record carrying the count and the sample_id
 * trailer (the id), and the count starts again from 0.
 */
static void test_pause_then_lost_record_through_every_entry(void **state)
{
	(void)state;
	for (unsigned int j = 0; j < 2 * ARRAY_SIZE(ways); j++) {
		const struct way *w = &ways[j % ARRAY_SIZE(ways)];
		bool id_all = j < ARRAY_SIZE(ways);
		u64 lost_size = id_all ? 32 : 24;
		struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
		struct perf_event ev;
		const u64 *lost, *rec;
		u64 head;

		event_init(&ev, w);
		ev.attr.sample_id_all = id_all;
		ring_buffer_attach(&ev, rb);
		rb_toggle_paused(rb, true);
		for (int k = 0; k < 3; k++)
			assert_int_equal(write32(w, &ev, k), -ENOSPC);
		assert_int_equal(local_read(&rb->lost), 3);
		assert_int_equal(atomic64_read(&ev.lost_samples), 3);
		assert_int_equal(rb->user_page->data_head, 0);
		rb_toggle_paused(rb, false);

		assert_int_equal(write32(w, &ev, 9), 0);
		head = rb->user_page->data_head;
		/* LOST (24 bytes, + 8 of sample_id with sample_id_all) then the record */
		assert_int_equal(w->backward ? -head : head, lost_size + 32);
		lost = w->backward ? at(rb, head) : at(rb, 0);
		rec = w->backward ? at(rb, head + lost_size) : at(rb, lost_size);
		assert_int_equal(((const struct perf_event_header *)lost)->type, PERF_RECORD_LOST);
		assert_int_equal(((const struct perf_event_header *)lost)->size, lost_size);
		assert_int_equal(lost[1], 77);		/* id */
		assert_int_equal(lost[2], 3);		/* lost */
		if (id_all)
			assert_int_equal(lost[3], 77);	/* sample_id: PERF_SAMPLE_ID */
		assert_int_equal(((const struct perf_event_header *)rec)->type, PERF_RECORD_SAMPLE);
		assert_int_equal(rec[1], 9);
		assert_int_equal(local_read(&rb->lost), 0);
		ring_buffer_attach(&ev, NULL);
	}
}

/*
 * Full, non-overwrite: the record that does not fit is refused and
 * counted, data_head stays on the last whole record; once the reader
 * frees room the LOST record comes first. Overwrite mode never refuses.
 */
static void test_full_buffer_through_every_entry(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(ways); i++) {
		const struct way *w = &ways[i];
		struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
		struct perf_buffer *ow = rb_alloc(1, 0, 0, 0);
		struct perf_event ev, ev_ow;
		unsigned int n = PAGE_SIZE / 32;	/* one byte stays free: n - 1 fit */
		u64 head;

		event_init(&ev, w);
		ring_buffer_attach(&ev, rb);
		for (unsigned int k = 0; k < n - 1; k++)
			assert_int_equal(write32(w, &ev, k), 0);
		head = rb->user_page->data_head;
		assert_int_equal(write32(w, &ev, 1000), -ENOSPC);
		assert_int_equal(rb->user_page->data_head, head);
		assert_int_equal(atomic64_read(&ev.lost_samples), 1);
		/* the reader consumes everything: the LOST record leads the next write */
		WRITE_ONCE(rb->user_page->data_tail, head);
		assert_int_equal(write32(w, &ev, 1001), 0);
		assert_int_equal(((const struct perf_event_header *)
				  at(rb, w->backward ? rb->user_page->data_head : head))->type,
				 PERF_RECORD_LOST);
		ring_buffer_attach(&ev, NULL);

		event_init(&ev_ow, w);
		ring_buffer_attach(&ev_ow, ow);
		for (unsigned int k = 0; k < 2 * n; k++)
			assert_int_equal(write32(w, &ev_ow, k), 0);
		head = ow->user_page->data_head;
		assert_int_equal(w->backward ? -head : head, 2 * n * 32);
		assert_int_equal(atomic64_read(&ev_ow.lost_samples), 0);
		/* the newest record is whole where the head says */
		assert_int_equal(at(ow, w->backward ? head : head - 32)[1], 2 * n - 1);
		ring_buffer_attach(&ev_ow, NULL);
	}
}

/* An inherited event writes into its parent's buffer, through every entry. */
static void test_inherited_event_writes_into_the_parents_buffer(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(ways); i++) {
		const struct way *w = &ways[i];
		struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
		struct perf_event parent, child;
		struct perf_buffer *got;

		event_init(&parent, w);
		event_init(&child, w);
		child.parent = &parent;
		ring_buffer_attach(&parent, rb);
		assert_int_equal(write32(w, &child, 5), 0);
		assert_int_equal(w->backward ? -rb->user_page->data_head :
				 rb->user_page->data_head, 32);
		assert_null(child.rb);
		/* and its reference is the parent's buffer */
		got = ring_buffer_get(&child);
		assert_ptr_equal(got, rb);
		assert_int_equal(refcount_read(&rb->refcount), 2);
		ring_buffer_put(got);
		/* the child owns no buffer: attaching one to it is a bug, warned about */
		if (IS_ENABLED(CONFIG_DEBUG_PERF) && i == 0) {
			unsigned long warns = pmusim_warn_count();

			ring_buffer_attach(&child, ring_buffer_get(&parent));
			assert_int_equal(pmusim_warn_count(), warns + 1);
			ring_buffer_attach(&child, NULL);
		}
		assert_int_equal(refcount_read(&rb->refcount), 1);
		ring_buffer_attach(&parent, NULL);
	}
}

static void test_rb_alloc_refuses_bad_page_counts(void **state)
{
	struct perf_buffer *rb;

	(void)state;
	assert_null(rb_alloc(-1, 0, 0, 0));
	assert_null(rb_alloc(3, 0, 0, 0));
	assert_null(rb_alloc(6, 0, 0, 0));
	/* more page pointers than the kernel's kzalloc bound allows */
	assert_null(rb_alloc(1 << 20, 0, 0, 0));
	/* allocation failures: the struct, then the pages */
	pmusim_alloc_fail_after(0);
	assert_null(rb_alloc(2, 0, 0, 0));
	pmusim_alloc_fail_after(1);
	assert_null(rb_alloc(2, 0, 0, 0));
	pmusim_alloc_fail_after(-1);
	rb = rb_alloc(2, 0, 0, 0);
	assert_non_null(rb);
	assert_int_equal(rb->user_page->data_size, 2 * PAGE_SIZE);
	rb_free(rb);
	rb = rb_alloc(0, 0, 0, 0);		/* the user page alone */
	assert_non_null(rb);
	assert_int_equal(rb->user_page->data_size, 0);
	assert_int_equal(rb->paused, 1);
	rb_free(rb);
}

/* No buffer, or one whose last reference is going: no new reference. */
static void test_ring_buffer_get_without_a_live_buffer(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_alloc(1, 0, 0, 0);

	(void)state;
	memset(&ev, 0, sizeof(ev));
	assert_null(ring_buffer_get(&ev));
	ev.rb = rb;
	refcount_set(&rb->refcount, 0);
	assert_null(ring_buffer_get(&ev));
	assert_int_equal(refcount_read(&rb->refcount), 0);
	ev.rb = NULL;
	rb_free(rb);
}

/* ---- an NMI while the interrupted writer finds no room ------------------- */

static struct {
	enum perf_interleave_point at;
	struct perf_buffer *rb;
	struct perf_event *ev;		/* the NMI's own event on the same buffer */
	const struct way *w;
	bool fired;
} nmi;

/* The reader has consumed everything; then the NMI writes its record. */
static void nmi_hook(enum perf_interleave_point point, void *obj)
{
	if (nmi.fired || point != nmi.at || obj != nmi.rb)
		return;
	nmi.fired = true;
	WRITE_ONCE(nmi.rb->user_page->data_tail, READ_ONCE(nmi.rb->user_page->data_head));
	assert_int_equal(write32(nmi.w, nmi.ev, 0x4e4d49), 0);
}

/*
 * The outer writer fails for want of room and still is the outermost:
 * the record an NMI wrote meanwhile (after the reader made room) must be
 * published by it, and the wakeup that record earned delivered. At
 * PI_OUTPUT_BEGIN_FAILED the NMI comes before the publish; at
 * PI_PUT_HANDLE_READ_HEAD after the head was read, so the re-check after
 * nest drops must go round again.
 */
static void test_failed_writer_publishes_and_wakes_for_an_nmi(void **state)
{
	static const enum perf_interleave_point points[] = {
		PI_OUTPUT_BEGIN_FAILED, PI_PUT_HANDLE_READ_HEAD,
	};

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_INTERLEAVE))
		pmusim_skip("CONFIG_PERF_INTERLEAVE is off");
	for (unsigned int p = 0; p < ARRAY_SIZE(points); p++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(ways); i++) {
			const struct way *w = &ways[i];
			/* watermark 1: every record moves the wakeup stamp */
			struct perf_buffer *rb = rb_alloc(1, 1, 0, RING_BUFFER_WRITABLE);
			struct perf_event ev, nev;
			unsigned int n = PAGE_SIZE / 32;
			u64 head, tail;

			event_init(&ev, w);
			event_init(&nev, w);
			nev.id = 78;
			ring_buffer_attach(&ev, rb);
			ring_buffer_attach(&nev, ring_buffer_get(&ev));
			for (unsigned int k = 0; k < n - 1; k++)
				assert_int_equal(write32(w, &ev, k), 0);
			head = rb->user_page->data_head;
			ev.pending_wakeup = 0;

			nmi = (typeof(nmi)){ .at = points[p], .rb = rb, .ev = &nev, .w = w };
			perf_interleave_hook = nmi_hook;
			assert_int_equal(write32(w, &ev, 1000), -ENOSPC);
			perf_interleave_hook = NULL;
			assert_true(nmi.fired);

			/*
			 * Published: the NMI's record right after what the reader
			 * consumed; at READ_HEAD the outer writer had counted its
			 * loss already, so the NMI's LOST record carries it first.
			 */
			tail = rb->user_page->data_tail;
			assert_int_equal(tail, head);
			{
				u64 len = points[p] == PI_PUT_HANDLE_READ_HEAD ? 64 : 32;
				u64 start = w->backward ? tail - len : tail;

				assert_int_equal(rb->user_page->data_head,
						 w->backward ? tail - len : tail + len);
				if (len == 64) {
					assert_int_equal(at(rb, start)[0] & 0xffffffff, PERF_RECORD_LOST);
					assert_int_equal(at(rb, start)[2], 1);
					start += 32;
				}
				assert_int_equal(at(rb, start)[1], 0x4e4d49);
				assert_int_equal(local_read(&rb->lost),
						 points[p] == PI_PUT_HANDLE_READ_HEAD ? 0 : 1);
			}
			assert_int_equal(READ_ONCE(rb->nest), 0);
			assert_int_equal(ev.pending_wakeup, 1);
			assert_int_equal(atomic64_read(&ev.lost_samples), 1);
			ring_buffer_attach(&nev, NULL);
			ring_buffer_attach(&ev, NULL);
		}
	}
}

/* An NMI between the space check and the head cmpxchg: the outer writer retries after it. */
static void nmi_at_cmpxchg(enum perf_interleave_point point, void *obj)
{
	if (nmi.fired || point != PI_OUTPUT_BEGIN_CMPXCHG || obj != nmi.rb)
		return;
	nmi.fired = true;
	assert_int_equal(write32(nmi.w, nmi.ev, 0x4e4d49), 0);
}

static void test_nmi_reserving_before_the_cmpxchg_through_every_entry(void **state)
{
	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_INTERLEAVE))
		pmusim_skip("CONFIG_PERF_INTERLEAVE is off");
	for (unsigned int i = 0; i < ARRAY_SIZE(ways); i++) {
		const struct way *w = &ways[i];
		struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
		struct perf_event ev, nev;
		u64 head;

		event_init(&ev, w);
		event_init(&nev, w);
		ring_buffer_attach(&ev, rb);
		ring_buffer_attach(&nev, ring_buffer_get(&ev));
		nmi = (typeof(nmi)){ .rb = rb, .ev = &nev, .w = w };
		perf_interleave_hook = nmi_at_cmpxchg;
		assert_int_equal(write32(w, &ev, 7), 0);
		perf_interleave_hook = NULL;
		assert_true(nmi.fired);
		/* the NMI's record first, then the interrupted writer's, both published */
		head = rb->user_page->data_head;
		assert_int_equal(w->backward ? -head : head, 64);
		assert_int_equal(at(rb, w->backward ? -32 : 0)[1], 0x4e4d49);
		assert_int_equal(at(rb, w->backward ? -64 : 32)[1], 7);
		ring_buffer_attach(&nev, NULL);
		ring_buffer_attach(&ev, NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_buffer_through_every_entry),
		cmocka_unit_test(test_pause_then_lost_record_through_every_entry),
		cmocka_unit_test(test_full_buffer_through_every_entry),
		cmocka_unit_test(test_inherited_event_writes_into_the_parents_buffer),
		cmocka_unit_test(test_rb_alloc_refuses_bad_page_counts),
		cmocka_unit_test(test_ring_buffer_get_without_a_live_buffer),
		cmocka_unit_test(test_failed_writer_publishes_and_wakes_for_an_nmi),
		cmocka_unit_test(test_nmi_reserving_before_the_cmpxchg_through_every_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
