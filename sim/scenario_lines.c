// SPDX-License-Identifier: GPL-2.0-only
/* The key -> line index of a YAML file; see scenario_lines.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "sim/scenario_lines.h"

#define MAX_NEST 32

struct nest {
	bool mapping;
	bool want_key;			/* mapping: the next scalar is a key */
	unsigned int index;		/* sequence: the next entry's index */
	size_t path_len;		/* path length before this level's component */
};

static int add(struct yaml_lines *yl, const char *path, unsigned int line)
{
	if (yl->nr == yl->alloc) {
		size_t n = yl->alloc ? 2 * yl->alloc : 64;
		struct yaml_line *v = realloc(yl->v, n * sizeof(*v));

		if (!v)
			return -1;
		yl->v = v;
		yl->alloc = n;
	}
	snprintf(yl->v[yl->nr].path, sizeof(yl->v[yl->nr].path), "%s", path);
	yl->v[yl->nr].value[0] = 0;
	yl->v[yl->nr].scalar = 0;
	yl->v[yl->nr].alias = 0;
	yl->v[yl->nr++].line = line;
	return 0;
}

/* Append ".comp" (no dot at the root) to path, truncating silently. */
static void push_comp(char *path, size_t size, const char *comp)
{
	size_t len = strlen(path);

	snprintf(path + len, size - len, "%s%s", len ? "." : "", comp);
}

/* A value (scalar, mapping or sequence) starts in the current container. */
static void value_start(struct nest *top, char *path, size_t size, char *key)
{
	if (!top)
		return;
	if (top->mapping) {
		top->want_key = true;
		push_comp(path, size, key);
	} else {
		char idx[16];

		snprintf(idx, sizeof(idx), "%u", top->index++);
		push_comp(path, size, idx);
	}
}

/*
 * A leaf value (a scalar, or an alias standing for one) at LINE: the
 * entry of a sequence item is added here, a mapping value's was added
 * with its key. 0, or -1 out of memory.
 */
static int add_leaf(struct yaml_lines *yl, struct nest *top, char *path, size_t size,
		    char *key, unsigned int line, const char *text, bool alias)
{
	value_start(top, path, size, key);
	if (top && !top->mapping && add(yl, path, line))
		return -1;
	if (top && yl->nr) {
		struct yaml_line *l = &yl->v[yl->nr - 1];

		snprintf(l->value, sizeof(l->value), "%s", text);
		l->scalar = !alias;
		l->alias = alias;
	}
	return 0;
}

int yaml_lines_index(struct yaml_lines *yl, const char *file, unsigned int *line,
		     char *err, size_t errlen)
{
	struct nest nest[MAX_NEST];
	int depth = 0, ret = -1;
	char path[256] = "", key[96] = "";
	yaml_parser_t parser;
	yaml_event_t ev;
	bool done = false;
	FILE *f;

	memset(yl, 0, sizeof(*yl));
	*line = 0;
	f = fopen(file, "r");
	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	/*
	 * A parser that could not allocate its buffers hands out empty events
	 * for ever, never the end of the stream: refuse it here.
	 */
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	yaml_parser_set_input_file(&parser, f);
	while (!done) {
		struct nest *top = depth ? &nest[depth - 1] : NULL;
		size_t before = strlen(path);

		if (!yaml_parser_parse(&parser, &ev)) {
			*line = (unsigned int)parser.problem_mark.line + 1;
			snprintf(err, errlen, "%s", parser.problem ? parser.problem : "syntax error");
			goto out;
		}
		switch (ev.type) {
		case YAML_SCALAR_EVENT:
			if (top && top->mapping && top->want_key) {
				snprintf(key, sizeof(key), "%s", (const char *)ev.data.scalar.value);
				top->want_key = false;
				push_comp(path, sizeof(path), key);
				if (add(yl, path, (unsigned int)ev.start_mark.line + 1))
					goto nomem;
				path[before] = 0;
				break;
			}
			/* a key's value: its entry was added with the key, just before */
			if (add_leaf(yl, top, path, sizeof(path), key, (unsigned int)ev.start_mark.line + 1,
				     (const char *)ev.data.scalar.value, false))
				goto nomem;
			path[before] = 0;
			break;
		case YAML_ALIAS_EVENT:
			/* a value like a scalar's, but none to show (libcyaml refuses aliases) */
			if (top && top->mapping && top->want_key) {
				*line = (unsigned int)ev.start_mark.line + 1;
				snprintf(err, errlen, "an alias as a key");
				yaml_event_delete(&ev);
				goto out;
			}
			if (add_leaf(yl, top, path, sizeof(path), key, (unsigned int)ev.start_mark.line + 1,
				     (const char *)ev.data.alias.anchor, true))
				goto nomem;
			path[before] = 0;
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (depth == MAX_NEST) {
				*line = (unsigned int)ev.start_mark.line + 1;
				snprintf(err, errlen, "nested too deep");
				yaml_event_delete(&ev);
				goto out;
			}
			value_start(top, path, sizeof(path), key);
			if (top && !top->mapping &&
			    add(yl, path, (unsigned int)ev.start_mark.line + 1))
				goto nomem;
			nest[depth++] = (struct nest){
				.mapping = ev.type == YAML_MAPPING_START_EVENT,
				.want_key = true,
				.path_len = before,
			};
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			path[nest[depth].path_len] = 0;
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	ret = 0;
	goto out;
nomem:
	yaml_event_delete(&ev);
	snprintf(err, errlen, "out of memory");
out:
	yaml_parser_delete(&parser);
	fclose(f);
	if (ret)
		yaml_lines_free(yl);
	return ret;
}

void yaml_lines_free(struct yaml_lines *yl)
{
	free(yl->v);
	memset(yl, 0, sizeof(*yl));
}

unsigned int yaml_lines_find(const struct yaml_lines *yl, const char *path)
{
	char p[96];

	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		char *dot;

		for (size_t i = 0; i < yl->nr; i++)
			if (!strcmp(yl->v[i].path, p))
				return yl->v[i].line;
		dot = strrchr(p, '.');
		if (!dot)
			return 1;
		*dot = 0;
	}
}

const char *yaml_lines_value(const struct yaml_lines *yl, const char *path)
{
	for (size_t i = 0; i < yl->nr; i++)
		if (!strcmp(yl->v[i].path, path))
			return yl->v[i].value;
	return NULL;
}

unsigned int yaml_lines_find_key(const struct yaml_lines *yl, const char *key,
				 unsigned int from_line, const char **path)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < yl->nr; i++) {
		const char *p = yl->v[i].path;
		size_t plen = strlen(p);

		if (yl->v[i].line < from_line || plen < klen || strcmp(p + plen - klen, key) ||
		    (plen > klen && p[plen - klen - 1] != '.'))
			continue;
		if (path)
			*path = p;
		return yl->v[i].line;
	}
	return 0;
}
