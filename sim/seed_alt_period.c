// SPDX-License-Identifier: GPL-2.0-only
/*
 * The alternating-periods seed (shared/seeds/alternative-sample-period.txt):
 * an event alternating between a long period and a short one, the long
 * samples discarded, next to one period of the same sample rate
 * ((long + short) / 2: the same number of samples over the run). Two
 * per-function metrics against the workload's ground truth:
 *
 *   share   of the samples, against the function's share of instructions
 *   CPI     of the windows a function's samples close (the event counts
 *           instructions, the window's cycles come from the samples'
 *           times), against the function's own cycles per instruction.
 *           The RFC's point: a short window lies in the function it is
 *           charged to, a long one spreads over its callers and callees.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/kernel.h"
#include "sim/run.h"
#include "sim/seeds.h"

static uint64_t total(const struct run_stats *st, bool short_only)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < st->nr_funcs; i++)
		n += short_only ? st->funcs[i].short_samples : st->funcs[i].samples;
	return n;
}

static double share(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* Cycles per instruction of the windows each function closes, against its own. */
static void print_cpi(const struct run_stats *alt, const struct run_stats *one)
{
	double sum_short = 0, sum_one = 0;
	unsigned int nr = 0;

	printf("  %-16s %9s %9s %9s %9s %9s\n", "function", "CPI", "short", "|err|%",
	       "one", "|err|%");
	for (unsigned int i = 0; i < alt->nr_funcs && i < one->nr_funcs; i++) {
		const struct run_func *a = &alt->funcs[i], *b = &one->funcs[i];
		double truth = ratio(a->cycles, a->insns);
		double sh = ratio(a->win_cycles, a->win_insns), on = ratio(b->win_cycles, b->win_insns);
		double e_sh, e_on;

		if (!a->win_insns || !b->win_insns || !truth)
			continue;	/* no window ends in it both ways */
		e_sh = 100.0 * fabs(sh - truth) / truth;
		e_on = 100.0 * fabs(on - truth) / truth;
		printf("  %-16s %9.3f %9.3f %9.2f %9.3f %9.2f\n", a->name, truth, sh, e_sh, on, e_on);
		sum_short += e_sh;
		sum_one += e_on;
		nr++;
	}
	if (nr)
		printf("  %-16s %9s %9s %9.2f %9s %9.2f\n", "mean |err|%", "", "", sum_short / nr, "",
		       sum_one / nr);
	else
		printf("  (no CPI: the event does not count instructions with time and period)\n");
}

int seed_alt_period(struct scenario *s, const struct seed_opts *o)
{
	struct run_stats alt, one;
	uint64_t period, alt_period, n_short, n_one, n_alt;
	double err_short = 0, err_one = 0, max_short = 0, max_one = 0;
	char err[512];

	if (!IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD)) {
		printf("seed alt-period: skipped: this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD\n");
		return 0;
	}
	if (s->events_count != 1 || !s->events[0].alternative_period || s->events[0].freq) {
		fprintf(stderr, "%s: the alt-period seed wants one event with period and "
			"alternative_period\n", s->file);
		return 1;
	}
	period = s->events[0].period;
	alt_period = s->events[0].alternative_period;
	if (run_scenario(s, o->output, o->map_dir, NULL, &alt, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&alt);
		return 1;
	}
	s->events[0].period = (period + alt_period) / 2;
	s->events[0].alternative_period = 0;
	if (run_scenario(s, o->output, o->map_dir, NULL, &one, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&alt);
		run_stats_free(&one);
		return 1;
	}
	s->events[0].period = period;
	s->events[0].alternative_period = alt_period;
	n_short = total(&alt, true);
	n_alt = total(&alt, false);
	n_one = total(&one, false);
	printf("seed alt-period: %s; periods %llu/%llu (short kept) against one period %llu\n",
	       s->file, (unsigned long long)period, (unsigned long long)alt_period,
	       (unsigned long long)((period + alt_period) / 2));
	printf("  samples: alternating %llu (short %llu), one period %llu\n",
	       (unsigned long long)n_alt, (unsigned long long)n_short, (unsigned long long)n_one);
	printf("  %-16s %9s %9s %9s %9s %9s\n", "function", "truth%", "short%", "|err|",
	       "one%", "|err|");
	for (unsigned int i = 0; i < alt.nr_funcs && i < one.nr_funcs; i++) {
		const struct run_func *a = &alt.funcs[i], *b = &one.funcs[i];
		/* each run against its own truth (the same program, the same seed) */
		double truth = share(a->insns, alt.insns), truth_one = share(b->insns, one.insns);
		double sh = share(a->short_samples, n_short), on = share(b->samples, n_one);
		double e_sh = fabs(sh - truth), e_on = fabs(on - truth_one);

		if (!a->short_samples && !b->samples && truth < 0.1)
			continue;	/* under 0.1% and never sampled */
		printf("  %-16s %9.2f %9.2f %9.2f %9.2f %9.2f\n", a->name, truth, sh, e_sh, on, e_on);
		err_short += e_sh;
		err_one += e_on;
		if (e_sh > max_short)
			max_short = e_sh;
		if (e_on > max_one)
			max_one = e_on;
	}
	printf("  %-16s %9s %9s %9.2f %9s %9.2f\n", "sum |err|", "", "", err_short, "", err_one);
	printf("  %-16s %9s %9s %9.2f %9s %9.2f\n", "max |err|", "", "", max_short, "", max_one);
	print_cpi(&alt, &one);
	run_stats_free(&alt);
	run_stats_free(&one);
	return 0;
}
