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
#include "core/task_ctx_data.h"
#include "ksrc/core_ksrc.h"
#include "model/model.h"

#define NR_PAGES	16
#define PAGE		4096

static struct model_cpu *cpu_core, *cpu_ksrc;
/* one clock for both sides: core/'s perf_clock() and the kernel's local_clock() */
static u64 now_ns;

static u64 core_clock(void)
{
	return now_ns;
}

static void clock_set(u64 ns)
{
	now_ns = ns;
	ksrc_core_set_clock(ns);
}
static struct pt_regs core_regs = { .user = true };
/* core/'s running task, as the shim's (ksrc/kernel/events/core_shim.c): pid 1, tid 1 */
static struct task_struct core_task = { .pid = 1, .tid = 1, .comm = "ksrc" };

static int setup(void **state)
{
	const struct model_cpu_desc *d = model_cpu_desc_lookup("skylake");

	(void)state;
	cpu_core = model_cpu_create(d, 0);
	cpu_ksrc = model_cpu_create(d, 0);
	if (!cpu_core || !cpu_ksrc || x86_pmu_attach_cpu(0, cpu_core))
		return -1;
	x86_pmu_set_irq_regs(0, &core_regs);
	pmusim_clock_ns = core_clock;
	pmusim_curr[0] = &core_task;
	clock_set(1000000);
	return ksrc_core_boot(cpu_ksrc);
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
	struct perf_event_attr ac = *a, ak = *a;

	*ev = NULL;
	*err_core = perf_event_open_attr(&ac, ac.size, -1, 0, NULL, flags, NULL, ev);
	*fd = ksrc_core_perf_event_open(&ak, -1, 0, -1, flags);
	*err_ksrc = *fd < 0 ? *fd : 0;
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

/* The buffer's data from its tail (0) to data_head, as user space sees it. */
static u64 core_rb_copy(struct perf_buffer *rb, unsigned char *dst, size_t len)
{
	u64 head = rb->user_page->data_head;
	u64 size = (u64)rb->nr_pages * PAGE;

	for (u64 i = 0; i < head && i < len; i++) {
		u64 off = i & (size - 1);

#ifdef CONFIG_PERF_USE_VMALLOC
		dst[i] = ((unsigned char *)rb->data_pages[0])[off];
#else
		dst[i] = ((unsigned char *)rb->data_pages[off / PAGE])[off % PAGE];
#endif
	}
	return head;
}

static struct {
	struct perf_event *ev;
	struct perf_buffer *rb;
	int fd;
} s;

static void open_sampling_attr(struct perf_event_attr a)
{
	int ec, ek;

	open_both(&a, 0, &ec, &ek, &s.ev, &s.fd);
	assert_int_equal(ec, 0);
	assert_int_equal(ek, 0);
	/* core/'s perf_mmap(), as sim/run.c has it */
	s.rb = rb_alloc(NR_PAGES, 0, 0, RING_BUFFER_WRITABLE);
	assert_non_null(s.rb);
	refcount_inc(&s.rb->refcount);
	ring_buffer_attach(s.ev, s.rb);
	perf_event_init_userpage(s.ev);
	perf_event_update_userpage(s.ev);
	assert_int_equal(ksrc_core_mmap(s.fd, NR_PAGES), 0);
}

static void open_sampling(u64 period, u64 sample_type)
{
	open_sampling_attr(attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, period, sample_type));
}

static void close_sampling(void)
{
	close_both(s.ev, s.fd);
	ring_buffer_put(s.rb);
}

/* The same bytes in both buffers, the same period state; names the first difference. */
static void compare(const char *when)
{
	static unsigned char bc[NR_PAGES * PAGE], bk[(NR_PAGES + 1) * PAGE];
	struct perf_event_mmap_page *upk = (void *)bk;
	struct ksrc_core_state st;
	u64 hc;

	memset(bc, 0, sizeof(bc));
	hc = core_rb_copy(s.rb, bc, sizeof(bc));
	assert_int_equal(ksrc_core_rb_copy(s.fd, bk, sizeof(bk)), sizeof(bk));
	if (hc != upk->data_head)
		fail_msg("%s: data_head: core/ %llu, the kernel's %llu", when,
			 (unsigned long long)hc, (unsigned long long)upk->data_head);
	if (getenv("KSRC_CORE_DIFF_DUMP"))
		for (u64 off = 0; off < hc; ) {
			struct perf_event_header *h1 = (void *)(bc + off), *h2 = (void *)(bk + PAGE + off);

			printf("# %llu: core/ type %u size %u, kernel type %u size %u;",
			       (unsigned long long)off, h1->type, h1->size, h2->type, h2->size);
			for (unsigned int w = 1; w < h1->size / 8u; w++)
				printf(" %llx/%llx", (unsigned long long)((u64 *)h1)[w],
				       (unsigned long long)((u64 *)h2)[w]);
			printf("\n");
			if (!h1->size)
				break;
			off += h1->size;
		}
	for (u64 i = 0; i < hc && i < sizeof(bc); i++)
		if (bc[i] != bk[PAGE + i])
			fail_msg("%s: ring-buffer byte %llu: core/ %#x, the kernel's %#x", when,
				 (unsigned long long)i, bc[i], bk[PAGE + i]);
	assert_int_equal(ksrc_core_event_state(s.fd, &st), 0);
	s.ev->pmu->read(s.ev);
#define SAME(what, c, k) do {								\
	if ((u64)(c) != (u64)(k))							\
		fail_msg("%s: %s: core/ %lld, the kernel's %lld", when, what,		\
			 (long long)(c), (long long)(k));				\
} while (0)
	SAME("count", local64_read(&s.ev->count), st.count);
	SAME("sample_period", s.ev->hw.sample_period, st.sample_period);
	SAME("last_period", s.ev->hw.last_period, st.last_period);
	SAME("period_left", local64_read(&s.ev->hw.period_left), st.period_left);
	SAME("hw.interrupts", s.ev->hw.interrupts, st.interrupts);
	SAME("state", s.ev->state, st.state);
