// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario files: the libcyaml schema, defaults and checks. libcyaml's own
 * errors arrive through its log callback with a backtrace that carries the
 * line; errors found after loading take their line from the libyaml index
 * (sim/scenario_lines.c).
 */
#include <cyaml/cyaml.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/kernel.h"
#include "core/testcase.h"
#include "include/pmusim/perf_event.h"
#include "model/model.h"
#include "sim/msg_escape.h"
#include "sim/scenario.h"
#include "sim/scenario_lines.h"
#include "sim/scenario_number.h"
#include "tools/perf/util/parse_events.h"

/* ---- the schema ----------------------------------------------------------- */

static const cyaml_strval_t kinds[] = {
	{ "tchain", WL_TCHAIN }, { "recursion", WL_RECURSION }, { "random", WL_RANDOM },
	{ "phases", WL_PHASES },
};
static const cyaml_strval_t scopes[] = {
	{ "task", SCN_SCOPE_TASK }, { "system", SCN_SCOPE_SYSTEM },
};
static const cyaml_strval_t call_graphs[] = {
	{ "none", SCN_CG_NONE }, { "lbr", SCN_CG_LBR },
};
static const cyaml_strval_t sample_bits[] = {
	{ "ip", PERF_SAMPLE_IP }, { "tid", PERF_SAMPLE_TID }, { "time", PERF_SAMPLE_TIME },
	{ "addr", PERF_SAMPLE_ADDR }, { "read", PERF_SAMPLE_READ },
	{ "callchain", PERF_SAMPLE_CALLCHAIN }, { "id", PERF_SAMPLE_ID },
	{ "cpu", PERF_SAMPLE_CPU }, { "period", PERF_SAMPLE_PERIOD },
	{ "stream_id", PERF_SAMPLE_STREAM_ID }, { "branch_stack", PERF_SAMPLE_BRANCH_STACK },
	{ "identifier", PERF_SAMPLE_IDENTIFIER },
};
static const cyaml_strval_t branch_bits[] = {
	{ "user", PERF_SAMPLE_BRANCH_USER }, { "kernel", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV }, { "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_return", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL }, { "cond", PERF_SAMPLE_BRANCH_COND },
	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "ind_jump", PERF_SAMPLE_BRANCH_IND_JUMP }, { "call", PERF_SAMPLE_BRANCH_CALL },
	{ "no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS }, { "no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES },
	{ "type_save", PERF_SAMPLE_BRANCH_TYPE_SAVE }, { "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
};
#define NR(a) (sizeof(a) / sizeof((a)[0]))

static const cyaml_schema_field_t machine_fields[] = {
	CYAML_FIELD_STRING_PTR("cpu", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			       struct scn_machine, cpu, 1, 31),
	CYAML_FIELD_UINT("cpus", CYAML_FLAG_OPTIONAL, struct scn_machine, cpus),
	CYAML_FIELD_UINT("hz", CYAML_FLAG_OPTIONAL, struct scn_machine, hz),
	CYAML_FIELD_UINT("timeslice", CYAML_FLAG_OPTIONAL, struct scn_machine, timeslice),
	CYAML_FIELD_UINT("quantum", CYAML_FLAG_OPTIONAL, struct scn_machine, quantum),
	CYAML_FIELD_UINT("pmi_cycles", CYAML_FLAG_OPTIONAL, struct scn_machine, pmi_cycles),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t workload_fields[] = {
	CYAML_FIELD_ENUM("kind", CYAML_FLAG_DEFAULT, struct scn_workload, kind, kinds, NR(kinds)),
	CYAML_FIELD_UINT("depth", CYAML_FLAG_OPTIONAL, struct scn_workload, depth),
	CYAML_FIELD_UINT("leaf_loops", CYAML_FLAG_OPTIONAL, struct scn_workload, leaf_loops),
	CYAML_FIELD_UINT("mid_loops", CYAML_FLAG_OPTIONAL, struct scn_workload, mid_loops),
	CYAML_FIELD_UINT("outer_loops", CYAML_FLAG_OPTIONAL, struct scn_workload, outer_loops),
	CYAML_FIELD_UINT("cond_permille", CYAML_FLAG_OPTIONAL, struct scn_workload, cond_permille),
	CYAML_FIELD_UINT("mispredict_permille", CYAML_FLAG_OPTIONAL, struct scn_workload,
			 mispredict_permille),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t cpu_entry = {
	CYAML_VALUE_UINT(CYAML_FLAG_DEFAULT, uint32_t),
};

static const cyaml_schema_field_t task_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct scn_task, name, 1, 15),
	CYAML_FIELD_UINT("count", CYAML_FLAG_OPTIONAL, struct scn_task, count),
	CYAML_FIELD_UINT("threads", CYAML_FLAG_OPTIONAL, struct scn_task, threads),
	CYAML_FIELD_MAPPING_PTR("workload", CYAML_FLAG_POINTER, struct scn_task, workload,
				workload_fields),
	CYAML_FIELD_SEQUENCE("cpus", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct scn_task,
			     cpus, &cpu_entry, 1, CONFIG_MODEL_MAX_CPUS),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t task_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct scn_task, task_fields),
};

