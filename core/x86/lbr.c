// SPDX-License-Identifier: GPL-2.0-only
/*
 * lbr.c - Last Branch Records for the x86 PMU driver (arch/x86/events/
 * intel/lbr.c): filters (LBR_SELECT / ARCH_LBR_CTL and the software
 * filter), reading the stack at a PMI, and keeping call stacks across
 * context switches, with the task context of v6.12 or, under
 * CONFIG_PERF_TASK_CTX_DATA, with the task itself (the RFC).
 *
 * hw_idx on Arch LBR: v6.12 sets cpuc->lbr_stack.hw_idx only in the
 * legacy reads (the TOS) and in the PEBS path (-1ULL); the plain Arch LBR
 * read leaves it alone, so a non-PEBS sample reports the per-CPU value's
 * initial 0. pmusim has no PEBS and reports that same 0.
 */
#include "core/x86/perf_event.h"
#include "core/task_ctx_data.h"
#include "core/testcase.h"

static struct hw_perf_event_extra lbr_sel_reg[CONFIG_MODEL_MAX_CPUS];

/* PERF_SAMPLE_BRANCH_* shift -> LBR_SELECT capture bits (inverted later) */
static const int nhm_lbr_sel_map[PERF_SAMPLE_BRANCH_MAX_SHIFT] = {
	[PERF_SAMPLE_BRANCH_ANY_SHIFT]		= LBR_ANY,
	[PERF_SAMPLE_BRANCH_USER_SHIFT]		= LBR_USER,
	[PERF_SAMPLE_BRANCH_KERNEL_SHIFT]	= LBR_KERNEL,
	[PERF_SAMPLE_BRANCH_HV_SHIFT]		= LBR_IGN,
	[PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT]	= LBR_RETURN | LBR_REL_JMP | LBR_IND_JMP | LBR_FAR,
	/* NHM/WSM erratum: calls are captured only with the jumps */
	[PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT]	= LBR_REL_CALL | LBR_IND_CALL | LBR_REL_JMP |
						  LBR_IND_JMP | LBR_FAR,
	[PERF_SAMPLE_BRANCH_IND_CALL_SHIFT]	= LBR_IND_CALL | LBR_IND_JMP,
	[PERF_SAMPLE_BRANCH_COND_SHIFT]		= LBR_JCC,
	[PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT]	= LBR_IND_JMP,
};

static const int hsw_lbr_sel_map[PERF_SAMPLE_BRANCH_MAX_SHIFT] = {
	[PERF_SAMPLE_BRANCH_ANY_SHIFT]		= LBR_ANY,
	[PERF_SAMPLE_BRANCH_USER_SHIFT]		= LBR_USER,
	[PERF_SAMPLE_BRANCH_KERNEL_SHIFT]	= LBR_KERNEL,
	[PERF_SAMPLE_BRANCH_HV_SHIFT]		= LBR_IGN,
	[PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT]	= LBR_RETURN | LBR_FAR,
	[PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT]	= LBR_REL_CALL | LBR_IND_CALL | LBR_FAR,
	[PERF_SAMPLE_BRANCH_IND_CALL_SHIFT]	= LBR_IND_CALL,
	[PERF_SAMPLE_BRANCH_COND_SHIFT]		= LBR_JCC,
	[PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT]	= LBR_REL_CALL | LBR_IND_CALL | LBR_RETURN |
						  LBR_CALL_STACK,
	[PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT]	= LBR_IND_JMP,
	[PERF_SAMPLE_BRANCH_CALL_SHIFT]		= LBR_REL_CALL,
};

static const int arch_lbr_ctl_map_all[PERF_SAMPLE_BRANCH_MAX_SHIFT] = {
	[PERF_SAMPLE_BRANCH_ANY_SHIFT]		= ARCH_LBR_ANY,
	[PERF_SAMPLE_BRANCH_USER_SHIFT]		= ARCH_LBR_USER,
	[PERF_SAMPLE_BRANCH_KERNEL_SHIFT]	= ARCH_LBR_KERNEL,
	[PERF_SAMPLE_BRANCH_HV_SHIFT]		= LBR_IGN,
	[PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT]	= ARCH_LBR_RETURN | ARCH_LBR_OTHER_BRANCH,
	[PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT]	= ARCH_LBR_REL_CALL | ARCH_LBR_IND_CALL |
						  ARCH_LBR_OTHER_BRANCH,
	[PERF_SAMPLE_BRANCH_IND_CALL_SHIFT]	= ARCH_LBR_IND_CALL,
	[PERF_SAMPLE_BRANCH_COND_SHIFT]		= ARCH_LBR_JCC,
	[PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT]	= ARCH_LBR_REL_CALL | ARCH_LBR_IND_CALL |
						  ARCH_LBR_RETURN | ARCH_LBR_CALL_STACK,
	[PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT]	= ARCH_LBR_IND_JMP,
	[PERF_SAMPLE_BRANCH_CALL_SHIFT]		= ARCH_LBR_REL_CALL,
};

