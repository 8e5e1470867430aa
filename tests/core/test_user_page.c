// SPDX-License-Identifier: GPL-2.0-only
/*
 * The user page's self-monitoring fields: the lock sequence, index and
 * offset for active and inactive events, times, capability bits, and the
 * TSC constants for 64-bit and narrow TSCs.
 */
#include "tests/test.h"
#include "core/x86/tsc.h"
#include "records_fixture.h"

static int idx_of(struct perf_event *event) { return event->hw.idx + 1; }

static void active_event_fields_and_lock(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pmu pmu = { .event_idx = idx_of, .pmc_width = 48, .cap_user_rdpmc = true };
	struct perf_event_mmap_page *pg;
	u32 lock;

	(void)state;
	fixture_event(&ev, &rb);
	pg = rb->user_page;
	ev.pmu = &pmu;
	ev.hw.idx = 2;
	local64_set(&ev.count, 1000);
	local64_set(&ev.hw.prev_count, 400);
	ev.total_time_enabled = 10;
	ev.total_time_running = 8;
	ev.tstamp = fixture_now - 5;
	lock = pg->lock;
	perf_event_update_userpage(&ev);
	assert_int_equal(pg->lock, lock + 2);
	assert_int_equal(pg->index, 3);
	assert_int_equal(pg->offset, 600);
	assert_int_equal(pg->time_enabled, 15);
	assert_int_equal(pg->time_running, 13);
	assert_int_equal(pg->pmc_width, 48);
	assert_true(pg->cap_user_rdpmc);
	assert_true(pg->cap_user_time);
	assert_true(pg->cap_user_time_zero);
	assert_false(pg->cap_user_time_short);
	/* 2.1 GHz: 10^6/2.1*10^6 * 2^32 rounded; shift 32 is the largest allowed. */
	assert_int_equal(pg->time_shift, 32);
	assert_int_equal(pg->time_mult, 2045222522u);
	assert_int_equal(pg->time_zero, 0);
	assert_int_equal(pg->time_offset, (u64)0 - fixture_now);
#ifdef CONFIG_PERF_HW_TIME
	assert_true(pg->cap_user_time_mono_raw);
	assert_int_equal(pg->time_mono_shift, model_clock.raw_shift);
	assert_int_equal(pg->time_mono_mult, model_clock.raw_mult);
#endif

	/* Stopped: index 0, offset is the whole count. */
	ev.hw.state = PERF_HES_STOPPED;
	perf_event_update_userpage(&ev);
	assert_int_equal(pg->lock, lock + 4);
	assert_int_equal(pg->index, 0);
	assert_int_equal(pg->offset, 1000);
	ev.hw.state = 0;
	ev.state = PERF_EVENT_STATE_INACTIVE;
	perf_event_update_userpage(&ev);
	assert_int_equal(pg->index, 0);
	assert_int_equal(pg->time_running, 8);
	fixture_done(&ev, rb);
}

/* What perf_mmap() sets once: the deprecated bit 0, the ABI size, the data area. */
static void init_userpage_sets_size_and_the_data_area(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct perf_event_mmap_page *pg;

	(void)state;
	fixture_event(&ev, &rb);
	pg = rb->user_page;
	pg->data_offset = pg->data_size = 0;
	perf_event_init_userpage(&ev);
	assert_true(pg->cap_bit0_is_deprecated);
	assert_false(pg->cap_bit0);
	/* v6.12 fills 96 bytes; the RFC's five time_mono_* fields add 32 */
	assert_int_equal(pg->size, IS_ENABLED(CONFIG_PERF_HW_TIME) ? 128 : 96);
	assert_int_equal(pg->data_offset, PAGE_SIZE);
	assert_int_equal(pg->data_size, 4 * PAGE_SIZE);
	assert_int_equal(pg->lock, 0);
	/* no buffer: nothing to do */
	ring_buffer_attach(&ev, NULL);
	perf_event_init_userpage(&ev);
	ring_buffer_put(rb);
}

/* A PMU without rdpmc indices (or no PMU yet) publishes index 0 even while active. */
static void no_event_idx_means_no_rdpmc_index(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pmu pmu = { .pmc_width = 48 };

	(void)state;
	fixture_event(&ev, &rb);
	local64_set(&ev.count, 77);
	local64_set(&ev.hw.prev_count, 5);
	perf_event_update_userpage(&ev);
	assert_int_equal(rb->user_page->index, 0);
	assert_int_equal(rb->user_page->offset, 77);
	ev.pmu = &pmu;
	perf_event_update_userpage(&ev);
	assert_int_equal(rb->user_page->index, 0);
	assert_int_equal(rb->user_page->offset, 77);
	fixture_done(&ev, rb);
}

static void clockid_event_gets_no_time_zero(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;

	(void)state;
	fixture_event(&ev, &rb);
	ev.attr.use_clockid = 1;
	perf_event_update_userpage(&ev);
	assert_true(rb->user_page->cap_user_time);
	assert_false(rb->user_page->cap_user_time_zero);
	fixture_done(&ev, rb);
}

static void narrow_tsc_sets_time_short(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;

	(void)state;
	fixture_event(&ev, &rb);
	assert_int_equal(model_clock_set(24000, 32, 0, 0), 0);
	fixture_now = 500ULL * 1000000000ULL;	/* past the first wrap (179 s) */
	perf_event_update_userpage(&ev);
	assert_true(rb->user_page->cap_user_time_short);
	assert_int_equal(rb->user_page->time_mask, 0xffffffffULL);
	assert_int_equal(rb->user_page->time_cycles, model_clock_ns_to_tsc(fixture_now));
	assert_true(rb->user_page->time_cycles > 0xffffffffULL);
	assert_int_equal(rb->user_page->time_shift, 26);
	model_clock_reset();
	fixture_done(&ev, rb);
}

static void mult_shift_choice_is_largest_safe_shift(void **state)
{
	static const u32 khz[] = { 1000000, 2100000, 3300000, 2999999, 24000, 1000, 10000000 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(khz); i++) {
		u32 mult, shift;

		calc_mult_shift(&mult, &shift, khz[i], 1000000, 0);
		assert_true(shift <= 32);
		if (shift < 32)	/* one more bit would not fit a u32 */
			assert_true((((unsigned __int128)1000000 << (shift + 1)) + khz[i] / 2) / khz[i] > UINT32_MAX);
		calc_mult_shift(&mult, &shift, (u64)khz[i] * 1000, 1000000000, (u64)khz[i] * 1000 * 600);
		assert_true((unsigned __int128)khz[i] * 1000 * 600 * mult < ((unsigned __int128)1 << 63));
	}
	assert_int_equal(model_clock_set(0, 64, 0, 0), -EINVAL);
	assert_int_equal(model_clock_set(1000, 65, 0, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(active_event_fields_and_lock),
		cmocka_unit_test(init_userpage_sets_size_and_the_data_area),
		cmocka_unit_test(no_event_idx_means_no_rdpmc_index),
		cmocka_unit_test(clockid_event_gets_no_time_zero),
		cmocka_unit_test(narrow_tsc_sets_time_short),
		cmocka_unit_test(mult_shift_choice_is_largest_safe_shift),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
