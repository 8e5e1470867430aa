// SPDX-License-Identifier: GPL-2.0-only
/*
 * event.c - the life of a perf event, after kernel/events/core.c: the
 * PMU registry, perf_event_alloc() and the perf_event_open() syscall,
 * contexts and scheduling on and off a PMU, side-band delivery
 * (perf_iterate_sb), the ioctls, read, close.
 *
 * Locking is the caller's: pmusim runs one simulated CPU at a time on a
 * thread, so ctx->mutex and ctx->lock have nothing to protect. Where the
 * kernel sends an IPI to act on another CPU, cpu_function_call() makes
 * that CPU the current one for the call.
 */
#include "core/perf_event.h"
#include "core/internal.h"
#include "core/sideband.h"

struct perf_cpu_context perf_cpu_context[CONFIG_MODEL_MAX_CPUS];
static struct perf_event_context *task_contexts;
static atomic64_t perf_event_id;

struct task_struct *(*perf_find_task_by_vpid)(int pid);

/* ---- PMU registry -------------------------------------------------------- */

#define PERF_NR_PMUS	16

static struct pmu *pmus[PERF_NR_PMUS];

int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	int i, free = -1, max_type = PERF_TYPE_MAX - 1;

	if (!pmu || type < -1)
		return -EINVAL;
	for (i = 0; i < PERF_NR_PMUS; i++) {
		if (!pmus[i]) {
			if (free < 0)
				free = i;
			continue;
		}
		if (pmus[i] == pmu || (type >= 0 && pmus[i]->type == type))
			return -EEXIST;
		max_type = max(max_type, pmus[i]->type);
	}
	if (free < 0)
		return -ENOSPC;
	/* -1: a dynamic type, after the fixed ones */
	pmu->type = type >= 0 ? type : max_type + 1;
	pmu->name = name;
	atomic_set(&pmu->exclusive_cnt, 0);
	pmus[free] = pmu;
	return 0;
}

void perf_pmu_unregister(struct pmu *pmu)
{
	int i;

	for (i = 0; i < PERF_NR_PMUS; i++)
		if (pmus[i] == pmu)
			pmus[i] = NULL;
}

static struct pmu *perf_pmu_find(int type)
{
	int i;

	for (i = 0; i < PERF_NR_PMUS; i++)
		if (pmus[i] && pmus[i]->type == type)
			return pmus[i];
	return NULL;
}

static bool event_has_any_exclude_flag(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	return attr->exclude_idle || attr->exclude_user ||
	       attr->exclude_kernel || attr->exclude_hv ||
	       attr->exclude_guest || attr->exclude_host;
}

/* x86: the XMM registers, which only PEBS can sample */
#define PERF_REG_EXTENDED_MASK	(~(BIT_ULL(32) - 1))

static bool has_extended_regs(struct perf_event *event)
{
	return (event->attr.sample_regs_user & PERF_REG_EXTENDED_MASK) ||
	       (event->attr.sample_regs_intr & PERF_REG_EXTENDED_MASK);
}

static int perf_try_init_event(struct pmu *pmu, struct perf_event *event)
{
	int ret;

	event->pmu = pmu;
	ret = pmu->event_init(event);
	if (ret)
		goto err;

	ret = -EOPNOTSUPP;
	if (!(pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS) &&
	    has_extended_regs(event))
		goto err;

	ret = -EINVAL;
	if ((pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) &&
	    event_has_any_exclude_flag(event))
		goto err;

	return 0;
err:
	event->pmu = NULL;
	return ret;
}

/*
 * The PMU an attr names. Hardware and cache events are aliases of the raw
 * CPU PMU, unless config's upper half names a PMU (the extended type of
 * v5.18, for hybrid CPUs): that half comes off config, and the PMU of
 * that type takes the event, or, when there is none, the first PMU whose
 * event_init does not say -ENOENT, as for any type no PMU has. A PMU of
 * the type that says -ENOENT to an alias is asked again under the attr's
 * own type.
 */
