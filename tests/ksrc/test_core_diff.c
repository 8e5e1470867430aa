// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first differential check of the kernel's own kernel/events/core.c
 * (the core unit) against core/'s port, each on a model CPU of its own of
 * the same model, core/ through its x86 driver, the kernel's file
 * through the model driver (ksrc/core_model_pmu.c):
 *   open_errnos   perf_event_open() on valid and invalid attrs: the same
 *                 errno (or both an event)
 *   pmis          a sampling event (IDENTIFIER, IP, TID, TIME, ID, ADDR,
 *                 STREAM_ID, CPU, PERIOD, READ), the same instructions
 *                 retired on both CPUs: the same ring-buffer bytes, count, sample_period,
 *                 last_period, period_left, hw.interrupts
 *   throttle      past max_samples_per_tick PMIs in one tick (100 at the
 *                 default rate and HZ=1000), then a tick: the same
 *                 THROTTLE/UNTHROTTLE records, the same state at each step
 *   freq          freq mode over blocks and ticks: the same adjusted periods
 *   ioctls        ENABLE, DISABLE, PERIOD, RESET, REFRESH, PAUSE_OUTPUT and
 *                 invalid ones: the same returns, then state and bytes
 *   group_read    a group of three whose leader samples PERF_SAMPLE_READ
 *                 with PERF_FORMAT_GROUP, ID, the times and LOST
 *   alt_sample_period, hw_time, task_ctx_data_fork
 *                 the seeds (CONFIG_PERF_ALT_SAMPLE_PERIOD, _HW_TIME,
 *                 _TASK_CTX_DATA): core/'s port against the tree's file,
 *                 patched by ksrc/examples/core-*.patch, or a named
 *                 departure on a tree without the seed
 *   read_formats  read() of an event fd, every read_format, events and groups
 *   validate_size perf_event_validate_size()'s 16k: the same -E2BIG member
 *   set_output    SET_OUTPUT and PERF_FLAG_FD_OUTPUT: returns, bytes, state
 *   poll_hup      REFRESH's event_limit with O_ASYNC: poll(), SIGIOs, POLL_HUP
 *   write_backward  an overwritten backward buffer, PAUSE_OUTPUT: every byte
 *   callchains    PERF_SAMPLE_CALLCHAIN, sample_max_stack, exclude_callchain_*
 *   per_task      a task's event over context switches: SWITCH records, samples
 *   attr_sizes, attr_reserved, attr_freq_limit
 *                 attr.size at its limits, each reserved field set,
 *                 sample_freq at and above the maximum rate: the errno due
 *   event_limit_hup, refresh_adds
 *                 REFRESH's event_limit: POLL_IN then POLL_HUP (pending_kill)
 *                 and the event off; two REFRESHes add up
 *                 (these five were written for fuzz/mutants/ksrc/core-*)
 *   attr_fuzz     seeded random attrs: the same errno (runs last)
 * The pair and its comparison are the lockstep driver of the fuzzers,
 * ksrc/oracle/core_diff.c. KSRC_CORE_DIFF_DUMP=1 prints both buffers'
 * records at each comparison.
 * Part of make ksrc-check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "tests/lib/test_pmu.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_CORE
#include "core/perf_event.h"
#include "core/internal.h"
#include "core/sideband.h"
#include "core/x86/pmu.h"
#include "core/task_ctx_data.h"
#include "core/x86/msr.h"
#include "ksrc/core_ksrc.h"
#include "ksrc/oracle/core_diff.h"
#include "model/model.h"

#define NR_PAGES	16

/*
 * The pair is the lockstep driver ksrc/oracle/core_diff.c (the fuzzers'
 * too): its model CPUs, boot, clock, opens, mmaps, ioctls, retire, tick
 * and comparison. core/'s running task is the driver's (pid 1, as the shim's).
 */
static struct task_struct *core_task;

static int setup(void **state)
{
	(void)state;
	if (ksrc_core_diff_begin())
		return -1;
	core_task = pmusim_curr[0];
	return 0;
}

/* the one clock of both sides moved @ns on */
static void clock_add(u64 ns)
{
	ksrc_core_diff_set_clock(ksrc_core_diff_clock() + ns);
}

static struct perf_event_attr attr_of(u32 type, u64 config, u64 period, u64 sample_type)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.sample_period = period;
	a.sample_type = sample_type;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

/* Both open @a (CPU-wide on CPU 0): 0/-errno each; @e what opened. */
static void open_both(const struct perf_event_attr *a, unsigned long flags, int *err_core,
		      int *err_ksrc, struct ksrc_core_diff_event *e)
{
	ksrc_core_diff_open(a, sizeof(*a), 0, NULL, flags, err_core, err_ksrc, e);
}


static void open_errnos(void **state)
{
	struct {
		const char *what;
		struct perf_event_attr a;
		unsigned long flags;
		/* a named departure of core/: the pair of results it gives */
		const char *departure;
		int dep_core, dep_ksrc;
	} c[16];
	unsigned int n = 0, agree = 0, departed = 0;

	memset(c, 0, sizeof(c));

	(void)state;
	c[n].what = "instructions, counting";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0);
	c[n++].flags = 0;
	c[n].what = "cycles, sampling";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1000, PERF_SAMPLE_IP);
	c[n++].flags = 0;
	c[n].what = "an unknown PMU type";
	c[n].a = attr_of(1000, 0, 0, 0);
	c[n++].flags = 0;
	c[n].what = "an unknown sample_type bit";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 1000, 1ULL << 62);
	c[n++].flags = 0;
	c[n].what = "an unknown read_format bit";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 1000, PERF_SAMPLE_IP);
	c[n].a.read_format = 1ULL << 40;
	c[n++].flags = 0;
	c[n].what = "unknown flags";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 1000, PERF_SAMPLE_IP);
	c[n++].flags = 1UL << 20;
	c[n].what = "sample_freq above the maximum rate";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 0, PERF_SAMPLE_IP);
	c[n].a.freq = 1;
	c[n].a.sample_freq = 1ULL << 40;
	c[n++].flags = 0;
	c[n].what = "a sample_period with bit 63 set";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 1ULL << 63, PERF_SAMPLE_IP);
	c[n++].flags = 0;
	c[n].what = "attr.size below PERF_ATTR_SIZE_VER0";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 0, 0);
	c[n].a.size = 32;
	c[n++].flags = 0;
	c[n].what = "an unknown clockid";
	c[n].a = attr_of(PERF_TYPE_HARDWARE, 0, 1000, PERF_SAMPLE_IP);
	c[n].a.use_clockid = 1;
	c[n].a.clockid = 99;
	c[n++].flags = 0;
	c[n].what = "a software dummy event";
	c[n].a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, 0);
	c[n].departure = "no-software-pmu: core/ registers no software PMU (perf_swevent, "
			 "cpu_clock, task_clock), the kernel's perf_event_init() does";
	c[n].dep_core = -ENOENT;
	c[n++].dep_ksrc = 0;
	c[n].what = "an unknown software event";
	c[n].a = attr_of(PERF_TYPE_SOFTWARE, 1000, 0, 0);
	c[n++].flags = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct ksrc_core_diff_event e;
		int ec, ek;

		open_both(&c[i].a, c[i].flags, &ec, &ek, &e);
		ksrc_core_diff_close(&e);
		if (ec == ek) {
			agree++;
		} else if (c[i].departure && ec == c[i].dep_core && ek == c[i].dep_ksrc) {
			printf("# departure %s: %s (core/ %d, the kernel's %d)\n", c[i].departure,
			       c[i].what, ec, ek);
			departed++;
		} else {
			fail_msg("%s: core/ %d, the kernel's core.c %d", c[i].what, ec, ek);
		}
	}
	printf("# %u perf_event_open() attrs give the same errno (or both an event) from core/ and "
	       "the kernel's core.c, %u a named departure\n", agree, departed);
}

/* the sampling event of most checks, mapped on both sides */
static struct ksrc_core_diff_event s;

/* s's buffer on both sides, as perf_mmap() gives it; !@writable: read-only, the overwrite mode */
static void map_sampling(bool writable)
{
	int ec, ek;

	ksrc_core_diff_mmap_prot(&s, NR_PAGES, writable, &ec, &ek);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
}

static void open_sampling_prot(struct perf_event_attr a, bool writable)
{
	int ec, ek;

	open_both(&a, 0, &ec, &ek, &s);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
	map_sampling(writable);
}

static void open_sampling_attr(struct perf_event_attr a)
{
	open_sampling_prot(a, true);
}

