// SPDX-License-Identifier: GPL-2.0-only
/*
 * core.c - the x86 PMU driver's generic half (arch/x86/events/core.c):
 * the "cpu" PMU for PERF_TYPE_HARDWARE and PERF_TYPE_RAW, event init,
 * counter scheduling under constraints, add/del/start/stop/read with
 * the PERF_HES_* protocol, the period and count arithmetic, and the
 * plugging in of model CPUs.
 *
 * Differences from the kernel, all forced by the model: counters are
 * read with rdmsr of the counter MSR (the model has no rdpmc); there is
 * no hybrid, no PEBS/BTS/PT, no HW_CACHE table (the model has no caches:
 * -ENOENT) and no rotation of more events than counters (add() refuses
 * with -EINVAL and the event core leaves the event inactive).
 */
#include "core/x86/perf_event.h"
#include "core/task_ctx_data.h"

struct x86_pmu x86_pmu;
struct cpu_hw_events cpu_hw_events[CONFIG_MODEL_MAX_CPUS];

_Static_assert(offsetof(struct perf_branch_stack, entries) == 2 * sizeof(u64),
	       "cpu_hw_events.lbr_stack must have perf_branch_stack's layout");

static struct pt_regs *x86_irq_regs[CONFIG_MODEL_MAX_CPUS];
/*
 * What sched_clock() would measure around each CPU's PMI handler. The
 * simulated clock stands still inside the handler (the model passes its
 * cycles after the handler returns), so the machine says what they are.
 */
static u64 x86_pmi_ns[CONFIG_MODEL_MAX_CPUS];
static int x86_nr_cpus_attached;
static bool x86_pmu_registered;

/* ---- counts and periods ---------------------------------------------------- */

/*
 * Fold the counter's progress since prev_count into event->count. An NMI
 * may update prev_count between our read and our write, so the exchange
 * retries until the pair (prev, new) we compute with is the one stored.
 */
u64 x86_perf_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - x86_pmu.cntval_bits;
	s64 prev_raw_count, new_raw_count;
	u64 delta;

	if (unlikely(!hwc->event_base))
		return 0;

	prev_raw_count = local64_read(&hwc->prev_count);
	do {
		rdmsrl(hwc->event_base, new_raw_count);
	} while (!local64_try_cmpxchg(&hwc->prev_count, &prev_raw_count, new_raw_count));

	/*
	 * The counter is cntval_bits wide and does not sign-extend: shift
	 * both values to the top so the subtraction wraps at the width.
	 */
	delta = ((u64)new_raw_count << shift) - ((u64)prev_raw_count << shift);
	delta >>= shift;

	local64_add(delta, &event->count);
	local64_add(-(s64)delta, &hwc->period_left);

	return new_raw_count;
}

/*
 * Program the counter so it overflows after what is left of the period.
 * Returns 1 when a new period started (the caller reports a sample).
 */
int x86_perf_event_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	int ret = 0;

	if (unlikely(!hwc->event_base))
		return 0;

	/* Far behind (a long stop, an overshoot): start a fresh period. */
	if (unlikely(left <= -period)) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ret = 1;
	}

	if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ret = 1;
	}
	/* Some CPUs misbehave with a single event left: never program 1. */
	if (unlikely(left < 2))
		left = 2;

	if (left > (s64)x86_pmu.max_period)
		left = x86_pmu.max_period;

	local64_set(&hwc->prev_count, (u64)-left);
	wrmsrl(hwc->event_base, (u64)(-left) & x86_pmu.cntval_mask);

	perf_event_update_userpage(event);
	return ret;
}

/* ---- event init ------------------------------------------------------------- */

static u64 intel_perfmon_event_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x003c,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x4f2e,
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x412e,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c4,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c5,
	[PERF_COUNT_HW_BUS_CYCLES]		= 0x013c,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= 0x0300,	/* pseudo-encoding: fixed 2 */
};

/* CPUID.0AH:EBX bit n set = this architectural event is absent. */
static const int intel_arch_events_map[] = {
	PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_BUS_CYCLES,
	PERF_COUNT_HW_CACHE_REFERENCES, PERF_COUNT_HW_CACHE_MISSES,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_MISSES,
};

