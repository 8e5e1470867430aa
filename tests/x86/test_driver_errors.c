// SPDX-License-Identifier: GPL-2.0-only
/*
 * The x86 driver's refusals and rare paths: events it cannot take (PEBS,
 * branch counters, non-x86 types, an unplugged PMU, a counter mask that
 * CPUID left empty, two LBR_SELECT programs at once), allocation failures
 * anywhere in event init, plugging errors and PMU versions the driver
 * cannot drive, an unknown CPU model, counters that move while stopped,
 * a CPU event on a CPU with no model CPU, the context-switch hooks
 * without a CPU or a task, a PMI with nothing
 * to do or with no saved registers, the v6.12 per-task pmu context, and
 * the unchecked MSR accesses the kernel would print.
 */
#include "core/task_ctx_data.h"
#include "tests/x86/x86_test.h"

static unsigned long warns_at_start;

static int setup(void **state)
{
	(void)state;
	warns_at_start = pmusim_warn_count();
	return 0;
}

static int teardown(void **state)
{
	pmusim_alloc_fail_after(-1);
	return xt_teardown(state);
}

/* A model like @name with some fields changed; static so the CPUs can keep it. */
static struct model_cpu_desc custom;

static const struct model_cpu_desc *like(const char *name)
{
	custom = *model_cpu_desc_lookup(name);
	return &custom;
}

static void test_events_the_driver_refuses(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000);
	struct perf_event ev;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;	/* no branch counter logging */
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COUNTERS;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EINVAL);
	/* a call stack takes no other branch type */
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_COND;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EINVAL);

	/* not the x86 PMU's types, asked directly */
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = PERF_TYPE_SOFTWARE;
	assert_int_equal(x86_get_pmu()->event_init(&ev), -ENOENT);
	assert_int_equal(pmusim_warn_count(), warns_at_start);
	xt_shutdown();

	/* nothing plugged in: no PMU to size the event for */
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = PERF_TYPE_RAW;
	ev.attr.config = 0xc4;
	assert_int_equal(x86_get_pmu()->event_init(&ev), -ENODEV);
}

/*
 * A CPU event on a CPU with no model CPU is refused (-ENODEV, the
 * kernel's answer for a CPU that is not online) before any MSR of no CPU
 * is touched; a task's event bound there is taken and never runs
 * (fuzz/crashes/attr/warn-msr-haswell-cpu9).
 */
/*
 * precise_ip: up to x86_pmu_max_precise(), 2 before Haswell (PEBS and the
 * LBR's IP fixup), 3 after (precise distribution); sampling events only.
 */
static void test_precise_levels_per_model(void **state)
{
	static const struct { const char *cpu; unsigned int max; } models[] = {
		{ "core2", 2 }, { "nehalem", 2 }, { "atom", 2 }, { "haswell", 3 },
		{ "skylake", 3 }, { "icelake", 3 }, { "sapphirerapids", 3 },
	};
	int err;

	(void)state;
	for (unsigned int i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		assert_int_equal(xt_boot(models[i].cpu), 0);
		assert_int_equal(x86_pmu_max_precise(), models[i].max);
		for (unsigned int p = 1; p <= 3; p++) {
			struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE,
							   PERF_COUNT_HW_INSTRUCTIONS, 1000);
			struct perf_event *e;

			a.precise_ip = p;
			e = xt_open(&a, 0, NULL, &err);
			if (p > models[i].max) {
				assert_null(e);
				assert_int_equal(err, -EOPNOTSUPP);
				continue;
			}
			assert_non_null(e);
			perf_event_release_kernel(e);
			/* a counting event gets no PEBS */
			a.sample_period = 0;
			assert_null(xt_open(&a, 0, NULL, &err));
			assert_int_equal(err, -EINVAL);
		}
		xt_teardown(NULL);
	}
}

