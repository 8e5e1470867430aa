/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - the perf ring buffer's private state and helpers, the
 * counterpart of kernel/events/internal.h (without the AUX area).
 *
 * The user page and the data pages are one zero-filled, page-aligned
 * block laid out as user space maps it: the struct perf_event_mmap_page
 * first, the 2^n data pages from PAGE_SIZE on. With CONFIG_PERF_USE_VMALLOC
 * the data area is one "page" of order ilog2(n), as in the kernel's
 * vmalloc'ed buffers: nr_pages is 1 and data_pages[0] is the whole area
 * (so data_page_nr() and perf_data_size(), not nr_pages, give its size).
 * Without it data_pages[] lists the order-0 pages one by one and output
 * walks them page by page, as x86 does with pages that are not contiguous
 * in its address space.
 */
#ifndef PMUSIM_CORE_INTERNAL_H
#define PMUSIM_CORE_INTERNAL_H

#include "core/perf_event.h"
#include "core/testcase.h"

#define RING_BUFFER_WRITABLE		0x01
/*
 * pmusim: the data pages are separate pages at unrelated addresses, as
 * the kernel's are, rather than one block with the user page (core/rb_pages.c);
 * under CONFIG_PERF_USE_VMALLOC, the one data area apart from the user page.
 */
#define RING_BUFFER_SCATTERED		0x100

/* Rarely run: kept out of the hot path's code and registers. */
#define __cold	__attribute__((__cold__))

struct perf_buffer {
	refcount_t		refcount;
	int			nr_pages;	/* data pages; 0: user page only */
#ifdef CONFIG_PERF_USE_VMALLOC
	int			page_order;	/* the one data page's order */
#endif
	int			overwrite;	/* no PROT_WRITE: ignore data_tail */
	int			paused;		/* PERF_EVENT_IOC_PAUSE_OUTPUT */

	atomic_t		poll;		/* EPOLL* bits of the last wakeup */

	local_t			head;		/* free-running write position */
	unsigned int		nest;		/* writers active on this CPU */
	local_t			events;		/* samples since the last wakeup_events wakeup */
	local_t			wakeup;		/* wakeup stamp: a change asks for a wakeup */
	local_t			lost;		/* records dropped since the last LOST */

	long			watermark;	/* bytes between watermark wakeups */
	/*
	 * pmusim: perf_data_size() - 1, set by rb_alloc(): the record path
	 * loads it rather than shifting nr_pages by the order (a buffer
	 * without data pages never gets that far: it stays paused).
	 */
	unsigned long		data_mask;

	void			*alloc;		/* the kzalloc() block behind user_page; */
						/* NULL: RING_BUFFER_SCATTERED's mappings */
	size_t			scatter_user_size;	/* user space's view */
	void			*scatter_kern;		/* the writer's: pages and guards */
	size_t			scatter_kern_size;
	struct perf_event_mmap_page *user_page;
	void			*data_pages[];
};

/*
 * rb_alloc() - a buffer of @nr_pages data pages (0 or a power of two)
 * behind one user page, the whole zero-filled. @watermark 0 means half
 * the data size; anything else is clamped to it. @flags RING_BUFFER_WRITABLE
 * (a PROT_WRITE mapping) makes the writer respect data_tail; without it
 * the buffer overwrites itself. @cpu is only a placement hint.
 * Returns the buffer with one reference, or NULL when @nr_pages is
 * negative, not a power of two, too large, or memory runs out.
 */
struct perf_buffer *rb_alloc(int nr_pages, long watermark, int cpu, int flags);
/* RING_BUFFER_SCATTERED's pages (core/rb_pages.c): 0 or -errno; and their release. */
int rb_pages_scatter(struct perf_buffer *rb, int nr_pages, int order);
void rb_pages_unscatter(struct perf_buffer *rb);
/* Free the buffer and its pages; no writer may be using it. */
void rb_free(struct perf_buffer *rb);

