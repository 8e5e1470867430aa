// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space reader cost (tools/lib/perf/mmap_read.c): bytes of records parsed per
 * second by the forward reader with data_tail, the backward reader of an
 * overwrite buffer and the copy-then-verify reader, against memcpy() of
 * the same bytes out of the same ring. A buffer is filled once by the
 * real writer (perf_output_begin/copy/end) and read again and again:
 * the readers leave the bytes in place, so every pass parses the same
 * records. "Parsing" is what a consumer must do at least: take the
 * record's type and size and load its first field. The readers are
 * driven through their batch iterators (tools/lib/perf/mmap_read.h), as perf record
 * drains a buffer: data_head once, all records, data_tail once.
 *
 * Also the cost of copy-then-verify over the plain backward reader, the
 * price the write-backward seed's discussion puts on reading a buffer
 * that is not paused.
 *
 * With a kernel tree, libperf's own reader (tools/lib/perf/mmap.c,
 * tools/lib/perf/mmap_libperf.h) in the same run: perf top's forward loop
 * (read_event and consume per record) and perf record --overwrite's
 * backward read (from a fresh prev: overwrite_rb_find_range, then
 * read_event), and its cost per record next to pmusim's reader of the
 * same buffer.
 */
#include "core/internal.h"
#include "tools/lib/perf/mmap_read.h"
#include "tools/lib/perf/mmap_libperf.h"
#include "bench/bench.h"

#define READER_PAGES	8

struct reader_bench {
	struct perf_event event;
	struct perf_buffer *rb;
	struct perf_mmap_reader reader;
	struct perf_mmap_libperf lp;	/* the libperf kinds */
	int kind;			/* enum reader_kind */
	uint64_t bytes;			/* bytes one pass delivers */
	uint64_t sum;			/* what parsing computed: kept live */
};

enum reader_kind { READ_FORWARD, READ_BACKWARD, READ_VERIFY, READ_FLOOR, READ_LIBPERF_FORWARD,
		   READ_LIBPERF_BACKWARD, NR_READERS };

static const char *const reader_names[NR_READERS] = {
	[READ_FORWARD] = "forward with tail",
	[READ_BACKWARD] = "backward overwrite",
	[READ_VERIFY] = "copy-then-verify",
	[READ_FLOOR] = "floor",
	[READ_LIBPERF_FORWARD] = "libperf forward consume",
	[READ_LIBPERF_BACKWARD] = "libperf backward overwrite",
};

/* pmusim's reader of the same buffer as a libperf kind */
static const int pmusim_counterpart[NR_READERS] = {
	[READ_LIBPERF_FORWARD] = READ_FORWARD,
	[READ_LIBPERF_BACKWARD] = READ_BACKWARD,
};

static void fill(struct reader_bench *b, unsigned int size, bool backward)
{
	static const char payload[1024];
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER, .size = (u16)size,
	};
	unsigned long n = backward ? 3 * READER_PAGES * PAGE_SIZE / size : ~0UL;
	struct perf_output_handle handle;

	/* Forward: until the buffer is full. Backward: wrap it a few times. */
	for (unsigned long i = 0; i < n; i++) {
		if (perf_output_begin(&handle, NULL, &b->event, size))
			break;
		perf_output_put(&handle, hdr);
		perf_output_copy(&handle, payload, size - sizeof(hdr));
		perf_output_end(&handle);
	}
}

/*
 * What a consumer must do at least: take the type and size, load the
 * first field. The sum is a local, as a consumer's would be: kept in
 * b->sum, every record would store and reload it.
 */
static inline u64 parse(const struct perf_event_header *rec, size_t size)
{
	u64 first;

	memcpy(&first, rec + 1, sizeof(first));
	return rec->type + size + first;
}

/*
 * The passes use the batch iterators (no callback): data_head read once,
 * every record walked, data_tail published once (forward). Each has its
 * own function so that its iterator stays a register-held local.
 */
static enum perf_mmap_read_status pass_forward(struct reader_bench *b)
{
	struct perf_mmap_reader *r = &b->reader;
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	size_t size = 0;
	u64 sum = 0;

	/* The same records again: the reader and data_tail back at 0. */
	r->prev = 0;
	perf_mmap__write_tail(r->pg, 0);
	if (perf_mmap_reader__read_init(r, &it) != PERF_MMAP_READ_END)
		return r->status;
	while ((rec = perf_mmap_reader__read_event(r, &it, &size)))
		sum += parse(rec, size);
	perf_mmap_reader__read_done(r, &it);
	b->sum += sum;
	return r->status;
}

static enum perf_mmap_read_status pass_backward(struct reader_bench *b)
{
	struct perf_mmap_reader *r = &b->reader;
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	size_t size = 0;
	u64 sum = 0;

