// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim record [options] -- PROG ARGS: run a real program under pmusim's
 * Valgrind tool (vgtool/), then retire its recorded threads on the model
 * PMU's CPUs (sim/vg_task.c) through the same run as pmusim run
 * (sim/run.c): perf.data out, the true stacks beside it in
 * perf.data.truth, and a summary on stderr (the program owns stdout).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/perf_options.h"
#include "model/model.h"
#include "sim/run.h"
#include "sim/scenario.h"
#include "sim/vg_task.h"

static void usage(FILE *f)
{
	fputs("usage: pmusim record [options] -- PROG [ARGS]\n"
	      "  run PROG under pmusim's Valgrind tool, retire its threads on the model\n"
	      "  PMU's CPUs and record them into perf.data, its true stacks into\n"
	      "  perf.data.truth; a summary on stderr\n\n"
	      "  -o, --output FILE      perf.data to write (default perf.data)\n"
	      "      --cpu MODEL        the CPU model (skylake, ...; default the build's);\n"
	      "                         --cpu CPUS (digits) is -C\n"
	      "      --cpus N           simulated CPUs (default 2)\n"
	      "  -N, --no-buildid-cache (accepted: the program's files stay where they are)\n"
	      "perf record's options (as pmusim run takes them):\n"
	      "  -e, --event EVENT      record EVENT (default cycles:u; :u :k, rHEX, A,B)\n"
	      "  -c, --count PERIOD     sample period (default 100003)\n"
	      "  -F, --freq FREQ        sample frequency instead\n"
	      "  -a, --all-cpus         system-wide: one event per CPU\n"
	      "  -C CPUS                system-wide on these CPUs only (0,2-3)\n"
	      "  -m, --mmap-pages N     buffer data pages (a power of two)\n"
	      "      --overwrite        overwrite buffers, written backward\n"
	      "  -b, --branch-any       sample any taken branch\n"
	      "  -j, --branch-filter F  branch filter words (any,u,call_stack,...)\n"
	      "      --call-graph lbr   LBR call stacks\n"
	      "      --seed N           the scheduler's seed (default 1)\n"
	      "Timing: one cycle per instruction; instructions and branches are exact.\n", f);
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
	errno = ENOENT;
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		snprintf(buf, len, "%.*s/%s", (int)n, n ? p : ".", prog);
		if (!stat(buf, &st) && S_ISREG(st.st_mode)) {
			if (!access(buf, X_OK))
				return buf;
			errno = EACCES;
		}
		p += n + (end ? 1 : 0);
	}
	return NULL;
}

/* An ELF file or a #! script: what execve runs (valgrind says the rest in many lines). */
static bool runnable(const char *path)
{
	unsigned char m[4] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(m, 1, sizeof(m), f);
	fclose(f);
	return (n == 4 && !memcmp(m, "\177ELF", 4)) || (n >= 2 && m[0] == '#' && m[1] == '!');
}

/* Where pmusim's Valgrind tool is: $PMUSIM_VGTOOL_LIB, else vgtool/lib beside pmusim. */
static int find_tool(char *dir, size_t len)
{
	const char *env = getenv("PMUSIM_VGTOOL_LIB");
	char exe[PATH_MAX], tool[PATH_MAX + 32];
	ssize_t n;

	if (env && *env) {
		snprintf(dir, len, "%s", env);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return -1;
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		if (snprintf(dir, len, "%.*s/vgtool/lib", (int)(len - 16), exe) < 0)
			return -1;
	}
	snprintf(tool, sizeof(tool), "%s/pmusim-amd64-linux", dir);
	return access(tool, X_OK);
}

