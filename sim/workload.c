// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload executor: builds a program (sim/workload.h) and runs it
 * against a sink, one op at a time, or a block with the op after it, or
 * (the loops where the time goes) whole iterations of a loop body at a
 * time: link_ops() decides which once. Whatever runs an op, the sink sees
 * the same calls and a run stops at the same op. The run loop allocates
 * nothing and draws from the PRNG only where an outcome is random.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/testcase.h"
#include "sim/prng.h"
#include "sim/workload.h"

static const uint8_t op_bytes[] = {
	[WL_OP_INSNS] = 4,	/* per instruction */
	[WL_OP_CALL] = 5,
	[WL_OP_RCALL] = 7,
	[WL_OP_LOOP] = 0,
	[WL_OP_END] = 2,
	[WL_OP_COND] = 2,
	[WL_OP_RET] = 1,
};
#define RCALL_JCC_BYTES	2

void wl_params_default(struct wl_params *p, enum wl_kind kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->depth = kind == WL_RANDOM ? 64 : kind == WL_PHASES ? 4 : 43;
	p->leaf_loops = kind == WL_PHASES ? 32768 : 10000;
	p->mid_loops = kind == WL_TCHAIN ? 100 : 8;
	p->outer_loops = 10000;
	p->cond_permille = 500;
	p->mispredict_permille = 20;
	p->mispredict_penalty = 15;
	p->code_base = 0x401000;
	p->seed = 1;
}

/* ---- building ------------------------------------------------------------- */

/*
 * The builder's limits are beyond what the kinds build: at most 23 ops a
 * function (random: a block, 4 items of at most 5 ops, the last block and
 * ret; phases' main: 16 calls, loop, end, ret) and one loop open at a
 * time. The checks against them stay, for a kind yet to come.
 */
struct wl_builder {
	struct wl_op ops[64];
	uint32_t nr;
	uint32_t open[WL_MAX_LOOPS];
	uint32_t nr_open;
	bool overflow;
};

static void emit(struct wl_builder *b, enum wl_op_kind kind, uint32_t arg)
{
	if (NEVER(b->nr == sizeof(b->ops) / sizeof(b->ops[0]))) {	/* 23 at most, above */
		b->overflow = true;
		return;
	}
	b->ops[b->nr++] = (struct wl_op){ .kind = kind, .arg = arg };
}

static void loop_begin(struct wl_builder *b, uint32_t count)
{
	if (NEVER(b->nr_open == WL_MAX_LOOPS)) {	/* one loop open at most, above */
		b->overflow = true;
		return;
	}
	b->open[b->nr_open++] = b->nr;
	emit(b, WL_OP_LOOP, count);
}

static void loop_end(struct wl_builder *b)
{
	uint32_t start = b->open[--b->nr_open];

	emit(b, WL_OP_END, 0);
	if (NEVER(b->overflow))		/* see struct wl_builder */
		return;
	b->ops[start].match = b->nr - 1;
	b->ops[b->nr - 1].match = start;
}

/* Lay the ops out, copy them into the function and place it at *addr. */
static int finish_func(struct wl_func *f, struct wl_builder *b, uint64_t *addr)
{
	uint32_t pc = 0;

	/* no overflow (struct wl_builder), and every kind closes the loops it opens */
	if (NEVER(b->overflow || b->nr_open))
		return -EINVAL;
	for (uint32_t i = 0; i < b->nr; i++) {
		struct wl_op *op = &b->ops[i];

		op->pc = pc;
		pc += op->kind == WL_OP_INSNS ? 4 * op->arg : op_bytes[op->kind];
		if (op->kind == WL_OP_COND)
			op->match = i + 2;
	}
	f->ops = malloc(b->nr * sizeof(*f->ops));
	if (!f->ops)
		return -ENOMEM;
	memcpy(f->ops, b->ops, b->nr * sizeof(*f->ops));
	f->nr_ops = b->nr;
	f->size = pc;
	f->addr = *addr;
	*addr += (pc + 15) & ~15u;
	memset(b, 0, sizeof(*b));
	return 0;
}

/* A conditional forward branch over a small block: the "if" of a loop body. */
static void emit_if(struct wl_builder *b, uint32_t permille, uint32_t insns)
{
	emit(b, WL_OP_COND, permille);
	emit(b, WL_OP_INSNS, insns);
}

