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
#include "seeds/seeds.h"
#include "sim/run.h"

static const struct {
	const char *name;
	int (*fn)(struct scenario *s, const struct seed_opts *o);
	const char *what;
} seeds[] = {
	{ "write-backward", seed_write_backward,
	  "flight recorder: backward, forward-overwrite and unpaused readers" },
	{ "task-ctx-data", seed_task_ctx_data,
	  "LBR call-stack depth per process and system-wide; bytes per task" },
	{ "hw-time", seed_hw_time, "raw TSC in samples, post-processed to CLOCK_MONOTONIC_RAW" },
	{ "lbr-stitch", seed_lbr_stitch, "call-stack depth per task without and with stitching" },
	{ "alt-period", seed_alt_period,
	  "per-function shares from short-window samples against one period" },
};

static void usage(FILE *f)
{
	fputs("usage: pmusim seed NAME SCENARIO [--duration CYCLES] [--seed N] [-o FILE]\n"
	      "                 [--map-dir DIR]\n"
	      "  reproduce a seed's result on SCENARIO and print it as a table\n", f);
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		fprintf(f, "  %-15s %s\n", seeds[i].name, seeds[i].what);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static int bad_value(const char *opt, const char *value)
{
	fprintf(stderr, "pmusim: seed: %s: bad value '%s'\n", opt, value);
	return 2;
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
			if (parse_u64(argv[++i], &duration) || !duration)
				return bad_value(a, argv[i]);
		} else if (!strcmp(a, "--seed") && i + 1 < argc) {
			if (parse_u64(argv[++i], &seed))
				return bad_value(a, argv[i]);
			have_seed = true;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			o.output = argv[++i];
		} else if (!strcmp(a, "--map-dir") && i + 1 < argc) {
			o.map_dir = argv[++i];
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
	if (scenario_load(path, &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
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