/*
 * The map this CPU's Arch LBR gets: arch_lbr_ctl_map_all less what CPUID
 * leaf 1CH says it cannot filter. The kernel edits its one static map in
 * place at boot; pmusim boots many CPU models in one process, so each
 * init starts from the full map again.
 */
static int arch_lbr_ctl_map[PERF_SAMPLE_BRANCH_MAX_SHIFT];

static const int arch_lbr_br_type_map[16] = {
	[ARCH_LBR_BR_TYPE_JCC]			= X86_BR_JCC,
	[ARCH_LBR_BR_TYPE_NEAR_IND_JMP]		= X86_BR_IND_JMP,
	[ARCH_LBR_BR_TYPE_NEAR_REL_JMP]		= X86_BR_JMP,
	[ARCH_LBR_BR_TYPE_NEAR_IND_CALL]	= X86_BR_IND_CALL,
	[ARCH_LBR_BR_TYPE_NEAR_REL_CALL]	= X86_BR_CALL,
	[ARCH_LBR_BR_TYPE_NEAR_RET]		= X86_BR_RET,
};

/*
 * EIP_FLAGS2 without TSX (no HLE, no RTM): the hardware captures FROM with
 * bits 62:61 clear but takes them as sign extension on a write. The
 * kernel's lbr_from_quirk_key (a static key; a bool here) makes every
 * FROM write copy bits 60:59 up into 62:61, and every read drop them.
 */
static bool lbr_from_quirk_key;

#define LBR_FROM_SIGNEXT_2MSB	(BIT_ULL(60) | BIT_ULL(59))

static u64 lbr_from_signext_quirk_wr(u64 val)
{
	if (lbr_from_quirk_key)
		val |= (LBR_FROM_SIGNEXT_2MSB & val) << 2;
	return val;
}

static u64 lbr_from_signext_quirk_rd(u64 val)
{
	if (lbr_from_quirk_key)
		val &= ~(LBR_FROM_FLAG_IN_TX | LBR_FROM_FLAG_ABORT);
	return val;
}

static bool lbr_from_signext_quirk_needed(void)
{
	u32 eax, ebx, ecx, edx;

	cpuid_count(CPUID_LEAF_EXT_FEATURES, 0, &eax, &ebx, &ecx, &edx);
	return !(ebx & (CPUID_7_EBX_HLE | CPUID_7_EBX_RTM));
}

static bool is_lbr_call_stack_bit_set(u64 config)
{
	return x86_pmu.arch_lbr ? !!(config & ARCH_LBR_CALL_STACK) : !!(config & LBR_CALL_STACK);
}

/* ---- enable, disable, reset ------------------------------------------------- */

static void __intel_pmu_lbr_enable(bool pmi)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	u64 debugctl, orig_debugctl, lbr_select = 0;

	/* From v4 the status ack has already thawed the LBR. */
	if (pmi && x86_pmu.version >= 4)
		return;

	if (cpuc->lbr_sel)
		lbr_select = cpuc->lbr_sel->config & x86_pmu.lbr_sel_mask;
	if (!x86_pmu.arch_lbr && !pmi && cpuc->lbr_sel)
		wrmsrl(MSR_LBR_SELECT, lbr_select);

	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	orig_debugctl = debugctl;
	if (!x86_pmu.arch_lbr)
		debugctl |= DEBUGCTLMSR_LBR;
	/*
	 * Freezing on a PMI that lands next to a call or return can leave
	 * the call-stack TOS one off: no freeze in call-stack mode.
	 */
	if (is_lbr_call_stack_bit_set(lbr_select))
		debugctl &= ~DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	else
		debugctl |= DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	if (orig_debugctl != debugctl)
		wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);

	if (x86_pmu.arch_lbr)
		wrmsrl(MSR_ARCH_LBR_CTL, lbr_select | ARCH_LBR_CTL_LBREN);
}

static void __intel_pmu_lbr_disable(void)
{
	u64 debugctl;

	if (x86_pmu.arch_lbr) {
		wrmsrl(MSR_ARCH_LBR_CTL, 0);
		return;
	}
	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	debugctl &= ~(DEBUGCTLMSR_LBR | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
}

void intel_pmu_lbr_enable_all(bool pmi)
{
	if (this_cpu_hw_events()->lbr_users)
		__intel_pmu_lbr_enable(pmi);
}

void intel_pmu_lbr_disable_all(void)
{
	if (this_cpu_hw_events()->lbr_users)
		__intel_pmu_lbr_disable();
}

static void intel_pmu_lbr_reset_32(void)
{
	for (int i = 0; i < x86_pmu.lbr_nr; i++)
		wrmsrl(x86_pmu.lbr_from + i, 0);
}

static void intel_pmu_lbr_reset_64(void)
{
	for (int i = 0; i < x86_pmu.lbr_nr; i++) {
		wrmsrl(x86_pmu.lbr_from + i, 0);
		wrmsrl(x86_pmu.lbr_to + i, 0);
		if (x86_pmu.lbr_has_info)
			wrmsrl(x86_pmu.lbr_info + i, 0);
	}
}

/* Writing the depth clears every entry. */
static void intel_pmu_arch_lbr_reset(void)
{
	wrmsrl(MSR_ARCH_LBR_DEPTH, x86_pmu.lbr_nr);
}

void intel_pmu_lbr_reset(void)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	if (!x86_pmu.lbr_nr)
		return;
	x86_pmu.lbr_reset();
	cpuc->last_task_ctx = NULL;
	cpuc->last_log_id = 0;
	/* NEVER: see intel_pmu_lbr_add(), nothing sets lbr_select */
	if (NEVER(cpuc->lbr_select) && !x86_pmu.arch_lbr)
		wrmsrl(MSR_LBR_SELECT, 0);
}

