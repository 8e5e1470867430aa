/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_pmu - a PMU made of software counters for tests of core/.
 *
 * Each event gets a counter of test_pmu::counter_width bits. The test
 * says how many events happen (test_pmu_advance()); the counter counts
 * them while started, and when it wraps the "PMI" runs the way x86's
 * handler does: update the count, set the next period, build the sample
 * data and call perf_event_overflow(), stopping the event if asked to.
 * start/stop/add/del/read keep x86's PERF_HES_* protocol and refresh the
 * user page where x86 does (a new period, start, del); the rdpmc index is
 * the counter's + 1. Every call is logged for tests to assert on.
 */
#ifndef PMUSIM_TESTS_LIB_TEST_PMU_H
#define PMUSIM_TESTS_LIB_TEST_PMU_H

#include "core/perf_event.h"

enum test_pmu_op {
	TP_INIT, TP_ADD, TP_DEL, TP_START, TP_STOP, TP_READ, TP_PMI,
	/* not a call: the period set_period wrote into the counter */
	TP_PROGRAM,
};

struct test_pmu_call {
	enum test_pmu_op op;
	struct perf_event *event;
	int flags;			/* PERF_EF_* of the call */
	int cpu;
	u64 value;			/* TP_PROGRAM: the period programmed */
};

#define TEST_PMU_LOG_MAX	4096
#define TEST_PMU_COUNTERS	64

struct test_pmu {
	struct pmu pmu;
	int counter_width;		/* bits, 2..64; default 48 */
	u64 max_period;			/* default 2^(width-1) - 1 */
	u64 min_period;			/* smallest period programmed; default 1 */
	int nr_counters;		/* add() fails beyond this; default 8 */
	int event_init_err;		/* returned by event_init when non-zero */
	int check_period_err;		/* returned by check_period when non-zero */
	struct pt_regs regs;		/* what the PMI reports */

	struct perf_event *counters[TEST_PMU_COUNTERS];
	u64 raw[TEST_PMU_COUNTERS];	/* the counter registers */
	unsigned long nr_overflows;	/* PMIs taken */
	unsigned int nr_calls;
	struct test_pmu_call calls[TEST_PMU_LOG_MAX];
};

/* Fill @tp as a PMU of @type with the defaults above; not registered. */
void test_pmu_init(struct test_pmu *tp, int type);
/* The test_pmu behind @event's PMU. */
struct test_pmu *test_pmu_of(struct perf_event *event);

/*
 * @n events happen where @event counts (nothing if it is not started).
 * Each counter wrap raises the PMI on the event's CPU, as that CPU.
 * Returns the PMIs taken.
 */
unsigned long test_pmu_advance(struct perf_event *event, u64 n);

void test_pmu_clear_log(struct test_pmu *tp);
/* How many logged calls have @op (and @event, unless NULL). */
unsigned int test_pmu_count(struct test_pmu *tp, enum test_pmu_op op,
			    struct perf_event *event);
/* The periods programmed for @event, oldest first; returns how many. */
unsigned int test_pmu_programmed(struct test_pmu *tp, struct perf_event *event,
				 u64 *periods, unsigned int max);

#endif
