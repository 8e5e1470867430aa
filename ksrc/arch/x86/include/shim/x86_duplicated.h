/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * duplicated: what the kernel's x86 headers and <linux/perf_event.h>
 * define and arch/x86/events/intel/lbr.c (with arch/x86/events/
 * perf_event.h, used as it is) needs, restated with the kernel's names and
 * meaning: the event's fields the LBR code touches, the MSR numbers and
 * bits lbr.c does not define itself, CPUID leaf 0x1C, the xsave layouts
 * the task context's size names, bit operations. Keep in sync with the
 * kernel: when a new tree fails to build, or make ksrc-check differs,
 * look here first. What is not x86's comes from the ring-buffer shim
 * (ksrc/include/shim: u64, BIT, container_of, atomics, locks, WARN_ON).
 */
#ifndef KSRC_X86_SHIM_DUPLICATED_H
#define KSRC_X86_SHIM_DUPLICATED_H

#include <sys/types.h>
#include <shim/stubbed.h>
#include <pmusim/perf_event.h>

/* Intel's half of arch/x86/events is built; AMD's is not. */
#define CONFIG_CPU_SUP_INTEL	1
#define CONFIG_X86_64		1

/* <linux/compiler*.h>, <linux/init.h>, <linux/cache.h>, <linux/build_bug.h> */
#define fallthrough		__attribute__((__fallthrough__))
#define __init
#define __initdata
#define __initconst
#define __read_mostly
#ifndef static_assert
#define static_assert(expr, ...)	_Static_assert(expr, #expr)
#endif
#define swap(a, b) do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)

/* <linux/bitops.h>, <asm/bitops.h>, <linux/bitmap.h> */
#define BITS_PER_LONG		64
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define GENMASK_ULL(h, l)	((~0ULL >> (63 - (h))) & (~0ULL << (l)))
#define hweight64(x)		__builtin_popcountll(x)
#define HWEIGHT(x)		__builtin_popcountll(x)
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
static inline bool test_bit(long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}

typedef struct { unsigned long bits[1]; } cpumask_t;

/* <asm/ptrace.h>, <asm/segment.h>, <asm/processor-flags.h>, <asm/perf_event.h> */
struct pt_regs {
	unsigned long ip;
	unsigned long cs;
	unsigned long flags;
};
#define __KERNEL_CS		0x10
#define __USER_CS		0x33
#define X86_VM_MASK		0x00020000UL
#define PERF_EFLAGS_VM		(1UL << 5)

/* <asm/cpufeatures.h>: word * 32 + bit */
#define X86_FEATURE_PDCM	(4 * 32 + 15)
#define X86_FEATURE_HYPERVISOR	(4 * 32 + 31)
#define X86_FEATURE_HLE		(9 * 32 + 4)
#define X86_FEATURE_RTM		(9 * 32 + 11)
#define X86_FEATURE_XSAVES	(10 * 32 + 3)
#define X86_FEATURE_ARCH_LBR	(18 * 32 + 19)
#define NCAPINTS		21

/* <asm/processor.h>, <asm/cpu_device_id.h>, <asm/intel-family.h>: family << 8 | model */
struct cpuinfo_x86 {
	u8 x86;				/* family (before v6.10's x86_vfm) */
	u8 x86_model;
	u32 x86_vfm;
	u8 x86_stepping;
	union {				/* read as unsigned longs by test_bit() */
		u32 x86_capability[NCAPINTS];
		unsigned long x86_capability_alignment;
	};
};
#define VFM_MAKE(family, model)	((u32)(family) << 8 | (model))
#define INTEL_ATOM_BONNELL	VFM_MAKE(6, 0x1c)

/* <asm/msr-index.h> */
#define MSR_IA32_DEBUGCTLMSR		0x000001d9
#define DEBUGCTLMSR_LBR_BIT		0
#define DEBUGCTLMSR_LBR			(1UL << DEBUGCTLMSR_LBR_BIT)
#define DEBUGCTLMSR_FREEZE_LBRS_ON_PMI	(1UL << 11)
#define MSR_IA32_PEBS_ENABLE		0x000003f1
#define MSR_LBR_SELECT			0x000001c8
#define MSR_LBR_TOS			0x000001c9
#define MSR_LBR_CORE_FROM		0x00000040
#define MSR_LBR_CORE_TO			0x00000060
#define MSR_LBR_NHM_FROM		0x00000680
#define MSR_LBR_NHM_TO			0x000006c0
#define MSR_LBR_INFO_0			0x00000dc0
#define MSR_ARCH_LBR_CTL		0x000014ce
#define ARCH_LBR_CTL_LBREN		BIT(0)
#define MSR_ARCH_LBR_DEPTH		0x000014cf
#define MSR_ARCH_LBR_FROM_0		0x00001500
#define MSR_ARCH_LBR_TO_0		0x00001600
#define MSR_ARCH_LBR_INFO_0		0x00001200

