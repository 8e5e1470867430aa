/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The facts test_abi compares, as one list compiled twice: once against
 * <pmusim/perf_event.h> and once against the host's <linux/perf_event.h>.
 * The includer first includes its perf header and defines
 *
 *   ABI_SIDE_PMUSIM		1 for pmusim's header, 0 for the host's
 *   ABI_SIDE_HAS(maj, min)	whether this side's header has what Linux
 *				maj.min introduced (pmusim: always)
 *
 * A fact newer than the side's header is recorded as skipped, with the
 * reason, under the same name, so both tables list the same names.
 * Constants that are macros are probed with #ifdef instead of by version.
 */
#ifndef PMUSIM_TESTS_ABI_LIST_H
#define PMUSIM_TESTS_ABI_LIST_H

#include <string.h>

#include "abi_table.h"

#define ABI_FIELD(g, su, T, F)						\
	abi_add_field(t, g, #T "." #F, offsetof(su T, F),		\
		      sizeof(((su T *)0)->F))
/* A flexible array member: its offset and the size of one element. */
#define ABI_FLEX(g, su, T, F)						\
	abi_add_field(t, g, #T "." #F, offsetof(su T, F),		\
		      sizeof(((su T *)0)->F[0]))
/* Field F of this side recorded under the name of field AS. */
#define ABI_FIELD_AS(g, su, T, F, AS)					\
	abi_add_field(t, g, #T "." #AS, offsetof(su T, F),		\
		      sizeof(((su T *)0)->F))
