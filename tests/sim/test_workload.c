// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload executor: exact instruction, branch and cycle counts of a
 * small tchain worked out by hand, the true call stack at every call,
 * the depths each kind reaches, the symbol layout, and determinism in
 * the seed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "sim/workload.h"

struct rec {
	const struct workload *wl;
	struct wl_exec *x;
	uint64_t branches, calls, rets, jcc, insns, cycles, mispred;
	uint64_t hash;
	unsigned int bad_stack;
};

static void rec_branch(void *ctx, uint64_t from, uint64_t to, enum model_branch_type type,
		       bool mispred, unsigned int cycles)
{
	struct rec *r = ctx;

	r->branches++;
	r->insns++;
	r->cycles += cycles;
	r->mispred += mispred;
	r->calls += type == MODEL_BR_NEAR_REL_CALL;
	r->rets += type == MODEL_BR_NEAR_RET;
	r->jcc += type == MODEL_BR_JCC;
	r->hash = (r->hash ^ from ^ (to << 1) ^ type ^ ((uint64_t)mispred << 7)) * 0x100000001b3ULL;
	if (r->x && type == MODEL_BR_NEAR_REL_CALL) {
		/* the stack is already the callee's: its ip is the target */
		uint64_t ips[WL_MAX_DEPTH];
		unsigned int n = wl_exec_callstack(r->x, ips, WL_MAX_DEPTH);
		const struct wl_func *f = workload_func_at(r->wl, ips[0]);

		if (n != r->x->depth || ips[0] != to || !f || f->addr != to)
			r->bad_stack++;
		/* every return address lies in the caller, just after a call to its callee */
		for (unsigned int i = 1; i < n; i++) {
			const struct wl_func *caller = workload_func_at(r->wl, ips[i]);
			const struct wl_func *callee = workload_func_at(r->wl, ips[i - 1]);

			if (!caller || !callee ||
			    caller != &r->wl->funcs[r->x->stack[n - 1 - i].func] ||
			    callee != &r->wl->funcs[r->x->stack[n - i].func])
				r->bad_stack++;
		}
	}
}

static void rec_insns(void *ctx, uint64_t n, uint64_t cycles)
{
	struct rec *r = ctx;

	r->insns += n;
	r->cycles += cycles;
	r->hash = (r->hash ^ n) * 0x100000001b3ULL;
}

static struct workload *small_tchain(unsigned int cond)
{
	struct wl_params p;

	wl_params_default(&p, WL_TCHAIN);
	p.depth = 3;
	p.leaf_loops = 2;
	p.mid_loops = 2;
	p.outer_loops = 2;
	p.cond_permille = cond;
	p.mispredict_permille = 0;
	return workload_build(&p);
}

/*
 * depth 3 (outer f01, mid f02, leaf f03), loops of 2, conditionals never
 * taken. One pass of main: main 2 (call, back-edge), f01 14, f02 2x17,
 * f03 2x18 = 86 instructions, all one cycle; branches: main 2, f01 4
 * (2 calls, back-edge, ret), f02 2x3, f03 2x2 = 16; calls 5.
 */
static void tchain_exact_counts_by_hand(void **state)
{
	struct workload *wl = small_tchain(0);
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;

	(void)state;
	assert_non_null(wl);
	assert_int_equal(wl->nr_funcs, 4);
	assert_int_equal(wl_exec_init(&x, wl, 1), 0);
	r.wl = wl;
	r.x = &x;
	assert_int_equal(wl_exec_run(&x, 86, &sink), 86);
	assert_int_equal(x.insns, 86);
	assert_int_equal(x.cycles, 86);
	assert_int_equal(x.branches, 16);
	assert_int_equal(x.calls, 5);
	assert_int_equal(x.self_insns[0], 2);
	assert_int_equal(x.self_insns[1], 14);
	assert_int_equal(x.self_insns[2], 34);
	assert_int_equal(x.self_insns[3], 36);
	assert_int_equal(r.insns, 86);
	assert_int_equal(r.branches, 16);
	assert_int_equal(r.calls, 5);
	assert_int_equal(r.rets, 5);
	assert_int_equal(r.jcc, 6);
	assert_int_equal(r.bad_stack, 0);
	/* back at main's loop, with nothing on the stack */
	assert_int_equal(x.depth, 1);
	assert_int_equal(x.max_depth, 4);
	/* the next pass is the same */
	assert_int_equal(wl_exec_run(&x, 86, &sink), 86);
	assert_int_equal(x.self_insns[3], 72);
	wl_exec_fini(&x);
	workload_free(wl);
}

