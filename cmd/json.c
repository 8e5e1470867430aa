// SPDX-License-Identifier: GPL-2.0-only
/* The JSON emitter; see json.h. */
#include "cmd/json.h"
#include "core/testcase.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* The comma, the indentation and the key of the next member. */
static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	/* pmusim's summaries nest 4 deep at most: the summary, call_stack_depth, tasks, a task */
	if (ALWAYS(j->depth + 1 < JSON_MAX_NEST))
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	/* every close has its open: its callers write each object and array whole */
	if (ALWAYS(j->depth))
		j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_object_begin(struct json *j, const char *key) { open(j, key, '{'); }
void json_object_end(struct json *j) { close_(j, '}'); }
void json_array_begin(struct json *j, const char *key) { open(j, key, '['); }
void json_array_end(struct json *j) { close_(j, ']'); }

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_double(struct json *j, const char *key, double v)
{
	member(j, key);
	fprintf(j->f, "%.6g", v);
}

void json_string(struct json *j, const char *key, const char *s)
{
	member(j, key);
	put_string(j->f, s);
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}
