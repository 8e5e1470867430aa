/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run: a scenario on the machine with the x86 driver, the event core
 * and the ring buffers, a consumer writing perf.data (the record session,
 * tools/perf/builtin_record.h), and the figures the summary prints (read
 * back from the perf.data, as perf would, by sim/judge.h).
 */
#ifndef PMUSIM_SIM_RUN_H
#define PMUSIM_SIM_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/perf/util/perf_data_read.h"
#include "sim/scenario.h"

struct run_func {
	char name[32];
	unsigned int group;		/* scenario task entry */
	uint64_t samples;
	uint64_t insns, cycles;		/* ground truth: its own instructions, their cycles */
	uint64_t short_samples;		/* closing an alternative (short) period */
	/*
	 * An instructions event's sampling windows, charged to the function
	 * a window ends in: instructions (the sample's period) and cycles
	 * (the time since the task's previous sample). With alternating
	 * periods only the short windows count.
	 */
	uint64_t win_insns, win_cycles;
};

/*
 * One task's LBR call-stack samples against the true stack the workload
 * had at each of them (recorded when the sample was taken), frame by
 * frame as functions: without stitching, and stitched as perf does
 * (the stitched figures stay 0 in a build without CONFIG_LBR_STITCH,
 * which judges the raw LBR stacks only).
 */
struct run_task_depth {
	uint32_t tid;
	unsigned int group;		/* scenario task entry */
	uint32_t true_max;		/* deepest true stack at one of its samples */
	uint64_t samples;		/* LBR call-stack samples with a known truth */
	uint64_t lbr_sum, lbr_max;	/* frames without stitching */
	uint64_t lbr_whole;		/* ... that are the whole true stack */
	uint64_t stitched_sum, stitched_max;
	/* samples, by their stitched stack against the true one: */
	uint64_t stitched_whole;	/* the true stack */
	uint64_t stitched_short;	/* true frames only, but not all of them */
	uint64_t stitched_wrong;	/* a frame that is not on the true stack */
};

/* Samples with attr.hw_time: their raw TSC against the model's clocks. */
struct run_hw_time {
	uint64_t samples;		/* converted with the user page's fields */
	uint64_t mono_equal;		/* post-processed == the model's CLOCK_MONOTONIC_RAW */
	uint64_t no_snapshot;		/* no page snapshot at or before the TSC */
	uint64_t max_ns_off_exact;	/* |mono_raw - TSC converted exactly|, ns */
	uint64_t tsc_khz;
};

#define RUN_MAX_EVENTS	16	/* as many as a scenario lists */

struct run_stats {
	uint64_t samples, lost_records, lost, throttles, unthrottles, wakeups, reads;
	/* each scenario event's: what it counted when the run ended, its samples in the file */
	uint64_t event_count[RUN_MAX_EVENTS], event_samples[RUN_MAX_EVENTS];
	uint64_t switches, migrations, ticks, pmis;
	uint64_t insns, branches, cycles, mispredicts;
	uint64_t overwritten;		/* bytes a backward buffer lost before a read */
	uint64_t records, bytes;
	/* call-stack depth of LBR call-stack samples, without and with stitching */
	uint64_t cs_samples;
	uint64_t depth_sum, depth_max, stitched_sum, stitched_max;
	uint32_t true_depth_max;
	struct run_task_depth *tasks;	/* one per task with LBR call-stack samples */
	unsigned int nr_tasks;
	struct run_hw_time hw_time;
	/* per-task PMU data (perf_ctx_data) the run held at its end */
	uint64_t ctx_data_tasks, ctx_data_task_bytes, ctx_data_total_bytes;
	struct run_func *funcs;
	unsigned int nr_funcs;
	/*
	 * SIGINT or SIGTERM stopped the machine after RAN of its duration's
	 * cycles (0: it ran them all); the file holds what was recorded.
	 */
	int stop_signal;
	uint64_t ran;
	char warning[600];		/* a run that succeeded: one line to show, or "" */
};

/*
 * What the workload was doing when the core wrote a sample: the key the
 * sample carries (tid, time), the sampled ip and TSC, and for events that
 * sample LBR call stacks the true stack, as function indices (innermost
 * first) kept by the run.
 */
