// SPDX-License-Identifier: GPL-2.0-only
/*
 * The LBR stitching seed: tchain_edit,
 * 43 calls deep, recorded with LBR call stacks on a 32-entry LBR. Without
 * stitching a sample shows the sampled function and the 32 callers the
 * LBR holds; with stitching the frames the LBR lost come back from the
 * thread's earlier samples. Per task, against the true stack at each
 * sample: a recursive task stitches frames that are not there (its
 * calls all look alike), which perf's --stitch-lbr does too.
 */
#include <stdio.h>

#include "core/testcase.h"
#include "model/model.h"
#include "sim/run.h"
#include "seeds/seeds.h"

int seed_lbr_stitch(struct scenario *s, const struct seed_opts *o)
{
	struct run_stats st;
	char err[512];

	if (run_scenario(s, o->output, o->map_dir, NULL, &st, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&st);
		return 1;
	}
	if (!st.nr_tasks) {
		fprintf(stderr, "pmusim: seed lbr-stitch: %s: no LBR call-stack sample: nothing to "
			"stitch\n", s->file);
		run_stats_free(&st);
		return 1;
	}
	printf("seed lbr-stitch: %s, %s with %u LBR entries, frames per sample "
	       "(the sampled function + callers)\n", s->file, s->machine->cpu,
	       model_cpu_desc_lookup(s->machine->cpu)->lbr_nr);
	printf("  %-8s %-15s %8s %6s %8s %8s %9s %9s %7s %7s\n", "tid", "task", "samples",
	       "true", "lbr-max", "lbr-avg", "stitched", "st-avg", "whole", "wrong");
	for (unsigned int i = 0; i < st.nr_tasks; i++) {
		const struct run_task_depth *d = &st.tasks[i];

		/*
		 * A task has a row from its first LBR call-stack sample on
		 * (sim/run.h), and each of its samples has a user context
		 * to resolve, the tasks running in user mode only.
		 */
		if (NEVER(!d->samples))
			continue;
		printf("  %-8u %-15s %8llu %6u %8llu %8.1f %9llu %9.1f %7llu %7llu\n", d->tid,
		       s->tasks[d->group].name, (unsigned long long)d->samples, d->true_max,
		       (unsigned long long)d->lbr_max,
		       (double)d->lbr_sum / (double)d->samples,
		       (unsigned long long)d->stitched_max,
		       (double)d->stitched_sum / (double)d->samples,
		       (unsigned long long)d->stitched_whole, (unsigned long long)d->stitched_wrong);
	}
	printf("  (true: deepest true stack at a sample; whole: samples whose stitched stack is\n"
	       "   the true one; wrong: samples whose stitched stack holds a frame that was not\n"
	       "   on the stack)\n");
	run_stats_free(&st);
	return 0;
}
