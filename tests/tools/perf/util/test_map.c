// SPDX-License-Identifier: GPL-2.0-only
/*
 * Executable mappings from MMAP and MMAP2 records (tools/perf/util/map.c):
 * which names perf takes for anonymous memory; which records make a
 * mapping (executable ones, with a NUL-terminated name) and which DSOs
 * (one per file, start and file offset); the latest mapping covering an
 * address wins, for its own process only; and the address perf prints,
 * in the DSO for a DSO's mapping and the address itself otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "core/kernel.h"
#include "tools/perf/util/map.h"
#include "tools/perf/util/perf_data_read.h"

#define PROT_R		1
#define PROT_RX		5

/*
 * The records, as a mapped perf.data holds them: a DSO's name points into
 * its record, which stays while the maps are used.
 */
static u64 records[2000][40];
static unsigned int nr_records;

/* A record: header, BODY (LEN bytes); its size in *SIZE. */
static const u8 *record(u32 type, u16 misc, const u64 *body, u32 len, u32 *size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (u16)(8 + len) };
	u64 *rec = records[nr_records++ % 2000];

	assert_true(len <= sizeof(records[0]) - 8);
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 1, body, len);
	*size = h.size;
	return (const u8 *)rec;
}

static u64 pair(u32 lo, u32 hi)
{
	return (u64)hi << 32 | lo;
}

/* MMAP: pid/tid, start, len, pgoff, the name padded to 8 bytes */
static int mmap1(struct maps *maps, u16 misc, u32 pid, u64 start, u64 len, u64 pgoff,
		 const char *name)
{
	u64 body[32] = { pair(pid, pid), start, len, pgoff };
	size_t n = strlen(name) + 1;
	const u8 *rec;
	u32 size;

	memcpy(&body[4], name, n);
	rec = record(PERF_RECORD_MMAP, misc, body, 32 + (u32)((n + 7) & ~(size_t)7), &size);
	return maps__process_mmap_event(maps, rec, size);
}

/* MMAP2: pid/tid, start, len, pgoff, maj/min, ino, ino_generation, prot/flags, name */
static int mmap2(struct maps *maps, u32 pid, u64 start, u64 len, u64 pgoff, u32 prot,
		 const char *name)
{
	u64 body[32] = { pair(pid, pid), start, len, pgoff, 0, 0, 0, pair(prot, 2) };
	size_t n = strlen(name) + 1;
	const u8 *rec;
	u32 size;

	memcpy(&body[8], name, n);
	rec = record(PERF_RECORD_MMAP2, 0, body, 64 + (u32)((n + 7) & ~(size_t)7), &size);
	return maps__process_mmap_event(maps, rec, size);
}

static bool anon(const char *name)
{
	return is_anon_memory(name, strlen(name));
}

static void anonymous_names_are_perfs(void **state)
{
	(void)state;
	assert_true(anon("//anon"));
	assert_true(anon("/dev/zero"));
	assert_true(anon("/dev/zero (deleted)"));
	assert_true(anon("/anon_hugepage (deleted)"));
	assert_false(anon("//anon2"));
	assert_false(anon("/x/lib"));		/* as long as //anon */
	assert_false(anon("/dev/zer"));
	assert_false(anon("/usr/lib/libc.so.6"));
	assert_false(anon(""));
}

static void executable_mappings_are_kept(void **state)
{
	struct maps maps = { 0 };
	const struct map *m;

	(void)state;
	assert_int_equal(mmap2(&maps, 100, 0x400000, 0x1000, 0, PROT_RX, "//anon"), 0);
	assert_int_equal(mmap2(&maps, 100, 0x500000, 0x1000, 0, PROT_R, "/lib/data"), 0);
	assert_int_equal(mmap1(&maps, 0, 100, 0x600000, 0x1000, 0, "//anon"), 0);
	assert_int_equal(mmap1(&maps, PERF_RECORD_MISC_MMAP_DATA, 100, 0x700000, 0x1000, 0,
			       "/lib/data"), 0);
	assert_int_equal(mmap2(&maps, 100, 0x800000, 0x2000, 0x3000, PROT_RX, "/lib/libx.so"), 0);
	/* a non-executable mapping and a data MMAP are not kept */
	assert_int_equal(maps.nr_maps, 3);
	assert_int_equal(maps.nr_dsos, 1);
	assert_null(maps__find(&maps, 100, 0x500000));
	assert_null(maps__find(&maps, 100, 0x700000));

	m = maps__find(&maps, 100, 0x400010);
	assert_non_null(m);
	assert_int_equal(m->dso, -1);
	assert_int_equal(map__map_ip(m, 0x400010), 0x400010);
	m = maps__find(&maps, 100, 0x600ff8);
	assert_non_null(m);
	assert_int_equal(m->dso, -1);

	/* a DSO's mapping: the address in the DSO, from the file offset */
	m = maps__find(&maps, 100, 0x801234);
	assert_non_null(m);
	assert_int_equal(m->dso, 0);
	assert_string_equal(maps.dsos[0].filename, "/lib/libx.so");
	assert_int_equal(maps.dsos[0].start, 0x800000);
	assert_int_equal(maps.dsos[0].pgoff, 0x3000);
	assert_false(maps.dsos[0].tried);
	assert_int_equal(map__map_ip(m, 0x801234), 0x4234);

	/* the end is not in it, and no mapping: the address itself */
	assert_null(maps__find(&maps, 100, 0x802000));
	assert_int_equal(map__map_ip(NULL, 0x802000), 0x802000);
	maps__exit(&maps);
	assert_int_equal(maps.nr_maps, 0);
	assert_null(maps.maps);
}

