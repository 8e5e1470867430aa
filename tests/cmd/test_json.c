// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/json.c, the emitter behind run --json and record --json, byte for
 * byte: string escapes (quote, backslash, every control character as
 * \u00XX, DEL and UTF-8 passed through), keys escaped alike, commas and
 * indentation of nested objects and arrays, empty ones, numbers at their
 * limits and booleans.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "cmd/json.h"

struct buf {
	char *text;
	size_t len;
	FILE *f;
};

static void buf_open(struct buf *b, struct json *j)
{
	b->text = NULL;
	b->len = 0;
	b->f = open_memstream(&b->text, &b->len);
	assert_non_null(b->f);
	json_init(j, b->f);
}

/* What was written, compared whole with @want (which may hold NUL-free text only). */
static void buf_check(struct buf *b, const char *want)
{
	assert_int_equal(fclose(b->f), 0);
	assert_string_equal(b->text, want);
	assert_int_equal(b->len, strlen(want));
	free(b->text);
}

static void test_string_escapes(void **state)
{
	struct json j;
	struct buf b;

	(void)state;
	buf_open(&b, &j);
	json_object_begin(&j, NULL);
	json_string(&j, "quote", "say \"hi\"");
	json_string(&j, "backslash", "C:\\dir\\");
	json_string(&j, "controls", "\x01\b\t\n\f\r\x1b\x1f");
	/* the first character not escaped, DEL (JSON leaves it alone) and UTF-8 */
	json_string(&j, "plain", " ~\x7f" "caf\xc3\xa9 \xe2\x82\xac");
	json_string(&j, "empty", "");
	json_object_end(&j);
	buf_check(&b, "{\n"
		  "  \"quote\": \"say \\\"hi\\\"\",\n"
		  "  \"backslash\": \"C:\\\\dir\\\\\",\n"
		  "  \"controls\": \"\\u0001\\u0008\\u0009\\u000a\\u000c\\u000d\\u001b\\u001f\",\n"
		  "  \"plain\": \" ~\x7f" "caf\xc3\xa9 \xe2\x82\xac\",\n"
		  "  \"empty\": \"\"\n"
		  "}\n");
}

static void test_key_escapes(void **state)
{
	struct json j;
	struct buf b;

	(void)state;
	buf_open(&b, &j);
	json_object_begin(&j, NULL);
	json_bool(&j, "a\"b\\c\n", true);
	json_object_end(&j);
	buf_check(&b, "{\n  \"a\\\"b\\\\c\\u000a\": true\n}\n");
}

/* Every control character, one by one, and the byte after them. */
static void test_every_control(void **state)
{
	char s[2] = { 0 }, want[16];
	struct json j;
	struct buf b;

	(void)state;
	for (int c = 1; c <= 0x20; c++) {
		s[0] = (char)c;
		buf_open(&b, &j);
		json_array_begin(&j, NULL);
		json_string(&j, NULL, s);
		json_array_end(&j);
		if (c == 0x20)
			snprintf(want, sizeof(want), "[\n  \" \"\n]\n");
		else
			snprintf(want, sizeof(want), "[\n  \"\\u%04x\"\n]\n", c);
		buf_check(&b, want);
	}
}

static void test_nesting(void **state)
{
	struct json j;
	struct buf b;

	(void)state;
	buf_open(&b, &j);
	json_object_begin(&j, NULL);
	json_u64(&j, "n", 0);
	json_object_begin(&j, "empty_object");
	json_object_end(&j);
	json_array_begin(&j, "empty_array");
	json_array_end(&j);
	json_array_begin(&j, "list");
	json_object_begin(&j, NULL);
	json_u64(&j, "max", UINT64_MAX);
	json_bool(&j, "no", false);
	json_object_end(&j);
	json_array_begin(&j, NULL);
	json_u64(&j, NULL, 1);
	json_u64(&j, NULL, 2);
	json_array_end(&j);
	json_array_end(&j);
	json_double(&j, "third", 1.0 / 3.0);
	json_double(&j, "big", 1e20);
	json_double(&j, "zero", 0.0);
	json_object_end(&j);
	buf_check(&b, "{\n"
		  "  \"n\": 0,\n"
		  "  \"empty_object\": {},\n"
		  "  \"empty_array\": [],\n"
		  "  \"list\": [\n"
		  "    {\n"
		  "      \"max\": 18446744073709551615,\n"
		  "      \"no\": false\n"
		  "    },\n"
		  "    [\n"
		  "      1,\n"
		  "      2\n"
		  "    ]\n"
		  "  ],\n"
		  "  \"third\": 0.333333,\n"
		  "  \"big\": 1e+20,\n"
		  "  \"zero\": 0\n"
		  "}\n");
}

/* An empty document, then a second one on the same emitter: each ends its line. */
static void test_top_level(void **state)
{
	struct json j;
	struct buf b;

	(void)state;
	buf_open(&b, &j);
	json_object_begin(&j, NULL);
	json_object_end(&j);
	json_init(&j, b.f);
	json_array_begin(&j, NULL);
	json_string(&j, NULL, "x");
	json_array_end(&j);
	buf_check(&b, "{}\n[\n  \"x\"\n]\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_key_escapes),
		cmocka_unit_test(test_every_control),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_top_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
