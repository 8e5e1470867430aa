// SPDX-License-Identifier: GPL-2.0-only
/*
 * sample.c - PERF_RECORD_SAMPLE: the fixed sizes an event's samples
 * take (computed once when the event or its group changes), preparing a
 * sample's data, and writing it out (kernel/events/core.c).
 */
#include "perf_event.h"

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
	struct perf_event *leader = event->group_leader ? event->group_leader : event;

	event->read_size = __perf_event_read_size(event->attr.read_format,
						  leader->nr_siblings);
	__perf_event_header_size(event, event->attr.sample_type);
}
