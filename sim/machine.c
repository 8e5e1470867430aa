// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated machine: CPUs, tasks, the lockstep run loop, ticks and the
 * clock. See machine.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine.h"
#include "sim/prng.h"

/* perf_clock() has no context argument: the machine that installed it. */
static struct machine *clock_machine;

uint64_t machine_time_ns(const struct machine *m, int cpu)
{
	uint64_t tsc = cpu >= 0 ? model_cpu_tsc(m->cpus[cpu].model) : m->now;

	return (uint64_t)((unsigned __int128)tsc * 1000000u / CONFIG_MODEL_TSC_KHZ);
}

static u64 machine_clock_ns(void)
{
	return machine_time_ns(clock_machine, smp_processor_id());
}

/* Where a PMI on @ctx's CPU interrupts: the running source names it, if it can. */
static void machine_pmi_at(void *ctx, uint64_t retired)
{
	struct sim_cpu *cpu = ctx;

	cpu->regs.eventing_ip = 0;
	if (cpu->curr && cpu->curr->src.pmi_at)
		cpu->curr->src.pmi_at(cpu->curr, retired, &cpu->regs);
}

struct machine *machine_create(const struct machine_config *cfg)
{
	struct machine *m;

	if (!cfg->desc || !cfg->nr_cpus || cfg->nr_cpus > CONFIG_MODEL_MAX_CPUS || !cfg->hz ||
	    !cfg->quantum || cfg->quantum > cfg->timeslice) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		goto nomem;
	m->cfg = *cfg;
	m->tick_cycles = (uint64_t)CONFIG_MODEL_TSC_KHZ * 1000 / cfg->hz;
	m->next_pid = 1000;
	m->rng = prng_split(cfg->seed, 0x7363686564ULL);
	for (unsigned int i = 0; i < cfg->nr_cpus; i++) {
		struct sim_cpu *cpu = &m->cpus[i];

		cpu->id = (int)i;
		cpu->model = model_cpu_create(cfg->desc, (int)i);
		if (!cpu->model)
			goto nomem;
		model_cpu_set_pmi_cycles(cpu->model, cfg->pmi_cycles);
		cpu->next_tick = m->tick_cycles;
		cpu->regs.user = true;
		/* the executor retires straight into the model and keeps the PMI's ip */
		cpu->sink = (struct wl_sink){ .model = cpu->model, .ip = &cpu->regs.ip };
		pmusim_curr[i] = NULL;
	}
	/* the clock reads the CPU code runs on: one of this machine's, not a former one's */
	pmusim_this_cpu = 0;
	clock_machine = m;
	pmusim_clock_ns = machine_clock_ns;
	return m;
nomem:
	machine_destroy(m);
	errno = ENOMEM;
	return NULL;
}

void machine_destroy(struct machine *m)
{
	if (!m)
		return;
	if (clock_machine == m) {
		pmusim_clock_ns = NULL;
		clock_machine = NULL;
	}
	for (unsigned int i = 0; i < m->nr_tasks; i++) {
		wl_exec_fini(&m->tasks[i]->exec);
		free(m->tasks[i]);
	}
	free(m->tasks);
	for (unsigned int i = 0; i < m->cfg.nr_cpus; i++) {
		if (m->cpus[i].model)
			model_cpu_destroy(m->cpus[i].model);
		pmusim_curr[i] = NULL;
	}
	free(m);
}

void machine_set_hooks(struct machine *m, const struct machine_hooks *hooks)
{
	m->hooks = *hooks;
}

