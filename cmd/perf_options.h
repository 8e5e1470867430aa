/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf record's options on top of a scenario, shared by the commands
 * that take them (pmusim run, pmusim record): -e, -c/-F, -a/-C, -m,
 * --overwrite, -b/-j, --call-graph lbr, -g, --seed, --max-sample-rate.
 * Every problem is one line on stderr, "pmusim: CMD: what"; so is every
 * warning, "pmusim: CMD: warning: what".
 */
#ifndef PMUSIM_CMD_PERF_OPTIONS_H
#define PMUSIM_CMD_PERF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/scenario.h"

#define MAX_EVENTS	16	/* as many as a scenario file may list */

struct overrides {
	const char *cmd;		/* "run", "record": the messages' prefix */
	const char *events[MAX_EVENTS];	/* -e, split at commas */
	unsigned int nr_events;
	char *event_buf[MAX_EVENTS];	/* the copies the names point into */
	uint64_t period, freq, seed, duration, cpu_mask;
	uint32_t pages;
	uint32_t max_sample_rate;	/* --max-sample-rate; 0: the kernel's */
	bool have_period, have_freq, have_seed, have_duration, all_cpus, overwrite;
	bool branch_any, call_graph_lbr;
	bool call_graph_g;		/* -g asked for the call graph (perf's: frame pointers) */
	/*
	 * Set by the command: events count user space only, as perf record's
	 * fall back when kernel.perf_event_paranoid keeps it out of the
	 * kernel ("cycles" is opened as "cycles:u", exclude_kernel).
	 */
	bool user_only;
	uint64_t branch_filter;
};

/* getopt_long values of the long-only options; a command's own start at OVR_OPT__END. */
enum {
	OVR_OPT_SEED = 256, OVR_OPT_OVERWRITE, OVR_OPT_CALL_GRAPH, OVR_OPT_MAX_SAMPLE_RATE,
	OVR_OPT__END
};

/* The short options and the long ones these take, for a command's tables. */
#define OVR_SHORTOPTS	"e:c:F:aC:m:bj:g"
#define OVR_LONGOPTS							\
	{ "seed", required_argument, NULL, OVR_OPT_SEED },		\
	{ "event", required_argument, NULL, 'e' },			\
	{ "count", required_argument, NULL, 'c' },			\
	{ "freq", required_argument, NULL, 'F' },			\
	{ "all-cpus", no_argument, NULL, 'a' },				\
	{ "cpu", required_argument, NULL, 'C' },			\
	{ "mmap-pages", required_argument, NULL, 'm' },			\
	{ "overwrite", no_argument, NULL, OVR_OPT_OVERWRITE },		\
	{ "branch-any", no_argument, NULL, 'b' },			\
	{ "branch-filter", required_argument, NULL, 'j' },		\
	{ "call-graph", required_argument, NULL, OVR_OPT_CALL_GRAPH },	\
	{ "max-sample-rate", required_argument, NULL, OVR_OPT_MAX_SAMPLE_RATE }

/* One option from getopt_long: 0 taken, -1 bad (one line said), 1 not one of these. */
int overrides_option(struct overrides *o, int c, const char *arg);
/* After the last option: -1 on -c with -F; the warnings perf record gives. */
int overrides_finish(struct overrides *o);
/*
 * Apply @o to @s and check it: 0 (after the warnings perf record would
 * give of these options, a line each), or -1 with @err (empty: out of
 * memory).
 */
int overrides_apply(struct scenario *s, const struct overrides *o, char *err, size_t errlen);
void overrides_free(struct overrides *o);
/* An option's number in [min, max], by the scenario's parser; -1 after one line. */
int overrides_uint(const struct overrides *o, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *v);

#endif /* PMUSIM_CMD_PERF_OPTIONS_H */
