/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fast half of the retire path, inline in its callers (model.h
 * includes this), so that the simulator's executor pays no call, no
 * argument shuffling and no test of what its call site already knows: at
 * a call or return site the branch type, the privilege and "not
 * mispredicted" are constants, and the filter test and the call-stack pop
 * test become one bit test and one byte compare.
 *
 * The state these functions touch is struct model_retire_state, the first
 * member of struct model_cpu; nothing outside model/ may read or write
 * its fields (they are here only so that the compiler can inline).  The
 * slow half, retire.c, counts exactly, delivers PMIs and handles a core
 * clock that is not the TSC's.
 *
 * Lazy counting: a retire call adds its amounts to pending sums instead of
 * walking the counters, as long as no counter can wrap in it.  A call's
 * `reach` is its instructions plus its cycles (a branch: 1 + cycles), and
 * no counter gets more than its reach from it (slots: the reach times
 * slots per cycle; reference cycles are cycles at the TSC's own rate).
 * `budget` is the reach the calls may still have: the headroom (mask -
 * value) of each counter in reach units, the smallest, less what the fast
 * calls since took.  While reach < budget nothing but the pending sums
 * changes.  A budget of 0 sends every call to the slow half: after anyone
 * looked at the MSRs, while a CMASK/INV/EDGE counter counts, and while the
 * core clock is not the TSC's.
 *
 * Time is one clock: `clock` is the core cycles retire calls have
 * retired.  The LBR's cycle count is clock less lbr_mark; the TSC and the
 * unhalted cycle count are clock plus offsets kept in struct model_cpu.
 * The pending sums are mostly differences too: since they were last empty
 * the fast calls took budget_base - budget of reach and clock -
 * clock_folded of cycles, so the instructions (branches included) are the
 * first less the second.  Only what a user call cannot derive that way is
 * summed: the branches and mispredicts of each privilege, and the kernel's
 * instructions and cycles (the user's are the rest).  So a user block
 * costs two adds, and a branch two more.
 */
#ifndef PMUSIM_MODEL_RETIRE_H
#define PMUSIM_MODEL_RETIRE_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_MAX_LBR		32
#define MODEL_LBR_INFO_CYCLES	0xffffULL	/* LBR_INFO[15:0] saturates there */

struct model_cpu;

enum model_branch_type {
	MODEL_BR_JCC,		/* conditional, taken */
	MODEL_BR_NEAR_REL_JMP,
	MODEL_BR_NEAR_IND_JMP,
	MODEL_BR_NEAR_REL_CALL,
	MODEL_BR_NEAR_IND_CALL,
	MODEL_BR_NEAR_RET,
	MODEL_BR_FAR,		/* far call/jmp/ret, syscall, sysret, interrupts */
	MODEL_BR__NR
};

struct model_retire_state {
	/* lazy counting */
	uint64_t budget;
	uint64_t clock;			/* core cycles retired */
	uint64_t pend_branches[2];	/* per [user] */
	uint64_t pend_misses[2];
	uint64_t pend_kernel_insns;	/* branches included */
	uint64_t pend_kernel_cycles;

	/*
	 * The LBR: one ring for legacy and Arch LBR, in MSR encoding, and
	 * what its per-branch step needs, derived when the control MSRs are
	 * written (lbr.c): the branch types (bit per enum
	 * model_branch_type) recorded per [user]; the type that pops
	 * (MODEL_BR_NEAR_RET in call-stack mode, else MODEL_BR__NR, which no
	 * branch has); whether a record is the INFO formats' plain
	 * from/to/info, which is done here, all others in lbr.c.
	 */
	uint64_t lbr_mark;		/* clock at the last record */
	unsigned int lbr_tos;		/* legacy TOS; Arch LBR: slot of entry 0 */
	unsigned int lbr_depth;		/* legacy lbr_nr; Arch LBR: MSR_ARCH_LBR_DEPTH */
	uint16_t lbr_capture[2];
	uint8_t lbr_pop_type;
	bool lbr_info_format;
	uint64_t lbr_from[MODEL_MAX_LBR];
	uint64_t lbr_to[MODEL_MAX_LBR];
	uint64_t lbr_info[MODEL_MAX_LBR];
};

#define model_retire_likely(x)		__builtin_expect(!!(x), 1)
#define model_retire_unlikely(x)	__builtin_expect(!!(x), 0)
/*
 * Out of line in a coverage build, as core/kernel.h's __always_inline:
 * inlined, each call site would count the branches again. retire.c holds
 * the external definitions those calls then reach.
 */
#ifdef PMUSIM_COVERAGE
#define model_retire_inline		inline
#else
#define model_retire_inline		__attribute__((always_inline)) inline
#endif

/* The state at the start of struct model_cpu (internal.h). */
model_retire_inline struct model_retire_state *model_cpu_retire_state(struct model_cpu *cpu)
{
	return (struct model_retire_state *)(void *)cpu;
}

/* retire.c: a branch or block that may wrap a counter, or any call while budget is 0. */
__attribute__((cold))
void model_retire_branch_slow(struct model_cpu *cpu, uint64_t from, uint64_t to,
			      unsigned int what, unsigned int cycles);
__attribute__((cold))
void model_retire_insns_slow(struct model_cpu *cpu, uint64_t n, uint64_t cycles, bool user);
/* lbr.c: a push in the formats other than INFO/INFO2 */
void model_lbr_push_encoded(struct model_cpu *cpu, uint64_t from, uint64_t to,
			    enum model_branch_type type, bool mispred, uint64_t cycles);

/*
 * The LBR's step for a branch that passed the filter, the branch's cycles
 * already on the clock.  In call-stack mode a near return pops: the newest
 * record is cleared (FROM == 0 is where the driver stops reading) and TOS
 * steps back; a push beyond the depth overwrites the oldest frame without
 * a trace.  Either way the cycle count starts again.
 */
model_retire_inline void model_lbr_record(struct model_cpu *cpu, uint64_t from, uint64_t to,
					  enum model_branch_type type, bool mispred)
{
	struct model_retire_state *rs = model_cpu_retire_state(cpu);
	uint64_t cycles = rs->clock - rs->lbr_mark;
	unsigned int slot = rs->lbr_tos;

	rs->lbr_mark = rs->clock;
	if (type == rs->lbr_pop_type) {
		rs->lbr_from[slot] = rs->lbr_to[slot] = rs->lbr_info[slot] = 0;
		rs->lbr_tos = (slot ? slot : rs->lbr_depth) - 1;
		return;
	}
	if (model_retire_unlikely(!rs->lbr_info_format)) {
		model_lbr_push_encoded(cpu, from, to, type, mispred, cycles);
		return;
	}
	if (cycles > MODEL_LBR_INFO_CYCLES)
		cycles = MODEL_LBR_INFO_CYCLES;
	slot = slot + 1 == rs->lbr_depth ? 0 : slot + 1;
	rs->lbr_tos = slot;
	rs->lbr_from[slot] = from;
	rs->lbr_to[slot] = to;
	rs->lbr_info[slot] = (uint64_t)mispred << 63 | cycles;	/* LBR_INFO.MISPRED, CYC_CNT */
}

/* A branch's type, privilege and mispredict packed for the slow half. */
#define MODEL_BRANCH_WHAT_USER		(1u << 8)
#define MODEL_BRANCH_WHAT_MISPRED	(1u << 9)

model_retire_inline unsigned int model_branch_what(enum model_branch_type type, bool user,
						    bool mispred)
{
	/* an out-of-range type must not alias the flag bits; it records nothing */
	unsigned int t = (unsigned int)type < MODEL_BR__NR ? (unsigned int)type : MODEL_BR__NR;

	return t | (user ? MODEL_BRANCH_WHAT_USER : 0) | (mispred ? MODEL_BRANCH_WHAT_MISPRED : 0);
}

/*
 * One retired taken branch: counts as one instruction, one branch (and one
 * mispredicted branch if mispred), and `cycles` core cycles (which include
 * the branch; they feed LBR_INFO's cycle count too).  `user` is CPL > 0.
 */
model_retire_inline void model_retire_branch(struct model_cpu *cpu, uint64_t from, uint64_t to,
					     enum model_branch_type type, bool user, bool mispred,
					     unsigned int cycles)
{
	struct model_retire_state *rs = model_cpu_retire_state(cpu);
	uint64_t reach = 1 + (uint64_t)cycles;
	unsigned int u = user;

	if (model_retire_unlikely(reach >= rs->budget)) {
		model_retire_branch_slow(cpu, from, to, model_branch_what(type, user, mispred),
					 cycles);
		return;
	}
	rs->budget -= reach;
	rs->clock += cycles;
	if (!u) {
		rs->pend_kernel_insns++;
		rs->pend_kernel_cycles += cycles;
	}
	rs->pend_branches[u]++;
	rs->pend_misses[u] += mispred;
	/* lbr_capture has no bit at or above MODEL_BR__NR: an unknown type is not recorded */
	if ((unsigned int)type < MODEL_BR__NR && (rs->lbr_capture[u] >> type & 1))
		model_lbr_record(cpu, from, to, type, mispred);
}

/*
 * n non-branch instructions retired over `cycles` core cycles.  Below 2^32
 * instructions and cycles the reach stays far from 2^64; bigger blocks go
 * to the slow half.
 */
model_retire_inline void model_retire_insns(struct model_cpu *cpu, uint64_t n, uint64_t cycles,
					    bool user)
{
	struct model_retire_state *rs = model_cpu_retire_state(cpu);
	uint64_t reach = n + cycles;

	if (model_retire_unlikely((n | cycles) >> 32 || reach >= rs->budget)) {
		model_retire_insns_slow(cpu, n, cycles, user);
		return;
	}
	rs->budget -= reach;
	rs->clock += cycles;
	if (!user) {
		rs->pend_kernel_insns += n;
		rs->pend_kernel_cycles += cycles;
	}
}

/*
 * A run of user blocks and taken branches of @types (a mask of enum
 * model_branch_type), as the fast halves of model_retire_insns(cpu, n, n,
 * true) and model_retire_branch(cpu, ..., type, true, mispred, cycles)
 * retire them one after the other: @reach is their reaches added up (a
 * block's n + n, a branch's 1 + cycles; each block below 2^32
 * instructions), @cycles their cycles, @branches the branches and @misses
 * the mispredicted ones. The calls' budget checks in turn pass exactly
 * when their sum does (the budget only shrinks). For a caller that works
 * out which blocks and branches ran by arithmetic rather than by branching
 * on each (a workload's loop), or that has their sums already (a replay's
 * run, sim/vg_task.c). False, and nothing retired, when one of them would
 * have gone to its slow half or the LBR records a branch of @types: the
 * caller then retires them one by one.
 */
model_retire_inline bool model_retire_user_branches(struct model_cpu *cpu, uint64_t reach,
						    uint64_t cycles, uint64_t branches,
						    uint64_t misses, unsigned int types)
{
	struct model_retire_state *rs = model_cpu_retire_state(cpu);

	if (model_retire_unlikely(reach >= rs->budget || (rs->lbr_capture[1] & types)))
		return false;
	rs->budget -= reach;
	rs->clock += cycles;
	rs->pend_branches[1] += branches;
	rs->pend_misses[1] += misses;
	return true;
}

/*
 * A user block of @n instructions at CPI 1 and the taken branch that ends
 * it (one cycle, predicted): the fast halves of model_retire_insns(cpu, n,
 * n, true), when n is not 0, and then model_retire_branch(cpu, from, to,
 * type, true, false, 1), under one budget check that passes exactly when
 * both of theirs would (2n < budget and 2 < budget - 2n). False, and
 * nothing retired, when either would have gone to its slow half: the
 * caller then makes the two calls.
 */
model_retire_inline bool model_retire_user_block_branch(struct model_cpu *cpu, uint64_t n,
							uint64_t from, uint64_t to,
							enum model_branch_type type)
{
	struct model_retire_state *rs = model_cpu_retire_state(cpu);

	if (model_retire_unlikely(n >> 32 || 2 * n + 2 >= rs->budget))
		return false;
	rs->budget -= 2 * n + 2;
	rs->clock += n + 1;
	rs->pend_branches[1]++;
	if ((unsigned int)type < MODEL_BR__NR && (rs->lbr_capture[1] >> type & 1))
		model_lbr_record(cpu, from, to, type, false);
	return true;
}

#endif /* PMUSIM_MODEL_RETIRE_H */
