// SPDX-License-Identifier: GPL-2.0-only
/*
 * User space converts raw TSC values with the page's fields alone and
 * lands on the model clock to the nanosecond: several TSC frequencies,
 * 1 h, 10 h and 100 h into a run, across page refreshes, for perf time
 * and (RFC) CLOCK_MONOTONIC_RAW, for 64-bit and 32-bit TSCs.
 */
#include "tests/test.h"
#include "core/x86/tsc.h"
#include "tools/perf/util/tsc_convert.h"
#include "tests/core/records_fixture.h"

#define SEC 1000000000ULL
#define HOUR (3600 * SEC)

static const u32 freqs_khz[] = { 1000000, 2100000, 3300000, 2999999, 24000 };

/* Convert TSC values from @now to @now + @span after refreshing the page at @now. */
static void check_window(struct perf_event *ev, struct perf_buffer *rb, u64 now, u64 span)
{
	struct tsc_conv conv;

	fixture_now = now;
	perf_event_update_userpage(ev);
	assert_int_equal(tsc_conv_read(rb->user_page, &conv), 0);

	for (u64 k = 0; k <= 64; k++) {
		/* a spread of points, odd ns included, out to span */
		u64 ns = now + span / 64 * k + (k * 7919) % 1000;
		u64 full = model_clock_ns_to_tsc(ns);
		u64 reg = full & model_clock_tsc_mask();
		u64 got = tsc_conv_to_perf_time(&conv, reg);

		assert_int_equal(got, model_clock_tsc_to_ns(full));
		if (model_clock.tsc_khz >= 1000000)
			assert_int_equal(got, ns);	/* a cycle is at most 1 ns */
		else
			assert_true(got <= ns && ns - got < 1000000000ULL / model_clock.tsc_khz * 1000 + 1000);
		{
			/* the uapi's reverse formula: close, not exact (it floors twice);
			 * a narrow TSC cannot widen a count before time_cycles */
			u64 back = tsc_conv_to_perf_time(&conv, tsc_conv_from_perf_time(&conv, got) &
							 model_clock_tsc_mask());
			u64 tick = 1000000000ULL / model_clock.tsc_khz + 2;

			assert_true(conv.time_short || (back <= got && got - back <= tick));
		}
		if (conv.mono_raw)
			assert_int_equal(tsc_conv_to_mono_raw(&conv, reg),
					 model_clock_tsc_to_mono_raw(full));
	}
	conv.mono_raw = false;	/* a page without it: no raw time at all */
	assert_int_equal(tsc_conv_to_mono_raw(&conv, now), 0);
}

static void run(u32 bits, u64 span)
{
	static const u64 offsets[] = { HOUR, 10 * HOUR, 100 * HOUR };

	for (size_t f = 0; f < ARRAY_SIZE(freqs_khz); f++) {
		struct perf_event ev;
		struct perf_buffer *rb;

		fixture_event(&ev, &rb);
		assert_int_equal(model_clock_set(freqs_khz[f], bits, 987654321, 5 * SEC + 17), 0);
		for (size_t o = 0; o < ARRAY_SIZE(offsets); o++)
			/* several refreshes in a row, each checked up to the next */
			for (u64 r = 0; r < 4; r++)
				check_window(&ev, rb, offsets[o] + r * span, span);
		fixture_done(&ev, rb);
	}
	model_clock_reset();
}

static void tsc64_matches_model_clock_at_1h_10h_100h(void **state)
{
	(void)state;
	/* the raw clock's product is sized for 600 s: use most of it */
	run(64, 590 * SEC);
}

static void tsc32_widened_across_wraps(void **state)
{
	(void)state;
	/* a 32-bit TSC wraps every 1.3 s at 3.3 GHz: refresh within that */
	run(32, SEC);
}

static void perf_time_has_no_drift_from_nominal_beyond_mult_rounding(void **state)
{
	(void)state;
	for (size_t f = 0; f < ARRAY_SIZE(freqs_khz); f++) {
		u64 cyc = (u64)freqs_khz[f] * 1000 * 360000;	/* 100 h of cycles */
		unsigned __int128 ideal;
		u64 ns, err;

		model_clock_set(freqs_khz[f], 64, 0, 0);
		ns = model_clock_tsc_to_ns(cyc);
		ideal = (unsigned __int128)cyc * 1000000 / freqs_khz[f];
		err = ns > ideal ? ns - (u64)ideal : (u64)ideal - ns;
		/* mult rounded to nearest: off by at most half a unit in 2^shift */
		assert_true(err <= (cyc >> (model_clock.cyc2ns.cyc2ns_shift + 1)) + 1);
	}
	model_clock_reset();
}

static void reader_refuses_a_page_without_time_zero(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct tsc_conv conv;

	(void)state;
	fixture_event(&ev, &rb);
	perf_event_update_userpage(&ev);
	assert_int_equal(rb->user_page->lock & 1, 0);
	rb->user_page->cap_user_time_zero = 0;
	assert_int_equal(tsc_conv_read(rb->user_page, &conv), -1);
	fixture_done(&ev, rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tsc64_matches_model_clock_at_1h_10h_100h),
		cmocka_unit_test(tsc32_widened_across_wraps),
		cmocka_unit_test(perf_time_has_no_drift_from_nominal_beyond_mult_rounding),
		cmocka_unit_test(reader_refuses_a_page_without_time_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
