// SPDX-License-Identifier: GPL-2.0-only
/*
 * Out of memory, everywhere: each command (run, stitch, dump, seed) runs
 * once with every allocation granted, then again and again, each time
 * refusing one allocation: the first made from a place in the code (the
 * caller of malloc) not refused before, until a run makes none from a
 * new place. Each refused run must end as a user would want:
 * - a non-zero exit with one line on stderr, or (where a refusal only
 *   costs speed, as for stdio's buffers) exit 0 with the reference
 *   output;
 * - nothing half-written: the output directory holds what it held;
 * - nothing leaked: as many blocks live after it as before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "tests/cmd/nomem_failmalloc.h"
#include "cmd/commands.h"
#include "core/kernel.h"
#include "tools/lib/perf/mmap_libperf.h"
#include "sim/machine.h"
#include "sim/run.h"
#include "sim/scenario.h"
#include "sim/workload.h"
#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/genelf.h"
#include "tools/perf/util/lbr_stitch.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/perf_map.h"

/* cmd/pmusim.c's, which holds main() and stays out of the library */
const char *pmusim_program = "pmusim";

static char dir[64], scn[96], ovw[96], hwt[96], alt[96], outdir[96], ref[128];

static const char scenario_text[] =
	"seed: 5\n"
	"duration: 1500000\n"
	"machine: { cpu: skylake, cpus: 2 }\n"
	"tasks:\n"
	"  - name: chain\n"
	"    workload: { kind: tchain, depth: 36, leaf_loops: 20, mid_loops: 4, outer_loops: 3 }\n"
	"    cpus: [0]\n"
	"  - name: chain\n"
	"    workload: { kind: recursion, depth: 12 }\n"
	"    threads: 2\n"
	"events:\n"
	"  - event: cycles:u\n"
	"    period: 20011\n"
	"    call_graph: lbr\n"
	"    sample_type: [ip, tid, time, cpu, period]\n"
	"  - event: instructions:u\n"
	"    period: 30011\n"
	"    scope: system\n"
	"buffer: { pages: 8 }\n"
	"consumer: { interval: 200000 }\n";

static const char overwrite_text[] =
	"seed: 2\n"
	"duration: 1500000\n"
	"machine: { cpu: skylake, cpus: 1 }\n"
	"tasks:\n"
	"  - name: chain\n"
	"    workload: { kind: tchain, depth: 8, leaf_loops: 20, mid_loops: 4, outer_loops: 3 }\n"
	"events:\n"
	"  - event: cycles:u\n"
	"    period: 7001\n"
	"    sample_type: [ip, tid, time]\n"
	"buffer: { pages: 2, overwrite: true }\n"
	"consumer: { interval: 300000 }\n";

/* for the hw-time seed (CONFIG_PERF_HW_TIME) */
static const char hw_time_text[] =
	"seed: 1\n"
	"duration: 1000000\n"
	"machine: { cpu: skylake, cpus: 1 }\n"
	"tasks:\n"
	"  - name: chain\n"
	"    workload: { kind: tchain, depth: 8, leaf_loops: 20, mid_loops: 4, outer_loops: 3 }\n"
	"events:\n"
	"  - event: cycles:u\n"
	"    period: 20011\n"
	"    hw_time: true\n"
	"    sample_type: [ip, tid, time, cpu, period]\n"
	"consumer: { interval: 200000 }\n";

/* for the alt-period seed (CONFIG_PERF_ALT_SAMPLE_PERIOD) */
static const char alt_text[] =
	"seed: 1\n"
	"duration: 1000000\n"
	"machine: { cpu: skylake, cpus: 1 }\n"
	"tasks:\n"
	"  - name: chain\n"
	"    workload: { kind: tchain, depth: 8, leaf_loops: 20, mid_loops: 4, outer_loops: 3 }\n"
	"events:\n"
	"  - event: instructions:u\n"
	"    period: 20011\n"
	"    alternative_period: 997\n"
	"    sample_type: [ip, tid, time, period]\n";

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	char home[96];

	(void)state;
	/* the runs without -o (run --json) write ./perf.data: here, not where the test started */
	if (scratch_dir_make(dir, sizeof(dir), "nomem") || chdir(dir))
		return -1;
	snprintf(scn, sizeof(scn), "%s/s.yaml", dir);
	snprintf(ovw, sizeof(ovw), "%s/ovw.yaml", dir);
	snprintf(outdir, sizeof(outdir), "%s/out", dir);
	snprintf(ref, sizeof(ref), "%s/ref.data", dir);
	snprintf(home, sizeof(home), "%s/home", dir);
	write_text(scn, scenario_text);
	write_text(ovw, overwrite_text);
	snprintf(hwt, sizeof(hwt), "%s/hwt.yaml", dir);
	snprintf(alt, sizeof(alt), "%s/alt.yaml", dir);
	write_text(hwt, hw_time_text);
	write_text(alt, alt_text);
	/* the build-id cache (~/.debug) of the runs: this test's own */
	if (mkdir(outdir, 0700) || mkdir(home, 0700) || setenv("HOME", home, 1))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

