/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Architectural MSR numbers and bit layouts of the Intel PMU and LBR, under
 * the names of the kernel's arch/x86/include/asm/msr-index.h and
 * arch/x86/include/asm/perf_event.h.  Shared by the model (which implements
 * them) and the x86 driver in core/ (which programs them), so it is
 * standalone: plain constants, nothing of the model's internals.
 */
#ifndef PMUSIM_MODEL_MSR_INDEX_H
#define PMUSIM_MODEL_MSR_INDEX_H

#define MSR_IA32_TSC				0x00000010

/* General-purpose counters and their event selects */
#define MSR_ARCH_PERFMON_PERFCTR0		0x000000c1
#define MSR_IA32_PERFCTR0			MSR_ARCH_PERFMON_PERFCTR0
#define MSR_ARCH_PERFMON_EVENTSEL0		0x00000186
#define MSR_IA32_PMC0				0x000004c1	/* full-width alias */

#define ARCH_PERFMON_EVENTSEL_EVENT		0x000000ffULL
#define ARCH_PERFMON_EVENTSEL_UMASK		0x0000ff00ULL
#define ARCH_PERFMON_EVENTSEL_USR		(1ULL << 16)
#define ARCH_PERFMON_EVENTSEL_OS		(1ULL << 17)
#define ARCH_PERFMON_EVENTSEL_EDGE		(1ULL << 18)
#define ARCH_PERFMON_EVENTSEL_PIN_CONTROL	(1ULL << 19)
#define ARCH_PERFMON_EVENTSEL_INT		(1ULL << 20)
#define ARCH_PERFMON_EVENTSEL_ANY		(1ULL << 21)
#define ARCH_PERFMON_EVENTSEL_ENABLE		(1ULL << 22)
#define ARCH_PERFMON_EVENTSEL_INV		(1ULL << 23)
#define ARCH_PERFMON_EVENTSEL_CMASK		0xff000000ULL
#define ARCH_PERFMON_EVENTSEL_CMASK_SHIFT	24

/* Fixed-function counters */
#define MSR_ARCH_PERFMON_FIXED_CTR0		0x00000309
#define MSR_CORE_PERF_FIXED_CTR0		0x00000309	/* INST_RETIRED.ANY */
#define MSR_CORE_PERF_FIXED_CTR1		0x0000030a	/* CPU_CLK_UNHALTED.CORE */
#define MSR_CORE_PERF_FIXED_CTR2		0x0000030b	/* CPU_CLK_UNHALTED.REF */
#define MSR_CORE_PERF_FIXED_CTR3		0x0000030c	/* TOPDOWN.SLOTS */
#define MSR_ARCH_PERFMON_FIXED_CTR_CTRL		0x0000038d
#define MSR_CORE_PERF_FIXED_CTR_CTRL		0x0000038d

#define INTEL_FIXED_BITS_STRIDE			4
#define INTEL_FIXED_0_KERNEL			(1ULL << 0)
#define INTEL_FIXED_0_USER			(1ULL << 1)
#define INTEL_FIXED_0_ANYTHREAD			(1ULL << 2)
#define INTEL_FIXED_0_ENABLE_PMI		(1ULL << 3)
#define intel_fixed_bits_by_idx(_idx, _bits)	\
	((_bits) << ((_idx) * INTEL_FIXED_BITS_STRIDE))

/* Global control and status (architectural perfmon v2+) */
#define MSR_CORE_PERF_GLOBAL_STATUS		0x0000038e
#define MSR_CORE_PERF_GLOBAL_CTRL		0x0000038f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL		0x00000390	/* STATUS_RESET from v4 */
#define MSR_CORE_PERF_GLOBAL_STATUS_SET		0x00000391	/* v4+ */

#define INTEL_PMC_IDX_FIXED			32
#define GLOBAL_STATUS_COND_CHG			(1ULL << 63)
#define GLOBAL_STATUS_BUFFER_OVF_BIT		62
#define GLOBAL_STATUS_BUFFER_OVF		(1ULL << GLOBAL_STATUS_BUFFER_OVF_BIT)
#define GLOBAL_STATUS_UNC_OVF			(1ULL << 61)
#define GLOBAL_STATUS_ASIF			(1ULL << 60)
#define GLOBAL_STATUS_COUNTERS_FROZEN		(1ULL << 59)
#define GLOBAL_STATUS_LBRS_FROZEN_BIT		58
#define GLOBAL_STATUS_LBRS_FROZEN		(1ULL << GLOBAL_STATUS_LBRS_FROZEN_BIT)
#define GLOBAL_STATUS_TRACE_TOPAPMI_BIT		55
#define GLOBAL_STATUS_TRACE_TOPAPMI		(1ULL << GLOBAL_STATUS_TRACE_TOPAPMI_BIT)

