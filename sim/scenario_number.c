// SPDX-License-Identifier: GPL-2.0-only
/* Strict unsigned integers for scenario fields and options; see scenario_number.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sim/scenario_number.h"

static int digit_value(char c, unsigned int base)
{
	int d = c >= '0' && c <= '9' ? c - '0' :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

	return d >= 0 && (unsigned int)d < base ? d : -1;
}

int scn_parse_uint(const char *s, uint64_t max, uint64_t *v, char *why, size_t whylen)
{
	const char *p = s;
	unsigned int base = 10;
	bool last_digit = false, too_large = false;
	uint64_t n = 0;

	if (!*s) {
		snprintf(why, whylen, "expects a number, got nothing");
		return -1;
	}
	if (*p == '-' || *p == '+') {
		snprintf(why, whylen, "%s", *p == '-' ? "must not be negative" :
			 "'+' is not part of a number here");
		return -1;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && p[1] >= '0' && p[1] <= '9') {
		snprintf(why, whylen, "'%s' has a leading zero (octal or decimal? write it without)",
			 s);
		return -1;
	}
	for (; *p; p++) {
		int d = digit_value(*p, base);

		if (*p == '_' && last_digit && digit_value(p[1], base) >= 0) {
			last_digit = false;
			continue;
		}
		if (d < 0)
			break;
		if (n > (UINT64_MAX - (uint64_t)d) / base)
			too_large = true;
		n = n * base + (uint64_t)d;
		last_digit = true;
	}
	if (!last_digit || *p) {
		if (base == 10 && last_digit && (*p == 'e' || *p == 'E' || *p == '.'))
			snprintf(why, whylen, "'%s' is not an integer (write the digits in full, "
				 "400000000 or 400_000_000)", s);
		else if (base == 10 && last_digit && strchr("kKmMgG", *p) && !p[1])
			snprintf(why, whylen, "'%s': no unit suffixes (write the number in full)", s);
		else
			snprintf(why, whylen, "'%s' is not a number (digits, 0xHEX, _ between digits)",
				 s);
		return -1;
	}
	if (too_large || n > max) {
		snprintf(why, whylen, "%s is too large (at most %llu)", s, (unsigned long long)max);
		return -1;
	}
	*v = n;
	return 0;
}
