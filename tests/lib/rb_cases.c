// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring-buffer cases of rb_cases.h, on whichever backend runs them:
 * record sizes and data_head in both directions, the space check at its
 * exact edges, LOST records and the lost counts, pause and resume, the
 * watermark and wakeup_events wakeups.
 */
#include <errno.h>
#include <string.h>

#include "tests/test.h"
#include "tests/lib/rb_cases.h"
#include "tests/lib/rb_view.h"

static const struct rb_backend *B;

/* A buffer of @nr_pages with the cases' event, and the view of it. */
static void *open_buffer(struct rbt_view *v, int nr_pages, bool writable, bool backward,
			 long watermark)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .write_backward = backward };
	void *b = B->open(nr_pages, watermark, writable, &attr);

	rbt_view_init_page(v, B->user_page(b));
	return b;
}

static void assert_lost_record(const struct rbt_rec *r, uint64_t id, uint64_t lost)
{
	assert_int_equal(r->type, PERF_RECORD_LOST);
	assert_int_equal(r->misc, 0);
	assert_int_equal(r->size, 24);
	assert_int_equal(r->word1, id);
	assert_int_equal(r->word2, lost);
}

static void forward_write_advances_data_head_by_each_record_size(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, true, false, 0);
	struct rbt_rec r[2];

	(void)state;
	assert_int_equal(B->write(b, 32, 1, false), 0);
	assert_int_equal(rbt_read_head(&v), 32);
	assert_int_equal(B->state(b).head, 32);
	assert_int_equal(B->write(b, 48, 2, false), 0);
	assert_int_equal(rbt_read_head(&v), 80);
	assert_int_equal(rbt_parse(&v, 0, 80, r, 2), 2);
	assert_int_equal(r[0].word1, 1);
	assert_int_equal(r[1].word1, 2);
	assert_true(rbt_record_intact(&v, &r[0]));
	assert_true(rbt_record_intact(&v, &r[1]));
	assert_int_equal(B->state(b).nest, 0);
	B->close(b);
}

static void backward_write_publishes_minus_the_bytes_written(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, false, true, 0);
	struct rbt_rec r[2];
	uint16_t size;

	(void)state;
	assert_int_equal(B->write(b, 32, 1, false), 0);
	assert_int_equal(rbt_read_head(&v), (uint64_t)-32);
	assert_int_equal((long)B->state(b).head, -32);
	/* the record sits at the end of the data, written upwards */
	memcpy(&size, v.data + 4096 - 32 + 6, sizeof(size));
	assert_int_equal(size, 32);
	assert_int_equal(B->write(b, 48, 2, false), 0);
	assert_int_equal(rbt_read_head(&v), (uint64_t)-80);
	/* newest first from data_head up to 0 */
	assert_int_equal(rbt_parse(&v, (uint64_t)-80, 0, r, 2), 2);
	assert_int_equal(r[0].word1, 2);
	assert_int_equal(r[1].word1, 1);
	assert_true(rbt_record_intact(&v, &r[0]));
	assert_true(rbt_record_intact(&v, &r[1]));
	B->close(b);
}