static void test_an_event_on_a_cpu_that_is_not_there(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 7);
	struct task_struct task = { .pid = 300, .tid = 300 };
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("haswell"), 0);
	assert_null(xt_open(&a, XT_CPUS + 7, NULL, &err));
	assert_int_equal(err, -ENODEV);
	e = xt_open(&a, XT_CPUS + 7, &task, &err);
	assert_non_null(e);
	perf_event_release_kernel(e);
	/* the CPUs that are there still take one */
	e = xt_open(&a, XT_CPUS - 1, NULL, &err);
	assert_non_null(e);
	perf_event_release_kernel(e);
	assert_int_equal(pmusim_warn_count(), warns_at_start);
	perf_ctx_data_exit(&task);
}

/* Core 2 with one GP counter: FP_ASSIST may use PMC1 only, which is not there. */
static void test_an_event_whose_counters_cpuid_removed_is_refused(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_RAW, 0x11, 0);
	struct model_cpu_desc *d = (struct model_cpu_desc *)like("core2");
	struct perf_event *e;
	int err;

	(void)state;
	d->nr_gp = 1;
	assert_int_equal(xt_boot_desc(d), 0);
	assert_int_equal(x86_pmu.num_counters, 1);
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EINVAL);
	a.config = 0x10;			/* FP_COMP_OPS_EXE: PMC0, still there */
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	assert_int_equal(e->hw.idx, 0);
	perf_event_release_kernel(e);
}

/* LBR_SELECT is one register: a group whose LBR events disagree can never run. */
static void test_lbr_events_that_disagree_on_lbr_select(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000);
	struct perf_event *leader, *same, *other, *solo;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.size = sizeof(a);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &leader), 0);
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, leader, 0, NULL, &same), 0);
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, leader, 0, NULL, &other),
			 -EINVAL);
	/* alone, it opens, but cannot go on while the group holds LBR_SELECT */
	solo = xt_open(&a, 0, NULL, &err);
	assert_non_null(solo);
	assert_int_equal(solo->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(leader->state, PERF_EVENT_STATE_ACTIVE);
	perf_event_release_kernel(same);
	perf_event_release_kernel(leader);
	perf_event_release_kernel(solo);
	assert_int_equal(pmusim_warn_count(), warns_at_start);
}

/*
 * Every allocation of event init failing in turn (the event, the
 * validation's scratch cpu_hw_events, the per-task LBR data): each is
 * -ENOMEM with nothing left attached, and the first budget that suffices
 * gives a working event.
 */
static void test_each_allocation_failure_in_event_init(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 10);
	static struct task_struct task = { .pid = 7, .tid = 7 };
	struct perf_event *leader, *e = NULL;
	int err, n;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER;
	for (n = 0; n < 20 && !e; n++) {
		pmusim_alloc_fail_after(n);
		e = xt_open(&a, -1, &task, &err);
		pmusim_alloc_fail_after(-1);
		if (!e) {
			assert_int_equal(err, -ENOMEM);
			assert_null(task.perf_ctx_data);
			assert_null(task.perf_event_pmu_ctx);
		}
	}
	assert_non_null(e);
	assert_true(n > 2);
	assert_true(task.perf_ctx_data || task.perf_event_pmu_ctx);
	perf_event_release_kernel(e);
	assert_null(task.perf_ctx_data);
	assert_null(task.perf_event_pmu_ctx);

	/* a sibling: the group validation's scratch state */
	a.size = sizeof(a);
	a.sample_type = 0;
	a.branch_sample_type = 0;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &leader), 0);
	e = NULL;
	for (n = 0; n < 20 && !e; n++) {
		pmusim_alloc_fail_after(n);
		err = perf_event_open_attr(&a, sizeof(a), -1, 0, leader, 0, NULL, &e);
		pmusim_alloc_fail_after(-1);
		if (err) {
			assert_int_equal(err, -ENOMEM);
			e = NULL;
		}
	}
	assert_non_null(e);
	assert_int_equal(e->state, PERF_EVENT_STATE_ACTIVE);
	perf_event_release_kernel(e);
	perf_event_release_kernel(leader);
}

