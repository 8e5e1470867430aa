// SPDX-License-Identifier: GPL-2.0-only
/*
 * LBR call stacks across context switches, and where their state lives.
 *
 * The seed's finding at driver level: task A is 20 calls deep, task B
 * runs and overwrites the LBR, A comes back and makes two more calls.
 * A per-process call-stack event sees all 22 frames (the state is saved
 * in A's task context and restored). A system-wide one sees 2 in v6.12
 * (no task context: the LBR is wiped at sched-in) and 22 with
 * CONFIG_PERF_TASK_CTX_DATA (the state lives with the task).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "tests/x86/x86_test.h"
#include "core/task_ctx_data.h"

#define NR_TASKS 3
static struct task_struct tasks[NR_TASKS];	/* A, B, C */

static struct task_struct *iter_first(void *priv)
{
	(void)priv;
	return &tasks[0];
}

static struct task_struct *iter_next(void *priv, struct task_struct *t)
{
	(void)priv;
	return t + 1 < tasks + NR_TASKS ? t + 1 : NULL;
}

static const struct perf_task_iter iter = { iter_first, iter_next, NULL };

static void boot_tasks(const char *model)
{
	assert_int_equal(xt_boot(model), 0);
	memset(tasks, 0, sizeof(tasks));
	for (int i = 0; i < NR_TASKS; i++)
		tasks[i].pid = tasks[i].tid = 100 + i;
	perf_ctx_data_set_task_iter(&iter);
	pmusim_curr[0] = &tasks[0];
}

static int teardown(void **state)
{
	pmusim_curr[0] = NULL;
	perf_ctx_data_set_task_iter(NULL);
	return xt_teardown(state);
}

/* The simulator's context switch on CPU 0, in the kernel's order. */
static void switch_to(struct task_struct *prev, struct task_struct *next)
{
	x86_pmu_sched_out(prev);
	perf_event_sched_out(0, prev);
	pmusim_curr[0] = next;
	perf_event_sched_in(0, next);
	x86_pmu_sched_in(next);
}

/* @n nested calls starting at @base (each from one function into the next). */
static void calls(u64 base, int first, int n)
{
	for (int i = first; i < first + n; i++) {
		u64 from = base + 0x1000 * i + 0x10;

		x86_branch_text_add(from, MODEL_BR_NEAR_REL_CALL);
		xt_branch(0, from, base + 0x1000 * (i + 1), MODEL_BR_NEAR_REL_CALL);
	}
}

static struct perf_event *open_callstack(struct task_struct *task, u64 period)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
					   period);
	struct perf_event *e;
	int err;

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER;
	e = xt_open(&a, task ? -1 : 0, task, &err);
	assert_non_null(e);
	assert_int_equal(e->state, PERF_EVENT_STATE_ACTIVE);
	return e;
}

static void close_callstack(struct perf_event *e)
{
	perf_event_disable(e);
	if (e->destroy)
		e->destroy(e);
	perf_event_release_kernel(e);
}

/*
 * A: 20 calls; B: 40 calls; A: 2 calls. Returns the frames A's sample
 * shows. (Two calls at the end: a period with one event left is
 * programmed as two, so a single call would not overflow.)
 */
static u64 run_switch_scenario(bool system_wide)
{
	struct perf_event *e = open_callstack(system_wide ? NULL : &tasks[0],
					      system_wide ? 62 : 22);
	u64 nr;

	calls(0x100000, 0, 20);
	switch_to(&tasks[0], &tasks[1]);
	calls(0x800000, 0, 40);
	switch_to(&tasks[1], &tasks[0]);
	calls(0x100000, 20, 2);
	assert_int_equal(xt.nr_samples, 1);
	nr = xt.samples[0].br.nr;
	/* newest first: the last call, then A's frames as they were */
	assert_int_equal(xt.samples[0].entries[0].from, 0x100000 + 0x1000 * 21 + 0x10);
	/* the oldest: as deep into A's 22 calls as the LBR (or what survived) reaches */
	assert_int_equal(xt.samples[0].entries[nr - 1].from, 0x100000 + 0x1000 * (22 - nr) + 0x10);
	close_callstack(e);
	return nr;
}

