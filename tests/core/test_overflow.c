// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overflow path with the test PMU: samples per period, throttling
 * and unthrottling at the tick, event_limit, the RFC's alternating
 * periods, frequency mode converging on its rate.
 */
#include "core/perf_event.h"
#include "core/internal.h"
#include "tests/lib/test_pmu.h"
#include "tests/test.h"

static struct test_pmu tp;
static unsigned long nr_samples;
static u64 sample_periods[64];
static u64 now_ns;

static u64 test_clock(void)
{
	return now_ns;
}

static void count_sample(struct perf_event *event, struct perf_sample_data *data,
			 struct pt_regs *regs)
{
	(void)event;
	(void)regs;
	if (nr_samples < ARRAY_SIZE(sample_periods))
		sample_periods[nr_samples] = data->period;
	nr_samples++;
}

static int setup(void **state)
{
	(void)state;
	test_pmu_init(&tp, PERF_TYPE_RAW);
	nr_samples = 0;
	now_ns = 0;
	pmusim_clock_ns = test_clock;
	pmusim_this_cpu = 0;
	perf_event_max_sample_rate_set(CONFIG_PERF_SAMPLE_MAX_RATE);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmusim_clock_ns = NULL;
	perf_event_hz_set(CONFIG_HZ);
	perf_event_max_sample_rate_set(CONFIG_PERF_SAMPLE_MAX_RATE);
	return 0;
}

static struct perf_event *open_counter(struct perf_event_attr *attr)
{
	struct perf_event *ev;
	int err;

	attr->size = sizeof(*attr);
	ev = perf_event_create_kernel_counter(attr, 0, NULL, count_sample, NULL, &tp.pmu, &err);
	assert_int_equal(err, 0);
	assert_non_null(ev);
	return ev;
}

static void tick(void)
{
	pmusim_this_cpu = 0;
	perf_event_task_tick();
}

static void check_samples_for_period(u64 period)
{
	struct perf_event_attr attr = { .sample_period = period };
	struct perf_event *ev;
	const u64 total = 20000, chunk = 50;
	u64 done;

	nr_samples = 0;
	ev = open_counter(&attr);
	/* small chunks and a tick between them: never near the throttle */
	for (done = 0; done < total; done += chunk) {
		test_pmu_advance(ev, chunk);
		tick();
	}
	assert_int_equal(nr_samples, total / period);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), total);
	assert_int_equal(sample_periods[0], period);
	perf_event_release_kernel(ev);
}

static void test_one_sample_per_period_for_periods_1_2_1000(void **state)
{
	(void)state;
	check_samples_for_period(1);
	check_samples_for_period(2);
	check_samples_for_period(1000);
	assert_int_equal(tp.counters[0], NULL);
}

static void test_counting_event_takes_no_sample_on_a_wrap(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *ev;

	(void)state;
	tp.counter_width = 8;
	tp.max_period = 127;
	ev = open_counter(&attr);
	assert_int_equal(test_pmu_advance(ev, 1000), 7);
	assert_int_equal(nr_samples, 0);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), 1000);
	perf_event_release_kernel(ev);
}

static void test_long_period_is_split_at_max_period(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1000 };
	struct perf_event *ev;

	(void)state;
	tp.counter_width = 8;
	tp.max_period = 127;
	ev = open_counter(&attr);
	/* 1000 = 7 * 127 + 111: eight interrupts, one sample */
	assert_int_equal(test_pmu_advance(ev, 1000), 8);
	assert_int_equal(nr_samples, 1);
	assert_int_equal(test_pmu_advance(ev, 999), 7);
	assert_int_equal(nr_samples, 1);
	test_pmu_advance(ev, 1);
	assert_int_equal(nr_samples, 2);
	perf_event_release_kernel(ev);
}

