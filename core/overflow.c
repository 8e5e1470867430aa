// SPDX-License-Identifier: GPL-2.0-only
/*
 * overflow.c - what happens when a sampling counter overflows, after
 * kernel/events/core.c: interrupt accounting and throttling, the
 * frequency-mode period adjustment at the interrupt and at the tick,
 * the event_limit of PERF_EVENT_IOC_REFRESH, and (RFC, Ben Gainey 2024)
 * the alternation between two sample periods.
 */
#include "core/perf_event.h"
#include "core/sideband.h"

int sysctl_perf_event_sample_rate = CONFIG_PERF_SAMPLE_MAX_RATE;
int perf_event_hz = CONFIG_HZ;
int max_samples_per_tick = (CONFIG_PERF_SAMPLE_MAX_RATE + CONFIG_HZ - 1) / CONFIG_HZ;

/* DIV_ROUND_UP(rate, HZ): a rate below HZ still allows one sample a tick. */
static void update_max_samples_per_tick(void)
{
	int rate = READ_ONCE(sysctl_perf_event_sample_rate);

	WRITE_ONCE(max_samples_per_tick, (rate + HZ - 1) / HZ);
}

/* ---- perf_sample_event_took(): PMIs that take too long lower the rate ---------- */

#define DEFAULT_CPU_TIME_MAX_PERCENT	25
#define NR_ACCUMULATED_SAMPLES		128

int sysctl_perf_cpu_time_max_percent = DEFAULT_CPU_TIME_MAX_PERCENT;
static u64 perf_sample_period_ns = NSEC_PER_SEC / CONFIG_PERF_SAMPLE_MAX_RATE;
static u64 perf_sample_allowed_ns =
	NSEC_PER_SEC / CONFIG_PERF_SAMPLE_MAX_RATE * DEFAULT_CPU_TIME_MAX_PERCENT / 100;
static u64 running_sample_length[CONFIG_MODEL_MAX_CPUS];
unsigned long perf_sample_rate_lowered;	/* the kernel's "interrupt took too long" lines */

/* A PMI may take this share of the time between two samples at the maximum rate. */
static void update_perf_cpu_limits(void)
{
	u64 tmp = perf_sample_period_ns * (u64)sysctl_perf_cpu_time_max_percent / 100;

	WRITE_ONCE(perf_sample_allowed_ns, tmp ? tmp : 1);
}

int perf_event_max_sample_rate_set(int rate)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);

	/* with the dynamic throttling off the rate is not to be set */
	if (rate < 1 || percent == 0 || percent == 100)
		return -EINVAL;
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	update_max_samples_per_tick();
	perf_sample_period_ns = NSEC_PER_SEC / (u64)rate;
	update_perf_cpu_limits();
	return 0;
}

int perf_cpu_time_max_percent_set(int percent)
{
	if (percent < 0 || percent > 100)
		return -EINVAL;
	WRITE_ONCE(sysctl_perf_cpu_time_max_percent, percent);
	if (percent == 0 || percent == 100)
		WRITE_ONCE(perf_sample_allowed_ns, 0);	/* no dynamic throttling */
	else
		update_perf_cpu_limits();
	return 0;
}

void perf_cpu_limits_reset(void)
{
	sysctl_perf_cpu_time_max_percent = DEFAULT_CPU_TIME_MAX_PERCENT;
	perf_event_max_sample_rate_set(CONFIG_PERF_SAMPLE_MAX_RATE);
	memset(running_sample_length, 0, sizeof(running_sample_length));
	perf_sample_rate_lowered = 0;
}

/*
 * A PMI took @sample_len_ns. Each CPU keeps a decaying sum of the last
 * NR_ACCUMULATED_SAMPLES durations; when their mean passes what is
 * allowed, the allowance becomes that mean plus a quarter, and the
 * sample rate (with the tick budget) drops to what fits the CPU-time
 * share at that length.
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	u64 max_len = READ_ONCE(perf_sample_allowed_ns);
	u64 *running = &running_sample_length[smp_processor_id()];
	u64 avg_len;
	u32 max;

	if (max_len == 0)
		return;

	*running -= *running / NR_ACCUMULATED_SAMPLES;
	*running += sample_len_ns;
	/* low until NR_ACCUMULATED_SAMPLES have been seen: no count is kept */
	avg_len = *running / NR_ACCUMULATED_SAMPLES;
	if (avg_len <= max_len)
		return;

	avg_len += avg_len / 4;
	max = (u32)(TICK_NSEC / 100) * (u32)READ_ONCE(sysctl_perf_cpu_time_max_percent);
	if (avg_len < max)
		max /= (u32)avg_len;
	else
		max = 1;

	WRITE_ONCE(perf_sample_allowed_ns, avg_len);
	WRITE_ONCE(max_samples_per_tick, (int)max);
	WRITE_ONCE(sysctl_perf_event_sample_rate, (int)(max * HZ));
	perf_sample_period_ns = NSEC_PER_SEC / (u64)(max * HZ);
	perf_sample_rate_lowered++;
}

