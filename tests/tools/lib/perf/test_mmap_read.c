// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring-buffer readers of tools/lib/perf/mmap_read.c on hand-built buffers: a
 * control page and a small data area filled here record by record, with
 * data_head moved by hand (also between the verifying reader's steps),
 * and on pmusim's own ring buffer written through core/.
 */
#include "tests/test.h"

#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "tools/lib/perf/mmap_read.h"

#define DATA_SIZE	256UL
#define MAX_SEEN	64

struct buf {
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	uint64_t size;
};

struct seen {
	unsigned int nr;
	uint16_t size[MAX_SEEN];
	uint32_t tag[MAX_SEEN];		/* first payload word: where the record was written */
	uint64_t tail_at_call[MAX_SEEN];
	bool payload_ok[MAX_SEEN];
	struct perf_event_mmap_page *pg;
	unsigned int stop_after;
};

static struct buf *buf_new(uint64_t size)
{
	struct buf *b = calloc(1, sizeof(*b));
	void *mem = NULL;

	assert_non_null(b);
	assert_int_equal(posix_memalign(&mem, 4096, 4096 + size), 0);
	memset(mem, 0, 4096 + size);
	b->pg = mem;
	b->pg->data_offset = 4096;
	b->pg->data_size = size;
	b->data = (unsigned char *)mem + 4096;
	b->size = size;
	return b;
}

static void buf_free(struct buf *b)
{
	free(b->pg);
	free(b);
}

/* The byte a record written at @pos carries at payload offset @i. */
static unsigned char pattern(uint64_t pos, size_t i)
{
	return (unsigned char)(pos * 31 + i * 7 + 3);
}

/* A record of @size bytes at free-running position @pos, through the wrap. */
static void put_record(struct buf *b, uint64_t pos, uint32_t type, uint16_t size)
{
	struct perf_event_header hdr = { .type = type, .misc = 0, .size = size };
	unsigned char rec[PERF_MMAP_COPY_MAX];
	uint32_t tag = (uint32_t)pos;

	memcpy(rec, &hdr, sizeof(hdr));
	for (size_t i = sizeof(hdr); i < size; i++)
		rec[i] = pattern(pos, i);
	if (size >= 12)
		memcpy(rec + 8, &tag, sizeof(tag));
	for (size_t i = 0; i < size; i++)
		b->data[(pos + i) & (b->size - 1)] = rec[i];
}

static void set_head(struct buf *b, uint64_t head)
{
	__atomic_store_n(&b->pg->data_head, head, __ATOMIC_RELEASE);
}

static int record_seen(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct seen *s = arg;
	const unsigned char *p = (const unsigned char *)rec;
	uint32_t tag = 0;
	bool ok = true;

	assert_true(s->nr < MAX_SEEN);
	assert_int_equal(rec->size, size);
	if (size >= 12)
		memcpy(&tag, p + 8, sizeof(tag));
	for (size_t i = 12; i < size; i++)
		ok &= p[i] == pattern(tag, i);
	s->size[s->nr] = (uint16_t)size;
	s->tag[s->nr] = tag;
	s->payload_ok[s->nr] = ok;
	s->tail_at_call[s->nr] = s->pg ? s->pg->data_tail : 0;
	s->nr++;
	return s->stop_after && s->nr == s->stop_after;
}

/* ---- forward, non-overwrite -------------------------------------------- */

static void test_forward_moves_tail_only_after_each_callback(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	put_record(b, 0, PERF_RECORD_SAMPLE, 48);
	put_record(b, 48, PERF_RECORD_SAMPLE, 16);
	put_record(b, 64, PERF_RECORD_LOST, 24);
	set_head(b, 88);
	s.pg = b->pg;
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 3);
	/* During each callback the tail still protects the record being read. */
	assert_int_equal(s.tail_at_call[0], 0);
	assert_int_equal(s.tail_at_call[1], 48);
	assert_int_equal(s.tail_at_call[2], 64);
	assert_int_equal(b->pg->data_tail, 88);
	assert_int_equal(r.stats.records, 3);
	assert_int_equal(r.stats.bytes, 88);
	assert_int_equal(r.stats.copies, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_forward_reads_at_most_n_and_resumes(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	for (uint64_t pos = 0; pos < 160; pos += 32)
		put_record(b, pos, PERF_RECORD_SAMPLE, 32);
	set_head(b, 160);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 2, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 2);
	assert_int_equal(b->pg->data_tail, 64);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 5);
	assert_int_equal(s.tag[4], 128);
	assert_int_equal(b->pg->data_tail, 160);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_forward_reassembles_record_wrapping_the_end(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	/* Free-running positions of the second lap: 224 + 256 = 480. */
	put_record(b, 480, PERF_RECORD_SAMPLE, 96);	/* 32 bytes at the end, 64 at the start */
	put_record(b, 576, PERF_RECORD_SAMPLE, 16);
	b->pg->data_tail = 480;
	set_head(b, 592);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 2);
	assert_int_equal(s.size[0], 96);
	assert_int_equal(s.tag[0], 480);
	assert_true(s.payload_ok[0]);
	assert_int_equal(s.tag[1], 576);
	assert_int_equal(r.stats.copies, 1);
	assert_int_equal(b->pg->data_tail, 592);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_forward_reassembles_a_64k_record(void **state)
{
	struct buf *b = buf_new(131072);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	put_record(b, 131072 - 8, PERF_RECORD_SAMPLE, 65528);
	b->pg->data_tail = 131072 - 8;
	set_head(b, 131072 - 8 + 65528);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 1);
	assert_true(s.payload_ok[0]);
	assert_true(r.copy_size >= 65528 && r.copy_size <= PERF_MMAP_COPY_MAX);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_forward_detects_falling_a_buffer_behind(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	put_record(b, 0, PERF_RECORD_SAMPLE, 32);
	set_head(b, DATA_SIZE + 40);	/* the writer is more than a buffer ahead */
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s),
			 PERF_MMAP_READ_FELL_BEHIND);
	assert_int_equal(s.nr, 0);
	assert_int_equal(r.stats.fell_behind, 1);
	assert_int_equal(r.stats.skipped_bytes, DATA_SIZE + 40);
	assert_int_equal(b->pg->data_tail, DATA_SIZE + 40);
	/* Exactly one buffer behind is still readable. */
	b->pg->data_tail = 0;
	put_record(b, 0, PERF_RECORD_SAMPLE, DATA_SIZE);
	set_head(b, DATA_SIZE);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 1);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void check_garbage_stops(uint16_t bad_size, uint64_t head)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	put_record(b, 0, PERF_RECORD_SAMPLE, 32);
	put_record(b, 32, PERF_RECORD_SAMPLE, 16);
	((struct perf_event_header *)(b->data + 32))->size = bad_size;
	set_head(b, head);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 1);
	assert_int_equal(r.stats.bad_size, 1);
	/* The tail stays before the bad record: nothing past it was consumed. */
	assert_int_equal(b->pg->data_tail, 32);
	/* And it stays stopped rather than looping or skipping ahead. */
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 1);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_forward_stops_on_garbage_sizes(void **state)
{
	(void)state;
	check_garbage_stops(0, 64);		/* zero */
	check_garbage_stops(4, 64);		/* smaller than a header */
	check_garbage_stops(20, 64);		/* not 8-aligned */
	check_garbage_stops(40, 64);		/* past data_head */
	check_garbage_stops(16, 40);		/* data_head inside the record */
}