static void test_throttled_at_max_samples_per_tick_and_unthrottled_by_the_tick(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1 };
	struct perf_event *ev;
	u64 budget = (u64)max_samples_per_tick;

	struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
	struct perf_event_header *rec;

	(void)state;
	ev = open_counter(&attr);
	assert_non_null(rb);
	ring_buffer_attach(ev, rb);	/* the handler counts; side-band goes here */
	tick();		/* a fresh tick: interrupts count from here */
	test_pmu_clear_log(&tp);

	test_pmu_advance(ev, budget + 10);
	/* the budget-th interrupt throttles; its sample is still taken */
	assert_int_equal(nr_samples, budget);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	assert_true(ev->hw.state & PERF_HES_STOPPED);
	assert_int_equal(tp.calls[tp.nr_calls - 1].op, TP_STOP);
	assert_int_equal(tp.calls[tp.nr_calls - 1].flags, 0);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), budget);
	rec = rb->data_pages[0];
	assert_int_equal(rec->type, PERF_RECORD_THROTTLE);

	/* stopped: events go uncounted until the tick */
	test_pmu_advance(ev, 10);
	assert_int_equal(nr_samples, budget);

	test_pmu_clear_log(&tp);
	tick();
	assert_int_equal(ev->hw.interrupts, 0);
	assert_int_equal(test_pmu_count(&tp, TP_START, ev), 1);
	assert_int_equal(tp.calls[0].flags, 0);
	assert_false(ev->hw.state & PERF_HES_STOPPED);
	rec = (struct perf_event_header *)((char *)rb->data_pages[0] + rec->size);
	assert_int_equal(rec->type, PERF_RECORD_UNTHROTTLE);

	/* one under the budget per tick never throttles */
	nr_samples = 0;
	tick();
	test_pmu_advance(ev, budget - 1);
	tick();
	test_pmu_advance(ev, budget - 1);
	assert_int_equal(nr_samples, 2 * (budget - 1));
	assert_int_not_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	perf_event_release_kernel(ev);
}

static void test_refresh_limit_hangs_up_and_disables_after_n_overflows(void **state)
{
	struct perf_event_attr attr = { .sample_period = 10, .disabled = 1 };
	struct perf_event *ev;

	(void)state;
	ev = open_counter(&attr);
	assert_int_equal(ev->state, PERF_EVENT_STATE_OFF);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_REFRESH, 3), 0);
	assert_int_equal(ev->state, PERF_EVENT_STATE_ACTIVE);

	test_pmu_advance(ev, 25);
	assert_int_equal(nr_samples, 2);
	assert_int_equal(ev->pending_kill, POLL_IN);
	test_pmu_advance(ev, 5);
	assert_int_equal(nr_samples, 3);
	assert_int_equal(ev->pending_kill, POLL_HUP);
	assert_true(ev->hw.state & PERF_HES_STOPPED);
	assert_int_equal(ev->state, PERF_EVENT_STATE_ACTIVE);	/* until irq work */
	pmusim_this_cpu = 0;
	perf_event_irq_work_run();
	assert_int_equal(ev->state, PERF_EVENT_STATE_OFF);
	test_pmu_advance(ev, 100);
	assert_int_equal(nr_samples, 3);

	/* refreshed: one more overflow */
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_REFRESH, 1), 0);
	test_pmu_advance(ev, 30);
	assert_int_equal(nr_samples, 4);
	assert_int_equal(ev->pending_kill, POLL_HUP);
	perf_event_release_kernel(ev);
}

static void test_alternating_periods_reprogram_at_each_overflow(void **state)
{
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	struct perf_event_attr attr = { .sample_period = 1000, .alternative_sample_period = 10 };
	struct perf_event *ev;
	unsigned int i;

	(void)state;
	ev = open_counter(&attr);
	test_pmu_clear_log(&tp);
	/* 4 * (1000 + 10) events: eight samples, long and short in turn */
	test_pmu_advance(ev, 4040);
	assert_int_equal(nr_samples, 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(sample_periods[i], i % 2 ? 10 : 1000);
	/* each switch: stop(UPDATE) then start(RELOAD), the new period at once */
	assert_int_equal(test_pmu_count(&tp, TP_STOP, ev), 8);
	assert_int_equal(test_pmu_count(&tp, TP_START, ev), 8);
	for (i = 0; i < tp.nr_calls; i++) {
		if (tp.calls[i].op == TP_STOP)
			assert_int_equal(tp.calls[i].flags, PERF_EF_UPDATE);
		if (tp.calls[i].op == TP_START)
			assert_int_equal(tp.calls[i].flags, PERF_EF_RELOAD);
	}
	perf_event_release_kernel(ev);

	/* equal periods open as a plain event: nothing to switch */
	nr_samples = 0;
	attr.alternative_sample_period = 0;
	ev = open_counter(&attr);
	test_pmu_clear_log(&tp);
	test_pmu_advance(ev, 3000);
	assert_int_equal(nr_samples, 3);
	assert_int_equal(test_pmu_count(&tp, TP_STOP, ev), 0);
	assert_int_equal(sample_periods[2], 1000);
	perf_event_release_kernel(ev);
#else
	(void)state;
	pmusim_skip("CONFIG_PERF_ALT_SAMPLE_PERIOD is off");
#endif
}

static void test_freq_mode_converges_on_the_sample_rate(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 1000 };
	struct perf_event *ev;
	const u64 rate = 10;			/* events per microsecond */
	const u64 target = rate * 1000000 / 1000;	/* period for 1000 samples/s */
	unsigned long samples_before = 0, t;
	u64 chunk_ns = 1000, step;

	(void)state;
	ev = open_counter(&attr);
	assert_int_equal(ev->hw.sample_period, 1);
	for (t = 0; t < 400; t++) {
		if (t == 300)
			samples_before = nr_samples;
		for (step = 0; step < TICK_NSEC; step += chunk_ns) {
			now_ns += chunk_ns;
			test_pmu_advance(ev, rate * chunk_ns / 1000);
		}
		tick();
	}
	printf("# period %llu, target %llu\n", (unsigned long long)ev->hw.sample_period,
	       (unsigned long long)target);
	assert_true(ev->hw.sample_period > target * 95 / 100);
	assert_true(ev->hw.sample_period < target * 105 / 100);
	/* and the last 100 ticks sampled at the rate: 1000/s for 100/HZ s */
	printf("# %lu samples in the last 100 ticks\n", nr_samples - samples_before);
	assert_true(nr_samples - samples_before > (unsigned long)(100000 / HZ * 90 / 100));
	assert_true(nr_samples - samples_before < (unsigned long)(100000 / HZ * 110 / 100));
	perf_event_release_kernel(ev);
}

