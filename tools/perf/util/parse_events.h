/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An event as perf record's -e names it (perf's parse-events), for the
 * events the model counts:
 *
 *   NAME[:MODS]          cycles, cpu-cycles, instructions, branches,
 *                        branch-instructions, branch-misses, ref-cycles
 *   rHEX[:MODS]          a raw event: the EVENTSEL bits, up to 16 digits
 *   cpu/TERMS/[MODS]     the core PMU's own syntax: TERMS a NAME above, or
 *                        event=N and umask=N (a raw event), comma-separated
 *
 * MODS: u (user only), k (kernel only), p, pp, ppp (precise_ip 1..3),
 * in any order. Anything else is refused with the reason.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_PARSE_EVENTS_H
#define PMUSIM_TOOLS_PERF_UTIL_PARSE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The attr fields an event name sets. */
struct parse_events_attr {
	uint32_t type;			/* PERF_TYPE_HARDWARE or PERF_TYPE_RAW */
	uint64_t config;
	bool exclude_user, exclude_kernel;
	unsigned int precise_ip;	/* 0..3 */
};

/*
 * Parse @str. 0, or -1 with @why, a phrase without the event's name
 * ("unknown event", "unknown modifier 'h' (u, k, p, pp, ppp)", ...).
 */
int parse_events_one(const char *str, struct parse_events_attr *attr, char *why, size_t whylen);

/* What the refusals list as the names taken, for a message. */
#define PARSE_EVENTS_NAMES						\
	"cycles, instructions, branches, branch-misses, ref-cycles, rHEX, cpu/NAME/; " \
	":u :k :p :pp :ppp"

#endif /* PMUSIM_TOOLS_PERF_UTIL_PARSE_EVENTS_H */
