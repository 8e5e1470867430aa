// SPDX-License-Identifier: GPL-2.0-only
/*
 * The retire path: the simulator's one call per retired branch and one per
 * block of other instructions.  This is the hot path of the whole
 * simulation.  Everything decidable in advance was decided when the
 * control MSRs were written (pmu.c, lbr.c), and the counters are counted
 * lazily:
 *
 * A retire call adds its amounts (instructions, branches, mispredicted
 * branches, cycles, reference cycles) to per-privilege pending sums instead
 * of walking the counters, as long as no counter can wrap in this call.
 * That is known from `budget`: no more than the headroom (mask - value) of
 * the counter nearest to wrapping, less what the fast calls since took.  A
 * call's amount for any counter is at most its `reach` (1 + cycles times
 * (1 + slots per cycle) + reference cycles, plus the instructions of a
 * block), so while reach < budget no counter wraps and nothing but the
 * pending sums can change.  Otherwise the call is counted exactly
 * (model_retire_exact): the pending sums go into the counters, then this
 * call's amounts, with wrap, GLOBAL_STATUS, CMASK/INV/EDGE and the PMI, and
 * the budget is measured again.  So a PMI still comes in the very retire
 * call whose event completes the period.
 *
 * Anyone else who looks at or changes the counters goes through the MSRs,
 * and model_pmu_sync() runs first there (msr.c) and before the counting
 * lists change (model_pmu_update): it folds the pending sums in (they
 * cannot wrap anything, by the above) and sets the budget to 0, so the next
 * retire call is exact and measures it afresh.  CMASK/INV/EDGE counters
 * count per call, not per sum: while any is on, the budget stays 0.
 */
#include "model/internal.h"
#include "model/lbr_record.h"

#define model_likely(x)		__builtin_expect(!!(x), 1)
#define model_unlikely(x)	__builtin_expect(!!(x), 0)
#define model_cold		__attribute__((noinline, cold))

/*
 * Core cycles -> TSC ticks when the core runs at another rate: exact,
 * remainder carried.  (At the TSC's own rate a cycle is a tick.)
 */
static model_cold uint64_t model_advance_tsc_scaled(struct model_cpu *cpu, uint64_t cycles)
{
	uint64_t before = cpu->tsc;

	/* Split so that no product exceeds 64 bits (both rates < 2^32). */
	cpu->tsc += cycles / cpu->core_khz * cpu->tsc_khz;
	cpu->tsc_rem += cycles % cpu->core_khz * cpu->tsc_khz;
	cpu->tsc += cpu->tsc_rem / cpu->core_khz;
	cpu->tsc_rem %= cpu->core_khz;
	return cpu->tsc - before;
}

/* A call's amounts for each event class; slots are always cycles times the rate. */
static void model_amounts(const struct model_cpu *cpu, const uint64_t pend[MODEL_PEND__NR],
			  uint64_t amount[MODEL_EV__NR])
{
	amount[MODEL_EV_NONE] = 0;
	amount[MODEL_EV_INSNS] = pend[MODEL_PEND_INSNS];
	amount[MODEL_EV_CYCLES] = pend[MODEL_PEND_CYCLES];
	amount[MODEL_EV_REF_CYCLES] = pend[MODEL_PEND_REF];
	amount[MODEL_EV_BRANCHES] = pend[MODEL_PEND_BRANCHES];
	amount[MODEL_EV_BRANCH_MISSES] = pend[MODEL_PEND_MISSES];
	amount[MODEL_EV_SLOTS] = pend[MODEL_PEND_CYCLES] * cpu->slots_per_cycle;
}

/*
 * Add to one counter.  A counter never holds more than its mask, so it
 * wraps exactly when amount > mask - value.  The overshoot stays in it.
 */
static void model_count_one(struct model_cpu *cpu, const struct model_counting *c,
			    uint64_t amount)
{
	uint64_t old = cpu->ctr[c->ctr];

	if (amount > c->mask - old) {
		cpu->global_status |= 1ULL << model_status_bit(c->ctr);
		if (cpu->pmi_on_overflow & (1u << c->ctr))
			cpu->pmi_pending = true;
	}
	cpu->ctr[c->ctr] = (old + amount) & c->mask;
}

static void model_count(struct model_cpu *cpu, unsigned int user,
			const uint64_t amount[MODEL_EV__NR])
{
	for (unsigned int i = 0; i < cpu->nr_counting[user]; i++) {
		const struct model_counting *c = &cpu->counting[user][i];

		model_count_one(cpu, c, amount[c->cls]);
	}
}

