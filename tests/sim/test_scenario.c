// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario files: a full file and a minimal one load with the values and
 * defaults they should; each class of error (YAML syntax, unknown field,
 * bad scalar, bad enum word, missing field, a value out of range, an
 * unknown CPU model or event, contradicting fields, a missing file) is
 * one line naming the file, the line and the field.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "core/kernel.h"
#include "include/pmusim/perf_event.h"
#include "sim/scenario.h"
#include "sim/scenario_lines.h"

static char path[64];

static const char *write_file(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/pmusim-scn-%d.yaml", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void expect_error(const char *text, unsigned int line, const char *field,
			 const char *problem)
{
	struct scenario *s = (struct scenario *)1;
	char err[256], want[160];

	write_file(text);
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), -1);
	assert_null(s);
	snprintf(want, sizeof(want), "%s:%u: %s: ", path, line, field);
	if (strncmp(err, want, strlen(want)) || !strstr(err, problem)) {
		print_error("got '%s', want '%s...%s'\n", err, want, problem);
		fail();
	}
	assert_null(strchr(err, '\n'));
	unlink(path);
}

static const char full[] =
	"# a full scenario\n"
	"seed: 42\n"
	"duration: 1000000\n"
	"machine:\n"
	"  cpu: icelake\n"
	"  cpus: 2\n"
	"  hz: 250\n"
	"  timeslice: 300000\n"
	"  quantum: 30000\n"
	"tasks:\n"
	"  - name: tchain_edit\n"
	"    count: 2\n"
	"    threads: 3\n"
	"    workload:\n"
	"      kind: tchain\n"
	"      depth: 20\n"
	"      leaf_loops: 50\n"
	"      mispredict_permille: 0\n"
	"    cpus: [1]\n"
	"  - name: rec\n"
	"    workload: { kind: recursion, depth: 9 }\n"
	"events:\n"
	"  - event: cycles:u\n"
	"    period: 10007\n"
	"    alternative_period: 503\n"
	"    call_graph: lbr\n"
	"    write_backward: true\n"
	"  - event: r1c4\n"
	"    freq: 4000\n"
	"    scope: system\n"
	"    sample_type: [ip, tid, time, cpu, period]\n"
	"    branch_filter: [any, user]\n"
	"buffer:\n"
	"  pages: 16\n"
	"  overwrite: true\n"
	"consumer:\n"
	"  interval: 100000\n"
	"  pause: true\n";