static int perf_init_event(struct perf_event *event, struct pmu *pmu)
{
	bool extended_type = false;
	int type = (int)event->attr.type, ret;

	if (pmu)
		return perf_try_init_event(pmu, event);
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) {
		type = (int)(event->attr.config >> PERF_PMU_TYPE_SHIFT);
		if (!type) {
			type = PERF_TYPE_RAW;
		} else {
			extended_type = true;
			event->attr.config &= PERF_HW_EVENT_MASK;
		}
	}
	while ((pmu = perf_pmu_find(type))) {
		if ((int)event->attr.type != type && type != PERF_TYPE_RAW &&
		    !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
			return -ENOENT;
		ret = perf_try_init_event(pmu, event);
		if (ret != -ENOENT || (int)event->attr.type == type || extended_type)
			return ret;
		type = (int)event->attr.type;
	}
	for (int i = 0; i < PERF_NR_PMUS; i++) {
		if (!pmus[i])
			continue;
		ret = perf_try_init_event(pmus[i], event);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

/* ---- clocks ---------------------------------------------------------------- */

/*
 * Each clockid gets its own function so that "same clock" is a pointer
 * compare, as in the kernel. All derive from the simulated time; the
 * wall-clock ones sit at a fixed, arbitrary epoch.
 */
#define PERF_SIM_REALTIME_EPOCH	1700000000000000000ULL

static u64 perf_local_clock(void) { return perf_clock(); }
static u64 perf_clock_monotonic(void) { return perf_clock(); }
static u64 perf_clock_monotonic_raw(void) { return perf_clock(); }
static u64 perf_clock_boottime(void) { return perf_clock(); }
static u64 perf_clock_realtime(void) { return perf_clock() + PERF_SIM_REALTIME_EPOCH; }
static u64 perf_clock_tai(void) { return perf_clock() + PERF_SIM_REALTIME_EPOCH + 37 * NSEC_PER_SEC; }

static int perf_event_set_clock(struct perf_event *event, int clk_id)
{
	bool nmi_safe = false;

	switch (clk_id) {
	case PERF_CLOCK_MONOTONIC:
		event->clock = perf_clock_monotonic;
		nmi_safe = true;
		break;
	case PERF_CLOCK_MONOTONIC_RAW:
		event->clock = perf_clock_monotonic_raw;
		nmi_safe = true;
		break;
	case PERF_CLOCK_REALTIME:
		event->clock = perf_clock_realtime;
		break;
	case PERF_CLOCK_BOOTTIME:
		event->clock = perf_clock_boottime;
		break;
	case PERF_CLOCK_TAI:
		event->clock = perf_clock_tai;
		break;
	default:
		return -EINVAL;
	}
	/* these clocks take locks an NMI could deadlock on */
	if (!nmi_safe && !(event->pmu->capabilities & PERF_PMU_CAP_NO_NMI))
		return -EINVAL;
	return 0;
}

/* ---- running on a CPU ------------------------------------------------------ */

typedef void (*event_f)(struct perf_event *event, void *info);

/* The IPI: run @func on @cpu, which is the current CPU for its duration. */
static void cpu_function_call(int cpu, event_f func, struct perf_event *event,
			      void *info)
{
	int saved = pmusim_this_cpu;

	pmusim_this_cpu = cpu;
	func(event, info);
	pmusim_this_cpu = saved;
}

/*
 * A transaction on this CPU's PMU: adds and dels in between are applied
 * (counters assigned, programmed) when the outermost one ends.
 */
void perf_pmu_disable(struct pmu *pmu)
{
	if (!pmu->pmu_disable_count[smp_processor_id()]++ && pmu->pmu_disable)
		pmu->pmu_disable(pmu);
}

void perf_pmu_enable(struct pmu *pmu)
{
	if (!--pmu->pmu_disable_count[smp_processor_id()] && pmu->pmu_enable)
		pmu->pmu_enable(pmu);
}

static bool ctx_is_active(struct perf_event_context *ctx)
{
	return ctx && (ctx->cpu >= 0 || ctx->oncpu >= 0);
}

static int ctx_cpu(struct perf_event_context *ctx)
{
	return ctx->cpu >= 0 ? ctx->cpu : ctx->oncpu;
}

/*
 * Time enabled runs while the event is on and its context is scheduled;
 * time running while it is on the PMU.
 */
static void perf_event_update_time(struct perf_event *event)
{
	enum perf_event_state state = __perf_effective_state(event);
	u64 now = perf_clock();

	if (ctx_is_active(event->ctx)) {
		if (state >= PERF_EVENT_STATE_INACTIVE)
			event->total_time_enabled += now - event->tstamp;
		if (state == PERF_EVENT_STATE_ACTIVE)
			event->total_time_running += now - event->tstamp;
	}
	event->tstamp = now;
}

static void perf_event_set_state(struct perf_event *event, enum perf_event_state state)
{
	if (event->state == state)
		return;
	perf_event_update_time(event);
	/* a leader going off or coming back takes its members' time with it */
	if ((event->state < PERF_EVENT_STATE_INACTIVE) != (state < PERF_EVENT_STATE_INACTIVE) &&
	    event->group_leader == event)
		for (int i = 0; i < event->nr_siblings; i++)
			perf_event_update_time(event->siblings[i]);
	event->state = state;
}

static bool event_filter_match(struct perf_event *event, int cpu)
{
	return event->cpu == -1 || event->cpu == cpu;
}

static void active_list_del(struct perf_event *event)
{
	struct perf_event **pp;

	if (event->oncpu < 0)
		return;
	for (pp = &perf_cpu_context[event->oncpu].active_list; *pp; pp = &(*pp)->active_next) {
		if (*pp == event) {
			*pp = event->active_next;
			break;
		}
	}
	event->active_next = NULL;
	event->oncpu = -1;
}

static int event_sched_in(struct perf_event *event, int cpu)
{
	struct perf_cpu_context *cpuctx = &perf_cpu_context[cpu];

	if (event->state != PERF_EVENT_STATE_INACTIVE)
		return 0;

	event->oncpu = cpu;
	event->active_next = cpuctx->active_list;
	cpuctx->active_list = event;
	perf_event_set_state(event, PERF_EVENT_STATE_ACTIVE);

	/*
	 * Inside a PMU transaction, as the kernel's: an event added alone
	 * (a sibling joining a running group) gets its counter when it ends.
	 */
	perf_pmu_disable(event->pmu);

	/* a throttled event gets a fresh start when it goes back on */
	if (unlikely(event->hw.interrupts == MAX_INTERRUPTS)) {
		perf_log_throttle(event, 1);
		event->hw.interrupts = 0;
	}

	if (event->pmu->add(event, PERF_EF_START)) {
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		active_list_del(event);
		perf_pmu_enable(event->pmu);
		return -EAGAIN;
	}
	perf_pmu_enable(event->pmu);
	return 0;
}

static void event_sched_out(struct perf_event *event)
{
	enum perf_event_state state = PERF_EVENT_STATE_INACTIVE;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;

	perf_pmu_disable(event->pmu);
	event->pmu->del(event, 0);
	if (event->pending_disable) {
		event->pending_disable = 0;
		state = PERF_EVENT_STATE_OFF;
	}
	perf_event_set_state(event, state);
	active_list_del(event);
	perf_pmu_enable(event->pmu);
}

static void group_sched_out(struct perf_event *leader)
{
	int i;

	perf_pmu_disable(leader->pmu);
	event_sched_out(leader);
	for (i = 0; i < leader->nr_siblings; i++)
		event_sched_out(leader->siblings[i]);
	perf_pmu_enable(leader->pmu);
}

/* All of a group goes on, or none of it. */
static int group_sched_in(struct perf_event *leader, int cpu)
{
	int i, j;

	if (leader->state != PERF_EVENT_STATE_INACTIVE)
		return 0;

	perf_pmu_disable(leader->pmu);
	if (event_sched_in(leader, cpu))
		goto fail;
	for (i = 0; i < leader->nr_siblings; i++) {
		if (event_sched_in(leader->siblings[i], cpu)) {
			for (j = 0; j < i; j++)
				event_sched_out(leader->siblings[j]);
			event_sched_out(leader);
			goto fail;
		}
	}
	perf_pmu_enable(leader->pmu);
	return 0;
fail:
	/* a pinned group that cannot go on is in error until re-enabled */
	if (leader->attr.pinned)
		perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
	perf_pmu_enable(leader->pmu);
	return -EAGAIN;
}

/*
 * The user page is per event, so when context time starts every mapped
 * event's page must move with it, including a group's that stays off the
 * PMU: its time_enabled runs while time_running does not. A redirected
 * event (set-output) writes into another event's page: not here.
 */
static bool event_update_userpage(struct perf_event *event)
{
	if (!event->rb || event->output_event)
		return false;
	perf_event_update_time(event);
	perf_event_update_userpage(event);
	return true;
}

static void group_update_userpage(struct perf_event *leader)
{
	int i;

	if (!event_update_userpage(leader))
		return;
	for (i = 0; i < leader->nr_siblings; i++)
		event_update_userpage(leader->siblings[i]);
}

static void ctx_sched_in(struct perf_event_context *ctx, int cpu)
{
	struct perf_event *event;
	int pinned;

	/* pinned groups first, as the kernel does */
	for (pinned = 1; pinned >= 0; pinned--) {
		for (event = ctx->event_list; event; event = event->ctx_next) {
			if (event->group_leader != event ||
			    !!event->attr.pinned != pinned ||
			    !event_filter_match(event, cpu))
				continue;
			group_sched_in(event, cpu);
			if (!pinned && event->state == PERF_EVENT_STATE_INACTIVE)
				group_update_userpage(event);
		}
	}
}

static void ctx_sched_out(struct perf_event_context *ctx)
{
	struct perf_event *event;

	for (event = ctx->event_list; event; event = event->ctx_next)
		if (event->group_leader == event)
			group_sched_out(event);
}

static void ctx_update_times(struct perf_event_context *ctx)
{
	struct perf_event *event;

	for (event = ctx->event_list; event; event = event->ctx_next)
		perf_event_update_time(event);
}

/* Put a newly enabled (or installed) event on, if its context runs. */
static void __perf_event_enable_on_cpu(struct perf_event *event, void *info __maybe_unused)
{
	struct perf_event *leader = event->group_leader;
	int cpu = smp_processor_id();

	if (!event_filter_match(event, cpu))
		return;
	if (leader == event)
		group_sched_in(event, cpu);
	else if (leader->state == PERF_EVENT_STATE_ACTIVE)
		event_sched_in(event, cpu);
}

static void perf_event_try_sched_in(struct perf_event *event)
{
	if (ctx_is_active(event->ctx))
		cpu_function_call(ctx_cpu(event->ctx), __perf_event_enable_on_cpu, event, NULL);
}

/* The kernel's task->perf_event_ctxp: @task's context, or NULL. */
static struct perf_event_context *task_ctx_of(struct task_struct *task)
{
	struct perf_event_context *ctx;

	if (!task)
		return NULL;
	for (ctx = task_contexts; ctx; ctx = ctx->next)
		if (ctx->pid == task->tid)
			return ctx;
	return NULL;
}

void perf_event_sched_in(int cpu, struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = &perf_cpu_context[cpu];
	struct perf_event_context *ctx = task_ctx_of(task);
	int saved = pmusim_this_cpu;

	if (!ctx || ctx->oncpu >= 0)
		return;

	pmusim_this_cpu = cpu;
	ctx_update_times(ctx);		/* inactive: only restarts the stamps */
	ctx->oncpu = cpu;
	cpuctx->task_ctx = ctx;
	ctx_sched_in(ctx, cpu);
	pmusim_this_cpu = saved;
}

void perf_event_sched_out(int cpu, struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = &perf_cpu_context[cpu];
	struct perf_event_context *ctx = cpuctx->task_ctx;
	int saved = pmusim_this_cpu;

	if (!ctx || !task || ctx->pid != task->tid)
		return;

	pmusim_this_cpu = cpu;
	ctx_sched_out(ctx);
	ctx_update_times(ctx);
	ctx->oncpu = -1;
	cpuctx->task_ctx = NULL;
	pmusim_this_cpu = saved;
}

/* ---- contexts ------------------------------------------------------------- */

static struct task_struct *task_running_on(int pid, int *cpu)
{
	int i;

	for (i = 0; i < CONFIG_MODEL_MAX_CPUS; i++) {
		if (pmusim_curr[i] && pmusim_curr[i]->tid == pid) {
			*cpu = i;
			return pmusim_curr[i];
		}
	}
	return NULL;
}

static struct task_struct *find_lively_task_by_vpid(int pid)
{
	int cpu;

	if (!pid)
		return current;
	if (perf_find_task_by_vpid)
		return perf_find_task_by_vpid(pid);
	return task_running_on(pid, &cpu);
}

static struct perf_event_context *find_get_context(struct task_struct *task,
						   int cpu)
{
	struct perf_event_context *ctx;
	int oncpu;

	if (!task) {
		/* the per-CPU context belongs to its CPU: events go on there, not on CPU 0 */
		perf_cpu_context[cpu].ctx.cpu = cpu;
		return &perf_cpu_context[cpu].ctx;
	}

	ctx = task_ctx_of(task);
	if (ctx)
		return ctx;

	ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->cpu = -1;
	ctx->pid = task->tid;
	ctx->oncpu = -1;
	/* a running task's new context goes live at once, as the IPI makes it */
	if (task_running_on(task->tid, &oncpu) == task &&
	    !perf_cpu_context[oncpu].task_ctx) {
		ctx->oncpu = oncpu;
		perf_cpu_context[oncpu].task_ctx = ctx;
	}
	ctx->next = task_contexts;
	task_contexts = ctx;
	return ctx;
}

static void put_ctx(struct perf_event_context *ctx)
{
	struct perf_event_context **pp;

	if (ctx->cpu >= 0 || ctx->nr_events)
		return;
	if (ctx->oncpu >= 0)
		perf_cpu_context[ctx->oncpu].task_ctx = NULL;
	for (pp = &task_contexts; *pp; pp = &(*pp)->next) {
		if (*pp == ctx) {
			*pp = ctx->next;
			break;
		}
	}
	kfree(ctx);
}

static void perf_group_recalc_sizes(struct perf_event *leader)
{
	int i;

	perf_event__header_size(leader);
	for (i = 0; i < leader->nr_siblings; i++)
		perf_event__header_size(leader->siblings[i]);
}

static int perf_group_attach(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	event->attach_state |= PERF_ATTACH_GROUP;
	if (leader == event)
		return 0;

	if (leader->nr_siblings == leader->nr_siblings_max) {
		int n = leader->nr_siblings_max ? 2 * leader->nr_siblings_max : 4;
		struct perf_event **s = kcalloc(n, sizeof(*s));

		if (!s)
			return -ENOMEM;
		if (leader->nr_siblings)
			memcpy(s, leader->siblings, leader->nr_siblings * sizeof(*s));
		kfree(leader->siblings);
		leader->siblings = s;
		leader->nr_siblings_max = n;
	}
	leader->siblings[leader->nr_siblings++] = event;
	perf_group_recalc_sizes(leader);
	return 0;
}

/* A sibling leaves its group; a leader's siblings each become a group. */
static void perf_group_detach(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	int i;

	if (!(event->attach_state & PERF_ATTACH_GROUP))
		return;
	event->attach_state &= ~PERF_ATTACH_GROUP;

	if (leader != event) {
		for (i = 0; i < leader->nr_siblings; i++) {
			if (leader->siblings[i] == event) {
				memmove(&leader->siblings[i], &leader->siblings[i + 1],
					(leader->nr_siblings - i - 1) * sizeof(event));
				leader->nr_siblings--;
				break;
			}
		}
		event->group_leader = event;
		perf_group_recalc_sizes(leader);
		return;
	}

	for (i = 0; i < event->nr_siblings; i++) {
		struct perf_event *sibling = event->siblings[i];

		sibling->group_leader = sibling;
		perf_event__header_size(sibling);
		/* an active sibling keeps running alone */
	}
	kfree(event->siblings);
	event->siblings = NULL;
	event->nr_siblings = event->nr_siblings_max = 0;
}

static void perf_install_in_context(struct perf_event_context *ctx,
				    struct perf_event *event)
{
	event->ctx = ctx;
	event->ctx_next = ctx->event_list;
	ctx->event_list = event;
	ctx->nr_events++;
	event->attach_state |= PERF_ATTACH_CONTEXT;
	event->tstamp = perf_clock();
	perf_event_try_sched_in(event);
}

static void __perf_remove_from_context(struct perf_event *event, void *info)
{
	(void)info;
	event_sched_out(event);
}

static void perf_remove_from_context(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_event **pp;

	if (!ctx)
		return;
	if (event->oncpu >= 0)
		cpu_function_call(event->oncpu, __perf_remove_from_context, event, NULL);
	perf_group_detach(event);
	for (pp = &ctx->event_list; *pp; pp = &(*pp)->ctx_next) {
		if (*pp == event) {
			*pp = event->ctx_next;
			break;
		}
	}
	ctx->nr_events--;
	event->ctx = NULL;
	event->attach_state &= ~PERF_ATTACH_CONTEXT;
	put_ctx(ctx);
}

/* ---- side-band delivery --------------------------------------------------- */

/*
 * A CPU-wide event that asked for side-band records: the kernel keeps
 * these on a per-CPU list (pmu_sb_events) so that a COMM or an MMAP does
 * not have to walk every CPU-wide event. Per-task events are found
 * through their task's context instead, and an inherited child (which
 * pmusim does not make) through its task's. Only CPU contexts are asked.
 */
static bool is_sb_event(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	return attr->mmap || attr->mmap_data || attr->mmap2 ||
	       attr->comm || attr->comm_exec || attr->task ||
	       attr->ksymbol || attr->context_switch || attr->text_poke ||
	       attr->bpf_event;
}

static bool perf_sb_wants(struct perf_event *event, int cpu)
{
	return event->state >= PERF_EVENT_STATE_INACTIVE && event_filter_match(event, cpu);
}

static void perf_iterate_ctx(struct perf_event_context *ctx, perf_iterate_f output,
			     void *data, int cpu)
{
	struct perf_event *event;

	for (event = ctx->event_list; event; event = event->ctx_next)
		if (perf_sb_wants(event, cpu))
			output(event, data);
}

static void perf_iterate_sb_cpu(perf_iterate_f output, void *data, int cpu)
{
	struct perf_event *event;

	for (event = perf_cpu_context[cpu].ctx.event_list; event; event = event->ctx_next)
		if (is_sb_event(event) && perf_sb_wants(event, cpu))
			output(event, data);
}

void perf_iterate_sb(perf_iterate_f output, void *data)
{
	int cpu = smp_processor_id();
	struct perf_event_context *ctx;

	perf_iterate_sb_cpu(output, data, cpu);
	/* current's context even when it is not (yet) the CPU's task_ctx */
	ctx = task_ctx_of(current);
	if (ctx)
		perf_iterate_ctx(ctx, output, data, cpu);
}

/* ---- exclusive PMUs ------------------------------------------------------- */

static bool is_exclusive_pmu(struct pmu *pmu)
{
	return pmu->capabilities & PERF_PMU_CAP_EXCLUSIVE;
}

/* Per-task and cpu-wide events never share an exclusive PMU. */
static int exclusive_event_init(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;
	int cnt = atomic_read(&pmu->exclusive_cnt);

	if (!is_exclusive_pmu(pmu))
		return 0;
	if (event->attach_state & PERF_ATTACH_TASK) {
		if (cnt < 0)
			return -EBUSY;
		atomic_inc(&pmu->exclusive_cnt);
	} else {
		if (cnt > 0)
			return -EBUSY;
		atomic_add(-1, &pmu->exclusive_cnt);
	}
	event->attach_state |= PERF_ATTACH_EXCLUSIVE;
	return 0;
}

static void exclusive_event_destroy(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_EXCLUSIVE))
		return;
	if (event->attach_state & PERF_ATTACH_TASK)
		atomic_add(-1, &event->pmu->exclusive_cnt);
	else
		atomic_inc(&event->pmu->exclusive_cnt);
	event->attach_state &= ~PERF_ATTACH_EXCLUSIVE;
}