	if (perf_mmap_reader__read_init_backward(r, &it) != PERF_MMAP_READ_END)
		return r->status;
	while ((rec = perf_mmap_reader__read_event_backward(r, &it, &size)))
		sum += parse(rec, size);
	perf_mmap_reader__read_done_backward(r, &it);
	b->sum += sum;
	return r->status;
}

static enum perf_mmap_read_status pass_verify(struct reader_bench *b)
{
	struct perf_mmap_reader *r = &b->reader;
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	size_t size = 0;
	u64 sum = 0;

	if (perf_mmap_reader__read_init_verify(r, &it) != PERF_MMAP_READ_END)
		return r->status;
	while ((rec = perf_mmap_reader__read_event_verify(r, &it, &size)))
		sum += parse(rec, size);
	b->sum += sum;
	return r->status;
}

/*
 * The floor: what any reader of the protocol must do for these records,
 * and nothing more. data_head loaded once (acquire), each record's size
 * loaded (the next record is where it says) and the record parsed,
 * data_tail stored once (release). No check of a size, no end of the
 * data to wrap at (the forward fill starts at 0 and stops short of it),
 * no stats. The size is compared with the last one and the position
 * moved by the register, as the readers' fast path does
 * (perf_mmap_iter__fast): moved by the loaded size, every record would
 * wait for the load of the one before. A figure, not a reader: it says
 * how close the readers are to the least that reading costs on the host.
 */
/*
 * Out of line so that it stays a branch: "if (size != last) last = size"
 * inline is "last = size", and the walk would wait on every load again.
 */
static noinline u64 floor_new_size(const struct perf_event_header *rec)
{
	return rec->size;
}

static enum perf_mmap_read_status pass_floor(struct reader_bench *b)
{
	struct perf_mmap_reader *r = &b->reader;
	u64 head = perf_mmap__read_head(r->pg), last = 0, sum = 0;
	const unsigned char *p = r->data, *end = r->data + head;

	if (head > r->size) {
		fprintf(stderr, "bench_readers: floor: the records wrap\n");
		exit(1);
	}
	while (p != end) {
		const struct perf_event_header *rec = (const void *)p;

		if (__builtin_expect(rec->size != last, 0))
			last = floor_new_size(rec);
		__asm__("" : "+r"(last));
		sum += parse(rec, last);
		p += last;
	}
	perf_mmap__write_tail(r->pg, head);
	r->stats.bytes = head;
	b->sum += sum;
	return PERF_MMAP_READ_END;
}

/* libperf's calls go through its callback interface: the parse is the callback. */
static int parse_cb(const struct perf_event_header *rec, size_t size, void *arg)
{
	*(u64 *)arg += parse(rec, size);
	return 0;
}

static enum perf_mmap_read_status pass_libperf(struct reader_bench *b)
{
	enum perf_mmap_read_status st;
	u64 sum = 0;

	if (b->kind == READ_LIBPERF_FORWARD) {
		perf_mmap_libperf__set_prev(&b->lp, 0);
		perf_mmap__write_tail(b->lp.pg, 0);
		st = perf_mmap_libperf__read_forward(&b->lp, 0, parse_cb, &sum);
	} else {
		st = perf_mmap_libperf__read_backward(&b->lp, true, parse_cb, &sum);
	}
	b->sum += sum;
	return st;
}

static void read_pass(struct reader_bench *b)
{
	enum perf_mmap_read_status st;

	switch (b->kind) {
	case READ_LIBPERF_FORWARD:
	case READ_LIBPERF_BACKWARD:
		st = pass_libperf(b);
		break;
	case READ_FORWARD:
		st = pass_forward(b);
		break;
	case READ_BACKWARD:
		st = pass_backward(b);
		break;
	case READ_FLOOR:
		st = pass_floor(b);
		break;
	default:
		st = pass_verify(b);
		break;
	}
	/*
	 * A full backward window ends with the record that crossed its far
	 * end: the plain reader drops it, the verifying one reports it
	 * overwritten. Both are the normal end of a pass.
	 */
	if (st != PERF_MMAP_READ_END &&
	    !(b->kind == READ_VERIFY && st == PERF_MMAP_READ_RECORD_OVERWRITTEN)) {
		fprintf(stderr, "bench_readers: %s reader: %s\n", reader_names[b->kind],
			perf_mmap_read_status_name(st));
		exit(1);
	}
}

static void read_n(void *ctx, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		read_pass(ctx);
}