static void test_calculate_period_survives_64bit_overflow(void **state)
{
	struct perf_event ev = { .attr = { .freq = 1, .sample_freq = 4000 } };

	(void)state;
	/* 10^6 events in 1 ms is 10^9/s; at 4000 samples/s: 250000 */
	assert_int_equal(perf_calculate_period(&ev, 1000000, 1000000), 250000);
	/* count * 10^9 overflows: the operands shed bits, the quotient stays close */
	assert_true(perf_calculate_period(&ev, 1000000, 1ULL << 40) > ((1ULL << 40) / 4) * 99 / 100);
	assert_true(perf_calculate_period(&ev, 1000000, 1ULL << 40) < ((1ULL << 40) / 4) * 101 / 100);
	ev.attr.sample_freq = 0;
	assert_int_equal(perf_calculate_period(&ev, 0, 5), 5000000000ULL);
}

/*
 * Against the exact 128-bit quotient. Without overflow it is exact.
 * When count * 10^9, nsec * freq or both pass 64 bits, the operands shed
 * low bits until the products fit; the divisor shifted with them loses
 * its own low bits, so a small divisor costs precision (the kernel's
 * algorithm: 2^40 events in 1 us at 1 Hz comes out 11.6% high). What
 * must never happen is a wrapped product: the result stays within a
 * factor of two.
 */
static void test_calculate_period_is_close_to_exact_for_any_operands(void **state)
{
	static const u64 counts[] = { 1, 1000, 1ULL << 33, 1ULL << 40, 1ULL << 50, ~0ULL >> 1 };
	static const u64 nsecs[] = { 1, 1000, 1000000, 1ULL << 40, 1ULL << 50, 1ULL << 62 };
	static const u64 freqs[] = { 1, 4000, 100000, 1ULL << 30, 1ULL << 45 };
	struct perf_event ev = { .attr = { .freq = 1 } };
	unsigned int i, j, k, checked = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(counts); i++)
		for (j = 0; j < ARRAY_SIZE(nsecs); j++)
			for (k = 0; k < ARRAY_SIZE(freqs); k++) {
				unsigned __int128 want = (unsigned __int128)counts[i] * NSEC_PER_SEC /
					((unsigned __int128)nsecs[j] * freqs[k]);
				unsigned __int128 got, diff;
				bool fits = !(((unsigned __int128)counts[i] * NSEC_PER_SEC) >> 64) &&
					    !(((unsigned __int128)nsecs[j] * freqs[k]) >> 64);

				if (want >> 64)
					continue;	/* no u64 period */
				ev.attr.sample_freq = freqs[k];
				got = perf_calculate_period(&ev, nsecs[j], counts[i]);
				diff = got > want ? got - want : want - got;
				if (fits ? diff != 0 : (got > 2 * want + 1 || 2 * got < want))
					fail_msg("count %llu nsec %llu freq %llu: %llu, exact %llu",
						 (unsigned long long)counts[i], (unsigned long long)nsecs[j],
						 (unsigned long long)freqs[k], (unsigned long long)got,
						 (unsigned long long)want);
				checked++;
			}
	assert_true(checked > 20);
}

