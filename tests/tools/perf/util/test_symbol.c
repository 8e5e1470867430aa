// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbols found where perf finds them (tools/perf/util/symbol.c): a DSO
 * with a build-id in the perf.data's header by that build-id, in the
 * build-id cache beside the perf.data and then in ~/.debug, never in the
 * file at its name (which may be another build); a DSO without one in the
 * file at its name; anonymous memory in DIR/perf-PID.map of the mapping's
 * process. Each table is read once: a file removed after the first look
 * changes nothing. Where there is no table, or no symbol, there is none.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/kernel.h"
#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/genelf.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/symbol.h"

#define PROT_RX		5

static char dir[64], data[96], maps[96], home[96];

static const struct perf_data_env env = { .version = "6.12", .arch = "x86_64" };

static u8 code[0x60];
/* the same code under other names: a build the cache does not hold */
static const struct genelf_sym cached_syms[] = {
	{ 0x401230, 0x20, "cached_main" }, { 0x401250, 0x30, "cached_leaf" },
};
static const struct genelf_sym plain_syms[] = {
	{ 0x401230, 0x20, "plain_main" }, { 0x401250, 0x30, "plain_leaf" },
};
static const struct genelf_sym home_syms[] = {
	{ 0x401230, 0x20, "home_main" }, { 0x401250, 0x30, "home_leaf" },
};
static struct genelf_dso cached, plain, in_home;

static void build(struct genelf_dso *dso, const struct genelf_sym *syms)
{
	char err[256];

	*dso = (struct genelf_dso){ .text_start = 0x401230, .code = code,
				    .text_size = sizeof(code), .syms = syms, .nr_syms = 2 };
	assert_int_equal(genelf__build(dso, err, sizeof(err)), 0);
}

static void write_file(const char *path, const void *buf, size_t size)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_period = 1000,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct perf_data_writer *w;
	char path[256], err[256], beside[128];

	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "symbol"))
		return -1;
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(maps, sizeof(maps), "%s/maps", dir);
	snprintf(home, sizeof(home), "%s/home", dir);
	if (mkdir(maps, 0700) || mkdir(home, 0700) || setenv("HOME", home, 1))
		return -1;
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (u8)(0x90 + i % 3);
	build(&cached, cached_syms);
	build(&plain, plain_syms);
	build(&in_home, home_syms);

	w = perf_data_writer__open(data, &env);
	if (!w || perf_data_writer__add_attr(w, &attr, "cycles", NULL, 0) ||
	    perf_data_writer__add_build_id(w, cached.build_id, GENELF_BUILD_ID_SIZE,
					   "/pmusim/cached") ||
	    perf_data_writer__add_build_id(w, in_home.build_id, GENELF_BUILD_ID_SIZE,
					   "/pmusim/home") ||
	    perf_data_writer__close(w))
		return -1;
	/* the cache beside the perf.data, ~/.debug, and a DSO at its name */
	snprintf(beside, sizeof(beside), "%s.debug", data);
	if (build_id_cache__add(beside, "/pmusim/cached", cached.build_id, cached.image,
				cached.image_size, err, sizeof(err)))
		return -1;
	snprintf(path, sizeof(path), "%s/.debug", home);
	if (build_id_cache__add(path, "/pmusim/home", in_home.build_id, in_home.image,
				in_home.image_size, err, sizeof(err)))
		return -1;
	snprintf(path, sizeof(path), "%s/plain.so", dir);
	write_file(path, plain.image, plain.image_size);
	snprintf(path, sizeof(path), "%s/perf-100.map", maps);
	write_file(path, "400000 100 jitted_fn\n", 21);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	genelf__exit(&cached);
	genelf__exit(&plain);
	genelf__exit(&in_home);
	return scratch_dir_remove(dir);
}

/* The records, as a mapped perf.data holds them: a DSO's name points into its record. */
static u64 records[16][40];
static unsigned int nr_records;

/* MMAP2 of NAME at DSO's place for process PID into SYMS's maps. */
static void map_dso(struct symbols *syms, u32 pid, const struct genelf_dso *dso, const char *name)
{
	u64 *rec = records[nr_records++ % 16];
	struct perf_event_header h = { .type = PERF_RECORD_MMAP2 };
	size_t n = strlen(name) + 1;

	assert_true(n <= 30 * 8);
	memset(rec, 0, sizeof(records[0]));
	rec[1] = (u64)pid << 32 | pid;
	rec[2] = dso->map_start;
	rec[3] = dso->map_len;
	rec[4] = dso->map_pgoff;
	rec[8] = (u64)2 << 32 | PROT_RX;
	memcpy(&rec[9], name, n);
	h.size = (u16)(72 + ((n + 7) & ~(size_t)7));
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(maps__process_mmap_event(&syms->maps, (const u8 *)rec, h.size), 0);
}

static const char *name_at(struct symbols *syms, u32 pid, u64 ip)
{
	const struct perf_map_sym *sym = map__find_symbol(syms, maps__find(&syms->maps, pid, ip), ip);

	return sym ? sym->name : NULL;
}

static void open_file(struct perf_data_file *f, struct symbols *syms)
{
	if (perf_data_file__open(f, data))
		fail_msg("%s", f->err);
	symbols__init(syms, f, data, maps);
}