static void one_dso_per_file_start_and_offset(void **state)
{
	struct maps maps = { 0 };
	const struct map *m;

	(void)state;
	assert_int_equal(mmap2(&maps, 100, 0x800000, 0x2000, 0x2000, PROT_RX, "/lib/a.so"), 0);
	assert_int_equal(mmap2(&maps, 100, 0x800000, 0x2000, 0x2000, PROT_RX, "/lib/a.so"), 0);
	assert_int_equal(mmap2(&maps, 200, 0x800000, 0x2000, 0x2000, PROT_RX, "/lib/a.so"), 0);
	assert_int_equal(maps.nr_dsos, 1);
	/* remapped from another offset, or elsewhere: another DSO */
	assert_int_equal(mmap2(&maps, 100, 0x800000, 0x2000, 0x3000, PROT_RX, "/lib/a.so"), 0);
	assert_int_equal(mmap2(&maps, 100, 0x900000, 0x2000, 0x2000, PROT_RX, "/lib/a.so"), 0);
	assert_int_equal(mmap2(&maps, 100, 0x800000, 0x2000, 0x2000, PROT_RX, "/lib/b.so"), 0);
	assert_int_equal(maps.nr_dsos, 4);
	assert_int_equal(maps.nr_maps, 6);

	/* the latest mapping covering the address, of the process asked about */
	m = maps__find(&maps, 100, 0x800010);
	assert_non_null(m);
	assert_string_equal(maps.dsos[m->dso].filename, "/lib/b.so");
	m = maps__find(&maps, 200, 0x800010);
	assert_non_null(m);
	assert_int_equal(m->pgoff, 0x2000);
	assert_int_equal(map__map_ip(m, 0x800010), 0x2010);
	assert_null(maps__find(&maps, 300, 0x800010));
	maps__exit(&maps);
}

/* Records that make no mapping: too short for a name, a name without its NUL, another type. */
static void records_without_a_name_are_ignored(void **state)
{
	u64 body[9] = { pair(100, 100), 0xc00000, 0x1000, 0, 0, 0, 0, pair(PROT_RX, 2) };
	struct maps maps = { 0 };
	const u8 *rec;
	u32 size;

	(void)state;
	rec = record(PERF_RECORD_MMAP, 0, body, 32, &size);
	assert_int_equal(maps__process_mmap_event(&maps, rec, size), 0);
	rec = record(PERF_RECORD_MMAP2, 0, body, 64, &size);
	assert_int_equal(maps__process_mmap_event(&maps, rec, size), 0);
	memcpy(&body[8], "/dev/zer", 8);
	rec = record(PERF_RECORD_MMAP2, 0, body, 72, &size);
	assert_int_equal(maps__process_mmap_event(&maps, rec, size), 0);
	rec = record(PERF_RECORD_COMM, 0, body, 72, &size);
	assert_int_equal(maps__process_mmap_event(&maps, rec, size), 0);
	assert_int_equal(maps.nr_maps, 0);
	assert_null(maps__find(&maps, 100, 0xc00000));
	maps__exit(&maps);
}

/* Many mappings: each found, the arrays grown as they filled. */
static void many_mappings(void **state)
{
	struct maps maps = { 0 };
	char name[32];

	(void)state;
	for (u32 i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "/lib/l%u.so", i % 10);
		assert_int_equal(mmap2(&maps, 1 + i % 7, 0x10000000 + (u64)i * 0x10000, 0x1000,
				       0, PROT_RX, name), 0);
	}
	assert_int_equal(maps.nr_maps, 1000);
	assert_int_equal(maps.nr_dsos, 1000);
	for (u32 i = 0; i < 1000; i++) {
		const struct map *m = maps__find(&maps, 1 + i % 7, 0x10000000 + (u64)i * 0x10000);

		assert_non_null(m);
		assert_int_equal(m->dso, (int)i);
		assert_null(maps__find(&maps, 1 + (i + 1) % 7, 0x10000000 + (u64)i * 0x10000));
	}
	maps__exit(&maps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(anonymous_names_are_perfs),
		cmocka_unit_test(executable_mappings_are_kept),
		cmocka_unit_test(one_dso_per_file_start_and_offset),
		cmocka_unit_test(records_without_a_name_are_ignored),
		cmocka_unit_test(many_mappings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