static void test_adjust_period_warns_if_alternation_meets_freq(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 1000 };
	struct perf_event *ev;
	unsigned long before = pmusim_warn_count();

	(void)state;
	if (!IS_ENABLED(CONFIG_DEBUG_PERF))
		pmusim_skip("CONFIG_DEBUG_PERF is off: WARN_ON_ONCE is silent");
	ev = open_counter(&attr);
	/* open refuses freq with an alternative period; force the state */
	ev->hw.using_alternative_sample_period = true;
	perf_adjust_period(ev, TICK_NSEC, 1000, false);
	assert_int_equal(pmusim_warn_count(), before + 1);
	ev->hw.using_alternative_sample_period = false;
	perf_event_release_kernel(ev);
}

/* Samples taken in one tick by a period-1 event given @n events. */
static unsigned long samples_in_a_tick(u64 n)
{
	struct perf_event_attr attr = { .sample_period = 1 };
	struct perf_event *ev = open_counter(&attr);
	unsigned long before = nr_samples;

	tick();
	test_pmu_advance(ev, n);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	perf_event_release_kernel(ev);
	return nr_samples - before;
}

static void test_throttle_budget_follows_the_machine_hz(void **state)
{
	(void)state;
	assert_int_equal(HZ, CONFIG_HZ);
	assert_int_equal(perf_event_max_sample_rate_set(1000), 0);
	/* DIV_ROUND_UP(rate, HZ) samples a tick, at any tick rate */
	assert_int_equal(perf_event_hz_set(250), 0);
	assert_int_equal(max_samples_per_tick, 4);
	assert_int_equal(samples_in_a_tick(100), 4);
	assert_int_equal(perf_event_hz_set(300), 0);
	assert_int_equal(max_samples_per_tick, 4);
	assert_int_equal(perf_event_hz_set(100), 0);
	assert_int_equal(max_samples_per_tick, 10);
	assert_int_equal(samples_in_a_tick(100), 10);
	/* a rate below HZ still allows one sample a tick */
	assert_int_equal(perf_event_hz_set(4000), 0);
	assert_int_equal(max_samples_per_tick, 1);
	assert_int_equal(samples_in_a_tick(100), 1);
	/* the sysctl, written later, divides by the machine's HZ too */
	assert_int_equal(perf_event_hz_set(100), 0);
	assert_int_equal(perf_event_max_sample_rate_set(2050), 0);
	assert_int_equal(max_samples_per_tick, 21);
	assert_int_equal(TICK_NSEC, 10000000);
	/* refused settings leave everything as it was */
	assert_int_equal(perf_event_hz_set(0), -EINVAL);
	assert_int_equal(perf_event_hz_set(-1), -EINVAL);
	assert_int_equal(perf_event_hz_set(1000000001), -EINVAL);
	assert_int_equal(perf_event_max_sample_rate_set(0), -EINVAL);
	assert_int_equal(HZ, 100);
	assert_int_equal(max_samples_per_tick, 21);
}

/*
 * perf_cpu_time_max_percent takes 0 to 100; at 0 and 100 the dynamic
 * throttling is off, so nothing lowers the rate and the rate itself
 * cannot be set. Between them, PMIs longer than a tick's share leave one
 * sample a tick, and a rate so high that the allowance rounds to 0 ns
 * still allows 1 ns (0 would mean off).
 */
static void test_cpu_time_max_percent_and_what_it_allows(void **state)
{
	unsigned long lowered;

	(void)state;
	perf_cpu_limits_reset();
	lowered = perf_sample_rate_lowered;
	assert_int_equal(perf_cpu_time_max_percent_set(-1), -EINVAL);
	assert_int_equal(perf_cpu_time_max_percent_set(101), -EINVAL);
	for (int percent = 0; percent <= 100; percent += 100) {
		assert_int_equal(perf_cpu_time_max_percent_set(percent), 0);
		assert_int_equal(perf_event_max_sample_rate_set(1000), -EINVAL);
		for (int i = 0; i < 1000; i++)
			perf_sample_event_took(10 * TICK_NSEC);
		assert_int_equal(perf_sample_rate_lowered, lowered);
	}

	assert_int_equal(perf_cpu_time_max_percent_set(25), 0);
	for (int i = 0; i < 1000; i++)
		perf_sample_event_took(10 * TICK_NSEC);
	assert_true(perf_sample_rate_lowered > lowered);
	assert_int_equal(max_samples_per_tick, 1);

	perf_cpu_limits_reset();
	assert_int_equal(perf_event_max_sample_rate_set(1000000000), 0);
	lowered = perf_sample_rate_lowered;
	for (int i = 0; i < 1000; i++)
		perf_sample_event_took(2);
	assert_true(perf_sample_rate_lowered > lowered);
	perf_cpu_limits_reset();
}

