// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ksrc backend of `pmusim ringbuf`: the script runs against the
 * kernel's own kernel/events/ring_buffer.c, built from the tree this
 * pmusim was built with (KSRC=DIR, ksrc/). It sets up what the model
 * backend does (one buffer, one event per record size attached to it,
 * the samples laid out as perf_output_sample() lays them out, the same
 * payload) through the kernel file's rb_alloc(), perf_output_begin(),
 * perf_output_copy() and perf_output_end(), and user space reads it
 * through a mapping made as perf_mmap() makes one.
 * Without a tree, open() says so and returns RINGBUF_SKIP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <generated/ksrc.h>
#include "core/testcase.h"
#include "replay/ringbuf_backend.h"
#ifdef KSRC_UNIT_RING_BUFFER
#include "ksrc/ring_buffer_ksrc.h"

#define KSRC_PID	1000	/* the task the model backend names */

struct ringbuf_ksrc {
	struct ksrc_buffer *buf;
	struct ksrc_event **events;
	unsigned int *sizes;
	size_t nr_events;
	uint64_t written;		/* samples attempted: the payload's seed */
	unsigned char *stack;
	size_t stack_size;
};

static struct ksrc_running ksrc_task(void *arg)
{
	(void)arg;
	return (struct ksrc_running){ .pid = KSRC_PID, .tid = KSRC_PID, .cpu = 0, .time = 0 };
}

static void ksrc_close(void *priv)
{
	struct ringbuf_ksrc *k = priv;

	if (!k)
		return;
	for (size_t i = 0; i < k->nr_events; i++)
		ksrc_event_free(k->events[i]);
	ksrc_rb_free(k->buf);
	ksrc_set_running(NULL, NULL);
	free(k->events);
	free(k->sizes);
	free(k->stack);
	free(k);
}

static int ksrc_open(void **priv, const struct ringbuf_config *cfg,
		     const unsigned int *sizes, size_t nr_sizes)
{
	struct ringbuf_ksrc *k = calloc(1, sizeof(*k));

	*priv = k;
	if (!k)
		goto nomem;
	k->events = calloc(nr_sizes ? nr_sizes : 1, sizeof(*k->events));
	k->sizes = calloc(nr_sizes ? nr_sizes : 1, sizeof(*k->sizes));
	k->stack_size = RINGBUF_STACK_MAX;
	k->stack = malloc(k->stack_size);
	if (!k->events || !k->sizes || !k->stack)
		goto nomem;
	for (size_t i = 0; i < k->stack_size; i++)
		k->stack[i] = (unsigned char)(i * 7 + 1);
	/* perf_mmap() passes the attr's wakeup_watermark to rb_alloc() */
	k->buf = ksrc_rb_alloc((int)cfg->nr_pages, cfg->watermark, !cfg->overwrite);
	if (!k->buf)
		goto nomem;
	ksrc_set_running(ksrc_task, NULL);

	for (size_t i = 0; i < nr_sizes; i++) {
		struct ringbuf_layout layout = ringbuf_sample_layout(sizes[i]);
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.size = sizeof(attr),
			.config = PERF_COUNT_SW_PAGE_FAULTS_MIN,
			.sample_period = 1,
			.sample_type = layout.sample_type,
			.sample_stack_user = layout.sample_stack_user,
			.exclude_kernel = 1,
			.exclude_hv = 1,
			.sample_id_all = cfg->sample_id_all,
			.write_backward = cfg->backward,
		};

		if (cfg->watermark) {
			attr.watermark = 1;
			attr.wakeup_watermark = cfg->watermark;
		} else {
			attr.wakeup_events = cfg->wakeup_events;
		}
		k->events[i] = ksrc_event_new(k->buf, &attr, i + 1);
		if (!k->events[i])
			goto nomem;
		k->sizes[i] = sizes[i];
		k->nr_events = i + 1;
	}
	return 0;
nomem:
	fprintf(stderr, "pmusim ringbuf: out of memory for the kernel file's buffer\n");
	return 1;
}