static int build_tchain(struct workload *wl, struct wl_builder *b, uint64_t *addr)
{
	const struct wl_params *p = &wl->params;
	unsigned int d = p->depth;
	/* f31, f32..f42, f43 for depth 43: the same shape, shifted, for others */
	unsigned int outer = d > 12 ? d - 12 : 1;
	int err;

	loop_begin(b, 0);
	emit(b, WL_OP_CALL, 1);
	loop_end(b);
	emit(b, WL_OP_RET, 0);
	err = finish_func(&wl->funcs[0], b, addr);
	snprintf(wl->funcs[0].name, sizeof(wl->funcs[0].name), "main");
	for (unsigned int n = 1; !err && n <= d; n++) {
		emit(b, WL_OP_INSNS, 2);
		if (n == d) {
			loop_begin(b, p->leaf_loops);
			emit(b, WL_OP_INSNS, 3);
			emit_if(b, p->cond_permille, 2);
			loop_end(b);
		} else if (n == outer) {
			loop_begin(b, p->outer_loops);
			emit(b, WL_OP_INSNS, 2);
			emit(b, WL_OP_CALL, n + 1);
			emit(b, WL_OP_INSNS, 1);
			loop_end(b);
		} else if (n > outer) {
			loop_begin(b, p->mid_loops);
			emit(b, WL_OP_INSNS, 3);
			emit_if(b, p->cond_permille, 1);
			loop_end(b);
			emit(b, WL_OP_CALL, n + 1);
		} else {
			emit(b, WL_OP_CALL, n + 1);
		}
		emit(b, WL_OP_INSNS, 1);
		emit(b, WL_OP_RET, 0);
		err = finish_func(&wl->funcs[n], b, addr);
		snprintf(wl->funcs[n].name, sizeof(wl->funcs[n].name),
			 d < 100 ? "tchain_f%02u" : "tchain_f%03u", n);
	}
	return err;
}

static int build_recursion(struct workload *wl, struct wl_builder *b, uint64_t *addr)
{
	const struct wl_params *p = &wl->params;
	int err;

	loop_begin(b, 0);
	emit(b, WL_OP_CALL, 1);
	loop_end(b);
	emit(b, WL_OP_RET, 0);
	err = finish_func(&wl->funcs[0], b, addr);
	snprintf(wl->funcs[0].name, sizeof(wl->funcs[0].name), "main");
	if (err)
		return err;
	emit(b, WL_OP_INSNS, 3);
	loop_begin(b, p->mid_loops);
	emit(b, WL_OP_INSNS, 2);
	emit_if(b, p->cond_permille, 1);
	loop_end(b);
	emit(b, WL_OP_RCALL, 1);
	emit(b, WL_OP_INSNS, 2);
	emit(b, WL_OP_RET, 0);
	err = finish_func(&wl->funcs[1], b, addr);
	snprintf(wl->funcs[1].name, sizeof(wl->funcs[1].name), "recurse");
	return err;
}

/* Function i calls only functions above it, so every call returns. */
static int build_random(struct workload *wl, struct wl_builder *b, uint64_t *addr)
{
	const struct wl_params *p = &wl->params;
	uint32_t n = wl->nr_funcs;
	uint64_t rng = prng_split(p->seed, 0x6772617068ULL);
	int err;

	loop_begin(b, 0);
	emit(b, WL_OP_CALL, 1);
	loop_end(b);
	emit(b, WL_OP_RET, 0);
	err = finish_func(&wl->funcs[0], b, addr);
	snprintf(wl->funcs[0].name, sizeof(wl->funcs[0].name), "main");
	for (uint32_t i = 1; !err && i < n; i++) {
		uint32_t items = 1 + prng_below(&rng, 4);

		emit(b, WL_OP_INSNS, 1 + prng_below(&rng, 6));
		for (uint32_t k = 0; k < items; k++) {
			/* the first item calls, so the graph is as deep as it is long */
			uint32_t what = k ? prng_below(&rng, 3) : 1 + prng_below(&rng, 2);
			uint32_t callee = i + 1 + (i + 1 < n ? prng_below(&rng, n - i - 1) : 0);
			bool leaf = i + 1 >= n;

			if (what == 0 || (what == 1 && leaf)) {
				emit_if(b, prng_below(&rng, 1001), 1 + prng_below(&rng, 4));
			} else if (what == 1) {
				emit(b, WL_OP_CALL, callee);
			} else {
				loop_begin(b, 2 + prng_below(&rng, p->mid_loops > 2 ? p->mid_loops - 1 : 1));
				emit(b, WL_OP_INSNS, 1 + prng_below(&rng, 4));
				if (leaf || (k && prng_below(&rng, 2)))
					emit_if(b, prng_below(&rng, 1001), 1);
				else
					emit(b, WL_OP_CALL, callee);
				loop_end(b);
			}
		}
		emit(b, WL_OP_INSNS, 1);
		emit(b, WL_OP_RET, 0);
		err = finish_func(&wl->funcs[i], b, addr);
		snprintf(wl->funcs[i].name, sizeof(wl->funcs[i].name), "rand_f%03u", i);
	}
	return err;
}