/*
 * The interrupt-time frequency adjustment only trusts an interval under
 * two ticks: 3 ms apart is inside that window at HZ 250 and outside it
 * at HZ 1000.
 */
static void test_freq_window_at_the_interrupt_follows_the_machine_hz(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 1000 };
	struct perf_event *ev;
	int hz;

	(void)state;
	for (hz = 250; hz <= 1000; hz += 750) {
		assert_int_equal(perf_event_hz_set(hz), 0);
		ev = open_counter(&attr);
		/* the counter holds 1 left; the period after it is 1000 */
		ev->hw.sample_period = 1000;
		ev->hw.freq_time_stamp = now_ns;
		now_ns += 3000000;
		/* 1000 events in 3 ms at 1000/s: 333; an eighth of the way is 916 */
		test_pmu_advance(ev, 1);
		assert_int_equal(nr_samples, 1);
		assert_int_equal(ev->hw.last_period, 1000);
		assert_int_equal(ev->hw.sample_period, hz == 250 ? 916 : 1000);
		perf_event_release_kernel(ev);
		nr_samples = 0;
	}
}

/* perf_event_account_interrupt(): a PMI that took no sample still counts. */
static void test_account_interrupt_throttles_without_a_sample(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1000 };
	struct perf_event *ev;
	struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
	u64 budget, i;

	(void)state;
	assert_int_equal(perf_event_max_sample_rate_set(5000), 0);
	budget = (u64)max_samples_per_tick;
	ev = open_counter(&attr);
	ring_buffer_attach(ev, rb);
	tick();
	for (i = 1; i < budget; i++)
		assert_int_equal(perf_event_account_interrupt(ev), 0);
	assert_int_equal(ev->hw.interrupts, budget - 1);
	assert_int_equal(perf_event_account_interrupt(ev), 1);
	/* the driver stops a throttled event, as x86 does */
	tp.pmu.stop(ev, 0);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	assert_int_equal(nr_samples, 0);
	assert_int_equal(((struct perf_event_header *)rb->data_pages[0])->type, PERF_RECORD_THROTTLE);
	/* the tick unthrottles and restarts it; a new tick counts from one */
	tick();
	assert_false(ev->hw.state & PERF_HES_STOPPED);
	assert_int_equal(perf_event_account_interrupt(ev), 0);
	assert_int_equal(ev->hw.interrupts, 1);
	perf_event_release_kernel(ev);
}

/* __perf_event_overflow(throttle = 0): the caller has accounted already. */
static void test_overflow_without_throttle_never_throttles(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1000 };
	struct perf_event *ev;
	struct perf_sample_data data;
	u64 i, budget = (u64)max_samples_per_tick;

	(void)state;
	ev = open_counter(&attr);
	tick();
	for (i = 0; i < budget + 5; i++) {
		perf_sample_data_init(&data, 0, 1000);
		assert_int_equal(__perf_event_overflow(ev, 0, &data, &tp.regs), 0);
	}
	assert_int_equal(nr_samples, budget + 5);
	assert_int_equal(ev->hw.interrupts, budget + 5);
	perf_event_release_kernel(ev);
}

/*
 * perf_adjust_period(): a new period far under what is left of the old
 * one restarts the counter, so the new period starts now. From the
 * interrupt (disable) the core stops and reloads it itself; from the
 * tick the caller has stopped it and reloads it after.
 */
static void test_adjust_period_restarts_when_the_period_left_is_far_too_long(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 1000 };
	struct perf_event *ev;
	u64 progs[4];

	(void)state;
	ev = open_counter(&attr);
	/* 1000 events a tick at 1000 samples/s and HZ 1000: a period of 1000 */
	ev->hw.sample_period = 1000;
	local64_set(&ev->hw.period_left, 9000);
	test_pmu_clear_log(&tp);
	perf_adjust_period(ev, TICK_NSEC, 1000 * (u64)HZ / 1000, true);
	assert_int_equal(ev->hw.sample_period, 1000);
	assert_int_equal(local64_read(&ev->hw.period_left), 1000);
	assert_int_equal(tp.nr_calls, 3);
	assert_int_equal(tp.calls[0].op, TP_STOP);
	assert_int_equal(tp.calls[0].flags, PERF_EF_UPDATE);
	assert_int_equal(tp.calls[1].op, TP_START);
	assert_int_equal(tp.calls[1].flags, PERF_EF_RELOAD);
	assert_int_equal(tp.calls[2].op, TP_PROGRAM);
	assert_int_equal(tp.calls[2].value, 1000);

	/* exactly 8 periods left: run it out */
	local64_set(&ev->hw.period_left, 8000);
	test_pmu_clear_log(&tp);
	perf_adjust_period(ev, TICK_NSEC, 1000 * (u64)HZ / 1000, true);
	assert_int_equal(tp.nr_calls, 0);
	assert_int_equal(local64_read(&ev->hw.period_left), 8000);

	/* from the tick: only period_left goes, the tick reloads */
	local64_set(&ev->hw.period_left, 8001);
	perf_adjust_period(ev, TICK_NSEC, 1000 * (u64)HZ / 1000, false);
	assert_int_equal(tp.nr_calls, 0);
	assert_int_equal(local64_read(&ev->hw.period_left), 0);
	assert_int_equal(test_pmu_programmed(&tp, ev, progs, 4), 0);
	perf_event_release_kernel(ev);
}