/* Set the field to all ones (0 - 1 wraps) in a zeroed object, see what moved. */
#define ABI_BITS(g, su, T, F)						\
	do {								\
		su T o_;						\
		memset(&o_, 0, sizeof(o_));				\
		o_.F--;							\
		abi_add_bits(t, g, #T "." #F, &o_, sizeof(o_));		\
	} while (0)
#define ABI_SIZEOF(g, su, T)						\
	abi_add_sizeof(t, g, "sizeof(" #su " " #T ")", sizeof(su T))
#define ABI_SKIP_FIELD(g, T, F, why)	abi_add_skipped(t, g, #T "." #F, why)
#define ABI_SKIP_SIZEOF(g, su, T, why)	abi_add_skipped(t, g, "sizeof(" #su " " #T ")", why)
#define ABI_SKIP_CONST(g, C, why)	abi_add_skipped(t, g, #C, why)

#define ABI_NEWER(maj, min)	"the header predates Linux " #maj "." #min ", which added it"
#define ABI_NOT_IN_HEADER	"the header does not define it (it is newer)"

/* Shorthands for the big structs. */
#define ATTR(F)		ABI_FIELD(ABI_ATTR, struct, perf_event_attr, F)
#define ATTR_BITS(F)	ABI_BITS(ABI_ATTR, struct, perf_event_attr, F)
#define PAGE(F)		ABI_FIELD(ABI_MMAP_PAGE, struct, perf_event_mmap_page, F)
#define PAGE_BITS(F)	ABI_BITS(ABI_MMAP_PAGE, struct, perf_event_mmap_page, F)
#define BRE(F)		ABI_FIELD(ABI_BRANCH_ENTRY, struct, perf_branch_entry, F)
#define BRE_BITS(F)	ABI_BITS(ABI_BRANCH_ENTRY, struct, perf_branch_entry, F)
#define SRC_BITS(F)	ABI_BITS(ABI_SMALL_TYPES, union, perf_mem_data_src, F)
/* Not via ABI_CONST: the name must be stringized before it is expanded. */
#define K(g, C)		abi_add_const(t, g, #C, (uint64_t)(C))

static void abi_fill_attr(struct abi_table *t)
{
	ATTR(type);
	ATTR(size);
	ATTR(config);
	ATTR(sample_period);
	ATTR(sample_freq);
	ATTR(sample_type);
	ATTR(read_format);

	ATTR_BITS(disabled);
	ATTR_BITS(inherit);
	ATTR_BITS(pinned);
	ATTR_BITS(exclusive);
	ATTR_BITS(exclude_user);
	ATTR_BITS(exclude_kernel);
	ATTR_BITS(exclude_hv);
	ATTR_BITS(exclude_idle);
	ATTR_BITS(mmap);
	ATTR_BITS(comm);
	ATTR_BITS(freq);
	ATTR_BITS(inherit_stat);
	ATTR_BITS(enable_on_exec);
	ATTR_BITS(task);
	ATTR_BITS(watermark);
	ATTR_BITS(precise_ip);
	ATTR_BITS(mmap_data);
	ATTR_BITS(sample_id_all);
	ATTR_BITS(exclude_host);
	ATTR_BITS(exclude_guest);
	ATTR_BITS(exclude_callchain_kernel);
	ATTR_BITS(exclude_callchain_user);
	ATTR_BITS(mmap2);
	ATTR_BITS(comm_exec);
	ATTR_BITS(use_clockid);
	ATTR_BITS(context_switch);
	ATTR_BITS(write_backward);
	ATTR_BITS(namespaces);
	ATTR_BITS(ksymbol);
	ATTR_BITS(bpf_event);
	ATTR_BITS(aux_output);
	ATTR_BITS(cgroup);
	ATTR_BITS(text_poke);
	ATTR_BITS(build_id);
	ATTR_BITS(inherit_thread);
	ATTR_BITS(remove_on_exec);
	ATTR_BITS(sigtrap);
#if ABI_SIDE_PMUSIM && defined(CONFIG_PERF_HW_TIME)
	ABI_SKIP_FIELD(ABI_ATTR, perf_event_attr, __reserved_1,
		       "CONFIG_PERF_HW_TIME takes its lowest bit for hw_time");
#else
	ATTR_BITS(__reserved_1);
#endif

	ATTR(wakeup_events);
	ATTR(wakeup_watermark);
	ATTR(bp_type);
	ATTR(bp_addr);
	ATTR(kprobe_func);
	ATTR(uprobe_path);
	ATTR(config1);
	ATTR(bp_len);
	ATTR(kprobe_addr);
	ATTR(probe_offset);
	ATTR(config2);
	ATTR(branch_sample_type);
	ATTR(sample_regs_user);
	ATTR(sample_stack_user);
	ATTR(clockid);
	ATTR(sample_regs_intr);
	ATTR(aux_watermark);
	ATTR(sample_max_stack);
	ATTR(__reserved_2);
	ATTR(aux_sample_size);
#if ABI_SIDE_HAS(6, 13)
	ATTR(aux_action);
	ATTR_BITS(aux_start_paused);
	ATTR_BITS(aux_pause);
	ATTR_BITS(aux_resume);
	ATTR_BITS(__reserved_3);
#else
	/* Before aux_action the same word was the plain u32 __reserved_3. */
	ABI_FIELD_AS(ABI_ATTR, struct, perf_event_attr, __reserved_3, aux_action);
	ABI_SKIP_FIELD(ABI_ATTR, perf_event_attr, aux_start_paused, ABI_NEWER(6, 13));
	ABI_SKIP_FIELD(ABI_ATTR, perf_event_attr, aux_pause, ABI_NEWER(6, 13));
	ABI_SKIP_FIELD(ABI_ATTR, perf_event_attr, aux_resume, ABI_NEWER(6, 13));
	ABI_SKIP_FIELD(ABI_ATTR, perf_event_attr, __reserved_3,
		       "the header has it as the whole u32, compared as aux_action");
#endif
	ATTR(sig_data);
#if ABI_SIDE_HAS(6, 3)
	ATTR(config3);
#else
	ABI_SKIP_FIELD(ABI_ATTR, perf_event_attr, config3, ABI_NEWER(6, 3));
#endif

	/* Where the upstream struct ends; the RFC appends after it. */
#if ABI_SIDE_PMUSIM && defined(CONFIG_PERF_ALT_SAMPLE_PERIOD)
	abi_add_sizeof(t, ABI_ATTR, "sizeof(struct perf_event_attr)",
		       offsetof(struct perf_event_attr, alternative_sample_period));
#elif ABI_SIDE_HAS(6, 3)
	ABI_SIZEOF(ABI_ATTR, struct, perf_event_attr);
#else
	ABI_SKIP_SIZEOF(ABI_ATTR, struct, perf_event_attr,
			"the header's struct ends before config3 (Linux 6.3)");
#endif
}

static void abi_fill_mmap_page(struct abi_table *t)
{
	PAGE(version);
	PAGE(compat_version);
	PAGE(lock);
	PAGE(index);
	PAGE(offset);
	PAGE(time_enabled);
	PAGE(time_running);
	PAGE(capabilities);
	PAGE_BITS(cap_bit0);
	PAGE_BITS(cap_bit0_is_deprecated);
	PAGE_BITS(cap_user_rdpmc);
	PAGE_BITS(cap_user_time);
	PAGE_BITS(cap_user_time_zero);
	PAGE_BITS(cap_user_time_short);
#if ABI_SIDE_PMUSIM && defined(CONFIG_PERF_HW_TIME)
	ABI_SKIP_FIELD(ABI_MMAP_PAGE, perf_event_mmap_page, cap_____res,
		       "CONFIG_PERF_HW_TIME takes its lowest bit for cap_user_time_mono_raw");
#else
	PAGE_BITS(cap_____res);
#endif
	PAGE(pmc_width);
	PAGE(time_shift);
	PAGE(time_mult);
	PAGE(time_offset);
	PAGE(time_zero);
	PAGE(size);
	PAGE(__reserved_1);
	PAGE(time_cycles);
	PAGE(time_mask);
#if ABI_SIDE_PMUSIM && defined(CONFIG_PERF_HW_TIME)
	ABI_SKIP_FIELD(ABI_MMAP_PAGE, perf_event_mmap_page, __reserved,
		       "CONFIG_PERF_HW_TIME puts time_mono_* in its first 32 bytes");
#else
	PAGE(__reserved);
#endif
	PAGE(data_head);
	PAGE(data_tail);
	PAGE(data_offset);
	PAGE(data_size);
	PAGE(aux_head);
	PAGE(aux_tail);
	PAGE(aux_offset);
	PAGE(aux_size);
	ABI_SIZEOF(ABI_MMAP_PAGE, struct, perf_event_mmap_page);
}

static void abi_fill_header_and_branch_entry(struct abi_table *t)
{
	ABI_FIELD(ABI_HEADER, struct, perf_event_header, type);
	ABI_FIELD(ABI_HEADER, struct, perf_event_header, misc);
	ABI_FIELD(ABI_HEADER, struct, perf_event_header, size);
	ABI_SIZEOF(ABI_HEADER, struct, perf_event_header);

	BRE(from);
	BRE(to);
	BRE_BITS(mispred);
	BRE_BITS(predicted);
	BRE_BITS(in_tx);
	BRE_BITS(abort);
	BRE_BITS(cycles);
	BRE_BITS(type);
	BRE_BITS(spec);
	BRE_BITS(new_type);
	BRE_BITS(priv);
	BRE_BITS(reserved);
	ABI_SIZEOF(ABI_BRANCH_ENTRY, struct, perf_branch_entry);
}

static void abi_fill_small_types(struct abi_table *t)
{
	const enum abi_group g = ABI_SMALL_TYPES;

	ABI_FIELD(g, struct, perf_ns_link_info, dev);
	ABI_FIELD(g, struct, perf_ns_link_info, ino);
	ABI_SIZEOF(g, struct, perf_ns_link_info);

	ABI_FIELD(g, struct, perf_event_query_bpf, ids_len);
	ABI_FIELD(g, struct, perf_event_query_bpf, prog_cnt);
	ABI_FLEX(g, struct, perf_event_query_bpf, ids);
	ABI_SIZEOF(g, struct, perf_event_query_bpf);

	ABI_FIELD(g, union, perf_mem_data_src, val);
	SRC_BITS(mem_op);
	SRC_BITS(mem_lvl);
	SRC_BITS(mem_snoop);
	SRC_BITS(mem_lock);
	SRC_BITS(mem_dtlb);
	SRC_BITS(mem_lvl_num);
	SRC_BITS(mem_remote);
	SRC_BITS(mem_snoopx);
	SRC_BITS(mem_blk);
	SRC_BITS(mem_hops);
	SRC_BITS(mem_rsvd);
	ABI_SIZEOF(g, union, perf_mem_data_src);

	ABI_FIELD(g, union, perf_sample_weight, full);
	ABI_FIELD(g, union, perf_sample_weight, var1_dw);
	ABI_FIELD(g, union, perf_sample_weight, var2_w);
	ABI_FIELD(g, union, perf_sample_weight, var3_w);
	ABI_SIZEOF(g, union, perf_sample_weight);
}

static void abi_fill_ioctls(struct abi_table *t)
{
	const enum abi_group g = ABI_IOCTL;

	K(g, PERF_EVENT_IOC_ENABLE);
	K(g, PERF_EVENT_IOC_DISABLE);
	K(g, PERF_EVENT_IOC_REFRESH);
	K(g, PERF_EVENT_IOC_RESET);
	K(g, PERF_EVENT_IOC_PERIOD);
	K(g, PERF_EVENT_IOC_SET_OUTPUT);
	K(g, PERF_EVENT_IOC_SET_FILTER);
	K(g, PERF_EVENT_IOC_ID);
	K(g, PERF_EVENT_IOC_SET_BPF);
	K(g, PERF_EVENT_IOC_PAUSE_OUTPUT);
	K(g, PERF_EVENT_IOC_QUERY_BPF);
	K(g, PERF_EVENT_IOC_MODIFY_ATTRIBUTES);
	K(g, PERF_IOC_FLAG_GROUP);
}

static void abi_fill_record_types(struct abi_table *t)
{
	const enum abi_group g = ABI_RECORD_TYPE;

	K(g, PERF_RECORD_MMAP);
	K(g, PERF_RECORD_LOST);
	K(g, PERF_RECORD_COMM);
	K(g, PERF_RECORD_EXIT);
	K(g, PERF_RECORD_THROTTLE);
	K(g, PERF_RECORD_UNTHROTTLE);
	K(g, PERF_RECORD_FORK);
	K(g, PERF_RECORD_READ);
	K(g, PERF_RECORD_SAMPLE);
	K(g, PERF_RECORD_MMAP2);
	K(g, PERF_RECORD_AUX);
	K(g, PERF_RECORD_ITRACE_START);
	K(g, PERF_RECORD_LOST_SAMPLES);
	K(g, PERF_RECORD_SWITCH);
	K(g, PERF_RECORD_SWITCH_CPU_WIDE);
	K(g, PERF_RECORD_NAMESPACES);
	K(g, PERF_RECORD_KSYMBOL);
	K(g, PERF_RECORD_BPF_EVENT);
	K(g, PERF_RECORD_CGROUP);
	K(g, PERF_RECORD_TEXT_POKE);
	K(g, PERF_RECORD_AUX_OUTPUT_HW_ID);
	K(g, PERF_RECORD_MAX);

	K(g, PERF_RECORD_KSYMBOL_TYPE_UNKNOWN);
	K(g, PERF_RECORD_KSYMBOL_TYPE_BPF);
	K(g, PERF_RECORD_KSYMBOL_TYPE_OOL);
	K(g, PERF_RECORD_KSYMBOL_TYPE_MAX);
	K(g, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	K(g, PERF_BPF_EVENT_UNKNOWN);
	K(g, PERF_BPF_EVENT_PROG_LOAD);
	K(g, PERF_BPF_EVENT_PROG_UNLOAD);
	K(g, PERF_BPF_EVENT_MAX);
}

static void abi_fill_sample_type(struct abi_table *t)
{
	const enum abi_group g = ABI_SAMPLE_TYPE;

	K(g, PERF_SAMPLE_IP);
	K(g, PERF_SAMPLE_TID);
	K(g, PERF_SAMPLE_TIME);
	K(g, PERF_SAMPLE_ADDR);
	K(g, PERF_SAMPLE_READ);
	K(g, PERF_SAMPLE_CALLCHAIN);
	K(g, PERF_SAMPLE_ID);
	K(g, PERF_SAMPLE_CPU);
	K(g, PERF_SAMPLE_PERIOD);
	K(g, PERF_SAMPLE_STREAM_ID);
	K(g, PERF_SAMPLE_RAW);
	K(g, PERF_SAMPLE_BRANCH_STACK);
	K(g, PERF_SAMPLE_REGS_USER);
	K(g, PERF_SAMPLE_STACK_USER);
	K(g, PERF_SAMPLE_WEIGHT);
	K(g, PERF_SAMPLE_DATA_SRC);
	K(g, PERF_SAMPLE_IDENTIFIER);
	K(g, PERF_SAMPLE_TRANSACTION);
	K(g, PERF_SAMPLE_REGS_INTR);
	K(g, PERF_SAMPLE_PHYS_ADDR);
	K(g, PERF_SAMPLE_AUX);
	K(g, PERF_SAMPLE_CGROUP);
	K(g, PERF_SAMPLE_DATA_PAGE_SIZE);
	K(g, PERF_SAMPLE_CODE_PAGE_SIZE);
	K(g, PERF_SAMPLE_WEIGHT_STRUCT);
	K(g, PERF_SAMPLE_MAX);
	K(g, PERF_SAMPLE_WEIGHT_TYPE);
}

static void abi_fill_branch_sample_type(struct abi_table *t)
{
	const enum abi_group g = ABI_BRANCH_SAMPLE_TYPE;

	K(g, PERF_SAMPLE_BRANCH_USER_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_KERNEL_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_HV_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_ANY_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_IND_CALL_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_IN_TX_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_NO_TX_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_COND_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_CALL_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT);

	K(g, PERF_SAMPLE_BRANCH_USER);
	K(g, PERF_SAMPLE_BRANCH_KERNEL);
	K(g, PERF_SAMPLE_BRANCH_HV);
	K(g, PERF_SAMPLE_BRANCH_ANY);
	K(g, PERF_SAMPLE_BRANCH_ANY_CALL);
	K(g, PERF_SAMPLE_BRANCH_ANY_RETURN);
	K(g, PERF_SAMPLE_BRANCH_IND_CALL);
	K(g, PERF_SAMPLE_BRANCH_ABORT_TX);
	K(g, PERF_SAMPLE_BRANCH_IN_TX);
	K(g, PERF_SAMPLE_BRANCH_NO_TX);
	K(g, PERF_SAMPLE_BRANCH_COND);
	K(g, PERF_SAMPLE_BRANCH_CALL_STACK);
	K(g, PERF_SAMPLE_BRANCH_IND_JUMP);
	K(g, PERF_SAMPLE_BRANCH_CALL);
	K(g, PERF_SAMPLE_BRANCH_NO_FLAGS);
	K(g, PERF_SAMPLE_BRANCH_NO_CYCLES);
	K(g, PERF_SAMPLE_BRANCH_TYPE_SAVE);
	K(g, PERF_SAMPLE_BRANCH_HW_INDEX);
	K(g, PERF_SAMPLE_BRANCH_PRIV_SAVE);
	K(g, PERF_SAMPLE_BRANCH_PLM_ALL);

#if ABI_SIDE_HAS(6, 7)
	K(g, PERF_SAMPLE_BRANCH_COUNTERS_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_COUNTERS);
	K(g, PERF_SAMPLE_BRANCH_MAX_SHIFT);
	K(g, PERF_SAMPLE_BRANCH_MAX);
#else
	ABI_SKIP_CONST(g, PERF_SAMPLE_BRANCH_COUNTERS_SHIFT, ABI_NEWER(6, 7));
	ABI_SKIP_CONST(g, PERF_SAMPLE_BRANCH_COUNTERS, ABI_NEWER(6, 7));
	ABI_SKIP_CONST(g, PERF_SAMPLE_BRANCH_MAX_SHIFT,
		       "not ABI, and one lower before COUNTERS (Linux 6.7)");
	ABI_SKIP_CONST(g, PERF_SAMPLE_BRANCH_MAX,
		       "not ABI, and half as big before COUNTERS (Linux 6.7)");
#endif
}

static void abi_fill_read_format(struct abi_table *t)
{
	const enum abi_group g = ABI_READ_FORMAT;

	K(g, PERF_FORMAT_TOTAL_TIME_ENABLED);
	K(g, PERF_FORMAT_TOTAL_TIME_RUNNING);
	K(g, PERF_FORMAT_ID);
	K(g, PERF_FORMAT_GROUP);
	K(g, PERF_FORMAT_LOST);
	K(g, PERF_FORMAT_MAX);
}

static void abi_fill_callchain_contexts(struct abi_table *t)
{
	const enum abi_group g = ABI_CALLCHAIN_CONTEXT;

	K(g, PERF_CONTEXT_HV);
	K(g, PERF_CONTEXT_KERNEL);
	K(g, PERF_CONTEXT_USER);
	K(g, PERF_CONTEXT_GUEST);
	K(g, PERF_CONTEXT_GUEST_KERNEL);
	K(g, PERF_CONTEXT_GUEST_USER);
	K(g, PERF_CONTEXT_MAX);
	K(g, PERF_MAX_STACK_DEPTH);
	K(g, PERF_MAX_CONTEXTS_PER_STACK);
}

static void abi_fill_record_misc(struct abi_table *t)
{
	const enum abi_group g = ABI_RECORD_MISC;

	K(g, PERF_RECORD_MISC_CPUMODE_MASK);
	K(g, PERF_RECORD_MISC_CPUMODE_UNKNOWN);
	K(g, PERF_RECORD_MISC_KERNEL);
	K(g, PERF_RECORD_MISC_USER);
	K(g, PERF_RECORD_MISC_HYPERVISOR);
	K(g, PERF_RECORD_MISC_GUEST_KERNEL);
	K(g, PERF_RECORD_MISC_GUEST_USER);
	K(g, PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT);
	K(g, PERF_RECORD_MISC_MMAP_DATA);
	K(g, PERF_RECORD_MISC_COMM_EXEC);
	K(g, PERF_RECORD_MISC_FORK_EXEC);
	K(g, PERF_RECORD_MISC_SWITCH_OUT);
	K(g, PERF_RECORD_MISC_EXACT_IP);
	K(g, PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	K(g, PERF_RECORD_MISC_MMAP_BUILD_ID);
	K(g, PERF_RECORD_MISC_EXT_RESERVED);
}

static void abi_fill_other_constants(struct abi_table *t)
{
	const enum abi_group g = ABI_OTHER_CONSTANTS;

	K(g, PERF_TYPE_HARDWARE);
	K(g, PERF_TYPE_SOFTWARE);
	K(g, PERF_TYPE_TRACEPOINT);
	K(g, PERF_TYPE_HW_CACHE);
	K(g, PERF_TYPE_RAW);
	K(g, PERF_TYPE_BREAKPOINT);
	K(g, PERF_TYPE_MAX);
	K(g, PERF_PMU_TYPE_SHIFT);
	K(g, PERF_HW_EVENT_MASK);

	K(g, PERF_COUNT_HW_CPU_CYCLES);
	K(g, PERF_COUNT_HW_INSTRUCTIONS);
	K(g, PERF_COUNT_HW_CACHE_REFERENCES);
	K(g, PERF_COUNT_HW_CACHE_MISSES);
	K(g, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	K(g, PERF_COUNT_HW_BRANCH_MISSES);
	K(g, PERF_COUNT_HW_BUS_CYCLES);
	K(g, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
	K(g, PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
	K(g, PERF_COUNT_HW_REF_CPU_CYCLES);
	K(g, PERF_COUNT_HW_MAX);

	K(g, PERF_COUNT_HW_CACHE_L1D);
	K(g, PERF_COUNT_HW_CACHE_L1I);
	K(g, PERF_COUNT_HW_CACHE_LL);
	K(g, PERF_COUNT_HW_CACHE_DTLB);
	K(g, PERF_COUNT_HW_CACHE_ITLB);
	K(g, PERF_COUNT_HW_CACHE_BPU);
	K(g, PERF_COUNT_HW_CACHE_NODE);
	K(g, PERF_COUNT_HW_CACHE_MAX);
	K(g, PERF_COUNT_HW_CACHE_OP_READ);
	K(g, PERF_COUNT_HW_CACHE_OP_WRITE);
	K(g, PERF_COUNT_HW_CACHE_OP_PREFETCH);
	K(g, PERF_COUNT_HW_CACHE_OP_MAX);
	K(g, PERF_COUNT_HW_CACHE_RESULT_ACCESS);
	K(g, PERF_COUNT_HW_CACHE_RESULT_MISS);
	K(g, PERF_COUNT_HW_CACHE_RESULT_MAX);

	K(g, PERF_COUNT_SW_CPU_CLOCK);
	K(g, PERF_COUNT_SW_TASK_CLOCK);
	K(g, PERF_COUNT_SW_PAGE_FAULTS);
	K(g, PERF_COUNT_SW_CONTEXT_SWITCHES);
	K(g, PERF_COUNT_SW_CPU_MIGRATIONS);
	K(g, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	K(g, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	K(g, PERF_COUNT_SW_ALIGNMENT_FAULTS);
	K(g, PERF_COUNT_SW_EMULATION_FAULTS);
	K(g, PERF_COUNT_SW_DUMMY);
	K(g, PERF_COUNT_SW_BPF_OUTPUT);
	K(g, PERF_COUNT_SW_CGROUP_SWITCHES);
	K(g, PERF_COUNT_SW_MAX);

	K(g, PERF_BR_UNKNOWN);
	K(g, PERF_BR_COND);
	K(g, PERF_BR_UNCOND);
	K(g, PERF_BR_IND);
	K(g, PERF_BR_CALL);
	K(g, PERF_BR_IND_CALL);
	K(g, PERF_BR_RET);
	K(g, PERF_BR_SYSCALL);
	K(g, PERF_BR_SYSRET);
	K(g, PERF_BR_COND_CALL);
	K(g, PERF_BR_COND_RET);
	K(g, PERF_BR_ERET);
	K(g, PERF_BR_IRQ);
	K(g, PERF_BR_SERROR);
	K(g, PERF_BR_NO_TX);
	K(g, PERF_BR_EXTEND_ABI);
	K(g, PERF_BR_MAX);
	K(g, PERF_BR_SPEC_NA);
	K(g, PERF_BR_SPEC_WRONG_PATH);
	K(g, PERF_BR_NON_SPEC_CORRECT_PATH);
	K(g, PERF_BR_SPEC_CORRECT_PATH);
	K(g, PERF_BR_SPEC_MAX);
	K(g, PERF_BR_NEW_FAULT_ALGN);
	K(g, PERF_BR_NEW_FAULT_DATA);
	K(g, PERF_BR_NEW_FAULT_INST);
	K(g, PERF_BR_NEW_ARCH_1);
	K(g, PERF_BR_NEW_ARCH_2);
	K(g, PERF_BR_NEW_ARCH_3);
	K(g, PERF_BR_NEW_ARCH_4);
	K(g, PERF_BR_NEW_ARCH_5);
	K(g, PERF_BR_NEW_MAX);
	K(g, PERF_BR_PRIV_UNKNOWN);
	K(g, PERF_BR_PRIV_USER);
	K(g, PERF_BR_PRIV_KERNEL);
	K(g, PERF_BR_PRIV_HV);
	K(g, PERF_BR_ARM64_FIQ);
	K(g, PERF_BR_ARM64_DEBUG_HALT);
	K(g, PERF_BR_ARM64_DEBUG_EXIT);
	K(g, PERF_BR_ARM64_DEBUG_INST);
	K(g, PERF_BR_ARM64_DEBUG_DATA);
#if ABI_SIDE_PMUSIM || defined(PERF_BRANCH_ENTRY_INFO_BITS_MAX)
	K(g, PERF_BRANCH_ENTRY_INFO_BITS_MAX);
#else
	ABI_SKIP_CONST(g, PERF_BRANCH_ENTRY_INFO_BITS_MAX, ABI_NOT_IN_HEADER);
#endif

	K(g, PERF_SAMPLE_REGS_ABI_NONE);
	K(g, PERF_SAMPLE_REGS_ABI_32);
	K(g, PERF_SAMPLE_REGS_ABI_64);

	K(g, PERF_TXN_ELISION);
	K(g, PERF_TXN_TRANSACTION);
	K(g, PERF_TXN_SYNC);
	K(g, PERF_TXN_ASYNC);
	K(g, PERF_TXN_RETRY);
	K(g, PERF_TXN_CONFLICT);
	K(g, PERF_TXN_CAPACITY_WRITE);
	K(g, PERF_TXN_CAPACITY_READ);
	K(g, PERF_TXN_MAX);
	K(g, PERF_TXN_ABORT_MASK);
	K(g, PERF_TXN_ABORT_SHIFT);

	K(g, PERF_ATTR_SIZE_VER0);
	K(g, PERF_ATTR_SIZE_VER1);
	K(g, PERF_ATTR_SIZE_VER2);
	K(g, PERF_ATTR_SIZE_VER3);
	K(g, PERF_ATTR_SIZE_VER4);
	K(g, PERF_ATTR_SIZE_VER5);
	K(g, PERF_ATTR_SIZE_VER6);
	K(g, PERF_ATTR_SIZE_VER7);
#if ABI_SIDE_PMUSIM || defined(PERF_ATTR_SIZE_VER8)
	K(g, PERF_ATTR_SIZE_VER8);
#else
	ABI_SKIP_CONST(g, PERF_ATTR_SIZE_VER8, ABI_NOT_IN_HEADER);
#endif

	K(g, PERF_AUX_FLAG_TRUNCATED);
	K(g, PERF_AUX_FLAG_OVERWRITE);
	K(g, PERF_AUX_FLAG_PARTIAL);
	K(g, PERF_AUX_FLAG_COLLISION);
	K(g, PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK);
	K(g, PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT);
	K(g, PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW);

	K(g, PERF_FLAG_FD_NO_GROUP);
	K(g, PERF_FLAG_FD_OUTPUT);
	K(g, PERF_FLAG_PID_CGROUP);
	K(g, PERF_FLAG_FD_CLOEXEC);

	K(g, NET_NS_INDEX);
	K(g, UTS_NS_INDEX);
	K(g, IPC_NS_INDEX);
	K(g, PID_NS_INDEX);
	K(g, USER_NS_INDEX);
	K(g, MNT_NS_INDEX);
	K(g, CGROUP_NS_INDEX);
	K(g, NR_NAMESPACES);

	K(g, PERF_MEM_OP_NA);
	K(g, PERF_MEM_OP_LOAD);
	K(g, PERF_MEM_OP_STORE);
	K(g, PERF_MEM_OP_PFETCH);
	K(g, PERF_MEM_OP_EXEC);
	K(g, PERF_MEM_OP_SHIFT);
	K(g, PERF_MEM_LVL_NA);
	K(g, PERF_MEM_LVL_HIT);
	K(g, PERF_MEM_LVL_MISS);
	K(g, PERF_MEM_LVL_L1);
	K(g, PERF_MEM_LVL_LFB);
	K(g, PERF_MEM_LVL_L2);
	K(g, PERF_MEM_LVL_L3);
	K(g, PERF_MEM_LVL_LOC_RAM);
	K(g, PERF_MEM_LVL_REM_RAM1);
	K(g, PERF_MEM_LVL_REM_RAM2);
	K(g, PERF_MEM_LVL_REM_CCE1);
	K(g, PERF_MEM_LVL_REM_CCE2);
	K(g, PERF_MEM_LVL_IO);
	K(g, PERF_MEM_LVL_UNC);
	K(g, PERF_MEM_LVL_SHIFT);
	K(g, PERF_MEM_REMOTE_REMOTE);
	K(g, PERF_MEM_REMOTE_SHIFT);
	K(g, PERF_MEM_LVLNUM_L1);
	K(g, PERF_MEM_LVLNUM_L2);
	K(g, PERF_MEM_LVLNUM_L3);
	K(g, PERF_MEM_LVLNUM_L4);
#if ABI_SIDE_PMUSIM || defined(PERF_MEM_LVLNUM_L2_MHB)
	K(g, PERF_MEM_LVLNUM_L2_MHB);
#else
	ABI_SKIP_CONST(g, PERF_MEM_LVLNUM_L2_MHB, ABI_NOT_IN_HEADER);
#endif
#if ABI_SIDE_PMUSIM || defined(PERF_MEM_LVLNUM_MSC)
	K(g, PERF_MEM_LVLNUM_MSC);
#else
	ABI_SKIP_CONST(g, PERF_MEM_LVLNUM_MSC, ABI_NOT_IN_HEADER);
#endif
#if ABI_SIDE_PMUSIM || defined(PERF_MEM_LVLNUM_UNC)
	K(g, PERF_MEM_LVLNUM_UNC);
#else
	ABI_SKIP_CONST(g, PERF_MEM_LVLNUM_UNC, ABI_NOT_IN_HEADER);
#endif
	K(g, PERF_MEM_LVLNUM_CXL);
	K(g, PERF_MEM_LVLNUM_IO);
	K(g, PERF_MEM_LVLNUM_ANY_CACHE);
	K(g, PERF_MEM_LVLNUM_LFB);
	K(g, PERF_MEM_LVLNUM_RAM);
	K(g, PERF_MEM_LVLNUM_PMEM);
	K(g, PERF_MEM_LVLNUM_NA);
	K(g, PERF_MEM_LVLNUM_SHIFT);
	K(g, PERF_MEM_SNOOP_NA);
	K(g, PERF_MEM_SNOOP_NONE);
	K(g, PERF_MEM_SNOOP_HIT);
	K(g, PERF_MEM_SNOOP_MISS);
	K(g, PERF_MEM_SNOOP_HITM);
	K(g, PERF_MEM_SNOOP_SHIFT);
	K(g, PERF_MEM_SNOOPX_FWD);
	K(g, PERF_MEM_SNOOPX_PEER);
	K(g, PERF_MEM_SNOOPX_SHIFT);
	K(g, PERF_MEM_LOCK_NA);
	K(g, PERF_MEM_LOCK_LOCKED);
	K(g, PERF_MEM_LOCK_SHIFT);
	K(g, PERF_MEM_TLB_NA);
	K(g, PERF_MEM_TLB_HIT);
	K(g, PERF_MEM_TLB_MISS);
	K(g, PERF_MEM_TLB_L1);
	K(g, PERF_MEM_TLB_L2);
	K(g, PERF_MEM_TLB_WK);
	K(g, PERF_MEM_TLB_OS);
	K(g, PERF_MEM_TLB_SHIFT);
	K(g, PERF_MEM_BLK_NA);
	K(g, PERF_MEM_BLK_DATA);
	K(g, PERF_MEM_BLK_ADDR);
	K(g, PERF_MEM_BLK_SHIFT);
	K(g, PERF_MEM_HOPS_0);
	K(g, PERF_MEM_HOPS_1);
	K(g, PERF_MEM_HOPS_2);
	K(g, PERF_MEM_HOPS_3);
	K(g, PERF_MEM_HOPS_SHIFT);
	K(g, PERF_MEM_S(LVLNUM, L3));
	K(g, PERF_MEM_S(SNOOPX, PEER));
}

#if ABI_SIDE_PMUSIM
/* The RFC additions, for pmusim's own tests; never compared with a host. */
static void abi_fill_rfc(struct abi_table *t)
{
#ifdef CONFIG_PERF_HW_TIME
	ABI_BITS(ABI_RFC, struct, perf_event_attr, hw_time);
	ABI_BITS(ABI_RFC, struct, perf_event_attr, __reserved_1);
	ABI_BITS(ABI_RFC, struct, perf_event_mmap_page, cap_user_time_mono_raw);
	ABI_BITS(ABI_RFC, struct, perf_event_mmap_page, cap_____res);
	ABI_FIELD(ABI_RFC, struct, perf_event_mmap_page, time_mono_last);
	ABI_FIELD(ABI_RFC, struct, perf_event_mmap_page, time_mono_mult);
	ABI_FIELD(ABI_RFC, struct, perf_event_mmap_page, time_mono_shift);
	ABI_FIELD(ABI_RFC, struct, perf_event_mmap_page, time_mono_nsec);
	ABI_FIELD(ABI_RFC, struct, perf_event_mmap_page, time_mono_base);
	ABI_FIELD(ABI_RFC, struct, perf_event_mmap_page, __reserved);
#endif
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	ABI_FIELD(ABI_RFC, struct, perf_event_attr, alternative_sample_period);
	K(ABI_RFC, PERF_ATTR_SIZE_VER9);
#endif
	(void)t;
}
#endif

/* Every fact of this side's header, in list order. */
static void abi_fill(struct abi_table *t)
{
	abi_fill_attr(t);
	abi_fill_mmap_page(t);
	abi_fill_header_and_branch_entry(t);
	abi_fill_small_types(t);
	abi_fill_ioctls(t);
	abi_fill_record_types(t);
	abi_fill_sample_type(t);
	abi_fill_branch_sample_type(t);
	abi_fill_read_format(t);
	abi_fill_callchain_contexts(t);
	abi_fill_record_misc(t);
	abi_fill_other_constants(t);
#if ABI_SIDE_PMUSIM
	abi_fill_rfc(t);
#endif
}

#undef ATTR
#undef ATTR_BITS
#undef PAGE
#undef PAGE_BITS
#undef BRE
#undef BRE_BITS
#undef SRC_BITS
#undef K

#endif /* PMUSIM_TESTS_ABI_LIST_H */