static void full_scenario_loads(void **state)
{
	struct scenario *s;
	struct wl_params p;
	char err[256];

	(void)state;
	write_file(full);
	if (!IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD)) {
		assert_int_equal(scenario_load(path, &s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ":25: events.0.alternative_period: "));
		unlink(path);
		return;
	}
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(s->seed, 42);
	assert_int_equal(s->duration, 1000000);
	assert_string_equal(s->machine->cpu, "icelake");
	assert_int_equal(s->machine->cpus, 2);
	assert_int_equal(s->machine->hz, 250);
	assert_int_equal(s->machine->quantum, 30000);
	assert_int_equal(s->tasks_count, 2);
	assert_int_equal(s->tasks[0].count, 2);
	assert_int_equal(s->tasks[0].threads, 3);
	assert_int_equal(s->tasks[0].cpus_count, 1);
	assert_int_equal(s->tasks[0].cpus[0], 1);
	scenario_wl_params(s, &s->tasks[0], &p);
	assert_int_equal(p.kind, WL_TCHAIN);
	assert_int_equal(p.depth, 20);
	assert_int_equal(p.leaf_loops, 50);
	assert_int_equal(p.mid_loops, 100);
	assert_int_equal(p.mispredict_permille, 0);	/* given as 0, not defaulted */
	assert_int_equal(p.seed, 42);
	assert_int_equal(s->tasks[1].count, 1);
	assert_int_equal(s->tasks[1].workload->kind, WL_RECURSION);
	assert_int_equal(s->events_count, 2);
	assert_int_equal(s->events[0].type, PERF_TYPE_HARDWARE);
	assert_int_equal(s->events[0].config, PERF_COUNT_HW_CPU_CYCLES);
	assert_true(s->events[0].exclude_kernel);
	assert_int_equal(s->events[0].alternative_period, 503);
	assert_true(s->events[0].write_backward);
	/* call_graph: lbr is what perf record --call-graph lbr sets */
	assert_true(s->events[0].sample_type & PERF_SAMPLE_CALLCHAIN);
	assert_true(s->events[0].sample_type & PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(s->events[0].branch_filter,
			 PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
			 PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
			 PERF_SAMPLE_BRANCH_HW_INDEX);
	assert_int_equal(s->events[0].scope, SCN_SCOPE_TASK);
	assert_int_equal(s->events[1].type, PERF_TYPE_RAW);
	assert_int_equal(s->events[1].config, 0x1c4);
	assert_int_equal(s->events[1].freq, 4000);
	assert_int_equal(s->events[1].scope, SCN_SCOPE_SYSTEM);
	assert_int_equal(s->events[1].sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	assert_int_equal(s->events[1].branch_filter,
			 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
	assert_int_equal(s->buffer->pages, 16);
	assert_true(s->buffer->overwrite);
	assert_int_equal(s->consumer->interval, 100000);
	assert_true(s->consumer->pause);
	scenario_free(s);
}

static void minimal_scenario_gets_defaults(void **state)
{
	struct scenario *s;
	struct wl_params p;
	char err[256];

	(void)state;
	write_file("duration: 5000\ntasks:\n  - name: t\n    workload: {kind: random}\n");
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	assert_string_equal(s->machine->cpu, model_cpu_desc_default()->name);
	assert_int_equal(s->machine->cpus, 1);
	assert_int_equal(s->machine->hz, CONFIG_HZ);
	assert_int_equal(s->machine->pmi_cycles, SCN_PMI_CYCLES_DEFAULT);
	assert_int_equal(s->events_count, 0);
	assert_int_equal(s->buffer->pages, 64);
	scenario_wl_params(s, &s->tasks[0], &p);
	assert_int_equal(p.kind, WL_RANDOM);
	assert_int_equal(p.depth, 64);
	scenario_free(s);
}

static void phases_workload_loads(void **state)
{
	struct scenario *s;
	struct wl_params p;
	char err[256];

	(void)state;
	write_file("duration: 5000\ntasks:\n  - name: t\n"
		   "    workload: {kind: phases, depth: 3, leaf_loops: 4096}\n"
		   "  - name: u\n    workload: {kind: phases}\n");
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	scenario_wl_params(s, &s->tasks[0], &p);
	assert_int_equal(p.kind, WL_PHASES);
	assert_int_equal(p.depth, 3);
	assert_int_equal(p.leaf_loops, 4096);
	scenario_wl_params(s, &s->tasks[1], &p);
	assert_int_equal(p.kind, WL_PHASES);
	assert_int_equal(p.depth, 4);		/* the defaults */
	assert_int_equal(p.leaf_loops, 32768);
	scenario_free(s);
}

static void pmi_cycles_zero_is_a_value(void **state)
{
	struct scenario *s;
	char err[256];

	(void)state;
	write_file("duration: 5000\nmachine: {pmi_cycles: 0}\n"
		   "tasks:\n  - name: t\n    workload: {kind: random}\n");
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(s->machine->pmi_cycles, 0);
	scenario_free(s);
}

static const char base[] = "duration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain}\n";

static void syntax_error_names_its_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\nmachine:\n  cpu: skylake\n cpus: 2\n", 4, "syntax",
		     "did not find expected key");
}

static void unknown_field_names_its_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\nmachine:\n  cpu: skylake\n  cpux: 2\n"
		     "tasks:\n  - name: t\n    workload: {kind: tchain}\n", 4, "cpux",
		     "unknown field");
}

static void bad_number_names_its_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\nmachine:\n  cpus: two\n"
		     "tasks:\n  - name: t\n    workload: {kind: tchain}\n", 3, "machine.cpus",
		     "'two' is not a number");
}

static void bad_enum_word_names_its_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\ntasks:\n  - name: t\n    workload:\n      kind: chain\n",
		     5, "tasks.0.workload.kind", "unknown word 'chain'");
	expect_error("duration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain}\n"
		     "events:\n  - event: cycles\n    period: 1000\n    sample_type: [ip, tidd]\n",
		     8, "events.0.sample_type", "unknown flag: tidd");
}