/* The low-pass filter: an eighth of the way, rounded away from zero, never 0. */
static void test_adjust_period_moves_an_eighth_of_the_way(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 1000 };
	struct perf_event *ev;

	(void)state;
	ev = open_counter(&attr);
	local64_set(&ev->hw.period_left, 0);
	ev->hw.sample_period = 1000;
	/* target 2000 (2000 events in 1 ms at 1000/s): +125 */
	perf_adjust_period(ev, 1000000, 2000, false);
	assert_int_equal(ev->hw.sample_period, 1125);
	/* target 1 from 1125: -(1124 + 7) / 8 = -141 */
	perf_adjust_period(ev, 1000000, 1, false);
	assert_int_equal(ev->hw.sample_period, 984);
	/* from 1 towards 0 events: 1 - 1 = 0 becomes 1 */
	ev->hw.sample_period = 1;
	perf_adjust_period(ev, 1000000, 0, false);
	assert_int_equal(ev->hw.sample_period, 1);
	perf_event_release_kernel(ev);
}

/* The tick restarts a throttled frequency event itself, with a new period. */
static void test_tick_unthrottles_a_freq_event_with_a_new_period(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 100000 };
	struct perf_event *ev;
	u64 budget;

	(void)state;
	assert_int_equal(perf_event_max_sample_rate_set(100000), 0);
	budget = (u64)max_samples_per_tick;
	ev = open_counter(&attr);
	tick();
	test_pmu_advance(ev, budget * 4);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	assert_true(ev->hw.state & PERF_HES_STOPPED);
	test_pmu_clear_log(&tp);
	now_ns += TICK_NSEC;
	tick();
	assert_int_equal(ev->hw.interrupts, 0);
	/* one stop(UPDATE) and one start(RELOAD): not a start(0) first */
	assert_int_equal(test_pmu_count(&tp, TP_START, ev), 1);
	assert_int_equal(test_pmu_count(&tp, TP_STOP, ev), 1);
	assert_int_equal(tp.calls[0].op, TP_STOP);
	assert_int_equal(tp.calls[0].flags, PERF_EF_UPDATE);
	assert_int_equal(tp.calls[1].op, TP_START);
	assert_int_equal(tp.calls[1].flags, PERF_EF_RELOAD);
	assert_false(ev->hw.state & PERF_HES_STOPPED);

	/* a tick that saw no events restarts without a reload */
	test_pmu_clear_log(&tp);
	tick();
	assert_int_equal(tp.nr_calls, 2);
	assert_int_equal(tp.calls[1].op, TP_START);
	assert_int_equal(tp.calls[1].flags, 0);
	perf_event_release_kernel(ev);
}

/*
 * v6.12's tick walks the active lists, which hold group leaders only: a
 * frequency sibling keeps its period and a throttled sibling stays
 * throttled (upstream v6.16, 9734e25fbf5a, throttles groups whole).
 */
static void test_tick_leaves_a_group_sibling_alone(void **state)
{
	struct perf_event_attr lattr = { .size = sizeof(lattr), .type = PERF_TYPE_RAW };
	struct perf_event_attr sattr = { .size = sizeof(sattr), .type = PERF_TYPE_RAW,
					 .freq = 1, .sample_freq = 1000 };
	struct perf_event *leader, *sib;
	u64 period;

	(void)state;
	assert_int_equal(perf_event_open_attr(&lattr, sizeof(lattr), -1, 0, NULL, 0, &tp.pmu, &leader), 0);
	assert_int_equal(perf_event_open_attr(&sattr, sizeof(sattr), -1, 0, leader, 0, &tp.pmu, &sib), 0);
	assert_int_equal(sib->state, PERF_EVENT_STATE_ACTIVE);
	tick();
	test_pmu_advance(sib, 5000);
	period = sib->hw.sample_period;
	test_pmu_clear_log(&tp);
	now_ns += TICK_NSEC;
	tick();
	assert_int_equal(test_pmu_count(&tp, TP_STOP, sib), 0);
	assert_int_equal(test_pmu_count(&tp, TP_START, sib), 0);
	assert_int_equal(sib->hw.sample_period, period);
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
}