/*
 * The buffer referenced by @event (its parent's, for an inherited event)
 * with a new reference, or NULL. ring_buffer_put() drops one and frees
 * the buffer with the last.
 */
struct perf_buffer *ring_buffer_get(struct perf_event *event);
void ring_buffer_put(struct perf_buffer *rb);
/*
 * Point @event at @rb (NULL detaches). The caller's reference on @rb
 * passes to the event; the reference the event held on its previous
 * buffer is dropped.
 */
void ring_buffer_attach(struct perf_event *event, struct perf_buffer *rb);

/*
 * The wakeup_events half of perf_output_sample(): count one sample and,
 * every attr.wakeup_events samples, ask the outermost writer for a
 * wakeup. Call it between perf_output_begin() and perf_output_end() of
 * a PERF_RECORD_SAMPLE only; it does nothing with attr.watermark.
 */
void perf_output_sample_wakeup(struct perf_output_handle *handle);

/* Without a data page there is nothing to resume: such a buffer stays paused. */
static inline void rb_toggle_paused(struct perf_buffer *rb, bool pause)
{
	WRITE_ONCE(rb->paused, (pause || !rb->nr_pages) ? 1 : 0);
}

static inline bool rb_has_aux(struct perf_buffer *rb)
{
	(void)rb;
	return false;
}

#ifdef CONFIG_PERF_USE_VMALLOC
static inline int page_order(struct perf_buffer *rb)
{
	return rb->page_order;
}
#else
static inline int page_order(struct perf_buffer *rb)
{
	(void)rb;
	return 0;
}
#endif

static inline int data_page_nr(struct perf_buffer *rb)
{
	return rb->nr_pages << page_order(rb);
}

static inline unsigned long perf_data_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->nr_pages << (PAGE_SHIFT + page_order(rb));
}

/*
 * Move @len bytes of output through the data pages, wrapping from the
 * last page to the first, copying from @buf or (@copy false) leaving
 * the bytes as they are. Returns the bytes not moved: always 0 here, as
 * no pmusim source can fault. Nothing checks @len against the size the
 * writer reserved.
 */
static __always_inline unsigned long
__output_move(struct perf_output_handle *handle, const void *buf,
	      unsigned long len, bool copy)
{
	/* a copy that ends exactly at the end of its page takes the walk */
	testcase(len == handle->size);
	/* The common case: one chunk that ends before the page does. */
	if (likely(len && len < handle->size)) {
		if (copy)
			memcpy(handle->addr, buf, len);
		handle->addr = (char *)handle->addr + len;
		handle->size -= len;
		perf_interleave(PI_OUTPUT_COPY, handle->rb);
		return 0;
	}
	while (len) {
		unsigned long size = min(handle->size, len);

		if (copy) {
			memcpy(handle->addr, buf, size);
			buf = (const char *)buf + size;
		}
		len -= size;
		handle->addr = (char *)handle->addr + size;
		handle->size -= size;
		if (!handle->size) {
			struct perf_buffer *rb = handle->rb;

			handle->page = (handle->page + 1) & (rb->nr_pages - 1);
			handle->addr = rb->data_pages[handle->page];
			handle->size = PAGE_SIZE << page_order(rb);
		}
		perf_interleave(PI_OUTPUT_COPY, handle->rb);
	}
	return 0;
}

static inline unsigned long
__output_copy(struct perf_output_handle *handle, const void *buf,
	      unsigned long len)
{
	return __output_move(handle, buf, len, true);
}

static inline unsigned long
__output_skip(struct perf_output_handle *handle, const void *buf,
	      unsigned long len)
{
	return __output_move(handle, buf, len, false);
}

/*
 * A member of a group whose leader is off (or in error) is off with it:
 * the state its enabled and running times follow.
 */
static inline enum perf_event_state __perf_effective_state(const struct perf_event *event)
{
	const struct perf_event *leader = event->group_leader;

	if (leader && leader->state <= PERF_EVENT_STATE_OFF)
		return leader->state;
	return event->state;
}

#endif /* PMUSIM_CORE_INTERNAL_H */
