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
#include <unistd.h>

#include "core/kernel.h"
#include "include/pmusim/perf_event.h"
#include "cmd/commands.h"
#include "cmd/json.h"
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
	      "      --call-graph lbr   LBR call stacks (as perf record --call-graph lbr)\n", f);
}

#define MAX_EVENTS	16	/* as many as a scenario file may list */

struct overrides {
	const char *events[MAX_EVENTS];	/* -e, split at commas */
	unsigned int nr_events;
	char *event_buf[MAX_EVENTS];	/* the copies the names point into */
	uint64_t period, freq, seed, duration, cpu_mask;
	uint32_t pages;
	bool have_period, have_freq, have_seed, have_duration, all_cpus, overwrite;
	bool branch_any, call_graph_lbr;
	uint64_t branch_filter;
};

/* An option's number, by the scenario's parser: 0, or -1 after one line naming @opt. */
static int option_uint(const char *opt, const char *arg, uint64_t min, uint64_t max,
		       uint64_t *v)
{
	char why[128];

	if (scn_parse_uint(arg, max, v, why, sizeof(why))) {
		fprintf(stderr, "pmusim: run: %s: %s\n", opt, why);
		return -1;
	}
	if (*v < min) {
		fprintf(stderr, "pmusim: run: %s: must be at least %llu\n", opt,
			(unsigned long long)min);
		return -1;
	}
	return 0;
}

/* -e A,B or -e A -e B: every event, checked by name. 0, or -1 after one line. */
static int add_events(struct overrides *o, const char *arg)
{
	char *buf, *save, *w;
	struct scn_event probe;

	if (strchr(arg, '{')) {
		fprintf(stderr, "pmusim: run: -e %s: event groups are not simulated\n", arg);
		return -1;
	}
	if (!*arg || arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,")) {
		fprintf(stderr, "pmusim: run: -e %s: an empty event name\n", arg);
		return -1;
	}
	buf = strdup(arg);
	if (!buf) {
		fprintf(stderr, "pmusim: out of memory\n");
		return -1;
	}
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (o->nr_events == MAX_EVENTS) {
			fprintf(stderr, "pmusim: run: -e: at most %d events\n", MAX_EVENTS);
			free(buf);
			return -1;
		}
		if (scenario_parse_event(&probe, w)) {
			fprintf(stderr, "pmusim: run: -e %s: unknown event (cycles, instructions, "
				"branches, branch-misses, ref-cycles, rHEX; :u :k)\n", w);
			free(buf);
			return -1;
		}
		o->events[o->nr_events++] = w;
	}
	for (unsigned int i = 0; i < MAX_EVENTS; i++)
		if (!o->event_buf[i]) {
			o->event_buf[i] = buf;
			return 0;
		}
	free(buf);	/* unreachable: at most MAX_EVENTS names, each from one -e */
	return -1;
}

static void overrides_free(struct overrides *o)
{
	for (unsigned int i = 0; i < MAX_EVENTS; i++)
		free(o->event_buf[i]);
}

static int parse_cpus(const char *s, uint64_t *mask)
{
	*mask = 0;
	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		if (b >= 64 || b >= CONFIG_MODEL_MAX_CPUS)
			return -1;
		for (unsigned long c = a; c <= b; c++)
			*mask |= 1ULL << c;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return *mask ? 0 : -1;
}

/* perf record -j words, with perf's short forms u/k/hv. */
static int parse_filter(const char *s, uint64_t *bits)
{
	char buf[256], *save, *w;

	snprintf(buf, sizeof(buf), "%s", s);
	*bits = 0;
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint64_t b = !strcmp(w, "u") ? PERF_SAMPLE_BRANCH_USER :
			     !strcmp(w, "k") ? PERF_SAMPLE_BRANCH_KERNEL :
			     !strcmp(w, "save_type") ? PERF_SAMPLE_BRANCH_TYPE_SAVE :
			     scenario_branch_bit(w);

		if (!b)
			return -1;
		*bits |= b;
	}
	return *bits ? 0 : -1;
}

/*
 * -e: the scenario's events are replaced by these, each set up as the
 * scenario's first event is (or with period 4000 when it has none), as
 * perf record gives every -e event the same options.
 */
static int replace_events(struct scenario *s, const struct overrides *o)
{
	struct scn_event tmpl = { .period = 4000 }, *ev;

	if (s->events_count)
		tmpl = s->events[0];
	tmpl.event = NULL;
	ev = calloc(o->nr_events, sizeof(*ev));
	if (!ev)
		return -1;
	for (unsigned int i = 0; i < o->nr_events; i++) {
		ev[i] = tmpl;
		ev[i].event = strdup(o->events[i]);
		if (!ev[i].event) {
			while (i--)
				free(ev[i].event);
			free(ev);
			return -1;
		}
	}
	for (uint32_t i = 0; i < s->events_count; i++)
		free(s->events[i].event);
	free(s->events);
	s->events = ev;
	s->events_count = o->nr_events;
	return 0;
}

