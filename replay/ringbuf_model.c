// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model backend of `pmusim ringbuf`: the script runs against pmusim's
 * ring buffer (core/ring_buffer.c). It builds what perf_event_open() and
 * perf_mmap() would: one buffer (writable unless --overwrite), one event
 * per record size with the sample layout the kernel backend uses, all
 * attached to that buffer as PERF_EVENT_IOC_SET_OUTPUT would, and writes
 * each sample the way perf_output_sample() does, with a payload that
 * depends only on the script.
 */
#include "core/internal.h"
#include "core/testcase.h"
#include "replay/ringbuf_backend.h"

/* The task the samples and LOST trailers name, on simulated CPU 0. */
static struct task_struct ringbuf_task = { .pid = 1000, .tid = 1000, .comm = "ringbuf" };

struct ringbuf_model {
	struct perf_buffer *rb;
	struct perf_event *events;
	unsigned int *sizes;		/* events[i] writes sizes[i]-byte samples */
	size_t nr_events;
	u64 written;			/* samples attempted: the payload's seed */
	unsigned char *stack;		/* the "user stack" a STACK_USER sample dumps */
	size_t stack_size;
};

static void model_close(void *priv)
{
	struct ringbuf_model *m = priv;

	if (!m)
		return;
	for (size_t i = 0; i < m->nr_events; i++)
		ring_buffer_attach(&m->events[i], NULL);
	if (m->rb)
		ring_buffer_put(m->rb);
	if (pmusim_curr[0] == &ringbuf_task)
		pmusim_curr[0] = NULL;
	kfree(m->events);
	kfree(m->sizes);
	kfree(m->stack);
	kfree(m);
}

static int model_open(void **priv, const struct ringbuf_config *cfg,
		      const unsigned int *sizes, size_t nr_sizes)
{
	/* All through core/'s allocator, which tests can make fail. */
	struct ringbuf_model *m = kzalloc(sizeof(*m));

	*priv = m;
	if (!m)
		goto nomem;
	m->events = kcalloc(nr_sizes ? nr_sizes : 1, sizeof(*m->events));
	m->sizes = kcalloc(nr_sizes ? nr_sizes : 1, sizeof(*m->sizes));
	if (!m->events || !m->sizes)
		goto nomem;
	m->rb = rb_alloc((int)cfg->nr_pages, cfg->watermark, 0,
			 cfg->overwrite ? 0 : RING_BUFFER_WRITABLE);
	if (!m->rb)
		goto nomem;
	m->stack_size = RINGBUF_STACK_MAX;
	m->stack = kzalloc(m->stack_size);
	if (!m->stack)
		goto nomem;
	for (size_t i = 0; i < m->stack_size; i++)
		m->stack[i] = (unsigned char)(i * 7 + 1);

	pmusim_this_cpu = 0;
	pmusim_curr[0] = &ringbuf_task;
	for (size_t i = 0; i < nr_sizes; i++) {
		struct perf_event *event = &m->events[i];
		struct ringbuf_layout layout = ringbuf_sample_layout(sizes[i]);

		event->attr.type = PERF_TYPE_SOFTWARE;
		event->attr.size = sizeof(event->attr);
		event->attr.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
		event->attr.sample_period = 1;
		event->attr.sample_type = layout.sample_type;
		event->attr.sample_stack_user = layout.sample_stack_user;
		event->attr.exclude_kernel = 1;
		event->attr.exclude_hv = 1;
		event->attr.sample_id_all = cfg->sample_id_all;
		event->attr.write_backward = cfg->backward;
		if (cfg->watermark) {
			event->attr.watermark = 1;
			event->attr.wakeup_watermark = cfg->watermark;
		} else {
			event->attr.wakeup_events = cfg->wakeup_events;
		}
		event->id = i + 1;
		event->stream_id = event->id;
		event->cpu = -1;
		event->pid = ringbuf_task.pid;
		event->state = PERF_EVENT_STATE_ACTIVE;
		perf_event__id_header_size(event);
		/* Each event holds a reference, as after PERF_EVENT_IOC_SET_OUTPUT. */
		refcount_inc(&m->rb->refcount);
		ring_buffer_attach(event, m->rb);
		m->sizes[i] = sizes[i];
		m->nr_events = i + 1;
	}
	return 0;
nomem:
	fprintf(stderr, "pmusim ringbuf: out of memory for the model buffer\n");
	return 1;
}

/* One sample of @event's layout, exactly as perf_output_sample() lays it out. */
static void model_sample(struct ringbuf_model *m, struct perf_event *event,
			 unsigned int size)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct perf_event_header header = {
		.type = PERF_RECORD_SAMPLE,
		.misc = PERF_RECORD_MISC_USER,
		.size = (u16)size,
	};
	u64 sample_type = event->attr.sample_type;
	u64 seq = m->written++;

	perf_sample_data_init(&data, 0, 1);
	data.ip = 0x401000 + seq * 8;
	data.tid_entry.pid = (u32)ringbuf_task.pid;
	data.tid_entry.tid = (u32)ringbuf_task.tid;
	data.time = seq;

	if (perf_output_begin(&handle, &data, event, size))
		return;
	perf_output_put(&handle, header);
	if (sample_type & PERF_SAMPLE_IP)
		perf_output_put(&handle, data.ip);
	if (sample_type & PERF_SAMPLE_TID)
		perf_output_put(&handle, data.tid_entry);
	if (sample_type & PERF_SAMPLE_TIME)
		perf_output_put(&handle, data.time);
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		u64 dump = event->attr.sample_stack_user;

		perf_output_put(&handle, dump);
		/* ringbuf_sample_layout() dumps a stack only for 40 bytes and up: 8 or more */
		if (ALWAYS(dump)) {
			perf_output_copy(&handle, m->stack, (unsigned int)dump);
			perf_output_put(&handle, dump);	/* dyn_size: all of it */
		}
	}
	perf_output_sample_wakeup(&handle);
	perf_output_end(&handle);
}

static int model_write(void *priv, unsigned int size, unsigned long count)
{
	struct ringbuf_model *m = priv;
	struct perf_event *event = NULL;

	for (size_t i = 0; i < m->nr_events; i++)
		if (m->sizes[i] == size)
			event = &m->events[i];
	if (!event) {
		fprintf(stderr, "pmusim ringbuf: no event for %u-byte records\n", size);
		return 1;
	}
	while (count--)
		model_sample(m, event, size);
	return 0;
}

static int model_pause(void *priv, bool pause)
{
	struct ringbuf_model *m = priv;

	/* PERF_EVENT_IOC_PAUSE_OUTPUT refuses a buffer without data pages. */
	if (!m->rb->nr_pages) {
		fprintf(stderr, "pmusim ringbuf: PERF_EVENT_IOC_PAUSE_OUTPUT: %s\n", strerror(EINVAL));
		return 1;
	}
	rb_toggle_paused(m->rb, pause);
	return 0;
}

static struct perf_event_mmap_page *model_user_page(void *priv)
{
	struct ringbuf_model *m = priv;

	return m->rb->user_page;
}

const struct ringbuf_backend ringbuf_model_backend = {
	.name		= "model",
	.open		= model_open,
	.write		= model_write,
	.pause		= model_pause,
	.user_page	= model_user_page,
	.close		= model_close,
};
