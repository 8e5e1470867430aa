// SPDX-License-Identifier: GPL-2.0-only
/*
 * libperf's reader behind pmusim's reader interface; see
 * tools/lib/perf/mmap_libperf.h. The calls into libperf are those of
 * perf's tools, in their order.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <generated/ksrc.h>
#include "tools/lib/perf/mmap_libperf.h"
#ifdef KSRC_UNIT_LIBPERF_MMAP
#include "ksrc/libperf_mmap_ksrc.h"
#endif

#ifdef KSRC_UNIT_LIBPERF_MMAP
bool perf_mmap_libperf__available(void)
{
	return true;
}

int perf_mmap_libperf__init(struct perf_mmap_libperf *lp, void *base, bool overwrite, bool protect)
{
	struct perf_event_mmap_page *pg = base;
	uint64_t size = pg->data_size;

	memset(lp, 0, sizeof(*lp));
	if (size < 8 || (size & (size - 1)) || size > (1ull << 30))
		return -EINVAL;
	lp->map = ksrc_libperf_map_new(pg, overwrite);
	if (!lp->map)
		return -ENOMEM;
	lp->pg = pg;
	lp->overwrite = overwrite;
	lp->protect = protect && overwrite;
	return 0;
}

void perf_mmap_libperf__exit(struct perf_mmap_libperf *lp)
{
	ksrc_libperf_map_free(lp->map);
	lp->map = NULL;
}

uint64_t perf_mmap_libperf__prev(const struct perf_mmap_libperf *lp)
{
	return ksrc_libperf_prev(lp->map);
}

void perf_mmap_libperf__set_prev(struct perf_mmap_libperf *lp, uint64_t prev)
{
	ksrc_libperf_set_prev(lp->map, prev);
}

/* The user page as perf_mmap() maps it for a PROT_READ mmap(), or back. */
static void user_page_protect(struct perf_mmap_libperf *lp, bool readonly)
{
	uintptr_t page = (uintptr_t)lp->pg & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);

	if (lp->protect)
		mprotect((void *)page, (size_t)sysconf(_SC_PAGESIZE),
			 readonly ? PROT_READ : PROT_READ | PROT_WRITE);
}

/* Hand one record to the callback; its size is libperf's header.size. */
static int deliver(struct perf_mmap_libperf *lp, const struct perf_event_header *ev,
		   perf_mmap_record_fn fn, void *arg)
{
	lp->stats.records++;
	lp->stats.bytes += ev->size;
	return fn(ev, ev->size, arg);
}

/*
 * libperf's perf_mmap__read_event(): NULL at the batch's end, on a record
 * it refuses, and when the realloc() of its copy of a record that wraps
 * fails; errno tells that last one apart.
 */
static const void *read_event(struct perf_mmap_libperf *lp)
{
	errno = 0;
	return ksrc_libperf_read_event(lp->map);
}

/* read_event returned NULL: at the batch's end, refusing a record, or out of memory. */
static enum perf_mmap_read_status batch_end(struct perf_mmap_libperf *lp)
{
	if (errno == ENOMEM)
		return PERF_MMAP_READ_NOMEM;
	if (ksrc_libperf_start(lp->map) != ksrc_libperf_end(lp->map)) {
		lp->stats.bad_size++;
		return PERF_MMAP_READ_BAD_SIZE;
	}
	return PERF_MMAP_READ_END;
}

static enum perf_mmap_read_status read_init(struct perf_mmap_libperf *lp)
{
	int ret = ksrc_libperf_read_init(lp->map);

	if (ret == -EAGAIN)
		return PERF_MMAP_READ_STOPPED;	/* nothing to read: not an error */
	if (ret) {
		lp->stats.bad_size++;
		return PERF_MMAP_READ_BAD_SIZE;
	}
	return PERF_MMAP_READ_END;
}

enum perf_mmap_read_status
perf_mmap_libperf__read_forward(struct perf_mmap_libperf *lp, unsigned long max,
				perf_mmap_record_fn fn, void *arg)
{
	const struct perf_event_header *ev = NULL;
	enum perf_mmap_read_status st = read_init(lp);
	unsigned long n = 0;
	uint64_t from, to;

	if (st == PERF_MMAP_READ_STOPPED)
		return PERF_MMAP_READ_END;
	if (st != PERF_MMAP_READ_END)
		return st;
	while (!max || n < max) {
		int stop;

		lp->pos = ksrc_libperf_start(lp->map);
		ev = (const struct perf_event_header *)read_event(lp);
		if (!ev)
			break;
		stop = deliver(lp, ev, fn, arg);
		ksrc_libperf_consume(lp->map);
		n++;
		if (stop)
			return PERF_MMAP_READ_STOPPED;
	}
	if (ev)
		return PERF_MMAP_READ_END;	/* max records: the batch goes on next time */
	st = batch_end(lp);
	from = ksrc_libperf_prev(lp->map);
	if (lp->before_read_done)
		lp->before_read_done(lp, lp->hook_arg);
	ksrc_libperf_read_done(lp->map);
	to = ksrc_libperf_prev(lp->map);
	if (to != from) {
		lp->read_done_skips++;
		lp->read_done_skipped_bytes += to - from;
		if (lp->skipped)
			lp->skipped(lp, from, to, lp->hook_arg);
	}
	return st;
}

