/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LBR call-stack reconstruction with stitching, as perf's --stitch-lbr
 * does it (resolve_lbr_callchain_sample and has_stitched_lbr in
 * tools/perf/util/machine.c), for callee order.
 *
 * A call-stack LBR holds at most max_lbr frames; when a deeper stack
 * overflowed it, the frames it lost may still be in an earlier sample of
 * the same thread. Two samples overlap when the entries at the current
 * sample's base sit in the same physical LBR slots (found from hw_idx,
 * the TOS) with the same from, to and flags; the older sample's entries
 * below that base are then appended, and kept for the samples after.
 *
 * Frames, innermost first: the callchain up to PERF_CONTEXT_USER (kernel
 * ips), entries[0].to (the entry of the sampled function), entries[i].from
 * for every i, then the stitched frames. An empty branch stack gives the
 * sample's ip where entries[0].to would be, so that every sample has a
 * frame as in perf's output (perf reads a word past the sample there).
 *
 * No allocation per sample once a thread's buffers have grown.
 */
#ifndef PMUSIM_SIM_LBR_STITCH_H
#define PMUSIM_SIM_LBR_STITCH_H

#include "tools/perf/util/perf_data_read.h"

/* perf script's default --max-stack: where it looks for PERF_CONTEXT_USER */
#define LBR_STITCH_MAX_STACK	PERF_MAX_STACK_DEPTH

struct lbr_stitch_thread;

struct lbr_stitcher {
	u32 max_lbr;			/* LBR depth (CPU_PMU_CAPS branches=) */
	bool enable;			/* stitch; false: plain LBR stacks */
	struct lbr_stitch_thread *threads;	/* open addressing by tid */
	u32 threads_size;		/* a power of two */
	u32 nr_threads;
	/*
	 * Set by a caller whose samples' callchains and branch entries stay
	 * where they are, unchanged, while the stitcher is in use (a mapped
	 * perf.data): the previous sample of a thread is then remembered by
	 * pointer, not copied, and a repeated sample is recognised.
	 */
	bool entries_stay;
	u64 *frames;			/* the last result */
	u32 nr_frames;
	u32 frames_cap;
	/*
	 * With entries_stay, the sample that gave the last result (NULL: none,
	 * or it gave no result): a thread's next sample with the same bytes
	 * gets the same frames without a walk (see lbr_stitcher__resolve).
	 * repeated says that happened in the last call.
	 */
	const struct perf_sample *last;
	struct perf_sample last_sample;
	bool repeated;
};

/*
 * ENABLE stitches only when MAX_LBR > 0, as perf, and only in a build
 * with CONFIG_LBR_STITCH: without it the stitching is compiled out and
 * every stack is the plain one. (The file itself stays built: its plain
 * LBR call stack is perf's without --stitch-lbr, which the run's raw
 * LBR judgement uses.) Returns 0.
 */
int lbr_stitcher__init(struct lbr_stitcher *st, u32 max_lbr, bool enable);
void lbr_stitcher__exit(struct lbr_stitcher *st);

/*
 * The call stack of sample S (whose attr samples an LBR call stack):
 * 1 with *FRAMES (innermost first, valid until the next call) and *NR set;
 * 0 when S has no PERF_CONTEXT_USER in its callchain (perf then uses the
 * callchain alone); -1 with errno ENOMEM. st->repeated tells whether the
 * frames are those of the call before, unchanged.
 */
int lbr_stitcher__resolve(struct lbr_stitcher *st, const struct perf_sample *s,
			  const u64 **frames, u32 *nr);

#endif
