/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmusim's definition of the perf_event user ABI.
 *
 * Every type and constant a program needs for perf_event_open(), the
 * ioctls on the event fd, the mmap()ed control page and the records in
 * the ring buffer, laid out byte for byte as Linux v6.12 lays them out
 * (include/uapi/linux/perf_event.h). Names are the kernel's, so a kernel
 * developer finds attr.precise_ip or PERF_RECORD_SAMPLE where they expect.
 *
 * Differences from the kernel's header:
 *  - It stands alone: only <stddef.h>, <stdint.h> and pmusim's generated
 *    Kconfig header, so it builds on hosts without Linux headers. Fields
 *    use the <stdint.h> types, which match __u64 etc. in size and
 *    alignment on x86 (both 32- and 64-bit).
 *  - Ioctl numbers are spelt with PMUSIM__IO*(), which encode them the way
 *    asm-generic/ioctl.h does (x86 uses that encoding).
 *  - Only little-endian bit-field layouts are given.
 *  - Two RFC extensions change the layout when their Kconfig switch is on:
 *      CONFIG_PERF_HW_TIME           attr.hw_time, and the time_mono_*
 *                                    conversion fields of the user page
 *      CONFIG_PERF_ALT_SAMPLE_PERIOD attr.alternative_sample_period
 *    A layout cannot depend on C-level IS_ENABLED(), so these use #ifdef.
 *
 * One translation unit sees one definition of this ABI: this header takes
 * the include guards of <linux/perf_event.h>, so including the host's
 * header afterwards does nothing; including it before this one is an error.
 */
#ifndef PMUSIM_PERF_EVENT_H
#define PMUSIM_PERF_EVENT_H

#if defined(_LINUX_PERF_EVENT_H) || defined(_UAPI_LINUX_PERF_EVENT_H)
#error "<linux/perf_event.h> was included before <pmusim/perf_event.h>; a translation unit may use only one of them"
#endif
#define _LINUX_PERF_EVENT_H
#define _UAPI_LINUX_PERF_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <generated/autoconf.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pmusim/perf_event.h describes the little-endian bit-field layouts only"
#endif

/* ---------------------------------------------------------------------
 * Event selection: attr.type and attr.config
 * ---------------------------------------------------------------------
 */

enum perf_type_id {
	PERF_TYPE_HARDWARE	= 0,
	PERF_TYPE_SOFTWARE	= 1,
	PERF_TYPE_TRACEPOINT	= 2,
	PERF_TYPE_HW_CACHE	= 3,
	PERF_TYPE_RAW		= 4,
	PERF_TYPE_BREAKPOINT	= 5,

	PERF_TYPE_MAX,		/* not ABI: grows with new types */
};

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE the upper half of
 * attr.config may name the PMU (its type number) the generic event is
 * meant for; zero there means the default core PMU. The lower half holds
 * the perf_hw_id, or for cache events the three bytes
 * cache id | op << 8 | result << 16.
 */
#define PERF_PMU_TYPE_SHIFT	32
#define PERF_HW_EVENT_MASK	0xffffffff

/* attr.config for PERF_TYPE_HARDWARE. */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX,			/* not ABI */
};

/* The three bytes of attr.config for PERF_TYPE_HW_CACHE. */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D		= 0,
	PERF_COUNT_HW_CACHE_L1I		= 1,
	PERF_COUNT_HW_CACHE_LL		= 2,
	PERF_COUNT_HW_CACHE_DTLB	= 3,
	PERF_COUNT_HW_CACHE_ITLB	= 4,
	PERF_COUNT_HW_CACHE_BPU		= 5,
	PERF_COUNT_HW_CACHE_NODE	= 6,

	PERF_COUNT_HW_CACHE_MAX,	/* not ABI */
};

enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ	= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE	= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH	= 2,

	PERF_COUNT_HW_CACHE_OP_MAX,	/* not ABI */
};

enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX,		/* not ABI */
};

/* attr.config for PERF_TYPE_SOFTWARE: events the kernel counts itself. */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK		= 0,
	PERF_COUNT_SW_TASK_CLOCK	= 1,
	PERF_COUNT_SW_PAGE_FAULTS	= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES	= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS	= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN	= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ	= 6,
	PERF_COUNT_SW_ALIGNMENT_FAULTS	= 7,
	PERF_COUNT_SW_EMULATION_FAULTS	= 8,
	PERF_COUNT_SW_DUMMY		= 9,
	PERF_COUNT_SW_BPF_OUTPUT	= 10,
	PERF_COUNT_SW_CGROUP_SWITCHES	= 11,

	PERF_COUNT_SW_MAX,		/* not ABI */
};

/* ---------------------------------------------------------------------
 * What a sample carries: attr.sample_type
 * ---------------------------------------------------------------------
 * Each bit adds one field to PERF_RECORD_SAMPLE; the order of the fields
 * in the record is given with PERF_RECORD_SAMPLE below.
 */
enum perf_event_sample_format {
	PERF_SAMPLE_IP			= 1U << 0,
	PERF_SAMPLE_TID			= 1U << 1,
	PERF_SAMPLE_TIME		= 1U << 2,
	PERF_SAMPLE_ADDR		= 1U << 3,
	PERF_SAMPLE_READ		= 1U << 4,
	PERF_SAMPLE_CALLCHAIN		= 1U << 5,
	PERF_SAMPLE_ID			= 1U << 6,
	PERF_SAMPLE_CPU			= 1U << 7,
	PERF_SAMPLE_PERIOD		= 1U << 8,
	PERF_SAMPLE_STREAM_ID		= 1U << 9,
	PERF_SAMPLE_RAW			= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK	= 1U << 11,
	PERF_SAMPLE_REGS_USER		= 1U << 12,
	PERF_SAMPLE_STACK_USER		= 1U << 13,
	PERF_SAMPLE_WEIGHT		= 1U << 14,
	PERF_SAMPLE_DATA_SRC		= 1U << 15,
	PERF_SAMPLE_IDENTIFIER		= 1U << 16,
	PERF_SAMPLE_TRANSACTION		= 1U << 17,
	PERF_SAMPLE_REGS_INTR		= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR		= 1U << 19,
	PERF_SAMPLE_AUX			= 1U << 20,
	PERF_SAMPLE_CGROUP		= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE	= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE	= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT	= 1U << 24,