/* The names in OUTDIR, sorted, one per line: what a run left there. */
static char *listing(void)
{
	struct dirent **names;
	size_t len = 0;
	char *s;
	int n;

	n = scandir(outdir, &names, NULL, alphasort);
	assert_true(n >= 0);
	s = malloc(1);
	assert_non_null(s);
	s[0] = 0;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(names[i]->d_name);

		s = realloc(s, len + l + 2);
		assert_non_null(s);
		memcpy(s + len, names[i]->d_name, l);
		len += l;
		s[len++] = '\n';
		s[len] = 0;
		free(names[i]);
	}
	free(names);
	return s;
}

/* What a run in a child process reports to the test. */
struct outcome {
	int rc;			/* the command's exit status; -1: it crashed or hung */
	long leaked;		/* blocks live after it that were not before */
	const void *refused;	/* the caller whose allocation was refused, or NULL */
};

/*
 * Run CMD in a child, its stdout and stderr in files under DIR, with one
 * allocation refused if REFUSE. A child keeps a crash from taking the
 * test with it.
 */
static struct outcome call(int (*cmd)(int, char **), const char *const *args, int nargs,
			   bool refuse)
{
	struct outcome o = { .rc = -1 };
	char out[128], err[128], *argv[16];
	int pipefd[2], status;
	pid_t pid;

	assert_true(nargs < 16);
	for (int i = 0; i < nargs; i++)
		argv[i] = (char *)args[i];
	argv[nargs] = NULL;
	snprintf(out, sizeof(out), "%s/stdout", dir);
	snprintf(err, sizeof(err), "%s/stderr", dir);
	fflush(stdout);
	fflush(stderr);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		static char outbuf[BUFSIZ], errbuf[BUFSIZ];
		long live;

		close(pipefd[0]);
		if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
			exit(99);
		/* buffers of their own: stdio allocates none in the command */
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		setvbuf(stderr, errbuf, _IOLBF, sizeof(errbuf));
		alarm(120);		/* a command that hangs is killed */
		live = failmalloc_live();
		if (refuse)
			failmalloc_new_site();
		o.rc = cmd(nargs, argv);
		failmalloc_after(-1);
		o.leaked = failmalloc_live() - live;
		o.refused = failmalloc_failed_site();
		fflush(stdout);
		fflush(stderr);
		if (write(pipefd[1], &o, sizeof(o)) != sizeof(o))
			exit(99);
		exit(0);	/* exit(), not _exit(): gcov writes its counts */
	}
	close(pipefd[1]);
	if (read(pipefd[0], &o, sizeof(o)) != sizeof(o))
		o = (struct outcome){ .rc = -1 };
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		o.rc = -1;
	return o;
}