/* Always taken: each taken COND skips a block and becomes a branch. */
static void tchain_taken_conditionals(void **state)
{
	struct workload *wl = small_tchain(1000);
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;

	(void)state;
	assert_int_equal(wl_exec_init(&x, wl, 1), 0);
	/*
	 * f02: 2 + 2x(3 + jcc) + 2 + 1 + 1 + 1 = 15, f03: 2 + 2x(3 + jcc) + 2 + 1 + 1 = 14:
	 * 2 + 14 + 2x15 + 2x14 = 74 instructions, 16 + 8 = 24 branches.
	 */
	assert_int_equal(wl_exec_run(&x, 74, &sink), 74);
	assert_int_equal(x.insns, 74);
	assert_int_equal(x.branches, 24);
	assert_int_equal(x.self_insns[2], 30);
	assert_int_equal(x.self_insns[3], 28);
	wl_exec_fini(&x);
	workload_free(wl);
}

/* Default tchain: main + 43 functions, names perf's map parser takes, depth 44. */
static void tchain_default_is_the_seeds(void **state)
{
	struct wl_params p;
	struct workload *wl;
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;

	(void)state;
	wl_params_default(&p, WL_TCHAIN);
	assert_int_equal(p.depth, 43);
	assert_int_equal(p.leaf_loops, 10000);
	assert_int_equal(p.mid_loops, 100);
	assert_int_equal(p.outer_loops, 10000);
	wl = workload_build(&p);
	assert_non_null(wl);
	assert_int_equal(wl->nr_funcs, 44);
	assert_string_equal(wl->funcs[1].name, "tchain_f01");
	assert_string_equal(wl->funcs[43].name, "tchain_f43");
	for (uint32_t i = 0; i < wl->nr_funcs; i++) {
		assert_true(strlen(wl->funcs[i].name) >= 3);
		assert_ptr_equal(workload_func_at(wl, wl->funcs[i].addr), &wl->funcs[i]);
		assert_ptr_equal(workload_func_at(wl, wl->funcs[i].addr + wl->funcs[i].size - 1),
				 &wl->funcs[i]);
		if (i)
			assert_true(wl->funcs[i].addr >= wl->funcs[i - 1].addr + wl->funcs[i - 1].size);
	}
	assert_null(workload_func_at(wl, p.code_base - 1));
	assert_int_equal(wl_exec_init(&x, wl, 7), 0);
	r.wl = wl;
	r.x = &x;
	wl_exec_run(&x, 2000000, &sink);
	assert_int_equal(x.max_depth, 44);
	assert_int_equal(r.bad_stack, 0);
	/* the leaf's loop is where the time goes */
	assert_true(x.self_insns[43] > x.insns / 2);
	assert_int_equal(r.cycles, x.cycles);
	assert_int_equal(r.mispred, x.mispredicts);
	assert_true(x.mispredicts > 0);
	wl_exec_fini(&x);
	workload_free(wl);
}

static void recursion_reaches_its_depth(void **state)
{
	struct wl_params p;
	struct workload *wl;
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;

	(void)state;
	wl_params_default(&p, WL_RECURSION);
	p.depth = 60;
	wl = workload_build(&p);
	assert_non_null(wl);
	assert_int_equal(wl_exec_init(&x, wl, 3), 0);
	r.wl = wl;
	r.x = &x;
	wl_exec_run(&x, 200000, &sink);
	assert_int_equal(x.max_depth, 61);
	assert_int_equal(r.bad_stack, 0);
	assert_true(r.rets > 60);
	wl_exec_fini(&x);
	workload_free(wl);
}