enum perf_mmap_read_status
perf_mmap_libperf__peek_forward(struct perf_mmap_libperf *lp, perf_mmap_record_fn fn, void *arg)
{
	uint64_t prev = ksrc_libperf_prev(lp->map);
	const struct perf_event_header *ev;
	enum perf_mmap_read_status st = read_init(lp);

	/* prev goes back whatever read_init did: it moves prev past an overrun */
	if (st == PERF_MMAP_READ_STOPPED) {
		st = PERF_MMAP_READ_END;
	} else if (st == PERF_MMAP_READ_END) {
		for (;;) {
			lp->pos = ksrc_libperf_start(lp->map);
			ev = (const struct perf_event_header *)read_event(lp);
			if (!ev) {
				st = batch_end(lp);
				break;
			}
			if (deliver(lp, ev, fn, arg)) {
				st = PERF_MMAP_READ_STOPPED;
				break;
			}
		}
	}
	ksrc_libperf_set_prev(lp->map, prev);
	return st;
}

enum perf_mmap_read_status
perf_mmap_libperf__read_backward(struct perf_mmap_libperf *lp, bool fresh,
				 perf_mmap_record_fn fn, void *arg)
{
	const struct perf_event_header *ev;
	enum perf_mmap_read_status st;

	if (fresh)
		ksrc_libperf_set_prev(lp->map, 0);	/* perf_mmap__mmap()'s */
	user_page_protect(lp, true);
	st = read_init(lp);
	if (st == PERF_MMAP_READ_STOPPED) {
		st = PERF_MMAP_READ_END;
	} else if (st == PERF_MMAP_READ_END) {
		for (;;) {
			lp->pos = ksrc_libperf_start(lp->map);
			ev = (const struct perf_event_header *)read_event(lp);
			if (!ev) {
				st = batch_end(lp);
				break;
			}
			if (deliver(lp, ev, fn, arg)) {
				st = PERF_MMAP_READ_STOPPED;
				break;
			}
			/* the documented loop's: it must not write the read-only page */
			ksrc_libperf_consume(lp->map);
		}
		ksrc_libperf_read_done(lp->map);
	}
	user_page_protect(lp, false);
	return st;
}

#else /* no kernel tree: no libperf */

bool perf_mmap_libperf__available(void)
{
	return false;
}

int perf_mmap_libperf__init(struct perf_mmap_libperf *lp, void *base, bool overwrite, bool protect)
{
	(void)base;
	(void)overwrite;
	(void)protect;
	memset(lp, 0, sizeof(*lp));
	return -EOPNOTSUPP;
}

void perf_mmap_libperf__exit(struct perf_mmap_libperf *lp)
{
	(void)lp;
}

uint64_t perf_mmap_libperf__prev(const struct perf_mmap_libperf *lp)
{
	(void)lp;
	return 0;
}

void perf_mmap_libperf__set_prev(struct perf_mmap_libperf *lp, uint64_t prev)
{
	(void)lp;
	(void)prev;
}

enum perf_mmap_read_status
perf_mmap_libperf__read_forward(struct perf_mmap_libperf *lp, unsigned long max,
				perf_mmap_record_fn fn, void *arg)
{
	(void)lp, (void)max, (void)fn, (void)arg;
	return PERF_MMAP_READ_BAD_SIZE;
}

enum perf_mmap_read_status
perf_mmap_libperf__peek_forward(struct perf_mmap_libperf *lp, perf_mmap_record_fn fn, void *arg)
{
	(void)lp, (void)fn, (void)arg;
	return PERF_MMAP_READ_BAD_SIZE;
}

enum perf_mmap_read_status
perf_mmap_libperf__read_backward(struct perf_mmap_libperf *lp, bool fresh,
				 perf_mmap_record_fn fn, void *arg)
{
	(void)lp, (void)fresh, (void)fn, (void)arg;
	return PERF_MMAP_READ_BAD_SIZE;
}
#endif