static void open_sampling(u64 period, u64 sample_type)
{
	open_sampling_attr(attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, period, sample_type));
}

static void close_sampling(void)
{
	ksrc_core_diff_close(&s);
}

#define SAME(what, c, k) do {								\
	if ((u64)(c) != (u64)(k))							\
		fail_msg("%s: %s: core/ %lld, the kernel's %lld", when, what,		\
			 (long long)(c), (long long)(k));				\
} while (0)

/*
 * @e's two sides the same (its ring's data_head, data_tail and bytes when
 * it has one, then count, periods, hw.interrupts, state, lost_samples);
 * names the first difference.
 */
static void compare_event(const char *when, const struct ksrc_core_diff_event *e)
{
	char why[256];

	if (ksrc_core_diff_compare(e, why, sizeof(why)) != KSRC_CORE_DIFF_SAME)
		fail_msg("%s: %s", when, why);
}

static void compare(const char *when)
{
	compare_event(when, &s);
}

/* An ioctl on both (@target: SET_OUTPUT's): the same return, @want */
static void ioctl_both(const char *what, const struct ksrc_core_diff_event *e, unsigned int cmd,
		       u64 arg, const struct ksrc_core_diff_event *target, long want)
{
	long rc, rk;

	ksrc_core_diff_ioctl(e, cmd, arg, target, &rc, &rk);
	if (rc != rk || rc != want)
		fail_msg("%s: core/ %ld, the kernel's %ld, expected %ld", what, rc, rk, want);
}


