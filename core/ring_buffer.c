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
#include "core/internal.h"

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

/* <linux/circ_buf.h>: bytes free between head and tail, one byte always kept free */
#define CIRC_CNT(head, tail, size)	(((head) - (tail)) & ((size) - 1))
#define CIRC_SPACE(head, tail, size)	CIRC_CNT((tail), ((head) + 1), (size))

/* A PERF_RECORD_LOST without its sample_id trailer: header, id, lost. */
#define PERF_OUTPUT_LOST_SIZE	(sizeof(struct perf_event_header) + 2 * sizeof(u64))

/* The kernel's bound on the kzalloc() of struct perf_buffer (MAX_PAGE_ORDER on x86). */
#define RB_MAX_PAGE_ORDER	10

static void perf_output_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;

	atomic_set(&handle->rb->poll, EPOLLIN | EPOLLRDNORM);
	/* The kernel queues event->pending_irq here; pmusim's event core acts on the flag. */
	WRITE_ONCE(event->pending_wakeup, 1);
	if (event->fasync && !event->pending_kill)
		event->pending_kill = POLL_IN;
}

/*
 * An NMI can write a record of its own between another writer's begin
 * and end on the same CPU. Writers therefore count themselves in
 * rb->nest, and only the outermost one publishes data_head and wakes
 * the reader: an inner writer's data_head would cover the bytes of the
 * writer it interrupted, which are not written yet.
 */
static __always_inline void
perf_output_get_handle(struct perf_output_handle *handle, struct perf_buffer *rb)
{
	preempt_disable();
	/*
	 * One increment, no interleaving point inside: the kernel uses a
	 * single read-modify-write instruction, which no NMI can split.
	 */
	WRITE_ONCE(rb->nest, READ_ONCE(rb->nest) + 1);
	handle->wakeup = local_read(&rb->wakeup);
}

/* Inline in perf_output_end(), the record path; a call from the no-room path. */
static __always_inline void perf_output_put_handle(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long head;
	unsigned int nest;

	nest = READ_ONCE(rb->nest);
	perf_interleave(PI_PUT_HANDLE_READ_NEST, rb);
	if (nest > 1) {
		/* The writer we interrupted publishes our record with its own. */
		WRITE_ONCE(rb->nest, nest - 1);
		goto out;
	}

again:
	/*
	 * head is read only once nest counts us (get_handle, or the retry
	 * below). A writer nesting earlier than that has published for
	 * itself; a head read before its reservation would take data_head
	 * backwards.
	 */
	barrier();
	head = local_read(&rb->head);
	/* A nested writer may reserve from here on; the re-check below sees it. */
	perf_interleave(PI_PUT_HANDLE_READ_HEAD, rb);

	/*
	 * The reader runs on another CPU. Four orderings make the exchange
	 * safe:
	 *
	 *   writer                                reader
	 *   load data_tail, room for the record?  load data_head
	 *     (A) only then                         (C) only then
	 *   store the record                      load the record
	 *     (B) only then                         (D) only then
	 *   store data_head                       store data_tail
	 *
	 * B pairs with C: a reader that sees our data_head sees the bytes
	 * below it. B keeps stores before a store and C loads before loads,
	 * so a write and a read barrier are enough.
	 *
	 * A pairs with D: we store over bytes only after data_tail said the
	 * reader has loaded them. D keeps loads before a store, so it must
	 * be a full barrier (or a release store of data_tail). The kernel
	 * gets A from the branch on the space check: no CPU lets a store
	 * be seen before the branch it depends on is resolved.
	 *
	 * In core/kernel.h's C11 terms: B is smp_wmb(), a release fence
	 * before the relaxed store of data_head; C is the reader's
	 * smp_load_acquire() of data_head (or smp_rmb()); D is its
	 * smp_mb() or smp_store_release() of data_tail. C11 knows no
	 * control dependency, so A is smp_rmb(), an acquire fence after the
	 * last relaxed load of data_tail in __perf_output_begin(): no
	 * instruction on x86, and it makes A-D an edge ThreadSanitizer sees.
	 * Overwrite mode reads no data_tail and has no A.
	 */
	smp_wmb(); /* B, pairs with C */
	WRITE_ONCE(rb->user_page->data_head, (u64)head);
	perf_interleave(PI_PUT_HANDLE_PUBLISHED, rb);

	/*
	 * Publish before dropping nest: once nest is 0 a nested writer
	 * publishes its newer head itself, and our older value stored after
	 * it would take data_head back.
	 */
	barrier();
	WRITE_ONCE(rb->nest, 0);
	perf_interleave(PI_PUT_HANDLE_NEST_CLEARED, rb);

	/*
	 * Compare head only after nest is 0: a writer that reserved after our
	 * read of head while nest was still 1 left its record for us to
	 * publish. Go round again as the outermost writer.
	 */
	barrier();
	if (unlikely(head != (unsigned long)local_read(&rb->head))) {
		WRITE_ONCE(rb->nest, 1);
		goto again;
	}
	perf_interleave(PI_PUT_HANDLE_DONE, rb);

	if (handle->wakeup != (unsigned long)local_read(&rb->wakeup))
		perf_output_wakeup(handle);

out:
	preempt_enable();
}

static __always_inline bool
ring_buffer_has_space(unsigned long head, unsigned long tail,
		      unsigned long data_size, unsigned int size,
		      bool backward)
{
	if (!backward)
		return CIRC_SPACE(head, tail, data_size) >= size;
	return CIRC_SPACE(tail, head, data_size) >= size;
}

