// SPDX-License-Identifier: GPL-2.0-only
/*
 * ring_buffer.c - the perf data ring buffer (kernel/events/ring_buffer.c
 * without the AUX area): reserving room for a record, copying it across
 * pages and the end of the buffer, publishing data_head from the
 * outermost of nested writers, LOST records, watermark and wakeup_events
 * wakeups, overwrite and backward writing, pause.
 *
 * head and data_head run free: the offset in the data area is
 * pos & (perf_data_size() - 1). A forward buffer counts up, a backward
 * one (attr.write_backward) counts down from 0 and writes each record at
 * its new, lower head.
 */
#include "core/ring_buffer.h"

#if defined(__SANITIZE_ADDRESS__)
#define RB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RB_ASAN 1
#endif
#endif
#ifdef RB_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* The kernel's bound on the kzalloc() of struct perf_buffer (MAX_PAGE_ORDER on x86). */
#define RB_MAX_PAGE_ORDER	10

void perf_output_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;

	atomic_set(&handle->rb->poll, EPOLLIN | EPOLLRDNORM);
	/* The kernel queues event->pending_irq here; pmusim's event core acts on the flag. */
	WRITE_ONCE(event->pending_wakeup, 1);
	if (event->fasync && !event->pending_kill)
		event->pending_kill = POLL_IN;
}

/*
 * The LOST record that rides in front of the writer's record, and the
 * writer that found no room: rare, so out of line, which leaves the
 * record path without a call and without a stack frame.
 */
noinline void
perf_output_lost(struct perf_output_handle *handle, struct perf_sample_data *data,
		 struct perf_event *event)
{
	struct perf_buffer *rb = handle->rb;
	struct {
		struct perf_event_header header;
		u64 id;
		u64 lost;
	} lost_event;

	_Static_assert(sizeof(lost_event) == PERF_OUTPUT_LOST_SIZE, "reserved as sized");
	lost_event.id = event->id;
	lost_event.lost = local_xchg(&rb->lost, 0);
	perf_interleave(PI_OUTPUT_BEGIN_LOST_TAKEN, rb);

	/* @data is re-stamped: the LOST and this record share the trailer. */
	perf_event_header__init(&lost_event.header, data,
				PERF_RECORD_LOST, 0,
				sizeof(lost_event), event);
	perf_output_put(handle, lost_event);
	perf_event__output_id_sample(event, handle, data);
}

noinline __cold int
perf_output_begin_failed(struct perf_output_handle *handle, struct perf_event *event)
{
	struct perf_buffer *rb = handle->rb;

	perf_interleave(PI_OUTPUT_BEGIN_FAILED, rb);
	local_inc(&rb->lost);
	atomic64_inc(&event->lost_samples);
	/* Still the outermost writer's duty: publish what nested writers wrote. */
	perf_output_put_handle(handle);
	rcu_read_unlock();
	return -ENOSPC;
}

/*
 * The writer that found the buffer paused, or lost records to report:
 * the rest of __perf_output_begin() out of line, so the record path
 * tests both with one branch and carries neither.
 */
noinline int
perf_output_begin_rare(struct perf_output_handle *handle,
		       struct perf_sample_data *data,
		       struct perf_event *event, struct perf_buffer *rb,
		       unsigned int size, bool backward, bool paused)
{
	if (paused) {
		/* Every record refused while paused shows in the next LOST. */
		if (rb->nr_pages) {
			local_inc(&rb->lost);
			atomic64_inc(&event->lost_samples);
		}
		rcu_read_unlock();
		return -ENOSPC;
	}
	if (backward)
		return __perf_output_reserve(handle, data, event, rb, size, true, true);
	return __perf_output_reserve(handle, data, event, rb, size, false, true);
}

int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return __perf_output_begin(handle, data, event, size, false);
}

int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return __perf_output_begin(handle, data, event, size, true);
}

int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	/* Two copies, each with the direction a constant; both are common. */
	if (is_write_backward(event))
		return __perf_output_begin(handle, data, event, size, true);
	return __perf_output_begin(handle, data, event, size, false);
}

unsigned int __perf_output_copy(struct perf_output_handle *handle,
				const void *buf, unsigned int len)
{
	return __output_copy(handle, buf, len);
}

unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	return __output_skip(handle, NULL, len);
}

void perf_output_end(struct perf_output_handle *handle)
{
	__perf_output_end(handle);
}

void perf_output_sample_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	int wakeup_events, events;

	/* attr.watermark turns the shared union into wakeup_watermark. */
	if (event->attr.watermark)
		return;
	wakeup_events = event->attr.wakeup_events;
	if (!wakeup_events)
		return;

	events = local_inc_return(&rb->events);
	perf_interleave(PI_OUTPUT_SAMPLE_EVENTS, rb);
	if (events >= wakeup_events) {
		local_sub(wakeup_events, &rb->events);
		local_inc(&rb->wakeup);
	}
}

