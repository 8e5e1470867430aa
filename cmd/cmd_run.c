// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim run: a scenario file, perf record's options on top of it, a
 * progress bar on a terminal, perf.data out and a summary (text or JSON).
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kernel.h"
#include "core/testcase.h"
#include "include/pmusim/perf_event.h"
#include "cmd/commands.h"
#include "cmd/json.h"
#include "cmd/run_stats_json.h"
#include "cmd/perf_options.h"
#include "sim/run.h"
#include "sim/scenario.h"
#include "sim/scenario_number.h"

static void usage(FILE *f)
{
	fputs("usage: pmusim run SCENARIO [options]\n"
	      "  run the scenario's machine, record its events into perf.data and\n"
	      "  print a summary against the workloads' ground truth\n\n"
	      "  -o, --output FILE      perf.data to write (default perf.data)\n"
	      "      --seed N           override the scenario's seed\n"
	      "      --duration CYCLES  override the scenario's duration\n"
	      "      --json             print the summary as JSON\n"
	      "      --map-dir DIR      also write perf-PID.map files there (default none)\n"
	      "  -N, --no-buildid-cache the programs' ELF files go beside FILE only,\n"
	      "                         not to ~/.debug as well\n"
	      "      --no-progress      no progress bar even on a terminal\n"
	      "perf record's options, applied to every event of the scenario:\n"
	      "  -e, --event EVENT      record EVENT instead (cycles, instructions, rHEX, :u :k);\n"
	      "                         repeat -e or give A,B for several events\n"
	      "  -c, --count PERIOD     sample period (no alternative period)\n"
	      "  -F, --freq FREQ        sample frequency, at most the maximum sample rate\n"
	      "  -a, --all-cpus         system-wide: one event per CPU (samples the CPU)\n"
	      "  -C, --cpu CPUS         system-wide on these CPUs only (0,2-3)\n"
	      "  -m, --mmap-pages N     buffer data pages (a power of two)\n"
	      "      --overwrite        overwrite buffers, written backward\n"
	      "  -b, --branch-any       sample any taken branch\n"
	      "  -j, --branch-filter F  branch filter words, comma-separated (any,u,call_stack,...)\n"
	      "      --call-graph lbr   LBR call stacks (as perf record --call-graph lbr)\n"
	      "  -g                     LBR call stacks (no frame pointers are simulated)\n"
	      "      --max-sample-rate N\n"
	      "                         kernel.perf_event_max_sample_rate (machine.max_sample_rate)\n", f);
}

static void progress(uint64_t now, uint64_t duration)
{
	static int last = -1;
	int pct = (int)(now * 100 / (duration ? duration : 1)), bars = pct / 4;

	if (pct == last)
		return;
	last = pct;
	fprintf(stderr, "\r[%.*s%*s] %3d%%", bars, "#########################", 25 - bars, "", pct);
	if (now >= duration) {
		fputs("\n", stderr);
		last = -1;
	}
}

static double avg(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

/*
 * One sentence per task on what stitching did: the samples whose whole
 * stack only stitching showed, or why a task's stitched stacks run
 * deeper than the task ever was.
 */
static void print_stitch_verdict(const struct scenario *s, const struct run_stats *st)
{
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		const struct run_task_depth *d = &st->tasks[i];
		const char *name = s->tasks[d->group].name;

		if (d->stitched_wrong)
			printf("  %s: %llu samples stitched frames that were not on the stack: its "
			       "frames look alike (one function calling itself), so perf joined two "
			       "stacks at the wrong level; st-max %llu > true %u is that\n", name,
			       (unsigned long long)d->stitched_wrong,
			       (unsigned long long)d->stitched_max, d->true_max);
		else if (d->stitched_whole > d->lbr_whole)
			printf("  %s: stitching showed the whole stack (up to %u frames) in %llu of "
			       "%llu samples, the raw LBR in %llu: perf report --stitch-lbr shows "
			       "the whole chain\n", name, d->true_max,
			       (unsigned long long)d->stitched_whole, (unsigned long long)d->samples,
			       (unsigned long long)d->lbr_whole);
		else if (d->true_max > d->lbr_max)
			printf("  %s: the stack (%u frames) is deeper than the LBR holds and "
			       "stitching brought none back whole: no sample follows one taken "
			       "higher up the chain\n", name, d->true_max);
	}
}

