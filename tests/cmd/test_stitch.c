// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim stitch on a perf.data holding what pmusim run never writes:
 * MMAP (type 1) records, data and non-executable mappings, mappings perf
 * treats as anonymous (//anon, /dev/zero, /anon_hugepage), records too
 * short for a name or whose name has no NUL, a DSO mapped twice, DSOs
 * that cannot be read (no ELF, a build-id found in no cache, no HOME),
 * processes without a perf-PID.map, addresses in no mapping or in no
 * symbol, plain callchains (no LBR) with context markers, samples of an
 * event without a call stack, and samples without a time (no sorting).
 * Each frame line is checked, with and without symbols and --tid-time.
 *
 * Then a long output: every byte arrives, through buffer boundaries that
 * fall inside the --tid-time prefix, and through a pipe that is full
 * while a signal interrupts the write.
 *
 * A build without CONFIG_LBR_STITCH has no stitch command: it refuses
 * whatever it is given, with one line and exit 2, and writes nothing.
 */
#define _GNU_SOURCE	/* F_GETPIPE_SZ */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/capture.h"
#include "core/kernel.h"
#include "tests/lib/scratch.h"
#include "cmd/commands.h"
#include "tools/perf/util/perf_data.h"

const char *pmusim_program = "pmusim";	/* cmd/pmusim.c's, outside the library */

static char dir[64], data[96], big[96], maps[96], notelf[128], outpath[96], errpath[96];

static const struct perf_data_env env = { .version = "6.12", .arch = "x86_64" };

#define PROT_RX		5
#define PROT_R		1
#define CONTEXT_USER	((u64)-512)	/* PERF_CONTEXT_USER */

static void emit(struct perf_data_writer *w, u32 type, u16 misc, const void *body, unsigned int len)
{
	u64 rec[256];
	struct perf_event_header *h = (struct perf_event_header *)rec;

	assert_true(len % 8 == 0 && len < 8 * 255);
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 1, body, len);
	h->type = type;
	h->misc = misc;
	h->size = (u16)(8 + len);
	assert_int_equal(perf_data_writer__write(w, h), 0);
}

static u64 pair(u32 lo, u32 hi)
{
	return (u64)hi << 32 | lo;
}

/* MMAP (type 1): pid, tid, start, len, pgoff, name padded to 8 */
static void mmap1(struct perf_data_writer *w, u16 misc, u32 pid, u64 start, u64 len, const char *name)
{
	u64 body[40] = { pair(pid, pid), start, len, 0 };
	size_t n = strlen(name) + 1;

	memcpy(&body[4], name, n);
	emit(w, PERF_RECORD_MMAP, misc, body, 32 + (unsigned int)((n + 7) & ~(size_t)7));
}

/* MMAP2: ... pgoff, maj/min, ino, ino_generation, prot/flags, name */
static void mmap2(struct perf_data_writer *w, u32 pid, u64 start, u64 len, u64 pgoff, u32 prot,
		  const char *name)
{
	u64 body[40] = { pair(pid, pid), start, len, pgoff, 0, 0, 0, pair(prot, 2) };
	size_t n = strlen(name) + 1;

	memcpy(&body[8], name, n);
	emit(w, PERF_RECORD_MMAP2, 0, body, 64 + (unsigned int)((n + 7) & ~(size_t)7));
}

/*
 * attr A (id 1): a plain callchain and branches of ANY (no LBR call
 * stack), no time; attr B (id 2): ip and time, branches of ANY
 */
