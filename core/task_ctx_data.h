/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * task_ctx_data.h - PMU-specific data kept with the task (RFC "perf: Save
 * PMU specific data in task_struct", merged in v6.15; pmusim's
 * CONFIG_PERF_TASK_CTX_DATA). The x86 LBR driver keeps a task's call
 * stack here across context switches, for per-task and system-wide
 * call-stack events alike.
 *
 * Writers (attach, detach, fork, exit) are serialised by one mutex; the
 * context-switch reader takes the pointer without it, which is safe in
 * pmusim because a task's data is only freed while that task is not
 * running (the kernel uses RCU for the same guarantee).
 */
#ifndef PMUSIM_CORE_TASK_CTX_DATA_H
#define PMUSIM_CORE_TASK_CTX_DATA_H

#include "core/perf_event.h"

struct perf_ctx_data {
	refcount_t refcount;		/* per-task users, plus one if global */
	int global;			/* allocated for a system-wide user */
	size_t ctx_cache_size;		/* bytes of data (the kernel's kmem_cache) */
	void *data;
};

/*
 * The simulator's task list, walked when the first system-wide user
 * appears and when the last one goes. first() returns the first task or
 * NULL, next() the one after @task or NULL. Unset, only the tasks
 * running on some CPU are walked.
 */
struct perf_task_iter {
	struct task_struct *(*first)(void *priv);
	struct task_struct *(*next)(void *priv, struct task_struct *task);
	void *priv;
};
void perf_ctx_data_set_task_iter(const struct perf_task_iter *iter);

/*
 * attach_perf_ctx_data - give @event's task (a per-task event) or every
 * task (a system-wide event) @size bytes of zeroed data, or a reference
 * to what it already has. 0 or -ENOMEM (nothing attached).
 */
int attach_perf_ctx_data(struct perf_event *event, size_t size);
/* Drop what attach_perf_ctx_data() took for @event. */
void detach_perf_ctx_data(struct perf_event *event);

/* The lower level, by task and for all tasks. */
int attach_task_ctx_data(struct task_struct *task, size_t size, bool global);
void detach_task_ctx_data(struct task_struct *task);
int attach_global_ctx_data(size_t size);
void detach_global_ctx_data(void);

/*
 * Fork: while a system-wide user exists, @child gets data of its parent's
 * size. Exit: the task's data goes, whoever still holds it.
 */
int perf_ctx_data_fork(struct task_struct *child, struct task_struct *parent);
void perf_ctx_data_exit(struct task_struct *task);

/* Bytes allocated per task (0 if none) and in all, header included. */
size_t perf_ctx_data_task_bytes(const struct task_struct *task);
size_t perf_ctx_data_total_bytes(void);

#endif /* PMUSIM_CORE_TASK_CTX_DATA_H */
