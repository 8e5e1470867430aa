// SPDX-License-Identifier: GPL-2.0-only
/* A software PMU for tests, driven like x86's; see test_pmu.h. */
#include "tests/lib/test_pmu.h"

struct test_pmu *test_pmu_of(struct perf_event *event)
{
	return container_of(event->pmu, struct test_pmu, pmu);
}

static void tp_log(struct test_pmu *tp, enum test_pmu_op op,
		   struct perf_event *event, int flags, u64 value)
{
	struct test_pmu_call *c;

	if (tp->nr_calls >= TEST_PMU_LOG_MAX)
		return;
	c = &tp->calls[tp->nr_calls++];
	c->op = op;
	c->event = event;
	c->flags = flags;
	c->cpu = smp_processor_id();
	c->value = value;
}

static u64 tp_mask(struct test_pmu *tp)
{
	return tp->counter_width >= 64 ? ~0ULL : (1ULL << tp->counter_width) - 1;
}

/* x86_perf_event_update(): fold the counter's progress into the count. */
static u64 tp_update(struct perf_event *event)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - tp->counter_width;
	u64 prev, now, delta;

	if (hwc->idx < 0)
		return 0;
	prev = (u64)local64_read(&hwc->prev_count);
	now = tp->raw[hwc->idx];
	local64_set(&hwc->prev_count, (s64)now);
	delta = ((now << shift) - (prev << shift)) >> shift;
	local64_add((s64)delta, &event->count);
	local64_set(&hwc->period_left, local64_read(&hwc->period_left) - (s64)delta);
	return now;
}

/*
 * x86_perf_event_set_period(): program -left, where left is what remains
 * of the period (a fresh one if it ran out). Returns 1 when a period
 * ended, which is when the PMI takes a sample.
 */
static int tp_set_period(struct perf_event *event)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = (s64)hwc->sample_period;
	int ret = 0;

	if (unlikely(left <= -period)) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = (u64)period;
		ret = 1;
	}
	if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = (u64)period;
		ret = 1;
	}
	if (left < (s64)tp->min_period)
		left = (s64)tp->min_period;
	if ((u64)left > tp->max_period)
		left = (s64)tp->max_period;

	local64_set(&hwc->prev_count, -left);
	tp->raw[hwc->idx] = (u64)(-left) & tp_mask(tp);
	tp_log(tp, TP_PROGRAM, event, 0, (u64)left);
	/* prev_count moved: a self-monitoring reader's offset with it (as x86) */
	perf_event_update_userpage(event);
	return ret;
}

static int tp_event_init(struct perf_event *event)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;

	tp_log(tp, TP_INIT, event, 0, 0);
	if (tp->event_init_err)
		return tp->event_init_err;
	hwc->idx = -1;
	/* a counting event still wraps: at the longest period */
	if (!is_sampling_event(event)) {
		hwc->sample_period = tp->max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, (s64)hwc->sample_period);
	}
	return 0;
}

static void tp_start(struct perf_event *event, int flags)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;

	tp_log(tp, TP_START, event, flags, 0);
	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD) {
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
		tp_set_period(event);
	}
	hwc->state = 0;
	perf_event_update_userpage(event);
}

static void tp_stop(struct perf_event *event, int flags)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;

	tp_log(tp, TP_STOP, event, flags, 0);
	hwc->state |= PERF_HES_STOPPED;
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		tp_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static int tp_add(struct perf_event *event, int flags)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;
	int i;

	tp_log(tp, TP_ADD, event, flags, 0);
	for (i = 0; i < tp->nr_counters && i < TEST_PMU_COUNTERS; i++)
		if (!tp->counters[i])
			break;
	if (i == tp->nr_counters || i == TEST_PMU_COUNTERS)
		return -EAGAIN;
	tp->counters[i] = event;
	hwc->idx = i;
	hwc->last_cpu = smp_processor_id();
	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		tp_start(event, PERF_EF_RELOAD);
	else
		hwc->state |= PERF_HES_ARCH;
	return 0;
}