static bool exclusive_event_match(struct perf_event *e1, struct perf_event *e2)
{
	return e1->pmu == e2->pmu &&
	       (e1->cpu == e2->cpu || e1->cpu == -1 || e2->cpu == -1);
}

static bool exclusive_event_installable(struct perf_event *event,
					struct perf_event_context *ctx)
{
	struct perf_event *iter;

	if (!is_exclusive_pmu(event->pmu))
		return true;
	for (iter = ctx->event_list; iter; iter = iter->ctx_next)
		if (exclusive_event_match(iter, event))
			return false;
	return true;
}

/* ---- alloc and free ------------------------------------------------------- */

static u64 perf_event_next_id(void)
{
	return (u64)__atomic_add_fetch(&perf_event_id.a, 1, __ATOMIC_RELAXED);
}

static bool has_inherit_and_sample_read(struct perf_event_attr *attr)
{
	return attr->inherit && (attr->sample_type & PERF_SAMPLE_READ);
}

static void __free_event(struct perf_event *event)
{
	/* the driver's half first: it may hold per-task data (LBR call stacks) */
	if (event->destroy)
		event->destroy(event);
	exclusive_event_destroy(event);
	if (event->rb)
		ring_buffer_attach(event, NULL);
	kfree(event->siblings);
	kfree(event);
}

