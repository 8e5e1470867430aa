/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's figures in JSON, the keys `pmusim run --json` and `pmusim record
 * --json` share: its counts, and the call-stack depths of all samples and
 * of each task. Each command adds what only it knows around them.
 */
#ifndef PMUSIM_CMD_RUN_STATS_JSON_H
#define PMUSIM_CMD_RUN_STATS_JSON_H

#include "cmd/json.h"
#include "sim/run.h"

/* "instructions" through "ticks", in the current object. */
void run_stats_json_counts(struct json *j, const struct run_stats *st);
/*
 * Opens "call_stack_depth" with the figures over all samples (the stitched
 * ones only with CONFIG_LBR_STITCH; "lbr_stitch" says which) and opens
 * its "tasks" array; the caller writes a task's object per task (with
 * run_task_depth_json()) and closes the array and the object.
 */
void run_stats_json_depth_begin(struct json *j, const struct run_stats *st);
/*
 * A task's depths, "samples" through "stitched_wrong" ("lbr_whole" without
 * CONFIG_LBR_STITCH), in the current object.
 */
void run_task_depth_json(struct json *j, const struct run_task_depth *d);

#endif /* PMUSIM_CMD_RUN_STATS_JSON_H */