void x86_pmu_mask_arch_events(u32 ebx, unsigned int len)
{
	for (unsigned int bit = 0; bit < ARRAY_SIZE(intel_arch_events_map); bit++)
		if (bit >= len || (ebx >> bit & 1))
			intel_perfmon_event_map[intel_arch_events_map[bit]] = 0;
}

static void x86_pmu_event_map_reset(void)
{
	intel_perfmon_event_map[PERF_COUNT_HW_CPU_CYCLES] = 0x003c;
	intel_perfmon_event_map[PERF_COUNT_HW_INSTRUCTIONS] = 0x00c0;
	intel_perfmon_event_map[PERF_COUNT_HW_CACHE_REFERENCES] = 0x4f2e;
	intel_perfmon_event_map[PERF_COUNT_HW_CACHE_MISSES] = 0x412e;
	intel_perfmon_event_map[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = 0x00c4;
	intel_perfmon_event_map[PERF_COUNT_HW_BRANCH_MISSES] = 0x00c5;
	intel_perfmon_event_map[PERF_COUNT_HW_BUS_CYCLES] = 0x013c;
}

static int x86_setup_perfctr(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 config;

	if (!is_sampling_event(event)) {
		hwc->sample_period = x86_pmu.max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}

	if (attr->type == PERF_TYPE_RAW)
		return 0;
	if (attr->type == PERF_TYPE_HW_CACHE)
		return -ENOENT;
	if (attr->config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	config = intel_perfmon_event_map[attr->config];
	if (!config)
		return -ENOENT;
	hwc->config |= config;
	return 0;
}

/*
 * The precise_ip levels the PMU takes, counted as the kernel counts them:
 * PEBS (constant skid), then the IP fixup the LBR allows, then precise
 * distribution, which the kernel has from Haswell's PEBS on (here: the
 * models with the LBR call-stack mode or Arch LBR). The model has no PEBS
 * buffer: it gives the overflowing instruction itself (pt_regs'
 * eventing_ip), which is what a PEBS record's eventing ip would say.
 */
int x86_pmu_max_precise(void)
{
	int precise = 1;

	if (x86_pmu.lbr_nr)
		precise++;
	if (x86_pmu.arch_lbr || x86_pmu_has_lbr_callstack())
		precise++;
	return precise;
}

int x86_pmu_hw_config(struct perf_event *event)
{
	if (event->attr.precise_ip) {
		if (event->attr.precise_ip > x86_pmu_max_precise())
			return -EOPNOTSUPP;
		/* PEBS makes no sense without sampling */
		if (!is_sampling_event(event))
			return -EINVAL;
	}

	if (branch_sample_call_stack(event))
		event->attach_state |= PERF_ATTACH_TASK_DATA;

	/* PMI on overflow; EN stays clear until the event is enabled. */
	event->hw.config = ARCH_PERFMON_EVENTSEL_INT;
	if (!event->attr.exclude_user)
		event->hw.config |= ARCH_PERFMON_EVENTSEL_USR;
	if (!event->attr.exclude_kernel)
		event->hw.config |= ARCH_PERFMON_EVENTSEL_OS;

	/* Raw: the bits the PMU takes; the rest is dropped, as the kernel does. */
	if (event->attr.type == PERF_TYPE_RAW)
		event->hw.config |= event->attr.config & x86_pmu.config_mask;

	return x86_setup_perfctr(event);
}

static void hw_perf_event_destroy(struct perf_event *event)
{
	if (event->attach_state & PERF_ATTACH_TASK_DATA) {
		if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
			detach_perf_ctx_data(event);
		else
			put_pmu_ctx(event);
	}
	event->destroy = NULL;
}

/* Collect @leader (and with @dogrp its siblings) into @cpuc; -EINVAL past the counters. */
static int collect_events(struct cpu_hw_events *cpuc, struct perf_event *leader, bool dogrp)
{
	int max_count = x86_pmu.num_counters + x86_pmu.num_counters_fixed;
	int n = cpuc->n_events;

	if (leader->pmu == &pmu) {
		if (n >= max_count)
			return -EINVAL;
		cpuc->event_list[n++] = leader;
	}
	if (!dogrp)
		return n;
	for (int i = 0; i < leader->nr_siblings; i++) {
		struct perf_event *event = leader->siblings[i];

		if (event->pmu != &pmu || event->state <= PERF_EVENT_STATE_OFF)
			continue;
		if (n >= max_count)
			return -EINVAL;
		cpuc->event_list[n++] = event;
	}
	return n;
}

static int validate_event(struct perf_event *event)
{
	struct cpu_hw_events *fake = kzalloc(sizeof(*fake));
	struct event_constraint *c;
	int ret = 0;

	if (!fake)
		return -ENOMEM;
	c = intel_get_event_constraints(fake, event);
	if (!c || !c->weight)
		ret = -EINVAL;
	kfree(fake);
	return ret;
}

/* Could the whole group, with @event, ever be on the PMU at once? */
static int validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct cpu_hw_events *fake = kzalloc(sizeof(*fake));
	int n, ret = -EINVAL;

	if (!fake)
		return -ENOMEM;
	n = collect_events(fake, leader, true);
	if (n < 0)
		goto out;
	fake->n_events = n;
	n = collect_events(fake, event, false);
	if (n < 0)
		goto out;
	fake->n_events = 0;
	ret = x86_schedule_events(fake, n, NULL);
out:
	kfree(fake);
	return ret;
}

static int x86_pmu_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int err;

	switch (event->attr.type) {
	case PERF_TYPE_RAW:
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
		break;
	default:
		return -ENOENT;
	}
	if (!x86_pmu.version)
		return -ENODEV;
	/*
	 * A CPU event on a CPU that is not there: the kernel refuses it with
	 * -ENODEV in perf_event_open() (the CPU context is not online).
	 * pmusim's core has no CPU hotplug; the CPUs are those the driver
	 * has a model CPU for, so the driver refuses it, with that errno,
	 * before anything programs a counter on no CPU. A task's event bound
	 * to such a CPU is taken, as by the kernel: it never runs.
	 */
	if (event->cpu >= 0 && !(event->attach_state & PERF_ATTACH_TASK) &&
	    !x86_model_cpus[event->cpu])
		return -ENODEV;

	hwc->idx = -1;
	hwc->last_cpu = -1;
	hwc->last_tag = ~0ULL;
	event->destroy = hw_perf_event_destroy;

	err = intel_pmu_hw_config(event);
	if (!err) {
		if (event->group_leader && event->group_leader != event)
			err = validate_group(event);
		else
			err = validate_event(event);
	}
	/*
	 * The kernel allocates per-task PMU data in perf_event_alloc() for
	 * PERF_ATTACH_TASK_DATA events; pmusim's event core leaves it to
	 * the driver, and event->destroy gives it back.
	 */
	if (err)
		event->attach_state &= ~PERF_ATTACH_TASK_DATA;	/* nothing attached yet */
	else if (event->attach_state & PERF_ATTACH_TASK_DATA) {
		if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
			err = attach_perf_ctx_data(event, intel_pmu_lbr_task_ctx_size());
		else
			err = get_pmu_ctx(event, intel_pmu_lbr_task_ctx_size());
		if (err)
			event->attach_state &= ~PERF_ATTACH_TASK_DATA;
	}
	if (err && event->destroy)
		event->destroy(event);
	return err;
}

