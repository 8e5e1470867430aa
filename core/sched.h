/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched.h - what core/ needs of the scheduler (customised for testing):
 * the task, the CPU the code runs on, the task running there, and the
 * clock. sim/ owns all of them; core/ only reads them.
 */
#ifndef PMUSIM_CORE_SCHED_H
#define PMUSIM_CORE_SCHED_H

#include "kernel.h"

#define TASK_COMM_LEN 16

struct perf_ctx_data;

struct task_struct {
	int pid;			/* the kernel's tgid: the process */
	int tid;			/* the kernel's pid: the thread */
	char comm[TASK_COMM_LEN];
	struct task_struct *real_parent;
	int on_rq;			/* runnable: a switch-out is a preemption */
	struct perf_ctx_data *perf_ctx_data;	/* RFC: per-task PMU data */
	void *sim;			/* the simulator's own state */
};

/*
 * The CPU this thread of execution stands for. Thread-local, so the
 * real-thread stress test can run two simulated CPUs on two host threads.
 */
extern __thread int pmusim_this_cpu;
#define smp_processor_id()	(pmusim_this_cpu)

/* The task on each CPU; NULL for idle. Set by the simulator. */
extern struct task_struct *pmusim_curr[CONFIG_MODEL_MAX_CPUS];
#define current			(pmusim_curr[smp_processor_id()])

/*
 * perf_clock(): the simulated time in ns (never the host clock). sim/
 * installs its clock; until then time stands still at 0.
 */
extern u64 (*pmusim_clock_ns)(void);
static inline u64 perf_clock(void)
{
	return pmusim_clock_ns ? pmusim_clock_ns() : 0;
}

#endif /* PMUSIM_CORE_SCHED_H */
