// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring-buffer output cost: perf_output_begin/copy/end of 40- and 800-byte
 * records, forward and backward, overwrite and not, in ns per record,
 * against a plain memcpy into a ring of the same size (the same bytes
 * moved, with the wrap split in two). Also, in "scale" mode, ns per
 * record as the buffer grows from 1 to 1024 pages.
 *
 * The writer is the one the sample path runs: the record path inline
 * (core/ring_buffer.h) with the direction a constant, as in
 * perf_event_output_forward() and _backward().
 */
#include "core/ring_buffer.h"
#include "bench/bench.h"

#include <math.h>

struct rb_bench {
	struct perf_event event;
	struct perf_buffer *rb;
	unsigned int size;		/* whole record, header included */
	unsigned int round;		/* rounds run: picks the stack offset */
	bool split;			/* header put, then the body (forward only) */
	bool floor;			/* the protocol alone: rb_write_floor() */
	unsigned long written;		/* records written: the consumer's clock */
	/* the record, header first; aligned, as a sample's u64 fields are */
	char payload[1024] __attribute__((aligned(64)));
};

static void rb_bench_setup(struct rb_bench *b, int pages, bool backward,
			   bool overwrite, unsigned int size)
{
	memset(b, 0, sizeof(*b));
	b->event.attr.size = sizeof(b->event.attr);
	b->event.attr.write_backward = backward;
	b->event.attr.sample_type = PERF_SAMPLE_IP;
	b->event.attr.watermark = 1;
	b->event.attr.wakeup_watermark = 1u << 30;
	/*
	 * As perf_mmap() passes it: the watermark clamps to the buffer's
	 * size, so one wakeup per buffer written, the fewest there can be.
	 */
	b->rb = rb_alloc(pages, b->event.attr.wakeup_watermark, 0,
			 overwrite ? 0 : RING_BUFFER_WRITABLE);
	if (!b->rb) {
		fprintf(stderr, "bench_ringbuf: rb_alloc failed\n");
		exit(1);
	}
	ring_buffer_attach(&b->event, b->rb);
	b->size = size;
	memset(b->payload, 0x5a, sizeof(b->payload));
	memcpy(b->payload, &(struct perf_event_header){
		.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER,
		.size = (u16)size }, sizeof(struct perf_event_header));
}

static struct rb_bench *rb_bench_new(int pages, bool backward, bool overwrite,
				     unsigned int size)
{
	struct rb_bench *b = aligned_alloc(64, sizeof(*b));

	if (!b) {
		fprintf(stderr, "bench_ringbuf: out of memory\n");
		exit(1);
	}
	rb_bench_setup(b, pages, backward, overwrite, size);
	return b;
}

/* A figure with records lost would time LOST records and -ENOSPC, not output. */
static void rb_bench_check_lost(struct rb_bench *b, const char *figure)
{
	long long lost = (long long)atomic64_read(&b->event.lost_samples);

	if (lost) {
		fprintf(stderr, "bench_ringbuf: %s: %lld records lost\n", figure, lost);
		exit(1);
	}
}

/* The event held the buffer's only reference: detaching frees it. */
static void rb_bench_free(struct rb_bench *b)
{
	ring_buffer_attach(&b->event, NULL);
	free(b);
}

/*
 * One record: begin, one copy of the whole record, end, as the memcpy
 * baseline moves it in one memcpy. With @split the header is put and
 * the body copied after it, as perf_output_sample() writes a sample
 * field by field. With @consumer (a buffer that is not overwritten) a
 * consumer that keeps up is modelled by moving data_tail to data_head
 * every 32 records, counted across calls: counted per call, a call that
 * ended mid-way left up to 63 records between updates, more than 32K
 * holds at 800 bytes, and records were lost (rb_bench_check_lost() now
 * makes that an error).
 */
static __always_inline void rb_write_records(struct rb_bench *b, uint64_t n,
					     bool backward, bool split, bool consumer)
{
	const unsigned int size = b->size;
	const char *record = b->payload;
	const struct perf_event_header *hdr = (const void *)record;
	struct perf_event_mmap_page *pg = b->rb->user_page;
	unsigned long written = b->written;

	for (uint64_t i = 0; i < n; i++) {
		/*
		 * A handle per record, as __perf_event_output() has one per
		 * call. One outside the loop kept the last record's fields
		 * alive into the next (the no-room path copies the handle
		 * whole): a spill and a reload around every memcpy.
		 */
		struct perf_output_handle handle;

		if (!__perf_output_begin(&handle, NULL, &b->event, size, backward)) {
			if (split) {
				perf_output_put(&handle, *hdr);
				perf_output_copy(&handle, record + sizeof(*hdr),
						 size - sizeof(*hdr));
			} else {
				perf_output_copy(&handle, record, size);
			}
			__perf_output_end(&handle);
		}
		if (consumer && (++written & 31) == 0)
			WRITE_ONCE(pg->data_tail, READ_ONCE(pg->data_head));
	}
	b->written = written;
}

