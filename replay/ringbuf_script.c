// SPDX-License-Identifier: GPL-2.0-only
/* The parser of `pmusim ringbuf` scripts (replay/ringbuf_script.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/testcase.h"
#include "replay/ringbuf_script.h"

/* A decimal number with no sign and nothing after it, at most @max. */
static bool parse_number(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	/* split() never yields an empty word: no caller passes "" */
	if (NEVER(!*s))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (max - (unsigned long)(*s - '0')) / 10)
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*out = v;
	return true;
}

#define MAX_WORDS 4

/* Split @line in place; returns the number of words, MAX_WORDS if more. */
static int split(char *line, char **words)
{
	int n = 0;
	char *save;

	for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == MAX_WORDS)
			return MAX_WORDS;
		words[n++] = w;
	}
	return n;
}

/* Parse one line's words into @op; on error returns the problem. */
static const char *parse_op(struct ringbuf_op *op, char **w, int n, bool can_read)
{
	unsigned long v;

	if (!strcmp(w[0], "write")) {
		op->kind = RINGBUF_OP_WRITE;
		if (n < 2)
			return "write needs a SIZE";
		if (n > 3)
			return "write takes SIZE [COUNT]";
		if (!parse_number(w[1], RINGBUF_SIZE_MAX, &v) || v < RINGBUF_SIZE_MIN)
			return "write SIZE must be a number from 16 to 65528";
		if (v % 8)
			return "write SIZE must be a multiple of 8";
		op->size = (unsigned int)v;
		op->count = 1;
		if (n == 3 && (!parse_number(w[2], RINGBUF_COUNT_MAX, &op->count) || !op->count))
			return "write COUNT must be a number from 1 to 1000000";
		return NULL;
	}
	if (!strcmp(w[0], "read")) {
		op->kind = RINGBUF_OP_READ;
		if (!can_read)
			return "read needs a forward, writable buffer (no --overwrite, no --backward): only it has a data_tail to move";
		if (n > 2)
			return "read takes [N]";
		op->count = 0;
		if (n == 2 && (!parse_number(w[1], RINGBUF_COUNT_MAX, &op->count) || !op->count))
			return "read N must be a number from 1 to 1000000";
		return NULL;
	}
	if (!strcmp(w[0], "pause"))
		op->kind = RINGBUF_OP_PAUSE;
	else if (!strcmp(w[0], "resume"))
		op->kind = RINGBUF_OP_RESUME;
	else if (!strcmp(w[0], "dump"))
		op->kind = RINGBUF_OP_DUMP;
	else
		return "unknown operation";
	if (n > 1)
		return "this operation takes no arguments";
	return NULL;
}

int ringbuf_script__parse(struct ringbuf_script *script, const char *path, bool can_read)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	unsigned int lineno = 0;
	int ret = 0;

	memset(script, 0, sizeof(*script));
	if (!f) {
		fprintf(stderr, "pmusim ringbuf: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (ssize_t len; (len = getline(&line, &cap, f)) >= 0;) {
		char *words[MAX_WORDS], *hash;
		struct ringbuf_op op = { .line = ++lineno };
		const char *problem;
		int n;

		if (strlen(line) != (size_t)len) {
			fprintf(stderr, "%s:%u: a NUL byte in the line\n", path, lineno);
			ret = -1;
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		n = split(line, words);
		if (!n)
			continue;
		problem = parse_op(&op, words, n, can_read);
		if (problem) {
			fprintf(stderr, "%s:%u: %s: %s\n", path, lineno, words[0], problem);
			ret = -1;
			break;
		}
		if (script->nr_ops == alloc) {
			size_t want = alloc ? alloc * 2 : 16;
			struct ringbuf_op *ops = realloc(script->ops, want * sizeof(*ops));

			if (!ops) {
				fprintf(stderr, "%s:%u: out of memory\n", path, lineno);
				ret = -1;
				break;
			}
			script->ops = ops;
			alloc = want;
		}
		script->ops[script->nr_ops++] = op;
	}
	if (!ret && ferror(f)) {
		fprintf(stderr, "%s:%u: %s\n", path, lineno + 1, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	if (ret)
		ringbuf_script__exit(script);
	return ret;
}

void ringbuf_script__exit(struct ringbuf_script *script)
{
	free(script->ops);
	script->ops = NULL;
	script->nr_ops = 0;
}
