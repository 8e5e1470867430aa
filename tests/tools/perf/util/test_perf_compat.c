// SPDX-License-Identifier: GPL-2.0-only
/*
 * Real perf reads pmusim's perf.data: `perf script` and `perf report`
 * take it without a warning and name the symbols from perf-PID.map,
 * `perf report --header-only` shows the features, and on a 43-deep chain
 * with a 32-entry LBR `perf script -F ip,sym [--stitch-lbr]` and
 * `pmusim stitch [--no-stitch]` print the same frames for every sample,
 * also where stitching is fooled by a call back down through another
 * call site.
 *
 * The files are generated here, in the test program (tests/lib/lbr_chain.c),
 * rather than by a hidden pmusim subcommand or a fixture another test
 * leaves behind: nothing ships only for tests, and no test depends on
 * another's run order. The map file must be /tmp/perf-PID.map (the only
 * place perf looks); PID is this process's own, so no live process's map
 * is touched, and the file is removed at the end.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/kernel.h"
#include "tests/lib/lbr_chain.h"

static char dir[64], data[128], map[64];
static const char *pmusim;
static bool have_perf;

static int setup(void **state)
{
	char err[256];
	struct lbr_chain c = { .path = data, .map_dir = "/tmp", .nr_threads = 2,
			       .depth = 43, .lbr_nr = 32, .nr_samples = 3000,
			       .hw_index = true, .pmu_caps = true };

	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "compat"))
		return -1;
	c.pid = (uint32_t)getpid();
	snprintf(data, sizeof(data), "%s/chain.data", dir);
	snprintf(map, sizeof(map), "/tmp/perf-%u.map", c.pid);
	if (lbr_chain__write(&c, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	pmusim = getenv("PMUSIM");
	have_perf = system("perf version >/dev/null 2>&1") == 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(map);
	return scratch_dir_remove(dir);
}

/* Run CMD with stdout to DIR/NAME.out, stderr to DIR/NAME.err; the exit status. */
static int run(const char *name, const char *cmd)
{
	char line[1024];
	int st;

	snprintf(line, sizeof(line), "%s >%s/%s.out 2>%s/%s.err", cmd, dir, name, dir, name);
	st = system(line);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *name, const char *ext)
{
	char path[160];
	FILE *fp;
	long n;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return buf;
}

static void need_perf(void)
{
	if (!have_perf)
		pmusim_skip("perf is not installed (apt-get install linux-perf)");
}

static void assert_no_stderr(const char *name)
{
	char *err = slurp(name, "err");

	if (*err)
		fail_msg("%s printed on stderr: %s", name, err);
	free(err);
}

static void perf_script_and_report_read_it_without_warnings(void **state)
{
	char cmd[512];
	char *out;

	(void)state;
	need_perf();
	snprintf(cmd, sizeof(cmd), "perf script -i %s -F comm,tid,ip,sym", data);
	assert_int_equal(run("script", cmd), 0);
	assert_no_stderr("script");
	out = slurp("script", "out");
	assert_non_null(strstr(out, "tchain"));
	assert_non_null(strstr(out, " f31\n"));
	assert_non_null(strstr(out, " main\n"));
	assert_null(strstr(out, "[unknown]"));
	free(out);

	snprintf(cmd, sizeof(cmd), "perf report -i %s --stdio", data);
	assert_int_equal(run("report", cmd), 0);
	assert_no_stderr("report");
	out = slurp("report", "out");
	assert_non_null(strstr(out, "[JIT] tid"));
	assert_non_null(strstr(out, "[.] f10"));
	assert_non_null(strstr(out, "of event 'cycles:u'"));
	free(out);
}

static void perf_header_only_shows_the_features(void **state)
{
	static const char *const want[] = {
		"# hostname : pmusim\n", "# os release : 6.12.0-pmusim\n", "# arch : x86_64\n",
		"# nrcpus online : 4\n", "# nrcpus avail : 4\n", "# cpuid : GenuineIntel,6,85,4\n",
		"# total memory : 1048576 kB\n", "# contains samples with branch stack\n",
		"branches=32", "name = cycles:u", "size = 128", "# time of first sample",
		"# cmdline : pmusim tests lbr_chain",
	};
	char cmd[512];
	char *out;

	(void)state;
	need_perf();
	snprintf(cmd, sizeof(cmd), "perf report -i %s --header-only", data);
	assert_int_equal(run("header", cmd), 0);
	assert_no_stderr("header");
	out = slurp("header", "out");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(out, want[i]))
			fail_msg("header lacks '%s'", want[i]);
	free(out);
}

/* Blocks of frames; returns the most frames in one block. */
static unsigned int max_block(const char *out)
{
	unsigned int n = 0, max = 0;

	for (const char *p = out; *p; p++) {
		if (*p != '\n')
			continue;
		if (p[1] == '\t') {
			n++;
		} else {
			if (n > max)
				max = n;
			n = 0;
		}
	}
	return max;
}