static u64 intel_pmu_lbr_tos(void)
{
	u64 tos;

	rdmsrl(x86_pmu.lbr_tos, tos);
	return tos;
}

/* ---- context switch: save and restore the call stack ---------------------------- */

static bool rdlbr_all(struct lbr_entry *lbr, unsigned int idx, bool need_info)
{
	u64 from;

	rdmsrl(x86_pmu.lbr_from + idx, from);
	from = lbr_from_signext_quirk_rd(from);
	if (!from)
		return false;	/* not a valid entry */
	lbr->from = from;
	rdmsrl(x86_pmu.lbr_to + idx, lbr->to);
	if (need_info)
		rdmsrl(x86_pmu.lbr_info + idx, lbr->info);
	return true;
}

static void wrlbr_all(const struct lbr_entry *lbr, unsigned int idx, bool need_info)
{
	wrmsrl(x86_pmu.lbr_from + idx, lbr_from_signext_quirk_wr(lbr->from));
	wrmsrl(x86_pmu.lbr_to + idx, lbr->to);
	if (need_info)
		wrmsrl(x86_pmu.lbr_info + idx, lbr->info);
}

static void intel_pmu_lbr_save(void *ctx)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct x86_perf_task_context *task_ctx = ctx;
	bool need_info = x86_pmu.lbr_has_info;
	unsigned int mask = x86_pmu.lbr_nr - 1;
	u64 tos = intel_pmu_lbr_tos();
	int i;

	for (i = 0; i < x86_pmu.lbr_nr; i++)
		if (!rdlbr_all(&task_ctx->lbr[i], (tos - i) & mask, need_info))
			break;
	task_ctx->valid_lbrs = i;
	task_ctx->tos = tos;
	/* NEVER: see intel_pmu_lbr_add(), nothing sets lbr_select */
	if (NEVER(cpuc->lbr_select))
		rdmsrl(MSR_LBR_SELECT, task_ctx->lbr_sel);
}

static void intel_pmu_lbr_restore(void *ctx)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct x86_perf_task_context *task_ctx = ctx;
	bool need_info = x86_pmu.lbr_has_info;
	unsigned int mask = x86_pmu.lbr_nr - 1;
	u64 tos = task_ctx->tos;
	int i;

	for (i = 0; i < task_ctx->valid_lbrs; i++)
		wrlbr_all(&task_ctx->lbr[i], (tos - i) & mask, need_info);
	for (; i < x86_pmu.lbr_nr; i++) {
		static const struct lbr_entry zero;

		wrlbr_all(&zero, (tos - i) & mask, need_info);
	}
	wrmsrl(x86_pmu.lbr_tos, tos);
	/* NEVER: see intel_pmu_lbr_add(), nothing sets lbr_select */
	if (NEVER(cpuc->lbr_select))
		wrmsrl(MSR_LBR_SELECT, task_ctx->lbr_sel);
}

static void intel_pmu_arch_lbr_save(void *ctx)
{
	struct x86_perf_task_context_arch_lbr *task_ctx = ctx;
	struct lbr_entry *entries = task_ctx->entries;
	int i;

	for (i = 0; i < x86_pmu.lbr_nr; i++)
		if (!rdlbr_all(&entries[i], i, true))
			break;
	/*
	 * Not full: the restore must reset first, and stop at entry i.
	 * v6.12 does not end the list at i: rdlbr_all() leaves the entry
	 * alone, so a stack that shrank since the task's last save gets the
	 * stale entries of that save back on restore (the non-XSAVES path;
	 * found by fuzz/fuzz_lbr). pmusim ends it, a deliberate departure.
	 */
	if (i < x86_pmu.lbr_nr) {
		entries[i].from = 0;
		entries[x86_pmu.lbr_nr - 1].from = 0;
	}
}

static void intel_pmu_arch_lbr_restore(void *ctx)
{
	struct x86_perf_task_context_arch_lbr *task_ctx = ctx;
	struct lbr_entry *entries = task_ctx->entries;

	if (!entries[x86_pmu.lbr_nr - 1].from)
		intel_pmu_arch_lbr_reset();
	/*
	 * The model's Arch LBR shows entry i at the slot i below the newest,
	 * so writing 0..n-1 puts the saved stack back in its order.
	 */
	for (int i = 0; i < x86_pmu.lbr_nr && entries[i].from; i++)
		wrlbr_all(&entries[i], i, true);
}