static void forward_record_filling_the_free_space_fits_one_byte_more_fails(void **state)
{
	struct rbt_view v;
	struct rbt_rec r[2];
	void *b;

	(void)state;
	/* Empty buffer: size - 1 bytes free, so 4088 is the largest 8-aligned record. */
	b = open_buffer(&v, 1, true, false, 0);
	assert_int_equal(B->write(b, 4096, 1, false), -ENOSPC);
	assert_int_equal(B->state(b).lost, 1);
	B->close(b);
	b = open_buffer(&v, 1, true, false, 0);
	assert_int_equal(B->write(b, 4095, 2, false), 0);
	assert_int_equal(rbt_read_head(&v), 4095);
	assert_int_equal(B->write(b, 1, 3, false), -ENOSPC);
	B->close(b);

	b = open_buffer(&v, 1, true, false, 0);
	assert_int_equal(B->write(b, 4088, 1, false), 0);
	assert_int_equal(B->write(b, 16, 2, false), -ENOSPC);
	assert_int_equal(B->write(b, 8, 3, false), -ENOSPC);
	assert_int_equal(B->state(b).lost, 2);

	/* Consumed: 4095 free again; with the LOST record in front, 4071 + 24 fits exactly. */
	rbt_write_tail(&v, 4088);
	assert_int_equal(B->write(b, 4072, 4, false), -ENOSPC);
	assert_int_equal(B->write(b, 4071, 5, false), 0);
	assert_int_equal(rbt_read_head(&v), 4088 + 4095);
	assert_int_equal(rbt_parse(&v, 4088, 4088 + 4095, r, 2), 2);
	assert_lost_record(&r[0], RB_CASE_ID, 3);
	assert_int_equal(r[1].word1, 5);
	assert_true(rbt_record_intact(&v, &r[1]));
	assert_int_equal(B->write(b, 1, 6, false), -ENOSPC);
	B->close(b);
}

static void backward_space_check_swaps_head_and_tail(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, true, true, 0);
	struct rbt_rec r[2];
	uint64_t head;

	(void)state;
	assert_int_equal(B->write(b, 4095, 1, false), 0);
	head = rbt_read_head(&v);
	assert_int_equal(head, (uint64_t)-4095);
	assert_int_equal(B->write(b, 8, 2, false), -ENOSPC);

	/* The reader read everything: data_tail = data_head frees size - 1 bytes. */
	rbt_write_tail(&v, head);
	assert_int_equal(B->write(b, 4096 - 24, 3, false), -ENOSPC);
	assert_int_equal(B->write(b, 64, 4, false), 0);
	/* LOST first in the reservation: at the new head, read before the record */
	assert_int_equal(rbt_parse(&v, head - 88, head, r, 2), 2);
	assert_lost_record(&r[0], RB_CASE_ID, 2);
	assert_int_equal(r[1].word1, 4);
	assert_true(rbt_record_intact(&v, &r[1]));
	B->close(b);
}

static void record_larger_than_the_buffer_is_lost_without_overwrite(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, true, false, 0);
	struct rb_state st;

	(void)state;
	assert_int_equal(B->write(b, 4104, 1, false), -ENOSPC);
	st = B->state(b);
	assert_int_equal(st.lost, 1);
	assert_int_equal(st.lost_samples, 1);
	assert_int_equal(rbt_read_head(&v), 0);
	assert_int_equal(st.head, 0);
	assert_int_equal(st.nest, 0);
	B->close(b);
}

static void lost_record_goes_ahead_of_the_next_fitting_record(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, true, false, 0);
	struct rbt_rec r[2];
	uint64_t want[3] = { 0, RB_CASE_ID, 2 };
	uint64_t got[3];
	int i;

	(void)state;
	for (i = 0; i < 63; i++)
		assert_int_equal(B->write(b, 64, i + 1, false), 0);
	assert_int_equal(rbt_read_head(&v), 4032);
	assert_int_equal(B->write(b, 64, 100, false), -ENOSPC);
	assert_int_equal(B->write(b, 64, 101, false), -ENOSPC);
	assert_int_equal(B->state(b).lost, 2);
	assert_int_equal(B->state(b).lost_samples, 2);
	assert_int_equal(rbt_read_head(&v), 4032);

	rbt_write_tail(&v, 128);
	assert_int_equal(B->write(b, 64, 102, false), 0);
	assert_int_equal(B->state(b).lost, 0);
	assert_int_equal(rbt_read_head(&v), 4032 + 24 + 64);

	/* exact bytes: {PERF_RECORD_LOST, misc 0, size 24}, id, lost */
	want[0] = rbt_header_word(PERF_RECORD_LOST, 0, 24);
	rbt_copy_out(&v, 4032, got, sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
	/* the record itself wraps the end of the buffer */
	assert_int_equal(rbt_parse(&v, 4032, 4032 + 88, r, 2), 2);
	assert_int_equal(r[1].word1, 102);
	assert_true(rbt_record_intact(&v, &r[1]));
	B->close(b);
}