/*
 * The kernel's perf_event_alloc() also makes inherited children (a
 * parent_event); pmusim does not model inheritance, so every event here
 * is its own parent and stream.
 */
static struct perf_event *
perf_event_alloc(struct perf_event_attr *attr, int cpu, struct task_struct *task,
		 struct perf_event *group_leader,
		 perf_overflow_handler_t overflow_handler, void *context,
		 struct pmu *pmu, int *errp)
{
	struct perf_event *event;
	struct hw_perf_event *hwc;
	int err = -EINVAL;

	if ((unsigned int)cpu >= CONFIG_MODEL_MAX_CPUS) {
		if (!task || cpu != -1)
			goto fail;
	}
	/* a signal needs a task to go to */
	if (attr->sigtrap && !task)
		goto fail;
	/*
	 * Departure: pmusim has no signals, so it cannot send the SIGTRAP
	 * (the kernel's task work after the overflow): refused, rather
	 * than taken and never delivered.
	 */
	err = -EOPNOTSUPP;
	if (attr->sigtrap)
		goto fail;
	err = -EINVAL;

	err = -ENOMEM;
	event = kzalloc(sizeof(*event));
	if (!event)
		goto fail;

	if (!group_leader)
		group_leader = event;

	event->cpu = cpu;
	event->pid = task ? task->tid : -1;
	event->target = task;
	event->attr = *attr;
	event->group_leader = group_leader;
	event->oncpu = -1;
	event->id = perf_event_next_id();
	event->stream_id = event->id;
	event->state = PERF_EVENT_STATE_INACTIVE;
	if (task)
		event->attach_state = PERF_ATTACH_TASK;