/*
 * The LOST record that rides in front of the writer's record, and the
 * writer that found no room: rare, so out of line, which leaves the
 * record path without a call and without a stack frame.
 */
static noinline void
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

static noinline __cold int
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

static __always_inline int
__perf_output_begin(struct perf_output_handle *handle,
		    struct perf_sample_data *data,
		    struct perf_event *event, unsigned int size,
		    bool backward)
{
	struct perf_buffer *rb;
	unsigned long tail, offset, head;
	int have_lost, page_shift;
	bool overwrite;

	rcu_read_lock();
	/* An inherited event writes into its parent's buffer. */
	if (event->parent)
		event = event->parent;

	rb = READ_ONCE(event->rb);
	if (unlikely(!rb))
		goto out;
	perf_interleave(PI_OUTPUT_BEGIN_ENTER, rb);

	if (unlikely(READ_ONCE(rb->paused))) {
		/* Every record refused while paused shows in the next LOST. */
		if (rb->nr_pages) {
			local_inc(&rb->lost);
			atomic64_inc(&event->lost_samples);
		}
		goto out;
	}
	perf_interleave(PI_OUTPUT_BEGIN_NOT_PAUSED, rb);

	handle->rb = rb;
	handle->event = event;
	handle->flags = 0;

	/*
	 * The LOST record rides in front of this one. have_lost is only a
	 * hint (and an int, as in the kernel): the count itself is taken
	 * after the reservation, and a nested writer may take it first.
	 */
	have_lost = local_read(&rb->lost);
	perf_interleave(PI_OUTPUT_BEGIN_READ_LOST, rb);
	if (unlikely(have_lost)) {
		size += PERF_OUTPUT_LOST_SIZE;
		if (event->attr.sample_id_all)
			size += event->id_header_size;
	}

	perf_output_get_handle(handle, rb);
	perf_interleave(PI_OUTPUT_BEGIN_GOT_HANDLE, rb);

	/* Set once by rb_alloc(): read it once, not on every pass. */
	overwrite = rb->overwrite;
	offset = local_read(&rb->head);
	do {
		head = offset;
		/* Only the space check needs data_tail: overwrite mode leaves it unread. */
		if (!overwrite)
			tail = READ_ONCE(rb->user_page->data_tail);
		perf_interleave(PI_OUTPUT_BEGIN_READ_TAIL, rb);
		/* A garbage data_tail is only masked: it costs records, never memory. */
		if (!overwrite) {
			if (unlikely(!ring_buffer_has_space(head, tail,
							    perf_data_size(rb),
							    size, backward)))
				return perf_output_begin_failed(handle, event);
			/*
			 * A, pairs with D (see perf_output_put_handle()): after
			 * every load of data_tail, so after the last one too. Here
			 * rather than after the loop: a test of overwrite there
			 * cost the backward path a jump to a jump.
			 */
			smp_rmb();
		}
		perf_interleave(PI_OUTPUT_BEGIN_CMPXCHG, rb);

		if (!backward)
			head += size;
		else
			head -= size;
		/* A retry means a nested writer reserved in between: rare. */
	} while (unlikely(!local_try_cmpxchg(&rb->head, (long *)&offset, (long)head)));

	perf_interleave(PI_OUTPUT_BEGIN_RESERVED, rb);

	/*
	 * We own [offset, head) going forward, [head, offset) going
	 * backward, where the record starts at the new head. For the
	 * watermark a backward head counts the bytes written: -head.
	 *
	 * Going forward, offset is taken again as head - size: the same
	 * value, but the cmpxchg leaves offset in its output register, so
	 * the record's address would wait for the cmpxchg to complete;
	 * head was ready before it (as the backward start always is).
	 */
	if (backward) {
		offset = head;
		head = -head;
	} else {
		offset = head - size;
	}

	/* One watermark step per record, however large the record. */
	if (unlikely(head - (unsigned long)local_read(&rb->wakeup) >
		     (unsigned long)rb->watermark))
		local_add(rb->watermark, &rb->wakeup);
	perf_interleave(PI_OUTPUT_BEGIN_WAKEUP_CHECKED, rb);

	page_shift = PAGE_SHIFT + page_order(rb);
	handle->page = (offset >> page_shift) & (rb->nr_pages - 1);
	offset &= (1UL << page_shift) - 1;
	handle->addr = (char *)rb->data_pages[handle->page] + offset;
	handle->size = (1UL << page_shift) - offset;

	if (unlikely(have_lost))
		perf_output_lost(handle, data, event);

	return 0;

out:
	rcu_read_unlock();
	return -ENOSPC;
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
	perf_interleave(PI_OUTPUT_END_ENTER, handle->rb);
	perf_output_put_handle(handle);
	rcu_read_unlock();
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
	for (i = 0; i < nr_pages; i++)
		rb->data_pages[i] = (void *)(base + (i + 1) * PAGE_SIZE);
	rb->nr_pages = nr_pages;

	ring_buffer_init(rb, watermark, flags);

	/* What perf_mmap() tells user space about the data area. */
	rb->user_page->data_offset = PAGE_SIZE;
	rb->user_page->data_size = perf_data_size(rb);

	return rb;
}

void rb_free(struct perf_buffer *rb)
{
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
