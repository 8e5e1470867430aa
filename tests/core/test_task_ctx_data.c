// SPDX-License-Identifier: GPL-2.0-only
/*
 * PMU data kept with the task (core/task_ctx_data.c) at its own level:
 * references of per-task and system-wide users, the walk over the
 * running tasks when the simulator gives no task list, fork and exit,
 * allocation failures and unbalanced detaches. The driver's use of it
 * (LBR call stacks across switches) is tests/x86/test_task_ctx.c.
 */
#include "tests/test.h"
#include "core/task_ctx_data.h"

#define NR_TASKS 3
static struct task_struct tasks[NR_TASKS];

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

static int setup(void **state)
{
	(void)state;
	memset(tasks, 0, sizeof(tasks));
	perf_ctx_data_set_task_iter(&iter);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmusim_alloc_fail_after(-1);
	for (int i = 0; i < NR_TASKS; i++)
		perf_ctx_data_exit(&tasks[i]);
	for (int cpu = 0; cpu < CONFIG_MODEL_MAX_CPUS; cpu++)
		pmusim_curr[cpu] = NULL;
	perf_ctx_data_set_task_iter(NULL);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);
	return 0;
}

static unsigned int refs(const struct task_struct *t)
{
	return t->perf_ctx_data ? refcount_read(&t->perf_ctx_data->refcount) : 0;
}

/* One system-wide reference per task however many system-wide users attach. */
static void test_global_users_share_one_reference_per_task(void **state)
{
	size_t one = perf_ctx_data_task_bytes(&tasks[0]);

	(void)state;
	assert_int_equal(one, 0);
	assert_int_equal(attach_task_ctx_data(&tasks[0], 64, false), 0);	/* a per-task user */
	assert_int_equal(attach_task_ctx_data(&tasks[0], 64, false), 0);	/* and another */
	assert_int_equal(refs(&tasks[0]), 2);
	assert_int_equal(perf_ctx_data_total_bytes(), sizeof(struct perf_ctx_data) + 64);
	detach_task_ctx_data(&tasks[0]);
	assert_int_equal(refs(&tasks[0]), 1);
	assert_int_equal(attach_global_ctx_data(64), 0);
	assert_int_equal(attach_global_ctx_data(64), 0);
	assert_int_equal(refs(&tasks[0]), 2);		/* per-task + global */
	assert_int_equal(refs(&tasks[1]), 1);
	assert_true(tasks[0].perf_ctx_data->global);
	/* the global flag is per task: a second walk adds nothing */
	assert_int_equal(attach_task_ctx_data(&tasks[1], 64, true), 0);
	assert_int_equal(refs(&tasks[1]), 1);

	detach_global_ctx_data();	/* one system-wide user left: nothing goes */
	assert_int_equal(refs(&tasks[2]), 1);
	detach_global_ctx_data();	/* the last: only the per-task reference stays */
	assert_int_equal(refs(&tasks[0]), 1);
	assert_false(tasks[0].perf_ctx_data->global);
	assert_null(tasks[1].perf_ctx_data);
	assert_null(tasks[2].perf_ctx_data);
	assert_int_equal(perf_ctx_data_total_bytes(), perf_ctx_data_task_bytes(&tasks[0]));
	detach_task_ctx_data(&tasks[0]);
	assert_null(tasks[0].perf_ctx_data);
	/* a detach with nothing attached changes nothing */
	detach_task_ctx_data(&tasks[0]);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);
}

/* Without a task list only what runs on some CPU is walked. */
static void test_without_a_task_list_the_running_tasks_are_walked(void **state)
{
	(void)state;
	perf_ctx_data_set_task_iter(NULL);
	pmusim_curr[1] = &tasks[2];
	assert_int_equal(attach_global_ctx_data(32), 0);
	assert_null(tasks[0].perf_ctx_data);
	assert_null(tasks[1].perf_ctx_data);
	assert_int_equal(refs(&tasks[2]), 1);
	assert_int_equal(perf_ctx_data_task_bytes(&tasks[2]), sizeof(struct perf_ctx_data) + 32);
	detach_global_ctx_data();
	assert_null(tasks[2].perf_ctx_data);
}

/* Either allocation failing attaches nothing, and the global walk is undone. */
static void test_allocation_failures_attach_nothing(void **state)
{
	(void)state;
	pmusim_alloc_fail_after(0);		/* the header */
	assert_int_equal(attach_task_ctx_data(&tasks[0], 64, false), -ENOMEM);
	pmusim_alloc_fail_after(1);		/* the data behind it */
	assert_int_equal(attach_task_ctx_data(&tasks[0], 64, false), -ENOMEM);
	pmusim_alloc_fail_after(-1);
	assert_null(tasks[0].perf_ctx_data);
	assert_int_equal(perf_ctx_data_total_bytes(), 0);

	/* the second task's data fails: the first's is given back */
	assert_int_equal(attach_task_ctx_data(&tasks[2], 64, false), 0);
	pmusim_alloc_fail_after(3);
	assert_int_equal(attach_global_ctx_data(64), -ENOMEM);
	pmusim_alloc_fail_after(-1);
	assert_null(tasks[0].perf_ctx_data);
	assert_null(tasks[1].perf_ctx_data);
	assert_int_equal(refs(&tasks[2]), 1);		/* the per-task user's, untouched */
	assert_false(tasks[2].perf_ctx_data->global);
	/* the failed attach did not count as a user: the next one walks again */
	assert_int_equal(attach_global_ctx_data(64), 0);
	assert_int_equal(refs(&tasks[1]), 1);
	detach_global_ctx_data();
	assert_null(tasks[1].perf_ctx_data);
	detach_task_ctx_data(&tasks[2]);
}