/*
 * Phases: main calls phase_01 .. phase_NN in turn, forever. Phase k loops
 * over 2^(k-1) - 1 instructions and its back-edge, leaf_loops >> (k-1)
 * times, so each retires about leaf_loops instructions per call with one
 * taken conditional branch per 2^(k-1) of them. Every taken conditional
 * mispredicts alike (mispredict_permille), so phase k's cycles per
 * instruction are 1 + penalty * mispredict_permille / 1000 / 2^(k-1):
 * functions long enough for a short window to fall inside, with CPIs
 * far apart (the alternating-periods seed).
 */
#define WL_MAX_PHASES	16

static int build_phases(struct workload *wl, struct wl_builder *b, uint64_t *addr)
{
	const struct wl_params *p = &wl->params;
	uint32_t n = wl->nr_funcs;
	int err;

	loop_begin(b, 0);
	for (uint32_t k = 1; k < n; k++)
		emit(b, WL_OP_CALL, k);
	loop_end(b);
	emit(b, WL_OP_RET, 0);
	err = finish_func(&wl->funcs[0], b, addr);
	snprintf(wl->funcs[0].name, sizeof(wl->funcs[0].name), "main");
	for (uint32_t k = 1; !err && k < n; k++) {
		uint32_t body = (1u << (k - 1)) - 1;

		loop_begin(b, p->leaf_loops >> (k - 1));
		if (body)
			emit(b, WL_OP_INSNS, body);
		loop_end(b);
		emit(b, WL_OP_RET, 0);
		err = finish_func(&wl->funcs[k], b, addr);
		snprintf(wl->funcs[k].name, sizeof(wl->funcs[k].name), "phase_%02u", k);
	}
	return err;
}

/*
 * What the executor does (wl_op.exec): the op kinds, with the conditionals
 * that draw nothing, never or always taken, told apart from those that
 * draw, as the per-mille chance of the first version decided them.
 */
enum wl_exec_op {
	WL_X_INSNS,
	WL_X_LOOP,
	WL_X_END,
	WL_X_COND,		/* taken when the draw is below op->bound */
	WL_X_COND_NEVER,	/* 0 per mille */
	WL_X_COND_ALWAYS,	/* 1000 per mille */
	WL_X_RCALL,
	WL_X_CALL,
	WL_X_RET,
	/*
	 * A block and the op after it, the body of a loop with an "if":
	 * the block's retire, the budget check between the two, then the
	 * op, without going round the dispatch.
	 */
	WL_X_INSNS_COND,
	WL_X_INSNS_END,
	/*
	 * The first block of such a loop body, when the body is just that:
	 * the block, a conditional over a second block, the back-edge, and
	 * the loop is counted (not main's endless one). It runs whole
	 * iterations in one op, checking the budget where the single ops
	 * would, and leaves at any of them as they would.
	 */
	WL_X_IF_LOOP,
};

