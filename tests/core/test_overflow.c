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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_sample_per_period_for_periods_1_2_1000, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counting_event_takes_no_sample_on_a_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_period_is_split_at_max_period, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throttled_at_max_samples_per_tick_and_unthrottled_by_the_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refresh_limit_hangs_up_and_disables_after_n_overflows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alternating_periods_reprogram_at_each_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freq_mode_converges_on_the_sample_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_calculate_period_survives_64bit_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adjust_period_warns_if_alternation_meets_freq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interleave_points_mark_overflow_entry_and_output, setup, teardown),
	};
	return cmocka_run_group_tests_name("overflow", tests, NULL, NULL);
}