static const cyaml_schema_field_t event_fields[] = {
	CYAML_FIELD_STRING_PTR("event", CYAML_FLAG_POINTER, struct scn_event, event, 1, 63),
	CYAML_FIELD_UINT("period", CYAML_FLAG_OPTIONAL, struct scn_event, period),
	CYAML_FIELD_UINT("freq", CYAML_FLAG_OPTIONAL, struct scn_event, freq),
	CYAML_FIELD_UINT("alternative_period", CYAML_FLAG_OPTIONAL, struct scn_event,
			 alternative_period),
	CYAML_FIELD_FLAGS("sample_type", CYAML_FLAG_OPTIONAL, struct scn_event, sample_type,
			  sample_bits, NR(sample_bits)),
	CYAML_FIELD_FLAGS("branch_filter", CYAML_FLAG_OPTIONAL, struct scn_event,
			  branch_filter, branch_bits, NR(branch_bits)),
	CYAML_FIELD_ENUM("call_graph", CYAML_FLAG_OPTIONAL, struct scn_event, call_graph,
			 call_graphs, NR(call_graphs)),
	CYAML_FIELD_ENUM("scope", CYAML_FLAG_OPTIONAL, struct scn_event, scope, scopes,
			 NR(scopes)),
	CYAML_FIELD_BOOL("write_backward", CYAML_FLAG_OPTIONAL, struct scn_event, write_backward),
	CYAML_FIELD_BOOL("hw_time", CYAML_FLAG_OPTIONAL, struct scn_event, hw_time),
	CYAML_FIELD_BOOL("context_switch", CYAML_FLAG_OPTIONAL, struct scn_event, context_switch),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t event_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct scn_event, event_fields),
};