/* Every address and decision the executor needs, worked out once: see struct wl_op. */
static void link_ops(struct workload *wl)
{
	static const uint8_t exec_of[] = {
		[WL_OP_INSNS] = WL_X_INSNS, [WL_OP_CALL] = WL_X_CALL,
		[WL_OP_RCALL] = WL_X_RCALL, [WL_OP_LOOP] = WL_X_LOOP,
		[WL_OP_END] = WL_X_END, [WL_OP_COND] = WL_X_COND, [WL_OP_RET] = WL_X_RET,
	};

	for (uint32_t f = 0; f < wl->nr_funcs; f++) {
		struct wl_func *fn = &wl->funcs[f];

		for (uint32_t i = 0; i < fn->nr_ops; i++) {
			struct wl_op *op = &fn->ops[i];

			op->exec = exec_of[op->kind];
			op->at = fn->addr + op->pc;
			op->next = i + 1 < fn->nr_ops ? fn->addr + fn->ops[i + 1].pc
						      : fn->addr + fn->size;
			op->to = 0;
			op->bound = 0;
			op->target = NULL;
			switch (op->kind) {
			case WL_OP_END:
				op->to = fn->addr + fn->ops[op->match].pc;
				op->target = &fn->ops[op->match + 1];
				break;
			case WL_OP_COND:
				/* inside the function: emit_if() puts an op after it, and RET ends every function */
				op->to = fn->addr + fn->ops[op->match].pc;
				op->target = &fn->ops[op->match];
				if (op->arg == 0)
					op->exec = WL_X_COND_NEVER;
				else if (op->arg >= 1000)
					op->exec = WL_X_COND_ALWAYS;
				else
					op->bound = prng_permille_bound(op->arg);
				break;
			case WL_OP_CALL:
			case WL_OP_RCALL:
				op->to = wl->funcs[op->arg].addr;
				op->target = wl->funcs[op->arg].ops;
				break;
			default:
				break;
			}
		}
		for (uint32_t i = 0; i + 1 < fn->nr_ops; i++) {
			struct wl_op *op = &fn->ops[i];

			if (op->exec == WL_X_INSNS && op[1].exec == WL_X_COND)
				op->exec = WL_X_INSNS_COND;
			else if (op->exec == WL_X_INSNS && op[1].exec == WL_X_END)
				op->exec = WL_X_INSNS_END;
		}
		for (uint32_t i = 1; i + 3 < fn->nr_ops; i++) {
			struct wl_op *op = &fn->ops[i];

			if (op[-1].exec == WL_X_LOOP && op[-1].arg && op[-1].match == i + 3 &&
			    op->exec == WL_X_INSNS_COND && op[1].match == i + 3 &&
			    op[2].exec == WL_X_INSNS_END)
				op->exec = WL_X_IF_LOOP;
		}
	}
}

struct workload *workload_build(const struct wl_params *params)
{
	const struct wl_params *p = params;
	struct wl_builder b = { 0 };
	struct workload *wl;
	uint64_t addr;
	int err;

	if (!p->depth || p->depth >= WL_MAX_DEPTH - 1 || !p->leaf_loops || !p->mid_loops ||
	    !p->outer_loops || p->cond_permille > 1000 || p->mispredict_permille > 1000 ||
	    p->mispredict_penalty > 1000 || (p->kind == WL_RANDOM && p->depth < 2) ||
	    (p->kind == WL_PHASES && (p->depth > WL_MAX_PHASES ||
				      p->leaf_loops >> (p->depth - 1) == 0)) ||
	    p->kind > WL_PHASES || p->code_base >= (1ULL << 47)) {
		errno = EINVAL;
		return NULL;
	}
	wl = calloc(1, sizeof(*wl));
	if (!wl)
		goto nomem;
	wl->params = *p;
	wl->nr_funcs = p->kind == WL_RECURSION ? 2 : p->kind == WL_RANDOM ? p->depth : p->depth + 1;
	wl->funcs = calloc(wl->nr_funcs, sizeof(*wl->funcs));
	if (!wl->funcs)
		goto nomem;
	addr = p->code_base;
	switch (p->kind) {
	case WL_TCHAIN:
		err = build_tchain(wl, &b, &addr);
		break;
	case WL_RECURSION:
		err = build_recursion(wl, &b, &addr);
		break;
	case WL_PHASES:
		err = build_phases(wl, &b, &addr);
		break;
	default:
		err = build_random(wl, &b, &addr);
		break;
	}
	if (err) {
		workload_free(wl);
		errno = -err;
		return NULL;
	}
	link_ops(wl);
	return wl;
nomem:
	workload_free(wl);
	errno = ENOMEM;
	return NULL;
}

void workload_free(struct workload *wl)
{
	if (!wl)
		return;
	for (uint32_t i = 0; wl->funcs && i < wl->nr_funcs; i++)
		free(wl->funcs[i].ops);
	free(wl->funcs);
	free(wl);
}

const struct wl_func *workload_func_at(const struct workload *wl, uint64_t addr)
{
	uint32_t lo = 0, hi = wl->nr_funcs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct wl_func *f = &wl->funcs[mid];

		if (addr < f->addr)
			hi = mid;
		else if (addr >= f->addr + f->size)
			lo = mid + 1;
		else
			return f;
	}
	return NULL;
}

