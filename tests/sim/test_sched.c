// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine and its scheduler: switches at time-slice boundaries,
 * current and smp_processor_id() as the kernel hooks expect them, ticks
 * at HZ, affinity, migrations that balance the load, the clock, and the
 * whole schedule a function of the seed.
 */
#include <errno.h>
#include <string.h>

#include "tests/test.h"
#include "sim/machine.h"

#define SLICE	200000ULL

struct log {
	unsigned int outs, ins, ticks, bad;
	uint64_t last_in_tsc[4];
	bool seen_in[4];
	unsigned int slice_checks, slice_bad;
	uint64_t last_ns[4];
	uint64_t hash;
	int pinned_tid, pinned_cpu;
	unsigned int quanta;
};

static void hook_out(void *ctx, struct sim_cpu *cpu, struct sim_task *prev, struct sim_task *next)
{
	struct log *l = ctx;

	l->outs++;
	if (smp_processor_id() != cpu->id || current != (prev ? &prev->task : NULL) || !next)
		l->bad++;
}

static void hook_in(void *ctx, struct sim_cpu *cpu, struct sim_task *prev, struct sim_task *next)
{
	struct log *l = ctx;
	uint64_t tsc = model_cpu_tsc(cpu->model);

	l->ins++;
	if (smp_processor_id() != cpu->id || current != &next->task || cpu->curr != next)
		l->bad++;
	if (next->task.tid == l->pinned_tid && cpu->id != l->pinned_cpu)
		l->bad++;
	/* task to task: the previous one used up its slice (a block may overshoot) */
	if (prev && l->seen_in[cpu->id]) {
		uint64_t ran = tsc - l->last_in_tsc[cpu->id];

		l->slice_checks++;
		if (ran < SLICE || ran > SLICE + 64)
			l->slice_bad++;
	}
	l->last_in_tsc[cpu->id] = tsc;
	l->seen_in[cpu->id] = true;
	l->hash = (l->hash ^ (uint64_t)next->task.tid ^ ((uint64_t)cpu->id << 20) ^ tsc) *
		  0x100000001b3ULL;
}

static void hook_tick(void *ctx, struct sim_cpu *cpu)
{
	struct log *l = ctx;
	uint64_t ns = perf_clock();

	l->ticks++;
	if (smp_processor_id() != cpu->id || ns < l->last_ns[cpu->id])
		l->bad++;
	l->last_ns[cpu->id] = ns;
}

static void hook_quantum(void *ctx, struct machine *m, uint64_t now)
{
	struct log *l = ctx;

	l->quanta++;
	/* lockstep: every CPU is at the boundary, give or take a block */
	for (unsigned int i = 0; i < m->cfg.nr_cpus; i++)
		if (model_cpu_tsc(m->cpus[i].model) < now ||
		    model_cpu_tsc(m->cpus[i].model) > now + 64)
			l->bad++;
}

static struct workload *tchain(void)
{
	struct wl_params p;

	wl_params_default(&p, WL_TCHAIN);
	return workload_build(&p);
}

static struct machine *make(unsigned int cpus, uint64_t seed, struct log *l)
{
	struct machine_config cfg = {
		.desc = model_cpu_desc_lookup("skylake"), .nr_cpus = cpus, .hz = 1000,
		.timeslice = SLICE, .quantum = 50000, .seed = seed,
	};
	struct machine_hooks h = { hook_out, hook_in, hook_tick, hook_quantum, l };
	struct machine *m = machine_create(&cfg);

	assert_non_null(m);
	machine_set_hooks(m, &h);
	return m;
}

static void switches_at_slice_boundaries(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(1, 1, &l);

	(void)state;
	assert_non_null(machine_add_task(m, "a", wl, NULL, 0, 0));
	assert_non_null(machine_add_task(m, "b", wl, NULL, 0, 0));
	machine_run(m, 10 * SLICE);
	assert_int_equal(l.bad, 0);
	/* idle -> a at 0, then a switch every slice */
	assert_int_equal(m->nr_switches, 10);
	assert_int_equal(l.ins, 10);
	assert_int_equal(l.outs, 10);
	assert_int_equal(l.slice_checks, 9);
	assert_int_equal(l.slice_bad, 0);
	assert_true(m->tasks[0]->runtime >= 5 * SLICE && m->tasks[1]->runtime >= 4 * SLICE);
	assert_int_equal(m->nr_migrations, 0);
	assert_int_equal(l.quanta, 10 * SLICE / 50000);
	machine_destroy(m);
	workload_free(wl);
}