static bool has_lbr_callstack_users(void *ctx)
{
	return task_context_opt(ctx)->lbr_callstack_users ||
	       (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) &&
		atomic_read(&x86_pmu.lbr_callstack_users));
}

static bool lbr_is_reset_in_cstate(void *ctx)
{
	u64 from;

	if (x86_pmu.arch_lbr)
		return false;	/* the model keeps LBRs in deep C-states */
	rdmsrl(x86_pmu.lbr_from + ((struct x86_perf_task_context *)ctx)->tos, from);
	return !from;
}

static void __intel_pmu_lbr_restore(void *ctx)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct x86_perf_task_context_opt *opt = task_context_opt(ctx);

	if (!has_lbr_callstack_users(ctx) || opt->lbr_stack_state == LBR_NONE) {
		intel_pmu_lbr_reset();
		return;
	}
	/* Nobody touched the LBRs since this task's save: leave them. */
	if (ctx == cpuc->last_task_ctx && opt->log_id == cpuc->last_log_id &&
	    !lbr_is_reset_in_cstate(ctx)) {
		opt->lbr_stack_state = LBR_NONE;
		return;
	}
	x86_pmu.lbr_restore(ctx);
	opt->lbr_stack_state = LBR_NONE;
}

static void __intel_pmu_lbr_save(void *ctx)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct x86_perf_task_context_opt *opt = task_context_opt(ctx);

	if (!has_lbr_callstack_users(ctx)) {
		opt->lbr_stack_state = LBR_NONE;
		return;
	}
	x86_pmu.lbr_save(ctx);
	opt->lbr_stack_state = LBR_VALID;
	cpuc->last_task_ctx = ctx;
	cpuc->last_log_id = ++opt->log_id;
}

static void *intel_pmu_lbr_task_ctx(struct perf_event_pmu_context *pmu_ctx,
				    struct task_struct *task)
{
	if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA)) {
		struct perf_ctx_data *cd = task ? smp_load_acquire(&task->perf_ctx_data) : NULL;

		return cd ? cd->data : NULL;
	}
	return pmu_ctx ? pmu_ctx->task_ctx_data : NULL;
}

void intel_pmu_lbr_sched_task(struct perf_event_pmu_context *pmu_ctx,
			      struct task_struct *task, bool sched_in)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	void *task_ctx;

	if (!cpuc->lbr_users)
		return;

	task_ctx = intel_pmu_lbr_task_ctx(pmu_ctx, task);
	if (task_ctx) {
		if (sched_in)
			__intel_pmu_lbr_restore(task_ctx);
		else
			__intel_pmu_lbr_save(task_ctx);
		return;
	}
	/*
	 * LBR entries carry no address-space tag and a switch may change
	 * the address space: without a saved stack, wipe them.
	 */
	if (sched_in)
		intel_pmu_lbr_reset();
}

size_t intel_pmu_lbr_task_ctx_size(void)
{
	if (!x86_pmu_has_lbr_callstack())
		return 0;
	if (x86_pmu.arch_lbr)
		return sizeof(struct x86_perf_task_context_arch_lbr) +
		       x86_pmu.lbr_nr * sizeof(struct lbr_entry);
	return sizeof(struct x86_perf_task_context);
}

/* ---- events come and go ------------------------------------------------------- */

static bool branch_user_callstack(int br_sel)
{
	return (br_sel & X86_BR_USER) && (br_sel & X86_BR_CALL_STACK);
}

/* The task context whose call-stack user count @event is, or NULL. */
static struct x86_perf_task_context_opt *lbr_event_task_opt(struct perf_event *event)
{
	if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA)) {
		struct perf_ctx_data *cd;

		if (!(event->attach_state & PERF_ATTACH_TASK) || !event->target)
			return NULL;
		cd = READ_ONCE(event->target->perf_ctx_data);
		return cd ? task_context_opt(cd->data) : NULL;
	}
	if (event->pmu_ctx && event->pmu_ctx->task_ctx_data)
		return task_context_opt(event->pmu_ctx->task_ctx_data);
	return NULL;
}

static void lbr_callstack_users_add(struct perf_event *event, int delta)
{
	struct x86_perf_task_context_opt *opt = lbr_event_task_opt(event);

	if (opt)
		opt->lbr_callstack_users += delta;
	else if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) &&
		 !(event->attach_state & PERF_ATTACH_TASK))
		atomic_add(delta, &x86_pmu.lbr_callstack_users);
}

void intel_pmu_lbr_add(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	if (!x86_pmu.lbr_nr)
		return;

	/*
	 * In the kernel only the vLBR constraint (an LBR event of KVM for
	 * its guest) carries PERF_X86_EVENT_LBR_SELECT; pmusim has no guests,
	 * so no event has the flag and lbr_select stays 0.
	 */
	if (NEVER(event->hw.flags & PERF_X86_EVENT_LBR_SELECT))
		cpuc->lbr_select = 1;
	if (x86_pmu.lbr_sel_map) {
		cpuc->lbr_sel = &lbr_sel_reg[smp_processor_id()];
		cpuc->lbr_sel->config = event->hw.branch_reg.config;
	}
	cpuc->br_sel = event->hw.branch_reg.reg;

	if (branch_user_callstack(cpuc->br_sel))
		lbr_callstack_users_add(event, 1);

	/*
	 * The first LBR user starts from a clean stack unless it is an
	 * event coming back (it ran before): then the sched-in restore that
	 * follows decides.
	 */
	if (!cpuc->lbr_users++ && !event->total_time_running)
		intel_pmu_lbr_reset();
}