static void reader_setup(struct reader_bench *b, int kind, unsigned int size)
{
	bool backward = kind != READ_FORWARD && kind != READ_FLOOR &&
			kind != READ_LIBPERF_FORWARD;

	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->event.attr.size = sizeof(b->event.attr);
	b->event.attr.write_backward = backward;
	b->event.attr.sample_type = PERF_SAMPLE_IP;
	b->event.attr.watermark = 1;
	b->event.attr.wakeup_watermark = 1u << 30;
	b->rb = rb_alloc(READER_PAGES, 0, 0, backward ? 0 : RING_BUFFER_WRITABLE);
	if (!b->rb) {
		fprintf(stderr, "bench_readers: rb_alloc failed\n");
		exit(1);
	}
	ring_buffer_attach(&b->event, b->rb);
	fill(b, size, backward);
	if (perf_mmap_reader__init(&b->reader, b->rb->user_page) ||
	    (kind >= READ_LIBPERF_FORWARD &&
	     perf_mmap_libperf__init(&b->lp, b->rb->user_page, backward, false))) {
		fprintf(stderr, "bench_readers: reader init failed\n");
		exit(1);
	}
	read_pass(b);
	b->bytes = kind >= READ_LIBPERF_FORWARD ? b->lp.stats.bytes : b->reader.stats.bytes;
}

static void reader_teardown(struct reader_bench *b)
{
	perf_mmap_reader__exit(&b->reader);
	if (b->kind >= READ_LIBPERF_FORWARD)
		perf_mmap_libperf__exit(&b->lp);
	ring_buffer_attach(&b->event, NULL);
}

/*
 * The baseline: memcpy() of the bytes a pass delivers, out of the same
 * ring, into a page-aligned buffer, as the ring's data is. A malloc()ed
 * destination sat wherever the allocations before it left the heap: 0,
 * 16, 32 or 48 bytes into a cache line, from one kind to the next and
 * from one commit to the next (the libperf kinds' larger struct moved
 * them), and glibc's memcpy of 32 KiB (rep movsb) is sensitive to it:
 * 665 ns aligned against 715-724 ns at 16-48 on the Xeon bench host,
 * and a misaligned destination is reported many times slower on AMD
 * Zen 3 and 4 with this glibc. The ratio moved with the baseline's luck.
 */
struct copy_bench {
	const unsigned char *src;
	unsigned char *dst;
	size_t bytes;
};

static void copy_n(void *ctx, uint64_t n)
{
	struct copy_bench *c = ctx;

	for (uint64_t i = 0; i < n; i++) {
		memcpy(c->dst, c->src, c->bytes);
		__asm__ volatile("" : : "r"(c->dst) : "memory");
	}
}

int main(void)
{
	static const unsigned int sizes[] = { 40, 800 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		double ns_per_record[NR_READERS], noise[NR_READERS];

		for (int kind = 0; kind < NR_READERS; kind++) {
			if (kind >= READ_LIBPERF_FORWARD && !perf_mmap_libperf__available())
				break;
			struct reader_bench *b = malloc(sizeof(*b));
			struct copy_bench c;
			struct bench_pair p;
			uint64_t records;
			char fig[96];

			reader_setup(b, kind, sizes[s]);
			records = b->bytes / sizes[s];
			c.src = b->reader.data;
			c.dst = aligned_alloc(PAGE_SIZE, ALIGN(b->bytes, PAGE_SIZE));
			if (!c.dst) {
				fprintf(stderr, "bench_readers: out of memory\n");
				exit(1);
			}
			c.bytes = b->bytes;
			memset(c.dst, 0, c.bytes);
			/* about 30 ms a round at 1 ns a byte */
			p = bench_compare(read_n, b, copy_n, &c, 30000000 / b->bytes + 1, 31);
			ns_per_record[kind] = p.value / (double)records;
			noise[kind] = p.noise;
			snprintf(fig, sizeof(fig), "readers %s %u B", reader_names[kind], sizes[s]);
			/* ns per pass to MB/s: bytes / ns * 1000 */
			/* libperf's rate and the floor are measured, not goals */
			bench_report(fig, "MB/s", (double)b->bytes / p.value * 1000.0,
				     (double)b->bytes / p.baseline * 1000.0, "memcpy same bytes",
				     kind >= READ_FLOOR ? GOAL_NONE : GOAL_AT_LEAST,
				     kind >= READ_FLOOR ? 0 : 0.5, p.noise);
			free(c.dst);
			reader_teardown(b);
			free(b);
		}
		{
			char fig[96];

			snprintf(fig, sizeof(fig), "readers copy-then-verify cost %u B", sizes[s]);
			bench_report(fig, "ns/record", ns_per_record[READ_VERIFY],
				     ns_per_record[READ_BACKWARD], "backward overwrite",
				     GOAL_NONE, 0, noise[READ_VERIFY] + noise[READ_BACKWARD]);
		}
		for (int kind = READ_LIBPERF_FORWARD; kind < NR_READERS &&
		     perf_mmap_libperf__available(); kind++) {
			int other = pmusim_counterpart[kind];
			char fig[96];

			snprintf(fig, sizeof(fig), "readers %s cost %u B", reader_names[kind], sizes[s]);
			bench_report(fig, "ns/record", ns_per_record[kind], ns_per_record[other],
				     reader_names[other], GOAL_NONE, 0, noise[kind] + noise[other]);
		}
	}
	return 0;
}
