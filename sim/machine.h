/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated machine: N model CPUs advanced in lockstep quanta of a
 * global cycle clock, tasks running workloads on them, a scheduler with
 * time slices and migrations, and ticks at HZ. What the kernel side does
 * at a context switch, a tick or the end of a quantum is the business of
 * the hooks the owner installs (sim/run.c ties them to the event core);
 * the machine only calls them at the right moments, with
 * smp_processor_id() and current set as the kernel would have them.
 *
 * Time: the machine's clock is the cycle count of the quantum boundaries;
 * within a quantum each CPU's TSC (== its cycles run, idle or spent in PMI
 * handlers) is its local time, and perf_clock() is the running CPU's TSC
 * in ns.  A CPU may end a quantum a few PMI handlers past its boundary: the
 * workload runs for the cycles it was given and the handlers come on top.
 */
#ifndef PMUSIM_SIM_MACHINE_H
#define PMUSIM_SIM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/perf_event.h"
#include "model/model.h"
#include "sim/workload.h"

struct sim_cpu;
struct sim_task;

/*
 * A task's program when it is not a synthetic workload: a real program's
 * recorded control flow (sim/vg_task.c). @run retires up to @budget core
 * cycles into @sink as wl_exec_run() does, returns the cycles retired, and
 * may put the task to sleep (machine_sleep_task) or end it; @priv is its own.
 */
struct sim_task_source {
	uint64_t (*run)(struct sim_task *t, uint64_t budget, const struct wl_sink *sink);
	void *priv;
	/*
	 * Optional: a PMI comes after @retired instructions of the retire
	 * call @run is making (model_cpu_set_pmi_at()); set @regs' ip (the
	 * instruction after them) and eventing_ip (the last of them). Without
	 * it a PMI interrupts at the ip the sink was given, after the call.
	 */
	void (*pmi_at)(struct sim_task *t, uint64_t retired, struct pt_regs *regs);
};

struct sim_task {
	struct task_struct task;	/* what core/ sees; task.sim points here */
	struct wl_exec exec;		/* the program and its ground truth */
	uint64_t affinity;		/* CPU mask (bit n: CPU n); 0: any */
	uint64_t runtime;		/* cycles run */
	uint64_t nr_switches;		/* times switched in */
	uint64_t nr_migrations;
	int cpu;			/* CPU it is queued on or runs on */
	unsigned int group;		/* scenario task entry it came from */
	unsigned int index;		/* in machine.tasks[] */
	struct sim_task *rq_next;	/* runqueue link */
	struct sim_task_source src;	/* src.run set: runs that instead of exec */
	bool sleeping;			/* off the runqueue until machine_wake_task() */
};

struct sim_cpu {
	int id;
	struct model_cpu *model;
	struct sim_task *curr;		/* NULL: idle */
	struct sim_task *rq_head, *rq_tail;	/* waiting, FIFO */
	unsigned int nr_queued;
	uint64_t slice_left;		/* cycles left of curr's time slice */
	uint64_t next_tick;		/* TSC of the next tick */
	uint64_t carry;			/* cycles run beyond the last quantum */
	uint64_t busy, idle;		/* cycles */
	struct pt_regs regs;		/* what a PMI interrupts */
	struct wl_sink sink;		/* retires into model, ip into regs.ip */
};

struct machine;

struct machine_hooks {
	/* Before @prev leaves CPU @cpu for @next (either may be NULL: idle); current = prev. */
	void (*sched_out)(void *ctx, struct sim_cpu *cpu, struct sim_task *prev,
			  struct sim_task *next);
	/* After the switch; current = next. */
	void (*sched_in)(void *ctx, struct sim_cpu *cpu, struct sim_task *prev,
			 struct sim_task *next);
	/* The scheduler tick on @cpu. */
	void (*tick)(void *ctx, struct sim_cpu *cpu);
	/* All CPUs reached @now (cycles): the consumer's turn. */
	void (*quantum_end)(void *ctx, struct machine *m, uint64_t now);
	void *ctx;
};

struct machine_config {
	const struct model_cpu_desc *desc;
	unsigned int nr_cpus;
	unsigned int hz;
	uint64_t timeslice;		/* cycles */
	uint64_t quantum;		/* cycles, <= timeslice */
	uint64_t pmi_cycles;		/* core cycles each PMI's handler takes; 0: none */
	uint64_t seed;
};

struct machine {
	struct machine_config cfg;
	struct sim_cpu cpus[CONFIG_MODEL_MAX_CPUS];
	struct sim_task **tasks;	/* every task, in creation order */
	unsigned int nr_tasks, alloc_tasks;
	uint64_t now;			/* cycles: the last quantum boundary */
	uint64_t tick_cycles;		/* TSC cycles between ticks */
	uint64_t nr_switches, nr_migrations, nr_ticks;
	struct machine_hooks hooks;
	uint64_t rng;			/* the scheduler's choices */
	int next_pid;
};

/*
 * Create the machine and its model CPUs. NULL with errno EINVAL (no CPUs,
 * too many, hz 0, quantum 0 or above the time slice) or ENOMEM.
 * Installs perf_clock() and perf_find_task_by_vpid-style lookups of its tasks.
 */
struct machine *machine_create(const struct machine_config *cfg);
/* Frees the tasks (their exec state, not their workloads) and the CPUs. */
void machine_destroy(struct machine *m);
void machine_set_hooks(struct machine *m, const struct machine_hooks *hooks);

/*
 * A new thread running @wl: a new process (pid = tid) when @leader is NULL,
 * else a thread of @leader's process. It is queued on the least loaded
 * CPU of @affinity (0: any) and starts running at the next quantum.
 * NULL on allocation failure.
 */
struct sim_task *machine_add_task(struct machine *m, const char *comm,
				  const struct workload *wl, struct sim_task *leader,
				  uint64_t affinity, unsigned int group);
struct sim_task *machine_find_task(const struct machine *m, int tid);
/*
 * A thread running @src instead of a workload, as machine_add_task()
 * otherwise; created asleep unless @runnable (a thread not started yet).
 */
struct sim_task *machine_add_source_task(struct machine *m, const char *comm,
					 const struct sim_task_source *src,
					 struct sim_task *leader, uint64_t affinity,
					 unsigned int group, bool runnable);
/*
 * The running task @t leaves its CPU at the end of its source's run call
 * and is not queued again until machine_wake_task(), which queues it on
 * the least loaded CPU it may run on.
 */
void machine_sleep_task(struct sim_task *t);
void machine_wake_task(struct machine *m, struct sim_task *t);

/* Advance every CPU to @until cycles, in lockstep quanta. */
void machine_run(struct machine *m, uint64_t until);

/* Simulated time of CPU @cpu in ns (its TSC); the machine's for -1. */
uint64_t machine_time_ns(const struct machine *m, int cpu);

/* ---- the scheduler (sim/sched.c) ---------------------------------------- */

/* Queue @t on @cpu's runqueue tail. */
void sched_enqueue(struct sim_cpu *cpu, struct sim_task *t);
/* The CPU a waking or preempted task should go to: least loaded of its mask. */
struct sim_cpu *sched_select_cpu(struct machine *m, const struct sim_task *t,
				 struct sim_cpu *prefer);
/* Switch @cpu to the head of its runqueue (or idle), preempting curr to @to_cpu. */
void sched_switch(struct machine *m, struct sim_cpu *cpu);
/* An idle CPU pulls a waiting task another CPU has queued; true if one came. */
bool sched_balance(struct machine *m, struct sim_cpu *cpu);

#endif /* PMUSIM_SIM_MACHINE_H */
