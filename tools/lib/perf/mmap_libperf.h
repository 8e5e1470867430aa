/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libperf's own reader, tools/lib/perf/mmap.c of the kernel tree pmusim
 * was built with (ksrc/libperf_mmap_ksrc.h), driven the way perf's tools
 * drive it, behind the callback interface of pmusim's readers
 * (tools/lib/perf/mmap_read.h) so that every place that checks those can
 * check this one with the same oracles:
 *
 *   perf_mmap_libperf__read_forward   perf top's loop on a writable
 *       mapping: read_init; read_event, the callback, consume, per
 *       record; read_done once read_event has returned NULL.
 *   perf_mmap_libperf__peek_forward   the same walk without consume or
 *       read_done: data_tail and prev are left where they were.
 *   perf_mmap_libperf__read_backward  perf record --overwrite's read of a
 *       write_backward buffer, paused: read_init (which walks
 *       overwrite_rb_find_range once the buffer is full), read_event and
 *       consume to the end, read_done. @fresh reads as a reader that has just
 *       mapped the buffer (prev 0: the whole window); otherwise from
 *       data_head to where the last read_done left prev.
 *
 * In overwrite mode the user page is read-only, as the kernel maps it:
 * libperf writing data_tail there faults. A buffer whose page this
 * process can write (core/'s) is mprotect()ed read-only while libperf
 * runs: @protect, for callers that know no writer runs meanwhile.
 *
 * libperf's read_done sets prev to data_head read anew, in forward mode
 * too: a record published between read_event's last look at data_head
 * and read_done is never handed out, and the next consume moves
 * data_tail past it (README, departures). read_forward counts what it
 * skipped (read_done_skips, read_done_skipped_bytes) and hands the
 * range to @skipped, whose bytes data_tail still protects, so that a
 * caller can account for every record; @before_read_done runs at that
 * point of perf top's loop, where a writer on another CPU may publish.
 *
 * The callback sees lp->pos, the record's position. A batch that ends
 * before its end (libperf's read_event returned NULL with bytes left:
 * a size it refused) is PERF_MMAP_READ_BAD_SIZE; a read_init refusal
 * (-EINVAL) too. Without a kernel tree, init returns -EOPNOTSUPP.
 */
#ifndef PMUSIM_TOOLS_LIB_PERF_MMAP_LIBPERF_H
#define PMUSIM_TOOLS_LIB_PERF_MMAP_LIBPERF_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/lib/perf/mmap_read.h"
#include <generated/ksrc.h>	/* KSRC_NO_UNIT_WHY(): why a build has none */

struct ksrc_libperf_map;

struct perf_mmap_libperf {
	struct ksrc_libperf_map *map;
	struct perf_event_mmap_page *pg;
	bool overwrite;
	bool protect;			/* mprotect the user page read-only while reading */
	uint64_t pos;			/* the record being handed to the callback */
	struct perf_mmap_read_stats stats;
	uint64_t read_done_skips, read_done_skipped_bytes;
	void (*before_read_done)(struct perf_mmap_libperf *lp, void *arg);
	void (*skipped)(struct perf_mmap_libperf *lp, uint64_t from, uint64_t to, void *arg);
	void *hook_arg;
};

/* Is libperf's reader built in (a kernel tree's libperf_mmap unit)? */
bool perf_mmap_libperf__available(void);
/* 0, -EOPNOTSUPP (no libperf_mmap unit), -EINVAL (bad data_size), -ENOMEM. */
int perf_mmap_libperf__init(struct perf_mmap_libperf *lp, void *base, bool overwrite, bool protect);
void perf_mmap_libperf__exit(struct perf_mmap_libperf *lp);

/* libperf's prev (forward: the consumer's position). */
uint64_t perf_mmap_libperf__prev(const struct perf_mmap_libperf *lp);
void perf_mmap_libperf__set_prev(struct perf_mmap_libperf *lp, uint64_t prev);

enum perf_mmap_read_status
perf_mmap_libperf__read_forward(struct perf_mmap_libperf *lp, unsigned long max,
				perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_libperf__peek_forward(struct perf_mmap_libperf *lp, perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_libperf__read_backward(struct perf_mmap_libperf *lp, bool fresh,
				 perf_mmap_record_fn fn, void *arg);

#endif /* PMUSIM_TOOLS_LIB_PERF_MMAP_LIBPERF_H */