static void add_attrs(struct perf_data_writer *w)
{
	struct perf_event_attr a = { 0 }, b;
	const u64 ida = 1, idb = 2;

	a.size = sizeof(a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	b = a;
	b.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_BRANCH_STACK;
	b.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	assert_int_equal(perf_data_writer__add_attr(w, &a, "a", &ida, 1), 0);
	assert_int_equal(perf_data_writer__add_attr(w, &b, "b", &idb, 1), 0);
}

static void sample_a(struct perf_data_writer *w, u32 pid, const u64 *ips, unsigned int nr)
{
	u64 body[240] = { 1, ips[0], pair(pid, pid + 1), nr };

	assert_true(nr < 230);
	memcpy(&body[4], ips, 8 * nr);
	body[4 + nr] = 0;	/* no branches */
	emit(w, PERF_RECORD_SAMPLE, 2, body, 8 * (5 + nr));
}

static void sample_b(struct perf_data_writer *w, u32 pid, u64 ip, u64 time)
{
	u64 body[] = { 2, ip, pair(pid, pid + 1), time, 0 };

	emit(w, PERF_RECORD_SAMPLE, 2, body, sizeof(body));
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void make_file(void)
{
	static const u8 bid[20] = { 0xb1, 0xd0 };
	u64 deep[PERF_MAX_STACK_DEPTH + 3];
	struct perf_data_writer *w = perf_data_writer__open(data, &env);

	assert_non_null(w);
	add_attrs(w);
	assert_int_equal(perf_data_writer__add_build_id(w, bid, 20, "/nonexistent/bid.so"), 0);
	/* a build-id of one byte names no cache entry: the file at the name */
	assert_int_equal(perf_data_writer__add_build_id(w, bid, 1, "/x/lib"), 0);
	mmap1(w, 0, 100, 0x400000, 0x1000, "//anon");
	mmap1(w, PERF_RECORD_MISC_MMAP_DATA, 100, 0x500000, 0x1000, "//anon");	/* data */
	mmap2(w, 100, 0x600000, 0x1000, 0, PROT_RX, "/dev/zero (deleted)");
	mmap2(w, 100, 0x700000, 0x1000, 0, PROT_RX, "/anon_hugepage (deleted)");
	mmap2(w, 100, 0x800000, 0x2000, 0x2000, PROT_RX, "/nonexistent/lib.so");
	mmap2(w, 100, 0x800000, 0x2000, 0x2000, PROT_RX, "/nonexistent/lib.so");	/* again */
	mmap2(w, 100, 0x800000, 0x2000, 0x3000, PROT_RX, "/nonexistent/lib.so");	/* remapped */
	mmap2(w, 100, 0x900000, 0x1000, 0, PROT_R, "/nonexistent/data");	/* not executable */
	mmap2(w, 100, 0xa00000, 0x1000, 0, PROT_RX, notelf);
	mmap2(w, 100, 0xb00000, 0x1000, 0x1000, PROT_RX, "/nonexistent/bid.so");
	mmap2(w, 200, 0x400000, 0x1000, 0, PROT_RX, "//anon");
	mmap2(w, 100, 0xd00000, 0x1000, 0, PROT_RX, "/x/lib");	/* 6 bytes, not //anon */
	{	/* an MMAP without room for a name, an MMAP2 whose name has no NUL */
		u64 body[9] = { pair(100, 100), 0xc00000, 0x1000, 0, 0, 0, 0, pair(PROT_RX, 2) };

		emit(w, PERF_RECORD_MMAP, 0, body, 32);
		memcpy(&body[8], "/dev/zer", 8);
		emit(w, PERF_RECORD_MMAP2, 0, body, 72);
	}
	{
		const u64 s1[] = { CONTEXT_USER, 0x400010, 0x400150, 0x600004, 0x700008 };
		const u64 s3[] = { 0x400f00, 0x801000, 0xa00010, 0xb00020, 0xc00010, 0xd00040,
				   0xdead000 };
		const u64 s4[] = { 0x400010 };

		sample_a(w, 100, s1, 5);
		sample_b(w, 100, 0x700004, 5000);
		sample_a(w, 100, s3, 7);
		sample_a(w, 200, s4, 1);
		sample_b(w, 300, 0x400010, 1000);	/* before the one above: no sorting */
	}
	/* deeper than perf shows: the first PERF_MAX_STACK_DEPTH frames */
	for (unsigned int i = 0; i < PERF_MAX_STACK_DEPTH + 3; i++)
		deep[i] = 0x400000 + 8 * i;
	sample_a(w, 300, deep, PERF_MAX_STACK_DEPTH + 3);
	assert_int_equal(perf_data_writer__close(w), 0);
}

static int setup(void **state)
{
	char map100[128];

	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "stitch"))
		return -1;
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(big, sizeof(big), "%s/big.data", dir);
	snprintf(maps, sizeof(maps), "%s/maps", dir);
	snprintf(notelf, sizeof(notelf), "%s/notelf.so", dir);
	snprintf(outpath, sizeof(outpath), "%s/stdout", dir);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	if (mkdir(maps, 0700))
		return -1;
	write_text(notelf, "not an ELF file\n");
	snprintf(map100, sizeof(map100), "%s/perf-100.map", maps);
	write_text(map100,
		   "400000 100 func_a\n"
		   "400100 100 fb_a_name_too_long_for_the_line_cache_slot_of_its_frame\n"
		   "600000 10 func_z\n"
		   "700000 10 func_h\n");
	if (setenv("HOME", dir, 1))	/* an empty build-id cache */
		return -1;
	make_file();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

/* cmd_stitch(ARGS) with stdout and stderr in files; its exit status */
static int stitch(const char *const *args, int nargs)
{
	char *argv[8];

	assert_true(nargs < 8);
	for (int i = 0; i < nargs; i++)
		argv[i] = (char *)args[i];
	argv[nargs] = NULL;
	return capture_call(cmd_stitch, nargs, argv, outpath, errpath);
}

/* A test of what the command prints: only a build with CONFIG_LBR_STITCH has it. */
#define needs_stitch() do {							\
	if (!IS_ENABLED(CONFIG_LBR_STITCH))					\
		pmusim_skip("this build has no CONFIG_LBR_STITCH (no pmusim stitch)");	\
} while (0)