/* Values past what a period can hold, or below zero, and cond_permille given as 0. */
static void periods_and_signs_at_their_limits(void **state)
{
	struct scenario *s;
	struct wl_params p;
	char text[512], err[256];

	(void)state;
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: -5\n", base);
	expect_error(text, 7, "events.0.period", "must not be negative");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 9223372036854775808\n",
		 base);
	expect_error(text, 7, "events.0.period", "too large");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 1000\n"
		 "    alternative_period: 9223372036854775809\n", base);
	expect_error(text, 8, "events.0.alternative_period",
		     IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD) ? "too large" :
		     "this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD");

	write_file("duration: 1000\ntasks:\n  - name: t\n"
		   "    workload: {kind: tchain, cond_permille: 0}\n");
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	scenario_wl_params(s, &s->tasks[0], &p);
	assert_int_equal(p.cond_permille, 0);	/* given as 0, not the default 500 */
	scenario_free(s);
}

/* sample_type's words, as the scenario's sample_type list names them */
static void sample_bits_by_name(void **state)
{
	(void)state;
	assert_int_equal(scenario_sample_bit("time"), PERF_SAMPLE_TIME);
	assert_int_equal(scenario_sample_bit("ip"), PERF_SAMPLE_IP);
	assert_int_equal(scenario_sample_bit("tidd"), 0);
}

static void missing_field_is_named(void **state)
{
	(void)state;
	expect_error("duration: 1000\n", 1, "tasks", "missing required field");
}

static void out_of_range_names_the_field(void **state)
{
	char text[256];

	(void)state;
	snprintf(text, sizeof(text), "%smachine:\n  cpus: %d\n", base, CONFIG_MODEL_MAX_CPUS + 1);
	expect_error(text, 6, "machine.cpus", "must be 1..");
	snprintf(text, sizeof(text), "%sbuffer:\n  pages: 12\n", base);
	expect_error(text, 6, "buffer.pages", "power of two");
	expect_error("duration: 0\ntasks:\n  - name: t\n    workload: {kind: tchain}\n", 1,
		     "duration", "at least");
	expect_error("duration: 10\ntasks:\n  - name: t\n    workload: {kind: tchain, depth: 9999}\n",
		     4, "tasks.0.workload", "invalid parameters");
	/* phase_05 would loop 8 >> 4 = 0 times */
	expect_error("duration: 10\ntasks:\n  - name: t\n"
		     "    workload: {kind: phases, depth: 5, leaf_loops: 8}\n",
		     4, "tasks.0.workload", "phases: depth <= 16");
	snprintf(text, sizeof(text), "%s    cpus: [0, 3]\n", base);
	expect_error(text, 5, "tasks.0.cpus.1", "not in the machine");
}

static void unknown_model_and_event_name_the_field(void **state)
{
	char text[256];

	(void)state;
	snprintf(text, sizeof(text), "%smachine:\n  hz: 1000\n  cpu: pentium\n", base);
	expect_error(text, 7, "machine.cpu", "unknown CPU model 'pentium' (one of: ");
	/* every model the table has is named */
	{
		unsigned int nr;
		const struct model_cpu_desc *t = model_cpu_desc_table(&nr);
		struct scenario *s;
		char err[512];

		write_file(text);
		assert_int_equal(scenario_load(path, &s, err, sizeof(err)), -1);
		unlink(path);
		assert_true(nr > 1);
		for (unsigned int i = 0; i < nr; i++)
			assert_non_null(strstr(err, t[i].name));
	}
	snprintf(text, sizeof(text), "%sevents:\n  - event: cache-misses\n    period: 10\n", base);
	expect_error(text, 6, "events.0.event", "unknown event");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles:x\n    period: 10\n", base);
	expect_error(text, 6, "events.0.event", "event 'cycles:x': unknown modifier 'x'");
	snprintf(text, sizeof(text), "%smachine: {cpu: nehalem}\nevents:\n  - event: cycles:uppp\n"
		 "    period: 10\n", base);
	expect_error(text, 7, "events.0.event",
		     "cycles:uppp asks precise_ip 3, CPU model 'nehalem' takes :pp at most");
}

static void contradicting_fields_are_refused(void **state)
{
	char text[320];

	(void)state;
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 10\n    freq: 100\n",
		 base);
	expect_error(text, 7, "events.0.period", "exclude each other");
	snprintf(text, sizeof(text),
		 "%sevents:\n  - event: cycles\n    freq: 100\n    alternative_period: 7\n", base);
	expect_error(text, 8, "events.0.alternative_period", "");
	snprintf(text, sizeof(text), "%smachine: {cpu: nehalem}\nevents:\n  - event: cycles\n"
		 "    period: 100\n    call_graph: lbr\n", base);
	expect_error(text, 9, "events.0.call_graph", "no LBR call-stack mode");
}