/*
 * One instance per direction and mode, each a constant in it, as the
 * kernel picks the overflow handler once per event: the harness then
 * adds no test of its own to a record.
 */
#define RB_WRITE(name, backward, split, consumer)			\
static noinline void name(struct rb_bench *b, uint64_t n)		\
{									\
	rb_write_records(b, n, backward, split, consumer);		\
}
RB_WRITE(rb_write_forward, false, false, false)
RB_WRITE(rb_write_forward_tail, false, false, true)
RB_WRITE(rb_write_backward, true, false, false)
RB_WRITE(rb_write_backward_tail, true, false, true)
RB_WRITE(rb_write_forward_tail_split, false, true, true)

/*
 * The floor: what the nested-writer protocol itself asks of a record,
 * forward, and nothing else: count the writer in rb->nest; with a tail,
 * load data_tail, check the room and order the check before the stores
 * (A); reserve with a local cmpxchg of rb->head; copy the record (one
 * memcpy, two at the wrap); publish data_head after a write barrier (B);
 * count the writer out; read head again for a writer that nested in
 * between. No event, parent or pause to look at, no LOST record, no
 * watermark or wakeup, no page to pick (one contiguous area whose mask is
 * read once), no handle. The record path's figures less these are what
 * the kernel's bookkeeping costs there, which pmusim keeps; the consumer
 * is rb_write_records()' own.
 */
static __always_inline void rb_write_floor(struct rb_bench *b, uint64_t n, bool consumer)
{
	struct perf_buffer *rb = b->rb;
	struct perf_event_mmap_page *pg = rb->user_page;
	char *data = rb->data_pages[0];
	const unsigned long mask = perf_data_size(rb) - 1;
	const unsigned int size = b->size;
	const char *record = b->payload;
	unsigned long written = b->written;

	for (uint64_t i = 0; i < n; i++) {
		long offset, head;
		unsigned long off, first;

		WRITE_ONCE(rb->nest, READ_ONCE(rb->nest) + 1);
		offset = local_read(&rb->head);
		do {
			head = offset + size;
			if (consumer) {
				if (unlikely(CIRC_SPACE(offset, READ_ONCE(pg->data_tail),
							mask + 1) < size)) {
					/* for rb_bench_check_lost(), as a LOST would */
					atomic64_inc(&b->event.lost_samples);
					goto out;
				}
				smp_rmb();	/* A */
			}
		} while (unlikely(!local_try_cmpxchg(&rb->head, &offset, head)));
		off = (unsigned long)(head - size) & mask;
		first = mask + 1 - off;
		if (likely(first >= size)) {
			memcpy(data + off, record, size);
		} else {
			memcpy(data + off, record, first);
			memcpy(data, record + first, size - first);
		}
out:
		head = local_read(&rb->head);
again:
		smp_wmb();	/* B */
		WRITE_ONCE(pg->data_head, (u64)head);
		barrier();
		WRITE_ONCE(rb->nest, 0);
		barrier();
		if (unlikely(head != local_read(&rb->head))) {
			head = local_read(&rb->head);
			WRITE_ONCE(rb->nest, 1);
			goto again;
		}
		if (consumer && (++written & 31) == 0)
			WRITE_ONCE(pg->data_tail, READ_ONCE(pg->data_head));
	}
	b->written = written;
}

static noinline void rb_write_floor_overwrite(struct rb_bench *b, uint64_t n)
{
	rb_write_floor(b, n, false);
}

static noinline void rb_write_floor_tail(struct rb_bench *b, uint64_t n)
{
	rb_write_floor(b, n, true);
}

static void rb_write_dir(struct rb_bench *b, uint64_t n)
{
	bool tail = !b->rb->overwrite;

	if (b->floor)		/* measured forward only */
		(tail ? rb_write_floor_tail : rb_write_floor_overwrite)(b, n);
	else if (b->split)		/* measured forward with a tail only */
		rb_write_forward_tail_split(b, n);
	else if (is_write_backward(&b->event))
		(tail ? rb_write_backward_tail : rb_write_backward)(b, n);
	else
		(tail ? rb_write_forward_tail : rb_write_forward)(b, n);
}