static void test_plugging_errors(void **state)
{
	const struct model_cpu_desc *sky = model_cpu_desc_lookup("skylake");
	struct model_cpu_desc *v1 = (struct model_cpu_desc *)like("core2");
	struct model_cpu *spare;

	(void)state;
	assert_int_equal(x86_pmu_attach_cpu(-1, NULL), -EINVAL);
	assert_int_equal(x86_pmu_attach_cpu(CONFIG_MODEL_MAX_CPUS, NULL), -EINVAL);
	assert_int_equal(x86_pmu_attach_cpu(0, NULL), 0);	/* nothing there: nothing to do */

	/* PMU version 1 has no GLOBAL_CTRL: the driver does not take it */
	v1->pmu_version = 1;
	spare = model_cpu_create(v1, 0);
	assert_int_equal(x86_pmu_attach_cpu(0, spare), -ENODEV);
	assert_int_equal(x86_pmu.version, 0);
	assert_ptr_equal(x86_model_cpus[0], NULL);
	model_cpu_destroy(spare);

	/* after a refused CPU, a good one sizes the PMU from scratch */
	assert_int_equal(xt_boot_desc(sky), 0);
	assert_int_equal(x86_pmu.version, 4);
	spare = model_cpu_create(sky, 1);
	assert_int_equal(x86_pmu_attach_cpu(1, spare), -EBUSY);
	model_cpu_destroy(spare);
}

/* A model the driver does not know: architectural events only, no LBR. */
static void test_an_unknown_cpu_model_gets_the_generic_pmu_without_lbr(void **state)
{
	struct model_cpu_desc *d = (struct model_cpu_desc *)like("skylake");
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct perf_event *e;
	int err;

	(void)state;
	d->model = 0x55;
	assert_int_equal(xt_boot_desc(d), 0);
	assert_string_equal(x86_pmu.name, "generic_arch_v2+");
	assert_int_equal(x86_pmu.lbr_nr, 0);
	assert_int_equal(intel_pmu_lbr_task_ctx_size(), 0);
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
	assert_int_equal(xt_read(e), 1);
	perf_event_release_kernel(e);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.sample_period = 10;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EOPNOTSUPP);
}

/*
 * A throttled (stopped) event on PMC1 must move when PREC_DIST, which
 * only PMC1 takes, comes on: it moves stopped (PERF_HES_ARCH: not started
 * on its new counter, not in active_mask) and is started at the tick.
 *
 * Its count is not asserted across the move: as in v6.12, the move keeps
 * prev_count from the old counter and the unthrottle's start(0) does not
 * reprogram the new one, so the first read after the move takes a delta
 * between two different counters (reported; see the coverage note).
 */
static void test_a_stopped_event_moves_counter_and_stays_stopped(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_RAW, 0xc4, 0);
	int saved_rate = sysctl_perf_event_sample_rate;
	struct perf_event *fill, *thr, *prec;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	assert_int_equal(perf_event_max_sample_rate_set(HZ), 0);	/* one sample a tick */
	fill = xt_open(&a, 0, NULL, &err);		/* PMC0 */
	a.sample_period = 2;
	thr = xt_open(&a, 0, NULL, &err);		/* PMC1 */
	assert_int_equal(thr->hw.idx, 1);
	for (int i = 0; i < 2; i++)
		xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
	assert_int_equal(xt.nr_overflows, 1);
	assert_true(thr->hw.state & PERF_HES_STOPPED);	/* throttled */

	a.config = 0x1c0;	/* INST_RETIRED.PREC_DIST: PMC1 only */
	a.sample_period = 0;
	prec = xt_open(&a, 0, NULL, &err);
	assert_non_null(prec);
	assert_int_equal(prec->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(prec->hw.idx, 1);
	assert_int_equal(thr->hw.idx, 2);
	assert_true(thr->hw.state & PERF_HES_STOPPED);
	assert_false(cpu_hw_events[0].active_mask >> 2 & 1);
	assert_int_equal(xt_rdmsr(0, MSR_ARCH_PERFMON_EVENTSEL0 + 2) &
			 ARCH_PERFMON_EVENTSEL_ENABLE, 0);
	xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
	assert_int_equal(xt.nr_overflows, 1);		/* stopped: no sample */

	perf_event_task_tick();
	assert_false(thr->hw.state & PERF_HES_STOPPED);
	assert_true(cpu_hw_events[0].active_mask >> 2 & 1);
	assert_true(xt_rdmsr(0, MSR_ARCH_PERFMON_EVENTSEL0 + 2) & ARCH_PERFMON_EVENTSEL_ENABLE);
	perf_event_release_kernel(prec);
	perf_event_release_kernel(thr);
	perf_event_release_kernel(fill);
	perf_event_max_sample_rate_set(saved_rate);
	assert_int_equal(pmusim_warn_count(), warns_at_start);
}