/* The call-stack depths, raw and stitched, against the true stacks. */
static void print_depth_stitched(const struct scenario *s, const struct run_stats *st)
{
	if (st->cs_samples)
		printf("  call-stack depth: true max %u; LBR avg %.1f max %llu; stitched avg %.1f max %llu\n",
		       st->true_depth_max, avg(st->depth_sum, st->cs_samples),
		       (unsigned long long)st->depth_max, avg(st->stitched_sum, st->cs_samples),
		       (unsigned long long)st->stitched_max);
	if (st->nr_tasks)
		printf("  per task, against its true stack at each sample (frames):\n"
		       "  %7s %-15s %7s %5s %7s %8s %8s %6s %6s %6s\n", "tid", "task", "samples",
		       "true", "lbr-max", "stitched", "st-max", "whole", "short", "wrong");
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		const struct run_task_depth *d = &st->tasks[i];

		printf("  %7u %-15s %7llu %5u %7llu %8.1f %8llu %6llu %6llu %6llu\n", d->tid,
		       s->tasks[d->group].name, (unsigned long long)d->samples, d->true_max,
		       (unsigned long long)d->lbr_max, avg(d->stitched_sum, d->samples),
		       (unsigned long long)d->stitched_max, (unsigned long long)d->stitched_whole,
		       (unsigned long long)d->stitched_short, (unsigned long long)d->stitched_wrong);
	}
	if (st->nr_tasks) {
		printf("  (true: the deepest true stack at a sample; lbr-max: the most frames a raw\n"
		       "   LBR stack showed; stitched, st-max: frames per sample with --stitch-lbr,\n"
		       "   average and most; whole, short, wrong: samples whose stitched stack is the\n"
		       "   true one, a part of it, or holds a frame that was not there)\n");
		print_stitch_verdict(s, st);
	}
}

/*
 * The call-stack depths of a build without CONFIG_LBR_STITCH: the raw LBR
 * stacks' alone, and one line saying that nothing was stitched.
 */
static void print_depth_unstitched(const struct scenario *s, const struct run_stats *st)
{
	if (!st->cs_samples)
		return;
	printf("  call-stack depth: true max %u; LBR avg %.1f max %llu; stitching off "
	       "(this build has no CONFIG_LBR_STITCH)\n", st->true_depth_max,
	       avg(st->depth_sum, st->cs_samples), (unsigned long long)st->depth_max);
	if (!st->nr_tasks)
		return;
	printf("  per task, against its true stack at each sample (frames):\n"
	       "  %7s %-15s %7s %5s %7s %7s %9s\n", "tid", "task", "samples", "true", "lbr-avg",
	       "lbr-max", "lbr-whole");
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		const struct run_task_depth *d = &st->tasks[i];

		printf("  %7u %-15s %7llu %5u %7.1f %7llu %9llu\n", d->tid,
		       s->tasks[d->group].name, (unsigned long long)d->samples, d->true_max,
		       avg(d->lbr_sum, d->samples), (unsigned long long)d->lbr_max,
		       (unsigned long long)d->lbr_whole);
	}
	printf("  (true: the deepest true stack at a sample; lbr-avg, lbr-max: frames a raw\n"
	       "   LBR stack showed, average and most; lbr-whole: samples whose raw LBR stack\n"
	       "   is the whole true one; no stitched figures: stitching is off)\n");
}

