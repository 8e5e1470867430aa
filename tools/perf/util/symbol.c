// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol tables found and read as perf does. See symbol.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/symbol.h"
#include "tools/perf/util/symbol_elf.h"
#include "tools/perf/util/array_grow.h"

/* A process's perf-PID.map, read on first use. */
struct pid_symbols {
	u32 pid;
	bool loaded;
	struct perf_map map;
};

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
 * The places perf 6.1 looks for a user-space DSO's symbols, in its order
 * (binary_type_symtab in tools/perf/util/symbol.c, the file names as
 * dso__read_binary_type_filename makes them). pmusim's build-id cache
 * beside the perf.data (PATH.debug/, which perf reads given
 * --buildid-dir) comes before the user's.
 */
enum dso_binary_type {
	DSO_BINARY_TYPE__DEBUGLINK,		/* the file .gnu_debuglink names */
	DSO_BINARY_TYPE__PMUSIM_CACHE,		/* PATH.debug/.build-id/xx/yyy/elf */
	DSO_BINARY_TYPE__PMUSIM_CACHE_DEBUGINFO,	/* ... /debug */
	DSO_BINARY_TYPE__BUILD_ID_CACHE,	/* ~/.debug/.build-id/xx/yyy/elf */
	DSO_BINARY_TYPE__BUILD_ID_CACHE_DEBUGINFO,	/* ... /debug */
	DSO_BINARY_TYPE__FEDORA_DEBUGINFO,	/* /usr/lib/debug/NAME.debug */
	DSO_BINARY_TYPE__UBUNTU_DEBUGINFO,	/* /usr/lib/debug/NAME */
	DSO_BINARY_TYPE__BUILDID_DEBUGINFO,	/* /usr/lib/debug/.build-id/xx/yyy.debug */
	DSO_BINARY_TYPE__SYSTEM_PATH_DSO,	/* NAME */
	DSO_BINARY_TYPE__OPENEMBEDDED_DEBUGINFO,	/* DIR/.debug/BASE */
	DSO_BINARY_TYPE__NR,
};

#define DEBUG_DIR	"/usr/lib/debug"

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A build-id cache entry, the old layout (a file at the link) or the new (a directory). */
static int build_id_cache_filename(char *buf, size_t size, const char *dir, const char *sbid,
				   const char *base)
{
	if ((size_t)snprintf(buf, size, "%s/.build-id/%.2s/%s", dir, sbid, sbid + 2) >= size)
		return -1;
	if (is_regular_file(buf))
		return 0;
	return (size_t)snprintf(buf, size, "%s/.build-id/%.2s/%s/%s", dir, sbid, sbid + 2,
				base) >= size ? -1 : 0;
}