/* The switch hooks: no task, no CPU, no task data. */
static void test_switch_hooks_without_a_task_or_a_cpu(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100);
	static struct task_struct t = { .pid = 5, .tid = 5 };
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	x86_branch_text_add(0x1000, MODEL_BR_JCC);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	e = xt_open(&a, 0, NULL, &err);
	xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + xt_rdmsr(0, MSR_LBR_TOS)), 0x1000);

	/* the idle "task" (NULL) switches nothing: the LBR stays */
	x86_pmu_sched_out(NULL);
	x86_pmu_sched_in(NULL);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + xt_rdmsr(0, MSR_LBR_TOS)), 0x1000);
	/* a CPU with nothing plugged in: nothing to do */
	pmusim_this_cpu = XT_CPUS;
	x86_pmu_sched_out(&t);
	x86_pmu_sched_in(&t);
	pmusim_this_cpu = 0;
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + xt_rdmsr(0, MSR_LBR_TOS)), 0x1000);
	/* a task without saved LBR state: the stack is wiped at sched-in */
	x86_pmu_sched_out(&t);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + xt_rdmsr(0, MSR_LBR_TOS)), 0x1000);
	x86_pmu_sched_in(&t);
	for (int i = 0; i < 32; i++)
		assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + i), 0);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);
	perf_event_release_kernel(e);
}

/*
 * The PMI handler alone: with no overflow it does nothing but restore the
 * enables; an overflow bit of a counter no event uses is acked and
 * counted as handled without a sample; with no registers saved the
 * sample's ip is 0.
 */
static void test_pmi_with_nothing_to_do_or_no_registers(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 4);
	struct pt_regs regs = { .ip = 0x1234 };
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	assert_int_equal(intel_pmu_handle_irq(&regs), 0);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);

	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_GLOBAL_STATUS_SET, 1ULL << 3), 0);
	assert_int_equal(intel_pmu_handle_irq(&regs), 1);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_STATUS), 0);
	assert_int_equal(xt.nr_overflows, 0);

	/* a disabled PMU stays disabled after the handler */
	cpu_hw_events[0].enabled = 0;
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_GLOBAL_CTRL, 0), 0);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_GLOBAL_STATUS_SET, 1ULL << 3), 0);
	assert_int_equal(intel_pmu_handle_irq(&regs), 1);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(cpu_hw_events[0].enabled, 0);
	cpu_hw_events[0].enabled = 1;
	intel_pmu_enable_all(0);

	/* out-of-range CPUs are ignored; CPU 0 with no registers: ip 0 */
	x86_pmu_set_irq_regs(-1, &regs);
	x86_pmu_set_irq_regs(CONFIG_MODEL_MAX_CPUS, &regs);
	x86_pmu_set_irq_regs(0, NULL);
	e = xt_open(&a, 0, NULL, &err);
	model_retire_insns(xt.cpu[0], 4, 4, true);
	assert_int_equal(xt.nr_samples, 1);
	assert_int_equal(xt.samples[0].ip, 0);
	perf_event_release_kernel(e);
}

