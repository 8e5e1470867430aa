// SPDX-License-Identifier: GPL-2.0-only
/*
 * Samples in perf's order (tools/perf/util/ordered_events.c): by time,
 * equal times in the order queued; a queue already in time order
 * delivered as it is; a queue holding a sample without a time delivered
 * in file order. A deliver callback's non-zero return stops the flush and
 * is its result; a flushed queue is empty and takes samples again. A
 * delivered sample has what was kept of it, and nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "core/kernel.h"
#include "tools/perf/util/ordered_events.h"

static const struct perf_data_attr timed = {
	.attr = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME },
};
static const struct perf_data_attr untimed = {
	.attr = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID },
};

/* What the deliver callback saw: each sample's ip, in turn. */
struct seen {
	u64 ips[2048];
	size_t nr;
	size_t stop_at;			/* return 7 at this one (0: never) */
};

static int note(const struct ordered_event *event, void *arg)
{
	struct seen *seen = arg;
	struct perf_sample s;

	ordered_event__sample(event, &s);
	seen->ips[seen->nr++] = s.ip;
	return seen->nr == seen->stop_at ? 7 : 0;
}

static void queue(struct ordered_events *oe, const struct perf_data_attr *attr, u64 time, u64 ip)
{
	struct perf_sample s = { .ip = ip, .time = time, .pid = 1, .tid = 2 };

	assert_int_equal(ordered_events__queue(oe, &s, attr), 0);
}

static void by_time_then_file_order(void **state)
{
	static const u64 want[] = { 0x10, 0x20, 0x21, 0x22, 0x30, 0x40 };
	struct ordered_events oe;
	struct seen seen = { .nr = 0 };

	(void)state;
	ordered_events__init(&oe, note, &seen);
	queue(&oe, &timed, 300, 0x30);
	queue(&oe, &timed, 200, 0x20);
	queue(&oe, &timed, 100, 0x10);
	queue(&oe, &timed, 200, 0x21);
	queue(&oe, &timed, 400, 0x40);
	queue(&oe, &timed, 200, 0x22);
	assert_false(oe.sorted);
	assert_int_equal(ordered_events__flush(&oe), 0);
	assert_int_equal(seen.nr, 6);
	assert_memory_equal(seen.ips, want, sizeof(want));
	assert_int_equal(oe.nr, 0);

	/* flushed: the queue takes samples again, and they are in order */
	seen.nr = 0;
	queue(&oe, &timed, 5, 0x50);
	queue(&oe, &timed, 5, 0x51);
	queue(&oe, &timed, 6, 0x60);
	assert_true(oe.sorted);
	assert_int_equal(ordered_events__flush(&oe), 0);
	assert_int_equal(seen.nr, 3);
	assert_int_equal(seen.ips[0], 0x50);
	assert_int_equal(seen.ips[1], 0x51);
	assert_int_equal(seen.ips[2], 0x60);
	ordered_events__exit(&oe);
}

static void a_sample_without_time_keeps_the_file_order(void **state)
{
	struct ordered_events oe;
	struct seen seen = { .nr = 0 };

	(void)state;
	ordered_events__init(&oe, note, &seen);
	queue(&oe, &timed, 300, 0x30);
	queue(&oe, &untimed, 0, 0x99);
	queue(&oe, &timed, 100, 0x10);
	assert_false(oe.all_timed);
	assert_int_equal(ordered_events__flush(&oe), 0);
	assert_int_equal(seen.nr, 3);
	assert_int_equal(seen.ips[0], 0x30);
	assert_int_equal(seen.ips[1], 0x99);
	assert_int_equal(seen.ips[2], 0x10);
	ordered_events__exit(&oe);
}

static void the_callback_stops_the_flush(void **state)
{
	struct ordered_events oe;
	struct seen seen = { .nr = 0, .stop_at = 2 };

	(void)state;
	ordered_events__init(&oe, note, &seen);
	for (u64 i = 0; i < 5; i++)
		queue(&oe, &timed, 10 - i, 0x100 + i);
	assert_int_equal(ordered_events__flush(&oe), 7);
	assert_int_equal(seen.nr, 2);
	assert_int_equal(seen.ips[0], 0x104);
	assert_int_equal(seen.ips[1], 0x103);
	ordered_events__exit(&oe);
}

static const u8 chain[16] = { 1 }, branches[24] = { 2 };

/* The kept fields come back; the rest of the sample is 0. */
static int check_fields(const struct ordered_event *event, void *arg)
{
	struct perf_sample s;

	(void)arg;
	assert_ptr_equal(event->attr, &timed);
	assert_int_equal(event->seq, 0);
	ordered_event__sample(event, &s);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 7);
	assert_int_equal(s.tid, 8);
	assert_int_equal(s.time, 1234);
	assert_int_equal(s.callchain_nr, 2);
	assert_ptr_equal(s.callchain, chain);
	assert_int_equal(s.branch_nr, 1);
	assert_int_equal(s.hw_idx, 5);
	assert_true(s.no_hw_idx);
	assert_ptr_equal(s.branch_entries, branches);
	/* not kept */
	assert_int_equal(s.id, 0);
	assert_int_equal(s.cpu, 0);
	assert_int_equal(s.period, 0);
	assert_int_equal(s.addr, 0);
	assert_null(s.raw_data);
	assert_null(s.branch_counters);
	return 0;
}

static void a_delivered_sample_has_what_was_kept(void **state)
{
	struct perf_sample s;
	struct ordered_events oe;

	(void)state;
	memset(&s, 0xff, sizeof(s));
	s.ip = 0x401000;
	s.pid = 7;
	s.tid = 8;
	s.time = 1234;
	s.callchain_nr = 2;
	s.callchain = chain;
	s.branch_nr = 1;
	s.hw_idx = 5;
	s.no_hw_idx = true;
	s.branch_entries = branches;
	ordered_events__init(&oe, check_fields, NULL);
	assert_int_equal(ordered_events__queue(&oe, &s, &timed), 0);
	assert_int_equal(ordered_events__flush(&oe), 0);
	ordered_events__exit(&oe);
}

/* More samples than the room reserved: the queue grows, nothing is lost or reordered. */
static void many_samples(void **state)
{
	struct ordered_events oe;
	struct seen *seen = calloc(1, sizeof(*seen));

	(void)state;
	assert_non_null(seen);
	ordered_events__init(&oe, note, seen);
	assert_int_equal(ordered_events__reserve(&oe, 100), 0);
	assert_true(oe.cap >= 100);
	for (u64 i = 0; i < 2000; i++)
		queue(&oe, &timed, (i * 7919) % 2000, (i * 7919) % 2000);
	assert_int_equal(ordered_events__flush(&oe), 0);
	assert_int_equal(seen->nr, 2000);
	for (u64 i = 0; i < 2000; i++)
		assert_int_equal(seen->ips[i], i);
	ordered_events__exit(&oe);
	free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_time_then_file_order),
		cmocka_unit_test(a_sample_without_time_keeps_the_file_order),
		cmocka_unit_test(the_callback_stops_the_flush),
		cmocka_unit_test(a_delivered_sample_has_what_was_kept),
		cmocka_unit_test(many_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
