// SPDX-License-Identifier: GPL-2.0-only
/*
 * The LBR differential oracle (ksrc/oracle/lbr_diff.h): core/x86/lbr.c and
 * the kernel's lbr.c in lockstep. The MSR writes are seen through the
 * linker (-Wl,--wrap=model_wrmsr, on the binaries that link this file:
 * ksrc/Makefile.ksrc): both drivers reach the model through model_wrmsr().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/perf_event.h"
#include "core/sched.h"
#include "core/task_ctx_data.h"
#include "core/x86/perf_event.h"
#include "core/x86/pmu.h"
#include "ksrc/lbr_ksrc.h"
#include "ksrc/oracle/lbr_diff.h"
#include "model/model.h"

#define U PERF_SAMPLE_BRANCH_USER

const struct ksrc_lbr_filter ksrc_lbr_filters[] = {
	{ "any", U | PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", U | PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_return", U | PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "cond", U | PERF_SAMPLE_BRANCH_COND },
	{ "ind_call", U | PERF_SAMPLE_BRANCH_IND_CALL },
	{ "call", U | PERF_SAMPLE_BRANCH_CALL },
	{ "ind_jump", U | PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call_stack", U | PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "any,no_flags,no_cycles", U | PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_NO_FLAGS |
				    PERF_SAMPLE_BRANCH_NO_CYCLES },
	{ "any_call,any_return", U | PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "cond,ind_jump", U | PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "any,save_type", U | PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "call_stack,k", U | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "any,k", U | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY },
};
const unsigned int ksrc_lbr_nr_filters = ARRAY_SIZE(ksrc_lbr_filters);

/* ---- the MSR write streams ------------------------------------------------------ */

#define LD_MAX_WRITES	512

struct ld_write {
	u32 msr;
	u64 val;
	int ret;
};

static struct {
	struct model_cpu *cpu[2];	/* 0: core/'s, 1: the kernel's */
	struct ld_write w[2][LD_MAX_WRITES];
	unsigned int n[2];
	bool overflow[2];
} rec;

int __real_model_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);
int __wrap_model_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);

int __wrap_model_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val)
{
	int ret = __real_model_wrmsr(cpu, msr, val);

	for (int s = 0; s < 2; s++) {
		if (!cpu || cpu != rec.cpu[s])
			continue;
		if (rec.n[s] == LD_MAX_WRITES)
			rec.overflow[s] = true;
		else
			rec.w[s][rec.n[s]++] = (struct ld_write){ msr, val, ret };
	}
	return ret;
}

/* ---- one run ----------------------------------------------------------------------- */

#define LD_DEPTH	40
#define LD_TEXT		4096
#define LD_KERNEL_IP	0xffffffff81000000ULL
#define LD_SYSRET	(LD_KERNEL_IP + 0x90)	/* a far branch: kernel -> user */
#define LD_LONG_BLOCK	0x11000u	/* cycles: past LBR_INFO's 16-bit count */
#define LD_ROOT		0x100000000000ULL

struct ld_task {
	struct task_struct ct;		/* core/'s */
	struct ksrc_lbr_task *kt;	/* the kernel's */
	u64 stack[LD_DEPTH], from[LD_DEPTH];
	int depth;
	u64 func;
	bool saved_full;		/* its last Arch LBR save filled the LBR */
};

static struct {
	const struct model_cpu_desc *desc;
	struct model_cpu *cpu[2];
	struct ld_task t[2];
	int running;
	u64 bst;
	const char *filter;
	bool callstack, per_task, second;
	struct perf_event *ce[2];	/* core/'s events: [0] the first, [1] the second */
	struct ksrc_lbr_event *ke[2];
	int ev_task[2];			/* the task an event belongs to, -1: CPU-wide */
	bool on[2];			/* on the PMU */
	bool switched, kernel_in_task;
	unsigned long op;
	const char *opname;
	char *why;
	size_t why_len;
	struct ksrc_lbr_diff_stats *st;
	u64 text[LD_TEXT];
	u64 nr_branch;
} ld;