static void tp_del(struct perf_event *event, int flags)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;

	tp_log(tp, TP_DEL, event, flags, 0);
	tp_stop(event, PERF_EF_UPDATE);
	if (hwc->idx >= 0)
		tp->counters[hwc->idx] = NULL;
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

static void tp_read(struct perf_event *event)
{
	tp_log(test_pmu_of(event), TP_READ, event, 0, 0);
	tp_update(event);
}

/* rdpmc index + 1 for the user page, as x86 gives it; 0: not readable */
static int tp_event_idx(struct perf_event *event)
{
	return event->hw.idx + 1;
}

static int tp_check_period(struct perf_event *event, u64 value)
{
	(void)value;
	return test_pmu_of(event)->check_period_err;
}

void test_pmu_init(struct test_pmu *tp, int type)
{
	memset(tp, 0, sizeof(*tp));
	tp->pmu.name = "test_pmu";
	tp->pmu.type = type;
	tp->pmu.event_init = tp_event_init;
	tp->pmu.add = tp_add;
	tp->pmu.del = tp_del;
	tp->pmu.start = tp_start;
	tp->pmu.stop = tp_stop;
	tp->pmu.read = tp_read;
	tp->pmu.check_period = tp_check_period;
	tp->pmu.event_idx = tp_event_idx;
	tp->counter_width = 48;
	tp->pmu.pmc_width = 48;
	tp->pmu.cap_user_rdpmc = true;
	tp->max_period = (1ULL << 47) - 1;
	tp->min_period = 1;
	tp->nr_counters = 8;
	tp->regs.ip = 0x401000;
	tp->regs.user = true;
}

/* x86_pmu_handle_irq() for one counter that wrapped. */
static void tp_pmi(struct perf_event *event)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct perf_sample_data data;
	u64 val;

	tp_log(tp, TP_PMI, event, 0, 0);
	tp->nr_overflows++;
	val = tp_update(event);
	if (val & (1ULL << (tp->counter_width - 1)))
		return;		/* did not really overflow */
	if (!tp_set_period(event))
		return;		/* a max_period slice of a longer period */
	memset(&data, 0, sizeof(data));
	perf_sample_data_init(&data, 0, event->hw.last_period);
	if (perf_event_overflow(event, &data, &tp->regs))
		tp_stop(event, 0);
}

unsigned long test_pmu_advance(struct perf_event *event, u64 n)
{
	struct test_pmu *tp = test_pmu_of(event);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long pmis = 0;
	int saved = pmusim_this_cpu;

	pmusim_this_cpu = hwc->last_cpu;
	while (n && hwc->idx >= 0 && !(hwc->state & PERF_HES_STOPPED)) {
		u64 mask = tp_mask(tp);
		u64 raw = tp->raw[hwc->idx];
		u64 to_wrap = mask - raw + 1;	/* 0: 2^64, n never reaches it */

		if (!to_wrap || n < to_wrap) {
			tp->raw[hwc->idx] = (raw + n) & mask;
			break;
		}
		tp->raw[hwc->idx] = 0;
		n -= to_wrap;
		tp_pmi(event);
		pmis++;
	}
	pmusim_this_cpu = saved;
	return pmis;
}

void test_pmu_clear_log(struct test_pmu *tp)
{
	tp->nr_calls = 0;
}

unsigned int test_pmu_count(struct test_pmu *tp, enum test_pmu_op op,
			    struct perf_event *event)
{
	unsigned int i, n = 0;

	for (i = 0; i < tp->nr_calls; i++)
		if (tp->calls[i].op == op && (!event || tp->calls[i].event == event))
			n++;
	return n;
}

unsigned int test_pmu_programmed(struct test_pmu *tp, struct perf_event *event,
				 u64 *periods, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < tp->nr_calls && n < max; i++)
		if (tp->calls[i].op == TP_PROGRAM && tp->calls[i].event == event)
			periods[n++] = tp->calls[i].value;
	return n;
}
