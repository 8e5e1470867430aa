// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsc.c - the model TSC, cyc2ns and the raw clock (see tsc.h for the
 * relation they define).
 */
#include "tsc.h"
#include "core/perf_event.h"

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

typedef unsigned __int128 u128;

struct model_clock model_clock;
/* bumped by every model_clock_set(): what was derived from the old clock is stale */
static unsigned long model_clock_gen = 1;
/* model_clock_ns_to_tsc()'s constants: K = -offset in full, and 2^shift / mul */
static u128 ns_to_tsc_k;
static double ns_to_tsc_scale;

/*
 * Why this choice of shift. The result is mult * delta >> shift; a larger
 * shift gives mult more significant bits and so a smaller relative error
 * (at most 2^-(shift+1) of the ratio per tick, since mult is rounded to
 * nearest), so we want the largest shift that is still safe:
 *  - mult is a u32 in the user page, so mult < 2^32;
 *  - user space splits cyc into cyc >> shift and the remainder and
 *    multiplies the remainder (< 2^shift) by mult in 64 bits, so
 *    shift <= 32 keeps that product below 2^64;
 *  - with @max_delta, the product max_delta * mult, plus a sub-second
 *    remainder below 10^9 << shift (< 2^62 for shift <= 32), must stay
 *    below 2^64: we require max_delta * mult < 2^63.
 * Walking down from 32, the first shift meeting all three is the answer;
 * mult only shrinks as shift does, so that shift is the largest.
 */
void calc_mult_shift(u32 *mult, u32 *shift, u64 from, u64 to, u64 max_delta)
{
	for (u32 s = 32; ; s--) {
		u128 m = (((u128)to << s) + from / 2) / from;

		if (m && m <= UINT32_MAX &&
		    (!max_delta || (u128)max_delta * m < ((u128)1 << 63))) {
			*mult = (u32)m;
			*shift = s;
			return;
		}
		if (!s) {
			*mult = m > UINT32_MAX ? UINT32_MAX : (u32)(m ? m : 1);
			*shift = 0;
			return;
		}
	}
}

static u64 cyc2ns_floor(u64 cyc)
{
	return (u64)(((u128)cyc * model_clock.cyc2ns.cyc2ns_mul) >>
		     model_clock.cyc2ns.cyc2ns_shift);
}

int model_clock_set(u32 tsc_khz, u32 tsc_bits, u64 tsc_at_zero, u64 raw_at_zero)
{
	struct model_clock c = { 0 };

	if (!tsc_khz || !tsc_bits || tsc_bits > 64)
		return -EINVAL;
	c.tsc_khz = tsc_khz;
	c.tsc_bits = tsc_bits;
	c.tsc_at_zero = tsc_at_zero;
	c.raw_at_zero = raw_at_zero;

	/* As set_cyc2ns_scale(): ns per ms over cycles per ms. */
	calc_mult_shift(&c.cyc2ns.cyc2ns_mul, &c.cyc2ns.cyc2ns_shift,
			tsc_khz, NSEC_PER_MSEC, 0);
	c.cyc2ns.cyc2ns_offset = -(u64)(((u128)tsc_at_zero * c.cyc2ns.cyc2ns_mul) >>
					c.cyc2ns.cyc2ns_shift);

	/* As a clocksource registered at tsc_khz: sized for 600 s between ticks. */
	calc_mult_shift(&c.raw_mult, &c.raw_shift, (u64)tsc_khz * 1000, NSEC_PER_SEC,
			(u64)tsc_khz * 1000 * MONO_RAW_MAX_SECONDS);

	model_clock = c;
	ns_to_tsc_k = ((u128)c.tsc_at_zero * c.cyc2ns.cyc2ns_mul) >> c.cyc2ns.cyc2ns_shift;
	ns_to_tsc_scale = (double)(1ULL << c.cyc2ns.cyc2ns_shift) / (double)c.cyc2ns.cyc2ns_mul;
	__atomic_add_fetch(&model_clock_gen, 1, __ATOMIC_RELAXED);
	return 0;
}

void model_clock_reset(void)
{
	model_clock_set(CONFIG_MODEL_TSC_KHZ, 64, 0, 0);
}

static void __attribute__((constructor)) model_clock_init(void)
{
	model_clock_reset();
}

u64 model_clock_tsc_mask(void)
{
	return model_clock.tsc_bits == 64 ? ~0ULL : (1ULL << model_clock.tsc_bits) - 1;
}

u64 model_clock_tsc_to_ns(u64 cyc)
{
	return model_clock.cyc2ns.cyc2ns_offset + cyc2ns_floor(cyc);
}