/* ---- scheduling --------------------------------------------------------------- */

/*
 * Greedy assignment in order of increasing constraint weight, as
 * perf_assign_events() does (without the overlap backtracking, which no
 * constraint here needs): each event takes a free fixed counter of its
 * mask if any, else the lowest free general-purpose one. Returns the
 * number of events left unscheduled.
 */
int perf_assign_events(struct event_constraint **constraints, int n,
		       int wmin, int wmax, int gpmax, int *assign)
{
	u64 used = 0;
	int nr_gp = 0, done = 0;

	for (int w = wmin; w <= wmax; w++) {
		for (int i = 0; i < n; i++) {
			struct event_constraint *c = constraints[i];
			u64 mask;
			int idx = -1;

			if (c->weight != w)
				continue;
			mask = c->idxmsk64 & ~used & (~0ULL << INTEL_PMC_IDX_FIXED);
			if (mask) {
				idx = __builtin_ctzll(mask);
			} else {
				mask = c->idxmsk64 & ~used & ((1ULL << INTEL_PMC_IDX_FIXED) - 1);
				if (mask && nr_gp < gpmax) {
					idx = __builtin_ctzll(mask);
					nr_gp++;
				}
			}
			if (idx < 0)
				return n - done;
			used |= 1ULL << idx;
			if (assign)
				assign[i] = idx;
			done++;
		}
	}
	return n - done;
}