/* Where TYPE says D's symbols may be, in BUF: 0, -1 (TYPE does not apply), -2 (no memory). */
static int dso__read_binary_type_filename(const struct symbols *syms, const struct dso *d,
					  const char *sbid, enum dso_binary_type type,
					  char *buf, size_t size)
{
	const char *name = d->filename, *slash = strrchr(name, '/');
	int dir_len = slash ? (int)(slash - name) : 0;
	char link[256], dir[4096];

	switch (type) {
	case DSO_BINARY_TYPE__DEBUGLINK: {
		static const char *const paths[] = { "%.0s%s", "%s/%s", "%s/.debug/%s",
						     DEBUG_DIR "%s/%s" };

		if (!is_regular_file(name))
			return -1;
		if (filename__read_debuglink(name, link, sizeof(link)))
			return errno == ENOMEM ? -2 : -1;
		snprintf(dir, sizeof(dir), "%.*s", dir_len, name);
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
			if ((size_t)snprintf(buf, size, paths[i], dir, link) < size &&
			    is_regular_file(buf))
				return 0;
		}
		return -1;
	}
	case DSO_BINARY_TYPE__PMUSIM_CACHE:
	case DSO_BINARY_TYPE__PMUSIM_CACHE_DEBUGINFO:
		if (!*sbid)
			return -1;
		snprintf(dir, sizeof(dir), "%s.debug", syms->path);
		return build_id_cache_filename(buf, size, dir, sbid,
					       type == DSO_BINARY_TYPE__PMUSIM_CACHE ? "elf" : "debug");
	case DSO_BINARY_TYPE__BUILD_ID_CACHE:
	case DSO_BINARY_TYPE__BUILD_ID_CACHE_DEBUGINFO:
		if (!*sbid || !build_id_cache__default_dir(dir, sizeof(dir)))
			return -1;
		return build_id_cache_filename(buf, size, dir, sbid,
					       type == DSO_BINARY_TYPE__BUILD_ID_CACHE ? "elf" : "debug");
	case DSO_BINARY_TYPE__FEDORA_DEBUGINFO:
		return (size_t)snprintf(buf, size, DEBUG_DIR "%s.debug", name) >= size ? -1 : 0;
	case DSO_BINARY_TYPE__UBUNTU_DEBUGINFO:
		return (size_t)snprintf(buf, size, DEBUG_DIR "%s", name) >= size ? -1 : 0;
	case DSO_BINARY_TYPE__BUILDID_DEBUGINFO:
		if (!*sbid)
			return -1;
		return (size_t)snprintf(buf, size, DEBUG_DIR "/.build-id/%.2s/%s.debug", sbid,
					sbid + 2) >= size ? -1 : 0;
	case DSO_BINARY_TYPE__SYSTEM_PATH_DSO:
		return (size_t)snprintf(buf, size, "%s", name) >= size ? -1 : 0;
	case DSO_BINARY_TYPE__OPENEMBEDDED_DEBUGINFO:
		if (!slash)
			return -1;
		return (size_t)snprintf(buf, size, "%.*s/.debug%s", dir_len, name, slash) >= size ?
		       -1 : 0;
	default:
		return -1;
	}
}

/*
 * Read D's symbols as perf's dso__load does for a user-space DSO: the
 * first source with a .symtab gives the symbols, the first with a
 * .dynsym is the runtime file (symbol_elf.h). A DSO the perf.data gives a
 * build-id is read only from files of that build.
 */
static void dso__load(struct symbols *syms, struct dso *d)
{
	const struct perf_data_build_id *b = perf_data_file__build_id(syms->file, d->filename);
	struct symsrc ss[2], *syms_ss = NULL, *runtime_ss = NULL;
	char path[8400], sbid[41] = "";
	int nr_ss = 0;

	d->tried = true;
	if (b && b->size) {
		for (int i = 0; i < b->size; i++)
			sprintf(sbid + 2 * i, "%02x", b->id[i]);
	}
	for (int type = 0; type < DSO_BINARY_TYPE__NR; type++) {
		struct symsrc *s = &ss[nr_ss];
		bool keep = false;

		int found = dso__read_binary_type_filename(syms, d, sbid, type, path, sizeof(path));

		if (found == -2) {
			syms->nomem = true;
			break;
		}
		if (found || !is_regular_file(path))
			continue;
		if (symsrc__init(s, path, b ? b->id : NULL, b ? b->size : 0)) {
			if (errno == ENOMEM) {
				syms->nomem = true;
				break;
			}
			continue;
		}
		if (!syms_ss && symsrc__has_symtab(s)) {
			syms_ss = s;
			keep = true;
		}
		if (!runtime_ss && symsrc__possibly_runtime(s)) {
			runtime_ss = s;
			keep = true;
		}
		if (!keep) {
			symsrc__destroy(s);
			continue;
		}
		nr_ss++;
		if (syms_ss && runtime_ss)
			break;
	}
	if (!syms_ss)
		syms_ss = runtime_ss;
	if (!runtime_ss)
		runtime_ss = syms_ss;
	if (syms_ss && !syms->nomem) {
		d->loaded = !dso__load_sym(&d->map, syms_ss, runtime_ss);
		if (!d->loaded && errno == ENOMEM)
			syms->nomem = true;
	}
	while (nr_ss > 0)
		symsrc__destroy(&ss[--nr_ss]);
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
		if (array_grow((void **)&syms->pids, &syms->cap_pids, syms->nr_pids + 1,
			 sizeof(*syms->pids), 16)) {
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
		/* the table is at file offsets */
		return perf_map__find(&d->map, map__map_ip(map, ip));
	}
	table = dso__load_perf_map(syms, map->pid);
	if (!table)
		return NULL;
	return perf_map__find(table, ip);
}
