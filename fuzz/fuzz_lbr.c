// SPDX-License-Identifier: GPL-2.0-only
/*
 * Overflow and LBR: a random branch stream of two tasks (calls, returns,
 * conditional and indirect jumps, ticks, context switches) retired on a
 * model CPU under a branch-sampling event opened through the event core
 * and the x86 driver, with a period, an alternative period (RFC), a
 * REFRESH budget and an LBR filter.
 *
 * The stream's ground truth is kept beside it, and an independent model
 * of the overflow rules (written from the rules, not from
 * core/overflow.c) predicts every PMI. Oracles:
 *   - every PMI comes at the branch the rules give (periods alternating,
 *     throttling after max_samples_per_tick PMIs per tick until the next
 *     tick or sched-in, the REFRESH budget), with that period;
 *   - the event's count is the branches it counted;
 *   - hw_idx is the model's TOS (legacy LBR) or -1 (Arch LBR);
 *   - filtered LBR entries are, newest first, branches of the stream that
 *     the filter admits; call-stack entries are the innermost calls of
 *     the task's true stack (exactly as many as the call-stack LBR can
 *     still hold, while no context switch has happened);
 *   - stitching (tools/perf/util/lbr_stitch.c) of the call-stack samples gives a
 *     prefix of the true stack. The call graph is a tree whose every
 *     call site calls a function of its own (a function's address says
 *     which call site, in which function, called it), so one matching
 *     entry proves the stacks below it equal: stitching cannot be fooled
 *     by look-alike frames, and must never add a wrong one. (A callee
 *     reached from two sites can fool it, in perf as in pmusim: see the
 *     README's LBR stitching notes.)
 *
 * Input: byte 0 the CPU model; byte 1 the filter (low 3 bits: index in
 * filters[]; bit 3 HW_INDEX); byte 2 period - 1; byte 3 the alternative
 * period (0: none); byte 4 bit 0 a per-task event (else CPU-wide), bits
 * 1-3 the REFRESH budget (0: none). Then one op a byte, b & 7:
 *   0, 1 call (child b >> 3 & 1)   2 return   3 conditional jump
 *   4 jump (bit 3: indirect)       5 tick     6 context switch
 *   7 b >> 3 conditional jumps in a row
 * PMUSIM_FUZZ_TRACE=1 prints the stream and the PMIs.
 *
 * With a kernel tree (KSRC, <generated/ksrc.h>) every input first runs in
 * lockstep on core/x86/lbr.c and the kernel's own lbr.c (ksrc/oracle/
 * lbr_diff.h: the same program, a tick a PMI): the first difference in
 * MSR writes, branch stack, hw_idx or a task's saved context aborts with
 * its name; the task-ctx-data departure is named, not a failure.
 */
#include <stdarg.h>

#include "core/perf_event.h"
#include "core/sched.h"
#include "core/task_ctx_data.h"
#include "core/x86/perf_event.h"
#include "core/x86/pmu.h"
#include "fuzz/fuzz.h"
#include "model/model.h"
#include "model/msr-index.h"
#include "tools/perf/util/lbr_stitch.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_LBR
#include "ksrc/oracle/lbr_diff.h"
#endif

#define FL_MAX_DEPTH	48
#define FL_HISTORY	4096
#define FL_TEXT_SLOTS	8192

struct fl_call {
	u64 func;		/* the callee's entry */
	u64 from, to;		/* the call instruction, the callee's entry */
};

struct fl_task {
	struct task_struct task;
	struct fl_call stack[FL_MAX_DEPTH];
	int depth;
	u64 func;		/* the running function's entry */
	unsigned int lbr_valid;	/* call-stack LBR entries it still holds */
};

struct fl_branch {
	u64 from, to;
	enum model_branch_type type;
};

static const struct {
	const char *name;
	u64 bits;
} filters[] = {
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_return", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "ind_jump", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
};

