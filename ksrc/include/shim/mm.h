/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * customised: the page allocator and vmalloc, changed for testing
 * (ksrc/mm/page_alloc.c). Pages are frames of one memfd, each
 * allocation mapped at its own "kernel" address with an inaccessible
 * page after it, so a page walk that runs off a page faults instead of
 * landing in the next page as it would in one malloc'ed block; user
 * space maps the same frames again, in the order the file under test's
 * perf_mmap_to_page() gives, as perf_mmap() does. Work items run at once.
 */
#ifndef KSRC_SHIM_MM_H
#define KSRC_SHIM_MM_H

#include <shim/stubbed.h>

struct page {
	unsigned long flags;		/* PG_private only */
	void *mapping;
	unsigned long index;		/* its offset in the mapping (core.c sets it) */
	unsigned long private;
	unsigned long frame;		/* its place in the memfd */
	void *virtual;			/* where the "kernel" maps it */
};

#define PG_private		0
#define SetPagePrivate(p)	((p)->flags |= 1UL << PG_private)
#define ClearPagePrivate(p)	((p)->flags &= ~(1UL << PG_private))
#define set_page_private(p, v)	((p)->private = (unsigned long)(v))
#define page_private(p)		((p)->private)

struct page *alloc_pages_node(int node, gfp_t gfp, unsigned int order);
void split_page(struct page *page, unsigned int order);
void __free_page(struct page *page);
void *page_address(const struct page *page);
struct page *virt_to_page(const void *addr);
void *vmalloc_user(unsigned long size);
void vfree(const void *addr);
struct page *vmalloc_to_page(const void *addr);

/* The memfd behind every frame, for a user mapping of them. */
int ksrc_page_memfd(void);

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct { work_func_t func; };
#define INIT_WORK(w, f)		((w)->func = (f))
/* No workqueue: the work runs now, in the caller. */
static inline bool schedule_work(struct work_struct *work)
{
	work->func(work);
	return true;
}

#endif /* KSRC_SHIM_MM_H */