static void duplicate_key_names_its_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\nduration: 2000\n"
		     "tasks:\n  - name: t\n    workload: {kind: tchain}\n", 2, "duration",
		     "given twice");
}

/* libcyaml's words ("expecting MAPPING, got event: SCALAR") in the file's terms */
static void wrong_shape_names_its_line(void **state)
{
	char text[320];

	(void)state;
	expect_error("duration: 1000\nmachine: 5\n"
		     "tasks:\n  - name: t\n    workload: {kind: tchain}\n", 2, "machine",
		     "must be a mapping (key: value lines), not a single value");
	expect_error("duration: 1000\ntasks: {name: t}\n", 2, "tasks",
		     "must be a list ([a, b] or - lines), not a mapping");
	expect_error("- a\n- b\n", 1, "scenario", "must be a mapping (key: value lines), not a list");
	expect_error("just words\n", 1, "scenario", "must be a mapping");
	snprintf(text, sizeof(text), "%sbuffer:\n  pages: [1]\n", base);
	expect_error(text, 6, "buffer.pages", "must be a number, not a list");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 10\n"
		 "    sample_type: ip\n", base);
	expect_error(text, 8, "events.0.sample_type", "must be a list of words ([ip, tid]), not a "
		     "single value");
	snprintf(text, sizeof(text), "%sevents:\n  - cycles\n", base);
	expect_error(text, 6, "events.0", "must be a mapping (key: value lines), not a single value");
	snprintf(text, sizeof(text), "%smachine:\n  cpu: [a]\n", base);
	expect_error(text, 6, "machine.cpu", "must be a word, not a list");
	snprintf(text, sizeof(text), "%sevents:\n  - event: ''\n    period: 10\n", base);
	expect_error(text, 6, "events.0.event", "must not be empty");
	expect_error("duration: 1000\ntasks: []\n", 2, "tasks", "needs at least 1 entry");
	expect_error("duration: &a 1000\nseed: *a\ntasks:\n  - name: t\n"
		     "    workload: {kind: tchain}\n", 2, "seed", "aliases (*a) are not supported");
}

/* libcyaml alone would read "maybe" as true and -5 as 2^64-5. */
static void loose_bools_and_negative_numbers_are_refused(void **state)
{
	char text[320];

	(void)state;
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 10\n"
		 "    write_backward: maybe\n", base);
	expect_error(text, 8, "events.0.write_backward", "'maybe' is not a boolean");
	snprintf(text, sizeof(text), "%sbuffer: {overwrite: 2}\n", base);
	expect_error(text, 5, "buffer.overwrite", "not a boolean");
	snprintf(text, sizeof(text), "%sconsumer:\n  pause: nope\n", base);
	expect_error(text, 6, "consumer.pause", "not a boolean");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: -5\n", base);
	expect_error(text, 7, "events.0.period", "must not be negative");
	expect_error("duration: -1\ntasks:\n  - name: t\n    workload: {kind: tchain}\n", 1,
		     "duration", "must not be negative");
}

static void enum_error_lists_the_words(void **state)
{
	char text[320];

	(void)state;
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 10\n"
		 "    scope: global\n", base);
	expect_error(text, 8, "events.0.scope", "unknown word 'global' (one of: task, system)");
	expect_error("duration: 1000\ntasks:\n  - name: t\n    workload: {kind: chain}\n", 4,
		     "tasks.0.workload.kind", "(one of: tchain, recursion, random, phases)");
}

static void long_name_names_its_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\ntasks:\n  - name: averyveryverylongname\n"
		     "    workload: {kind: tchain}\n", 3, "tasks.0.name",
		     "'averyveryverylongname' is longer than 15 characters");
}