/* IA32_PERF_CAPABILITIES (present when CPUID.1:ECX.PDCM[15]) */
#define MSR_IA32_PERF_CAPABILITIES		0x00000345
#define PERF_CAP_LBR_FMT			0x3fULL
#define PERF_CAP_FW_WRITES			(1ULL << 13)

/* LBR_FORMAT_* values of PERF_CAPABILITIES[5:0] */
#define LBR_FORMAT_32				0x00	/* FROM holds from(31:0), to(63:32) */
#define LBR_FORMAT_LIP				0x01
#define LBR_FORMAT_EIP				0x02
#define LBR_FORMAT_EIP_FLAGS			0x03	/* FROM[63] = mispredicted */
#define LBR_FORMAT_EIP_FLAGS2			0x04	/* FROM[63:61] = mispred, in_tx, abort */
#define LBR_FORMAT_INFO				0x05	/* flags and cycles in LBR_INFO */
#define LBR_FORMAT_TIME				0x06
#define LBR_FORMAT_INFO2			0x07
#define LBR_FORMAT_ARCH_LBR			0x3f	/* the model's value on Arch LBR parts */

/* IA32_DEBUGCTL */
#define MSR_IA32_DEBUGCTLMSR			0x000001d9
#define DEBUGCTLMSR_LBR				(1ULL << 0)
#define DEBUGCTLMSR_BTF				(1ULL << 1)
#define DEBUGCTLMSR_TR				(1ULL << 6)
#define DEBUGCTLMSR_BTS				(1ULL << 7)
#define DEBUGCTLMSR_BTINT			(1ULL << 8)
#define DEBUGCTLMSR_BTS_OFF_OS			(1ULL << 9)
#define DEBUGCTLMSR_BTS_OFF_USR			(1ULL << 10)
#define DEBUGCTLMSR_FREEZE_LBRS_ON_PMI		(1ULL << 11)
#define DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI	(1ULL << 12)
#define DEBUGCTLMSR_UNCORE_PMI_EN		(1ULL << 13)
#define DEBUGCTLMSR_FREEZE_IN_SMM		(1ULL << 14)
#define DEBUGCTLMSR_RTM_DEBUG			(1ULL << 15)

/* Legacy (model-specific) LBR */
#define MSR_LBR_SELECT				0x000001c8
#define MSR_LBR_TOS				0x000001c9
#define MSR_LBR_CORE_FROM			0x00000040	/* Core 2: 4 entries */
#define MSR_LBR_CORE_TO				0x00000060
#define MSR_LBR_NHM_FROM			0x00000680	/* Nehalem and later: 16 or 32 */
#define MSR_LBR_NHM_TO				0x000006c0
#define MSR_LBR_INFO_0				0x00000dc0	/* Skylake and later, ..0xddf */

/* MSR_LBR_SELECT bits: set = do NOT capture, except LBR_CALL_STACK */
#define LBR_KERNEL_BIT				0	/* CPL_EQ_0 */
#define LBR_USER_BIT				1	/* CPL_NEQ_0 */
#define LBR_JCC_BIT				2
#define LBR_REL_CALL_BIT			3
#define LBR_IND_CALL_BIT			4
#define LBR_RETURN_BIT				5
#define LBR_IND_JMP_BIT				6
#define LBR_REL_JMP_BIT				7
#define LBR_FAR_BIT				8
#define LBR_CALL_STACK_BIT			9	/* Haswell+, positive sense */
#define LBR_KERNEL				(1ULL << LBR_KERNEL_BIT)
#define LBR_USER				(1ULL << LBR_USER_BIT)
#define LBR_JCC					(1ULL << LBR_JCC_BIT)
#define LBR_REL_CALL				(1ULL << LBR_REL_CALL_BIT)
#define LBR_IND_CALL				(1ULL << LBR_IND_CALL_BIT)
#define LBR_RETURN				(1ULL << LBR_RETURN_BIT)
#define LBR_IND_JMP				(1ULL << LBR_IND_JMP_BIT)
#define LBR_REL_JMP				(1ULL << LBR_REL_JMP_BIT)
#define LBR_FAR					(1ULL << LBR_FAR_BIT)
#define LBR_CALL_STACK				(1ULL << LBR_CALL_STACK_BIT)