static unsigned int lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* What a successful run left in OUTDIR goes, so each run starts from an empty one. */
static void clean(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/* %s/home/.debug", outdir, dir);
	assert_int_equal(system(cmd), 0);
}

static void sweep(int (*cmd)(int, char **), const char *const *args, int nargs)
{
	char path[128], *want_out, *before, *after, *out, *err;
	struct outcome o;
	long refused = 0;

	if (!failmalloc_works())
		pmusim_skip("a sanitizer replaces malloc: no allocation can be refused");
	o = call(cmd, args, nargs, false);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.leaked, 0);
	clean();
	snprintf(path, sizeof(path), "%s/stdout", dir);
	want_out = scratch_read(path);
	before = listing();
	failmalloc_forget();
	for (long n = 0;; n++) {
		o = call(cmd, args, nargs, true);
		snprintf(path, sizeof(path), "%s/stdout", dir);
		out = scratch_read(path);
		snprintf(path, sizeof(path), "%s/stderr", dir);
		err = scratch_read(path);
		if (o.rc < 0)
			fail_msg("%s, refusal %ld: crashed or hung (stderr '%s')", args[0], n, err);
		if (!o.refused) {
			if (o.rc)
				fail_msg("%s, nothing refused: exit %d: %s", args[0], o.rc, err);
			free(out);
			free(err);
			break;
		}
		failmalloc_tried(o.refused);
		refused++;
		if (o.rc == 0) {
			if (strcmp(out, want_out))
				fail_msg("%s, refusal %ld: exit 0 but other output: '%s', not '%s'",
					 args[0], n, out, want_out);
		} else if (lines(err) != 1 || err[0] == '\n') {
			fail_msg("%s, refusal %ld: exit %d and stderr '%s', not one line",
				 args[0], n, o.rc, err);
		}
		if (o.rc == 0)
			clean();
		after = listing();
		if (strcmp(before, after))
			fail_msg("%s, refusal %ld (exit %d: %s): left '%s' in %s, had '%s'",
				 args[0], n, o.rc, err, after, outdir, before);
		if (o.leaked)
			fail_msg("%s, refusal %ld (exit %d: %s): %ld blocks leaked", args[0],
				 n, o.rc, err, o.leaked);
		free(out);
		free(err);
		free(after);
	}
	print_message("%s: %ld runs refused memory\n", args[0], refused);
	assert_true(refused > 0);
	free(want_out);
	free(before);
}

static void test_run(void **state)
{
	char out[128];
	const char *args[] = { "run", scn, "-o", out, "--map-dir", outdir, "--no-progress" };

	(void)state;
	snprintf(out, sizeof(out), "%s/r.data", outdir);
	sweep(cmd_run, args, 7);
}

static void test_run_json(void **state)
{
	const char *args[] = { "run", ovw, "--json", "--no-progress", "-e", "cycles:u,branches:u" };

	(void)state;
	sweep(cmd_run, args, 6);
}

/* stitch and dump read ref.data, made once by an unhindered run */
static void make_ref(void)
{
	const char *args[] = { "run", scn, "-o", ref, "--map-dir", dir, "--no-progress", "-N" };
	struct stat st;

	if (!stat(ref, &st))
		return;
	assert_int_equal(call(cmd_run, args, 8, false).rc, 0);
}

static void test_stitch(void **state)
{
	const char *args[] = { "stitch", ref };

	(void)state;
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		pmusim_skip("this build has no CONFIG_LBR_STITCH");
	make_ref();
	sweep(cmd_stitch, args, 2);
}

static void test_dump(void **state)
{
	const char *args[] = { "dump", ref };

	(void)state;
	make_ref();
	sweep(cmd_dump, args, 2);
}

static void test_seed_lbr_stitch(void **state)
{
	const char *args[] = { "seed", "lbr-stitch", scn };

	(void)state;
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		pmusim_skip("this build has no CONFIG_LBR_STITCH");
	sweep(cmd_seed, args, 3);
}

static void test_seed_task_ctx_data(void **state)
{
	const char *args[] = { "seed", "task-ctx-data", scn };

	(void)state;
	sweep(cmd_seed, args, 3);
}

static void test_seed_write_backward(void **state)
{
	const char *args[] = { "seed", "write-backward", ovw };

	(void)state;
	sweep(cmd_seed, args, 3);
}

static void test_seed_hw_time(void **state)
{
	const char *args[] = { "seed", "hw-time", hwt };

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_HW_TIME))
		pmusim_skip("this build has no CONFIG_PERF_HW_TIME");
	sweep(cmd_seed, args, 3);
}

static void test_seed_alt_period(void **state)
{
	const char *args[] = { "seed", "alt-period", alt };

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD))
		pmusim_skip("this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD");
	sweep(cmd_seed, args, 3);
}

/* ---- every allocation refused from the Nth on ------------------------------ */

/*
 * The sweep above refuses one allocation per place in the code, and a
 * place is malloc's caller: every allocation through a helper (grow(),
 * strdup()) is one place, so only the first of them is ever refused.
 * This one refuses every allocation from the Nth on, for N = 0, 1, 2, ...
 * until a run makes fewer than N: each allocation of the command is the
 * first refused once. Run in a child as call() does; *FAILED says
 * whether any allocation was refused.
 */
static struct outcome call_after(int (*cmd)(int, char **), const char *const *args, int nargs,
				 long n, bool *failed)
{
	struct outcome o = { .rc = -1 };
	struct { struct outcome o; bool failed; } r = { .o = o };
	char out[128], err[128], *argv[16];
	int pipefd[2], status;
	pid_t pid;

	assert_true(nargs < 16);
	for (int i = 0; i < nargs; i++)
		argv[i] = (char *)args[i];
	argv[nargs] = NULL;
	snprintf(out, sizeof(out), "%s/stdout", dir);
	snprintf(err, sizeof(err), "%s/stderr", dir);
	fflush(stdout);
	fflush(stderr);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		static char outbuf[BUFSIZ], errbuf[BUFSIZ];
		long live;

		close(pipefd[0]);
		if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
			exit(99);
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		setvbuf(stderr, errbuf, _IOLBF, sizeof(errbuf));
		alarm(120);
		live = failmalloc_live();
		failmalloc_after(n);
		r.o.rc = cmd(nargs, argv);
		r.failed = failmalloc_failed();
		failmalloc_after(-1);
		r.o.leaked = failmalloc_live() - live;
		fflush(stdout);
		fflush(stderr);
		if (write(pipefd[1], &r, sizeof(r)) != sizeof(r))
			exit(99);
		exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &r, sizeof(r)) != sizeof(r))
		r.o = (struct outcome){ .rc = -1 };
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		r.o.rc = -1;
	*failed = r.failed;
	return r.o;
}