/* <asm/perf_event.h> */
#define X86_PMC_IDX_MAX			64
#define INTEL_PMC_IDX_FIXED		32
#define INTEL_PMC_IDX_FIXED_VLBR	58	/* GLOBAL_STATUS_LBRS_FROZEN_BIT */
#define INTEL_FIXED_VLBR_EVENT		0x1b00
#define MAX_PEBS_EVENTS			32
#define MAX_PEBS_EVENTS_MASK		GENMASK_ULL(MAX_PEBS_EVENTS - 1, 0)
#define ARCH_PERFMON_EVENTS_COUNT	7
#define ARCH_PERFMON_EVENTSEL_EVENT	0x000000ffULL
#define ARCH_PERFMON_EVENTSEL_UMASK	0x0000ff00ULL
#define ARCH_PERFMON_EVENTSEL_EDGE	(1ULL << 18)
#define ARCH_PERFMON_EVENTSEL_INV	(1ULL << 23)
#define ARCH_PERFMON_EVENTSEL_CMASK	0xff000000ULL
#define HSW_IN_TX			(1ULL << 32)
#define HSW_IN_TX_CHECKPOINTED		(1ULL << 33)
#define X86_RAW_EVENT_MASK		(ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK | \
					 ARCH_PERFMON_EVENTSEL_EDGE | ARCH_PERFMON_EVENTSEL_INV | \
					 ARCH_PERFMON_EVENTSEL_CMASK)
#define INTEL_ARCH_EVENT_MASK		(ARCH_PERFMON_EVENTSEL_UMASK | ARCH_PERFMON_EVENTSEL_EVENT)
#define INTEL_TD_SLOTS			0x0400
#define INTEL_TD_METRIC_RETIRING	0x8000
#define INTEL_TD_METRIC_MAX		0x8700

#define LBR_INFO_MISPRED		BIT_ULL(63)
#define LBR_INFO_IN_TX			BIT_ULL(62)
#define LBR_INFO_ABORT			BIT_ULL(61)
#define LBR_INFO_CYC_CNT_VALID		BIT_ULL(60)
#define LBR_INFO_CYCLES			0xffff
#define LBR_INFO_BR_TYPE_OFFSET		56
#define LBR_INFO_BR_TYPE		(0xfull << LBR_INFO_BR_TYPE_OFFSET)
#define LBR_INFO_BR_CNTR_OFFSET		32
#define LBR_INFO_BR_CNTR_NUM		4
#define LBR_INFO_BR_CNTR_BITS		2
#define LBR_INFO_BR_CNTR_MASK		GENMASK_ULL(LBR_INFO_BR_CNTR_BITS - 1, 0)
#define LBR_INFO_BR_CNTR_FULL_MASK	GENMASK_ULL(LBR_INFO_BR_CNTR_NUM * LBR_INFO_BR_CNTR_BITS - 1, 0)

struct lbr_entry {
	u64 from;
	u64 to;
	u64 info;
};

/* CPUID leaf 0x1C, Architectural LBR */
union cpuid28_eax {
	struct {
		unsigned int lbr_depth_mask:8;
		unsigned int reserved:22;
		unsigned int lbr_deep_c_reset:1;
		unsigned int lbr_lip:1;
	} split;
	unsigned int full;
};
union cpuid28_ebx {
	struct {
		unsigned int lbr_cpl:1;
		unsigned int lbr_filter:1;
		unsigned int lbr_call_stack:1;
	} split;
	unsigned int full;
};
union cpuid28_ecx {
	struct {
		unsigned int lbr_mispred:1;
		unsigned int lbr_timed_lbr:1;
		unsigned int lbr_br_type:1;
		unsigned int reserved:13;
		unsigned int lbr_counters:4;
	} split;
	unsigned int full;
};

struct x86_pmu_lbr {
	unsigned int nr;
	unsigned int from;
	unsigned int to;
	unsigned int info;
	bool has_callstack;
};

/* KVM's view of the LBR (arch/x86/events/intel/lbr.c) */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr);

