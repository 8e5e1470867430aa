// SPDX-License-Identifier: GPL-2.0-only
/*
 * The retire path's behaviour, pinned: a fixed pseudo-random stream of
 * retired branches, instruction blocks and idle periods runs on every CPU
 * model under three programmings (everything counted and every branch
 * recorded; call-stack LBR with CMASK/INV/EDGE counters; a filtering
 * LBR_SELECT with short periods, so PMIs and freezes come often). A PMI
 * handler acknowledges, re-arms and thaws as a driver would. Every 500
 * calls the whole MSR file (every index below 0x1700, value and fault)
 * is folded into an FNV-1a digest, with the PMI count.
 *
 * The digests were recorded from the retire path before it was made
 * lean (commit 6fab49e, model/retire.c and model/lbr.c as merged in
 * session 1; haswell's by that code with the haswell row added): an
 * optimisation must leave every one unchanged. A change
 * of behaviour that is meant must say so and record them again (run
 * with PMUSIM_PRINT_DIGESTS=1 to print them).
 */
#include <stdio.h>
#include <stdlib.h>

#include <generated/autoconf.h>

#include "model_test.h"

#define NR_CALLS	6000
#define CHECK_EVERY	500
#define MSR_SWEEP_END	0x1700
#define NR_CONFIGS	3

struct digest_run {
	struct model_cpu *cpu;
	const struct model_cpu_desc *d;
	uint64_t hash;
	uint64_t rng;
	uint64_t period;	/* what the handler re-arms counters with */
};

static void fold(struct digest_run *r, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		r->hash ^= (v >> (8 * i)) & 0xff;
		r->hash *= 0x100000001b3ULL;
	}
}

static uint64_t next_rand(struct digest_run *r)
{
	r->rng ^= r->rng << 13;
	r->rng ^= r->rng >> 7;
	r->rng ^= r->rng << 17;
	return r->rng;
}

static void fold_msr_file(struct digest_run *r)
{
	for (uint32_t msr = 0; msr < MSR_SWEEP_END; msr++) {
		uint64_t v = 0;
		int ret = model_rdmsr(r->cpu, msr, &v);

		if (!ret)
			fold(r, (uint64_t)msr << 32 ^ v);
	}
	fold(r, model_cpu_nr_pmis(r->cpu));
	fold(r, model_cpu_cycles(r->cpu));
	fold(r, model_cpu_tsc(r->cpu));
}