static uint64_t run_hash(const struct wl_params *p, uint64_t seed, uint32_t *max_depth)
{
	struct workload *wl = workload_build(p);
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;

	assert_non_null(wl);
	assert_int_equal(wl_exec_init(&x, wl, seed), 0);
	r.wl = wl;
	r.x = &x;
	wl_exec_run(&x, 300000, &sink);
	assert_int_equal(r.bad_stack, 0);
	*max_depth = x.max_depth;
	wl_exec_fini(&x);
	workload_free(wl);
	return r.hash;
}

static void random_graph_deterministic_in_seeds(void **state)
{
	struct wl_params p;
	uint32_t d1, d2, d3;
	uint64_t a, b, c, g;

	(void)state;
	wl_params_default(&p, WL_RANDOM);
	p.depth = 40;
	a = run_hash(&p, 11, &d1);
	b = run_hash(&p, 11, &d2);
	c = run_hash(&p, 12, &d3);
	assert_true(a == b);
	assert_int_equal(d1, d2);
	assert_true(a != c);
	assert_true(d1 > 2);
	p.seed = 99;		/* another graph */
	g = run_hash(&p, 11, &d3);
	assert_true(g != a);
}

/*
 * Phases: main calls each phase in turn; phase k retires about leaf_loops
 * instructions per call with a taken conditional every 2^(k-1) of them,
 * so its CPI, worked out from the ground truth, is about
 * 1 + penalty * mispredict rate / 2^(k-1).
 */
static void phases_have_their_cpi(void **state)
{
	struct wl_params p;
	struct workload *wl;
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;
	double rate, prev = 1e9;

	(void)state;
	wl_params_default(&p, WL_PHASES);
	assert_int_equal(p.depth, 4);
	assert_int_equal(p.leaf_loops, 32768);
	p.leaf_loops = 4096;
	p.mispredict_permille = 250;
	p.mispredict_penalty = 12;
	wl = workload_build(&p);
	assert_non_null(wl);
	assert_int_equal(wl->nr_funcs, 5);
	assert_string_equal(wl->funcs[0].name, "main");
	assert_string_equal(wl->funcs[1].name, "phase_01");
	assert_string_equal(wl->funcs[4].name, "phase_04");
	assert_int_equal(wl_exec_init(&x, wl, 5), 0);
	r.wl = wl;
	r.x = &x;
	wl_exec_run(&x, 3000000, &sink);
	assert_int_equal(r.bad_stack, 0);
	assert_int_equal(x.max_depth, 2);
	assert_int_equal(r.cycles, x.cycles);
	assert_int_equal(r.mispred, x.mispredicts);
	rate = (double)x.mispredicts / (double)r.jcc;
	assert_true(rate > 0.23 && rate < 0.27);
	for (uint32_t k = 1; k <= 4; k++) {
		double cpi = (double)(x.self_insns[k] + p.mispredict_penalty * x.self_mispredicts[k]) /
			     (double)x.self_insns[k];
		double want = 1.0 + p.mispredict_penalty * rate / (double)(1u << (k - 1));

		/* every phase as long as the others, within a call's worth */
		assert_true(x.self_insns[k] * 10 > x.self_insns[1] * 9);
		assert_true(x.self_insns[k] * 9 < x.self_insns[1] * 10);
		assert_true(fabs(cpi - want) < 0.05 * want);
		assert_true(cpi < prev);
		prev = cpi;
	}
	assert_true(x.self_insns[0] * 1000 < x.insns);	/* main only calls */
	wl_exec_fini(&x);
	workload_free(wl);
	/* every phase loops at least once; at most 16 of them */
	wl_params_default(&p, WL_PHASES);
	p.leaf_loops = 7;	/* phase_04 would loop 7 >> 3 = 0 times */
	errno = 0;
	assert_null(workload_build(&p));
	assert_int_equal(errno, EINVAL);
	p.leaf_loops = 8;
	wl = workload_build(&p);
	assert_non_null(wl);
	workload_free(wl);
	p.depth = 17;
	p.leaf_loops = 1u << 16;
	assert_null(workload_build(&p));
}

/* Every retire call of a run, in order, for comparing two runs. */
struct stream {
	uint64_t ev[60000][4];
	unsigned int nr;
};

