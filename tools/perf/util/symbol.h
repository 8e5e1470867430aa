/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The symbols of a perf.data's addresses, found where perf finds them
 * (the counterpart of dso__load, dso__load_perf_map and map__find_symbol
 * in tools/perf/util/symbol.c and map.c): in a DSO's ELF file, looked up
 * by the build-id the file's header gives it in a build-id cache (PATH.debug/
 * beside the perf.data, then ~/.debug), or at its name when it has none;
 * for anonymous memory, in DIR/perf-PID.map. Each table is read once, on
 * first use.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_SYMBOL_H
#define PMUSIM_TOOLS_PERF_UTIL_SYMBOL_H

#include "tools/perf/util/map.h"
#include "tools/perf/util/perf_map.h"

struct perf_data_file;
struct pid_symbols;

struct symbols {
	const struct perf_data_file *file;	/* its BUILD_ID list */
	const char *path;		/* the perf.data: PATH.debug/ is a build-id cache */
	const char *map_dir;		/* where perf-PID.map files are (perf: /tmp) */
	struct maps maps;		/* the file's executable mappings (map.h) */
	struct pid_symbols *pids;	/* perf-PID.map tables, one per process asked for */
	size_t nr_pids, cap_pids;
	bool nomem;			/* a table could not be read for want of memory */
};

/* Ready for FILE (read from PATH), perf-PID.map files in MAP_DIR; nothing is read yet. */
void symbols__init(struct symbols *syms, const struct perf_data_file *file, const char *path,
		   const char *map_dir);
void symbols__exit(struct symbols *syms);

/*
 * The symbol covering IP in MAP (from maps__find(&syms->maps, ...)), its
 * table read if this is the first look, or NULL: no mapping, no table
 * (syms->nomem says whether for want of memory) or no symbol there.
 */
const struct perf_map_sym *map__find_symbol(struct symbols *syms, const struct map *map, u64 ip);

#endif
