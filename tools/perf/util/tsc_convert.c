// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsc_convert.c - raw TSC to perf time and monotonic raw time from the
 * user page alone (see tsc_convert.h). Plain 64-bit arithmetic, as a
 * tool would do it; the kernel sized mult and shift so it cannot
 * overflow.
 */
#include "tsc_convert.h"

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)

int tsc_conv_read(const struct perf_event_mmap_page *pg, struct tsc_conv *conv)
{
	uint32_t seq;
	bool ok;

	do {
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		ok = pg->cap_user_time_zero;
		conv->time_shift = LOAD(pg->time_shift);
		conv->time_mult = LOAD(pg->time_mult);
		conv->time_zero = LOAD(pg->time_zero);
		conv->time_short = pg->cap_user_time_short;
		conv->time_cycles = LOAD(pg->time_cycles);
		conv->time_mask = LOAD(pg->time_mask);
		conv->mono_raw = false;
#ifdef CONFIG_PERF_HW_TIME
		conv->mono_raw = pg->cap_user_time_mono_raw;
		conv->mono_last = LOAD(pg->time_mono_last);
		conv->mono_mult = LOAD(pg->time_mono_mult);
		conv->mono_shift = LOAD(pg->time_mono_shift);
		conv->mono_nsec = LOAD(pg->time_mono_nsec);
		conv->mono_base = LOAD(pg->time_mono_base);
#endif
		/* Order the field loads before the second look at lock. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || LOAD(pg->lock) != seq);

	return ok ? 0 : -1;
}

uint64_t tsc_conv_widen(const struct tsc_conv *conv, uint64_t cyc)
{
	if (conv->time_short)
		cyc = conv->time_cycles + ((cyc - conv->time_cycles) & conv->time_mask);
	return cyc;
}

uint64_t tsc_conv_to_perf_time(const struct tsc_conv *conv, uint64_t cyc)
{
	uint64_t quot, rem;

	cyc = tsc_conv_widen(conv, cyc);
	quot = cyc >> conv->time_shift;
	rem = cyc & (((uint64_t)1 << conv->time_shift) - 1);
	return conv->time_zero + quot * conv->time_mult +
	       ((rem * conv->time_mult) >> conv->time_shift);
}

uint64_t tsc_conv_from_perf_time(const struct tsc_conv *conv, uint64_t ns)
{
	uint64_t time = ns - conv->time_zero;
	uint64_t quot = time / conv->time_mult;
	uint64_t rem = time % conv->time_mult;

	return (quot << conv->time_shift) + (rem << conv->time_shift) / conv->time_mult;
}

uint64_t tsc_conv_to_mono_raw(const struct tsc_conv *conv, uint64_t cyc)
{
	if (!conv->mono_raw)
		return 0;
	cyc = tsc_conv_widen(conv, cyc);
	return conv->mono_base +
	       (((cyc - conv->mono_last) * conv->mono_mult + conv->mono_nsec) >>
		conv->mono_shift);
}