static const cyaml_schema_field_t buffer_fields[] = {
	CYAML_FIELD_UINT("pages", CYAML_FLAG_OPTIONAL, struct scn_buffer, pages),
	CYAML_FIELD_BOOL("overwrite", CYAML_FLAG_OPTIONAL, struct scn_buffer, overwrite),
	CYAML_FIELD_UINT("watermark", CYAML_FLAG_OPTIONAL, struct scn_buffer, watermark),
	CYAML_FIELD_UINT("wakeup_events", CYAML_FLAG_OPTIONAL, struct scn_buffer, wakeup_events),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t consumer_fields[] = {
	CYAML_FIELD_UINT("interval", CYAML_FLAG_OPTIONAL, struct scn_consumer, interval),
	CYAML_FIELD_BOOL("pause", CYAML_FLAG_OPTIONAL, struct scn_consumer, pause),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t scenario_fields[] = {
	CYAML_FIELD_UINT("seed", CYAML_FLAG_OPTIONAL, struct scenario, seed),
	CYAML_FIELD_UINT("duration", CYAML_FLAG_DEFAULT, struct scenario, duration),
	CYAML_FIELD_MAPPING_PTR("machine", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
				struct scenario, machine, machine_fields),
	CYAML_FIELD_SEQUENCE("tasks", CYAML_FLAG_POINTER, struct scenario, tasks, &task_entry,
			     1, 1024),
	CYAML_FIELD_SEQUENCE("events", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct scenario,
			     events, &event_entry, 0, 16),
	CYAML_FIELD_MAPPING_PTR("buffer", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
				struct scenario, buffer, buffer_fields),
	CYAML_FIELD_MAPPING_PTR("consumer", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
				struct scenario, consumer, consumer_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t scenario_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct scenario, scenario_fields),
};

/* ---- libcyaml's errors as one line ---------------------------------------- */

struct cy_log {
	char msg[256];			/* the first error */
	char field[64];			/* the innermost field of its backtrace */
	unsigned int line;
	bool have_trace;
};

static void cy_log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct cy_log *log = ctx;
	char buf[256];
	const char *s, *q;
	size_t len;

	/* the config's log_level: libcyaml calls this for errors only */
	if (NEVER(level < CYAML_LOG_ERROR))
		return;
	vsnprintf(buf, sizeof(buf), fmt, args);
	/* drop its line end only: a value it quotes may hold newlines (escaped later) */
	for (len = strlen(buf); len && buf[len - 1] == '\n'; len--)
		buf[len - 1] = 0;
	s = buf;
	while (*s == ' ')
		s++;
	if (!strncmp(s, "Load: ", 6))
		s += 6;
	if (!strncmp(s, "Backtrace:", 10))
		return;
	if (!strncmp(s, "in ", 3)) {
		if (log->have_trace)
			return;
		log->have_trace = true;
		q = strstr(s, "line: ");
		if (q)
			log->line = (unsigned int)strtoul(q + 6, NULL, 10);
		q = strchr(s, '\'');
		if (q) {
			size_t n = strcspn(q + 1, "'");

			snprintf(log->field, sizeof(log->field), "%.*s", (int)n, q + 1);
		}
		return;
	}
	if (!log->msg[0])
		snprintf(log->msg, sizeof(log->msg), "%s", s);
}

/* The words an enum field takes, to name them when a word is wrong. */
struct enum_words {
	const char *field, *words;
};

static const struct enum_words enum_words[] = {
	{ "kind", "tchain, recursion, random, phases" },
	{ "scope", "task, system" },
	{ "call_graph", "none, lbr" },
};

static const struct enum_words *enum_words_of(const char *field)
{
	for (size_t i = 0; i < NR(enum_words); i++)
		if (!strcmp(enum_words[i].field, field))
			return &enum_words[i];
	return NULL;
}

/* libcyaml's names of what it expected and what it found, in the file's terms. */
static const struct {
	const char *cy, *ours;
} cy_words[] = {
	{ "MAPPING_START", "a mapping" }, { "SEQUENCE_START", "a list" },
	{ "SCALAR", "a single value" }, { "MAPPING", "a mapping (key: value lines)" },
	{ "SEQUENCE", "a list ([a, b] or - lines)" }, { "UINT", "a number" },
	{ "INT", "one word" }, { "ENUM", "one word" }, { "FLAGS", "a list of words ([ip, tid])" },
	{ "STRING", "a word" }, { "BOOL", "true or false" }, { "ALIAS", "an alias" },
};

static const char *cy_word(const char *cy, size_t len)
{
	for (size_t i = 0; i < NR(cy_words); i++)
		if (strlen(cy_words[i].cy) == len && !strncmp(cy_words[i].cy, cy, len))
			return cy_words[i].ours;
	return NULL;
}

/* libcyaml's message @msg as a problem in the scenario's terms. */
static void cy_problem(const char *cymsg, char *out, size_t outlen)
{
	unsigned int a, b;
	int n = 0;
	char msg[256];

	/* "Invalid ..." as "invalid ...", but "STRING ..." stays */
	snprintf(msg, sizeof(msg), "%s", cymsg);
	if (msg[0] >= 'A' && msg[0] <= 'Z' && msg[1] >= 'a' && msg[1] <= 'z')
		msg[0] = (char)(msg[0] - 'A' + 'a');
	msg[strcspn(msg, "\n")] = 0;

	if (!strncmp(msg, "expecting ", 10)) {
		const char *want = msg + 10, *got = strstr(msg, "got event: ");
		const char *w = cy_word(want, strcspn(want, ", ")), *g;

		g = got ? cy_word(got + 11, strcspn(got + 11, " \n")) : NULL;
		if (w && g) {
			snprintf(out, outlen, "must be %s, not %s", w, g);
			return;
		}
	}
	if (sscanf(msg, "STRING length > %u:%n", &a, &n) == 1 && n) {
		snprintf(out, outlen, "'%s' is longer than %u characters", msg + n + (msg[n] == ' '),
			 a);
		return;
	}
	if (!strncmp(msg, "STRING length < 1", 17)) {
		snprintf(out, outlen, "must not be empty");
		return;
	}
	if (sscanf(msg, "excessive entries (%u max)", &a) == 1) {
		snprintf(out, outlen, "at most %u entries", a);
		return;
	}
	if (sscanf(msg, "insufficient entries (%u of %u min)", &a, &b) == 2) {
		snprintf(out, outlen, "needs at least %u entr%s", b, b == 1 ? "y" : "ies");
		return;
	}
	/* anything else as libcyaml says it */
	snprintf(out, outlen, "%s", msg);
	n = (int)strlen(out);
	if (n && out[n - 1] == '.')
		out[n - 1] = 0;
}

/*
 * The full path of what libcyaml's backtrace names @field on @line: its
 * key (or sequence entry) on that line, else the first thing indexed on
 * it, else @field itself.
 */
static const char *path_on_line(const struct yaml_lines *yl, unsigned int line,
				const char *field)
{
	const char *first = NULL;

	for (size_t i = 0; i < yl->nr; i++) {
		const char *p = yl->v[i].path, *last = strrchr(p, '.');

		if (yl->v[i].line != line)
			continue;
		if (!strcmp(last ? last + 1 : p, field))
			return p;
		if (!first)
			first = p;
	}
	return first ? first : field;
}

/*
 * The line of the first key named @key whose full path the index holds
 * twice (the same key twice in one mapping), or 0.
 */
static unsigned int line_given_again(const struct yaml_lines *yl, const char *key)
{
	for (size_t i = 0; i < yl->nr; i++) {
		const char *p = yl->v[i].path, *last = strrchr(p, '.');

		if (strcmp(last ? last + 1 : p, key))
			continue;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(yl->v[k].path, p))
				return yl->v[i].line;
	}
	return 0;
}