/* Haswell's 16 entries hold the newest 16 of A's 22 frames. */
static u64 frames_kept(void)
{
	return x86_pmu.lbr_nr < 22 ? (u64)x86_pmu.lbr_nr : 22;
}

static void test_per_process_call_stack_survives_a_switch(void **state)
{
	static const char *const models[] = { "haswell", "skylake", "icelake", "sapphirerapids" };

	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		boot_tasks(models[m]);
		assert_int_equal(run_switch_scenario(false), frames_kept());
		teardown(NULL);
	}
}

static void test_system_wide_call_stack_across_a_switch(void **state)
{
	static const char *const models[] = { "haswell", "skylake", "icelake", "sapphirerapids" };

	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		u64 nr;

		boot_tasks(models[m]);
		nr = run_switch_scenario(true);
		if (IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
			assert_int_equal(nr, frames_kept());	/* the RFC: same as per-process */
		else
			assert_int_equal(nr, 2);	/* v6.12: wiped at sched-in */
		teardown(NULL);
	}
}

/*
 * Where the bytes go: one x86_perf_task_context (800 bytes: the seed's 788
 * was the sum of the 2019 fields; v6.12 added the 8-byte lbr_sel and pads
 * the 12-byte opt part to 16) plus the perf_ctx_data header, for every
 * task when a system-wide user appears; freed when the last user goes.
 */
static void test_per_task_data_sizes_lifetime_and_fork(void **state)
{
	size_t per_task = sizeof(struct perf_ctx_data) + 800;
	struct task_struct child = { .pid = 200, .tid = 200 };
	struct perf_event *sys, *sys2, *per;

	(void)state;
	boot_tasks("skylake");
	/*
	 * The seed's 788: its 2019 x86_perf_task_context held three arrays
	 * of 32 u64 (from, to, info) and five ints (tos, valid_lbrs and the
	 * three now in opt): 768 + 20 = 788 bytes of fields, 792 with the
	 * tail padding. v6.12's adds the u64 lbr_sel and pads the 28-byte
	 * head to 32 before the lbr_entry array: 800.
	 */
	{
		struct seed_2019_task_context {
			u64 lbr_from[MAX_LBR_ENTRIES], lbr_to[MAX_LBR_ENTRIES];
			u64 lbr_info[MAX_LBR_ENTRIES];
			int tos, valid_lbrs, lbr_callstack_users, lbr_stack_state, log_id;
		};

		assert_int_equal(offsetof(struct seed_2019_task_context, log_id) + sizeof(int), 788);
		assert_int_equal(sizeof(struct seed_2019_task_context), 792);
	}
	assert_int_equal(offsetof(struct x86_perf_task_context, opt) +
			 sizeof(struct x86_perf_task_context_opt), 28);
	assert_int_equal(offsetof(struct x86_perf_task_context, lbr), 32);
	assert_int_equal(sizeof(struct x86_perf_task_context), 800);
	assert_int_equal(x86_get_pmu()->task_ctx_size, 800);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);

	per = open_callstack(&tasks[0], 1000);
	if (!IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA)) {
		/* v6.12: only the watched task's context has the data */
		assert_non_null(tasks[0].perf_event_pmu_ctx);
		assert_null(tasks[1].perf_event_pmu_ctx);
		assert_int_equal(perf_ctx_data_total_bytes(), 0);
		close_callstack(per);
		assert_null(tasks[0].perf_event_pmu_ctx);
		return;
	}
	assert_int_equal(perf_ctx_data_task_bytes(&tasks[0]), per_task);
	assert_int_equal(perf_ctx_data_task_bytes(&tasks[1]), 0);

	sys = open_callstack(NULL, 1000);
	sys2 = open_callstack(NULL, 1000);
	for (int i = 0; i < NR_TASKS; i++)
		assert_int_equal(perf_ctx_data_task_bytes(&tasks[i]), per_task);
	assert_int_equal(perf_ctx_data_total_bytes(), NR_TASKS * per_task);
	/* A fork while a system-wide user exists: the child gets its parent's size. */
	assert_int_equal(perf_ctx_data_fork(&child, &tasks[0]), 0);
	assert_int_equal(perf_ctx_data_task_bytes(&child), per_task);
	perf_ctx_data_exit(&child);

	close_callstack(sys);
	assert_int_equal(perf_ctx_data_total_bytes(), NR_TASKS * per_task);
	close_callstack(sys2);
	/* the per-task user still holds A's; B's and C's are gone */
	assert_int_equal(perf_ctx_data_task_bytes(&tasks[0]), per_task);
	assert_int_equal(perf_ctx_data_task_bytes(&tasks[1]), 0);
	close_callstack(per);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);
	/* no system-wide user: a fork allocates nothing */
	assert_int_equal(perf_ctx_data_fork(&child, &tasks[0]), 0);
	assert_null(child.perf_ctx_data);
}

