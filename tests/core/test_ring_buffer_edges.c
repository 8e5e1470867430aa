// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring-buffer paths the main ring-buffer tests do not reach: output for
 * an event without a buffer, and perf_output_begin_backward() called
 * directly (as perf_event_output_backward() does) whatever the event's
 * attr.write_backward says.
 */
#include "tests/test.h"
#include "core/internal.h"

static void output_without_a_buffer_fails_and_counts_no_loss(void **state)
{
	struct perf_event event = { 0 };
	struct perf_output_handle handle;
	struct perf_sample_data data;

	(void)state;
	perf_sample_data_init(&data, 0, 0);
	assert_int_equal(perf_output_begin(&handle, &data, &event, 16), -ENOSPC);
	assert_int_equal(atomic64_read(&event.lost_samples), 0);
}

static void begin_backward_writes_below_head_for_a_forward_event(void **state)
{
	struct perf_event event = { 0 };
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct perf_buffer *rb = rb_alloc(1, 0, 0, 0);
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = 16 };
	const struct perf_event_header *at;
	u64 word = 0x1122334455667788ull;

	(void)state;
	assert_non_null(rb);
	ring_buffer_attach(&event, rb);
	perf_sample_data_init(&data, 0, 0);
	assert_int_equal(perf_output_begin_backward(&handle, &data, &event, 16), 0);
	perf_output_put(&handle, hdr);
	perf_output_put(&handle, word);
	perf_output_end(&handle);

	assert_int_equal(rb->user_page->data_head, (u64)-16);
	at = (const void *)((char *)rb->data_pages[0] + PAGE_SIZE - 16);
	assert_int_equal(at->size, 16);
	assert_memory_equal(at + 1, &word, sizeof(word));
	ring_buffer_attach(&event, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(output_without_a_buffer_fails_and_counts_no_loss),
		cmocka_unit_test(begin_backward_writes_below_head_for_a_forward_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
