// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim record after Valgrind, without Valgrind: a stand-in `valgrind`
 * (a shell script first in PATH) puts streams written here, record by
 * record, into the pipe record's --pmusim-fd names (as frames: this
 * program run as `test_record_streams --frame FD FILE...`), and exits as
 * told. So each
 * way a program can end reaches record's summary, JSON and exit status:
 * no exit record (valgrind's status stands), an execve whose image was
 * not traced, a fork whose child was not, a --json=FILE that cannot be
 * written (exit 1, and a FILE that is not a regular file is never
 * removed), an output that cannot be written (exit 2 before valgrind
 * runs), an event without samples (a line, a --json entry), SIGINT, SIGTERM or SIGHUP while valgrind runs (the program is
 * stopped, the stream replayed), and SIGINT during the replay (exit 130,
 * stopped_by; last, since a stop signal stays seen for the rest of the
 * process).
 * tests/cmd/test_record.sh runs real programs under the real tool.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "tests/lib/vg_writer.h"
#include "cmd/commands.h"

const char *pmusim_program = "pmusim";	/* cmd/pmusim.c's, outside the library */

#define N	1000u		/* instructions per branch record */
#define PID	42u		/* the streams' own pid (their files' names are valgrind's) */

static char dir[64], prog[96], out[96], errpath[96], jsonpath[96];

/* a stream in src/ under @name, as the stand-in copies it */
static void w_open(struct vg_writer *w, const char *name, uint32_t seq)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/src/%s", dir, name);
	vgw_open(w, path, PID, seq, 0);
}

static void w_jmp(struct vg_writer *w, uint64_t from, uint64_t to, uint32_t insns)
{
	vgw_branch(w, VGK_JMP, from, to, 0x7000, insns);
}

static void put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* pmusim record -o OUT ARGS... -- PROG, stderr into errpath; its status */
static int record(const char *first, ...)
{
	char *argv[16] = { "record", "-o", out };
	int argc = 3, saved, fd, rc;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc++] = "--";
	argv[argc++] = prog;
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	rc = cmd_record(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return rc;
}

