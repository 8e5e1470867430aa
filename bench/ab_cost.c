// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixed workloads whose instructions `make ab` counts under callgrind.
 * Each mode does N operations through one function that callgrind is told
 * to collect in (--collect-atstart=no --toggle-collect=FUNCTION), so the
 * count holds that path and nothing of the set-up around it:
 *
 *   output-forward N, output-backward N
 *              N 40-byte records into an 8-page overwrite buffer written
 *              forward (the fast path) or backward (attr.write_backward),
 *              each through perf_output_begin/perf_output_put/
 *              perf_output_copy/perf_output_end.  Collect in:
 *              ab_output_record (gcc may name its clone
 *              ab_output_record.constprop.0: match ab_output_record*).
 *   pmi N      N PMIs of a branch-instructions sampler (period 1000, IP,
 *              TID, TIME, PERIOD, LBR call stack with hw_idx) on a model
 *              Skylake: model PMI -> x86 handler -> perf_event_overflow ->
 *              sample output.  Collect in: model_pmu_deliver_pmi.
 *   branch N   N retired branches of a call/return pattern with that
 *              sampler on (so 1 in 1000 also takes a PMI).  Collect in:
 *              model_retire_branch (its out-of-line definition: the
 *              simulator inlines it, without the call).
 *
 * The program checks that the operations happened as stated (every
 * record written, every PMI delivered and turned into a sample, nothing
 * throttled) and prints "MODE N OPS" on stdout; it exits 1 otherwise, so
 * a figure is never divided by a count that did not happen.
 * scripts/ab.sh runs each mode with N and 2N and divides the difference
 * by N: what runs once per process (lazy binding, the first page
 * touched) cancels out and the figure is instructions per operation.
 */
#include "core/internal.h"
#include "core/x86/pmu.h"
#include "model/model.h"

#define AB_PERIOD	1000
#define AB_USER_TEXT	0x400000ULL
#define AB_CALL_DEPTH	24

/* One record, begin to end: the output path and nothing around it. */
static noinline int
ab_output_record(struct perf_output_handle *handle, struct perf_event *event,
		 const struct perf_event_header *hdr, const void *payload, unsigned int len)
{
	if (perf_output_begin(handle, NULL, event, hdr->size))
		return -1;
	perf_output_put(handle, *hdr);
	perf_output_copy(handle, payload, len);
	perf_output_end(handle);
	return 0;
}

static int run_output(unsigned long n, bool backward)
{
	static struct perf_event ev;
	static char payload[32];
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER, .size = 40,
	};
	struct perf_output_handle handle;
	struct perf_buffer *rb = rb_alloc(8, 0, 0, 0);
	unsigned long done = 0;

	if (!rb)
		return -1;
	ev.attr.size = sizeof(ev.attr);
	ev.attr.write_backward = backward;
	ev.attr.watermark = 1;
	ev.attr.wakeup_watermark = 1u << 30;
	ring_buffer_attach(&ev, rb);
	for (unsigned long i = 0; i < n; i++)
		if (!ab_output_record(&handle, &ev, &hdr, payload, sizeof(payload)))
			done++;
	ring_buffer_attach(&ev, NULL);
	return done == n ? 0 : -1;
}

/* The sampled machine of the pmi and branch modes: one Skylake, one task. */
static struct {
	struct model_cpu *cpu;
	struct pt_regs regs;
	struct task_struct task;
	struct perf_event *event;
	struct perf_buffer *rb;
	unsigned long depth;		/* of the simulated call stack */
	unsigned long step;
} ab;

static int sampler_open(void)
{
	struct perf_event_attr a;
	int err;

	ab.cpu = model_cpu_create(model_cpu_desc_lookup("skylake"), 0);
	if (!ab.cpu || x86_pmu_attach_cpu(0, ab.cpu))
		return -1;
	x86_pmu_set_irq_regs(0, &ab.regs);
	ab.task.pid = ab.task.tid = 100;
	memcpy(ab.task.comm, "ab_cost", 8);
	pmusim_this_cpu = 0;
	pmusim_curr[0] = &ab.task;
	/* No tick runs here: lift the throttle so that every PMI samples. */
	perf_event_max_sample_rate_set(INT_MAX);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	a.sample_period = AB_PERIOD;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER |
			       PERF_SAMPLE_BRANCH_HW_INDEX;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.watermark = 1;
	a.wakeup_watermark = 1u << 30;
	err = perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &ab.event);
	if (err)
		return -1;
	ab.rb = rb_alloc(64, 0, 0, 0);	/* overwrite: never full, never LOST */
	if (!ab.rb)
		return -1;
	ring_buffer_attach(ab.event, ab.rb);
	return 0;
}

/*
 * model_retire_branch() is inline (model/retire.h) and the simulator runs
 * it inlined; called through this pointer it runs as its external
 * definition in model/retire.c, the same code under the function's own
 * name, which is where callgrind collects.
 */
static void (*volatile ab_retire_branch)(struct model_cpu *, u64, u64, enum model_branch_type,
					 bool, bool, unsigned int) = model_retire_branch;

/*
 * One user branch of a call pattern that climbs AB_CALL_DEPTH frames and
 * comes back down, so the LBR call stack fills and empties.
 */
static void ab_branch(void)
{
	unsigned long phase = ab.step++ % (2 * AB_CALL_DEPTH);
	bool call = phase < AB_CALL_DEPTH;
	u64 site = AB_USER_TEXT + 0x100 * (call ? ab.depth : ab.depth - 1);
	u64 from, to;

	if (call) {
		from = site + 0x10;
		to = site + 0x100;
		ab.depth++;
	} else {
		from = site + 0x1f0;
		to = site + 0x15;
		ab.depth--;
	}
	ab.regs.ip = to;
	ab.regs.user = true;
	ab_retire_branch(ab.cpu, from, to, call ? MODEL_BR_NEAR_REL_CALL : MODEL_BR_NEAR_RET,
			 true, false, 1);
}

static int run_sampled(unsigned long nr_branches, u64 want_pmis)
{
	u64 lost;

	if (sampler_open())
		return -1;
	for (unsigned long i = 0; i < nr_branches; i++)
		ab_branch();
	lost = atomic64_read(&ab.event->lost_samples);
	/* A throttled or refused sample would show as fewer PMIs or as lost. */
	if (model_cpu_nr_pmis(ab.cpu) != want_pmis || lost || ab.event->hw.interrupts == MAX_INTERRUPTS)
		return -1;
	ring_buffer_attach(ab.event, NULL);
	perf_event_release_kernel(ab.event);
	x86_pmu_attach_cpu(0, NULL);
	model_cpu_destroy(ab.cpu);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n;
	int ret;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 0)) == 0 || n > (1UL << 30)) {
		fprintf(stderr, "usage: ab_cost output-forward|output-backward|pmi|branch N (0 < N <= 2^30)\n");
		return 2;
	}
	if (!strcmp(argv[1], "output-forward"))
		ret = run_output(n, false);
	else if (!strcmp(argv[1], "output-backward"))
		ret = run_output(n, true);
	else if (!strcmp(argv[1], "pmi"))
		ret = run_sampled(n * AB_PERIOD, n);
	else if (!strcmp(argv[1], "branch"))
		ret = run_sampled(n, n / AB_PERIOD);
	else {
		fprintf(stderr, "ab_cost: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	if (ret) {
		fprintf(stderr, "ab_cost: %s %lu: the workload did not run as stated\n", argv[1], n);
		return 1;
	}
	printf("%s %lu\n", argv[1], n);
	return 0;
}