	event->clock = perf_local_clock;

	if (overflow_handler) {
		event->overflow_handler = overflow_handler;
		event->overflow_handler_context = context;
	} else if (is_write_backward(event)) {
		event->overflow_handler = perf_event_output_backward;
	} else {
		event->overflow_handler = perf_event_output_forward;
	}

	/* perf_event__state_init() */
	event->state = attr->disabled ? PERF_EVENT_STATE_OFF : PERF_EVENT_STATE_INACTIVE;

	hwc = &event->hw;
	hwc->idx = -1;
	hwc->sample_period = attr->sample_period;
	if (attr->freq && attr->sample_freq)
		hwc->sample_period = 1;
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);

#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	err = -EINVAL;
	/* alternating periods are fixed periods: no frequency mode */
	if (attr->freq && attr->alternative_sample_period)
		goto err;
#endif

	/* inherited PERF_SAMPLE_READ needs per-thread samples */
	err = -EINVAL;
	if (has_inherit_and_sample_read(attr) && !(attr->sample_type & PERF_SAMPLE_TID))
		goto err;

	/* valid for the kernel, but core/sample.c cannot write them */
	err = -EOPNOTSUPP;
	if (attr->sample_type & ~PERF_SAMPLE_PMUSIM_MASK)
		goto err;

	if (!has_branch_stack(event))
		event->attr.branch_sample_type = 0;

	err = perf_init_event(event, pmu);
	if (err)
		goto err;
	pmu = event->pmu;

	/* pmusim has no AUX-area PMU */
	err = -EOPNOTSUPP;
	if (event->attr.aux_output)
		goto err;
	err = -EINVAL;
	if (event->attr.aux_pause && event->attr.aux_resume)
		goto err;
	err = -EOPNOTSUPP;
	if (event->attr.aux_start_paused && !(pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE))
		goto err;

	err = exclusive_event_init(event);
	if (err)
		goto err;

	/* get_callchain_buffers(): a deeper stack than the sysctl allows */
	err = -EOVERFLOW;
	if ((event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    attr->sample_max_stack > sysctl_perf_event_max_stack)
		goto err;

	*errp = 0;
	return event;
err:
	__free_event(event);
fail:
	*errp = err;
	return NULL;
}