	PERF_SAMPLE_MAX			= 1U << 25,	/* not ABI */
};

/* Both bits select the one weight slot; at most one of them may be set. */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/* ---------------------------------------------------------------------
 * Branch stack filters: attr.branch_sample_type
 * ---------------------------------------------------------------------
 * The USER/KERNEL/HV bits pick privilege levels (none of them: inherit
 * the event's exclude_* bits). The type bits may be combined; ANY takes
 * every kind of branch. The remaining bits switch optional output on or
 * off (flags, cycles, type, hw_idx, privilege, counters).
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,

	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10,

	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11,	/* LBR call-stack mode */
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12,
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13,	/* direct calls */

	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14,	/* leave out mispred etc. */
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15,	/* leave out cycles */

	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16,	/* fill entry.type */

	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17,	/* emit hw_idx before the entries */

	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18,	/* fill entry.priv */

	PERF_SAMPLE_BRANCH_COUNTERS_SHIFT	= 19,	/* emit per-branch event counts */

	PERF_SAMPLE_BRANCH_MAX_SHIFT		/* not ABI */
};

enum perf_branch_sample_type {
	PERF_SAMPLE_BRANCH_USER		= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL	= 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV		= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,

	PERF_SAMPLE_BRANCH_ANY		= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL	= 1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN	= 1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL	= 1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX	= 1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX	= 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX	= 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND		= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,

	PERF_SAMPLE_BRANCH_CALL_STACK	= 1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP	= 1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL		= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,

	PERF_SAMPLE_BRANCH_NO_FLAGS	= 1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES	= 1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,

	PERF_SAMPLE_BRANCH_TYPE_SAVE	= 1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_HW_INDEX	= 1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,

	PERF_SAMPLE_BRANCH_PRIV_SAVE	= 1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_COUNTERS	= 1U << PERF_SAMPLE_BRANCH_COUNTERS_SHIFT,

	PERF_SAMPLE_BRANCH_MAX		= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT,	/* not ABI */
};

#define PERF_SAMPLE_BRANCH_PLM_ALL \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

/* perf_branch_entry.type: how control flow changed. */
enum {
	PERF_BR_UNKNOWN		= 0,
	PERF_BR_COND		= 1,	/* conditional jump */
	PERF_BR_UNCOND		= 2,	/* unconditional direct jump */
	PERF_BR_IND		= 3,	/* indirect jump */
	PERF_BR_CALL		= 4,	/* direct call */
	PERF_BR_IND_CALL	= 5,	/* indirect call */
	PERF_BR_RET		= 6,	/* return */
	PERF_BR_SYSCALL		= 7,	/* system call entry */
	PERF_BR_SYSRET		= 8,	/* system call return */
	PERF_BR_COND_CALL	= 9,	/* conditional call */
	PERF_BR_COND_RET	= 10,	/* conditional return */
	PERF_BR_ERET		= 11,	/* return from exception */
	PERF_BR_IRQ		= 12,	/* interrupt */
	PERF_BR_SERROR		= 13,	/* system error */
	PERF_BR_NO_TX		= 14,	/* outside a transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* look in perf_branch_entry.new_type */
	PERF_BR_MAX,
};

/* perf_branch_entry.spec: was the branch on the speculative path. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* not reported */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculated, then discarded */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* not speculative, retired */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculated and retired */
	PERF_BR_SPEC_MAX,
};

/* perf_branch_entry.new_type, used when type is PERF_BR_EXTEND_ABI. */
enum {
	PERF_BR_NEW_FAULT_ALGN	= 0,	/* alignment fault */
	PERF_BR_NEW_FAULT_DATA	= 1,	/* data abort */
	PERF_BR_NEW_FAULT_INST	= 2,	/* instruction abort */
	PERF_BR_NEW_ARCH_1	= 3,	/* ARCH_1..5: meaning per architecture */
	PERF_BR_NEW_ARCH_2	= 4,
	PERF_BR_NEW_ARCH_3	= 5,
	PERF_BR_NEW_ARCH_4	= 6,
	PERF_BR_NEW_ARCH_5	= 7,
	PERF_BR_NEW_MAX,
};

/* perf_branch_entry.priv: privilege level of the branch target. */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3,
};

/* The arm64 meanings of the architecture-specific new_type values. */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

/* The "abi" word in front of a register dump in a sample. */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,	/* no registers (e.g. kernel thread) */
	PERF_SAMPLE_REGS_ABI_32		= 1,
	PERF_SAMPLE_REGS_ABI_64		= 2,
};

/*
 * PERF_SAMPLE_TRANSACTION: why a hardware transaction ended. The low bits
 * may be set together; the upper 32 bits carry the abort code.
 */
enum {
	PERF_TXN_ELISION	= (1 << 0),	/* lock elision */
	PERF_TXN_TRANSACTION	= (1 << 1),	/* explicit transaction */
	PERF_TXN_SYNC		= (1 << 2),	/* the sampled insn caused it */
	PERF_TXN_ASYNC		= (1 << 3),	/* something else caused it */
	PERF_TXN_RETRY		= (1 << 4),	/* retrying may succeed */
	PERF_TXN_CONFLICT	= (1 << 5),	/* data conflict */
	PERF_TXN_CAPACITY_WRITE	= (1 << 6),	/* write set overflowed */
	PERF_TXN_CAPACITY_READ	= (1 << 7),	/* read set overflowed */