static int setup(void **state)
{
	char path[128];

	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "recstreams"))
		return -1;
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(out, sizeof(out), "%s/out.data", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	snprintf(jsonpath, sizeof(jsonpath), "%s/s.json", dir);
	for (const char *sub = "bin\0tool\0tmp\0src\0"; *sub; sub += strlen(sub) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
		if (mkdir(path, 0755))
			return -1;
	}
	/* the stand-in: the main stream as valgrind's pid's, the others as they are named */
	snprintf(path, sizeof(path), "%s/bin/valgrind", dir);
	put_file(path, "#!/bin/sh\n"
		 "for a; do case $a in --pmusim-fd=*) fd=${a#--pmusim-fd=} ;; esac; done\n"
		 /* VG_SLOW: long enough for test_sigint to see record's handler */
		 "[ -z \"$VG_SLOW\" ] || sleep 0.2\n"
		 "\"$VG_FRAMER\" --frame \"$fd\" \"$VG_SRC\"/main \"$VG_SRC\"/vg.* || exit 99\n"
		 /* VG_STOP=SIG: signal record, then wait for its SIGTERM */
		 "if [ -n \"$VG_STOP\" ]; then\n"
		 "  trap 'exit 143' TERM\n"
		 "  kill -$VG_STOP $PPID\n"
		 "  i=0; while [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done\n"
		 "fi\n"
		 ": >\"$VG_SRC\"/done\n"
		 "exit ${VG_EXIT:-0}\n", 0755);
	snprintf(path, sizeof(path), "%s/tool/pmusim-amd64-linux", dir);
	put_file(path, "", 0755);
	put_file(prog, "#!/bin/sh\n", 0755);
	snprintf(path, sizeof(path), "%s/bin:/usr/bin:/bin", dir);
	setenv("PATH", path, 1);
	snprintf(path, sizeof(path), "%s/tool", dir);
	setenv("PMUSIM_VGTOOL_LIB", path, 1);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	setenv("TMPDIR", path, 1);
	snprintf(path, sizeof(path), "%s/src", dir);
	setenv("VG_SRC", path, 1);
	{
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0)
			return -1;
		self[n] = '\0';
		setenv("VG_FRAMER", self, 1);
	}
	/* the programs' files would go to the user's build-id cache */
	snprintf(path, sizeof(path), "%s/home", dir);
	setenv("HOME", path, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static void clean_src(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -f '%s'/src/* '%s'/out.data* '%s'/s.json", dir, dir, dir);
	assert_int_equal(system(cmd), 0);
}

/* TMPDIR holds nothing: every stream directory was removed */
static void assert_tmp_empty(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "[ -z \"$(ls -A '%s/tmp')\" ]", dir);
	assert_int_equal(system(cmd), 0);
}

/* A stream without an exit record: valgrind's own status is record's. */
static void test_no_exit(void **state)
{
	struct vg_writer w;
	char want[256], *err;

	(void)state;
	clean_src();
	w_open(&w, "main", 0);
	w_jmp(&w, 0x100, 0x110, N);
	w_jmp(&w, 0x120, 0x130, N);
	vgw_close(&w);
	setenv("VG_EXIT", "5", 1);
	assert_int_equal(record("--cpu", "skylake", NULL), 5);
	unsetenv("VG_EXIT");
	err = scratch_read(errpath);
	snprintf(want, sizeof(want), "pmusim record %s: ended without an exit (valgrind status 5); "
		 "1 thread on 2 skylake CPUs\n  instructions 2000, taken branches 2, ", prog);
	assert_true(!strncmp(err, want, strlen(want)));
	assert_int_equal(access(out, R_OK), 0);
	free(err);
	assert_tmp_empty();
}

/* A fork whose child has no stream, then an execve whose image has none. */
static void write_fork_exec(void)
{
	struct vg_writer w;

	clean_src();
	w_open(&w, "main", 0);
	w_jmp(&w, 0x100, 0x110, N);
	vgw_proc(&w, VGS_FORK, 77, 0, NULL);
	w_jmp(&w, 0x120, 0x130, N);
	vgw_proc(&w, VGS_EXEC, PID, 0, "/usr/bin/next");
	vgw_close(&w);
}

static void test_exec_and_fork_not_traced(void **state)
{
	char *err;

	(void)state;
	write_fork_exec();
	assert_int_equal(record(NULL), 0);
	err = scratch_read(errpath);
	assert_non_null(strstr(err, ": called execve (the new image was not traced); 1 thread on "));
	assert_non_null(strstr(err, "\n  1 child process not traced\n"));
	assert_null(strstr(err, "followed"));	/* no child recorded, no execve followed */
	free(err);
	assert_tmp_empty();
}

static void test_exec_json_file(void **state)
{
	char opt[128], *err, *json;
	size_t len;

	(void)state;
	write_fork_exec();
	snprintf(opt, sizeof(opt), "--json=%s", jsonpath);
	assert_int_equal(record(opt, NULL), 0);
	err = scratch_read(errpath);
	assert_string_equal(err, "");	/* all of it in FILE */
	json = scratch_read(jsonpath);
	len = strlen(json);
	/* one object, its brace the last line */
	assert_true(len > 3 && json[0] == '{' && !strcmp(json + len - 3, "\n}\n"));
	assert_non_null(strstr(json, "\n  \"end\": {\n    \"how\": \"exec\",\n"
				"    \"text\": \"called execve (the new image was not traced)\",\n"
				"    \"exit_status\": 0\n  },\n"));
	assert_non_null(strstr(json, "\n  \"children_not_traced\": 1,\n"));
	assert_non_null(strstr(json, "\n  \"execs\": 0,\n"));
	free(json);
	free(err);
	assert_tmp_empty();
}

/* --json=FILE that cannot be written: exit 1, one line; a device is not removed */
static void test_json_write_error(void **state)
{
	char link[128], opt[160], want[192], *err;
	struct stat st;

	(void)state;
	write_fork_exec();
	snprintf(link, sizeof(link), "%s/full", dir);
	assert_int_equal(symlink("/dev/full", link), 0);
	snprintf(opt, sizeof(opt), "--json=%s", link);
	assert_int_equal(record(opt, NULL), 1);
	err = scratch_read(errpath);
	snprintf(want, sizeof(want), "pmusim: record: %s: write error\n", link);
	assert_string_equal(err, want);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(link);
	free(err);
	assert_tmp_empty();
}

/* -N, --cpus, a CPU list by --cpu, and the output's other spellings */
static void test_option_forms(void **state)
{
	char other[128], opt[160], want[192], *err;

	(void)state;
	write_fork_exec();
	snprintf(other, sizeof(other), "%s/other.data", dir);
	snprintf(opt, sizeof(opt), "--output=%s", other);
	assert_int_equal(record("-N", "--cpus", "3", "--cpu", "1", "--cpu", "skylake", opt, NULL), 0);
	err = scratch_read(errpath);
	snprintf(want, sizeof(want), "pmusim record %s: called execve (the new image was not traced); "
		 "1 thread on 3 skylake CPUs\n", prog);
	assert_true(!strncmp(err, want, strlen(want)));
	free(err);
	assert_int_equal(access(other, R_OK), 0);
	assert_int_equal(access(out, F_OK), -1);
	unlink(other);
	snprintf(opt, sizeof(opt), "-o%s", other);
	assert_int_equal(record(opt, NULL), 0);
	assert_int_equal(access(other, R_OK), 0);
	assert_int_equal(access(out, F_OK), -1);
	unlink(other);
	snprintf(opt, sizeof(opt), "%s.truth", other);
	unlink(opt);
	assert_tmp_empty();
}

/*
 * An output that cannot be written, as perf record finds it before the
 * workload starts: exit 2, one line naming it, and valgrind never ran (the
 * stand-in leaves src/done at its end).
 */
static void test_output_fails(void **state)
{
	char done[128], *err;

	(void)state;
	write_fork_exec();
	snprintf(done, sizeof(done), "%s/src/done", dir);
	unlink(done);
	assert_int_equal(record("--output=/nonexistent-pmusim-dir/x.data", NULL), 2);
	err = scratch_read(errpath);
	assert_string_equal(err, "pmusim: record: /nonexistent-pmusim-dir/x.data: cannot create a "
			    "file in /nonexistent-pmusim-dir: No such file or directory\n");
	assert_int_equal(access(done, F_OK), -1);
	free(err);
	assert_tmp_empty();
}

/* An event without samples says why: a line of the summary, an entry of --json's no_samples */
static void test_no_samples_said(void **state)
{
	char opt[128], *err, *json;

	(void)state;
	write_fork_exec();	/* 2000 instructions */
	assert_int_equal(record(NULL), 0);
	err = scratch_read(errpath);
	assert_non_null(strstr(err, "\n  warning: cycles:u counted 2000, less than its period "
				"100003: no samples\n"));
	free(err);
	snprintf(opt, sizeof(opt), "--json=%s", jsonpath);
	assert_int_equal(record(opt, "-e", "cycles:k,instructions", "-c", "500", NULL), 0);
	json = scratch_read(jsonpath);
	assert_non_null(strstr(json, "\n  \"no_samples\": [\n    \"cycles:k counts the kernel only, "
				 "and the program runs in user space only here: no samples\"\n  ],\n"));
	free(json);
	err = scratch_read(errpath);
	assert_string_equal(err, "");
	free(err);
	assert_tmp_empty();
}

/*
 * SIGINT or SIGTERM while valgrind runs: record ends valgrind with
 * SIGTERM, as perf record its workload, and still replays what was
 * streamed (before, the signal killed pmusim, and with it the test).
 */
static void stopped_while_valgrind_runs(const char *sig, int signo)
{
	struct vg_writer w;
	char want[192], *err;

	clean_src();
	w_open(&w, "main", 0);
	w_jmp(&w, 0x100, 0x110, N);
	vgw_proc(&w, VGS_EXIT, PID, 0, NULL);
	vgw_close(&w);
	setenv("VG_STOP", sig, 1);
	assert_int_equal(record("--json", NULL), 128 + signo);
	unsetenv("VG_STOP");
	err = scratch_read(errpath);
	snprintf(want, sizeof(want), "pmusim: record: stopped by SIG%s; %s holds what was recorded "
		 "so far\n{\n", sig, out);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof(want), "\n    \"stopped_by\": %d\n  },\n", signo);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "\n  \"instructions\": 1000,\n  \"branches\": 1,\n"));
	assert_int_equal(access(out, R_OK), 0);
	free(err);
	assert_tmp_empty();
	/* pmusim's own handlers are back: none was left installed */
	{
		struct sigaction sa;

		sigaction(signo, NULL, &sa);
		assert_true(sa.sa_handler == SIG_DFL);
	}
}