static void more_ranges_name_the_field(void **state)
{
	char text[320];

	(void)state;
	snprintf(text, sizeof(text), "%smachine:\n  hz: 5\n", base);
	expect_error(text, 6, "machine.hz", "must be 100..10000");
	snprintf(text, sizeof(text), "%sbuffer:\n  pages: 1\n  watermark: 4096\n", base);
	expect_error(text, 7, "buffer.watermark", "below the buffer size");
	snprintf(text, sizeof(text), "%s    threads: 100\n", base);
	expect_error(text, 5, "tasks.0.threads", "must be 1..64");
	snprintf(text, sizeof(text), "%s    count: 0\n", base);
	expect_error(text, 5, "tasks.0.count", "must be 1..256");
	snprintf(text, sizeof(text), "%smachine: {timeslice: 0}\n", base);
	expect_error(text, 5, "machine.timeslice", "at least 1");
	snprintf(text, sizeof(text), "%smachine:\n  cpus: 0\n", base);
	expect_error(text, 6, "machine.cpus", "must be 1..");
	snprintf(text, sizeof(text), "%s    threads: 0\n", base);
	expect_error(text, 5, "tasks.0.threads", "must be 1..64");
	snprintf(text, sizeof(text), "%smachine: {timeslice: 1000, quantum: 5000}\n", base);
	expect_error(text, 5, "machine.quantum", "must be 1..timeslice");
	/* a PMI handler as long as a tick */
	snprintf(text, sizeof(text), "%smachine:\n  hz: 10000\n  pmi_cycles: %llu\n", base,
		 (unsigned long long)CONFIG_MODEL_TSC_KHZ / 10);
	expect_error(text, 7, "machine.pmi_cycles", "less than a tick at hz 10000");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    sample_type: [ip]\n", base);
	expect_error(text, 6, "events.0.period", "give a period or a freq");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    freq: %d\n", base,
		 CONFIG_PERF_SAMPLE_MAX_RATE + 1);
	expect_error(text, 7, "events.0.freq", "above the maximum sample rate "
		     "(perf_event_max_sample_rate");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 10\n"
		 "    sample_type: [ip, branch_stack]\n", base);
	expect_error(text, 6, "events.0.branch_filter", "needs a branch filter");
}

/*
 * libcyaml 1.3.1 stopped at the first odd character and kept the digits
 * before it: "4e8" ran 4 cycles, "64k" gave 64 pages. A number is taken
 * whole or refused, in every integer field, sequences included.
 */
static void numbers_are_taken_whole_or_refused(void **state)
{
	char text[320];
	struct scenario *s;
	char err[256];

	(void)state;
	expect_error("duration: 4e8\ntasks:\n  - name: t\n    workload: {kind: tchain}\n", 1,
		     "duration", "'4e8' is not an integer (write the digits in full");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 1000.5\n", base);
	expect_error(text, 7, "events.0.period", "'1000.5' is not an integer");
	snprintf(text, sizeof(text), "%sbuffer:\n  pages: 64k\n", base);
	expect_error(text, 6, "buffer.pages", "'64k': no unit suffixes");
	expect_error("seed: 12three\nduration: 1000\ntasks:\n  - name: t\n"
		     "    workload: {kind: tchain}\n", 1, "seed", "'12three' is not a number");
	snprintf(text, sizeof(text), "%smachine:\n  hz: 1000x\n", base);
	expect_error(text, 6, "machine.hz", "'1000x' is not a number");
	snprintf(text, sizeof(text), "%smachine:\n  cpus: 010\n", base);
	expect_error(text, 6, "machine.cpus", "leading zero");
	snprintf(text, sizeof(text), "%s    cpus: [0, 1x]\n", base);
	expect_error(text, 5, "tasks.0.cpus.1", "'1x' is not a number");
	snprintf(text, sizeof(text), "%smachine:\n  cpus: 4294967296\n", base);
	expect_error(text, 6, "machine.cpus", "too large (at most 4294967295)");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 1__000\n", base);
	expect_error(text, 7, "events.0.period", "not a number");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 1000_\n", base);
	expect_error(text, 7, "events.0.period", "not a number");
	expect_error("duration:\ntasks:\n  - name: t\n    workload: {kind: tchain}\n", 1,
		     "duration", "expects a number");

	/* what is accepted, on purpose: digits, 0xHEX, _ between digits */
	write_file("seed: 0x2a\nduration: 400_000_000\nmachine: {cpus: 2}\n"
		   "tasks:\n  - name: t\n    workload: {kind: tchain, leaf_loops: 1_000}\n"
		   "    cpus: [0, 0x1]\n"
		   "events:\n  - event: cycles\n    period: 0x1_0000\n");
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(s->seed, 42);
	assert_int_equal(s->duration, 400000000);
	assert_int_equal(s->tasks[0].workload->leaf_loops, 1000);
	assert_int_equal(s->tasks[0].cpus[1], 1);
	assert_int_equal(s->events[0].period, 0x10000);
	scenario_free(s);
}

