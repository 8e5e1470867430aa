// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MSR file of a model CPU: rdmsr/wrmsr as the driver sees them.  Each
 * register lives with the unit that owns it (pmu.c, lbr.c); this file only
 * routes, and turns "nobody has it" into the #GP of a missing MSR.  The
 * counters may have counts pending (retire.c): they are folded in first.
 * The LBR entries are asked for first: a PMI reads all of them, 3 per
 * record, and no other register shares their numbers.
 */
#include <errno.h>

#include "model/internal.h"

int model_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val)
{
	uint64_t *entry;
	int ret;

	model_pmu_sync(cpu);
	entry = model_lbr_entry(cpu, msr);
	if (entry) {
		*val = *entry;
		return 0;
	}
	ret = model_pmu_rdmsr(cpu, msr, val);

	if (ret == -ENOENT)
		ret = model_lbr_rdmsr(cpu, msr, val);
	return ret;
}

int model_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val)
{
	uint64_t *entry;
	int ret;

	model_pmu_sync(cpu);
	entry = model_lbr_entry(cpu, msr);
	if (entry) {
		/* Context-switch restore writes entries back as they were read. */
		if (cpu->lbr_from_signext && !model_lbr_from_write_ok(cpu, msr, val))
			return -EIO;
		*entry = val;
		return 0;
	}
	ret = model_pmu_wrmsr(cpu, msr, val);

	if (ret == -ENOENT)
		ret = model_lbr_wrmsr(cpu, msr, val);
	return ret;
}
