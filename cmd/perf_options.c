// SPDX-License-Identifier: GPL-2.0-only
/* perf record's options on a scenario; see perf_options.h. */
#define _GNU_SOURCE	/* asprintf */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kernel.h"
#include "include/pmusim/perf_event.h"
#include "cmd/perf_options.h"
#include "sim/scenario_number.h"
#include "tools/perf/util/parse_events.h"

/* An option's number, by the scenario's parser: 0, or -1 after one line naming @opt. */
static int option_uint(const struct overrides *o, const char *opt, const char *arg, uint64_t min,
		       uint64_t max, uint64_t *v)
{
	char why[128];

	if (scn_parse_uint(arg, max, v, why, sizeof(why))) {
		fprintf(stderr, "pmusim: %s: %s: %s\n", o->cmd, opt, why);
		return -1;
	}
	if (*v < min) {
		fprintf(stderr, "pmusim: %s: %s: must be at least %llu\n", o->cmd, opt,
			(unsigned long long)min);
		return -1;
	}
	return 0;
}

/*
 * The next name of an -e list at *@pos, cut at the first comma that is
 * not between a PMU event's slashes (cpu/event=0x3c,umask=0/u); NULL at
 * the end.
 */
static char *next_event(char **pos)
{
	char *w = *pos, *p;
	bool in_pmu = false;

	if (!w || !*w)
		return NULL;
	for (p = w; *p && (*p != ',' || in_pmu); p++)
		if (*p == '/')
			in_pmu = !in_pmu;
	*pos = *p ? p + 1 : NULL;
	*p = 0;
	return w;
}

/*
 * -e A,B or -e A -e B: every event, checked by name. 0, or -1 after one
 * line (and @o as it was). The names point into one copy of @arg, kept in
 * event_buf[] at the index of its first name: every -e adds a name at
 * least (empty ones are refused), so no two share a slot.
 */
static int add_events(struct overrides *o, const char *arg)
{
	unsigned int first = o->nr_events;
	char *buf, *save, *w, why[160];
	struct scn_event probe;

	if (strchr(arg, '{')) {
		fprintf(stderr, "pmusim: %s: -e %s: event groups are not simulated\n", o->cmd, arg);
		return -1;
	}
	if (!*arg || arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,")) {
		fprintf(stderr, "pmusim: %s: -e %s: an empty event name\n", o->cmd, arg);
		return -1;
	}
	if (first == MAX_EVENTS)
		goto too_many;
	buf = strdup(arg);
	if (!buf) {
		fprintf(stderr, "pmusim: out of memory\n");
		return -1;
	}
	for (save = buf; (w = next_event(&save));) {
		if (o->nr_events == MAX_EVENTS) {
			o->nr_events = first;
			free(buf);
			goto too_many;
		}
		if (scenario_parse_event_why(&probe, w, why, sizeof(why))) {
			if (!strcmp(why, "unknown event"))
				fprintf(stderr, "pmusim: %s: -e %s: unknown event (" PARSE_EVENTS_NAMES
					")\n", o->cmd, w);
			else
				fprintf(stderr, "pmusim: %s: -e %s: %s\n", o->cmd, w, why);
			o->nr_events = first;
			free(buf);
			return -1;
		}
		o->events[o->nr_events++] = w;
	}
	o->event_buf[first] = buf;
	return 0;
too_many:
	fprintf(stderr, "pmusim: %s: -e: at most %d events\n", o->cmd, MAX_EVENTS);
	return -1;
}

void overrides_free(struct overrides *o)
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
	for (save = buf; (w = next_event(&save));) {
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

/*
 * An event that counts both user space and the kernel counts user space
 * only, renamed as perf record renames it when it falls back to that:
 * NAME:u, or NAMEu after a ':' or a '/' (cycles:p, cpu/cycles/). 0, or
 * -1: out of memory.
 */
static int count_user_only(struct scn_event *e)
{
	struct scn_event probe;
	char *name;

	if (scenario_parse_event(&probe, e->event) || probe.exclude_kernel || probe.exclude_user)
		return 0;
	if (asprintf(&name, "%s%su", e->event, strpbrk(e->event, ":/") ? "" : ":") < 0)
		return -1;
	/* (a name the parser would not take as user-only stays as it was) */
	if (scenario_parse_event(&probe, name) || !probe.exclude_kernel) {
		free(name);
		return 0;
	}
	free(e->event);
	e->event = name;
	return 0;
}

/* What perf record would warn of these options, a line each, once they are known good. */
static void warn_options(const struct overrides *o, bool lbr_dropped)
{
	if (lbr_dropped && o->call_graph_g)
		fprintf(stderr, "pmusim: %s: warning: -g: frame-pointer call chains are not "
			"simulated, and LBR call stacks do not go with a branch stack (-b/-j): "
			"no call chains\n", o->cmd);
	else if (lbr_dropped)
		/* perf's evsel__config_callchain(), then its fall back to frame pointers */
		fprintf(stderr, "pmusim: %s: warning: Cannot use LBR callstack with branch stack "
			"(-b/-j): no call chains (perf falls back to frame pointers, which are not "
			"simulated)\n", o->cmd);
	else if (o->call_graph_g)
		fprintf(stderr, "pmusim: %s: warning: -g: frame-pointer call chains are not "
			"simulated: recording LBR call stacks (--call-graph lbr)\n", o->cmd);
}

int overrides_apply(struct scenario *s, const struct overrides *o, char *err, size_t errlen)
{
	/* perf record -j/-b with --call-graph lbr: the branch stack is kept, the call stack not */
	bool lbr_dropped = o->call_graph_lbr && (o->branch_any || o->branch_filter);
	const char *kernel_only = NULL;	/* an event that gets no LBR call stack for it */
	struct scn_event probe;
	int ret;

	/* a failure that says nothing (an allocation) leaves it empty: the caller's "out of memory" */
	err[0] = '\0';
	if (o->have_seed)
		s->seed = o->seed;
	if (o->have_duration)
		s->duration = o->duration;
	if (o->max_sample_rate)
		s->machine->max_sample_rate = o->max_sample_rate;
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
		if (o->user_only && count_user_only(e)) {
			err[0] = '\0';
			return -1;
		}
		if (o->call_graph_lbr && !lbr_dropped &&
		    !scenario_parse_event(&probe, e->event) && probe.exclude_user) {
			/* perf's evsel__config_callchain(): the LBR call stack is the user's */
			if (!kernel_only)
				kernel_only = e->event;
		} else if (o->call_graph_lbr && !lbr_dropped) {
			e->call_graph = SCN_CG_LBR;
			e->branch_filter = 0;
			e->branch_sampling = false;
		}
		scenario_event_defaults(e);
	}
	ret = scenario_check(s, err, errlen);
	if (!ret)
		warn_options(o, lbr_dropped);
	if (!ret && kernel_only)
		fprintf(stderr, "pmusim: %s: warning: %s: LBR callstack option is only available "
			"to get user callchain information: no call chains for it\n", o->cmd,
			kernel_only);
	return ret;
}