static void missing_file_is_one_line(void **state)
{
	struct scenario *s;
	char err[256];

	(void)state;
	assert_int_equal(scenario_load("/nonexistent/x.yaml", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "pmusim: /nonexistent/x.yaml: No such file or directory");
}

/* An empty document loads as no data: it crashed pmusim (found by fuzz_parsers). */
static void empty_file_is_one_line(void **state)
{
	(void)state;
	expect_error("", 1, "scenario", "empty");
	expect_error("# only a comment\n\n", 1, "scenario", "empty");
}

/* Event names as perf record takes them, and what it refuses. */
static void event_names_resolve_or_are_refused(void **state)
{
	static const char *const bad[] = {
		"", ":u", "cycles:", "cycles:ux", "r", "rxyz", "r12345678901234567", "cache-misses",
		"a-name-far-too-long-to-be-any-event-that-perf-knows-of-at-all-here",
	};
	struct scn_event ev;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&ev, 0, sizeof(ev));
		if (scenario_parse_event(&ev, bad[i]) != -1)
			fail_msg("'%s' was taken", bad[i]);
	}
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(scenario_parse_event(&ev, "branch-misses:k"), 0);
	assert_int_equal(ev.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.config, PERF_COUNT_HW_BRANCH_MISSES);
	assert_true(ev.exclude_user);
	assert_false(ev.exclude_kernel);
	assert_int_equal(scenario_parse_event(&ev, "ref-cycles:uk"), 0);
	assert_int_equal(ev.config, PERF_COUNT_HW_REF_CPU_CYCLES);
	assert_false(ev.exclude_user);
	assert_false(ev.exclude_kernel);
	/* sixteen hex digits are the most a config holds */
	assert_int_equal(scenario_parse_event(&ev, "rFFFFFFFFFFFFFFFF:u"), 0);
	assert_int_equal(ev.type, PERF_TYPE_RAW);
	assert_true(ev.config == UINT64_MAX);
	assert_true(ev.exclude_kernel);
	assert_int_equal(scenario_branch_bit("call_stack"), PERF_SAMPLE_BRANCH_CALL_STACK);
	assert_int_equal(scenario_branch_bit("hw_index"), PERF_SAMPLE_BRANCH_HW_INDEX);
	assert_int_equal(scenario_branch_bit("ip"), 0);
}

/* A list longer than the schema allows is the list's error, not its last entry's. */
static void too_many_entries_name_the_list(void **state)
{
	char text[2048];
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "%sevents:\n", base);
	for (int i = 0; i < 17; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "  - {event: cycles, period: %d}\n", 1000 + i);
	/* on the line of the entry one too many */
	expect_error(text, 22, "events", "at most 16 entries");
}

/*
 * A missing field inside a list entry names that entry's line; a key given
 * twice, its second use (libcyaml's line is the value before it: the
 * line of hz here, which pmusim named up to fef5871).
 */
static void nested_mapping_errors_name_their_line(void **state)
{
	(void)state;
	expect_error("duration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain}\n"
		     "  - workload: {kind: tchain}\n", 5, "name", "missing required field");
	expect_error("duration: 1000\nmachine:\n  cpus: 1\n  hz: 100\n  cpus: 2\n"
		     "tasks:\n  - name: t\n    workload: {kind: tchain}\n", 5, "cpus",
		     "given twice");
	expect_error("duration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain}\n"
		     "  - name: u\n\n    workload: {kind: tchain}\n    name: v\n", 8, "name",
		     "given twice");
	/* in a flow mapping: the one line */
	expect_error("duration: 1000\nmachine: {cpus: 1, hz: 100, cpus: 2}\n"
		     "tasks:\n  - name: t\n    workload: {kind: tchain}\n", 2, "cpus",
		     "given twice");
}

static void buffer_and_build_limits(void **state)
{
	struct scenario *s;
	char text[320], err[256];

	(void)state;
	snprintf(text, sizeof(text), "%sbuffer:\n  pages: 8192\n", base);
	expect_error(text, 6, "buffer.pages", "power of two, 1..4096");
	snprintf(text, sizeof(text), "%sevents:\n  - event: cycles\n    period: 10\n"
		 "    hw_time: true\n", base);
	if (!IS_ENABLED(CONFIG_PERF_HW_TIME)) {
		expect_error(text, 8, "events.0.hw_time", "this build has no CONFIG_PERF_HW_TIME");
		return;
	}
	write_file(text);
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	assert_true(s->events[0].hw_time);
	scenario_free(s);
}