#define RUN_TRUTH_FRAMES	96	/* deeper true stacks are cut here */
struct run_truth {
	uint32_t tid;
	uint16_t nr;			/* frames of the true stack kept */
	bool judged;			/* its sample was (struct judge's bounded) */
	uint64_t time;
	uint64_t ip;
	uint64_t tsc;			/* perf_hw_time() at the sample */
	uint64_t frames;		/* where they are in the run's pool */
	uint32_t buf;			/* the judge's bufs[]: the buffer the sample went to */
	uint64_t at;			/* the bytes written into it then */
};

/*
 * A look at the run's buffers once the machine has run its duration,
 * before the consumer's last read (seed analyses: a flight recorder is
 * read only then). The hook may advance the machine with run_advance().
 */
struct run;
struct perf_event_mmap_page;
struct run_end_hook {
	int (*fn)(struct run *r, void *arg);	/* non-zero: the run fails */
	void *arg;
};
unsigned int run_nr_buffers(const struct run *r);
struct perf_event_mmap_page *run_buffer_page(const struct run *r, unsigned int i);
/* Pause or resume buffer I's output (PERF_EVENT_IOC_PAUSE_OUTPUT). */
void run_buffer_pause(struct run *r, unsigned int i, bool pause);
/* Run the machine @cycles further (the consumer does not read meanwhile). */
void run_advance(struct run *r, uint64_t cycles);
/* Every sample taken so far, in the order taken. */
const struct run_truth *run_truths(const struct run *r, size_t *nr);
/* Parse a sample record of the run's one event: 0, or -1 (not such a sample). */
int run_parse_sample(const struct run *r, const void *rec, size_t size,
		     struct perf_sample *s);

/* Called after each quantum with the fraction done, for a progress bar. */
typedef void (*run_progress_fn)(uint64_t now, uint64_t duration);

/*
 * Run @s and write @output (NULL: no file). 0, or -1 with a one-line
 * error in @err (nothing written); @st is filled in either way.
 * run_stats_free() releases what it holds.
 */
int run_scenario(const struct scenario *s, const char *output, const char *map_dir,
		 run_progress_fn progress, struct run_stats *st, char *err, size_t errlen);
/* The same with @hook (may be NULL) called at the end. */
int run_scenario_hooked(const struct scenario *s, const char *output, const char *map_dir,
			run_progress_fn progress, const struct run_end_hook *hook,
			struct run_stats *st, char *err, size_t errlen);
void run_stats_free(struct run_stats *st);

/*
 * Called from the run's SIGINT and SIGTERM handler as well (record stops
 * the program it replays while it runs); NULL for none.
 */
void run_set_stop_hook(void (*fn)(int));
/*
 * Run a recorded program (sim/vg_task.h) instead of @s's tasks: @s gives
 * the machine, the events, the buffer and the consumer; its duration is
 * a limit (the run ends when every thread has retired its last record).
 * Its threads are tasks named @comm. As run_scenario() otherwise; the
 * true stacks judged are addresses (the ip, then the call sites).
 * @progress (may be NULL) is called after each quantum, as run_scenario()'s.
 */
struct vg_trace;
int run_trace(const struct scenario *s, struct vg_trace *trace, const char *comm,
	      const char *output, run_progress_fn progress, struct run_stats *st, char *err,
	      size_t errlen);

/*
 * Where a run puts its programs' ELF files (see build_id_cache.h): the
 * user's build-id cache USER_CACHE ("", the default: $HOME/.debug, as perf
 * record does; NULL: none, as perf record -N), and with BESIDE (the
 * default) OUTPUT.debug/, a build-id cache beside the perf.data.
 */
void run_set_buildid_dirs(const char *user_cache, bool beside);

/*
 * Where run_trace() writes the true stacks: PATH; NULL (the default):
 * OUTPUT.truth beside a perf.data that is a regular file, none beside a
 * device, a FIFO or a pipe (-o -). PATH must outlive the runs.
 */
void run_set_truth_file(const char *path);

/*
 * While a run runs, SIGINT and SIGTERM stop its machine (as they stop
 * perf record): the run finishes its file with what was recorded and
 * returns 0 with st->stop_signal set. The signal that did, or 0.
 */
int run_stop_signal(void);

#endif /* PMUSIM_SIM_RUN_H */