void intel_pmu_lbr_del(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	if (!x86_pmu.lbr_nr)
		return;

	if (branch_user_callstack(cpuc->br_sel))
		lbr_callstack_users_add(event, -1);
	/* NEVER: see intel_pmu_lbr_add() */
	if (NEVER(event->hw.flags & PERF_X86_EVENT_LBR_SELECT))
		cpuc->lbr_select = 0;
	cpuc->lbr_users--;
	WARN_ON_ONCE(cpuc->lbr_users < 0);
}

/* ---- reading at a PMI ------------------------------------------------------------ */

static void intel_pmu_lbr_read_32(struct cpu_hw_events *cpuc)
{
	unsigned int mask = x86_pmu.lbr_nr - 1;
	u64 tos = intel_pmu_lbr_tos();
	int i;

	for (i = 0; i < x86_pmu.lbr_nr; i++) {
		struct perf_branch_entry *br = &cpuc->lbr_stack.entries[i];
		u64 lbr;

		/* One MSR per entry: from in bits 31:0, to in 63:32. */
		rdmsrl(x86_pmu.lbr_from + ((tos - i) & mask), lbr);
		memset(br, 0, sizeof(*br));
		br->from = (u32)lbr;
		br->to = lbr >> 32;
	}
	cpuc->lbr_stack.nr = i;
	cpuc->lbr_stack.hw_idx = tos;
}

static void intel_pmu_lbr_read_64(struct cpu_hw_events *cpuc)
{
	bool need_info = false, call_stack = false;
	unsigned int mask = x86_pmu.lbr_nr - 1;
	u64 tos = intel_pmu_lbr_tos();
	/*
	 * lbr_from_signext_quirk_rd() once for the loop: the kernel's static
	 * key costs nothing per entry, a bool read after each rdmsr would.
	 */
	u64 from_keep = lbr_from_signext_quirk_rd(~0ULL);
	bool double_abort = x86_pmu.lbr_double_abort;
	struct perf_branch_entry *br = cpuc->lbr_stack.entries;
	int i;

	if (cpuc->lbr_sel) {
		need_info = !(cpuc->lbr_sel->config & LBR_NO_INFO);
		call_stack = cpuc->lbr_sel->config & LBR_CALL_STACK;
	}

	for (i = 0; i < x86_pmu.lbr_nr; i++) {
		unsigned int idx = (tos - i) & mask;
		u64 from, to, mis = 0, pred = 0, in_tx = 0, abort = 0;
		u16 cycles = 0;

		rdmsrl(x86_pmu.lbr_from + idx, from);
		from &= from_keep;
		rdmsrl(x86_pmu.lbr_to + idx, to);
		/* A call stack ends at the first empty entry. */
		if (call_stack && !from)
			break;

		if (x86_pmu.lbr_has_info) {
			if (need_info) {
				u64 info;

				rdmsrl(x86_pmu.lbr_info + idx, info);
				mis = !!(info & LBR_INFO_MISPRED);
				pred = !mis;
				cycles = info & LBR_INFO_CYCLES;
				if (x86_pmu.lbr_has_tsx) {
					in_tx = !!(info & LBR_INFO_IN_TX);
					abort = !!(info & LBR_INFO_ABORT);
				}
			}
		} else {
			int skip = 0;

			if (x86_pmu.lbr_from_flags) {
				mis = !!(from & LBR_FROM_FLAG_MISPRED);
				pred = !mis;
				skip = 1;
			}
			if (x86_pmu.lbr_has_tsx) {
				in_tx = !!(from & LBR_FROM_FLAG_IN_TX);
				abort = !!(from & LBR_FROM_FLAG_ABORT);
				skip = 3;
			}
			from = (u64)((s64)(from << skip) >> skip);
			if (x86_pmu.lbr_to_cycles) {
				cycles = (to >> 48) & LBR_INFO_CYCLES;
				to = (u64)((s64)(to << 16) >> 16);
			}
		}

		/*
		 * Haswell may record a TSX abort twice, the newer copy without
		 * the abort bit: reading newest first, the abort record takes
		 * the place of the copy just written (one outside the window
		 * stays).
		 */
		if (unlikely(abort && double_abort) && br > cpuc->lbr_stack.entries)
			br--;

		memset(br, 0, sizeof(*br));
		br->from = from;
		br->to = to;
		br->mispred = mis;
		br->predicted = pred;
		br->in_tx = in_tx;
		br->abort = abort;
		br->cycles = cycles;
		br++;
	}
	cpuc->lbr_stack.nr = br - cpuc->lbr_stack.entries;
	cpuc->lbr_stack.hw_idx = tos;
}