int perf_event_hz_set(int hz)
{
	if (hz < 1 || (u64)hz > NSEC_PER_SEC)
		return -EINVAL;
	WRITE_ONCE(perf_event_hz, hz);
	update_max_samples_per_tick();
	return 0;
}

static int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/*
 * The period that turns @count events in @nsec into sample_freq samples
 * a second: count * 10^9 / (nsec * freq). Both products may overflow 64
 * bits; the operands lose low bits, the larger first, until each
 * product fits, so the quotient keeps as much precision as it can.
 */
u64 perf_calculate_period(struct perf_event *event, u64 nsec, u64 count)
{
	u64 frequency = event->attr.sample_freq;
	u64 sec = NSEC_PER_SEC;
	u64 divisor, dividend;
	int count_fls, nsec_fls, frequency_fls, sec_fls;

	count_fls = fls64(count);
	nsec_fls = fls64(nsec);
	frequency_fls = fls64(frequency);
	sec_fls = 30;

#define SHED_BIT(a, b)				\
	do {					\
		if (a##_fls > b##_fls) {	\
			a >>= 1;		\
			a##_fls--;		\
		} else {			\
			b >>= 1;		\
			b##_fls--;		\
		}				\
	} while (0)

	while (count_fls + sec_fls > 64 && nsec_fls + frequency_fls > 64) {
		SHED_BIT(nsec, frequency);
		SHED_BIT(sec, count);
	}

	if (count_fls + sec_fls > 64) {
		divisor = nsec * frequency;
		while (count_fls + sec_fls > 64) {
			SHED_BIT(count, sec);
			divisor >>= 1;
		}
		dividend = count * sec;
	} else {
		dividend = count * sec;
		while (nsec_fls + frequency_fls > 64) {
			SHED_BIT(nsec, frequency);
			dividend >>= 1;
		}
		divisor = nsec * frequency;
	}
#undef SHED_BIT

	if (!divisor)
		return dividend;
	return dividend / divisor;
}

void perf_adjust_period(struct perf_event *event, u64 nsec, u64 count, bool disable)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 period, sample_period, delta;

	/* alternating periods and frequency mode exclude each other at open */
	WARN_ON_ONCE(hwc->using_alternative_sample_period);

	period = (s64)perf_calculate_period(event, nsec, count);

	/* move an eighth of the way, rounding away from zero: a low-pass filter */
	delta = period - (s64)hwc->sample_period;
	if (delta >= 0)
		delta += 7;
	else
		delta -= 7;
	delta /= 8;

	sample_period = (s64)hwc->sample_period + delta;
	if (!sample_period)
		sample_period = 1;
	hwc->sample_period = (u64)sample_period;

	/* far from the new period: restart now rather than run out the old one */
	if (local64_read(&hwc->period_left) > 8 * sample_period) {
		if (disable)
			event->pmu->stop(event, PERF_EF_UPDATE);
		local64_set(&hwc->period_left, 0);
		if (disable)
			event->pmu->start(event, PERF_EF_RELOAD);
	}
}

static int __perf_event_account_interrupt(struct perf_event *event, int throttle)
{
	struct perf_cpu_context *cpuctx = &perf_cpu_context[smp_processor_id()];
	struct hw_perf_event *hwc = &event->hw;
	int ret = 0;
	u64 seq;

	/* interrupts are counted per tick: a new tick starts from one */
	seq = cpuctx->throttled_seq;
	if (seq != hwc->interrupts_seq) {
		hwc->interrupts_seq = seq;
		hwc->interrupts = 1;
	} else {
		hwc->interrupts++;
	}

	if (unlikely(throttle && hwc->interrupts >= (u64)READ_ONCE(max_samples_per_tick))) {
		cpuctx->throttled_count++;
		hwc->interrupts = MAX_INTERRUPTS;
		perf_log_throttle(event, 0);
		ret = 1;
	}

	if (event->attr.freq) {
		u64 now = perf_clock();
		s64 delta = (s64)(now - hwc->freq_time_stamp);

		hwc->freq_time_stamp = now;
		if (delta > 0 && delta < (s64)(2 * TICK_NSEC))
			perf_adjust_period(event, (u64)delta, hwc->last_period, true);
	}

	return ret;
}

int perf_event_account_interrupt(struct perf_event *event)
{
	return __perf_event_account_interrupt(event, 1);
}

/*
 * RFC: every overflow switches to the other period. The counter already
 * holds the old one, so it is reprogrammed at once.
 */