static bool is_regular_file(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static void print_text(const struct scenario *s, const struct run_stats *st, const char *out)
{
	uint64_t total_samples = 0;

	for (unsigned int i = 0; i < st->nr_funcs; i++)
		total_samples += st->funcs[i].samples;
	printf("pmusim run %s: seed %llu, %llu cycles on %u %s CPU%s\n", s->file,
	       (unsigned long long)s->seed, (unsigned long long)s->duration, s->machine->cpus,
	       s->machine->cpu, s->machine->cpus > 1 ? "s" : "");
	printf("  instructions %llu, taken branches %llu (mispredicted %llu), PMIs %llu\n",
	       (unsigned long long)st->insns, (unsigned long long)st->branches,
	       (unsigned long long)st->mispredicts, (unsigned long long)st->pmis);
	printf("  samples %llu, lost %llu (in %llu LOST records), overwritten before a read %llu bytes\n",
	       (unsigned long long)st->samples, (unsigned long long)st->lost,
	       (unsigned long long)st->lost_records, (unsigned long long)st->overwritten);
	printf("  throttles %llu, unthrottles %llu, wakeups %llu, reads %llu\n",
	       (unsigned long long)st->throttles, (unsigned long long)st->unthrottles,
	       (unsigned long long)st->wakeups, (unsigned long long)st->reads);
	printf("  context switches %llu, migrations %llu, ticks %llu\n",
	       (unsigned long long)st->switches, (unsigned long long)st->migrations,
	       (unsigned long long)st->ticks);
	if (!st->samples) {
		/* nothing to look at: say why it may be, and suggest nothing */
		printf("  no samples: the events never overflowed while the tasks ran (an event "
		       "of a mode the tasks never enter, as :k for these user-only workloads, "
		       "or a period longer than the run)\n");
		return;
	}
	if (IS_ENABLED(CONFIG_LBR_STITCH))
		print_depth_stitched(s, st);
	else
		print_depth_unstitched(s, st);
	printf("  %-16s %-24s %10s %8s %8s\n", "task", "function", "samples", "sampled", "truth");
	for (unsigned int i = 0; i < st->nr_funcs; i++) {
		const struct run_func *f = &st->funcs[i];

		if (!f->samples && f->insns * 1000 < st->insns)
			continue;	/* under 0.1% and never sampled */
		printf("  %-16s %-24s %10llu %7.2f%% %7.2f%%\n", s->tasks[f->group].name, f->name,
		       (unsigned long long)f->samples,
		       100.0 * avg(f->samples, total_samples), 100.0 * avg(f->insns, st->insns));
	}
	/* cmd_run() always has an output (perf.data by default) */
	if (ALWAYS(out) && is_regular_file(out)) {
		/*
		 * Commands that work when pasted: from the directory pmusim ran in,
		 * and only on a file that can be read again (not /dev/null or a FIFO).
		 */
		putchar('\n');
		if (st->cs_samples)
			printf("perf report -i %s --stitch-lbr\n", out);
		else
			printf("perf report -i %s\n", out);
		printf("perf script -i %s -F comm,tid,time,ip,sym\n", out);
		if (st->cs_samples && IS_ENABLED(CONFIG_LBR_STITCH))
			printf("%s stitch %s\n", pmusim_program, out);
	}
}

static void print_json(const struct scenario *s, const struct run_stats *st, const char *out)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_string(&j, "scenario", s->file);
	json_u64(&j, "seed", s->seed);
	json_u64(&j, "duration", s->duration);
	json_string(&j, "cpu", s->machine->cpu);
	json_u64(&j, "cpus", s->machine->cpus);
	if (ALWAYS(out))	/* as in print_text() */
		json_string(&j, "output", out);
	run_stats_json_counts(&j, st);
	run_stats_json_depth_begin(&j, st);
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		const struct run_task_depth *d = &st->tasks[i];

		json_object_begin(&j, NULL);
		json_u64(&j, "tid", d->tid);
		json_string(&j, "task", s->tasks[d->group].name);
		run_task_depth_json(&j, d);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_array_begin(&j, "functions");
	for (unsigned int i = 0; i < st->nr_funcs; i++) {
		json_object_begin(&j, NULL);
		json_string(&j, "name", st->funcs[i].name);
		json_string(&j, "task", s->tasks[st->funcs[i].group].name);
		json_u64(&j, "samples", st->funcs[i].samples);
		json_u64(&j, "instructions", st->funcs[i].insns);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
}

int cmd_run(int argc, char **argv)
{
	enum { OPT_JSON = OVR_OPT__END, OPT_DURATION, OPT_MAP_DIR, OPT_NO_PROGRESS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "map-dir", required_argument, NULL, OPT_MAP_DIR },
		{ "no-buildid-cache", no_argument, NULL, 'N' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		OVR_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct overrides o = { .cmd = "run" };
	const char **cmdline = NULL;
	int nr_cmdline;
	const char *out = "perf.data", *map_dir = NULL;
	bool json = false, show_progress = isatty(STDERR_FILENO);
	struct scenario *s;
	struct run_stats st;
	char err[512];
	int c, ret;

	/* perf.data's cmdline: pmusim run ..., as typed (getopt_long reorders argv) */
	cmdline = calloc((size_t)argc + 1, sizeof(*cmdline));
	if (!cmdline) {
		fprintf(stderr, "pmusim: out of memory\n");
		return 1;
	}
	cmdline[0] = "pmusim";
	nr_cmdline = 1;
	for (int i = 0; i < argc; i++) {
		/* where the output goes is not what was recorded: same run, same bytes */
		static const char *const skip_arg[] = { "-o", "--output", "--map-dir" };
		static const char *const skip[] = { "--json", "--no-progress" };
		bool drop = false;

		for (size_t k = 0; k < sizeof(skip_arg) / sizeof(skip_arg[0]); k++) {
			size_t len = strlen(skip_arg[k]);

			if (!strcmp(argv[i], skip_arg[k]) && i + 1 < argc) {
				drop = true;
				i++;
			} else if (!strncmp(argv[i], skip_arg[k], len) &&
				   argv[i][len] == (skip_arg[k][1] == '-' ? '=' : argv[i][len]) &&
				   argv[i][len]) {
				drop = true;
			}
		}
		for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]); k++)
			drop |= !strcmp(argv[i], skip[k]);
		if (!strcmp(argv[i], "--"))
			drop = false;
		if (!drop)
			cmdline[nr_cmdline++] = argv[i];
	}
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:" OVR_SHORTOPTS "hN", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (cmd_empty_name("run", "-o", optarg, "file") ||
			    cmd_pipe_refused("run", optarg))
				goto bad;
			out = optarg;
			break;
		case OPT_DURATION:
			if (overrides_uint(&o, "--duration", optarg, 1, UINT64_MAX, &o.duration))
				goto bad;
			o.have_duration = true;
			break;
		case OPT_JSON: json = true; break;
		case OPT_MAP_DIR:
			if (cmd_empty_name("run", "--map-dir", optarg, "directory"))
				goto bad;
			map_dir = optarg;
			break;
		case 'N': run_set_buildid_dirs(NULL, true); break;
		case OPT_NO_PROGRESS: show_progress = false; break;
		case 'h':
			usage(stdout);
			overrides_free(&o);
			free(cmdline);
			return 0;
		case ':':
			fprintf(stderr, "pmusim: run: option '%s' needs a value\n", argv[optind - 1]);
			goto bad;
		default:
			switch (overrides_option(&o, c, optarg)) {
			case 0:
				break;
			case 1:
				fprintf(stderr, "pmusim: run: unknown option '%s' (pmusim run --help lists them)\n",
					argv[optind - 1]);
				goto bad;
			default:
				goto bad;
			}
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmusim: run: give one scenario file (pmusim run --help)\n");
		goto bad;
	}
	if (overrides_finish(&o))
		goto bad;
	if (scenario_load(argv[optind], &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		overrides_free(&o);
		free(cmdline);
		return 2;
	}
	ret = 2;
	s->argc = nr_cmdline;
	s->argv = cmdline;
	if (overrides_apply(s, &o, err, sizeof(err))) {
		if (err[0])
			fprintf(stderr, "%s (with the command line's options)\n", err);
		else
			fprintf(stderr, "pmusim: out of memory\n");
		goto out;
	}
	if (run_scenario(s, out, map_dir, show_progress ? progress : NULL, &st, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&st);
		ret = 1;
		goto out;
	}
	if (st.stop_signal && show_progress)
		fputs("\n", stderr);	/* the bar stopped short of 100% */
	if (json)
		print_json(s, &st, out);
	else
		print_text(s, &st, out);
	ret = 0;
	if (st.warning[0])
		fprintf(stderr, "%s\n", st.warning);
	if (st.stop_signal) {
		/* as perf record: the file is complete, of the part that ran; 128 + signal */
		fprintf(stderr, "pmusim: run: stopped by %s after %llu of %llu cycles; %s holds what was recorded so far\n",
			st.stop_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)st.ran,
			(unsigned long long)s->duration, out);
		ret = 128 + st.stop_signal;
	}
	run_stats_free(&st);
out:
	overrides_free(&o);
	scenario_free(s);
	free(cmdline);
	return ret;
bad:
	overrides_free(&o);
	free(cmdline);
	return 2;
}
