// SPDX-License-Identifier: GPL-2.0-only
/*
 * task_ctx_data.c - PMU data that lives with the task (see
 * task_ctx_data.h). Compiled in every configuration; with
 * CONFIG_PERF_TASK_CTX_DATA off nothing calls it.
 */
#include <pthread.h>

#include "core/task_ctx_data.h"

static pthread_mutex_t perf_ctx_data_lock = PTHREAD_MUTEX_INITIALIZER;
static struct perf_task_iter task_iter;
/* System-wide users; the first allocates for every task, the last frees. */
static int global_ctx_data_ref;
static size_t global_ctx_data_size;
static size_t ctx_data_total;

void perf_ctx_data_set_task_iter(const struct perf_task_iter *iter)
{
	pthread_mutex_lock(&perf_ctx_data_lock);
	if (iter)
		task_iter = *iter;
	else
		memset(&task_iter, 0, sizeof(task_iter));
	pthread_mutex_unlock(&perf_ctx_data_lock);
}

static size_t perf_ctx_data_bytes(size_t size)
{
	return sizeof(struct perf_ctx_data) + size;
}

static struct perf_ctx_data *alloc_perf_ctx_data(size_t size, bool global)
{
	struct perf_ctx_data *cd = kzalloc(sizeof(*cd));

	if (!cd)
		return NULL;
	cd->data = kzalloc(size);
	if (!cd->data) {
		kfree(cd);
		return NULL;
	}
	cd->ctx_cache_size = size;
	cd->global = global;
	refcount_set(&cd->refcount, 1);
	ctx_data_total += perf_ctx_data_bytes(size);
	return cd;
}

static void free_perf_ctx_data(struct perf_ctx_data *cd)
{
	ctx_data_total -= perf_ctx_data_bytes(cd->ctx_cache_size);
	kfree(cd->data);
	kfree(cd);
}

/* Drop one reference of @task's data; free it with the last. Lock held. */
static void __put_task_ctx_data(struct task_struct *task)
{
	struct perf_ctx_data *cd = task->perf_ctx_data;

	if (cd && refcount_dec_and_test(&cd->refcount)) {
		WRITE_ONCE(task->perf_ctx_data, NULL);
		free_perf_ctx_data(cd);
	}
}

static int __attach_task_ctx_data(struct task_struct *task, size_t size, bool global)
{
	struct perf_ctx_data *cd = task->perf_ctx_data;

	if (cd) {
		/* A global user holds one reference however many there are. */
		if (global) {
			if (cd->global)
				return 0;
			cd->global = 1;
		}
		refcount_inc(&cd->refcount);
		return 0;
	}
	cd = alloc_perf_ctx_data(size, global);
	if (!cd)
		return -ENOMEM;
	/* Published complete: a switch on another CPU may look at once. */
	smp_store_release(&task->perf_ctx_data, cd);
	return 0;
}

int attach_task_ctx_data(struct task_struct *task, size_t size, bool global)
{
	int ret;

	pthread_mutex_lock(&perf_ctx_data_lock);
	ret = __attach_task_ctx_data(task, size, global);
	pthread_mutex_unlock(&perf_ctx_data_lock);
	return ret;
}

void detach_task_ctx_data(struct task_struct *task)
{
	pthread_mutex_lock(&perf_ctx_data_lock);
	__put_task_ctx_data(task);
	pthread_mutex_unlock(&perf_ctx_data_lock);
}

/* Each task once: the simulator's list, or what runs on the CPUs. */
static void for_each_task(void (*fn)(struct task_struct *task, void *arg), void *arg)
{
	if (task_iter.first) {
		for (struct task_struct *t = task_iter.first(task_iter.priv); t;
		     t = task_iter.next(task_iter.priv, t))
			fn(t, arg);
		return;
	}
	for (int cpu = 0; cpu < CONFIG_MODEL_MAX_CPUS; cpu++)
		if (pmusim_curr[cpu])
			fn(pmusim_curr[cpu], arg);
}

struct global_walk {
	size_t size;
	int err;
};

static void attach_global_one(struct task_struct *task, void *arg)
{
	struct global_walk *w = arg;

	if (!w->err)
		w->err = __attach_task_ctx_data(task, w->size, true);
}

static void detach_global_one(struct task_struct *task, void *arg)
{
	struct perf_ctx_data *cd = task->perf_ctx_data;

	(void)arg;
	if (cd && cd->global) {
		cd->global = 0;
		__put_task_ctx_data(task);
	}
}

int attach_global_ctx_data(size_t size)
{
	struct global_walk w = { .size = size };

	pthread_mutex_lock(&perf_ctx_data_lock);
	if (global_ctx_data_ref++ == 0) {
		global_ctx_data_size = size;
		for_each_task(attach_global_one, &w);
		if (w.err) {
			/* All or nothing: give back what the walk took. */
			for_each_task(detach_global_one, NULL);
			global_ctx_data_ref = 0;
		}
	}
	pthread_mutex_unlock(&perf_ctx_data_lock);
	return w.err;
}

void detach_global_ctx_data(void)
{
	pthread_mutex_lock(&perf_ctx_data_lock);
	if (!WARN_ON_ONCE(global_ctx_data_ref <= 0) && --global_ctx_data_ref == 0)
		for_each_task(detach_global_one, NULL);
	pthread_mutex_unlock(&perf_ctx_data_lock);
}

int attach_perf_ctx_data(struct perf_event *event, size_t size)
{
	if (!size)
		return -EINVAL;
	if ((event->attach_state & PERF_ATTACH_TASK) && event->target)
		return attach_task_ctx_data(event->target, size, false);
	return attach_global_ctx_data(size);
}

void detach_perf_ctx_data(struct perf_event *event)
{
	if ((event->attach_state & PERF_ATTACH_TASK) && event->target)
		detach_task_ctx_data(event->target);
	else
		detach_global_ctx_data();
}

int perf_ctx_data_fork(struct task_struct *child, struct task_struct *parent)
{
	struct perf_ctx_data *pcd;
	int ret = 0;

	pthread_mutex_lock(&perf_ctx_data_lock);
	child->perf_ctx_data = NULL;
	pcd = parent ? parent->perf_ctx_data : NULL;
	/* Per-task users watch the parent only: the child inherits data if global. */
	if (global_ctx_data_ref)
		ret = __attach_task_ctx_data(child, pcd ? pcd->ctx_cache_size :
					     global_ctx_data_size, true);
	pthread_mutex_unlock(&perf_ctx_data_lock);
	return ret;
}

void perf_ctx_data_exit(struct task_struct *task)
{
	struct perf_ctx_data *cd;

	pthread_mutex_lock(&perf_ctx_data_lock);
	cd = task->perf_ctx_data;
	if (cd) {
		WRITE_ONCE(task->perf_ctx_data, NULL);
		free_perf_ctx_data(cd);
	}
	pthread_mutex_unlock(&perf_ctx_data_lock);
}

size_t perf_ctx_data_task_bytes(const struct task_struct *task)
{
	struct perf_ctx_data *cd = READ_ONCE(task->perf_ctx_data);

	return cd ? perf_ctx_data_bytes(cd->ctx_cache_size) : 0;
}

size_t perf_ctx_data_total_bytes(void)
{
	size_t total;

	pthread_mutex_lock(&perf_ctx_data_lock);
	total = ctx_data_total;
	pthread_mutex_unlock(&perf_ctx_data_lock);
	return total;
}
