// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring-buffer cases core/ passes (tests/lib/rb_cases.c, run on core/
 * by tests/core/test_ring_buffer) on the kernel's own ring_buffer.c of the
 * tree this build was made with (KSRC=DIR, ksrc/), through the bridge
 * (ksrc/ring_buffer_ksrc.h): a buffer from the file's rb_alloc(), an event
 * attached to it, records through its perf_output_begin/copy/end. Part of
 * make ksrc-check. Without a tree every test is skipped with the reason.
 */
#include <stdlib.h>

#include "tests/test.h"
#include <generated/ksrc.h>
#include "tests/lib/rb_cases.h"
#include "tests/lib/rb_view.h"
#ifdef KSRC_UNIT_RING_BUFFER
#include "ksrc/ring_buffer_ksrc.h"

struct ksrc_rb {
	struct ksrc_buffer *buf;
	struct ksrc_event *ev;
};

static void *ksrc_open(int nr_pages, long watermark, bool writable,
		       const struct perf_event_attr *attr)
{
	struct ksrc_rb *k = calloc(1, sizeof(*k));

	assert_non_null(k);
	k->buf = ksrc_rb_alloc(nr_pages, watermark, writable);
	assert_non_null(k->buf);
	k->ev = ksrc_event_new(k->buf, attr, RB_CASE_ID);
	assert_non_null(k->ev);
	return k;
}

static void ksrc_close(void *b)
{
	struct ksrc_rb *k = b;

	ksrc_event_free(k->ev);
	ksrc_rb_free(k->buf);
	free(k);
}

static struct perf_event_mmap_page *ksrc_user_page(void *b)
{
	return ksrc_rb_user_page(((struct ksrc_rb *)b)->buf);
}

/* The same record rbt_write() writes on core/: header, tag, the tag's pattern. */
static int ksrc_write(void *b, unsigned int size, uint64_t tag, bool sample)
{
	struct ksrc_rb *k = b;
	struct perf_event_header h = { .type = RBT_TYPE, .misc = 0, .size = (uint16_t)size };
	struct ksrc_output_handle handle;
	uint8_t chunk[256];
	unsigned int i, j, n;
	int ret;

	ret = ksrc_output_begin(&handle, k->ev, size);
	if (ret)
		return ret;
	ksrc_output_copy(&handle, &h, sizeof(h));
	ksrc_output_copy(&handle, &tag, sizeof(tag));
	for (i = 16; i < size; i += n) {
		n = size - i < sizeof(chunk) ? size - i : (unsigned int)sizeof(chunk);
		for (j = 0; j < n; j++)
			chunk[j] = rbt_pattern(tag, i + j);
		ksrc_output_copy(&handle, chunk, n);
	}
	if (sample)
		ksrc_output_sample_wakeup(&handle);
	ksrc_output_end(&handle);
	return 0;
}

static void ksrc_pause(void *b, bool pause)
{
	ksrc_rb_pause(((struct ksrc_rb *)b)->buf, pause);
}

static struct rb_state ksrc_state(void *b)
{
	struct ksrc_rb *k = b;
	struct ksrc_rb_state s = ksrc_rb_state(k->buf);

	return (struct rb_state){
		.head = s.head, .lost = s.lost, .wakeup = s.wakeup, .events = s.events,
		.nest = s.nest, .lost_samples = ksrc_event_lost_samples(k->ev),
	};
}

static bool ksrc_take_wakeup(void *b)
{
	return ksrc_event_take_wakeup(((struct ksrc_rb *)b)->ev);
}

static const struct rb_backend rb_backend_ksrc = {
	.name = "ksrc",
	.open = ksrc_open,
	.close = ksrc_close,
	.user_page = ksrc_user_page,
	.write = ksrc_write,
	.pause = ksrc_pause,
	.state = ksrc_state,
	.take_wakeup = ksrc_take_wakeup,
};

int main(void)
{
	printf("# kernel/events/ring_buffer.c of %s\n", ksrc_version());
	return rb_cases_run(&rb_backend_ksrc, "ring_buffer_cases_ksrc");
}
#else
static void no_tree(void **state)
{
	(void)state;
	printf(KSRC_NO_UNIT("ring_buffer") "\n");
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(no_tree) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