struct perf_event *perf_event_create_kernel_counter(struct perf_event_attr *attr,
		int cpu, struct task_struct *task,
		perf_overflow_handler_t overflow_handler, void *context,
		struct pmu *pmu, int *errp)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int err;

	/* no groups, so no AUX leader, for the kernel's own events */
	err = -EINVAL;
	if (attr->aux_output || attr->aux_action) {
		event = NULL;
		goto out;
	}
	event = perf_event_alloc(attr, cpu, task, NULL, overflow_handler,
				 context, pmu, &err);
	if (!event)
		goto out;

	err = -ENOMEM;
	ctx = find_get_context(task, cpu);
	if (!ctx)
		goto err_free;
	err = -EBUSY;
	if (!exclusive_event_installable(event, ctx)) {
		put_ctx(ctx);
		goto err_free;
	}
	perf_group_attach(event);	/* a leader of its own: cannot fail */
	perf_event__header_size(event);
	perf_event__id_header_size(event);
	perf_install_in_context(ctx, event);
	err = 0;
	goto out;

err_free:
	__free_event(event);
	event = NULL;
out:
	if (errp)
		*errp = err;
	return event;
}

void perf_event_release_kernel(struct perf_event *event)
{
	if (!event)
		return;
	perf_remove_from_context(event);
	event->state = PERF_EVENT_STATE_DEAD;
	__free_event(event);
}

/* ---- the syscall ----------------------------------------------------------- */

int perf_event_open_attr(const void *uattr, size_t size, int pid, int cpu,
			 struct perf_event *group_leader, unsigned long flags,
			 struct pmu *pmu, struct perf_event **out)
{
	struct perf_event *output_event = NULL, *event;
	struct perf_event_context *ctx;
	struct task_struct *task = NULL;
	struct perf_event_attr attr;
	int err;

	*out = NULL;
	if (flags & ~PERF_FLAG_ALL)
		return -EINVAL;
	if (size > UINT32_MAX)
		return -E2BIG;

	err = perf_copy_attr(uattr, (u32)size, &attr, NULL);
	if (err)
		return err;

	if (attr.freq) {
		if (attr.sample_freq > (u64)sysctl_perf_event_sample_rate)
			return -EINVAL;
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
		if (attr.alternative_sample_period)
			return -EINVAL;
#endif
	} else {
		if (attr.sample_period & (1ULL << 63))
			return -EINVAL;
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
		if (attr.alternative_sample_period) {
			if (!attr.sample_period)
				return -EINVAL;
			if (attr.alternative_sample_period & (1ULL << 63))
				return -EINVAL;
			/* alternating with itself is not alternating */
			if (attr.alternative_sample_period == attr.sample_period)
				attr.alternative_sample_period = 0;
		}
#endif
	}

