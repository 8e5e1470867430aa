// SPDX-License-Identifier: GPL-2.0-only
/*
 * The retire path: the simulator's one call per retired branch and one per
 * block of other instructions.  This is the hot path of the whole
 * simulation, so everything decidable in advance was decided when the
 * control MSRs were written (pmu.c, lbr.c): here we only add amounts to the
 * counters on a short list, test one capture mask and record.
 */
#include "model/internal.h"

/* Core cycles -> TSC ticks, carrying the remainder so the sum is exact. */
static uint64_t model_advance_tsc(struct model_cpu *cpu, uint64_t cycles)
{
	uint64_t before = cpu->tsc;

	if (cpu->core_khz == cpu->tsc_khz) {
		cpu->tsc += cycles;
	} else {
		/* Split so that no product exceeds 64 bits (both rates < 2^32). */
		cpu->tsc += cycles / cpu->core_khz * cpu->tsc_khz;
		cpu->tsc_rem += cycles % cpu->core_khz * cpu->tsc_khz;
		cpu->tsc += cpu->tsc_rem / cpu->core_khz;
		cpu->tsc_rem %= cpu->core_khz;
	}
	return cpu->tsc - before;
}

static inline void model_add(struct model_cpu *cpu, unsigned int ctr, uint64_t amount)
{
	uint64_t old = cpu->ctr[ctr];
	uint64_t mask = cpu->ctr_mask[ctr];

	/* Wrap past all ones: the overshoot stays in the counter. */
	if (__builtin_expect(amount > mask - old, 0)) {
		cpu->global_status |= 1ULL << model_status_bit(ctr);
		if (cpu->pmi_on_overflow & (1u << ctr))
			cpu->pmi_pending = true;
	}
	cpu->ctr[ctr] = (old + amount) & mask;
}

static void model_count_cmask(struct model_cpu *cpu, bool user,
			      const uint64_t amount[MODEL_EV__NR])
{
	for (unsigned int i = 0; i < cpu->nr_cmask_counting[user]; i++) {
		const struct model_counting *c = &cpu->cmask_counting[user][i];
		uint64_t n = model_cmask_count(cpu, c->ctr, amount[c->cls],
					       amount[MODEL_EV_CYCLES]);

		if (n)
			model_add(cpu, c->ctr, n);
	}
}

static inline void model_count(struct model_cpu *cpu, bool user,
			       const uint64_t amount[MODEL_EV__NR])
{
	unsigned int n = cpu->nr_counting[user];

	for (unsigned int i = 0; i < n; i++) {
		const struct model_counting *c = &cpu->counting[user][i];
		uint64_t a = amount[c->cls];

		if (a)
			model_add(cpu, c->ctr, a);
	}
	if (__builtin_expect(cpu->nr_cmask_counting[user] != 0, 0))
		model_count_cmask(cpu, user, amount);
}

void model_retire_branch(struct model_cpu *cpu, uint64_t from, uint64_t to,
			 enum model_branch_type type, bool user, bool mispred,
			 unsigned int cycles)
{
	uint64_t amount[MODEL_EV__NR] = {
		[MODEL_EV_INSNS] = 1,
		[MODEL_EV_CYCLES] = cycles,
		[MODEL_EV_REF_CYCLES] = model_advance_tsc(cpu, cycles),
		[MODEL_EV_BRANCHES] = 1,
		[MODEL_EV_BRANCH_MISSES] = mispred,
		[MODEL_EV_SLOTS] = (uint64_t)cycles * cpu->desc->slots_per_cycle,
	};

	user = !!user;
	cpu->cycles += cycles;
	cpu->lbr_cycles += cycles;
	model_count(cpu, user, amount);
	if ((unsigned int)type < MODEL_BR__NR && (cpu->lbr_capture[user] >> type & 1))
		model_lbr_record(cpu, from, to, type, mispred);
	if (__builtin_expect(cpu->pmi_pending && !cpu->in_pmi, 0))
		model_pmu_deliver_pmi(cpu);
}

void model_retire_insns(struct model_cpu *cpu, uint64_t n, uint64_t cycles, bool user)
{
	uint64_t amount[MODEL_EV__NR] = {
		[MODEL_EV_INSNS] = n,
		[MODEL_EV_CYCLES] = cycles,
		[MODEL_EV_REF_CYCLES] = model_advance_tsc(cpu, cycles),
		[MODEL_EV_SLOTS] = cycles * cpu->desc->slots_per_cycle,
	};

	user = !!user;
	cpu->cycles += cycles;
	cpu->lbr_cycles += cycles;
	model_count(cpu, user, amount);
	if (__builtin_expect(cpu->pmi_pending && !cpu->in_pmi, 0))
		model_pmu_deliver_pmi(cpu);
}

void model_cpu_idle(struct model_cpu *cpu, uint64_t cycles)
{
	model_advance_tsc(cpu, cycles);
}