/* The checks again after the command line changed the scenario (perf record -C). */
static void check_after_overrides(void **state)
{
	struct scenario *s;
	char text[320], err[256], want[128];

	(void)state;
	snprintf(text, sizeof(text), "%smachine: {cpus: 2}\nevents:\n  - event: cycles\n"
		 "    period: 10\n    scope: system\n", base);
	write_file(text);
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	s->events[0].cpu_mask = 3;
	assert_int_equal(scenario_check(s, err, sizeof(err)), 0);
	s->events[0].cpu_mask = 1 << 2;
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:7: events.0: a CPU of -C is not in the machine (cpus: 2)",
		 path);
	assert_string_equal(err, want);
	/* an unknown event from the command line: quoted on one line, the newline escaped */
	s->events[0].cpu_mask = 0;
	free(s->events[0].event);
	s->events[0].event = strdup("cyc\nles");
	assert_non_null(s->events[0].event);
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "events.0.event: unknown event 'cyc\\nles'"));
	scenario_free(s);
}

/* What the key -> line index refuses: aliases anywhere, and nesting past its depth. */
static void aliases_and_deep_nesting_are_refused(void **state)
{
	char text[400];
	int n;

	(void)state;
	expect_error("duration: &d 1000\n*d : 5\ntasks:\n  - name: t\n"
		     "    workload: {kind: tchain}\n", 2, "syntax", "an alias as a key");
	expect_error("x: &c 0\nduration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain}\n"
		     "    cpus: [*c]\n", 6, "tasks.0.cpus.0", "aliases (*c) are not supported");
	n = snprintf(text, sizeof(text), "duration: 1000\nx: ");
	for (int i = 0; i < 40; i++)
		text[n++] = '[';
	for (int i = 0; i < 40; i++)
		text[n++] = ']';
	snprintf(text + n, sizeof(text) - (size_t)n, "\n");
	expect_error(text, 2, "syntax", "nested too deep");
}

/*
 * Events of one scope share a buffer per task or CPU, which is written
 * forward or backward: a mix is refused on the line of the event that
 * differs (it was "pmusim: events.1: SET_OUTPUT: Invalid argument"
 * with exit 1 up to fef5871). Events that share no buffer may differ.
 */
static void write_backward_mix_in_one_buffer_is_refused(void **state)
{
	struct scenario *s;
	char text[400], err[256];

	(void)state;
	snprintf(text, sizeof(text), "%sevents:\n  - {event: cycles, period: 10}\n"
		 "  - event: instructions\n    period: 10\n    write_backward: true\n", base);
	expect_error(text, 9, "events.1.write_backward", "must be as events.0's (false): events "
		     "of one scope share a buffer");
	snprintf(text, sizeof(text), "%sevents:\n  - {event: cycles, period: 10, write_backward: true}\n"
		 "  - {event: branches, period: 10, scope: system}\n"
		 "  - {event: instructions, period: 10}\n", base);
	expect_error(text, 8, "events.2.write_backward", "must be as events.0's (true)");
	/* a task's and a CPU's buffers are not one */
	snprintf(text, sizeof(text), "%smachine: {cpus: 2}\nevents:\n"
		 "  - {event: cycles, period: 10, write_backward: true}\n"
		 "  - {event: instructions, period: 10, scope: system}\n"
		 "  - {event: branches, period: 10, scope: system}\n", base);
	write_file(text);
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	/* system events on CPUs apart (perf record -C) share no buffer either */
	s->events[2].write_backward = true;
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "events.2.write_backward: must be as events.1's (false)"));
	s->events[1].cpu_mask = 1;
	s->events[2].cpu_mask = 2;
	assert_int_equal(scenario_check(s, err, sizeof(err)), 0);
	s->events[2].cpu_mask = 3;
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	s->events[2].cpu_mask = 0;
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	scenario_free(s);
}

