/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * customised: the x86 primitives lbr.c runs on, changed for testing.
 *
 *   rdmsrl/wrmsrl (+ _safe), v6.16's rdmsrq/wrmsrq  the MSR file of pmusim's model CPU plugged
 *                            into this unit (ksrc_x86_cpu), as core/x86/
 *                            msr.h does for core/; every write is also
 *                            counted (the oracle compares the streams)
 *   cpuid                    the model CPU's CPUID
 *   static keys              bools; static_branch_enable() remembers the
 *                            key so a new CPU model starts with all off
 *                            (the kernel boots once, pmusim many times)
 *   static_cpu_has, boot_cpu_has  boot_cpu_data's capability words, filled
 *                            from the model's CPUID at init
 */
#ifndef KSRC_X86_SHIM_CUSTOMISED_H
#define KSRC_X86_SHIM_CUSTOMISED_H

#include <shim/x86_duplicated.h>

struct model_cpu;
int model_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val);
int model_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);
void model_cpuid(const struct model_cpu *cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* The model CPU behind this unit's rdmsr/wrmsr/cpuid (ksrc/arch/x86/events/core_stubs.c). */
extern struct model_cpu *ksrc_x86_cpu;
/* An unchecked access that faulted: a WARN, as the kernel's "unchecked MSR access error". */
void ksrc_x86_msr_unchecked(u32 msr, u64 val, bool write);

static inline int rdmsrl_safe(u32 msr, u64 *val)
{
	*val = 0;
	return ksrc_x86_cpu ? model_rdmsr(ksrc_x86_cpu, msr, val) : -EIO;
}
static inline int wrmsrl_safe(u32 msr, u64 val)
{
	return ksrc_x86_cpu ? model_wrmsr(ksrc_x86_cpu, msr, val) : -EIO;
}
static inline u64 __ksrc_rdmsrl(u32 msr)
{
	u64 val;

	if (rdmsrl_safe(msr, &val)) {
		ksrc_x86_msr_unchecked(msr, 0, false);
		return 0;
	}
	return val;
}
#define rdmsrl(msr, val)	((val) = __ksrc_rdmsrl(msr))
static inline void wrmsrl(u32 msr, u64 val)
{
	if (wrmsrl_safe(msr, val))
		ksrc_x86_msr_unchecked(msr, val, true);
}

/*
 * v6.16 renamed them ("x86/msr: Rename 'rdmsrl()' to 'rdmsrq()'" and the
 * like): the same accesses under both names, whichever the tree calls.
 */
#define rdmsrq(msr, val)		rdmsrl(msr, val)
#define wrmsrq(msr, val)		wrmsrl(msr, val)
#define rdmsrq_safe(msr, val)		rdmsrl_safe(msr, val)
#define wrmsrq_safe(msr, val)		wrmsrl_safe(msr, val)

static inline void cpuid(unsigned int op, unsigned int *eax, unsigned int *ebx,
			 unsigned int *ecx, unsigned int *edx)
{
	u32 regs[4] = { 0, 0, 0, 0 };

	if (ksrc_x86_cpu)
		model_cpuid(ksrc_x86_cpu, op, 0, regs);
	*eax = regs[0];
	*ebx = regs[1];
	*ecx = regs[2];
	*edx = regs[3];
}

/* <linux/jump_label.h> */
struct static_key_false {
	bool enabled;
};
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { false }
#define static_branch_unlikely(key)	unlikely((key)->enabled)
#define static_branch_likely(key)	likely((key)->enabled)
void ksrc_static_key_enable(struct static_key_false *key);
#define static_branch_enable(key)	ksrc_static_key_enable(key)

/* <asm/cpufeature.h> */
extern struct cpuinfo_x86 boot_cpu_data;
#define boot_cpu_has(bit)	test_bit((bit), (unsigned long *)boot_cpu_data.x86_capability)
#define static_cpu_has(bit)	boot_cpu_has(bit)
#define cpu_feature_enabled(bit) boot_cpu_has(bit)
#define setup_clear_cpu_cap(bit) \
	(boot_cpu_data.x86_capability[(bit) / 32] &= ~(1U << ((bit) % 32)))

#endif /* KSRC_X86_SHIM_CUSTOMISED_H */
