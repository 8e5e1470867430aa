/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /tmp/perf-PID.map: the symbol file perf reads for anonymous executable
 * mappings (JIT code), one "START SIZE name" line per symbol, hex without
 * 0x (the counterpart of dso__load_perf_map in tools/perf/util/symbol.c).
 *
 * perf 6.1 silently skips names shorter than 3 characters; the writer
 * refuses them rather than pad (a padded name would no longer be the
 * workload's name, and a refused one is noticed).
 */
#ifndef PMUSIM_SIM_PERF_MAP_H
#define PMUSIM_SIM_PERF_MAP_H

#include "core/kernel.h"

#define PERF_MAP_MIN_NAME	3

struct perf_map_sym {
	u64 start;
	u64 size;
	const char *name;	/* at least PERF_MAP_MIN_NAME characters, no newline */
};

/*
 * Write DIR/perf-PID.map (atomically: a .tmp file renamed into place).
 * Real perf only looks in /tmp; tests pass a temporary directory.
 * Returns 0, or -1 with errno EINVAL (a name perf would not read) or an
 * I/O error, and the one-line reason in ERR.
 */
int perf_map__write(const char *dir, int pid, const struct perf_map_sym *syms,
		    size_t nr, char *err, size_t errlen);

/*
 * V in lower-case hex without 0x ("%llx", as perf writes addresses) at P;
 * returns the end. perf_map__hex_digits() is how many characters that is.
 */
static inline unsigned int perf_map__hex_digits(u64 v)
{
	return v ? (67 - (unsigned int)__builtin_clzll(v)) / 4 : 1;
}

static inline char *perf_map__put_hex(char *p, u64 v)
{
	unsigned int n = perf_map__hex_digits(v);

	p += n;
	for (char *q = p; n--; v >>= 4)
		*--q = "0123456789abcdef"[v & 15];
	return p;
}

/* Symbols read back from a map file, sorted by start. */
struct perf_map {
	struct perf_map_sym *syms;	/* names owned by the map */
	size_t nr;
	char *strings;			/* set: every name points into this one block */
};

/*
 * Read PATH as perf does (lines it cannot parse and short names are
 * skipped). Returns 0, or -1 with errno set (ENOENT: no such file).
 */
int perf_map__load(struct perf_map *map, const char *path);

/*
 * The function symbols of the ELF file at PATH (as perf reads a DSO's
 * .symtab), at their run-time addresses for a mapping of the file at
 * START from file offset PGOFF (symbol values are file offsets there, as
 * in the ELF files pmusim writes: tools/perf/util/genelf.h). Returns 0, or
 * -1 with errno set (ENOENT: no such file, EINVAL: not such an ELF file).
 */
int perf_map__load_elf(struct perf_map *map, const char *path, u64 start, u64 pgoff);

void perf_map__exit(struct perf_map *map);

/* The symbol covering IP, or NULL. */
const struct perf_map_sym *perf_map__find(const struct perf_map *map, u64 ip);

#endif