static int ld_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int ld_fail(const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(ld.why, ld.why_len, "%s, %s, %s: op %lu (%s): ", ld.desc->name, ld.filter,
		     ld.per_task ? "per task" : "cpu-wide", ld.op, ld.opname);
	if (n < 0 || (size_t)n >= ld.why_len)
		return KSRC_LBR_DIFFER;
	va_start(ap, fmt);
	vsnprintf(ld.why + n, ld.why_len - (size_t)n, fmt, ap);
	va_end(ap);
	return KSRC_LBR_DIFFER;
}

/*
 * The task-ctx-data departure: a system-wide call-stack event, after a
 * context switch, and the two keeping LBR data in different places.
 */
static bool ld_task_data_departure(void)
{
	return ld.callstack && !ld.per_task && ld.switched &&
	       IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) != ksrc_lbr_task_data_in_task();
}

static void register_text(u64 func)
{
	u64 i = (func >> 8) % LD_TEXT;

	while (ld.text[i] && ld.text[i] != func)
		i = (i + 1) % LD_TEXT;
	if (ld.text[i])
		return;
	ld.text[i] = func;
	x86_branch_text_add(func + 0x10, MODEL_BR_NEAR_REL_CALL);
	x86_branch_text_add(func + 0x18, MODEL_BR_NEAR_IND_CALL);
	x86_branch_text_add(func + 0x40, MODEL_BR_JCC);
	x86_branch_text_add(func + 0x50, MODEL_BR_NEAR_REL_JMP);
	x86_branch_text_add(func + 0x58, MODEL_BR_NEAR_IND_JMP);
	x86_branch_text_add(func + 0x80, MODEL_BR_NEAR_RET);
}

static u64 child_entry(u64 parent, int k)
{
	u64 h = (parent ^ (0x9e3779b97f4a7c15ULL * (u64)(k + 1))) * 0xbf58476d1ce4e5b9ULL;

	h ^= h >> 31;
	return LD_ROOT + ((h & ((1ULL << 36) - 1)) << 8);
}

static void retire_cycles(u64 from, u64 to, enum model_branch_type type, bool user,
			  unsigned int cycles)
{
	ld.nr_branch++;
	for (int s = 0; s < 2; s++)
		model_retire_branch(ld.cpu[s], from, to, type, user, ld.nr_branch % 5 == 0, cycles);
}

static void retire(u64 from, u64 to, enum model_branch_type type, bool user)
{
	retire_cycles(from, to, type, user, 1 + (unsigned int)(ld.nr_branch % 7));
}

/* ---- the two sides' operations -------------------------------------------------- */

static void *core_task_ctx(struct task_struct *t)
{
	if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
		return t->perf_ctx_data ? t->perf_ctx_data->data : NULL;
	return t->perf_event_pmu_ctx ? t->perf_event_pmu_ctx->task_ctx_data : NULL;
}

static void core_sched_task(struct task_struct *t, bool in)
{
	intel_pmu_lbr_sched_task(t->perf_event_pmu_ctx, t, in);
}

static int core_event_new(int e, int task, int *err)
{
	struct perf_event *ev = calloc(1, sizeof(*ev));

	*err = -ENOMEM;
	if (!ev)
		return -1;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = PERF_TYPE_HARDWARE;
	ev->attr.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	ev->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	ev->attr.branch_sample_type = ld.bst;
	ev->pmu = x86_get_pmu();
	ev->group_leader = ev;
	if (task >= 0) {
		ev->attach_state |= PERF_ATTACH_TASK;
		ev->target = &ld.t[task].ct;
	}
	*err = intel_pmu_setup_lbr_filter(ev);
	if (!*err && ld.callstack) {
		ev->attach_state |= PERF_ATTACH_TASK_DATA;
		if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
			*err = attach_perf_ctx_data(ev, intel_pmu_lbr_task_ctx_size());
		else
			*err = get_pmu_ctx(ev, intel_pmu_lbr_task_ctx_size());
		if (*err)
			ev->attach_state &= ~PERF_ATTACH_TASK_DATA;
	}
	if (*err) {
		free(ev);
		return -1;
	}
	ld.ce[e] = ev;
	return 0;
}

static void core_event_free(struct perf_event *ev)
{
	if (!ev)
		return;
	if (ev->attach_state & PERF_ATTACH_TASK_DATA) {
		if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
			detach_perf_ctx_data(ev);
		else
			put_pmu_ctx(ev);
	}
	free(ev);
}

