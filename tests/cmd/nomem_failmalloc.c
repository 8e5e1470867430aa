// SPDX-License-Identifier: GPL-2.0-only
/*
 * malloc() that fails on demand, for test_nomem: the program's own
 * malloc, calloc, realloc and free replace the C library's (glibc allows
 * it, and its own calls come here too) and hand the work to glibc's
 * __libc_* entry points. failmalloc_after(N) lets N more allocations
 * succeed and fails every one after them; failmalloc_new_site() fails
 * one allocation only, the first made from a place (malloc's caller)
 * that has not failed before, so a sweep takes as many runs as there are
 * places, not allocations. failmalloc_live() is the number of blocks
 * allocated and not yet freed, for the leak check.
 *
 * AddressSanitizer and ThreadSanitizer replace malloc themselves: there
 * the file defines nothing and failmalloc_works() says so.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "tests/cmd/nomem_failmalloc.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
bool failmalloc_works(void) { return false; }
void failmalloc_after(long n) { (void)n; }
void failmalloc_new_site(void) { }
void failmalloc_forget(void) { }
const void *failmalloc_failed_site(void) { return NULL; }
void failmalloc_tried(const void *site) { (void)site; }
long failmalloc_live(void) { return 0; }
bool failmalloc_failed(void) { return false; }
#else
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

static long budget = -1;	/* allocations left before failing; -1: no limit */
static long live;
static bool failed;
static bool new_site;		/* fail the first allocation from an untried caller */
static const void *tried[4096];
static unsigned int nr_tried;

bool failmalloc_works(void) { return true; }
void failmalloc_after(long n)
{
	budget = n;
	new_site = false;
	if (n >= 0)
		failed = false;
}

void failmalloc_forget(void)
{
	nr_tried = 0;
}

const void *failmalloc_failed_site(void)
{
	return failed && nr_tried ? tried[nr_tried - 1] : NULL;
}

void failmalloc_tried(const void *site)
{
	if (nr_tried < sizeof(tried) / sizeof(tried[0]))
		tried[nr_tried++] = site;
}

void failmalloc_new_site(void)
{
	budget = -1;
	new_site = true;
	failed = false;
}
long failmalloc_live(void) { return live; }
bool failmalloc_failed(void) { return failed; }

static bool may_allocate_from(const void *caller)
{
	if (new_site) {
		for (unsigned int i = 0; i < nr_tried; i++)
			if (tried[i] == caller)
				return true;
		if (nr_tried == sizeof(tried) / sizeof(tried[0]))
			return true;
		tried[nr_tried++] = caller;
		new_site = false;
		failed = true;
		errno = ENOMEM;		/* as glibc's malloc does */
		return false;
	}
	if (budget < 0)
		return true;
	if (!budget) {
		failed = true;
		errno = ENOMEM;
		return false;
	}
	budget--;
	return true;
}

static void *count(void *p)
{
	if (p)
		live++;
	return p;
}

void *malloc(size_t size)
{
	return may_allocate_from(__builtin_return_address(0)) ? count(__libc_malloc(size)) : NULL;
}

void *calloc(size_t n, size_t size)
{
	return may_allocate_from(__builtin_return_address(0)) ? count(__libc_calloc(n, size)) : NULL;
}

void *realloc(void *p, size_t size)
{
	void *q;

	if (!p)
		return may_allocate_from(__builtin_return_address(0)) ?
		       count(__libc_malloc(size)) : NULL;
	if (!may_allocate_from(__builtin_return_address(0)))
		return NULL;
	q = __libc_realloc(p, size);
	if (!size && !q)
		live--;		/* realloc(p, 0) freed p */
	return q;
}

static void *aligned(size_t align, size_t size, const void *caller)
{
	return may_allocate_from(caller) ? count(__libc_memalign(align, size)) : NULL;
}

void *memalign(size_t align, size_t size)
{
	return aligned(align, size, __builtin_return_address(0));
}

void *aligned_alloc(size_t align, size_t size)
{
	return aligned(align, size, __builtin_return_address(0));
}

int posix_memalign(void **p, size_t align, size_t size)
{
	*p = aligned(align, size, __builtin_return_address(0));
	return *p ? 0 : ENOMEM;
}

void free(void *p)
{
	if (p)
		live--;
	__libc_free(p);
}
#endif
