/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_event.h - the x86 PMU driver's private types (the counterpart of
 * arch/x86/events/perf_event.h): struct x86_pmu, the per-CPU
 * cpu_hw_events, constraints, the LBR task context, X86_BR_* branch
 * classes, and the functions core.c, intel.c and lbr.c call in each
 * other. The simulator's side is in core/x86/pmu.h.
 */
#ifndef PMUSIM_CORE_X86_PERF_EVENT_H
#define PMUSIM_CORE_X86_PERF_EVENT_H

#include "core/perf_event.h"
#include "core/x86/msr.h"
#include "core/x86/pmu.h"

#define X86_PMC_IDX_MAX		64
#define INTEL_PMC_MAX_GENERIC	8
#define INTEL_PMC_MAX_FIXED	4
#define MAX_LBR_ENTRIES		32


/*
 * hw.flags: the event saves and restores MSR_LBR_SELECT with the task
 * context and clears it on an LBR reset. The kernel sets it only on
 * KVM's guest-LBR event (vlbr_constraint); pmusim has no such event, so
 * nothing sets it and, as for a host event in the kernel, LBR_SELECT is
 * left as intel_pmu_lbr_enable_all() programmed it.
 */
#define PERF_X86_EVENT_LBR_SELECT	0x02000

/* A counter mask an event may use, matched on (config & cmask) == code. */
struct event_constraint {
	u64 idxmsk64;
	u64 code;
	u64 cmask;
	int weight;
};

#define X86_RAW_EVENT_MASK	(ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK | \
				 ARCH_PERFMON_EVENTSEL_EDGE | ARCH_PERFMON_EVENTSEL_INV | \
				 ARCH_PERFMON_EVENTSEL_CMASK)
#define INTEL_ARCH_EVENT_MASK	(ARCH_PERFMON_EVENTSEL_UMASK | ARCH_PERFMON_EVENTSEL_EVENT)
#define FIXED_EVENT_FLAGS	X86_RAW_EVENT_MASK
#define INTEL_FIXED_BITS_MASK	0xfULL

/* ---- LBR ------------------------------------------------------------------ */

struct lbr_entry {
	u64 from;
	u64 to;
	u64 info;
};

enum {
	LBR_NONE,
	LBR_VALID,
};

struct x86_perf_task_context_opt {
	int lbr_callstack_users;
	int lbr_stack_state;
	int log_id;
};

/* Legacy LBR call-stack state of one task (its size is the RFC's figure). */
struct x86_perf_task_context {
	u64 lbr_sel;
	int tos;
	int valid_lbrs;
	struct x86_perf_task_context_opt opt;
	struct lbr_entry lbr[MAX_LBR_ENTRIES];
};

/* Arch LBR without XSAVES: entries[lbr_nr] follow. */
struct x86_perf_task_context_arch_lbr {
	struct x86_perf_task_context_opt opt;
	struct lbr_entry entries[];
};

/* MSR_LBR_SELECT bits beyond model/msr-index.h, as lbr.c names them */
#define LBR_NO_INFO_BIT		63	/* Linux only: don't read LBR_INFO */
#define LBR_NO_INFO		(1ULL << LBR_NO_INFO_BIT)
#define LBR_PLM			(LBR_KERNEL | LBR_USER)
#define LBR_SEL_MASK		0x3ffULL
#define LBR_NOT_SUPP		-1
#define LBR_IGN			0
#define LBR_ANY			(LBR_JCC | LBR_REL_CALL | LBR_IND_CALL | LBR_RETURN | \
				 LBR_REL_JMP | LBR_IND_JMP | LBR_FAR)
#define LBR_FROM_FLAG_MISPRED	BIT_ULL(63)
#define LBR_FROM_FLAG_IN_TX	BIT_ULL(62)
#define LBR_FROM_FLAG_ABORT	BIT_ULL(61)
#define ARCH_LBR_ANY		(ARCH_LBR_JCC | ARCH_LBR_REL_JMP | ARCH_LBR_IND_JMP | \
				 ARCH_LBR_REL_CALL | ARCH_LBR_IND_CALL | ARCH_LBR_RETURN | \
				 ARCH_LBR_OTHER_BRANCH)
#define ARCH_LBR_CTL_MASK	0x7f000eULL
#define ARCH_LBR_BR_TYPE_KNOWN_MAX	ARCH_LBR_BR_TYPE_NEAR_RET