static void pmis(void **state)
{
	u64 before = ksrc_core_diff_nr_pmis();

	(void)state;
	open_sampling(10007, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_ID | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ);
	for (int i = 0; i < 50; i++) {
		ksrc_core_diff_retire(997 + (u64)i * 31);
		compare("after a block of instructions");
	}
	printf("# %llu PMIs on each side: the same ring-buffer bytes (%llu), count, periods\n",
	       (unsigned long long)(ksrc_core_diff_nr_pmis() - before),
	       (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
}

static void throttle(void **state)
{
	u64 before = ksrc_core_diff_nr_pmis();

	(void)state;
	open_sampling(100, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	for (int i = 0; i < 150; i++) {
		ksrc_core_diff_retire(100);
		compare("PMIs within one tick");
	}
	ksrc_core_diff_tick();
	compare("the tick after");
	for (int i = 0; i < 20; i++) {
		ksrc_core_diff_retire(100);
		compare("PMIs in the next tick");
	}
	printf("# throttle: %llu PMIs, the same THROTTLE/UNTHROTTLE records and state\n",
	       (unsigned long long)(ksrc_core_diff_nr_pmis() - before));
	close_sampling();
}

/* freq mode: 4000 samples/s asked, the clock moving 20 us per block */
static void freq(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0,
					   PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD);

	(void)state;
	a.freq = 1;
	a.sample_freq = 4000;
	open_sampling_attr(a);
	for (int i = 0; i < 400; i++) {
		clock_add(20000);
		ksrc_core_diff_retire(20000 + (u64)(i % 7) * 1000);
		compare("freq: after a block");
		if (i % 50 == 49) {
			ksrc_core_diff_tick();
			compare("freq: after a tick");
		}
	}
	printf("# freq 4000: the same periods and bytes over 400 blocks and 8 ticks (last period %llu, "
	       "%llu bytes)\n", (unsigned long long)s.ev->hw.last_period,
	       (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
}

/* The ioctls on both: the same return, then the same state and bytes */
static void ioctls(void **state)
{
	/* PERIOD's u64 by pointer, as ksrc_core_diff_ioctl() passes it */
	static const struct { const char *what; unsigned int cmd; u64 arg; } op[] = {
		{ "DISABLE", PERF_EVENT_IOC_DISABLE, 0 },
		{ "PERIOD 5000", PERF_EVENT_IOC_PERIOD, 5000 },
		{ "ENABLE", PERF_EVENT_IOC_ENABLE, 0 },
		{ "RESET", PERF_EVENT_IOC_RESET, 0 },
		{ "REFRESH 3", PERF_EVENT_IOC_REFRESH, 3 },
		{ "REFRESH 0 (EINVAL)", PERF_EVENT_IOC_REFRESH, 0 },
		{ "PERIOD 0 (EINVAL)", PERF_EVENT_IOC_PERIOD, 0 },
		{ "PERIOD 2^63 (EINVAL)", PERF_EVENT_IOC_PERIOD, 1ULL << 63 },
		{ "PAUSE_OUTPUT 1", PERF_EVENT_IOC_PAUSE_OUTPUT, 1 },
		{ "PAUSE_OUTPUT 0", PERF_EVENT_IOC_PAUSE_OUTPUT, 0 },
		{ "an unknown ioctl (ENOTTY)", PERF_EVENT_IOC_ENABLE + 0x40, 0 },
		{ "ENABLE", PERF_EVENT_IOC_ENABLE, 0 },
		{ "PERIOD 3000", PERF_EVENT_IOC_PERIOD, 3000 },
	};

	(void)state;
	open_sampling(10000, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	for (unsigned int i = 0; i < ARRAY_SIZE(op); i++) {
		long rc, rk;

		ksrc_core_diff_ioctl(&s, op[i].cmd, op[i].arg, NULL, &rc, &rk);
		if (rc != rk)
			fail_msg("ioctl %s: core/ %ld, the kernel's %ld", op[i].what, rc, rk);
		compare(op[i].what);
		for (int j = 0; j < 5; j++) {
			ksrc_core_diff_retire(3001);
			compare(op[i].what);
		}
	}
	printf("# %zu ioctls (ENABLE, DISABLE, PERIOD, RESET, REFRESH and its event_limit, "
	       "PAUSE_OUTPUT, invalid ones): the same returns, state and bytes (%llu)\n",
	       ARRAY_SIZE(op), (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
}

/* A group: its leader samples with PERF_SAMPLE_READ of the whole group */
static void group_read(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 10000,
					   PERF_SAMPLE_IP | PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD);
	struct ksrc_core_diff_event sib[2];

	(void)state;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST;
	open_sampling_attr(a);
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr b = attr_of(PERF_TYPE_HARDWARE,
						   i ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS,
						   0, 0);
		int ec, ek;

		b.read_format = a.read_format;
		ksrc_core_diff_open(&b, sizeof(b), 0, &s, 0, &ec, &ek, &sib[i]);
		assert_int_equal(ec, 0);
		assert_int_equal(ek, 0);
	}
	for (int i = 0; i < 40; i++) {
		clock_add(3000);
		ksrc_core_diff_retire(2999);
		compare("group: after a block");
	}
	printf("# group of 3, leader sampling PERF_SAMPLE_READ with GROUP|ID|TIMES|LOST: the same "
	       "bytes (%llu)\n", (unsigned long long)s.rb->user_page->data_head);
	for (int i = 0; i < 2; i++)
		ksrc_core_diff_close(&sib[i]);
	close_sampling();
}

/*
 * The seeds whose event-core half ksrc/examples ports to the tree's
 * core.c (core-alt-sample-period.patch, core-hw-time.patch): core/'s
 * CONFIG_ port against the tree's file. A tree without the seed's ABI
 * (KSRC_HAS_* of <generated/ksrc_tree.h>, read off its uapi header) is
 * the named departure the patch removes, checked as such: core/ takes the
 * seed's attr, the kernel's file refuses it as an unknown field would be.
 */
#if defined(CONFIG_PERF_ALT_SAMPLE_PERIOD) || defined(CONFIG_PERF_HW_TIME)
/*
 * perf_event_open() on both sides of @a changed by vary(attr, i) for each
 * case i, named what[i]: the same errno, or both an event. Returns how
 * many opened.
 */
static unsigned int seed_errnos(const char *seed, const struct perf_event_attr *a,
				const char *const *what, unsigned int n,
				void (*vary)(struct perf_event_attr *attr, unsigned int i))
{
	unsigned int opened = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct perf_event_attr b = *a;
		struct ksrc_core_diff_event e;
		int ec, ek;

		vary(&b, i);
		open_both(&b, 0, &ec, &ek, &e);
		ksrc_core_diff_close(&e);
		if (ec != ek)
			fail_msg("%s: %s: core/ %d, the kernel's core.c %d", seed, what[i], ec, ek);
		opened += !ec;
	}
	printf("# %s: %u attrs give the same errno (or both an event, %u)\n", seed, n, opened);
	return opened;
}

#if (defined(CONFIG_PERF_ALT_SAMPLE_PERIOD) && !defined(KSRC_HAS_ALT_SAMPLE_PERIOD)) || \
	(defined(CONFIG_PERF_HW_TIME) && !defined(KSRC_HAS_HW_TIME))
/*
 * The departure of a tree without the seed: @a opens on core/, the
 * kernel's file says @errno_ksrc.
 */
static void seed_departure(const char *seed, const char *why, const struct perf_event_attr *a,
			   int errno_ksrc)
{
	struct ksrc_core_diff_event e;
	int ec, ek;

	open_both(a, 0, &ec, &ek, &e);
	ksrc_core_diff_close(&e);
	if (ec != 0 || ek != errno_ksrc)
		fail_msg("%s: a tree without the seed: core/ %d, the kernel's %d (expected 0, %d)",
			 seed, ec, ek, errno_ksrc);
	printf("# departure %s: %s (core/ %d, the kernel's core.c of %s %d); "
	       "ksrc/examples/core-%s.patch adds it\n", seed, why, ec, KSRC_VERSION, ek, seed);
	/*
	 * core/'s event took an event id the kernel's file did not hand out:
	 * the next ids brought together again, so the ids (PERF_SAMPLE_ID, the
	 * THROTTLE record's) of the checks after this one agree.
	 */
	if (ek < 0)
		assert_int_equal(ksrc_core_diff_sync_ids(), 0);
}
#endif
#endif

#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
static const char *const alt_cases[] = {
	"alternating 10007 and 1009", "freq with an alternative period",
	"an alternative period without a sample_period", "an alternative period with bit 63",
	"the alternative period equal to sample_period",
};

static void alt_vary(struct perf_event_attr *a, unsigned int i)
{
	switch (i) {
	case 1:
		a->freq = 1;
		a->sample_freq = 1000;
		break;
	case 2:
		a->sample_period = 0;
		break;
	case 3:
		a->alternative_sample_period = 1ULL << 63;
		break;
	case 4:
		a->alternative_sample_period = a->sample_period;
		break;
	}
}

/*
 * Alternating periods (RFC, CONFIG_PERF_ALT_SAMPLE_PERIOD): the syscall's
 * and perf_event_alloc()'s checks, then a sampling event swapping between
 * 10007 and 1009 instructions on every overflow: the same bytes, periods
 * and period_left after every block, across PERIOD and REFRESH.
 */
static void alt_sample_period(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 10007,
					   PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					   PERF_SAMPLE_PERIOD);
	u64 periods = 0, last = 0;

	(void)state;
	a.alternative_sample_period = 1009;
#ifndef KSRC_HAS_ALT_SAMPLE_PERIOD
	seed_departure("alt-sample-period", "core/ has CONFIG_PERF_ALT_SAMPLE_PERIOD, the tree's "
		       "perf_event_attr no alternative_sample_period (an attr larger than the "
		       "kernel's with a non-zero tail)", &a, -E2BIG);
	return;
#endif
	assert_int_equal(seed_errnos("alt-sample-period", &a, alt_cases, ARRAY_SIZE(alt_cases),
				     alt_vary), 2);

	open_sampling_attr(a);
	for (int i = 0; i < 60; i++) {
		ksrc_core_diff_retire(1500 + (u64)(i % 11) * 700);
		compare("alternating: after a block");
		if (s.ev->hw.sample_period != last)
			periods++;
		last = s.ev->hw.sample_period;
	}
	/* both periods were used: the check saw the swap, not one period */
	assert_true(periods > 10);
	ioctl_both("alternating: PERIOD 5000", &s, PERF_EVENT_IOC_PERIOD, 5000, NULL, 0);
	compare("alternating: PERIOD 5000");
	for (int i = 0; i < 20; i++) {
		ksrc_core_diff_retire(2300);
		compare("alternating: after PERIOD");
	}
	ioctl_both("alternating: REFRESH 3", &s, PERF_EVENT_IOC_REFRESH, 3, NULL, 0);
	for (int i = 0; i < 10; i++) {
		ksrc_core_diff_retire(2300);
		compare("alternating: after REFRESH 3");
	}
	printf("# alt-sample-period: %llu period changes, the same bytes (%llu), periods and "
	       "period_left as the tree's core.c\n", (unsigned long long)periods,
	       (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
}
#endif

#ifdef CONFIG_PERF_HW_TIME
static const char *const hw_time_cases[] = {
	"hw_time", "hw_time with CLOCK_MONOTONIC_RAW", "hw_time with CLOCK_MONOTONIC",
	"CLOCK_MONOTONIC without hw_time",
};

static void hw_time_vary(struct perf_event_attr *a, unsigned int i)
{
	if (i == 0)
		return;
	a->use_clockid = 1;
	a->clockid = i == 1 ? PERF_CLOCK_MONOTONIC_RAW : PERF_CLOCK_MONOTONIC;
	a->hw_time = i != 3;
}

static u64 core_tsc(void)
{
	/* core/'s model CPU of the pair: CPU 0's since ksrc_core_diff_begin() */
	return model_cpu_tsc(x86_model_cpus[0]);
}

/*
 * Raw hardware time (RFC, CONFIG_PERF_HW_TIME): perf_copy_attr()'s clockid
 * check, then samples whose TIME is the TSC at the PMI (core/'s
 * perf_hw_time(), the model driver's read of the same model's TSC), while
 * the THROTTLE record's sample_id keeps the perf clock.
 */
static void hw_time(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 100,
					   PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD);
	u64 (*saved)(void) = perf_hw_time;
	(void)state;
	a.hw_time = 1;
	a.sample_id_all = 1;
#ifndef KSRC_HAS_HW_TIME
	seed_departure("hw-time", "core/ has CONFIG_PERF_HW_TIME, the tree's perf_event_attr no "
		       "hw_time (a reserved bit set)", &a, -EINVAL);
	return;
#endif
	assert_int_equal(seed_errnos("hw-time", &a, hw_time_cases, ARRAY_SIZE(hw_time_cases),
				     hw_time_vary), 3);

	perf_hw_time = core_tsc;
	open_sampling_attr(a);
	for (int i = 0; i < 150; i++) {
		clock_add(1000);
		ksrc_core_diff_retire(100);
		compare("hw_time: PMIs within one tick");
	}
	ksrc_core_diff_tick();
	compare("hw_time: the tick after");
	perf_hw_time = saved;
	printf("# hw-time: samples with the TSC, the THROTTLE record with the perf clock: the same "
	       "bytes (%llu) as the tree's core.c and the model driver\n",
	       (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
}
#endif

#ifdef CONFIG_PERF_TASK_CTX_DATA
/*
 * Per-task PMU data (RFC, CONFIG_PERF_TASK_CTX_DATA), the event core's
 * half: a forked child whose task_struct was copied with its parent's
 * perf_ctx_data must not keep it (two tasks freeing one block). core/'s
 * perf_ctx_data_fork() and the tree's perf_event_init_task(), with no
 * system-wide user. The shim's task_struct always has the field, so a tree
 * without the seed is judged too: its fork leaves the copy.
 */
static void task_ctx_data_fork(void **state)
{
	struct task_struct parent = *core_task, child;
	int kept_core, kept_ksrc;

	(void)state;
	assert_int_equal(attach_task_ctx_data(&parent, 64, false), 0);
	child = parent;
	assert_int_equal(perf_ctx_data_fork(&child, &parent), 0);
	kept_core = child.perf_ctx_data == parent.perf_ctx_data;
	detach_task_ctx_data(&parent);
	kept_ksrc = ksrc_core_fork_ctx_data();
#ifdef KSRC_HAS_TASK_CTX_DATA
	if (kept_core != kept_ksrc)
		fail_msg("task-ctx-data: the child keeps its parent's data: core/ %d, the kernel's %d",
			 kept_core, kept_ksrc);
	assert_int_equal(kept_core, 0);
	printf("# task-ctx-data: a forked child starts without its parent's PMU data, as in the "
	       "tree's core.c\n");
#else
	if (kept_core != 0 || kept_ksrc != 1)
		fail_msg("task-ctx-data: a tree without the seed: core/ %d, the kernel's %d (expected 0, 1)",
			 kept_core, kept_ksrc);
	printf("# departure task-ctx-data: core/ has CONFIG_PERF_TASK_CTX_DATA, the tree's "
	       "perf_event_init_task() leaves a child the task_struct copy of its parent's "
	       "perf_ctx_data (core/ %d, the kernel's core.c of %s %d); "
	       "ksrc/examples/core-task-ctx-data.patch clears it\n", kept_core, KSRC_VERSION, kept_ksrc);
#endif
}
#endif

/* ---- read(), validate_size, SET_OUTPUT, POLL_HUP, write_backward, attr fuzzing ---- */

/*
 * A counting event on both, in @leader's group (NULL/-1: a leader of its
 * own); core/'s on @pmu (NULL: by attr.type, its x86 driver).
 */
static void open_counting_pmu(u64 config, u64 read_format, bool disabled,
			      const struct ksrc_core_diff_event *leader, struct pmu *pmu,
			      struct ksrc_core_diff_event *e, int *ec, int *ek)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, config, 0, 0);

	a.read_format = read_format;
	a.disabled = disabled;
	ksrc_core_diff_open_on(&a, sizeof(a), -1, 0, pmu, leader, 0, ec, ek, e);
}

static void open_counting(u64 config, u64 read_format, bool disabled,
			  const struct ksrc_core_diff_event *leader, struct ksrc_core_diff_event *e,
			  int *ec, int *ek)
{
	open_counting_pmu(config, read_format, disabled, leader, NULL, e, ec, ek);
}

/* read(fd, buf, @count) on both: the same return and bytes (a group read may be 16k) */
static void read_both(const char *when, const struct ksrc_core_diff_event *e, size_t count)
{
	static u64 bc[4096], bk[4096];
	ssize_t rc;
	long rk;

	assert_true(count <= sizeof(bc));
	memset(bc, 0xa5, sizeof(bc));
	memset(bk, 0xa5, sizeof(bk));
	rc = perf_read(e->ev, bc, count);
	rk = ksrc_core_read(e->fd, bk, count);
	if (rc != rk)
		fail_msg("%s: read(%zu): core/ %zd, the kernel's %ld", when, count, rc, rk);
	for (size_t i = 0; rc > 0 && i < (size_t)rc / 8; i++)
		if (bc[i] != bk[i])
			fail_msg("%s: read(%zu), u64 %zu of %zd bytes: core/ %llu, the kernel's %llu",
				 when, count, i, rc, (unsigned long long)bc[i], (unsigned long long)bk[i]);
}

#define READ_FORMAT_ALL	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

/*
 * read() of an event fd with every read_format: a single event (enabled,
 * then disabled), a group of three whose last member has another format,
 * read through each member, and a buffer one u64 short (-ENOSPC).
 */
static void read_formats(void **state)
{
	unsigned int reads = 0;

	(void)state;
	for (u64 fmt = 0; fmt <= READ_FORMAT_ALL; fmt++) {
		struct ksrc_core_diff_event ev[3];
		int ec, ek;
		char what[96];

		open_counting(PERF_COUNT_HW_INSTRUCTIONS, fmt, false, NULL, &ev[0], &ec, &ek);
		assert_int_equal(ec, 0);
		assert_int_equal(ek, 0);
		snprintf(what, sizeof(what), "read_format %#llx, one event", (unsigned long long)fmt);
		clock_add(5000);
		ksrc_core_diff_retire(1234 + fmt);
		read_both(what, &ev[0], 256);
		read_both(what, &ev[0], ev[0].ev->read_size - 8);
		ioctl_both(what, &ev[0], PERF_EVENT_IOC_DISABLE, 0, NULL, 0);
		clock_add(7000);
		ksrc_core_diff_retire(99);
		read_both(what, &ev[0], 256);
		reads += 3;
		ksrc_core_diff_close(&ev[0]);

		snprintf(what, sizeof(what), "read_format %#llx, a group of 3", (unsigned long long)fmt);
		for (int i = 0; i < 3; i++) {
			u64 f = i == 2 ? fmt ^ (PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_RUNNING) : fmt;

			open_counting(i == 1 ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS, f, false,
				      i ? &ev[0] : NULL, &ev[i], &ec, &ek);
			assert_int_equal(ec, 0);
			assert_int_equal(ek, 0);
		}
		for (int blk = 0; blk < 3; blk++) {
			clock_add(3000);
			ksrc_core_diff_retire(777 + (u64)blk);
			for (int i = 0; i < 3; i++) {
				read_both(what, &ev[i], 512);
				compare_event(what, &ev[i]);
			}
			reads += 3;
		}
		read_both(what, &ev[0], ev[0].ev->read_size - 8);
		for (int i = 2; i >= 0; i--)
			ksrc_core_diff_close(&ev[i]);
	}
	printf("# read(): %u reads over the %llu read_formats, single events and groups, the same "
	       "returns and bytes\n", reads, (unsigned long long)READ_FORMAT_ALL + 1);
}

/*
 * perf_event_validate_size(): siblings join a group until a read of it
 * passes 16k: first through the new member's own format (GROUP, ID, LOST
 * and the times, under a leader that reads only itself), then through the
 * leader's (the members read only themselves). The same errno at every
 * member, then the same 16k group read.
 */
/*
 * core/'s PMU for validate_size: x86's driver refuses a group larger than
 * its counters (validate_group(), -EINVAL at the 6th instructions event
 * on Skylake, in the kernel as in core/), long before a read passes 16k.
 * The kernel's side reaches the check because the unit's model driver
 * validates no group; core/'s side, through the tests' PMU (tests/lib),
 * which takes any event (the group's leader stays disabled: none runs).
 */
static struct test_pmu validate_pmu;

static void validate_size(void **state)
{
	static struct ksrc_core_diff_event ev[800];
	const u64 big = READ_FORMAT_ALL;

	(void)state;
	test_pmu_init(&validate_pmu, PERF_TYPE_RAW);
	for (int pass = 0; pass < 2; pass++) {
		int n = 0, ec, ek;

		open_counting_pmu(PERF_COUNT_HW_INSTRUCTIONS, pass ? big : PERF_FORMAT_ID, true, NULL,
				  &validate_pmu.pmu, &ev[0], &ec, &ek);
		assert_int_equal(ec, 0);
		assert_int_equal(ek, 0);
		for (n = 1; n < (int)ARRAY_SIZE(ev); n++) {
			open_counting_pmu(PERF_COUNT_HW_INSTRUCTIONS, pass ? 0 : big, false, &ev[0],
					  &validate_pmu.pmu, &ev[n], &ec, &ek);
			if (ec != ek)
				fail_msg("validate_size pass %d, member %d: core/ %d, the kernel's %d",
					 pass, n, ec, ek);
			if (ec)
				break;
		}
		assert_int_equal(ek, -E2BIG);
		if (pass)
			read_both("validate_size: the largest group read", &ev[0], ev[0].ev->read_size);
		else
			read_both("validate_size: the last member's group read", &ev[n - 1],
				  ev[n - 1].ev->read_size);
		printf("# validate_size: a group of %d %s, the %dth member -E2BIG on both\n", n,
		       pass ? "under a GROUP|ID|LOST|times leader" : "of GROUP|ID|LOST|times members",
		       n + 1);
		while (n-- > 0)
			ksrc_core_diff_close(&ev[n]);
	}
}

/* SET_OUTPUT on both into @out (NULL: -1, none) */
static void set_output_both(const char *what, const struct ksrc_core_diff_event *e,
			    const struct ksrc_core_diff_event *out, long want)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "SET_OUTPUT %s", what);
	ioctl_both(msg, e, PERF_EVENT_IOC_SET_OUTPUT, 0, out, want);
}

static void sampling_event(struct perf_event_attr a, unsigned long flags,
			   const struct ksrc_core_diff_event *group, struct ksrc_core_diff_event *e)
{
	int ec, ek;

	ksrc_core_diff_open(&a, sizeof(a), 0, group, flags, &ec, &ek, e);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
}

/*
 * PERF_EVENT_IOC_SET_OUTPUT: a second event's samples into the first's
 * buffer, the refusals (itself, a mapped event, a target without a
 * buffer, another clock, the other direction), -1 to stop, and
 * PERF_FLAG_FD_OUTPUT at perf_event_open(). The same returns, bytes and
 * state. (A group_fd that is not a perf fd, -EBADF, is the syscall's
 * file table: core/ takes events, not fds.)
 */
static void set_output(void **state)
{
	const u64 st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 7001, st);
	struct ksrc_core_diff_event b, c, d, g;

	(void)state;
	open_sampling(10007, st);
	sampling_event(a, 0, NULL, &b);
	set_output_both("to itself", &b, &b, -EINVAL);
	set_output_both("of a mapped event", &s, &b, -EINVAL);
	set_output_both("into the mapped one", &b, &s, 0);
	/*
	 * Small blocks: two events that overflow in one PMI are handled in
	 * their counters' order, which the drivers choose differently (core/'s
	 * x86 puts instructions on fixed counter 0, the unit's model driver
	 * has general-purpose counters only), so no block here ends two
	 * periods at once.
	 */
	for (int i = 0; i < 160; i++) {
		clock_add(400);
		ksrc_core_diff_retire(250);
		compare("SET_OUTPUT: two events, one buffer");
		compare_event("SET_OUTPUT: the redirected event", &b);
	}
	a.use_clockid = 1;
	a.clockid = PERF_CLOCK_MONOTONIC_RAW;
	sampling_event(a, 0, NULL, &c);
	set_output_both("with another clock", &c, &s, -EINVAL);
	a.use_clockid = 0;
	a.write_backward = 1;
	sampling_event(a, 0, NULL, &d);
	set_output_both("writing backward into a forward buffer", &d, &s, -EINVAL);
	set_output_both("into an event without a buffer", &c, &d, -EINVAL);
	ksrc_core_diff_close(&c);
	ksrc_core_diff_close(&d);
	set_output_both("-1 (no more)", &b, NULL, 0);
	set_output_both("-1 of the mapped event", &s, NULL, -EINVAL);
	a.write_backward = 0;
	a.sample_period = 8111;
	sampling_event(a, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, &s, &g);
	for (int i = 0; i < 160; i++) {
		clock_add(400);
		ksrc_core_diff_retire(250);
		compare("SET_OUTPUT: PERF_FLAG_FD_OUTPUT, and the first one stopped");
		compare_event("SET_OUTPUT: the stopped event", &b);
		compare_event("SET_OUTPUT: PERF_FLAG_FD_OUTPUT's event", &g);
	}
	printf("# set_output: 8 ioctls and PERF_FLAG_FD_OUTPUT, the same returns, bytes (%llu) and "
	       "state\n", (unsigned long long)s.rb->user_page->data_head);
	ksrc_core_diff_close(&g);
	ksrc_core_diff_close(&b);
	close_sampling();
}

/*
 * event_limit through REFRESH with attr.wakeup_events 1 and O_ASYNC: each
 * sample wakes the buffer (POLL_IN), the last of the budget hangs up
 * (POLL_HUP) and disables the event. poll() (the buffer's EPOLL* bits,
 * which it clears) and the event's pending_kill the same after each
 * block; the kernel's SIGIOs counted.
 */
static void poll_hup(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 5000,
					   PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	struct ksrc_core_sigio sig;
	struct ksrc_core_state st;
	unsigned int polls = 0, sent;
	unsigned long nr_sig = 0;

	(void)state;
	a.disabled = 1;
	a.wakeup_events = 1;
	open_sampling_attr(a);
	s.ev->fasync = true;	/* what perf_fasync() leaves in core/'s event */
	assert_int_equal(ksrc_core_fasync(s.fd, 1), 0);
	for (int round = 0; round < 2; round++) {
		int refresh = round ? 2 : 3;

		ioctl_both("POLL_HUP: REFRESH", &s, PERF_EVENT_IOC_REFRESH, (u64)refresh, NULL, 0);
		for (int i = 0; i < 5; i++) {
			const char *when = "POLL_HUP: after a period";
			unsigned int pc, pk;

			ksrc_core_diff_retire(5000);
			compare(when);
			/*
			 * The SIGIO: the kernel's irq_work (perf_pending_irq()) sends it
			 * with pending_kill's band and clears pending_kill; core/ leaves
			 * both flags to its caller (departure no-pending-irq): here,
			 * as the kernel's irq_work would.
			 */
			ksrc_core_sigio(&sig);
			sent = s.ev->pending_wakeup && s.ev->pending_kill;
			SAME("a SIGIO", sent, sig.nr - nr_sig);
			if (sent)
				SAME("the SIGIO's band", s.ev->pending_kill, sig.band);
			nr_sig = sig.nr;
			if (s.ev->pending_wakeup) {
				s.ev->pending_wakeup = 0;
				s.ev->pending_kill = 0;
			}
			assert_int_equal(ksrc_core_event_state(s.fd, &st), 0);
			SAME("pending_kill", s.ev->pending_kill, st.pending_kill);
			/* perf_poll() on core/'s event: the buffer's bits, cleared */
			pc = (unsigned int)atomic_xchg(&s.rb->poll, 0);
			pk = ksrc_core_poll(s.fd);
			SAME("poll()", pc, pk);
			polls++;
		}
	}
	printf("# departure no-pending-irq: core/ leaves pending_wakeup and pending_kill to its "
	       "caller, the kernel's perf_pending_irq() sends the SIGIO and clears pending_kill; "
	       "here the test is that irq_work on core/'s side\n");
	printf("# poll_hup: REFRESH 3 and 2, %u polls, the same bits, pending_kill, state, bytes and "
	       "SIGIOs (%lu, the last POLL_HUP %d)\n", polls, sig.nr, sig.band);
	assert_int_equal(sig.band, POLL_HUP);
	assert_int_equal(ksrc_core_fasync(s.fd, 0), 0);
	close_sampling();
}

/*
 * attr.write_backward into a read-only mapping (overwrite): records go
 * down from 0, the buffer wraps over its oldest records, PAUSE_OUTPUT
 * stops and restarts it. The same data_head and every byte of the buffer.
 */
static void write_backward(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000,
					   PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					   PERF_SAMPLE_PERIOD);

	(void)state;
	a.write_backward = 1;
	open_sampling_prot(a, false);
	for (int i = 0; i < 2400; i++) {
		clock_add(1000);
		ksrc_core_diff_retire(1000);
		if (i % 50 == 49) {
			ksrc_core_diff_tick();
		}
		if (i % 40 == 0)
			compare("write_backward: after a block");
		if (i == 2000 || i == 2200) {
			unsigned long pause = i == 2000;

			ioctl_both("write_backward: PAUSE_OUTPUT", &s, PERF_EVENT_IOC_PAUSE_OUTPUT, pause,
				   NULL, 0);
		}
	}
	compare("write_backward: the end");
	printf("# write_backward: 2400 periods into an overwritten buffer, PAUSE_OUTPUT: the same "
	       "data_head (%lld) and bytes\n", (long long)s.rb->user_page->data_head);
	close_sampling();
}

