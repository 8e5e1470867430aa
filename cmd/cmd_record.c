// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim record [options] -- PROG ARGS: run a real program under pmusim's
 * Valgrind tool (vgtool/), then retire its recorded threads on the model
 * PMU's CPUs (sim/vg_task.c) through the same run as pmusim run
 * (sim/run.c): perf.data out (or perf's pipe stream on stdout, -o -), the
 * true stacks beside it in perf.data.truth, and a summary on stderr (the
 * program owns stdout). As perf record, the output is checked before the
 * program runs.
 */
#define _GNU_SOURCE		/* F_SETPIPE_SZ */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/json.h"
#include "cmd/run_stats_json.h"
#include "cmd/perf_options.h"
#include "core/kernel.h"
#include "core/testcase.h"
#include "model/model.h"
#include "sim/run.h"
#include "sim/scenario.h"
#include "sim/vg_feed.h"
#include "sim/vg_task.h"
#include "tools/perf/util/perf_data.h"

/*
 * Threads and processes the program may start (each its task, its events,
 * made before the run as the record session opens its events first): past
 * these, lost. --max-tasks changes it.
 */
#define RECORD_SPARE_TASKS	64
#define RECORD_SPARE_TASKS_MAX	4096
static unsigned int spare_tasks = RECORD_SPARE_TASKS;

static void usage(FILE *f)
{
	fprintf(f, "usage: pmusim record [options] -- PROG [ARGS]\n"
	      "  run PROG under pmusim's Valgrind tool, retire its threads on the model\n"
	      "  PMU's CPUs and record them into perf.data, its true stacks into\n"
	      "  perf.data.truth; a summary on stderr\n\n"
	      "  -o, --output FILE      perf.data to write (default perf.data); -o -: perf's\n"
	      "                         pipe mode on stdout (| perf report -i -)\n"
	      "      --truth FILE       the true stacks (default FILE.truth beside a regular\n"
	      "                         -o FILE; none beside a device, a FIFO or a pipe)\n"
	      "      --cpu MODEL        the CPU model (skylake, ...; default the build's);\n"
	      "                         --cpu list lists them; --cpu CPUS (digits) is -C\n"
	      "      --cpus N           simulated CPUs (default 2)\n"
	      "      --max-tasks N      threads and processes the program may start\n"
	      "                         (default %d, at most %d): later ones are lost\n"
	      "  -N, --no-buildid-cache (accepted: the program's files stay where they are)\n"
	      "      --json[=FILE]      the summary as JSON, on stderr or into FILE\n"
	      "  -q, --quiet            no progress line and no summary (errors still say why)\n"
	      "      --no-progress      no progress line, even on a terminal\n"
	      "perf record's options (as pmusim run takes them):\n"
	      "  -e, --event EVENT      record EVENT (default cycles:u; :u :k, rHEX, A,B);\n"
	      "                         user space only: cycles is cycles:u, as perf's\n"
	      "                         fall back when the kernel is out of reach\n"
	      "  -c, --count PERIOD     sample period (default 100003)\n"
	      "  -F, --freq FREQ        sample frequency instead\n"
	      "  -a, --all-cpus         system-wide: one event per CPU\n"
	      "  -C CPUS                system-wide on these CPUs only (0,2-3)\n"
	      "  -m, --mmap-pages N     buffer data pages (a power of two)\n"
	      "      --overwrite        overwrite buffers, written backward\n"
	      "  -b, --branch-any       sample any taken branch\n"
	      "  -j, --branch-filter F  branch filter words (any,u,call_stack,...)\n"
	      "      --call-graph lbr   LBR call stacks\n"
	      "  -g                     LBR call stacks (no frame pointers are simulated)\n"
	      "      --max-sample-rate N\n"
	      "                         kernel.perf_event_max_sample_rate (default %d):\n"
	      "                         throttling holds each CPU to N/HZ samples a tick\n"
	      "      --seed N           the scheduler's seed (default 1)\n"
	      "Timing: one cycle per instruction; instructions and branches are exact.\n"
	      "Exit status: the program's (128 + N if signal N killed it), as perf record;\n"
	      "  1 if the recording failed, 2 for bad input.\n", RECORD_SPARE_TASKS,
	      RECORD_SPARE_TASKS_MAX, CONFIG_PERF_SAMPLE_MAX_RATE);
}

/* --cpu list: the models, what their LBR offers, the build's default marked. */
static void list_cpus(FILE *f)
{
	const struct model_cpu_desc *def = model_cpu_desc_default();
	unsigned int nr;
	const struct model_cpu_desc *t = model_cpu_desc_table(&nr);

	fprintf(f, "%-16s %-8s %-4s %s\n", "model", "f/m/s", "LBR", "LBR modes");
	for (unsigned int i = 0; i < nr; i++) {
		char fms[16];

		snprintf(fms, sizeof(fms), "%u/%u/%u", t[i].family, t[i].model, t[i].stepping);
		fprintf(f, "%-16s %-8s %-4u %s%s%s%s\n", t[i].name, fms, t[i].lbr_nr,
			t[i].arch_lbr ? "Arch LBR, " : "", "-b -j",
			t[i].has_lbr_callstack || t[i].arch_lbr ? ", --call-graph lbr" : "",
			&t[i] == def ? " (the default)" : "");
	}
}

/* The scenario record runs on: the machine, one event, the buffer, the consumer. */
static const char scenario_text[] =
	"seed: 1\n"
	"duration: 1\n"			/* replaced: the program's end ends the run */
	"machine:\n"
	"  cpu: %s\n"
	"  cpus: %u\n"
	"  hz: 1000\n"
	"  timeslice: 8400000\n"
	"  quantum: 210000\n"
	"  pmi_cycles: 4200\n"
	"tasks:\n"				/* unused: the program's threads are the tasks */
	"  - name: unused\n"
	"    workload:\n"
	"      kind: recursion\n"
	"      depth: 2\n"
	"events:\n"
	"  - event: cycles:u\n"
	"    period: 100003\n"
	"    sample_type: [ip, tid, time, period]\n"
	"    scope: task\n"
	"buffer:\n"
	"  pages: 64\n"
	"consumer:\n"
	"  interval: 2100000\n";

/* The full path of @prog as execvp would find it, in @buf; or NULL and errno. */
static const char *find_program(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	int err = ENOENT;
	struct stat st;

	if (strchr(prog, '/')) {
		snprintf(buf, len, "%s", prog);
		if (stat(buf, &st))
			return NULL;
		if (!S_ISREG(st.st_mode) || access(buf, X_OK)) {
			errno = EACCES;
			return NULL;
		}
		return buf;
	}
	/* an empty entry, a trailing ':' too, is the current directory */
	for (const char *p = path ? path : "/usr/bin:/bin";;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		snprintf(buf, len, "%.*s/%s", n ? (int)n : 1, n ? p : ".", prog);
		if (!stat(buf, &st) && S_ISREG(st.st_mode)) {
			if (!access(buf, X_OK))
				return buf;
			/* as execvp: found but not executable is what it says */
			err = EACCES;
		}
		if (!end)
			break;
		p = end + 1;
	}
	errno = err;
	return NULL;
}

/* What execve runs: 'E' an ELF file, '#' a #! script, 0 neither (or unreadable). */
static int exec_kind(const char *path)
{
	unsigned char m[4] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(m, 1, sizeof(m), f);
	fclose(f);
	if (n == 4 && !memcmp(m, "\177ELF", 4))
		return 'E';
	return n >= 2 && m[0] == '#' && m[1] == '!' ? '#' : 0;
}

/* An ELF file or a #! script: what execve runs (valgrind says the rest in many lines). */
static bool runnable(const char *path)
{
	return exec_kind(path) != 0;
}

/* Where pmusim's Valgrind tool is: $PMUSIM_VGTOOL_LIB, else vgtool/lib beside pmusim. */
static int find_tool(char *dir, size_t len)
{
	static const char *const beside_exe[] = {
		"vgtool/lib",		/* a build tree: pmusim and vgtool/lib/ */
		"../libexec/pmusim",	/* installed: PREFIX/bin and PREFIX/libexec/pmusim */
	};
	const char *env = getenv("PMUSIM_VGTOOL_LIB");
	char exe[PATH_MAX], tool[PATH_MAX + 32];
	ssize_t n;

	if (env && *env) {
		snprintf(dir, len, "%s", env);
		snprintf(tool, sizeof(tool), "%s/pmusim-amd64-linux", dir);
		return access(tool, X_OK);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(beside_exe); i++) {
		snprintf(dir, len, "%.*s/%s", (int)(len - 32), exe, beside_exe[i]);
		snprintf(tool, sizeof(tool), "%s/pmusim-amd64-linux", dir);
		if (!access(tool, X_OK))
			return 0;
	}
	/* name the build tree's place in the message */
	snprintf(dir, len, "%.*s/%s", (int)(len - 32), exe, beside_exe[0]);
	return -1;
}

/*
 * The stream directory and its files (the tool makes no directories), by
 * record itself: PATH need not hold rm.
 */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}