/* Arch LBR: entry 0 is the newest; the stack ends at the first empty entry. */
static void intel_pmu_arch_lbr_read(struct cpu_hw_events *cpuc)
{
	int i;

	for (i = 0; i < x86_pmu.lbr_nr; i++) {
		struct perf_branch_entry *e = &cpuc->lbr_stack.entries[i];
		u64 from, to, info;

		rdmsrl(x86_pmu.lbr_from + i, from);
		if (!from)
			break;
		rdmsrl(x86_pmu.lbr_to + i, to);
		rdmsrl(x86_pmu.lbr_info + i, info);

		memset(e, 0, sizeof(*e));
		e->from = from;
		e->to = to;
		e->mispred = x86_pmu.lbr_mispred && (info & LBR_INFO_MISPRED);
		e->predicted = !e->mispred;
		e->in_tx = !!(info & LBR_INFO_IN_TX);
		e->abort = !!(info & LBR_INFO_ABORT);
		e->cycles = x86_pmu.lbr_timed_lbr && (info & LBR_INFO_CYC_CNT_VALID) ?
			    info & LBR_INFO_CYCLES : 0;
		e->type = x86_pmu.lbr_br_type ?
			  (info & LBR_INFO_BR_TYPE) >> LBR_INFO_BR_TYPE_OFFSET : 0;
	}
	cpuc->lbr_stack.nr = i;
}

/*
 * The software filter: classify each record and drop what the events did
 * not ask for (the hardware filter is coarser, or absent), then compact.
 */
static void intel_pmu_lbr_filter(struct cpu_hw_events *cpuc)
{
	int br_sel = cpuc->br_sel;
	bool compress = false;
	int i, j;

	if ((br_sel & X86_BR_ALL) == X86_BR_ALL && (br_sel & X86_BR_TYPE_SAVE) != X86_BR_TYPE_SAVE)
		return;

	for (i = 0; i < (int)cpuc->lbr_stack.nr; i++) {
		struct perf_branch_entry *e = &cpuc->lbr_stack.entries[i];
		int type = e->type, from_plm;

		if (x86_pmu.lbr_br_type && type <= ARCH_LBR_BR_TYPE_KNOWN_MAX)
			type = arch_lbr_br_type_map[type] | (kernel_ip(e->to) ? X86_BR_KERNEL : X86_BR_USER);
		else
			type = branch_type(e->from, e->to, e->abort);
		if (type != X86_BR_NONE && (br_sel & X86_BR_ANYTX))
			type |= e->in_tx ? X86_BR_IN_TX : X86_BR_NO_TX;

		from_plm = kernel_ip(e->from) ? X86_BR_KERNEL : X86_BR_USER;
		if (type == X86_BR_NONE || (br_sel & type) != type ||
		    (!(br_sel & X86_BR_KERNEL) && (from_plm & X86_BR_KERNEL))) {
			e->from = 0;
			compress = true;
		}
		if ((br_sel & X86_BR_TYPE_SAVE) == X86_BR_TYPE_SAVE)
			e->type = common_branch_type(type);
	}
	if (!compress)
		return;

	for (i = 0, j = 0; i < (int)cpuc->lbr_stack.nr; i++)
		if (cpuc->lbr_stack.entries[i].from)
			cpuc->lbr_stack.entries[j++] = cpuc->lbr_stack.entries[i];
	cpuc->lbr_stack.nr = j;
}

void intel_pmu_lbr_read(void)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	if (!cpuc->lbr_users)
		return;
	x86_pmu.lbr_read(cpuc);
	intel_pmu_lbr_filter(cpuc);
}

void intel_pmu_lbr_save_brstack(struct perf_sample_data *data,
				struct cpu_hw_events *cpuc, struct perf_event *event)
{
	perf_sample_save_brstack(data, event, x86_lbr_branch_stack(cpuc));
}

/* ---- filters at event init ----------------------------------------------------- */