/*
 * PERF_SAMPLE_CALLCHAIN: the kernel's callchain.c with the model driver's
 * walkers (x86's), core/'s callchain.c with its regs' callers, the same
 * user stack of 9 return addresses: sample_max_stack 0 (the sysctl's 127),
 * above the stack, below it, 1; exclude_callchain_user and _kernel, both;
 * a sample_max_stack above the sysctl (-EOVERFLOW at perf_event_open()).
 * The same bytes (the PERF_CONTEXT_USER marker, the ips, the cut).
 */
static void callchains(void **state)
{
	static const u64 stack[] = { 0x401010, 0x401200, 0x402040, 0x403000, 0x403ff8,
				     0x404100, 0x405000, 0x7f0000001000, 0x7f0000002000 };
	static const struct { u16 max_stack; bool excl_user, excl_kernel; } c[] = {
		{ 0, false, false }, { 32, false, false }, { 4, false, false }, { 1, false, false },
		{ 0, true, false }, { 0, false, true }, { 3, false, true }, { 0, true, true },
	};
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2000,
					   PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD);
	struct ksrc_core_diff_event e;
	int ec, ek;

	(void)state;
	ksrc_core_diff_set_user_stack(stack, ARRAY_SIZE(stack));
	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		a.sample_max_stack = c[i].max_stack;
		a.exclude_callchain_user = c[i].excl_user;
		a.exclude_callchain_kernel = c[i].excl_kernel;
		open_sampling_attr(a);
		for (int j = 0; j < 6; j++) {
			ksrc_core_diff_retire(1999 + (u64)j);
			compare("callchain: after a block");
		}
		close_sampling();
	}
	a.sample_max_stack = 300;
	open_both(&a, 0, &ec, &ek, &e);
	ksrc_core_diff_close(&e);
	if (ec != ek || ec != -EOVERFLOW)
		fail_msg("callchain: sample_max_stack 300: core/ %d, the kernel's %d", ec, ek);
	ksrc_core_diff_set_user_stack(NULL, 0);
	printf("# callchains: %zu sample_max_stack/exclude_callchain_* cases over a user stack of %zu, "
	       "the same bytes; sample_max_stack above the sysctl -EOVERFLOW on both\n", ARRAY_SIZE(c),
	       ARRAY_SIZE(stack));
}

