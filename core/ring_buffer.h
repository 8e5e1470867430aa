/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ring_buffer.h - the record path of core/ring_buffer.c, inline: taking
 * and publishing the handle, reserving room for a record.
 *
 * The kernel calls perf_output_begin_forward() and perf_output_end() out
 * of line. pmusim inlines them where records are written by the million
 * (__perf_event_output() in core/sample.c, the ring-buffer benchmark),
 * with the direction a constant: 24 instructions fewer a record than
 * through the exported perf_output_begin() and perf_output_end(), which
 * are the same code out of line.
 *
 * Rare cases (a paused buffer, a LOST record, no room, a wakeup, a copy
 * that reaches the end of a page) stay out of line, and each is handed a
 * copy of the handle: a handle whose address never leaves its caller's
 * frame can live in registers, which saves the record path about ten
 * stores. A paused buffer and a LOST record to write cost the record
 * path one test between them (perf_output_begin_rare() does the rest).
 */
#ifndef PMUSIM_CORE_RING_BUFFER_H
#define PMUSIM_CORE_RING_BUFFER_H

#include "core/internal.h"
#include "core/testcase.h"

/* <linux/circ_buf.h>: bytes free between head and tail, one byte always kept free */
#define CIRC_CNT(head, tail, size)	(((head) - (tail)) & ((size) - 1))
#define CIRC_SPACE(head, tail, size)	CIRC_CNT((tail), ((head) + 1), (size))

/* A PERF_RECORD_LOST without its sample_id trailer: header, id, lost. */
#define PERF_OUTPUT_LOST_SIZE	(sizeof(struct perf_event_header) + 2 * sizeof(u64))

/* The out-of-line parts of the record path (core/ring_buffer.c). */
/* Reads @handle's rb and event, nothing else. */
void perf_output_wakeup(struct perf_output_handle *handle);
void perf_output_lost(struct perf_output_handle *handle, struct perf_sample_data *data,
		      struct perf_event *event);
__cold int perf_output_begin_failed(struct perf_output_handle *handle,
				    struct perf_event *event);
int perf_output_begin_rare(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event, struct perf_buffer *rb,
			   unsigned int size, bool backward, bool paused);

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
	 * One increment, no interleaving point inside: the kernel's volatile
	 * ++ is meant as one read-modify-write instruction, which no NMI (no
	 * signal, in the stress test) can split. GCC splits a volatile ++
	 * into a load, an add and a store, so x86 gets the instruction (as
	 * core/kernel.h's local_inc(); sanitizer builds the C11 spelling).
	 */
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
	__asm__ volatile("incl %0" : "+m"(rb->nest) : : "memory");
#else
	WRITE_ONCE(rb->nest, READ_ONCE(rb->nest) + 1);
#endif
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

	if (unlikely(handle->wakeup != (unsigned long)local_read(&rb->wakeup))) {
		/* A copy (see the top of this file) of what the wakeup reads. */
		struct perf_output_handle copy = { .rb = rb, .event = handle->event };

		perf_output_wakeup(&copy);
	}

out:
	preempt_enable();
}

static __always_inline bool
ring_buffer_has_space(unsigned long head, unsigned long tail,
		      unsigned long data_size, unsigned int size,
		      bool backward)
{
	/* the exact fit: a record that leaves the one kept byte and no more */
	if (!backward) {
		testcase(CIRC_SPACE(head, tail, data_size) == size);
		return CIRC_SPACE(head, tail, data_size) >= size;
	}
	testcase(CIRC_SPACE(tail, head, data_size) == size);
	return CIRC_SPACE(tail, head, data_size) >= size;
}

/*
 * Reserve @size bytes for a writer that found the buffer not paused:
 * take the handle, move head, check the watermark, point the handle at
 * the record. @have_lost is a constant: false on the record path, true
 * in perf_output_begin_rare(), which puts the LOST record in front.
 */
