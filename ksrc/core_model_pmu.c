// SPDX-License-Identifier: GPL-2.0-only
/*
 * A struct pmu for kernel/events/core.c over the model PMU's MSRs, doing
 * what arch/x86/events/core.c and intel/core.c do for general-purpose
 * counters: add/del give the event a counter, start/stop program
 * IA32_PERFEVTSELx and its bit of GLOBAL_CTRL, read folds the counter's
 * delta into event->count and hw.period_left, and the PMI reads
 * GLOBAL_STATUS, updates each overflowed event, sets its next period and
 * calls the kernel's perf_event_overflow(), stopping the event when it
 * says so (throttled, or event_limit reached). The MSRs go to the model
 * through model_rdmsr()/model_wrmsr(): the driver never looks at the
 * model's state. The PMU it drives is Skylake's (four 48-bit counters,
 * written whole): the tests create that model, whatever the build's
 * default CPU.
 */
#include <linux/perf_event.h>
#include "model/model.h"
#include "model/msr-index.h"
#include "ksrc/core_ksrc.h"

#define KSRC_PMU_COUNTERS	4
#define KSRC_CNTVAL_BITS	48
#define KSRC_CNTVAL_MASK	((1ULL << KSRC_CNTVAL_BITS) - 1)
#define KSRC_MAX_PERIOD		(KSRC_CNTVAL_MASK >> 1)
#define KSRC_MAX_PRECISE	3
#define KSRC_EVSEL_USR		(1ULL << 16)
#define KSRC_EVSEL_OS		(1ULL << 17)
#define KSRC_EVSEL_INT		(1ULL << 20)
#define KSRC_EVSEL_EN		(1ULL << 22)

static struct model_cpu *ksrc_model;
static struct perf_event *ksrc_events[KSRC_PMU_COUNTERS];
static u64 ksrc_global_ctrl;

static u64 ksrc_rdmsr(u32 msr)
{
	u64 v = 0;

	if (model_rdmsr(ksrc_model, msr, &v))
		pmusim_warn(__FILE__, __LINE__, "rdmsr of an MSR the model lacks");
	return v;
}

static void ksrc_wrmsr(u32 msr, u64 v)
{
	if (model_wrmsr(ksrc_model, msr, v))
		pmusim_warn(__FILE__, __LINE__, "wrmsr the model refuses");
}

/* x86_perf_event_update(): the counter's movement since prev_count */
static u64 ksrc_pmu_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - KSRC_CNTVAL_BITS;
	u64 prev, now;
	s64 delta;

	prev = local64_read(&hwc->prev_count);
	do {
		now = ksrc_rdmsr(MSR_IA32_PMC0 + hwc->idx);
	} while (!local64_try_cmpxchg(&hwc->prev_count, &prev, now));
	delta = (s64)((now << shift) - (prev << shift)) >> shift;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}

/* x86_perf_event_set_period(): 1 when a period ended (the sample is due) */
static int ksrc_pmu_set_period(struct perf_event *event)
{
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
	/* the hardware may not take a period of one: x86's floor of 2 */
	if (unlikely(left < 2))
		left = 2;
	if (left > (s64)KSRC_MAX_PERIOD)
		left = (s64)KSRC_MAX_PERIOD;
	local64_set(&hwc->prev_count, (u64)-left);
	ksrc_wrmsr(MSR_IA32_PMC0 + hwc->idx, (u64)-left & KSRC_CNTVAL_MASK);
	perf_event_update_userpage(event);
	return ret;
}

static int ksrc_pmu_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 evsel;

	/* x86_pmu_event_init(): its types, then hw_config's checks, then the event */
	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_RAW:
	case PERF_TYPE_HW_CACHE:
		break;
	default:
		return -ENOENT;
	}
	/*
	 * x86_pmu_hw_config()'s precise_ip check, with Skylake's levels
	 * (x86_pmu_max_precise(): PEBS, its IP fixup, precise distribution)
	 */
	if (event->attr.precise_ip) {
		if (event->attr.precise_ip > KSRC_MAX_PRECISE)
			return -EOPNOTSUPP;
		if (!is_sampling_event(event))
			return -EINVAL;
	}
	if (event->attr.type == PERF_TYPE_RAW) {
		evsel = event->attr.config & 0xffff;
	} else if (event->attr.type == PERF_TYPE_HW_CACHE) {
		return -ENOENT;		/* the model has no cache events (core/x86's answer too) */
	} else if (event->attr.config == PERF_COUNT_HW_CPU_CYCLES) {
		evsel = 0x3c;
	} else if (event->attr.config == PERF_COUNT_HW_INSTRUCTIONS) {
		evsel = 0xc0;
	} else {
		return -EOPNOTSUPP;
	}
	if (!event->attr.exclude_user)
		evsel |= KSRC_EVSEL_USR;
	if (!event->attr.exclude_kernel)
		evsel |= KSRC_EVSEL_OS;
	hwc->config = evsel | KSRC_EVSEL_INT;
	/* x86_pmu_hw_config(): a counting event still overflows, at the widest period */
	if (!is_sampling_event(event)) {
		hwc->sample_period = KSRC_MAX_PERIOD;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return 0;
}

static void ksrc_pmu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD)
		ksrc_pmu_set_period(event);
	hwc->state = 0;
	ksrc_wrmsr(MSR_ARCH_PERFMON_EVENTSEL0 + hwc->idx, hwc->config | KSRC_EVSEL_EN);
	ksrc_global_ctrl |= 1ULL << hwc->idx;
	ksrc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, ksrc_global_ctrl);
	perf_event_update_userpage(event);
}

