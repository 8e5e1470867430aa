// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seeds' own checks, called as the library's API (pmusim seed checks
 * the same before it calls them, so a command never reaches these): a
 * scenario a seed cannot show its effect on gets 1 and one line on
 * stderr naming the scenario and what the seed wants, nothing on stdout.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/kernel.h"
#include "seeds/seeds.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make(dir, sizeof(dir), "seedchk");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

/*
 * Scenario NAME of tests/seeds/seed_scenarios.txt (shared with
 * test_seeds_write_backward.sh): the lines from "--- NAME" to the next
 * "--- " line, malloc'd.
 */
static char *scenario_text(const char *name)
{
	const char *src = getenv("PMUSIM_SRCTREE");
	char path[4096], head[128], *all, *start, *end, *text;
	size_t len;

	if (!src)
		fail_msg("PMUSIM_SRCTREE is not set (run by make test)");
	snprintf(path, sizeof(path), "%s/tests/seeds/seed_scenarios.txt", src);
	snprintf(head, sizeof(head), "\n--- %s\n", name);
	all = scratch_read(path);
	start = strstr(all, head);
	if (!start)
		fail_msg("%s has no scenario '%s'", path, name);
	start += strlen(head);
	end = strstr(start, "\n--- ");
	len = end ? (size_t)(end - start) + 1 : strlen(start);
	text = strndup(start, len);
	assert_non_null(text);
	free(all);
	return text;
}

/*
 * Run SEED on scenario NAME with stdout and stderr in files; its return,
 * stderr in ERR.
 */
static int run_seed(int (*seed)(struct scenario *, const struct seed_opts *), const char *name,
		    char *path, size_t pathlen, char *err, size_t errlen, long *out_len)
{
	char *text = scenario_text(name);
	struct seed_opts o = { .map_dir = dir };
	char out_path[128], err_path[128], lerr[512];
	struct scenario *s;
	int saved_out, saved_err, ret;
	FILE *f;
	size_t n;

	snprintf(path, pathlen, "%s/s.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	free(text);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(scenario_load(path, &s, lerr, sizeof(lerr)), 0);
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	assert_non_null(freopen(out_path, "w", stdout));
	assert_non_null(freopen(err_path, "w", stderr));
	ret = seed(s, &o);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	scenario_free(s);
	f = fopen(err_path, "r");
	assert_non_null(f);
	n = fread(err, 1, errlen - 1, f);
	err[n] = '\0';
	fclose(f);
	f = fopen(out_path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*out_len = ftell(f);
	fclose(f);
	return ret;
}

static void alt_period_wants_one_event_with_two_periods(void **state)
{
	char path[128], err[512], want[256];
	long out_len;

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD)) {
		/* the seed says it has nothing to run, and that is not a failure */
		assert_int_equal(run_seed(seed_alt_period, "two-events", path, sizeof(path), err,
					  sizeof(err), &out_len), 0);
		assert_string_equal(err, "");
		assert_true(out_len > 0);
		return;
	}
	/* two events; one event without an alternative_period */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(run_seed(seed_alt_period, i ? "no-time" : "two-events", path,
					  sizeof(path), err, sizeof(err), &out_len), 1);
		snprintf(want, sizeof(want), "%s: the alt-period seed wants one event with period "
			 "and alternative_period\n", path);
		assert_string_equal(err, want);
		assert_int_equal(out_len, 0);
	}
}

static void write_backward_wants_one_event_and_an_overwrite_buffer(void **state)
{
	const char *names[] = { "two-events", "no-overwrite", "with-freq", "no-time" };
	char path[128], err[512], want[256];
	long out_len;

	(void)state;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(run_seed(seed_write_backward, names[i], path, sizeof(path), err,
					  sizeof(err), &out_len), 1);
		snprintf(want, sizeof(want), "%s: the write-backward seed wants one event with a "
			 "period and time in sample_type, and an overwrite buffer\n", path);
		assert_string_equal(err, want);
		assert_int_equal(out_len, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alt_period_wants_one_event_with_two_periods),
		cmocka_unit_test(write_backward_wants_one_event_and_an_overwrite_buffer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
