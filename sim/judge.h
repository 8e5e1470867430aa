/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The judge of a run: what the machine was doing when each sample was
 * taken (its truth, noted by the run's overflow handler), and the run's
 * perf.data read back as perf would read it (a pipe's, and a recorded
 * program's, as its samples are written) and held against that
 * truth: each LBR call stack, raw and stitched, frame by frame against
 * the true stack; each sample's function, and the cycles of its
 * sampling window, against the workloads' own counts; an hw_time
 * sample's TSC, converted as a tool would, against the model's clock.
 * The summary's figures (struct run_stats, sim/run.h) come from here;
 * a recorded program's run also writes its truth file.
 */
#ifndef PMUSIM_SIM_JUDGE_H
#define PMUSIM_SIM_JUDGE_H

#include <stdio.h>

#include "core/perf_event.h"
#include "sim/run.h"
#include "tools/perf/util/lbr_stitch.h"

struct machine;
struct perf_data_writer;
struct tsc_conv;
struct vg_trace;
struct window_start;
struct workload;

struct judge {
	/* what it judges by: the run sets these */
	const struct scenario *s;
	struct machine *m;
	struct workload **wls;		/* per scenario task entry */
	struct vg_trace *trace;		/* a recorded program's run (run_trace()), or NULL */
	struct run_stats *st;		/* where the figures go */
	const struct tsc_conv *convs;	/* the user page's time conversion, oldest first */
	size_t nr_convs;

	/* the samples' truth, in the order they were taken */
	struct run_truth *truth;
	size_t nr_truth, truth_cap;
	/*
	 * The true stacks, one after another: a workload's frames as its
	 * function indices, a recorded program's as addresses (sim/vg_task.h).
	 */
	uint64_t *truth_frames;
	size_t nr_truth_frames, truth_frames_cap;
	int error;			/* ENOMEM: a truth could not be noted */
	FILE *truth_fp;			/* the truth file being written, or NULL */
	char truth_tmp[4200];

	/* the samples being judged, in the file's order */
	bool judging;
	u32 nr_attrs;
	struct window_start *starts;	/* [task index][attr] */
	struct lbr_stitcher plain, stitched;
	/*
	 * Judged as they are written (judge_live()): the truth is not sorted
	 * but found through this index, (tid, time) -> its place + 1, open
	 * addressing, at most half full.
	 */
	bool live;
	size_t *index;
	size_t index_cap;
	/*
	 * Bounded (a recorded program's run, judged live): a truth goes once
	 * its sample is judged, or once its buffer has had more than its
	 * size written after it (the sample was read, or lost, or written
	 * over: it never comes), so that what is held is bounded by the
	 * buffers, not the run's length. The buffers, by identity, with the
	 * most written into each that a note saw.
	 */
	bool bounded;
	struct judge_buf {
		const void *id;
		uint64_t written, size;
	} *bufs;
	uint32_t nr_bufs, last_buf;	/* (the last one's place: most notes are of it) */
};

/*
 * The truth of the sample EVENT just wrote for the running task (none
 * for a sample without a time, which cannot be matched to it): kept in
 * the order taken, with the true stack for LBR call-stack samples. BUF
 * is the buffer it went to, WRITTEN the bytes written into it so far (a
 * backward one's too, counted up), SIZE its size.
 */
void judge_note_sample(struct judge *j, struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs, const void *buf, uint64_t written, uint64_t size);

/*
 * The machine's own counts once it ran: instructions, branches, cycles,
 * each function's, the deepest stack, the PMU data the tasks held,
 * switches, ticks and PMIs. 0, or -1: out of memory.
 */
int judge_ground_truth(struct judge *j);

/*
 * W's finished file (before it goes to the output: a device cannot be
 * read back) read as perf would, each sample judged. 0, or -1 with a
 * one-line error in ERR.
 */
int judge_file(struct judge *j, struct perf_data_writer *w, char *err, size_t errlen);

/*
 * Judge W's samples as W writes them, in the same order and with the same
 * figures and truth lines as judge_file() over the finished file: for a
 * pipe (-o -), whose file is never built. Its truth file, if any, is
 * opened before the first sample. 0, or -1: out of memory.
 */
int judge_live(struct judge *j, struct perf_data_writer *w, u32 nr_attrs, u32 max_branches);

/*
 * The truth file PATH of a recorded program's run (run_trace()): a
 * regular file (or none yet) is written whole or not at all, beside it
 * and renamed; a device or a FIFO is written in place. Opened before
 * judge_file() writes its lines, closed into place after. 0, or -1 with
 * a one-line error in ERR.
 */
int judge_open_truth(struct judge *j, const char *path, char *err, size_t errlen);
int judge_close_truth(struct judge *j, const char *path, char *err, size_t errlen);

/* Frees the truth; a truth file not closed into place is removed. */
void judge_exit(struct judge *j);

#endif /* PMUSIM_SIM_JUDGE_H */