/* AnyThread on PMU v3: the fixed counter's ANY bit is programmed too. */
static void test_anythread_on_a_fixed_counter_of_pmu_v3(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_RAW, ARCH_PERFMON_EVENTSEL_ANY | 0x00c0, 0);
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("nehalem"), 0);
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	assert_int_equal(e->hw.idx, INTEL_PMC_IDX_FIXED);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR_CTRL) & 0xf,
			 INTEL_FIXED_0_ENABLE_PMI | INTEL_FIXED_0_ANYTHREAD |
			 INTEL_FIXED_0_USER | INTEL_FIXED_0_KERNEL);
	perf_event_release_kernel(e);
	xt_shutdown();

	assert_int_equal(xt_boot("core2"), 0);	/* v2: no AnyThread */
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EINVAL);
}

/*
 * v6.12's per-task data: one pmu context per task, shared by its
 * call-stack events, freed with the last; a CPU event has none.
 */
static void test_v612_pmu_context_is_shared_per_task(void **state)
{
	static struct task_struct t = { .pid = 3, .tid = 3 };
	struct perf_event e1, e2, cpu_ev;
	struct perf_event_pmu_context *epc;

	(void)state;
	memset(&e1, 0, sizeof(e1));
	memset(&e2, 0, sizeof(e2));
	memset(&cpu_ev, 0, sizeof(cpu_ev));
	e1.attach_state = e2.attach_state = PERF_ATTACH_TASK;
	e1.target = e2.target = &t;

	assert_int_equal(get_pmu_ctx(&cpu_ev, 64), 0);
	assert_null(cpu_ev.pmu_ctx);
	cpu_ev.attach_state = PERF_ATTACH_TASK;		/* a task event without its task */
	assert_int_equal(get_pmu_ctx(&cpu_ev, 64), 0);
	assert_null(cpu_ev.pmu_ctx);
	put_pmu_ctx(&cpu_ev);

	pmusim_alloc_fail_after(0);
	assert_int_equal(get_pmu_ctx(&e1, 64), -ENOMEM);
	pmusim_alloc_fail_after(1);
	assert_int_equal(get_pmu_ctx(&e1, 64), -ENOMEM);
	pmusim_alloc_fail_after(-1);
	assert_null(t.perf_event_pmu_ctx);
	assert_null(e1.pmu_ctx);

	assert_int_equal(get_pmu_ctx(&e1, 64), 0);
	epc = t.perf_event_pmu_ctx;
	assert_non_null(epc);
	assert_non_null(epc->task_ctx_data);
	assert_ptr_equal(epc->task, &t);
	assert_int_equal(get_pmu_ctx(&e2, 64), 0);
	assert_ptr_equal(e2.pmu_ctx, epc);
	assert_int_equal(refcount_read(&epc->refcount), 2);
	put_pmu_ctx(&e1);
	assert_null(e1.pmu_ctx);
	assert_ptr_equal(t.perf_event_pmu_ctx, epc);
	put_pmu_ctx(&e1);		/* twice: nothing */
	put_pmu_ctx(&e2);
	assert_null(t.perf_event_pmu_ctx);
}

/*
 * An MSR access that faults: the _safe forms report -EIO (also on a CPU
 * with nothing plugged in); the plain ones read 0, write nothing and
 * report the unchecked access as a warning.
 */
static void test_unchecked_msr_access_is_reported(void **state)
{
	unsigned long warns = pmusim_warn_count();
	u64 v = 1;

	(void)state;
	assert_int_equal(xt_boot("core2"), 0);
	assert_int_equal(rdmsrl_safe(MSR_IA32_PERF_CAPABILITIES, &v), -EIO);	/* no PDCM */
	assert_int_equal(wrmsrl_safe(MSR_LBR_SELECT, 0), -EIO);
	pmusim_this_cpu = XT_CPUS;
	assert_int_equal(rdmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, &v), -EIO);
	assert_int_equal(v, 0);
	assert_int_equal(wrmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, 0), -EIO);
	pmusim_this_cpu = 0;

	v = 1;
	rdmsrl(MSR_IA32_PERF_CAPABILITIES, v);
	assert_int_equal(v, 0);
	if (IS_ENABLED(CONFIG_DEBUG_PERF))
		assert_int_equal(pmusim_warn_count(), warns + 1);
	wrmsrl(MSR_LBR_SELECT, 0x1);		/* a warning once per site, as WARN_ON_ONCE */
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);
}