	/* a cgroup fd needs a cpu; and pmusim has no cgroups at all */
	if ((flags & PERF_FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;
	if (flags & PERF_FLAG_PID_CGROUP)
		return -EINVAL;

	if (group_leader) {
		if (group_leader->state <= PERF_EVENT_STATE_EXIT)
			return -ENODEV;
		if (flags & PERF_FLAG_FD_OUTPUT)
			output_event = group_leader;
		if (flags & PERF_FLAG_FD_NO_GROUP)
			group_leader = NULL;
	}

	if (pid != -1) {
		task = find_lively_task_by_vpid(pid);
		if (!task)
			return -ESRCH;
	}

	if (task && group_leader && group_leader->attr.inherit != attr.inherit)
		return -EINVAL;

	event = perf_event_alloc(&attr, cpu, task, group_leader, NULL, NULL,
				 pmu, &err);
	if (!event)
		return err;

	err = -EOPNOTSUPP;
	if (is_sampling_event(event) &&
	    (event->pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
		goto err_alloc;

	if (attr.use_clockid) {
		err = perf_event_set_clock(event, attr.clockid);
		if (err)
			goto err_alloc;
	}

	err = -ENOMEM;
	ctx = find_get_context(task, cpu);
	if (!ctx)
		goto err_alloc;

	if (group_leader) {
		err = -EINVAL;
		/* no groups inside groups */
		if (group_leader->group_leader != group_leader)
			goto err_ctx;
		if (group_leader->clock != event->clock)
			goto err_ctx;
		if (group_leader->cpu != event->cpu)
			goto err_ctx;
		if (group_leader->ctx != ctx)
			goto err_ctx;
		/* only a leader may be exclusive or pinned */
		if (attr.exclusive || attr.pinned)
			goto err_ctx;
		/* one hardware PMU per group (pmusim has no software events) */
		if (group_leader->pmu != event->pmu)
			goto err_ctx;
	}

	/*
	 * perf_get_aux_event(): aux_sample_size, aux_pause and aux_resume
	 * act on the group leader's AUX event. pmusim has no AUX-area PMU,
	 * so no leader can be one (a departure only where the kernel would
	 * take them: under an AUX leader whose PMU can pause or snapshot).
	 */
	err = -EINVAL;
	if (has_aux_action(event))
		goto err_ctx;

	if (output_event) {
		err = perf_event_set_output(event, output_event);
		if (err)
			goto err_ctx;
	}

	/*
	 * The group's read size goes into every sample; it has to stay far
	 * enough under the 64k record limit (perf_event_validate_size()).
	 */
	err = -E2BIG;
	if (__perf_event_read_size(event->attr.read_format,
				   event->group_leader->nr_siblings + 1) > 16 * 1024)
		goto err_ctx;
	if (event->group_leader != event) {
		struct perf_event *leader = event->group_leader;
		int i;

		if (__perf_event_read_size(leader->attr.read_format,
					   leader->nr_siblings + 1) > 16 * 1024)
			goto err_ctx;
		for (i = 0; i < leader->nr_siblings; i++)
			if (__perf_event_read_size(leader->siblings[i]->attr.read_format,
						   leader->nr_siblings + 1) > 16 * 1024)
				goto err_ctx;
	}

	err = -EBUSY;
	if (!exclusive_event_installable(event, ctx))
		goto err_ctx;

	err = perf_group_attach(event);
	if (err)
		goto err_ctx;
	perf_event__header_size(event);
	perf_event__id_header_size(event);
	perf_install_in_context(ctx, event);
	*out = event;
	return 0;

err_ctx:
	put_ctx(ctx);
err_alloc:
	__free_event(event);
	return err;
}

/* ---- controls -------------------------------------------------------------- */

static void __perf_event_disable(struct perf_event *event, void *info)
{
	(void)info;
	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (event == event->group_leader)
		group_sched_out(event);
	else
		event_sched_out(event);
	perf_event_set_state(event, PERF_EVENT_STATE_OFF);
}

void perf_event_disable(struct perf_event *event)
{
	if (event->state <= PERF_EVENT_STATE_OFF)
		return;
	if (event->oncpu >= 0)
		cpu_function_call(event->oncpu, __perf_event_disable, event, NULL);
	else
		__perf_event_disable(event, NULL);
}

/*
 * From the overflow path (NMI): the disable itself waits for irq work,
 * perf_event_irq_work_run() on this CPU.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	event->pending_disable = 1;
}

void perf_event_irq_work_run(void)
{
	struct perf_event *event, *next;

	for (event = perf_cpu_context[smp_processor_id()].active_list; event; event = next) {
		next = event->active_next;
		if (event->pending_disable) {
			event->pending_disable = 0;
			__perf_event_disable(event, NULL);
			/* the list may have lost more than @event */
			next = perf_cpu_context[smp_processor_id()].active_list;
		}
	}
}

void perf_event_enable(struct perf_event *event)
{
	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state <= PERF_EVENT_STATE_EXIT)
		return;
	/* an error state is cleared by enabling again */
	perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	event->pending_disable = 0;
	perf_event_try_sched_in(event);
}

static void __perf_event_read(struct perf_event *event, void *info)
{
	(void)info;
	event->pmu->read(event);
}

static void perf_event_read(struct perf_event *event)
{
	if (event->state == PERF_EVENT_STATE_ACTIVE && event->oncpu >= 0)
		cpu_function_call(event->oncpu, __perf_event_read, event, NULL);
	perf_event_update_time(event);
}

static void perf_event_reset(struct perf_event *event)
{
	perf_event_read(event);
	local64_set(&event->count, 0);
	/* a self-monitoring reader adds the counter to offset: zero it there too */
	perf_event_update_userpage(event);
}

u64 perf_event_read_value(struct perf_event *event, u64 *enabled, u64 *running)
{
	perf_event_read(event);
	if (enabled)
		*enabled = event->total_time_enabled;
	if (running)
		*running = event->total_time_running;
	return (u64)local64_read(&event->count) + (u64)atomic64_read(&event->child_count);
}

/*
 * read() of an event's fd: the read_format layout, one event's or, with
 * PERF_FORMAT_GROUP, its whole group's. The group shares the leader's
 * times (its members run together), each member adds its count, ID and
 * LOST. 0 (end of file) for an event in error, -ENOSPC for a buffer
 * shorter than the event's read_size; else the bytes written.
 */
static void perf_read_group_add(struct perf_event *leader, u64 read_format, u64 *values)
{
	int n = 1;	/* values[0] is the number of members */

	perf_event_read(leader);
	for (int i = 0; i < leader->nr_siblings; i++)
		perf_event_read(leader->siblings[i]);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		values[n++] = leader->total_time_enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		values[n++] = leader->total_time_running;
	for (int i = -1; i < leader->nr_siblings; i++) {
		struct perf_event *sub = i < 0 ? leader : leader->siblings[i];

		values[n++] = (u64)local64_read(&sub->count) + (u64)atomic64_read(&sub->child_count);
		if (read_format & PERF_FORMAT_ID)
			values[n++] = primary_event_id(sub);
		if (read_format & PERF_FORMAT_LOST)
			values[n++] = (u64)atomic64_read(&sub->lost_samples);
	}
}

ssize_t perf_read(struct perf_event *event, void *buf, size_t count)
{
	u64 read_format = event->attr.read_format;
	u64 values[5], *group, value, enabled, running;
	int n;

	if (event->state == PERF_EVENT_STATE_ERROR)
		return 0;
	if (count < event->read_size)
		return -ENOSPC;
	if (read_format & PERF_FORMAT_GROUP) {
		group = kcalloc(1, event->read_size);
		if (!group)
			return -ENOMEM;
		group[0] = 1 + (u64)event->group_leader->nr_siblings;
		perf_read_group_add(event->group_leader, read_format, group);
		memcpy(buf, group, event->read_size);
		kfree(group);
		return event->read_size;
	}
	value = perf_event_read_value(event, &enabled, &running);
	n = perf_read_one_values(event, value, enabled, running, values);
	memcpy(buf, values, n * sizeof(u64));
	return (ssize_t)(n * sizeof(u64));
}