static void ksrc_pmu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		ksrc_global_ctrl &= ~(1ULL << hwc->idx);
		ksrc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, ksrc_global_ctrl);
		ksrc_wrmsr(MSR_ARCH_PERFMON_EVENTSEL0 + hwc->idx, hwc->config);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		ksrc_pmu_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static int ksrc_pmu_add(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	for (idx = 0; idx < KSRC_PMU_COUNTERS && ksrc_events[idx]; idx++)
		;
	if (idx == KSRC_PMU_COUNTERS)
		return -EAGAIN;
	ksrc_events[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		ksrc_pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void ksrc_pmu_del(struct perf_event *event, int flags)
{
	(void)flags;
	ksrc_pmu_stop(event, PERF_EF_UPDATE);
	ksrc_events[event->hw.idx] = NULL;
	event->hw.idx = -1;
	perf_event_update_userpage(event);
}

static void ksrc_pmu_read(struct perf_event *event)
{
	ksrc_pmu_update(event);
}

static int ksrc_pmu_event_idx(struct perf_event *event)
{
	(void)event;
	return 0;	/* no rdpmc from user space */
}

struct pmu ksrc_model_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.event_init	= ksrc_pmu_event_init,
	.add		= ksrc_pmu_add,
	.del		= ksrc_pmu_del,
	.start		= ksrc_pmu_start,
	.stop		= ksrc_pmu_stop,
	.read		= ksrc_pmu_read,
	.event_idx	= ksrc_pmu_event_idx,
};

/*
 * The hw_time seed (ksrc/examples/core-hw-time.patch), the driver's half:
 * a sample of an attr.hw_time event carries the raw TSC, read in the PMI,
 * instead of the time core.c's perf_prepare_sample() would give it (the
 * flag tells it the field is done). Only when the tree's attr has the bit.
 */
static void ksrc_pmu_sample_hw_time(struct perf_event *event, struct perf_sample_data *data)
{
#ifdef KSRC_HAS_HW_TIME
	if (event->attr.hw_time && (event->attr.sample_type & PERF_SAMPLE_TIME)) {
		data->time = ksrc_rdmsr(MSR_IA32_TSC);
		data->sample_flags |= PERF_SAMPLE_TIME;
	}
#else
	(void)event;
	(void)data;
#endif
}

/* The PMI: intel_pmu_handle_irq()'s loop over GLOBAL_STATUS, acked before each round */
static void ksrc_pmu_pmi(void *ctx, int cpu_id)
{
	struct pt_regs regs = { .cs = 3 };	/* the workload is user code */
	u64 status = ksrc_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS);

	(void)ctx;
	(void)cpu_id;
	ksrc_irq_regs = &regs;
	ksrc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	/*
	 * intel_pmu_handle_irq()'s loop: the status acked before the events
	 * are handled (handle_pmi_common()), then read again, and what
	 * overflowed meanwhile handled in the same PMI (at most 100 rounds).
	 */
	for (int loops = 0; status && loops < 100; loops++) {
		ksrc_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
		for (int idx = 0; idx < KSRC_PMU_COUNTERS; idx++) {
			struct perf_event *event = ksrc_events[idx];
			struct perf_sample_data data;

			if (!(status & (1ULL << idx)) || !event)
				continue;
			ksrc_pmu_update(event);
			/* x86_pmu_handle_irq()'s order: the next period first, the sample's after */
			if (!ksrc_pmu_set_period(event))
				continue;
			perf_sample_data_init(&data, 0, event->hw.last_period);
			ksrc_pmu_sample_hw_time(event, &data);
			if (perf_event_overflow(event, &data, &regs))
				ksrc_pmu_stop(event, 0);
		}
		status = ksrc_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS);
	}
	ksrc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, ksrc_global_ctrl);
	ksrc_irq_regs = NULL;
	/* what the NMI leaves for irq_work runs on its way out */
	ksrc_irq_work_run();
}

/*
 * The callchain walkers x86's driver gives kernel/events/callchain.c
 * (arch/x86/events/core.c): the user one stores the sampled ip, then each
 * return address of the frame-pointer chain while the entry has room. The
 * model's user stack is the return addresses the caller set
 * (ksrc_core_set_user_stack(), as core/'s pt_regs.callers); it has no
 * kernel stack, and no sample is taken in the kernel.
 */
static const u64 *ksrc_user_stack;
static unsigned int ksrc_user_stack_nr;

void ksrc_core_set_user_stack(const uint64_t *ret, unsigned int nr)
{
	ksrc_user_stack = ret;
	ksrc_user_stack_nr = nr;
}

void perf_callchain_user(struct perf_callchain_entry_ctx *entry, struct pt_regs *regs)
{
	perf_callchain_store(entry, regs->ip);
	for (unsigned int i = 0; i < ksrc_user_stack_nr && entry->nr < entry->max_stack; i++)
		if (perf_callchain_store(entry, ksrc_user_stack[i]))
			break;
}

void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry, struct pt_regs *regs)
{
	perf_callchain_store(entry, regs->ip);
}

void ksrc_model_pmu_attach(struct model_cpu *cpu);
void ksrc_model_pmu_attach(struct model_cpu *cpu)
{
	ksrc_model = cpu;
	model_cpu_set_pmi(cpu, ksrc_pmu_pmi, NULL);
}