/* A detach with no system-wide user is a bug in the caller: a warning, nothing freed. */
static void test_unbalanced_global_detach_warns_and_frees_nothing(void **state)
{
	unsigned long warns = pmusim_warn_count();

	(void)state;
	assert_int_equal(attach_task_ctx_data(&tasks[0], 64, false), 0);
	detach_global_ctx_data();
	assert_int_equal(refs(&tasks[0]), 1);
	if (IS_ENABLED(CONFIG_DEBUG_PERF))
		assert_int_equal(pmusim_warn_count(), warns + 1);
	detach_task_ctx_data(&tasks[0]);
}

/* The event-level calls: size 0 is refused; per-task or system-wide by the event. */
static void test_event_attach_picks_task_or_all_tasks(void **state)
{
	struct perf_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(attach_perf_ctx_data(&ev, 0), -EINVAL);

	ev.attach_state = PERF_ATTACH_TASK;
	ev.target = &tasks[1];
	assert_int_equal(attach_perf_ctx_data(&ev, 48), 0);
	assert_non_null(tasks[1].perf_ctx_data);
	assert_null(tasks[0].perf_ctx_data);
	detach_perf_ctx_data(&ev);
	assert_null(tasks[1].perf_ctx_data);

	/* a task event without its task, or a CPU event: every task */
	ev.target = NULL;
	assert_int_equal(attach_perf_ctx_data(&ev, 48), 0);
	ev.attach_state = 0;
	ev.target = &tasks[1];
	assert_int_equal(attach_perf_ctx_data(&ev, 48), 0);
	for (int i = 0; i < NR_TASKS; i++)
		assert_int_equal(refs(&tasks[i]), 1);
	detach_perf_ctx_data(&ev);
	assert_non_null(tasks[0].perf_ctx_data);
	ev.attach_state = PERF_ATTACH_TASK;
	ev.target = NULL;
	detach_perf_ctx_data(&ev);
	for (int i = 0; i < NR_TASKS; i++)
		assert_null(tasks[i].perf_ctx_data);
}

/*
 * Fork: data only while a system-wide user exists, of the parent's size
 * if it has some, else of the system-wide size. Exit frees whoever holds it.
 */
static void test_fork_inherits_only_for_system_wide_users(void **state)
{
	struct task_struct child = { .pid = 9 }, orphan = { .pid = 10 };

	(void)state;
	assert_int_equal(attach_task_ctx_data(&tasks[0], 100, false), 0);
	child.perf_ctx_data = (void *)&child;	/* fork copies the parent's pointer: reset */
	assert_int_equal(perf_ctx_data_fork(&child, &tasks[0]), 0);
	assert_null(child.perf_ctx_data);

	assert_int_equal(attach_global_ctx_data(40), 0);
	assert_int_equal(perf_ctx_data_fork(&child, &tasks[0]), 0);
	assert_int_equal(perf_ctx_data_task_bytes(&child), sizeof(struct perf_ctx_data) + 100);
	assert_true(child.perf_ctx_data->global);
	assert_int_equal(perf_ctx_data_fork(&orphan, NULL), 0);
	assert_int_equal(perf_ctx_data_task_bytes(&orphan), sizeof(struct perf_ctx_data) + 40);

	pmusim_alloc_fail_after(0);
	{
		struct task_struct late = { .pid = 11 };

		assert_int_equal(perf_ctx_data_fork(&late, &tasks[1]), -ENOMEM);
		assert_null(late.perf_ctx_data);
	}
	pmusim_alloc_fail_after(-1);

	/* exit frees though two users (per-task and global) hold tasks[0]'s */
	assert_int_equal(refs(&tasks[0]), 2);
	perf_ctx_data_exit(&tasks[0]);
	assert_null(tasks[0].perf_ctx_data);
	perf_ctx_data_exit(&child);
	perf_ctx_data_exit(&orphan);
	perf_ctx_data_exit(&orphan);		/* nothing left: nothing happens */
	detach_global_ctx_data();
	assert_null(tasks[1].perf_ctx_data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_global_users_share_one_reference_per_task,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_a_task_list_the_running_tasks_are_walked,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_allocation_failures_attach_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unbalanced_global_detach_warns_and_frees_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_attach_picks_task_or_all_tasks,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_inherits_only_for_system_wide_users,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
