// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bridge to the kernel's arch/x86/events/intel/lbr.c (interface:
 * ksrc/lbr_ksrc.h). It does what the rest of the kernel does around the
 * file: intel_pmu_init() and intel_pmu_cpu_starting() for the LBR, the
 * event's hw_config, the LBR_SELECT shared register of
 * intel_shared_regs_constraints(), the task contexts, and calls lbr.c's
 * functions in the order the event core does. Built with the x86 shim and
 * the tree's arch/x86/events/perf_event.h, and following that tree: where
 * lbr.c's interface changed between trees, the bridge calls it as the
 * tree declares it (see lbr_sched_task() and ksrc_lbr_read()).
 */
#include <stdlib.h>

#include <events/perf_event.h>
#include "ksrc/lbr_ksrc.h"

/* ksrc/arch/x86/events/core_stubs.c */
void ksrc_x86_static_keys_reset(void);
size_t ksrc_x86_kmem_cache_size(struct kmem_cache *cache);
void ksrc_x86_kmem_cache_destroy(struct kmem_cache *cache);

#define MSR_IA32_PERF_CAPABILITIES	0x00000345
#define KSRC_LBR_MAX_TASKS		8

struct ksrc_lbr_task {
	struct task_struct task;
	struct perf_event_pmu_context epc;	/* v6.2-v6.14: the task context's */
	struct perf_event_context ctx;		/* before v6.2: the same data, the context's */
	struct perf_ctx_data ctx_data;		/* v6.15: the task's own */
};

struct ksrc_lbr_event {
	struct perf_event event;
	struct ksrc_lbr_task *task;
	bool reg_held;				/* holds the LBR_SELECT register */
};

static struct perf_event_pmu_context cpu_epc;	/* the CPU context's */
static struct perf_event_context cpu_ctx;	/* the same, before v6.2 */
static struct er_account lbr_era;		/* cpuc->shared_regs->regs[EXTRA_REG_LBR] */
static struct ksrc_lbr_task *tasks[KSRC_LBR_MAX_TASKS];
static bool global_ctx_data;			/* a CPU-wide call-stack event exists */

static struct cpu_hw_events *cpuc(void)
{
	return this_cpu_ptr(&cpu_hw_events);
}

/* ---- boot ---------------------------------------------------------------------- */

static void boot_cpu_data_init(void)
{
	unsigned int eax, ebx, ecx, edx, family, model;

	cpuid(1, &eax, &ebx, &ecx, &edx);
	family = (eax >> 8) & 0xf;
	model = ((eax >> 4) & 0xf) | ((eax >> 16) & 0xf) << 4;
	boot_cpu_data.x86 = family;
	boot_cpu_data.x86_model = model;	/* what trees before v6.10 compare */
	boot_cpu_data.x86_vfm = VFM_MAKE(family, model);
	boot_cpu_data.x86_stepping = eax & 0xf;
	boot_cpu_data.x86_capability[4] = ecx;
	cpuid(7, &eax, &ebx, &ecx, &edx);	/* subleaf 0 */
	boot_cpu_data.x86_capability[9] = ebx;
	boot_cpu_data.x86_capability[18] = edx;
	/* word 10 (CPUID 0xD.1:EAX, XSAVES): the model has no leaf 0xD */
}

/* intel_pmu_init()'s LBR part, for the models of model/cpu_models.c. */
static void intel_pmu_init_lbr(void)
{
	unsigned int eax, ebx, ecx, edx;

	cpuid(0xa, &eax, &ebx, &ecx, &edx);
	x86_pmu.version = eax & 0xff;
	x86_pmu.lbr_reset = intel_pmu_lbr_reset_64;
	x86_pmu.lbr_read = intel_pmu_lbr_read_64;
	x86_pmu.lbr_save = intel_pmu_lbr_save;
	x86_pmu.lbr_restore = intel_pmu_lbr_restore;
	if (boot_cpu_has(X86_FEATURE_PDCM))
		rdmsrl(MSR_IA32_PERF_CAPABILITIES, x86_pmu.intel_cap.capabilities);
	if (x86_pmu.intel_cap.lbr_format == LBR_FORMAT_32) {
		x86_pmu.lbr_reset = intel_pmu_lbr_reset_32;
		x86_pmu.lbr_read = intel_pmu_lbr_read_32;
	}
	if (boot_cpu_has(X86_FEATURE_ARCH_LBR))
		intel_pmu_arch_lbr_init();

	switch (boot_cpu_data.x86_vfm) {
	case VFM_MAKE(6, 0x0f):		/* INTEL_CORE2_MEROM */
		intel_pmu_lbr_init_core();
		break;
	case VFM_MAKE(6, 0x37):		/* INTEL_ATOM_SILVERMONT */
		intel_pmu_lbr_init_slm();
		break;
	case VFM_MAKE(6, 0x1a):		/* INTEL_NEHALEM_EP */
		intel_pmu_lbr_init_nhm();
		break;
	case VFM_MAKE(6, 0x3c):		/* INTEL_HASWELL */
		intel_pmu_lbr_init_hsw();
		x86_pmu.lbr_double_abort = true;
		break;
	case VFM_MAKE(6, 0x5e):		/* INTEL_SKYLAKE */
	case VFM_MAKE(6, 0x7e):		/* INTEL_ICELAKE */
		intel_pmu_lbr_init_skl();
		break;
	default:			/* Sapphire Rapids: Arch LBR above */
		break;
	}
	/* (intel_pmu_init's check_msr() probe is left out: the model has every MSR it names) */
	if (x86_pmu.lbr_nr)
		intel_pmu_lbr_init();
}