static void stream_branch(void *ctx, uint64_t from, uint64_t to, enum model_branch_type type,
			  bool mispred, unsigned int cycles)
{
	struct stream *s = ctx;

	if (s->nr < sizeof(s->ev) / sizeof(s->ev[0])) {
		uint64_t *e = s->ev[s->nr++];

		e[0] = from;
		e[1] = to;
		e[2] = type | (uint64_t)mispred << 8;
		e[3] = cycles;
	}
}

static void stream_insns(void *ctx, uint64_t n, uint64_t cycles)
{
	struct stream *s = ctx;

	if (s->nr < sizeof(s->ev) / sizeof(s->ev[0])) {
		uint64_t *e = s->ev[s->nr++];

		e[0] = e[1] = UINT64_MAX;
		e[2] = n;
		e[3] = cycles;
	}
}

/*
 * A run cut into slices of 1 to 13 cycles stops in each at the first op
 * that reaches its budget, retires what one run does, and stops where
 * one run given the same total stops, with the same ground truth: the executor leaves and resumes at every op (the fused ones
 * included: a budget can run out inside a loop body the executor runs as
 * one op) without dropping, repeating or redrawing anything.
 */
static void slices_retire_what_one_run_does(void **state)
{
	static struct stream one, sliced;
	static const enum wl_kind kinds[] = { WL_TCHAIN, WL_RECURSION, WL_RANDOM, WL_PHASES };

	(void)state;
	for (unsigned int k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct wl_params p;
		struct workload *wl;
		struct wl_sink sink_one = { stream_branch, stream_insns, &one };
		struct wl_sink sink_sliced = { stream_branch, stream_insns, &sliced };
		struct wl_exec a, b;
		uint64_t total = 0;

		wl_params_default(&p, kinds[k]);
		p.mispredict_permille = 100;
		if (kinds[k] == WL_TCHAIN) {
			p.depth = 6;
			p.leaf_loops = 9;
			p.mid_loops = 3;
			p.outer_loops = 4;
		}
		if (kinds[k] == WL_PHASES)
			p.leaf_loops = 64;
		wl = workload_build(&p);
		assert_non_null(wl);
		assert_int_equal(wl_exec_init(&a, wl, 42), 0);
		assert_int_equal(wl_exec_init(&b, wl, 42), 0);
		sliced.nr = 0;
		for (unsigned int i = 0; total < 40000; i++) {
			unsigned int first = sliced.nr, last;
			uint64_t budget = 1 + i % 13, ran = wl_exec_run(&b, budget, &sink_sliced);
			uint64_t before = 0;

			/* it stops at the first op that reaches the budget */
			assert_true(ran >= budget && sliced.nr > first);
			last = sliced.nr - 1;
			/* (an RCALL's jcc and its call are one op) */
			if (sliced.ev[last][2] == MODEL_BR_NEAR_REL_CALL && last > first &&
			    sliced.ev[last - 1][0] == UINT64_MAX && sliced.ev[last - 1][2] == 1 &&
			    kinds[k] == WL_RECURSION)
				last--;
			for (unsigned int e = first; e < last; e++)
				before += sliced.ev[e][3];
			assert_true(before < budget);
			total += ran;
		}
		one.nr = 0;
		assert_int_equal(wl_exec_run(&a, total, &sink_one), total);
		assert_int_equal(one.nr, sliced.nr);
		assert_memory_equal(one.ev, sliced.ev, one.nr * sizeof(one.ev[0]));
		assert_int_equal(a.insns, b.insns);
		assert_int_equal(a.branches, b.branches);
		assert_int_equal(a.mispredicts, b.mispredicts);
		assert_int_equal(a.calls, b.calls);
		assert_int_equal(a.depth, b.depth);
		assert_int_equal(a.max_depth, b.max_depth);
		assert_int_equal(wl_exec_ip(&a), wl_exec_ip(&b));
		assert_memory_equal(a.self_insns, b.self_insns, wl->nr_funcs * sizeof(uint64_t));
		assert_memory_equal(a.self_mispredicts, b.self_mispredicts,
				    wl->nr_funcs * sizeof(uint64_t));
		/* and the next draws are the same ones */
		assert_int_equal(wl_exec_run(&a, 5000, &sink_one), wl_exec_run(&b, 5000, &sink_sliced));
		assert_memory_equal(a.self_insns, b.self_insns, wl->nr_funcs * sizeof(uint64_t));
		assert_true(a.mispredicts > 0 && a.calls > 0);
		wl_exec_fini(&a);
		wl_exec_fini(&b);
		workload_free(wl);
	}
}