static void lost_record_that_does_not_fit_keeps_the_count_growing(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, true, false, 0);
	struct rbt_rec r[2];

	(void)state;
	assert_int_equal(B->write(b, 4008, 1, false), 0);
	assert_int_equal(B->write(b, 4000, 2, false), -ENOSPC);
	assert_int_equal(B->state(b).lost, 1);

	/* 87 bytes free: a 64-byte record fits alone, not behind a LOST */
	assert_int_equal(B->write(b, 64, 3, false), -ENOSPC);
	assert_int_equal(B->write(b, 64, 4, false), -ENOSPC);
	assert_int_equal(B->state(b).lost, 3);
	assert_int_equal(rbt_read_head(&v), 4008);

	assert_int_equal(B->write(b, 56, 5, false), 0);
	assert_int_equal(rbt_parse(&v, 4008, 4008 + 80, r, 2), 2);
	assert_lost_record(&r[0], RB_CASE_ID, 3);
	assert_int_equal(r[1].word1, 5);
	assert_true(rbt_record_intact(&v, &r[1]));
	assert_int_equal(B->state(b).lost_samples, 3);
	B->close(b);
}

static void pause_loses_every_record_and_resume_puts_lost_first(void **state)
{
	int mode;

	(void)state;
	for (mode = 0; mode < 4; mode++) {
		bool writable = mode & 1, backward = mode & 2;
		struct rbt_view v;
		void *b = open_buffer(&v, 1, writable, backward, 0);
		struct rbt_rec r[3];
		uint64_t head;

		assert_int_equal(B->write(b, 40, 1, false), 0);
		head = rbt_read_head(&v);

		B->pause(b, true);
		assert_int_equal(B->write(b, 40, 2, false), -ENOSPC);
		assert_int_equal(B->write(b, 40, 3, false), -ENOSPC);
		assert_int_equal(B->write(b, 4000, 4, false), -ENOSPC);
		assert_int_equal(B->state(b).lost, 3);
		assert_int_equal(B->state(b).lost_samples, 3);
		assert_int_equal(rbt_read_head(&v), head);
		assert_int_equal(B->state(b).nest, 0);

		B->pause(b, false);
		assert_int_equal(B->write(b, 40, 5, false), 0);
		assert_int_equal(rbt_parse_since(&v, backward, 0, r, 3), 3);
		assert_int_equal(r[0].word1, 1);
		assert_lost_record(&r[1], RB_CASE_ID, 3);
		assert_int_equal(r[2].word1, 5);
		assert_true(rbt_record_intact(&v, &r[2]));
		assert_int_equal(B->state(b).lost, 0);
		B->close(b);
	}
}

/* ---- wakeups ------------------------------------------------------------------- */

static void watermark_wakes_only_beyond_it_not_at_it(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, false, false, 64);

	(void)state;
	assert_int_equal(B->write(b, 64, 1, false), 0);
	assert_int_equal(B->state(b).wakeup, 0);
	assert_false(B->take_wakeup(b));
	assert_int_equal(B->write(b, 16, 2, false), 0);
	assert_int_equal(B->state(b).wakeup, 64);
	assert_true(B->take_wakeup(b));
	B->close(b);
}