/*
 * All seven counters of a Skylake (3 fixed, 4 GP) taken: an eighth event
 * stays off; a disabled sibling takes no counter in the group check.
 */
static void test_counters_exhausted_and_disabled_siblings(void **state)
{
	static const u64 cfg[] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
				   PERF_COUNT_HW_REF_CPU_CYCLES };
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, 0, 0);
	struct perf_event *e[8], *g[5];
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	for (int i = 0; i < 7; i++) {
		a.config = i < 3 ? cfg[i] : PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
		e[i] = xt_open(&a, 0, NULL, &err);
		assert_non_null(e[i]);
		assert_int_equal(e[i]->state, PERF_EVENT_STATE_ACTIVE);
	}
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	e[7] = xt_open(&a, 0, NULL, &err);
	assert_non_null(e[7]);
	assert_int_equal(e[7]->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(cpu_hw_events[0].n_events, 7);
	for (int i = 7; i >= 0; i--)
		perf_event_release_kernel(e[i]);

	/* leader, two siblings, one disabled sibling, then a fourth: fits 4 GP counters */
	a.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	a.size = sizeof(a);
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &g[0]), 0);
	for (int i = 1; i < 3; i++)
		assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, g[0], 0, NULL, &g[i]), 0);
	a.disabled = 1;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, g[0], 0, NULL, &g[3]), 0);
	assert_int_equal(g[3]->state, PERF_EVENT_STATE_OFF);
	a.disabled = 0;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, g[0], 0, NULL, &g[4]), 0);
	assert_int_equal(g[4]->state, PERF_EVENT_STATE_ACTIVE);
	for (int i = 4; i >= 0; i--)
		perf_event_release_kernel(g[i]);
	assert_int_equal(pmusim_warn_count(), warns_at_start);
}

/* CPUID.0AH:EAX[31:24] shorter than the table: the events past it are absent. */
static void test_short_arch_event_vector_hides_the_events_past_it(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	x86_pmu_mask_arch_events(0, 5);		/* bits 5 and 6: branches, branch misses */
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -ENOENT);
	a.config = PERF_COUNT_HW_BRANCH_MISSES;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -ENOENT);
	a.config = PERF_COUNT_HW_BUS_CYCLES;	/* bit 2: still there */
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	perf_event_release_kernel(e);
	xt_shutdown();
	/* the next PMU sized from scratch has them back */
	assert_int_equal(xt_boot("skylake"), 0);
	a.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	perf_event_release_kernel(e);
}

/*
 * The PERF_HES protocol misused, and the PMU disabled or enabled twice:
 * a start of a running event or a del of an unknown one warns and
 * changes nothing; update and set_period of an event without a counter
 * do nothing; nested disable/enable are idempotent.
 */
static void test_callbacks_out_of_protocol(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	unsigned long warns = pmusim_warn_count();
	struct pmu *p = x86_get_pmu();
	struct perf_event *e, loose;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = xt_open(&a, 0, NULL, &err);
	xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);

	p->start(e, PERF_EF_RELOAD);		/* already running */
	assert_int_equal(xt_read(e), 1);
	memset(&loose, 0, sizeof(loose));
	loose.hw.idx = -1;
	loose.hw.state = PERF_HES_STOPPED;
	p->start(&loose, 0);			/* never given a counter */
	p->del(&loose, 0);			/* never added */
	p->stop(&loose, PERF_EF_UPDATE);	/* no counter: nothing to stop or drain */
	assert_true(loose.hw.state & PERF_HES_UPTODATE);
	assert_int_equal(cpu_hw_events[0].n_events, 1);
	if (IS_ENABLED(CONFIG_DEBUG_PERF))
		assert_int_equal(pmusim_warn_count(), warns + 3);

	assert_int_equal(x86_perf_event_update(&loose), 0);
	assert_int_equal(x86_perf_event_set_period(&loose), 0);
	assert_int_equal(local64_read(&loose.count), 0);

	p->pmu_disable(p);
	p->pmu_disable(p);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), 0);
	xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
	p->pmu_enable(p);
	p->pmu_enable(p);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);
	xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
	assert_int_equal(xt_read(e), 2);
	perf_event_release_kernel(e);
}