/* Two LBR events must agree on LBR_SELECT: the shared extra register. */
static bool intel_lbr_sel_conflict(struct cpu_hw_events *cpuc, int n)
{
	struct perf_event *owner = NULL;

	for (int i = 0; i < n; i++) {
		struct perf_event *event = cpuc->event_list[i];

		if (!has_branch_stack(event) || !x86_pmu.lbr_sel_map)
			continue;
		if (owner && owner->hw.branch_reg.config != event->hw.branch_reg.config)
			return true;
		owner = event;
	}
	return false;
}

int x86_schedule_events(struct cpu_hw_events *cpuc, int n, int *assign)
{
	int wmin = X86_PMC_IDX_MAX, wmax = 0, i;
	u64 used = 0;

	if (intel_lbr_sel_conflict(cpuc, n))
		return -EINVAL;

	for (i = 0; i < n; i++) {
		struct event_constraint *c = intel_get_event_constraints(cpuc, cpuc->event_list[i]);

		cpuc->event_constraint[i] = c;
		wmin = min(wmin, c->weight);
		wmax = max(wmax, c->weight);
	}

	/* Fast path: every event keeps the counter it had. */
	for (i = 0; i < n; i++) {
		struct hw_perf_event *hwc = &cpuc->event_list[i]->hw;
		struct event_constraint *c = cpuc->event_constraint[i];

		if (hwc->idx == -1 || !(c->idxmsk64 >> hwc->idx & 1) || (used >> hwc->idx & 1))
			break;
		used |= 1ULL << hwc->idx;
		if (assign)
			assign[i] = hwc->idx;
	}
	if (i != n && perf_assign_events(cpuc->event_constraint, n, wmin, wmax,
					 x86_pmu.num_counters, assign))
		return -EINVAL;
	return 0;
}

static void x86_assign_hw_event(struct perf_event *event, struct cpu_hw_events *cpuc, int i)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = cpuc->assign[i];

	hwc->idx = idx;
	hwc->last_cpu = smp_processor_id();
	hwc->last_tag = ++cpuc->tags[i];

	if (is_counter_fixed(idx)) {
		hwc->config_base = MSR_ARCH_PERFMON_FIXED_CTR_CTRL;
		hwc->event_base = MSR_ARCH_PERFMON_FIXED_CTR0 + (idx - INTEL_PMC_IDX_FIXED);
		hwc->event_base_rdpmc = (idx - INTEL_PMC_IDX_FIXED) | 1 << 30;
	} else {
		hwc->config_base = x86_pmu.eventsel + idx;
		hwc->event_base = x86_pmu.perfctr + idx;
		hwc->event_base_rdpmc = idx;
	}
}

static bool match_prev_assignment(struct hw_perf_event *hwc, struct cpu_hw_events *cpuc, int i)
{
	return hwc->idx == cpuc->assign[i] && hwc->last_cpu == smp_processor_id() &&
	       hwc->last_tag == cpuc->tags[i];
}

/* ---- the PMU callbacks -------------------------------------------------------- */

static void x86_pmu_start(struct perf_event *event, int flags);

static void x86_pmu_disable(struct pmu *p)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	(void)p;
	if (!cpuc->enabled)
		return;
	cpuc->n_added = 0;
	cpuc->enabled = 0;
	barrier();
	intel_pmu_disable_all();
}

