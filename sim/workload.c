// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload executor: builds a program (sim/workload.h) and runs it,
 * one op at a time, against a sink. The run loop allocates nothing and
 * draws from the PRNG only where an outcome is random.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	p->depth = kind == WL_RANDOM ? 64 : 43;
	p->leaf_loops = 10000;
	p->mid_loops = kind == WL_TCHAIN ? 100 : 8;
	p->outer_loops = 10000;
	p->cond_permille = 500;
	p->mispredict_permille = 20;
	p->mispredict_penalty = 15;
	p->code_base = 0x401000;
	p->seed = 1;
}

/* ---- building ------------------------------------------------------------- */

struct wl_builder {
	struct wl_op ops[64];
	uint32_t nr;
	uint32_t open[WL_MAX_LOOPS];
	uint32_t nr_open;
	bool overflow;
};

static void emit(struct wl_builder *b, enum wl_op_kind kind, uint32_t arg)
{
	if (b->nr == sizeof(b->ops) / sizeof(b->ops[0])) {
		b->overflow = true;
		return;
	}
	b->ops[b->nr++] = (struct wl_op){ .kind = kind, .arg = arg };
}

static void loop_begin(struct wl_builder *b, uint32_t count)
{
	if (b->nr_open == WL_MAX_LOOPS) {
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
	if (b->overflow)
		return;
	b->ops[start].match = b->nr - 1;
	b->ops[b->nr - 1].match = start;
}

/* Lay the ops out, copy them into the function and place it at *addr. */
static int finish_func(struct wl_func *f, struct wl_builder *b, uint64_t *addr)
{
	uint32_t pc = 0;

	if (b->overflow || b->nr_open)
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
	    p->kind > WL_RANDOM || p->code_base >= (1ULL << 47)) {
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
	default:
		err = build_random(wl, &b, &addr);
		break;
	}
	if (err) {
		workload_free(wl);
		errno = -err;
		return NULL;
	}
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
	x->self_insns = calloc(wl->nr_funcs, sizeof(*x->self_insns));
	x->self_cycles = calloc(wl->nr_funcs, sizeof(*x->self_cycles));
	if (!x->self_insns || !x->self_cycles) {
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
	free(x->self_cycles);
	x->self_insns = NULL;
	x->self_cycles = NULL;
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

static inline bool chance(uint64_t *rng, uint32_t permille)
{
	if (permille == 0)
		return false;
	if (permille >= 1000)
		return true;
	return prng_below(rng, 1000) < permille;
}

/* One taken branch: the counters, then the sink (which may take a PMI). */
static inline void retire_branch(struct wl_exec *x, const struct wl_sink *sink,
				 uint32_t func, uint64_t from, uint64_t to,
				 enum model_branch_type type, bool conditional)
{
	const struct wl_params *p = &x->wl->params;
	bool mispred = conditional && chance(&x->rng, p->mispredict_permille);
	unsigned int cycles = 1 + (mispred ? p->mispredict_penalty : 0);

	x->insns++;
	x->branches++;
	x->mispredicts += mispred;
	x->cycles += cycles;
	x->self_insns[func]++;
	x->self_cycles[func] += cycles;
	sink->branch(sink->ctx, from, to, type, mispred, cycles);
}

static inline void retire_insns(struct wl_exec *x, const struct wl_sink *sink,
				uint32_t func, uint64_t n)
{
	x->insns += n;
	x->cycles += n;
	x->self_insns[func] += n;
	x->self_cycles[func] += n;
	sink->insns(sink->ctx, n, n);
}

uint64_t wl_exec_run(struct wl_exec *x, uint64_t budget, const struct wl_sink *sink)
{
	const struct workload *wl = x->wl;
	uint64_t start = x->cycles, end = start + budget;

	while (x->cycles < end) {
		struct wl_frame *f = &x->stack[x->depth - 1];
		const struct wl_func *fn = &wl->funcs[f->func];
		const struct wl_op *op = &fn->ops[f->op];
		uint64_t at = fn->addr + op->pc;

		switch (op->kind) {
		case WL_OP_INSNS:
			f->op++;
			retire_insns(x, sink, f->func, op->arg);
			break;
		case WL_OP_LOOP:
			f->loop_left[f->nr_loops++] = op->arg;
			f->op++;
			break;
		case WL_OP_END: {
			uint32_t *left = &f->loop_left[f->nr_loops - 1];
			/* arg 0 loops forever: the counter stays 0 */
			if (*left != 1) {
				const struct wl_op *start_op = &fn->ops[op->match];

				if (*left)
					(*left)--;
				f->op = op->match + 1;
				retire_branch(x, sink, f->func, at, fn->addr + start_op->pc,
					      MODEL_BR_JCC, true);
			} else {
				f->nr_loops--;
				f->op++;
				retire_insns(x, sink, f->func, 1);
			}
			break;
		}
		case WL_OP_COND:
			if (chance(&x->rng, op->arg)) {
				f->op = op->match;
				retire_branch(x, sink, f->func, at, fn->addr + fn->ops[op->match].pc,
					      MODEL_BR_JCC, true);
			} else {
				f->op++;
				retire_insns(x, sink, f->func, 1);
			}
			break;
		case WL_OP_RCALL:
			if (x->depth > wl->params.depth) {
				f->op++;
				retire_branch(x, sink, f->func, at, fn->addr + fn->ops[f->op].pc,
					      MODEL_BR_JCC, true);
				break;
			}
			retire_insns(x, sink, f->func, 1);
			at += RCALL_JCC_BYTES;
			/* fall through */
		case WL_OP_CALL: {
			uint32_t caller = f->func;
			struct wl_frame *callee;

			if (x->depth == WL_MAX_DEPTH) {
				/* workload_build() bounds every program below this */
				f->op++;
				break;
			}
			f->op++;
			callee = &x->stack[x->depth++];
			callee->func = op->arg;
			callee->op = 0;
			callee->nr_loops = 0;
			if (x->depth > x->max_depth)
				x->max_depth = x->depth;
			x->calls++;
			retire_branch(x, sink, caller, at, wl->funcs[op->arg].addr,
				      MODEL_BR_NEAR_REL_CALL, false);
			break;
		}
		case WL_OP_RET: {
			uint32_t func = f->func;

			if (x->depth == 1) {
				/* main returned: start the program again */
				f->op = 0;
				f->nr_loops = 0;
				retire_insns(x, sink, func, 1);
				break;
			}
			x->depth--;
			retire_branch(x, sink, func, at, wl_exec_ip(x), MODEL_BR_NEAR_RET, false);
			break;
		}
		}
	}
	return x->cycles - start;
}