/* MSR_LBR_INFO_x and MSR_ARCH_LBR_INFO_x */
#define LBR_INFO_MISPRED			(1ULL << 63)
#define LBR_INFO_IN_TX				(1ULL << 62)
#define LBR_INFO_ABORT				(1ULL << 61)
#define LBR_INFO_CYC_CNT_VALID			(1ULL << 60)	/* Arch LBR */
#define LBR_INFO_CYCLES				0xffffULL
#define LBR_INFO_BR_TYPE_OFFSET			56		/* Arch LBR */
#define LBR_INFO_BR_TYPE			(0xfULL << LBR_INFO_BR_TYPE_OFFSET)

/* Arch LBR INFO.BR_TYPE encodings */
#define ARCH_LBR_BR_TYPE_JCC			0x0
#define ARCH_LBR_BR_TYPE_NEAR_IND_JMP		0x1
#define ARCH_LBR_BR_TYPE_NEAR_REL_JMP		0x2
#define ARCH_LBR_BR_TYPE_NEAR_IND_CALL		0x3
#define ARCH_LBR_BR_TYPE_NEAR_REL_CALL		0x4
#define ARCH_LBR_BR_TYPE_NEAR_RET		0x5
#define ARCH_LBR_BR_TYPE_OTHER			0x8	/* 1xxx: other branch */

/* Architectural LBR */
#define MSR_ARCH_LBR_CTL			0x000014ce
#define ARCH_LBR_CTL_LBREN			(1ULL << 0)
#define ARCH_LBR_CTL_CPL_OFFSET			1
#define ARCH_LBR_CTL_CPL			(0x3ULL << ARCH_LBR_CTL_CPL_OFFSET)
#define ARCH_LBR_CTL_STACK_OFFSET		3
#define ARCH_LBR_CTL_STACK			(0x1ULL << ARCH_LBR_CTL_STACK_OFFSET)
#define ARCH_LBR_CTL_FILTER_OFFSET		16
#define ARCH_LBR_CTL_FILTER			(0x7fULL << ARCH_LBR_CTL_FILTER_OFFSET)
#define ARCH_LBR_KERNEL				(1ULL << 1)	/* capture at ring 0 */
#define ARCH_LBR_USER				(1ULL << 2)	/* capture at ring > 0 */
#define ARCH_LBR_CALL_STACK			(1ULL << 3)
#define ARCH_LBR_JCC				(1ULL << 16)
#define ARCH_LBR_REL_JMP			(1ULL << 17)
#define ARCH_LBR_IND_JMP			(1ULL << 18)
#define ARCH_LBR_REL_CALL			(1ULL << 19)
#define ARCH_LBR_IND_CALL			(1ULL << 20)
#define ARCH_LBR_RETURN				(1ULL << 21)
#define ARCH_LBR_OTHER_BRANCH			(1ULL << 22)
#define MSR_ARCH_LBR_DEPTH			0x000014cf
#define MSR_ARCH_LBR_FROM_0			0x00001500
#define MSR_ARCH_LBR_TO_0			0x00001600
#define MSR_ARCH_LBR_INFO_0			0x00001200

/* CPUID leaves the driver reads */
#define CPUID_LEAF_FEATURES			0x01	/* ECX[15] PDCM */
#define CPUID_1_ECX_PDCM			(1U << 15)
#define CPUID_LEAF_EXT_FEATURES			0x07	/* subleaf 0: EDX[19] ARCH_LBR */
#define CPUID_7_EDX_ARCH_LBR			(1U << 19)
#define CPUID_7_EBX_HLE				(1U << 4)
#define CPUID_7_EBX_RTM				(1U << 11)
#define CPUID_LEAF_ARCH_PERFMON			0x0a
#define CPUID_LEAF_ARCH_LBR			0x1c

#endif /* PMUSIM_MODEL_MSR_INDEX_H */