/* Is @path on a file system in memory (tmpfs, ramfs)? */
static bool in_memory(const char *path)
{
	struct statfs fs;

	return !statfs(path, &fs) &&
	       ((unsigned long)fs.f_type == TMPFS_MAGIC || (unsigned long)fs.f_type == RAMFS_MAGIC);
}

/*
 * Where the tool makes its rings (vgtool/vgstream.h), into @buf: a
 * directory of record's own in /dev/shm, or @dir (the stream directory in
 * TMPDIR) if that is in memory; else none (empty), every stream in frames
 * through the pipe: a ring's file on a disk could fault (SIGBUS) where a
 * full file system has no block for a page written through the mapping.
 * An absolute path: the program may chdir before it forks.
 */
static void make_ring_dir(char *buf, size_t size, const char *dir)
{
	char abs[PATH_MAX];

	snprintf(buf, size, "/dev/shm/pmusim-record.XXXXXX");
	if (in_memory("/dev/shm") && mkdtemp(buf))
		return;
	buf[0] = '\0';
	if (in_memory(dir) && realpath(dir, abs) && strlen(abs) < size)
		snprintf(buf, size, "%s", abs);
}

/*
 * SIGINT or SIGTERM while the program runs stops the program, not pmusim:
 * as perf record ends its workload with SIGTERM and still writes its
 * file, the recording is then finished from what the tool streamed (a
 * terminal's ^C reaches the program itself as well). SIGHUP, a closed
 * terminal, does the same: perf record (6.12) does not catch it and dies
 * with its file unfinished, but what the program did so far is worth
 * keeping. The replay runs while the program does (sim/vg_feed.h), so
 * these stay caught until valgrind is reaped; the run's own SIGINT and
 * SIGTERM handler calls stop_valgrind() too (run_set_stop_hook()).
 */
/* -o -: stdout carries the perf.data, and the program writes to stderr (as under perf) */
static bool pipe_output;

static volatile sig_atomic_t valgrind_stop_signal;
static volatile sig_atomic_t valgrind_pid;

/*
 * The valgrind to run, into @buf: the one in PATH, or Debian's real
 * launcher when that is Debian's wrapper script (valgrind beside
 * valgrind.bin), which sets LD_LIBRARY_PATH=/usr/lib/debug and
 * GLIBC{XX,PP}_FORCE_NEW for the program and rebuilds the environment
 * in its own order: natively the program sees none of that.
 */
static const char *valgrind_launcher(char *buf, size_t len)
{
	char bin[PATH_MAX + 8];

	if (!find_program("valgrind", buf, len))
		return NULL;
	snprintf(bin, sizeof(bin), "%s.bin", buf);
	if (exec_kind(buf) == '#' && !access(bin, X_OK) && exec_kind(bin) == 'E' &&
	    strlen(bin) < len)
		memcpy(buf, bin, strlen(bin) + 1);
	return buf;
}

static void stop_valgrind(int sig)
{
	if (!valgrind_stop_signal)
		valgrind_stop_signal = sig;
	if (valgrind_pid > 0)
		kill((pid_t)valgrind_pid, SIGTERM);
}

static const int stops[] = { SIGINT, SIGTERM, SIGHUP };