/* Turn libcyaml's wording into FILE:LINE: field: problem. */
static void cy_error(const struct cy_log *log, const struct yaml_lines *yl, const char *file,
		     char *err, size_t errlen)
{
	const char *msg = log->msg[0] ? log->msg : "invalid scenario";
	const char *field = log->field[0] ? log->field : "scenario";
	unsigned int line = log->line ? log->line : 1;
	static const char unexpected[] = "Unexpected key: ";
	static const char missing[] = "Missing required mapping field: ";
	static const char seen[] = "Mapping field already seen: ";

	if (!strncmp(msg, unexpected, sizeof(unexpected) - 1)) {
		const char *key = msg + sizeof(unexpected) - 1;
		unsigned int at = yaml_lines_find_key(yl, key, line, NULL);

		snprintf(err, errlen, "%s:%u: %s: unknown field", file, at ? at : line, key);
	} else if (!strncmp(msg, missing, sizeof(missing) - 1)) {
		snprintf(err, errlen, "%s:%u: %s: missing required field", file,
			 log->have_trace ? line : 1, msg + sizeof(missing) - 1);
	} else if (!strncmp(msg, seen, sizeof(seen) - 1)) {
		/* libcyaml's line is the value before the key: name the key's second use */
		const char *key = msg + sizeof(seen) - 1;
		unsigned int again = line_given_again(yl, key);

		snprintf(err, errlen, "%s:%u: %s: given twice", file, again ? again : line, key);
	} else {
		const struct enum_words *ew = enum_words_of(field);
		const char *word = strchr(msg, '\'');
		const char *where = log->field[0] ? path_on_line(yl, line, field) : field;
		char problem[160];

		if (ew && word && !strncmp(msg, "Invalid INT value", 17))
			snprintf(problem, sizeof(problem), "unknown word %s (one of: %s)", word,
				 ew->words);
		else
			cy_problem(msg, problem, sizeof(problem));
		/* a count of entries is the list's, not its last entry's */
		if (strstr(problem, " entr") && strrchr(where, '.') &&
		    strspn(strrchr(where, '.') + 1, "0123456789") == strlen(strrchr(where, '.') + 1))
			snprintf(err, errlen, "%s:%u: %.*s: %s", file, line,
				 (int)(strrchr(where, '.') - where), where, problem);
		else
			snprintf(err, errlen, "%s:%u: %s: %s", file, line, where, problem);
	}
}

/* ---- events --------------------------------------------------------------- */

uint64_t scenario_sample_bit(const char *name)
{
	for (size_t i = 0; i < NR(sample_bits); i++)
		if (!strcmp(sample_bits[i].str, name))
			return (uint64_t)sample_bits[i].val;
	return 0;
}

uint64_t scenario_branch_bit(const char *name)
{
	for (size_t i = 0; i < NR(branch_bits); i++)
		if (!strcmp(branch_bits[i].str, name))
			return (uint64_t)branch_bits[i].val;
	return 0;
}

int scenario_parse_event(struct scn_event *ev, const char *name)
{
	char why[160];

	return scenario_parse_event_why(ev, name, why, sizeof(why));
}

int scenario_parse_event_why(struct scn_event *ev, const char *name, char *why, size_t whylen)
{
	struct parse_events_attr attr;

	if (parse_events_one(name, &attr, why, whylen))
		return -1;
	ev->type = attr.type;
	ev->config = attr.config;
	ev->exclude_kernel = attr.exclude_kernel;
	ev->exclude_user = attr.exclude_user;
	ev->precise_ip = attr.precise_ip;
	return 0;
}

/* ---- defaults and checks -------------------------------------------------- */

void scenario_wl_params(const struct scenario *s, const struct scn_task *t, struct wl_params *p)
{
	const struct scn_workload *w = t->workload;

	wl_params_default(p, w->kind);
	if (w->depth)
		p->depth = w->depth;
	if (w->leaf_loops)
		p->leaf_loops = w->leaf_loops;
	if (w->mid_loops)
		p->mid_loops = w->mid_loops;
	if (w->outer_loops)
		p->outer_loops = w->outer_loops;
	if (w->cond_set)
		p->cond_permille = w->cond_permille;
	if (w->mispredict_set)
		p->mispredict_permille = w->mispredict_permille;
	p->seed = s->seed;
}

struct checker {
	const struct scenario *s;
	const struct yaml_lines *yl;
	char *err;
	size_t errlen;
};

static int fail(struct checker *c, const char *path, const char *fmt, ...)
{
	char problem[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%u: %s: %s", c->s->file,
		 c->yl ? yaml_lines_find(c->yl, path) : 1, path, problem);
	return -1;
}