static void bad_parameters_are_einval(void **state)
{
	struct wl_params p;

	(void)state;
	wl_params_default(&p, WL_TCHAIN);
	p.depth = 0;
	errno = 0;
	assert_null(workload_build(&p));
	assert_int_equal(errno, EINVAL);
	wl_params_default(&p, WL_TCHAIN);
	p.depth = WL_MAX_DEPTH;
	assert_null(workload_build(&p));
	wl_params_default(&p, WL_RANDOM);
	p.depth = 1;
	assert_null(workload_build(&p));
	wl_params_default(&p, WL_TCHAIN);
	p.cond_permille = 1001;
	assert_null(workload_build(&p));
	wl_params_default(&p, WL_TCHAIN);
	p.depth = 1;		/* the leaf alone */
	struct workload *wl = workload_build(&p);
	assert_non_null(wl);
	workload_free(wl);
}

/* Every parameter out of its range is EINVAL, one at a time. */
static void each_bad_parameter_is_einval(void **state)
{
	struct wl_params p;

	(void)state;
	for (int which = 0; which < 8; which++) {
		wl_params_default(&p, WL_TCHAIN);
		switch (which) {
		case 0: p.leaf_loops = 0; break;
		case 1: p.mid_loops = 0; break;
		case 2: p.outer_loops = 0; break;
		case 3: p.mispredict_permille = 1001; break;
		case 4: p.mispredict_penalty = 1001; break;
		case 5: p.kind = (enum wl_kind)(WL_PHASES + 1); break;
		case 6: p.code_base = 1ULL << 47; break;
		default: p.kind = WL_PHASES; p.depth = 17; p.leaf_loops = 1u << 20; break;
		}
		errno = 0;
		if (workload_build(&p) || errno != EINVAL)
			fail_msg("parameter set %d was taken", which);
	}
	/* the highest code address that still fits in user space */
	wl_params_default(&p, WL_TCHAIN);
	p.code_base = (1ULL << 47) - 4096;
	p.depth = 2;
	struct workload *wl = workload_build(&p);
	assert_non_null(wl);
	assert_true(wl->funcs[0].addr == p.code_base);
	workload_free(wl);
}

/* Addresses outside every function, and a call stack asked into no room. */
static void lookups_outside_the_program(void **state)
{
	struct workload *wl = small_tchain(0);
	const struct wl_func *last;
	struct wl_exec x;
	uint64_t ip;

	(void)state;
	assert_non_null(wl);
	last = &wl->funcs[wl->nr_funcs - 1];
	assert_null(workload_func_at(wl, wl->funcs[0].addr - 1));
	assert_null(workload_func_at(wl, last->addr + last->size));
	assert_ptr_equal(workload_func_at(wl, last->addr + last->size - 1), last);
	assert_int_equal(wl_exec_init(&x, wl, 1), 0);
	assert_int_equal(wl_exec_callstack(&x, &ip, 0), 0);
	assert_int_equal(wl_exec_callstack(&x, &ip, 1), 1);
	assert_true(ip == wl->funcs[0].addr);
	wl_exec_fini(&x);
	workload_free(wl);
}