/* As sweep(), with call_after(): the same verdicts for every N, at most MAX runs. */
static void sweep_after(int (*cmd)(int, char **), const char *const *args, int nargs, long max)
{
	char path[128], *want_out, *before, *after, *out, *err;
	struct outcome o;
	bool failed;
	long n;

	if (!failmalloc_works())
		pmusim_skip("a sanitizer replaces malloc: no allocation can be refused");
	o = call(cmd, args, nargs, false);
	assert_int_equal(o.rc, 0);
	clean();
	snprintf(path, sizeof(path), "%s/stdout", dir);
	want_out = scratch_read(path);
	before = listing();
	for (n = 0; n < max; n++) {
		o = call_after(cmd, args, nargs, n, &failed);
		snprintf(path, sizeof(path), "%s/stdout", dir);
		out = scratch_read(path);
		snprintf(path, sizeof(path), "%s/stderr", dir);
		err = scratch_read(path);
		if (o.rc < 0)
			fail_msg("%s, refused from %ld on: crashed or hung (stderr '%s')", args[0], n, err);
		if (o.rc == 0 && strcmp(out, want_out))
			fail_msg("%s, refused from %ld on: exit 0 but other output: '%s', not '%s'",
				 args[0], n, out, want_out);
		if (o.rc && (lines(err) != 1 || (!strstr(err, "out of memory") &&
						 !strstr(err, strerror(ENOMEM)))))
			fail_msg("%s, refused from %ld on: exit %d and stderr '%s', not one line "
				 "saying out of memory", args[0], n, o.rc, err);
		if (o.rc == 0)
			clean();
		after = listing();
		if (strcmp(before, after))
			fail_msg("%s, refused from %ld on (exit %d: %s): left '%s' in %s, had '%s'",
				 args[0], n, o.rc, err, after, outdir, before);
		if (o.leaked)
			fail_msg("%s, refused from %ld on (exit %d: %s): %ld blocks leaked", args[0],
				 n, o.rc, err, o.leaked);
		free(out);
		free(err);
		free(after);
		if (!failed) {
			assert_int_equal(o.rc, 0);
			break;
		}
	}
	print_message("%s: %ld runs, each refusing from one allocation on\n", args[0], n);
	assert_true(n < max);	/* the last run refused nothing: every allocation was tried */
	free(want_out);
	free(before);
}

static void test_stitch_each(void **state)
{
	const char *args[] = { "stitch", "--map-dir", dir, ref };

	(void)state;
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		pmusim_skip("this build has no CONFIG_LBR_STITCH");
	make_ref();
	sweep_after(cmd_stitch, args, 4, 20000);
}

static void test_dump_each(void **state)
{
	const char *args[] = { "dump", ref };

	(void)state;
	make_ref();
	sweep_after(cmd_dump, args, 2, 20000);
}

/*
 * pmusim ringbuf: records enough that the dump's list grows, and a
 * record that wraps the end of the buffer (the reader copies it); with
 * libperf's reader as well where the kernel tree is there.
 */
static void ringbuf_each(const char *text, const char *const *flags, int nr_flags)
{
	char script[128];
	const char *args[8] = { "ringbuf" };
	int n = 1;
	FILE *f;

	snprintf(script, sizeof(script), "%s/rb.txt", dir);
	f = fopen(script, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	for (int i = 0; i < nr_flags; i++)
		args[n++] = flags[i];
	args[n++] = script;
	sweep_after(cmd_ringbuf, args, n, 2000);
}

static const char forward_script[] =
	"write 16 100\ndump\nread 90\nwrite 40 3\ndump\nread\ndump\n";

static void test_ringbuf_each(void **state)
{
	(void)state;
	ringbuf_each(forward_script, NULL, 0);
}

static void test_ringbuf_libperf_each(void **state)
{
	const char *forward[] = { "--reader", "libperf" };
	const char *backward[] = { "--reader", "libperf", "--backward" };

	(void)state;
	if (!perf_mmap_libperf__available())
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	ringbuf_each(forward_script, forward, 2);
	ringbuf_each("write 16 100\ndump\nwrite 40 3\ndump\n", backward, 3);
}

/* ---- sim/, in this process: the Nth allocation refused, for every N ---- */

/*
 * FN(ARG) once with the first N allocations granted and every later one
 * refused, for N = 0, 1, ... until a call makes all it wants: each
 * refused call must return -1 and leak nothing. Where a sweep by call
 * site (sweep()) refuses only a site's first allocation, this reaches
 * the second workload's, the second task's, the sixty-fifth line's.
 */
static void sweep_counted(const char *what, int (*fn)(void *), void *arg)
{
	long n;

	if (!failmalloc_works())
		pmusim_skip("a sanitizer replaces malloc: no allocation can be refused");
	for (n = 0;; n++) {
		long live = failmalloc_live();
		bool refused;
		int ret;

		failmalloc_after(n);
		ret = fn(arg);
		refused = failmalloc_failed();
		failmalloc_after(-1);
		if (failmalloc_live() != live)
			fail_msg("%s, allocation %ld refused: %ld blocks leaked", what, n,
				 failmalloc_live() - live);
		if (!refused) {
			assert_int_equal(ret, 0);
			break;
		}
		if (ret != -1)
			fail_msg("%s, allocation %ld refused: returned %d, not -1", what, n, ret);
	}
	print_message("%s: %ld allocations refused in turn\n", what, n);
	assert_true(n > 0);
}

/* Every kind of workload, its executor and its code bytes. */
static int sim_workloads(void *arg)
{
	static const enum wl_kind kinds[] = { WL_TCHAIN, WL_RECURSION, WL_RANDOM, WL_PHASES };
	int ret = 0;

	(void)arg;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && !ret; k++) {
		struct wl_params p;
		struct workload *wl;
		struct wl_exec *x;
		uint64_t start, size;
		uint8_t *code;

		wl_params_default(&p, kinds[k]);
		p.depth = kinds[k] == WL_PHASES ? 4 : 12;
		errno = 0;
		wl = workload_build(&p);
		if (!wl) {
			/* ENOMEM, or a bad parameter taken for one: say which */
			return errno == ENOMEM ? -1 : -2;
		}
		x = malloc(sizeof(*x));
		if (!x || wl_exec_init(x, wl, 1)) {
			ret = -1;
		} else {
			wl_exec_fini(x);
			if (workload_text(wl, &code, &start, &size))
				ret = -1;
			else
				free(code);
		}
		free(x);
		workload_free(wl);
	}
	return ret;
}

