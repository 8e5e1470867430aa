// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runtime behind core/kernel.h: warnings that tests can count,
 * allocation that can fail on demand, and the interleaving hook.
 */
#include "kernel.h"

static unsigned long warn_count;

void pmusim_warn(const char *file, int line, const char *cond)
{
	warn_count++;
	fprintf(stderr, "WARNING: %s:%d: %s\n", file, line, cond);
}

unsigned long pmusim_warn_count(void)
{
	return warn_count;
}

static long alloc_budget = -1;

void pmusim_alloc_fail_after(long n)
{
	alloc_budget = n;
}

void *kzalloc(size_t size)
{
	if (alloc_budget == 0)
		return NULL;
	if (alloc_budget > 0)
		alloc_budget--;
	return calloc(1, size);
}

void *kcalloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kzalloc(n * size);
}

void kfree(const void *p)
{
	free((void *)p);
}

#define __PI_NAME(x) #x,
const char *const perf_interleave_point_names[PI__MAX] = {
	PERF_INTERLEAVE_POINTS(__PI_NAME)
};

perf_interleave_fn perf_interleave_hook;
void (*perf_store_fence_hook)(void);