/* Fold the pending sums of both privileges into the counters. */
static void model_fold_pending(struct model_cpu *cpu)
{
	for (unsigned int user = 0; user < 2; user++) {
		uint64_t amount[MODEL_EV__NR];

		model_amounts(cpu, cpu->pend[user], amount);
		model_count(cpu, user, amount);
		for (unsigned int k = 0; k < MODEL_PEND__NR; k++)
			cpu->pend[user][k] = 0;
	}
}

void model_pmu_sync(struct model_cpu *cpu)
{
	if (cpu->budget != cpu->budget_base)
		model_fold_pending(cpu);
	cpu->budget = cpu->budget_base = 0;
}

/* The headroom of the counter nearest to wrapping; 0 (no fast path) with CMASK counters. */
static uint64_t model_measure_budget(const struct model_cpu *cpu)
{
	uint64_t budget = UINT64_MAX;

	if (cpu->nr_cmask_counting[0] || cpu->nr_cmask_counting[1])
		return 0;
	for (unsigned int user = 0; user < 2; user++)
		for (unsigned int i = 0; i < cpu->nr_counting[user]; i++) {
			const struct model_counting *c = &cpu->counting[user][i];
			uint64_t room = c->mask - cpu->ctr[c->ctr];

			if (room < budget)
				budget = room;
		}
	return budget;
}

/*
 * Count one retire call exactly, with everything pending before it.  The
 * LBR has already recorded the call's branch; the PMI, if one is due,
 * comes last, when the whole state of the call is in place.
 */
static model_cold void model_retire_exact(struct model_cpu *cpu, unsigned int user,
					  const uint64_t pend[MODEL_PEND__NR])
{
	uint64_t amount[MODEL_EV__NR];

	if (cpu->budget != cpu->budget_base)
		model_fold_pending(cpu);
	model_amounts(cpu, pend, amount);
	model_count(cpu, user, amount);
	for (unsigned int i = 0; i < cpu->nr_cmask_counting[user]; i++) {
		const struct model_counting *c = &cpu->cmask_counting[user][i];
		uint64_t n = model_cmask_count(cpu, c->ctr, amount[c->cls],
					       amount[MODEL_EV_CYCLES]);

		if (n)
			model_count_one(cpu, c, n);
	}
	cpu->budget = cpu->budget_base = model_measure_budget(cpu);
	if (cpu->pmi_pending && !cpu->in_pmi)
		model_pmu_deliver_pmi(cpu);
}

/*
 * The entry points below keep their fast paths free of calls, ending
 * instead in a jump to one of these (a sibling call: the arguments, six at
 * most, all in registers), so that they need no frame and save no
 * registers.  @what packs a branch's type, privilege and mispredict.
 */
#define BRANCH_WHAT_USER	(1u << 8)
#define BRANCH_WHAT_MISPRED	(1u << 9)

static inline unsigned int branch_what(enum model_branch_type type, unsigned int user,
				       bool mispred)
{
	/* an out-of-range type must not alias the flag bits; it records nothing */
	unsigned int t = (unsigned int)type < MODEL_BR__NR ? (unsigned int)type : MODEL_BR__NR;

	return t | (user ? BRANCH_WHAT_USER : 0) | (mispred ? BRANCH_WHAT_MISPRED : 0);
}

/* A branch counted exactly: the LBR records it first, so that a PMI sees it there. */
static model_cold void model_retire_branch_exact(struct model_cpu *cpu, uint64_t from,
						 uint64_t to, unsigned int what, uint64_t cycles,
						 uint64_t ref)
{
	enum model_branch_type type = (enum model_branch_type)(what & 0xff);
	unsigned int user = !!(what & BRANCH_WHAT_USER);
	bool mispred = what & BRANCH_WHAT_MISPRED;
	const uint64_t pend[MODEL_PEND__NR] = {
		[MODEL_PEND_INSNS] = 1, [MODEL_PEND_BRANCHES] = 1,
		[MODEL_PEND_MISSES] = mispred, [MODEL_PEND_CYCLES] = cycles,
		[MODEL_PEND_REF] = ref,
	};

	if ((unsigned int)type < MODEL_BR__NR && (cpu->lbr_capture[user] >> type & 1))
		model_lbr_record(cpu, from, to, type, mispred);
	model_retire_exact(cpu, user, pend);
}

static model_cold void model_retire_insns_exact(struct model_cpu *cpu, unsigned int user,
						uint64_t n, uint64_t cycles, uint64_t ref)
{
	const uint64_t pend[MODEL_PEND__NR] = {
		[MODEL_PEND_INSNS] = n, [MODEL_PEND_CYCLES] = cycles, [MODEL_PEND_REF] = ref,
	};

	model_retire_exact(cpu, user, pend);
}

/*
 * A branch, its TSC ticks known.  On the fast path the LBR records last:
 * nothing there looks at it, and from, to and the type stay in their
 * argument registers until then.
 */
