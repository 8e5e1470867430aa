/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where each key of a YAML file is: a pass with libyaml before libcyaml
 * loads it, so that errors found after loading (a value out of range, an
 * unknown CPU model) still name their line. Also catches syntax errors
 * with the line libyaml saw them on.
 */
#ifndef PMUSIM_SIM_SCENARIO_LINES_H
#define PMUSIM_SIM_SCENARIO_LINES_H

#include <stddef.h>

struct yaml_line {
	char path[96];			/* "events.0.period": keys and sequence indexes */
	unsigned int line;		/* 1-based */
	char value[40];			/* the scalar value of a key or sequence entry,
					 * truncated; "" otherwise */
	unsigned char scalar;		/* the value is a scalar (value[] holds it) */
	unsigned char alias;		/* the value is an alias (value[] holds its name) */
};

struct yaml_lines {
	struct yaml_line *v;
	size_t nr, alloc;
};

/*
 * Index @path. 0, or -1 with @err set to the syntax error ("LINE: problem"
 * goes into *@line and @err) or to the I/O error (*@line 0).
 */
int yaml_lines_index(struct yaml_lines *yl, const char *path, unsigned int *line,
		     char *err, size_t errlen);
void yaml_lines_free(struct yaml_lines *yl);
/* The line of @path, else of its closest indexed parent, else 1. */
unsigned int yaml_lines_find(const struct yaml_lines *yl, const char *path);
/* The scalar value given to key @path (truncated to 39 characters), or NULL. */
const char *yaml_lines_value(const struct yaml_lines *yl, const char *path);
/* The first key named @key on or after @from_line; 0 when there is none. */
unsigned int yaml_lines_find_key(const struct yaml_lines *yl, const char *key,
				 unsigned int from_line, const char **path);

#endif /* PMUSIM_SIM_SCENARIO_LINES_H */
