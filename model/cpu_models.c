// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPU model table and the CPUID leaves derived from it.
 *
 * PERF_CAPABILITIES carries only what the model implements: the LBR format
 * and FW_WRITE.  PEBS fields, PERF_METRICS and SMM freeze read as 0, and
 * CPUID says there is no DS/DTES64, no RTM (unless a test's has_tsx) and no hypervisor, so a driver
 * that follows the kernel stays off the paths the model does not have.
 */
#include <stddef.h>
#include <string.h>

#include <generated/autoconf.h>

#include "model/internal.h"
#include "model/msr-index.h"

static const struct model_cpu_desc model_cpu_descs[] = {
	{
		/*
		 * Core 2 (Merom): no PDCM, so no PERF_CAPABILITIES; the kernel
		 * then assumes LBR_FORMAT_32 and reads one MSR per entry
		 * (intel_pmu_lbr_read_32), from in bits 31:0 and to in 63:32.
		 */
		.name = "core2", .family = 6, .model = 0x0f, .stepping = 6,
		.pmu_version = 2, .nr_gp = 2, .gp_width = 40,
		.nr_fixed = 3, .fixed_width = 40,
		.lbr_nr = 4, .lbr_format = LBR_FORMAT_32,
		.lbr_from = MSR_LBR_CORE_FROM, .lbr_to = MSR_LBR_CORE_TO,
	},
	{
		/*
		 * Atom (Silvermont, Bay Trail): 8 LBRs at the Core 2 addresses
		 * (SDM 17.5.2) but 64-bit, with LBR_SELECT filtering and no
		 * call-stack mode (the kernel's intel_pmu_lbr_init_slm). The
		 * format is assumed to be EIP_FLAGS (MISPRED in FROM[63]), as
		 * on Nehalem; no FW_WRITE, so periods stop at 2^31 - 1.
		 */
		.name = "atom", .family = 6, .model = 0x37, .stepping = 8,
		.pmu_version = 3, .nr_gp = 2, .gp_width = 40,
		.nr_fixed = 3, .fixed_width = 40,
		.lbr_nr = 8, .lbr_format = LBR_FORMAT_EIP_FLAGS,
		.lbr_from = MSR_LBR_CORE_FROM, .lbr_to = MSR_LBR_CORE_TO,
		.has_perf_capabilities = true, .has_lbr_select = true,
		.perf_capabilities = LBR_FORMAT_EIP_FLAGS,
	},
	{
		/* Nehalem: MISPRED in FROM[63] (SDM Table 17-8), i.e. EIP_FLAGS. */
		.name = "nehalem", .family = 6, .model = 0x1a, .stepping = 5,
		.pmu_version = 3, .nr_gp = 4, .gp_width = 48,
		.nr_fixed = 3, .fixed_width = 48,
		.lbr_nr = 16, .lbr_format = LBR_FORMAT_EIP_FLAGS,
		.lbr_from = MSR_LBR_NHM_FROM, .lbr_to = MSR_LBR_NHM_TO,
		.has_perf_capabilities = true, .has_lbr_select = true,
		.perf_capabilities = LBR_FORMAT_EIP_FLAGS,
	},
	{
		/*
		 * Haswell client: 16 LBRs as on Nehalem, plus the call-stack
		 * mode (LBR_SELECT bit 9, writable TOS) and EIP_FLAGS2 (FROM
		 * bits 63:61 mispredict, in TSX, TSX abort; the model has no
		 * TSX, so the last two read 0). Like Nehalem, no FW_WRITE is
		 * claimed.
		 */
		.name = "haswell", .family = 6, .model = 0x3c, .stepping = 3,
		.pmu_version = 3, .nr_gp = 4, .gp_width = 48,
		.nr_fixed = 3, .fixed_width = 48,
		.lbr_nr = 16, .lbr_format = LBR_FORMAT_EIP_FLAGS2,
		.lbr_from = MSR_LBR_NHM_FROM, .lbr_to = MSR_LBR_NHM_TO,
		.has_perf_capabilities = true, .has_lbr_select = true,
		.has_lbr_callstack = true,
		.perf_capabilities = LBR_FORMAT_EIP_FLAGS2,
	},
	{
		/* Skylake client, HT on: 4 GP counters per thread. */
		.name = "skylake", .family = 6, .model = 0x5e, .stepping = 3,
		.pmu_version = 4, .nr_gp = 4, .gp_width = 48,
		.nr_fixed = 3, .fixed_width = 48,
		.lbr_nr = 32, .lbr_format = LBR_FORMAT_INFO,
		.lbr_from = MSR_LBR_NHM_FROM, .lbr_to = MSR_LBR_NHM_TO,
		.has_perf_capabilities = true, .has_lbr_select = true,
		.has_lbr_callstack = true, .has_lbr_info = true, .fw_write = true,
		.perf_capabilities = LBR_FORMAT_INFO | PERF_CAP_FW_WRITES,
	},
	{
		.name = "icelake", .family = 6, .model = 0x7e, .stepping = 5,
		.pmu_version = 5, .nr_gp = 8, .gp_width = 48,
		.nr_fixed = 4, .fixed_width = 48,
		.lbr_nr = 32, .lbr_format = LBR_FORMAT_INFO,
		.lbr_from = MSR_LBR_NHM_FROM, .lbr_to = MSR_LBR_NHM_TO,
		.has_perf_capabilities = true, .has_lbr_select = true,
		.has_lbr_callstack = true, .has_lbr_info = true, .fw_write = true,
		.perf_capabilities = LBR_FORMAT_INFO | PERF_CAP_FW_WRITES,
		.slots_per_cycle = 4,
	},
	{
		/* Golden Cove allocates 6 slots per cycle. */
		.name = "sapphirerapids", .family = 6, .model = 0x8f, .stepping = 8,
		.pmu_version = 5, .nr_gp = 8, .gp_width = 48,
		.nr_fixed = 4, .fixed_width = 48,
		.lbr_nr = 32, .lbr_format = LBR_FORMAT_ARCH_LBR,
		.has_perf_capabilities = true, .arch_lbr = true, .fw_write = true,
		.perf_capabilities = LBR_FORMAT_ARCH_LBR | PERF_CAP_FW_WRITES,
		.arch_lbr_caps = 0x7,
		.slots_per_cycle = 6,
	},
};

#define NR_MODEL_CPU_DESCS (sizeof(model_cpu_descs) / sizeof(model_cpu_descs[0]))

const struct model_cpu_desc *model_cpu_desc_table(unsigned int *nr)
{
	*nr = NR_MODEL_CPU_DESCS;
	return model_cpu_descs;
}

const struct model_cpu_desc *model_cpu_desc_lookup(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < NR_MODEL_CPU_DESCS; i++)
		if (!strcmp(model_cpu_descs[i].name, name))
			return &model_cpu_descs[i];
	return NULL;
}