/* The tick leaves alone what is not its business. */
static void test_tick_skips_other_cpus_off_and_no_interrupt_events(void **state)
{
	struct perf_event_attr attr = { .freq = 1, .sample_freq = 1000 };
	struct perf_event *ev;

	(void)state;
	ev = open_counter(&attr);
	test_pmu_advance(ev, 50);
	/* no interrupt PMU: the tick does not touch it */
	tp.pmu.capabilities = PERF_PMU_CAP_NO_INTERRUPT;
	test_pmu_clear_log(&tp);
	tick();
	assert_int_equal(tp.nr_calls, 0);
	tp.pmu.capabilities = 0;
	/* bound to CPU 0, seen from CPU 1's tick: nothing either */
	pmusim_this_cpu = 1;
	perf_event_task_tick();
	pmusim_this_cpu = 0;
	assert_int_equal(tp.nr_calls, 0);
	/* sample_freq 0 in frequency mode: nothing to adjust */
	ev->attr.sample_freq = 0;
	tick();
	assert_int_equal(tp.nr_calls, 0);
	perf_event_release_kernel(ev);
}

/*
 * Without a handler of its own, an event writes its samples in the
 * direction it was opened with: forward from 0, or backward down from 0.
 */
static void test_default_handler_follows_the_direction_chosen_at_open(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_period = 10,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD };
	struct perf_event *fwd, *bwd;
	struct perf_buffer *frb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
	struct perf_buffer *brb = rb_alloc(1, 0, 0, 0);
	const struct perf_event_header *h;
	const u64 *body;

	(void)state;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &fwd), 0);
	attr.write_backward = 1;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &bwd), 0);
	assert_ptr_equal(fwd->overflow_handler, perf_event_output_forward);
	assert_ptr_equal(bwd->overflow_handler, perf_event_output_backward);
	ring_buffer_attach(fwd, frb);
	ring_buffer_attach(bwd, brb);

	test_pmu_advance(fwd, 20);
	test_pmu_advance(bwd, 20);
	assert_int_equal(frb->user_page->data_head, 48);
	assert_int_equal(brb->user_page->data_head, (u64)-48);
	/* the newest record is first in a backward buffer, last in a forward one */
	h = (const void *)((const u8 *)brb->data_pages[0] + PAGE_SIZE - 48);
	body = (const u64 *)(h + 1);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	assert_int_equal(h->size, 24);
	assert_int_equal(body[0], tp.regs.ip);
	assert_int_equal(body[1], 10);
	assert_memory_equal(h, frb->data_pages[0], 48);
	perf_event_release_kernel(bwd);
	perf_event_release_kernel(fwd);
}

/*
 * RFC: the period switches at every overflow; when nothing is left of
 * the current period (a caller outside the PMI path) there is nothing to
 * reprogram, so the counter is not restarted.
 */
static void test_alternation_with_no_period_left_does_not_restart(void **state)
{
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	struct perf_event_attr attr = { .sample_period = 1000, .alternative_sample_period = 10 };
	struct perf_event *ev;
	struct perf_sample_data data;

	(void)state;
	ev = open_counter(&attr);
	test_pmu_clear_log(&tp);
	local64_set(&ev->hw.period_left, 0);
	perf_sample_data_init(&data, 0, 1000);
	assert_int_equal(perf_event_overflow(ev, &data, &tp.regs), 0);
	assert_int_equal(ev->hw.sample_period, 10);
	assert_true(ev->hw.using_alternative_sample_period);
	assert_int_equal(tp.nr_calls, 0);
	perf_sample_data_init(&data, 0, 10);
	local64_set(&ev->hw.period_left, -3);
	assert_int_equal(perf_event_overflow(ev, &data, &tp.regs), 0);
	assert_int_equal(ev->hw.sample_period, 1000);
	assert_false(ev->hw.using_alternative_sample_period);
	assert_int_equal(tp.nr_calls, 0);
	perf_event_release_kernel(ev);
#else
	(void)state;
	pmusim_skip("CONFIG_PERF_ALT_SAMPLE_PERIOD is off");
#endif
}