/* ---- comparing ---------------------------------------------------------------------- */

static int compare_writes(void)
{
	unsigned int n = rec.n[0] < rec.n[1] ? rec.n[0] : rec.n[1];

	if (rec.overflow[0] || rec.overflow[1])
		return ld_fail("more than %d MSR writes in one operation", LD_MAX_WRITES);
	for (unsigned int i = 0; i < n; i++) {
		const struct ld_write *c = &rec.w[0][i], *k = &rec.w[1][i];

		if (c->msr != k->msr || c->val != k->val || c->ret != k->ret)
			return ld_fail("MSR write %u: core/ wrote %#x <- %#llx%s, the kernel's lbr.c "
				       "%#x <- %#llx%s", i, c->msr, (unsigned long long)c->val,
				       c->ret ? " (#GP)" : "", k->msr, (unsigned long long)k->val,
				       k->ret ? " (#GP)" : "");
	}
	if (rec.n[0] != rec.n[1]) {
		int s = rec.n[0] > rec.n[1] ? 0 : 1;
		const struct ld_write *w = &rec.w[s][n];

		return ld_fail("MSR writes: core/ made %u, the kernel's lbr.c %u; the first extra: "
			       "%s wrote %#x <- %#llx", rec.n[0], rec.n[1],
			       s ? "the kernel's" : "core/", w->msr, (unsigned long long)w->val);
	}
	ld.st->writes += n;
	rec.n[0] = rec.n[1] = 0;
	return 0;
}

static int compare_cpu(void)
{
	struct cpu_hw_events *c = &cpu_hw_events[0];
	struct ksrc_lbr_cpu_view k;
	int last_c = -1, last_k = -1;

	ksrc_lbr_cpu_view(&k);
	if (c->lbr_users != k.lbr_users)
		return ld_fail("cpuc->lbr_users: core/ %d, the kernel's %d", c->lbr_users, k.lbr_users);
	if ((u64)(u32)c->br_sel != k.br_sel)
		return ld_fail("cpuc->br_sel: core/ %#x, the kernel's %#llx", c->br_sel,
			       (unsigned long long)k.br_sel);
	if (c->lbr_select != k.lbr_select)
		return ld_fail("cpuc->lbr_select: core/ %d, the kernel's %d", c->lbr_select,
			       k.lbr_select);
	if ((c->lbr_sel ? c->lbr_sel->config : 0) != k.lbr_sel_config)
		return ld_fail("cpuc->lbr_sel->config (LBR_SELECT's value): core/ %#llx, the kernel's %#llx",
			       (unsigned long long)(c->lbr_sel ? c->lbr_sel->config : 0),
			       (unsigned long long)k.lbr_sel_config);
	for (int i = 0; i < 2; i++) {
		if (c->last_task_ctx && c->last_task_ctx == core_task_ctx(&ld.t[i].ct))
			last_c = i;
		if (k.last_task_ctx &&
		    k.last_task_ctx == ksrc_lbr_task_ctx(ld.t[i].kt, ksrc_lbr_task_data_in_task()))
			last_k = i;
	}
	if (last_c != last_k || (last_c < 0 && !!c->last_task_ctx != !!k.last_task_ctx))
		return ld_fail("cpuc->last_task_ctx: core/ task %d's, the kernel's task %d's (-1: none)",
			       last_c, last_k);
	if (c->last_log_id != k.last_log_id)
		return ld_fail("cpuc->last_log_id: core/ %d, the kernel's %d", c->last_log_id,
			       k.last_log_id);
	return 0;
}

