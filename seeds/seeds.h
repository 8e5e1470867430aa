/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The seeds' results, reproduced: one analysis per RFC seed (README.md, "The seeds"),
 * each running its scenario (scenarios/seed-*.yaml) and printing its
 * table. `pmusim seed NAME SCENARIO` runs one; `make seeds` runs them all.
 *
 * Every figure comes from the run: the samples in the buffers or the
 * perf.data, against what the simulator knows (the workload's true
 * stacks and instruction counts, the model's clocks).
 */
#ifndef PMUSIM_SIM_SEEDS_H
#define PMUSIM_SIM_SEEDS_H

#include "sim/scenario.h"

struct seed_opts {
	const char *output;		/* perf.data to write; NULL: a temporary one */
	const char *map_dir;		/* perf-PID.map files */
};

/* Each returns 0, or 1 with a one-line error on stderr. */
int seed_write_backward(struct scenario *s, const struct seed_opts *o);
int seed_task_ctx_data(struct scenario *s, const struct seed_opts *o);
int seed_hw_time(struct scenario *s, const struct seed_opts *o);
int seed_lbr_stitch(struct scenario *s, const struct seed_opts *o);
int seed_alt_period(struct scenario *s, const struct seed_opts *o);

#endif /* PMUSIM_SIM_SEEDS_H */