static int intel_pmu_setup_sw_lbr_filter(struct perf_event *event)
{
	u64 br_type = event->attr.branch_sample_type;
	int mask = 0;

	if (br_type & PERF_SAMPLE_BRANCH_USER)
		mask |= X86_BR_USER;
	if (br_type & PERF_SAMPLE_BRANCH_KERNEL)
		mask |= X86_BR_KERNEL;
	if (br_type & PERF_SAMPLE_BRANCH_ANY)
		mask |= X86_BR_ANY;
	if (br_type & PERF_SAMPLE_BRANCH_ANY_CALL)
		mask |= X86_BR_ANY_CALL;
	if (br_type & PERF_SAMPLE_BRANCH_ANY_RETURN)
		mask |= X86_BR_RET | X86_BR_IRET | X86_BR_SYSRET;
	if (br_type & PERF_SAMPLE_BRANCH_IND_CALL)
		mask |= X86_BR_IND_CALL;
	if (br_type & PERF_SAMPLE_BRANCH_ABORT_TX)
		mask |= X86_BR_ABORT;
	if (br_type & PERF_SAMPLE_BRANCH_IN_TX)
		mask |= X86_BR_IN_TX;
	if (br_type & PERF_SAMPLE_BRANCH_NO_TX)
		mask |= X86_BR_NO_TX;
	if (br_type & PERF_SAMPLE_BRANCH_COND)
		mask |= X86_BR_JCC;
	if (br_type & PERF_SAMPLE_BRANCH_CALL_STACK) {
		if (!x86_pmu_has_lbr_callstack())
			return -EOPNOTSUPP;
		if (mask & ~(X86_BR_USER | X86_BR_KERNEL))
			return -EINVAL;
		mask |= X86_BR_CALL | X86_BR_IND_CALL | X86_BR_RET | X86_BR_CALL_STACK;
	}
	if (br_type & PERF_SAMPLE_BRANCH_IND_JUMP)
		mask |= X86_BR_IND_JMP;
	if (br_type & PERF_SAMPLE_BRANCH_CALL)
		mask |= X86_BR_CALL | X86_BR_ZERO_CALL;
	if (br_type & PERF_SAMPLE_BRANCH_TYPE_SAVE)
		mask |= X86_BR_TYPE_SAVE;

	event->hw.branch_reg.reg = mask;
	return 0;
}

static int intel_pmu_setup_hw_lbr_filter(struct perf_event *event)
{
	struct hw_perf_event_extra *reg = &event->hw.branch_reg;
	u64 br_type = event->attr.branch_sample_type;
	u64 mask = 0;

	for (int i = 0; i < PERF_SAMPLE_BRANCH_MAX_SHIFT; i++) {
		int v;

		if (!(br_type & (1ULL << i)))
			continue;
		v = x86_pmu.lbr_sel_map[i];
		if (v == LBR_NOT_SUPP)
			return -EOPNOTSUPP;
		mask |= (u64)v;
	}

	if (x86_pmu.arch_lbr) {
		reg->config = mask;
		/* LBR_INFO names the branch type: no decoding cost, so always save it. */
		reg->reg |= X86_BR_TYPE_SAVE;
		return 0;
	}
	/* Bits 0-8 suppress; CALL_STACK (bit 9) enables: invert only the former. */
	reg->config = mask ^ (x86_pmu.lbr_sel_mask & ~LBR_CALL_STACK);
	if ((br_type & PERF_SAMPLE_BRANCH_NO_CYCLES) && (br_type & PERF_SAMPLE_BRANCH_NO_FLAGS) &&
	    x86_pmu.lbr_has_info)
		reg->config |= LBR_NO_INFO;
	return 0;
}

int intel_pmu_setup_lbr_filter(struct perf_event *event)
{
	int ret;

	if (!x86_pmu.lbr_nr)
		return -EOPNOTSUPP;
	ret = intel_pmu_setup_sw_lbr_filter(event);
	if (ret)
		return ret;
	if (x86_pmu.lbr_sel_map)
		ret = intel_pmu_setup_hw_lbr_filter(event);
	return ret;
}

/* ---- init ------------------------------------------------------------------------ */

/*
 * What CPUID.1CH:EBX lists, each on its own: without CPL filtering no
 * USER/KERNEL, without branch filtering no branch-type filter (the
 * software filter does not stand in: the event is refused), the call
 * stack only with all three; no map at all when neither filter exists.
 */
static void intel_pmu_arch_lbr_filters(bool cpl, bool filter, bool call_stack)
{
	static const int type_shifts[] = {
		PERF_SAMPLE_BRANCH_ANY_SHIFT, PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
		PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT, PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
		PERF_SAMPLE_BRANCH_COND_SHIFT, PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
		PERF_SAMPLE_BRANCH_CALL_SHIFT,
	};

	memcpy(arch_lbr_ctl_map, arch_lbr_ctl_map_all, sizeof(arch_lbr_ctl_map));
	if (!cpl || !filter || !call_stack)
		arch_lbr_ctl_map[PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT] = LBR_NOT_SUPP;
	if (!cpl) {
		arch_lbr_ctl_map[PERF_SAMPLE_BRANCH_USER_SHIFT] = LBR_NOT_SUPP;
		arch_lbr_ctl_map[PERF_SAMPLE_BRANCH_KERNEL_SHIFT] = LBR_NOT_SUPP;
	} else if (!filter) {
		for (unsigned int i = 0; i < ARRAY_SIZE(type_shifts); i++)
			arch_lbr_ctl_map[type_shifts[i]] = LBR_NOT_SUPP;
	}
	x86_pmu.lbr_sel_map = cpl || filter ? arch_lbr_ctl_map : NULL;
}