/* The key -> line index on its own: lookups that fall back to a parent, or to line 1. */
static void key_index_lookups(void **state)
{
	struct yaml_lines yl;
	const char *at = NULL;
	unsigned int line;
	char err[128];

	(void)state;
	write_file("duration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain}\n"
		   "  - name: u\n    cpus: [0, 1]\n");
	assert_int_equal(yaml_lines_index(&yl, path, &line, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(yaml_lines_find(&yl, "tasks.1.cpus.1"), 6);
	assert_int_equal(yaml_lines_find(&yl, "tasks.1.count"), 5);	/* its entry's line */
	assert_int_equal(yaml_lines_find(&yl, "machine.cpus"), 1);	/* nothing of it */
	assert_string_equal(yaml_lines_value(&yl, "tasks.1.cpus.1"), "1");
	assert_string_equal(yaml_lines_value(&yl, "tasks.0.workload"), "");
	assert_null(yaml_lines_value(&yl, "tasks.2"));
	/* a key by its last component, from a line on */
	assert_int_equal(yaml_lines_find_key(&yl, "name", 4, &at), 5);
	assert_string_equal(at, "tasks.1.name");
	assert_int_equal(yaml_lines_find_key(&yl, "name", 6, &at), 0);
	assert_int_equal(yaml_lines_find_key(&yl, "ame", 0, NULL), 0);	/* not a component */
	yaml_lines_free(&yl);
	assert_null(yl.v);
	assert_int_equal(yl.nr, 0);
}

/* A 0 written in the file is a value, refused where 0 is out of range; the upper bounds. */
static void zeros_given_and_upper_bounds(void **state)
{
	char text[320];

	(void)state;
	snprintf(text, sizeof(text), "%sbuffer: {pages: 0}\n", base);
	expect_error(text, 5, "buffer.pages", "must be a power of two, 1..4096");
	snprintf(text, sizeof(text), "%smachine: {hz: 0}\n", base);
	expect_error(text, 5, "machine.hz", "must be 100..10000");
	snprintf(text, sizeof(text), "%smachine: {hz: 10001}\n", base);
	expect_error(text, 5, "machine.hz", "must be 100..10000");
	snprintf(text, sizeof(text), "%smachine: {quantum: 0}\n", base);
	expect_error(text, 5, "machine.quantum", "must be 1..timeslice (4000000)");
	snprintf(text, sizeof(text), "%s    count: 257\n", base);
	expect_error(text, 5, "tasks.0.count", "must be 1..256");
}

/* A scenario made in code, with no file index: its errors are on line 1. */
static void check_without_an_index_says_line_1(void **state)
{
	struct scenario *s;
	char text[320], err[256], want[160];
	void *lines;

	(void)state;
	snprintf(text, sizeof(text), "%sevents:\n  - {event: cycles, period: 10}\n", base);
	write_file(text);
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	lines = s->lines;
	s->lines = NULL;
	s->events[0].period = 0;
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:1: events.0.period: give a period or a freq", path);
	assert_string_equal(err, want);
	s->lines = lines;
	scenario_free(s);
	scenario_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_scenario_loads),
		cmocka_unit_test(minimal_scenario_gets_defaults),
		cmocka_unit_test(phases_workload_loads),
		cmocka_unit_test(pmi_cycles_zero_is_a_value),
		cmocka_unit_test(syntax_error_names_its_line),
		cmocka_unit_test(unknown_field_names_its_line),
		cmocka_unit_test(bad_number_names_its_line),
		cmocka_unit_test(bad_enum_word_names_its_line),
		cmocka_unit_test(missing_field_is_named),
		cmocka_unit_test(out_of_range_names_the_field),
		cmocka_unit_test(unknown_model_and_event_name_the_field),
		cmocka_unit_test(contradicting_fields_are_refused),
		cmocka_unit_test(duplicate_key_names_its_line),
		cmocka_unit_test(wrong_shape_names_its_line),
		cmocka_unit_test(loose_bools_and_negative_numbers_are_refused),
		cmocka_unit_test(enum_error_lists_the_words),
		cmocka_unit_test(long_name_names_its_line),
		cmocka_unit_test(more_ranges_name_the_field),
		cmocka_unit_test(numbers_are_taken_whole_or_refused),
		cmocka_unit_test(missing_file_is_one_line),
		cmocka_unit_test(periods_and_signs_at_their_limits),
		cmocka_unit_test(sample_bits_by_name),
		cmocka_unit_test(empty_file_is_one_line),
		cmocka_unit_test(event_names_resolve_or_are_refused),
		cmocka_unit_test(too_many_entries_name_the_list),
		cmocka_unit_test(nested_mapping_errors_name_their_line),
		cmocka_unit_test(buffer_and_build_limits),
		cmocka_unit_test(check_after_overrides),
		cmocka_unit_test(aliases_and_deep_nesting_are_refused),
		cmocka_unit_test(write_backward_mix_in_one_buffer_is_refused),
		cmocka_unit_test(key_index_lookups),
		cmocka_unit_test(zeros_given_and_upper_bounds),
		cmocka_unit_test(check_without_an_index_says_line_1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