static void expect_output(const char *const *args, int nargs, const char *want)
{
	char *out, *err;
	int rc = stitch(args, nargs);

	out = scratch_read(outpath);
	err = scratch_read(errpath);
	if (rc || strcmp(out, want) || *err)
		fail_msg("exit %d, stderr '%s', stdout\n%s\nnot\n%s", rc, err, out, want);
	free(out);
	free(err);
}

#define LONG_NAME "fb_a_name_too_long_for_the_line_cache_slot_of_its_frame"

/* WANT, then the deep sample: pid 300, no mapping, PERF_MAX_STACK_DEPTH frames */
static void expect_with_deep(const char *const *args, int nargs, const char *want,
			     const char *prefix, bool sym)
{
	char *all = malloc(strlen(want) + 64 * PERF_MAX_STACK_DEPTH);
	size_t len;

	assert_non_null(all);
	len = (size_t)sprintf(all, "%s%s\n", want, prefix);
	for (unsigned int i = 0; i < PERF_MAX_STACK_DEPTH; i++)
		len += (size_t)sprintf(all + len, "\t%16x%s\n", 0x400000 + 8 * i,
				       sym ? " [unknown]" : "");
	strcpy(all + len, "\n");
	expect_output(args, nargs, all);
	free(all);
}

static void test_frames(void **state)
{
	const char *args[] = { "stitch", "--map-dir", maps, data };

	(void)state;
	needs_stitch();
	expect_with_deep(args, 4,
		      /* the callchain: its context marker skipped; anonymous mappings by perf-100.map */
		      "\n\t          400010 func_a\n\t          400150 " LONG_NAME "\n"
		      "\t          600004 func_z\n\t          700008 func_h\n\n"
		      /* no call stack: the ip */
		      "\n\t          700004 func_h\n\n"
		      /*
		       * no symbol there; a DSO at its offset (the later mapping); a file
		       * that is no ELF; a build-id in no cache; no mapping (a record too
		       * short to name one); none at all
		       */
		      "\n\t          400f00 [unknown]\n\t            4000 [unknown]\n"
		      "\t              10 [unknown]\n\t            1020 [unknown]\n"
		      "\t          c00010 [unknown]\n\t              40 [unknown]\n"
		      "\t         dead000 [unknown]\n\n"
		      /* pid 200: an anonymous mapping, no perf-200.map */
		      "\n\t          400010 [unknown]\n\n"
		      /* pid 300: other processes' mappings only */
		      "\n\t          400010 [unknown]\n\n", "", true);
}

