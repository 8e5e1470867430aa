/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario files: the YAML description of a run (machine, tasks, events,
 * buffer, consumer, seed, duration), read with libcyaml and checked.
 * Every error is one line `FILE:LINE: field: problem`.
 */
#ifndef PMUSIM_SIM_SCENARIO_H
#define PMUSIM_SIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/workload.h"

/*
 * machine.pmi_cycles when the file says nothing: 4200 core cycles, 2 us at
 * the model's default 2.1 GHz.  v6.12 lets a sample take 2.5 us on average
 * (perf_cpu_time_max_percent 25 of the 10 us between samples at
 * perf_event_max_sample_rate 100000) before it lowers the rate, and says
 * "interrupt took too long" on ordinary machines near that figure; NMI
 * entry and exit alone are some hundreds of cycles, and an LBR call-stack
 * sample reads 32 entries of two or three MSRs each.
 */
#define SCN_PMI_CYCLES_DEFAULT	4200

struct scn_machine {
	char *cpu;			/* model table name; default: the Kconfig choice */
	uint32_t cpus;			/* default 1 */
	uint32_t hz;			/* default CONFIG_HZ */
	uint64_t timeslice;		/* cycles a task runs before it is preempted */
	uint64_t quantum;		/* lockstep step of the CPUs, cycles */
	uint64_t pmi_cycles;		/* core cycles a PMI's handler takes; 0: none */
};

struct scn_workload {
	enum wl_kind kind;
	uint32_t depth, leaf_loops, mid_loops, outer_loops;
	uint32_t cond_permille, mispredict_permille;
	bool cond_set, mispredict_set;	/* given in the file (0 is a value) */
};

struct scn_task {
	char *name;			/* comm, and the binary's name */
	uint32_t count;			/* processes started alike; default 1 */
	uint32_t threads;		/* threads per process; default 1 */
	struct scn_workload *workload;
	uint32_t *cpus;			/* affinity; none: any CPU */
	uint32_t cpus_count;
};

enum scn_scope { SCN_SCOPE_TASK, SCN_SCOPE_SYSTEM };
enum scn_call_graph { SCN_CG_NONE, SCN_CG_LBR };

struct scn_event {
	char *event;			/* cycles, instructions, ..., rHEX, cpu/NAME/; :u :k :p */
	uint64_t period;		/* sample_period; 0 with freq */
	uint64_t freq;			/* sample_freq (attr.freq) */
	uint64_t alternative_period;	/* RFC alternative_sample_period */
	uint64_t sample_type;		/* PERF_SAMPLE_* */
	uint64_t branch_filter;		/* PERF_SAMPLE_BRANCH_* */
	enum scn_call_graph call_graph;
	enum scn_scope scope;
	bool write_backward;
	bool hw_time;			/* RFC attr.hw_time: samples carry the raw TSC */
	bool context_switch;		/* attr.context_switch: SWITCH records */
	uint64_t cpu_mask;		/* system scope: these CPUs only (0: all); perf -C */
	/*
	 * Branch stacks asked for in their own right (sample_type
	 * branch_stack or a branch_filter in the file, perf record -b/-j),
	 * not only as call_graph lbr's means: perf.data's BRANCH_STACK
	 * feature says so, as perf record sets it only for -b/-j.
	 */
	bool branch_sampling;
	/* resolved by scenario_load() */
	uint32_t type;
	uint64_t config;
	bool exclude_kernel, exclude_user;
	unsigned int precise_ip;	/* :p :pp :ppp */
};

struct scn_buffer {
	uint32_t pages;			/* data pages, a power of two; default 64 */
	bool overwrite;
	uint32_t watermark;		/* bytes; 0: wakeup_events */
	uint32_t wakeup_events;
};

struct scn_consumer {
	uint64_t interval;		/* read every this many cycles; 0: on wakeup only */
	bool pause;			/* PAUSE_OUTPUT around each read */
};

struct scenario {
	char *file;			/* the path it was loaded from */
	uint64_t seed;
	uint64_t duration;		/* cycles of simulated time */
	struct scn_machine *machine;
	struct scn_task *tasks;
	uint32_t tasks_count;
	struct scn_event *events;
	uint32_t events_count;
	struct scn_buffer *buffer;
	struct scn_consumer *consumer;
	void *lines;			/* struct yaml_lines: where each key is */
	/* the command line that ran it (perf.data's cmdline); argc 0: none */
	int argc;
	const char *const *argv;
};

/*
 * Load and check @path. 0 and *@out, or -1 with the one-line error in
 * @err (FILE:LINE: field: problem) and nothing allocated.
 */
int scenario_load(const char *path, struct scenario **out, char *err, size_t errlen);
void scenario_free(struct scenario *s);

/*
 * Resolve an event name as perf record's -e takes it (cycles, instructions,
 * branches, branch-misses, ref-cycles, cpu-cycles, rHEX, cpu/NAME/, with
 * :u :k :p :pp :ppp; tools/perf/util/parse_events.h) into @ev's type,
 * config, exclude bits and precise_ip. 0 or -1; the _why form says why in
 * @why (a phrase, "unknown event" for a name it does not know).
 */
int scenario_parse_event(struct scn_event *ev, const char *name);
int scenario_parse_event_why(struct scn_event *ev, const char *name, char *why, size_t whylen);
/* Fill in what an event left out (sample_type; call_graph: lbr's bits). */
void scenario_event_defaults(struct scn_event *e);
/* The same checks scenario_load() runs, after command-line overrides. */
int scenario_check(struct scenario *s, char *err, size_t errlen);
/* A sample_type or branch_filter word ("ip", "call_stack") as its bit, or 0. */
uint64_t scenario_sample_bit(const char *name);
uint64_t scenario_branch_bit(const char *name);
/* Parameters of task @t's workload. */
void scenario_wl_params(const struct scenario *s, const struct scn_task *t,
			struct wl_params *p);

#endif /* PMUSIM_SIM_SCENARIO_H */
