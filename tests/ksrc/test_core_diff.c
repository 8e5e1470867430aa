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
 * KSRC_CORE_DIFF_DUMP=1 prints both buffers' records at each comparison.
 * Part of make ksrc-check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_CORE
#include "core/perf_event.h"
#include "core/internal.h"
#include "core/x86/pmu.h"
#include "ksrc/core_ksrc.h"
#include "ksrc/oracle/core_diff.h"
#include "model/model.h"

#define NR_PAGES	16

/* one clock for both sides: core/'s perf_clock() and the kernel's local_clock() */
static u64 now_ns;

static void clock_set(u64 ns)
{
	now_ns = ns;
	ksrc_core_diff_set_clock(ns);
}

/* the lockstep pair (ksrc/oracle/core_diff.c) */
static int setup(void **state)
{
	(void)state;
	if (ksrc_core_diff_begin())
		return -1;
	clock_set(1000000);
	return 0;
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

/* Both open @a (CPU-wide on CPU 0): 0/-errno each; the events when both opened. */
static void open_both(const struct perf_event_attr *a, unsigned long flags, int *err_core,
		      int *err_ksrc, struct perf_event **ev, int *fd)
{
	struct ksrc_core_diff_event e;

	ksrc_core_diff_open(a, sizeof(*a), 0, NULL, flags, err_core, err_ksrc, &e);
	*ev = e.ev;
	*fd = e.fd;
}

static void close_both(struct perf_event *ev, int fd)
{
	if (ev)
		perf_event_release_kernel(ev);
	if (fd >= 0)
		ksrc_core_close(fd);
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
		struct perf_event *ev;
		int ec, ek, fd;

		open_both(&c[i].a, c[i].flags, &ec, &ek, &ev, &fd);
		close_both(ev, fd);
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

static struct ksrc_core_diff_event s;

static void open_sampling_attr(struct perf_event_attr a)
{
	int ec, ek;

	ksrc_core_diff_open(&a, sizeof(a), 0, NULL, 0, &ec, &ek, &s);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
	ksrc_core_diff_mmap(&s, NR_PAGES, &ec, &ek);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
}

static void open_sampling(u64 period, u64 sample_type)
{
	open_sampling_attr(attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, period, sample_type));
}

static void close_sampling(void)
{
	ksrc_core_diff_close(&s);
}

/* The same bytes in both buffers, the same period state; names the first difference. */
static void compare(const char *when)
{
	char why[256];

	if (ksrc_core_diff_compare(&s, why, sizeof(why)))
		fail_msg("%s: %s", when, why);
}

static void retire_both(u64 insns)
{
	ksrc_core_diff_retire(insns);
}

static void pmis(void **state)
{
	u64 before = ksrc_core_diff_nr_pmis();

	(void)state;
	open_sampling(10007, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_ID | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ);
	for (int i = 0; i < 50; i++) {
		retire_both(997 + (u64)i * 31);
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
		retire_both(100);
		compare("PMIs within one tick");
	}
	perf_event_task_tick();
	perf_event_irq_work_run();
	ksrc_core_tick();
	compare("the tick after");
	for (int i = 0; i < 20; i++) {
		retire_both(100);
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
		clock_set(now_ns + 20000);
		retire_both(20000 + (u64)(i % 7) * 1000);
		compare("freq: after a block");
		if (i % 50 == 49) {
			perf_event_task_tick();
			perf_event_irq_work_run();
			ksrc_core_tick();
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
	static const struct { const char *what; unsigned int cmd; u64 arg; bool ptr; } op[] = {
		{ "DISABLE", PERF_EVENT_IOC_DISABLE, 0, false },
		{ "PERIOD 5000", PERF_EVENT_IOC_PERIOD, 5000, true },
		{ "ENABLE", PERF_EVENT_IOC_ENABLE, 0, false },
		{ "RESET", PERF_EVENT_IOC_RESET, 0, false },
		{ "REFRESH 3", PERF_EVENT_IOC_REFRESH, 3, false },
		{ "REFRESH 0 (EINVAL)", PERF_EVENT_IOC_REFRESH, 0, false },
		{ "PERIOD 0 (EINVAL)", PERF_EVENT_IOC_PERIOD, 0, true },
		{ "PERIOD 2^63 (EINVAL)", PERF_EVENT_IOC_PERIOD, 1ULL << 63, true },
		{ "PAUSE_OUTPUT 1", PERF_EVENT_IOC_PAUSE_OUTPUT, 1, false },
		{ "PAUSE_OUTPUT 0", PERF_EVENT_IOC_PAUSE_OUTPUT, 0, false },
		{ "an unknown ioctl (ENOTTY)", PERF_EVENT_IOC_ENABLE + 0x40, 0, false },
		{ "ENABLE", PERF_EVENT_IOC_ENABLE, 0, false },
		{ "PERIOD 3000", PERF_EVENT_IOC_PERIOD, 3000, true },
	};

	(void)state;
	open_sampling(10000, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	for (unsigned int i = 0; i < ARRAY_SIZE(op); i++) {
		u64 vc = op[i].arg, vk = op[i].arg;
		long rc, rk;

		rc = perf_ioctl(s.ev, op[i].cmd, op[i].ptr ? (unsigned long)&vc : (unsigned long)vc);
		rk = ksrc_core_ioctl(s.fd, op[i].cmd, op[i].ptr ? (unsigned long)&vk : (unsigned long)vk);
		if (rc != rk)
			fail_msg("ioctl %s: core/ %ld, the kernel's %ld", op[i].what, rc, rk);
		perf_event_irq_work_run();
		ksrc_irq_work_run();
		compare(op[i].what);
		for (int j = 0; j < 5; j++) {
			retire_both(3001);
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
	struct perf_event *sib[2];
	int fds[2];

	(void)state;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST;
	open_sampling_attr(a);
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr b = attr_of(PERF_TYPE_HARDWARE,
						   i ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS,
						   0, 0);
		struct perf_event_attr bk = b;
		int ec;

		b.read_format = a.read_format;
		bk.read_format = a.read_format;
		ec = perf_event_open_attr(&b, b.size, -1, 0, s.ev, 0, NULL, &sib[i]);
		fds[i] = ksrc_core_perf_event_open(&bk, -1, 0, s.fd, 0);
		assert_int_equal(ec, 0);
		assert_true(fds[i] >= 0);
	}
	for (int i = 0; i < 40; i++) {
		clock_set(now_ns + 3000);
		retire_both(2999);
		compare("group: after a block");
	}
	printf("# group of 3, leader sampling PERF_SAMPLE_READ with GROUP|ID|TIMES|LOST: the same "
	       "bytes (%llu)\n", (unsigned long long)s.rb->user_page->data_head);
	for (int i = 0; i < 2; i++)
		close_both(sib[i], fds[i]);
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
