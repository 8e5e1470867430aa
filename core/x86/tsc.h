/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tsc.h - the model's time stamp counter and the clocks derived from it
 * (arch/x86/kernel/tsc.c's cyc2ns, and the timekeeper's raw clock for
 * the RFC's CLOCK_MONOTONIC_RAW conversion).
 *
 * The relation is defined once, here, in integers:
 *
 *   perf time   ns(c)  = floor(c * mul / 2^shift) - floor(c0 * mul / 2^shift)
 *   mono raw    raw(c) = raw_at_c0 + floor((c - c0) * raw_mult / 2^raw_shift)
 *
 * with c the TSC count (never wrapped; the register shows its low
 * tsc_bits bits) and c0 the count at perf time 0. As in the kernel, perf
 * time is what cyc2ns makes of the TSC, so the TSC runs at tsc_khz as
 * closely as a 32-bit multiplier can say; the user page publishes exactly
 * these constants, which is why user space can convert without drift.
 */
#ifndef PMUSIM_CORE_X86_TSC_H
#define PMUSIM_CORE_X86_TSC_H

#include "core/kernel.h"

struct cyc2ns_data {
	u32 cyc2ns_mul;
	u32 cyc2ns_shift;
	u64 cyc2ns_offset;	/* ns(c) = offset + c * mul >> shift, mod 2^64 */
};

/*
 * The timekeeper's raw clock as it stood at its last tick: the state the
 * RFC copies into time_mono_*.
 */
struct mono_raw_snapshot {
	u64 cycle_last;		/* TSC count of the last tick */
	u32 mult;
	u32 shift;
	u64 xtime_nsec;		/* sub-second ns at cycle_last, << shift */
	u64 base;		/* whole seconds at cycle_last, in ns */
};

struct model_clock {
	u32 tsc_khz;
	u32 tsc_bits;		/* width of the TSC register, 64 by default */
	u64 tsc_at_zero;	/* c0: the TSC count at perf time 0 */
	struct cyc2ns_data cyc2ns;
	u32 raw_mult, raw_shift;
	u64 raw_at_zero;	/* CLOCK_MONOTONIC_RAW at c0, ns */
};

extern struct model_clock model_clock;

/* Longest gap the raw clock's multiplication is sized for (the kernel's 600 s). */
#define MONO_RAW_MAX_SECONDS	600

/*
 * Choose a new TSC frequency (kHz, > 0), register width (1..64) and count
 * at perf time 0, and recompute every derived constant. Returns 0, or
 * -EINVAL for an impossible value (the clock is left unchanged).
 */
int model_clock_set(u32 tsc_khz, u32 tsc_bits, u64 tsc_at_zero, u64 raw_at_zero);
/* Back to CONFIG_MODEL_TSC_KHZ, 64 bits, c0 = 0, raw clock 0 at c0. */
void model_clock_reset(void);

/*
 * calc_mult_shift() - the (mult, shift) pair that best turns a count of
 * @from-unit ticks into @to units, mult * delta >> shift, for deltas up to
 * @max_delta (0: no bound on the product beyond mult < 2^32).
 */
void calc_mult_shift(u32 *mult, u32 *shift, u64 from, u64 to, u64 max_delta);

u64 model_clock_tsc_to_ns(u64 cyc);		/* cyc: full count */
u64 model_clock_ns_to_tsc(u64 ns);		/* last count with ns(c) <= ns */
u64 model_clock_tsc_to_mono_raw(u64 cyc);	/* cyc: full count, >= c0 */
u64 model_clock_tsc_mask(void);
/* TSC cycles per timekeeper tick at the current HZ (at least 1). */
u64 model_clock_tick_cycles(void);
void model_clock_mono_raw_snapshot(u64 cyc, struct mono_raw_snapshot *snap);

/* The TSC register now: the full count at perf_clock(), masked to tsc_bits. */
u64 rdtsc(void);

#endif /* PMUSIM_CORE_X86_TSC_H */