/* One sample, laid out and filled as the model backend's model_sample(). */
static void ksrc_sample(struct ringbuf_ksrc *k, struct ksrc_event *ev, unsigned int size)
{
	struct ringbuf_layout layout = ringbuf_sample_layout(size);
	struct ksrc_output_handle handle;
	struct perf_event_header header = {
		.type = PERF_RECORD_SAMPLE,
		.misc = PERF_RECORD_MISC_USER,
		.size = (uint16_t)size,
	};
	uint64_t seq = k->written++;
	uint64_t ip = 0x401000 + seq * 8, time = seq;
	uint32_t tid[2] = { KSRC_PID, KSRC_PID };

	if (ksrc_output_begin(&handle, ev, size))
		return;
	ksrc_output_copy(&handle, &header, sizeof(header));
	if (layout.sample_type & PERF_SAMPLE_IP)
		ksrc_output_copy(&handle, &ip, sizeof(ip));
	if (layout.sample_type & PERF_SAMPLE_TID)
		ksrc_output_copy(&handle, tid, sizeof(tid));
	if (layout.sample_type & PERF_SAMPLE_TIME)
		ksrc_output_copy(&handle, &time, sizeof(time));
	if (layout.sample_type & PERF_SAMPLE_STACK_USER) {
		uint64_t dump = layout.sample_stack_user;

		ksrc_output_copy(&handle, &dump, sizeof(dump));
		/* ringbuf_sample_layout() dumps a stack only for 40 bytes and up: 8 or more */
		if (ALWAYS(dump)) {
			ksrc_output_copy(&handle, k->stack, (unsigned int)dump);
			ksrc_output_copy(&handle, &dump, sizeof(dump));
		}
	}
	ksrc_output_sample_wakeup(&handle);
	ksrc_output_end(&handle);
}

static int ksrc_write(void *priv, unsigned int size, unsigned long count)
{
	struct ringbuf_ksrc *k = priv;
	struct ksrc_event *ev = NULL;

	for (size_t i = 0; i < k->nr_events; i++)
		if (k->sizes[i] == size)
			ev = k->events[i];
	if (!ev) {
		fprintf(stderr, "pmusim ringbuf: no event for %u-byte records\n", size);
		return 1;
	}
	while (count--)
		ksrc_sample(k, ev, size);
	return 0;
}

static int ksrc_pause(void *priv, bool pause)
{
	struct ringbuf_ksrc *k = priv;

	/* As perf_ioctl() does: PERF_EVENT_IOC_PAUSE_OUTPUT needs data pages. */
	if (!ksrc_rb_state(k->buf).nr_pages) {
		fprintf(stderr, "pmusim ringbuf: PERF_EVENT_IOC_PAUSE_OUTPUT: %s\n", strerror(EINVAL));
		return 1;
	}
	ksrc_rb_pause(k->buf, pause);
	return 0;
}

static struct perf_event_mmap_page *ksrc_user_page(void *priv)
{
	struct ringbuf_ksrc *k = priv;

	return ksrc_rb_user_page(k->buf);
}

static struct perf_event_mmap_page *ksrc_user_page_ro(void *priv)
{
	struct ringbuf_ksrc *k = priv;

	return ksrc_rb_user_page_ro(k->buf);
}
#else /* no kernel tree in this build */
static int ksrc_open(void **priv, const struct ringbuf_config *cfg,
		     const unsigned int *sizes, size_t nr_sizes)
{
	(void)cfg; (void)sizes; (void)nr_sizes;
	*priv = NULL;
	fprintf(stderr, KSRC_NO_UNIT("ring_buffer") "\n");
	return RINGBUF_SKIP;
}

static void ksrc_close(void *priv)
{
	(void)priv;
}

static int ksrc_write(void *priv, unsigned int size, unsigned long count)
{
	(void)priv; (void)size; (void)count;
	return 1;
}

static int ksrc_pause(void *priv, bool pause)
{
	(void)priv; (void)pause;
	return 1;
}

static struct perf_event_mmap_page *ksrc_user_page(void *priv)
{
	(void)priv;
	return NULL;
}

static struct perf_event_mmap_page *ksrc_user_page_ro(void *priv)
{
	(void)priv;
	return NULL;
}
#endif

const struct ringbuf_backend ringbuf_ksrc_backend = {
	.name		= "ksrc",
	.open		= ksrc_open,
	.write		= ksrc_write,
	.pause		= ksrc_pause,
	.user_page	= ksrc_user_page,
	.user_page_ro	= ksrc_user_page_ro,
	.close		= ksrc_close,
};