static void test_stopped_while_valgrind_runs(void **state)
{
	(void)state;
	stopped_while_valgrind_runs("INT", SIGINT);
	stopped_while_valgrind_runs("TERM", SIGTERM);
}

/*
 * SIGHUP (the terminal closed) while valgrind runs: the same as SIGINT and
 * SIGTERM (before, it killed pmusim, and with it the test).
 */
static void test_stopped_by_sighup_while_valgrind_runs(void **state)
{
	(void)state;
	stopped_while_valgrind_runs("HUP", SIGHUP);
}

/*
 * SIGINT once the replay catches it: from another thread, as a terminal's
 * would come. The replay runs while valgrind does; record's handler is
 * first (the stand-in, slow, waits 0.2 s before its first frame), the
 * replay's comes when its stream begins: the first handler seen after
 * the stand-in left src/done (its streams all written) that is not
 * record's.
 */
static void *interrupt(void *arg)
{
	struct timespec ms = { 0, 1000000 };
	void (*first)(int) = SIG_DFL;
	struct sigaction sa;
	char done[128];

	(void)arg;
	snprintf(done, sizeof(done), "%s/src/done", dir);
	for (int i = 0; i < 60000; i++) {
		bool valgrind_ended = !access(done, F_OK);

		sigaction(SIGINT, NULL, &sa);
		if (first == SIG_DFL && sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
			first = sa.sa_handler;
		if (valgrind_ended && sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN &&
		    sa.sa_handler != first) {
			kill(getpid(), SIGINT);
			return NULL;
		}
		nanosleep(&ms, NULL);
	}
	return NULL;
}

static void test_sigint(void **state)
{
	struct vg_writer w;
	pthread_t t;
	char want[192], *err;

	(void)state;
	clean_src();
	/* far more than the replay runs before the signal: 2^38 instructions */
	w_open(&w, "main", 0);
	for (unsigned int i = 0; i < 64; i++)
		w_jmp(&w, 0x100 + 16 * i, 0x108 + 16 * i, 0xffffffffu);
	vgw_proc(&w, VGS_EXIT, PID, 0, NULL);
	vgw_close(&w);
	assert_int_equal(pthread_create(&t, NULL, interrupt, NULL), 0);
	setenv("VG_SLOW", "1", 1);
	assert_int_equal(record("--json", NULL), 128 + SIGINT);
	unsetenv("VG_SLOW");
	pthread_join(t, NULL);
	err = scratch_read(errpath);
	snprintf(want, sizeof(want), "pmusim: record: stopped by SIGINT; %s holds what was recorded "
		 "so far\n{\n", out);
	assert_true(!strncmp(err, want, strlen(want)));
	assert_non_null(strstr(err, "\n    \"exit_status\": 130,\n    \"stopped_by\": 2\n  },\n"));
	assert_non_null(strstr(err, "\n  \"stalled\": false,\n"));
	assert_int_equal(access(out, R_OK), 0);
	free(err);
	assert_tmp_empty();
}

/*
 * The stand-in's framer: each FILE (a stream; those not there skipped),
 * in order, as the tool writes it into the pipe FD (vgstream.h): frames
 * of its header's pid, the first with VGS_FRAME_START; no END, so each
 * ends with the pipe (or, an execve's image, at the next of its pid).
 */
static int frame_files(int fd, int nfiles, char **files)
{
	for (int i = 0; i < nfiles; i++) {
		unsigned char buf[VGS_FRAME_MAX];
		struct vgs_file_header h;
		struct vgs_frame *fr = (struct vgs_frame *)buf;
		uint16_t flags = VGS_FRAME_START;
		FILE *f = fopen(files[i], "rb");
		size_t n;

		if (!f)
			continue;
		if (fread(&h, sizeof(h), 1, f) != 1) {
			fclose(f);
			continue;
		}
		rewind(f);
		while ((n = fread(buf + sizeof(*fr), 1, sizeof(buf) - sizeof(*fr), f)) > 0) {
			fr->pid = h.pid;
			fr->len = (uint16_t)n;
			fr->flags = flags;
			flags = 0;
			if (write(fd, buf, sizeof(*fr) + n) != (ssize_t)(sizeof(*fr) + n)) {
				fclose(f);
				return 1;
			}
		}
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--frame"))
		return frame_files(atoi(argv[2]), argc - 3, argv + 3);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_exit),
		cmocka_unit_test(test_exec_and_fork_not_traced),
		cmocka_unit_test(test_exec_json_file),
		cmocka_unit_test(test_json_write_error),
		cmocka_unit_test(test_option_forms),
		cmocka_unit_test(test_output_fails),
		cmocka_unit_test(test_no_samples_said),
		cmocka_unit_test(test_stopped_while_valgrind_runs),
		cmocka_unit_test(test_stopped_by_sighup_while_valgrind_runs),
		cmocka_unit_test(test_sigint),	/* last: the stop stays seen */
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
