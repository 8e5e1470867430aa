/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A synthetic LBR call-stack recording of a deep call chain, like the
 * tchain_edit test of the LBR stitching series: main -> f01 -> ... ->
 * f(depth-1), sampled on the way down and at the leaf, with a call-stack
 * LBR of lbr_nr entries whose TOS (hw_idx) moves modulo lbr_nr as calls
 * push and returns pop. Written as a perf.data (plus perf-PID.map) that
 * perf 6.1 and pmusim stitch both read.
 */
#ifndef PMUSIM_TESTS_LIB_LBR_CHAIN_H
#define PMUSIM_TESTS_LIB_LBR_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lbr_chain {
	const char *path;	/* the perf.data */
	const char *map_dir;	/* where perf-PID.map goes */
	uint32_t pid;		/* threads are pid, pid + 1, ... */
	uint32_t nr_threads;
	uint32_t depth;		/* frames of the full chain, main included */
	uint32_t lbr_nr;	/* LBR entries */
	uint32_t nr_samples;
	bool hw_index;		/* samples carry hw_idx */
	bool pmu_caps;		/* CPU_PMU_CAPS branches=lbr_nr */
};

#define LBR_CHAIN_BASE		0x400000ULL
#define LBR_CHAIN_FUNC_SIZE	0x100ULL

/* Frame K of the chain (0 = main) starts here. */
static inline uint64_t lbr_chain_func(uint32_t k)
{
	return LBR_CHAIN_BASE + k * LBR_CHAIN_FUNC_SIZE;
}

/* Returns 0, or -1 with the reason in ERR. */
int lbr_chain__write(const struct lbr_chain *c, char *err, size_t errlen);

#endif