/*
 * Where the stack sits against the ring changes what a record costs:
 * growing only the environment (which moves the stack) took the
 * backward/forward ratio of one binary from 1.05 to 0.82 and back,
 * we first took for 4K aliasing between the handle and the record bytes.
 * A later sweep of the event, the perf_buffer, the payload and the stack
 * over all 64 cache-line offsets of a page found at most ~10% (8.5-9.4
 * ns at 40 B; worst, an event straddling a page): the larger swings are
 * the host's slow spells (scripts/bench.sh). Each round still runs at
 * another stack offset, 64 bytes further, so a figure is the median
 * over placements rather than the luck of one.
 */
static void rb_write(void *ctx, uint64_t n)
{
	struct rb_bench *b = ctx;
	volatile char *pad = __builtin_alloca((b->round++ % 64) * 64 + 1);

	pad[0] = 0;
	rb_write_dir(b, n);
}

struct memcpy_ring {
	char *ring;
	unsigned long mask, head;
	unsigned int size;
	const char *payload;
};

static void memcpy_write(void *ctx, uint64_t n)
{
	struct memcpy_ring *m = ctx;

	for (uint64_t i = 0; i < n; i++) {
		unsigned long off = m->head & m->mask;
		unsigned long first = m->mask + 1 - off;

		if (first >= m->size) {
			memcpy(m->ring + off, m->payload, m->size);
		} else {
			memcpy(m->ring + off, m->payload, first);
			memcpy(m->ring, m->payload + first, m->size - first);
		}
		m->head += m->size;
		__asm__ volatile("" : : "r"(m->ring) : "memory");
	}
}

/*
 * The baseline writes @b's own data pages (one block in pmusim, in either
 * configuration) from @b's payload: the same memory on both sides. Rings
 * of their own gave memcpy 8 ns for 800 bytes in one process and 12 in
 * the next, which pages they got deciding (the ring and the payload do
 * not fit the 32K L1 together), and the ratio moved with it.
 */
static void memcpy_setup(struct memcpy_ring *m, struct rb_bench *b)
{
	m->ring = b->rb->data_pages[0];
	m->mask = perf_data_size(b->rb) - 1;
	m->head = 0;
	m->size = b->size;
	m->payload = b->payload;
}

/*
 * Make @b's buffer write in @backward's direction, as a new buffer at the
 * same addresses would: head, data_head, data_tail and the wakeup stamp
 * back to 0 (what the writer reads of the ring's bytes: nothing).
 */
static void rb_bench_set_direction(struct rb_bench *b, bool backward)
{
	struct perf_buffer *rb = b->rb;

	b->event.attr.write_backward = backward;
	local_set(&rb->head, 0);
	local_set(&rb->wakeup, 0);
	local_set(&rb->events, 0);
	WRITE_ONCE(rb->user_page->data_head, 0);
	WRITE_ONCE(rb->user_page->data_tail, 0);
	b->written = 0;		/* the consumer, too, starts on an empty buffer */
}

struct rb_direction_run {
	struct rb_bench *b;
	bool backward;
	unsigned int round;	/* own count: an allocation's count would */
				/* give the two directions different offsets */
};

static void rb_write_direction(void *ctx, uint64_t n)
{
	struct rb_direction_run *run = ctx;
	volatile char *pad = __builtin_alloca((run->round++ % 64) * 64 + 1);

	pad[0] = 0;
	if (run->b->event.attr.write_backward != run->backward)
		rb_bench_set_direction(run->b, run->backward);
	rb_write_dir(run->b, n);
}

/*
 * Backward against forward. Where the buffer, the payload and the event
 * sit in memory moves a record's cost by more than the direction does:
 * with two allocations A and B, "A backward / B forward" and "B backward
 * / A forward" came out 1.14 and 0.90 in one process, 0.92 and 1.09 in
 * another (800 B with a tail, the same binary), and measuring the two
 * directions one after the other let the host's load drift into the
 * ratio (a 1.078 that did not repeat). So each direction runs on both
 * allocations, the four runs alternated round by round, and each side is
 * the geometric mean of its two medians: a placement's factor is in both
 * sides and cancels from the ratio. The four runs of a round share one
 * stack offset, so the stack's placement cancels too. (Those with-tail
 * runs also lost records, more or fewer by the phase the warm-up left:
 * see rb_write_records(). Part of the spread was that.)
 */
