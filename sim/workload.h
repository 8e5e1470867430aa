/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workloads: programs of functions with calls, returns, loops and
 * conditional branches, executed deterministically from a seed. The
 * executor reports every retired taken branch and every block of other
 * instructions to a sink (the model CPU, in the simulator), and keeps the
 * ground truth: instructions retired per function and the true call
 * stack, against which samples and stitched stacks are judged.
 *
 * Code layout: every op occupies fixed bytes (INSNS 4 per instruction,
 * CALL 5, RCALL 7 = a 2-byte jcc over a 5-byte call, END and COND 2, RET 1,
 * LOOP 0), functions follow each other from code_base, 16-byte aligned.
 * A return address is therefore the pc of the op after the call.
 *
 * Not-taken conditional branches retire as ordinary instructions: the
 * model's per-branch call reports taken branches only, so "branches" in
 * the ground truth means taken branches, as the LBR sees them.
 */
#ifndef PMUSIM_SIM_WORKLOAD_H
#define PMUSIM_SIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "sim/prng.h"

enum wl_kind {
	WL_TCHAIN,	/* main -> f01 -> ... -> fDEPTH, like the stitching seed's tchain_edit */
	WL_RECURSION,	/* one function calling itself DEPTH deep, then unwinding */
	WL_RANDOM,	/* a seeded random call graph (a DAG, so every call returns) */
	WL_PHASES,	/* main calling phase_01 .. phase_DEPTH in turn, each a long loop
			 * whose taken-branch density (so CPI) differs: see build_phases() */
};

struct wl_params {
	enum wl_kind kind;
	unsigned int depth;		/* tchain and recursion depth; random, phases: functions */
	unsigned int leaf_loops;	/* tchain: iterations of the leaf's loop (f43: 10000);
					 * phases: phase_01's iterations, about the instructions
					 * every phase retires per call */
	unsigned int mid_loops;		/* tchain: f32..f42's loops (100); recursion: per level;
					 * random: the largest loop count */
	unsigned int outer_loops;	/* tchain: f31's loop around the call of f32 (10000) */
	unsigned int cond_permille;	/* forward conditional branches taken, per mille */
	unsigned int mispredict_permille; /* taken conditional branches that mispredict */
	unsigned int mispredict_penalty;/* extra cycles of a mispredicted branch */
	uint64_t code_base;		/* address of the first function */
	uint64_t seed;			/* random: the call graph's shape */
};

/* Defaults: tchain of depth 43 with the seed's loop counts; the others alike. */
void wl_params_default(struct wl_params *p, enum wl_kind kind);

enum wl_op_kind {
	WL_OP_INSNS,		/* arg non-branch instructions, one cycle each */
	WL_OP_CALL,		/* call function arg */
	WL_OP_RCALL,		/* call function arg while the stack is shallower than
				 * params.depth + 1, else jump over the call */
	WL_OP_LOOP,		/* run the ops up to the matching END arg times (0: forever) */
	WL_OP_END,		/* loop back-edge: a conditional branch */
	WL_OP_COND,		/* a forward conditional branch over the next op, taken
				 * with arg/1000 */
	WL_OP_RET,		/* return to the caller */
};

struct wl_op {
	uint8_t kind;
	uint8_t exec;		/* what the executor does: kind, decided further (workload.c) */
	uint32_t arg;
	uint32_t pc;		/* offset of the op's instruction in its function */
	uint32_t match;		/* LOOP <-> END: index of the other; COND: its target op */
	/* linked by workload_build(), so the executor does no address arithmetic */
	uint64_t at;		/* absolute address of the op */
	uint64_t next;		/* absolute address of the op after it */
	uint64_t to;		/* taken target: END the loop head, COND the op it skips
				 * to, CALL and RCALL the callee */
	uint64_t bound;		/* COND: a draw below it takes the branch */
	const struct wl_op *target;	/* END: the op after the loop head, COND: the op
					 * it skips to, CALL and RCALL: the callee's first */
};