/*
 * The size each model asks for: nothing without call-stack mode, the
 * 800-byte legacy context, or Arch LBR's opt head (12 bytes padded to
 * 16) and one 24-byte lbr_entry per entry of the depth: 16 + 32 * 24.
 */
static void test_task_ctx_size_per_model(void **state)
{
	unsigned int nr;
	const struct model_cpu_desc *t = model_cpu_desc_table(&nr);

	(void)state;
	for (unsigned int m = 0; m < nr; m++) {
		size_t want = t[m].arch_lbr ? 16 + t[m].lbr_nr * sizeof(struct lbr_entry) :
			      t[m].has_lbr_callstack ? 800 : 0;

		boot_tasks(t[m].name);
		assert_int_equal(x86_get_pmu()->task_ctx_size, want);
		teardown(NULL);
	}
	assert_int_equal(16 + 32 * sizeof(struct lbr_entry), 784);
}

static void test_allocation_failure_attaches_nothing(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000);
	int err;

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
		pmusim_skip("CONFIG_PERF_TASK_CTX_DATA is off: a system-wide event allocates nothing");
	boot_tasks("skylake");
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER;
	pmusim_alloc_fail_after(4);	/* the event and a task or two, then nothing */
	assert_null(xt_open(&a, 0, NULL, &err));
	pmusim_alloc_fail_after(-1);
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);
	for (int i = 0; i < NR_TASKS; i++)
		assert_null(tasks[i].perf_ctx_data);
}

/* The skip: the same task back on the same CPU with nobody in between. */
static void test_restore_is_skipped_when_nobody_touched_the_lbr(void **state)
{
	struct perf_event *e;
	u64 tos, newest = 0x100000 + 0x1000 * 5;

	(void)state;
	boot_tasks("skylake");
	e = open_callstack(&tasks[0], 1000);
	calls(0x100000, 0, 5);
	tos = xt_rdmsr(0, MSR_LBR_TOS);

	/* another save in between (log ids differ): the restore writes the stack back */
	x86_pmu_sched_out(&tasks[0]);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_NHM_TO + tos, 0x1234), 0);
	cpu_hw_events[0].last_log_id = 0;
	x86_pmu_sched_in(&tasks[0]);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_TO + tos), newest);

	/* nobody in between: the registers are left as they are */
	x86_pmu_sched_out(&tasks[0]);
	assert_ptr_equal(cpu_hw_events[0].last_task_ctx, tasks[0].perf_ctx_data ?
			 tasks[0].perf_ctx_data->data : tasks[0].perf_event_pmu_ctx->task_ctx_data);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_NHM_TO + tos, 0x1234), 0);
	x86_pmu_sched_in(&tasks[0]);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_TO + tos), 0x1234);
	close_callstack(e);
}

/*
 * The writers' lock: per-task users of A, the system-wide user and forks
 * race from four threads; at the end every reference is back, nothing
 * leaked or freed twice (ASan, TSan), and the byte count is 0.
 */
#define RACE_LOOPS 5000

/* cmocka's asserts belong to the main thread: the racers count their failures. */
static atomic_int race_errors;

static void *race_per_task(void *arg)
{
	(void)arg;
	for (int i = 0; i < RACE_LOOPS; i++) {
		if (attach_task_ctx_data(&tasks[0], 800, false))
			atomic_fetch_add(&race_errors, 1);
		detach_task_ctx_data(&tasks[0]);
	}
	return NULL;
}

