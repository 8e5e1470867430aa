// SPDX-License-Identifier: GPL-2.0-only
/*
 * The slow half of the retire path (the fast half is inline: retire.h,
 * where lazy counting and the one clock are explained): the calls that
 * may wrap a counter, counted exactly, and everything while the budget is
 * 0.  Here the pending sums go into the counters, then the call's own
 * amounts, with wrap, GLOBAL_STATUS, CMASK/INV/EDGE and the PMI, and the
 * budget is measured again.  So a PMI still comes in the very retire call
 * whose event completes the period.
 *
 * Anyone else who looks at or changes the counters goes through the MSRs,
 * and model_pmu_sync() runs first there (msr.c) and before the counting
 * lists change (model_pmu_update): it folds the pending sums in (they
 * cannot wrap anything, by the above) and sets the budget to 0, so the next
 * retire call is exact and measures it afresh.  CMASK/INV/EDGE counters
 * count per call, not per sum: while any is on, the budget stays 0; so it
 * does while the core clock is not the TSC's, since the pending sums hold
 * no reference cycles of their own.
 */
#include "model/internal.h"

/* The external definitions of retire.h's inline functions (C99 inline). */
extern inline struct model_retire_state *model_cpu_retire_state(struct model_cpu *cpu);
extern inline void model_lbr_record(struct model_cpu *cpu, uint64_t from, uint64_t to,
				    enum model_branch_type type, bool mispred);
extern inline unsigned int model_branch_what(enum model_branch_type type, bool user,
					     bool mispred);
extern inline void model_retire_branch(struct model_cpu *cpu, uint64_t from, uint64_t to,
				       enum model_branch_type type, bool user, bool mispred,
				       unsigned int cycles);
extern inline void model_retire_insns(struct model_cpu *cpu, uint64_t n, uint64_t cycles,
				      bool user);
extern inline bool model_retire_user_branches(struct model_cpu *cpu, uint64_t reach,
					      uint64_t cycles, uint64_t branches, uint64_t misses,
					      unsigned int types);
extern inline bool model_retire_user_block_branch(struct model_cpu *cpu, uint64_t n,
						 uint64_t from, uint64_t to,
						 enum model_branch_type type);

/*
 * The TSC ticks of @cycles core cycles: the same number at the TSC's own
 * rate, else exact with the remainder carried.
 */