static void one_task_runs_on_without_switches(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(1, 1, &l);

	(void)state;
	assert_non_null(machine_add_task(m, "solo", wl, NULL, 0, 0));
	machine_run(m, 5 * SLICE);
	assert_int_equal(m->nr_switches, 1);	/* idle -> solo */
	assert_true(m->tasks[0]->runtime >= 5 * SLICE);
	machine_destroy(m);
	workload_free(wl);
}

/* HZ 1000 at the model's TSC rate: one tick per CPU every TSC_KHZ cycles. */
static void ticks_at_hz_on_every_cpu(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(2, 1, &l);
	uint64_t per_tick = (uint64_t)CONFIG_MODEL_TSC_KHZ;

	(void)state;
	assert_int_equal(m->tick_cycles, per_tick);
	assert_non_null(machine_add_task(m, "a", wl, NULL, 0, 0));
	machine_run(m, 5 * per_tick + 1);
	/* CPU 1 is idle: its ticks come anyway */
	assert_int_equal(l.ticks, 2 * 5);
	assert_int_equal(m->cpus[1].busy + m->cpus[0].busy >= 5 * per_tick, true);
	assert_true(m->cpus[1].idle > 0);
	assert_int_equal(l.bad, 0);
	/* the clock: TSC in ns */
	assert_int_equal(machine_time_ns(m, -1), (5 * per_tick + 1) * 1000000 / CONFIG_MODEL_TSC_KHZ);
	machine_destroy(m);
	workload_free(wl);
}

static void affinity_and_migrations(void **state)
{
	struct workload *wl = tchain();
	struct log l = { 0 };
	struct machine *m = make(2, 5, &l);
	struct sim_task *pinned;
	unsigned int migrated = 0;

	(void)state;
	pinned = machine_add_task(m, "pin", wl, NULL, 1u << 1, 0);
	assert_non_null(pinned);
	l.pinned_tid = pinned->task.tid;
	l.pinned_cpu = 1;
	for (int i = 0; i < 4; i++)
		assert_non_null(machine_add_task(m, "free", wl, NULL, 0, 0));
	machine_run(m, 60 * SLICE);
	assert_int_equal(l.bad, 0);
	assert_int_equal(pinned->nr_migrations, 0);
	assert_true(m->nr_migrations > 0);
	for (unsigned int i = 1; i < m->nr_tasks; i++) {
		migrated += m->tasks[i]->nr_migrations > 0;
		assert_true(m->tasks[i]->runtime > 0);
	}
	assert_true(migrated > 0);
	/* both CPUs were busy the whole time: 5 tasks on 2 CPUs */
	assert_int_equal(m->cpus[0].idle, 0);
	assert_int_equal(m->cpus[1].idle, 0);
	machine_destroy(m);
	workload_free(wl);
}

/* An idle CPU pulls a waiting task from a busy one. */
static void idle_cpu_pulls_work(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(2, 1, &l);

	(void)state;
	/* both queued on CPU 0 by their affinity, then released */
	assert_non_null(machine_add_task(m, "a", wl, NULL, 1, 0));
	assert_non_null(machine_add_task(m, "b", wl, NULL, 1, 0));
	m->tasks[1]->affinity = 0;
	machine_run(m, SLICE);
	assert_int_equal(m->tasks[1]->nr_migrations, 1);
	assert_int_equal(m->tasks[1]->cpu, 1);
	assert_true(m->tasks[0]->runtime > 0 && m->tasks[1]->runtime > 0);
	machine_destroy(m);
	workload_free(wl);
}

static uint64_t schedule_hash(uint64_t seed)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(3, seed, &l);
	uint64_t h;

	for (int i = 0; i < 7; i++)
		assert_non_null(machine_add_task(m, "t", wl, NULL, 0, 0));
	machine_run(m, 40 * SLICE);
	h = l.hash;
	for (unsigned int i = 0; i < m->nr_tasks; i++)
		h = (h ^ m->tasks[i]->exec.insns) * 0x100000001b3ULL;
	machine_destroy(m);
	workload_free(wl);
	return h;
}

