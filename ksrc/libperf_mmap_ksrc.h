/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libperf's own ring-buffer reader, tools/lib/perf/mmap.c of the tree
 * built with (KSRC=DIR), behind an interface that names none of its
 * types: a struct perf_mmap set up as perf_mmap__init() and
 * perf_mmap__mmap() set one up, but over a buffer already mapped
 * (pmusim's, core/'s or the ksrc backend's) instead of an fd. The calls
 * are libperf's, one for one (its include of linux/perf_event.h and
 * pmusim's of <pmusim/perf_event.h> cannot meet: the control page and the
 * records are void pointers here); the unit's bridge is
 * ksrc/tools/lib/perf/mmap_bridge.c. Only with a kernel tree
 * (KSRC_VERSION in <generated/ksrc.h>).
 */
#ifndef PMUSIM_KSRC_LIBPERF_MMAP_KSRC_H
#define PMUSIM_KSRC_LIBPERF_MMAP_KSRC_H

#include <stdbool.h>
#include <stdint.h>

struct ksrc_libperf_map;

/*
 * A struct perf_mmap over the mapping whose control page is @base
 * (data at base + data_offset, data_size bytes): mask = data_size - 1,
 * prev = 0, and libperf's page_size = data_offset (its data is at
 * base + page_size). @overwrite is perf_mmap__init()'s: a backward,
 * read-only buffer. Its reference count is 2, as a perf tool's mmap
 * holds one and its pollfd entry one: consume() never unmaps. NULL when
 * memory runs out.
 */
struct ksrc_libperf_map *ksrc_libperf_map_new(void *base, bool overwrite);
void ksrc_libperf_map_free(struct ksrc_libperf_map *map);

/* perf_mmap__read_init(): 0, -EAGAIN (nothing to read), -EINVAL, -ENOENT. */
int ksrc_libperf_read_init(struct ksrc_libperf_map *map);
/* perf_mmap__read_event(): the next record (its struct perf_event_header), or NULL. */
const void *ksrc_libperf_read_event(struct ksrc_libperf_map *map);
/* perf_mmap__consume() */
void ksrc_libperf_consume(struct ksrc_libperf_map *map);
/* perf_mmap__read_done() */
void ksrc_libperf_read_done(struct ksrc_libperf_map *map);

/* The struct perf_mmap's positions: prev, and the batch [start, end). */
uint64_t ksrc_libperf_prev(const struct ksrc_libperf_map *map);
void ksrc_libperf_set_prev(struct ksrc_libperf_map *map, uint64_t prev);
uint64_t ksrc_libperf_start(const struct ksrc_libperf_map *map);
uint64_t ksrc_libperf_end(const struct ksrc_libperf_map *map);

#endif /* PMUSIM_KSRC_LIBPERF_MMAP_KSRC_H */