static struct {
	const struct model_cpu_desc *desc;
	struct model_cpu *cpu;
	struct pt_regs regs;
	struct fl_task tasks[2];
	int running;			/* index of the task on the CPU */
	struct perf_event *event;
	u64 br_type;
	bool call_stack, hw_index, per_task, switched, trace;
	struct lbr_stitcher stitcher;
	u64 text[FL_TEXT_SLOTS];	/* functions whose sites are registered */
	struct fl_branch hist[FL_HISTORY];
	u64 nr_hist;
	/* the overflow rules' model */
	u64 period[2];
	int which;			/* period[which] runs now */
	s64 period_left;		/* as the driver last programmed it */
	u64 prog;			/* branches it programmed: max(period_left, 2) */
	u64 hw_left;			/* branches until the counter overflows */
	bool active, throttled;
	unsigned int in_tick;		/* PMIs since the tick (the kernel's interrupts) */
	int limit;			/* REFRESH budget left, 0: none */
	u64 count;			/* branches counted */
	u64 branch_no;			/* the stream's branch number */
	u64 want_pmi_at, want_period;	/* the next PMI the rules give */
	/* what the handler saw */
	unsigned int pmis;
	u64 pmi_branch, pmi_period;
} fl;

#define fl_fail(fmt, ...) \
	fuzz_fail("fuzz_lbr", "at branch %llu: " fmt, (unsigned long long)fl.branch_no, ##__VA_ARGS__)
#define fl_trace(...) fuzz_trace_line(fl.trace, __VA_ARGS__)

/* The task list, for system-wide per-task data (CONFIG_PERF_TASK_CTX_DATA). */
static struct task_struct *fl_first_task(void *priv)
{
	(void)priv;
	return &fl.tasks[0].task;
}

static struct task_struct *fl_next_task(void *priv, struct task_struct *t)
{
	(void)priv;
	return t == &fl.tasks[0].task ? &fl.tasks[1].task : NULL;
}

static const struct perf_task_iter fl_task_iter = { fl_first_task, fl_next_task, NULL };

/* ---- the program: a call tree ------------------------------------------------ */

/*
 * A function's entry is a hash of its caller's and of the call site that
 * calls it (child 0 or 1, direct or indirect: four sites), so the entry
 * names the whole path of call sites from the root (up to hash collisions
 * in 36 bits). User addresses, 256-byte aligned; the sites sit at fixed
 * offsets: calls at +0x10 (direct) and +0x18 (indirect), jcc +0x40, jmp
 * +0x50, ret +0x80.
 *
 * The site must be in the hash: were child k the same function from both
 * call instructions, a task that returned below an earlier sample's stack
 * and called back down the other way would share that sample's entries
 * at the overlap, but not the frames below it (fuzz/crashes/lbr/
 * stitch-wrong-frame-*).
 */
static u64 child_entry(u64 parent, int k)
{
	u64 h = (parent ^ (0x9e3779b97f4a7c15ULL * (u64)(k + 1))) * 0xbf58476d1ce4e5b9ULL;

	h ^= h >> 31;
	return 0x100000000000ULL + ((h & ((1ULL << 36) - 1)) << 8);
}

/* The legacy LBR's software filter decodes "from": register each site once. */
static void register_text(u64 func)
{
	u64 i = (func >> 8) % FL_TEXT_SLOTS;

	while (fl.text[i] && fl.text[i] != func)
		i = (i + 1) % FL_TEXT_SLOTS;
	if (fl.text[i])
		return;
	fl.text[i] = func;
	if (x86_branch_text_add(func + 0x10, MODEL_BR_NEAR_REL_CALL) ||
	    x86_branch_text_add(func + 0x18, MODEL_BR_NEAR_IND_CALL) ||
	    x86_branch_text_add(func + 0x40, MODEL_BR_JCC) ||
	    x86_branch_text_add(func + 0x50, MODEL_BR_NEAR_REL_JMP) ||
	    x86_branch_text_add(func + 0x58, MODEL_BR_NEAR_IND_JMP) ||
	    x86_branch_text_add(func + 0x80, MODEL_BR_NEAR_RET))
		fl_fail("x86_branch_text_add: out of memory");
}

static bool filter_admits(enum model_branch_type type)
{
	u64 f = fl.br_type;

	if (f & PERF_SAMPLE_BRANCH_ANY)
		return true;
	switch (type) {
	case MODEL_BR_JCC:
		return f & PERF_SAMPLE_BRANCH_COND;
	case MODEL_BR_NEAR_REL_CALL:
		return f & (PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_CALL);
	case MODEL_BR_NEAR_IND_CALL:
		return f & (PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_IND_CALL);
	case MODEL_BR_NEAR_RET:
		return f & PERF_SAMPLE_BRANCH_ANY_RETURN;
	case MODEL_BR_NEAR_IND_JMP:
		return f & PERF_SAMPLE_BRANCH_IND_JUMP;
	default:
		return false;
	}
}

/* ---- the PMI ----------------------------------------------------------------- */

/* Filtered entries: newest first, a subsequence of the admitted branches. */
static void check_filtered(const struct perf_branch_stack *br)
{
	u64 h = fl.nr_hist;

	for (u64 i = 0; i < br->nr; i++) {
		const struct perf_branch_entry *e = &br->entries[i];

		for (;;) {
			const struct fl_branch *b;

			if (h == 0)
				fl_fail("LBR entry %llu (%#llx -> %#llx) is no branch of the stream",
					(unsigned long long)i, (unsigned long long)e->from,
					(unsigned long long)e->to);
			if (fl.nr_hist - h >= FL_HISTORY)
				return;		/* older than the history kept */
			b = &fl.hist[--h % FL_HISTORY];
			if (b->from == e->from && b->to == e->to && filter_admits(b->type))
				break;
		}
	}
}

/* Call-stack entries: the innermost calls of the true stack. */
static void check_call_stack(const struct fl_task *t, const struct perf_branch_stack *br)
{
	if (br->nr > (u64)t->depth)
		fl_fail("call stack of %llu entries, the task is %d calls deep",
			(unsigned long long)br->nr, t->depth);
	for (u64 i = 0; i < br->nr; i++) {
		const struct fl_call *c = &t->stack[t->depth - 1 - (int)i];

		if (br->entries[i].from != c->from || br->entries[i].to != c->to)
			fl_fail("call-stack entry %llu is %#llx -> %#llx, the call there is %#llx -> %#llx",
				(unsigned long long)i, (unsigned long long)br->entries[i].from,
				(unsigned long long)br->entries[i].to, (unsigned long long)c->from,
				(unsigned long long)c->to);
	}
	if (!fl.switched && br->nr != t->lbr_valid)
		fl_fail("call stack of %llu entries, the LBR still holds %u of the %d calls",
			(unsigned long long)br->nr, t->lbr_valid, t->depth);
}

/* Stitched frames: a prefix of [entry of the current function, call sites, innermost first]. */
static void check_stitch(const struct fl_task *t, const struct perf_branch_stack *br)
{
	static u8 entries[MAX_LBR_ENTRIES * 24];
	u64 callchain[2] = { PERF_CONTEXT_USER, fl.regs.ip };
	struct perf_sample s;
	const u64 *frames;
	u32 nr;
	int ret;

	memset(&s, 0, sizeof(s));
	s.pid = t->task.pid;
	s.tid = t->task.tid;
	s.ip = fl.regs.ip;
	s.callchain_nr = 2;
	s.callchain = (const u8 *)callchain;
	s.branch_nr = br->nr;
	s.hw_idx = br->hw_idx;
	s.no_hw_idx = !fl.hw_index;
	for (u64 i = 0; i < br->nr && i < MAX_LBR_ENTRIES; i++) {
		u64 flags = 0;

		memcpy(entries + 24 * i, &br->entries[i].from, 8);
		memcpy(entries + 24 * i + 8, &br->entries[i].to, 8);
		memcpy(&flags, (const u8 *)&br->entries[i] + 16, 8);
		memcpy(entries + 24 * i + 16, &flags, 8);
	}
	s.branch_entries = entries;
	ret = lbr_stitcher__resolve(&fl.stitcher, &s, &frames, &nr);
	if (ret < 0)
		fl_fail("lbr_stitcher__resolve: out of memory");
	if (ret == 0 || !br->nr)
		return;
	if (nr > (u32)t->depth + 1)
		fl_fail("stitched %u frames, the task is %d calls deep", nr, t->depth);
	for (u32 i = 0; i < nr; i++) {
		u64 want = i == 0 ? t->stack[t->depth - 1].to : t->stack[t->depth - i].from;

		if (frames[i] != want)
			fl_fail("stitched frame %u is %#llx, the true stack has %#llx there (%u frames, "
				"%llu LBR entries, depth %d)", i, (unsigned long long)frames[i],
				(unsigned long long)want, nr, (unsigned long long)br->nr, t->depth);
	}
	if (nr < br->nr + 1)
		fl_fail("stitched %u frames from %llu LBR entries", nr, (unsigned long long)br->nr);
	fl_trace("  stitched %u frames of %d (LBR %llu)", nr, t->depth + 1,
		 (unsigned long long)br->nr);
}

static void fl_handler(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	const struct fl_task *t = &fl.tasks[fl.running];
	const struct perf_branch_stack *br = data->br_stack;

	(void)regs;
	fl.pmis++;
	fl.pmi_branch = fl.branch_no;
	fl.pmi_period = data->period;
	fl_trace("  PMI at branch %llu, period %llu, %llu LBR entries", (unsigned long long)fl.branch_no,
		 (unsigned long long)data->period, br ? (unsigned long long)br->nr : 0ULL);
	if (event != fl.event)
		fl_fail("a PMI for another event");
	if (!(data->sample_flags & PERF_SAMPLE_BRANCH_STACK) || !br)
		fl_fail("a sample without its branch stack");
	if (br->nr > fl.desc->lbr_nr)
		fl_fail("%llu LBR entries, the model has %u", (unsigned long long)br->nr,
			fl.desc->lbr_nr);
	if (fl.hw_index) {
		u64 tos = 0;

		if (fl.desc->arch_lbr)
			tos = 0;	/* v6.12 leaves it at 0 outside PEBS (core/x86/lbr.c) */
		else if (model_rdmsr(fl.cpu, MSR_LBR_TOS, &tos))
			fl_fail("MSR_LBR_TOS unreadable");
		if (br->hw_idx != tos)
			fl_fail("hw_idx %#llx, the model's TOS %#llx", (unsigned long long)br->hw_idx,
				(unsigned long long)tos);
	}
	if (fl.call_stack) {
		check_call_stack(t, br);
		check_stitch(t, br);
	} else {
		check_filtered(br);
	}
}

/* ---- the stream ------------------------------------------------------------- */

static bool counts_now(void)
{
	return fl.active && !fl.throttled && (!fl.per_task || fl.running == 0);
}

/*
 * The x86 rules for programming a counter: what is left of the period,
 * a fresh period when that is used up, and never fewer than 2 (the
 * kernel's quirk for CPUs that misbehave with 1).
 */
static void rules_program(void)
{
	s64 period = (s64)fl.period[fl.which];

	if (fl.period_left <= -period)
		fl.period_left = period;
	if (fl.period_left <= 0)
		fl.period_left += period;
	fl.prog = fl.period_left < 2 ? 2 : (u64)fl.period_left;
	fl.hw_left = fl.prog;
}

/* The counter comes off the PMU: what it counted leaves the period. */
static void rules_stop(void)
{
	fl.period_left -= (s64)(fl.prog - fl.hw_left);
	fl.prog = fl.hw_left;
}

/* The rules, for one branch the event may count: is it the PMI? */
static void rules_branch(void)
{
	fl.want_pmi_at = 0;
	if (!counts_now())
		return;
	fl.count++;
	if (--fl.hw_left)
		return;
	/* overflow: PMI here, with the period the driver programmed */
	rules_stop();
	rules_program();
	fl.want_pmi_at = fl.branch_no;
	fl.want_period = fl.period[fl.which];
	if (fl.period[1]) {
		/* RFC: the other period, at once */
		fl.which ^= 1;
		fl.period_left = 0;
		rules_program();
	}
	if (++fl.in_tick >= (unsigned int)max_samples_per_tick)
		fl.throttled = true;
	if (fl.limit && !--fl.limit)
		fl.active = false;
}

static void retire(u64 from, u64 to, enum model_branch_type type)
{
	unsigned int pmis = fl.pmis;

	fl.branch_no++;
	fl.hist[fl.nr_hist++ % FL_HISTORY] = (struct fl_branch){ from, to, type };
	rules_branch();
	fl.regs.ip = to;
	fl.regs.user = true;
	model_retire_branch(fl.cpu, from, to, type, true, (fl.branch_no % 7) == 0, 1);
	if (fl.want_pmi_at) {
		if (fl.pmis != pmis + 1)
			fl_fail("the rules give a PMI here (period %llu), %u came",
				(unsigned long long)fl.want_period, fl.pmis - pmis);
		if (fl.pmi_period != fl.want_period)
			fl_fail("PMI with period %llu, the rules give %llu",
				(unsigned long long)fl.pmi_period, (unsigned long long)fl.want_period);
	} else if (fl.pmis != pmis) {
		fl_fail("a PMI the rules do not give (count %llu, left %llu, %s%s)",
			(unsigned long long)fl.count, (unsigned long long)fl.hw_left,
			fl.throttled ? "throttled" : "running", fl.active ? "" : ", off");
	}
	if (fl.pmis != pmis)
		perf_event_irq_work_run();
}

static void op_call(struct fl_task *t, int k, bool indirect)
{
	struct fl_call *c;

	if (t->depth == FL_MAX_DEPTH)
		return;
	c = &t->stack[t->depth++];
	c->func = child_entry(t->func, k + (indirect ? 2 : 0));
	c->from = t->func + (indirect ? 0x18 : 0x10);
	c->to = c->func;
	register_text(c->func);
	t->func = c->func;
	if (t->lbr_valid < fl.desc->lbr_nr)
		t->lbr_valid++;
	retire(c->from, c->to, indirect ? MODEL_BR_NEAR_IND_CALL : MODEL_BR_NEAR_REL_CALL);
}

static void op_return(struct fl_task *t)
{
	const struct fl_call *c;

	if (!t->depth)
		return;
	c = &t->stack[--t->depth];
	t->func = t->depth ? t->stack[t->depth - 1].func : 0x100000000000ULL;
	if (t->lbr_valid)
		t->lbr_valid--;
	/* back into the caller, after the call instruction */
	retire(c->func + 0x80, c->from + 5, MODEL_BR_NEAR_RET);
}

static void op_tick(void)
{
	perf_event_task_tick();
	perf_event_irq_work_run();
	fl.in_tick = 0;
	fl.throttled = false;
	fl_trace("tick");
}

static void op_switch(void)
{
	struct fl_task *prev = &fl.tasks[fl.running], *next = &fl.tasks[!fl.running];

	/* a per-task event leaves with its task, and comes back reprogrammed */
	if (fl.per_task && fl.running == 0 && fl.active)
		rules_stop();
	x86_pmu_sched_out(&prev->task);
	perf_event_sched_out(0, &prev->task);
	pmusim_curr[0] = &next->task;
	perf_event_sched_in(0, &next->task);
	x86_pmu_sched_in(&next->task);
	fl.running = !fl.running;
	fl.switched = true;
	/* a per-task event goes back on: a throttled one starts afresh */
	if (fl.per_task && fl.running == 0 && fl.active) {
		if (fl.throttled) {
			fl.throttled = false;
			fl.in_tick = 0;
		}
		rules_program();
	}
	fl_trace("switch to task %d", next->task.tid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct model_cpu_desc *table;
	struct perf_event_attr attr;
	unsigned long warn_base = pmusim_warn_count();
	unsigned int nr_models;
	int err;

	if (size < 5)
		return 0;
#ifdef KSRC_UNIT_LBR
	{
		static uint8_t in[1 << 16];
		char why[1024];
		size_t n = ksrc_lbr_diff_from_fuzz_lbr(data, size, in, sizeof(in));

		if (n && ksrc_lbr_diff(in, n, why, sizeof(why), NULL) == KSRC_LBR_DIFFER)
			fuzz_fail("fuzz_lbr", "ksrc: %s", why);
	}
#endif
	memset(&fl, 0, sizeof(fl));
	fl.trace = fuzz_trace_on();
	table = model_cpu_desc_table(&nr_models);
	fl.desc = &table[data[0] % nr_models];
	fl.br_type = filters[data[1] & 7].bits | PERF_SAMPLE_BRANCH_USER |
		     (data[1] & 8 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0);
	fl.call_stack = fl.br_type & PERF_SAMPLE_BRANCH_CALL_STACK;
	fl.hw_index = data[1] & 8;
	fl.period[0] = 1 + data[2];
	fl.period[1] = IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD) && data[3] != data[2] + 1 ? data[3] : 0;
	fl.per_task = data[4] & 1;
	fl.limit = (data[4] >> 1) & 7;

	pmusim_this_cpu = 0;
	for (int i = 0; i < 2; i++) {
		fl.tasks[i].task.pid = fl.tasks[i].task.tid = 100 + i;
		fl.tasks[i].func = 0x100000000000ULL;
	}
	register_text(fl.tasks[0].func);
	pmusim_curr[0] = &fl.tasks[0].task;
	perf_ctx_data_set_task_iter(&fl_task_iter);
	fl.cpu = model_cpu_create(fl.desc, 0);
	if (!fl.cpu)
		fl_fail("model_cpu_create");
	err = x86_pmu_attach_cpu(0, fl.cpu);
	if (err)
		fl_fail("x86_pmu_attach_cpu(%s): %d", fl.desc->name, err);
	x86_pmu_set_irq_regs(0, &fl.regs);
	lbr_stitcher__init(&fl.stitcher, fl.desc->lbr_nr, true);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	attr.sample_period = fl.period[0];
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	attr.alternative_sample_period = fl.period[1];
#endif
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = fl.br_type;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = fl.limit != 0;
	fl.event = perf_event_create_kernel_counter(&attr, fl.per_task ? -1 : 0,
						    fl.per_task ? &fl.tasks[0].task : NULL,
						    fl_handler, NULL, NULL, &err);
	fl_trace("%s, filter %s%s, period %llu/%llu, %s, refresh %d: open %d", fl.desc->name,
		 filters[data[1] & 7].name, fl.hw_index ? "+hw_index" : "",
		 (unsigned long long)fl.period[0], (unsigned long long)fl.period[1],
		 fl.per_task ? "task" : "cpu", fl.limit, fl.event ? 0 : err);
	if (fl.event) {
		if (fl.limit && perf_event_refresh(fl.event, fl.limit))
			fl_fail("refresh(%d) refused", fl.limit);
		fl.active = true;
		fl.period_left = (s64)fl.period[0];
		rules_program();
		if (fl.per_task) {
			/* the task is already running: its context goes on now */
			perf_event_sched_in(0, &fl.tasks[0].task);
			x86_pmu_sched_in(&fl.tasks[0].task);
		}
		for (size_t i = 5; i < size; i++) {
			struct fl_task *t = &fl.tasks[fl.running];
			u8 b = data[i];

			switch (b & 7) {
			case 0:
			case 1:
				op_call(t, (b >> 3) & 1, b & 0x40);
				break;
			case 2:
				op_return(t);
				break;
			case 3:
				retire(t->func + 0x40, t->func + 0x48, MODEL_BR_JCC);
				break;
			case 4:
				retire(t->func + (b & 8 ? 0x58 : 0x50), t->func + 0x60,
				       b & 8 ? MODEL_BR_NEAR_IND_JMP : MODEL_BR_NEAR_REL_JMP);
				break;
			case 5:
				op_tick();
				break;
			case 6:
				op_switch();
				break;
			case 7:
				for (int n = b >> 3; n; n--)
					retire(t->func + 0x40, t->func + 0x48, MODEL_BR_JCC);
				break;
			}
		}
		{
			u64 count = perf_event_read_value(fl.event, NULL, NULL);

			if (count != fl.count)
				fl_fail("the event counted %llu branches, the rules %llu",
					(unsigned long long)count, (unsigned long long)fl.count);
		}
		fl_trace("%llu branches, %llu counted, %u PMIs", (unsigned long long)fl.branch_no,
			 (unsigned long long)fl.count, fl.pmis);
		perf_event_release_kernel(fl.event);
	} else if (!(err == -EOPNOTSUPP && fl.call_stack && !fl.desc->has_lbr_callstack &&
		     !fl.desc->arch_lbr)) {
		fl_fail("%s refused filter %s: %d", fl.desc->name, filters[data[1] & 7].name, err);
	}
	if (pmusim_warn_count() != warn_base)
		fl_fail("a WARN_ON fired");
	lbr_stitcher__exit(&fl.stitcher);
	/* the tasks exit: their per-task PMU data goes with them */
	for (int i = 0; i < 2; i++)
		perf_ctx_data_exit(&fl.tasks[i].task);
	perf_ctx_data_set_task_iter(NULL);
	x86_pmu_attach_cpu(0, NULL);
	model_cpu_destroy(fl.cpu);
	x86_branch_text_reset();
	pmusim_curr[0] = NULL;
	return 0;
}
