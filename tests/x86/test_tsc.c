// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timekeeper's ticks behind the monotonic-raw fields of the user
 * page follow the tick rate in force (perf_event_hz_set(), which a
 * scenario's machine.hz sets), not the CONFIG_HZ the build was made with;
 * whatever the rate, the page converts any later TSC value exactly.
 */
#include "tests/x86/x86_test.h"
#include "core/x86/tsc.h"

#define TEST_TSC_KHZ	2100000ULL	/* 2.1 GHz, set here: no dependence on the config */

static int setup(void **state)
{
	(void)state;
	assert_int_equal(model_clock_set(TEST_TSC_KHZ, 64, 0, 0), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(perf_event_hz_set(CONFIG_HZ), 0);
	model_clock_reset();
	return 0;
}

/* What user space computes from a snapshot for a TSC value @cyc at or after its tick. */
static u64 raw_from_snapshot(const struct mono_raw_snapshot *s, u64 cyc)
{
	return s->base + (u64)(((unsigned __int128)(cyc - s->cycle_last) * s->mult +
				s->xtime_nsec) >> s->shift);
}

static void test_tick_length_follows_the_runtime_hz(void **state)
{
	static const int rates[] = { 100, 250, 300, 1000, 4000 };
	/* 7.5 ticks at 100 Hz, a little more, so no rate lands on a tick */
	const u64 cyc = 7 * TEST_TSC_KHZ * 10 + TEST_TSC_KHZ * 5 + 12345;

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(rates); i++) {
		u64 tick = TEST_TSC_KHZ * 1000 / rates[i];
		struct mono_raw_snapshot s;

		assert_int_equal(perf_event_hz_set(rates[i]), 0);
		assert_int_equal(model_clock_tick_cycles(), tick);
		model_clock_mono_raw_snapshot(cyc, &s);
		assert_int_equal(s.cycle_last, cyc / tick * tick);
		assert_true(cyc - s.cycle_last < tick);
		/* the snapshot is exact at its tick and at every later count */
		for (u64 d = 0; d < 3 * tick; d += tick / 3 + 1)
			assert_int_equal(raw_from_snapshot(&s, s.cycle_last + d),
					 model_clock_tsc_to_mono_raw(s.cycle_last + d));
	}
}

/* A rejected rate keeps the old one: the ticks don't move. */
static void test_a_refused_hz_leaves_the_ticks_alone(void **state)
{
	(void)state;
	assert_int_equal(perf_event_hz_set(250), 0);
	assert_int_equal(perf_event_hz_set(0), -EINVAL);
	assert_int_equal(perf_event_hz_set(-5), -EINVAL);
	assert_int_equal(model_clock_tick_cycles(), TEST_TSC_KHZ * 1000 / 250);
}

/* A TSC slower than the tick rate still advances the timekeeper one cycle a tick. */
static void test_a_clock_slower_than_hz_ticks_every_cycle(void **state)
{
	struct mono_raw_snapshot s;

	(void)state;
	assert_int_equal(model_clock_set(1, 64, 1000, 5), 0);	/* 1000 cycles a second */
	assert_int_equal(perf_event_hz_set(4000), 0);
	assert_int_equal(model_clock_tick_cycles(), 1);
	model_clock_mono_raw_snapshot(1000 + 777, &s);
	assert_int_equal(s.cycle_last, 1000 + 777);
	assert_int_equal(raw_from_snapshot(&s, 1000 + 777), 5 + 777 * 1000000ULL);
	/* exactly one cycle per tick: the tick and the cycle rate agree */
	assert_int_equal(perf_event_hz_set(1000), 0);
	assert_int_equal(model_clock_tick_cycles(), 1);
	assert_int_equal(perf_event_hz_set(999), 0);
	assert_int_equal(model_clock_tick_cycles(), 1);
	assert_int_equal(perf_event_hz_set(500), 0);
	assert_int_equal(model_clock_tick_cycles(), 2);
}

#ifdef CONFIG_PERF_HW_TIME
static struct mono_raw_snapshot page_snapshot(const struct perf_event_mmap_page *pg)
{
	return (struct mono_raw_snapshot){
		.cycle_last = pg->time_mono_last, .mult = pg->time_mono_mult,
		.shift = pg->time_mono_shift, .xtime_nsec = pg->time_mono_nsec,
		.base = pg->time_mono_base,
	};
}
#endif

/* The RFC's time_mono_* fields as arch_perf_update_userpage() writes them. */
static void test_user_page_mono_raw_fields_tick_with_machine_hz(void **state)
{
#ifdef CONFIG_PERF_HW_TIME
	struct perf_event ev;
	struct perf_event_mmap_page pg;
	struct mono_raw_snapshot s;
	/* perf time 1.234567891 s: the last TSC count inside that ns is 2,592,592,573 */
	const u64 now = 1234567891ULL;
	u64 cyc = model_clock_ns_to_tsc(now);

	(void)state;
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(cyc, 2592592573ULL);

	/* 100 Hz: 21,000,000 cycles a tick, the last one the 123rd */
	assert_int_equal(perf_event_hz_set(100), 0);
	memset(&pg, 0, sizeof(pg));
	arch_perf_update_userpage(&ev, &pg, now);
	assert_true(pg.cap_user_time_mono_raw);
	assert_int_equal(pg.time_mono_last, 123 * 21000000ULL);
	assert_int_equal(pg.time_mono_base, 1000000000ULL);
	s = page_snapshot(&pg);
	for (u64 c = cyc; c < cyc + 5 * 21000000ULL; c += 4999999)
		assert_int_equal(raw_from_snapshot(&s, c), model_clock_tsc_to_mono_raw(c));

	/* the same instant at 1000 Hz: the 1234th tick of 2,100,000 cycles */
	assert_int_equal(perf_event_hz_set(1000), 0);
	arch_perf_update_userpage(&ev, &pg, now);
	assert_int_equal(pg.time_mono_last, 1234 * 2100000ULL);
	s = page_snapshot(&pg);
	assert_int_equal(raw_from_snapshot(&s, cyc), model_clock_tsc_to_mono_raw(cyc));
#else
	(void)state;
	pmusim_skip("CONFIG_PERF_HW_TIME is off: the user page has no time_mono_* fields");
#endif
}

/*
 * calc_mult_shift() at its limits: a ratio too small for any shift ends
 * at shift 0 with the smallest mult that still moves (1); one too large
 * saturates mult at 2^32 - 1; a max_delta bound lowers the shift until
 * max_delta * mult fits in 63 bits.
 */
static void test_mult_shift_at_its_limits(void **state)
{
	u32 mult, shift;

	(void)state;
	calc_mult_shift(&mult, &shift, 1ULL << 63, 1, 0);	/* 2^-63 per unit */
	assert_int_equal(shift, 0);
	assert_int_equal(mult, 1);
	calc_mult_shift(&mult, &shift, 1, 1ULL << 40, 0);	/* 2^40 per unit */
	assert_int_equal(shift, 0);
	assert_int_equal(mult, UINT32_MAX);
	calc_mult_shift(&mult, &shift, 1000, 1000, 0);		/* 1:1 */
	assert_int_equal(shift, 31);
	assert_int_equal(mult, 1U << 31);
	calc_mult_shift(&mult, &shift, 1000, 1000, 1ULL << 40);	/* bounded: 2^40 * mult < 2^63 */
	assert_int_equal(shift, 22);
	assert_int_equal(mult, 1U << 22);
	/* a bound nothing satisfies: shift 0 and the exact ratio */
	calc_mult_shift(&mult, &shift, 1000, 3000, UINT64_MAX);
	assert_int_equal(shift, 0);
	assert_int_equal(mult, 3);
	assert_int_equal(model_clock_set(TEST_TSC_KHZ, 0, 0, 0), -EINVAL);
	assert_int_equal(model_clock.tsc_khz, TEST_TSC_KHZ);	/* unchanged */
}

/*
 * The snapshot is kept between calls while the count stays in its tick:
 * whatever the order of the counts (forward in a tick, across ticks, back
 * to an earlier tick), a new rate or a new clock in between, each call
 * gives the snapshot of the count's own tick.
 */
static void test_the_kept_snapshot_is_the_counts_own(void **state)
{
	static const struct { u64 cyc; int hz; u32 khz; u64 c0; } steps[] = {
		{ 5000000, 1000, TEST_TSC_KHZ, 0 },
		{ 5000001, 1000, TEST_TSC_KHZ, 0 },		/* the same tick */
		{ 4199999, 1000, TEST_TSC_KHZ, 0 },		/* the tick before */
		{ 4200000, 1000, TEST_TSC_KHZ, 0 },		/* a tick's first count */
		{ 6299999, 1000, TEST_TSC_KHZ, 0 },		/* its last */
		{ 6299999, 250, TEST_TSC_KHZ, 0 },		/* the same count, another rate */
		{ 6299999, 250, 3000000, 0 },			/* another clock */
		{ 6299999, 250, 3000000, 777 },			/* another c0 */
		{ 1ULL << 40, 250, 3000000, 777 },
		{ (1ULL << 40) + 1, 250, 3000000, 777 },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		struct mono_raw_snapshot s;
		u64 tick, since;

		/* a new clock only when it changes: the kept snapshot must be what the call gets */
		if (!i || steps[i].khz != steps[i - 1].khz || steps[i].c0 != steps[i - 1].c0)
			assert_int_equal(model_clock_set(steps[i].khz, 64, steps[i].c0, 0), 0);
		assert_int_equal(perf_event_hz_set(steps[i].hz), 0);
		tick = (u64)steps[i].khz * 1000 / (u64)steps[i].hz;
		since = steps[i].cyc - steps[i].c0;
		model_clock_mono_raw_snapshot(steps[i].cyc, &s);
		assert_int_equal(s.cycle_last, steps[i].c0 + since / tick * tick);
		assert_int_equal(raw_from_snapshot(&s, steps[i].cyc),
				 model_clock_tsc_to_mono_raw(steps[i].cyc));
	}
}

/*
 * model_clock_ns_to_tsc() estimates the quotient in floating point and
 * corrects it: the same count as the division it stands for, for clocks
 * slow and fast, with c0 small and large, and perf times from 0 to 2^64-1
 * (estimates near 2^52 counts, and past them the division itself).
 */
static void test_ns_to_tsc_is_the_division(void **state)
{
	static const struct { u32 khz; u64 c0; } clocks[] = {
		{ 1, 0 }, { 999, 12345 }, { 1000000, 0 }, { TEST_TSC_KHZ, 0 },
		{ TEST_TSC_KHZ, 1ULL << 50 }, { 3000000, 777 }, { 4294967295u, 1ULL << 62 },
	};
	u64 seed = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (unsigned int c = 0; c < ARRAY_SIZE(clocks); c++) {
		u32 mul, shift;
		unsigned __int128 k;

		assert_int_equal(model_clock_set(clocks[c].khz, 64, clocks[c].c0, 0), 0);
		mul = model_clock.cyc2ns.cyc2ns_mul;
		shift = model_clock.cyc2ns.cyc2ns_shift;
		k = ((unsigned __int128)clocks[c].c0 * mul) >> shift;
		for (int i = 0; i < 4000; i++) {
			u64 ns;
			unsigned __int128 x;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			switch (i % 4) {
			case 0: ns = (u64)i; break;				/* the first ns */
			case 1: ns = seed >> (seed & 63); break;		/* any magnitude */
			case 2: ns = (u64)((((unsigned __int128)1 << 52) * mul >> shift) - k) +
				     (seed & 0xfff) - 0x800; break;		/* near 2^52 counts */
			default: ns = ~0ULL - (seed & 0xffff); break;		/* the top */
			}
			x = ((((unsigned __int128)ns + k + 1) << shift) - 1);
			if (model_clock_ns_to_tsc(ns) != (u64)(x / mul))
				fail_msg("%u kHz, c0 %llu: ns %llu gives %llu, the division %llu",
					 clocks[c].khz, (unsigned long long)clocks[c].c0,
					 (unsigned long long)ns,
					 (unsigned long long)model_clock_ns_to_tsc(ns),
					 (unsigned long long)(u64)(x / mul));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tick_length_follows_the_runtime_hz,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_refused_hz_leaves_the_ticks_alone,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_clock_slower_than_hz_ticks_every_cycle,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_page_mono_raw_fields_tick_with_machine_hz,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_mult_shift_at_its_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_kept_snapshot_is_the_counts_own, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ns_to_tsc_is_the_division, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