/* The software filter's branch classes (arch/x86/events/perf_event.h). */
enum {
	X86_BR_NONE		= 0,
	X86_BR_USER		= 1 << 0,	/* target is user */
	X86_BR_KERNEL		= 1 << 1,	/* target is kernel */
	X86_BR_CALL		= 1 << 2,
	X86_BR_RET		= 1 << 3,
	X86_BR_SYSCALL		= 1 << 4,
	X86_BR_SYSRET		= 1 << 5,
	X86_BR_INT		= 1 << 6,
	X86_BR_IRET		= 1 << 7,
	X86_BR_JCC		= 1 << 8,
	X86_BR_JMP		= 1 << 9,
	X86_BR_IRQ		= 1 << 10,
	X86_BR_IND_CALL		= 1 << 11,
	X86_BR_ABORT		= 1 << 12,
	X86_BR_IN_TX		= 1 << 13,
	X86_BR_NO_TX		= 1 << 14,
	X86_BR_ZERO_CALL	= 1 << 15,
	X86_BR_CALL_STACK	= 1 << 16,
	X86_BR_IND_JMP		= 1 << 17,
	X86_BR_TYPE_SAVE	= 1 << 18,
};

#define X86_BR_PLM	(X86_BR_USER | X86_BR_KERNEL)
#define X86_BR_ANYTX	(X86_BR_NO_TX | X86_BR_IN_TX)
#define X86_BR_ANY	(X86_BR_CALL | X86_BR_RET | X86_BR_SYSCALL | X86_BR_SYSRET | \
			 X86_BR_INT | X86_BR_IRET | X86_BR_JCC | X86_BR_JMP | X86_BR_IRQ | \
			 X86_BR_ABORT | X86_BR_IND_CALL | X86_BR_IND_JMP | X86_BR_ZERO_CALL)
#define X86_BR_ALL	(X86_BR_PLM | X86_BR_ANY)
#define X86_BR_ANY_CALL	(X86_BR_CALL | X86_BR_IND_CALL | X86_BR_ZERO_CALL | \
			 X86_BR_SYSCALL | X86_BR_IRQ | X86_BR_INT)

/* x86_64: the kernel half of the address space has the top bit set. */
static inline bool kernel_ip(u64 ip)
{
	return (s64)ip < 0;
}

/* ---- per CPU ---------------------------------------------------------------- */

struct cpu_hw_events {
	struct perf_event *events[X86_PMC_IDX_MAX];	/* by counter index */
	u64 active_mask;
	int enabled;

	int n_events;			/* events collected by add() */
	int n_added;			/* of which not yet programmed */
	int assign[X86_PMC_IDX_MAX];	/* counter of event_list[i] */
	u64 tags[X86_PMC_IDX_MAX];
	struct perf_event *event_list[X86_PMC_IDX_MAX];
	struct event_constraint *event_constraint[X86_PMC_IDX_MAX];

	u64 fixed_ctrl_val;
	u64 active_fixed_ctrl_val;

	/* LBR */
	int lbr_users;
	int lbr_select;			/* a PERF_X86_EVENT_LBR_SELECT event is on */
	int br_sel;			/* X86_BR_* wanted by the LBR events */
	struct hw_perf_event_extra *lbr_sel;	/* the LBR_SELECT/ARCH_LBR_CTL owner */
	void *last_task_ctx;
	int last_log_id;
	/*
	 * The kernel's struct perf_branch_stack with room for the entries;
	 * same layout, so it is handed on as one (see x86_lbr_branch_stack()).
	 */
	struct {
		u64 nr;
		u64 hw_idx;
		struct perf_branch_entry entries[MAX_LBR_ENTRIES];
	} lbr_stack;
};

extern struct cpu_hw_events cpu_hw_events[CONFIG_MODEL_MAX_CPUS];

static inline struct perf_branch_stack *x86_lbr_branch_stack(struct cpu_hw_events *cpuc)
{
	return (struct perf_branch_stack *)&cpuc->lbr_stack;
}

static __always_inline struct cpu_hw_events *this_cpu_hw_events(void)
{
	return &cpu_hw_events[smp_processor_id()];
}

/* ---- the PMU description, from CPUID and PERF_CAPABILITIES ------------------ */