static void test_forward_stops_on_unaligned_tail(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	put_record(b, 0, PERF_RECORD_SAMPLE, 32);
	b->pg->data_tail = 4;
	set_head(b, 32);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&r, 0, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/* ---- batch iterators ---------------------------------------------------- */

static void test_batch_forward_publishes_the_tail_once(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	const struct perf_event_header *rec;
	struct perf_mmap_reader r;
	struct perf_mmap_iter it;
	struct seen s = { 0 };
	size_t size = 0;

	(void)state;
	put_record(b, 0, PERF_RECORD_SAMPLE, 48);
	put_record(b, 48, PERF_RECORD_SAMPLE, 16);
	put_record(b, 64, PERF_RECORD_SAMPLE, 16);
	put_record(b, 80, PERF_RECORD_LOST, 24);
	set_head(b, 104);
	s.pg = b->pg;
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_init(&r, &it), PERF_MMAP_READ_END);
	/* data_head is read once: a record published now waits for the next batch */
	put_record(b, 104, PERF_RECORD_SAMPLE, 24);
	set_head(b, 128);
	while ((rec = perf_mmap_reader__read_event(&r, &it, &size)))
		record_seen(rec, size, &s);
	assert_int_equal(r.status, PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 4);
	/* every record was read with data_tail still behind all of them */
	for (unsigned int i = 0; i < s.nr; i++) {
		assert_int_equal(s.tail_at_call[i], 0);
		assert_true(s.payload_ok[i]);
	}
	assert_int_equal(s.tag[3], 80);
	perf_mmap_reader__read_done(&r, &it);
	assert_int_equal(b->pg->data_tail, 104);
	assert_int_equal(r.prev, 104);
	assert_int_equal(r.stats.records, 4);
	assert_int_equal(r.stats.bytes, 104);
	assert_int_equal(perf_mmap_reader__read_init(&r, &it), PERF_MMAP_READ_END);
	assert_non_null(rec = perf_mmap_reader__read_event(&r, &it, &size));
	assert_int_equal(size, 24);
	assert_null(perf_mmap_reader__read_event(&r, &it, &size));
	perf_mmap_reader__read_done(&r, &it);
	assert_int_equal(b->pg->data_tail, 128);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/*
 * Records of one size in a row take read_event's short path; it must
 * still reassemble the one that wraps, and stop at one that is the same
 * size as the others but runs past data_head.
 */
static void test_batch_forward_same_size_run_wraps_and_stops_at_head(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	const struct perf_event_header *rec;
	struct perf_mmap_reader r;
	struct perf_mmap_iter it;
	struct seen s = { 0 };
	size_t size = 0;

	(void)state;
	for (uint64_t pos = 200; pos < 200 + 6 * 24; pos += 24)
		put_record(b, pos, PERF_RECORD_SAMPLE, 24);
	b->pg->data_tail = 200;
	set_head(b, 200 + 5 * 24 + 16);		/* inside the sixth record */
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_init(&r, &it), PERF_MMAP_READ_END);
	while ((rec = perf_mmap_reader__read_event(&r, &it, &size)))
		record_seen(rec, size, &s);
	assert_int_equal(r.status, PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 5);
	for (unsigned int i = 0; i < s.nr; i++) {
		assert_int_equal(s.size[i], 24);
		assert_int_equal(s.tag[i], 200 + 24 * i);
		assert_true(s.payload_ok[i]);
	}
	assert_int_equal(r.stats.copies, 1);	/* [248, 272) */
	assert_int_equal(r.stats.bad_size, 1);
	perf_mmap_reader__read_done(&r, &it);
	assert_int_equal(b->pg->data_tail, 200 + 5 * 24);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_peek_leaves_the_tail(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	put_record(b, 0, PERF_RECORD_SAMPLE, 32);
	put_record(b, 32, PERF_RECORD_SAMPLE, 32);
	set_head(b, 64);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__peek_forward(&r, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 2);
	assert_int_equal(b->pg->data_tail, 0);
	assert_int_equal(r.prev, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/* ---- forward, overwrite ------------------------------------------------- */

static void test_overwrite_forward_reads_until_lapped_then_resyncs(void **state)
{
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	for (uint64_t pos = 0; pos < 192; pos += 64)
		put_record(b, pos, PERF_RECORD_SAMPLE, 64);
	set_head(b, 192);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_overwrite_forward(&r, record_seen, &s),
			 PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 3);
	assert_int_equal(r.prev, 192);
	/* Lapped: the oldest whole record cannot be found; start over at head. */
	for (uint64_t pos = 192; pos < 192 + 320; pos += 64)
		put_record(b, pos, PERF_RECORD_SAMPLE, 64);
	set_head(b, 512);
	assert_int_equal(perf_mmap_reader__read_overwrite_forward(&r, record_seen, &s),
			 PERF_MMAP_READ_FELL_BEHIND);
	assert_int_equal(s.nr, 3);
	assert_int_equal(r.prev, 512);
	assert_int_equal(b->pg->data_tail, 0);	/* never written */
	put_record(b, 512, PERF_RECORD_SAMPLE, 16);
	set_head(b, 528);
	assert_int_equal(perf_mmap_reader__read_overwrite_forward(&r, record_seen, &s),
			 PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 4);
	assert_int_equal(s.tag[3], 512);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/* ---- backward ----------------------------------------------------------- */

/* Write @n records of @sizes backward from @head; returns the new head. */
static uint64_t write_backward(struct buf *b, uint64_t head, const uint16_t *sizes, int n)
{
	for (int i = 0; i < n; i++) {
		head -= sizes[i];
		put_record(b, head, PERF_RECORD_SAMPLE, sizes[i]);
	}
	set_head(b, head);
	return head;
}

/* The backward and verifying batches hand over what their callback readers do. */
static void test_batch_backward_and_verify_match_the_callback_readers(void **state)
{
	/* 328 bytes through 256: wraps, with one record across the end of the data */
	static const uint16_t sizes[] = { 40, 40, 40, 16, 16, 16, 56, 40, 40, 24 };
	struct buf *b = buf_new(DATA_SIZE);
	const struct perf_event_header *rec;
	struct perf_mmap_reader r, rc;
	struct perf_mmap_iter it;
	struct seen s = { 0 }, sc = { 0 };
	size_t size = 0;
	uint64_t head = write_backward(b, 0, sizes, 10);

	(void)state;
	assert_int_equal(perf_mmap_reader__init(&rc, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&rc, record_seen, &sc), PERF_MMAP_READ_END);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_init_backward(&r, &it), PERF_MMAP_READ_END);
	while ((rec = perf_mmap_reader__read_event_backward(&r, &it, &size)))
		record_seen(rec, size, &s);
	perf_mmap_reader__read_done_backward(&r, &it);
	assert_int_equal(r.status, PERF_MMAP_READ_END);
	assert_true(sc.nr > 3);
	assert_int_equal(s.nr, sc.nr);
	assert_memory_equal(s.tag, sc.tag, sizeof(s.tag[0]) * s.nr);
	assert_memory_equal(s.size, sc.size, sizeof(s.size[0]) * s.nr);
	for (unsigned int i = 0; i < s.nr; i++)
		assert_true(s.payload_ok[i]);
	assert_int_equal(s.tag[0], (uint32_t)head);
	assert_int_equal(r.stop, rc.stop);
	assert_memory_equal(&r.stats, &rc.stats, sizeof(r.stats));
	assert_int_equal(r.stats.dropped, 1);
	assert_int_equal(r.stats.copies, 1);	/* [-264, -224) crosses the end */
	perf_mmap_reader__exit(&r);

	memset(&s, 0, sizeof(s));
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_init_verify(&r, &it), PERF_MMAP_READ_END);
	while ((rec = perf_mmap_reader__read_event_verify(&r, &it, &size)))
		record_seen(rec, size, &s);
	/* the record across the window's end: the verifier says overwritten */
	assert_int_equal(r.status, PERF_MMAP_READ_RECORD_OVERWRITTEN);
	assert_int_equal(s.nr, sc.nr);
	assert_memory_equal(s.tag, sc.tag, sizeof(s.tag[0]) * s.nr);
	assert_int_equal(r.stop, rc.stop);
	assert_int_equal(r.stats.copies, s.nr);
	perf_mmap_reader__exit(&r);
	perf_mmap_reader__exit(&rc);
	buf_free(b);
}

static void test_backward_before_wrap_reads_head_to_zero_newest_first(void **state)
{
	static const uint16_t sizes[] = { 16, 48, 24, 64 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };
	uint64_t head = write_backward(b, 0, sizes, 4);

	(void)state;
	assert_int_equal((int64_t)head, -152);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(s.size[i], sizes[3 - i]);
		assert_true(s.payload_ok[i]);
	}
	assert_int_equal(r.stop, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_backward_after_wrap_drops_the_crossing_record(void **state)
{
	/* 7 records of 40 = 280 bytes > 256: the oldest is partly overwritten. */
	static const uint16_t sizes[] = { 40, 40, 40, 40, 40, 40, 40 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };
	uint64_t head = write_backward(b, 0, sizes, 7);

	(void)state;
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s), PERF_MMAP_READ_END);
	/* [head, head + 256) holds 6 whole records and the start of the 7th newest. */
	assert_int_equal(s.nr, 6);
	assert_int_equal(r.stats.dropped, 1);
	assert_int_equal(s.tag[0], (uint32_t)head);
	for (unsigned int i = 0; i < s.nr; i++)
		assert_true(s.payload_ok[i]);
	assert_int_equal(r.stop, head + 240);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_backward_exact_fit_reads_the_whole_buffer(void **state)
{
	static const uint16_t sizes[] = { 64, 64, 64, 64 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	write_backward(b, 0, sizes, 4);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 4);
	assert_int_equal(r.stats.dropped, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_backward_reassembles_a_wrapping_record(void **state)
{
	static const uint16_t sizes[] = { 200, 96 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	/* head -200 then -296: the 96-byte record spans [-296, -200) = offsets 216..255, 0..55 */
	write_backward(b, 0, sizes, 2);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 1);		/* the 200-byte one crosses the window */
	assert_int_equal(s.size[0], 96);
	assert_true(s.payload_ok[0]);
	assert_int_equal(r.stats.copies, 1);
	assert_int_equal(r.stats.dropped, 1);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_backward_stops_at_never_written_space_and_bad_sizes(void **state)
{
	static const uint16_t sizes[] = { 32, 32 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };
	uint64_t head;

	(void)state;
	/* A buffer that wrapped but whose older part is zero: stop at size 0. */
	head = write_backward(b, DATA_SIZE * 3, sizes, 2);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 2);
	assert_int_equal(r.stop, head + 64);
	/* Garbage after them: an unaligned size stops the walk with an error. */
	((struct perf_event_header *)(b->data + ((head + 64) & (DATA_SIZE - 1))))->size = 12;
	s.nr = 0;
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 2);
	/* Before the first wrap, a size running past 0 is garbage too. */
	memset(b->data, 0, DATA_SIZE);
	head = write_backward(b, 0, sizes, 2);
	((struct perf_event_header *)(b->data + (head & (DATA_SIZE - 1))))->size = 72;
	s.nr = 0;
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/* ---- copy-then-verify --------------------------------------------------- */

/* The layouts below put a whole 256-byte or one-page window in one chunk. */
_Static_assert(PERF_MMAP_VERIFY_CHUNK >= 4096, "a chunk holds a page");

struct mover {
	struct buf *b;
	enum perf_mmap_verify_step when;
	unsigned int nth;		/* move on the nth time @when comes */
	unsigned int calls;
	uint64_t by;			/* bytes the writer writes backward */
};

/* The writer runs between the reader's steps: new records, head moves down. */
static void move_head(struct perf_mmap_reader *reader, enum perf_mmap_verify_step step, void *arg)
{
	struct mover *m = arg;
	uint64_t head;

	(void)reader;
	if (step != m->when || ++m->calls != m->nth)
		return;
	head = m->b->pg->data_head;
	for (uint64_t done = 0; done < m->by; done += 16) {
		head -= 16;
		put_record(m->b, head, PERF_RECORD_SAMPLE, 16);
	}
	set_head(m->b, head);
}

static void test_verify_reads_a_quiet_buffer_like_backward(void **state)
{
	static const uint16_t sizes[] = { 40, 40, 40, 40, 40, 40, 40 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	write_backward(b, 0, sizes, 7);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_RECORD_OVERWRITTEN);
	/* The same 6 whole records; the 7th is refused as overwritten, not cut. */
	assert_int_equal(s.nr, 6);
	for (unsigned int i = 0; i < s.nr; i++)
		assert_true(s.payload_ok[i]);
	assert_int_equal(r.stats.overwritten, 1);
	perf_mmap_reader__exit(&r);

	/* Before the first wrap it reads to 0 and ends there. */
	memset(b->data, 0, DATA_SIZE);
	write_backward(b, 0, sizes, 3);
	s.nr = 0;
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 3);
	assert_int_equal(r.stop, 0);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_verify_detects_header_overwritten_between_steps(void **state)
{
	static const uint16_t sizes[] = { 64, 64, 64 };
	struct buf *b = buf_new(DATA_SIZE);
	struct mover m = { .b = b, .when = PERF_MMAP_VERIFY_CHUNK_COPIED, .nth = 1, .by = 192 };
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	/* head = -192; records at -192, -128, -64. */
	write_backward(b, 0, sizes, 3);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	r.step = move_head;
	r.step_arg = &m;
	/*
	 * The window [-192, 0) is one chunk. Once it is copied, 192 bytes
	 * are written: head = -384, and -384 + 256 = -128: the first record
	 * [-192, -128) is proven, the header's bytes [-128, -120) are gone.
	 */
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_HEADER_OVERWRITTEN);
	assert_int_equal(s.nr, 1);
	assert_int_equal((int64_t)r.stop, -128);
	assert_int_equal(r.stats.overwritten, 1);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_verify_detects_record_overwritten_between_steps(void **state)
{
	static const uint16_t sizes[] = { 64, 64, 64 };
	struct buf *b = buf_new(DATA_SIZE);
	struct mover m = { .b = b, .when = PERF_MMAP_VERIFY_CHUNK_COPIED, .nth = 1, .by = 96 };
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	write_backward(b, 0, sizes, 3);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	r.step = move_head;
	r.step_arg = &m;
	/*
	 * The chunk [-192, 0) is copied, then 96 bytes are written: head =
	 * -288 and -288 + 256 = -32. The second record's end -64 is still
	 * below it, so it is good; the third, [-64, 0), has its header
	 * proven but not its end.
	 */
	m.by = 96;
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_RECORD_OVERWRITTEN);
	assert_int_equal(s.nr, 2);
	assert_int_equal((int64_t)r.stop, -64);
	perf_mmap_reader__exit(&r);

	/* Now the move reaches into the second record. */
	memset(b->data, 0, DATA_SIZE);
	write_backward(b, 0, sizes, 3);
	m.calls = 0;
	m.by = 144;	/* head -336: -336 + 256 = -80, inside [-128, -64) */
	s.nr = 0;
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	r.step = move_head;
	r.step_arg = &m;
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_RECORD_OVERWRITTEN);
	assert_int_equal(s.nr, 1);
	assert_int_equal((int64_t)r.stop, -128);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

static void test_verify_guard_covers_unpublished_writes(void **state)
{
	static const uint16_t sizes[] = { 64, 64, 64, 64 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { 0 };

	(void)state;
	/* Full buffer: with a guard of one record the oldest is not trusted. */
	write_backward(b, 0, sizes, 4);
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	r.guard = 64;
	/* Its header lies in the guarded 64 bytes already. */
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_HEADER_OVERWRITTEN);
	assert_int_equal(s.nr, 3);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/* ---- through core/: pmusim's ring buffer writing between the steps ---- */

struct core_writer {
	struct perf_event event;
	struct perf_buffer *rb;
	unsigned int on_call;
	unsigned int calls;
	unsigned int records;
	unsigned int *seen;		/* records handed out so far */
	unsigned int seen_before;	/* ... when the writer went on */
};

static struct task_struct test_task = { .pid = 7, .tid = 7 };

static void core_write(struct core_writer *w, unsigned int n)
{
	while (n--) {
		struct perf_output_handle handle;
		struct perf_sample_data data;
		struct perf_event_header hdr = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 48 };
		u64 payload[5] = { 1, 2, 3, 4, 5 };

		perf_sample_data_init(&data, 0, 1);
		assert_int_equal(perf_output_begin(&handle, &data, &w->event, 48), 0);
		perf_output_put(&handle, hdr);
		perf_output_copy(&handle, payload, sizeof(payload));
		perf_output_end(&handle);
	}
}

static void core_step(struct perf_mmap_reader *reader, enum perf_mmap_verify_step step, void *arg)
{
	struct core_writer *w = arg;

	(void)reader;
	if (step == PERF_MMAP_VERIFY_CHUNK_COPIED && ++w->calls == w->on_call) {
		w->seen_before = *w->seen;
		core_write(w, w->records);
	}
}

static int count_48(const struct perf_event_header *rec, size_t size, void *arg)
{
	assert_int_equal(size, 48);
	assert_int_equal(rec->type, PERF_RECORD_SAMPLE);
	++*(unsigned int *)arg;
	return 0;
}

static void test_verify_on_core_ring_buffer_written_between_steps(void **state)
{
	struct perf_mmap_reader r;
	unsigned int n = 0;
	struct core_writer w = { .on_call = 1, .records = 40, .seen = &n };

	(void)state;
	pmusim_curr[0] = &test_task;
	w.rb = rb_alloc(1, 0, 0, 0);		/* one page, overwrite */
	assert_non_null(w.rb);
	w.event.attr.sample_type = PERF_SAMPLE_IP;
	w.event.attr.write_backward = 1;
	w.event.id = 1;
	ring_buffer_attach(&w.event, w.rb);
	core_write(&w, 100);			/* wrapped: 4800 bytes in 4096 */
	assert_int_equal(perf_mmap_reader__init(&r, w.rb->user_page), 0);
	r.step = core_step;
	r.step_arg = &w;
	/*
	 * The window [-4800, -704) is one chunk; 40 more records (1920
	 * bytes) land between its copy and the check.
	 */
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, count_48, &n),
			 PERF_MMAP_READ_RECORD_OVERWRITTEN);
	/*
	 * head went from -4800 to -6720, so only bytes below -6720 + 4096 =
	 * -2624 survive: records k = 0..44 at -4800 + 48k end at or below
	 * it; the 46th (at -2640) has its header but not its end.
	 */
	assert_int_equal(n, 45);
	assert_int_equal((int64_t)r.stop, -2640);
	perf_mmap_reader__exit(&r);
	ring_buffer_attach(&w.event, NULL);
	pmusim_curr[0] = NULL;
}