static inline __attribute__((always_inline))
void model_retire_branch_ref(struct model_cpu *cpu, uint64_t from, uint64_t to,
			     enum model_branch_type type, unsigned int u, bool mispred,
			     uint64_t cycles, uint64_t ref)
{
	uint64_t reach = 1 + cycles * cpu->cycles_reach + ref;

	cpu->cycles += cycles;
	cpu->lbr_cycles += cycles;
	if (model_unlikely(reach >= cpu->budget)) {
		model_retire_branch_exact(cpu, from, to, branch_what(type, u, mispred), cycles, ref);
		return;
	}
	cpu->budget -= reach;
	cpu->pend[u][MODEL_PEND_INSNS]++;
	cpu->pend[u][MODEL_PEND_BRANCHES]++;
	cpu->pend[u][MODEL_PEND_MISSES] += mispred;
	cpu->pend[u][MODEL_PEND_CYCLES] += cycles;
	cpu->pend[u][MODEL_PEND_REF] += ref;
	/* lbr_capture has no bit at or above MODEL_BR__NR: an unknown type is not recorded */
	if ((unsigned int)type < MODEL_BR__NR && (cpu->lbr_capture[u] >> type & 1))
		model_lbr_record(cpu, from, to, type, mispred);
}

/* A branch while the core clock is not the TSC's. */
static model_cold void model_retire_branch_scaled(struct model_cpu *cpu, uint64_t from,
						  uint64_t to, unsigned int what, uint64_t cycles)
{
	uint64_t ref = model_advance_tsc_scaled(cpu, cycles);

	model_retire_branch_ref(cpu, from, to, (enum model_branch_type)(what & 0xff),
				!!(what & BRANCH_WHAT_USER), what & BRANCH_WHAT_MISPRED, cycles, ref);
}

void model_retire_branch(struct model_cpu *cpu, uint64_t from, uint64_t to,
			 enum model_branch_type type, bool user, bool mispred,
			 unsigned int cycles)
{
	if (model_unlikely(cpu->core_khz != cpu->tsc_khz)) {
		model_retire_branch_scaled(cpu, from, to, branch_what(type, user, mispred), cycles);
		return;
	}
	cpu->tsc += cycles;	/* at the TSC's own rate, a cycle is a tick */
	model_retire_branch_ref(cpu, from, to, type, user, mispred, cycles, cycles);
}

/*
 * A block, its TSC ticks known.  Below 2^32 instructions and cycles the
 * reach stays far from 2^64 (ref is at most 2^32 times 10^7 TSC kHz per
 * core kHz, < 2^56); bigger blocks are counted exactly.
 */
static inline __attribute__((always_inline))
void model_retire_insns_ref(struct model_cpu *cpu, uint64_t n, uint64_t cycles, unsigned int u,
			    uint64_t ref)
{
	uint64_t reach = n + cycles * cpu->cycles_reach + ref;

	cpu->cycles += cycles;
	cpu->lbr_cycles += cycles;
	if (model_unlikely((n | cycles) >> 32 || reach >= cpu->budget)) {
		model_retire_insns_exact(cpu, u, n, cycles, ref);
		return;
	}
	cpu->budget -= reach;
	cpu->pend[u][MODEL_PEND_INSNS] += n;
	cpu->pend[u][MODEL_PEND_CYCLES] += cycles;
	cpu->pend[u][MODEL_PEND_REF] += ref;
}

static model_cold void model_retire_insns_scaled(struct model_cpu *cpu, uint64_t n,
						 uint64_t cycles, unsigned int user)
{
	model_retire_insns_ref(cpu, n, cycles, user, model_advance_tsc_scaled(cpu, cycles));
}

void model_retire_insns(struct model_cpu *cpu, uint64_t n, uint64_t cycles, bool user)
{
	if (model_unlikely(cpu->core_khz != cpu->tsc_khz)) {
		model_retire_insns_scaled(cpu, n, cycles, user);
		return;
	}
	cpu->tsc += cycles;
	model_retire_insns_ref(cpu, n, cycles, user, cycles);
}

void model_cpu_idle(struct model_cpu *cpu, uint64_t cycles)
{
	if (cpu->core_khz != cpu->tsc_khz)
		model_advance_tsc_scaled(cpu, cycles);
	else
		cpu->tsc += cycles;
}

/*
 * Time the PMU does not see: the TSC and the unhalted cycles move, and
 * nothing else.  The pending sums and the budget stay as they are: no
 * counter changed, so what may still be added before one wraps did not.
 */
void model_cpu_pass_unseen(struct model_cpu *cpu, uint64_t cycles)
{
	cpu->cycles += cycles;
	model_cpu_idle(cpu, cycles);
}