static void ring_buffer_init(struct perf_buffer *rb, long watermark, int flags)
{
	long max_size = perf_data_size(rb);

	if (watermark)
		rb->watermark = min(max_size, watermark);
	if (!rb->watermark)
		rb->watermark = max_size / 2;

	rb->overwrite = !(flags & RING_BUFFER_WRITABLE);
	rb->data_mask = max_size - 1;
	refcount_set(&rb->refcount, 1);

	/* perf_output_begin() looks at nothing but paused before using the pages. */
	if (!rb->nr_pages)
		rb->paused = 1;
}

/*
 * The user page and the data pages come from one kzalloc() with room to
 * align them to a page. Under AddressSanitizer the slack on both sides
 * is poisoned, so output outside the pages is reported.
 */
static void rb_poison_slack(void *alloc, size_t alloc_size, void *base, size_t size)
{
#ifdef RB_ASAN
	char *end = (char *)base + size;

	ASAN_POISON_MEMORY_REGION(alloc, (char *)base - (char *)alloc);
	ASAN_POISON_MEMORY_REGION(end, (char *)alloc + alloc_size - end);
#else
	(void)alloc; (void)alloc_size; (void)base; (void)size;
#endif
}

struct perf_buffer *rb_alloc(int nr_pages, long watermark, int cpu, int flags)
{
	struct perf_buffer *rb;
	size_t size, alloc_size;
	uintptr_t base;
	int i;

	(void)cpu;
	if (nr_pages < 0 || (nr_pages && !is_power_of_2(nr_pages)))
		return NULL;

	size = sizeof(*rb) + (size_t)nr_pages * sizeof(void *);
	if (size > (PAGE_SIZE << RB_MAX_PAGE_ORDER))
		return NULL;

	rb = kzalloc(size);
	if (!rb)
		return NULL;

	if (flags & RING_BUFFER_SCATTERED) {
#ifdef CONFIG_PERF_USE_VMALLOC
		i = rb_pages_scatter(rb, !!nr_pages, nr_pages ? ilog2(nr_pages) : 0);
		rb->page_order = nr_pages ? ilog2(nr_pages) : 0;
		rb->nr_pages = !!nr_pages;
#else
		i = rb_pages_scatter(rb, nr_pages, 0);
		rb->nr_pages = nr_pages;
#endif
		if (i) {
			kfree(rb);
			return NULL;
		}
		goto init;
	}
	size = ((size_t)nr_pages + 1) * PAGE_SIZE;
	alloc_size = size + PAGE_SIZE - 1;
	rb->alloc = kzalloc(alloc_size);
	if (!rb->alloc) {
		kfree(rb);
		return NULL;
	}
	base = ALIGN((uintptr_t)rb->alloc, (uintptr_t)PAGE_SIZE);
	rb_poison_slack(rb->alloc, alloc_size, (void *)base, size);

	rb->user_page = (struct perf_event_mmap_page *)base;
#ifdef CONFIG_PERF_USE_VMALLOC
	if (nr_pages)
		rb->data_pages[0] = (void *)(base + PAGE_SIZE);
	rb->page_order = nr_pages ? ilog2(nr_pages) : 0;
	rb->nr_pages = !!nr_pages;
#else
	for (i = 0; i < nr_pages; i++)
		rb->data_pages[i] = (void *)(base + (i + 1) * PAGE_SIZE);
	rb->nr_pages = nr_pages;
#endif

init:
	ring_buffer_init(rb, watermark, flags);

	/* What perf_mmap() tells user space about the data area. */
	rb->user_page->data_offset = PAGE_SIZE;
	rb->user_page->data_size = perf_data_size(rb);

	return rb;
}

void rb_free(struct perf_buffer *rb)
{
	if (!rb->alloc)
		rb_pages_unscatter(rb);
	kfree(rb->alloc);
	kfree(rb);
}

struct perf_buffer *ring_buffer_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	if (event->parent)
		event = event->parent;

	rcu_read_lock();
	rb = READ_ONCE(event->rb);
	/* refcount_inc_not_zero(): pmusim never drops the last one concurrently */
	if (rb && refcount_read(&rb->refcount))
		refcount_inc(&rb->refcount);
	else
		rb = NULL;
	rcu_read_unlock();

	return rb;
}

void ring_buffer_put(struct perf_buffer *rb)
{
	if (!refcount_dec_and_test(&rb->refcount))
		return;
	rb_free(rb);
}

void ring_buffer_attach(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_buffer *old_rb = event->rb;

	/* Inherited events write through their parent and own no buffer. */
	WARN_ON_ONCE(event->parent);

	WRITE_ONCE(event->rb, rb);
	if (old_rb)
		ring_buffer_put(old_rb);
}