static void test_no_sym_tid_time(void **state)
{
	const char *args[] = { "stitch", "--no-sym", "--tid-time", data };

	(void)state;
	needs_stitch();
	expect_with_deep(args, 4,
		      "  101     0.000000: \n\t          400010\n\t          400150\n"
		      "\t          600004\n\t          700008\n\n"
		      "  101     0.000005: \n\t          700004\n\n"
		      "  101     0.000000: \n\t          400f00\n\t            4000\n"
		      "\t              10\n\t            1020\n\t          c00010\n\t              40\n"
		      "\t         dead000\n\n"
		      "  201     0.000000: \n\t          400010\n\n"
		      "  301     0.000001: \n\t          400010\n\n", "  301     0.000000: ", false);
}

/* Without HOME there is no ~/.debug: PATH.debug/ alone is looked in. */
static void test_no_home(void **state)
{
	const char *args[] = { "stitch", "--map-dir", maps, data };
	char *home, *out;

	(void)state;
	needs_stitch();
	home = strdup(getenv("HOME"));
	assert_non_null(home);
	unsetenv("HOME");
	assert_int_equal(stitch(args, 4), 0);
	assert_int_equal(setenv("HOME", home, 1), 0);
	free(home);
	out = scratch_read(outpath);
	assert_non_null(strstr(out, "\t            1020 [unknown]\n"));
	free(out);
}

static void test_help(void **state)
{
	const char *args[] = { "stitch", "-h" };
	char *out;

	(void)state;
	assert_int_equal(stitch(args, 2), 0);
	out = scratch_read(outpath);
	assert_true(!strncmp(out, "usage: pmusim stitch ", 21));
	/* the help works either way, and says when the command is not there */
	assert_int_equal(!!strstr(out, "this build has no CONFIG_LBR_STITCH: the command refuses"),
			 !IS_ENABLED(CONFIG_LBR_STITCH));
	free(out);
}

/*
 * With CONFIG_LBR_STITCH a perf.data is stitched; without, every way of
 * calling the command (a file, --no-stitch, a bad option, no file) gets
 * the same one line naming the option, exit 2, and nothing on stdout.
 */
static void test_config_gate(void **state)
{
	static const char *const calls[][4] = {
		{ "stitch", NULL, NULL, NULL },	/* (the file goes in at [1] or [2]) */
		{ "stitch", "--no-stitch", NULL, NULL },
		{ "stitch", "--no-sym", "--tid-time", NULL },
		{ "stitch", "--bogus", NULL, NULL },
		{ "stitch", NULL, NULL, NULL },
	};
	static const int nargs[] = { 2, 3, 4, 2, 1 };
	const char *args[4];
	char *out, *err;

	(void)state;
	for (size_t i = 0; i < sizeof(nargs) / sizeof(nargs[0]); i++) {
		int rc;

		memcpy(args, calls[i], sizeof(args));
		if (i < 3)
			args[nargs[i] - 1] = data;
		rc = stitch(args, nargs[i]);
		out = scratch_read(outpath);
		err = scratch_read(errpath);
		if (IS_ENABLED(CONFIG_LBR_STITCH)) {
			/* the first three are good calls, the last two bad ones */
			if (i < 3 ? rc || !*out || *err : rc != 2 || *out || !*err)
				fail_msg("call %zu: exit %d, stdout %zu bytes, stderr '%s'", i, rc,
					 strlen(out), err);
		} else {
			assert_int_equal(rc, 2);
			assert_string_equal(out, "");
			assert_string_equal(err, "pmusim: stitch: this build has no LBR stitching: "
					    "turn on CONFIG_LBR_STITCH (make menuconfig, \"Simulator "
					    "and user-space tools\") and rebuild\n");
		}
		free(out);
		free(err);
	}
}