struct wl_func {
	char name[32];
	uint64_t addr;
	uint32_t size;
	struct wl_op *ops;
	uint32_t nr_ops;
};

struct workload {
	struct wl_params params;
	struct wl_func *funcs;		/* funcs[0] is main, the entry; sorted by address */
	uint32_t nr_funcs;
};

/* NULL on bad parameters (errno EINVAL) or allocation failure (ENOMEM). */
struct workload *workload_build(const struct wl_params *params);
void workload_free(struct workload *wl);
/* The function containing addr, or NULL. */
const struct wl_func *workload_func_at(const struct workload *wl, uint64_t addr);

/*
 * The program's code as x86-64 instructions laid out as its ops are
 * (sim/workload_text.c), from its first function to the end of its last:
 * *CODE (malloc'ed, *SIZE bytes) for addresses from *START. 0 or -ENOMEM.
 */
int workload_text(const struct workload *wl, uint8_t **code, uint64_t *start, uint64_t *size);

/*
 * Where the executor sends what it retires. All of it is user code.
 * With @model set the executor retires straight into that model CPU (no
 * call through a pointer per op, the simulator's hot path) and keeps *@ip
 * at the address a PMI would interrupt: the branch target after a branch,
 * the next instruction after a block. Otherwise it calls @branch/@insns.
 */
struct wl_sink {
	void (*branch)(void *ctx, uint64_t from, uint64_t to,
		       enum model_branch_type type, bool mispred, unsigned int cycles);
	void (*insns)(void *ctx, uint64_t n, uint64_t cycles);
	void *ctx;
	struct model_cpu *model;
	uint64_t *ip;
};

#define WL_MAX_DEPTH	512
#define WL_MAX_LOOPS	8	/* loops nested in one function */

struct wl_frame {
	uint32_t func;
	uint32_t op;			/* next op to execute */
	uint32_t nr_loops;
	uint32_t loop_left[WL_MAX_LOOPS];	/* iterations left, innermost last */
};

struct wl_exec {
	const struct workload *wl;
	uint64_t rng;			/* the generator, past the draws in draws[] */
	uint32_t nr_used;		/* draws[] taken so far */
	uint32_t depth;			/* frames on the stack */
	uint32_t max_depth;		/* deepest stack seen */
	uint64_t *self_insns;		/* ground truth: instructions per function */
	uint64_t *self_mispredicts;	/* ... and its mispredicted branches; it took
					 * self_insns + penalty * these cycles */
	uint64_t insns, branches, calls, mispredicts;
	uint64_t cycles;		/* core cycles retired */
	uint64_t draws[PRNG_BATCH];	/* the generator's next draws, made ahead */
	struct wl_frame stack[WL_MAX_DEPTH];
};

/* 0, or -ENOMEM. */
int wl_exec_init(struct wl_exec *x, const struct workload *wl, uint64_t seed);
void wl_exec_fini(struct wl_exec *x);
/*
 * Run until at least @budget core cycles have retired (the last op may
 * overshoot by its block). Returns the cycles retired. The executor's
 * stack (depth, frames, ip) is up to date whenever a sink callback runs,
 * so a PMI taken inside it sees where the program is; the counters
 * (insns, branches, cycles, self_insns, ...) are brought up to date when
 * wl_exec_run() returns.
 */
uint64_t wl_exec_run(struct wl_exec *x, uint64_t budget, const struct wl_sink *sink);
/* Address of the next instruction to retire. */
uint64_t wl_exec_ip(const struct wl_exec *x);
/*
 * The true call stack, innermost first: the ip, then the return address
 * of each frame (main has none). Returns the number of entries written.
 */
unsigned int wl_exec_callstack(const struct wl_exec *x, uint64_t *ips, unsigned int max);

#endif /* PMUSIM_SIM_WORKLOAD_H */
