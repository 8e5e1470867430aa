// SPDX-License-Identifier: GPL-2.0-only
/*
 * msr.c - the per-CPU table of plugged-in model CPUs behind rdmsr/wrmsr,
 * and the report of an unchecked MSR access that faulted.
 */
#include "core/x86/msr.h"

struct model_cpu *x86_model_cpus[CONFIG_MODEL_MAX_CPUS];

/*
 * The kernel prints "unchecked MSR access error" and carries on; pmusim
 * counts it as a warning, so a test that expects a clean run fails.
 */
void x86_msr_unchecked(u32 msr, u64 val, bool write)
{
	if (IS_ENABLED(CONFIG_DEBUG_PERF))
		fprintf(stderr, "pmusim: unchecked MSR access error: %s 0x%x (0x%llx) on CPU %d\n",
			write ? "WRMSR to" : "RDMSR from", msr,
			(unsigned long long)val, smp_processor_id());
	WARN_ON_ONCE(1);
}
