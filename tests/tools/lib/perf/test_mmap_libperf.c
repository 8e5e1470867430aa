// SPDX-License-Identifier: GPL-2.0-only
/*
 * libperf's own reader (tools/lib/perf/mmap.c of the kernel tree,
 * through tools/lib/perf/mmap_libperf.h) on a hand-built buffer, at the
 * one point of perf top's loop where a writer on another CPU shows what
 * it does: between read_event's last look at data_head and read_done.
 * The replayable input of the departure in README: a record published
 * there is never handed out, and the next consume moves data_tail past
 * it. pmusim's reader, on the same schedule, reads every record.
 */
#include "tests/test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/lib/perf/mmap_read.h"
#include "tools/lib/perf/mmap_libperf.h"

#define DATA_SIZE	256UL
#define REC_SIZE	16

struct buf {
	struct perf_event_mmap_page *pg;
	unsigned char *data;
};

static struct buf buf_new(void)
{
	void *mem = NULL;
	struct buf b;

	assert_int_equal(posix_memalign(&mem, 4096, 4096 + DATA_SIZE), 0);
	memset(mem, 0, 4096 + DATA_SIZE);
	b.pg = mem;
	b.pg->data_offset = 4096;
	b.pg->data_size = DATA_SIZE;
	b.data = (unsigned char *)mem + 4096;
	return b;
}

/* A 16-byte sample at @pos whose payload is @pos, then data_head past it. */
static void publish(struct buf *b, uint64_t pos)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = REC_SIZE };

	memcpy(b->data + (pos % DATA_SIZE), &h, sizeof(h));
	memcpy(b->data + (pos % DATA_SIZE) + sizeof(h), &pos, sizeof(pos));
	__atomic_store_n(&b->pg->data_head, pos + REC_SIZE, __ATOMIC_RELEASE);
}

struct seen {
	unsigned int nr;
	uint64_t pos[16];
};

static int record_seen(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct seen *s = arg;

	assert_int_equal(size, REC_SIZE);
	memcpy(&s->pos[s->nr++], rec + 1, sizeof(uint64_t));
	return 0;
}

static struct buf *hook_buf;

/* Another CPU publishes the record at 48 while perf top's loop is at read_done. */
static void publish_at_read_done(struct perf_mmap_libperf *lp, void *arg)
{
	(void)arg;
	if (lp->pg->data_head == 48)
		publish(hook_buf, 48);
}

static void test_libperf_read_done_skips_a_record_published_before_it(void **state)
{
	struct buf b = buf_new();
	struct perf_mmap_libperf lp;
	struct seen s = { 0 };

	(void)state;
	if (!perf_mmap_libperf__available()) {
		free(b.pg);
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	}
	for (uint64_t pos = 0; pos < 48; pos += REC_SIZE)
		publish(&b, pos);
	assert_int_equal(perf_mmap_libperf__init(&lp, b.pg, false, false), 0);
	hook_buf = &b;
	lp.before_read_done = publish_at_read_done;

	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 3);
	/* read_done took data_head anew: prev is past the record at 48, data_tail is not */
	assert_int_equal(perf_mmap_libperf__prev(&lp), 64);
	assert_int_equal(b.pg->data_tail, 48);
	assert_int_equal(lp.read_done_skips, 1);
	assert_int_equal(lp.read_done_skipped_bytes, REC_SIZE);

	publish(&b, 64);
	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, record_seen, &s), PERF_MMAP_READ_END);
	/* the record at 48 was never handed out, and data_tail has passed it */
	assert_int_equal(s.nr, 4);
	assert_int_equal(s.pos[3], 64);
	assert_int_equal(b.pg->data_tail, 80);
	perf_mmap_libperf__exit(&lp);
	free(b.pg);
}

static void test_pmusim_reader_reads_every_record_on_that_schedule(void **state)
{
	struct buf b = buf_new();
	struct perf_mmap_reader reader;
	struct seen s = { 0 };

	(void)state;
	for (uint64_t pos = 0; pos < 48; pos += REC_SIZE)
		publish(&b, pos);
	assert_int_equal(perf_mmap_reader__init(&reader, b.pg), 0);
	assert_int_equal(perf_mmap_reader__read_forward(&reader, 0, record_seen, &s), PERF_MMAP_READ_END);
	publish(&b, 48);	/* after its last look at data_head, as above */
	publish(&b, 64);
	assert_int_equal(perf_mmap_reader__read_forward(&reader, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 5);
	assert_int_equal(s.pos[3], 48);
	assert_int_equal(b.pg->data_tail, 80);
	perf_mmap_reader__exit(&reader);
	free(b.pg);
}

/* A data_size that is no power of two, too small or too large is refused by both readers. */
static void test_both_readers_refuse_a_bad_data_size(void **state)
{
	static const uint64_t bad[] = { 0, 4, 12, 384, 1ull << 31 };
	struct buf b = buf_new();
	struct perf_mmap_libperf lp;
	struct perf_mmap_reader reader;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b.pg->data_size = bad[i];
		if (bad[i] <= (1ull << 30))	/* pmusim's reader takes any power of two */
			assert_int_equal(perf_mmap_reader__init(&reader, b.pg), -EINVAL);
		if (perf_mmap_libperf__available())
			assert_int_equal(perf_mmap_libperf__init(&lp, b.pg, false, false), -EINVAL);
	}
	assert_string_equal(perf_mmap_read_status_name((enum perf_mmap_read_status)1000), "unknown");
	free(b.pg);
}