static void compare(const char *perf_opts, const char *pmusim_opts, unsigned int frames)
{
	char cmd[512];
	char *a, *b;

	snprintf(cmd, sizeof(cmd), "perf script -i %s -F ip,sym %s", data, perf_opts);
	assert_int_equal(run("perf", cmd), 0);
	assert_no_stderr("perf");
	snprintf(cmd, sizeof(cmd), "%s stitch %s %s", pmusim, pmusim_opts, data);
	assert_int_equal(run("pmusim", cmd), 0);
	assert_no_stderr("pmusim");
	a = slurp("perf", "out");
	b = slurp("pmusim", "out");
	assert_true(strlen(a) > 10000);
	if (strcmp(a, b)) {
		size_t i = 0;

		while (a[i] == b[i])
			i++;
		fail_msg("perf and pmusim differ at byte %zu: perf '%.60s' pmusim '%.60s'",
			 i, a + i, b + i);
	}
	assert_int_equal(max_block(a), frames);
	free(a);
	free(b);
}

static void perf_and_pmusim_stitch_agree_frame_by_frame(void **state)
{
	(void)state;
	need_perf();
	if (!pmusim)
		pmusim_skip("$PMUSIM is not set (run through make test)");
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		pmusim_skip("this build has no CONFIG_LBR_STITCH (no pmusim stitch)");
	compare("--stitch-lbr", "", 43);
	compare("", "--no-stitch", 33);
}

/* The text of the last sample in perf script's output (samples are blocks ending in a blank line). */
static const char *last_block(const char *out)
{
	const char *last = out, *p;

	for (p = strstr(out, "\n\n"); p && p[2]; p = strstr(p + 2, "\n\n"))
		last = p + 2;
	return last;
}

/*
 * Stitching trusts one matching entry: a thread that called back down
 * through another call site to the same LBR (fuzz/crashes/lbr/
 * stitch-wrong-frame-*) gets the frames of its earlier way down, from
 * perf 6.1 as from pmusim, which print the same frames for every sample.
 */
static void perf_and_pmusim_are_fooled_alike_by_a_second_call_site(void **state)
{
	struct lbr_chain c = { .path = NULL, .map_dir = "/tmp", .pid = (uint32_t)getpid(),
			       .nr_threads = 1, .depth = 43, .lbr_nr = 8, .hw_index = true,
			       .pmu_caps = true };
	char path[160], err[256], cmd[512], first[32], second[32];
	char *a, *b;
	const char *last;

	(void)state;
	need_perf();
	if (!pmusim)
		pmusim_skip("$PMUSIM is not set (run through make test)");
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		pmusim_skip("this build has no CONFIG_LBR_STITCH (no pmusim stitch)");
	snprintf(path, sizeof(path), "%s/lookalike.data", dir);
	c.path = path;
	if (lbr_chain__write_lookalike(&c, err, sizeof(err)))
		fail_msg("%s", err);
	snprintf(cmd, sizeof(cmd), "perf script -i %s -F ip,sym --stitch-lbr", path);
	assert_int_equal(run("perf", cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s stitch %s", pmusim, path);
	assert_int_equal(run("pmusim", cmd), 0);
	a = slurp("perf", "out");
	b = slurp("pmusim", "out");
	assert_string_equal(a, b);
	/* the last sample: f01's frame at its first call site, the stack's is the second */
	snprintf(first, sizeof(first), " %llx f01",
		 (unsigned long long)(lbr_chain_func(1) + LBR_CHAIN_CALL_SITE));
	snprintf(second, sizeof(second), " %llx f01",
		 (unsigned long long)(lbr_chain_func(1) + LBR_CHAIN_SECOND_SITE));
	last = last_block(a);
	if (!strstr(last, first) || strstr(last, second))
		fail_msg("perf's last sample does not show f01's first call site: %s", last);
	free(a);
	free(b);
}

static void pmusim_stitch_refuses_a_truncated_file(void **state)
{
	char cmd[512];
	char *err;

	(void)state;
	if (!pmusim)
		pmusim_skip("$PMUSIM is not set (run through make test)");
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		pmusim_skip("this build has no CONFIG_LBR_STITCH (no pmusim stitch)");
	snprintf(cmd, sizeof(cmd), "head -c 3000 %s >%s/cut.data", data, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s stitch %s/cut.data", pmusim, dir);
	assert_int_equal(run("cut", cmd), 2);
	err = slurp("cut", "err");
	assert_non_null(strstr(err, "/cut.data: "));
	assert_non_null(strstr(err, "out of bounds"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);	/* one line */
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perf_script_and_report_read_it_without_warnings),
		cmocka_unit_test(perf_header_only_shows_the_features),
		cmocka_unit_test(perf_and_pmusim_stitch_agree_frame_by_frame),
		cmocka_unit_test(perf_and_pmusim_are_fooled_alike_by_a_second_call_site),
		cmocka_unit_test(pmusim_stitch_refuses_a_truncated_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