const struct model_cpu_desc *model_cpu_desc_default(void)
{
#if defined(CONFIG_MODEL_CPU_CORE2)
	return model_cpu_desc_lookup("core2");
#elif defined(CONFIG_MODEL_CPU_ATOM)
	return model_cpu_desc_lookup("atom");
#elif defined(CONFIG_MODEL_CPU_NEHALEM)
	return model_cpu_desc_lookup("nehalem");
#elif defined(CONFIG_MODEL_CPU_HASWELL)
	return model_cpu_desc_lookup("haswell");
#elif defined(CONFIG_MODEL_CPU_ICELAKE)
	return model_cpu_desc_lookup("icelake");
#elif defined(CONFIG_MODEL_CPU_SAPPHIRERAPIDS)
	return model_cpu_desc_lookup("sapphirerapids");
#else
	return model_cpu_desc_lookup("skylake");
#endif
}

/* "GenuineIntel" in EBX, EDX, ECX order */
#define CPUID_VENDOR_EBX 0x756e6547u
#define CPUID_VENDOR_EDX 0x49656e69u
#define CPUID_VENDOR_ECX 0x6c65746eu

#define CPUID_1_EDX_TSC		(1u << 4)
#define CPUID_1_EDX_MSR		(1u << 5)
#define CPUID_1_EDX_APIC	(1u << 9)