/* core/'s second process, as the shim's (ksrc/kernel/events/core_shim.c): pid 2 */
static struct task_struct core_task2 = { .pid = 2, .tid = 2, .comm = "ksrc" };

static struct task_struct *core_find_task(int pid)
{
	return pid == 1 ? core_task : pid == 2 ? &core_task2 : NULL;
}

/*
 * A context switch on CPU 0 on both, core/'s as sim/run.c's hooks make it;
 * @prev preempted (still on its run queue) or going to sleep.
 */
static void switch_both(struct task_struct *prev, struct task_struct *next, bool preempted)
{
	prev->on_rq = preempted;
	next->on_rq = 1;
	perf_event_switch(prev, next, false);
	x86_pmu_sched_out(prev);
	perf_event_sched_out(0, prev);
	pmusim_curr[0] = next;
	perf_event_sched_in(0, next);
	x86_pmu_sched_in(next);
	perf_event_switch(next, prev, true);
	perf_event_irq_work_run();
	assert_int_equal(ksrc_core_switch_to(next->pid, preempted), 0);
}

/*
 * A per-task event (pid 2, any CPU) with attr.context_switch: it counts
 * and samples only while its task runs, and writes a SWITCH record (with
 * sample_id_all's trailer) at each switch in and out. The same bytes,
 * count, periods and state after every block and switch; a pid no task
 * has is -ESRCH on both.
 */