/* intel_pmu_cpu_starting()'s LBR part. */
static void intel_pmu_cpu_starting_lbr(void)
{
	if (!static_cpu_has(X86_FEATURE_ARCH_LBR) && x86_pmu.lbr_nr) {
		u64 debugctl;

		rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
		if (debugctl & DEBUGCTLMSR_LBR)
			wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl & ~DEBUGCTLMSR_LBR);
	}
	intel_pmu_lbr_reset();
	cpuc()->lbr_sel = NULL;
}

void ksrc_lbr_shutdown(void)
{
	struct pmu *pmu = x86_get_pmu(0);

	ksrc_x86_kmem_cache_destroy(pmu->task_ctx_cache);
	pmu->task_ctx_cache = NULL;
	memset(&x86_pmu, 0, sizeof(x86_pmu));
	memset(cpuc(), 0, sizeof(*cpuc()));
	memset(&boot_cpu_data, 0, sizeof(boot_cpu_data));
	memset(&lbr_era, 0, sizeof(lbr_era));
	memset(&cpu_epc, 0, sizeof(cpu_epc));
	memset(&cpu_ctx, 0, sizeof(cpu_ctx));
	ksrc_x86_static_keys_reset();
	global_ctx_data = false;
	ksrc_x86_cpu = NULL;
}

int ksrc_lbr_boot(struct model_cpu *cpu)
{
	ksrc_lbr_shutdown();
	ksrc_x86_cpu = cpu;
	cpu_epc.pmu = x86_get_pmu(0);
	cpu_ctx.pmu = x86_get_pmu(0);
	boot_cpu_data_init();
	intel_pmu_init_lbr();
	intel_pmu_cpu_starting_lbr();
	return x86_pmu.lbr_nr;
}

bool ksrc_lbr_has_callstack(void)
{
	return x86_pmu_has_lbr_callstack();
}

/* ---- tasks and their LBR data ---------------------------------------------------- */

static void *alloc_lbr_data(void)
{
	struct kmem_cache *cache = x86_get_pmu(0)->task_ctx_cache;

	return cache ? kmem_cache_alloc_node(cache, GFP_KERNEL | __GFP_ZERO, -1) : NULL;
}

/* v6.15's attach_task_ctx_data(): the task's own copy, once. */
static int attach_task_data(struct ksrc_lbr_task *t)
{
	if (t->task.perf_ctx_data)
		return 0;
	t->ctx_data.data = alloc_lbr_data();
	if (!t->ctx_data.data)
		return -ENOMEM;
	t->ctx_data.ctx_cache = x86_get_pmu(0)->task_ctx_cache;
	t->task.perf_ctx_data = &t->ctx_data;
	return 0;
}

struct ksrc_lbr_task *ksrc_lbr_task_new(int pid)
{
	struct ksrc_lbr_task *t = calloc(1, sizeof(*t));
	int i;

	if (!t)
		return NULL;
	t->task.pid = pid;
	t->epc.pmu = x86_get_pmu(0);
	t->ctx.pmu = x86_get_pmu(0);
	for (i = 0; i < KSRC_LBR_MAX_TASKS && tasks[i]; i++)
		;
	if (i == KSRC_LBR_MAX_TASKS || (global_ctx_data && attach_task_data(t))) {
		free(t);
		return NULL;
	}
	tasks[i] = t;
	return t;
}

void ksrc_lbr_task_free(struct ksrc_lbr_task *t)
{
	if (!t)
		return;
	for (int i = 0; i < KSRC_LBR_MAX_TASKS; i++)
		if (tasks[i] == t)
			tasks[i] = NULL;
	free(t->epc.task_ctx_data);
	free(t->ctx_data.data);
	free(t);
}

/* ---- events -------------------------------------------------------------------- */