static void dsos_by_build_id_or_by_name(void **state)
{
	struct perf_data_file f;
	struct symbols syms;
	char path[256];

	(void)state;
	open_file(&f, &syms);
	map_dso(&syms, 100, &cached, "/pmusim/cached");
	snprintf(path, sizeof(path), "%s/plain.so", dir);
	map_dso(&syms, 200, &plain, path);
	map_dso(&syms, 300, &in_home, "/pmusim/home");
	map_dso(&syms, 500, &plain, "/pmusim/no-such-file");

	assert_string_equal(name_at(&syms, 100, 0x401230), "cached_main");
	assert_string_equal(name_at(&syms, 100, 0x40127f), "cached_leaf");
	assert_null(name_at(&syms, 100, 0x401280));		/* past the last symbol */
	assert_string_equal(name_at(&syms, 200, 0x401250), "plain_leaf");
	assert_string_equal(name_at(&syms, 300, 0x401230), "home_main");
	assert_null(name_at(&syms, 500, 0x401230));
	assert_false(syms.nomem);
	symbols__exit(&syms);
	perf_data_file__close(&f);
}

/* A header giving the file at PATH a build-id no cache holds: that file is not read. */
static void a_build_id_in_no_cache_is_not_the_file_at_the_name(void **state)
{
	static const u8 unknown_bid[20] = { 0xde, 0xad };
	struct perf_data_writer *w;
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_period = 1000,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct perf_data_file f;
	struct symbols syms;
	char path[256], other[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/plain.so", dir);
	snprintf(other, sizeof(other), "%s/other.data", dir);
	w = perf_data_writer__open(other, &env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &attr, "cycles", NULL, 0), 0);
	assert_int_equal(perf_data_writer__add_build_id(w, unknown_bid, 20, path), 0);
	assert_int_equal(perf_data_writer__close(w), 0);
	if (perf_data_file__open(&f, other))
		fail_msg("%s", f.err);
	symbols__init(&syms, &f, other, maps);
	map_dso(&syms, 200, &plain, path);
	assert_null(name_at(&syms, 200, 0x401250));
	assert_true(syms.maps.dsos[0].tried);
	assert_false(syms.maps.dsos[0].loaded);
	assert_false(syms.nomem);
	symbols__exit(&syms);
	perf_data_file__close(&f);
}

static void anonymous_memory_by_perf_pid_map(void **state)
{
	u64 rec[16] = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_MMAP2, .size = 8 + 64 + 8 };
	struct perf_data_file f;
	struct symbols syms;

	(void)state;
	open_file(&f, &syms);
	for (u32 pid = 100; pid <= 101; pid++) {
		rec[1] = (u64)pid << 32 | pid;
		rec[2] = 0x400000;
		rec[3] = 0x1000;
		rec[8] = (u64)2 << 32 | PROT_RX;
		memcpy(&rec[9], "//anon", 7);
		memcpy(rec, &h, sizeof(h));
		assert_int_equal(maps__process_mmap_event(&syms.maps, (const u8 *)rec, h.size), 0);
	}
	assert_string_equal(name_at(&syms, 100, 0x4000ff), "jitted_fn");
	assert_null(name_at(&syms, 100, 0x400100));
	assert_null(name_at(&syms, 101, 0x400010));	/* no perf-101.map */
	assert_null(name_at(&syms, 100, 0x500000));	/* no mapping */
	assert_null(map__find_symbol(&syms, NULL, 0x400010));
	assert_false(syms.nomem);
	symbols__exit(&syms);
	perf_data_file__close(&f);
}

/* What was read stays: the files can go after the first look. */
static void each_table_is_read_once(void **state)
{
	u64 rec[16] = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_MMAP2, .size = 8 + 64 + 8 };
	struct perf_data_file f;
	struct symbols syms;
	char path[256], moved[256];

	(void)state;
	open_file(&f, &syms);
	rec[1] = (u64)100 << 32 | 100;
	rec[2] = 0x400000;
	rec[3] = 0x1000;
	rec[8] = (u64)2 << 32 | PROT_RX;
	memcpy(&rec[9], "//anon", 7);
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(maps__process_mmap_event(&syms.maps, (const u8 *)rec, h.size), 0);
	snprintf(path, sizeof(path), "%s/plain.so", dir);
	map_dso(&syms, 200, &plain, path);
	assert_string_equal(name_at(&syms, 100, 0x400000), "jitted_fn");
	assert_string_equal(name_at(&syms, 200, 0x401230), "plain_main");

	snprintf(path, sizeof(path), "%s/perf-100.map", maps);
	snprintf(moved, sizeof(moved), "%s/moved.map", dir);
	assert_int_equal(rename(path, moved), 0);
	snprintf(path, sizeof(path), "%s/plain.so", dir);
	snprintf(moved, sizeof(moved), "%s/moved.so", dir);
	assert_int_equal(rename(path, moved), 0);
	assert_string_equal(name_at(&syms, 100, 0x400000), "jitted_fn");
	assert_string_equal(name_at(&syms, 200, 0x401230), "plain_main");
	assert_int_equal(syms.nr_pids, 1);
	symbols__exit(&syms);
	perf_data_file__close(&f);

	/* back for the other tests */
	assert_int_equal(rename(moved, path), 0);
	snprintf(path, sizeof(path), "%s/perf-100.map", maps);
	snprintf(moved, sizeof(moved), "%s/moved.map", dir);
	assert_int_equal(rename(moved, path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dsos_by_build_id_or_by_name),
		cmocka_unit_test(a_build_id_in_no_cache_is_not_the_file_at_the_name),
		cmocka_unit_test(anonymous_memory_by_perf_pid_map),
		cmocka_unit_test(each_table_is_read_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