	PERF_TXN_MAX		= (1 << 8),	/* not ABI */

	PERF_TXN_ABORT_MASK	= (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT	= 32,
};

/* ---------------------------------------------------------------------
 * What read() returns: attr.read_format
 * ---------------------------------------------------------------------
 * A single event reads as
 *	u64 value;
 *	u64 time_enabled;	if TOTAL_TIME_ENABLED
 *	u64 time_running;	if TOTAL_TIME_RUNNING
 *	u64 id;			if ID
 *	u64 lost;		if LOST
 * With PERF_FORMAT_GROUP the leader reads for the whole group:
 *	u64 nr;
 *	u64 time_enabled;	if TOTAL_TIME_ENABLED
 *	u64 time_running;	if TOTAL_TIME_RUNNING
 *	then nr times { u64 value; u64 id if ID; u64 lost if LOST; }
 * PERF_SAMPLE_READ puts the same block into samples, and PERF_RECORD_READ
 * carries it too.
 */
enum perf_event_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED	= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING	= 1U << 1,
	PERF_FORMAT_ID			= 1U << 2,
	PERF_FORMAT_GROUP		= 1U << 3,
	PERF_FORMAT_LOST		= 1U << 4,

	PERF_FORMAT_MAX			= 1U << 5,	/* not ABI */
};

/* ---------------------------------------------------------------------
 * struct perf_event_attr
 * ---------------------------------------------------------------------
 * attr.size tells the kernel which of these revisions the caller knows;
 * each one appended the named fields to the previous one.
 */
#define PERF_ATTR_SIZE_VER0	64	/* the original layout, up to config1 */
#define PERF_ATTR_SIZE_VER1	72	/* config2 */
#define PERF_ATTR_SIZE_VER2	80	/* branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* sig_data */
#define PERF_ATTR_SIZE_VER8	136	/* config3 (the last in v6.12) */
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
#define PERF_ATTR_SIZE_VER9	144	/* RFC: alternative_sample_period */
#endif

/*
 * pmusim only: the largest attr.size this build understands, which is
 * sizeof(struct perf_event_attr). A caller may pass a larger size as long
 * as every byte past this one is zero.
 */
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
#define PERF_ATTR_SIZE_MAX	PERF_ATTR_SIZE_VER9
#else
#define PERF_ATTR_SIZE_MAX	PERF_ATTR_SIZE_VER8
#endif

struct perf_event_attr {
	uint32_t	type;		/* enum perf_type_id, or a dynamic PMU's type */
	uint32_t	size;		/* sizeof the caller's attr: PERF_ATTR_SIZE_VERn */
	uint64_t	config;		/* which event, meaning depends on type */

	union {
		uint64_t	sample_period;	/* overflow every N events ... */
		uint64_t	sample_freq;	/* ... or aim at N samples/s if freq */
	};

	uint64_t	sample_type;	/* enum perf_event_sample_format */
	uint64_t	read_format;	/* enum perf_event_read_format */

	/* One 64-bit word of flags; bit 0 is disabled. */
	uint64_t	disabled		: 1;	/* created off; enable via ioctl */
	uint64_t	inherit			: 1;	/* child tasks get a copy */
	uint64_t	pinned			: 1;	/* group must stay on the PMU, or error */
	uint64_t	exclusive		: 1;	/* group wants the PMU to itself */
	uint64_t	exclude_user		: 1;	/* don't count in user mode */
	uint64_t	exclude_kernel		: 1;	/* don't count in the kernel */
	uint64_t	exclude_hv		: 1;	/* don't count in the hypervisor */
	uint64_t	exclude_idle		: 1;	/* don't count in the idle task */
	uint64_t	mmap			: 1;	/* emit PERF_RECORD_MMAP for exec maps */
	uint64_t	comm			: 1;	/* emit PERF_RECORD_COMM */
	uint64_t	freq			: 1;	/* sample_freq is in use */
	uint64_t	inherit_stat		: 1;	/* keep per-task counts on context switch */
	uint64_t	enable_on_exec		: 1;	/* enable at the next exec() */
	uint64_t	task			: 1;	/* emit FORK/EXIT records */
	uint64_t	watermark		: 1;	/* wakeup_watermark is in use */
	/*
	 * How much skid the sampled IP may have: 0 any, 1 a constant amount,
	 * 2 asked to be zero, 3 must be zero. A sample whose IP is exact has
	 * PERF_RECORD_MISC_EXACT_IP set.
	 */
	uint64_t	precise_ip		: 2;
	uint64_t	mmap_data		: 1;	/* MMAP records for data maps too */
	uint64_t	sample_id_all		: 1;	/* sample_id trailer on every record */
	uint64_t	exclude_host		: 1;	/* don't count while in the host */
	uint64_t	exclude_guest		: 1;	/* don't count while in a guest */
	uint64_t	exclude_callchain_kernel : 1;	/* callchains without kernel frames */
	uint64_t	exclude_callchain_user	: 1;	/* callchains without user frames */
	uint64_t	mmap2			: 1;	/* MMAP2 (with inode data) not MMAP */
	uint64_t	comm_exec		: 1;	/* mark COMM records that an exec caused */
	uint64_t	use_clockid		: 1;	/* timestamps from clockid */
	uint64_t	context_switch		: 1;	/* emit SWITCH records */
	uint64_t	write_backward		: 1;	/* ring buffer written from its end down */
	uint64_t	namespaces		: 1;	/* emit NAMESPACES records */
	uint64_t	ksymbol			: 1;	/* emit KSYMBOL records */
	uint64_t	bpf_event		: 1;	/* emit BPF_EVENT records */
	uint64_t	aux_output		: 1;	/* output goes to the group's AUX area */
	uint64_t	cgroup			: 1;	/* emit CGROUP records */
	uint64_t	text_poke		: 1;	/* emit TEXT_POKE records */
	uint64_t	build_id		: 1;	/* MMAP2 carries a build id, not inode */
	uint64_t	inherit_thread		: 1;	/* inherit only into CLONE_THREAD children */
	uint64_t	remove_on_exec		: 1;	/* drop the event at exec() */
	uint64_t	sigtrap			: 1;	/* SIGTRAP to the task on each overflow */
#ifdef CONFIG_PERF_HW_TIME
	uint64_t	hw_time			: 1;	/* RFC: sample time is the raw TSC */
	uint64_t	__reserved_1		: 25;
#else
	uint64_t	__reserved_1		: 26;
#endif