static void *race_global(void *arg)
{
	(void)arg;
	for (int i = 0; i < RACE_LOOPS; i++) {
		if (attach_global_ctx_data(800))
			atomic_fetch_add(&race_errors, 1);
		detach_global_ctx_data();
	}
	return NULL;
}

static void *race_fork(void *arg)
{
	struct task_struct *child = arg;

	for (int i = 0; i < RACE_LOOPS; i++) {
		if (perf_ctx_data_fork(child, &tasks[0]))
			atomic_fetch_add(&race_errors, 1);
		perf_ctx_data_exit(child);
	}
	return NULL;
}

static void test_writers_are_serialised(void **state)
{
	struct task_struct child = { .pid = 300, .tid = 300 };
	pthread_t t[4];

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA))
		pmusim_skip("CONFIG_PERF_TASK_CTX_DATA is off: no per-task data to race on");
	boot_tasks("skylake");
	assert_int_equal(pthread_create(&t[0], NULL, race_per_task, NULL), 0);
	assert_int_equal(pthread_create(&t[1], NULL, race_per_task, NULL), 0);
	assert_int_equal(pthread_create(&t[2], NULL, race_global, NULL), 0);
	assert_int_equal(pthread_create(&t[3], NULL, race_fork, &child), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(atomic_load(&race_errors), 0);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);
	for (int i = 0; i < NR_TASKS; i++)
		assert_null(tasks[i].perf_ctx_data);
	assert_null(child.perf_ctx_data);
}

/*
 * A's stack shrinks between two of its switches: the second save must not
 * bring back the first save's deeper frames (Arch LBR: v6.12's non-XSAVE
 * save leaves them in the saved list; pmusim ends it; found by fuzz_lbr).
 */
static void test_a_shrunk_call_stack_comes_back_as_it_is(void **state)
{
	static const char *const models[] = { "skylake", "sapphirerapids" };

	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		struct perf_event *e;

		boot_tasks(models[m]);
		e = open_callstack(&tasks[0], 1000);
		calls(0x100000, 0, 3);
		switch_to(&tasks[0], &tasks[1]);
		switch_to(&tasks[1], &tasks[0]);
		/* two returns: one call left */
		for (int i = 2; i >= 1; i--) {
			x86_branch_text_add(0x100000 + 0x1000 * (i + 1) + 0x80, MODEL_BR_NEAR_RET);
			xt_branch(0, 0x100000 + 0x1000 * (i + 1) + 0x80, 0x100000 + 0x1000 * i + 0x15,
				  MODEL_BR_NEAR_RET);
		}
		switch_to(&tasks[0], &tasks[1]);
		switch_to(&tasks[1], &tasks[0]);
		/* one more call, and the sample: two frames, not four */
		assert_int_equal(perf_event_period(e, 2), 0);
		calls(0x100000, 1, 2);
		assert_int_equal(xt.nr_samples, 1);
		if (xt.samples[0].br.nr != 3)
			fail_msg("%s: %llu call-stack entries, the task is 3 calls deep", models[m],
				 (unsigned long long)xt.samples[0].br.nr);
		close_callstack(e);
		teardown(NULL);
	}
}

/*
 * LBR_SELECT across a switch: the kernel sets cpuc->lbr_select only for
 * PERF_X86_EVENT_LBR_SELECT events (KVM's guest-LBR event), so for a
 * host event neither the reset at sched-in clears LBR_SELECT nor the task
 * context saves it: a user-only filter (0x1, kernel branches suppressed)
 * stays as programmed, system-wide and per process.
 */
static void test_lbr_select_stays_programmed_across_a_switch(void **state)
{
	(void)state;
	for (int system_wide = 0; system_wide < 2; system_wide++) {
		struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE,
						   PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000);
		struct perf_event *e;
		int err;

		boot_tasks("skylake");
		a.sample_type = PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
		e = xt_open(&a, system_wide ? 0 : -1, system_wide ? NULL : &tasks[0], &err);
		assert_non_null(e);
		assert_int_equal(xt_rdmsr(0, MSR_LBR_SELECT), LBR_KERNEL);
		/* the driver's sched-in on its own, without the enable that follows it */
		intel_pmu_lbr_sched_task(e->pmu_ctx, &tasks[0], true);
		assert_int_equal(xt_rdmsr(0, MSR_LBR_SELECT), LBR_KERNEL);
		switch_to(&tasks[0], &tasks[1]);
		switch_to(&tasks[1], &tasks[0]);
		assert_int_equal(xt_rdmsr(0, MSR_LBR_SELECT), LBR_KERNEL);
		close_callstack(e);
		teardown(NULL);
	}
}