/* CPU 0 unplugged and plugged in again while CPU 1 stays: checked against CPU 1. */
static void test_replug_checks_against_the_remaining_cpu(void **state)
{
	struct model_cpu *other;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	assert_int_equal(x86_pmu_attach_cpu(0, NULL), 0);
	assert_int_equal(x86_pmu.version, 4);	/* CPU 1 keeps the PMU */
	other = model_cpu_create(model_cpu_desc_lookup("nehalem"), 0);
	assert_int_equal(x86_pmu_attach_cpu(0, other), -EINVAL);
	model_cpu_destroy(other);
	assert_int_equal(x86_pmu_attach_cpu(0, xt.cpu[0]), 0);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);
}

/*
 * A group that cannot go on is taken off whole: with the four GP counters
 * held, a group (instructions leader on fixed 0, a branches sibling)
 * enabled at once gets its leader added, its sibling refused, and the
 * leader's add undone in the same transaction (no stop of a counter it
 * never started). An eighth member of a group beyond seven counters is
 * refused at open.
 */
static void test_group_that_cannot_fit_is_undone_whole(void **state)
{
	static const u64 cfg[] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
				   PERF_COUNT_HW_REF_CPU_CYCLES };
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct perf_event *gp[4], *leader, *sib, *g[8];
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.size = sizeof(a);
	for (int i = 0; i < 4; i++)
		gp[i] = xt_open(&a, 0, NULL, &err);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &leader), 0);
	a.disabled = 0;
	a.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, leader, 0, NULL, &sib), 0);
	perf_event_enable(leader);
	assert_int_equal(leader->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(sib->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(cpu_hw_events[0].n_events, 4);
	assert_int_equal(cpu_hw_events[0].n_added, 0);
	assert_false(cpu_hw_events[0].active_mask >> INTEL_PMC_IDX_FIXED & 1);
	assert_int_equal(pmusim_warn_count(), warns_at_start);
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
	for (int i = 3; i >= 0; i--)
		perf_event_release_kernel(gp[i]);

	/* seven members fill every counter; an eighth can never be on with them */
	for (int i = 0; i < 8; i++) {
		a.config = i < 3 ? cfg[i] : i < 7 ? PERF_COUNT_HW_BRANCH_INSTRUCTIONS :
			   PERF_COUNT_HW_BUS_CYCLES;
		err = perf_event_open_attr(&a, sizeof(a), -1, 0, i ? g[0] : NULL, 0, NULL, &g[i]);
		assert_int_equal(err, i < 7 ? 0 : -EINVAL);
	}
	for (int i = 6; i >= 0; i--)
		perf_event_release_kernel(g[i]);
}

static bool raise_status;

/* An overflow handler that raises another counter's status bit, as a second overflow would. */
static void raising_handler(struct perf_event *event, struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	xt_handler(event, data, regs);
	if (raise_status)
		assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_GLOBAL_STATUS_SET,
					     1ULL << 3), 0);
	raise_status = false;
}

/*
 * A status bit that appears while the PMI is being handled is handled in
 * the same PMI (the handler reads the status again and loops); a PMU with
 * four fixed counters on v4 (no CPUID.0AH:ECX bitmap) enables all four.
 */