struct ksrc_lbr_event *ksrc_lbr_event_new(uint64_t branch_sample_type, struct ksrc_lbr_task *task,
					  int *err)
{
	struct ksrc_lbr_event *e = calloc(1, sizeof(*e));
	struct perf_event *event;

	*err = -ENOMEM;
	if (!e)
		return NULL;
	event = &e->event;
	e->task = task;
	event->group_leader = event;
	event->pmu = x86_get_pmu(0);
	event->attr.type = PERF_TYPE_HARDWARE;
	event->attr.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	event->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	event->attr.branch_sample_type = branch_sample_type;
	event->hw.extra_reg.idx = EXTRA_REG_NONE;
	event->hw.branch_reg.idx = EXTRA_REG_NONE;
	/* intel_pmu_hw_config(): the filter */
	*err = intel_pmu_setup_lbr_filter(event);
	if (*err)
		goto fail;
	if (task) {
		event->attach_state |= PERF_ATTACH_TASK;
		event->hw.target = &task->task;
		event->pmu_ctx = &task->epc;
		event->ctx = &task->ctx;
	} else {
		event->pmu_ctx = &cpu_epc;
		event->ctx = &cpu_ctx;
	}
	if (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) {
		/* v6.12: PERF_ATTACH_TASK_DATA, the task context's data (before v6.2, the context's) */
		if (task && !task->epc.task_ctx_data) {
			task->epc.task_ctx_data = alloc_lbr_data();
			if (!task->epc.task_ctx_data)
				goto nomem;
			task->ctx.task_ctx_data = task->epc.task_ctx_data;
		}
		/* v6.15: the task's perf_ctx_data, or every task's */
		if (task) {
			if (attach_task_data(task))
				goto nomem;
		} else {
			global_ctx_data = true;
			for (int i = 0; i < KSRC_LBR_MAX_TASKS; i++)
				if (tasks[i] && attach_task_data(tasks[i]))
					goto nomem;
		}
	}
	return e;
nomem:
	*err = -ENOMEM;
fail:
	free(e);
	return NULL;
}

void ksrc_lbr_event_free(struct ksrc_lbr_event *e)
{
	free(e);
}

int ksrc_lbr_add(struct ksrc_lbr_event *e)
{
	struct hw_perf_event_extra *reg = &e->event.hw.branch_reg;

	/* __intel_shared_reg_get_constraints() for the branch register */
	if (reg->idx == EXTRA_REG_LBR) {
		if (atomic_read(&lbr_era.ref) && lbr_era.config != reg->config)
			return -EBUSY;
		cpuc()->lbr_sel = &lbr_era;
		lbr_era.config = reg->config;
		lbr_era.reg = reg->reg;
		atomic_inc(&lbr_era.ref);
		e->reg_held = true;
	}
	intel_pmu_lbr_add(&e->event);
	return 0;
}

void ksrc_lbr_del(struct ksrc_lbr_event *e)
{
	intel_pmu_lbr_del(&e->event);
	if (e->reg_held) {
		__atomic_sub_fetch(&lbr_era.ref.counter, 1, __ATOMIC_SEQ_CST);
		e->reg_held = false;
	}
}

void ksrc_lbr_event_ran(struct ksrc_lbr_event *e)
{
	e->event.total_time_running = 1;
}

void ksrc_lbr_enable_all(bool pmi)
{
	intel_pmu_lbr_enable_all(pmi);
}

void ksrc_lbr_disable_all(void)
{
	intel_pmu_lbr_disable_all();
}

void ksrc_lbr_reset(void)
{
	intel_pmu_lbr_reset();
}

int ksrc_lbr_read(struct ksrc_lbr_event *e, struct perf_branch_entry *out, unsigned int max,
		  uint64_t *hw_idx)
{
	struct perf_sample_data data = { 0 };
	struct perf_branch_stack *br;
	unsigned int n;

	intel_pmu_lbr_read();
#ifdef PMU_FL_BR_CNTR
	/* v6.8 (branch counters, whose flag the tree defines with it): lbr.c saves the stack */
	intel_pmu_lbr_save_brstack(&data, cpuc(), &e->event);
#else
	/* handle_pmi_common() before: the CPU's stack, for an event that samples it */
	if (has_branch_stack(&e->event)) {
		data.br_stack = &cpuc()->lbr_stack;
		data.sample_flags |= PERF_SAMPLE_BRANCH_STACK;
	}
#endif
	if (!(data.sample_flags & PERF_SAMPLE_BRANCH_STACK) || !data.br_stack)
		return -1;
	br = data.br_stack;
	n = br->nr < max ? (unsigned int)br->nr : max;
	for (unsigned int i = 0; i < n; i++)
		out[i] = br->entries[i];
	*hw_idx = br->hw_idx;
	return (int)n;
}

