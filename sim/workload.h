/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workloads: programs of functions with calls, returns, loops and
 * conditional branches, executed deterministically from a seed. The
 * executor reports every retired taken branch and every block of other
 * instructions to a sink (the model CPU, in the simulator), and keeps the
 * ground truth: instructions retired per function and the true call
 * stack, against which samples and stitched stacks are judged.
 */
#ifndef PMUSIM_SIM_WORKLOAD_H
#define PMUSIM_SIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

enum wl_kind {
	WL_TCHAIN,	/* f1 -> f2 -> ... -> fDEPTH, like the stitching seed's tchain_edit */
	WL_RECURSION,	/* one function calling itself DEPTH deep, then unwinding */
	WL_RANDOM,	/* a seeded random call graph (a DAG, so it terminates) */
};

struct wl_params {
	enum wl_kind kind;
	unsigned int depth;		/* tchain and recursion depth; random: functions */
	unsigned int leaf_loops;	/* iterations of the leaf's loop */
	unsigned int mid_loops;		/* iterations of the loops on the way down */
	unsigned int mispredict_permille; /* conditional branches that mispredict */
	uint64_t code_base;		/* address of the first function */
	uint64_t seed;
};

/* Defaults: tchain of depth 43 with the seed's loop counts. */
void wl_params_default(struct wl_params *p, enum wl_kind kind);

enum wl_op_kind {
	WL_OP_INSNS,		/* arg non-branch instructions, one cycle each */
	WL_OP_CALL,		/* call function arg */
	WL_OP_LOOP,		/* loop arg times over the ops up to the matching END */
	WL_OP_END,		/* loop back-edge: a conditional branch */
	WL_OP_COND,		/* a forward conditional branch, taken with arg/1000 */
	WL_OP_RET,		/* return to the caller */
};

struct wl_op {
	uint8_t kind;
	uint32_t arg;
	uint32_t pc;		/* offset of the op's instruction in its function */
	uint32_t match;		/* LOOP <-> END: index of the other */
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
	struct wl_func *funcs;		/* funcs[0] is main, the entry */
	uint32_t nr_funcs;
};

/* NULL on bad parameters (errno EINVAL) or allocation failure. */
struct workload *workload_build(const struct wl_params *params);
void workload_free(struct workload *wl);
/* The function containing addr, or NULL. */
const struct wl_func *workload_func_at(const struct workload *wl, uint64_t addr);

/* Where the executor sends what it retires. */
struct wl_sink {
	void (*branch)(void *ctx, uint64_t from, uint64_t to,
		       enum model_branch_type type, bool mispred, unsigned int cycles);
	void (*insns)(void *ctx, uint64_t n, uint64_t cycles);
	void *ctx;
};

#define WL_MAX_DEPTH 512

struct wl_frame {
	uint32_t func;
	uint32_t op;			/* next op to execute */
	uint32_t loop_left[8];		/* iterations left, innermost last */
	uint32_t nr_loops;
};

struct wl_exec {
	const struct workload *wl;
	uint64_t rng;
	struct wl_frame stack[WL_MAX_DEPTH];
	uint32_t depth;			/* frames on the stack */
	uint64_t *self_insns;		/* ground truth: instructions per function */
	uint64_t insns, branches, calls;
	uint64_t ip;			/* address of the next instruction */
};

int wl_exec_init(struct wl_exec *x, const struct workload *wl, uint64_t seed);
void wl_exec_fini(struct wl_exec *x);
/*
 * Run until at least @budget instructions have retired (the last op may
 * overshoot by its block). Returns the instructions retired.
 */
uint64_t wl_exec_run(struct wl_exec *x, uint64_t budget, const struct wl_sink *sink);
/* The true call stack, innermost first, as return addresses. */
unsigned int wl_exec_callstack(const struct wl_exec *x, uint64_t *ips, unsigned int max);

#endif /* PMUSIM_SIM_WORKLOAD_H */
