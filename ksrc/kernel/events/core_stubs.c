// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link-time stubs for kernel/events/ring_buffer.c: what it calls in
 * kernel/events/core.c and in the slab allocator, written here from what
 * those do. The sample_id trailer of a LOST record is filled as core.c
 * fills it, from the task, clock and CPU the bridge says are running
 * (ksrc_running(), ksrc/ring_buffer_bridge.c), so that it is byte for byte
 * what pmusim's core/sample_id.c writes for the same run.
 */
#include <stdlib.h>

#include <linux/perf_event.h>
#include "ksrc/ring_buffer_shim.h"

void *kzalloc_node(size_t size, gfp_t flags, int node)
{
	(void)flags;
	(void)node;
	return calloc(1, size ? size : 1);
}

void *kcalloc_node(size_t n, size_t size, gfp_t flags, int node)
{
	(void)flags;
	(void)node;
	return calloc(n ? n : 1, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

static void __perf_event_header__init_id(struct perf_sample_data *data,
					 struct perf_event *event, u64 sample_type)
{
	struct ksrc_running run = ksrc_running(event);

	data->type = event->attr.sample_type;
	data->sample_flags |= data->type & PERF_SAMPLE_ID_ALL;
	if (sample_type & PERF_SAMPLE_TID) {
		data->tid_entry.pid = run.pid;
		data->tid_entry.tid = run.tid;
	}
	if (sample_type & PERF_SAMPLE_TIME)
		data->time = run.time;
	if (sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = event->parent ? event->parent->id : event->id;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (sample_type & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = run.cpu;
		data->cpu_entry.reserved = 0;
	}
}

void perf_event_header__init_id(struct perf_event_header *header, struct perf_sample_data *data,
				struct perf_event *event)
{
	if (event->attr.sample_id_all) {
		header->size += event->id_header_size;
		__perf_event_header__init_id(data, event, event->attr.sample_type);
	}
}

void perf_event_header__init(struct perf_event_header *header, struct perf_sample_data *data,
			     u32 type, u16 misc, u16 size, struct perf_event *event)
{
	header->type = type;
	header->misc = misc;
	header->size = size;
	perf_event_header__init_id(header, data, event);
}

/* A trailer lists IDENTIFIER last: a reader finds the id at the record's end. */
void perf_event__output_id_sample(struct perf_event *event, struct perf_output_handle *handle,
				  struct perf_sample_data *sample)
{
	u64 type = sample->type;

	if (!event->attr.sample_id_all)
		return;
	if (type & PERF_SAMPLE_TID)
		perf_output_put(handle, sample->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		perf_output_put(handle, sample->time);
	if (type & PERF_SAMPLE_ID)
		perf_output_put(handle, sample->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, sample->stream_id);
	if (type & PERF_SAMPLE_CPU)
		perf_output_put(handle, sample->cpu_entry);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, sample->id);
}

/*
 * The AUX area's disable when it is full or truncated: as core.c's, a
 * pending disable its irq_work carries out (here: the harness, never).
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_irq);
}

/* The user an mmap is charged to: one, whose references must balance. */
struct user_struct {
	refcount_t count;
};
static struct user_struct ksrc_user = { .count = REFCOUNT_INIT(1) };

struct user_struct *get_current_user(void)
{
	refcount_inc(&ksrc_user.count);
	return &ksrc_user;
}

void free_uid(struct user_struct *user)
{
	if (user)
		WARN_ON_ONCE(refcount_dec_and_test(&user->count));
}

/* The AUX area is not under test: its record must never be asked for. */
void perf_event_aux_event(struct perf_event *event, unsigned long head,
			  unsigned long size, u64 flags)
{
	(void)event; (void)head; (void)size; (void)flags;
	WARN_ON_ONCE(1);
}

/*
 * The wakeup_events half of core.c's perf_output_sample(), which is the
 * kernel's only user of rb->events: pmusim's core/ keeps it beside the ring
 * buffer as perf_output_sample_wakeup().
 */
void ksrc_perf_output_sample_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	int wakeup_events, events;

	if (event->attr.watermark)
		return;
	wakeup_events = event->attr.wakeup_events;
	if (!wakeup_events)
		return;
	events = local_inc_return(&rb->events);
	if (events >= wakeup_events) {
		local_sub(wakeup_events, &rb->events);
		local_inc(&rb->wakeup);
	}
}

/* core.c's buffer references (the AUX paths take them). */
struct perf_buffer *ring_buffer_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	if (event->parent)
		event = event->parent;
	rb = READ_ONCE(event->rb);
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	return rb;
}

void ring_buffer_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->refcount))
		rb_free(rb);
}