#undef SAME
}

static void retire_both(u64 insns)
{
	model_retire_insns(cpu_core, insns, insns, true);
	model_retire_insns(cpu_ksrc, insns, insns, true);
	perf_event_irq_work_run();
}

static void pmis(void **state)
{
	u64 before = model_cpu_nr_pmis(cpu_ksrc);

	(void)state;
	open_sampling(10007, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_ID | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ);
	for (int i = 0; i < 50; i++) {
		retire_both(997 + (u64)i * 31);
		compare("after a block of instructions");
	}
	printf("# %llu PMIs on each side: the same ring-buffer bytes (%llu), count, periods\n",
	       (unsigned long long)(model_cpu_nr_pmis(cpu_ksrc) - before),
	       (unsigned long long)s.rb->user_page->data_head);
	close_sampling();
}

static void throttle(void **state)
{
	u64 before = model_cpu_nr_pmis(cpu_ksrc);

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
	       (unsigned long long)(model_cpu_nr_pmis(cpu_ksrc) - before));
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
		struct perf_event *ev;
		int ec, ek, fd;

		vary(&b, i);
		open_both(&b, 0, &ec, &ek, &ev, &fd);
		close_both(ev, fd);
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
	struct perf_event *ev;
	int ec, ek, fd;

	open_both(a, 0, &ec, &ek, &ev, &fd);
	close_both(ev, fd);
	if (ec != 0 || ek != errno_ksrc)
		fail_msg("%s: a tree without the seed: core/ %d, the kernel's %d (expected 0, %d)",
			 seed, ec, ek, errno_ksrc);
	printf("# departure %s: %s (core/ %d, the kernel's core.c of %s %d); "
	       "ksrc/examples/core-%s.patch adds it\n", seed, why, ec, KSRC_VERSION, ek, seed);
	/*
	 * core/'s event took an event id the kernel's file did not hand out:
	 * one event on the kernel's side only, so the ids (PERF_SAMPLE_ID, the
	 * THROTTLE record's) of the checks after this one agree again.
	 */
	if (ek < 0) {
		struct perf_event_attr b = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0);

		fd = ksrc_core_perf_event_open(&b, -1, 0, -1, 0);
		assert_true(fd >= 0);
		ksrc_core_close(fd);
	}
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
	u64 periods = 0, last = 0, v;

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
		retire_both(1500 + (u64)(i % 11) * 700);
		compare("alternating: after a block");
		if (s.ev->hw.sample_period != last)
			periods++;
		last = s.ev->hw.sample_period;
	}
	/* both periods were used: the check saw the swap, not one period */
	assert_true(periods > 10);
	v = 5000;
	assert_int_equal(perf_ioctl(s.ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	v = 5000;
	assert_int_equal(ksrc_core_ioctl(s.fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	compare("alternating: PERIOD 5000");
	for (int i = 0; i < 20; i++) {
		retire_both(2300);
		compare("alternating: after PERIOD");
	}
	assert_int_equal(perf_ioctl(s.ev, PERF_EVENT_IOC_REFRESH, 3), 0);
	assert_int_equal(ksrc_core_ioctl(s.fd, PERF_EVENT_IOC_REFRESH, 3), 0);
	for (int i = 0; i < 10; i++) {
		retire_both(2300);
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
	return model_cpu_tsc(cpu_core);
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
		clock_set(now_ns + 1000);
		retire_both(100);
		compare("hw_time: PMIs within one tick");
	}
	perf_event_task_tick();
	perf_event_irq_work_run();
	ksrc_core_tick();
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
	struct task_struct parent = core_task, child;
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
