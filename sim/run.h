/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run: a scenario on the machine with the x86 driver, the event core
 * and the ring buffers, a consumer writing perf.data, and the figures
 * the summary prints (read back from the perf.data, as perf would).
 */
#ifndef PMUSIM_SIM_RUN_H
#define PMUSIM_SIM_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/scenario.h"

struct run_func {
	char name[32];
	unsigned int group;		/* scenario task entry */
	uint64_t samples;
	uint64_t insns;			/* ground truth */
};

struct run_stats {
	uint64_t samples, lost_records, lost, throttles, unthrottles, wakeups, reads;
	uint64_t switches, migrations, ticks, pmis;
	uint64_t insns, branches, cycles, mispredicts;
	uint64_t overwritten;		/* bytes a backward buffer lost before a read */
	uint64_t records, bytes;
	/* call-stack depth of LBR call-stack samples, without and with stitching */
	uint64_t cs_samples;
	uint64_t depth_sum, depth_max, stitched_sum, stitched_max;
	uint32_t true_depth_max;
	struct run_func *funcs;
	unsigned int nr_funcs;
};

/* Called after each quantum with the fraction done, for a progress bar. */
typedef void (*run_progress_fn)(uint64_t now, uint64_t duration);

/*
 * Run @s and write @output (NULL: no file). 0, or -1 with a one-line
 * error in @err (nothing written); @st is filled in either way.
 * run_stats_free() releases what it holds.
 */
int run_scenario(const struct scenario *s, const char *output, const char *map_dir,
		 run_progress_fn progress, struct run_stats *st, char *err, size_t errlen);
void run_stats_free(struct run_stats *st);

#endif /* PMUSIM_SIM_RUN_H */