/* The same, with a window of four chunks and the writer going on at the second. */
static void test_verify_keeps_the_chunk_proven_before_the_writer_went_on(void **state)
{
	struct perf_mmap_reader r;
	unsigned int n = 0;
	struct core_writer w = { .on_call = 2, .records = 100, .seen = &n };

	(void)state;
	pmusim_curr[0] = &test_task;
	w.rb = rb_alloc(4, 0, 0, 0);		/* 16384 bytes, overwrite */
	assert_non_null(w.rb);
	w.event.attr.sample_type = PERF_SAMPLE_IP;
	w.event.attr.write_backward = 1;
	w.event.id = 1;
	ring_buffer_attach(&w.event, w.rb);
	core_write(&w, 400);			/* head -19200: window [-19200, -2816) */
	assert_int_equal(perf_mmap_reader__init(&r, w.rb->user_page), 0);
	r.step = core_step;
	r.step_arg = &w;
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, count_48, &n),
			 PERF_MMAP_READ_RECORD_OVERWRITTEN);
	/* The first chunk's whole records were handed out before the writer went on. */
	assert_int_equal(w.seen_before, PERF_MMAP_VERIFY_CHUNK / 48);
	/*
	 * Then head went to -24000: bytes below -24000 + 16384 = -7616
	 * survive, records k at -19200 + 48k with 48(k + 1) <= 11584: 241 of
	 * them; the 242nd, at -7632, crosses it. Its chunk had been copied
	 * after the writer moved, so it is refused, not handed out torn.
	 */
	assert_int_equal(n, 241);
	assert_int_equal((int64_t)r.stop, -7632);
	assert_int_equal(r.stats.records, 241);
	assert_int_equal(r.stats.copies, 241);
	assert_int_equal(r.stats.bytes, 241 * 48);
	assert_int_equal(r.stats.overwritten, 1);
	perf_mmap_reader__exit(&r);
	ring_buffer_attach(&w.event, NULL);
	pmusim_curr[0] = NULL;
}