static void test_sim_workloads(void **state)
{
	(void)state;
	sweep_counted("workloads", sim_workloads, NULL);
}

/* A machine of two CPUs and 20 tasks: the task table grows past its first 16. */
static int sim_machine(void *arg)
{
	const struct machine_config cfg = {
		.desc = model_cpu_desc_lookup("skylake"), .nr_cpus = 2, .hz = 1000,
		.timeslice = 200000, .quantum = 50000, .seed = 1,
	};
	struct workload *wl = arg;
	struct machine *m;
	int ret = 0;

	errno = 0;
	m = machine_create(&cfg);
	if (!m)
		return errno == ENOMEM ? -1 : -2;
	for (int i = 0; i < 20 && !ret; i++)
		if (!machine_add_task(m, "t", wl, NULL, 0, 0))
			ret = -1;
	if (!ret)
		machine_run(m, 100000);
	machine_destroy(m);
	return ret;
}

static void test_sim_machine(void **state)
{
	struct wl_params p;
	struct workload *wl;

	(void)state;
	/* before the workload is built: a skip from the sweep would leak it */
	if (!failmalloc_works())
		pmusim_skip("a sanitizer replaces malloc: no allocation can be refused");
	wl_params_default(&p, WL_TCHAIN);
	p.depth = 8;
	wl = workload_build(&p);
	assert_non_null(wl);
	sweep_counted("machine", sim_machine, wl);
	workload_free(wl);
}

/* A scenario refused for memory: -1, one line, nothing loaded. */
static int sim_scenario(void *arg)
{
	struct scenario *s = (struct scenario *)1;
	char err[256];

	if (!scenario_load(arg, &s, err, sizeof(err))) {
		scenario_free(s);
		return 0;
	}
	if (s || !err[0] || strchr(err, '\n'))
		return -2;
	return -1;
}

static void test_sim_scenario(void **state)
{
	char small[128], big[128];
	FILE *f;

	(void)state;
	/* no machine, buffer or consumer: each defaulted */
	snprintf(small, sizeof(small), "%s/small.yaml", dir);
	write_text(small, "duration: 1000\ntasks:\n  - name: t\n    workload: {kind: recursion}\n");
	sweep_counted("scenario (defaults)", sim_scenario, small);
	/* more entries than the 64 the key index starts with, every section given */
	snprintf(big, sizeof(big), "%s/big.yaml", dir);
	f = fopen(big, "w");
	assert_non_null(f);
	fputs("seed: 3\nduration: 1000\nmachine: {cpu: skylake, cpus: 2, hz: 1000}\ntasks:\n", f);
	for (int i = 0; i < 12; i++)
		fprintf(f, "  - name: t%d\n    workload: {kind: %s, depth: 4}\n    cpus: [0, 1]\n", i,
			i % 2 ? "random" : "phases");
	fputs("events:\n  - {event: cycles:u, period: 1000, call_graph: lbr}\n"
	      "buffer: {pages: 4, watermark: 1024}\nconsumer: {interval: 1000, pause: true}\n", f);
	assert_int_equal(fclose(f), 0);
	sweep_counted("scenario (big)", sim_scenario, big);
	/*
	 * The key index grows at its 65th entry: there a list entry that is
	 * a mapping (the 16th task), then a list entry that is a scalar (the
	 * 7th task's third CPU), so each way of adding one is refused once.
	 */
	f = fopen(big, "w");
	assert_non_null(f);
	fputs("duration: 1000\nmachine: {cpus: 2}\ntasks:\n", f);
	for (int i = 0; i < 16; i++)
		fprintf(f, "  - name: t%d\n    workload: {kind: tchain}\n", i);
	assert_int_equal(fclose(f), 0);
	sweep_counted("scenario (16 tasks)", sim_scenario, big);
	f = fopen(big, "w");
	assert_non_null(f);
	fputs("seed: 1\nduration: 1000\nmachine: {cpus: 2}\nbuffer: {pages: 4}\n"
	      "consumer: {interval: 1000}\ntasks:\n", f);
	for (int i = 0; i < 7; i++)
		fprintf(f, "  - name: t%d\n    workload: {kind: tchain}\n    cpus: [0, 1, 1]\n", i);
	assert_int_equal(fclose(f), 0);
	sweep_counted("scenario (7 tasks on CPUs)", sim_scenario, big);
}

