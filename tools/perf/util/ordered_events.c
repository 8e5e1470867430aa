// SPDX-License-Identifier: GPL-2.0-only
/*
 * Samples queued and handed out in time order. See ordered_events.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/perf/util/ordered_events.h"
#include "tools/perf/util/array_grow.h"

void ordered_events__init(struct ordered_events *oe, ordered_events__deliver_t deliver, void *arg)
{
	memset(oe, 0, sizeof(*oe));
	oe->all_timed = true;
	oe->sorted = true;
	oe->deliver = deliver;
	oe->arg = arg;
}

void ordered_events__exit(struct ordered_events *oe)
{
	free(oe->events);
	oe->events = NULL;
	oe->nr = oe->cap = 0;
}

int ordered_events__reserve(struct ordered_events *oe, size_t nr)
{
	if (array_grow((void **)&oe->events, &oe->cap, nr, sizeof(*oe->events), 16)) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int ordered_events__queue(struct ordered_events *oe, const struct perf_sample *s,
			  const struct perf_data_attr *attr)
{
	if (ordered_events__reserve(oe, oe->nr + 1))
		return -1;
	oe->events[oe->nr] = (struct ordered_event){
		.time = s->time, .ip = s->ip, .hw_idx = s->hw_idx,
		.callchain = s->callchain, .branch_entries = s->branch_entries, .attr = attr,
		.callchain_nr = (u32)s->callchain_nr, .branch_nr = (u32)s->branch_nr,
		.pid = s->pid, .tid = s->tid, .seq = (u32)oe->nr, .no_hw_idx = s->no_hw_idx,
	};
	oe->sorted &= !oe->nr || s->time >= oe->events[oe->nr - 1].time;
	oe->nr++;
	oe->all_timed &= !!(attr->attr.sample_type & PERF_SAMPLE_TIME);
	return 0;
}

/* An event's place in time order: its time, and where it is in the queue. */
struct ordered_key {
	u64 time;
	size_t idx;
};

/*
 * The queue's order by time, equal times in file order: a stable
 * bottom-up merge sort of keys, the comparison inline (qsort's callback
 * on the 72-byte events cost a tenth of a recording's stitching).
 * NULL: no memory.
 */
static struct ordered_key *ordered_events__sort(const struct ordered_events *oe)
{
	struct ordered_key *a = malloc(oe->nr * sizeof(*a)), *b = malloc(oe->nr * sizeof(*b)), *t;
	size_t n = oe->nr;

	if (!a || !b) {
		free(a);
		free(b);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = (struct ordered_key){ oe->events[i].time, i };
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			if (mid == hi || a[mid - 1].time <= a[mid].time) {
				memcpy(b + lo, a + lo, (hi - lo) * sizeof(*a));
				continue;
			}
			while (i < mid && j < hi)
				b[k++] = a[j].time < a[i].time ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		t = a;
		a = b;
		b = t;
	}
	free(b);
	return a;
}

/*
 * Ask for an event's branch entries before its turn: they are in the
 * file, far from the records read last.
 */
static void prefetch_branches(const struct ordered_event *event)
{
	const u8 *p = event->branch_entries;
	const u8 *end = p + event->branch_nr * sizeof(struct perf_sample_branch);

	for (; p + 4 * 64 <= end; p += 4 * 64) {
		__builtin_prefetch(p);
		__builtin_prefetch(p + 64);
		__builtin_prefetch(p + 2 * 64);
		__builtin_prefetch(p + 3 * 64);
	}
	for (; p < end; p += 64)
		__builtin_prefetch(p);
}

int ordered_events__flush(struct ordered_events *oe)
{
	struct ordered_key *order = NULL;
	int ret = 0;

	/* a file written in time order needs no sort (pmusim's own usually is) */
	if (oe->all_timed && !oe->sorted && oe->nr > 1) {
		order = ordered_events__sort(oe);
		if (!order) {
			errno = ENOMEM;
			return -1;
		}
	}
	for (size_t k = 0; k < oe->nr && !ret; k++) {
		if (k + 2 < oe->nr)
			prefetch_branches(&oe->events[order ? order[k + 2].idx : k + 2]);
		ret = oe->deliver(&oe->events[order ? order[k].idx : k], oe->arg);
	}
	free(order);
	oe->nr = 0;
	oe->all_timed = oe->sorted = true;
	return ret;
}

void ordered_event__sample(const struct ordered_event *event, struct perf_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->ip = event->ip;
	s->pid = event->pid;
	s->tid = event->tid;
	s->time = event->time;
	s->callchain_nr = event->callchain_nr;
	s->callchain = event->callchain;
	s->branch_nr = event->branch_nr;
	s->hw_idx = event->hw_idx;
	s->no_hw_idx = event->no_hw_idx;
	s->branch_entries = event->branch_entries;
}
