// SPDX-License-Identifier: GPL-2.0-only
/*
 * sample.c - PERF_RECORD_SAMPLE: the fixed sizes an event's samples
 * take (computed once when the event or its group changes), preparing a
 * sample's data, and writing it out (kernel/events/core.c).
 */
#include "perf_event.h"
#include "ring_buffer.h"

/*
 * Bytes of the read_format block that PERF_SAMPLE_READ and read() emit:
 * the optional times and group count once, then one value (with its id
 * and lost count when asked) per member read.
 */
int __perf_event_read_size(u64 read_format, int nr_siblings)
{
	int per_value = sizeof(u64);
	int size = 0;
	int nr_values = 1;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		size += sizeof(u64);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		size += sizeof(u64);
	if (read_format & PERF_FORMAT_ID)
		per_value += sizeof(u64);
	if (read_format & PERF_FORMAT_LOST)
		per_value += sizeof(u64);
	if (read_format & PERF_FORMAT_GROUP) {
		size += sizeof(u64);		/* nr */
		nr_values += nr_siblings;
	}
	return size + nr_values * per_value;
}

/*
 * The fixed-size sample fields that are not part of the sample_id set
 * (those are counted in id_header_size, core/sample_id.c).
 */
static void __perf_event_header_size(struct perf_event *event, u64 sample_type)
{
	u16 size = 0;

	if (sample_type & PERF_SAMPLE_IP)
		size += sizeof(u64);
	if (sample_type & PERF_SAMPLE_ADDR)
		size += sizeof(u64);
	if (sample_type & PERF_SAMPLE_PERIOD)
		size += sizeof(u64);
	if (sample_type & PERF_SAMPLE_READ)
		size += event->read_size;
	event->header_size = size;
}

/*
 * Call when the event is created and whenever a member joins or leaves
 * its group: a group read's size depends on the leader's sibling count.
 */
void perf_event__header_size(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	event->read_size = __perf_event_read_size(event->attr.read_format,
						  leader->nr_siblings);
	__perf_event_header_size(event, event->attr.sample_type);
}

static bool perf_sample_hw_time(struct perf_event *event)
{
#ifdef CONFIG_PERF_HW_TIME
	return event->attr.hw_time;
#else
	(void)event;
	return false;
#endif
}

static void perf_sample_save_callchain(struct perf_sample_data *data,
				       struct perf_event *event,
				       struct pt_regs *regs)
{
	data->callchain = perf_callchain(event, regs,
			(struct perf_callchain_entry *)data->callchain_buf);
	data->dyn_size += (1 + data->callchain->nr) * sizeof(u64);
	data->sample_flags |= PERF_SAMPLE_CALLCHAIN;
}

void perf_sample_save_brstack(struct perf_sample_data *data,
			      struct perf_event *event,
			      struct perf_branch_stack *brs)
{
	u64 size = sizeof(u64);		/* nr */

	if (branch_sample_hw_index(event))
		size += sizeof(u64);
	size += brs->nr * sizeof(struct perf_branch_entry);
	data->br_stack = brs;
	data->dyn_size += size;
	data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
}

void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	u64 sample_type = event->attr.sample_type;
	u64 todo = sample_type & ~data->sample_flags;

	if (!todo) {
		data->type = sample_type;
		return;
	}

	__perf_event_header__init_id(data, event, todo);

	/*
	 * RFC hw_time: only samples carry the raw hardware time; the
	 * sample_id trailers of other records keep the event's clock.
	 */
	if ((todo & PERF_SAMPLE_TIME) && perf_sample_hw_time(event))
		data->time = perf_hw_time();

	if (todo & PERF_SAMPLE_IP) {
		data->ip = instruction_pointer(regs);
		data->sample_flags |= PERF_SAMPLE_IP;
	}
	if (todo & PERF_SAMPLE_CALLCHAIN)
		perf_sample_save_callchain(data, event, regs);
	if (todo & PERF_SAMPLE_BRANCH_STACK) {
		/* No driver stack: the record still carries nr = 0. */
		data->br_stack = NULL;
		data->dyn_size += sizeof(u64);
		data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
	}
	if (todo & PERF_SAMPLE_ADDR) {
		data->addr = 0;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
}

static u32 perf_sample_data_size(struct perf_sample_data *data,
				 struct perf_event *event)
{
	return sizeof(struct perf_event_header) + event->header_size +
	       event->id_header_size + data->dyn_size;
}

void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	header->type = PERF_RECORD_SAMPLE;
	header->size = perf_sample_data_size(data, event);
	header->misc = perf_misc_flags(regs);
	if (regs->exact)
		header->misc |= PERF_RECORD_MISC_EXACT_IP;
	/* Every field is a multiple of 8 bytes; the low bits stay free. */
	WARN_ON_ONCE(header->size & 7);
}

static u64 perf_event_count(struct perf_event *event, bool self)
{
	if (self)
		return local64_read(&event->count);
	return local64_read(&event->count) + atomic64_read(&event->child_count);
}

/* Bring a member's count up to date from its counter. */
static void perf_pmu_read(struct perf_event *event)
{
	if (event->state == PERF_EVENT_STATE_ACTIVE && event->pmu && event->pmu->read)
		event->pmu->read(event);
}

static bool has_inherit_and_sample_read(struct perf_event_attr *attr)
{
	return attr->inherit && (attr->sample_type & PERF_SAMPLE_READ);
}

