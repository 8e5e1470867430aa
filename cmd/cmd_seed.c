// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim seed NAME SCENARIO: reproduce one seed's result (see seeds.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "core/kernel.h"
#include "include/pmusim/perf_event.h"
#include "seeds/seeds.h"
#include "sim/run.h"
#include "sim/scenario_number.h"

/* What a seed's scenario must have for the seed to show anything. */
static bool any_hw_time(const struct scenario *s)
{
	for (uint32_t i = 0; i < s->events_count; i++)
		if (s->events[i].hw_time)
			return true;
	return false;
}

static bool any_lbr_call_graph(const struct scenario *s)
{
	for (uint32_t i = 0; i < s->events_count; i++)
		if (s->events[i].call_graph == SCN_CG_LBR)
			return true;
	return false;
}

static bool one_alt_period_event(const struct scenario *s)
{
	return s->events_count == 1 && s->events[0].alternative_period && s->events[0].period;
}

static bool one_overwrite_event(const struct scenario *s)
{
	return s->events_count == 1 && s->buffer->overwrite && s->events[0].period &&
	       (s->events[0].sample_type & PERF_SAMPLE_TIME);
}

static const struct {
	const char *name;
	int (*fn)(struct scenario *s, const struct seed_opts *o);
	const char *what;
	bool (*fits)(const struct scenario *s);
	const char *needs;		/* what fits() looks for, said to the user */
	/*
	 * A pmusim option the seed needs that no scenario can ask for (NULL:
	 * none). The RFC options are the scenario's fields, which a build
	 * without them refuses; stitching is the tool's own.
	 */
	const char *option;
	bool built;			/* ... and whether this build has it */
} seeds[] = {
	{ "write-backward", seed_write_backward,
	  "flight recorder: backward, forward-overwrite and unpaused readers",
	  one_overwrite_event, "one event with a period and time in sample_type, and "
	  "buffer.overwrite: true" },
	{ "task-ctx-data", seed_task_ctx_data,
	  "LBR call-stack depth per process and system-wide; bytes per task",
	  any_lbr_call_graph, "an event with call_graph: lbr" },
	{ "hw-time", seed_hw_time, "raw TSC in samples, post-processed to CLOCK_MONOTONIC_RAW",
	  any_hw_time, "an event with hw_time: true" },
	{ "lbr-stitch", seed_lbr_stitch, "call-stack depth per task without and with stitching",
	  any_lbr_call_graph, "an event with call_graph: lbr",
	  "CONFIG_LBR_STITCH", IS_ENABLED(CONFIG_LBR_STITCH) },
	{ "alt-period", seed_alt_period,
	  "per-function shares from short-window samples against one period",
	  one_alt_period_event, "one event with period and alternative_period" },
};

static void usage(FILE *f)
{
	fputs("usage: pmusim seed NAME SCENARIO [--duration CYCLES] [--seed N] [-o FILE]\n"
	      "                 [--map-dir DIR]\n"
	      "  reproduce a seed's result on SCENARIO and print it as a table\n", f);
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		if (seeds[i].option && !seeds[i].built)
			fprintf(f, "  %-15s %s (not in this build: no %s)\n", seeds[i].name,
				seeds[i].what, seeds[i].option);
		else
			fprintf(f, "  %-15s %s\n", seeds[i].name, seeds[i].what);
}

static int parse_u64(const char *opt, const char *arg, uint64_t min, uint64_t *v)
{
	char why[128];

	if (scn_parse_uint(arg, UINT64_MAX, v, why, sizeof(why))) {
		fprintf(stderr, "pmusim: seed: %s: %s\n", opt, why);
		return -1;
	}
	if (*v < min) {
		fprintf(stderr, "pmusim: seed: %s: must be at least %llu\n", opt,
			(unsigned long long)min);
		return -1;
	}
	return 0;
}

int cmd_seed(int argc, char **argv)
{
	char tmpdir[] = "/tmp/pmusim-seed-XXXXXX", tmpfile[64];
	struct seed_opts o = { .output = NULL, .map_dir = NULL };
	const char *name = NULL, *path = NULL;
	uint64_t duration = 0, seed = 0;
	bool have_seed = false;
	struct scenario *s;
	char err[512];
	size_t k;
	int ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--duration") && i + 1 < argc) {
			if (parse_u64(a, argv[++i], 1, &duration))
				return 2;
		} else if (!strcmp(a, "--seed") && i + 1 < argc) {
			if (parse_u64(a, argv[++i], 0, &seed))
				return 2;
			have_seed = true;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			o.output = argv[++i];
			if (cmd_empty_name("seed", a, o.output, "file") ||
			    cmd_pipe_refused("seed", o.output))
				return 2;
		} else if (!strcmp(a, "--map-dir") && i + 1 < argc) {
			o.map_dir = argv[++i];
			if (cmd_empty_name("seed", a, o.map_dir, "directory"))
				return 2;
		} else if (a[0] == '-' || (name && path)) {
			fprintf(stderr, "pmusim: seed: bad argument '%s'\n", a);
			usage(stderr);
			return 2;
		} else if (!name) {
			name = a;
		} else {
			path = a;
		}
	}
	if (!name || !path) {
		fprintf(stderr, "pmusim: seed: give a seed name and a scenario\n");
		usage(stderr);
		return 2;
	}
	for (k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++)
		if (!strcmp(seeds[k].name, name))
			break;
	if (k == sizeof(seeds) / sizeof(seeds[0])) {
		fprintf(stderr, "pmusim: seed: no seed '%s'\n", name);
		usage(stderr);
		return 2;
	}
	if (seeds[k].option && !seeds[k].built) {
		fprintf(stderr, "pmusim: seed %s: this build has no %s, which the seed needs: "
			"turn it on (make menuconfig) and rebuild\n", name, seeds[k].option);
		return 2;
	}
	if (scenario_load(path, &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	/* a scenario without the seed's feature would print a table of zeros */
	if (!seeds[k].fits(s)) {
		fprintf(stderr, "pmusim: seed %s: %s has nothing to show it: the seed needs %s "
			"(scenarios/seed-%s.yaml has it)\n", name, path, seeds[k].needs, name);
		scenario_free(s);
		return 2;
	}
	if (duration)
		s->duration = duration;
	if (have_seed)
		s->seed = seed;
	if (!o.output) {
		/* the analyses read their perf.data back: keep it in a private directory */
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "pmusim: seed: cannot create %s: %s\n", tmpdir, strerror(errno));
			scenario_free(s);
			return 1;
		}
		snprintf(tmpfile, sizeof(tmpfile), "%s/perf.data", tmpdir);
		o.output = tmpfile;
		/* a file no one will read: its programs need no ELF files */
		run_set_buildid_dirs(NULL, false);
	}
	ret = seeds[k].fn(s, &o);
	if (run_stop_signal()) {
		fprintf(stderr, "pmusim: seed: %s: stopped by %s; the figures are of the part that ran\n",
			name, run_stop_signal() == SIGINT ? "SIGINT" : "SIGTERM");
		if (!ret)
			ret = 128 + run_stop_signal();
	}
	if (o.output == tmpfile) {
		unlink(tmpfile);
		rmdir(tmpdir);
	}
	scenario_free(s);
	return ret;
}