	union {
		uint32_t	wakeup_events;		/* wake the reader every N records ... */
		uint32_t	wakeup_watermark;	/* ... or every N bytes if watermark */
	};

	uint32_t	bp_type;		/* breakpoint kind, for PERF_TYPE_BREAKPOINT */
	union {
		uint64_t	bp_addr;	/* breakpoint address */
		uint64_t	kprobe_func;	/* kprobe PMU: symbol name pointer */
		uint64_t	uprobe_path;	/* uprobe PMU: file name pointer */
		uint64_t	config1;	/* more config bits for other PMUs */
	};
	union {
		uint64_t	bp_len;		/* breakpoint length */
		uint64_t	kprobe_addr;	/* kprobe PMU: address, when no symbol */
		uint64_t	probe_offset;	/* k/uprobe PMU: offset from the base */
		uint64_t	config2;	/* yet more config bits */
	};
	uint64_t	branch_sample_type;	/* enum perf_branch_sample_type */

	uint64_t	sample_regs_user;	/* mask of user registers to dump */
	uint32_t	sample_stack_user;	/* bytes of user stack to dump */
	int32_t		clockid;		/* used when use_clockid */

	/* Registers to dump as of the interrupt, or of the sampled insn if precise. */
	uint64_t	sample_regs_intr;

	uint32_t	aux_watermark;		/* wake the reader every N AUX bytes */
	uint16_t	sample_max_stack;	/* callchain depth limit for this event */
	uint16_t	__reserved_2;
	uint32_t	aux_sample_size;	/* AUX bytes to copy into each sample */

	/*
	 * Pausing and resuming an AUX area event from its group members.
	 * The reference tree has this union; upstream it arrived in 6.13,
	 * and before that the same u32 was plain __reserved_3.
	 */
	union {
		uint32_t	aux_action;
		struct {
			uint32_t	aux_start_paused : 1;	/* AUX event starts out paused */
			uint32_t	aux_pause	 : 1;	/* overflow pauses the group's AUX event */
			uint32_t	aux_resume	 : 1;	/* overflow resumes it */
			uint32_t	__reserved_3	 : 29;
		};
	};

	/* Handed back in siginfo's si_perf_data when sigtrap fires. */
	uint64_t	sig_data;

	uint64_t	config3;		/* and more config bits */

#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	/*
	 * RFC: when non-zero, each overflow swaps the period between
	 * sample_period and this value. Not allowed together with freq.
	 */
	uint64_t	alternative_sample_period;
#endif
};

/* Argument of PERF_EVENT_IOC_QUERY_BPF. */
struct perf_event_query_bpf {
	uint32_t	ids_len;	/* in: room in ids[] */
	uint32_t	prog_cnt;	/* out: programs attached */
	uint32_t	ids[];		/* out: their ids, up to ids_len */
};

/* ---------------------------------------------------------------------
 * ioctl()s on an event fd
 * ---------------------------------------------------------------------
 * The number layout of asm-generic/ioctl.h, which x86 uses: bits 0-7 the
 * command number, 8-15 the type character, 16-29 the argument size,
 * 30-31 the direction (1 user writes, 2 user reads, 3 both).
 */
#define PMUSIM__IOC_NONE	0U
#define PMUSIM__IOC_WRITE	1U
#define PMUSIM__IOC_READ	2U

#define PMUSIM__IOC(dir, type, nr, size)				\
	(((unsigned int)(dir) << 30) | ((unsigned int)(size) << 16) |	\
	 ((unsigned int)(type) << 8) | (unsigned int)(nr))
#define PMUSIM__IO(type, nr)		PMUSIM__IOC(PMUSIM__IOC_NONE, type, nr, 0)
#define PMUSIM__IOW(type, nr, arg)	PMUSIM__IOC(PMUSIM__IOC_WRITE, type, nr, sizeof(arg))
#define PMUSIM__IOR(type, nr, arg)	PMUSIM__IOC(PMUSIM__IOC_READ, type, nr, sizeof(arg))
#define PMUSIM__IOWR(type, nr, arg)					\
	PMUSIM__IOC(PMUSIM__IOC_READ | PMUSIM__IOC_WRITE, type, nr, sizeof(arg))

#define PERF_EVENT_IOC_ENABLE		PMUSIM__IO('$', 0)
#define PERF_EVENT_IOC_DISABLE		PMUSIM__IO('$', 1)
#define PERF_EVENT_IOC_REFRESH		PMUSIM__IO('$', 2)
#define PERF_EVENT_IOC_RESET		PMUSIM__IO('$', 3)
#define PERF_EVENT_IOC_PERIOD		PMUSIM__IOW('$', 4, uint64_t)
#define PERF_EVENT_IOC_SET_OUTPUT	PMUSIM__IO('$', 5)
#define PERF_EVENT_IOC_SET_FILTER	PMUSIM__IOW('$', 6, char *)
#define PERF_EVENT_IOC_ID		PMUSIM__IOR('$', 7, uint64_t *)
#define PERF_EVENT_IOC_SET_BPF		PMUSIM__IOW('$', 8, uint32_t)
#define PERF_EVENT_IOC_PAUSE_OUTPUT	PMUSIM__IOW('$', 9, uint32_t)
#define PERF_EVENT_IOC_QUERY_BPF	PMUSIM__IOWR('$', 10, struct perf_event_query_bpf *)
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES PMUSIM__IOW('$', 11, struct perf_event_attr *)