static void watermark_stamp_advances_one_watermark_per_record(void **state)
{
	int backward;

	(void)state;
	for (backward = 0; backward < 2; backward++) {
		struct rbt_view v;
		void *b = open_buffer(&v, 1, false, backward, 100);

		assert_int_equal(B->write(b, 64, 1, false), 0);
		assert_int_equal(B->state(b).wakeup, 0);
		assert_false(B->take_wakeup(b));

		assert_int_equal(B->write(b, 64, 2, false), 0);	/* 128 - 0 > 100 */
		assert_int_equal(B->state(b).wakeup, 100);
		assert_true(B->take_wakeup(b));

		assert_int_equal(B->write(b, 64, 3, false), 0);	/* 192 - 100 */
		assert_int_equal(B->state(b).wakeup, 100);
		assert_false(B->take_wakeup(b));

		/* a big record still moves the stamp by one watermark only */
		assert_int_equal(B->write(b, 1000, 4, false), 0);	/* 1192 */
		assert_int_equal(B->state(b).wakeup, 200);
		assert_int_equal(B->write(b, 8 + 8, 5, false), 0);	/* 1208 */
		assert_int_equal(B->state(b).wakeup, 300);
		B->close(b);
	}
}

static void wakeup_events_wakes_every_nth_sample_only(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .wakeup_events = 3 };
	void *b = B->open(1, 4096, false, &attr);
	int i;

	(void)state;
	for (i = 1; i <= 7; i++) {
		/* records that are not samples never count */
		assert_int_equal(B->write(b, 16, 100 + i, false), 0);
		assert_int_equal(B->write(b, 16, i, true), 0);
		assert_int_equal(B->take_wakeup(b), i % 3 == 0);
		assert_int_equal(B->state(b).events, i % 3);
		assert_int_equal(B->state(b).wakeup, i / 3);
	}
	B->close(b);
}

static void wakeup_events_is_ignored_with_attr_watermark(void **state)
{
	/* wakeup_watermark shares the union with wakeup_events */
	struct perf_event_attr attr = { .size = sizeof(attr), .watermark = 1, .wakeup_watermark = 1 };
	void *b = B->open(1, 4096, false, &attr);
	int i;

	(void)state;
	for (i = 0; i < 5; i++)
		assert_int_equal(B->write(b, 16, i, true), 0);
	assert_int_equal(B->state(b).events, 0);
	assert_int_equal(B->state(b).wakeup, 0);
	assert_false(B->take_wakeup(b));
	B->close(b);
}

static void wakeup_events_zero_leaves_only_the_watermark(void **state)
{
	struct rbt_view v;
	void *b = open_buffer(&v, 1, false, false, 0);
	int i;

	(void)state;
	for (i = 0; i < 64; i++)
		assert_int_equal(B->write(b, 32, i, true), 0);
	/* 2048 bytes: not beyond the 2048 watermark */
	assert_int_equal(B->state(b).events, 0);
	assert_false(B->take_wakeup(b));
	assert_int_equal(B->write(b, 32, 64, true), 0);
	assert_true(B->take_wakeup(b));
	B->close(b);
}

#define C(f) cmocka_unit_test(f)
static const struct CMUnitTest cases[] = {
	C(forward_write_advances_data_head_by_each_record_size),
	C(backward_write_publishes_minus_the_bytes_written),
	C(forward_record_filling_the_free_space_fits_one_byte_more_fails),
	C(backward_space_check_swaps_head_and_tail),
	C(record_larger_than_the_buffer_is_lost_without_overwrite),
	C(lost_record_goes_ahead_of_the_next_fitting_record),
	C(lost_record_that_does_not_fit_keeps_the_count_growing),
	C(pause_loses_every_record_and_resume_puts_lost_first),
	C(watermark_wakes_only_beyond_it_not_at_it),
	C(watermark_stamp_advances_one_watermark_per_record),
	C(wakeup_events_wakes_every_nth_sample_only),
	C(wakeup_events_is_ignored_with_attr_watermark),
	C(wakeup_events_zero_leaves_only_the_watermark),
};

int rb_cases_run(const struct rb_backend *backend, const char *group)
{
	B = backend;
	return _cmocka_run_group_tests(group, cases, sizeof(cases) / sizeof(cases[0]), NULL, NULL);
}
