// SPDX-License-Identifier: GPL-2.0-only
/*
 * A model CPU: creation in the reset state, the PMI line, and the
 * ground-truth getters.
 */
#include <stdlib.h>

#include <generated/autoconf.h>

#include "model/internal.h"

struct model_cpu *model_cpu_create(const struct model_cpu_desc *desc, int cpu_id)
{
	struct model_cpu *cpu;

	if (!desc || desc->nr_gp > MODEL_MAX_GP || desc->nr_fixed > MODEL_MAX_FIXED ||
	    desc->lbr_nr > MODEL_MAX_LBR)
		return NULL;
	cpu = calloc(1, sizeof(*cpu));
	if (!cpu)
		return NULL;
	cpu->desc = desc;
	cpu->cpu_id = cpu_id;
	cpu->tsc_khz = CONFIG_MODEL_TSC_KHZ;
	cpu->core_khz = CONFIG_MODEL_TSC_KHZ;
	cpu->slots_per_cycle = desc->slots_per_cycle;
	model_pmu_reset(cpu);
	model_lbr_reset(cpu);
	model_pmu_update(cpu);
	model_lbr_update(cpu);
	return cpu;
}

void model_cpu_destroy(struct model_cpu *cpu)
{
	free(cpu);
}

void model_cpu_set_pmi(struct model_cpu *cpu, model_pmi_fn pmi, void *ctx)
{
	cpu->pmi = pmi;
	cpu->pmi_ctx = ctx;
}

void model_cpu_set_pmi_at(struct model_cpu *cpu, model_pmi_at_fn fn, void *ctx)
{
	cpu->pmi_at = fn;
	cpu->pmi_at_ctx = ctx;
}

void model_cpu_set_pmi_cycles(struct model_cpu *cpu, uint64_t cycles)
{
	cpu->pmi_cycles = cycles;
}

void model_cpu_set_core_khz(struct model_cpu *cpu, uint32_t khz)
{
	/* the pending sums hold reference cycles at the old rate */
	model_pmu_sync(cpu);
	cpu->core_khz = khz ? khz : cpu->tsc_khz;
	cpu->tsc_rem = 0;
}

uint64_t model_cpu_tsc(const struct model_cpu *cpu)
{
	return model_tsc(cpu);
}

int model_cpu_id(const struct model_cpu *cpu)
{
	return cpu->cpu_id;
}

const struct model_cpu_desc *model_cpu_get_desc(const struct model_cpu *cpu)
{
	return cpu->desc;
}

uint64_t model_cpu_cycles(const struct model_cpu *cpu)
{
	return model_unhalted_cycles(cpu);
}

uint64_t model_cpu_nr_pmis(const struct model_cpu *cpu)
{
	return cpu->nr_pmis;
}
