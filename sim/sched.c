// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's scheduler: one FIFO runqueue per CPU, round robin in
 * time slices, and migrations where a CPU is less loaded (ties broken by
 * the machine's seeded generator, so tasks do move between equally
 * loaded CPUs, as they do on a real machine).
 */
#include "sim/machine.h"
#include "sim/prng.h"

void sched_enqueue(struct sim_cpu *cpu, struct sim_task *t)
{
	t->rq_next = NULL;
	t->cpu = cpu->id;
	if (cpu->rq_tail)
		cpu->rq_tail->rq_next = t;
	else
		cpu->rq_head = t;
	cpu->rq_tail = t;
	cpu->nr_queued++;
}

static struct sim_task *dequeue(struct sim_cpu *cpu, struct sim_task *t, struct sim_task *prev)
{
	if (prev)
		prev->rq_next = t->rq_next;
	else
		cpu->rq_head = t->rq_next;
	if (cpu->rq_tail == t)
		cpu->rq_tail = prev;
	cpu->nr_queued--;
	t->rq_next = NULL;
	return t;
}

static bool allowed(const struct sim_task *t, int cpu)
{
	return !t->affinity || (t->affinity >> cpu & 1);
}

struct sim_cpu *sched_select_cpu(struct machine *m, const struct sim_task *t,
				 struct sim_cpu *prefer)
{
	unsigned int best_load = ~0u, ties = 0;
	struct sim_cpu *best = NULL;

	for (unsigned int i = 0; i < m->cfg.nr_cpus; i++) {
		struct sim_cpu *cpu = &m->cpus[i];
		unsigned int load = cpu->nr_queued + (cpu->curr ? 1 : 0);

		if (!allowed(t, cpu->id))
			continue;
		if (cpu == prefer && cpu->curr == t)
			load--;
		if (load < best_load) {
			best_load = load;
			best = cpu;
			ties = 1;
		} else if (load == best_load) {
			/* reservoir choice among the equally loaded */
			if (prng_below(&m->rng, ++ties) == 0)
				best = cpu;
		}
	}
	return best ? best : prefer ? prefer : &m->cpus[0];
}

void sched_switch(struct machine *m, struct sim_cpu *cpu)
{
	struct sim_task *prev = cpu->curr;
	struct sim_task *next = cpu->rq_head;
	struct sim_cpu *target = NULL;

	cpu->slice_left = m->cfg.timeslice;
	if (!next && !(prev && prev->sleeping))
		return;			/* nobody waits: prev runs on */
	/* where prev goes, counting next as running here already; a sleeper goes nowhere */
	if (prev && !prev->sleeping)
		target = sched_select_cpu(m, prev, cpu);
	if (next)
		dequeue(cpu, next, NULL);

	pmusim_this_cpu = cpu->id;
	if (m->hooks.sched_out)
		m->hooks.sched_out(m->hooks.ctx, cpu, prev, next);
	cpu->curr = next;
	pmusim_curr[cpu->id] = next ? &next->task : NULL;
	if (next)
		next->cpu = cpu->id;
	if (target) {
		sched_enqueue(target, prev);
		if (target != cpu) {
			prev->nr_migrations++;
			m->nr_migrations++;
		}
	}
	if (!next)
		return;			/* prev went to sleep: the CPU idles */
	if (m->hooks.sched_in)
		m->hooks.sched_in(m->hooks.ctx, cpu, prev, next);
	next->nr_switches++;
	m->nr_switches++;
}

bool sched_balance(struct machine *m, struct sim_cpu *cpu)
{
	struct sim_cpu *busiest = NULL;

	for (unsigned int i = 0; i < m->cfg.nr_cpus; i++) {
		struct sim_cpu *c = &m->cpus[i];

		if (c != cpu && c->nr_queued && (!busiest || c->nr_queued > busiest->nr_queued))
			busiest = c;
	}
	if (!busiest)
		return false;
	for (struct sim_task *t = busiest->rq_head, *p = NULL; t; p = t, t = t->rq_next) {
		if (!allowed(t, cpu->id))
			continue;
		dequeue(busiest, t, p);
		t->nr_migrations++;
		m->nr_migrations++;
		sched_enqueue(cpu, t);
		return true;
	}
	return false;
}
