// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-PID.map files: the bytes written (checked against printf's "%llx"
 * at both ends of the range), the symbols read back as perf reads them,
 * and names perf would skip refused with nothing written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "tools/perf/util/perf_map.h"

static char dir[] = "/tmp/pmusim-perfmap-XXXXXX";

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	static char buf[4096];
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return buf;
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
	char path[128], want[1024] = "";
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
	assert_string_equal(slurp(path), want);
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
	char err[256], path[128];

	(void)state;
	errno = 0;
	assert_int_equal(perf_map__write(dir, 4244, shorty, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "'ab'"));
	errno = 0;
	assert_int_equal(perf_map__write(dir, 4244, twoline, 2, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	snprintf(path, sizeof(path), "%s/perf-4244.map", dir);
	assert_int_equal(access(path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_are_hex_start_size_name),
		cmocka_unit_test(read_back_sorted_and_found),
		cmocka_unit_test(short_or_multiline_names_are_refused),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