/* ---- running -------------------------------------------------------------- */

int wl_exec_init(struct wl_exec *x, const struct workload *wl, uint64_t seed)
{
	memset(x, 0, offsetof(struct wl_exec, stack));
	x->wl = wl;
	x->rng = seed;
	x->nr_used = PRNG_BATCH;	/* none made yet */
	x->self_insns = calloc(wl->nr_funcs, sizeof(*x->self_insns));
	x->self_mispredicts = calloc(wl->nr_funcs, sizeof(*x->self_mispredicts));
	if (!x->self_insns || !x->self_mispredicts) {
		wl_exec_fini(x);
		return -ENOMEM;
	}
	memset(&x->stack[0], 0, sizeof(x->stack[0]));
	x->depth = 1;
	x->max_depth = 1;
	return 0;
}

void wl_exec_fini(struct wl_exec *x)
{
	free(x->self_insns);
	free(x->self_mispredicts);
	x->self_insns = NULL;
	x->self_mispredicts = NULL;
}

uint64_t wl_exec_ip(const struct wl_exec *x)
{
	const struct wl_frame *f = &x->stack[x->depth - 1];
	const struct wl_func *fn = &x->wl->funcs[f->func];

	return fn->addr + fn->ops[f->op].pc;
}

unsigned int wl_exec_callstack(const struct wl_exec *x, uint64_t *ips, unsigned int max)
{
	unsigned int n = 0;

	if (max)
		ips[n++] = wl_exec_ip(x);
	for (uint32_t d = x->depth - 1; d > 0 && n < max; d--) {
		const struct wl_frame *caller = &x->stack[d - 1];
		const struct wl_func *fn = &x->wl->funcs[caller->func];

		ips[n++] = fn->addr + fn->ops[caller->op].pc;
	}
	return n;
}


/*
 * The run loop, written once and instantiated twice: @direct retires into
 * sink->model (the simulator), otherwise through the sink's callbacks
 * (tests, tools). Everything hot lives in locals; what a callback may look
 * at (depth, the frames' op indexes) is stored before each retire. The
 * ground truth of the running function gathers in @own and goes to its
 * self_insns when it calls, returns or the run ends.
 */
static __attribute__((always_inline)) inline uint64_t
exec_run(struct wl_exec *x, uint64_t budget, const struct wl_sink *sink, const bool direct)
{
	const struct workload *wl = x->wl;
	const uint32_t mis_permille = wl->params.mispredict_permille;
	/* as chance() decided it: 0 and 1000 per mille draw nothing */
	const bool mis_draws = mis_permille && mis_permille < 1000;
	const bool mis_always = mis_permille >= 1000;
	const uint64_t mis_bound = mis_draws ? prng_permille_bound(mis_permille) : 0;
	const unsigned int penalty = wl->params.mispredict_penalty;
	const uint32_t max_call_depth = wl->params.depth;
	struct model_cpu *model = sink->model;
	uint64_t *ip = sink->ip;
	uint64_t *self = x->self_insns;
	uint64_t *self_mis = x->self_mispredicts;
	uint64_t start = x->cycles, cycles = start, end = start + budget;
	uint64_t branches = 0, calls = 0, own = 0;
	uint32_t depth = x->depth;
	struct wl_frame *f = &x->stack[depth - 1];
	uint32_t func = f->func;
	const struct wl_op *ops = wl->funcs[func].ops;
	const struct wl_op *op = &ops[f->op];
	uint32_t used = x->nr_used;	/* draws[] taken */

/* The task's next draw: what prng_next(&x->rng) gave before draws were made ahead. */
#define NEXT_DRAW() ({								\
		if (__builtin_expect(used == PRNG_BATCH, 0)) {			\
			prng_fill(&x->rng, x->draws);				\
			used = 0;						\
		}								\
		x->draws[used++];						\
	})

/* @n straight-line instructions of the current function; the PMI ip is @at_ip. */
#define RETIRE_INSNS(n, at_ip) do {						\
		uint64_t n_ = (n);						\
									\
		cycles += n_;							\
		own += n_;							\
		if (direct) {							\
			*ip = (at_ip);						\
			model_retire_insns(model, n_, n_, true);		\
		} else {							\
			f->op = (uint32_t)(op - ops);				\
			sink->insns(sink->ctx, n_, n_);				\
		}								\
	} while (0)
