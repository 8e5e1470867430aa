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

/* Each function calls the next at +0x20; f01 has a second call site to f02 here. */
#define LBR_CHAIN_CALL_SITE	0x20ULL
#define LBR_CHAIN_SECOND_SITE	0x28ULL

/*
 * Three samples of the first thread (nr_samples and nr_threads unused;
 * hw_index needed, depth >= lbr_nr + 3): a full LBR at lbr_nr calls; two
 * calls deeper, where stitching adds the two outermost frames from the
 * first; and the same depth again after returning into f01 and calling
 * f02 from f01's second call site. The last LBR equals the second in
 * every entry and slot, so stitching (perf's as pmusim's) keeps the
 * frames of the second sample: f01's frame says the first call site,
 * where the stack has the second.
 */
int lbr_chain__write_lookalike(const struct lbr_chain *c, char *err, size_t errlen);

#endif