static void direction_figure(int pages, unsigned int size, bool overwrite)
{
	enum { ROUNDS = 31 };
	struct rb_bench *a = rb_bench_new(pages, false, overwrite, size);
	struct rb_bench *b = rb_bench_new(pages, false, overwrite, size);
	struct rb_direction_run runs[4] = {
		{ a, true }, { b, true }, { a, false }, { b, false },
	};
	uint64_t iters = size > 100 ? 20000 : 50000;
	double t[4][ROUNDS], r[ROUNDS], bwd, fwd;
	char fig[96];

	for (int k = 0; k < 4; k++)	/* warm caches and branch predictors */
		rb_write_direction(&runs[k], iters / 4 + 1);
	for (int i = 0; i < ROUNDS; i++) {
		for (int k = 0; k < 4; k++)
			t[k][i] = bench_time(rb_write_direction, &runs[k], iters, 1);
		r[i] = sqrt((t[0][i] * t[1][i]) / (t[2][i] * t[3][i]));
	}
	for (int k = 0; k < 4; k++)
		bench_sort(t[k], ROUNDS);
	bwd = sqrt(t[0][ROUNDS / 2] * t[1][ROUNDS / 2]);
	fwd = sqrt(t[2][ROUNDS / 2] * t[3][ROUNDS / 2]);
	snprintf(fig, sizeof(fig), "ringbuf backward vs forward %u B %s",
		 size, overwrite ? "overwrite" : "with tail");
	bench_report(fig, "ns/record", bwd, fwd, "forward", GOAL_WITHIN, 0.05,
		     bench_spread(r, ROUNDS));
	rb_bench_check_lost(a, fig);
	rb_bench_check_lost(b, fig);
	rb_bench_free(a);
	rb_bench_free(b);
}

static void output_figure(int pages, unsigned int size, bool backward,
			  bool overwrite, bool split, bool floor)
{
	struct rb_bench *b = rb_bench_new(pages, backward, overwrite, size);
	struct memcpy_ring *m = malloc(sizeof(*m));
	struct bench_pair p;
	char fig[96];

	b->split = split;
	b->floor = floor;
	memcpy_setup(m, b);
	p = bench_compare(rb_write, b, memcpy_write, m, size > 100 ? 20000 : 50000, 31);
	if (floor)
		snprintf(fig, sizeof(fig), "ringbuf output floor %u B %s", size,
			 overwrite ? "overwrite" : "with tail");
	else
		snprintf(fig, sizeof(fig), "ringbuf output %u B %s %s%s", size,
			 backward ? "backward" : "forward",
			 overwrite ? "overwrite" : "with tail",
			 split ? ", header then body" : "");
	/*
	 * Reported, not judged: the split record (two copies against one)
	 * and the floor (the least a record can cost, no goal to meet).
	 */
	bench_report(fig, "ns/record", p.value, p.baseline, "memcpy ring",
		     split || floor ? GOAL_NONE : GOAL_AT_MOST, size == 40 ? 2.0 : 1.25, p.noise);
	rb_bench_check_lost(b, fig);
	rb_bench_free(b);
	free(m);
}

static void output_figures(void)
{
	static const unsigned int sizes[] = { 40, 800 };
	const int pages = 8;

	for (int s = 0; s < 2; s++) {
		for (int ow = 0; ow < 2; ow++)
			for (int bw = 0; bw < 2; bw++)
				/* backward + writable is legal but never used; still measured */
				output_figure(pages, sizes[s], bw, ow, false, false);
		/* A sample as perf_output_sample() writes it: the header, then the rest. */
		output_figure(pages, sizes[s], false, false, true, false);
		/* The protocol alone, forward, into each kind of buffer. */
		for (int ow = 0; ow < 2; ow++)
			output_figure(pages, sizes[s], false, ow, false, true);
	}
	/* The seed's claim, measured directly: backward and forward in alternation. */
	for (int s = 0; s < 2; s++)
		for (int ow = 0; ow < 2; ow++)
			direction_figure(pages, sizes[s], ow);
}

/*
 * ns per 40-byte record (backward, overwrite: no consumer to model) for
 * 2..1024 pages, each measured in alternation with a 1-page buffer.
 */
static void scale_figures(void)
{
	struct rb_bench *one = rb_bench_new(1, true, true, 40);

	for (int pages = 4; pages <= 1024; pages *= 4) {
		struct rb_bench *b = rb_bench_new(pages, true, true, 40);
		struct bench_pair p;
		char fig[96];

		/* the first pass over a big buffer faults its pages in */
		rb_write(b, (uint64_t)pages * PAGE_SIZE / 40 + 1);
		p = bench_compare(rb_write, b, rb_write, one, 50000, 31);
		snprintf(fig, sizeof(fig), "ringbuf scale %d pages", pages);
		bench_report(fig, "ns/record", p.value, p.baseline, "1 page",
			     GOAL_AT_MOST, 1.25, p.noise);
		rb_bench_free(b);
	}
	rb_bench_free(one);
}

int main(int argc, char **argv)
{
	bool scale = argc > 1 && !strcmp(argv[1], "scale");

	if (scale)
		scale_figures();
	else
		output_figures();
	return 0;
}