/*
 * One run refused memory: -1 and one line. No perf.data: with -o this
 * sweep crashes in genelf__build() (tools/perf/util/genelf.c: in libelf
 * 0.188's elf_newdata(), some allocations after one of its sections'
 * failed); the writer's failures are swept by site in test_run above.
 */
static int sim_run(void *arg)
{
	const struct scenario *s = arg;
	struct run_stats st;
	char err[256];
	int ret;

	ret = run_scenario(s, NULL, NULL, NULL, &st, err, sizeof(err));
	run_stats_free(&st);
	if (!ret)
		return 0;
	return !err[0] || strchr(err, '\n') ? -2 : -1;
}

static void test_sim_run(void **state)
{
	static const char *const texts[] = {
		/* task events, an LBR call stack, overwrite and a backward buffer */
		"seed: 2\nduration: 300000\nmachine: {cpus: 2}\n"
		"tasks:\n  - name: a\n    workload: {kind: tchain, depth: 8}\n    threads: 2\n"
		"  - name: a\n    workload: {kind: recursion, depth: 6}\n"
		"events:\n  - {event: cycles:u, period: 5003, call_graph: lbr}\n"
		"  - {event: instructions:u, period: 7001, scope: system}\n"
		"buffer: {pages: 2}\nconsumer: {interval: 50000}\n",
		"seed: 3\nduration: 300000\n"
		"tasks:\n  - name: b\n    workload: {kind: tchain, depth: 8}\n"
		"events:\n  - {event: cycles:u, period: 3001, write_backward: true}\n"
		"buffer: {pages: 1, overwrite: true}\nconsumer: {interval: 100000, pause: true}\n",
	};
	char path[128];

	(void)state;
	/* before a scenario is loaded: a skip from the sweep would leak it */
	if (!failmalloc_works())
		pmusim_skip("a sanitizer replaces malloc: no allocation can be refused");
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct scenario *s;
		char err[256], what[32];

		snprintf(path, sizeof(path), "%s/run%zu.yaml", dir, i);
		write_text(path, texts[i]);
		if (scenario_load(path, &s, err, sizeof(err)))
			fail_msg("%s", err);
		snprintf(what, sizeof(what), "run %zu", i);
		sweep_counted(what, sim_run, s);
		scenario_free(s);
	}
}

/* ---- tools/: every allocation of a library call refused in turn ---------- */

/*
 * The tools/ functions below run in a child with the first N allocations
 * granted and every one after refused, for N = 0, 1, 2, ... until one
 * run needs no more. (The sweep above tells places apart by malloc's
 * caller, which is the C library's strdup, asprintf or fopen for most of
 * these.) Each refused run must fail cleanly: an error return, nothing
 * leaked, nothing left in the directory; a run refused nothing must give
 * the right result. FN returns 0 when it succeeded with the right
 * result, 1 when it failed as it should, 2 for a wrong result.
 */
