/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The executable mappings of a perf.data's processes, from its MMAP and
 * MMAP2 records (the counterpart of machine__process_mmap2_event and
 * map__new in tools/perf/util/map.c, maps__find in maps.c): each one is
 * anonymous memory, whose symbols are in the process's perf-PID.map, or
 * a DSO mapped from a file offset, whose symbols are in the file.
 * symbol.c reads the symbols; this file only knows where things are.
 *
 * Names point into the records: the perf.data stays mapped while the
 * maps are in use.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_MAP_H
#define PMUSIM_TOOLS_PERF_UTIL_MAP_H

#include "core/kernel.h"
#include "tools/perf/util/perf_map.h"

/* A DSO mapped at START from PGOFF, its .symtab read once, on first use (symbol.c). */
struct dso {
	const char *filename;		/* in the mapping's record */
	u64 start, pgoff;
	bool tried, loaded;
	struct perf_map map;
};

/* An executable mapping of process PID. */
struct map {
	u32 pid;
	u64 start, end;
	u64 pgoff;
	int dso;			/* index in maps.dsos, -1: anonymous */
};

struct maps {
	struct map *maps;		/* in record order: a later one covers an earlier */
	size_t nr_maps, cap_maps;
	struct dso *dsos;		/* one per file, start and pgoff */
	size_t nr_dsos, cap_dsos;
};

/* Is NAME (LEN bytes) one perf treats as anonymous memory (its perf-PID.map applies)? */
bool is_anon_memory(const char *name, size_t len);

/*
 * An MMAP (type 1) or MMAP2 (type 10) record EV of SIZE bytes: an
 * executable range is remembered, with the DSO it maps unless anonymous;
 * other records and a record too short for its name are ignored. 0, or
 * -1 with errno ENOMEM.
 */
int maps__process_mmap_event(struct maps *maps, const u8 *ev, u32 size);

/* The latest executable mapping of process PID that covers IP, or NULL. */
const struct map *maps__find(const struct maps *maps, u32 pid, u64 ip);

/*
 * IP as perf prints it: in a DSO's mapping, the address in the DSO (ip -
 * start + pgoff); else (anonymous memory, no mapping: MAP NULL) IP itself.
 */
static inline u64 map__map_ip(const struct map *map, u64 ip)
{
	return map && map->dso >= 0 ? ip - map->start + map->pgoff : ip;
}

/* Frees the mappings and the DSOs with their symbols. */
void maps__exit(struct maps *maps);

#endif
