// SPDX-License-Identifier: GPL-2.0-only
/* Tests of core/sample_id.c: the sample_id trailer of non-sample records. */
#include "core/internal.h"
#include "tests/test.h"

static struct task_struct task = { .pid = 300, .tid = 301, .comm = "sid" };

static u64 sim_clock(void)
{
	return 111;
}

static u64 event_clock(void)
{
	return 222;
}

static int group_setup(void **state)
{
	(void)state;
	pmusim_this_cpu = 0;
	pmusim_curr[0] = &task;
	pmusim_clock_ns = sim_clock;
	return 0;
}

static void test_id_header_size_counts_eight_bytes_per_id_all_field(void **state)
{
	static const u64 bits[] = {
		PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	struct perf_event ev;
	unsigned int i;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		ev.attr.sample_type = bits[i];
		perf_event__id_header_size(&ev);
		assert_int_equal(ev.id_header_size, 8);
	}
	ev.attr.sample_type = PERF_SAMPLE_ID_ALL;
	perf_event__id_header_size(&ev);
	assert_int_equal(ev.id_header_size, 48);
	/* fields only samples carry add nothing */
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD |
			      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	perf_event__id_header_size(&ev);
	assert_int_equal(ev.id_header_size, 0);
}

static void test_header_init_id_does_nothing_without_sample_id_all(void **state)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 24 };
	struct perf_sample_data data;
	struct perf_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	memset(&data, 0x5a, sizeof(data));
	ev.attr.sample_type = PERF_SAMPLE_ID_ALL;
	perf_event__id_header_size(&ev);
	perf_event_header__init_id(&h, &data, &ev);
	assert_int_equal(h.size, 24);
	assert_int_equal(data.time, 0x5a5a5a5a5a5a5a5aULL);
}

static void test_header_init_id_grows_the_size_and_fills_the_trailer(void **state)
{
	struct perf_event_header h;
	struct perf_sample_data data;
	struct perf_event parent, ev;

	(void)state;
	memset(&parent, 0, sizeof(parent));
	memset(&ev, 0, sizeof(ev));
	parent.id = 7;
	ev.parent = &parent;
	ev.id = 8;
	ev.attr.sample_id_all = 1;
	ev.attr.sample_type = PERF_SAMPLE_ID_ALL | PERF_SAMPLE_IP;
	perf_event__id_header_size(&ev);

	perf_sample_data_init(&data, 0, 0);
	perf_event_header__init(&h, &data, PERF_RECORD_LOST, 3, 24, &ev);
	assert_int_equal(h.type, PERF_RECORD_LOST);
	assert_int_equal(h.misc, 3);
	assert_int_equal(h.size, 24 + 48);
	assert_int_equal(data.type, ev.attr.sample_type);
	assert_int_equal(data.sample_flags & PERF_SAMPLE_ID_ALL, PERF_SAMPLE_ID_ALL);
	assert_int_equal(data.sample_flags & PERF_SAMPLE_IP, 0);
	assert_int_equal(data.tid_entry.pid, 300);
	assert_int_equal(data.tid_entry.tid, 301);
	assert_int_equal(data.time, 111);
	assert_int_equal(data.id, 7);		/* an inherited event reports its parent */
	assert_int_equal(data.stream_id, 8);	/* and itself as the stream */
	assert_int_equal(data.cpu_entry.cpu, 0);
	assert_int_equal(data.cpu_entry.reserved, 0);

	/* the event's own clock wins; no task reads as pid 0 */
	ev.clock = event_clock;
	pmusim_curr[0] = NULL;
	perf_event_header__init_id(&h, &data, &ev);
	assert_int_equal(data.time, 222);
	assert_int_equal(data.tid_entry.pid, 0);
	assert_int_equal(data.tid_entry.tid, 0);
	pmusim_curr[0] = &task;
}

static void test_output_id_sample_writes_identifier_last(void **state)
{
	struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct perf_event_header h;
	struct perf_event ev;
	u64 got[4], want[4];

	(void)state;
	assert_non_null(rb);
	memset(&ev, 0, sizeof(ev));
	ev.id = 0x99;
	ev.attr.sample_id_all = 1;
	ev.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_STREAM_ID;
	perf_event__id_header_size(&ev);
	ring_buffer_attach(&ev, rb);

	perf_sample_data_init(&data, 0, 0);
	perf_event_header__init(&h, &data, PERF_RECORD_THROTTLE, 0, 8, &ev);
	assert_int_equal(h.size, 32);
	assert_int_equal(perf_output_begin(&handle, &data, &ev, h.size), 0);
	perf_output_put(&handle, h);
	perf_event__output_id_sample(&ev, &handle, &data);
	perf_output_end(&handle);

	memcpy(&want[0], &h, 8);
	want[1] = 111;		/* TIME */
	want[2] = 0x99;		/* STREAM_ID */
	want[3] = 0x99;		/* IDENTIFIER comes last, unlike in a sample */
	memcpy(got, (char *)rb->user_page + PAGE_SIZE, sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(rb->user_page->data_head, 32);

	/* without sample_id_all nothing is written */
	ev.attr.sample_id_all = 0;
	assert_int_equal(perf_output_begin(&handle, &data, &ev, 8), 0);
	perf_event__output_id_sample(&ev, &handle, &data);
	assert_int_equal(handle.size, PAGE_SIZE - 32);
	perf_output_skip(&handle, 8);
	perf_output_end(&handle);
	ring_buffer_attach(&ev, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_header_size_counts_eight_bytes_per_id_all_field),
		cmocka_unit_test(test_header_init_id_does_nothing_without_sample_id_all),
		cmocka_unit_test(test_header_init_id_grows_the_size_and_fills_the_trailer),
		cmocka_unit_test(test_output_id_sample_writes_identifier_last),
	};
	return cmocka_run_group_tests_name("sample_id", tests, group_setup, NULL);
}