/* Argument of ENABLE, DISABLE and RESET: apply to the whole group. */
enum perf_event_ioc_flags {
	PERF_IOC_FLAG_GROUP	= 1U << 0,
};

/* ---------------------------------------------------------------------
 * The first page of the mmap()ed ring buffer
 * ---------------------------------------------------------------------
 * The kernel updates the self-monitoring fields (lock up to the reserved
 * hole) under a sequence count: a reader samples lock, reads what it
 * needs, and starts over if lock changed meanwhile. The count the event
 * has reached is offset, plus the hardware counter's value when index is
 * non-zero and cap_user_rdpmc is set (read counter index - 1 and
 * sign-extend it from pmc_width bits).
 *
 * The time_* fields turn a TSC value cyc into the event's clock:
 *	ns = time_offset + (cyc >> time_shift) * time_mult
 *	     + (((cyc & ((1 << time_shift) - 1)) * time_mult) >> time_shift)
 * which lets a reader extend time_enabled/time_running up to "now"
 * (cap_user_time). With cap_user_time_zero, time_zero replaces
 * time_offset to convert sample timestamps to and from TSC values. With
 * cap_user_time_short the counter is narrower than 64 bits and cyc must
 * first be widened: cyc = time_cycles + ((cyc - time_cycles) & time_mask).
 *
 * The data area follows this page: data_head is the kernel's write
 * position (read it, then a read barrier), data_tail the reader's
 * position (a full barrier, then write it), both counting bytes from the
 * start of the area and never wrapped. The AUX area, if any, is placed by
 * the user writing aux_offset and aux_size before mmap()ing it.
 */
struct perf_event_mmap_page {
	uint32_t	version;		/* layout version */
	uint32_t	compat_version;		/* oldest version this one is compatible with */

	uint32_t	lock;			/* sequence count for the fields below */
	uint32_t	index;			/* hardware counter + 1, or 0 */
	int64_t		offset;			/* add to the counter's value */
	uint64_t	time_enabled;		/* ns the event was enabled */
	uint64_t	time_running;		/* ns the event was on the PMU */
	union {
		uint64_t	capabilities;
		struct {
			uint64_t	cap_bit0		: 1;	/* always 0 (old, ambiguous meaning) */
			uint64_t	cap_bit0_is_deprecated	: 1;	/* always 1: ignore cap_bit0 */

			uint64_t	cap_user_rdpmc		: 1;	/* user may read the counter */
			uint64_t	cap_user_time		: 1;	/* time_{shift,mult,offset} valid */
			uint64_t	cap_user_time_zero	: 1;	/* time_zero valid */
			uint64_t	cap_user_time_short	: 1;	/* time_{cycles,mask} valid */
#ifdef CONFIG_PERF_HW_TIME
			uint64_t	cap_user_time_mono_raw	: 1;	/* RFC: time_mono_* valid */
			uint64_t	cap_____res		: 57;
#else
			uint64_t	cap_____res		: 58;
#endif
		};
	};

	uint16_t	pmc_width;		/* bits in the hardware counter */
	uint16_t	time_shift;
	uint32_t	time_mult;
	uint64_t	time_offset;
	uint64_t	time_zero;

	uint32_t	size;			/* bytes used by the fields up to the hole */
	uint32_t	__reserved_1;

	uint64_t	time_cycles;
	uint64_t	time_mask;

#ifdef CONFIG_PERF_HW_TIME
	/*
	 * RFC: with cap_user_time_mono_raw, a raw TSC value cyc from a sample
	 * becomes CLOCK_MONOTONIC_RAW as
	 *	time_mono_base + (((cyc - time_mono_last) * time_mono_mult
	 *			   + time_mono_nsec) >> time_mono_shift)
	 */
	uint64_t	time_mono_last;
	uint32_t	time_mono_mult;
	uint32_t	time_mono_shift;
	uint64_t	time_mono_nsec;
	uint64_t	time_mono_base;

	uint8_t		__reserved[112 * 8];	/* pad to 1 KiB */
#else
	uint8_t		__reserved[116 * 8];	/* pad to 1 KiB */
#endif

	/* Ring-buffer control: at offset 1024 in every layout. */
	uint64_t	data_head;		/* kernel's write position */
	uint64_t	data_tail;		/* reader's position (writable mapping) */
	uint64_t	data_offset;		/* where the data area starts in the mapping */
	uint64_t	data_size;		/* its length */

	/* Same protocol for the AUX area; aux_offset >= data_offset + data_size. */
	uint64_t	aux_head;
	uint64_t	aux_tail;
	uint64_t	aux_offset;
	uint64_t	aux_size;
};

/* ---------------------------------------------------------------------
 * Records in the ring buffer
 * ---------------------------------------------------------------------
 * perf_event_header.misc: bits 0-2 are the CPU mode the record belongs
 * to; bits 12-15 are flags, and bits 13 and 14 mean different things for
 * different record types.
 */
#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)

/* Synthesized MMAP records: reading /proc/PID/maps timed out. */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)

/* Bit 13, by record type: */
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13)	/* MMAP/MMAP2: not executable */
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13)	/* COMM: caused by exec */
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13)	/* FORK: used by the perf tool only */
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13)	/* SWITCH*: task leaves the CPU */

/* Bit 14, by record type: */
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14)	/* SAMPLE: ip is the exact insn */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14)	/* SWITCH*: preempted while runnable */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14)	/* MMAP2: build id, not inode */

/* Bit 15 is kept for a future extended misc field. */
#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)

