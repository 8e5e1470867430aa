// SPDX-License-Identifier: GPL-2.0-only
/*
 * Executable mappings from MMAP and MMAP2 records. See map.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/perf/util/map.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/array_grow.h"

#define LINUX_PROT_EXEC	0x4

bool is_anon_memory(const char *name, size_t len)
{
	return (len == 6 && !memcmp(name, "//anon", 6)) ||
	       (len >= 9 && !memcmp(name, "/dev/zero", 9)) ||
	       (len >= 15 && !memcmp(name, "/anon_hugepage", 14));
}

int maps__process_mmap_event(struct maps *maps, const u8 *ev, u32 size)
{
	struct perf_event_header hdr;
	u32 name_off;
	const char *name;
	u64 start, len, pgoff;
	u32 pid, prot;
	size_t nlen, d;
	bool exec;

	memcpy(&hdr, ev, sizeof(hdr));
	if (hdr.type != PERF_RECORD_MMAP && hdr.type != PERF_RECORD_MMAP2)
		return 0;
	name_off = hdr.type == PERF_RECORD_MMAP ? 8 + 32 : 8 + 64;
	name = (const char *)ev + name_off;
	if (size <= name_off)
		return 0;
	pid = perf_data__get_u32(ev + 8);
	start = perf_data__get_u64(ev + 16);
	len = perf_data__get_u64(ev + 24);
	pgoff = perf_data__get_u64(ev + 32);
	if (hdr.type == PERF_RECORD_MMAP2) {
		prot = perf_data__get_u32(ev + 8 + 56);
		exec = prot & LINUX_PROT_EXEC;
	} else {
		exec = !(hdr.misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	nlen = strnlen(name, size - name_off);
	if (!exec || nlen == size - name_off)
		return 0;
	if (array_grow((void **)&maps->maps, &maps->cap_maps, maps->nr_maps + 1, sizeof(*maps->maps), 16))
		return -1;
	maps->maps[maps->nr_maps] = (struct map){ .pid = pid, .start = start, .end = start + len,
						  .pgoff = pgoff, .dso = -1 };
	if (!is_anon_memory(name, nlen)) {
		for (d = 0; d < maps->nr_dsos; d++)
			if (maps->dsos[d].start == start && maps->dsos[d].pgoff == pgoff &&
			    !strcmp(maps->dsos[d].filename, name))
				break;
		if (d == maps->nr_dsos) {
			if (array_grow((void **)&maps->dsos, &maps->cap_dsos, maps->nr_dsos + 1,
				 sizeof(*maps->dsos), 16))
				return -1;
			maps->dsos[maps->nr_dsos++] = (struct dso){ .filename = name, .start = start,
								    .pgoff = pgoff };
		}
		maps->maps[maps->nr_maps].dso = (int)d;
	}
	maps->nr_maps++;
	return 0;
}

const struct map *maps__find(const struct maps *maps, u32 pid, u64 ip)
{
	for (size_t i = maps->nr_maps; i > 0; i--) {
		const struct map *m = &maps->maps[i - 1];

		if (m->pid == pid && ip >= m->start && ip < m->end)
			return m;
	}
	return NULL;
}

void maps__exit(struct maps *maps)
{
	for (size_t k = 0; k < maps->nr_dsos; k++)
		if (maps->dsos[k].loaded)
			perf_map__exit(&maps->dsos[k].map);
	free(maps->dsos);
	free(maps->maps);
	memset(maps, 0, sizeof(*maps));
}
