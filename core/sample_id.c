// SPDX-License-Identifier: GPL-2.0-only
/*
 * sample_id.c - the sample_id trailer that attr.sample_id_all appends to
 * every record other than PERF_RECORD_SAMPLE (kernel/events/core.c:
 * perf_event__id_header_size, perf_event_header__init_id,
 * perf_event__output_id_sample). It carries the PERF_SAMPLE_ID_ALL
 * fields of attr.sample_type so user space can sort and attribute the
 * record like a sample.
 */
#include "core/perf_event.h"

void perf_event__id_header_size(struct perf_event *event)
{
	struct perf_sample_data *data;
	u64 sample_type = event->attr.sample_type;
	u16 size = 0;

	if (sample_type & PERF_SAMPLE_TID)
		size += sizeof(data->tid_entry);
	if (sample_type & PERF_SAMPLE_TIME)
		size += sizeof(data->time);
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		size += sizeof(data->id);
	if (sample_type & PERF_SAMPLE_ID)
		size += sizeof(data->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		size += sizeof(data->stream_id);
	if (sample_type & PERF_SAMPLE_CPU)
		size += sizeof(data->cpu_entry);

	event->id_header_size = size;
}

void __perf_event_header__init_id(struct perf_sample_data *data,
				  struct perf_event *event,
				  u64 sample_type)
{
	struct task_struct *task = current;

	data->type = event->attr.sample_type;
	data->sample_flags |= data->type & PERF_SAMPLE_ID_ALL;

	if (sample_type & PERF_SAMPLE_TID) {
		/* the idle task is pid 0 */
		data->tid_entry.pid = task ? (u32)task->pid : 0;
		data->tid_entry.tid = task ? (u32)task->tid : 0;
	}
	if (sample_type & PERF_SAMPLE_TIME)
		data->time = perf_event_clock(event);
	if (sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = primary_event_id(event);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (sample_type & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = smp_processor_id();
		data->cpu_entry.reserved = 0;
	}
}

void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data,
				struct perf_event *event)
{
	if (event->attr.sample_id_all) {
		header->size += event->id_header_size;
		__perf_event_header__init_id(data, event, event->attr.sample_type);
	}
}

void perf_event_header__init(struct perf_event_header *header,
			     struct perf_sample_data *data,
			     u32 type, u16 misc, u16 size,
			     struct perf_event *event)
{
	header->type = type;
	header->misc = misc;
	header->size = size;
	perf_event_header__init_id(header, data, event);
}

/*
 * The trailer's order differs from a sample's: IDENTIFIER comes last, so
 * a reader finds the id at a fixed distance from the end of any record.
 */
static void __perf_event__output_id_sample(struct perf_output_handle *handle,
					   struct perf_sample_data *data)
{
	u64 sample_type = data->type;

	if (sample_type & PERF_SAMPLE_TID)
		perf_output_put(handle, data->tid_entry);
	if (sample_type & PERF_SAMPLE_TIME)
		perf_output_put(handle, data->time);
	if (sample_type & PERF_SAMPLE_ID)
		perf_output_put(handle, data->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, data->stream_id);
	if (sample_type & PERF_SAMPLE_CPU)
		perf_output_put(handle, data->cpu_entry);
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, data->id);
}

void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *data)
{
	if (event->attr.sample_id_all)
		__perf_event__output_id_sample(handle, data);
}