/* Starts every record; size covers the header and is a multiple of 8. */
struct perf_event_header {
	uint32_t	type;		/* enum perf_event_type */
	uint16_t	misc;		/* PERF_RECORD_MISC_* */
	uint16_t	size;
};

/* One namespace in a PERF_RECORD_NAMESPACES record. */
struct perf_ns_link_info {
	uint64_t	dev;
	uint64_t	ino;
};

/* Order of the namespaces in PERF_RECORD_NAMESPACES. */
enum {
	NET_NS_INDEX	= 0,
	UTS_NS_INDEX	= 1,
	IPC_NS_INDEX	= 2,
	PID_NS_INDEX	= 3,
	USER_NS_INDEX	= 4,
	MNT_NS_INDEX	= 5,
	CGROUP_NS_INDEX	= 6,

	NR_NAMESPACES,
};

/*
 * Record layouts. "header" is struct perf_event_header; strings are
 * NUL-terminated and padded with zeros to a multiple of 8 bytes.
 *
 * "sample_id" is the trailer that every record other than SAMPLE carries
 * when attr.sample_id_all is set. It holds the identifying sample fields,
 * each only if its sample_type bit is set, in this order:
 *	u32 pid, tid	(TID)
 *	u64 time	(TIME)
 *	u64 id		(ID)
 *	u64 stream_id	(STREAM_ID)
 *	u32 cpu, res	(CPU)
 *	u64 id		(IDENTIFIER)
 * IDENTIFIER repeats ID, but at a fixed place (the last u64 of the record),
 * so a reader can find the event before it knows its sample_type.
 */
enum perf_event_type {
	/*
	 * An executable mapping appeared:
	 *	header; u32 pid, tid; u64 addr, len, pgoff;
	 *	char filename[]; sample_id
	 */
	PERF_RECORD_MMAP		= 1,

	/*
	 * Records were dropped because the buffer was full:
	 *	header; u64 id; u64 lost; sample_id
	 */
	PERF_RECORD_LOST		= 2,

	/*
	 * A task's name changed:
	 *	header; u32 pid, tid; char comm[]; sample_id
	 */
	PERF_RECORD_COMM		= 3,

	/*
	 * A task exited:
	 *	header; u32 pid, ppid; u32 tid, ptid; u64 time; sample_id
	 */
	PERF_RECORD_EXIT		= 4,

	/*
	 * Sampling was stopped or restarted because of the interrupt rate:
	 *	header; u64 time; u64 id; u64 stream_id; sample_id
	 */
	PERF_RECORD_THROTTLE		= 5,
	PERF_RECORD_UNTHROTTLE		= 6,

	/*
	 * A task was created; same layout as EXIT:
	 *	header; u32 pid, ppid; u32 tid, ptid; u64 time; sample_id
	 */
	PERF_RECORD_FORK		= 7,

	/*
	 * Counts of an inherited event at task exit (inherit_stat):
	 *	header; u32 pid, tid; read_format values; sample_id
	 */
	PERF_RECORD_READ		= 8,

	/*
	 * A sample. After the header, each field present only if its
	 * sample_type bit is set, in the order perf_output_sample() writes
	 * them (which puts CGROUP and the page sizes before AUX):
	 *	u64 id				IDENTIFIER
	 *	u64 ip				IP
	 *	u32 pid, tid			TID
	 *	u64 time			TIME (the raw TSC if attr.hw_time, RFC)
	 *	u64 addr			ADDR
	 *	u64 id				ID
	 *	u64 stream_id			STREAM_ID
	 *	u32 cpu, res			CPU
	 *	u64 period			PERIOD
	 *	read_format values		READ
	 *	u64 nr; u64 ips[nr]		CALLCHAIN (with PERF_CONTEXT_* markers)
	 *	u32 size; char data[size]	RAW (contents are not ABI)
	 *	u64 nr; u64 hw_idx (if branch HW_INDEX);
	 *	  struct perf_branch_entry lbr[nr];
	 *	  u64 counters[nr] (if branch COUNTERS)	BRANCH_STACK
	 *	u64 abi; u64 regs[popcount(sample_regs_user)]	REGS_USER (regs absent if abi is NONE)
	 *	u64 size; char data[size]; u64 dyn_size (absent if size is 0)
	 *					STACK_USER
	 *	union perf_sample_weight	WEIGHT or WEIGHT_STRUCT
	 *	u64 data_src			DATA_SRC (union perf_mem_data_src)
	 *	u64 transaction			TRANSACTION (PERF_TXN_*)
	 *	u64 abi; u64 regs[popcount(sample_regs_intr)]	REGS_INTR
	 *	u64 phys_addr			PHYS_ADDR
	 *	u64 cgroup			CGROUP
	 *	u64 data_page_size		DATA_PAGE_SIZE
	 *	u64 code_page_size		CODE_PAGE_SIZE
	 *	u64 size; char data[size]	AUX
	 */
	PERF_RECORD_SAMPLE		= 9,

	/*
	 * MMAP plus identification of the mapped file:
	 *	header; u32 pid, tid; u64 addr, len, pgoff;
	 *	either  u32 maj, min; u64 ino; u64 ino_generation;
	 *	or (PERF_RECORD_MISC_MMAP_BUILD_ID)
	 *		u8 build_id_size; u8 __reserved_1; u16 __reserved_2;
	 *		u8 build_id[20];
	 *	u32 prot, flags; char filename[]; sample_id
	 */
	PERF_RECORD_MMAP2		= 10,

	/*
	 * New data in the AUX area:
	 *	header; u64 aux_offset; u64 aux_size; u64 flags (PERF_AUX_FLAG_*);
	 *	sample_id
	 */
	PERF_RECORD_AUX			= 11,

	/*
	 * Instruction tracing began for a task:
	 *	header; u32 pid, tid; sample_id
	 */
	PERF_RECORD_ITRACE_START	= 12,