/* TSC cycles between two ticks at @hz */
static uint64_t tick_cycles(uint32_t hz)
{
	return (uint64_t)CONFIG_MODEL_TSC_KHZ * 1000 / hz;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int check(struct checker *c)
{
	const struct scenario *s = c->s;
	const struct scn_machine *m = s->machine;
	const struct model_cpu_desc *desc = model_cpu_desc_lookup(m->cpu);
	char path[64], why[160] = "";

	if (!s->duration)
		return fail(c, "duration", "must be at least 1 cycle");
	if (!desc) {
		unsigned int nr;
		const struct model_cpu_desc *t = model_cpu_desc_table(&nr);
		char names[160] = "";
		size_t len = 0;

		for (unsigned int i = 0; i < nr && len < sizeof(names); i++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						i ? ", " : "", t[i].name);
		return fail(c, "machine.cpu", "unknown CPU model '%s' (one of: %s)", m->cpu, names);
	}
	if (!m->cpus || m->cpus > CONFIG_MODEL_MAX_CPUS)
		return fail(c, "machine.cpus", "must be 1..%d (CONFIG_MODEL_MAX_CPUS)",
			    CONFIG_MODEL_MAX_CPUS);
	if (m->hz < 100 || m->hz > 10000)
		return fail(c, "machine.hz", "must be 100..10000");
	if (!m->timeslice)
		return fail(c, "machine.timeslice", "must be at least 1 cycle");
	if (!m->quantum || m->quantum > m->timeslice)
		return fail(c, "machine.quantum", "must be 1..timeslice (%llu)",
			    (unsigned long long)m->timeslice);
	/* a handler as long as a tick would leave the tasks no time at all */
	if (m->pmi_cycles >= tick_cycles(m->hz))
		return fail(c, "machine.pmi_cycles", "must be 0..%llu (less than a tick at hz %u)",
			    (unsigned long long)tick_cycles(m->hz) - 1, m->hz);
	for (uint32_t i = 0; i < s->tasks_count; i++) {
		const struct scn_task *t = &s->tasks[i];
		struct wl_params p;
		struct workload *wl;

		if (!t->count || t->count > 256) {
			snprintf(path, sizeof(path), "tasks.%u.count", i);
			return fail(c, path, "must be 1..256");
		}
		if (!t->threads || t->threads > 64) {
			snprintf(path, sizeof(path), "tasks.%u.threads", i);
			return fail(c, path, "must be 1..64");
		}
		for (uint32_t k = 0; k < t->cpus_count; k++) {
			if (t->cpus[k] >= m->cpus) {
				snprintf(path, sizeof(path), "tasks.%u.cpus.%u", i, k);
				return fail(c, path, "CPU %u is not in the machine (cpus: %u)",
					    t->cpus[k], m->cpus);
			}
		}
		scenario_wl_params(s, t, &p);
		wl = workload_build(&p);
		if (!wl) {
			snprintf(path, sizeof(path), "tasks.%u.workload", i);
			return fail(c, path, "invalid parameters (depth 1..%d, loops >= 1, "
				    "permille <= 1000; random: depth >= 2; phases: depth <= 16, "
				    "leaf_loops >= 2^(depth-1))", WL_MAX_DEPTH - 2);
		}
		workload_free(wl);
	}
	for (uint32_t i = 0; i < s->events_count; i++) {
		struct scn_event *e = &s->events[i];

		snprintf(path, sizeof(path), "events.%u.event", i);
		if (scenario_parse_event_why(e, e->event, why, sizeof(why)) &&
		    !strcmp(why, "unknown event"))
			return fail(c, path, "unknown event '%s' (" PARSE_EVENTS_NAMES ")", e->event);
		if (*why)
			return fail(c, path, "event '%s': %s", e->event, why);
		/* what x86_pmu_max_precise() finds: PEBS, the LBR's IP fixup, Haswell's precise distribution */
		if (e->precise_ip > 1u + (desc->lbr_nr > 0) + (desc->has_lbr_callstack || desc->arch_lbr))
			return fail(c, path, "%s asks precise_ip %u, CPU model '%s' takes :%.*s at most",
				    e->event, e->precise_ip, m->cpu,
				    (int)(1u + (desc->lbr_nr > 0) + (desc->has_lbr_callstack || desc->arch_lbr)),
				    "ppp");
		snprintf(path, sizeof(path), "events.%u.period", i);
		if (e->period && e->freq)
			return fail(c, path, "period and freq exclude each other");
		if (!e->period && !e->freq)
			return fail(c, path, "give a period or a freq");
		if (e->freq > CONFIG_PERF_SAMPLE_MAX_RATE) {
			snprintf(path, sizeof(path), "events.%u.freq", i);
			return fail(c, path, "above the maximum sample rate (perf_event_max_sample_rate "
				    "%d Hz)", CONFIG_PERF_SAMPLE_MAX_RATE);
		}
		if (e->period >> 63)
			return fail(c, path, "too large");
		snprintf(path, sizeof(path), "events.%u.alternative_period", i);
		if (e->alternative_period && !IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD))
			return fail(c, path, "this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD");
		if (e->alternative_period && e->freq)
			return fail(c, path, "not with freq (the RFC refuses it)");
		if (e->alternative_period >> 63)
			return fail(c, path, "too large");
		snprintf(path, sizeof(path), "events.%u.hw_time", i);
		if (e->hw_time && !IS_ENABLED(CONFIG_PERF_HW_TIME))
			return fail(c, path, "this build has no CONFIG_PERF_HW_TIME");
		if (e->call_graph == SCN_CG_LBR) {
			snprintf(path, sizeof(path), "events.%u.call_graph", i);
			if (!desc->has_lbr_callstack && !desc->arch_lbr)
				return fail(c, path, "CPU model '%s' has no LBR call-stack mode",
					    m->cpu);
		}
		if (m->cpus < 64 && e->cpu_mask >> m->cpus) {
			snprintf(path, sizeof(path), "events.%u", i);
			return fail(c, path, "a CPU of -C is not in the machine (cpus: %u)", m->cpus);
		}
		if ((e->sample_type & PERF_SAMPLE_BRANCH_STACK) && !e->branch_filter) {
			snprintf(path, sizeof(path), "events.%u.branch_filter", i);
			return fail(c, path, "branch_stack needs a branch filter");
		}
		for (uint32_t k = 0; k < i; k++) {
			const struct scn_event *o = &s->events[k];

			/*
			 * events of one scope write into one buffer per task
			 * or CPU (SET_OUTPUT), which takes one direction only
			 */
			if (o->scope != e->scope || o->write_backward == e->write_backward ||
			    (e->scope == SCN_SCOPE_SYSTEM && e->cpu_mask && o->cpu_mask &&
			     !(e->cpu_mask & o->cpu_mask)))
				continue;
			snprintf(path, sizeof(path), "events.%u.write_backward", i);
			return fail(c, path, "must be as events.%u's (%s): events of one scope share "
				    "a buffer", k, o->write_backward ? "true" : "false");
		}
	}
	if (!is_pow2(s->buffer->pages) || s->buffer->pages > 4096)
		return fail(c, "buffer.pages", "must be a power of two, 1..4096");
	if (s->buffer->watermark && s->buffer->watermark >= s->buffer->pages * 4096u)
		return fail(c, "buffer.watermark", "must be below the buffer size");
	return 0;
}

