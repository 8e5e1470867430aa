/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msr.h - rdmsr/wrmsr/cpuid as the x86 driver uses them (the counterpart
 * of arch/x86/include/asm/msr.h and processor.h's cpuid()).
 *
 * Customised: the instructions go to the model CPU plugged into the CPU
 * the code runs on (smp_processor_id()); the simulator plugs them in at
 * boot with x86_pmu_attach_cpu(). This is the driver's only way to the
 * hardware: it never looks at the model's state.
 *
 * The _safe variants return 0 or -EIO where the hardware raises #GP. The
 * plain ones, like the kernel's, report an unchecked access error (a
 * WARN) and read 0 / write nothing.
 */
#ifndef PMUSIM_CORE_X86_MSR_H
#define PMUSIM_CORE_X86_MSR_H

#include "core/kernel.h"
#include "core/sched.h"
#include "model/model.h"
#include "model/msr-index.h"

/* The hardware behind each CPU; NULL where nothing is plugged in. */
extern struct model_cpu *x86_model_cpus[CONFIG_MODEL_MAX_CPUS];

static __always_inline struct model_cpu *this_model_cpu(void)
{
	return x86_model_cpus[smp_processor_id()];
}

void x86_msr_unchecked(u32 msr, u64 val, bool write);

static __always_inline int rdmsrl_safe(u32 msr, u64 *val)
{
	struct model_cpu *cpu = this_model_cpu();

	if (unlikely(!cpu)) {
		*val = 0;
		return -EIO;
	}
	return model_rdmsr(cpu, msr, val);
}

static __always_inline int wrmsrl_safe(u32 msr, u64 val)
{
	struct model_cpu *cpu = this_model_cpu();

	if (unlikely(!cpu))
		return -EIO;
	return model_wrmsr(cpu, msr, val);
}

static __always_inline u64 __rdmsrl(u32 msr)
{
	u64 val;

	if (unlikely(rdmsrl_safe(msr, &val))) {
		x86_msr_unchecked(msr, 0, false);
		return 0;
	}
	return val;
}

#define rdmsrl(msr, val)	((val) = __rdmsrl(msr))

static __always_inline void wrmsrl(u32 msr, u64 val)
{
	if (unlikely(wrmsrl_safe(msr, val)))
		x86_msr_unchecked(msr, val, true);
}

/* cpuid(op, &eax, &ebx, &ecx, &edx) with subleaf 0; cpuid_count() with one. */
static inline void cpuid_count(u32 op, u32 count, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	struct model_cpu *cpu = this_model_cpu();
	u32 regs[4] = { 0, 0, 0, 0 };

	if (cpu)
		model_cpuid(cpu, op, count, regs);
	*eax = regs[0];
	*ebx = regs[1];
	*ecx = regs[2];
	*edx = regs[3];
}

static inline void cpuid(u32 op, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	cpuid_count(op, 0, eax, ebx, ecx, edx);
}

#endif /* PMUSIM_CORE_X86_MSR_H */