/*
 * The last count c with ns(c) <= ns: floor(c * mul / 2^shift) <= ns + K
 * (K = -offset) holds exactly while c * mul < (ns + K + 1) << shift.
 * At 1 GHz and above one cycle is at most 1 ns, so ns(c) == ns and the
 * round trip ns -> TSC -> ns is exact.
 */
u64 model_clock_ns_to_tsc(u64 ns)
{
	u128 n = (u128)ns + ns_to_tsc_k + 1;
	u128 x = (n << model_clock.cyc2ns.cyc2ns_shift) - 1;
	u64 mul = model_clock.cyc2ns.cyc2ns_mul;

	/*
	 * floor(x / mul) without the division, which the user page asks for
	 * at every PMI: n * 2^shift / mul in floating point is within a few
	 * counts of it below 2^52 counts, and multiplying back corrects it
	 * to the exact quotient. Past that, the division.
	 */
	if (!(n >> 63)) {
		double est = (double)(s64)n * ns_to_tsc_scale;

		if (est < 0x1p52) {
			u64 q = (u64)est;
			u128 p = (u128)q * mul;

			while (p > x) {
				q--;
				p -= mul;
			}
			while (x - p >= mul) {
				q++;
				p += mul;
			}
			return q;
		}
	}
	return (u64)(x / mul);
}

u64 model_clock_tsc_to_mono_raw(u64 cyc)
{
	u128 d = (u128)(cyc - model_clock.tsc_at_zero) * model_clock.raw_mult;

	return model_clock.raw_at_zero + (u64)(d >> model_clock.raw_shift);
}

/*
 * TSC cycles between two timekeeper ticks at the tick rate in force now
 * (HZ follows perf_event_hz_set(), so a scenario's machine.hz moves the
 * ticks); a clock slower than HZ still ticks once a cycle.
 */
u64 model_clock_tick_cycles(void)
{
	u64 cycles = (u64)model_clock.tsc_khz * 1000 / (u64)HZ;

	return cycles ? cycles : 1;
}

/*
 * The timekeeper accumulates whole ticks. Everything it has accumulated
 * since c0 is one exact product in shifted ns; whole seconds go to base,
 * the rest (fraction of a ns included) stays in xtime_nsec, so applying
 * the snapshot to a later count gives exactly raw(c): nothing is rounded
 * away at a tick, and no error builds up however long the run. @last:
 * the tick's count, cycles since c0.
 */
static void mono_raw_snapshot_at(u64 last, struct mono_raw_snapshot *snap)
{
	u32 shift = model_clock.raw_shift;
	u128 acc = ((u128)model_clock.raw_at_zero << shift) +
		   (u128)last * model_clock.raw_mult;
	u64 whole_ns = (u64)(acc >> shift);
	u64 base = whole_ns - whole_ns % NSEC_PER_SEC;

	snap->cycle_last = model_clock.tsc_at_zero + last;
	snap->mult = model_clock.raw_mult;
	snap->shift = shift;
	snap->base = base;
	snap->xtime_nsec = (u64)(acc - ((u128)base << shift));
}

/*
 * The snapshot changes once a tick, and the user page asks for it at
 * every update (each PMI): the last one is kept, per thread, with what it
 * was made from (the clock's generation, HZ, the tick), and handed out
 * again while @cyc stays in that tick, sparing two 64-bit divisions and
 * the 128-bit product. The same snapshot either way.
 */
void model_clock_mono_raw_snapshot(u64 cyc, struct mono_raw_snapshot *snap)
{
	static __thread struct {
		unsigned long gen;
		u64 hz, tick, last;
		struct mono_raw_snapshot snap;
	} memo;
	u64 since = cyc - model_clock.tsc_at_zero;
	unsigned long gen = __atomic_load_n(&model_clock_gen, __ATOMIC_RELAXED);
	u64 hz = (u64)HZ;

	/* an earlier count wraps to a difference of at least a tick */
	if (memo.gen != gen || memo.hz != hz || since - memo.last >= memo.tick) {
		memo.tick = model_clock_tick_cycles();
		memo.last = since - since % memo.tick;
		mono_raw_snapshot_at(memo.last, &memo.snap);
		memo.gen = gen;
		memo.hz = hz;
	}
	*snap = memo.snap;
}

u64 rdtsc(void)
{
	return model_clock_ns_to_tsc(perf_clock()) & model_clock_tsc_mask();
}

u64 (*perf_hw_time)(void) = rdtsc;