static void schedule_is_a_function_of_the_seed(void **state)
{
	(void)state;
	assert_true(schedule_hash(3) == schedule_hash(3));
	assert_true(schedule_hash(3) != schedule_hash(4));
}

static void bad_configs_are_einval(void **state)
{
	struct machine_config cfg = {
		.desc = model_cpu_desc_lookup("skylake"), .nr_cpus = 0, .hz = 1000,
		.timeslice = SLICE, .quantum = 1000,
	};

	(void)state;
	errno = 0;
	assert_null(machine_create(&cfg));
	assert_int_equal(errno, EINVAL);
	cfg.nr_cpus = CONFIG_MODEL_MAX_CPUS + 1;
	assert_null(machine_create(&cfg));
	cfg.nr_cpus = 1;
	cfg.quantum = SLICE + 1;
	assert_null(machine_create(&cfg));
}

/* The other fields machine_create() refuses: no CPU model, hz or quantum 0. */
static void more_bad_configs_are_einval(void **state)
{
	struct machine_config cfg = {
		.desc = model_cpu_desc_lookup("skylake"), .nr_cpus = 1, .hz = 1000,
		.timeslice = SLICE, .quantum = 1000,
	};
	struct machine *m;

	(void)state;
	cfg.desc = NULL;
	errno = 0;
	assert_null(machine_create(&cfg));
	assert_int_equal(errno, EINVAL);
	cfg.desc = model_cpu_desc_lookup("skylake");
	cfg.hz = 0;
	assert_null(machine_create(&cfg));
	cfg.hz = 1000;
	cfg.quantum = 0;
	assert_null(machine_create(&cfg));
	/* the quantum may be the whole slice */
	cfg.quantum = SLICE;
	m = machine_create(&cfg);
	assert_non_null(m);
	machine_destroy(m);
	machine_destroy(NULL);
}

/* TIDs rise from 1000: a TID below, between or past them is nobody. */
static void find_task_by_tid(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(1, 1, &l);

	(void)state;
	assert_null(machine_find_task(m, 1000));
	for (int i = 0; i < 5; i++)
		assert_non_null(machine_add_task(m, "t", wl, NULL, 0, 0));
	for (int i = 0; i < 5; i++)
		assert_ptr_equal(machine_find_task(m, 1000 + i), m->tasks[i]);
	assert_null(machine_find_task(m, 999));
	assert_null(machine_find_task(m, 1005));
	machine_destroy(m);
	workload_free(wl);
}

/* Tasks pinned to CPU 0 only: the idle CPU 1 finds none it may pull. */
static void idle_cpu_pulls_no_pinned_task(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(2, 1, &l);

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_non_null(machine_add_task(m, "pin", wl, NULL, 1, 0));
	machine_run(m, 4 * SLICE);
	assert_int_equal(l.bad, 0);
	assert_int_equal(m->nr_migrations, 0);
	assert_int_equal(m->cpus[1].busy, 0);
	assert_int_equal(m->cpus[1].idle, 4 * SLICE);
	for (int i = 0; i < 3; i++)
		assert_int_equal(m->tasks[i]->cpu, 0);
	machine_destroy(m);
	workload_free(wl);
}

/* A mask naming no CPU of the machine (the scenario check refuses it): CPU 0 takes it. */
static void affinity_outside_the_machine_falls_to_cpu0(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(2, 1, &l);

	(void)state;
	assert_non_null(machine_add_task(m, "a", wl, NULL, 1u << 5, 0));
	assert_non_null(machine_add_task(m, "b", wl, NULL, 1u << 5, 0));
	assert_int_equal(m->tasks[0]->cpu, 0);
	assert_int_equal(m->tasks[1]->cpu, 0);
	machine_run(m, 3 * SLICE);
	/* they take turns on CPU 0; a switched-out one stays where it was */
	assert_int_equal(m->nr_migrations, 0);
	assert_int_equal(m->cpus[1].busy, 0);
	assert_true(m->tasks[0]->runtime > 0 && m->tasks[1]->runtime > 0);
	machine_destroy(m);
	workload_free(wl);
}