/* Whether a taken conditional branch of the current function mispredicts. */
#define MISPREDICTS() ({							\
		bool mis_ = __builtin_expect(mis_draws, 1) ? NEXT_DRAW() < mis_bound : mis_always; \
									\
		if (mis_)							\
			self_mis[func]++;					\
		mis_;								\
	})
/* A taken branch; the caller has charged it to a function's ground truth. */
#define RETIRE_BRANCH(from, to_, type, mis) do {				\
		bool m_ = (mis);						\
		unsigned int cyc_ = 1 + (m_ ? penalty : 0);			\
									\
		branches++;							\
		cycles += cyc_;							\
		if (direct) {							\
			*ip = (to_);						\
			model_retire_branch(model, from, to_, type, true, m_, cyc_); \
		} else {							\
			f->op = (uint32_t)(op - ops);				\
			sink->branch(sink->ctx, from, to_, type, m_, cyc_);	\
		}								\
	} while (0)

	while (cycles < end) {
		const struct wl_op *cur = op;

		switch (cur->exec) {
		case WL_X_INSNS:
			op++;
			RETIRE_INSNS(cur->arg, cur->next);
			break;
		case WL_X_LOOP:
			f->loop_left[f->nr_loops++] = cur->arg;
			op++;
			break;
		case WL_X_IF_LOOP: {
			/* cur: the block; then the conditional, the block it skips, the back-edge */
			const struct wl_op *cond = cur + 1, *skipped = cur + 2, *back = cur + 3;
			uint32_t *left_at = &f->loop_left[f->nr_loops - 1];
			uint32_t left = *left_at;	/* in the frame again when the op ends */

			for (;;) {
				/*
				 * Whole iterations without a branch on their
				 * draws: the host would mispredict half of the
				 * conditionals, which cost more than the rest of
				 * the iteration. The draws the ops below would
				 * take are looked at, the outcome worked out by
				 * arithmetic, and the draws taken only when the
				 * iteration retires this way. Wherever the ops
				 * could stop or go another way (the run's end,
				 * the budget, the LBR, the loop's last
				 * iteration, a refill of the draws) they run
				 * instead, and draw the same. A loop of its own,
				 * with its own locals, so that they stay in
				 * registers.
				 */
				if (direct) {
					const uint64_t bound = cond->bound, a = cur->arg;
					/* not taken: the jcc and the skipped block */
					const uint64_t n = 1 + (uint64_t)skipped->arg;
					uint64_t mis = 0;

					while (__builtin_expect(used + 2 < PRNG_BATCH && left > 1, 1)) {
						uint64_t t = x->draws[used] < bound, mask = -t;
						uint64_t m = t & (mis_draws ? x->draws[used + 1] < mis_bound
									    : mis_always);
						uint32_t back_draw = used + 1 + (uint32_t)(t & mis_draws);
						uint64_t mb = mis_draws ? x->draws[back_draw] < mis_bound
									: mis_always;
						uint64_t cyc = 1 + (penalty & -m);
						uint64_t back_cyc = 1 + (penalty & -mb);
						uint64_t step = a + ((cyc & mask) | (n & ~mask)) + back_cyc;
						uint64_t reach = 2 * a + (((1 + cyc) & mask) | (2 * n & ~mask)) +
								 1 + back_cyc;

						if (!__builtin_expect(cycles + step < end, 1) ||
						    !model_retire_user_branches(model, reach, step, t + 1,
										m + mb, 1u << MODEL_BR_JCC))
							break;
						used = back_draw + mis_draws;
						cycles += step;
						own += a + ((1 & mask) | (n & ~mask)) + 1;
						branches += t + 1;
						mis += m + mb;
						left--;
					}
					self_mis[func] += mis;
					/*
					 * No *ip: no PMI falls in these iterations,
					 * and the ops below store theirs before they
					 * retire, as the slice's last retire always
					 * is theirs.
					 */
				}
				op = cond;
				RETIRE_INSNS(cur->arg, cur->next);
				if (cycles >= end)
					break;
				if (NEXT_DRAW() < cond->bound) {
					op = back;
					own++;
					RETIRE_BRANCH(cond->at, cond->to, MODEL_BR_JCC, MISPREDICTS());
				} else {
					op = skipped;
					RETIRE_INSNS(1, cond->next);
					if (cycles >= end)
						break;
					op = back;
					RETIRE_INSNS(skipped->arg, skipped->next);
				}
				if (cycles >= end)
					break;
				/* counted: link_ops() leaves the endless loops to the single ops */
				if (--left == 0) {
					f->nr_loops--;
					op = back + 1;
					RETIRE_INSNS(1, back->next);
					break;
				}
				op = cur;
				own++;
				RETIRE_BRANCH(back->at, back->to, MODEL_BR_JCC, MISPREDICTS());
				if (cycles >= end)
					break;
			}
			*left_at = left;
			break;
		}
		case WL_X_INSNS_END:
		case WL_X_INSNS_COND:
			op++;
			RETIRE_INSNS(cur->arg, cur->next);
			if (cycles >= end)
				break;
			cur = op;
			if (cur->exec == WL_X_COND)
				goto conditional;
			/* fall through */
		case WL_X_END: {
			uint32_t *left = &f->loop_left[f->nr_loops - 1];
			/* arg 0 loops forever: the counter stays 0 */
			if (*left != 1) {
				*left -= *left != 0;
				op = cur->target;
				own++;
				RETIRE_BRANCH(cur->at, cur->to, MODEL_BR_JCC, MISPREDICTS());
			} else {
				f->nr_loops--;
				op++;
				RETIRE_INSNS(1, cur->next);
			}
			break;
		}
		case WL_X_COND:
conditional:
			if (NEXT_DRAW() < cur->bound)
				goto cond_taken;
			/* fall through */
		case WL_X_COND_NEVER:
			op++;
			RETIRE_INSNS(1, cur->next);
			break;
		case WL_X_COND_ALWAYS:
cond_taken:
			op = cur->target;
			own++;
			RETIRE_BRANCH(cur->at, cur->to, MODEL_BR_JCC, MISPREDICTS());
			break;
		case WL_X_RCALL:
			if (depth > max_call_depth) {
				op++;
				own++;
				RETIRE_BRANCH(cur->at, cur->next, MODEL_BR_JCC, MISPREDICTS());
				break;
			}
			/* the jcc over the call falls through */
			RETIRE_INSNS(1, cur->at);
			/* fall through */
		case WL_X_CALL: {
			uint64_t from = cur->at + (cur->exec == WL_X_RCALL ? RCALL_JCC_BYTES : 0);

			op++;
			/* workload_build() bounds every program's depth below this */
			if (NEVER(depth == WL_MAX_DEPTH))
				break;
			f->op = (uint32_t)(op - ops);
			self[func] += own + 1;	/* the call is the caller's */
			own = 0;
			f = &x->stack[depth++];
			func = cur->arg;
			f->func = func;
			f->op = 0;
			f->nr_loops = 0;
			x->depth = depth;
			if (depth > x->max_depth)
				x->max_depth = depth;
			calls++;
			ops = cur->target;
			op = ops;
			RETIRE_BRANCH(from, cur->to, MODEL_BR_NEAR_REL_CALL, false);
			break;
		}
		case WL_X_RET:
			/* main loops for ever (its loop count is 0): it never gets to its ret */
			if (NEVER(depth == 1)) {
				/* main returned: start the program again */
				op = ops;
				f->nr_loops = 0;
				RETIRE_INSNS(1, ops[0].at);
				break;
			}
			self[func] += own + 1;	/* the return is the callee's */
			own = 0;
			x->depth = --depth;
			f = &x->stack[depth - 1];
			func = f->func;
			ops = wl->funcs[func].ops;
			op = &ops[f->op];
			RETIRE_BRANCH(cur->at, op->at, MODEL_BR_NEAR_RET, false);
			break;
		default:
			__builtin_unreachable();	/* link_ops() sets only the kinds above */
		}
	}
#undef NEXT_DRAW
#undef RETIRE_INSNS
#undef MISPREDICTS
#undef RETIRE_BRANCH
	f->op = (uint32_t)(op - ops);
	x->nr_used = used;
	self[func] += own;
	x->depth = depth;
	/* every instruction and mispredict went to one function's count: totals are sums */
	x->insns = x->mispredicts = 0;
	for (uint32_t i = 0; i < wl->nr_funcs; i++) {
		x->insns += self[i];
		x->mispredicts += self_mis[i];
	}
	x->branches += branches;
	x->calls += calls;
	x->cycles = cycles;
	return cycles - start;
}

uint64_t wl_exec_run(struct wl_exec *x, uint64_t budget, const struct wl_sink *sink)
{
	if (sink->model)
		return exec_run(x, budget, sink, true);
	return exec_run(x, budget, sink, false);
}