static void test_status_raised_during_the_pmi_is_handled_in_it(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 4);
	struct model_cpu_desc *d = (struct model_cpu_desc *)like("skylake");
	struct perf_event *e;
	u64 pmis;
	int err;

	(void)state;
	d->nr_fixed = 4;
	assert_int_equal(xt_boot_desc(d), 0);
	assert_int_equal(x86_pmu.num_counters_fixed, 4);
	assert_int_equal(x86_pmu.intel_ctrl, 0xfULL | 0xfULL << INTEL_PMC_IDX_FIXED);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);

	a.size = sizeof(a);
	e = perf_event_create_kernel_counter(&a, 0, NULL, raising_handler, NULL, NULL, &err);
	assert_non_null(e);
	raise_status = true;
	pmis = model_cpu_nr_pmis(xt.cpu[0]);
	model_retire_insns(xt.cpu[0], 4, 4, true);
	assert_int_equal(xt.nr_overflows, 1);
	assert_int_equal(model_cpu_nr_pmis(xt.cpu[0]), pmis + 1);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_STATUS), 0);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);
	model_retire_insns(xt.cpu[0], 4, 4, true);
	assert_int_equal(xt.nr_overflows, 2);
	perf_event_release_kernel(e);
}

static struct perf_event *stuck_event;

/*
 * Overflows its own event again on every overflow, as a counter that
 * keeps counting in the handler would: a period more on the counter and
 * its status bit raised, so the status never clears.
 */
static void stuck_handler(struct perf_event *event, struct perf_sample_data *data,
			  struct pt_regs *regs)
{
	u32 msr = (u32)stuck_event->hw.event_base;
	u64 count;

	xt_handler(event, data, regs);
	assert_int_equal(model_rdmsr(xt.cpu[0], msr, &count), 0);
	assert_int_equal(model_wrmsr(xt.cpu[0], msr, (count + 4) & x86_pmu.cntval_mask), 0);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_GLOBAL_STATUS_SET,
				     1ULL << stuck_event->hw.idx), 0);
}

/*
 * A status that is raised again however often it is acked: the PMI
 * handler goes round 100 times, then gives up ("irq loop stuck"), warns
 * once and resets the PMU, counters and status included.
 */
static void test_a_status_that_never_clears_stops_the_pmi_loop(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 4);
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.size = sizeof(a);
	stuck_event = perf_event_create_kernel_counter(&a, 0, NULL, stuck_handler, NULL, NULL, &err);
	assert_non_null(stuck_event);
	model_retire_insns(xt.cpu[0], 4, 4, true);
	assert_int_equal(xt.nr_overflows, 100);
	assert_int_equal(pmusim_warn_count(), warns_at_start + IS_ENABLED(CONFIG_DEBUG_PERF));
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_STATUS), 0);
	assert_int_equal(xt_rdmsr(0, (u32)stuck_event->hw.event_base), 0);
	perf_event_release_kernel(stuck_event);
	stuck_event = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_events_the_driver_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_precise_levels_per_model, setup, teardown),
		cmocka_unit_test_setup_teardown(test_an_event_on_a_cpu_that_is_not_there, setup, teardown),
		cmocka_unit_test_setup_teardown(test_an_event_whose_counters_cpuid_removed_is_refused,
					  setup, teardown),
		cmocka_unit_test_setup_teardown(test_lbr_events_that_disagree_on_lbr_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_each_allocation_failure_in_event_init, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plugging_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_an_unknown_cpu_model_gets_the_generic_pmu_without_lbr,
					  setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_stopped_event_moves_counter_and_stays_stopped,
					  setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_hooks_without_a_task_or_a_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pmi_with_nothing_to_do_or_no_registers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anythread_on_a_fixed_counter_of_pmu_v3, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v612_pmu_context_is_shared_per_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unchecked_msr_access_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counters_exhausted_and_disabled_siblings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_arch_event_vector_hides_the_events_past_it,
					  setup, teardown),
		cmocka_unit_test_setup_teardown(test_callbacks_out_of_protocol, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replug_checks_against_the_remaining_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_that_cannot_fit_is_undone_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_raised_during_the_pmi_is_handled_in_it,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_status_that_never_clears_stops_the_pmi_loop,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