static void remove_dir(const char *dir)
{
	char cmd[PATH_MAX + 32];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "%s", dir);
	pid = fork();
	if (pid == 0) {
		execlp("rm", "rm", "-rf", "--", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * Run PROG ARGS under the tool, streams into @dir. The valgrind process's
 * wait() status in *@status; its pid (the stream's) in *@pid. 0, or -1.
 */
static int run_valgrind(const char *tool_dir, const char *dir, char **prog_argv, int *status,
			pid_t *pid)
{
	char out[PATH_MAX + 32];
	int nargs = 0;
	char **argv;

	for (char **a = prog_argv; *a; a++)
		nargs++;
	argv = calloc((size_t)nargs + 8, sizeof(*argv));
	if (!argv)
		return -1;
	snprintf(out, sizeof(out), "--pmusim-out=%s", dir);
	argv[0] = "valgrind";
	argv[1] = "--tool=pmusim";
	argv[2] = out;
	argv[3] = "-q";
	/* children and the images execve runs are recorded too (vg.PID.SEQ each) */
	argv[4] = "--trace-children=yes";
	for (int i = 0; i < nargs; i++)
		argv[5 + i] = prog_argv[i];
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		free(argv);
		return -1;
	}
	if (*pid == 0) {
		setenv("VALGRIND_LIB", tool_dir, 1);
		execvp("valgrind", argv);
		fprintf(stderr, "pmusim: record: valgrind: %s\n", strerror(errno));
		_exit(127);
	}
	free(argv);
	while (waitpid(*pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static bool have_valgrind(void)
{
	char buf[PATH_MAX];

	return find_program("valgrind", buf, sizeof(buf)) != NULL;
}

/* How the program ended, from its stream and valgrind's status. */
static void describe_end(const struct vg_trace_stats *vs, int vg_status, char *buf, size_t len)
{
	if (WIFSIGNALED(vg_status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(vg_status),
			 strsignal(WTERMSIG(vg_status)));
	else if (vs->exited && vs->status >= 0)
		snprintf(buf, len, "exited with status %d", (vs->status >> 8) & 0xff);
	else if (vs->exec)
		snprintf(buf, len, "called execve (the new image was not traced)");
	else if (WIFEXITED(vg_status))
		snprintf(buf, len, "ended without an exit (valgrind status %d)",
			 WEXITSTATUS(vg_status));
	else
		snprintf(buf, len, "ended");
}

static double avg(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

static void print_summary(const char *prog, const struct scenario *s,
			  const struct vg_trace_stats *vs, const struct run_stats *st,
			  const char *how, const char *out)
{
	FILE *f = stderr;

	fprintf(f, "pmusim record %s: %s; %u thread%s on %u %s CPU%s\n", prog, how,
		vs->threads, vs->threads == 1 ? "" : "s", s->machine->cpus, s->machine->cpu,
		s->machine->cpus > 1 ? "s" : "");
	fprintf(f, "  instructions %llu, taken branches %llu, cycles %llu (CPI 1), PMIs %llu\n",
		(unsigned long long)st->insns, (unsigned long long)st->branches,
		(unsigned long long)st->cycles, (unsigned long long)st->pmis);
	fprintf(f, "  samples %llu, lost %llu, context switches %llu, migrations %llu\n",
		(unsigned long long)st->samples, (unsigned long long)st->lost,
		(unsigned long long)st->switches, (unsigned long long)st->migrations);
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
	if (st->cs_samples) {
		fprintf(f, "  call-stack depth: true max %u; LBR avg %.1f max %llu; stitched avg %.1f max %llu\n",
			st->true_depth_max, avg(st->depth_sum, st->cs_samples),
			(unsigned long long)st->depth_max, avg(st->stitched_sum, st->cs_samples),
			(unsigned long long)st->stitched_max);
		fprintf(f, "  per thread, against its true stack at each sample (frames):\n"
			"  %7s %7s %5s %7s %8s %8s %9s %6s %6s %6s\n", "tid", "samples", "true",
			"lbr-max", "lbr-whole", "stitched", "st-max", "whole", "short", "wrong");
		for (unsigned int i = 0; i < st->nr_tasks; i++) {
			const struct run_task_depth *d = &st->tasks[i];

			fprintf(f, "  %7u %7llu %5u %7llu %8llu %8.1f %9llu %6llu %6llu %6llu\n",
				d->tid, (unsigned long long)d->samples, d->true_max,
				(unsigned long long)d->lbr_max, (unsigned long long)d->lbr_whole,
				avg(d->stitched_sum, d->samples),
				(unsigned long long)d->stitched_max,
				(unsigned long long)d->stitched_whole,
				(unsigned long long)d->stitched_short,
				(unsigned long long)d->stitched_wrong);
		}
	}
	fprintf(f, "  %s, the true stacks in %s.truth\n", out, out);
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_CPUS = OVR_OPT__END, OPT_CPU };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "no-buildid-cache", no_argument, NULL, 'N' },
		OVR_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[sizeof(longopts) / sizeof(longopts[0])];
	struct overrides o = { .cmd = "record" };
	const char *out = "perf.data", *model = NULL, *prog;
	const char **cmdline = NULL;
	char err[600], dir[PATH_MAX], tool_dir[PATH_MAX], path[PATH_MAX], stream[PATH_MAX + 64];
	char scn_path[PATH_MAX + 32], comm[16], how[128];
	struct vg_trace *trace = NULL;
	struct vg_trace_stats vs;
	struct scenario *s = NULL;
	struct run_stats st;
	uint64_t cpus = 2;
	int c, ret = 2, nr_cmdline = 0, vg_status = 0;
	pid_t pid;
	FILE *f;

	dir[0] = '\0';
	/* --cpu is the CPU model here (a CPU list, digits, is still -C's) */
	memcpy(opts, longopts, sizeof(opts));
	for (size_t i = 0; opts[i].name; i++)
		if (!strcmp(opts[i].name, "cpu"))
			opts[i].val = OPT_CPU;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:o:" OVR_SHORTOPTS "hN", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'N': break;
		case OPT_CPUS:
			if (overrides_uint(&o, "--cpus", optarg, 1, CONFIG_MODEL_MAX_CPUS, &cpus))
				goto bad;
			break;
		case OPT_CPU:
			if (optarg[0] >= '0' && optarg[0] <= '9') {
				if (overrides_option(&o, 'C', optarg))
					goto bad;
				break;
			}
			if (!model_cpu_desc_lookup(optarg)) {
				fprintf(stderr, "pmusim: record: --cpu %s: unknown CPU model\n", optarg);
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
			"(make vgtool; PMUSIM_VGTOOL_LIB names its directory)\n", tool_dir);
		goto bad;
	}

	/* perf.data's cmdline: as typed, without where the output goes */
	cmdline = calloc((size_t)argc + 2, sizeof(*cmdline));
	if (!cmdline)
		goto nomem;
	cmdline[nr_cmdline++] = "pmusim";
	for (int i = 0; i < argc; i++) {
		if (i < optind && (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) &&
		    i + 1 < argc) {
			i++;
			continue;
		}
		if (i < optind && (!strncmp(argv[i], "--output=", 9) ||
				   (!strncmp(argv[i], "-o", 2) && argv[i][2])))
			continue;
		cmdline[nr_cmdline++] = argv[i];
	}

	snprintf(dir, sizeof(dir), "%s/pmusim-record.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "pmusim: record: %s: %s\n", dir, strerror(errno));
		goto bad;
	}
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

	if (run_valgrind(tool_dir, dir, argv + optind, &vg_status, &pid)) {
		fprintf(stderr, "pmusim: record: cannot run valgrind: %s\n", strerror(errno));
		goto out;
	}
	snprintf(stream, sizeof(stream), "%s/vg.%d.0", dir, (int)pid);
	if (access(stream, R_OK)) {
		fprintf(stderr, "pmusim: record: %s: valgrind could not run it (%s %d)\n", path,
			WIFSIGNALED(vg_status) ? "signal" : "exit status",
			WIFSIGNALED(vg_status) ? WTERMSIG(vg_status) : WEXITSTATUS(vg_status));
		goto out;
	}
	if (vg_trace_load(&trace, stream, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		ret = 1;
		goto out;
	}
	/* the kernel keeps 15 bytes of the name */
	{
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		size_t len = strnlen(base, sizeof(comm) - 1);

		memcpy(comm, base, len);
		comm[len] = '\0';
	}
	if (run_trace(s, trace, comm, out, &st, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&st);
		ret = 1;
		goto out;
	}
	vg_trace_stats(trace, &vs);
	if (st.stop_signal)
		vs.stalled = false;	/* stopped, not stuck */
	describe_end(&vs, vg_status, how, sizeof(how));
	print_summary(prog, s, &vs, &st, how, out);
	if (st.warning[0])
		fprintf(stderr, "%s\n", st.warning);
	ret = 0;
	if (st.stop_signal) {
		fprintf(stderr, "pmusim: record: stopped by %s; %s holds what was recorded so far\n",
			st.stop_signal == SIGINT ? "SIGINT" : "SIGTERM", out);
		ret = 128 + st.stop_signal;
	}
	run_stats_free(&st);
	goto out;
nomem:
	fprintf(stderr, "pmusim: record: out of memory or no room in %s\n",
		dir[0] ? dir : "TMPDIR");
out:
	vg_trace_free(trace);
	if (s)
		scenario_free(s);
	if (dir[0] && strstr(dir, "pmusim-record."))
		remove_dir(dir);
	free(cmdline);
	overrides_free(&o);
	return ret;
bad:
	overrides_free(&o);
	free(cmdline);
	return 2;
}
