// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulation figure's baseline: the tchain workload of sim/workload.c
 * (depth 43, as the default scenario runs it) as a native program, so the
 * host executes the same calls, returns, loop back-edges and data-
 * dependent forward branches that pmusim simulates. Its taken-branch rate
 * is the physical limit the simulator is held against.
 *
 *   tchain_native LEAF_LOOPS MID_LOOPS COND_PERMILLE F31_ITERATIONS
 *
 * prints one JSON object: the taken branches executed (counted as the
 * simulator counts them: calls, returns, taken back-edges, taken
 * conditionals) and the CPU time it took.
 *
 * Each simulated block of N instructions is N register adds the compiler
 * cannot remove; a conditional is taken when the next value of a random
 * table is below the permille, so the host's predictor sees data it
 * cannot learn, as the simulated one does (the simulator's draws never
 * repeat). The table must be long for that: one run reads it over and
 * over, and a predictor with long histories learns a short one. On the
 * AMD EPYC (Zen 4) hosts here a 2^16-entry table was partly learned: 1.1
 * ns per branch on a quiet machine, up to 2.3 when other jobs disturbed
 * the predictor, against 1.4-1.5 with no conditional at all; from 2^18
 * entries on it costs a steady 2.67-2.70 ns, as a coin flip does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define noinline __attribute__((noinline))

#define INSN1	__asm__ volatile("add $1, %0" : "+r"(acc))
#define INSN2	do { INSN1; INSN1; } while (0)
#define INSN3	do { INSN2; INSN1; } while (0)

#define COIN_BITS	20	/* 2 MiB: four times the length that was already not learned */
static uint16_t coin[1u << COIN_BITS];	/* random values 0..999 */
static unsigned int coin_pos;
static unsigned int cond_permille;
static unsigned long leaf_loops, mid_loops, outer_loops;
static uint64_t cond_taken;
static uint64_t acc;

static inline int take(void)
{
	int t = coin[coin_pos++ & ((1u << COIN_BITS) - 1)] < cond_permille;

	cond_taken += (uint64_t)t;
	return t;
}

/* f43: the leaf, 3 instructions and a forward branch over 2 more. */
static noinline void f43(void)
{
	INSN2;
	for (unsigned long i = 0; i < leaf_loops; i++) {
		INSN3;
		if (!take())
			INSN2;
	}
	INSN1;
}

/* f32..f42: a loop of 3 instructions and a branch over 1, then the call. */
#define MID(n, next)					\
static noinline void f##n(void)				\
{							\
	INSN2;						\
	for (unsigned long i = 0; i < mid_loops; i++) {	\
		INSN3;					\
		if (!take())				\
			INSN1;				\
	}						\
	next();						\
	INSN1;						\
}
MID(42, f43) MID(41, f42) MID(40, f41) MID(39, f40) MID(38, f39) MID(37, f38)
MID(36, f37) MID(35, f36) MID(34, f35) MID(33, f34) MID(32, f33)

/* f31: the outer loop around the call of f32. */
static noinline void f31(void)
{
	INSN2;
	for (unsigned long i = 0; i < outer_loops; i++) {
		INSN2;
		f32();
		INSN1;
	}
	INSN1;
}

/* f01..f30: straight calls down the chain. */
#define CHAIN(n, next)					\
static noinline void f##n(void)				\
{							\
	INSN2;						\
	next();						\
	INSN1;						\
}
CHAIN(30, f31) CHAIN(29, f30) CHAIN(28, f29) CHAIN(27, f28) CHAIN(26, f27)
CHAIN(25, f26) CHAIN(24, f25) CHAIN(23, f24) CHAIN(22, f23) CHAIN(21, f22)
CHAIN(20, f21) CHAIN(19, f20) CHAIN(18, f19) CHAIN(17, f18) CHAIN(16, f17)
CHAIN(15, f16) CHAIN(14, f15) CHAIN(13, f14) CHAIN(12, f13) CHAIN(11, f12)
CHAIN(10, f11) CHAIN(09, f10) CHAIN(08, f09) CHAIN(07, f08) CHAIN(06, f07)
CHAIN(05, f06) CHAIN(04, f05) CHAIN(03, f04) CHAIN(02, f03) CHAIN(01, f02)

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull, loop_branches, branches;
	double t0, t1;

	if (argc != 5) {
		fprintf(stderr, "usage: tchain_native LEAF_LOOPS MID_LOOPS COND_PERMILLE F31_ITERATIONS\n");
		return 2;
	}
	leaf_loops = strtoul(argv[1], NULL, 0);
	mid_loops = strtoul(argv[2], NULL, 0);
	cond_permille = (unsigned int)strtoul(argv[3], NULL, 0);
	outer_loops = strtoul(argv[4], NULL, 0);
	if (!leaf_loops || !mid_loops || !outer_loops || cond_permille > 1000) {
		fprintf(stderr, "tchain_native: loops must be >= 1, permille <= 1000\n");
		return 2;
	}
	for (unsigned int i = 0; i < (1u << COIN_BITS); i++) {
		rng ^= rng << 13;	/* xorshift64 */
		rng ^= rng >> 7;
		rng ^= rng << 17;
		coin[i] = (uint16_t)(rng % 1000);
	}

	t0 = cpu_seconds();
	f01();
	t1 = cpu_seconds();

	/*
	 * Taken branches as the simulator counts them: a loop of n
	 * iterations takes its back-edge n - 1 times; f01..f43 each make one
	 * call and one return (f31..f43 once per outer iteration).
	 */
	loop_branches = (outer_loops - 1) +
			outer_loops * (11 * (mid_loops - 1) + (leaf_loops - 1));
	branches = loop_branches + cond_taken +
		   2 * (30 + (uint64_t)outer_loops * 13);
	printf("{\"branches\":%llu,\"cpu_seconds\":%.6f,\"check\":%llu}\n",
	       (unsigned long long)branches, t1 - t0, (unsigned long long)(acc & 1));
	return 0;
}
