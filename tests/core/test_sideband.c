// SPDX-License-Identifier: GPL-2.0-only
/*
 * Side-band records byte by byte, each with the full sample_id trailer,
 * delivered only to the events whose attr asked for them.
 */
#include "tests/test.h"
#include "core/sideband.h"
#include "records_fixture.h"

#define ID_ALL (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static struct perf_event *walk_events[2];

static void walk(perf_iterate_f fn, void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(walk_events); i++)
		if (walk_events[i])
			fn(walk_events[i], arg);
}

static void setup(struct perf_event *ev, struct perf_buffer **rb)
{
	fixture_event(ev, rb);
	ev->attr.sample_type = ID_ALL | PERF_SAMPLE_IP;
	ev->attr.sample_id_all = 1;
	fixture_sizes(ev);
	walk_events[0] = ev;
	walk_events[1] = NULL;
	perf_sb_for_each_event = walk;
}

/* TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER: 48 bytes. */
static void put_trailer(struct expect *e)
{
	put32(e, 100); put32(e, 101);
	put64(e, 123456789);
	put64(e, 7);
	put64(e, 7);
	put32(e, 3); put32(e, 0);
	put64(e, 7);
}

static void comm_and_comm_exec(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct task_struct t = { .pid = 5, .tid = 6, .comm = "abcdefgh" };
	struct expect e = { 0 };

	(void)state;
	setup(&ev, &rb);
	perf_event_comm(&t, false);		/* not asked for */
	ev.attr.comm = 1;
	perf_event_comm(&t, false);
	perf_event_comm(&t, true);
	for (int exec = 0; exec < 2; exec++) {
		put_header(&e, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, 8 + 8 + 16 + 48);
		put32(&e, 5); put32(&e, 6);
		put_bytes(&e, "abcdefgh\0\0\0\0\0\0\0\0", 16);
		put_trailer(&e);
	}
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void mmap2_mmap_and_data(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct perf_mmap_info exec = { .pid = 9, .tid = 10, .addr = 0x400000, .len = 0x2000,
				       .pgoff = 0x1000, .maj = 8, .min = 1, .ino = 1234,
				       .ino_generation = 2, .prot = 5, .flags = 2,
				       .filename = "/bin/x" };
	struct perf_mmap_info data = exec;
	struct expect e = { 0 };

	(void)state;
	data.prot = 3;
	data.filename = "/data/file.bin";
	setup(&ev, &rb);
	ev.attr.mmap2 = 1;
	perf_event_mmap(&data);			/* no mmap_data: skipped */
	perf_event_mmap(&exec);
	put_header(&e, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 8 + 32 + 32 + 8 + 48);
	put32(&e, 9); put32(&e, 10);
	put64(&e, 0x400000); put64(&e, 0x2000); put64(&e, 0x1000);
	put32(&e, 8); put32(&e, 1); put64(&e, 1234); put64(&e, 2); put32(&e, 5); put32(&e, 2);
	put_bytes(&e, "/bin/x\0\0", 8);
	put_trailer(&e);

	ev.attr.mmap2 = 0;
	ev.attr.mmap_data = 1;
	perf_event_mmap(&data);
	put_header(&e, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
		   8 + 32 + 16 + 48);
	put32(&e, 9); put32(&e, 10);
	put64(&e, 0x400000); put64(&e, 0x2000); put64(&e, 0x1000);
	put_bytes(&e, "/data/file.bin\0\0", 16);
	put_trailer(&e);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void fork_and_exit(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct task_struct parent = { .pid = 100, .tid = 101 };
	struct task_struct child = { .pid = 200, .tid = 201, .real_parent = &parent };
	struct expect e = { 0 };

	(void)state;
	setup(&ev, &rb);
	perf_event_task(&child, 1);		/* not asked for */
	ev.attr.task = 1;
	perf_event_task(&child, 1);
	perf_event_task(&child, 0);
	put_header(&e, PERF_RECORD_FORK, 0, 8 + 24 + 48);
	put32(&e, 200); put32(&e, 100); put32(&e, 201); put32(&e, 101); put64(&e, 123456789);
	put_trailer(&e);
	put_header(&e, PERF_RECORD_EXIT, 0, 8 + 24 + 48);
	put32(&e, 200); put32(&e, 100); put32(&e, 201); put32(&e, 100); put64(&e, 123456789);
	put_trailer(&e);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void switch_per_task_and_cpu_wide(void **state)
{
	struct perf_event ev, wide;
	struct perf_buffer *rb, *rb2;
	struct task_struct prev = { .pid = 100, .tid = 101, .on_rq = 1 };
	struct task_struct next = { .pid = 300, .tid = 301 };
	struct expect e = { 0 }, w = { 0 };

	(void)state;
	setup(&wide, &rb2);
	setup(&ev, &rb);
	wide.pid = -1;
	ev.attr.context_switch = wide.attr.context_switch = 1;
	walk_events[1] = &wide;
	perf_event_switch(&prev, &next, false);		/* preempted */
	prev.on_rq = 0;
	perf_event_switch(&prev, &next, false);		/* blocked */
	perf_event_switch(&next, &prev, true);

	put_header(&e, PERF_RECORD_SWITCH,
		   PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, 56);
	put_trailer(&e);
	put_header(&e, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT, 56);
	put_trailer(&e);
	put_header(&e, PERF_RECORD_SWITCH, 0, 56);
	put_trailer(&e);
	assert_buffer(rb, &e);

	put_header(&w, PERF_RECORD_SWITCH_CPU_WIDE,
		   PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, 64);
	put32(&w, 300); put32(&w, 301); put_trailer(&w);
	put_header(&w, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT, 64);
	put32(&w, 300); put32(&w, 301); put_trailer(&w);
	put_header(&w, PERF_RECORD_SWITCH_CPU_WIDE, 0, 64);
	put32(&w, 100); put32(&w, 101); put_trailer(&w);
	assert_buffer(rb2, &w);
	fixture_done(&ev, rb);
	fixture_done(&wide, rb2);
}

static void throttle_unthrottle_lost_samples(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct expect e = { 0 };

	(void)state;
	setup(&ev, &rb);
	perf_log_throttle(&ev, 0);
	perf_log_throttle(&ev, 1);
	perf_log_lost_samples(&ev, 42);
	for (int en = 0; en < 2; en++) {
		put_header(&e, en ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE, 0, 32 + 48);
		put64(&e, 123456789); put64(&e, 7); put64(&e, 7);
		put_trailer(&e);
	}
	put_header(&e, PERF_RECORD_LOST_SAMPLES, 0, 16 + 48);
	put64(&e, 42);
	put_trailer(&e);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void no_trailer_without_sample_id_all_and_filters(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct task_struct t = { .pid = 5, .tid = 6, .comm = "x" };
	struct expect e = { 0 };

	(void)state;
	setup(&ev, &rb);
	ev.attr.sample_id_all = 0;
	ev.attr.comm = 1;
	perf_event_comm(&t, false);
	ev.cpu = 2;				/* bound to another CPU */
	perf_event_comm(&t, false);
	ev.cpu = -1;
	ev.state = PERF_EVENT_STATE_OFF;
	perf_event_comm(&t, false);
	put_header(&e, PERF_RECORD_COMM, 0, 8 + 8 + 8);
	put32(&e, 5); put32(&e, 6);
	put_bytes(&e, "x\0\0\0\0\0\0\0", 8);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
	perf_sb_for_each_event = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(comm_and_comm_exec),
		cmocka_unit_test(mmap2_mmap_and_data),
		cmocka_unit_test(fork_and_exit),
		cmocka_unit_test(switch_per_task_and_cpu_wide),
		cmocka_unit_test(throttle_unthrottle_lost_samples),
		cmocka_unit_test(no_trailer_without_sample_id_all_and_filters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