int perf_event_refresh(struct perf_event *event, int refresh)
{
	/* inherited copies would each count down their own budget */
	if (event->attr.inherit || !is_sampling_event(event))
		return -EINVAL;
	atomic_add(refresh, &event->event_limit);
	perf_event_enable(event);
	return 0;
}

static void __perf_event_period(struct perf_event *event, void *info)
{
	u64 value = *(u64 *)info;
	bool active = event->state == PERF_EVENT_STATE_ACTIVE;

	if (event->attr.freq) {
		event->attr.sample_freq = value;
	} else {
		event->attr.sample_period = value;
		event->hw.sample_period = value;
	}

	if (active) {
		perf_pmu_disable(event->pmu);
		/* unthrottle here, or the tick would start it a second time */
		if (event->hw.interrupts == MAX_INTERRUPTS) {
			event->hw.interrupts = 0;
			perf_log_throttle(event, 1);
		}
		event->pmu->stop(event, PERF_EF_UPDATE);
	}

	local64_set(&event->hw.period_left, 0);

	if (active) {
		event->pmu->start(event, PERF_EF_RELOAD);
		perf_pmu_enable(event->pmu);
	}
}

static int perf_event_check_period(struct perf_event *event, u64 value)
{
	return event->pmu->check_period ? event->pmu->check_period(event, value) : 0;
}

int perf_event_period(struct perf_event *event, u64 value)
{
	if (!is_sampling_event(event))
		return -EINVAL;
	if (!value)
		return -EINVAL;
	if (event->attr.freq) {
		if (value > (u64)sysctl_perf_event_sample_rate)
			return -EINVAL;
	} else {
		if (perf_event_check_period(event, value))
			return -EINVAL;
		if (value & (1ULL << 63))
			return -EINVAL;
	}

	if (event->oncpu >= 0)
		cpu_function_call(event->oncpu, __perf_event_period, event, &value);
	else
		__perf_event_period(event, &value);
	return 0;
}

int perf_event_set_output(struct perf_event *event, struct perf_event *output_event)
{
	struct perf_buffer *rb = NULL;

	if (output_event) {
		/* no loops */
		if (event == output_event)
			return -EINVAL;
		/* a buffer belongs to one CPU ... */
		if (output_event->cpu != event->cpu)
			return -EINVAL;
		/* ... or, for cpu -1, to one task */
		if (output_event->cpu == -1 && output_event->target != event->target)
			return -EINVAL;
		/* one clock per buffer */
		if (output_event->clock != event->clock)
			return -EINVAL;
		/* and one direction */
		if (is_write_backward(output_event) != is_write_backward(event))
			return -EINVAL;
	}

	/* an event with its own mapped buffer cannot be redirected */
	if (event->rb && !event->output_event)
		return -EINVAL;

	if (output_event) {
		rb = ring_buffer_get(output_event);
		if (!rb)
			return -EINVAL;
	}
	ring_buffer_attach(event, rb);
	event->output_event = output_event;
	return 0;
}

typedef void (*perf_event_func_t)(struct perf_event *event);

static void perf_event_for_each(struct perf_event *event, perf_event_func_t func,
				bool group)
{
	struct perf_event *leader = event->group_leader;
	int i;

	if (!group) {
		func(event);
		return;
	}
	func(leader);
	for (i = 0; i < leader->nr_siblings; i++)
		func(leader->siblings[i]);
}

int perf_ioctl(struct perf_event *event, unsigned int cmd, unsigned long arg)
{
	perf_event_func_t func;
	u32 flags = (u32)arg;

	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		func = perf_event_enable;
		break;
	case PERF_EVENT_IOC_DISABLE:
		func = perf_event_disable;
		break;
	case PERF_EVENT_IOC_RESET:
		func = perf_event_reset;
		break;
	case PERF_EVENT_IOC_REFRESH:
		return perf_event_refresh(event, (int)arg);
	case PERF_EVENT_IOC_PERIOD: {
		const u64 *value = (const u64 *)arg;

		if (!value)
			return -EFAULT;
		return perf_event_period(event, *value);
	}
	case PERF_EVENT_IOC_ID: {
		u64 *id = (u64 *)arg;

		if (!id)
			return -EFAULT;
		*id = primary_event_id(event);
		return 0;
	}
	case PERF_EVENT_IOC_SET_OUTPUT:
		return perf_event_set_output(event, (struct perf_event *)arg);
	case PERF_EVENT_IOC_PAUSE_OUTPUT: {
		struct perf_buffer *rb = READ_ONCE(event->rb);

		if (!rb || !rb->nr_pages)
			return -EINVAL;
		rb_toggle_paused(rb, !!arg);
		return 0;
	}
	case PERF_EVENT_IOC_SET_FILTER:
		/* filters are for tracepoints and address ranges: none here */
		return -EINVAL;
	case PERF_EVENT_IOC_SET_BPF:
	case PERF_EVENT_IOC_QUERY_BPF:
		/* no CONFIG_BPF_SYSCALL */
		return -EOPNOTSUPP;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES: {
		const struct perf_event_attr *uattr = (const struct perf_event_attr *)arg;
		struct perf_event_attr new_attr;
		int err;

		if (!uattr)
			return -EFAULT;
		err = perf_copy_attr(uattr, uattr->size, &new_attr, NULL);
		if (err)
			return err;
		if (new_attr.type != event->attr.type)
			return -EINVAL;
		/* only breakpoints can be modified */
		return -EOPNOTSUPP;
	}
	default:
		return -ENOTTY;
	}

	perf_event_for_each(event, func, flags & PERF_IOC_FLAG_GROUP);
	return 0;
}