static int compare_task(int i)
{
	void *ctx = core_task_ctx(&ld.t[i].ct);
	bool in_task = ksrc_lbr_task_data_in_task();
	struct ksrc_lbr_ctx_view k;
	struct x86_perf_task_context_opt *opt;

	/* where the two keep data differently, only a per-task call-stack event's task is compared */
	if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) != in_task && !ld.per_task)
		return 0;
	ksrc_lbr_task_view(ld.t[i].kt, in_task, &k);
	if (!!ctx != k.present)
		return ld_fail("task %d: core/ %s LBR context data, the kernel's %s", i,
			       ctx ? "has" : "has no", k.present ? "has" : "has none");
	if (!ctx)
		return 0;
	opt = task_context_opt(ctx);
	if (opt->lbr_callstack_users != k.lbr_callstack_users || opt->lbr_stack_state != k.lbr_stack_state ||
	    opt->log_id != k.log_id)
		return ld_fail("task %d's context: lbr_callstack_users/lbr_stack_state/log_id core/ %d/%d/%d, "
			       "the kernel's %d/%d/%d", i, opt->lbr_callstack_users, opt->lbr_stack_state,
			       opt->log_id, k.lbr_callstack_users, k.lbr_stack_state, k.log_id);
	if (x86_pmu.arch_lbr) {
		struct x86_perf_task_context_arch_lbr *a = ctx;

		for (unsigned int j = 0; j < k.nr; j++) {
			if (!a->entries[j].from && k.lbr[j].from) {
				/* arch-lbr-save-stale-tail (README "Departures"): end it as core/ does */
				ksrc_lbr_task_end_arch_stack(ld.t[i].kt, in_task, j);
				ld.st->stale_tail++;
				break;
			}
			if (!a->entries[j].from)
				break;
			if (a->entries[j].from != k.lbr[j].from || a->entries[j].to != k.lbr[j].to ||
			    a->entries[j].info != k.lbr[j].info)
				return ld_fail("task %d's saved Arch LBR entry %u: core/ %#llx -> %#llx (%#llx), "
					       "the kernel's %#llx -> %#llx (%#llx)", i, j,
					       (unsigned long long)a->entries[j].from,
					       (unsigned long long)a->entries[j].to,
					       (unsigned long long)a->entries[j].info,
					       (unsigned long long)k.lbr[j].from,
					       (unsigned long long)k.lbr[j].to,
					       (unsigned long long)k.lbr[j].info);
		}
		return 0;
	}
	{
		struct x86_perf_task_context *l = ctx;

		if (l->tos != k.tos || l->valid_lbrs != k.valid_lbrs || l->lbr_sel != k.lbr_sel)
			return ld_fail("task %d's saved context: tos/valid_lbrs/lbr_sel core/ %d/%d/%#llx, "
				       "the kernel's %d/%d/%#llx", i, l->tos, l->valid_lbrs,
				       (unsigned long long)l->lbr_sel, k.tos, k.valid_lbrs,
				       (unsigned long long)k.lbr_sel);
		for (int j = 0; j < l->valid_lbrs && j < 32; j++)
			if (l->lbr[j].from != k.lbr[j].from || l->lbr[j].to != k.lbr[j].to ||
			    l->lbr[j].info != k.lbr[j].info)
				return ld_fail("task %d's saved LBR entry %d: core/ %#llx -> %#llx (%#llx), "
					       "the kernel's %#llx -> %#llx (%#llx)", i, j,
					       (unsigned long long)l->lbr[j].from,
					       (unsigned long long)l->lbr[j].to,
					       (unsigned long long)l->lbr[j].info,
					       (unsigned long long)k.lbr[j].from,
					       (unsigned long long)k.lbr[j].to,
					       (unsigned long long)k.lbr[j].info);
	}
	return 0;
}

static int compare_all(void)
{
	int ret = compare_writes();

	if (!ret)
		ret = compare_cpu();
	for (int i = 0; i < 2 && !ret; i++)
		ret = compare_task(i);
	if (ret && ld_task_data_departure())
		return KSRC_LBR_DEPARTURE;
	return ret;
}

/*
 * Before a PMI's read, under a user-only filter: does the LBR hold a
 * record whose "from" is the kernel's (a sysret)? Each one is an entry
 * both lbr.c's must drop (6.12.117's filter, a stable backport); the
 * count shows the oracle reaches that check. The low 32 bits of FROM
 * name the record in every LBR format.
 */
static void count_kernel_from(void)
{
	if (ld.bst & PERF_SAMPLE_BRANCH_KERNEL)
		return;
	for (int i = 0; i < x86_pmu.lbr_nr; i++) {
		u64 from = 0;

		if (!model_rdmsr(ld.cpu[1], x86_pmu.lbr_from + (u32)i, &from) &&
		    (u32)from == (u32)LD_SYSRET)
			ld.st->kernel_from++;
	}
}

