/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model Intel CPU: PMU counters, PMI, LBR.  This is the hardware side of
 * pmusim.  Three kinds of callers:
 *
 *   the x86 driver (core/)  - model_rdmsr(), model_wrmsr(), model_cpuid(), and
 *                             the PMI callback it registers; nothing else;
 *   the simulator (sim/)    - creates CPUs, retires work on them
 *                             (model_retire_branch/insns/idle), reads the TSC;
 *   tests and ground truth  - the getters at the end.
 *
 * Time: every retire call carries the core cycles it took.  The model TSC
 * advances by cycles * tsc_khz / core_khz (exact, remainder carried), with
 * tsc_khz = CONFIG_MODEL_TSC_KHZ and core_khz equal to it unless changed by
 * model_cpu_set_core_khz(); so by default TSC == unhalted core cycles.
 * Reference cycles (fixed counter 2, event 0x3c/0x01) count at the TSC rate.
 */
#ifndef PMUSIM_MODEL_MODEL_H
#define PMUSIM_MODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/retire.h"

struct model_cpu;

/* One row of the CPU model table (model/cpu_models.c). */
struct model_cpu_desc {
	const char *name;		/* "core2", "nehalem", "skylake", ... */
	unsigned int family, model, stepping;	/* CPUID leaf 1 */
	unsigned int pmu_version;	/* CPUID.0AH:EAX[7:0] */
	unsigned int nr_gp, gp_width;
	unsigned int nr_fixed, fixed_width;
	unsigned int lbr_nr;		/* legacy depth, or Arch LBR maximum depth */
	unsigned int lbr_format;	/* LBR_FORMAT_*; what PERF_CAPABILITIES[5:0] says */
	uint32_t lbr_from, lbr_to;	/* legacy FROM/TO MSR bases; 0 with Arch LBR */
	bool has_perf_capabilities;	/* CPUID.1:ECX.PDCM; MSR 0x345 faults without */
	bool has_lbr_select;		/* MSR_LBR_SELECT exists (Nehalem+) */
	bool has_lbr_callstack;		/* LBR_SELECT.EN_CALLSTACK, writable TOS (HSW+) */
	bool has_lbr_info;		/* MSR_LBR_INFO_x (Skylake+) */
	bool arch_lbr;			/* Architectural LBR instead of the above */
	bool fw_write;			/* PERF_CAPABILITIES.FW_WRITE: A_PMCx aliases */
	/*
	 * TSX (CPUID.7.0:EBX HLE and RTM). The model runs no transactions, so
	 * captured records never have IN_TX or ABORT set; what changes is
	 * EIP_FLAGS2's FROM MSRs: without TSX a write must sign-extend into
	 * bits 62:61 (they #GP otherwise), with TSX they are the flags.
	 */
	bool has_tsx;
	/* Arch LBR: CPUID.1CH:EBX[2:0], CPL filtering, branch filtering, call-stack mode */
	unsigned int arch_lbr_caps;
	uint64_t perf_capabilities;	/* the MSR's value (LBR format, FW_WRITE) */
	unsigned int slots_per_cycle;	/* fixed counter 3 (TOPDOWN.SLOTS), if present */
};

/* NULL if the name is unknown. */
const struct model_cpu_desc *model_cpu_desc_lookup(const char *name);
/* The Kconfig choice MODEL_CPU_*. */
const struct model_cpu_desc *model_cpu_desc_default(void);
/* The table, for iteration: *nr receives its length. */
const struct model_cpu_desc *model_cpu_desc_table(unsigned int *nr);

/* NULL on allocation failure.  Registers come up in their reset state. */
struct model_cpu *model_cpu_create(const struct model_cpu_desc *desc, int cpu_id);
void model_cpu_destroy(struct model_cpu *cpu);

/* ---- the driver's side --------------------------------------------------- */

/*
 * 0, or -EIO where the hardware raises #GP (what rdmsr_safe/wrmsr_safe see):
 * an MSR the CPU model does not have, a reserved bit set, a write to a
 * read-only MSR.  A failed write changes nothing.
 */
int model_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val);
int model_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);

/* CPUID as the kernel reads it: leaves 0, 1, 7, 0xA, 0x1C; others read 0. */
void model_cpuid(const struct model_cpu *cpu, uint32_t leaf, uint32_t subleaf,
		 uint32_t regs[4] /* eax, ebx, ecx, edx */);

/*
 * The PMI (an NMI on real hardware).  Called synchronously from inside a
 * retire call, after that call's whole state update (counters, LBR,
 * GLOBAL_STATUS, freeze), once per retire call in which at least one
 * counter with PMI enabled wrapped.  Retire calls made from inside the
 * callback do not nest a second PMI; it is delivered after the callback
 * returns (NMIs are blocked while one is handled).
 */
typedef void (*model_pmi_fn)(void *ctx, int cpu_id);
void model_cpu_set_pmi(struct model_cpu *cpu, model_pmi_fn pmi, void *ctx);

/*
 * What a handled PMI costs the CPU, in core cycles: NMI entry, the
 * handler, NMI exit.  After each return of the PMI callback that many
 * cycles pass with the PMU seeing none of them (the driver runs its
 * handler with the PMU disabled): the TSC and the unhalted cycle count
 * move on, no counter counts, the LBR records nothing and its cycle count
 * does not grow.  0 (the reset value): a PMI takes no time.  Set by the
 * simulator, as a property of the machine, not by the driver.
 */
void model_cpu_set_pmi_cycles(struct model_cpu *cpu, uint64_t cycles);

/* ---- the workload's side ------------------------------------------------- */

/*
 * Where a PMI is taken, for a simulator that knows each instruction's
 * address.  Before each PMI a retire call delivers, @fn learns after how
 * many of the call's instructions it is taken: the interrupted ip is the
 * instruction after those, the overflowing one (what PEBS reports as the
 * eventing ip) the last of them.  A branch: 1 (the branch overflowed; its
 * target is next).  With @fn set, a block of n instructions at one cycle
 * each (retire.c) is split where a PMI counter wraps: the PMI comes right
 * after the instruction that wrapped it, not at the block's end, so
 * retired is 1..n.  Without it (NULL, the reset state) a block's PMI comes
 * at its end, after all n.
 */
typedef void (*model_pmi_at_fn)(void *ctx, uint64_t retired);
void model_cpu_set_pmi_at(struct model_cpu *cpu, model_pmi_at_fn fn, void *ctx);

/*
 * model_retire_branch() and model_retire_insns(), the calls per retired
 * branch and per block of other instructions, are inline: model/retire.h.
 */

/* The CPU is halted for `cycles` core-clock periods: only the TSC moves. */
void model_cpu_idle(struct model_cpu *cpu, uint64_t cycles);
/* Core clock (turbo); the TSC keeps CONFIG_MODEL_TSC_KHZ.  0 = back to TSC rate. */
void model_cpu_set_core_khz(struct model_cpu *cpu, uint32_t khz);

/* The model TSC (what rdtsc and MSR_IA32_TSC read). */
uint64_t model_cpu_tsc(const struct model_cpu *cpu);

/* ---- ground truth for the simulator and tests; the driver must not use ---- */

int model_cpu_id(const struct model_cpu *cpu);
const struct model_cpu_desc *model_cpu_get_desc(const struct model_cpu *cpu);
/* Unhalted core cycles retired since creation. */
uint64_t model_cpu_cycles(const struct model_cpu *cpu);
/* Number of PMIs delivered since creation. */
uint64_t model_cpu_nr_pmis(const struct model_cpu *cpu);

#endif /* PMUSIM_MODEL_MODEL_H */