static void x86_pmu_enable(struct pmu *p)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	int added = cpuc->n_added;

	(void)p;
	if (cpuc->enabled)
		return;

	if (cpuc->n_added) {
		int n_running = cpuc->n_events - cpuc->n_added;
		int i;

		/* First take the moved events off their old counters ... */
		for (i = 0; i < n_running; i++) {
			struct perf_event *event = cpuc->event_list[i];
			struct hw_perf_event *hwc = &event->hw;

			if (hwc->idx == -1 || match_prev_assignment(hwc, cpuc, i))
				continue;
			/* a stopped event stays stopped where it goes */
			if (hwc->state & PERF_HES_STOPPED)
				hwc->state |= PERF_HES_ARCH;
			x86_pmu_stop(event, PERF_EF_UPDATE);
		}
		/* ... then put them, and the new ones, on their counters. */
		for (i = 0; i < cpuc->n_events; i++) {
			struct perf_event *event = cpuc->event_list[i];
			struct hw_perf_event *hwc = &event->hw;

			if (!match_prev_assignment(hwc, cpuc, i))
				x86_assign_hw_event(event, cpuc, i);
			else if (i < n_running)
				continue;
			if (hwc->state & PERF_HES_ARCH)
				continue;
			x86_pmu_start(event, PERF_EF_RELOAD);
		}
		cpuc->n_added = 0;
	}

	cpuc->enabled = 1;
	barrier();
	intel_pmu_enable_all(added);
}

static int x86_pmu_add(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct hw_perf_event *hwc = &event->hw;
	int assign[X86_PMC_IDX_MAX];
	int n, n0 = cpuc->n_events, ret;

	n = collect_events(cpuc, event, false);
	if (n < 0)
		return n;

	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (!(flags & PERF_EF_START))
		hwc->state |= PERF_HES_ARCH;

	ret = x86_schedule_events(cpuc, n, assign);
	if (ret)
		return ret;
	memcpy(cpuc->assign, assign, n * sizeof(int));

	cpuc->n_events = n;
	cpuc->n_added += n - n0;

	if (has_branch_stack(event))
		intel_pmu_lbr_add(event);
	return 0;
}

static void x86_pmu_start(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	int idx = event->hw.idx;

	if (WARN_ON_ONCE(!(event->hw.state & PERF_HES_STOPPED)))
		return;
	if (WARN_ON_ONCE(idx == -1))
		return;

	if (flags & PERF_EF_RELOAD) {
		WARN_ON_ONCE(!(event->hw.state & PERF_HES_UPTODATE));
		x86_perf_event_set_period(event);
	}

	event->hw.state = 0;
	cpuc->events[idx] = event;
	cpuc->active_mask |= 1ULL << idx;
	intel_pmu_enable_event(event);
	perf_event_update_userpage(event);
}

void x86_pmu_stop(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->idx >= 0 && (cpuc->active_mask >> hwc->idx & 1)) {
		intel_pmu_disable_event(event);
		cpuc->active_mask &= ~(1ULL << hwc->idx);
		cpuc->events[hwc->idx] = NULL;
		WARN_ON_ONCE(hwc->state & PERF_HES_STOPPED);
		hwc->state |= PERF_HES_STOPPED;
	}

	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		/* Drain the counter: it is stopped, this is the final value. */
		x86_perf_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static void x86_pmu_del(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	int i;

	(void)flags;
	for (i = 0; i < cpuc->n_events; i++)
		if (event == cpuc->event_list[i])
			break;
	if (WARN_ON_ONCE(i == cpuc->n_events))
		return;

	/*
	 * Added in this PMU transaction (a group going on that does not fit
	 * undoes its adds): it never got a counter, and its hw.idx is the
	 * one it had last time, maybe another event's now. The kernel's
	 * group transaction skips the stop the same way. Otherwise stop it.
	 */
	if (i >= cpuc->n_events - cpuc->n_added)
		--cpuc->n_added;
	else
		x86_pmu_stop(event, PERF_EF_UPDATE);

	while (++i < cpuc->n_events) {
		cpuc->event_list[i - 1] = cpuc->event_list[i];
		cpuc->event_constraint[i - 1] = cpuc->event_constraint[i];
		cpuc->assign[i - 1] = cpuc->assign[i];
	}
	cpuc->event_constraint[i - 1] = NULL;
	--cpuc->n_events;

	if (has_branch_stack(event))
		intel_pmu_lbr_del(event);
	perf_event_update_userpage(event);
}