/* The RFC's check in perf_event_alloc(): an in-kernel counter gets it too. */
static void test_kernel_counter_refuses_freq_with_an_alternative_period(void **state)
{
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	struct perf_event_attr attr = { .size = sizeof(attr), .freq = 1, .sample_freq = 100,
		.alternative_sample_period = 10 };
	int err = 0;

	(void)state;
	assert_null(perf_event_create_kernel_counter(&attr, 0, NULL, count_sample, NULL,
						     &tp.pmu, &err));
	assert_int_equal(err, -EINVAL);
	assert_int_equal(test_pmu_count(&tp, TP_INIT, NULL), 0);
#else
	(void)state;
	pmusim_skip("CONFIG_PERF_ALT_SAMPLE_PERIOD is off");
#endif
}

/* The budget of REFRESH and the tick's throttle meet: both say stop. */
static void test_refresh_limit_and_throttle_on_the_same_overflow(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1, .disabled = 1 };
	struct perf_event *ev;
	u64 budget = (u64)max_samples_per_tick;

	(void)state;
	ev = open_counter(&attr);
	tick();
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_REFRESH, (int)budget), 0);
	test_pmu_advance(ev, budget + 5);
	assert_int_equal(nr_samples, budget);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	assert_int_equal(ev->pending_kill, POLL_HUP);
	/* the tick runs the pending disable first: nothing to unthrottle on */
	tick();
	assert_int_equal(ev->state, PERF_EVENT_STATE_OFF);
	perf_event_release_kernel(ev);
}

static enum perf_interleave_point seen[16];
static unsigned int nr_seen;

static void record_point(enum perf_interleave_point point, void *obj)
{
	(void)obj;
	if (nr_seen < ARRAY_SIZE(seen))
		seen[nr_seen] = point;
	nr_seen++;
}

static void test_interleave_points_mark_overflow_entry_and_output(void **state)
{
	struct perf_event_attr attr = { .sample_period = 5 };
	struct perf_event *ev;

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_INTERLEAVE))
		pmusim_skip("CONFIG_PERF_INTERLEAVE is off");
	ev = open_counter(&attr);
	nr_seen = 0;
	perf_interleave_hook = record_point;
	test_pmu_advance(ev, 10);
	perf_interleave_hook = NULL;
	/* the handler is a counter here: no ring-buffer points in between */
	assert_int_equal(nr_seen, 4);
	assert_int_equal(seen[0], PI_OVERFLOW_ENTER);
	assert_int_equal(seen[1], PI_OVERFLOW_OUTPUT);
	assert_int_equal(seen[2], PI_OVERFLOW_ENTER);
	assert_int_equal(seen[3], PI_OVERFLOW_OUTPUT);
	perf_event_release_kernel(ev);
}

/*
 * O_ASYNC: every overflow queues the wakeup (SIGIO with pending_kill),
 * even when the handler writes no record; without it the overflow alone
 * wakes nobody.
 */
static void test_fasync_overflow_queues_the_wakeup(void **state)
{
	struct perf_event_attr attr = { .sample_period = 10 };
	struct perf_event *ev;

	(void)state;
	for (int fasync = 0; fasync < 2; fasync++) {
		ev = open_counter(&attr);
		ev->fasync = fasync;
		test_pmu_advance(ev, 10);
		assert_int_equal(nr_samples, 1 + fasync);
		assert_int_equal(ev->pending_kill, POLL_IN);
		assert_int_equal(ev->pending_wakeup, fasync);
		perf_event_release_kernel(ev);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_sample_per_period_for_periods_1_2_1000, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fasync_overflow_queues_the_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counting_event_takes_no_sample_on_a_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_period_is_split_at_max_period, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throttled_at_max_samples_per_tick_and_unthrottled_by_the_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refresh_limit_hangs_up_and_disables_after_n_overflows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alternating_periods_reprogram_at_each_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freq_mode_converges_on_the_sample_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_calculate_period_survives_64bit_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_calculate_period_is_close_to_exact_for_any_operands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adjust_period_warns_if_alternation_meets_freq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interleave_points_mark_overflow_entry_and_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throttle_budget_follows_the_machine_hz, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_time_max_percent_and_what_it_allows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freq_window_at_the_interrupt_follows_the_machine_hz, setup, teardown),
		cmocka_unit_test_setup_teardown(test_account_interrupt_throttles_without_a_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overflow_without_throttle_never_throttles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adjust_period_restarts_when_the_period_left_is_far_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adjust_period_moves_an_eighth_of_the_way, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_unthrottles_a_freq_event_with_a_new_period, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_skips_other_cpus_off_and_no_interrupt_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_leaves_a_group_sibling_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_handler_follows_the_direction_chosen_at_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alternation_with_no_period_left_does_not_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refresh_limit_and_throttle_on_the_same_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_counter_refuses_freq_with_an_alternative_period, setup, teardown),
	};
	return cmocka_run_group_tests_name("overflow", tests, NULL, NULL);
}
