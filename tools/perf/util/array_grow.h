/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * array_grow.h - room for @need elements in a realloc()ed array, the
 * capacity doubling from @first: the one growth rule the perf.data
 * session, the judge and the stitcher's tables share.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_ARRAY_GROW_H
#define PMUSIM_TOOLS_PERF_UTIL_ARRAY_GROW_H

#include <stdlib.h>

/* 0, or -1 with *@buf and *@cap as they were (out of memory). */
static inline int array_grow(void **buf, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

#endif /* PMUSIM_TOOLS_PERF_UTIL_ARRAY_GROW_H */