/*
 * intel_pmu_lbr_sched_task() as the tree declares it: with the context
 * before v6.2, the PMU context after, and the task too since v6.15 (which
 * the Debian 6.12 tree has). The call goes through the type the tree's
 * perf_event.h gives it; a tree with another one fails to build here.
 */
typedef void sched_task_ctx_fn(struct perf_event_context *ctx, bool sched_in);
typedef void sched_task_epc_fn(struct perf_event_pmu_context *pmu_ctx, bool sched_in);
typedef void sched_task_epc_task_fn(struct perf_event_pmu_context *pmu_ctx,
				    struct task_struct *task, bool sched_in);
#define TREE_DECLARES(fn, type)	__builtin_types_compatible_p(__typeof__(fn), type)
_Static_assert(TREE_DECLARES(intel_pmu_lbr_sched_task, sched_task_ctx_fn) ||
	       TREE_DECLARES(intel_pmu_lbr_sched_task, sched_task_epc_fn) ||
	       TREE_DECLARES(intel_pmu_lbr_sched_task, sched_task_epc_task_fn),
	       "intel_pmu_lbr_sched_task(): the tree declares it in a way the bridge does not know");

static void lbr_sched_task(struct ksrc_lbr_task *task, bool sched_in)
{
	void *fn = (void *)intel_pmu_lbr_sched_task;
	struct perf_event_pmu_context *epc = task ? &task->epc : &cpu_epc;

	if (TREE_DECLARES(intel_pmu_lbr_sched_task, sched_task_epc_task_fn))
		((sched_task_epc_task_fn *)fn)(epc, task ? &task->task : NULL, sched_in);
	else if (TREE_DECLARES(intel_pmu_lbr_sched_task, sched_task_epc_fn))
		((sched_task_epc_fn *)fn)(epc, sched_in);
	else
		((sched_task_ctx_fn *)fn)(task ? &task->ctx : &cpu_ctx, sched_in);
}

void ksrc_lbr_sched_task(struct ksrc_lbr_task *task, bool sched_in)
{
	lbr_sched_task(task, sched_in);
}

/* ---- views ---------------------------------------------------------------------- */

const void *ksrc_lbr_task_ctx(struct ksrc_lbr_task *task, bool v6_15)
{
	if (v6_15)
		return task->task.perf_ctx_data ? task->task.perf_ctx_data->data : NULL;
	return task->epc.task_ctx_data;
}

void ksrc_lbr_task_view(struct ksrc_lbr_task *task, bool v6_15, struct ksrc_lbr_ctx_view *v)
{
	void *ctx = (void *)ksrc_lbr_task_ctx(task, v6_15);
	struct x86_perf_task_context_opt *opt;

	memset(v, 0, sizeof(*v));
	if (!ctx)
		return;
	v->present = true;
	opt = task_context_opt(ctx);
	v->lbr_callstack_users = opt->lbr_callstack_users;
	v->lbr_stack_state = opt->lbr_stack_state;
	v->log_id = opt->log_id;
	if (static_cpu_has(X86_FEATURE_ARCH_LBR)) {
		struct x86_perf_task_context_arch_lbr *a = ctx;

		v->nr = x86_pmu.lbr_nr;
		for (unsigned int i = 0; i < v->nr && i < 32; i++) {
			v->lbr[i].from = a->entries[i].from;
			v->lbr[i].to = a->entries[i].to;
			v->lbr[i].info = a->entries[i].info;
		}
	} else {
		struct x86_perf_task_context *l = ctx;

		v->lbr_sel = l->lbr_sel;
		v->tos = l->tos;
		v->valid_lbrs = l->valid_lbrs;
		v->nr = l->valid_lbrs > 0 ? (unsigned int)l->valid_lbrs : 0;
		for (unsigned int i = 0; i < v->nr && i < 32; i++) {
			v->lbr[i].from = l->lbr[i].from;
			v->lbr[i].to = l->lbr[i].to;
			v->lbr[i].info = l->lbr[i].info;
		}
	}
}

void ksrc_lbr_task_end_arch_stack(struct ksrc_lbr_task *task, bool v6_15, unsigned int i)
{
	struct x86_perf_task_context_arch_lbr *a = (void *)ksrc_lbr_task_ctx(task, v6_15);

	if (a && static_cpu_has(X86_FEATURE_ARCH_LBR) && i < x86_pmu.lbr_nr)
		a->entries[i].from = 0;
}

void ksrc_lbr_cpu_view(struct ksrc_lbr_cpu_view *v)
{
	struct cpu_hw_events *c = cpuc();

	v->lbr_users = c->lbr_users;
	v->lbr_select = c->lbr_select;
	v->last_log_id = c->last_log_id;
	v->br_sel = c->br_sel;
	v->lbr_sel_config = c->lbr_sel ? c->lbr_sel->config : 0;
	v->last_task_ctx = c->last_task_ctx;
}