/* The checks, their message not yet escaped (scenario_load escapes it once). */
static int check_scenario(struct scenario *s, char *err, size_t errlen)
{
	struct checker c = { .s = s, .yl = s->lines, .err = err, .errlen = errlen };

	return check(&c);
}

int scenario_check(struct scenario *s, char *err, size_t errlen)
{
	if (!check_scenario(s, err, errlen))
		return 0;
	msg_escape(err, errlen);	/* the values it quotes stay on the line */
	return -1;
}

/* perf record --call-graph lbr: what it sets in the attr. */
#define LBR_CALL_GRAPH_FILTER	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK | \
				 PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES | \
				 PERF_SAMPLE_BRANCH_HW_INDEX)

/* Whether the file gave @path: a 0 written there is refused, not taken as "default". */
static bool given(const struct scenario *s, const char *path)
{
	return s->lines && yaml_lines_value(s->lines, path) != NULL;
}

static int apply_defaults(struct scenario *s)
{
	char path[64];

	if (!s->machine) {
		s->machine = calloc(1, sizeof(*s->machine));
		if (!s->machine)
			return -1;
	}
	if (!s->machine->cpu) {
		s->machine->cpu = strdup(model_cpu_desc_default()->name);
		if (!s->machine->cpu)
			return -1;
	}
	if (!s->machine->cpus && !given(s, "machine.cpus"))
		s->machine->cpus = 1;
	if (!s->machine->hz && !given(s, "machine.hz"))
		s->machine->hz = CONFIG_HZ;
	if (!s->machine->timeslice && !given(s, "machine.timeslice"))
		s->machine->timeslice = 4000000;	/* 4 ms at 1 GHz */
	if (!s->machine->quantum && !given(s, "machine.quantum"))
		s->machine->quantum = s->machine->timeslice < 100000 ? s->machine->timeslice : 100000;
	if (!s->machine->pmi_cycles && !given(s, "machine.pmi_cycles"))
		s->machine->pmi_cycles = SCN_PMI_CYCLES_DEFAULT;
	if (!s->buffer) {
		s->buffer = calloc(1, sizeof(*s->buffer));
		if (!s->buffer)
			return -1;
	}
	if (!s->buffer->pages && !given(s, "buffer.pages"))
		s->buffer->pages = 64;
	if (!s->consumer) {
		s->consumer = calloc(1, sizeof(*s->consumer));
		if (!s->consumer)
			return -1;
	}
	for (uint32_t i = 0; i < s->tasks_count; i++) {
		snprintf(path, sizeof(path), "tasks.%u.count", i);
		if (!s->tasks[i].count && !given(s, path))
			s->tasks[i].count = 1;
		snprintf(path, sizeof(path), "tasks.%u.threads", i);
		if (!s->tasks[i].threads && !given(s, path))
			s->tasks[i].threads = 1;
	}
	for (uint32_t i = 0; i < s->events_count; i++) {
		struct scn_event *e = &s->events[i];

		e->branch_sampling = e->branch_filter || (e->sample_type & PERF_SAMPLE_BRANCH_STACK);
		scenario_event_defaults(e);
	}
	return 0;
}