static uint64_t mask_of(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

/* A driver's PMI: read, fold, ack (which thaws from v4), re-arm, re-enable. */
static void digest_pmi(void *ctx, int cpu_id)
{
	struct digest_run *r = ctx;
	const struct model_cpu_desc *d = r->d;
	uint64_t status = 0, v;

	(void)cpu_id;
	model_rdmsr(r->cpu, MSR_CORE_PERF_GLOBAL_STATUS, &status);
	fold(r, status);
	if (!model_rdmsr(r->cpu, MSR_LBR_TOS, &v))
		fold(r, v);
	if (!model_rdmsr(r->cpu, d->arch_lbr ? MSR_ARCH_LBR_FROM_0 : d->lbr_from, &v))
		fold(r, v);
	for (unsigned int i = 0; i < d->nr_gp; i++)
		if (status >> i & 1)
			model_wrmsr(r->cpu, MSR_ARCH_PERFMON_PERFCTR0 + i,
				    (0 - r->period) & mask_of(d->gp_width));
	for (unsigned int j = 0; j < d->nr_fixed; j++)
		if (status >> (32 + j) & 1)
			model_wrmsr(r->cpu, MSR_CORE_PERF_FIXED_CTR0 + j,
				    (0 - r->period) & mask_of(d->fixed_width));
	model_wrmsr(r->cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
	if (d->pmu_version < 4) {
		/* the legacy freeze cleared these */
		model_rdmsr(r->cpu, MSR_IA32_DEBUGCTLMSR, &v);
		model_wrmsr(r->cpu, MSR_IA32_DEBUGCTLMSR, v | DEBUGCTLMSR_LBR);
		model_wrmsr(r->cpu, MSR_CORE_PERF_GLOBAL_CTRL,
			    ((1ULL << d->nr_gp) - 1) | ((1ULL << d->nr_fixed) - 1) << 32);
	}
}

static void program(struct digest_run *r, int config)
{
	const struct model_cpu_desc *d = r->d;
	uint64_t fixed_ctrl = 0;

	r->period = config == 2 ? 37 : 5000;
	for (unsigned int i = 0; i < d->nr_gp; i++) {
		static const uint64_t events[] = {
			EVT_INSNS, EVT_BRANCHES, EVT_CYCLES, EVT_BRANCH_MISSES,
			EVT_REF_CYCLES, EVT_SLOTS, EVT_INSNS, EVT_BRANCHES,
		};
		uint64_t sel = events[i] | ARCH_PERFMON_EVENTSEL_ENABLE | ARCH_PERFMON_EVENTSEL_INT;

		sel |= i & 1 ? ARCH_PERFMON_EVENTSEL_USR :
		       ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS;
		if (config == 1 && i == 2)
			sel |= 2ULL << 24 | ARCH_PERFMON_EVENTSEL_INV;
		if (config == 1 && i == 3)
			sel |= 1ULL << 24 | ARCH_PERFMON_EVENTSEL_EDGE;
		wr(r->cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, sel);
		wr(r->cpu, MSR_ARCH_PERFMON_PERFCTR0 + i,
		   (0 - r->period - i) & mask_of(d->gp_width));
	}
	for (unsigned int j = 0; j < d->nr_fixed; j++) {
		fixed_ctrl |= (j == 1 ? 0xaULL : 0xbULL) << (4 * j);
		wr(r->cpu, MSR_CORE_PERF_FIXED_CTR0 + j,
		   (0 - r->period * (j + 1)) & mask_of(d->fixed_width));
	}
	wr(r->cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, fixed_ctrl);
	wr(r->cpu, MSR_CORE_PERF_GLOBAL_CTRL,
	   ((1ULL << d->nr_gp) - 1) | ((1ULL << d->nr_fixed) - 1) << 32);

	if (d->arch_lbr) {
		uint64_t ctl = ARCH_LBR_CTL_LBREN | ARCH_LBR_USER;

		if (config == 0)
			ctl |= ARCH_LBR_KERNEL | ARCH_LBR_CTL_FILTER;
		else if (config == 1)
			ctl |= ARCH_LBR_CALL_STACK | ARCH_LBR_REL_CALL | ARCH_LBR_IND_CALL |
			       ARCH_LBR_RETURN;
		else
			ctl |= ARCH_LBR_JCC | ARCH_LBR_RETURN | ARCH_LBR_OTHER_BRANCH;
		if (config == 2)
			wr(r->cpu, MSR_ARCH_LBR_DEPTH, 16);
		wr(r->cpu, MSR_ARCH_LBR_CTL, ctl);
		wr(r->cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI |
		   (config == 2 ? DEBUGCTLMSR_FREEZE_LBRS_ON_PMI : 0));
		return;
	}
	if (d->has_lbr_select) {
		uint64_t sel = 0;

		if (config == 1 && d->has_lbr_callstack)
			sel = 0x3c5;
		else if (config == 1)
			sel = LBR_KERNEL | LBR_JCC | LBR_REL_JMP | LBR_IND_JMP;
		else if (config == 2)
			sel = LBR_KERNEL | LBR_JCC;
		wr(r->cpu, MSR_LBR_SELECT, sel);
	}
	wr(r->cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR |
	   (config != 1 ? DEBUGCTLMSR_FREEZE_LBRS_ON_PMI : 0) |
	   (config == 2 ? DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI : 0));
}

/* One retire call from the stream: mostly branches, of every type and privilege. */
static void step(struct digest_run *r)
{
	uint64_t x = next_rand(r);
	unsigned int kind = x % 16;
	bool user = (x >> 8) % 8 != 0;
	uint64_t base = user ? 0x400000 : 0xffffffff81000000ULL;
	uint64_t from = base + ((x >> 12) & 0xfff0), to = base + ((x >> 28) & 0xfff0);

	if (kind == 14) {
		model_retire_insns(r->cpu, (x >> 20) % 50, (x >> 40) % 70, user);
	} else if (kind == 15) {
		model_cpu_idle(r->cpu, (x >> 20) % 1000);
	} else {
		/* calls and returns dominate, so call stacks go deep and come back */
		static const enum model_branch_type types[14] = {
			MODEL_BR_NEAR_REL_CALL, MODEL_BR_NEAR_REL_CALL, MODEL_BR_NEAR_IND_CALL,
			MODEL_BR_NEAR_RET, MODEL_BR_NEAR_RET, MODEL_BR_NEAR_RET,
			MODEL_BR_JCC, MODEL_BR_JCC, MODEL_BR_JCC, MODEL_BR_NEAR_REL_JMP,
			MODEL_BR_NEAR_IND_JMP, MODEL_BR_FAR, MODEL_BR_NEAR_REL_CALL, MODEL_BR_JCC,
		};

		model_retire_branch(r->cpu, from, to, types[kind], user, (x >> 50) % 5 == 0,
				    (unsigned int)((x >> 54) % 40));
	}
}

/* A run on @d programmed as @config, its stream from @seed. */
static void digest_start(struct digest_run *r, const struct model_cpu_desc *d, int config,
			 uint64_t seed)
{
	*r = (struct digest_run){
		.d = d, .hash = 0xcbf29ce484222325ULL, .rng = seed ^ (uint64_t)config,
	};
	r->cpu = model_cpu_create(d, 0);
	assert_non_null(r->cpu);
	model_cpu_set_pmi(r->cpu, digest_pmi, r);
	program(r, config);
}

static uint64_t run_digest(const struct model_cpu_desc *d, int config)
{
	struct digest_run r;

	digest_start(&r, d, config, 0x9e3779b97f4a7c15ULL);
	for (int i = 1; i <= NR_CALLS; i++) {
		step(&r);
		if (i % CHECK_EVERY == 0)
			fold_msr_file(&r);
		if (i == NR_CALLS / 2)
			/* turbo at twice the TSC rate: exact whatever the Kconfig rate */
			model_cpu_set_core_khz(r.cpu, 2 * CONFIG_MODEL_TSC_KHZ);
	}
	model_cpu_destroy(r.cpu);
	return r.hash;
}

static const struct {
	const char *name;
	uint64_t digest[NR_CONFIGS];
} golden[] = {
	{ "core2", { 0x40e8dbf117f8bdc8ULL,
		     0xb4f50256900b90daULL, 0x98abd6ca16cf03dcULL } },
	{ "atom", { 0xdf8c1ff004a5933fULL,
		     0x5afc1ed81748373eULL, 0x03d403f60cd23482ULL } },
	{ "nehalem", { 0x0e02fbb1aa562401ULL,
		     0xf719baa24cf2df05ULL, 0xe03b8a9cfc35864dULL } },
	{ "haswell", { 0x777e10fa237a23b1ULL,
		     0x170451746b181ff7ULL, 0x0d0295515bb37c75ULL } },
	{ "skylake", { 0x91cd52fb724b2889ULL,
		     0x4eb3dd5decff51a6ULL, 0x818395a68eda7de3ULL } },
	{ "icelake", { 0x35f81e48377e6c53ULL,
		     0x6de4f3395c02cd89ULL, 0x6576493837f11453ULL } },
	{ "sapphirerapids", { 0x63caed10731bf298ULL,
		     0x76f947b4c37cea2fULL, 0x0e3c72216b62adceULL } },
};

static void retire_path_matches_the_recorded_digests(void **state)
{
	bool print = getenv("PMUSIM_PRINT_DIGESTS") != NULL;
	unsigned int nr;

	(void)state;
	model_cpu_desc_table(&nr);
	assert_int_equal(nr, sizeof(golden) / sizeof(golden[0]));
	for (size_t m = 0; m < sizeof(golden) / sizeof(golden[0]); m++) {
		const struct model_cpu_desc *d = model_cpu_desc_lookup(golden[m].name);

		assert_non_null(d);
		for (int c = 0; c < NR_CONFIGS; c++) {
			uint64_t h = run_digest(d, c);

			if (print)
				printf("# %s config %d: 0x%016llxULL\n", d->name, c,
				       (unsigned long long)h);
			else if (h != golden[m].digest[c])
				fail_msg("%s config %d: digest 0x%016llx, recorded 0x%016llx",
					 d->name, c, (unsigned long long)h,
					 (unsigned long long)golden[m].digest[c]);
		}
	}
}

/* The stream does what the digests claim to cover: PMIs, freezes, deep stacks. */
static void the_stream_raises_pmis_on_every_model(void **state)
{
	unsigned int nr;
	const struct model_cpu_desc *t = model_cpu_desc_table(&nr);

	(void)state;
	for (unsigned int m = 0; m < nr; m++) {
		struct digest_run r = { .d = &t[m], .rng = 0x9e3779b97f4a7c15ULL ^ 2 };

		r.cpu = model_cpu_create(&t[m], 0);
		model_cpu_set_pmi(r.cpu, digest_pmi, &r);
		program(&r, 2);
		for (int i = 0; i < NR_CALLS; i++)
			step(&r);
		if (model_cpu_nr_pmis(r.cpu) < 100)
			fail_msg("%s: only %llu PMIs", t[m].name,
				 (unsigned long long)model_cpu_nr_pmis(r.cpu));
		model_cpu_destroy(r.cpu);
	}
}

/*
 * model_retire_user_block_branch() (record's replay, sim/vg_task.c) is the
 * fast halves of a user block and the branch after it in one check: a run
 * that takes it, and makes the two calls only where it refuses, ends with
 * the same digest as a run that always makes the two calls, on every model
 * and programming; and it both takes and refuses (short periods keep the
 * budget small, kernel branches and idling move it).
 */
static uint64_t run_blocks(const struct model_cpu_desc *d, int config, bool combined,
			   unsigned int *taken, unsigned int *refused)
{
	struct digest_run r;

	digest_start(&r, d, config, 0x2545f4914f6cdd1dULL);
	for (int i = 1; i <= NR_CALLS; i++) {
		uint64_t x = next_rand(&r);
		static const enum model_branch_type types[8] = {
			MODEL_BR_NEAR_REL_CALL, MODEL_BR_NEAR_IND_CALL, MODEL_BR_NEAR_RET,
			MODEL_BR_NEAR_RET, MODEL_BR_JCC, MODEL_BR_JCC, MODEL_BR_NEAR_REL_JMP,
			MODEL_BR_NEAR_IND_JMP,
		};
		enum model_branch_type type = types[x % 8];
		/* blocks of 0, of a few and of more than a short period */
		uint64_t n = (x >> 4) % 4 == 0 ? 0 : (x >> 8) % ((x >> 6) % 2 ? 9 : 300);
		uint64_t from = 0x400000 + ((x >> 20) & 0xfff0), to = 0x400000 + ((x >> 36) & 0xfff0);

		if ((x >> 52) % 16 == 0) {
			step(&r);	/* kernel branches, idle periods, other types */
		} else if (combined && model_retire_user_block_branch(r.cpu, n, from, to, type)) {
			++*taken;
		} else {
			*refused += combined;
			if (n)
				model_retire_insns(r.cpu, n, n, true);
			model_retire_branch(r.cpu, from, to, type, true, false, 1);
		}
		if (i % CHECK_EVERY == 0)
			fold_msr_file(&r);
	}
	fold_msr_file(&r);
	model_cpu_destroy(r.cpu);
	return r.hash;
}

static void block_branch_retires_as_the_two_calls(void **state)
{
	unsigned int nr;
	const struct model_cpu_desc *t = model_cpu_desc_table(&nr);

	(void)state;
	for (unsigned int m = 0; m < nr; m++) {
		/* (while a CMASK/INV/EDGE counter counts, config 1, it refuses all) */
		unsigned int taken = 0, refused = 0, none = 0;

		for (int c = 0; c < NR_CONFIGS; c++) {
			uint64_t a = run_blocks(&t[m], c, false, &none, &none);
			uint64_t b = run_blocks(&t[m], c, true, &taken, &refused);

			if (a != b)
				fail_msg("%s config %d: 0x%016llx with the combined call, 0x%016llx "
					 "without", t[m].name, c, (unsigned long long)b,
					 (unsigned long long)a);
		}
		if (!taken || !refused)
			fail_msg("%s: the combined call took %u and refused %u", t[m].name, taken,
				 refused);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(retire_path_matches_the_recorded_digests),
		cmocka_unit_test(the_stream_raises_pmis_on_every_model),
		cmocka_unit_test(block_branch_retires_as_the_two_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