/* mispredict_permille 1000: every taken conditional mispredicts, drawing nothing. */
static void every_taken_branch_mispredicts_at_1000(void **state)
{
	struct wl_params p;
	struct workload *wl;
	struct rec r = { 0 };
	struct wl_sink sink = { rec_branch, rec_insns, &r };
	struct wl_exec x;

	(void)state;
	wl_params_default(&p, WL_TCHAIN);
	p.depth = 3;
	p.leaf_loops = p.mid_loops = p.outer_loops = 2;
	p.cond_permille = 1000;
	p.mispredict_permille = 1000;
	p.mispredict_penalty = 10;
	wl = workload_build(&p);
	assert_non_null(wl);
	assert_int_equal(wl_exec_init(&x, wl, 1), 0);
	/* the 74 instructions of tchain_taken_conditionals, 14 of them taken jcc at 11 cycles */
	assert_int_equal(wl_exec_run(&x, 74 + 14 * 10, &sink), 74 + 14 * 10);
	assert_int_equal(x.insns, 74);
	assert_int_equal(r.jcc, 14);
	assert_int_equal(x.mispredicts, 14);
	assert_int_equal(r.mispred, 14);
	assert_int_equal(x.nr_used, PRNG_BATCH);	/* no draw made */
	wl_exec_fini(&x);
	workload_free(wl);
}

/*
 * The code bytes: a back-edge within a rel8 is "jne rel8"; one beyond it
 * (phase_07's body is 63 instructions, 252 bytes) is ud2.
 */
static void text_writes_each_op_and_ud2_past_rel8(void **state)
{
	struct wl_params p;
	struct workload *wl;
	uint64_t start, size;
	uint8_t *code;

	(void)state;
	wl_params_default(&p, WL_PHASES);
	p.depth = 8;
	wl = workload_build(&p);
	assert_non_null(wl);
	assert_int_equal(workload_text(wl, &code, &start, &size), 0);
	assert_true(start == wl->funcs[0].addr);
	for (uint32_t k = 1; k <= 8; k++) {
		const struct wl_func *fn = &wl->funcs[k];
		const struct wl_op *end = NULL;

		for (uint32_t i = 0; i < fn->nr_ops; i++)
			if (fn->ops[i].kind == WL_OP_END)
				end = &fn->ops[i];
		assert_non_null(end);
		const uint8_t *at = code + (end->at - start);
		int64_t rel = (int64_t)(end->to - (end->at + 2));

		if (rel >= -128) {
			assert_int_equal(at[0], 0x75);
			assert_int_equal((int8_t)at[1], rel);
		} else {
			assert_int_equal(at[0], 0x0f);
			assert_int_equal(at[1], 0x0b);
		}
		assert_true((k <= 6) == (rel >= -128));
		/* the body: add $1,%rax, over and over; then ret */
		if (fn->ops[1].kind == WL_OP_INSNS)
			assert_memory_equal(code + (fn->ops[1].at - start), "\x48\x83\xc0\x01", 4);
		assert_int_equal(code[fn->addr + fn->size - 1 - start], 0xc3);
	}
	/* main: call rel32 to phase_01 */
	assert_int_equal(code[wl->funcs[0].ops[1].at - start], 0xe8);
	free(code);
	workload_free(wl);

	/* recursion: jae over the call, then call rel32 back to itself */
	wl_params_default(&p, WL_RECURSION);
	wl = workload_build(&p);
	assert_non_null(wl);
	assert_int_equal(workload_text(wl, &code, &start, &size), 0);
	for (uint32_t i = 0; i < wl->funcs[1].nr_ops; i++) {
		const struct wl_op *op = &wl->funcs[1].ops[i];
		const uint8_t *at = code + (op->at - start);
		int32_t rel;

		if (op->kind != WL_OP_RCALL)
			continue;
		assert_memory_equal(at, "\x73\x05\xe8", 3);
		memcpy(&rel, at + 3, 4);
		assert_true(op->at + 7 + (int64_t)rel == wl->funcs[1].addr);
	}
	free(code);
	workload_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tchain_exact_counts_by_hand),
		cmocka_unit_test(tchain_taken_conditionals),
		cmocka_unit_test(tchain_default_is_the_seeds),
		cmocka_unit_test(recursion_reaches_its_depth),
		cmocka_unit_test(random_graph_deterministic_in_seeds),
		cmocka_unit_test(phases_have_their_cpi),
		cmocka_unit_test(slices_retire_what_one_run_does),
		cmocka_unit_test(bad_parameters_are_einval),
		cmocka_unit_test(each_bad_parameter_is_einval),
		cmocka_unit_test(lookups_outside_the_program),
		cmocka_unit_test(every_taken_branch_mispredicts_at_1000),
		cmocka_unit_test(text_writes_each_op_and_ud2_past_rel8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
