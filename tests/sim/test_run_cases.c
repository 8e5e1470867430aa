// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_scenario() on the cases the end-to-end tests do not reach: a
 * consumer woken by the watermark only, a run with no events, a stop
 * signal in the middle (the file finished with what was recorded), and
 * the ways a run fails (a map directory that is not there, an analysis
 * that fails at the end, the output's build-id directory blocked), each
 * with one line and nothing left behind.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/sched.h"
#include "include/pmusim/perf_event.h"
#include "sim/run.h"
#include "sim/scenario.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "runcases"))
		return -1;
	run_set_buildid_dirs(NULL, true);	/* not the user's ~/.debug */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static struct scenario *load(const char *text)
{
	char path[128], err[256];
	struct scenario *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/s.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	if (scenario_load(path, &s, err, sizeof(err)))
		fail_msg("%s", err);
	return s;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

#define TASK	"tasks:\n  - name: t\n    workload: {kind: tchain, depth: 8}\n"

/* interval 0: the consumer reads when the buffer wakes it, here past each 1 KiB */
static void watermark_wakes_the_consumer(void **state)
{
	struct scenario *s = load("duration: 3000000\n" TASK
				  "events:\n  - {event: instructions:u, period: 2003}\n"
				  "buffer: {pages: 4, watermark: 1024}\n");
	struct run_stats st;
	char err[256];

	(void)state;
	assert_int_equal(run_scenario(s, NULL, NULL, NULL, &st, err, sizeof(err)), 0);
	assert_true(st.samples > 100);
	assert_int_equal(st.lost, 0);
	/* each wake-up (seen at a quantum's end) is one read of the one buffer, then the last read */
	assert_true(st.wakeups >= 3);
	assert_int_equal(st.reads, st.wakeups + 1);
	/* at least 1 KiB between wake-ups */
	assert_true(st.bytes >= 1024 * st.wakeups);
	run_stats_free(&st);
	scenario_free(s);
}

/* No event: the machine runs, the file holds its header and nothing else. */
static void no_events_write_an_empty_file(void **state)
{
	struct scenario *s = load("duration: 1000000\n" TASK);
	struct run_stats st;
	char out[128], err[256];

	(void)state;
	snprintf(out, sizeof(out), "%s/none.data", dir);
	assert_int_equal(run_scenario(s, out, NULL, NULL, &st, err, sizeof(err)), 0);
	assert_true(exists(out));
	assert_int_equal(st.records, 0);
	assert_int_equal(st.samples, 0);
	assert_true(st.insns > 0 && st.ran == 1000000);
	run_stats_free(&st);
	scenario_free(s);
}

static void missing_map_dir_is_one_line(void **state)
{
	struct scenario *s = load("duration: 100000\n" TASK
				  "events:\n  - {event: cycles:u, period: 10007}\n");
	struct run_stats st;
	char out[128], err[256];

	(void)state;
	snprintf(out, sizeof(out), "%s/m.data", dir);
	assert_int_equal(run_scenario(s, out, "/nonexistent/maps", NULL, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/maps"));
	assert_null(strchr(err, '\n'));
	assert_false(exists(out));
	run_stats_free(&st);
	scenario_free(s);
}

static int failing_analysis(struct run *r, void *arg)
{
	(void)arg;
	return run_nr_buffers(r) == 1 ? 1 : 0;
}

/* An end hook that fails fails the run: no file, and no perf-PID.map left in MAP_DIR. */
static void failing_analysis_leaves_nothing(void **state)
{
	struct scenario *s = load("duration: 200000\n"
				  "tasks:\n  - name: t\n    count: 2\n    threads: 2\n"
				  "    workload: {kind: tchain, depth: 8}\n"
				  "events:\n  - {event: cycles:u, period: 10007, scope: system}\n");
	const struct run_end_hook hook = { failing_analysis, NULL };
	struct run_stats st;
	char out[128], maps[128], map[160], err[256];

	(void)state;
	snprintf(out, sizeof(out), "%s/h.data", dir);
	snprintf(maps, sizeof(maps), "%s/maps", dir);
	assert_int_equal(mkdir(maps, 0700), 0);
	assert_int_equal(run_scenario_hooked(s, out, maps, NULL, &hook, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the analysis at the end failed"));
	assert_false(exists(out));
	for (int pid = 1000; pid < 1004; pid++) {
		snprintf(map, sizeof(map), "%s/perf-%d.map", maps, pid);
		assert_false(exists(map));
	}
	/* the same run without the hook writes the maps of the processes (not one per thread) */
	assert_int_equal(run_scenario(s, out, maps, NULL, &st, err, sizeof(err)), 0);
	for (int pid = 1000; pid < 1004; pid++) {
		snprintf(map, sizeof(map), "%s/perf-%d.map", maps, pid);
		assert_true(exists(map) == (pid % 2 == 0));
	}
	run_stats_free(&st);
	scenario_free(s);
}

/*
 * The output's build-id directory (OUT.debug) cannot be made: the run
 * fails with one line naming it.
 */
static void blocked_debug_dir_is_one_line(void **state)
{
	struct scenario *s = load("duration: 100000\n" TASK
				  "events:\n  - {event: cycles:u, period: 10007}\n");
	struct run_stats st;
	char out[128], dbg[160], err[512];
	FILE *f;

	(void)state;
	snprintf(out, sizeof(out), "%s/d.data", dir);
	snprintf(dbg, sizeof(dbg), "%s.debug", out);
	f = fopen(dbg, "w");		/* a file where the directory would go */
	assert_non_null(f);
	fclose(f);
	assert_int_equal(run_scenario(s, out, NULL, NULL, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, dbg));
	assert_null(strchr(err, '\n'));
	assert_false(exists(out));
	run_stats_free(&st);
	scenario_free(s);
}

/* A program named with a '/' is /pmusim/a_b: one file name, not a directory. */
static void slash_in_a_name_becomes_underscore(void **state)
{
	struct scenario *s = load("duration: 100000\n"
				  "tasks:\n  - name: a/b\n    workload: {kind: tchain, depth: 8}\n"
				  "events:\n  - {event: cycles:u, period: 10007}\n");
	struct run_stats st;
	char out[128], path[192], err[256];

	(void)state;
	snprintf(out, sizeof(out), "%s/n.data", dir);
	assert_int_equal(run_scenario(s, out, NULL, NULL, &st, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s.debug/pmusim/a_b", out);
	assert_true(exists(path));
	snprintf(path, sizeof(path), "%s.debug/pmusim/a", out);
	assert_false(exists(path));
	run_stats_free(&st);
	scenario_free(s);
}

static void raise_sigint_once(uint64_t now, uint64_t duration)
{
	static bool raised;

	if (!raised && now * 4 >= duration) {
		raised = true;
		raise(SIGINT);
	}
}

/*
 * SIGINT a quarter of the way: the run stops at the next quantum and
 * finishes its file with what it recorded, as perf record does. In a
 * child: the signal stays noted for the rest of the process.
 */
static void stop_signal_finishes_the_file(void **state)
{
	struct scenario *s = load("duration: 4000000\n" TASK
				  "events:\n  - {event: cycles:u, period: 10007}\n");
	char out[128];
	int status;
	pid_t pid;

	(void)state;
	snprintf(out, sizeof(out), "%s/sig.data", dir);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct run_stats st;
		char err[256];
		int ret = run_scenario(s, out, NULL, raise_sigint_once, &st, err, sizeof(err));

		/* gcov's counts are written by exit() */
		exit(ret || st.stop_signal != SIGINT || run_stop_signal() != SIGINT ||
		     st.ran < 1000000 || st.ran > 1200000 || !st.samples || !exists(out) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(run_stop_signal(), 0);		/* the parent was not signalled */
	scenario_free(s);
}

/*
 * Runs one after another in one process (as a seed's, or test_nomem's):
 * a machine of two CPUs, then one of one. The second must not start on
 * the CPU the first ended on, which it does not have.
 */
static void a_smaller_machine_after_a_larger_one(void **state)
{
	struct scenario *two = load("duration: 300000\nmachine: {cpus: 2}\n"
				    "tasks:\n  - name: t\n    threads: 2\n"
				    "    workload: {kind: tchain, depth: 8}\n"
				    "events:\n  - {event: cycles:u, period: 10007, scope: system}\n");
	struct scenario *one = load("duration: 300000\n" TASK
				    "events:\n  - {event: cycles:u, period: 10007}\n");
	struct run_stats st;
	char err[256];

	(void)state;
	assert_int_equal(run_scenario(two, NULL, NULL, NULL, &st, err, sizeof(err)), 0);
	assert_true(st.samples > 0);
	run_stats_free(&st);
	assert_int_equal(smp_processor_id(), 1);	/* where the first run ended */
	assert_int_equal(run_scenario(one, NULL, NULL, NULL, &st, err, sizeof(err)), 0);
	assert_true(st.samples > 0);
	run_stats_free(&st);
	scenario_free(two);
	scenario_free(one);
}

/* What run_parse_sample() refuses: another record, a short sample, a run of two events. */
static int parse_refusals(struct run *r, void *arg)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(h) };
	struct perf_sample smp;
	int *checked = arg;

	(*checked)++;
	if (!run_parse_sample(r, &h, sizeof(h), &smp))
		return 1;		/* a sample of no fields: ip, tid, time, period are missing */
	h.type = PERF_RECORD_MMAP;
	if (!run_parse_sample(r, &h, sizeof(h), &smp))
		return 1;
	(*checked)++;
	return 0;
}

static void parse_sample_refuses_what_is_no_sample(void **state)
{
	struct scenario *one = load("duration: 100000\n" TASK
				    "events:\n  - {event: cycles:u, period: 10007}\n");
	struct scenario *two = load("duration: 100000\n" TASK
				    "events:\n  - {event: cycles:u, period: 10007}\n"
				    "  - {event: instructions:u, period: 10007}\n");
	int checked = 0;
	const struct run_end_hook hook = { parse_refusals, &checked };
	struct run_stats st;
	char err[256];

	(void)state;
	assert_int_equal(run_scenario_hooked(one, NULL, NULL, NULL, &hook, &st, err, sizeof(err)), 0);
	assert_int_equal(checked, 2);
	run_stats_free(&st);
	/* two events: which attr a sample has is not known, so none is parsed */
	checked = 0;
	assert_int_equal(run_scenario_hooked(two, NULL, NULL, NULL, &hook, &st, err, sizeof(err)), 0);
	assert_int_equal(checked, 2);
	run_stats_free(&st);
	scenario_free(one);
	scenario_free(two);
}

/* An output that takes no bytes: the run fails with one line naming it. */
static void full_device_is_one_line(void **state)
{
	struct scenario *s = load("duration: 100000\n" TASK
				  "events:\n  - {event: cycles:u, period: 10007}\n");
	struct run_stats st;
	char err[256];

	(void)state;
	if (access("/dev/full", W_OK))
		pmusim_skip("no writable /dev/full");
	assert_int_equal(run_scenario(s, "/dev/full", NULL, NULL, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/full"));
	assert_null(strchr(err, '\n'));
	run_stats_free(&st);
	scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(watermark_wakes_the_consumer),
		cmocka_unit_test(no_events_write_an_empty_file),
		cmocka_unit_test(missing_map_dir_is_one_line),
		cmocka_unit_test(failing_analysis_leaves_nothing),
		cmocka_unit_test(blocked_debug_dir_is_one_line),
		cmocka_unit_test(slash_in_a_name_becomes_underscore),
		cmocka_unit_test(a_smaller_machine_after_a_larger_one),
		cmocka_unit_test(parse_sample_refuses_what_is_no_sample),
		cmocka_unit_test(full_device_is_one_line),
		cmocka_unit_test(stop_signal_finishes_the_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