static int pmi_read(void)
{
	struct perf_branch_entry ke[MAX_LBR_ENTRIES];
	const struct perf_branch_stack *cb;
	struct perf_sample_data data;
	u64 khw = 0;
	int kn, ret;

	intel_pmu_lbr_disable_all();
	ksrc_lbr_disable_all();
	count_kernel_from();
	memset(&data, 0, sizeof(data));
	intel_pmu_lbr_read();
	intel_pmu_lbr_save_brstack(&data, &cpu_hw_events[0], ld.ce[0]);
	kn = ksrc_lbr_read(ld.ke[0], ke, MAX_LBR_ENTRIES, &khw);
	intel_pmu_lbr_enable_all(true);
	ksrc_lbr_enable_all(true);
	ret = compare_writes();
	if (ret)
		return ret;
	cb = data.br_stack;
	if (!cb || kn < 0)
		return cb || kn >= 0 ? ld_fail("a branch stack in the sample: core/ %s, the kernel's %s",
					       cb ? "yes" : "no", kn >= 0 ? "yes" : "no") : 0;
	ld.st->reads++;
	if (cb->nr != (u64)kn)
		return ld_fail("branch stack of %llu entries from core/, %d from the kernel's lbr.c",
			       (unsigned long long)cb->nr, kn);
	if (cb->hw_idx != khw)
		return ld_fail("hw_idx: core/ %#llx, the kernel's %#llx", (unsigned long long)cb->hw_idx,
			       (unsigned long long)khw);
	for (int i = 0; i < kn; i++) {
		const struct perf_branch_entry *c = &cb->entries[i], *k = &ke[i];

		ld.st->entries++;
		if (k->cycles == LBR_INFO_CYCLES)
			ld.st->cycles_saturated++;
		if (c->from != k->from || c->to != k->to)
			return ld_fail("branch stack entry %d: core/ %#llx -> %#llx, the kernel's %#llx -> %#llx",
				       i, (unsigned long long)c->from, (unsigned long long)c->to,
				       (unsigned long long)k->from, (unsigned long long)k->to);
		if (memcmp((const u8 *)c + 16, (const u8 *)k + 16, 8))
			return ld_fail("branch stack entry %d (%#llx -> %#llx): flags mispred/predicted/in_tx/"
				       "abort/cycles/type core/ %u/%u/%u/%u/%u/%u, the kernel's %u/%u/%u/%u/%u/%u",
				       i, (unsigned long long)c->from, (unsigned long long)c->to,
				       (unsigned)c->mispred, (unsigned)c->predicted, (unsigned)c->in_tx,
				       (unsigned)c->abort, (unsigned)c->cycles, (unsigned)c->type,
				       (unsigned)k->mispred, (unsigned)k->predicted, (unsigned)k->in_tx,
				       (unsigned)k->abort, (unsigned)k->cycles, (unsigned)k->type);
	}
	return 0;
}

static void events_add(int task_running, bool back)
{
	for (int e = 0; e < 2; e++) {
		if (!ld.ce[e] || ld.on[e])
			continue;
		if (ld.ev_task[e] >= 0 && ld.ev_task[e] != task_running)
			continue;
		if (back) {
			ld.ce[e]->total_time_running = 1;
			ksrc_lbr_event_ran(ld.ke[e]);
		}
		intel_pmu_lbr_add(ld.ce[e]);
		ksrc_lbr_add(ld.ke[e]);
		ld.on[e] = true;
	}
}

static void events_del(int only_task)
{
	for (int e = 1; e >= 0; e--) {
		if (!ld.ce[e] || !ld.on[e])
			continue;
		if (only_task >= 0 && ld.ev_task[e] != only_task)
			continue;
		intel_pmu_lbr_del(ld.ce[e]);
		ksrc_lbr_del(ld.ke[e]);
		ld.on[e] = false;
	}
}

/*
 * After a task's sched-out: an Arch LBR save shorter than the LBR's depth
 * right after a full one is the case where intel_pmu_arch_lbr_save() must
 * mark the context not full (the last entry's from cleared), so that the
 * restore resets the LBR first. Counted, so the oracle shows it judges it.
 */
