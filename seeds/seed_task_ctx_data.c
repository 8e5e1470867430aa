// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-task LBR data seed: LBR
 * call stacks of tasks sharing a CPU, recorded per process and
 * system-wide. Without the RFC (CONFIG_PERF_TASK_CTX_DATA) a system-wide
 * event has nowhere to keep a task's LBR call stack across a context
 * switch, so its stacks come out shorter; with it they match the
 * per-process ones, at the cost of one perf_ctx_data per task. The run
 * shows this build's side; `make seeds` builds the other too.
 */
#include <stdio.h>

#include "core/kernel.h"
#include "core/testcase.h"
#include "sim/run.h"
#include "seeds/seeds.h"

/* this build's side, as the table says it */
static const char *const feature = IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) ? "on" : "off";
static const char *const where_off = IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) ? "" :
	";\n   without the feature a per-process event keeps it in its context";

struct depth_row {
	uint64_t samples, sum, max, whole;
};

/*
 * Per sample of a run: each has samples, the per-process run checked in
 * seed_task_ctx_data() and the system-wide one sampling the same tasks.
 */
static double per_sample(double n, uint64_t samples)
{
	return NEVER(!samples) ? 0.0 : n / (double)samples;
}

static void sum_tasks(const struct run_stats *st, struct depth_row *row)
{
	*row = (struct depth_row){ 0 };
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		row->samples += st->tasks[i].samples;
		row->sum += st->tasks[i].lbr_sum;
		row->whole += st->tasks[i].lbr_whole;
		if (st->tasks[i].lbr_max > row->max)
			row->max = st->tasks[i].lbr_max;
	}
}

static int run_scope(struct scenario *s, const struct seed_opts *o, enum scn_scope scope,
		     struct run_stats *st)
{
	char err[512];

	for (uint32_t i = 0; i < s->events_count; i++)
		s->events[i].scope = scope;
	if (run_scenario(s, o->output, o->map_dir, NULL, st, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

int seed_task_ctx_data(struct scenario *s, const struct seed_opts *o)
{
	static const char *const names[] = { "per-process", "system-wide" };
	struct run_stats st[2];
	int ret = 1;

	if (run_scope(s, o, SCN_SCOPE_TASK, &st[0])) {
		run_stats_free(&st[0]);
		return 1;
	}
	if (!st[0].nr_tasks) {
		fprintf(stderr, "pmusim: seed task-ctx-data: %s: no LBR call-stack sample (the "
			"event never counted while the tasks ran): nothing to compare\n", s->file);
		run_stats_free(&st[0]);
		return 1;
	}
	if (run_scope(s, o, SCN_SCOPE_SYSTEM, &st[1]))
		goto out;
	printf("seed task-ctx-data: %s, CONFIG_PERF_TASK_CTX_DATA %s, LBR frames per sample\n",
	       s->file, feature);
	printf("  %-12s %-8s %8s %8s %8s %8s %9s %10s %12s\n", "mode", "feature", "samples",
	       "avg", "max", "whole%", "switches", "bytes/task", "10k tasks");
	for (int m = 0; m < 2; m++) {
		struct depth_row row;

		sum_tasks(&st[m], &row);
		printf("  %-12s %-8s %8llu %8.1f %8llu %8.1f %9llu %10llu %12llu\n", names[m],
		       feature, (unsigned long long)row.samples,
		       per_sample((double)row.sum, row.samples),
		       (unsigned long long)row.max,
		       per_sample(100.0 * (double)row.whole, row.samples),
		       (unsigned long long)st[m].switches,
		       (unsigned long long)st[m].ctx_data_task_bytes,
		       (unsigned long long)st[m].ctx_data_task_bytes * 10000);
	}
	printf("  (whole%%: samples whose LBR stack is the whole true stack; bytes/task:\n"
	       "   perf_ctx_data + the LBR save area each task holds, the seed says 788%s)\n",
	       where_off);
	ret = 0;
out:
	run_stats_free(&st[0]);
	run_stats_free(&st[1]);
	return ret;
}