int perf_read_one_values(struct perf_event *event, u64 count, u64 enabled, u64 running,
			 u64 *values)
{
	u64 read_format = event->attr.read_format;
	int n = 0;

	values[n++] = count;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		values[n++] = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		values[n++] = running;
	if (read_format & PERF_FORMAT_ID)
		values[n++] = primary_event_id(event);
	if (read_format & PERF_FORMAT_LOST)
		values[n++] = (u64)atomic64_read(&event->lost_samples);
	return n;
}

static void perf_output_read_one(struct perf_output_handle *handle,
				 struct perf_event *event,
				 u64 enabled, u64 running)
{
	u64 values[5];
	int n = perf_read_one_values(event,
				     perf_event_count(event, has_inherit_and_sample_read(&event->attr)),
				     enabled, running, values);

	perf_output_copy(handle, values, n * sizeof(u64));
}

static void perf_output_read_member(struct perf_output_handle *handle,
				    struct perf_event *event,
				    struct perf_event *member, bool self)
{
	u64 read_format = event->attr.read_format;
	u64 values[3];
	int n = 0;

	/* The sampling event's own count is current; the others are read now. */
	if (member != event)
		perf_pmu_read(member);
	values[n++] = perf_event_count(member, self);
	if (read_format & PERF_FORMAT_ID)
		values[n++] = primary_event_id(member);
	if (read_format & PERF_FORMAT_LOST)
		values[n++] = atomic64_read(&member->lost_samples);
	perf_output_copy(handle, values, n * sizeof(u64));
}

static void perf_output_read_group(struct perf_output_handle *handle,
				   struct perf_event *event,
				   u64 enabled, u64 running)
{
	struct perf_event *leader = event->group_leader;
	u64 read_format = event->attr.read_format;
	bool self = has_inherit_and_sample_read(&event->attr);
	u64 values[3];
	int n = 0;

	values[n++] = 1 + leader->nr_siblings;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		values[n++] = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		values[n++] = running;
	perf_output_copy(handle, values, n * sizeof(u64));

	perf_output_read_member(handle, event, leader, self);
	for (int i = 0; i < leader->nr_siblings; i++)
		perf_output_read_member(handle, event, leader->siblings[i], self);
}

void perf_output_read(struct perf_output_handle *handle,
		      struct perf_event *event)
{
	u64 enabled = 0, running = 0, now;
	u64 read_format = event->attr.read_format;

	if (read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING))
		calc_timer_values(event, &now, &enabled, &running);

	if (read_format & PERF_FORMAT_GROUP)
		perf_output_read_group(handle, event, enabled, running);
	else
		perf_output_read_one(handle, event, enabled, running);
}

void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event)
{
	u64 sample_type = data->type;

	perf_output_put(handle, *header);

	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, data->id);
	if (sample_type & PERF_SAMPLE_IP)
		perf_output_put(handle, data->ip);
	if (sample_type & PERF_SAMPLE_TID)
		perf_output_put(handle, data->tid_entry);
	if (sample_type & PERF_SAMPLE_TIME)
		perf_output_put(handle, data->time);
	if (sample_type & PERF_SAMPLE_ADDR)
		perf_output_put(handle, data->addr);
	if (sample_type & PERF_SAMPLE_ID)
		perf_output_put(handle, data->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, data->stream_id);
	if (sample_type & PERF_SAMPLE_CPU)
		perf_output_put(handle, data->cpu_entry);
	if (sample_type & PERF_SAMPLE_PERIOD)
		perf_output_put(handle, data->period);
	if (sample_type & PERF_SAMPLE_READ)
		perf_output_read(handle, event);
	if (sample_type & PERF_SAMPLE_CALLCHAIN)
		perf_output_copy(handle, data->callchain,
				 (1 + data->callchain->nr) * sizeof(u64));
	if (sample_type & PERF_SAMPLE_BRANCH_STACK) {
		if (data->br_stack) {
			perf_output_put(handle, data->br_stack->nr);
			if (branch_sample_hw_index(event))
				perf_output_put(handle, data->br_stack->hw_idx);
			perf_output_copy(handle, data->br_stack->entries,
					 data->br_stack->nr * sizeof(struct perf_branch_entry));
		} else {
			u64 nr = 0;

			perf_output_put(handle, nr);
		}
	}

	perf_output_sample_wakeup(handle);
}

/*
 * The kernel passes perf_output_begin_forward() or _backward() here and
 * calls them; pmusim inlines the record path (core/ring_buffer.h), with
 * @backward a constant in the two overflow handlers.
 */
static __always_inline int
__perf_event_output(struct perf_event *event,
		    struct perf_sample_data *data,
		    struct pt_regs *regs, bool backward)
{
	struct perf_output_handle handle;
	struct perf_event_header header;
	int err;

	rcu_read_lock();
	perf_prepare_sample(data, event, regs);
	perf_prepare_header(&header, data, event, regs);
	err = __perf_output_begin(&handle, data, event, header.size, backward);
	if (!err) {
		perf_output_sample(&handle, &header, data, event);
		__perf_output_end(&handle);
	}
	rcu_read_unlock();
	return err;
}

void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	__perf_event_output(event, data, regs, false);
}

void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	__perf_event_output(event, data, regs, true);
}

int perf_event_output(struct perf_event *event,
		      struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return __perf_event_output(event, data, regs, is_write_backward(event));
}