struct valgrind_run {
	pid_t pid;
	int fd;				/* the stream pipe's reading end */
	struct sigaction old[ARRAY_SIZE(stops)], old_pipe;
};

/*
 * Are runs of conditional branches and jumps worth the tool's marking
 * (vgtool/vgstream.h)? Not when an event samples a branch stack of its
 * own (-b, -j): the replay then reads each of their records for the LBR.
 */
static bool runs_wanted(const struct scenario *s)
{
	for (uint32_t i = 0; i < s->events_count; i++)
		if (s->events[i].branch_sampling)
			return false;
	return true;
}

/*
 * Start PROG ARGS under the tool, its streams into a pipe: the writing
 * end goes to the top of the descriptors, in the range Valgrind keeps
 * from the program (so the program never sees it), and is inherited by
 * every process and execve the tool follows. 0, or -1 with errno.
 */
static int start_valgrind(const char *tool_dir, const char *ring_dir, bool runs,
			  char **prog_argv, struct valgrind_run *vr)
{
	struct sigaction sa;
	sigset_t block, saved_mask;
	char fdopt[48], launcher[PATH_MAX], ringopt[PATH_MAX + 32];
	const char *user_lib = getenv("VALGRIND_LIB");
	struct rlimit rl;
	int nargs = 0, a = 0, p[2], wfd;
	char **argv, *env_opt;
	size_t env_len;

	for (char **a = prog_argv; *a; a++)
		nargs++;
	if (!valgrind_launcher(launcher, sizeof(launcher)))
		return -1;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur < 64) {
		errno = EMFILE;
		return -1;
	}
	/* (dup2 takes no descriptor at or past the limit, nor past the kernel's nr_open) */
	wfd = rl.rlim_cur > 1048576 ? 1048575 : (int)rl.rlim_cur - 1;
	/* the tool gives the program its own VALGRIND_LIB back, or none (vgtool/client_env.h) */
	env_len = sizeof("--pmusim-env=VALGRIND_LIB=") + (user_lib ? strlen(user_lib) : 0);
	env_opt = malloc(env_len);
	argv = calloc((size_t)nargs + 9, sizeof(*argv));
	if (!argv || !env_opt) {
		free(argv);
		free(env_opt);
		return -1;
	}
	if (pipe(p) || fcntl(p[0], F_SETFD, FD_CLOEXEC) || fcntl(p[1], F_SETFD, FD_CLOEXEC)) {
		free(argv);
		free(env_opt);
		return -1;
	}
	/*
	 * 1 MiB (an unprivileged process's most, by default) rather than 64
	 * KiB: the tool waits on a full pipe, and the replay wakes, some 16
	 * times less often. Where the system allows less, the default stays.
	 */
	(void)fcntl(p[0], F_SETPIPE_SZ, 1 << 20);
	snprintf(env_opt, env_len, "--pmusim-env=VALGRIND_LIB%s%s", user_lib ? "=" : "",
		 user_lib ? user_lib : "");
	snprintf(fdopt, sizeof(fdopt), "--pmusim-fd=%d", wfd);
	argv[a++] = "valgrind";
	argv[a++] = "--tool=pmusim";
	argv[a++] = fdopt;
	argv[a++] = "-q";
	/* children and the images execve runs are recorded too (one stream each) */
	argv[a++] = "--trace-children=yes";
	argv[a++] = env_opt;
	if (ring_dir) {
		/* the bulk of the streams through shared memory (vgtool/vgstream.h) */
		snprintf(ringopt, sizeof(ringopt), "--pmusim-ring=%s", ring_dir);
		argv[a++] = ringopt;
	}
	if (!runs)
		argv[a++] = "--pmusim-runs=no";
	for (int i = 0; i < nargs; i++)
		argv[a++] = prog_argv[i];
	fflush(NULL);
	/* held until the handlers know the pid: a stop is never lost */
	sigemptyset(&block);
	for (size_t i = 0; i < ARRAY_SIZE(stops); i++)
		sigaddset(&block, stops[i]);
	sigprocmask(SIG_BLOCK, &block, &saved_mask);
	valgrind_stop_signal = 0;
	vr->pid = fork();
	if (vr->pid < 0) {
		sigprocmask(SIG_SETMASK, &saved_mask, NULL);
		close(p[0]);
		close(p[1]);
		free(argv);
		free(env_opt);
		return -1;
	}
	if (vr->pid == 0) {
		sigprocmask(SIG_SETMASK, &saved_mask, NULL);
		/* (dup2 leaves the copy without close-on-exec) */
		if (dup2(p[1], wfd) < 0) {
			fprintf(stderr, "pmusim: record: the stream pipe: %s\n", strerror(errno));
			_exit(127);
		}
		setenv("VALGRIND_LIB", tool_dir, 1);
		if (pipe_output)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		execv(launcher, argv);
		fprintf(stderr, "pmusim: record: valgrind: %s\n", strerror(errno));
		_exit(127);
	}
	free(argv);
	free(env_opt);
	close(p[1]);
	vr->fd = p[0];
	valgrind_pid = vr->pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stop_valgrind;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stops); i++)
		sigaction(stops[i], &sa, &vr->old[i]);
	/*
	 * a reader of the summary that went away (| head -1) must not kill
	 * record before its file is whole and the temp directory gone (the
	 * program had SIGPIPE's default: set back in the child)
	 */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &vr->old_pipe);
	run_set_stop_hook(stop_valgrind);
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
	return 0;
}

/*
 * Reap valgrind: its wait() status in *@status, the signal that stopped
 * it early, or 0, in *@stopped_by. 0, or -1 with errno.
 */
static int wait_valgrind(struct valgrind_run *vr, int *status, int *stopped_by)
{
	sigset_t block, saved_mask;
	int ret = 0;

	while (waitpid(vr->pid, status, 0) < 0)
		if (errno != EINTR) {
			ret = -1;
			break;
		}
	sigemptyset(&block);
	for (size_t i = 0; i < ARRAY_SIZE(stops); i++)
		sigaddset(&block, stops[i]);
	sigprocmask(SIG_BLOCK, &block, &saved_mask);
	run_set_stop_hook(NULL);
	for (size_t i = 0; i < ARRAY_SIZE(stops); i++)
		sigaction(stops[i], &vr->old[i], NULL);
	valgrind_pid = 0;
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
	*stopped_by = valgrind_stop_signal;
	return ret;
}