/* CPUID.0AH:EBX bits: events NOT available (1 = absent) */
#define ARCH_EVENT_LLC_REFERENCES	(1u << 3)
#define ARCH_EVENT_LLC_MISSES		(1u << 4)
#define ARCH_EVENTS_LENGTH		7
#define CPUID_A_EDX_ANYTHREAD_DEPRECATED (1u << 15)

static void model_cpuid_arch_perfmon(const struct model_cpu_desc *d, uint32_t regs[4])
{
	regs[0] = d->pmu_version | d->nr_gp << 8 | d->gp_width << 16 |
		  ARCH_EVENTS_LENGTH << 24;
	/* The model has no cache hierarchy: the two LLC events are absent. */
	regs[1] = ARCH_EVENT_LLC_REFERENCES | ARCH_EVENT_LLC_MISSES;
	/* v5: ECX is the bitmap of the fixed counters that exist. */
	regs[2] = d->pmu_version >= 5 ? (1u << d->nr_fixed) - 1 : 0;
	regs[3] = d->nr_fixed | d->fixed_width << 5;
	if (d->pmu_version >= 5)
		regs[3] |= CPUID_A_EDX_ANYTHREAD_DEPRECATED;
}

static void model_cpuid_arch_lbr(const struct model_cpu_desc *d, uint32_t regs[4])
{
	/* EAX[7:0]: bit n set = depth 8*(n+1) supported; all up to the maximum. */
	regs[0] = (1u << (d->lbr_nr / 8)) - 1;
	regs[1] = d->arch_lbr_caps;
	regs[2] = 0x7;	/* mispredict bit, timed LBRs, branch type field */
	regs[3] = 0;
}

void model_cpuid(const struct model_cpu *cpu, uint32_t leaf, uint32_t subleaf,
		 uint32_t regs[4])
{
	const struct model_cpu_desc *d = cpu->desc;

	regs[0] = regs[1] = regs[2] = regs[3] = 0;
	switch (leaf) {
	case 0x0:
		regs[0] = d->arch_lbr ? CPUID_LEAF_ARCH_LBR : CPUID_LEAF_ARCH_PERFMON;
		regs[1] = CPUID_VENDOR_EBX;
		regs[2] = CPUID_VENDOR_ECX;
		regs[3] = CPUID_VENDOR_EDX;
		break;
	case CPUID_LEAF_FEATURES:
		regs[0] = d->stepping | (d->model & 0xf) << 4 | (d->family & 0xf) << 8 |
			  (d->model >> 4) << 16;
		regs[1] = (uint32_t)cpu->cpu_id << 24;	/* initial APIC id */
		regs[2] = d->has_perf_capabilities ? CPUID_1_ECX_PDCM : 0;
		regs[3] = CPUID_1_EDX_TSC | CPUID_1_EDX_MSR | CPUID_1_EDX_APIC;
		break;
	case CPUID_LEAF_EXT_FEATURES:
		if (subleaf == 0 && d->arch_lbr)
			regs[3] = CPUID_7_EDX_ARCH_LBR;
		if (subleaf == 0 && d->has_tsx)
			regs[1] = CPUID_7_EBX_HLE | CPUID_7_EBX_RTM;
		break;
	case CPUID_LEAF_ARCH_PERFMON:
		model_cpuid_arch_perfmon(d, regs);
		break;
	case CPUID_LEAF_ARCH_LBR:
		if (d->arch_lbr && subleaf == 0)
			model_cpuid_arch_lbr(d, regs);
		break;
	default:
		break;
	}
}