static void intel_pmu_arch_lbr_init(void)
{
	u32 eax, ebx, ecx, edx;
	int lbr_nr;

	cpuid(CPUID_LEAF_ARCH_LBR, &eax, &ebx, &ecx, &edx);
	lbr_nr = (32 - __builtin_clz((eax & 0xff) | 1)) * 8;
	if (!(eax & 0xff) || lbr_nr > MAX_LBR_ENTRIES || wrmsrl_safe(MSR_ARCH_LBR_DEPTH, lbr_nr))
		return;

	x86_pmu.arch_lbr = true;
	x86_pmu.lbr_nr = lbr_nr;
	x86_pmu.lbr_mispred = ecx & BIT(0);
	x86_pmu.lbr_timed_lbr = ecx & BIT(1);
	x86_pmu.lbr_br_type = ecx & BIT(2);
	x86_pmu.lbr_from = MSR_ARCH_LBR_FROM_0;
	x86_pmu.lbr_to = MSR_ARCH_LBR_TO_0;
	x86_pmu.lbr_info = MSR_ARCH_LBR_INFO_0;
	x86_pmu.lbr_sel_mask = ARCH_LBR_CTL_MASK;
	intel_pmu_arch_lbr_filters(ebx & 0x1, ebx & 0x2, ebx & 0x4);
	x86_pmu.lbr_reset = intel_pmu_arch_lbr_reset;
	x86_pmu.lbr_read = intel_pmu_arch_lbr_read;
	x86_pmu.lbr_save = intel_pmu_arch_lbr_save;
	x86_pmu.lbr_restore = intel_pmu_arch_lbr_restore;
}

/* The legacy stack of a model: depth, where FROM and TO live, the LBR_SELECT map if any. */
static void intel_pmu_lbr_init_stack(int nr, u32 from, u32 to, const int *sel_map)
{
	x86_pmu.lbr_nr = nr;
	x86_pmu.lbr_from = from;
	x86_pmu.lbr_to = to;
	if (sel_map) {
		x86_pmu.lbr_sel_mask = LBR_SEL_MASK;
		x86_pmu.lbr_sel_map = sel_map;
	}
}

void intel_pmu_lbr_init(void)
{
	u32 eax, ebx, ecx, edx;

	memset(lbr_sel_reg, 0, sizeof(lbr_sel_reg));
	lbr_from_quirk_key = false;
	cpuid_count(CPUID_LEAF_EXT_FEATURES, 0, &eax, &ebx, &ecx, &edx);
	if (edx & CPUID_7_EDX_ARCH_LBR) {
		intel_pmu_arch_lbr_init();
		return;
	}

	x86_pmu.lbr_tos = MSR_LBR_TOS;
	switch (x86_pmu.cpu_model) {
	case 0x0f:	/* core2: no hardware filter, the software one does it all */
		intel_pmu_lbr_init_stack(4, MSR_LBR_CORE_FROM, MSR_LBR_CORE_TO, NULL);
		break;
	case 0x37:	/* silvermont: 8 entries at core2's addresses, 64-bit, filtered */
		intel_pmu_lbr_init_stack(8, MSR_LBR_CORE_FROM, MSR_LBR_CORE_TO, nhm_lbr_sel_map);
		break;
	case 0x1a:	/* nehalem */
		intel_pmu_lbr_init_stack(16, MSR_LBR_NHM_FROM, MSR_LBR_NHM_TO, nhm_lbr_sel_map);
		break;
	case 0x3c:	/* haswell: nehalem's 16 entries, with the call-stack mode */
		intel_pmu_lbr_init_stack(16, MSR_LBR_NHM_FROM, MSR_LBR_NHM_TO, hsw_lbr_sel_map);
		break;
	case 0x5e:	/* skylake */
	case 0x7e:	/* icelake */
		intel_pmu_lbr_init_stack(32, MSR_LBR_NHM_FROM, MSR_LBR_NHM_TO, hsw_lbr_sel_map);
		x86_pmu.lbr_info = MSR_LBR_INFO_0;
		break;
	default:	/* an unknown model: no LBR, as the kernel does */
		x86_pmu.lbr_nr = 0;
		return;
	}

	switch (x86_pmu.lbr_format) {
	case LBR_FORMAT_EIP_FLAGS2:
		x86_pmu.lbr_has_tsx = true;
		x86_pmu.lbr_from_flags = true;
		lbr_from_quirk_key = lbr_from_signext_quirk_needed();
		break;
	case LBR_FORMAT_EIP_FLAGS:
		x86_pmu.lbr_from_flags = true;
		break;
	case LBR_FORMAT_INFO:
		x86_pmu.lbr_has_tsx = true;
		x86_pmu.lbr_has_info = true;
		break;
	case LBR_FORMAT_INFO2:
		x86_pmu.lbr_has_info = true;
		break;
	case LBR_FORMAT_TIME:
		x86_pmu.lbr_from_flags = true;
		x86_pmu.lbr_to_cycles = true;
		break;
	default:
		break;
	}

	if (x86_pmu.lbr_format == LBR_FORMAT_32) {
		x86_pmu.lbr_reset = intel_pmu_lbr_reset_32;
		x86_pmu.lbr_read = intel_pmu_lbr_read_32;
	} else {
		x86_pmu.lbr_reset = intel_pmu_lbr_reset_64;
		x86_pmu.lbr_read = intel_pmu_lbr_read_64;
	}
	x86_pmu.lbr_save = intel_pmu_lbr_save;
	x86_pmu.lbr_restore = intel_pmu_lbr_restore;
}
