/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Samples in perf's order (the counterpart of ordered_events__queue and
 * ordered_events__flush in tools/perf/util/ordered-events.c): perf script
 * queues every event and hands them out by time, equal times in file
 * order. pmusim reads a whole file as one round (perf does so for a file
 * without FINISHED_ROUND records). When a sample has no time (its attr
 * lacks PERF_SAMPLE_TIME) nothing is sorted: the file's order stands.
 *
 * A queued sample keeps what a consumer of its call stack needs from the
 * parse, pointers into the mapped file included, so it is parsed once:
 * the file must stay mapped until the queue is flushed.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_ORDERED_EVENTS_H
#define PMUSIM_TOOLS_PERF_UTIL_ORDERED_EVENTS_H

#include "tools/perf/util/perf_data_read.h"

struct ordered_event {
	u64 time;
	u64 ip;
	u64 hw_idx;
	const u8 *callchain;
	const u8 *branch_entries;
	const struct perf_data_attr *attr;
	u32 callchain_nr;		/* a record is at most 64 KiB: these fit */
	u32 branch_nr;
	u32 pid, tid;
	u32 seq;			/* file order, for equal times */
	bool no_hw_idx;
};

/* Called with each event in turn; a non-zero return stops the flush and is its result. */
typedef int (*ordered_events__deliver_t)(const struct ordered_event *event, void *arg);

struct ordered_events {
	struct ordered_event *events;
	size_t nr, cap;
	bool all_timed;			/* every sample queued has a time */
	bool sorted;			/* ... and they came in time order */
	ordered_events__deliver_t deliver;
	void *arg;
};

void ordered_events__init(struct ordered_events *oe, ordered_events__deliver_t deliver, void *arg);
void ordered_events__exit(struct ordered_events *oe);

/*
 * Room for NR events up front, rather than growing by copying: memory
 * the queue never reaches is never touched. 0, or -1 with errno ENOMEM.
 */
int ordered_events__reserve(struct ordered_events *oe, size_t nr);

/* Queue sample S of ATTR. 0, or -1 with errno ENOMEM. */
int ordered_events__queue(struct ordered_events *oe, const struct perf_sample *s,
			  const struct perf_data_attr *attr);

/*
 * Deliver every queued event, by time (see above), and empty the queue.
 * 0, the first non-zero return of the deliver callback, or -1 with errno
 * ENOMEM before any delivery when there is no memory to sort.
 */
int ordered_events__flush(struct ordered_events *oe);

/*
 * The fields of EVENT's sample that were kept, in S; the others are 0:
 * ip, pid, tid, time, callchain and branch stack (with hw_idx).
 */
void ordered_event__sample(const struct ordered_event *event, struct perf_sample *s);

#endif