int overrides_uint(const struct overrides *o, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *v)
{
	return option_uint(o, opt, arg, min, max, v);
}

int overrides_option(struct overrides *o, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OVR_OPT_SEED:
		if (option_uint(o, "--seed", arg, 0, UINT64_MAX, &o->seed))
			return -1;
		o->have_seed = true;
		return 0;
	case 'e':
		return add_events(o, arg);
	case 'c':
		if (option_uint(o, "-c", arg, 1, (1ULL << 63) - 1, &o->period))
			return -1;
		o->have_period = true;
		return 0;
	case 'F':
		if (option_uint(o, "-F", arg, 1, UINT64_MAX, &o->freq))
			return -1;
		o->have_freq = true;
		return 0;
	case 'a':
		o->all_cpus = true;
		return 0;
	case 'C':
		if (parse_cpus(arg, &o->cpu_mask)) {
			fprintf(stderr, "pmusim: %s: -C %s: not a CPU list (0,2-3; CPUs "
				"0..%d)\n", o->cmd, arg, CONFIG_MODEL_MAX_CPUS - 1);
			return -1;
		}
		return 0;
	case 'm':
		if (option_uint(o, "-m", arg, 1, 4096, &v))
			return -1;
		o->pages = (uint32_t)v;
		return 0;
	case OVR_OPT_OVERWRITE:
		o->overwrite = true;
		return 0;
	case 'b':
		o->branch_any = true;
		return 0;
	case 'j':
		if (parse_filter(arg, &o->branch_filter)) {
			fprintf(stderr, "pmusim: %s: -j %s: unknown branch filter word (any, "
				"any_call, any_return, ind_call, ind_jump, call, cond, "
				"call_stack, u, k, hv, ...)\n", o->cmd, arg);
			return -1;
		}
		return 0;
	case OVR_OPT_CALL_GRAPH:
		if (strcmp(arg, "lbr")) {
			fprintf(stderr, "pmusim: %s: --call-graph: only 'lbr' is simulated\n", o->cmd);
			return -1;
		}
		o->call_graph_lbr = true;
		o->call_graph_g = false;
		return 0;
	case 'g':
		/* as perf's -g: the call graph, in the mode already chosen, if any */
		if (!o->call_graph_lbr)
			o->call_graph_lbr = o->call_graph_g = true;
		return 0;
	case OVR_OPT_MAX_SAMPLE_RATE:
		if (option_uint(o, "--max-sample-rate", arg, 1, INT_MAX, &v))
			return -1;
		o->max_sample_rate = (uint32_t)v;
		return 0;
	default:
		return 1;
	}
}

int overrides_finish(struct overrides *o)
{
	uint32_t max_rate = o->max_sample_rate ? o->max_sample_rate : CONFIG_PERF_SAMPLE_MAX_RATE;

	/* perf record refuses both, in these words */
	if (o->have_period && o->have_freq) {
		fprintf(stderr, "pmusim: %s: cannot set frequency and period at the same time "
			"(-c and -F)\n", o->cmd);
		return -1;
	}
	/* perf record: a frequency above the limit is lowered to it, with a warning */
	if (o->have_freq && o->freq > max_rate) {
		fprintf(stderr, "pmusim: %s: warning: -F %llu is above the maximum sample rate "
			"(perf_event_max_sample_rate %u Hz): using %u Hz%s\n", o->cmd,
			(unsigned long long)o->freq, max_rate, max_rate,
			o->max_sample_rate ? "" : " (--max-sample-rate raises the limit)");
		o->freq = max_rate;
	}
	/* perf record rounds -m up to a power of two, and says so */
	if (o->pages & (o->pages - 1)) {
		uint32_t p = 1;

		while (p < o->pages)
			p <<= 1;
		fprintf(stderr, "pmusim: %s: warning: -m %u: the buffer is a power of two pages: "
			"rounding up to %u\n", o->cmd, o->pages, p);
		o->pages = p;
	}
	return 0;
}