static void per_task(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 3001,
					   PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					   PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD);
	struct ksrc_core_diff_event none;
	int ec, ek;

	(void)state;
	perf_find_task_by_vpid = core_find_task;
	a.context_switch = 1;
	a.sample_id_all = 1;
	ksrc_core_diff_open_on(&a, sizeof(a), 3, -1, NULL, NULL, 0, &ec, &ek, &none);
	ksrc_core_diff_close(&none);
	if (ec != ek || ec != -ESRCH)
		fail_msg("per_task: pid 3: core/ %d, the kernel's %d", ec, ek);
	ksrc_core_diff_open_on(&a, sizeof(a), 2, -1, NULL, NULL, 0, &ec, &ek, &s);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
	map_sampling(true);
	compare("per_task: opened, its task not running");
	for (int round = 0; round < 4; round++) {
		clock_add(1000);
		switch_both(core_task, &core_task2, round & 1);
		compare("per_task: switched in");
		for (int i = 0; i < 5; i++) {
			clock_add(2000);
			ksrc_core_diff_retire(1700 + (u64)round * 100);
			compare("per_task: its task runs");
		}
		clock_add(1000);
		switch_both(&core_task2, core_task, !(round & 1));
		compare("per_task: switched out");
		ksrc_core_diff_retire(5000);
		compare("per_task: another task runs");
	}
	printf("# per_task: 8 context switches (preempted or asleep), the same SWITCH records, samples (%llu bytes), count "
	       "and periods; pid 3 -ESRCH on both\n", (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
	perf_find_task_by_vpid = NULL;
}

/* a seeded xorshift64*: the same attrs on every run */
static u64 fuzz_seed = 0x26c0de;

static u64 fuzz_next(void)
{
	fuzz_seed ^= fuzz_seed >> 12;
	fuzz_seed ^= fuzz_seed << 25;
	fuzz_seed ^= fuzz_seed >> 27;
	return fuzz_seed * 0x2545f4914f6cdd1dULL;
}

/* @n in 0..@of-1 */
static u64 fuzz_below(u64 of)
{
	return fuzz_next() % of;
}

/*
 * The sample_type bits the fuzzer sets. Not: REGS_USER, STACK_USER,
 * REGS_INTR (the arch's perf_regs.c is not in the unit), BRANCH_STACK (the
 * unit's model driver has no LBR: lbr.c is the lbr unit's).
 */
#define FUZZ_SAMPLE_TYPES	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	PERF_SAMPLE_CALLCHAIN | \
	PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
	PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT | \
	PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TRANSACTION | \
	PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP | \
	PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * The first reserved flag bit: the seeds' own (CONFIG_PERF_HW_TIME's
 * hw_time) are left to the seeds' CONFIG section, as is
 * alternative_sample_period (the fuzzer writes no attr field past config2).
 */
#ifdef CONFIG_PERF_HW_TIME
#define FUZZ_RESERVED_BIT	39
#else
#define FUZZ_RESERVED_BIT	38
#endif

/*
 * One random attr in @buf (@cap bytes) and the flags for perf_event_open()
 * in *@flags: a valid base (a hardware event, a random period, sample_type
 * and read_format) with up to four random changes, so that most attrs get
 * past the first checks and each check is reached with the others passed.
 */
static void fuzz_attr(unsigned char *buf, size_t cap, unsigned long *flags)
{
	static const u32 types[] = { PERF_TYPE_SOFTWARE, PERF_TYPE_HW_CACHE, PERF_TYPE_TRACEPOINT,
				     PERF_TYPE_BREAKPOINT, 6, 7, 8, 1000 };
	static const u64 raw[] = { 0xc0, 0x3c, 0x412e, 0xc4 };
	static const u32 sizes[] = { 0, 32, PERF_ATTR_SIZE_VER0, 72, 80, 96, 104, 112, 120, 128, 136 };
	static const int clocks[] = { 0, 1, 2, 4, 7, 11, 99 };
	struct perf_event_attr *a = (void *)buf;
	size_t flags_at = offsetof(struct perf_event_attr, read_format) + 8;
	u64 bits;

	memset(buf, 0, cap);
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = fuzz_below(2);
	a->sample_period = fuzz_below(4) ? fuzz_below(20000) : 0;
	a->sample_type = fuzz_next() & PERF_SAMPLE_PMUSIM_MASK & ~PERF_SAMPLE_BRANCH_STACK;
	a->sample_max_stack = (u16)fuzz_below(160);
	a->read_format = fuzz_next() & READ_FORMAT_ALL;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->wakeup_events = (u32)fuzz_below(4);
	*flags = fuzz_below(2) ? PERF_FLAG_FD_CLOEXEC : 0;
	for (u64 n = fuzz_below(5); n; n--) {
		switch (fuzz_below(16)) {
		case 0:
			a->type = types[fuzz_below(ARRAY_SIZE(types))];
			break;
		case 1:
			a->type = PERF_TYPE_RAW;
			a->config = raw[fuzz_below(ARRAY_SIZE(raw))];
			break;
		case 2:		/* an extended hardware type: a PMU's type in config's top half */
			a->config |= (u64)(fuzz_below(8) + 1) << 32;
			break;
		case 3:
			a->sample_type |= fuzz_next() & FUZZ_SAMPLE_TYPES;
			break;
		case 4:
			a->sample_type |= 1ULL << (25 + fuzz_below(39));
			break;
		case 5:
			a->read_format |= 1ULL << (5 + fuzz_below(59));
			break;
		case 6:
		case 7:		/* one flag bit of those every tree defines */
			memcpy(&bits, buf + flags_at, 8);
			bits ^= 1ULL << fuzz_below(38);
			memcpy(buf + flags_at, &bits, 8);
			break;
		case 8:		/* a reserved flag bit */
			memcpy(&bits, buf + flags_at, 8);
			bits |= 1ULL << (FUZZ_RESERVED_BIT + fuzz_below(64 - FUZZ_RESERVED_BIT));
			memcpy(buf + flags_at, &bits, 8);
			break;
		case 9:
			a->precise_ip = fuzz_below(4) & 3;
			break;
		case 10:
			a->freq = 1;
			a->sample_freq = fuzz_below(2) ? fuzz_below(200000) : fuzz_next();
			break;
		case 11:
			a->use_clockid = 1;
			a->clockid = clocks[fuzz_below(ARRAY_SIZE(clocks))];
			break;
		case 12:
			a->size = sizes[fuzz_below(ARRAY_SIZE(sizes))];
			break;
		case 13:
			/*
			 * past the struct: taken if the rest is zero (a byte set only past
			 * core/'s struct, which may be longer than the tree's by a seed's field)
			 */
			a->size = (u32)(sizeof(*a) + 8 * (fuzz_below(3) + 1));
			if (fuzz_below(2))
				buf[a->size - 1] = 1;
			break;
		case 14:
			a->sample_period = fuzz_next();
			a->config1 = fuzz_next();
			a->config2 = fuzz_next();
			a->bp_type = (u32)fuzz_next();
			a->branch_sample_type = fuzz_next();
			a->sample_max_stack = (u16)fuzz_next();
			a->aux_watermark = (u32)fuzz_next();
			break;
		default:
			*flags |= 1UL << fuzz_below(8);
			break;
		}
	}
}

/*
 * The kernel's software PMUs, whose types core/ does not have (departure
 * no-software-pmu): PERF_TYPE_SOFTWARE, and cpu_clock and task_clock,
 * registered next with the first dynamic types.
 */