/* Every record of a window, counted and checked, with a record > a chunk. */
struct tally {
	unsigned int nr;
	uint32_t tag[512];
	uint16_t size[512];
	bool all_ok;
	struct perf_mmap_reader *reader;	/* verify: check reader->stop */
};

static int record_tallied(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct tally *t = arg;
	const unsigned char *p = (const unsigned char *)rec;
	uint32_t tag;

	assert_true(t->nr < 512);
	assert_int_equal(rec->size, size);
	memcpy(&tag, p + 8, sizeof(tag));
	for (size_t i = 12; i < size; i++)
		t->all_ok &= p[i] == pattern(tag, i);
	if (t->reader)
		t->all_ok &= (uint32_t)(t->reader->stop - size) == tag;
	t->tag[t->nr] = tag;
	t->size[t->nr] = (uint16_t)size;
	t->nr++;
	return 0;
}

static void test_verify_walks_chunk_by_chunk_like_backward(void **state)
{
	/* Records cross the chunks' ends; one is longer than a chunk. */
	const uint16_t sizes[] = { 40, 56, 24, 40, 104, 40, 16, PERF_MMAP_VERIFY_CHUNK + 816, 40, 72 };
	const uint64_t data_size = 4 * PERF_MMAP_VERIFY_CHUNK;
	struct buf *b = buf_new(data_size);
	struct perf_mmap_reader r;
	struct tally t = { .all_ok = true }, tb = { .all_ok = true };
	uint64_t head = 0, bytes = 0, longest = 0;
	int n = 0;

	(void)state;
	while (-head < data_size + PERF_MMAP_VERIFY_CHUNK) {
		uint16_t size = sizes[n++ % 10];

		head = write_backward(b, head, &size, 1);
	}
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward(&r, record_tallied, &tb),
			 PERF_MMAP_READ_END);
	assert_int_equal(r.stats.dropped, 1);
	perf_mmap_reader__exit(&r);

	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	t.reader = &r;
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_tallied, &t),
			 PERF_MMAP_READ_RECORD_OVERWRITTEN);
	assert_true(t.all_ok);
	assert_true(tb.all_ok);
	assert_int_equal(t.nr, tb.nr);
	assert_memory_equal(t.tag, tb.tag, sizeof(t.tag[0]) * t.nr);
	assert_memory_equal(t.size, tb.size, sizeof(t.size[0]) * t.nr);
	for (unsigned int i = 0; i < t.nr; i++) {
		bytes += t.size[i];
		longest = t.size[i] > longest ? t.size[i] : longest;
	}
	assert_true(bytes > 3 * PERF_MMAP_VERIFY_CHUNK);
	assert_true(longest > PERF_MMAP_VERIFY_CHUNK);
	assert_int_equal(r.stats.records, t.nr);
	assert_int_equal(r.stats.copies, t.nr);
	assert_int_equal(r.stats.bytes, bytes);
	assert_int_equal(r.stop, head + bytes);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

