// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF images of simulated programs: the build-id is the program's (same
 * program, same bytes and id; another code byte or symbol, another id);
 * the symbols read back at their run-time addresses for the mapping
 * genelf__build() gives; the perf.data's BUILD_ID feature round-trips.
 * (The build-id cache is test_build_id_cache.c's.)
 */
#define _GNU_SOURCE	/* memmem */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "tools/perf/util/genelf.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/perf_map.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make(dir, sizeof(dir), "genelf");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static u8 code[0x60];
static const struct genelf_sym syms[] = {
	{ 0x401230, 0x20, "main" },
	{ 0x401250, 0x30, "leaf_function" },
	{ 0x401280, 0x10, "helper" },
};

static void program(struct genelf_dso *dso)
{
	memset(dso, 0, sizeof(*dso));
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (u8)(0x90 + i % 3);
	dso->text_start = 0x401230;
	dso->code = code;
	dso->text_size = 0x60;
	dso->syms = syms;
	dso->nr_syms = 3;
}

static void build(struct genelf_dso *dso)
{
	char err[256];

	assert_int_equal(genelf__build(dso, err, sizeof(err)), 0);
	assert_non_null(dso->image);
}

static void same_program_same_bytes_other_program_other_id(void **state)
{
	struct genelf_dso a, b;
	u8 id[GENELF_BUILD_ID_SIZE];

	(void)state;
	program(&a);
	build(&a);
	program(&b);
	build(&b);
	assert_int_equal(a.image_size, b.image_size);
	assert_memory_equal(a.image, b.image, a.image_size);
	assert_memory_equal(a.build_id, b.build_id, GENELF_BUILD_ID_SIZE);
	memcpy(id, a.build_id, sizeof(id));
	genelf__exit(&b);
	code[5] ^= 1;			/* one code byte */
	build(&b);
	assert_memory_not_equal(id, b.build_id, GENELF_BUILD_ID_SIZE);
	genelf__exit(&b);
	program(&b);
	b.nr_syms = 2;			/* one symbol fewer */
	build(&b);
	assert_memory_not_equal(id, b.build_id, GENELF_BUILD_ID_SIZE);
	genelf__exit(&b);
	/* the note holds the id, as readelf -n would show it */
	assert_non_null(memmem(a.image, a.image_size, "GNU", 4));
	assert_non_null(memmem(a.image, a.image_size, id, sizeof(id)));
	genelf__exit(&a);
}

static void symbols_read_back_at_run_time_addresses(void **state)
{
	struct genelf_dso dso;
	struct perf_map map;
	char path[128];
	FILE *fp;

	(void)state;
	program(&dso);
	build(&dso);
	/* mapped as the kernel would: page-aligned start, pgoff of the page */
	assert_int_equal(dso.map_start, 0x401000);
	assert_int_equal(dso.map_pgoff, 0x1000);
	assert_int_equal(dso.map_len, 0x1000);
	snprintf(path, sizeof(path), "%s/prog", dir);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(dso.image, 1, dso.image_size, fp), dso.image_size);
	fclose(fp);
	assert_int_equal(perf_map__load_elf(&map, path, dso.map_start, dso.map_pgoff), 0);
	assert_int_equal(map.nr, 3);
	assert_string_equal(perf_map__find(&map, 0x401230)->name, "main");
	assert_string_equal(perf_map__find(&map, 0x40127f)->name, "leaf_function");
	assert_string_equal(perf_map__find(&map, 0x401280)->name, "helper");
	assert_null(perf_map__find(&map, 0x401290));
	perf_map__exit(&map);
	/* and the code is where its address says, in the file */
	assert_memory_equal((u8 *)dso.image + 0x1000 + 0x230, code, sizeof(code));
	genelf__exit(&dso);
	assert_int_equal(perf_map__load_elf(&map, "/nonexistent/prog", 0, 0), -1);
	snprintf(path, sizeof(path), "%s/not-elf", dir);
	fp = fopen(path, "w");
	fputs("not an ELF file\n", fp);
	fclose(fp);
	assert_int_equal(perf_map__load_elf(&map, path, 0, 0), -1);
}

static void build_id_feature_round_trips(void **state)
{
	static const struct perf_data_env env = { .hostname = "pmusim" };
	struct perf_event_attr a;
	struct perf_data_writer *w;
	struct perf_data_file f;
	const struct perf_data_build_id *b;
	u8 id[20];
	char path[128];
	u64 one = 1;

	(void)state;
	for (int i = 0; i < 20; i++)
		id[i] = (u8)(i * 7);
	snprintf(path, sizeof(path), "%s/bid.data", dir);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP;
	w = perf_data_writer__open(path, &env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &one, 1), 0);
	assert_int_equal(perf_data_writer__add_build_id(w, id, 20, "/pmusim/first"), 0);
	assert_int_equal(perf_data_writer__add_build_id(w, id, 20,
		"/pmusim/a-name-long-enough-to-take-more-than-one-64-byte-slot-of-padding"), 0);
	assert_int_equal(perf_data_writer__add_build_id(w, id, 21, "/x"), -1);
	assert_int_equal(perf_data_writer__close(w), 0);
	assert_int_equal(perf_data_file__open(&f, path), 0);
	assert_true(perf_data_file__has_feat(&f, HEADER_BUILD_ID));
	assert_int_equal(f.nr_build_ids, 2);
	b = perf_data_file__build_id(&f, "/pmusim/first");
	assert_non_null(b);
	assert_int_equal(b->size, 20);
	assert_memory_equal(b->id, id, 20);
	assert_non_null(perf_data_file__build_id(&f,
		"/pmusim/a-name-long-enough-to-take-more-than-one-64-byte-slot-of-padding"));
	assert_null(perf_data_file__build_id(&f, "/pmusim/other"));
	perf_data_file__close(&f);
}

/* No file descriptor left for the memory file: one line saying so, no image. */
static void no_descriptor_left_fails_with_one_line(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct genelf_dso dso;
		struct rlimit old, rl;
		char err[256];
		int fd = dup(0), ret;	/* the lowest free descriptor: every one below is open */

		if (fd < 0 || close(fd) || getrlimit(RLIMIT_NOFILE, &old))
			_exit(3);
		rl = old;
		rl.rlim_cur = (rlim_t)fd;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(3);
		program(&dso);
		ret = genelf__build(&dso, err, sizeof(err));
		/* back before exit(): a coverage build opens its count files then */
		if (setrlimit(RLIMIT_NOFILE, &old))
			_exit(3);
		if (ret != -1 || dso.image || dso.image_size ||
		    strcmp(err, "pmusim: cannot build an ELF image: memfd_create: Too many open files"))
			exit(4);
		exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_program_same_bytes_other_program_other_id),
		cmocka_unit_test(symbols_read_back_at_run_time_addresses),
		cmocka_unit_test(build_id_feature_round_trips),
		cmocka_unit_test(no_descriptor_left_fails_with_one_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
