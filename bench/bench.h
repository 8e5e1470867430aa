/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark harness: every figure is a ratio against a baseline
 * measured in the same run, the two measured in alternation so that
 * frequency changes and noisy neighbours hit both. Each program prints
 * one JSON object a line; scripts/bench.sh makes the table and
 * out/bench.json. Wall-clock time is used here and only here.
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

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
	for (int i = 1; i < reps; i++)	/* insertion sort: reps is small */
		for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
		}
	return v[reps / 2];
}

/*
 * Subject and baseline measured in alternation, @rounds times; the
 * medians of the two series are compared.
 */
struct bench_pair {
	double value, baseline;
};

static inline struct bench_pair bench_compare(bench_fn subject, void *sctx,
					      bench_fn base, void *bctx,
					      uint64_t iters, int rounds)
{
	double s[32], b[32];
	struct bench_pair p;

	if (rounds > 32)
		rounds = 32;
	subject(sctx, iters / 4 + 1);	/* warm caches and branch predictors */
	base(bctx, iters / 4 + 1);
	for (int r = 0; r < rounds; r++) {
		s[r] = bench_time(subject, sctx, iters, 1);
		b[r] = bench_time(base, bctx, iters, 1);
	}
	for (int i = 1; i < rounds; i++)
		for (int j = i; j > 0; j--) {
			if (s[j] < s[j - 1]) { double t = s[j]; s[j] = s[j - 1]; s[j - 1] = t; }
			if (b[j] < b[j - 1]) { double t = b[j]; b[j] = b[j - 1]; b[j - 1] = t; }
		}
	p.value = s[rounds / 2];
	p.baseline = b[rounds / 2];
	return p;
}

enum bench_goal_kind { GOAL_AT_MOST, GOAL_AT_LEAST, GOAL_NONE };

/* One result line: {"figure":..., "value":..., ...}. */
static inline void bench_report(const char *figure, const char *unit,
				double value, double baseline, const char *baseline_name,
				enum bench_goal_kind kind, double goal)
{
	double ratio = baseline > 0 ? value / baseline : 0;
	bool met = kind == GOAL_NONE ||
		   (kind == GOAL_AT_MOST ? ratio <= goal : ratio >= goal);

	printf("{\"figure\":\"%s\",\"unit\":\"%s\",\"value\":%.3f,\"baseline\":%.3f,"
	       "\"baseline_name\":\"%s\",\"ratio\":%.3f,\"goal\":\"%s%.2f\",\"met\":%s}\n",
	       figure, unit, value, baseline, baseline_name, ratio,
	       kind == GOAL_AT_MOST ? "<=" : kind == GOAL_AT_LEAST ? ">=" : "",
	       kind == GOAL_NONE ? 0.0 : goal, met ? "true" : "false");
	fflush(stdout);
}

#endif /* PMUSIM_BENCH_H */