static void count_full_then_shorter(struct ld_task *t)
{
	struct x86_perf_task_context_arch_lbr *a = core_task_ctx(&t->ct);
	int n = 0;

	if (!x86_pmu.arch_lbr || !a)
		return;
	while (n < x86_pmu.lbr_nr && a->entries[n].from)
		n++;
	if (t->saved_full && n < x86_pmu.lbr_nr)
		ld.st->full_then_shorter++;
	t->saved_full = n == x86_pmu.lbr_nr;
}

static void context_switch(void)
{
	int prev = ld.running, next = !ld.running;

	intel_pmu_lbr_disable_all();
	ksrc_lbr_disable_all();
	core_sched_task(&ld.t[prev].ct, false);
	ksrc_lbr_sched_task(ld.t[prev].kt, false);
	count_full_then_shorter(&ld.t[prev]);
	events_del(prev);
	ld.running = next;
	pmusim_curr[0] = &ld.t[next].ct;
	events_add(next, true);
	core_sched_task(&ld.t[next].ct, true);
	ksrc_lbr_sched_task(ld.t[next].kt, true);
	intel_pmu_lbr_enable_all(false);
	ksrc_lbr_enable_all(false);
	ld.switched = true;
	ld.st->switches++;
}

static int run_op(u8 b)
{
	struct ld_task *t = &ld.t[ld.running];

	switch (b & 7) {
	case 0:
	case 1:
		ld.opname = "call";
		if (t->depth < LD_DEPTH) {
			bool ind = b & 0x40;
			u64 callee = child_entry(t->func, ((b >> 3) & 1) + (ind ? 2 : 0));

			register_text(callee);
			t->from[t->depth] = t->func + (ind ? 0x18 : 0x10);
			t->stack[t->depth++] = t->func;
			retire(t->from[t->depth - 1], callee,
			       ind ? MODEL_BR_NEAR_IND_CALL : MODEL_BR_NEAR_REL_CALL, true);
			t->func = callee;
		}
		break;
	case 2:
		ld.opname = "return";
		if (t->depth) {
			u64 callee = t->func;

			t->depth--;
			t->func = t->stack[t->depth];
			retire(callee + 0x80, t->from[t->depth] + 5, MODEL_BR_NEAR_RET, true);
		}
		break;
	case 3:
		ld.opname = "jcc";
		if (b & 0x40) {		/* a long block first: the LBR's cycle count saturates */
			ld.opname = "long block, jcc";
			retire_cycles(t->func + 0x40, t->func + 0x48, MODEL_BR_JCC, true,
				      LD_LONG_BLOCK + (b >> 7));
		}
		for (int n = 1 + ((b >> 3) & 7); n; n--)
			retire(t->func + 0x40, t->func + 0x48, MODEL_BR_JCC, true);
		break;
	case 4:
		ld.opname = "jmp";
		retire(t->func + (b & 8 ? 0x58 : 0x50), t->func + 0x60,
		       b & 8 ? MODEL_BR_NEAR_IND_JMP : MODEL_BR_NEAR_REL_JMP, true);
		break;
	case 5:
		ld.opname = "PMI";
		if (ld.on[0])
			return pmi_read();
		break;
	case 6:
		ld.opname = "context switch";
		context_switch();
		break;
	case 7:
		switch ((b >> 3) & 3) {
		case 0:
			ld.opname = "events off and back";
			intel_pmu_lbr_disable_all();
			ksrc_lbr_disable_all();
			events_del(-1);
			events_add(ld.running, true);
			intel_pmu_lbr_enable_all(false);
			ksrc_lbr_enable_all(false);
			break;
		case 1:
			ld.opname = "LBR reset";
			intel_pmu_lbr_reset();
			ksrc_lbr_reset();
			break;
		case 2:
			ld.opname = "enable_all";
			intel_pmu_lbr_enable_all(false);
			ksrc_lbr_enable_all(false);
			break;
		case 3:
			if (b & 0x20) {
				ld.opname = "sysret";
				retire(LD_SYSRET, t->func + 0x60, MODEL_BR_FAR, true);
				break;
			}
			ld.opname = "kernel jcc";
			retire(LD_KERNEL_IP + 0x40, LD_KERNEL_IP + 0x48, MODEL_BR_JCC, false);
			break;
		}
		break;
	}
	return compare_all();
}

