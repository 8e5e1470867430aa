/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sideband.h - side-band records (core/sideband.c) and the walk over
 * the events that may want them.
 */
#ifndef PMUSIM_CORE_SIDEBAND_H
#define PMUSIM_CORE_SIDEBAND_H

#include "perf_event.h"

typedef void (*perf_iterate_f)(struct perf_event *event, void *data);

/*
 * The simulator's walk over every event that may want a side-band
 * record on this CPU (the kernel's perf_iterate_sb() over the per-CPU
 * and task contexts): call @fn(event, @arg) for each. NULL: no events.
 */
typedef void (*perf_sb_iterate_fn)(perf_iterate_f fn, void *arg);
extern perf_sb_iterate_fn perf_sb_for_each_event;

/*
 * Give @output(event, @data) to every event the walk yields that is at
 * least INACTIVE and not bound to another CPU. Each output function
 * checks the attr bit its record needs.
 */
void perf_iterate_sb(perf_iterate_f output, void *data);

/* COMM of @task; @exec marks it PERF_RECORD_MISC_COMM_EXEC. attr.comm */
void perf_event_comm(struct task_struct *task, bool exec);

#define PERF_MMAP_PROT_EXEC	0x4	/* PROT_EXEC */

/* A new mapping, as the simulator's mmap() made it. */
struct perf_mmap_info {
	u32 pid, tid;
	u64 addr, len, pgoff;
	u32 maj, min;
	u64 ino, ino_generation;
	u32 prot, flags;
	const char *filename;		/* NULL: "//anon" */
};
/*
 * MMAP2 for attr.mmap2 events, MMAP for attr.mmap ones (executable
 * mappings), and for attr.mmap_data events also data mappings
 * (PERF_RECORD_MISC_MMAP_DATA).
 */
void perf_event_mmap(const struct perf_mmap_info *info);

/*
 * FORK (@new = 1: current is the parent) or EXIT (@new = 0:
 * task->real_parent) of @task. attr.task, comm, mmap, mmap2, mmap_data.
 */
void perf_event_task(struct task_struct *task, int new);

/*
 * @task leaves (@sched_in false; PREEMPT when task->on_rq) or enters the
 * CPU; @next_prev is the task entering or leaving in its place. Per-task
 * events get SWITCH, CPU-wide ones SWITCH_CPU_WIDE. attr.context_switch
 */
void perf_event_switch(struct task_struct *task, struct task_struct *next_prev,
		       bool sched_in);

/* THROTTLE (@enable 0) or UNTHROTTLE (1) to @event's buffer. */
void perf_log_throttle(struct perf_event *event, int enable);
/* LOST_SAMPLES: @lost samples of @event were dropped. */
void perf_log_lost_samples(struct perf_event *event, u64 lost);

/* The per-event steps, for a walk of the simulator's own. */
void perf_event_comm_output(struct perf_event *event, void *data);
void perf_event_mmap_output(struct perf_event *event, void *data);
void perf_event_task_output(struct perf_event *event, void *data);
void perf_event_switch_output(struct perf_event *event, void *data);

#endif /* PMUSIM_CORE_SIDEBAND_H */