void scenario_event_defaults(struct scn_event *e)
{
	if (!e->sample_type)
		e->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_PERIOD;
	if (e->call_graph == SCN_CG_LBR) {
		e->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		if (!e->branch_filter)
			e->branch_filter = LBR_CALL_GRAPH_FILTER;
	}
}

/* Which optional fields were given, where 0 is a value of its own. */
static void note_given(struct scenario *s, const struct yaml_lines *yl)
{
	char path[64];

	for (uint32_t i = 0; i < s->tasks_count; i++) {
		struct scn_workload *w = s->tasks[i].workload;

		snprintf(path, sizeof(path), "tasks.%u.workload.cond_permille", i);
		w->cond_set = yaml_lines_find_key(yl, path, 0, NULL) != 0;
		snprintf(path, sizeof(path), "tasks.%u.workload.mispredict_permille", i);
		w->mispredict_set = yaml_lines_find_key(yl, path, 0, NULL) != 0;
	}
}

/*
 * What libcyaml lets through: it reads any word but a "false" one as a
 * true bool, and a negative number into an unsigned field as a huge one.
 * Both are refused here, on the line they are on.
 */
static int check_scalars(const struct yaml_lines *yl, const char *file, char *err,
			 size_t errlen)
{
	static const char *const bools[] = {
		"write_backward", "context_switch", "overwrite", "pause",
	};
	static const char *const bool_words[] = { "true", "false", "yes", "no", "on", "off" };

	for (size_t i = 0; i < yl->nr; i++) {
		const struct yaml_line *l = &yl->v[i];
		const char *key = strrchr(l->path, '.');
		bool ok = false;

		key = key ? key + 1 : l->path;
		if (!l->value[0])
			continue;
		for (size_t b = 0; b < NR(bools); b++) {
			if (strcmp(key, bools[b]))
				continue;
			for (size_t w = 0; w < NR(bool_words); w++)
				ok |= !strcasecmp(l->value, bool_words[w]);
			if (!ok) {
				snprintf(err, errlen, "%s:%u: %s: '%s' is not a boolean (true or false)",
					 file, l->line, l->path, l->value);
				return -1;
			}
		}
		if (l->value[0] == '-' && l->value[1] >= '0' && l->value[1] <= '9') {
			snprintf(err, errlen, "%s:%u: %s: must not be negative", file, l->line,
				 l->path);
			return -1;
		}
	}
	return 0;
}

/*
 * Numbers: libcyaml 1.3.1 reads an integer with strtoull and ignores what
 * follows ("4e8" loads as 4, "64k" as 64). Every integer field of the
 * schema is therefore read a second time, whole, by scn_parse_uint(): its
 * verdict is checked before libcyaml loads the file, and its value is
 * written over libcyaml's after (so "400_000_000" loads as it reads).
 */

/*
 * The schema value at indexed @path ("events.0.period"), or NULL. With
 * @data (the loaded scenario), *@addr is where the value lives.
 */
static const cyaml_schema_value_t *schema_at(const char *path, void *data, void **addr)
{
	const cyaml_schema_value_t *node = &scenario_schema;
	char buf[96], *save, *comp;
	char *base = data;

	snprintf(buf, sizeof(buf), "%s", path);
	for (comp = strtok_r(buf, ".", &save); comp; comp = strtok_r(NULL, ".", &save)) {
		if (node->type == CYAML_MAPPING) {
			const cyaml_schema_field_t *f = node->mapping.fields;

			while (f->key && strcmp(f->key, comp))
				f++;
			if (!f->key)
				return NULL;
			node = &f->value;
			if (base) {
				base += f->data_offset;
				if (node->flags & CYAML_FLAG_POINTER) {
					base = *(char **)base;
					/*
					 * loaded, as libcyaml refuses a scalar where a
					 * mapping or a list goes: nothing under it is NULL
					 */
					if (NEVER(!base))
						return NULL;
				}
			}
		} else if (node->type == CYAML_SEQUENCE) {
			char *end;
			unsigned long i = strtoul(comp, &end, 10);

			if (*end)
				return NULL;
			node = node->sequence.entry;
			if (base)
				base += i * node->data_size;
		} else {
			return NULL;
		}
	}
	if (addr)
		*addr = base;
	return node;
}

