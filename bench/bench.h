/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark harness: every figure is a ratio against a baseline
 * measured in the same run, the two measured in alternation so that
 * frequency changes and noisy neighbours hit both. Each program prints
 * one JSON object a line; scripts/bench.sh makes the table and
 * out/bench.json. Host time is used here and only here.
 *
 * Time is the thread's CPU time, not the wall clock: on a machine shared
 * with other jobs the wall clock also counts the slices they run in.
 * Rounds are kept to a few milliseconds and many, so the median is a
 * round that no preemption (and its cold caches) fell into.
 */
#ifndef PMUSIM_BENCH_H
#define PMUSIM_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void bench_sort(double *v, int n)
{
	for (int i = 1; i < n; i++)	/* insertion sort: n is small */
		for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
		}
}

typedef void (*bench_fn)(void *ctx, uint64_t iterations);

/* ns per iteration of @fn: the median of @reps timed runs of @iters. */
static inline double bench_time(bench_fn fn, void *ctx, uint64_t iters, int reps)
{
	double v[64];

	if (reps > 64)
		reps = 64;
	for (int r = 0; r < reps; r++) {
		uint64_t t0 = bench_now_ns();

		fn(ctx, iters);
		v[r] = (double)(bench_now_ns() - t0) / (double)iters;
	}
	bench_sort(v, reps);
	return v[reps / 2];
}

/*
 * Subject and baseline measured in alternation, @rounds times; the
 * medians of the two series are compared. noise is the spread of the
 * per-round ratios: their interquartile range over their median, so 0.05
 * means the middle half of the rounds agree within 5%.
 */
struct bench_pair {
	double value, baseline, noise;
};

static inline double bench_spread(double *ratios, int n)
{
	bench_sort(ratios, n);
	return ratios[n / 2] > 0 ? (ratios[(3 * n) / 4] - ratios[n / 4]) / ratios[n / 2] : 0;
}

static inline struct bench_pair bench_compare(bench_fn subject, void *sctx,
					      bench_fn base, void *bctx,
					      uint64_t iters, int rounds)
{
	double s[32], b[32], r[32];
	struct bench_pair p;

	if (rounds > 32)
		rounds = 32;
	subject(sctx, iters / 4 + 1);	/* warm caches and branch predictors */
	base(bctx, iters / 4 + 1);
	for (int i = 0; i < rounds; i++) {
		s[i] = bench_time(subject, sctx, iters, 1);
		b[i] = bench_time(base, bctx, iters, 1);
		r[i] = b[i] > 0 ? s[i] / b[i] : 0;
	}
	bench_sort(s, rounds);
	bench_sort(b, rounds);
	p.value = s[rounds / 2];
	p.baseline = b[rounds / 2];
	p.noise = bench_spread(r, rounds);
	return p;
}

/* GOAL_WITHIN: the ratio within 1 +- goal (two things that should cost the same). */
enum bench_goal_kind { GOAL_AT_MOST, GOAL_AT_LEAST, GOAL_WITHIN, GOAL_NONE };

/*
 * One result line: {"figure":..., "value":..., ...}. @noise is the
 * relative spread of the ratio between rounds (see bench_compare()).
 * The goal judges the ratio as printed (4 digits): a ratio of 0.94996
 * against 1+-0.05 would otherwise read "0.95, missed", and whether a
 * record contradicted itself would depend on the run's timing.
 */
static inline void bench_report(const char *figure, const char *unit,
				double value, double baseline, const char *baseline_name,
				enum bench_goal_kind kind, double goal, double noise)
{
	char ratio_text[32];
	double ratio;

	snprintf(ratio_text, sizeof(ratio_text), "%.4g", baseline > 0 ? value / baseline : 0);
	ratio = strtod(ratio_text, NULL);
	bool met = kind == GOAL_NONE ||
		   (kind == GOAL_AT_MOST && ratio <= goal) ||
		   (kind == GOAL_AT_LEAST && ratio >= goal) ||
		   (kind == GOAL_WITHIN && ratio >= 1 - goal && ratio <= 1 + goal);
	char goal_text[32] = "";

	if (kind == GOAL_WITHIN)
		snprintf(goal_text, sizeof(goal_text), "1+-%.2f", goal);
	else if (kind != GOAL_NONE)
		snprintf(goal_text, sizeof(goal_text), "%s%.2f",
			 kind == GOAL_AT_MOST ? "<=" : ">=", goal);
	printf("{\"figure\":\"%s\",\"unit\":\"%s\",\"value\":%.3f,\"baseline\":%.3f,"
	       "\"baseline_name\":\"%s\",\"ratio\":%s,\"goal\":\"%s\",\"met\":%s,"
	       "\"noise\":%.3f}\n",
	       figure, unit, value, baseline, baseline_name, ratio_text, goal_text,
	       met ? "true" : "false", noise);
	fflush(stdout);
}

#endif /* PMUSIM_BENCH_H */