static void x86_pmu_read(struct perf_event *event)
{
	x86_perf_event_update(event);
}

static void x86_pmu_sched_task(struct perf_event_pmu_context *pmu_ctx,
			       struct task_struct *task, bool sched_in)
{
	intel_pmu_lbr_sched_task(pmu_ctx, task, sched_in);
}

static int x86_pmu_event_idx(struct perf_event *event)
{
	(void)event;
	return 0;	/* no rdpmc from user space in the model */
}

struct pmu pmu = {
	.name		= "cpu",
	.type		= PERF_TYPE_RAW,
	.event_init	= x86_pmu_event_init,
	.add		= x86_pmu_add,
	.del		= x86_pmu_del,
	.start		= x86_pmu_start,
	.stop		= x86_pmu_stop,
	.read		= x86_pmu_read,
	.pmu_enable	= x86_pmu_enable,
	.pmu_disable	= x86_pmu_disable,
	.event_idx	= x86_pmu_event_idx,
	.sched_task	= x86_pmu_sched_task,
};

struct pmu *x86_get_pmu(void)
{
	return &pmu;
}

/* ---- context switch ------------------------------------------------------------- */

/* The pmu context the kernel would pass: the task's, if it has one here. */
static struct perf_event_pmu_context *x86_task_pmu_ctx(struct task_struct *task)
{
	return task ? task->perf_event_pmu_ctx : NULL;
}

void x86_pmu_sched_out(struct task_struct *prev)
{
	if (!this_model_cpu() || !prev)
		return;
	x86_pmu_disable(&pmu);
	pmu.sched_task(x86_task_pmu_ctx(prev), prev, false);
	x86_pmu_enable(&pmu);
}

void x86_pmu_sched_in(struct task_struct *next)
{
	if (!this_model_cpu() || !next)
		return;
	x86_pmu_disable(&pmu);
	pmu.sched_task(x86_task_pmu_ctx(next), next, true);
	x86_pmu_enable(&pmu);
}

/* ---- v6.12 per-task PMU data: the task context's pmu context ---------------------- */

int get_pmu_ctx(struct perf_event *event, size_t task_ctx_size)
{
	struct task_struct *task = event->target;
	struct perf_event_pmu_context *epc;

	if (!(event->attach_state & PERF_ATTACH_TASK) || !task)
		return 0;	/* a CPU context: no per-task data */
	epc = task->perf_event_pmu_ctx;
	if (epc) {
		refcount_inc(&epc->refcount);
		event->pmu_ctx = epc;
		return 0;
	}
	epc = kzalloc(sizeof(*epc));
	if (!epc)
		return -ENOMEM;
	epc->task_ctx_data = kzalloc(task_ctx_size);
	if (!epc->task_ctx_data) {
		kfree(epc);
		return -ENOMEM;
	}
	epc->pmu = &pmu;
	epc->task = task;
	refcount_set(&epc->refcount, 1);
	task->perf_event_pmu_ctx = epc;
	event->pmu_ctx = epc;
	return 0;
}

void put_pmu_ctx(struct perf_event *event)
{
	struct perf_event_pmu_context *epc = event->pmu_ctx;

	if (!epc)
		return;
	event->pmu_ctx = NULL;
	if (!refcount_dec_and_test(&epc->refcount))
		return;
	if (epc->task)
		epc->task->perf_event_pmu_ctx = NULL;
	kfree(epc->task_ctx_data);
	kfree(epc);
}

/* ---- plugging CPUs in -------------------------------------------------------------- */

static void x86_pmu_pmi(void *ctx, int cpu)
{
	static struct pt_regs no_regs;
	int saved = pmusim_this_cpu;
	struct pt_regs *regs;

	(void)ctx;
	pmusim_this_cpu = cpu;
	regs = x86_irq_regs[cpu] ? x86_irq_regs[cpu] : &no_regs;
	intel_pmu_handle_irq(regs);
	regs->eventing_ip = 0;	/* the simulator names it again for the next PMI */
	perf_sample_event_took(x86_pmi_ns[cpu]);
	pmusim_this_cpu = saved;
}