static int stop_after_two(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct seen *s = arg;

	record_seen(rec, size, arg);
	return s->nr == 2;
}

/* A callback that says stop: the reader ends there, its place kept for the next read. */
static void test_libperf_stops_where_the_callback_says(void **state)
{
	struct buf b = buf_new();
	struct perf_mmap_libperf lp;
	struct seen s = { 0 };

	(void)state;
	if (!perf_mmap_libperf__available()) {
		free(b.pg);
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	}
	for (uint64_t pos = 0; pos < 64; pos += REC_SIZE)
		publish(&b, pos);
	assert_int_equal(perf_mmap_libperf__init(&lp, b.pg, false, false), 0);
	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, stop_after_two, &s),
			 PERF_MMAP_READ_STOPPED);
	assert_int_equal(s.nr, 2);
	assert_int_equal(s.pos[1], 16);
	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 4);
	assert_int_equal(s.pos[3], 48);
	assert_int_equal(b.pg->data_tail, 64);
	/* prev set back: the last record is read again */
	perf_mmap_libperf__set_prev(&lp, 48);
	assert_int_equal(perf_mmap_libperf__prev(&lp), 48);
	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 5);
	assert_int_equal(s.pos[4], 48);
	perf_mmap_libperf__exit(&lp);
	free(b.pg);
}

/*
 * A forward buffer whose data_head is more than the buffer ahead of
 * prev (perf's "failed to keep up"): libperf's read_init moves prev and
 * data_tail to data_head and hands out nothing. A peek hands out nothing
 * either, and leaves prev where it was.
 */
static void test_libperf_overrun_forward_buffer_reads_nothing(void **state)
{
	struct buf b = buf_new();
	struct perf_mmap_libperf lp;
	struct seen s = { 0 };

	(void)state;
	if (!perf_mmap_libperf__available()) {
		free(b.pg);
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	}
	for (uint64_t pos = 0; pos < DATA_SIZE; pos += REC_SIZE)
		publish(&b, pos);
	b.pg->data_head = 2 * DATA_SIZE;
	assert_int_equal(perf_mmap_libperf__init(&lp, b.pg, false, true), 0);
	assert_false(lp.protect);	/* a forward buffer's page stays writable */
	assert_int_equal(perf_mmap_libperf__peek_forward(&lp, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 0);
	assert_int_equal(perf_mmap_libperf__prev(&lp), 0);
	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, record_seen, &s), PERF_MMAP_READ_END);
	assert_int_equal(s.nr, 0);
	assert_int_equal(perf_mmap_libperf__prev(&lp), 2 * DATA_SIZE);
	assert_int_equal(b.pg->data_tail, 2 * DATA_SIZE);
	assert_int_equal(lp.stats.bad_size, 0);
	perf_mmap_libperf__exit(&lp);
	free(b.pg);
}

/* A record of 4 bytes after a good one: one record, then BAD_SIZE, in each mode. */
static void test_libperf_refuses_a_record_smaller_than_its_header(void **state)
{
	struct perf_event_header tiny = { .type = PERF_RECORD_SAMPLE, .size = 4 };
	struct buf b = buf_new();
	struct perf_mmap_libperf lp;
	struct seen s = { 0 };

	(void)state;
	if (!perf_mmap_libperf__available()) {
		free(b.pg);
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	}
	publish(&b, 0);
	memcpy(b.data + REC_SIZE, &tiny, sizeof(tiny));
	b.pg->data_head = 2 * REC_SIZE;
	assert_int_equal(perf_mmap_libperf__init(&lp, b.pg, false, false), 0);
	assert_int_equal(perf_mmap_libperf__peek_forward(&lp, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 1);
	assert_int_equal(perf_mmap_libperf__prev(&lp), 0);
	assert_int_equal(perf_mmap_libperf__read_forward(&lp, 0, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 2);
	assert_int_equal(s.pos[1], 0);
	assert_int_equal(lp.stats.bad_size, 2);
	perf_mmap_libperf__exit(&lp);

	/*
	 * Backward: data_head at -32, the records read from there up to
	 * prev 0 (a fresh reader's window): the good one, then the tiny one.
	 */
	memset(b.data, 0, DATA_SIZE);
	b.pg->data_tail = 0;
	publish(&b, DATA_SIZE - 2 * REC_SIZE);
	memcpy(b.data + DATA_SIZE - REC_SIZE, &tiny, sizeof(tiny));
	b.pg->data_head = (uint64_t)-2 * REC_SIZE;
	s.nr = 0;
	assert_int_equal(perf_mmap_libperf__init(&lp, b.pg, true, true), 0);
	assert_true(lp.protect);
	assert_int_equal(perf_mmap_libperf__read_backward(&lp, true, record_seen, &s),
			 PERF_MMAP_READ_BAD_SIZE);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.pos[0], DATA_SIZE - 2 * REC_SIZE);
	assert_int_equal(lp.stats.bad_size, 1);
	perf_mmap_libperf__exit(&lp);
	free(b.pg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libperf_read_done_skips_a_record_published_before_it),
		cmocka_unit_test(test_pmusim_reader_reads_every_record_on_that_schedule),
		cmocka_unit_test(test_both_readers_refuse_a_bad_data_size),
		cmocka_unit_test(test_libperf_stops_where_the_callback_says),
		cmocka_unit_test(test_libperf_overrun_forward_buffer_reads_nothing),
		cmocka_unit_test(test_libperf_refuses_a_record_smaller_than_its_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