/* ---- the task list core/'s system-wide per-task data walks ------------------------- */

static struct task_struct *ld_first_task(void *priv)
{
	(void)priv;
	return &ld.t[0].ct;
}

static struct task_struct *ld_next_task(void *priv, struct task_struct *t)
{
	(void)priv;
	return t == &ld.t[0].ct ? &ld.t[1].ct : NULL;
}

static const struct perf_task_iter ld_task_iter = { ld_first_task, ld_next_task, NULL };

/* ---- the probe: where does the tree's lbr.c keep a system-wide call stack? --------- */

static int ld_task_data_in_task = -1;

bool ksrc_lbr_task_data_in_task(void)
{
	const struct model_cpu_desc *desc = model_cpu_desc_lookup("skylake");
	struct ksrc_lbr_task *t;
	struct ksrc_lbr_event *e;
	struct model_cpu *cpu;
	int err;

	if (ld_task_data_in_task >= 0)
		return ld_task_data_in_task;
	/*
	 * A system-wide call-stack event and a task switched out: v6.15 saves
	 * the stack in the task's perf_ctx_data, v6.12 has nowhere to.
	 */
	ld_task_data_in_task = 0;
	cpu = desc ? model_cpu_create(desc, 0) : NULL;
	if (!cpu)
		return false;
	ksrc_lbr_boot(cpu);
	t = ksrc_lbr_task_new(1);
	e = ksrc_lbr_event_new(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK, NULL, &err);
	if (t && e && !ksrc_lbr_add(e)) {
		struct ksrc_lbr_ctx_view v;

		ksrc_lbr_sched_task(t, false);
		ksrc_lbr_task_view(t, true, &v);
		ld_task_data_in_task = v.log_id > 0;
		ksrc_lbr_del(e);
	}
	ksrc_lbr_event_free(e);
	ksrc_lbr_task_free(t);
	ksrc_lbr_shutdown();
	model_cpu_destroy(cpu);
	return ld_task_data_in_task;
}

/* ---- the run ---------------------------------------------------------------------- */

static void teardown(void)
{
	for (int e = 0; e < 2; e++) {
		core_event_free(ld.ce[e]);
		ksrc_lbr_event_free(ld.ke[e]);
	}
	for (int i = 0; i < 2; i++) {
		perf_ctx_data_exit(&ld.t[i].ct);
		ksrc_lbr_task_free(ld.t[i].kt);
	}
	perf_ctx_data_set_task_iter(NULL);
	memset(&rec, 0, sizeof(rec));
	x86_pmu_attach_cpu(0, NULL);
	ksrc_lbr_shutdown();
	for (int s = 0; s < 2; s++)
		model_cpu_destroy(ld.cpu[s]);
	x86_branch_text_reset();
	pmusim_curr[0] = NULL;
}

int ksrc_lbr_diff(const uint8_t *data, size_t size, char *why, size_t why_len,
		  struct ksrc_lbr_diff_stats *stats)
{
	struct ksrc_lbr_diff_stats dummy;
	unsigned long warn_base = pmusim_warn_count();
	const struct model_cpu_desc *table;
	unsigned int nr_models;
	int ret = 0, kerr = 0, cerr = 0;