static bool have_valgrind(void)
{
	char buf[PATH_MAX];

	return find_program("valgrind", buf, sizeof(buf)) != NULL;
}

/* How the program ended, from its stream and valgrind's status. */
struct record_end {
	const char *how;		/* exited, killed, exec, no_exit */
	int code;			/* exited: its status; killed: the signal */
	char text[128];			/* the summary's words */
};

static void describe_end(const struct vg_trace_stats *vs, int vg_status, struct record_end *e)
{
	e->code = 0;
	if (WIFSIGNALED(vg_status)) {
		e->how = "killed";
		e->code = WTERMSIG(vg_status);
		snprintf(e->text, sizeof(e->text), "killed by signal %d (%s)", e->code,
			 strsignal(e->code));
	} else if (vs->exited && vs->status >= 0) {
		e->how = "exited";
		e->code = (vs->status >> 8) & 0xff;
		snprintf(e->text, sizeof(e->text), "exited with status %d", e->code);
	} else if (vs->exec) {
		e->how = "exec";
		snprintf(e->text, sizeof(e->text), "called execve (the new image was not traced)");
	} else {
		e->how = "no_exit";
		e->code = WIFEXITED(vg_status) ? WEXITSTATUS(vg_status) : 0;
		snprintf(e->text, sizeof(e->text), "ended without an exit (valgrind status %d)",
			 e->code);
	}
}

/*
 * record's exit status, as perf record's: the program's exit status, 128
 * + N if signal N killed it (perf raises N on itself; a status says the
 * same without a core dump); valgrind's when the stream has no exit.
 */
static int exit_status_of(int vg_status)
{
	if (WIFSIGNALED(vg_status))
		return 128 + WTERMSIG(vg_status);
	return WIFEXITED(vg_status) ? WEXITSTATUS(vg_status) : 1;
}

/*
 * The progress line on a terminal: what the replay has retired so far
 * and how much of the stream it read, redrawn at most once a second
 * (the host's clock says when; nothing of it goes into any file). The
 * program shares the terminal: its output may land after the line; -q
 * or --no-progress silences it.
 */
static const struct vg_trace *progress_trace;
static const struct vg_feed *progress_feed;
static struct timespec progress_start, progress_last;
static bool progress_shown;

static double seconds_since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void progress(uint64_t now, uint64_t duration)
{
	struct vg_trace_stats vs;
	struct timespec t;
	uint64_t bytes, held;

	(void)now;
	(void)duration;
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (seconds_since(&progress_last, &t) < 1.0)
		return;
	progress_last = t;
	vg_trace_stats(progress_trace, &vs);
	vg_feed_stats(progress_feed, &bytes, &held);
	fprintf(stderr, "\r[ pmusim record: %.0f s, %llu M instructions and %llu M branches "
		"replayed, %llu MB of stream ]\033[K", seconds_since(&progress_start, &t),
		(unsigned long long)(vs.insns / 1000000), (unsigned long long)(vs.branches / 1000000),
		(unsigned long long)(bytes >> 20));
	progress_shown = true;
}

static void progress_begin(const struct vg_trace *trace, const struct vg_feed *feed)
{
	progress_trace = trace;
	progress_feed = feed;
	clock_gettime(CLOCK_MONOTONIC, &progress_start);
	progress_last = progress_start;
	progress_shown = false;
}

/* The line goes before anything else is said. */
static void progress_end(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}