static int apply(struct scenario *s, const struct overrides *o, char *err, size_t errlen)
{
	if (o->have_seed)
		s->seed = o->seed;
	if (o->have_duration)
		s->duration = o->duration;
	if (o->pages)
		s->buffer->pages = o->pages;
	if (o->overwrite)
		s->buffer->overwrite = true;	/* and write_backward, below, as perf record does */
	if (o->nr_events && replace_events(s, o))
		return -1;
	for (uint32_t i = 0; i < s->events_count; i++) {
		struct scn_event *e = &s->events[i];

		if (o->have_period) {
			/* a fixed period: perf evlist shows sample_period alone */
			e->period = o->period;
			e->freq = 0;
			e->alternative_period = 0;
		}
		if (o->have_freq) {
			e->freq = o->freq;
			e->period = 0;
			e->alternative_period = 0;
		}
		if (o->overwrite)
			e->write_backward = true;
		if (o->all_cpus || o->cpu_mask) {
			/* perf record samples the CPU of a CPU-wide event */
			e->scope = SCN_SCOPE_SYSTEM;
			e->sample_type |= PERF_SAMPLE_CPU;
		}
		e->cpu_mask = o->cpu_mask;
		if (o->branch_any || o->branch_filter) {
			e->sample_type |= PERF_SAMPLE_BRANCH_STACK;
			e->branch_sampling = true;
			e->branch_filter = o->branch_filter ? o->branch_filter : PERF_SAMPLE_BRANCH_ANY;
		}
		if (o->call_graph_lbr) {
			e->call_graph = SCN_CG_LBR;
			if (!o->branch_filter && !o->branch_any) {
				e->branch_filter = 0;
				e->branch_sampling = false;
			}
		}
		scenario_event_defaults(e);
	}
	return scenario_check(s, err, errlen);
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
	printf("  %-16s %-24s %10s %8s %8s\n", "task", "function", "samples", "sampled", "truth");
	for (unsigned int i = 0; i < st->nr_funcs; i++) {
		const struct run_func *f = &st->funcs[i];

		if (!f->samples && f->insns * 1000 < st->insns)
			continue;	/* under 0.1% and never sampled */
		printf("  %-16s %-24s %10llu %7.2f%% %7.2f%%\n", s->tasks[f->group].name, f->name,
		       (unsigned long long)f->samples,
		       100.0 * avg(f->samples, total_samples), 100.0 * avg(f->insns, st->insns));
	}
	if (out) {
		/* commands that work when pasted: from the directory pmusim ran in */
		putchar('\n');
		if (st->cs_samples)
			printf("perf report -i %s --stitch-lbr\n", out);
		else
			printf("perf report -i %s\n", out);
		printf("perf script -i %s -F comm,tid,time,ip,sym\n", out);
		if (st->cs_samples)
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
	if (out)
		json_string(&j, "output", out);
	json_u64(&j, "instructions", st->insns);
	json_u64(&j, "branches", st->branches);
	json_u64(&j, "mispredicts", st->mispredicts);
	json_u64(&j, "pmis", st->pmis);
	json_u64(&j, "samples", st->samples);
	json_u64(&j, "lost", st->lost);
	json_u64(&j, "lost_records", st->lost_records);
	json_u64(&j, "overwritten_bytes", st->overwritten);
	json_u64(&j, "throttles", st->throttles);
	json_u64(&j, "unthrottles", st->unthrottles);
	json_u64(&j, "wakeups", st->wakeups);
	json_u64(&j, "reads", st->reads);
	json_u64(&j, "context_switches", st->switches);
	json_u64(&j, "migrations", st->migrations);
	json_u64(&j, "ticks", st->ticks);
	json_object_begin(&j, "call_stack_depth");
	json_u64(&j, "true_max", st->true_depth_max);
	json_u64(&j, "samples", st->cs_samples);
	json_double(&j, "lbr_avg", avg(st->depth_sum, st->cs_samples));
	json_u64(&j, "lbr_max", st->depth_max);
	json_double(&j, "stitched_avg", avg(st->stitched_sum, st->cs_samples));
	json_u64(&j, "stitched_max", st->stitched_max);
	json_array_begin(&j, "tasks");
	for (unsigned int i = 0; i < st->nr_tasks; i++) {
		const struct run_task_depth *d = &st->tasks[i];

		json_object_begin(&j, NULL);
		json_u64(&j, "tid", d->tid);
		json_string(&j, "task", s->tasks[d->group].name);
		json_u64(&j, "samples", d->samples);
		json_u64(&j, "true_max", d->true_max);
		json_double(&j, "lbr_avg", avg(d->lbr_sum, d->samples));
		json_u64(&j, "lbr_max", d->lbr_max);
		json_u64(&j, "lbr_whole", d->lbr_whole);
		json_double(&j, "stitched_avg", avg(d->stitched_sum, d->samples));
		json_u64(&j, "stitched_max", d->stitched_max);
		json_u64(&j, "stitched_whole", d->stitched_whole);
		json_u64(&j, "stitched_short", d->stitched_short);
		json_u64(&j, "stitched_wrong", d->stitched_wrong);
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
	enum { OPT_SEED = 256, OPT_JSON, OPT_OVERWRITE, OPT_CALL_GRAPH, OPT_DURATION,
	       OPT_MAP_DIR, OPT_NO_PROGRESS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "map-dir", required_argument, NULL, OPT_MAP_DIR },
		{ "no-buildid-cache", no_argument, NULL, 'N' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
		{ "branch-any", no_argument, NULL, 'b' },
		{ "branch-filter", required_argument, NULL, 'j' },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct overrides o = { 0 };
	const char **cmdline = NULL;
	int nr_cmdline;
	const char *out = "perf.data", *map_dir = NULL;
	bool json = false, show_progress = isatty(STDERR_FILENO);
	struct scenario *s;
	struct run_stats st;
	char err[512];
	uint64_t v;
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
	while ((c = getopt_long(argc, argv, ":o:e:c:F:aC:m:bj:hN", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case OPT_SEED:
			if (option_uint("--seed", optarg, 0, UINT64_MAX, &o.seed))
				goto bad;
			o.have_seed = true;
			break;
		case OPT_DURATION:
			if (option_uint("--duration", optarg, 1, UINT64_MAX, &o.duration))
				goto bad;
			o.have_duration = true;
			break;
		case OPT_JSON: json = true; break;
		case OPT_MAP_DIR: map_dir = optarg; break;
		case 'N': run_set_buildid_dirs(NULL, true); break;
		case OPT_NO_PROGRESS: show_progress = false; break;
		case 'e':
			if (add_events(&o, optarg))
				goto bad;
			break;
		case 'c':
			if (option_uint("-c", optarg, 1, (1ULL << 63) - 1, &o.period))
				goto bad;
			o.have_period = true;
			break;
		case 'F':
			if (option_uint("-F", optarg, 1, UINT64_MAX, &o.freq))
				goto bad;
			o.have_freq = true;
			break;
		case 'a': o.all_cpus = true; break;
		case 'C':
			if (parse_cpus(optarg, &o.cpu_mask)) {
				fprintf(stderr, "pmusim: run: -C %s: not a CPU list (0,2-3; CPUs "
					"0..%d)\n", optarg, CONFIG_MODEL_MAX_CPUS - 1);
				goto bad;
			}
			break;
		case 'm':
			if (option_uint("-m", optarg, 1, 4096, &v))
				goto bad;
			o.pages = (uint32_t)v;
			break;
		case OPT_OVERWRITE: o.overwrite = true; break;
		case 'b': o.branch_any = true; break;
		case 'j':
			if (parse_filter(optarg, &o.branch_filter)) {
				fprintf(stderr, "pmusim: run: -j %s: unknown branch filter word (any, "
					"any_call, any_return, ind_call, ind_jump, call, cond, "
					"call_stack, u, k, hv, ...)\n", optarg);
				goto bad;
			}
			break;
		case OPT_CALL_GRAPH:
			if (strcmp(optarg, "lbr")) {
				fprintf(stderr, "pmusim: run: --call-graph: only 'lbr' is simulated\n");
				goto bad;
			}
			o.call_graph_lbr = true;
			break;
		case 'h':
			usage(stdout);
			overrides_free(&o);
			free(cmdline);
			return 0;
		case ':':
			fprintf(stderr, "pmusim: run: option '%s' needs a value\n", argv[optind - 1]);
			goto bad;
		default:
			fprintf(stderr, "pmusim: run: unknown option '%s' (pmusim run --help lists them)\n",
				argv[optind - 1]);
			goto bad;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmusim: run: give one scenario file (pmusim run --help)\n");
		goto bad;
	}
	/* perf record refuses both, in these words */
	if (o.have_period && o.have_freq) {
		fprintf(stderr, "pmusim: run: cannot set frequency and period at the same time "
			"(-c and -F)\n");
		goto bad;
	}
	/* perf record: a frequency above the limit is lowered to it, with a warning */
	if (o.have_freq && o.freq > CONFIG_PERF_SAMPLE_MAX_RATE) {
		fprintf(stderr, "pmusim: run: warning: -F %llu is above the maximum sample rate "
			"(perf_event_max_sample_rate %d Hz): using %d Hz\n",
			(unsigned long long)o.freq, CONFIG_PERF_SAMPLE_MAX_RATE,
			CONFIG_PERF_SAMPLE_MAX_RATE);
		o.freq = CONFIG_PERF_SAMPLE_MAX_RATE;
	}
	/* perf record rounds -m up to a power of two, and says so */
	if (o.pages & (o.pages - 1)) {
		uint32_t p = 1;

		while (p < o.pages)
			p <<= 1;
		fprintf(stderr, "pmusim: run: warning: -m %u: the buffer is a power of two pages: "
			"rounding up to %u\n", o.pages, p);
		o.pages = p;
	}
	if (scenario_load(argv[optind], &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		overrides_free(&o);
		free(cmdline);
		return 2;
	}
	ret = 2;
	s->argc = nr_cmdline;
	s->argv = cmdline;
	if (apply(s, &o, err, sizeof(err))) {
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