	/*
	 * Samples the PMU or kernel could not deliver:
	 *	header; u64 lost; sample_id
	 */
	PERF_RECORD_LOST_SAMPLES	= 13,

	/*
	 * A context switch of the monitored task; PERF_RECORD_MISC_SWITCH_OUT
	 * tells out from in:
	 *	header; sample_id
	 */
	PERF_RECORD_SWITCH		= 14,

	/*
	 * A context switch seen by a CPU-wide event, naming the other task
	 * (the next one when switching out, the previous one when in):
	 *	header; u32 next_prev_pid, next_prev_tid; sample_id
	 */
	PERF_RECORD_SWITCH_CPU_WIDE	= 15,

	/*
	 * A task's namespaces, indexed by NET_NS_INDEX etc.:
	 *	header; u32 pid, tid; u64 nr_namespaces;
	 *	struct perf_ns_link_info link_info[nr_namespaces]; sample_id
	 */
	PERF_RECORD_NAMESPACES		= 16,

	/*
	 * A kernel symbol came or went (PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER):
	 *	header; u64 addr; u32 len; u16 ksym_type; u16 flags;
	 *	char name[]; sample_id
	 */
	PERF_RECORD_KSYMBOL		= 17,

	/*
	 * A BPF program was loaded or unloaded (enum perf_bpf_event_type):
	 *	header; u16 type; u16 flags; u32 id; u8 tag[8]; sample_id
	 */
	PERF_RECORD_BPF_EVENT		= 18,

	/*
	 * A cgroup was created; its id and path:
	 *	header; u64 id; char path[]; sample_id
	 */
	PERF_RECORD_CGROUP		= 19,

	/*
	 * Kernel text was modified at addr; bytes[] holds old_len old bytes
	 * then new_len new ones (either length may be 0):
	 *	header; u64 addr; u16 old_len, new_len; u8 bytes[]; sample_id
	 */
	PERF_RECORD_TEXT_POKE		= 20,

	/*
	 * The hardware id under which an aux_output event's data appears in
	 * the AUX trace; sample_id says which event:
	 *	header; u64 hw_id; sample_id
	 */
	PERF_RECORD_AUX_OUTPUT_HW_ID	= 21,

	PERF_RECORD_MAX,		/* not ABI */
};

/* PERF_RECORD_KSYMBOL.ksym_type */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	/* Out-of-line code: kprobe slots, optimized kprobes, ftrace trampolines. */
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,
	PERF_RECORD_KSYMBOL_TYPE_MAX		/* not ABI */
};

#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	(1 << 0)

/* PERF_RECORD_BPF_EVENT.type */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX,		/* not ABI */
};

#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	8

/*
 * Markers inside a callchain: an ips[] entry at or above PERF_CONTEXT_MAX
 * is not an address but says which mode the following addresses are in.
 */
enum perf_callchain_context {
	PERF_CONTEXT_HV			= (uint64_t)-32,
	PERF_CONTEXT_KERNEL		= (uint64_t)-128,
	PERF_CONTEXT_USER		= (uint64_t)-512,

	PERF_CONTEXT_GUEST		= (uint64_t)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (uint64_t)-2176,
	PERF_CONTEXT_GUEST_USER		= (uint64_t)-2560,

	PERF_CONTEXT_MAX		= (uint64_t)-4095,
};

/* PERF_RECORD_AUX.flags */
#define PERF_AUX_FLAG_TRUNCATED			0x01	/* cut short to fit */
#define PERF_AUX_FLAG_OVERWRITE			0x02	/* snapshot of an overwrite-mode buffer */
#define PERF_AUX_FLAG_PARTIAL			0x04	/* the data has gaps */
#define PERF_AUX_FLAG_COLLISION			0x08	/* sample collided with another one */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* trace format, per PMU */

/* CoreSight values of the format type. */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100

/* The flags argument of perf_event_open(). */
#define PERF_FLAG_FD_NO_GROUP	(1UL << 0)
#define PERF_FLAG_FD_OUTPUT	(1UL << 1)
#define PERF_FLAG_PID_CGROUP	(1UL << 2)	/* pid is a cgroup fd; needs a cpu */
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)	/* the new fd is close-on-exec */

/* ---------------------------------------------------------------------
 * PERF_SAMPLE_DATA_SRC: where a sampled memory access was served from
 * ---------------------------------------------------------------------
 * Each field holds the PERF_MEM_<FIELD>_* values below; PERF_MEM_S()
 * builds a value already shifted into place.
 */
union perf_mem_data_src {
	uint64_t	val;
	struct {
		uint64_t	mem_op		: 5;	/* PERF_MEM_OP_* */
		uint64_t	mem_lvl		: 14;	/* PERF_MEM_LVL_* (older scheme) */
		uint64_t	mem_snoop	: 5;	/* PERF_MEM_SNOOP_* */
		uint64_t	mem_lock	: 2;	/* PERF_MEM_LOCK_* */
		uint64_t	mem_dtlb	: 7;	/* PERF_MEM_TLB_* */
		uint64_t	mem_lvl_num	: 4;	/* PERF_MEM_LVLNUM_* */
		uint64_t	mem_remote	: 1;	/* PERF_MEM_REMOTE_* */
		uint64_t	mem_snoopx	: 2;	/* PERF_MEM_SNOOPX_* */
		uint64_t	mem_blk		: 3;	/* PERF_MEM_BLK_* */
		uint64_t	mem_hops	: 3;	/* PERF_MEM_HOPS_* */
		uint64_t	mem_rsvd	: 18;
	};
};

/* mem_op: kind of access */
#define PERF_MEM_OP_NA		0x01
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08
#define PERF_MEM_OP_EXEC	0x10
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl: level and hit/miss, in the original encoding. Kept for
 * compatibility; new code describes the level with mem_lvl_num,
 * mem_remote and mem_snoopx instead.
 */