/* ---- a long output ----------------------------------------------------------- */

#define BIG_SAMPLES	8000

/* BIG_SAMPLES samples of attr B, one frame each, and what --no-sym --tid-time prints */
static char *make_big(void)
{
	struct perf_data_writer *w = perf_data_writer__open(big, &env);
	size_t len = 0;
	char *want = malloc(BIG_SAMPLES * 64);

	assert_non_null(w);
	assert_non_null(want);
	add_attrs(w);
	for (unsigned int i = 0; i < BIG_SAMPLES; i++) {
		u64 ip = 0x400000 + 8 * (i % 37), t = 1000ull * i;

		sample_b(w, 100 + i % 3, ip, t);
		len += (size_t)sprintf(want + len, "%5u %5llu.%06llu: \n\t%16llx\n\n", 101 + i % 3,
				       t / 1000000000ull, t % 1000000000ull / 1000,
				       (unsigned long long)ip);
	}
	assert_int_equal(perf_data_writer__close(w), 0);
	return want;
}

static void test_long_output(void **state)
{
	const char *args[] = { "stitch", "--no-sym", "--tid-time", big };
	char *want;

	(void)state;
	needs_stitch();
	want = make_big();
	/* 40 bytes a sample: buffer ends fall inside the --tid-time prefix */
	expect_output(args, 4, want);
	free(want);
}

static void on_signal(int sig)
{
	(void)sig;
}

/*
 * A signal while write(2) waits on a full pipe interrupts it before it
 * wrote anything (EINTR): the write is made again, and nothing is lost.
 */
static void test_interrupted_write(void **state)
{
	char *want, *got;
	size_t want_len, got_len = 0;
	int fds[2], status, queued = 0, capacity;
	pid_t pid;

	(void)state;
	needs_stitch();
	want = make_big();
	want_len = strlen(want);
	got = malloc(want_len + 1);
	assert_non_null(got);
	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
		char *argv[] = { "stitch", "--no-sym", "--tid-time", big, NULL };
		int rc;

		sigaction(SIGUSR1, &sa, NULL);
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		alarm(60);
		rc = cmd_stitch(4, argv);
		/* _exit: the parent's buffers this child was forked with are not its leaks */
		fflush(stdout);
		_exit(rc);
	}
	close(fds[1]);
	/* wait until the pipe is full: the next write(2) blocks with nothing written */
	capacity = fcntl(fds[0], F_GETPIPE_SZ);
	assert_true(capacity > 0);
	for (int i = 0; i < 6000 && queued < capacity; i++) {
		assert_int_equal(ioctl(fds[0], FIONREAD, &queued), 0);
		usleep(1000);
	}
	assert_true(queued >= capacity);
	usleep(20000);
	assert_int_equal(kill(pid, SIGUSR1), 0);
	usleep(20000);
	for (;;) {
		ssize_t n = read(fds[0], got + got_len, want_len + 1 - got_len);

		assert_true(n >= 0);
		if (!n)
			break;
		got_len += (size_t)n;
		assert_true(got_len <= want_len);
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	got[got_len] = 0;
	assert_int_equal(got_len, want_len);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_no_sym_tid_time),
		cmocka_unit_test(test_no_home),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_config_gate),
		cmocka_unit_test(test_long_output),
		cmocka_unit_test(test_interrupted_write),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