static bool fuzz_software_pmu(const struct perf_event_attr *a)
{
	u64 ext = a->config >> PERF_PMU_TYPE_SHIFT;

	if (a->type != PERF_TYPE_HARDWARE && a->type != PERF_TYPE_HW_CACHE)
		ext = a->type;
	return ext == PERF_TYPE_SOFTWARE || ext == PERF_TYPE_MAX || ext == PERF_TYPE_MAX + 1;
}

/*
 * perf_event_open() with seeded random attrs (sizes, reserved bits,
 * sample_type, read_format, branch_sample_type, precise_ip, the flag bits,
 * clocks, flags): the same errno from both, or both an event. Runs last:
 * the events it opens take IDs on each side as its side decides.
 */
static void attr_fuzz(void **state)
{
	static unsigned char buf[256];
	unsigned int opened = 0, refused = 0, sw_departed = 0, unwritten = 0, old_tree = 0;

	(void)state;
	for (int i = 0; i < 4000; i++) {
		struct ksrc_core_diff_event e;
		unsigned long flags;
		int ec, ek;

		fuzz_attr(buf, sizeof(buf), &flags);
		ksrc_core_diff_open(buf, sizeof(buf), 0, NULL, flags, &ec, &ek, &e);
		ksrc_core_diff_close(&e);
		if (ec == ek) {
			if (ec)
				refused++;
			else
				opened++;
			continue;
		}
		if (fuzz_software_pmu((struct perf_event_attr *)buf)) {
			if (!sw_departed++)
				printf("# departure no-software-pmu: a type, or an extended hardware "
				       "type, of one of the kernel's software PMUs (software 1, cpu_clock "
				       "6, task_clock 7): their event_init decides in the kernel (an "
				       "extended type: -ENOENT), core/ has no such PMU (-ENOENT; an "
				       "extended type: its CPU PMU takes the plain event)\n");
			continue;
		}
#if KSRC_VERSION_CODE < KSRC_KERNEL_VERSION(6, 12, 0)
		if (((struct perf_event_attr *)buf)->inherit &&
		    (((struct perf_event_attr *)buf)->sample_type & PERF_SAMPLE_READ) &&
		    ec == 0 && ek == -EINVAL) {
			if (!old_tree++)
				printf("# departure inherit-sample-read: core/ takes inherit with "
				       "PERF_SAMPLE_READ (and TID) as v6.12 does (\"perf: Support "
				       "PERF_SAMPLE_READ with inherit\"); %s refuses it\n", KSRC_VERSION);
			continue;
		}
#endif
		if (ec == -EOPNOTSUPP &&
		    (((struct perf_event_attr *)buf)->sample_type & ~PERF_SAMPLE_PMUSIM_MASK)) {
			if (!unwritten++)
				printf("# departure sample-types-unwritten: core/sample.c writes no RAW, "
				       "WEIGHT, DATA_SRC, TRANSACTION, PHYS_ADDR, AUX, CGROUP, page sizes; "
				       "core/ refuses them at perf_event_open() (-EOPNOTSUPP, first of "
				       "its checks), the kernel's file takes them or fails later\n");
			continue;
		}
		fail_msg("attr %d (seed %#llx): core/ %d, the kernel's %d; attr: type %u config %#llx "
			 "size %u sample_type %#llx read_format %#llx flags %#llx precise %u "
			 "clockid %d branch %#llx open flags %#lx", i, (unsigned long long)fuzz_seed,
			 ec, ek, ((struct perf_event_attr *)buf)->type,
			 (unsigned long long)((struct perf_event_attr *)buf)->config,
			 ((struct perf_event_attr *)buf)->size,
			 (unsigned long long)((struct perf_event_attr *)buf)->sample_type,
			 (unsigned long long)((struct perf_event_attr *)buf)->read_format,
			 (unsigned long long)*(u64 *)(buf + offsetof(struct perf_event_attr, read_format) + 8),
			 ((struct perf_event_attr *)buf)->precise_ip,
			 ((struct perf_event_attr *)buf)->clockid,
			 (unsigned long long)((struct perf_event_attr *)buf)->branch_sample_type, flags);
	}
	printf("# attr fuzzing: 4000 random attrs, %u opened on both, %u refused with the same errno, "
	       "departures: %u sample-types-unwritten, %u no-software-pmu, %u inherit-sample-read\n",
	       opened, refused, unwritten, sw_departed, old_tree);
}

/*
 * Throttling a group: the leader samples (period 100) until the tick's
 * budget throttles it, a sibling counts cycles. Departure group-throttle
 * (KSRC_CORE_THROTTLE_GROUP, from the tree's file: v6.16's 9734e25fbf5a
 * with its follow-ups): that kernel stops the whole group with its leader
 * (the sibling's hw.interrupts MAX_INTERRUPTS, its count still) and starts
 * it again at the tick; core/ stops the leader only. Anything else that
 * differs fails.
 */
static void group_throttle(void **state)
{
	struct perf_event_attr b = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0);
	struct ksrc_core_diff_event sib;
	struct ksrc_core_state st;
	u64 lost = 0, blocks = 0;
	int ec, ek;

	(void)state;
	open_sampling(100, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	ksrc_core_diff_open(&b, sizeof(b), 0, &s, 0, &ec, &ek, &sib);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
	for (int i = 0; i < 190; i++) {
		bool throttled;
		u64 cc, ck;

		if (i == 150) {
			ksrc_core_diff_tick();
			compare("group throttle: the tick after");
		}
		throttled = s.ev->hw.interrupts == MAX_INTERRUPTS;
		ksrc_core_diff_retire(100);
		compare("group throttle: the leader");
		sib.ev->pmu->read(sib.ev);
		assert_int_equal(ksrc_core_event_state(sib.fd, &st), 0);
		cc = local64_read(&sib.ev->count);
		ck = st.count;
#ifdef KSRC_CORE_THROTTLE_GROUP
		/* the block that throttled the leader was counted by both */
		if (throttled) {
			lost += 100;
			blocks++;
		}
		if (st.interrupts != (s.ev->hw.interrupts == MAX_INTERRUPTS ? MAX_INTERRUPTS : 0))
			fail_msg("group throttle: block %d: the kernel's sibling hw.interrupts %llu, "
				 "the leader's %llu", i, (unsigned long long)st.interrupts,
				 (unsigned long long)s.ev->hw.interrupts);
#else
		(void)throttled;
		(void)blocks;
		if (st.interrupts != sib.ev->hw.interrupts)
			fail_msg("group throttle: block %d: sibling hw.interrupts: core/ %llu, the kernel's %llu",
				 i, (unsigned long long)sib.ev->hw.interrupts, (unsigned long long)st.interrupts);
#endif
		if (cc != ck + lost)
			fail_msg("group throttle: block %d: sibling count: core/ %llu, the kernel's %llu "
				 "(%llu cycles the group-throttle departure explains)", i,
				 (unsigned long long)cc, (unsigned long long)ck, (unsigned long long)lost);
	}
#ifdef KSRC_CORE_THROTTLE_GROUP
	assert_true(blocks > 0);
	printf("# departure group-throttle (9734e25fbf5a, v6.16): the kernel stops the sibling with its "
	       "throttled leader for %llu blocks (%llu cycles not counted), core/ keeps it counting; "
	       "the leader's bytes and state the same\n",
	       (unsigned long long)blocks, (unsigned long long)lost);
#else
	printf("# group throttle: the leader throttled and back at the tick, the sibling counting "
	       "throughout on both\n");
#endif
	ksrc_core_diff_close(&sib);
	close_sampling();
}

/* perf_copy_attr()'s limit on attr.size: a page */
#define ATTR_PAGE	4096

/*
 * perf_event_open() on the attr's bytes as user space hands them: @size
 * in attr.size (and as core/'s size), the bytes beyond the struct as
 * given. Each side gets a copy (the kernel writes its size back on
 * E2BIG). 0 or -errno, the same from both or the test fails.
 */
static int open_bytes_both(const char *what, const unsigned char *bytes, size_t len, u32 size)
{
	static unsigned char bc[ATTR_PAGE + 64], bk[ATTR_PAGE + 64];
	struct perf_event *ev = NULL;
	int ec, ek, fd;

	assert_true(len <= sizeof(bc));
	memcpy(bc, bytes, len);
	memcpy(bk, bytes, len);
	memcpy(bc + offsetof(struct perf_event_attr, size), &size, sizeof(size));
	memcpy(bk + offsetof(struct perf_event_attr, size), &size, sizeof(size));
	ec = perf_event_open_attr(bc, size, -1, 0, NULL, 0, NULL, &ev);
	fd = ksrc_core_perf_event_open(bk, -1, 0, -1, 0);
	ek = fd < 0 ? fd : 0;
	if (ev)
		perf_event_release_kernel(ev);
	if (fd >= 0)
		ksrc_core_close(fd);
	if (ec != ek)
		fail_msg("%s: core/ %d, the kernel's core.c %d", what, ec, ek);
	return ec;
}