#define PERF_MEM_LVL_NA		0x01
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* local DRAM */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* DRAM one hop away */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* DRAM two hops away */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* cache one hop away */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* cache two hops away */
#define PERF_MEM_LVL_IO		0x1000
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

#define PERF_MEM_REMOTE_REMOTE	0x01
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_lvl_num: which level (a number, not a mask) */
#define PERF_MEM_LVLNUM_L1	0x01
#define PERF_MEM_LVLNUM_L2	0x02
#define PERF_MEM_LVLNUM_L3	0x03
#define PERF_MEM_LVLNUM_L4	0x04
#define PERF_MEM_LVLNUM_L2_MHB	0x05	/* L2 miss handling buffer */
#define PERF_MEM_LVLNUM_MSC	0x06	/* memory-side cache */
/* 0x07 is unassigned */
#define PERF_MEM_LVLNUM_UNC	0x08	/* uncached */
#define PERF_MEM_LVLNUM_CXL	0x09
#define PERF_MEM_LVLNUM_IO	0x0a
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b
#define PERF_MEM_LVLNUM_LFB	0x0c	/* line fill buffer / L1 miss handling buffer */
#define PERF_MEM_LVLNUM_RAM	0x0d
#define PERF_MEM_LVLNUM_PMEM	0x0e
#define PERF_MEM_LVLNUM_NA	0x0f
#define PERF_MEM_LVLNUM_SHIFT	33

/* mem_snoop */
#define PERF_MEM_SNOOP_NA	0x01
#define PERF_MEM_SNOOP_NONE	0x02
#define PERF_MEM_SNOOP_HIT	0x04
#define PERF_MEM_SNOOP_MISS	0x08
#define PERF_MEM_SNOOP_HITM	0x10	/* hit a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_snoopx */
#define PERF_MEM_SNOOPX_FWD	0x01	/* forwarded */
#define PERF_MEM_SNOOPX_PEER	0x02	/* transferred from a peer cache */
#define PERF_MEM_SNOOPX_SHIFT	38

/* mem_lock */
#define PERF_MEM_LOCK_NA	0x01
#define PERF_MEM_LOCK_LOCKED	0x02
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb */
#define PERF_MEM_TLB_NA		0x01
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* page walker */
#define PERF_MEM_TLB_OS		0x40	/* page fault handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_blk: why the access was held up */
#define PERF_MEM_BLK_NA		0x01
#define PERF_MEM_BLK_DATA	0x02	/* data not ready to forward */
#define PERF_MEM_BLK_ADDR	0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops: how far away the serving cache was */
#define PERF_MEM_HOPS_0		0x01	/* other core, same node */
#define PERF_MEM_HOPS_1		0x02	/* other node, same socket */
#define PERF_MEM_HOPS_2		0x03	/* other socket, same board */
#define PERF_MEM_HOPS_3		0x04	/* other board */
/* 0x05-0x07 are unassigned */
#define PERF_MEM_HOPS_SHIFT	43

/* PERF_MEM_S(LVL, HIT) is PERF_MEM_LVL_HIT moved to PERF_MEM_LVL_SHIFT. */
#define PERF_MEM_S(field, value) \
	(((uint64_t)PERF_MEM_##field##_##value) << PERF_MEM_##field##_SHIFT)

/* ---------------------------------------------------------------------
 * One entry of a PERF_SAMPLE_BRANCH_STACK
 * ---------------------------------------------------------------------
 * from is the source instruction (not always a branch, e.g. for an
 * interrupt), to the destination. The flags are zero where the hardware
 * does not report them; mispred and predicted are then both 0.
 */
struct perf_branch_entry {
	uint64_t	from;
	uint64_t	to;
	uint64_t	mispred		: 1;	/* target was mispredicted */
	uint64_t	predicted	: 1;	/* target was predicted */
	uint64_t	in_tx		: 1;	/* inside a hardware transaction */
	uint64_t	abort		: 1;	/* this branch aborted the transaction */
	uint64_t	cycles		: 16;	/* cycles since the previous entry */
	uint64_t	type		: 4;	/* PERF_BR_* */
	uint64_t	spec		: 2;	/* PERF_BR_SPEC_* */
	uint64_t	new_type	: 4;	/* PERF_BR_NEW_*, if type is EXTEND_ABI */
	uint64_t	priv		: 3;	/* PERF_BR_PRIV_* */
	uint64_t	reserved	: 31;
};

/* How many low bits of the flags word above are in use. */
#define PERF_BRANCH_ENTRY_INFO_BITS_MAX		33

/*
 * PERF_SAMPLE_WEIGHT gives one 64-bit cost (e.g. access latency);
 * PERF_SAMPLE_WEIGHT_STRUCT splits the same word into up to three
 * PMU-defined values.
 */
union perf_sample_weight {
	uint64_t	full;
	struct {
		uint32_t	var1_dw;
		uint16_t	var2_w;
		uint16_t	var3_w;
	};
};

/* ---------------------------------------------------------------------
 * Layout checks: the fixed points that readers and writers rely on
 * ---------------------------------------------------------------------
 */
_Static_assert(sizeof(struct perf_event_attr) == PERF_ATTR_SIZE_MAX,
	       "perf_event_attr must end at PERF_ATTR_SIZE_MAX");
_Static_assert(offsetof(struct perf_event_mmap_page, data_head) == 1024,
	       "the ring-buffer control fields must start 1 KiB into the user page");
_Static_assert(sizeof(struct perf_event_header) == 8,
	       "perf_event_header is 8 bytes");
_Static_assert(sizeof(struct perf_branch_entry) == 24,
	       "perf_branch_entry is three u64s");
_Static_assert(sizeof(union perf_mem_data_src) == 8 && sizeof(union perf_sample_weight) == 8,
	       "data_src and weight are one u64 each");

#endif /* PMUSIM_PERF_EVENT_H */
