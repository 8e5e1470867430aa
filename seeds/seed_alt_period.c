// SPDX-License-Identifier: GPL-2.0-only
/*
 * The alternating-periods seed:
 * an event alternating between a long period and a short one, the long
 * samples discarded, next to one period taking as many samples, (long +
 * short) / 2: the same interrupts and data per unit of time. The metric is
 * the one the RFC names: cycles per instruction of the window a sample
 * closes (the event counts instructions, the sample's period; the window's
 * cycles come from the time since the task's previous sample, the task
 * running alone on its CPU), charged to the function the window ends in,
 * against that function's own CPI from the workload's ground truth. A
 * short window lies inside the function it is charged to; a window as
 * long as the sampling interval spans several and blurs their CPIs.
 *
 * Functions with under 1% of the instructions (main, which only calls)
 * have too few windows to judge and are left out of the CPI table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/kernel.h"
#include "core/testcase.h"
#include "sim/run.h"
#include "seeds/seeds.h"

static uint64_t total(const struct run_stats *st, bool short_only)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < st->nr_funcs; i++)
		n += short_only ? st->funcs[i].short_samples : st->funcs[i].samples;
	return n;
}

/*
 * Of a run's instructions or samples: none is 0 once the alternating run
 * has a short sample (seed_alt_period() checks), as each run then
 * retired instructions and the one-period run, sampling at about twice
 * the short samples' rate, took samples too.
 */