void x86_pmu_set_pmi_ns(int cpu, u64 ns)
{
	if (cpu >= 0 && cpu < CONFIG_MODEL_MAX_CPUS)
		x86_pmi_ns[cpu] = ns;
}

void x86_pmu_set_irq_regs(int cpu, struct pt_regs *regs)
{
	if (cpu >= 0 && cpu < CONFIG_MODEL_MAX_CPUS)
		x86_irq_regs[cpu] = regs;
}

/* Same CPUID leaves 1 and 0xA as the CPU the PMU was sized on? */
static bool x86_cpu_matches(struct model_cpu *a, struct model_cpu *b)
{
	static const u32 leaves[] = { CPUID_LEAF_FEATURES, CPUID_LEAF_ARCH_PERFMON };

	for (unsigned int i = 0; i < ARRAY_SIZE(leaves); i++) {
		u32 ra[4], rb[4];

		model_cpuid(a, leaves[i], 0, ra);
		model_cpuid(b, leaves[i], 0, rb);
		ra[1] &= 0x00ffffff;	/* the APIC id differs */
		rb[1] &= 0x00ffffff;
		if (memcmp(ra, rb, sizeof(ra)))
			return false;
	}
	return true;
}

/* intel_pmu_cpu_starting(): a CPU's PMU and LBR in a known state. */
static void x86_pmu_cpu_starting(void)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	memset(cpuc, 0, sizeof(*cpuc));
	intel_pmu_reset();
	intel_pmu_lbr_reset();
	cpuc->lbr_sel = NULL;
	/* perf is the only user of the PMU: counters go on through their enables */
	cpuc->enabled = 1;
	intel_pmu_enable_all(0);
}

static struct model_cpu *x86_first_cpu(void)
{
	for (int i = 0; i < CONFIG_MODEL_MAX_CPUS; i++)
		if (x86_model_cpus[i])
			return x86_model_cpus[i];
	return NULL;
}

int x86_pmu_attach_cpu(int cpu, struct model_cpu *mc)
{
	int saved = pmusim_this_cpu, ret = 0;

	if (cpu < 0 || cpu >= CONFIG_MODEL_MAX_CPUS)
		return -EINVAL;

	if (!mc) {
		if (!x86_model_cpus[cpu])
			return 0;
		model_cpu_set_pmi(x86_model_cpus[cpu], NULL, NULL);
		x86_model_cpus[cpu] = NULL;
		x86_irq_regs[cpu] = NULL;
		memset(&cpu_hw_events[cpu], 0, sizeof(cpu_hw_events[cpu]));
		if (--x86_nr_cpus_attached == 0) {
			if (x86_pmu_registered)
				perf_pmu_unregister(&pmu);
			x86_pmu_registered = false;
			memset(&x86_pmu, 0, sizeof(x86_pmu));
		}
		return 0;
	}

	if (x86_model_cpus[cpu])
		return -EBUSY;
	if (x86_nr_cpus_attached && !x86_cpu_matches(x86_first_cpu(), mc))
		return -EINVAL;

	x86_model_cpus[cpu] = mc;
	pmusim_this_cpu = cpu;
	if (!x86_nr_cpus_attached) {
		x86_pmu_event_map_reset();
		ret = intel_pmu_init();
		if (ret) {
			x86_model_cpus[cpu] = NULL;
			memset(&x86_pmu, 0, sizeof(x86_pmu));
			goto out;
		}
		pmu.task_ctx_size = intel_pmu_lbr_task_ctx_size();
		x86_pmu_registered = !perf_pmu_register(&pmu, "cpu", PERF_TYPE_RAW);
	}
	x86_nr_cpus_attached++;
	x86_pmu_cpu_starting();
	model_cpu_set_pmi(mc, x86_pmu_pmi, NULL);
out:
	pmusim_this_cpu = saved;
	return ret;
}