static void count_sweep(const char *what, int (*fn)(const char *dir))
{
	char sub[160], cmd[400];
	long k;

	if (!failmalloc_works())
		pmusim_skip("a sanitizer replaces malloc: no allocation can be refused");
	snprintf(sub, sizeof(sub), "%s/%s", dir, what);
	assert_int_equal(mkdir(sub, 0700), 0);
	for (k = 0;; k++) {
		struct { int rc; long leaked; bool refused; } o = { -1, 0, false };
		int pipefd[2], status;
		char *left;
		pid_t pid;

		fflush(stdout);
		assert_int_equal(pipe(pipefd), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			long live;

			close(pipefd[0]);
			alarm(60);
			/* a crash is the child's end, not cmocka's to catch and go on from */
			signal(SIGSEGV, SIG_DFL);
			signal(SIGBUS, SIG_DFL);
			signal(SIGABRT, SIG_DFL);
			signal(SIGILL, SIG_DFL);
			signal(SIGFPE, SIG_DFL);
			live = failmalloc_live();
			failmalloc_after(k);
			o.rc = fn(sub);
			o.refused = failmalloc_failed();
			failmalloc_after(-1);
			o.leaked = failmalloc_live() - live;
			if (write(pipefd[1], &o, sizeof(o)) != sizeof(o))
				exit(99);
			exit(0);	/* exit(): gcov writes its counts */
		}
		close(pipefd[1]);
		if (read(pipefd[0], &o, sizeof(o)) != sizeof(o))
			o.rc = -1;
		close(pipefd[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) || o.rc < 0)
			fail_msg("%s, %ld allocations granted: crashed or hung", what, k);
		if (o.rc == 2)
			fail_msg("%s, %ld allocations granted: a wrong result", what, k);
		if (o.leaked)
			fail_msg("%s, %ld allocations granted: %ld blocks leaked", what, k, o.leaked);
		if (!o.refused) {
			if (o.rc)
				fail_msg("%s: failed with nothing refused", what);
			break;
		}
		if (o.rc == 1) {
			/* a failed run leaves the directory as it found it: empty */
			struct dirent **names;
			int n = scandir(sub, &names, NULL, alphasort);

			assert_true(n >= 2);
			left = n > 2 ? names[2]->d_name : NULL;
			if (left)
				fail_msg("%s, %ld allocations granted: left %s", what, k, left);
			for (int i = 0; i < n; i++)
				free(names[i]);
			free(names);
		}
		snprintf(cmd, sizeof(cmd), "rm -rf %s/* %s/.build-id", sub, sub);
		assert_int_equal(system(cmd), 0);
	}
	print_message("%s: %ld runs refused memory\n", what, k);
	assert_true(k > 0);
}

static const struct perf_map_sym nomem_syms[] = {
	{ 0x7000, 0x40, "jitted_one" }, { 0x5000, 0x20, "jitted_two" },
	{ 0x6000, 0x10, "jitted_three" },
};

/* perf-PID.map written and read back */
static int nomem_perf_map(const char *sub)
{
	struct perf_map map;
	char path[200], err[256];
	int ok;

	if (perf_map__write(sub, 42, nomem_syms, 3, err, sizeof(err))) {
		if (errno == ENOMEM && strstr(err, "cannot"))
			return 1;
		return 2;
	}
	snprintf(path, sizeof(path), "%s/perf-42.map", sub);
	if (perf_map__load(&map, path)) {
		unlink(path);
		return errno == ENOMEM ? 1 : 2;
	}
	unlink(path);
	ok = map.nr == 3 && map.syms[0].start == 0x5000 &&
	     !strcmp(perf_map__find(&map, 0x7010)->name, "jitted_one");
	perf_map__exit(&map);
	return ok ? 0 : 2;
}

static void test_tools_perf_map(void **state)
{
	(void)state;
	count_sweep("perf_map", nomem_perf_map);
}

static u8 nomem_code[0x40];
static const struct genelf_sym nomem_elf_syms[] = {
	{ 0x401000, 0x20, "main" }, { 0x401020, 0x20, "leaf_function" },
};

/* an ELF image built, put in a build-id cache, its symbols read back */
static int nomem_genelf(const char *sub)
{
	struct genelf_dso dso = {
		.text_start = 0x401000, .code = nomem_code, .text_size = sizeof(nomem_code),
		.syms = nomem_elf_syms, .nr_syms = 2,
	};
	char err[256], path[300], sbid[2 * GENELF_BUILD_ID_SIZE + 1];
	struct perf_map map;
	int ret;

	if (genelf__build(&dso, err, sizeof(err)))
		return strstr(err, "pmusim: ") == err ? 1 : 2;
	if (build_id_cache__add(sub, "/usr/bin/prog", dso.build_id, dso.image, dso.image_size,
				err, sizeof(err))) {
		genelf__exit(&dso);
		return 2;
	}
	genelf__build_id_hex(dso.build_id, sbid);
	snprintf(path, sizeof(path), "%s/usr/bin/prog/%s/elf", sub, sbid);
	ret = perf_map__load_elf(&map, path, dso.map_start, dso.map_pgoff);
	genelf__exit(&dso);
	if (ret)
		return errno == ENOMEM ? 1 : 2;
	ret = map.nr == 2 && perf_map__find(&map, 0x401030) &&
	      !strcmp(perf_map__find(&map, 0x401030)->name, "leaf_function") ? 0 : 2;
	perf_map__exit(&map);
	return ret;
}

static int nomem_genelf_clean(const char *sub)
{
	int ret = nomem_genelf(sub);
	char cmd[400];

	/* the cache is written before the read that failed: not what this checks */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/usr %s/.build-id", sub, sub);
	if (system(cmd))
		return 2;
	return ret;
}

static void test_tools_genelf(void **state)
{
	(void)state;
	count_sweep("genelf", nomem_genelf_clean);
}

