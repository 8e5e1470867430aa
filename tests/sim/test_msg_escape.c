// SPDX-License-Identifier: GPL-2.0-only
/*
 * Error messages stay on one line: msg_escape() turns every control byte
 * into an escape and cuts a message the escapes make too long before the
 * escape that does not fit; scenario_load() and scenario_check() quote a
 * value with a newline in it (a YAML plain scalar over two lines, a
 * quoted "\n") escaped, once (fuzz/crashes/parsers/error-two-lines-*).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "sim/msg_escape.h"
#include "sim/scenario.h"

static void escaped(const char *in, size_t size, const char *want)
{
	char buf[64];

	assert_true(strlen(in) < sizeof(buf) && size <= sizeof(buf));
	memset(buf, 'Z', sizeof(buf));
	strcpy(buf, in);
	msg_escape(buf, size);
	assert_string_equal(buf, want);
	/* nothing written past SIZE */
	for (size_t i = size; i < sizeof(buf) && i > strlen(in); i++)
		assert_int_equal(buf[i], 'Z');
}

static void control_bytes_become_escapes(void **state)
{
	(void)state;
	escaped("plain text, 'quoted' and \xc3\xa9", 64, "plain text, 'quoted' and \xc3\xa9");
	escaped("a\nb", 64, "a\\nb");
	escaped("\r\t\\", 64, "\\r\\t\\\\");
	escaped("esc\x1b[0m del\x7f", 64, "esc\\x1b[0m del\\x7f");
	escaped("\n", 64, "\\n");
	escaped("", 64, "");
	/* a buffer of no bytes: nothing read, nothing written */
	escaped("a\nb", 0, "a\nb");
}

static void a_long_message_is_cut_before_an_escape(void **state)
{
	(void)state;
	/* 8 bytes: room for 7 characters */
	escaped("abcde\nf", 8, "abcde\\n");
	escaped("abcdef\ng", 8, "abcdef");
	escaped("abcd\x01", 8, "abcd");
	escaped("abc\x01", 8, "abc\\x01");
	/* not terminated within SIZE: taken as SIZE - 1 bytes */
	escaped("abcdefghij", 5, "abcd");
	escaped("x", 1, "");
}

static char path[64];

static void write_file(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/pmusim-esc-%d.yaml", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* TEXT is refused with a message that holds WANT and no control byte. */
static void refused_on_one_line(const char *text, const char *want)
{
	struct scenario *s = (struct scenario *)1;
	char err[512];

	write_file(text);
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), -1);
	unlink(path);
	assert_null(s);
	for (const char *p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fail_msg("control byte %#x in '%s'", (unsigned char)*p, err);
	if (strncmp(err, path, strlen(path)) || !strstr(err, want))
		fail_msg("got '%s', want '%s: ...%s...'", err, path, want);
}

#define TASKS_ONLY "tasks:\n  - name: a\n    workload: {kind: tchain, depth: 3}\n"
#define TASKS "duration: 1000\n" TASKS_ONLY

static void scenario_values_with_newlines_are_escaped(void **state)
{
	(void)state;
	/* a plain scalar over several lines: its blank lines are newlines */
	refused_on_one_line(TASKS "events:\n  - event: cycles\n\n\n      :u\n    period: 100\n",
			    "unknown event 'cycles\\n\\n:u'");
	refused_on_one_line(TASKS "events:\n  - event: \"cyc\\tles\\x01\"\n    period: 100\n",
			    "unknown event 'cyc\\tles\\x01'");
	refused_on_one_line("duration: 1000\nmachine:\n  cpu: \"has\\\\well\\n\"\n" TASKS_ONLY,
			    "unknown CPU model 'has\\\\well\\n'");
	refused_on_one_line(TASKS "events:\n  - event: cycles\n    period: 100\n"
			    "buffer:\n  overwrite: \"true\\nx\"\n",
			    "'true\\nx' is not a boolean");
	/* libcyaml's own messages, a key or a word with a newline */
	refused_on_one_line(TASKS "\"dura\\ntion\": 5\n", "dura\\ntion");
	refused_on_one_line(TASKS "events:\n  - event: cycles\n    period: 100\n"
			    "    scope: \"sys\\ntem\"\n", "sys\\ntem");
}

/* After command-line overrides: the same checks, the same escapes. */
static void scenario_check_escapes_an_override(void **state)
{
	struct scenario *s = NULL;
	char err[256], *old;

	(void)state;
	write_file(TASKS "events:\n  - event: cycles\n    period: 100\n");
	assert_int_equal(scenario_load(path, &s, err, sizeof(err)), 0);
	unlink(path);
	old = s->events[0].event;
	s->events[0].event = (char *)"cycles\n:k";
	assert_int_equal(scenario_check(s, err, sizeof(err)), -1);
	s->events[0].event = old;
	scenario_free(s);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "unknown event 'cycles\\n:k'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(control_bytes_become_escapes),
		cmocka_unit_test(a_long_message_is_cut_before_an_escape),
		cmocka_unit_test(scenario_values_with_newlines_are_escaped),
		cmocka_unit_test(scenario_check_escapes_an_override),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