static double avg(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

/* The deepest true stack at one of the samples, over the threads (the table's true-max). */
static uint32_t true_max_at_samples(const struct run_stats *st)
{
	uint32_t max = 0;

	for (unsigned int i = 0; i < st->nr_tasks; i++)
		if (st->tasks[i].true_max > max)
			max = st->tasks[i].true_max;
	return max;
}

/* The thread's last comm, as the per-thread table shows it. */
static const char *comm_of(const struct vg_trace *trace, uint32_t tid)
{
	const char *comm = "";
	uint32_t pid = 0;

	vg_trace_thread(trace, tid, &pid, &comm);
	return comm;
}

/*
 * The throttling line, as pmusim run counts it, with the limit that made
 * it: perf_event_max_sample_rate / HZ samples a tick on each CPU.
 */
static void print_throttling(FILE *f, const struct scenario *s, const struct run_stats *st)
{
	uint32_t rate = s->machine->max_sample_rate ? s->machine->max_sample_rate :
			CONFIG_PERF_SAMPLE_MAX_RATE;

	fprintf(f, "  throttles %llu, unthrottles %llu", (unsigned long long)st->throttles,
		(unsigned long long)st->unthrottles);
	if (st->throttles)
		fprintf(f, ": at most %u samples a tick on a CPU (perf_event_max_sample_rate %u Hz, "
			"HZ %u)%s", (rate + s->machine->hz - 1) / s->machine->hz, rate,
			s->machine->hz, s->machine->max_sample_rate ? "" :
			"; --max-sample-rate raises it");
	fputc('\n', f);
}

/*
 * Why event I gave no samples, into BUF: it counts the kernel only, it
 * counted nothing (the model has no such event in user space), or less
 * than a period. False when it gave samples.
 */
static bool no_samples_why(const struct scenario *s, const struct run_stats *st, uint32_t i,
			   char *buf, size_t len)
{
	const struct scn_event *e = &s->events[i];

	if (i >= RUN_MAX_EVENTS || st->event_samples[i])
		return false;
	if (e->exclude_user)
		snprintf(buf, len, "%s counts the kernel only, and the program runs in user space "
			 "only here: no samples", e->event);
	else if (!st->event_count[i])
		snprintf(buf, len, "%s counted nothing in the program's user space (the model does "
			 "not count it there): no samples", e->event);
	else if (e->period)
		snprintf(buf, len, "%s counted %llu, less than its period %llu: no samples", e->event,
			 (unsigned long long)st->event_count[i], (unsigned long long)e->period);
	else
		snprintf(buf, len, "%s counted %llu and gave no samples", e->event,
			 (unsigned long long)st->event_count[i]);
	return true;
}

static void print_summary(const char *prog, const struct scenario *s,
			  const struct vg_trace *trace, const struct vg_trace_stats *vs,
			  const struct run_stats *st, const char *how, const char *out,
			  const char *truth)
{
	FILE *f = stderr;
	char why[256];

	fprintf(f, "pmusim record %s: %s; %u thread%s on %u %s CPU%s\n", prog, how,
		vs->threads, vs->threads == 1 ? "" : "s", s->machine->cpus, s->machine->cpu,
		s->machine->cpus > 1 ? "s" : "");
	fprintf(f, "  instructions %llu, taken branches %llu, cycles %llu (CPI 1), PMIs %llu\n",
		(unsigned long long)st->insns, (unsigned long long)st->branches,
		(unsigned long long)st->cycles, (unsigned long long)st->pmis);
	fprintf(f, "  samples %llu, lost %llu, context switches %llu, migrations %llu\n",
		(unsigned long long)st->samples, (unsigned long long)st->lost,
		(unsigned long long)st->switches, (unsigned long long)st->migrations);
	print_throttling(f, s, st);
	for (uint32_t i = 0; i < s->events_count; i++)
		if (no_samples_why(s, st, i, why, sizeof(why)))
			fprintf(f, "  warning: %s\n", why);
	if (vs->forks || vs->execs)
		fprintf(f, "  %u child process%s, %u execve%s followed\n", vs->forks,
			vs->forks == 1 ? "" : "es", vs->execs, vs->execs == 1 ? "" : "s");
	if (vs->unfollowed)
		fprintf(f, "  %u child process%s not traced\n", vs->unfollowed,
			vs->unfollowed == 1 ? "" : "es");
	if (vs->stalled)
		fprintf(f, "  warning: threads left waiting for what their streams never say\n");
	if (vs->truth_lost)
		fprintf(f, "  warning: out of memory for a shadow stack: some true stacks are short\n");
	if (vs->lost)
		fprintf(f, "  warning: %u thread%s past the first %u threads and processes not "
			"recorded (--max-tasks raises it)\n", vs->lost, vs->lost == 1 ? "" : "s",
			spare_tasks + 1);
	/*
	 * "true max" is the deepest true stack at one of the LBR call-stack
	 * samples, in the header as in the table; the program's deepest
	 * stack at any time is said as such.
	 */
	if (st->cs_samples && !IS_ENABLED(CONFIG_LBR_STITCH)) {
		/* the raw LBR stacks' judgement alone, and that nothing was stitched */
		fprintf(f, "  call-stack depth (frames): deepest %u; at the samples true max %u, "
			"LBR avg %.1f max %llu; stitching off (this build has no CONFIG_LBR_STITCH)\n",
			st->true_depth_max, true_max_at_samples(st),
			avg(st->depth_sum, st->cs_samples), (unsigned long long)st->depth_max);
		fprintf(f, "  per thread, at its samples against its true stack then (frames):\n"
			"  %7s %7s %8s %7s %7s %9s  %s\n", "tid", "samples", "true-max", "lbr-avg",
			"lbr-max", "lbr-whole", "comm");
		for (unsigned int i = 0; i < st->nr_tasks; i++) {
			const struct run_task_depth *d = &st->tasks[i];

			fprintf(f, "  %7u %7llu %8u %7.1f %7llu %9llu  %s\n", d->tid,
				(unsigned long long)d->samples, d->true_max, avg(d->lbr_sum, d->samples),
				(unsigned long long)d->lbr_max, (unsigned long long)d->lbr_whole,
				comm_of(trace, d->tid));
		}
	} else if (st->cs_samples) {
		fprintf(f, "  call-stack depth (frames): deepest %u; at the samples true max %u, "
			"LBR avg %.1f max %llu, stitched avg %.1f max %llu\n", st->true_depth_max,
			true_max_at_samples(st), avg(st->depth_sum, st->cs_samples),
			(unsigned long long)st->depth_max, avg(st->stitched_sum, st->cs_samples),
			(unsigned long long)st->stitched_max);
		fprintf(f, "  per thread, at its samples against its true stack then (frames):\n"
			"  %7s %7s %8s %7s %9s %8s %7s %6s %6s %6s  %s\n", "tid", "samples",
			"true-max", "lbr-max", "lbr-whole", "stitched", "st-max", "whole", "short",
			"wrong", "comm");
		for (unsigned int i = 0; i < st->nr_tasks; i++) {
			const struct run_task_depth *d = &st->tasks[i];

			fprintf(f, "  %7u %7llu %8u %7llu %9llu %8.1f %7llu %6llu %6llu %6llu  %s\n",
				d->tid, (unsigned long long)d->samples, d->true_max,
				(unsigned long long)d->lbr_max, (unsigned long long)d->lbr_whole,
				avg(d->stitched_sum, d->samples),
				(unsigned long long)d->stitched_max,
				(unsigned long long)d->stitched_whole,
				(unsigned long long)d->stitched_short,
				(unsigned long long)d->stitched_wrong, comm_of(trace, d->tid));
		}
	}
	if (!strcmp(out, "-"))
		fprintf(f, "  perf.data on standard output (pipe mode)");
	else
		fprintf(f, "  %s", out);
	if (truth)
		fprintf(f, ", the true stacks in %s", truth);
	fputc('\n', f);
}

/*
 * Where the run wrote the true stacks: --truth's FILE, else OUT.truth
 * beside a regular file, none beside a device, a FIFO or a pipe.
 */
static const char *truth_written(const char *out, const char *truth, char *buf, size_t len)
{
	struct stat st;

	if (truth)
		return truth;
	if (!strcmp(out, "-") || (!stat(out, &st) && !S_ISREG(st.st_mode)))
		return NULL;
	snprintf(buf, len, "%s.truth", out);
	return buf;
}

/* The summary as JSON: pmusim run --json's keys where they apply, and how the program ended. */
static void print_json(FILE *f, const char *prog, const struct scenario *s,
		       const struct vg_feed *feed, const struct vg_trace *trace,
		       const struct vg_trace_stats *vs,
		       const struct run_stats *st, const struct record_end *e, const char *out,
		       const char *truth, int status)
{
	unsigned int no_samples = 0;
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "program", prog);
	json_u64(&j, "seed", s->seed);
	json_string(&j, "cpu", s->machine->cpu);
	json_u64(&j, "cpus", s->machine->cpus);
	json_string(&j, "output", out);
	if (truth)		/* none beside a device, a FIFO or a pipe */
		json_string(&j, "truth", truth);
	json_object_begin(&j, "end");
	json_string(&j, "how", e->how);
	if (!strcmp(e->how, "killed"))
		json_u64(&j, "signal", (uint64_t)e->code);
	else if (!strcmp(e->how, "exited"))
		json_u64(&j, "status", (uint64_t)e->code);
	json_string(&j, "text", e->text);
	json_u64(&j, "exit_status", (uint64_t)status);
	if (st->stop_signal)
		json_u64(&j, "stopped_by", (uint64_t)st->stop_signal);
	json_object_end(&j);
	json_u64(&j, "processes", vs->processes);
	json_u64(&j, "threads", vs->threads);
	json_u64(&j, "execs", vs->execs);
	json_u64(&j, "children_not_traced", vs->unfollowed);
	json_bool(&j, "stalled", vs->stalled);
	json_bool(&j, "truth_lost", vs->truth_lost);
	json_u64(&j, "threads_lost", vs->lost);
	{
		uint64_t bytes, held;

		/* the stream's bytes, and the most of them held at once (bounded) */
		vg_feed_stats(feed, &bytes, &held);
		json_u64(&j, "stream_bytes", bytes);
		json_u64(&j, "stream_held_max", held);
		/* the process images whose streams came through shared memory */
		json_u64(&j, "stream_rings", vg_feed_rings(feed));
		/* past its memory bound: how often a stream went to TMPDIR, the most held there */
		vg_feed_spill_stats(feed, &bytes, &held);
		json_u64(&j, "stream_spills", bytes);
		json_u64(&j, "stream_spilled_max", held);
		/* its records, and those retired by their run's sums, not one by one */
		json_u64(&j, "stream_records", vs->records);
		json_u64(&j, "stream_records_summed", vs->summed);
	}
	{
		struct rusage ru;

		/* record's own peak (not valgrind's): what the replay holds */
		if (!getrusage(RUSAGE_SELF, &ru))
			json_u64(&j, "max_rss_kib", (uint64_t)ru.ru_maxrss);
	}
	json_u64(&j, "cycles", st->cycles);
	run_stats_json_counts(&j, st);
	/* the events that gave no samples, as the summary's warning lines say why */
	for (uint32_t i = 0; i < s->events_count; i++) {
		char why[256];

		if (!no_samples_why(s, st, i, why, sizeof(why)))
			continue;
		if (!no_samples++)
			json_array_begin(&j, "no_samples");
		json_string(&j, NULL, why);
	}
	if (no_samples)
		json_array_end(&j);
	run_stats_json_depth_begin(&j, st);
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		const struct run_task_depth *d = &st->tasks[i];
		const char *comm = "";
		uint32_t pid = 0;

		vg_trace_thread(trace, d->tid, &pid, &comm);
		json_object_begin(&j, NULL);
		json_u64(&j, "tid", d->tid);
		json_u64(&j, "pid", pid);
		json_string(&j, "task", comm);
		run_task_depth_json(&j, d);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	/* (run's only warning is of the generated programs' cache, which record has none of) */
	if (NEVER(st->warning[0]))
		json_string(&j, "warning", st->warning);
	json_object_end(&j);	/* (its newline ends the line) */
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_CPUS = OVR_OPT__END, OPT_CPU, OPT_JSON, OPT_TRUTH, OPT_NO_PROGRESS, OPT_MAX_TASKS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "json", optional_argument, NULL, OPT_JSON },
		{ "truth", required_argument, NULL, OPT_TRUTH },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "no-buildid-cache", no_argument, NULL, 'N' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
		OVR_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[sizeof(longopts) / sizeof(longopts[0])];
	/* the program runs in user space only: its events count there (cycles is cycles:u) */
	struct overrides o = { .cmd = "record", .user_only = true };
	const char *out = "perf.data", *model = NULL, *prog, *json_path = NULL, *tmp;
	const char *truth = NULL, *shown_truth;
	char truth_buf[PATH_MAX + 8];
	bool json = false, json_file = false, quiet = false, show_progress = isatty(STDERR_FILENO);
	struct stat json_st = { 0 };
	FILE *json_fp = NULL;
	const char **cmdline = NULL;
	char err[600], dir[PATH_MAX], ring_dir[PATH_MAX], tool_dir[PATH_MAX], path[PATH_MAX];
	char scn_path[PATH_MAX + 32], comm[16], check[PATH_MAX + 256];
	struct record_end end;
	struct vg_trace *trace = NULL;
	struct vg_trace_stats vs;
	struct scenario *s = NULL;
	struct run_stats st;
	uint64_t cpus = 2, held_max = 0, max_tasks = RECORD_SPARE_TASKS;
	int c, ret = 2, nr_cmdline = 0, vg_status = 0, vg_stopped_by = 0, rt;
	struct vg_feed *feed = NULL;
	struct valgrind_run vr;
	FILE *f;

	dir[0] = ring_dir[0] = '\0';
	/* --cpu is the CPU model here (a CPU list, digits, is still -C's) */
	memcpy(opts, longopts, sizeof(opts));
	for (size_t i = 0; opts[i].name; i++)
		if (!strcmp(opts[i].name, "cpu"))
			opts[i].val = OPT_CPU;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:o:" OVR_SHORTOPTS "hNq", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (cmd_empty_name("record", "-o", optarg, "file"))
				goto bad;
			out = optarg;
			break;
		case 'N': break;
		case 'q': quiet = true; break;
		case OPT_NO_PROGRESS: show_progress = false; break;
		case OPT_TRUTH:
			if (cmd_empty_name("record", "--truth", optarg, "file"))
				goto bad;
			truth = optarg;
			break;
		case OPT_JSON:
			/* --json= is not --json: it names a file, and no name */
			if (optarg && cmd_empty_name("record", "--json=", optarg, "file"))
				goto bad;
			json = true;
			json_path = optarg;
			break;
		case OPT_CPUS:
			if (overrides_uint(&o, "--cpus", optarg, 1, CONFIG_MODEL_MAX_CPUS, &cpus))
				goto bad;
			break;
		case OPT_MAX_TASKS:
			if (overrides_uint(&o, "--max-tasks", optarg, 0, RECORD_SPARE_TASKS_MAX,
					   &max_tasks))
				goto bad;
			break;
		case OPT_CPU:
			if (optarg[0] >= '0' && optarg[0] <= '9') {
				if (overrides_option(&o, 'C', optarg))
					goto bad;
				break;
			}
			if (!strcmp(optarg, "list")) {
				list_cpus(stdout);
				overrides_free(&o);
				return 0;
			}
			if (!model_cpu_desc_lookup(optarg)) {
				fprintf(stderr, "pmusim: record: --cpu %s: unknown CPU model (--cpu list "
					"lists them)\n", optarg);
				goto bad;
			}
			model = optarg;
			break;
		case 'h':
			usage(stdout);
			overrides_free(&o);
			return 0;
		case ':':
			fprintf(stderr, "pmusim: record: option '%s' needs a value\n", argv[optind - 1]);
			goto bad;
		default:
			switch (overrides_option(&o, c, optarg)) {
			case 0:
				break;
			case 1:
				fprintf(stderr, "pmusim: record: unknown option '%s' (pmusim record "
					"--help lists them)\n", argv[optind - 1]);
				goto bad;
			default:
				goto bad;
			}
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "pmusim: record: give a program: pmusim record [options] -- PROG [ARGS]\n");
		goto bad;
	}
	if (overrides_finish(&o))
		goto bad;
	prog = argv[optind];
	if (!find_program(prog, path, sizeof(path))) {
		fprintf(stderr, "pmusim: record: %s: %s\n", prog, strerror(errno));
		goto bad;
	}
	if (!runnable(path)) {
		fprintf(stderr, "pmusim: record: %s: not a program (neither ELF nor a #! script)\n",
			path);
		goto bad;
	}
	if (!have_valgrind()) {
		fprintf(stderr, "pmusim: record: valgrind not found in PATH: install Debian's "
			"valgrind package (scripts/install-deps.sh installs it)\n");
		goto bad;
	}
	if (find_tool(tool_dir, sizeof(tool_dir))) {
		fprintf(stderr, "pmusim: record: pmusim's Valgrind tool is not built: %s/pmusim-amd64-linux "
			"(make builds it, make install installs it; PMUSIM_VGTOOL_LIB names its directory)\n",
			tool_dir);
		goto bad;
	}

	/* as perf record opens its output first: nothing runs when it cannot be written */
	if (perf_data_writer__check(out, check, sizeof(check))) {
		fprintf(stderr, "pmusim: record: %s\n", check);
		goto bad;
	}
	if (truth && (!strcmp(truth, "-") || !strcmp(truth, out))) {
		fprintf(stderr, "pmusim: record: --truth %s: name a file of its own (/dev/stderr: "
			"the terminal)\n", truth);
		goto bad;
	}
	if (truth && perf_data_writer__check(truth, check, sizeof(check))) {
		fprintf(stderr, "pmusim: record: --truth: %s\n", check);
		goto bad;
	}
	pipe_output = !strcmp(out, "-");
	run_set_truth_file(truth);
	spare_tasks = (unsigned int)max_tasks;
	/* the memory the streams may take before one goes to TMPDIR (vg_feed.h) */
	if (getenv("PMUSIM_STREAM_HELD_MAX") &&
	    overrides_uint(&o, "PMUSIM_STREAM_HELD_MAX", getenv("PMUSIM_STREAM_HELD_MAX"), 4096,
			   UINT64_MAX / 2, &held_max))
		goto bad;

	/* perf.data's cmdline: as typed, without where the output (and the truth) goes */
	cmdline = calloc((size_t)argc + 2, sizeof(*cmdline));
	if (!cmdline)
		goto nomem;
	cmdline[nr_cmdline++] = "pmusim";
	for (int i = 0; i < argc; i++) {
		if (i < optind && (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") ||
				   !strcmp(argv[i], "--truth")) && i + 1 < argc) {
			i++;
			continue;
		}
		if (i < optind && (!strncmp(argv[i], "--output=", 9) ||
				   !strncmp(argv[i], "--truth=", 8) ||
				   (!strncmp(argv[i], "-o", 2) && argv[i][2])))
			continue;
		/* nor where the summary goes, nor what is shown: same recording, same bytes */
		if (i < optind && !strncmp(argv[i], "--json", 6) &&
		    (!argv[i][6] || argv[i][6] == '='))
			continue;
		if (i < optind && (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet") ||
				   !strcmp(argv[i], "--no-progress")))
			continue;
		cmdline[nr_cmdline++] = argv[i];
	}

	tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(dir, sizeof(dir), "%s/pmusim-record.XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		/* (mkdtemp leaves a name that was never made in dir) */
		fprintf(stderr, "pmusim: record: TMPDIR %s: %s\n", tmp, strerror(errno));
		goto bad;
	}
	/*
	 * The tool's rings (vgtool/vgstream.h), where a file system in memory
	 * allows (make_ring_dir()). (PMUSIM_RECORD_RING=0, for pmusim's
	 * developers: frames through the pipe only, the reference.)
	 */
	if (!getenv("PMUSIM_RECORD_RING") || strcmp(getenv("PMUSIM_RECORD_RING"), "0"))
		make_ring_dir(ring_dir, sizeof(ring_dir), dir);
	snprintf(scn_path, sizeof(scn_path), "%s/record.yaml", dir);
	f = fopen(scn_path, "w");
	if (!f)
		goto nomem;
	fprintf(f, scenario_text, model ? model : model_cpu_desc_default()->name, (unsigned)cpus);
	if (fclose(f))
		goto nomem;
	if (scenario_load(scn_path, &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	s->argc = nr_cmdline;
	s->argv = cmdline;
	if (overrides_apply(s, &o, err, sizeof(err))) {
		const char *why = err;

		/* "SCENARIO:LINE: events.0.call_graph: why": the scenario is record's own */
		for (int k = 0; k < 3 && strstr(why, ": "); k++)
			why = strstr(why, ": ") + 2;
		if (err[0])
			fprintf(stderr, "pmusim: record: %s\n", why);
		else
			fprintf(stderr, "pmusim: out of memory\n");
		goto out;
	}
	s->duration = UINT64_MAX / 2;	/* the program's end ends the run */

	if (json) {
		json_fp = json_path ? fopen(json_path, "w") : stderr;
		if (!json_fp) {
			fprintf(stderr, "pmusim: record: --json=%s: %s\n", json_path, strerror(errno));
			ret = 2;
			goto out;
		}
		/* what is not a regular file (/dev/stderr, a pipe) is never removed */
		if (json_fp != stderr) {
			fstat(fileno(json_fp), &json_st);	/* (mode 0 if it fails) */
			json_file = S_ISREG(json_st.st_mode);
		}
	}
	if (start_valgrind(tool_dir, ring_dir[0] ? ring_dir : NULL, runs_wanted(s), argv + optind,
			   &vr)) {
		fprintf(stderr, "pmusim: record: cannot run valgrind: %s\n", strerror(errno));
		goto out;
	}
	/* the replay goes on while the program runs: the pipe holds it back when behind */
	feed = vg_feed_open_pipe(vr.fd);
	if (!feed)
		close(vr.fd);
	if (feed && ring_dir[0])
		vg_feed_set_ring_dir(feed, ring_dir);
	if (feed && held_max)
		vg_feed_set_held_max(feed, held_max);
	if (!feed || vg_trace_open_feed(&trace, feed, NULL, err, sizeof(err))) {
		bool began = feed && vg_feed_began(feed);

		vg_feed_close(feed);
		wait_valgrind(&vr, &vg_status, &vg_stopped_by);
		if (!began)
			fprintf(stderr, "pmusim: record: %s: valgrind could not run it (%s %d)\n", path,
				WIFSIGNALED(vg_status) ? "signal" : "exit status",
				WIFSIGNALED(vg_status) ? WTERMSIG(vg_status) : WEXITSTATUS(vg_status));
		else
			fprintf(stderr, "%s\n", feed ? err : "pmusim: out of memory");
		ret = began ? 1 : 2;
		goto out;
	}
	/* the record session opens its events before the run: tasks for threads to come */
	vg_trace_set_spare_tasks(trace, spare_tasks);
	/* (for pmusim's developers: the reference the fast ways of the replay match) */
	if (getenv("PMUSIM_RECORD_FAST") && !strcmp(getenv("PMUSIM_RECORD_FAST"), "0"))
		vg_trace_set_fast(trace, false);
	/* the kernel keeps 15 bytes of the name */
	{
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		size_t len = strnlen(base, sizeof(comm) - 1);

		memcpy(comm, base, len);
		comm[len] = '\0';
	}
	show_progress &= !quiet;
	if (show_progress)
		progress_begin(trace, feed);
	rt = run_trace(s, trace, comm, out, show_progress ? progress : NULL, &st, err, sizeof(err));
	progress_end();
	/*
	 * the program has ended, or the replay stopped first (a stop signal,
	 * a bad stream, a write that failed): then SIGTERM stops the program
	 * as perf record stops its workload; what it still writes is dropped
	 */
	if (rt || st.stop_signal || vg_trace_error(trace))
		kill(vr.pid, SIGTERM);
	vg_feed_close(feed);
	if (wait_valgrind(&vr, &vg_status, &vg_stopped_by))
		vg_status = 0;
	if (rt) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&st);
		ret = 1;
		goto out;
	}
	if (vg_trace_error(trace)) {
		/* the file is whole, with what came before */
		fprintf(stderr, "pmusim: record: %s; %s holds what was recorded before it\n",
			vg_trace_error(trace), out);
		run_stats_free(&st);
		ret = 1;
		goto out;
	}
	vg_trace_stats(trace, &vs);
	if (!st.stop_signal)
		st.stop_signal = vg_stopped_by;	/* the program was stopped, the replay ran to its end */
	if (st.stop_signal)
		vs.stalled = false;	/* stopped, not stuck */
	describe_end(&vs, vg_status, &end);
	shown_truth = truth_written(out, truth, truth_buf, sizeof(truth_buf));
	/* the recording is complete: the program's status, as perf record's */
	ret = st.stop_signal ? 128 + st.stop_signal : exit_status_of(vg_status);
	if (st.stop_signal && !quiet)
		fprintf(stderr, "pmusim: record: stopped by %s; %s holds what was recorded so far\n",
			st.stop_signal == SIGINT ? "SIGINT" :
			st.stop_signal == SIGHUP ? "SIGHUP" : "SIGTERM", out);
	if (json) {
		/* the last thing on stderr, or FILE whole */
		print_json(json_fp, prog, s, feed, trace, &vs, &st, &end, out, shown_truth, ret);
		if (json_fp != stderr && (ferror(json_fp) | fclose(json_fp))) {
			fprintf(stderr, "pmusim: record: %s: write error\n", json_path);
			if (json_file)
				unlink(json_path);
			ret = 1;
		}
		json_fp = NULL;
	} else if (!quiet) {
		print_summary(prog, s, trace, &vs, &st, end.text, out, shown_truth);
		if (NEVER(st.warning[0]))	/* (as in print_json) */
			fprintf(stderr, "%s\n", st.warning);
	}
	run_stats_free(&st);
	goto out;
nomem:
	fprintf(stderr, "pmusim: record: out of memory or no room in %s\n",
		dir[0] ? dir : "TMPDIR");
out:
	if (json_fp && json_fp != stderr) {
		/* no summary: no file */
		fclose(json_fp);
		if (json_file)
			unlink(json_path);
	}
	vg_trace_free(trace);
	vg_feed_free(feed);
	if (s)
		scenario_free(s);
	if (dir[0] && strstr(dir, "pmusim-record."))
		remove_dir(dir);
	if (ring_dir[0] && strcmp(ring_dir, dir) && strstr(ring_dir, "pmusim-record."))
		remove_dir(ring_dir);
	free(cmdline);
	overrides_free(&o);
	return ret;
bad:
	overrides_free(&o);
	free(cmdline);
	return 2;
}