/* a perf.data with attrs, build-ids and samples, written and read back */
static int nomem_perf_data(const char *sub)
{
	static const char *const argv[] = { "pmusim", "run" };
	static const struct perf_data_env env = {
		.hostname = "h", .os_release = "6.12", .arch = "x86_64", .nr_cpus_avail = 2,
		.argc = 2, .argv = argv, .max_branches = 32,
	};
	struct perf_event_attr a = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME,
	};
	u64 ids[2] = { 5, 6 }, rec[4] = { PERF_RECORD_SAMPLE | (u64)32 << 48, 6, 0x401000, 900 };
	struct perf_data_writer *w;
	struct perf_data_file f;
	char path[200];
	int ret;

	snprintf(path, sizeof(path), "%s/nomem.data", sub);
	w = perf_data_writer__open(path, &env);
	if (!w)
		return strstr(perf_data_writer__last_error(), "nomem.data") ? 1 : 2;
	if (perf_data_writer__add_attr(w, &a, "cycles:u", &ids[0], 1) ||
	    perf_data_writer__add_attr(w, &a, "instructions:u", &ids[1], 1) ||
	    perf_data_writer__add_build_id(w, (const u8 *)"01234567890123456789", 20,
					   "/usr/bin/prog") ||
	    perf_data_writer__write(w, (struct perf_event_header *)rec)) {
		perf_data_writer__abort(w);
		return errno == ENOMEM || errno == EIO ? 1 : 2;
	}
	if (perf_data_writer__close(w))
		return 1;
	ret = perf_data_file__open(&f, path);
	if (ret) {
		ret = strstr(f.err, "out of memory") || strstr(f.err, "corrupt") ? 1 : 2;
		perf_data_file__close(&f);
		unlink(path);
		return ret;
	}
	ret = f.nr_attrs == 2 && !strcmp(f.attrs[1].name, "instructions:u") &&
	      f.nr_build_ids == 1 && !strcmp(f.hostname, "h") && f.first_sample_time == 900 &&
	      perf_data_file__build_id(&f, "/usr/bin/prog") ? 0 : 2;
	perf_data_file__close(&f);
	unlink(path);
	return ret;
}

static void test_tools_perf_data(void **state)
{
	(void)state;
	count_sweep("perf_data", nomem_perf_data);
}

/* LBR call stacks of 100 threads, each stitched onto its previous sample */
static int nomem_lbr_stitch(const char *sub)
{
	u64 chain[2] = { PERF_CONTEXT_USER, 0x4000 }, br[40][3];
	struct lbr_stitcher st;
	struct perf_sample s;
	const u64 *frames;
	int ret = 0, r;
	u32 nr;

	(void)sub;
	lbr_stitcher__init(&st, 32, true);
	memset(br, 0, sizeof(br));
	for (int i = 0; i < 40; i++) {
		br[i][0] = 0x1000 + 16 * (u64)i;
		br[i][1] = 0x1008 + 16 * (u64)i;
	}
	for (u32 round = 0; round < 2 && !ret; round++) {
		for (u32 tid = 1; tid <= 100 && !ret; tid++) {
			memset(&s, 0, sizeof(s));
			s.tid = s.pid = tid;
			s.callchain_nr = 2;
			s.callchain = (const u8 *)chain;
			s.branch_nr = round ? 32 : 16;
			s.hw_idx = round ? 31 : 15;
			s.branch_entries = (const u8 *)br;
			r = lbr_stitcher__resolve(&st, &s, &frames, &nr);
			if (r < 0)
				ret = errno == ENOMEM ? 1 : 2;
			else if (r != 1 || nr < s.branch_nr + 1)
				ret = 2;
		}
	}
	lbr_stitcher__exit(&st);
	return ret;
}

static void test_tools_lbr_stitch(void **state)
{
	(void)state;
	count_sweep("lbr_stitch", nomem_lbr_stitch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_run_json),
		cmocka_unit_test(test_stitch),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_seed_lbr_stitch),
		cmocka_unit_test(test_seed_task_ctx_data),
		cmocka_unit_test(test_seed_write_backward),
		cmocka_unit_test(test_seed_hw_time),
		cmocka_unit_test(test_seed_alt_period),
		cmocka_unit_test(test_stitch_each),
		cmocka_unit_test(test_dump_each),
		cmocka_unit_test(test_ringbuf_each),
		cmocka_unit_test(test_ringbuf_libperf_each),
		cmocka_unit_test(test_sim_workloads),
		cmocka_unit_test(test_sim_machine),
		cmocka_unit_test(test_sim_scenario),
		cmocka_unit_test(test_sim_run),
		cmocka_unit_test(test_tools_perf_map),
		cmocka_unit_test(test_tools_genelf),
		cmocka_unit_test(test_tools_perf_data),
		cmocka_unit_test(test_tools_lbr_stitch),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
