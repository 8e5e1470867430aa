/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's own arch/x86/events/intel/lbr.c, built from KSRC=DIR
 * against the x86 shim in ksrc/arch/x86/include (with the tree's
 * arch/x86/events/perf_event.h as it is), behind an interface that names
 * no kernel type, so pmusim's code can drive it beside core/x86/lbr.c.
 * Only with a kernel tree: KSRC_VERSION in <generated/ksrc.h> says whether
 * this build has one. ksrc/README.md has the whole picture.
 *
 * The unit is one CPU: ksrc_lbr_boot() plugs a model CPU in and runs what
 * intel_pmu_init() and intel_pmu_cpu_starting() do for the LBR (the
 * model's intel_pmu_lbr_init_core/slm/nhm/hsw/skl or
 * intel_pmu_arch_lbr_init, the format's intel_pmu_lbr_init, the reset).
 * The event core's part is the bridge's: events and their filters
 * (x86_pmu's hw_config: intel_pmu_setup_lbr_filter), the LBR_SELECT
 * shared register that intel_shared_regs_constraints() hands out, the
 * task contexts with their LBR data (v6.12: the task's pmu context;
 * v6.15: task->perf_ctx_data, per task or for all tasks), and the order of
 * the calls.
 */
#ifndef PMUSIM_KSRC_LBR_KSRC_H
#define PMUSIM_KSRC_LBR_KSRC_H

#include <stdbool.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

struct model_cpu;
struct ksrc_lbr_task;
struct ksrc_lbr_event;

/*
 * Plugs @cpu in and boots the LBR code on it (any previous CPU is
 * unplugged first): the depth found (x86_pmu.lbr_nr, 0 without LBR).
 */
int ksrc_lbr_boot(struct model_cpu *cpu);
/* Unplugs the CPU; every task and event must be freed first. */
void ksrc_lbr_shutdown(void);
/* x86_pmu_has_lbr_callstack(). */
bool ksrc_lbr_has_callstack(void);

/* A task; its context data appears with its first call-stack event. */
struct ksrc_lbr_task *ksrc_lbr_task_new(int pid);
void ksrc_lbr_task_free(struct ksrc_lbr_task *task);

/*
 * An event sampling branches with @branch_sample_type, per task (@task)
 * or CPU-wide (NULL): the filter is set up by intel_pmu_setup_lbr_filter()
 * and a call-stack event attaches the task data (both layouts). NULL with
 * *@err the filter's -EOPNOTSUPP/-EINVAL, or -ENOMEM.
 */
struct ksrc_lbr_event *ksrc_lbr_event_new(uint64_t branch_sample_type, struct ksrc_lbr_task *task,
					  int *err);
void ksrc_lbr_event_free(struct ksrc_lbr_event *event);
/*
 * On the PMU (x86_pmu_add: the LBR_SELECT register, then
 * intel_pmu_lbr_add()) and off it (intel_pmu_lbr_del(), then the register
 * back). add: 0, or -EBUSY when LBR_SELECT is held with another value.
 */
int ksrc_lbr_add(struct ksrc_lbr_event *event);
void ksrc_lbr_del(struct ksrc_lbr_event *event);
/* The event has run (total_time_running > 0): its next add is a return. */
void ksrc_lbr_event_ran(struct ksrc_lbr_event *event);

void ksrc_lbr_enable_all(bool pmi);
void ksrc_lbr_disable_all(void);
void ksrc_lbr_reset(void);
/*
 * At a PMI: intel_pmu_lbr_read() and intel_pmu_lbr_save_brstack() for
 * @event. The entries (at most @max) into @out, hw_idx into *@hw_idx; the
 * number of entries, or -1 when the sample carries no branch stack.
 */
int ksrc_lbr_read(struct ksrc_lbr_event *event, struct perf_branch_entry *out, unsigned int max,
		  uint64_t *hw_idx);
/* pmu::sched_task for @task (its context, if it has one): intel_pmu_lbr_sched_task(). */
void ksrc_lbr_sched_task(struct ksrc_lbr_task *task, bool sched_in);

/* What the oracle compares: the task's LBR state and the CPU's. */
struct ksrc_lbr_ctx_view {
	bool present;			/* the task has context data */
	int lbr_callstack_users, lbr_stack_state, log_id;
	uint64_t lbr_sel;		/* legacy only */
	int tos, valid_lbrs;		/* legacy only */
	unsigned int nr;		/* entries below */
	struct { uint64_t from, to, info; } lbr[32];
};
/* @v6_15: the task's perf_ctx_data (else its pmu context's task_ctx_data). */
void ksrc_lbr_task_view(struct ksrc_lbr_task *task, bool v6_15, struct ksrc_lbr_ctx_view *view);

/*
 * The arch-lbr-save-stale-tail departure, applied: the task's saved Arch
 * LBR stack ends at entry @i (its from cleared), as core/'s save ends it.
 */
void ksrc_lbr_task_end_arch_stack(struct ksrc_lbr_task *task, bool v6_15, unsigned int i);

struct ksrc_lbr_cpu_view {
	int lbr_users, lbr_select, last_log_id;
	uint64_t br_sel;
	uint64_t lbr_sel_config;	/* cpuc->lbr_sel->config, 0 without */
	const void *last_task_ctx;	/* identity only */
};
void ksrc_lbr_cpu_view(struct ksrc_lbr_cpu_view *view);
/* The task data @task's context or perf_ctx_data is (identity, for last_task_ctx). */
const void *ksrc_lbr_task_ctx(struct ksrc_lbr_task *task, bool v6_15);

#endif /* PMUSIM_KSRC_LBR_KSRC_H */
