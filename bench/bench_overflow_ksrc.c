// SPDX-License-Identifier: GPL-2.0-only
/*
 * core/'s overflow-to-record path against the kernel's own
 * kernel/events/core.c: ns per PMI, from the model PMU's counter
 * overflowing to the sample in the ring buffer. Each side runs on a model
 * Skylake of its own: core/ through its x86 driver (core/x86) into
 * __perf_event_overflow, perf_prepare_sample and perf_output_sample; the
 * kernel's file (the core unit, ksrc/core_ksrc.h) through the model driver
 * (ksrc/core_model_pmu.c) into the tree's own functions of those names
 * and its ring_buffer.c. The same event on both: instructions, a fixed
 * period, IP, TID, TIME and PERIOD, the clock 2.5 us on at each PMI, a
 * reader that takes the data every 32 samples, a tick every 64 PMIs
 * (below max_samples_per_tick, so neither side throttles). Alternating rounds of one process, the same compiler
 * and -O level (the kernel's file with its code-generation flags).
 * Goal: core/ at most 1.0x the kernel's. Without a kernel tree it prints
 * one skip line and no figure.
 */
#include "core/perf_event.h"
#include "core/internal.h"
#include "core/x86/pmu.h"
#include "model/model.h"
#include "bench/bench.h"
#include <generated/ksrc.h>

#ifdef KSRC_UNIT_CORE
#include "ksrc/core_ksrc.h"

#define BENCH_PERIOD	10007
#define BENCH_PAGES	64
#define BENCH_SAMPLE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

struct side {
	struct model_cpu *cpu;
	struct perf_event_mmap_page *pg;	/* core/'s */
	unsigned long pmis;
	u64 now;		/* the kernel's side: its clock */
	/* core/ */
	struct perf_event *event;
	struct perf_buffer *rb;
	/* the kernel's file */
	int fd;
};

/* the time each side's next PMI sees: BENCH_PMI_NS on, as a real run's clock moves */
#define BENCH_PMI_NS	2500
static u64 core_now;

static u64 core_clock(void)
{
	return core_now;
}

static struct pt_regs core_regs = { .user = true, .ip = 0x401000 };
/* core/'s running task, as the core unit's (ksrc/kernel/events/core_shim.c): pid 1, tid 1 */
static struct task_struct core_task = { .pid = 1, .tid = 1, .comm = "ksrc" };

static struct perf_event_attr bench_attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.sample_period = BENCH_PERIOD;
	a.sample_type = BENCH_SAMPLE;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	/* no wakeups: neither side queues irq_work for a reader */
	a.watermark = 1;
	a.wakeup_watermark = 1u << 30;
	return a;
}

static struct side *core_side(void)
{
	struct side *s = calloc(1, sizeof(*s));
	struct perf_event_attr a = bench_attr();

	if (!s || !(s->cpu = model_cpu_create(model_cpu_desc_lookup("skylake"), 0)) ||
	    x86_pmu_attach_cpu(0, s->cpu))
		exit(1);
	x86_pmu_set_irq_regs(0, &core_regs);
	pmusim_curr[0] = &core_task;
	pmusim_clock_ns = core_clock;
	if (perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &s->event))
		exit(1);
	/* core/'s perf_mmap(), as sim/run.c has it */
	s->rb = rb_alloc(BENCH_PAGES, a.wakeup_watermark, 0, RING_BUFFER_WRITABLE);
	if (!s->rb)
		exit(1);
	refcount_inc(&s->rb->refcount);
	ring_buffer_attach(s->event, s->rb);
	perf_event_init_userpage(s->event);
	perf_event_update_userpage(s->event);
	s->pg = s->rb->user_page;
	return s;
}

static struct side *kernel_side(void)
{
	struct side *s = calloc(1, sizeof(*s));
	struct perf_event_attr a = bench_attr();

	if (!s || !(s->cpu = model_cpu_create(model_cpu_desc_lookup("skylake"), 0)) ||
	    ksrc_core_boot(s->cpu))
		exit(1);
	s->fd = ksrc_core_perf_event_open(&a, -1, 0, -1, 0);
	if (s->fd < 0 || ksrc_core_mmap(s->fd, BENCH_PAGES))
		exit(1);
	return s;
}

/* the reader: everything written so far is read */
static inline void consume(struct perf_event_mmap_page *pg)
{
	__atomic_store_n(&pg->data_tail, __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
}

static noinline void core_pmis(void *ctx, uint64_t n)
{
	struct side *s = ctx;

	for (uint64_t i = 0; i < n; i++) {
		core_now += BENCH_PMI_NS;
		model_retire_insns(s->cpu, BENCH_PERIOD, BENCH_PERIOD, true);
		perf_event_irq_work_run();
		if ((++s->pmis & 31) == 0)
			consume(s->pg);
		if ((s->pmis & 63) == 0)
			perf_event_task_tick();
	}
}

static noinline void kernel_pmis(void *ctx, uint64_t n)
{
	struct side *s = ctx;

	for (uint64_t i = 0; i < n; i++) {
		s->now += BENCH_PMI_NS;
		ksrc_core_set_clock(s->now);
		/* the model driver runs the irq_work the PMI queued on its way out */
		model_retire_insns(s->cpu, BENCH_PERIOD, BENCH_PERIOD, true);
		if ((++s->pmis & 31) == 0)
			ksrc_core_rb_consume(s->fd);
		if ((s->pmis & 63) == 0)
			ksrc_core_tick();
	}
}

/* every retire took one PMI and wrote one sample, none lost, none throttled */
static bool all_sampled(const char *who, struct side *s, uint64_t data_head, uint64_t lost,
			uint64_t interrupts)
{
	uint64_t size = sizeof(struct perf_event_header) + 4 * sizeof(uint64_t);

	if (model_cpu_nr_pmis(s->cpu) != s->pmis || data_head != s->pmis * size ||
	    lost || interrupts == MAX_INTERRUPTS) {
		fprintf(stderr, "bench_overflow_ksrc: %s: %llu PMIs, %llu retires, data_head %llu, "
			"%llu lost, interrupts %llu\n", who,
			(unsigned long long)model_cpu_nr_pmis(s->cpu), (unsigned long long)s->pmis,
			(unsigned long long)data_head, (unsigned long long)lost,
			(unsigned long long)interrupts);
		return false;
	}
	return true;
}

int main(void)
{
	struct side *c = core_side(), *k = kernel_side();
	struct ksrc_core_state st;
	struct perf_event_mmap_page kpg;
	struct bench_pair p;
	char fig[96];
	bool ok;

	p = bench_compare(core_pmis, c, kernel_pmis, k, 4000, 31);
	snprintf(fig, sizeof(fig), "overflow core vs kernel %s PMI to sample", KSRC_VERSION);
	if (ksrc_core_event_state(k->fd, &st))
		return 1;
	if (ksrc_core_rb_copy(k->fd, &kpg, sizeof(kpg)) != sizeof(kpg))
		return 1;
	ok = all_sampled("core/", c, c->pg->data_head,
			 (uint64_t)atomic64_read(&c->event->lost_samples), c->event->hw.interrupts);
	ok &= all_sampled("the kernel's core.c", k, kpg.data_head, st.lost_samples, st.interrupts);
	if (!ok)
		return 1;
	bench_report(fig, "ns/PMI", p.value, p.baseline, "kernel's core.c", GOAL_AT_MOST, 1.0, p.noise);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "bench_overflow_ksrc: " KSRC_NO_UNIT("core") "\n");
	return 0;
}
#endif