/* A callback that stops: the records so far are counted, stop is after the last. */
static void test_verify_stopped_by_the_callback_accounts_what_it_handed_out(void **state)
{
	static const uint16_t sizes[] = { 40, 24, 40, 56 };
	struct buf *b = buf_new(DATA_SIZE);
	struct perf_mmap_reader r;
	struct seen s = { .stop_after = 3 };
	uint64_t head = write_backward(b, 0, sizes, 4);

	(void)state;
	assert_int_equal(perf_mmap_reader__init(&r, b->pg), 0);
	assert_int_equal(perf_mmap_reader__read_backward_verify(&r, record_seen, &s),
			 PERF_MMAP_READ_STOPPED);
	/* newest first: 56, 40, 24 */
	assert_int_equal(s.nr, 3);
	assert_int_equal(r.stop, head + 56 + 40 + 24);
	assert_int_equal(r.stats.records, 3);
	assert_int_equal(r.stats.copies, 3);
	assert_int_equal(r.stats.bytes, 56 + 40 + 24);
	perf_mmap_reader__exit(&r);
	buf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward_moves_tail_only_after_each_callback),
		cmocka_unit_test(test_forward_reads_at_most_n_and_resumes),
		cmocka_unit_test(test_forward_reassembles_record_wrapping_the_end),
		cmocka_unit_test(test_forward_reassembles_a_64k_record),
		cmocka_unit_test(test_forward_detects_falling_a_buffer_behind),
		cmocka_unit_test(test_forward_stops_on_garbage_sizes),
		cmocka_unit_test(test_forward_stops_on_unaligned_tail),
		cmocka_unit_test(test_batch_forward_publishes_the_tail_once),
		cmocka_unit_test(test_batch_forward_same_size_run_wraps_and_stops_at_head),
		cmocka_unit_test(test_batch_backward_and_verify_match_the_callback_readers),
		cmocka_unit_test(test_peek_leaves_the_tail),
		cmocka_unit_test(test_overwrite_forward_reads_until_lapped_then_resyncs),
		cmocka_unit_test(test_backward_before_wrap_reads_head_to_zero_newest_first),
		cmocka_unit_test(test_backward_after_wrap_drops_the_crossing_record),
		cmocka_unit_test(test_backward_exact_fit_reads_the_whole_buffer),
		cmocka_unit_test(test_backward_reassembles_a_wrapping_record),
		cmocka_unit_test(test_backward_stops_at_never_written_space_and_bad_sizes),
		cmocka_unit_test(test_verify_reads_a_quiet_buffer_like_backward),
		cmocka_unit_test(test_verify_detects_header_overwritten_between_steps),
		cmocka_unit_test(test_verify_detects_record_overwritten_between_steps),
		cmocka_unit_test(test_verify_guard_covers_unpublished_writes),
		cmocka_unit_test(test_verify_on_core_ring_buffer_written_between_steps),
		cmocka_unit_test(test_verify_keeps_the_chunk_proven_before_the_writer_went_on),
		cmocka_unit_test(test_verify_walks_chunk_by_chunk_like_backward),
		cmocka_unit_test(test_verify_stopped_by_the_callback_accounts_what_it_handed_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
