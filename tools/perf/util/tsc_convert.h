/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tsc_convert.h - user space turning raw TSC values (attr.hw_time
 * samples, rdtsc) into perf time and CLOCK_MONOTONIC_RAW using only the
 * fields of the mmap()ed user page, as a perf tool would.
 */
#ifndef PMUSIM_SIM_TSC_CONVERT_H
#define PMUSIM_SIM_TSC_CONVERT_H

#include <stdbool.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

/* One consistent copy of the page's conversion fields. */
struct tsc_conv {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	bool time_short;		/* cap_user_time_short */
	uint64_t time_cycles;
	uint64_t time_mask;
	bool mono_raw;			/* cap_user_time_mono_raw (RFC) */
	uint64_t mono_last;
	uint32_t mono_mult;
	uint32_t mono_shift;
	uint64_t mono_nsec;
	uint64_t mono_base;
};

/*
 * Copy the fields under the page's sequence count, retrying while the
 * kernel rewrites them. Returns 0, or -1 when the page does not offer
 * cap_user_time_zero (no conversion possible).
 */
int tsc_conv_read(const struct perf_event_mmap_page *pg, struct tsc_conv *conv);

/* A TSC register value as the full count (cap_user_time_short). */
uint64_t tsc_conv_widen(const struct tsc_conv *conv, uint64_t cyc);
/* TSC register value -> perf time (the event's sample clock), ns. */
uint64_t tsc_conv_to_perf_time(const struct tsc_conv *conv, uint64_t cyc);
/* Perf time -> the TSC count at that time (the page's reverse formula). */
uint64_t tsc_conv_from_perf_time(const struct tsc_conv *conv, uint64_t ns);
/*
 * TSC register value -> CLOCK_MONOTONIC_RAW ns; the value must not
 * precede the page's time_mono_last. 0 without mono_raw.
 */
uint64_t tsc_conv_to_mono_raw(const struct tsc_conv *conv, uint64_t cyc);

#endif /* PMUSIM_SIM_TSC_CONVERT_H */