static uint64_t model_tsc_ticks(struct model_cpu *cpu, uint64_t cycles)
{
	uint64_t ticks;

	if (cpu->core_khz == cpu->tsc_khz)
		return cycles;
	/* Split so that no product exceeds 64 bits (both rates < 2^32). */
	ticks = cycles / cpu->core_khz * cpu->tsc_khz;
	cpu->tsc_rem += cycles % cpu->core_khz * cpu->tsc_khz;
	ticks += cpu->tsc_rem / cpu->core_khz;
	cpu->tsc_rem %= cpu->core_khz;
	return ticks;
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

/*
 * Fold the pending sums of both privileges into the counters.  They are
 * only ever pending at the TSC's own rate, so a cycle is a reference
 * cycle too.
 */
void model_fold_pending(struct model_cpu *cpu)
{
	struct model_retire_state *rs = &cpu->rt;
	uint64_t cycles = rs->clock - cpu->clock_folded;
	uint64_t insns = cpu->budget_base - rs->budget - cycles;	/* reach less cycles */

	for (unsigned int user = 0; user < 2; user++) {
		uint64_t c = user ? cycles - rs->pend_kernel_cycles : rs->pend_kernel_cycles;
		const uint64_t pend[MODEL_PEND__NR] = {
			[MODEL_PEND_INSNS] = user ? insns - rs->pend_kernel_insns :
					     rs->pend_kernel_insns,
			[MODEL_PEND_BRANCHES] = rs->pend_branches[user],
			[MODEL_PEND_MISSES] = rs->pend_misses[user],
			[MODEL_PEND_CYCLES] = c,
			[MODEL_PEND_REF] = c,
		};
		uint64_t amount[MODEL_EV__NR];

		model_amounts(cpu, pend, amount);
		model_count(cpu, user, amount);
		rs->pend_branches[user] = rs->pend_misses[user] = 0;
	}
	rs->pend_kernel_insns = rs->pend_kernel_cycles = 0;
	cpu->clock_folded = rs->clock;
}

/*
 * The headroom of the counter nearest to wrapping; 0 (no fast path) with
 * CMASK counters or another core clock.
 */
static uint64_t model_measure_budget(const struct model_cpu *cpu)
{
	uint64_t budget = UINT64_MAX;

	if (cpu->nr_cmask_counting[0] || cpu->nr_cmask_counting[1] ||
	    cpu->core_khz != cpu->tsc_khz)
		return 0;
	for (unsigned int user = 0; user < 2; user++)
		for (unsigned int i = 0; i < cpu->nr_counting[user]; i++) {
			const struct model_counting *c = &cpu->counting[user][i];
			uint64_t room = c->mask - cpu->ctr[c->ctr];

			/* in reach units: a slots counter gets slots per cycle */
			if (c->cls == MODEL_EV_SLOTS && cpu->slots_per_cycle > 1)
				room /= cpu->slots_per_cycle;
			if (room < budget)
				budget = room;
		}
	return budget;
}

/*
 * The clock of a call counted exactly: what is pending goes into the
 * counters first, then the call's cycles pass; its reference cycles (TSC
 * ticks) are returned, to be counted with its other amounts.
 */
static uint64_t model_exact_clock(struct model_cpu *cpu, uint64_t cycles)
{
	uint64_t ticks;

	if (cpu->rt.budget != cpu->budget_base)
		model_fold_pending(cpu);
	ticks = model_tsc_ticks(cpu, cycles);
	cpu->rt.clock += cycles;
	cpu->tsc_offset += ticks - cycles;
	cpu->clock_folded = cpu->rt.clock;
	return ticks;
}

/*
 * Count one retire call exactly, its clock already moved.  The LBR has
 * already recorded the call's branch; the PMI, if one is due, comes last,
 * when the whole state of the call is in place.
 */
static void model_retire_exact(struct model_cpu *cpu, unsigned int user,
			       const uint64_t pend[MODEL_PEND__NR])
{
	uint64_t amount[MODEL_EV__NR];

	model_amounts(cpu, pend, amount);
	model_count(cpu, user, amount);
	for (unsigned int i = 0; i < cpu->nr_cmask_counting[user]; i++) {
		const struct model_counting *c = &cpu->cmask_counting[user][i];
		uint64_t n = model_cmask_count(cpu, c->ctr, amount[c->cls],
					       amount[MODEL_EV_CYCLES]);

		if (n)
			model_count_one(cpu, c, n);
	}
	cpu->rt.budget = cpu->budget_base = model_measure_budget(cpu);
	if (cpu->pmi_pending && !cpu->in_pmi) {
		if (cpu->pmi_at)
			cpu->pmi_at(cpu->pmi_at_ctx, cpu->pmi_at_base + pend[MODEL_PEND_INSNS]);
		model_pmu_deliver_pmi(cpu);
	}
}

/* A branch counted exactly: the LBR records it first, so that a PMI sees it there. */
void model_retire_branch_slow(struct model_cpu *cpu, uint64_t from, uint64_t to,
			      unsigned int what, unsigned int cycles)
{
	enum model_branch_type type = (enum model_branch_type)(what & 0xff);
	unsigned int user = !!(what & MODEL_BRANCH_WHAT_USER);
	bool mispred = what & MODEL_BRANCH_WHAT_MISPRED;
	uint64_t ref = model_exact_clock(cpu, cycles);
	const uint64_t pend[MODEL_PEND__NR] = {
		[MODEL_PEND_INSNS] = 1, [MODEL_PEND_BRANCHES] = 1,
		[MODEL_PEND_MISSES] = mispred, [MODEL_PEND_CYCLES] = cycles,
		[MODEL_PEND_REF] = ref,
	};

	if ((unsigned int)type < MODEL_BR__NR && (cpu->rt.lbr_capture[user] >> type & 1))
		model_lbr_record(cpu, from, to, type, mispred);
	model_retire_exact(cpu, user, pend);
}

static void model_retire_insns_exact(struct model_cpu *cpu, uint64_t n, uint64_t cycles,
				     bool user)
{
	uint64_t ref = model_exact_clock(cpu, cycles);
	const uint64_t pend[MODEL_PEND__NR] = {
		[MODEL_PEND_INSNS] = n, [MODEL_PEND_CYCLES] = cycles, [MODEL_PEND_REF] = ref,
	};

	model_retire_exact(cpu, user, pend);
}

/*
 * The instructions of a block at one cycle each (and a reference cycle:
 * the core clock is the TSC's) that retire before a counter with PMI
 * wraps; that counter wraps at the next one.  UINT64_MAX: none would.
 */
static uint64_t model_insns_before_pmi(const struct model_cpu *cpu, unsigned int user)
{
	uint64_t first = UINT64_MAX;

	for (unsigned int i = 0; i < cpu->nr_counting[user]; i++) {
		const struct model_counting *c = &cpu->counting[user][i];
		uint64_t room = c->mask - cpu->ctr[c->ctr], k;

		if (!(cpu->pmi_on_overflow >> c->ctr & 1))
			continue;
		switch (c->cls) {
		case MODEL_EV_INSNS:
		case MODEL_EV_CYCLES:
		case MODEL_EV_REF_CYCLES:
			k = room;
			break;
		case MODEL_EV_SLOTS:
			k = room / (cpu->slots_per_cycle ? cpu->slots_per_cycle : 1);
			break;
		default:
			continue;	/* branches: none in a block */
		}
		if (k < first)
			first = k;
	}
	return first;
}

void model_retire_insns_slow(struct model_cpu *cpu, uint64_t n, uint64_t cycles, bool user)
{
	uint64_t done = 0;

	/*
	 * Someone names the interrupted instruction (model_cpu_set_pmi_at):
	 * a PMI counter that wraps inside the block raises its PMI right
	 * after the instruction that wrapped it, and the rest of the block
	 * retires after the handler.  Only where an instruction is a cycle
	 * and counters count plainly, so that the wrap's instruction is
	 * known exactly.
	 */
	if (cpu->pmi_at && n == cycles && n > 1 && !cpu->in_pmi &&
	    !cpu->nr_cmask_counting[user] && cpu->core_khz == cpu->tsc_khz) {
		for (;;) {
			uint64_t k;

			model_pmu_sync(cpu);	/* the counters exact */
			k = model_insns_before_pmi(cpu, user);
			if (k >= n - done - 1)
				break;		/* not before the block's last instruction */
			cpu->pmi_at_base = done;
			model_retire_insns_exact(cpu, k + 1, k + 1, user);
			done += k + 1;
		}
	}
	cpu->pmi_at_base = done;
	model_retire_insns_exact(cpu, n - done, cycles - done, user);
	cpu->pmi_at_base = 0;
}

void model_cpu_idle(struct model_cpu *cpu, uint64_t cycles)
{
	cpu->tsc_offset += model_tsc_ticks(cpu, cycles);
}

/*
 * Time the PMU does not see: the TSC and the unhalted cycles move, and
 * nothing else.  The pending sums and the budget stay as they are: no
 * counter changed, so what may still be added before one wraps did not.
 */
void model_cpu_pass_unseen(struct model_cpu *cpu, uint64_t cycles)
{
	cpu->cycles_offset += cycles;
	model_cpu_idle(cpu, cycles);
}
