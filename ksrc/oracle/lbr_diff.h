/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The differential oracle of the LBR: core/x86/lbr.c and the kernel's own
 * arch/x86/events/intel/lbr.c (ksrc/lbr_bridge.c) in lockstep, each on a
 * model CPU of its own of the same CPU model, fed the same branch stream,
 * the same events (filters), PMIs and context switches. After every
 * operation it compares the MSR writes each side made (the stream: every
 * write, in order), the branch stack a PMI reads (entries, flags, nr,
 * hw_idx), the CPU's LBR state (lbr_users, br_sel, LBR_SELECT's owner and
 * value, the last saved context) and each task's saved context (users,
 * state, log_id, tos, valid entries, the entries), and stops at the first
 * difference, naming it.
 *
 * Known departures of core/ (README "Departures") are named, not failed:
 *   - arch-lbr-save-stale-tail: core/'s Arch LBR save ends a stack that
 *     is not full at its first empty entry; the kernel's leaves the last
 *     save's entry there. The oracle clears that entry in the kernel's
 *     saved context too (and counts it) and goes on.
 *   - task-ctx-data: with CONFIG_PERF_TASK_CTX_DATA core/ keeps a
 *     system-wide call-stack event's stack with each task across context
 *     switches (upstream v6.15, 3cec9fd03543 "perf/x86/lbr: Fix shorter
 *     LBRs call stacks for the system-wide mode"); a tree whose lbr.c
 *     does not (v6.12) resets the LBR at sched-in instead. A difference
 *     in a run with a system-wide call-stack event, after a context
 *     switch, when the two disagree on that, is this departure
 *     (KSRC_LBR_DEPARTURE), not a failure.
 *
 * Input (fuzz_lbr's in ksrc mode, or made on purpose by the test): byte 0
 * the CPU model, byte 1 the filter (ksrc_lbr_filters[]), byte 2 bit 0 a
 * per-task event on task 0 (else CPU-wide), bit 1 a second event of the
 * same filter, per task on task 1. Then one op a byte, b & 7:
 *   0, 1 call (child b >> 3 & 1, indirect with 0x40)   2 return
 *   3 1 + (b >> 3 & 7) conditional jumps, with 0x40 after a long block
 *     (its cycles past LBR_INFO's 16-bit count)   4 jump (0x08: indirect)
 *   5 PMI (disable, read, enable)   6 context switch
 *   7 by b >> 3 & 3: the events go off and come back (they ran), an
 *     LBR reset, enable_all again, a kernel jcc (0x20: a sysret, a far
 *     branch from the kernel to user space, which the LBR records under a
 *     user-only filter)
 */
#ifndef PMUSIM_KSRC_ORACLE_LBR_DIFF_H
#define PMUSIM_KSRC_ORACLE_LBR_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	KSRC_LBR_AGREE = 0,
	KSRC_LBR_DIFFER = 1,		/* @why names the first difference */
	KSRC_LBR_DEPARTURE = 2,		/* the task-ctx-data departure; @why says where */
};

struct ksrc_lbr_filter {
	const char *name;
	uint64_t branch_sample_type;
};
extern const struct ksrc_lbr_filter ksrc_lbr_filters[];
extern const unsigned int ksrc_lbr_nr_filters;

struct ksrc_lbr_diff_stats {
	unsigned long ops, writes, reads, entries, switches;
	unsigned long stale_tail;	/* arch-lbr-save-stale-tail applied */
	unsigned long full_then_shorter;	/* Arch LBR saves shorter right after a full one */
	unsigned long kernel_from;	/* kernel "from" records a user-only PMI read met */
	unsigned long cycles_saturated;	/* entries read with cycles 0xffff */
	bool refused;			/* the filter is refused (by both, same errno) */
};

/*
 * Run @data on both. KSRC_LBR_AGREE, KSRC_LBR_DIFFER or KSRC_LBR_DEPARTURE
 * with one line in @why; @stats (may be NULL) counts what was compared.
 */
int ksrc_lbr_diff(const uint8_t *data, size_t size, char *why, size_t why_len,
		  struct ksrc_lbr_diff_stats *stats);

/*
 * fuzz_lbr's input (fuzz/fuzz_lbr.c) as this oracle's: the same CPU model,
 * filter (its eight are the first eight here), per-task bit and ops, a
 * tick becoming a PMI. Writes at most @max bytes to @out; their number.
 */
size_t ksrc_lbr_diff_from_fuzz_lbr(const uint8_t *data, size_t size, uint8_t *out, size_t max);

/* Whether the tree's lbr.c keeps LBR data with the task (v6.15) or its context (v6.12). */
bool ksrc_lbr_task_data_in_task(void);

#endif /* PMUSIM_KSRC_ORACLE_LBR_DIFF_H */
