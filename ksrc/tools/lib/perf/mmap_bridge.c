// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bridge of the libperf_mmap unit: libperf's struct perf_mmap over a
 * buffer pmusim has mapped already (ksrc/libperf_mmap_ksrc.h). Built
 * with libperf's include directories, so struct perf_mmap is the tree's.
 */
#include <stdlib.h>
#include <internal/mmap.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include <perf/mmap.h>
#include <linux/refcount.h>

#include "ksrc/libperf_mmap_ksrc.h"

/* libperf's lib.c: where a mapping's data starts (ksrc/tools/lib/perf/lib_stubs.c). */
extern unsigned int page_size;

struct ksrc_libperf_map {
	struct perf_mmap map;
};

struct ksrc_libperf_map *ksrc_libperf_map_new(void *user, bool overwrite)
{
	struct ksrc_libperf_map *m = calloc(1, sizeof(*m));
	struct perf_event_mmap_page *base = user;

	if (!m)
		return NULL;
	perf_mmap__init(&m->map, NULL, overwrite, NULL);
	/* what perf_mmap__mmap() sets, the mapping being made already */
	page_size = (unsigned int)base->data_offset;
	m->map.prev = 0;
	m->map.mask = (int)(base->data_size - 1);
	m->map.base = base;
	/* the mmap's reference and its pollfd entry's (perf_evlist__mmap_cb_get) */
	refcount_set(&m->map.refcnt, 2);
	return m;
}

void ksrc_libperf_map_free(struct ksrc_libperf_map *m)
{
	if (!m)
		return;
	/*
	 * The tree's perf_mmap__munmap() frees what its reader allocated (the
	 * copy of a wrapped record: 6.12's reader allocates it, 6.1's has it
	 * in the map).
	 * Without a base it unmaps nothing: the mapping is pmusim's.
	 */
	m->map.base = NULL;
	perf_mmap__munmap(&m->map);
	free(m);
}

int ksrc_libperf_read_init(struct ksrc_libperf_map *m)
{
	return perf_mmap__read_init(&m->map);
}

const void *ksrc_libperf_read_event(struct ksrc_libperf_map *m)
{
	union perf_event *event = perf_mmap__read_event(&m->map);

	return event ? &event->header : NULL;
}

void ksrc_libperf_consume(struct ksrc_libperf_map *m)
{
	perf_mmap__consume(&m->map);
}

void ksrc_libperf_read_done(struct ksrc_libperf_map *m)
{
	perf_mmap__read_done(&m->map);
}

uint64_t ksrc_libperf_prev(const struct ksrc_libperf_map *m)
{
	return m->map.prev;
}

void ksrc_libperf_set_prev(struct ksrc_libperf_map *m, uint64_t prev)
{
	m->map.prev = prev;
}

uint64_t ksrc_libperf_start(const struct ksrc_libperf_map *m)
{
	return m->map.start;
}

uint64_t ksrc_libperf_end(const struct ksrc_libperf_map *m)
{
	return m->map.end;
}
