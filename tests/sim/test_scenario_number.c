// SPDX-License-Identifier: GPL-2.0-only
/*
 * scn_parse_uint(), the one number parser of scenario fields and options:
 * what it takes (digits, 0xHEX in either case, single underscores between
 * digits, up to the field's maximum) and each reason it refuses the rest.
 */
#include <string.h>

#include "tests/test.h"
#include "sim/scenario_number.h"

static void taken(const char *s, uint64_t max, uint64_t want)
{
	char why[128] = "";
	uint64_t v = 12345;

	if (scn_parse_uint(s, max, &v, why, sizeof(why)) || v != want)
		fail_msg("'%s': got %llu (%s), want %llu", s, (unsigned long long)v, why,
			 (unsigned long long)want);
}

static void refused(const char *s, uint64_t max, const char *reason)
{
	char why[160] = "";
	uint64_t v = 12345;

	if (!scn_parse_uint(s, max, &v, why, sizeof(why)))
		fail_msg("'%s' was taken as %llu", s, (unsigned long long)v);
	if (!strstr(why, reason))
		fail_msg("'%s': '%s', want '%s'", s, why, reason);
	assert_true(v == 12345);	/* *v untouched */
}

static void numbers_taken(void **state)
{
	(void)state;
	taken("0", UINT64_MAX, 0);
	taken("400_000_000", UINT64_MAX, 400000000);
	taken("0x1c4", UINT64_MAX, 0x1c4);
	taken("0XABCdef", UINT64_MAX, 0xabcdef);
	taken("0x1_F", UINT64_MAX, 0x1f);
	taken("0x1e", UINT64_MAX, 0x1e);		/* hex digits, not an exponent */
	taken("18446744073709551615", UINT64_MAX, UINT64_MAX);
	taken("0xffffffffffffffff", UINT64_MAX, UINT64_MAX);
	taken("255", 255, 255);
}

static void numbers_refused(void **state)
{
	(void)state;
	refused("", UINT64_MAX, "expects a number, got nothing");
	refused("-1", UINT64_MAX, "must not be negative");
	refused("+1", UINT64_MAX, "'+' is not part of a number here");
	refused("010", UINT64_MAX, "'010' has a leading zero");
	refused("4e8", UINT64_MAX, "'4e8' is not an integer");
	refused("4E8", UINT64_MAX, "is not an integer");
	refused("1000.5", UINT64_MAX, "is not an integer");
	refused("64k", UINT64_MAX, "'64k': no unit suffixes");
	refused("2G", UINT64_MAX, "no unit suffixes");
	refused("64kb", UINT64_MAX, "'64kb' is not a number");
	refused("0x", UINT64_MAX, "'0x' is not a number");
	refused("0xg", UINT64_MAX, "is not a number");
	refused("0x5k", UINT64_MAX, "'0x5k' is not a number");	/* a suffix is decimal's */
	refused("0x1.5", UINT64_MAX, "'0x1.5' is not a number");
	refused("_1", UINT64_MAX, "is not a number");
	refused("1_", UINT64_MAX, "is not a number");
	refused("1__0", UINT64_MAX, "is not a number");
	refused("e5", UINT64_MAX, "is not a number");
	refused("18446744073709551616", UINT64_MAX, "18446744073709551616 is too large (at most "
		"18446744073709551615)");
	refused("0x1_0000_0000_0000_0000", UINT64_MAX, "is too large");
	refused("256", 255, "256 is too large (at most 255)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_taken),
		cmocka_unit_test(numbers_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
