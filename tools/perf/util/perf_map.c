// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-PID.map files: written for the simulated JIT-style code, read back
 * by `pmusim stitch` to name frames the way perf does.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/testcase.h"
#include "tools/perf/util/perf_map.h"

/*
 * "START SIZE name\n". A 10,000-task run writes 440,000 of these lines,
 * and through fprintf they were a quarter of its start-up (callgrind).
 */
static void put_line(FILE *fp, const struct perf_map_sym *sym)
{
	char buf[40], *p = buf;

	p = perf_map__put_hex(p, sym->start);
	*p++ = ' ';
	p = perf_map__put_hex(p, sym->size);
	*p++ = ' ';
	fwrite(buf, 1, (size_t)(p - buf), fp);
	fputs(sym->name, fp);
	fputc('\n', fp);
}

int perf_map__write(const char *dir, int pid, const struct perf_map_sym *syms,
		    size_t nr, char *err, size_t errlen)
{
	char path[4096], tmp[4104];
	FILE *fp;
	size_t i;
	int fd, ok;

	for (i = 0; i < nr; i++) {
		const char *name = syms[i].name;

		if (!name || strlen(name) < PERF_MAP_MIN_NAME || strpbrk(name, "\n\r")) {
			snprintf(err, errlen, "pmusim: symbol '%s' at %llx: perf reads only names of %d or more characters on one line",
				 name ? name : "(null)", (unsigned long long)syms[i].start,
				 PERF_MAP_MIN_NAME);
			errno = EINVAL;
			return -1;
		}
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/perf-%d.map", dir, pid) >= sizeof(path)) {
		snprintf(err, errlen, "pmusim: map directory name too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	/*
	 * A temporary name of our own: runs of the same scenario share the
	 * PID and so the map's name, and one must not rename or remove the
	 * other's half-written file.
	 */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	if (!fp) {
		int e = errno;

		snprintf(err, errlen, "%s: cannot create: %s", tmp, strerror(e));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		errno = e;
		return -1;
	}
	/* mkstemp makes it 0600; perf-PID.map files are world-readable */
	fchmod(fd, 0644);
	for (i = 0; i < nr; i++)
		put_line(fp, &syms[i]);
	ok = !ferror(fp);
	ok = !fclose(fp) && ok;
	if (!ok || rename(tmp, path)) {
		/* the write, fclose() or rename() that failed said why */
		int e = NEVER(!errno) ? EIO : errno;

		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct perf_map_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* "START SIZE name": hex numbers; returns the name or NULL to skip the line. */
static char *parse_line(char *line, u64 *start, u64 *size)
{
	char *end;

	errno = 0;
	*start = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || errno)
		return NULL;
	line = end + 1;
	*size = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || errno)
		return NULL;
	line = end + 1;
	return strlen(line) >= PERF_MAP_MIN_NAME ? line : NULL;
}

int perf_map__load(struct perf_map *map, const char *path)
{
	struct perf_map_sym *syms;
	size_t cap = 0, n = 0;
	char *line = NULL, *name;
	size_t linecap = 0;
	ssize_t len;
	u64 start, size;
	FILE *fp;

	map->syms = NULL;
	map->nr = 0;
	map->strings = NULL;
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	/* getline() ends with -1 at the end of the file and when it cannot grow LINE */
	while ((len = getline(&line, &linecap, fp)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		name = parse_line(line, &start, &size);
		if (!name)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			syms = realloc(map->syms, cap * sizeof(*syms));
			if (!syms)
				goto nomem;
			map->syms = syms;
		}
		map->syms[n].name = strdup(name);
		if (!map->syms[n].name)
			goto nomem;
		map->syms[n].start = start;
		map->syms[n].size = size;
		map->nr = ++n;
	}
	if (!feof(fp)) {
		int e = errno;	/* the read that failed said why */

		free(line);
		fclose(fp);
		perf_map__exit(map);
		errno = NEVER(!e) ? EIO : e;
		return -1;
	}
	free(line);
	fclose(fp);
	if (n)
		qsort(map->syms, n, sizeof(*map->syms), sym_cmp);
	return 0;
nomem:
	free(line);
	fclose(fp);
	perf_map__exit(map);
	errno = ENOMEM;
	return -1;
}

int perf_map__load_elf(struct perf_map *map, const char *path, u64 start, u64 pgoff)
{
	Elf_Scn *scn = NULL;
	Elf *e = NULL;
	int fd, err = EINVAL;
	unsigned int version;
	size_t n = 0;

	map->syms = NULL;
	map->nr = 0;
	map->strings = NULL;
	/* libelf refuses only a version it does not know; it knows its own */
	version = elf_version(EV_CURRENT);
	if (NEVER(version == EV_NONE)) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	errno = 0;	/* libelf says nothing of why it failed; malloc's ENOMEM tells */
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e && errno == ENOMEM)
		err = ENOMEM;
	if (!e || elf_kind(e) != ELF_K_ELF)
		goto fail;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t nr;

		errno = 0;	/* the section headers are read at the first look */
		if (!gelf_getshdr(scn, &sh)) {
			if (errno == ENOMEM) {
				err = ENOMEM;
				goto fail;
			}
			continue;
		}
		if (sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		errno = 0;
		d = elf_getdata(scn, NULL);
		if (!d && errno == ENOMEM) {
			err = ENOMEM;
			goto fail;
		}
		nr = d ? d->d_size / sh.sh_entsize : 0;
		map->syms = calloc(nr ? nr : 1, sizeof(*map->syms));
		if (!map->syms) {
			err = ENOMEM;
			goto fail;
		}
		for (size_t i = 0; i < nr; i++) {
			const char *name;
			GElf_Sym sym;

			if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_value < pgoff)
				continue;
			errno = 0;	/* the string table is read at the first name */
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !(map->syms[n].name = strdup(name))) {
				err = name || errno == ENOMEM ? ENOMEM : EINVAL;
				goto fail;
			}
			map->syms[n].start = start + (sym.st_value - pgoff);
			map->syms[n].size = sym.st_size;
			map->nr = ++n;
		}
		break;
	}
	elf_end(e);
	close(fd);
	if (n)
		qsort(map->syms, n, sizeof(*map->syms), sym_cmp);
	return 0;
fail:
	if (e)
		elf_end(e);
	close(fd);
	perf_map__exit(map);
	errno = err;
	return -1;
}

void perf_map__exit(struct perf_map *map)
{
	if (map->strings)
		free(map->strings);
	else
		for (size_t i = 0; i < map->nr; i++)
			free((char *)map->syms[i].name);
	free(map->syms);
	map->syms = NULL;
	map->nr = 0;
	map->strings = NULL;
}

const struct perf_map_sym *perf_map__find(const struct perf_map *map, u64 ip)
{
	size_t lo = 0, hi = map->nr;

	/* the last symbol starting at or below ip */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map->syms[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (ip - map->syms[lo - 1].start < map->syms[lo - 1].size)
		return &map->syms[lo - 1];
	return NULL;
}
