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
	      "  -e, --event EVENT      record EVENT instead (cycles, instructions, rHEX, :u :k)\n"
	      "  -c, --count PERIOD     sample period\n"
	      "  -F, --freq FREQ        sample frequency\n"
	      "  -a, --all-cpus         system-wide: one event per CPU (samples the CPU)\n"
	      "  -C, --cpu CPUS         system-wide on these CPUs only (0,2-3)\n"
	      "  -m, --mmap-pages N     buffer data pages (a power of two)\n"
	      "      --overwrite        overwrite buffers, written backward\n"
	      "  -b, --branch-any       sample any taken branch\n"
	      "  -j, --branch-filter F  branch filter words, comma-separated (any,u,call_stack,...)\n"
	      "      --call-graph lbr   LBR call stacks (as perf record --call-graph lbr)\n", f);
}

struct overrides {
	const char *event;
	uint64_t period, freq, seed, duration, cpu_mask;
	uint32_t pages;
	bool have_period, have_freq, have_seed, have_duration, all_cpus, overwrite;
	bool branch_any, call_graph_lbr;
	uint64_t branch_filter;
};

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
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
	if (o->event) {
		struct scn_event *e;

		if (!s->events_count) {
			e = calloc(1, sizeof(*e));
			if (!e)
				return -1;
			e->period = 4000;
			s->events = e;
			s->events_count = 1;
		}
		s->events_count = 1;	/* -e replaces the scenario's events */
		e = &s->events[0];
		free(e->event);
		e->event = strdup(o->event);
		if (!e->event)
			return -1;
	}
	for (uint32_t i = 0; i < s->events_count; i++) {
		struct scn_event *e = &s->events[i];

		if (o->have_period) {
			e->period = o->period;
			e->freq = 0;
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
			e->branch_filter = o->branch_filter ? o->branch_filter : PERF_SAMPLE_BRANCH_ANY;
		}
		if (o->call_graph_lbr) {
			e->call_graph = SCN_CG_LBR;
			if (!o->branch_filter && !o->branch_any)
				e->branch_filter = 0;
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
		printf("\nperf report -i %s --stitch-lbr\n", out);
		printf("perf script -i %s -F comm,tid,time,ip,sym\n", out);
		printf("pmusim stitch %s\n", out);
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
	const char *out = "perf.data", *map_dir = NULL;
	bool json = false, show_progress = isatty(STDERR_FILENO);
	struct scenario *s;
	struct run_stats st;
	char err[512];
	uint64_t v;
	int c, ret;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:e:c:F:aC:m:bj:hN", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case OPT_SEED:
			if (parse_u64(optarg, &o.seed))
				goto bad_value;
			o.have_seed = true;
			break;
		case OPT_DURATION:
			if (parse_u64(optarg, &o.duration) || !o.duration)
				goto bad_value;
			o.have_duration = true;
			break;
		case OPT_JSON: json = true; break;
		case OPT_MAP_DIR: map_dir = optarg; break;
		case 'N': run_set_buildid_dirs(NULL, true); break;
		case OPT_NO_PROGRESS: show_progress = false; break;
		case 'e': o.event = optarg; break;
		case 'c':
			if (parse_u64(optarg, &o.period) || !o.period)
				goto bad_value;
			o.have_period = true;
			break;
		case 'F':
			if (parse_u64(optarg, &o.freq) || !o.freq)
				goto bad_value;
			o.have_freq = true;
			break;
		case 'a': o.all_cpus = true; break;
		case 'C':
			if (parse_cpus(optarg, &o.cpu_mask))
				goto bad_value;
			break;
		case 'm':
			if (parse_u64(optarg, &v) || !v || v > 4096)
				goto bad_value;
			o.pages = (uint32_t)v;
			break;
		case OPT_OVERWRITE: o.overwrite = true; break;
		case 'b': o.branch_any = true; break;
		case 'j':
			if (parse_filter(optarg, &o.branch_filter))
				goto bad_value;
			break;
		case OPT_CALL_GRAPH:
			if (strcmp(optarg, "lbr")) {
				fprintf(stderr, "pmusim: run: --call-graph: only 'lbr' is simulated\n");
				return 2;
			}
			o.call_graph_lbr = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "pmusim: run: option '%s' needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "pmusim: run: unknown option '%s' (pmusim run --help lists them)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmusim: run: give one scenario file (pmusim run --help)\n");
		return 2;
	}
	if (scenario_load(argv[optind], &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (apply(s, &o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "pmusim: out of memory");
		scenario_free(s);
		return 2;
	}
	ret = run_scenario(s, out, map_dir, show_progress ? progress : NULL, &st, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&st);
		scenario_free(s);
		return 1;
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
	scenario_free(s);
	return ret;
bad_value:
	fprintf(stderr, "pmusim: run: bad value '%s' for %s\n", optarg, argv[optind - 1]);
	return 2;
}
