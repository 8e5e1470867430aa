// SPDX-License-Identifier: GPL-2.0-only
/* perf record's -e names, for the events the model counts; see parse_events.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/pmusim/perf_event.h"
#include "tools/perf/util/parse_events.h"

static const struct {
	const char *name;
	uint64_t config;
} hw_events[] = {
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES }, { "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
	{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
};

#define MODS_TAKEN	"(u, k, p, pp, ppp)"

/* The hardware event @name (@len bytes): true, with its config in *@config. */
static bool hw_event(const char *name, size_t len, uint64_t *config)
{
	for (size_t i = 0; i < sizeof(hw_events) / sizeof(hw_events[0]); i++) {
		if (strlen(hw_events[i].name) == len && !memcmp(hw_events[i].name, name, len)) {
			*config = hw_events[i].config;
			return true;
		}
	}
	return false;
}

/* rHEX (@len bytes), 1 to 16 digits. */
static bool raw_event(const char *name, size_t len, uint64_t *config)
{
	char digits[17];

	if (len < 2 || len > 17 || name[0] != 'r')
		return false;
	memcpy(digits, name + 1, len - 1);
	digits[len - 1] = 0;
	if (strspn(digits, "0123456789abcdefABCDEF") != len - 1)
		return false;
	*config = strtoull(digits, NULL, 16);
	return true;
}

/* The modifiers @m (may be empty): u, k and up to three p, in any order. */
static int parse_mods(const char *m, struct parse_events_attr *attr, char *why, size_t whylen)
{
	bool u = false, k = false;
	unsigned int p = 0;

	for (; *m; m++) {
		switch (*m) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'p':
			if (++p > 3) {
				snprintf(why, whylen, "precise_ip goes to 3: at most ppp");
				return -1;
			}
			break;
		default:
			if (*m >= 0x21 && *m < 0x7f)
				snprintf(why, whylen, "unknown modifier '%c' " MODS_TAKEN, *m);
			else
				snprintf(why, whylen, "unknown modifier byte 0x%02x " MODS_TAKEN,
					 (unsigned char)*m);
			return -1;
		}
	}
	attr->exclude_kernel = u && !k;
	attr->exclude_user = k && !u;
	attr->precise_ip = p;
	return 0;
}

/* A number of a term: decimal or 0xHEX, at most @max. */
static bool term_number(const char *s, size_t len, uint64_t max, uint64_t *v)
{
	char buf[24], *end;

	if (!len || len >= sizeof(buf) || s[0] == '-' || s[0] == '+')
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	*v = strtoull(buf, &end, 0);
	return *end == 0 && end != buf && *v <= max;
}

/* cpu/TERMS/MODS, @str past "cpu/". */
static int parse_pmu_event(const char *str, struct parse_events_attr *attr, char *why,
			   size_t whylen)
{
	const char *close = strrchr(str, '/'), *t = str;
	bool named = false, have_event = false;
	uint64_t event = 0, umask = 0;

	if (!close) {
		snprintf(why, whylen, "no '/' closes the PMU's terms");
		return -1;
	}
	if (close == str) {
		snprintf(why, whylen, "no event between the slashes");
		return -1;
	}
	while (t < close) {
		const char *end = memchr(t, ',', (size_t)(close - t));
		const char *eq;
		size_t len;

		if (!end)
			end = close;
		len = (size_t)(end - t);
		eq = memchr(t, '=', len);
		if (!len) {
			snprintf(why, whylen, "an empty term");
			return -1;
		}
		if (!eq) {
			if (named || have_event || !hw_event(t, len, &attr->config)) {
				snprintf(why, whylen, "%s '%.*s' (cpu/cycles/, cpu/instructions/, "
					 "cpu/branches/, ..., cpu/event=N,umask=N/)",
					 named || have_event ? "a second event" : "unknown event",
					 (int)len, t);
				return -1;
			}
			named = true;
		} else if ((size_t)(eq - t) == 5 && !memcmp(t, "event", 5) && !named) {
			if (!term_number(eq + 1, (size_t)(end - eq - 1), 0xff, &event)) {
				snprintf(why, whylen, "event= takes a number up to 0xff");
				return -1;
			}
			have_event = true;
		} else if ((size_t)(eq - t) == 5 && !memcmp(t, "umask", 5) && !named) {
			if (!term_number(eq + 1, (size_t)(end - eq - 1), 0xff, &umask)) {
				snprintf(why, whylen, "umask= takes a number up to 0xff");
				return -1;
			}
		} else {
			snprintf(why, whylen, "term '%.*s' is not simulated (a hardware event's name, "
				 "or event= and umask=)", (int)len, t);
			return -1;
		}
		t = end < close ? end + 1 : close;
		if (end < close && t == close) {
			snprintf(why, whylen, "an empty term");
			return -1;
		}
	}
	if (!named && !have_event) {
		snprintf(why, whylen, "umask= without event=");
		return -1;
	}
	/* cpu/cycles/ counts what cycles does: the same legacy event */
	attr->type = named ? PERF_TYPE_HARDWARE : PERF_TYPE_RAW;
	if (!named)
		attr->config = event | umask << 8;
	return parse_mods(close + 1, attr, why, whylen);
}

int parse_events_one(const char *str, struct parse_events_attr *attr, char *why, size_t whylen)
{
	const char *slash = strchr(str, '/'), *colon;
	size_t len;

	memset(attr, 0, sizeof(*attr));
	if (slash) {
		if ((size_t)(slash - str) != 3 || memcmp(str, "cpu", 3)) {
			snprintf(why, whylen, "unknown PMU '%.*s' (the model has the core PMU, cpu/.../)",
				 (int)(slash - str) > 32 ? 32 : (int)(slash - str), str);
			return -1;
		}
		return parse_pmu_event(slash + 1, attr, why, whylen);
	}
	colon = strchr(str, ':');
	len = colon ? (size_t)(colon - str) : strlen(str);
	if (hw_event(str, len, &attr->config)) {
		attr->type = PERF_TYPE_HARDWARE;
	} else if (raw_event(str, len, &attr->config)) {
		attr->type = PERF_TYPE_RAW;
	} else {
		snprintf(why, whylen, "unknown event");
		return -1;
	}
	if (!colon)
		return 0;
	if (!colon[1]) {
		snprintf(why, whylen, "no modifier after ':' " MODS_TAKEN);
		return -1;
	}
	return parse_mods(colon + 1, attr, why, whylen);
}