static void perf_event_alternate_period(struct perf_event *event)
{
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	struct hw_perf_event *hwc = &event->hw;
	bool using_alt;

	if (!event->attr.alternative_sample_period)
		return;

	using_alt = hwc->using_alternative_sample_period;
	hwc->sample_period = using_alt ? event->attr.sample_period
				       : event->attr.alternative_sample_period;
	hwc->using_alternative_sample_period = !using_alt;

	if (local64_read(&hwc->period_left) > 0) {
		event->pmu->stop(event, PERF_EF_UPDATE);
		local64_set(&hwc->period_left, 0);
		event->pmu->start(event, PERF_EF_RELOAD);
	}
#else
	(void)event;
#endif
}

int __perf_event_overflow(struct perf_event *event, int throttle,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	int events = atomic_read(&event->event_limit);
	int ret;

	/* counting events use the interrupt only to widen the counter */
	if (unlikely(!is_sampling_event(event)))
		return 0;

	ret = __perf_event_account_interrupt(event, throttle);

	perf_event_alternate_period(event);

	event->pending_kill = POLL_IN;
	if (events && atomic_dec_and_test(&event->event_limit)) {
		ret = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}

	/*
	 * attr.sigtrap's block (a task work that sends SIGTRAP on the way
	 * back to user space) is not here: perf_event_alloc() refuses
	 * sigtrap, pmusim having no signals (a departure, README).
	 */
	perf_interleave(PI_OVERFLOW_OUTPUT, event);
	READ_ONCE(event->overflow_handler)(event, data, regs);

	/*
	 * With O_ASYNC the overflow itself is news (SIGIO), whether or not
	 * the handler wrote a record that woke the buffer: the kernel queues
	 * event->pending_irq; pmusim's event core acts on the flag.
	 */
	if (event->fasync && event->pending_kill)
		WRITE_ONCE(event->pending_wakeup, 1);

	return ret;
}

int perf_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	perf_interleave(PI_OVERFLOW_ENTER, event);
	return __perf_event_overflow(event, 1, data, regs);
}

/* ---- the tick ------------------------------------------------------------- */

/*
 * @list is one CPU's active list: every event on it passed the CPU
 * filter when it went on (the kernel re-checks event_filter_match()
 * here because its lists are per PMU context, not per CPU).
 */
static void perf_adjust_freq_unthr_events(struct perf_event *list)
{
	struct perf_event *event;
	struct hw_perf_event *hwc;
	u64 now, period = TICK_NSEC;
	s64 delta;

	for (event = list; event; event = event->active_next) {
		if (event->state != PERF_EVENT_STATE_ACTIVE)
			continue;
		if (event->pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT)
			continue;
		/*
		 * v6.12 walks the PMU context's active lists, which hold group
		 * leaders only: a sibling's frequency is not adjusted here, nor
		 * is a throttled sibling unthrottled (its group going back on
		 * does that). Upstream v6.16 (9734e25fbf5a, "perf: Fix the
		 * throttle logic for a group") throttles groups whole.
		 */
		if (event->group_leader != event)
			continue;

		hwc = &event->hw;

		if (hwc->interrupts == MAX_INTERRUPTS) {
			hwc->interrupts = 0;
			perf_log_throttle(event, 1);
			/* a frequency event restarts below, with a new period */
			if (!event->attr.freq || !event->attr.sample_freq)
				event->pmu->start(event, 0);
		}

		if (!event->attr.freq || !event->attr.sample_freq)
			continue;

		event->pmu->stop(event, PERF_EF_UPDATE);

		now = (u64)local64_read(&event->count);
		delta = (s64)(now - hwc->freq_count_stamp);
		hwc->freq_count_stamp = now;

		/* stopped already: perf_adjust_period() must not stop it again */
		if (delta > 0)
			perf_adjust_period(event, period, (u64)delta, false);

		event->pmu->start(event, delta > 0 ? PERF_EF_RELOAD : 0);
	}
}

void perf_event_task_tick(void)
{
	int cpu = smp_processor_id();
	struct perf_cpu_context *cpuctx = &perf_cpu_context[cpu];
	struct perf_event *event;
	int throttled, nr_freq = 0;

	/* irq_work_tick(): irq work left over from the PMIs runs now at the latest */
	perf_event_irq_work_run();

	cpuctx->throttled_seq++;
	throttled = cpuctx->throttled_count;
	cpuctx->throttled_count = 0;

	for (event = cpuctx->active_list; event; event = event->active_next)
		if (event->attr.freq)
			nr_freq++;
	if (!(nr_freq || throttled))
		return;

	/*
	 * As perf_adjust_freq_unthr_context() does, each PMU stays disabled
	 * while its events restart: x86 writes a fixed counter's enable bits
	 * only when the PMU is enabled again.
	 */
	for (event = cpuctx->active_list; event; event = event->active_next)
		perf_pmu_disable(event->pmu);
	perf_adjust_freq_unthr_events(cpuctx->active_list);
	for (event = cpuctx->active_list; event; event = event->active_next)
		perf_pmu_enable(event->pmu);
}