static __always_inline int
__perf_output_reserve(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, struct perf_buffer *rb,
		      unsigned int size, bool backward, bool have_lost)
{
	struct perf_output_handle copy;
	unsigned long tail, offset, head, data_size;
#ifndef CONFIG_PERF_USE_VMALLOC
	int page_shift;
#endif
	bool overwrite;

	handle->rb = rb;
	handle->event = event;
	handle->flags = 0;

	if (have_lost) {
		size += PERF_OUTPUT_LOST_SIZE;
		if (event->attr.sample_id_all)
			size += event->id_header_size;
	}

	perf_output_get_handle(handle, rb);
	perf_interleave(PI_OUTPUT_BEGIN_GOT_HANDLE, rb);

	/*
	 * Set once by rb_alloc(): read them once, not on every pass, and
	 * not again after the cmpxchg (whose memory clobber would make the
	 * compiler load them anew).
	 */
	overwrite = rb->overwrite;
	data_size = rb->data_mask + 1;
	offset = local_read(&rb->head);
	do {
		head = offset;
		/* Only the space check needs data_tail: overwrite mode leaves it unread. */
		if (!overwrite)
			tail = READ_ONCE(rb->user_page->data_tail);
		perf_interleave(PI_OUTPUT_BEGIN_READ_TAIL, rb);
		/* A garbage data_tail is only masked: it costs records, never memory. */
		if (!overwrite) {
			if (unlikely(!ring_buffer_has_space(head, tail, data_size,
							    size, backward)))
				goto no_space;
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
		/*
		 * head is offset - size, so GCC made -head size - offset: two
		 * subtractions, and size held in a register across the copy
		 * (which cost a spill of handle->wakeup). One negation instead.
		 * Hidden before offset takes it, so that no copy of the hidden
		 * value is needed beside it.
		 */
		OPTIMIZER_HIDE_VAR(head);
		offset = head;
		head = -head;
	} else {
		offset = head - size;
	}

	/* One watermark step per record, however large the record. */
	testcase(head - (unsigned long)local_read(&rb->wakeup) == (unsigned long)rb->watermark);
	if (unlikely(head - (unsigned long)local_read(&rb->wakeup) >
		     (unsigned long)rb->watermark))
		local_add(rb->watermark, &rb->wakeup);
	perf_interleave(PI_OUTPUT_BEGIN_WAKEUP_CHECKED, rb);

#ifdef CONFIG_PERF_USE_VMALLOC
	/*
	 * One data page, so no page to pick: its address is loaded without
	 * waiting for the reservation. The general form below gets page 0
	 * from offset through dependent shifts and then loads its address,
	 * all in front of the record's first store: 1.7 ns of an 800-byte
	 * record's 15 (bench_ringbuf).
	 */
	handle->page = 0;
	offset &= data_size - 1;
	handle->addr = (char *)rb->data_pages[0] + offset;
	handle->size = data_size - offset;
#else
	page_shift = PAGE_SHIFT + page_order(rb);
	handle->page = (offset >> page_shift) & (rb->nr_pages - 1);
	offset &= (1UL << page_shift) - 1;
	handle->addr = (char *)rb->data_pages[handle->page] + offset;
	handle->size = (1UL << page_shift) - offset;
#endif

	/* The rare calls get a copy of the handle: see the top of this file. */
	if (have_lost) {
		copy = *handle;
		perf_output_lost(&copy, data, event);
		*handle = copy;
	}

	return 0;

no_space:
	/*
	 * begin_failed() always returns -ENOSPC: said here as a constant.
	 * Handed back for the caller to test, its result was a way on to the
	 * copy with the page, address and size this path never sets: in a
	 * caller writing records in a loop, GCC kept the previous record's
	 * alive in callee-saved registers across every memcpy, and spilled
	 * the caller's own values instead (3 instructions a record).
	 */
	copy = *handle;
	perf_output_begin_failed(&copy, event);
	return -ENOSPC;
}

static __always_inline int
__perf_output_begin(struct perf_output_handle *handle,
		    struct perf_sample_data *data,
		    struct perf_event *event, unsigned int size,
		    bool backward)
{
	struct perf_output_handle copy;
	struct perf_buffer *rb;
	int paused, have_lost, ret;

	rcu_read_lock();
	/*
	 * An inherited event writes into its parent's buffer: its own rb is
	 * always NULL (ring_buffer_attach() warns at any other). So parent
	 * is looked at only when rb is NULL, and the record path, an event
	 * with a buffer, loads and tests rb alone.
	 */
	rb = READ_ONCE(event->rb);
	if (unlikely(!rb)) {
		if (!event->parent)
			goto out;
		event = event->parent;
		rb = READ_ONCE(event->rb);
		if (!rb)
			goto out;
	}
	perf_interleave(PI_OUTPUT_BEGIN_ENTER, rb);

	/*
	 * A paused buffer refuses the record; a count of lost records puts a
	 * LOST record in front of it. Both are rare, and both are read here
	 * so that one test sends either out of line. lost is read even when
	 * paused, where it goes unused (the two loads are unordered anyway);
	 * the interleaving points stay where the kernel's order has them.
	 * have_lost is only a hint (and an int, as in the kernel): the count
	 * itself is taken after the reservation, and a nested writer may
	 * take it first.
	 */
	paused = READ_ONCE(rb->paused);
	if (!paused)
		perf_interleave(PI_OUTPUT_BEGIN_NOT_PAUSED, rb);
	have_lost = local_read(&rb->lost);
	if (!paused)
		perf_interleave(PI_OUTPUT_BEGIN_READ_LOST, rb);
	if (likely(!(paused | have_lost)))
		return __perf_output_reserve(handle, data, event, rb, size,
					     backward, false);

	/* The rare calls get a copy of the handle: see the top of this file. */
	ret = perf_output_begin_rare(&copy, data, event, rb, size, backward, paused);
	if (!ret)
		*handle = copy;
	return ret;

out:
	rcu_read_unlock();
	return -ENOSPC;
}

/* perf_output_end(), inline. */
static __always_inline void __perf_output_end(struct perf_output_handle *handle)
{
	perf_interleave(PI_OUTPUT_END_ENTER, handle->rb);
	perf_output_put_handle(handle);
	rcu_read_unlock();
}

#endif /* PMUSIM_CORE_RING_BUFFER_H */