static struct sim_task *add_task(struct machine *m, const char *comm,
				 const struct workload *wl, const struct sim_task_source *src,
				 struct sim_task *leader, uint64_t affinity, unsigned int group,
				 bool runnable)
{
	struct sim_task *t;

	if (m->nr_tasks == m->alloc_tasks) {
		unsigned int n = m->alloc_tasks ? 2 * m->alloc_tasks : 16;
		struct sim_task **v = realloc(m->tasks, n * sizeof(*v));

		if (!v)
			return NULL;
		m->tasks = v;
		m->alloc_tasks = n;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->task.tid = m->next_pid++;
	t->task.pid = leader ? leader->task.pid : t->task.tid;
	t->task.real_parent = leader ? leader->task.real_parent : NULL;
	strncpy(t->task.comm, comm, TASK_COMM_LEN - 1);
	t->task.sim = t;
	t->affinity = affinity;
	t->group = group;
	if (src) {
		t->src = *src;
	} else if (wl_exec_init(&t->exec, wl, prng_split(m->cfg.seed, (uint64_t)t->task.tid))) {
		free(t);
		return NULL;
	}
	t->index = m->nr_tasks;
	m->tasks[m->nr_tasks++] = t;
	t->cpu = -1;
	if (runnable)
		sched_enqueue(sched_select_cpu(m, t, NULL), t);
	else
		t->sleeping = true;
	return t;
}

struct sim_task *machine_add_task(struct machine *m, const char *comm,
				  const struct workload *wl, struct sim_task *leader,
				  uint64_t affinity, unsigned int group)
{
	return add_task(m, comm, wl, NULL, leader, affinity, group, true);
}

struct sim_task *machine_add_source_task(struct machine *m, const char *comm,
					 const struct sim_task_source *src,
					 struct sim_task *leader, uint64_t affinity,
					 unsigned int group, bool runnable)
{
	return add_task(m, comm, NULL, src, leader, affinity, group, runnable);
}

void machine_sleep_task(struct sim_task *t)
{
	t->sleeping = true;
}

void machine_wake_task(struct machine *m, struct sim_task *t)
{
	if (!t->sleeping)
		return;
	t->sleeping = false;
	sched_enqueue(sched_select_cpu(m, t, NULL), t);
}

/* Tasks are created with rising TIDs and never leave: a binary search. */
struct sim_task *machine_find_task(const struct machine *m, int tid)
{
	unsigned int lo = 0, hi = m->nr_tasks;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int at = m->tasks[mid]->task.tid;

		if (at == tid)
			return m->tasks[mid];
		if (at < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void do_tick(struct machine *m, struct sim_cpu *cpu)
{
	cpu->next_tick += m->tick_cycles;
	m->nr_ticks++;
	if (m->hooks.tick)
		m->hooks.tick(m->hooks.ctx, cpu);
}

/* Run one CPU up to TSC @end: ticks, slices, switches, work or idle. */
static void run_cpu(struct machine *m, struct sim_cpu *cpu, uint64_t end)
{
	pmusim_this_cpu = cpu->id;
	for (;;) {
		uint64_t t = model_cpu_tsc(cpu->model);
		uint64_t stop, ran;

		if (t >= end)
			break;
		if (t >= cpu->next_tick) {
			do_tick(m, cpu);
			continue;
		}
		stop = end < cpu->next_tick ? end : cpu->next_tick;
		if (!cpu->curr) {
			if (cpu->rq_head || sched_balance(m, cpu)) {
				sched_switch(m, cpu);
				continue;
			}
			model_cpu_idle(cpu->model, stop - t);
			cpu->idle += stop - t;
			continue;
		}
		if (!cpu->slice_left) {
			sched_switch(m, cpu);
			continue;
		}
		if (stop - t > cpu->slice_left)
			stop = t + cpu->slice_left;
		if (cpu->curr->src.run) {
			/* a source that names each instruction takes the PMI where it came */
			if (cpu->curr->src.pmi_at)
				model_cpu_set_pmi_at(cpu->model, machine_pmi_at, cpu);
			ran = cpu->curr->src.run(cpu->curr, stop - t, &cpu->sink);
			model_cpu_set_pmi_at(cpu->model, NULL, NULL);
		} else
			ran = wl_exec_run(&cpu->curr->exec, stop - t, &cpu->sink);
		cpu->curr->runtime += ran;
		cpu->busy += ran;
		cpu->slice_left -= ran < cpu->slice_left ? ran : cpu->slice_left;
		if (cpu->curr->sleeping)
			sched_switch(m, cpu);	/* it leaves even with nobody waiting */
	}
}

void machine_run(struct machine *m, uint64_t until)
{
	while (m->now < until) {
		uint64_t q = until - m->now < m->cfg.quantum ? until - m->now : m->cfg.quantum;
		uint64_t end = m->now + q;

		for (unsigned int i = 0; i < m->cfg.nr_cpus; i++)
			run_cpu(m, &m->cpus[i], end);
		m->now = end;
		if (m->hooks.quantum_end)
			m->hooks.quantum_end(m->hooks.ctx, m, end);
	}
}
