/* SPDX-License-Identifier: GPL-2.0-only */
/* malloc() that fails on demand: see nomem_failmalloc.c. */
#ifndef PMUSIM_TESTS_CMD_NOMEM_FAILMALLOC_H
#define PMUSIM_TESTS_CMD_NOMEM_FAILMALLOC_H

#include <stdbool.h>

bool failmalloc_works(void);		/* false under ASan/TSan: nothing is replaced */
void failmalloc_after(long n);		/* n more allocations succeed; -1: all do (failed kept) */
void failmalloc_new_site(void);		/* fail one allocation, from a caller not failed before */
void failmalloc_forget(void);		/* every caller may fail again */
const void *failmalloc_failed_site(void);	/* the caller failmalloc_new_site() refused */
void failmalloc_tried(const void *site);	/* count SITE as refused (from a child) */
long failmalloc_live(void);		/* blocks allocated and not freed */
bool failmalloc_failed(void);		/* an allocation failed since failmalloc_after() */

#endif