/* The task context's data of @t (the per-task event's, or the per-task data's). */
static void *task_lbr_ctx(struct task_struct *t)
{
	return t->perf_ctx_data ? t->perf_ctx_data->data : t->perf_event_pmu_ctx->task_ctx_data;
}

/*
 * Arch LBR: a stack restored from a save that was not full (the restore
 * resets the LBR with an ARCH_LBR_DEPTH write, then writes entries
 * 0..k-1) must take new calls in front of the restored frames, as entry 0
 * is always the newest: 3 calls, A out and in, 5 calls, A out: the save
 * holds all 8 frames newest first, then two more calls and a PMI show 10.
 * Through B (the event goes and comes back: the restore is done) and A's
 * own sched-out/in with nobody between (the restore is skipped). A
 * suspected loss here ("0 entries saved where 8") was B's save, which the
 * middle switch makes: B ran no calls.
 */
static void arch_lbr_out_and_in(bool through_b)
{
	if (through_b) {
		switch_to(&tasks[0], &tasks[1]);
		switch_to(&tasks[1], &tasks[0]);
		return;
	}
	x86_pmu_sched_out(&tasks[0]);
	x86_pmu_sched_in(&tasks[0]);
}

static void test_arch_lbr_calls_after_a_partial_restore_are_saved(void **state)
{
	(void)state;
	for (int through_b = 0; through_b < 2; through_b++) {
		struct x86_perf_task_context_arch_lbr *ctx;
		struct perf_event *e;
		int i;

		boot_tasks("sapphirerapids");
		e = open_callstack(&tasks[0], 1000);
		calls(0x100000, 0, 3);
		arch_lbr_out_and_in(through_b);
		calls(0x100000, 3, 5);
		x86_pmu_sched_out(&tasks[0]);
		ctx = task_lbr_ctx(&tasks[0]);
		for (i = 0; i < 8; i++)
			if (ctx->entries[i].from != 0x100000 + 0x1000 * (u64)(7 - i) + 0x10)
				fail_msg("%s: saved entry %d from %#llx", through_b ? "via B" : "A alone",
					 i, (unsigned long long)ctx->entries[i].from);
		assert_int_equal(ctx->entries[8].from, 0);
		x86_pmu_sched_in(&tasks[0]);

		arch_lbr_out_and_in(through_b);
		assert_int_equal(perf_event_period(e, 2), 0);
		calls(0x100000, 8, 2);
		assert_int_equal(xt.nr_samples, 1);
		assert_int_equal(xt.samples[0].br.nr, 10);
		for (i = 0; i < 10; i++)
			assert_int_equal(xt.samples[0].entries[i].from,
					 0x100000 + 0x1000 * (u64)(9 - i) + 0x10);
		close_callstack(e);
		teardown(NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_per_process_call_stack_survives_a_switch, teardown),
		cmocka_unit_test_teardown(test_system_wide_call_stack_across_a_switch, teardown),
		cmocka_unit_test_teardown(test_per_task_data_sizes_lifetime_and_fork, teardown),
		cmocka_unit_test_teardown(test_task_ctx_size_per_model, teardown),
		cmocka_unit_test_teardown(test_allocation_failure_attaches_nothing, teardown),
		cmocka_unit_test_teardown(test_writers_are_serialised, teardown),
		cmocka_unit_test_teardown(test_restore_is_skipped_when_nobody_touched_the_lbr, teardown),
		cmocka_unit_test_teardown(test_a_shrunk_call_stack_comes_back_as_it_is, teardown),
		cmocka_unit_test_teardown(test_lbr_select_stays_programmed_across_a_switch, teardown),
		cmocka_unit_test_teardown(test_arch_lbr_calls_after_a_partial_restore_are_saved, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