/*
 * A task run by a source of its own that goes to sleep after each call:
 * it leaves its CPU at once, even with nobody waiting, and runs again
 * only when woken.
 */
static uint64_t napper_run(struct sim_task *t, uint64_t budget, const struct wl_sink *sink)
{
	unsigned int *calls = t->src.priv;
	uint64_t n = budget < 1000 ? budget : 1000;

	(void)sink;
	model_retire_insns(sink->model, n, n, true);
	(*calls)++;
	machine_sleep_task(t);
	return n;
}

static void sleeping_source_task_leaves_and_wakes(void **state)
{
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(1, 1, &l);
	unsigned int calls = 0;
	struct sim_task_source src = { napper_run, &calls };
	struct sim_task *t;

	(void)state;
	/* created asleep: nothing runs */
	t = machine_add_source_task(m, "nap", &src, NULL, 0, 0, false);
	assert_non_null(t);
	assert_true(t->sleeping);
	machine_run(m, SLICE);
	assert_int_equal(calls, 0);
	assert_int_equal(m->nr_switches, 0);
	machine_wake_task(m, t);
	assert_false(t->sleeping);
	machine_wake_task(m, t);	/* awake already: no second enqueue */
	assert_int_equal(m->cpus[0].nr_queued, 1);
	machine_run(m, 2 * SLICE);
	assert_int_equal(calls, 1);
	assert_true(t->sleeping);
	assert_null(m->cpus[0].curr);
	assert_int_equal(t->runtime, 1000);
	assert_int_equal(m->nr_switches, 1);
	/* switched out twice: idle -> nap, then nap -> idle (hook_out's one "bad": no next) */
	assert_int_equal(l.outs, 2);
	assert_int_equal(l.ins, 1);
	assert_int_equal(l.bad, 1);
	machine_wake_task(m, t);
	machine_run(m, 3 * SLICE);
	assert_int_equal(calls, 2);
	assert_int_equal(t->runtime, 2000);
	machine_destroy(m);
}

/* The idle CPU takes the first waiting task it may run, from the middle of the queue. */
static void idle_cpu_pulls_past_a_pinned_task(void **state)
{
	struct workload *wl = tchain();
	struct log l = { .pinned_tid = -1 };
	struct machine *m = make(2, 1, &l);

	(void)state;
	/* all three queued on CPU 0; the third is then free to go anywhere */
	for (int i = 0; i < 3; i++)
		assert_non_null(machine_add_task(m, "t", wl, NULL, 1, 0));
	m->tasks[2]->affinity = 0;
	machine_run(m, SLICE / 2);
	assert_int_equal(m->tasks[0]->cpu, 0);
	assert_int_equal(m->tasks[1]->cpu, 0);		/* pinned: it waits on CPU 0 */
	assert_int_equal(m->tasks[1]->nr_migrations, 0);
	assert_int_equal(m->tasks[2]->cpu, 1);
	assert_int_equal(m->tasks[2]->nr_migrations, 1);
	assert_ptr_equal(m->cpus[1].curr, m->tasks[2]);
	/* CPU 0's queue holds the pinned one alone, head and tail */
	assert_ptr_equal(m->cpus[0].rq_head, m->tasks[1]);
	assert_ptr_equal(m->cpus[0].rq_tail, m->tasks[1]);
	assert_int_equal(m->cpus[0].nr_queued, 1);
	machine_destroy(m);
	workload_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(switches_at_slice_boundaries),
		cmocka_unit_test(one_task_runs_on_without_switches),
		cmocka_unit_test(ticks_at_hz_on_every_cpu),
		cmocka_unit_test(affinity_and_migrations),
		cmocka_unit_test(idle_cpu_pulls_work),
		cmocka_unit_test(schedule_is_a_function_of_the_seed),
		cmocka_unit_test(bad_configs_are_einval),
		cmocka_unit_test(more_bad_configs_are_einval),
		cmocka_unit_test(find_task_by_tid),
		cmocka_unit_test(idle_cpu_pulls_no_pinned_task),
		cmocka_unit_test(affinity_outside_the_machine_falls_to_cpu0),
		cmocka_unit_test(sleeping_source_task_leaves_and_wakes),
		cmocka_unit_test(idle_cpu_pulls_past_a_pinned_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