static uint64_t uint_max(const cyaml_schema_value_t *node)
{
	return node->data_size >= 8 ? UINT64_MAX : (1ULL << (node->data_size * 8)) - 1;
}

/* Every integer scalar of the file, whole: 0, or -1 and FILE:LINE: field: problem. */
static int check_numbers(const struct yaml_lines *yl, const char *file, char *err,
			 size_t errlen)
{
	for (size_t i = 0; i < yl->nr; i++) {
		const struct yaml_line *l = &yl->v[i];
		const cyaml_schema_value_t *node;
		char why[128];
		uint64_t v;

		if (l->alias) {
			snprintf(err, errlen, "%s:%u: %s: aliases (*%s) are not supported: write the "
				 "value", file, l->line, l->path, l->value);
			return -1;
		}
		if (!l->scalar)
			continue;
		node = schema_at(l->path, NULL, NULL);
		if (!node || node->type != CYAML_UINT)
			continue;
		if (scn_parse_uint(l->value, uint_max(node), &v, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%u: %s: %s", file, l->line, l->path, why);
			return -1;
		}
	}
	return 0;
}

/* Write scn_parse_uint()'s values over libcyaml's (checked: cannot fail). */
static void store_numbers(const struct yaml_lines *yl, struct scenario *s)
{
	for (size_t i = 0; i < yl->nr; i++) {
		const struct yaml_line *l = &yl->v[i];
		const cyaml_schema_value_t *node;
		void *addr = NULL;
		char why[128];
		uint64_t v;

		if (!l->scalar)
			continue;
		node = schema_at(l->path, s, &addr);
		if (!node || node->type != CYAML_UINT || !addr ||
		    scn_parse_uint(l->value, uint_max(node), &v, why, sizeof(why)))
			continue;
		switch (node->data_size) {
		case 1: *(uint8_t *)addr = (uint8_t)v; break;
		case 2: *(uint16_t *)addr = (uint16_t)v; break;
		case 4: *(uint32_t *)addr = (uint32_t)v; break;
		default: *(uint64_t *)addr = v; break;
		}
	}
}

static int load(const char *path, struct scenario **out, char *err, size_t errlen)
{
	struct cy_log log = { 0 };
	const cyaml_config_t cfg = {
		.log_fn = cy_log_fn,
		.log_ctx = &log,
		.mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_NO_ALIAS,
	};
	struct yaml_lines *yl;
	struct scenario *s = NULL;
	unsigned int line;
	char problem[160];

	*out = NULL;
	yl = calloc(1, sizeof(*yl));
	if (!yl) {
		snprintf(err, errlen, "pmusim: out of memory");
		return -1;
	}
	if (yaml_lines_index(yl, path, &line, problem, sizeof(problem))) {
		if (line)
			snprintf(err, errlen, "%s:%u: syntax: %s", path, line, problem);
		else
			snprintf(err, errlen, "pmusim: %s: %s", path, problem);
		free(yl);
		return -1;
	}
	if (check_numbers(yl, path, err, errlen) || check_scalars(yl, path, err, errlen)) {
		yaml_lines_free(yl);
		free(yl);
		return -1;
	}
	if (cyaml_load_file(path, &cfg, &scenario_schema, (cyaml_data_t **)&s, NULL) != CYAML_OK) {
		cy_error(&log, yl, path, err, errlen);
		yaml_lines_free(yl);
		free(yl);
		return -1;
	}
	/* an empty document (nothing, or only comments) loads as no data at all */
	if (!s) {
		snprintf(err, errlen, "%s:1: scenario: the file is empty (it needs duration and tasks)",
			 path);
		yaml_lines_free(yl);
		free(yl);
		return -1;
	}
	store_numbers(yl, s);
	s->lines = yl;
	s->file = strdup(path);
	if (!s->file || apply_defaults(s)) {
		snprintf(err, errlen, "pmusim: out of memory");
		scenario_free(s);
		return -1;
	}
	note_given(s, yl);
	if (check_scenario(s, err, errlen)) {
		scenario_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

int scenario_load(const char *path, struct scenario **out, char *err, size_t errlen)
{
	if (!load(path, out, err, errlen))
		return 0;
	msg_escape(err, errlen);	/* the values and keys it quotes stay on the line */
	return -1;
}

void scenario_free(struct scenario *s)
{
	static const cyaml_config_t cfg = { .mem_fn = cyaml_mem, .log_level = CYAML_LOG_ERROR,
					    .log_fn = cyaml_log };
	struct yaml_lines *yl;

	if (!s)
		return;
	yl = s->lines;
	if (yl) {
		yaml_lines_free(yl);
		free(yl);
	}
	free(s->file);
	s->file = NULL;
	s->lines = NULL;
	cyaml_free(&cfg, &scenario_schema, s, 0);
}
