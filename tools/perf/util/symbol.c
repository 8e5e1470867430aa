// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol tables found and read as perf does. See symbol.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/symbol.h"

/* A process's perf-PID.map, read on first use. */
struct pid_symbols {
	u32 pid;
	bool loaded;
	struct perf_map map;
};

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

void symbols__init(struct symbols *syms, const struct perf_data_file *file, const char *path,
		   const char *map_dir)
{
	memset(syms, 0, sizeof(*syms));
	syms->file = file;
	syms->path = path;
	syms->map_dir = map_dir;
}

void symbols__exit(struct symbols *syms)
{
	for (size_t k = 0; k < syms->nr_pids; k++)
		if (syms->pids[k].loaded)
			perf_map__exit(&syms->pids[k].map);
	free(syms->pids);
	maps__exit(&syms->maps);
	syms->pids = NULL;
	syms->nr_pids = syms->cap_pids = 0;
}

/*
 * Where perf finds a DSO the file names with a build-id: a build-id
 * cache, here PATH.debug/ beside the perf.data (pmusim run writes it) and
 * then ~/.debug; without a build-id, the file itself.
 */
static void dso__load(struct symbols *syms, struct dso *d)
{
	const struct perf_data_build_id *b = perf_data_file__build_id(syms->file, d->filename);
	char dirs[2][4096], path[8400], sbid[41] = "";
	int nr_dirs = 0;

	d->tried = true;
	if (b && b->size >= 2) {
		for (int i = 0; i < b->size; i++)
			sprintf(sbid + 2 * i, "%02x", b->id[i]);
		snprintf(dirs[nr_dirs++], sizeof(dirs[0]), "%s.debug", syms->path);
		if (build_id_cache__default_dir(dirs[nr_dirs], sizeof(dirs[0])))
			nr_dirs++;
		for (int i = 0; i < nr_dirs; i++) {
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf", dirs[i], sbid, sbid + 2);
			if (!perf_map__load_elf(&d->map, path, d->start, d->pgoff)) {
				d->loaded = true;
				return;
			}
			if (errno == ENOMEM) {
				syms->nomem = true;
				return;
			}
		}
		return;		/* the file at the name may be another build */
	}
	d->loaded = !perf_map__load_elf(&d->map, d->filename, d->start, d->pgoff);
	if (!d->loaded && errno == ENOMEM)
		syms->nomem = true;
}

/* Process PID's perf-PID.map, read the first time it is asked for; NULL: none. */
static const struct perf_map *dso__load_perf_map(struct symbols *syms, u32 pid)
{
	struct pid_symbols *ps = NULL;
	char path[4096];

	for (size_t i = 0; i < syms->nr_pids; i++)
		if (syms->pids[i].pid == pid)
			ps = &syms->pids[i];
	if (!ps) {
		if (grow((void **)&syms->pids, &syms->cap_pids, syms->nr_pids + 1,
			 sizeof(*syms->pids))) {
			syms->nomem = true;
			return NULL;
		}
		ps = &syms->pids[syms->nr_pids++];
		memset(ps, 0, sizeof(*ps));
		ps->pid = pid;
		snprintf(path, sizeof(path), "%s/perf-%u.map", syms->map_dir, pid);
		ps->loaded = !perf_map__load(&ps->map, path);
		if (!ps->loaded && errno == ENOMEM)
			syms->nomem = true;
	}
	return ps->loaded ? &ps->map : NULL;
}

const struct perf_map_sym *map__find_symbol(struct symbols *syms, const struct map *map, u64 ip)
{
	const struct perf_map *table;

	if (!map)
		return NULL;
	if (map->dso >= 0) {
		struct dso *d = &syms->maps.dsos[map->dso];

		if (!d->tried)
			dso__load(syms, d);
		if (!d->loaded)
			return NULL;
		table = &d->map;
	} else {
		table = dso__load_perf_map(syms, map->pid);
		if (!table)
			return NULL;
	}
	return perf_map__find(table, ip);
}
