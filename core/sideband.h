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
 * perf_iterate_sb - give @output(event, @data) to every event on this
 * CPU that may want a side-band record (core/event.c): the CPU's own
 * events that asked for one (the kernel's pmu_sb_events list) and the
 * events of current's task context, skipping those that are off or
 * bound to another CPU. Each output function checks the attr bit its
 * record needs.
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

/* The per-event steps perf_iterate_sb() runs (tests call them directly). */
void perf_event_comm_output(struct perf_event *event, void *data);
void perf_event_mmap_output(struct perf_event *event, void *data);
void perf_event_task_output(struct perf_event *event, void *data);
void perf_event_switch_output(struct perf_event *event, void *data);

#endif /* PMUSIM_CORE_SIDEBAND_H */
