// SPDX-License-Identifier: GPL-2.0-only
/*
 * core/'s record path against the kernel's own: ns per record of
 * perf_output_begin/copy/end through core/'s inline path
 * (core/ring_buffer.h, the direction a constant, as the sample path runs
 * it) and through the kernel's kernel/events/ring_buffer.c of the tree
 * this build has (ksrc/: perf_output_begin, perf_output_copy and
 * perf_output_end out of line, as the kernel has them; built with the same
 * compiler and -O level, and the kernel's code-generation flags), in
 * alternating rounds of one process. Goal: core/ at most 1.0x the kernel's
 * (the reason core/ inlines the path). Without a kernel tree it prints
 * one skip line and no figure.
 */
#include "core/ring_buffer.h"
#include "bench/bench.h"
#include <generated/ksrc.h>

#ifdef KSRC_UNIT_RING_BUFFER
#include "ksrc/ring_buffer_ksrc.h"

struct side {
	unsigned int size;
	unsigned long written;
	struct perf_event_mmap_page *pg;
	/* core/ */
	struct perf_event event;
	struct perf_buffer *rb;
	/* the kernel's file */
	struct ksrc_buffer *kbuf;
	struct ksrc_event *kevent;
	char payload[1024] __attribute__((aligned(64)));
};

static void payload_init(struct side *s, unsigned int size)
{
	s->size = size;
	memset(s->payload, 0x5a, sizeof(s->payload));
	memcpy(s->payload, &(struct perf_event_header){
		.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER,
		.size = (u16)size }, sizeof(struct perf_event_header));
}

/* As bench_ringbuf: a watermark of the buffer's size, a consumer every 32 records. */
static struct side *core_side(int pages, unsigned int size)
{
	struct side *s = aligned_alloc(64, sizeof(*s));

	memset(s, 0, sizeof(*s));
	s->event.attr.size = sizeof(s->event.attr);
	s->event.attr.sample_type = PERF_SAMPLE_IP;
	s->event.attr.watermark = 1;
	s->event.attr.wakeup_watermark = 1u << 30;
	s->rb = rb_alloc(pages, s->event.attr.wakeup_watermark, 0, RING_BUFFER_WRITABLE);
	if (!s->rb)
		exit(1);
	ring_buffer_attach(&s->event, s->rb);
	s->pg = s->rb->user_page;
	payload_init(s, size);
	return s;
}

static struct side *kernel_side(int pages, unsigned int size)
{
	struct side *s = aligned_alloc(64, sizeof(*s));
	struct perf_event_attr attr = {
		.size = sizeof(attr), .sample_type = PERF_SAMPLE_IP,
		.watermark = 1, .wakeup_watermark = 1u << 30,
	};

	memset(s, 0, sizeof(*s));
	s->kbuf = ksrc_rb_alloc(pages, attr.wakeup_watermark, true);
	s->kevent = s->kbuf ? ksrc_event_new(s->kbuf, &attr, 1) : NULL;
	if (!s->kevent)
		exit(1);
	s->pg = ksrc_rb_user_page(s->kbuf);
	payload_init(s, size);
	return s;
}

static noinline void core_write(void *ctx, uint64_t n)
{
	struct side *s = ctx;
	const unsigned int size = s->size;
	unsigned long written = s->written;

	for (uint64_t i = 0; i < n; i++) {
		struct perf_output_handle handle;

		if (!__perf_output_begin(&handle, NULL, &s->event, size, false)) {
			perf_output_copy(&handle, s->payload, size);
			__perf_output_end(&handle);
		}
		if ((++written & 31) == 0)
			WRITE_ONCE(s->pg->data_tail, READ_ONCE(s->pg->data_head));
	}
	s->written = written;
}

static noinline void kernel_write(void *ctx, uint64_t n)
{
	struct side *s = ctx;
	const unsigned int size = s->size;
	unsigned long written = s->written;

	for (uint64_t i = 0; i < n; i++) {
		struct ksrc_output_handle handle;

		if (!ksrc_output_begin(&handle, s->kevent, size)) {
			ksrc_output_copy(&handle, s->payload, size);
			ksrc_output_end(&handle);
		}
		if ((++written & 31) == 0)
			__atomic_store_n(&s->pg->data_tail,
					 __atomic_load_n(&s->pg->data_head, __ATOMIC_ACQUIRE),
					 __ATOMIC_RELEASE);
	}
	s->written = written;
}

int main(void)
{
	static const unsigned int sizes[] = { 40, 800 };

	for (int i = 0; i < 2; i++) {
		struct side *c = core_side(8, sizes[i]), *k = kernel_side(8, sizes[i]);
		struct bench_pair p;
		char fig[96];

		p = bench_compare(core_write, c, kernel_write, k, sizes[i] > 100 ? 20000 : 50000, 31);
		snprintf(fig, sizeof(fig), "ringbuf core vs kernel %s %u B forward with tail",
			 KSRC_VERSION, sizes[i]);
		bench_report(fig, "ns/record", p.value, p.baseline, "kernel's ring_buffer.c",
			     GOAL_AT_MOST, 1.0, p.noise);
		if (atomic64_read(&c->event.lost_samples) || ksrc_event_lost_samples(k->kevent))
			fprintf(stderr, "bench_ringbuf_ksrc: %s: records lost\n", fig);
		ring_buffer_attach(&c->event, NULL);
		ksrc_event_free(k->kevent);
		ksrc_rb_free(k->kbuf);
		free(c);
		free(k);
	}
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "bench_ringbuf_ksrc: " KSRC_NO_UNIT("ring_buffer") "\n");
	return 0;
}
#endif
