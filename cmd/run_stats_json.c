// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON keys `pmusim run` and `pmusim record` share (run_stats_json.h).
 */
#include "core/kernel.h"
#include "cmd/run_stats_json.h"

static double avg(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

void run_stats_json_counts(struct json *j, const struct run_stats *st)
{
	json_u64(j, "instructions", st->insns);
	json_u64(j, "branches", st->branches);
	json_u64(j, "mispredicts", st->mispredicts);
	json_u64(j, "pmis", st->pmis);
	json_u64(j, "samples", st->samples);
	json_u64(j, "lost", st->lost);
	json_u64(j, "lost_records", st->lost_records);
	json_u64(j, "overwritten_bytes", st->overwritten);
	json_u64(j, "throttles", st->throttles);
	json_u64(j, "unthrottles", st->unthrottles);
	json_u64(j, "wakeups", st->wakeups);
	json_u64(j, "reads", st->reads);
	json_u64(j, "context_switches", st->switches);
	json_u64(j, "migrations", st->migrations);
	json_u64(j, "ticks", st->ticks);
}

void run_stats_json_depth_begin(struct json *j, const struct run_stats *st)
{
	json_object_begin(j, "call_stack_depth");
	json_u64(j, "true_max", st->true_depth_max);
	json_u64(j, "samples", st->cs_samples);
	json_double(j, "lbr_avg", avg(st->depth_sum, st->cs_samples));
	json_u64(j, "lbr_max", st->depth_max);
	/*
	 * Without CONFIG_LBR_STITCH nothing was stitched: say so, rather than
	 * give stitched figures of 0 that read as a result.
	 */
	json_bool(j, "lbr_stitch", IS_ENABLED(CONFIG_LBR_STITCH));
	if (IS_ENABLED(CONFIG_LBR_STITCH)) {
		json_double(j, "stitched_avg", avg(st->stitched_sum, st->cs_samples));
		json_u64(j, "stitched_max", st->stitched_max);
	}
	json_array_begin(j, "tasks");
}

void run_task_depth_json(struct json *j, const struct run_task_depth *d)
{
	json_u64(j, "samples", d->samples);
	json_u64(j, "true_max", d->true_max);
	json_double(j, "lbr_avg", avg(d->lbr_sum, d->samples));
	json_u64(j, "lbr_max", d->lbr_max);
	json_u64(j, "lbr_whole", d->lbr_whole);
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		return;		/* (call_stack_depth says lbr_stitch: false) */
	json_double(j, "stitched_avg", avg(d->stitched_sum, d->samples));
	json_u64(j, "stitched_max", d->stitched_max);
	json_u64(j, "stitched_whole", d->stitched_whole);
	json_u64(j, "stitched_short", d->stitched_short);
	json_u64(j, "stitched_wrong", d->stitched_wrong);
}