	ksrc_lbr_task_data_in_task();	/* before anything runs */
	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof(*stats));
	if (why_len)
		why[0] = 0;
	if (size < 3)
		return 0;
	memset(&ld, 0, sizeof(ld));
	ld.why = why;
	ld.why_len = why_len;
	ld.st = stats;
	ld.opname = "set-up";
	table = model_cpu_desc_table(&nr_models);
	ld.desc = &table[data[0] % nr_models];
	ld.bst = ksrc_lbr_filters[data[1] % ksrc_lbr_nr_filters].branch_sample_type;
	ld.filter = ksrc_lbr_filters[data[1] % ksrc_lbr_nr_filters].name;
	ld.callstack = ld.bst & PERF_SAMPLE_BRANCH_CALL_STACK;
	ld.per_task = data[2] & 1;
	ld.second = data[2] & 2;

	pmusim_this_cpu = 0;
	for (int i = 0; i < 2; i++) {
		ld.t[i].ct.pid = ld.t[i].ct.tid = 100 + i;
		ld.t[i].func = LD_ROOT;
	}
	register_text(LD_ROOT);
	register_text(LD_KERNEL_IP);
	x86_branch_text_add(LD_SYSRET, MODEL_BR_FAR);
	pmusim_curr[0] = &ld.t[0].ct;
	perf_ctx_data_set_task_iter(&ld_task_iter);
	for (int s = 0; s < 2; s++)
		ld.cpu[s] = model_cpu_create(ld.desc, 0);
	if (!ld.cpu[0] || !ld.cpu[1]) {
		ret = ld_fail("model_cpu_create failed");
		goto out;
	}
	if (x86_pmu_attach_cpu(0, ld.cpu[0])) {
		ret = ld_fail("x86_pmu_attach_cpu failed");
		goto out;
	}
	if (x86_pmu.lbr_nr != ksrc_lbr_boot(ld.cpu[1])) {
		ret = ld_fail("LBR depth: core/ %d, the kernel's lbr.c %d", x86_pmu.lbr_nr,
			      ksrc_lbr_boot(ld.cpu[1]));
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		ld.t[i].kt = ksrc_lbr_task_new(100 + i);
		if (!ld.t[i].kt) {
			ret = ld_fail("ksrc_lbr_task_new failed");
			goto out;
		}
	}
	rec.cpu[0] = ld.cpu[0];
	rec.cpu[1] = ld.cpu[1];

	/* the events: filters set up by both, refused by both or by neither */
	ld.ev_task[0] = ld.per_task ? 0 : -1;
	ld.ev_task[1] = 1;
	for (int e = 0; e < (ld.second ? 2 : 1); e++) {
		core_event_new(e, ld.ev_task[e], &cerr);
		ld.ke[e] = ksrc_lbr_event_new(ld.bst, ld.ev_task[e] >= 0 ? ld.t[ld.ev_task[e]].kt : NULL,
					      &kerr);
		if (!!ld.ce[e] != !!ld.ke[e] || cerr != kerr) {
			ret = ld_fail("the filter: core/ %d, the kernel's lbr.c %d", cerr, kerr);
			goto out;
		}
		if (!ld.ce[e]) {
			stats->refused = true;
			goto out;
		}
	}
	events_add(ld.running, false);
	intel_pmu_lbr_enable_all(false);
	ksrc_lbr_enable_all(false);
	ret = compare_all();
	for (size_t i = 3; i < size && !ret; i++) {
		ld.op = i - 2;
		stats->ops++;
		ret = run_op(data[i]);
	}
	if (!ret) {
		ld.opname = "teardown";
		intel_pmu_lbr_disable_all();
		ksrc_lbr_disable_all();
		events_del(-1);
		ret = compare_all();
	}
	if (!ret && pmusim_warn_count() != warn_base)
		ret = ld_fail("a WARN_ON fired (core/'s or the kernel's lbr.c)");
	if (ret == KSRC_LBR_DEPARTURE) {
		size_t n = strlen(why);

		snprintf(why + n, why_len - n, " [departure task-ctx-data: the system-wide call stack "
			 "is %s across context switches by core/ and %s by the kernel's lbr.c "
			 "(upstream v6.15, 3cec9fd03543)]",
			 IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) ? "kept" : "reset",
			 ksrc_lbr_task_data_in_task() ? "kept" : "reset");
	}
out:
	teardown();
	return ret;
}

size_t ksrc_lbr_diff_from_fuzz_lbr(const uint8_t *data, size_t size, uint8_t *out, size_t max)
{
	size_t n = 0;

	if (size < 5 || max < 3)
		return 0;
	out[n++] = data[0];
	out[n++] = data[1] & 7;
	out[n++] = data[4] & 1;
	for (size_t i = 5; i < size && n < max; i++) {
		u8 b = data[i];

		switch (b & 7) {
		case 5:		/* tick: the oracle's PMI */
			out[n++] = 5;
			break;
		case 7:		/* b >> 3 conditional jumps: up to 8 a byte */
			for (int left = b >> 3; left > 0 && n < max; left -= 8)
				out[n++] = (u8)(3 | ((left > 8 ? 7 : left - 1) << 3));
			break;
		default:	/* call, return, jcc, jmp, switch: the same encoding */
			out[n++] = b;
			break;
		}
	}
	return n;
}
