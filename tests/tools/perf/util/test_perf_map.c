// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-PID.map files: the bytes written (checked against printf's "%llx"
 * at both ends of the range), the symbols read back as perf reads them,
 * and names perf would skip refused with nothing written; the symbols
 * of an ELF image (genelf's, then damaged) as perf_map__load_elf() maps
 * them.
 */
#include <elf.h>
#include <errno.h>
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
#include "tools/perf/util/perf_map.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	return scratch_dir_make(dir, sizeof(dir), "perfmap");
}

static int remove_dir(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static void lines_are_hex_start_size_name(void **state)
{
	const struct perf_map_sym syms[] = {
		{ 0, 0, "zero_at_zero" },
		{ 0x10, 0x1, "tchain_f01" },
		{ 0x7f0000001000ULL, 0xabcdef, "a name with spaces" },
		{ ~0ULL - 0xfff, 0xfff, "at_the_top" },
		{ 0xfedcba9876543210ULL, ~0ULL, "all_digits" },
	};
	char path[128], want[1024] = "", *got;
	size_t i;

	(void)state;
	assert_int_equal(perf_map__write(dir, 4242, syms, 5, (char[128]){ 0 }, 128), 0);
	for (i = 0; i < 5; i++) {
		char line[128];

		snprintf(line, sizeof(line), "%llx %llx %s\n", (unsigned long long)syms[i].start,
			 (unsigned long long)syms[i].size, syms[i].name);
		strcat(want, line);
	}
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	got = scratch_read(path);
	assert_string_equal(got, want);
	free(got);
}

static void read_back_sorted_and_found(void **state)
{
	const struct perf_map_sym syms[] = {
		{ 0x2000, 0x100, "second_fn" },
		{ 0x1000, 0x80, "first_fn" },
	};
	struct perf_map map;
	char path[128];
	const struct perf_map_sym *s;

	(void)state;
	assert_int_equal(perf_map__write(dir, 4243, syms, 2, (char[128]){ 0 }, 128), 0);
	snprintf(path, sizeof(path), "%s/perf-4243.map", dir);
	assert_int_equal(perf_map__load(&map, path), 0);
	assert_int_equal(map.nr, 2);
	assert_string_equal(map.syms[0].name, "first_fn");
	assert_int_equal(map.syms[1].start, 0x2000);
	s = perf_map__find(&map, 0x107f);
	assert_non_null(s);
	assert_string_equal(s->name, "first_fn");
	assert_null(perf_map__find(&map, 0x1080));
	s = perf_map__find(&map, 0x20ff);
	assert_non_null(s);
	assert_string_equal(s->name, "second_fn");
	perf_map__exit(&map);
}

static void short_or_multiline_names_are_refused(void **state)
{
	const struct perf_map_sym shorty[] = { { 0x1000, 0x10, "ab" } };
	const struct perf_map_sym twoline[] = { { 0x1000, 0x10, "fine_name" },
						{ 0x2000, 0x10, "bad\nname" } };
	const struct perf_map_sym carriage[] = { { 0x1000, 0x10, "bad\rname" } };
	const struct perf_map_sym nameless[] = { { 0x3000, 0x10, NULL } };
	char err[256], path[128];

	(void)state;
	errno = 0;
	assert_int_equal(perf_map__write(dir, 4244, shorty, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "'ab'"));
	errno = 0;
	assert_int_equal(perf_map__write(dir, 4244, twoline, 2, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(perf_map__write(dir, 4244, carriage, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(perf_map__write(dir, 4244, nameless, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "symbol '(null)' at 3000:"));
	snprintf(path, sizeof(path), "%s/perf-4244.map", dir);
	assert_int_equal(access(path, F_OK), -1);
}

/* Lines perf would skip are skipped; a last line without its newline is read. */
static void load_skips_what_perf_skips(void **state)
{
	static const char text[] =
		"1000 10 first_fn\n"
		"zz 10 not_hex_start\n"
		"2000zz 10 junk_after_start\n"
		"3000 qq not_hex_size\n"
		"4000 10zz junk_after_size\n"
		"5000 10 ab\n"				/* a name perf reads too short */
		"ffffffffffffffffff 10 start_too_big\n"
		"7000 ffffffffffffffffff size_too_big\n"
		"6000 10 last_fn";			/* no newline */
	struct perf_map map;
	char path[128];
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/perf-skip.map", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(perf_map__load(&map, path), 0);
	assert_int_equal(map.nr, 2);
	assert_string_equal(map.syms[0].name, "first_fn");
	assert_string_equal(map.syms[1].name, "last_fn");
	perf_map__exit(&map);

	/* none at all: an empty map */
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(perf_map__load(&map, path), 0);
	assert_int_equal(map.nr, 0);
	assert_null(perf_map__find(&map, 0x1000));
	perf_map__exit(&map);

	snprintf(path, sizeof(path), "%s/no-such.map", dir);
	errno = 0;
	assert_int_equal(perf_map__load(&map, path), -1);
	assert_int_equal(errno, ENOENT);
}

/* 1000 symbols, written out of order: all read back, sorted. */
static void many_symbols_read_back_sorted(void **state)
{
	static struct perf_map_sym syms[1000];
	static char names[1000][16];
	struct perf_map map;
	char path[128], err[256];

	(void)state;
	for (int i = 0; i < 1000; i++) {
		snprintf(names[i], sizeof(names[i]), "fn_%04d", i);
		syms[i].start = 0x100000 + (u64)((i * 7919) % 1000) * 0x100;
		syms[i].size = 0x80;
		syms[i].name = names[i];
	}
	assert_int_equal(perf_map__write(dir, 4245, syms, 1000, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/perf-4245.map", dir);
	assert_int_equal(perf_map__load(&map, path), 0);
	assert_int_equal(map.nr, 1000);
	for (size_t i = 1; i < map.nr; i++)
		assert_true(map.syms[i - 1].start < map.syms[i].start);
	assert_string_equal(perf_map__find(&map, 0x100000 + 919 * 0x100 + 0x7f)->name, "fn_0001");
	perf_map__exit(&map);
}

/* A directory that is not there, or a name too long for a path: one line, nothing written. */
static void write_failures_name_the_file(void **state)
{
	const struct perf_map_sym syms[] = { { 0x1000, 0x10, "fine_name" } };
	char err[256], nodir[128], longdir[4200];

	(void)state;
	snprintf(nodir, sizeof(nodir), "%s/no/such", dir);
	errno = 0;
	assert_int_equal(perf_map__write(nodir, 7, syms, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/no/such/perf-7.map."));
	assert_non_null(strstr(err, ": cannot create: No such file or directory"));
	memset(longdir, 'd', 4100);
	longdir[0] = '/';
	longdir[4100] = '\0';
	assert_int_equal(perf_map__write(longdir, 7, syms, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_string_equal(err, "pmusim: map directory name too long");
}

/* perf-PID.map is a directory: the rename fails, the temporary file goes. */
static void a_map_that_cannot_replace_the_target_leaves_nothing(void **state)
{
	const struct perf_map_sym syms[] = { { 0x1000, 0x10, "fine_name" } };
	char err[256], path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub/perf-8.map", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub", dir);
	errno = 0;
	assert_int_equal(perf_map__write(path, 8, syms, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, EISDIR);
	snprintf(path, sizeof(path), "%s/sub/perf-8.map: cannot write: %s", dir, strerror(EISDIR));
	assert_string_equal(err, path);
	/* the directory holds the one it held: perf-8.map */
	snprintf(path, sizeof(path), "ls -A %s/sub | grep -qvx perf-8.map", dir);
	assert_int_not_equal(system(path), 0);
}

/* The file cannot be written whole (a file-size limit): one line, no file. */
static void a_map_too_large_for_the_limit_leaves_nothing(void **state)
{
	static struct perf_map_sym syms[64];
	char path[128];
	pid_t pid;
	int status;

	(void)state;
	for (int i = 0; i < 64; i++)
		syms[i] = (struct perf_map_sym){ 0x1000 + (u64)i * 0x10, 0x10, "a_function_name" };
	snprintf(path, sizeof(path), "%s/limited", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct rlimit old, rl;
		char err[256], want[300];
		int ret, e;

		signal(SIGXFSZ, SIG_IGN);
		if (getrlimit(RLIMIT_FSIZE, &old))
			_exit(3);
		rl = old;
		rl.rlim_cur = 100;
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(3);
		ret = perf_map__write(path, 9, syms, 64, err, sizeof(err));
		e = errno;
		/* back before exit(): a coverage build writes its counts then */
		if (setrlimit(RLIMIT_FSIZE, &old))
			_exit(3);
		snprintf(want, sizeof(want), "%s/perf-9.map: cannot write: %s", path, strerror(EFBIG));
		exit(ret != -1 || e != EFBIG ? 4 : strcmp(err, want) ? 5 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	snprintf(path, sizeof(path), "[ -z \"$(ls -A %s/limited)\" ]", dir);
	assert_int_equal(system(path), 0);
}

/* A directory read as a map: the read error, not an empty map. */
static void a_map_that_cannot_be_read_is_an_error(void **state)
{
	struct perf_map map;

	(void)state;
	errno = 0;
	assert_int_equal(perf_map__load(&map, dir), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(map.nr, 0);
	assert_null(map.syms);
}

static u8 elf_code[0x60];
static const struct genelf_sym elf_syms[] = {
	{ 0x401230, 0x20, "main" },
	{ 0x401250, 0x30, "leaf_function" },
	{ 0x401280, 0x10, "helper" },
};

/* genelf's image of three functions, with DAMAGE done to it, in PATH. */
static void write_elf(const char *path, void (*damage)(u8 *image, Elf64_Shdr *symtab))
{
	struct genelf_dso dso = {
		.text_start = 0x401230, .code = elf_code, .text_size = sizeof(elf_code),
		.syms = elf_syms, .nr_syms = 3,
	};
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	char err[256];
	FILE *fp;

	assert_int_equal(genelf__build(&dso, err, sizeof(err)), 0);
	memcpy(&eh, dso.image, sizeof(eh));
	/* genelf's sections: null, note, text, symtab, strtab, shstrtab */
	memcpy(&sh, (u8 *)dso.image + eh.e_shoff + 3 * sizeof(sh), sizeof(sh));
	assert_int_equal(sh.sh_type, SHT_SYMTAB);
	if (damage)
		damage(dso.image, &sh);
	memcpy((u8 *)dso.image + eh.e_shoff + 3 * sizeof(sh), &sh, sizeof(sh));
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(dso.image, 1, dso.image_size, fp), dso.image_size);
	assert_int_equal(fclose(fp), 0);
	genelf__exit(&dso);
}

static void no_symtab(u8 *image, Elf64_Shdr *sh)
{
	(void)image;
	sh->sh_type = SHT_PROGBITS;
}

static void no_entsize(u8 *image, Elf64_Shdr *sh)
{
	(void)image;
	sh->sh_entsize = 0;
}

static void symtab_past_the_end(u8 *image, Elf64_Shdr *sh)
{
	(void)image;
	sh->sh_offset = 1 << 20;
}

static void name_past_strtab(u8 *image, Elf64_Shdr *sh)
{
	Elf64_Sym sym;

	/* symbol 2 (leaf_function): its name far past the string table */
	memcpy(&sym, image + sh->sh_offset + 2 * sizeof(sym), sizeof(sym));
	sym.st_name = 0x7fff;
	memcpy(image + sh->sh_offset + 2 * sizeof(sym), &sym, sizeof(sym));
}

/* ELF images perf would find no symbols in, or a bad one: what load_elf makes of them. */
static void elf_images_without_usable_symbols(void **state)
{
	void (*const empty[])(u8 *, Elf64_Shdr *) = { no_symtab, no_entsize, symtab_past_the_end };
	struct perf_map map;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/prog", dir);
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		write_elf(path, empty[i]);
		assert_int_equal(perf_map__load_elf(&map, path, 0x401000, 0x1000), 0);
		assert_int_equal(map.nr, 0);
		assert_null(perf_map__find(&map, 0x401230));
		perf_map__exit(&map);
	}
	write_elf(path, name_past_strtab);
	errno = 0;
	assert_int_equal(perf_map__load_elf(&map, path, 0x401000, 0x1000), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(map.nr, 0);

	/* a directory: libelf reads nothing */
	errno = 0;
	assert_int_equal(perf_map__load_elf(&map, dir, 0x401000, 0x1000), -1);
	assert_int_equal(errno, EINVAL);
}

/* Mapped from a file offset past main's: main is not in the mapping, the others move down. */
static void symbols_below_the_mapping_are_left_out(void **state)
{
	struct perf_map map;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/prog-pgoff", dir);
	write_elf(path, NULL);
	assert_int_equal(perf_map__load_elf(&map, path, 0x500000, 0x1250), 0);
	assert_int_equal(map.nr, 2);
	assert_string_equal(map.syms[0].name, "leaf_function");
	assert_int_equal(map.syms[0].start, 0x500000);
	assert_string_equal(perf_map__find(&map, 0x500030)->name, "helper");
	perf_map__exit(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_are_hex_start_size_name),
		cmocka_unit_test(read_back_sorted_and_found),
		cmocka_unit_test(short_or_multiline_names_are_refused),
		cmocka_unit_test(load_skips_what_perf_skips),
		cmocka_unit_test(many_symbols_read_back_sorted),
		cmocka_unit_test(write_failures_name_the_file),
		cmocka_unit_test(a_map_that_cannot_replace_the_target_leaves_nothing),
		cmocka_unit_test(a_map_too_large_for_the_limit_leaves_nothing),
		cmocka_unit_test(a_map_that_cannot_be_read_is_an_error),
		cmocka_unit_test(elf_images_without_usable_symbols),
		cmocka_unit_test(symbols_below_the_mapping_are_left_out),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