/* attr.size at its limits: 0 (the VER0 quirk), VER0, below it, longer structs */
static void attr_sizes(void **state)
{
	static unsigned char b[ATTR_PAGE + 64];
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000,
					   PERF_SAMPLE_IP);
	static const struct { const char *what; u32 size; int nonzero_at; int err; } c[] = {
		{ "attr.size 0 (read as PERF_ATTR_SIZE_VER0)", 0, -1, 0 },
		{ "attr.size PERF_ATTR_SIZE_VER0", PERF_ATTR_SIZE_VER0, -1, 0 },
		{ "attr.size PERF_ATTR_SIZE_VER0 - 8", PERF_ATTR_SIZE_VER0 - 8, -1, -E2BIG },
		{ "attr.size PERF_ATTR_SIZE_VER1", PERF_ATTR_SIZE_VER1, -1, 0 },
		{ "attr.size a page, the tail zero", ATTR_PAGE, -1, 0 },
		{ "attr.size a page, a byte set at its end", ATTR_PAGE, ATTR_PAGE - 1, -E2BIG },
		{ "attr.size a page and one", ATTR_PAGE + 1, -1, -E2BIG },
		{ "attr.size 256, a byte set past both structs", 256, 255, -E2BIG },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		memset(b, 0, sizeof(b));
		memcpy(b, &a, sizeof(a));
		if (c[i].nonzero_at >= 0)
			b[c[i].nonzero_at] = 1;
		/* the expected errno keeps the check from passing on two wrong answers */
		assert_int_equal(open_bytes_both(c[i].what, b, sizeof(b), c[i].size), c[i].err);
	}
	printf("# %zu attr sizes (0, VER0 and below, VER1, a page and beyond, a non-zero tail): "
	       "the same errno or both an event\n", ARRAY_SIZE(c));
}

/* attr's reserved bits: __reserved_1 (the flags' top bit), __reserved_2, __reserved_3 */
static void attr_reserved(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000,
					   PERF_SAMPLE_IP);
	/* the byte offsets of the uapi layout: the flags word, __reserved_2, __reserved_3's top byte */
	static const struct { const char *what; size_t off; unsigned char bit; } c[] = {
		{ "__reserved_1 (bit 63 of the flags)", 47, 0x80 },
		{ "__reserved_2", offsetof(struct perf_event_attr, sample_max_stack) + 2, 0x01 },
		{ "__reserved_2's top byte", offsetof(struct perf_event_attr, sample_max_stack) + 3, 0x80 },
		{ "__reserved_3 (bit 31)", offsetof(struct perf_event_attr, aux_sample_size) + 7, 0x80 },
	};
	unsigned char b[sizeof(a)];

	(void)state;
	memcpy(b, &a, sizeof(a));
	assert_int_equal(open_bytes_both("no reserved bit", b, sizeof(b), sizeof(a)), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		memcpy(b, &a, sizeof(a));
		b[c[i].off] |= c[i].bit;
		assert_int_equal(open_bytes_both(c[i].what, b, sizeof(b), sizeof(a)), -EINVAL);
	}
	printf("# %zu reserved fields of the attr set: EINVAL from both\n", ARRAY_SIZE(c));
}

/* sample_freq at the maximum rate is allowed, one above it is not */
static void attr_freq_limit(void **state)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0,
					   PERF_SAMPLE_IP);

	(void)state;
	a.freq = 1;
	a.sample_freq = (u64)sysctl_perf_event_sample_rate;
	assert_int_equal(open_bytes_both("sample_freq at the maximum rate", (void *)&a, sizeof(a),
					 sizeof(a)), 0);
	a.sample_freq++;
	assert_int_equal(open_bytes_both("sample_freq one above the maximum rate", (void *)&a,
					 sizeof(a), sizeof(a)), -EINVAL);
	printf("# sample_freq %d (the maximum rate) opens on both, %d is EINVAL on both\n",
	       sysctl_perf_event_sample_rate, sysctl_perf_event_sample_rate + 1);
}

/* Both sides' pending_kill: the band a SIGIO owner would be sent */
static int same_pending_kill(const char *when)
{
	struct ksrc_core_state st;

	assert_int_equal(ksrc_core_event_state(s.fd, &st), 0);
	if (s.ev->pending_kill != st.pending_kill)
		fail_msg("%s: pending_kill: core/ %d, the kernel's %d", when, s.ev->pending_kill,
			 st.pending_kill);
	return st.pending_kill;
}

/* REFRESH 2: the first overflow signals POLL_IN, the last POLL_HUP and disables */
static void event_limit_hup(void **state)
{
	int in = 0, hup = 0;

	(void)state;
	open_sampling(3000, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	assert_int_equal(perf_ioctl(s.ev, PERF_EVENT_IOC_REFRESH, 2), 0);
	assert_int_equal(ksrc_core_ioctl(s.fd, PERF_EVENT_IOC_REFRESH, 2), 0);
	for (int i = 0; i < 5; i++) {
		int band;

		ksrc_core_diff_retire(3001);
		ksrc_irq_work_run();
		compare("event_limit");
		band = same_pending_kill("event_limit");
		in += band == POLL_IN;
		hup += band == POLL_HUP;
	}
	/* one block of POLL_IN, then POLL_HUP, which stays: the event is off */
	assert_int_equal(in, 1);
	assert_int_equal(hup, 4);
	assert_int_equal(s.ev->state, PERF_EVENT_STATE_OFF);
	printf("# event_limit 2: POLL_IN, then POLL_HUP and the event off, on both\n");
	close_sampling();
}

/* REFRESH adds to what is left: 2 then 3 before any overflow give 5 samples */
static void refresh_adds(void **state)
{
	int active = 0;

	(void)state;
	open_sampling(3000, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	for (int r = 2; r <= 3; r++) {
		assert_int_equal(perf_ioctl(s.ev, PERF_EVENT_IOC_REFRESH, (unsigned long)r), 0);
		assert_int_equal(ksrc_core_ioctl(s.fd, PERF_EVENT_IOC_REFRESH, (unsigned long)r), 0);
	}
	for (int i = 0; i < 8; i++) {
		ksrc_core_diff_retire(3001);
		ksrc_irq_work_run();
		compare("REFRESH 2 + 3");
		active += s.ev->state == PERF_EVENT_STATE_ACTIVE;
	}
	assert_int_equal(active, 4);	/* the 5th overflow turned it off */
	assert_int_equal(s.rb->user_page->data_head, 5 * (sizeof(struct perf_event_header) + 16));
	printf("# REFRESH 2 then 3: 5 samples, then the event off, on both\n");
	close_sampling();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_errnos),
		cmocka_unit_test(pmis),
		cmocka_unit_test(throttle),
		cmocka_unit_test(freq),
		cmocka_unit_test(ioctls),
		cmocka_unit_test(group_read),
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
		cmocka_unit_test(alt_sample_period),
#endif
#ifdef CONFIG_PERF_HW_TIME
		cmocka_unit_test(hw_time),
#endif
#ifdef CONFIG_PERF_TASK_CTX_DATA
		cmocka_unit_test(task_ctx_data_fork),
#endif
		cmocka_unit_test(read_formats),
		cmocka_unit_test(validate_size),
		cmocka_unit_test(set_output),
		cmocka_unit_test(poll_hup),
		cmocka_unit_test(write_backward),
		cmocka_unit_test(callchains),
		cmocka_unit_test(per_task),
		cmocka_unit_test(group_throttle),
		cmocka_unit_test(attr_sizes),
		cmocka_unit_test(attr_reserved),
		cmocka_unit_test(attr_freq_limit),
		cmocka_unit_test(event_limit_hup),
		cmocka_unit_test(refresh_adds),
		/* last: its events take IDs as each side decides */
		cmocka_unit_test(attr_fuzz),
	};

	printf("# kernel/events/core.c of %s against core/\n", KSRC_VERSION);
	return cmocka_run_group_tests(tests, setup, NULL);
}
#else
static void no_tree(void **state)
{
	(void)state;
	printf(KSRC_NO_UNIT("core") "\n");
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(no_tree) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