struct x86_pmu {
	const char *name;
	u32 cpu_model;			/* CPUID.1 display model */
	int version;
	int num_counters;
	int num_counters_fixed;
	int cntval_bits;
	u64 cntval_mask;
	u64 max_period;
	u64 intel_ctrl;			/* GLOBAL_CTRL value with every counter on */
	u32 eventsel;
	u32 perfctr;			/* IA32_PMC0, or IA32_A_PMC0 with full-width writes */
	u64 config_mask;		/* raw config bits the PMU takes */
	u64 intel_cap;			/* IA32_PERF_CAPABILITIES, 0 without PDCM */
	bool full_width_write;
	struct event_constraint *event_constraints;

	/* LBR */
	int lbr_nr;
	u32 lbr_tos, lbr_from, lbr_to, lbr_info;
	u64 lbr_sel_mask;
	const int *lbr_sel_map;		/* PERF_SAMPLE_BRANCH_* shift -> LBR_SELECT bits */
	int lbr_format;
	bool arch_lbr;
	bool lbr_has_info, lbr_has_tsx, lbr_from_flags, lbr_to_cycles;
	bool lbr_double_abort;		/* an abort may be recorded twice (Haswell) */
	bool lbr_mispred, lbr_timed_lbr, lbr_br_type;	/* Arch LBR CPUID.1C */
	void (*lbr_reset)(void);
	void (*lbr_read)(struct cpu_hw_events *cpuc);
	void (*lbr_save)(void *ctx);
	void (*lbr_restore)(void *ctx);
	/* RFC: system-wide call-stack users (the per-task ones count in the task ctx) */
	atomic_t lbr_callstack_users;
};

extern struct x86_pmu x86_pmu;
extern struct pmu pmu;		/* the "cpu" PMU */

static inline bool x86_pmu_has_lbr_callstack(void)
{
	return x86_pmu.lbr_sel_map &&
	       x86_pmu.lbr_sel_map[PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT] > 0;
}

static inline bool branch_sample_call_stack(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;
}

static inline struct x86_perf_task_context_opt *task_context_opt(void *ctx)
{
	if (x86_pmu.arch_lbr)
		return &((struct x86_perf_task_context_arch_lbr *)ctx)->opt;
	return &((struct x86_perf_task_context *)ctx)->opt;
}

static inline bool is_counter_fixed(int idx)
{
	return idx >= INTEL_PMC_IDX_FIXED;
}

/* core.c */
int x86_pmu_max_precise(void);
int x86_pmu_hw_config(struct perf_event *event);
u64 x86_perf_event_update(struct perf_event *event);
int x86_perf_event_set_period(struct perf_event *event);
void x86_pmu_stop(struct perf_event *event, int flags);
int x86_schedule_events(struct cpu_hw_events *cpuc, int n, int *assign);
int perf_assign_events(struct event_constraint **constraints, int n,
		       int wmin, int wmax, int gpmax, int *assign);
void x86_pmu_mask_arch_events(u32 ebx, unsigned int len);
/* v6.12: a per-task call-stack event's share of its task's pmu context */
int get_pmu_ctx(struct perf_event *event, size_t task_ctx_size);
void put_pmu_ctx(struct perf_event *event);

/* intel.c */
int intel_pmu_init(void);
int intel_pmu_hw_config(struct perf_event *event);
struct event_constraint *intel_get_event_constraints(struct cpu_hw_events *cpuc,
						     struct perf_event *event);
void intel_pmu_enable_all(int added);
void intel_pmu_disable_all(void);
void intel_pmu_enable_event(struct perf_event *event);
void intel_pmu_disable_event(struct perf_event *event);
void intel_pmu_reset(void);
int intel_pmu_handle_irq(struct pt_regs *regs);

/* lbr.c */
void intel_pmu_lbr_init(void);
int intel_pmu_setup_lbr_filter(struct perf_event *event);
void intel_pmu_lbr_reset(void);
void intel_pmu_lbr_add(struct perf_event *event);
void intel_pmu_lbr_del(struct perf_event *event);
void intel_pmu_lbr_enable_all(bool pmi);
void intel_pmu_lbr_disable_all(void);
void intel_pmu_lbr_read(void);
void intel_pmu_lbr_save_brstack(struct perf_sample_data *data,
				struct cpu_hw_events *cpuc, struct perf_event *event);
void intel_pmu_lbr_sched_task(struct perf_event_pmu_context *pmu_ctx,
			      struct task_struct *task, bool sched_in);
size_t intel_pmu_lbr_task_ctx_size(void);

/* branch_type.c */
int branch_type(u64 from, u64 to, int abort);
int common_branch_type(int type);

#endif /* PMUSIM_CORE_X86_PERF_EVENT_H */
