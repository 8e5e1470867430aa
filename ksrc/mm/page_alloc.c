// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page allocator and vmalloc of the shim (ksrc/include/shim/mm.h):
 * page frames are pages of one memfd; an allocation of n frames starting
 * at frame f is mapped at "kernel" address window + 2f pages, so n
 * accessible pages are followed by at least n inaccessible ones. Output
 * that walks off a data page faults here; in one malloc'ed block it would
 * go on into the next page unseen. User space maps the same frames again
 * (ksrc_page_memfd()), which is what makes the kernel file's separate
 * pages one contiguous buffer to the reader, as perf_mmap() does.
 *
 * One thread, no locking: the ring-buffer harnesses run nested writers
 * by calling them, not on other threads.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <shim/mm.h>

#define KSRC_MAX_FRAMES	(1UL << 16)	/* 256 MiB of buffers at once */

static int memfd = -1;
static unsigned long file_frames;	/* the memfd's size in frames */
static char *window;			/* 2 * KSRC_MAX_FRAMES pages */
/*
 * The frame tables (3.4 MB) are allocated at the first allocation, not
 * static: LeakSanitizer reads every global at each exit, and in a
 * sanitizer build pmusim runs that never use the ksrc backend paid about
 * 800 page faults each for these zeros.
 */
static struct page *frames;		/* [KSRC_MAX_FRAMES] */
static unsigned int *alloc_len;		/* [KSRC_MAX_FRAMES], at an allocation's first frame */
static bool *used;			/* [KSRC_MAX_FRAMES] */
static uint32_t *slot_frame;		/* [2 * KSRC_MAX_FRAMES], frame + 1 mapped at a slot, 0: none */
static unsigned long cursor;

static bool pool_init(void)
{
	void *w;

	if (window)
		return true;
	if (!frames) {
		frames = calloc(KSRC_MAX_FRAMES, sizeof(*frames));
		alloc_len = calloc(KSRC_MAX_FRAMES, sizeof(*alloc_len));
		used = calloc(KSRC_MAX_FRAMES, sizeof(*used));
		slot_frame = calloc(2 * KSRC_MAX_FRAMES, sizeof(*slot_frame));
		if (!frames || !alloc_len || !used || !slot_frame) {
			free(frames);
			free(alloc_len);
			free(used);
			free(slot_frame);
			frames = NULL;
			alloc_len = NULL;
			used = NULL;
			slot_frame = NULL;
			return false;
		}
	}
	memfd = memfd_create("ksrc-pages", MFD_CLOEXEC);
	if (memfd < 0)
		return false;
	w = mmap(NULL, 2 * KSRC_MAX_FRAMES * PAGE_SIZE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (w == MAP_FAILED) {
		close(memfd);
		memfd = -1;
		return false;
	}
	window = w;
	return true;
}

int ksrc_page_memfd(void)
{
	return pool_init() ? memfd : -1;
}

/* @n free frames in a row, first fit from where the last search ended. */
static long find_frames(unsigned long n)
{
	for (unsigned long tries = 0; tries < 2; tries++) {
		unsigned long run = 0;

		for (unsigned long f = tries ? 0 : cursor; f < KSRC_MAX_FRAMES; f++) {
			run = used[f] ? 0 : run + 1;
			if (run == n) {
				cursor = f + 1;
				return (long)(f + 1 - n);
			}
		}
	}
	return -1;
}

static struct page *alloc_frames(unsigned long n)
{
	long first;
	void *addr;

	if (!n || n > KSRC_MAX_FRAMES || !pool_init())
		return NULL;
	first = find_frames(n);
	if (first < 0)
		return NULL;
	if ((unsigned long)first + n > file_frames) {
		if (ftruncate(memfd, (off_t)((first + n) * PAGE_SIZE)))
			return NULL;
		file_frames = first + n;
	}
	addr = mmap(window + 2 * first * PAGE_SIZE, n * PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_FIXED, memfd, (off_t)(first * PAGE_SIZE));
	if (addr == MAP_FAILED)
		return NULL;
	/* Frames are reused: zero them, as __GFP_ZERO and vmalloc_user() do. */
	__builtin_memset(addr, 0, n * PAGE_SIZE);
	for (unsigned long i = 0; i < n; i++) {
		struct page *p = &frames[first + i];

		used[first + i] = true;
		*p = (struct page){ .frame = first + i, .virtual = (char *)addr + i * PAGE_SIZE };
		slot_frame[2 * first + i] = (uint32_t)(first + i + 1);
		alloc_len[first + i] = 0;
	}
	alloc_len[first] = (unsigned int)n;
	return &frames[first];
}

static void free_frames(struct page *page)
{
	unsigned long first = page->frame, n = alloc_len[first];
	unsigned long slot = (unsigned long)((char *)page->virtual - window) / PAGE_SIZE;

	if (WARN_ON_ONCE(!n))
		return;
	mmap(page->virtual, n * PAGE_SIZE, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	fallocate(memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		  (off_t)(first * PAGE_SIZE), (off_t)(n * PAGE_SIZE));
	for (unsigned long i = 0; i < n; i++) {
		used[first + i] = false;
		frames[first + i].virtual = NULL;
		slot_frame[slot + i] = 0;
	}
	alloc_len[first] = 0;
}

struct page *alloc_pages_node(int node, gfp_t gfp, unsigned int order)
{
	(void)node;
	(void)gfp;
	return alloc_frames(1UL << order);
}

/* Each page of a high-order allocation becomes one that is freed alone. */
void split_page(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++)
		alloc_len[page->frame + i] = 1;
}

void __free_page(struct page *page)
{
	if (alloc_len[page->frame] != 1) {
		WARN_ON_ONCE(1);
		return;
	}
	free_frames(page);
}

void *page_address(const struct page *page)
{
	return page->virtual;
}

struct page *virt_to_page(const void *addr)
{
	unsigned long slot = (unsigned long)((const char *)addr - window) / PAGE_SIZE;

	if (WARN_ON_ONCE(!window || (const char *)addr < window ||
			 slot >= 2 * KSRC_MAX_FRAMES || !slot_frame[slot]))
		return NULL;
	return &frames[slot_frame[slot] - 1];
}

void *vmalloc_user(unsigned long size)
{
	struct page *page = alloc_frames((size + PAGE_SIZE - 1) / PAGE_SIZE);

	return page ? page->virtual : NULL;
}

void vfree(const void *addr)
{
	if (addr)
		free_frames(virt_to_page(addr));
}

struct page *vmalloc_to_page(const void *addr)
{
	return virt_to_page(addr);
}
