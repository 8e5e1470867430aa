/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small JSON emitter: objects, arrays, numbers and strings, written
 * straight to a stream with the commas and escapes done right.
 */
#ifndef PMUSIM_SIM_JSON_H
#define PMUSIM_SIM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_NEST 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_NEST];	/* nothing written yet at this level */
};

void json_init(struct json *j, FILE *f);
/* key is NULL inside arrays and at the top. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_double(struct json *j, const char *key, double v);
void json_string(struct json *j, const char *key, const char *s);
void json_bool(struct json *j, const char *key, bool v);

#endif /* PMUSIM_SIM_JSON_H */
