// SPDX-License-Identifier: GPL-2.0-only
/*
 * The executor's two ways into the model retire the same: a run whose
 * sink is a model CPU (the simulator's, sim/machine.c, which works out
 * whole iterations of a loop with an "if" by arithmetic) against the same
 * run through the sink's callbacks, which retire every block and branch
 * one call at a time into a second, identically programmed model CPU.
 * Sliced at budgets that stop runs anywhere, under PMUs programmed with
 * short periods (PMIs inside loops), call-stack LBR (conditionals not
 * recorded) and an LBR that records every branch, each slice must leave
 * the two executors, the two MSR files, the PMI counts and the ip each
 * PMI saw the same.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "model/model.h"
#include "model/msr-index.h"
#include "sim/workload.h"

#define SIDES		2	/* 0: model sink, 1: callbacks */
#define MSR_SWEEP_END	0x1700

struct side {
	struct model_cpu *cpu;
	struct wl_exec *x;
	uint64_t ip;		/* the sink's ip: what a PMI samples */
	uint64_t period;
	uint64_t pmi_hash;	/* every PMI's ip and status, folded */
};

static uint64_t fold(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

/* As a driver: fold where it was, re-arm what overflowed, acknowledge. */
static void side_pmi(void *ctx, int cpu_id)
{
	struct side *s = ctx;
	const struct model_cpu_desc *d = model_cpu_get_desc(s->cpu);
	uint64_t status = 0;

	(void)cpu_id;
	assert_int_equal(model_rdmsr(s->cpu, MSR_CORE_PERF_GLOBAL_STATUS, &status), 0);
	s->pmi_hash = fold(fold(s->pmi_hash, s->ip), status);
	for (unsigned int i = 0; i < d->nr_gp; i++)
		if (status >> i & 1)
			assert_int_equal(model_wrmsr(s->cpu, MSR_ARCH_PERFMON_PERFCTR0 + i,
						     (0 - s->period) & ((1ULL << d->gp_width) - 1)), 0);
	assert_int_equal(model_wrmsr(s->cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status), 0);
}

/*
 * @lbr_all: the LBR records every branch (conditionals too); otherwise
 * user call stacks, which leave conditionals out.
 */
static void program(struct side *s, uint64_t period, bool lbr_all)
{
	static const uint64_t events[] = { 0xc0, 0xc4, 0x3c, 0xc5 };	/* insns, branches, cycles, misses */
	const struct model_cpu_desc *d = model_cpu_get_desc(s->cpu);

	s->period = period;
	model_cpu_set_pmi(s->cpu, side_pmi, s);
	for (unsigned int i = 0; i < 4 && i < d->nr_gp; i++) {
		assert_int_equal(model_wrmsr(s->cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i,
					     events[i] | ARCH_PERFMON_EVENTSEL_ENABLE |
					     ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_USR), 0);
		assert_int_equal(model_wrmsr(s->cpu, MSR_ARCH_PERFMON_PERFCTR0 + i,
					     (0 - period - 7 * i) & ((1ULL << d->gp_width) - 1)), 0);
	}
	assert_int_equal(model_wrmsr(s->cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0xf), 0);
	/* 0x3c5: user call stack (LBR_SELECT's bits say what not to record) */
	assert_int_equal(model_wrmsr(s->cpu, MSR_LBR_SELECT, lbr_all ? 0 : 0x3c5), 0);
	assert_int_equal(model_wrmsr(s->cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR), 0);
}

static void cb_branch(void *ctx, uint64_t from, uint64_t to, enum model_branch_type type,
		      bool mispred, unsigned int cycles)
{
	struct side *s = ctx;

	s->ip = to;
	model_retire_branch(s->cpu, from, to, type, true, mispred, cycles);
}

/* The callbacks' executor has stored where it is: the ip the model sink is given. */
static void cb_insns(void *ctx, uint64_t n, uint64_t cycles)
{
	struct side *s = ctx;

	s->ip = wl_exec_ip(s->x);
	model_retire_insns(s->cpu, n, cycles, true);
}

static void assert_sides_equal(struct side *sd, const struct workload *wl)
{
	struct wl_exec *a = sd[0].x, *b = sd[1].x;

	assert_int_equal(a->insns, b->insns);
	assert_int_equal(a->branches, b->branches);
	assert_int_equal(a->calls, b->calls);
	assert_int_equal(a->mispredicts, b->mispredicts);
	assert_int_equal(a->cycles, b->cycles);
	assert_int_equal(a->rng, b->rng);
	assert_int_equal(a->nr_used, b->nr_used);
	assert_int_equal(a->depth, b->depth);
	assert_int_equal(a->max_depth, b->max_depth);
	assert_memory_equal(a->self_insns, b->self_insns, wl->nr_funcs * sizeof(*a->self_insns));
	assert_memory_equal(a->self_mispredicts, b->self_mispredicts,
			    wl->nr_funcs * sizeof(*a->self_mispredicts));
	assert_memory_equal(a->stack, b->stack, a->depth * sizeof(a->stack[0]));
	assert_int_equal(wl_exec_ip(a), wl_exec_ip(b));
	assert_int_equal(sd[0].ip, sd[1].ip);
	assert_int_equal(sd[0].pmi_hash, sd[1].pmi_hash);
	assert_int_equal(model_cpu_nr_pmis(sd[0].cpu), model_cpu_nr_pmis(sd[1].cpu));
	assert_int_equal(model_cpu_cycles(sd[0].cpu), model_cpu_cycles(sd[1].cpu));
	for (uint32_t msr = 0; msr < MSR_SWEEP_END; msr++) {
		uint64_t va = 0, vb = 0;
		int ra = model_rdmsr(sd[0].cpu, msr, &va), rb = model_rdmsr(sd[1].cpu, msr, &vb);

		assert_int_equal(ra, rb);
		if (va != vb)
			fail_msg("MSR %#x: %#llx with the model sink, %#llx through callbacks",
				 msr, (unsigned long long)va, (unsigned long long)vb);
	}
}

static void run_both(const struct wl_params *p, uint64_t period, bool lbr_all, uint64_t total)
{
	struct workload *wl = workload_build(p);
	struct side sd[SIDES];
	struct wl_sink sink[SIDES];
	uint64_t rng = 0x9e3779b97f4a7c15ULL ^ period, done = 0;

	assert_non_null(wl);
	for (int i = 0; i < SIDES; i++) {
		memset(&sd[i], 0, sizeof(sd[i]));
		sd[i].cpu = model_cpu_create(model_cpu_desc_lookup("skylake"), 0);
		assert_non_null(sd[i].cpu);
		sd[i].x = calloc(1, sizeof(*sd[i].x));
		assert_non_null(sd[i].x);
		assert_int_equal(wl_exec_init(sd[i].x, wl, 42), 0);
		program(&sd[i], period, lbr_all);
	}
	sink[0] = (struct wl_sink){ .model = sd[0].cpu, .ip = &sd[0].ip };
	sink[1] = (struct wl_sink){ .branch = cb_branch, .insns = cb_insns, .ctx = &sd[1] };
	while (done < total) {
		/* slices of 1 to ~4000 cycles: runs stop at every kind of op */
		uint64_t budget, ran[SIDES];

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		budget = 1 + (rng >> 11) % (rng & 1 ? 40 : 4000);
		for (int i = 0; i < SIDES; i++)
			ran[i] = wl_exec_run(sd[i].x, budget, &sink[i]);
		assert_int_equal(ran[0], ran[1]);
		assert_sides_equal(sd, wl);
		done += ran[0];
	}
	/* the runs took PMIs, and mispredicts where the workload draws them */
	assert_true(model_cpu_nr_pmis(sd[0].cpu) > 0);
	if (p->mispredict_permille)
		assert_true(sd[0].x->mispredicts > 0);
	for (int i = 0; i < SIDES; i++) {
		wl_exec_fini(sd[i].x);
		free(sd[i].x);
		model_cpu_destroy(sd[i].cpu);
	}
	workload_free(wl);
}

static void each_kind(uint64_t period, bool lbr_all)
{
	static const enum wl_kind kinds[] = { WL_TCHAIN, WL_RECURSION, WL_PHASES, WL_RANDOM };
	static const uint32_t mis[] = { 20, 0, 1000, 500 };

	for (unsigned int k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (unsigned int m = 0; m < sizeof(mis) / sizeof(mis[0]); m++) {
			struct wl_params p;

			wl_params_default(&p, kinds[k]);
			p.mispredict_permille = mis[m];
			if (kinds[k] == WL_TCHAIN) {
				p.depth = 6;
				p.leaf_loops = 300;
				p.mid_loops = 9;
			} else if (kinds[k] == WL_PHASES) {
				p.leaf_loops = 4096;
			}
			run_both(&p, period, lbr_all, 400000);
		}
}

/* Call-stack LBR, PMIs every ~1000 events: most iterations take the arithmetic. */
static void model_sink_equals_callbacks_call_stack(void **state)
{
	(void)state;
	each_kind(1009, false);
}

/* PMIs every few dozen events: iterations the budget does not cover retire op by op. */
static void model_sink_equals_callbacks_short_periods(void **state)
{
	(void)state;
	each_kind(37, false);
}

/* Conditionals recorded in the LBR: every iteration retires op by op. */
static void model_sink_equals_callbacks_lbr_all(void **state)
{
	(void)state;
	each_kind(1009, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_sink_equals_callbacks_call_stack),
		cmocka_unit_test(model_sink_equals_callbacks_short_periods),
		cmocka_unit_test(model_sink_equals_callbacks_lbr_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