struct perf_guest_switch_msr {
	unsigned int msr;
	u64 host, guest;
};

/* <asm/fpu/types.h>: the xsave layouts the XSAVES task context is made of */
#define XSAVE_ALIGNMENT		64
#define XFEATURE_LBR		15
#define XFEATURE_MASK_LBR	(1ULL << XFEATURE_LBR)
struct fxregs_state {
	u8 bytes[512];
};
struct xstate_header {
	u64 xfeatures;
	u64 xcomp_bv;
	u64 reserved[6];
} __attribute__((packed));
struct xregs_state {
	struct fxregs_state i387;
	struct xstate_header header;
	u8 extended_state_area[];
} __attribute__((packed, aligned(XSAVE_ALIGNMENT)));
struct arch_lbr_state {
	u64 lbr_ctl;
	u64 lbr_depth;
	u64 ler_from;
	u64 ler_to;
	u64 ler_info;
	struct lbr_entry entries[];
};

/* <linux/perf_event.h> */
/* v6.16 widened it for the x86 flags past bit 19 (ACR, auto counter reload) */
#if KSRC_VERSION_CODE >= KSRC_KERNEL_VERSION(6, 16, 0)
#define PERF_EVENT_FLAG_ARCH		0x0fffffff
#else
#define PERF_EVENT_FLAG_ARCH		0x000fffff
#endif
#define PERF_ATTACH_TASK		0x04

struct pmu {
	struct kmem_cache *task_ctx_cache;	/* the size of the task's LBR state */
};

struct hw_perf_event_extra {
	u64 config;
	unsigned int reg;
	int alloc;
	int idx;
};

struct hw_perf_event {
	u64 config;
	u64 last_tag;
	unsigned long config_base;
	unsigned long event_base;
	int event_base_rdpmc;
	int idx;
	int last_cpu;
	int flags;
	struct hw_perf_event_extra extra_reg;
	struct hw_perf_event_extra branch_reg;
	struct task_struct *target;
	u64 sample_period;
};

struct perf_event_pmu_context {
	struct pmu *pmu;
	void *task_ctx_data;
};

/* before v6.2 ("perf: Rewrite core context handling"): the LBR data hung off the context */
struct perf_event_context {
	struct pmu *pmu;
	void *task_ctx_data;
};

struct perf_event {
	struct perf_event *group_leader;
	struct pmu *pmu;
	struct perf_event_attr attr;
	struct hw_perf_event hw;
	struct perf_event_pmu_context *pmu_ctx;
	struct perf_event_context *ctx;		/* before v6.2 */
	unsigned int attach_state;
	u64 total_time_running;
};

struct perf_branch_stack {
	u64 nr;
	u64 hw_idx;
	struct perf_branch_entry entries[];
};

struct perf_sample_data {
	u64 sample_flags;
	struct perf_branch_stack *br_stack;
	u64 *br_stack_cntr;
};

/* v6.15 (3cec9fd03543's series): PMU data kept with the task */
struct perf_ctx_data {
	refcount_t refcount;
	int global;
	struct kmem_cache *ctx_cache;
	void *data;
};
struct task_struct {
	int pid;
	struct perf_ctx_data __rcu *perf_ctx_data;
};

static inline bool has_branch_stack(struct perf_event *event)
{
	return event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}
static inline bool branch_sample_counters(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS;
}

/* Every bit-field of the entry to 0; from and to are written next. */
static inline void perf_clear_branch_entry_bitfields(struct perf_branch_entry *br)
{
	br->mispred = 0;
	br->predicted = 0;
	br->in_tx = 0;
	br->abort = 0;
	br->cycles = 0;
	br->type = 0;
	br->spec = PERF_BR_SPEC_NA;
	br->new_type = 0;
	br->priv = 0;
}

/* The stack goes into the sample (its size is perf_prepare_sample()'s business). */
static inline void perf_sample_save_brstack(struct perf_sample_data *data, struct perf_event *event,
					    struct perf_branch_stack *brs, u64 *brs_cntr)
{
	if (!has_branch_stack(event))
		return;
	data->br_stack = brs;
	data->br_stack_cntr = brs_cntr;
	data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
}

/* kernel/events/core.c */
void perf_sched_cb_inc(struct pmu *pmu);
void perf_sched_cb_dec(struct pmu *pmu);

/* arch/x86/events/utils.c */
int branch_type(unsigned long from, unsigned long to, int abort);
int common_branch_type(int type);

#endif /* KSRC_X86_SHIM_DUPLICATED_H */