static double share(uint64_t n, uint64_t of)
{
	return NEVER(!of) ? 0.0 : 100.0 * (double)n / (double)of;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static double rel_err(double est, double truth)
{
	return 100.0 * fabs(est - truth) / truth;
}

/*
 * Cycles per instruction of the windows each function closes, against its
 * own; @alt keeps its short windows only (run.c counts no long one).
 */
static void print_cpi(const struct run_stats *alt, const struct run_stats *one)
{
	double sum_short = 0, sum_one = 0, max_short = 0, max_one = 0;
	unsigned int nr = 0;

	printf("  per-function CPI of the windows against the workload's own:\n");
	printf("  %-12s %8s %9s %8s %7s %9s %8s %7s\n", "function", "true CPI", "short CPI",
	       "|err|%", "windows", "one CPI", "|err|%", "windows");
	for (unsigned int i = 0; i < alt->nr_funcs; i++) {
		const struct run_func *a = &alt->funcs[i], *b = &one->funcs[i];
		double truth = ratio(a->cycles, a->insns);
		double sh = ratio(a->win_cycles, a->win_insns), on = ratio(b->win_cycles, b->win_insns);
		double e_sh, e_on;

		if (share(a->insns, alt->insns) < 1.0) {
			printf("  (%s: %.2f%% of the instructions, left out)\n", a->name,
			       share(a->insns, alt->insns));
			continue;
		}
		if (!a->win_insns || !b->win_insns) {
			/* a function this big with no window is a failure the test sees */
			printf("  %-12s %8.3f %9s %8s %7llu %9s %8s %7llu\n", a->name, truth, "-", "-",
			       (unsigned long long)a->short_samples, "-", "-",
			       (unsigned long long)b->samples);
			continue;
		}
		e_sh = rel_err(sh, truth);
		e_on = rel_err(on, truth);
		printf("  %-12s %8.3f %9.3f %8.2f %7llu %9.3f %8.2f %7llu\n", a->name, truth, sh, e_sh,
		       (unsigned long long)a->short_samples, on, e_on,
		       (unsigned long long)b->samples);
		sum_short += e_sh;
		sum_one += e_on;
		max_short = fmax(max_short, e_sh);
		max_one = fmax(max_one, e_on);
		nr++;
	}
	if (!nr) {
		printf("  (no CPI: the event does not count instructions with time and period)\n");
		return;
	}
	printf("  %-12s %8s %9s %8.2f %7s %9s %8.2f\n", "mean |err|%", "", "", sum_short / nr, "",
	       "", sum_one / nr);
	printf("  %-12s %8s %9s %8.2f %7s %9s %8.2f\n", "max |err|%", "", "", max_short, "", "",
	       max_one);
	printf("  CPI error: short windows %.2f%% from %llu samples, one period %.2f%% from %llu "
	       "(%.1f times the error)\n", sum_short / nr, (unsigned long long)total(alt, true),
	       sum_one / nr, (unsigned long long)total(one, false),
	       sum_short > 0 ? sum_one / sum_short : 0.0);
}

/* Each function's share of the samples against its share of the instructions. */
static void print_share(const struct run_stats *alt, const struct run_stats *one)
{
	uint64_t n_short = total(alt, true), n_one = total(one, false);
	double err_short = 0, err_one = 0, max_short = 0, max_one = 0;

	printf("  per-function share of the samples against the share of instructions:\n");
	printf("  %-12s %8s %9s %8s %7s %9s %8s\n", "function", "truth%", "short%", "|err|", "",
	       "one%", "|err|");
	for (unsigned int i = 0; i < alt->nr_funcs; i++) {
		const struct run_func *a = &alt->funcs[i], *b = &one->funcs[i];
		/* each run against its own truth (the same program, the same seed) */
		double truth = share(a->insns, alt->insns), truth_one = share(b->insns, one->insns);
		double sh = share(a->short_samples, n_short), on = share(b->samples, n_one);
		double e_sh = fabs(sh - truth), e_on = fabs(on - truth_one);

		if (!a->short_samples && !b->samples && truth < 0.1)
			continue;	/* under 0.1% and never sampled */
		printf("  %-12s %8.2f %9.2f %8.2f %7s %9.2f %8.2f\n", a->name, truth, sh, e_sh, "",
		       on, e_on);
		err_short += e_sh;
		err_one += e_on;
		max_short = fmax(max_short, e_sh);
		max_one = fmax(max_one, e_on);
	}
	printf("  %-12s %8s %9s %8.2f %7s %9s %8.2f\n", "sum |err|", "", "", err_short, "", "",
	       err_one);
	printf("  %-12s %8s %9s %8.2f %7s %9s %8.2f\n", "max |err|", "", "", max_short, "", "",
	       max_one);
}

int seed_alt_period(struct scenario *s, const struct seed_opts *o)
{
	struct run_stats alt = { 0 }, one = { 0 };
	uint64_t period, alt_period, one_period;
	struct scn_event *e = &s->events[0];
	char err[512];
	int ret = 1;

	if (!IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD)) {
		printf("seed alt-period: skipped: this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD\n");
		return 0;
	}
	/* (scenario_load() refuses alternative_period with freq: the event has a period) */
	if (s->events_count != 1 || !e->alternative_period) {
		fprintf(stderr, "%s: the alt-period seed wants one event with period and "
			"alternative_period\n", s->file);
		return 1;
	}
	period = e->period;
	alt_period = e->alternative_period;
	one_period = (period + alt_period) / 2;
	/* one period first, so that -o keeps the alternating run's perf.data */
	e->period = one_period;
	e->alternative_period = 0;
	if (run_scenario(s, o->output, o->map_dir, NULL, &one, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	e->period = period;
	e->alternative_period = alt_period;
	if (run_scenario(s, o->output, o->map_dir, NULL, &alt, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	if (!total(&alt, true)) {
		fprintf(stderr, "pmusim: seed alt-period: %s: no sample closed a short period (the "
			"event never counted while the tasks ran): nothing to compare\n", s->file);
		goto out;
	}
	/* the same scenario twice: one workload, one function table, in one order */
	if (NEVER(alt.nr_funcs != one.nr_funcs)) {
		fprintf(stderr, "pmusim: seed alt-period: %s: the two runs have %u and %u "
			"functions\n", s->file, one.nr_funcs, alt.nr_funcs);
		goto out;
	}
	printf("seed alt-period: %s; periods %llu/%llu (short kept) against one period %llu\n",
	       s->file, (unsigned long long)period, (unsigned long long)alt_period,
	       (unsigned long long)one_period);
	printf("  instructions: alternating %llu, one period %llu\n",
	       (unsigned long long)alt.insns, (unsigned long long)one.insns);
	printf("  samples: alternating %llu (short %llu used), one period %llu (all used)\n",
	       (unsigned long long)total(&alt, false), (unsigned long long)total(&alt, true),
	       (unsigned long long)total(&one, false));
	print_cpi(&alt, &one);
	print_share(&alt, &one);
	ret = 0;
out:
	e->period = period;
	e->alternative_period = alt_period;
	run_stats_free(&alt);
	run_stats_free(&one);
	return ret;
}
