// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PMI path of the x86 driver: overflow at exactly the programmed
 * period in every counter (periods 1, 2, 2^31-1 and near the counter
 * width, with and without full-width writes), the set_period/update
 * arithmetic when the counter overshoots, freeze and thaw per PMU
 * version, and hw_idx equal to the model's TOS at the PMI.
 */
#include "tests/x86/x86_test.h"

static const char *const models[] = { "core2", "atom", "nehalem", "haswell", "skylake", "icelake", "sapphirerapids" };

/*
 * Open a sampling instructions event on counter @idx: fixed counter 0, or
 * general-purpose counter idx with fixed 0 and GP 0..idx-1 taken first.
 */
static struct perf_event *open_insns_on(int idx, u64 period, struct perf_event **fill, int *nfill)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	struct perf_event *e;
	int err;

	*nfill = 0;
	a.exclude_user = 1;	/* the fillers only hold counters: they never overflow here */
	if (idx < INTEL_PMC_IDX_FIXED) {
		fill[(*nfill)++] = xt_open(&a, 0, NULL, &err);
		a.config = PERF_COUNT_HW_BRANCH_MISSES;
		for (int i = 0; i < idx; i++)
			fill[(*nfill)++] = xt_open(&a, 0, NULL, &err);
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
	}
	a.exclude_user = 0;
	a.sample_period = period;
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	assert_int_equal(e->hw.idx, idx);
	return e;
}

static void close_all(struct perf_event *e, struct perf_event **fill, int nfill)
{
	perf_event_release_kernel(e);
	while (nfill--)
		perf_event_release_kernel(fill[nfill]);
}

/*
 * Retire @n instructions, in calls of at most max_period so that no call
 * runs past a PMI the driver programs (a longer call would overshoot).
 */
static void retire(u64 n)
{
	while (n) {
		u64 chunk = n > x86_pmu.max_period ? x86_pmu.max_period : n;

		model_retire_insns(xt.cpu[0], chunk, chunk, true);
		n -= chunk;
	}
}

/* The PMI comes with the event that completes the period, not one before. */
static void expect_pmi_at(u64 at)
{
	unsigned long before = xt.nr_overflows;

	retire(at - 1);
	assert_int_equal(xt.nr_overflows, before);
	retire(1);
	assert_int_equal(xt.nr_overflows, before + 1);
}

/*
 * Open a sampling event on fixed counter 1 (cycles) or 2 (ref-cycles);
 * retire() moves both as fast as instructions (TSC rate == core rate).
 */
static struct perf_event *open_fixed_clock(int idx, u64 period)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE,
					   idx == INTEL_PMC_IDX_FIXED + 1 ? PERF_COUNT_HW_CPU_CYCLES :
					   PERF_COUNT_HW_REF_CPU_CYCLES, period);
	struct perf_event *e;
	int err;

	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	assert_int_equal(e->hw.idx, idx);
	return e;
}

/*
 * Every counter the driver schedules (each GP counter, fixed 0 to 2) on
 * every model, for periods 1, 2, 2^31 - 1 and the counter width less 2:
 * the sample comes with the event that completes the period, never one
 * earlier, twice in a row, and the count is exact. Period 1 is
 * programmed as 2 (x86_perf_event_set_period's minimum). A period above
 * max_period (2^31 - 1 without full-width writes, 2^(width-1) - 1 with)
 * takes ceil(period / max_period) PMIs for its one sample.
 */
static void test_pmi_at_exact_period_in_every_counter_of_every_model(void **state)
{
	unsigned int nr_models;
	const struct model_cpu_desc *table = model_cpu_desc_table(&nr_models);

	(void)state;
	for (unsigned int m = 0; m < nr_models; m++) {
		const struct model_cpu_desc *d = &table[m];
		int idxs[INTEL_PMC_MAX_GENERIC + 3], n = 0;

		assert_int_equal(xt_boot(d->name), 0);
		for (unsigned int i = 0; i < d->nr_gp; i++)
			idxs[n++] = i;
		for (int j = 0; j < 3; j++)	/* fixed 3 (slots) takes no sampling event */
			idxs[n++] = INTEL_PMC_IDX_FIXED + j;
		for (int k = 0; k < n; k++) {
			const u64 periods[] = { 1, 2, (1ULL << 31) - 1, x86_pmu.cntval_mask - 1 };

			for (unsigned int p = 0; p < ARRAY_SIZE(periods); p++) {
				struct perf_event *fill[INTEL_PMC_MAX_GENERIC + 1], *e;
				u64 at = periods[p] < 2 ? 2 : periods[p];
				u64 pmis_per_sample = (at + x86_pmu.max_period - 1) / x86_pmu.max_period;
				u64 pmis = model_cpu_nr_pmis(xt.cpu[0]);
				int nfill = 0;

				if (idxs[k] > INTEL_PMC_IDX_FIXED)
					e = open_fixed_clock(idxs[k], periods[p]);
				else
					e = open_insns_on(idxs[k], periods[p], fill, &nfill);
				expect_pmi_at(at);
				expect_pmi_at(at);
				if (model_cpu_nr_pmis(xt.cpu[0]) - pmis != 2 * pmis_per_sample)
					fail_msg("%s counter %d period %llu: %llu PMIs, expected %llu",
						 d->name, idxs[k], (unsigned long long)periods[p],
						 (unsigned long long)(model_cpu_nr_pmis(xt.cpu[0]) - pmis),
						 (unsigned long long)(2 * pmis_per_sample));
				assert_int_equal(xt.samples[xt.nr_samples - 1].period, periods[p]);
				assert_int_equal(xt_read(e), 2 * at);
				close_all(e, fill, nfill);
				xt.nr_samples = 0;
			}
		}
		xt_shutdown();
	}
	assert_int_equal(pmusim_warn_count(), 0);
}

/* Period 1 is programmed as 2 (the kernel's minimum): a PMI every 2 events. */
static void test_period_one_overflows_every_second_event(void **state)
{
	struct perf_event *fill[2], *e;
	int nfill;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = open_insns_on(INTEL_PMC_IDX_FIXED, 1, fill, &nfill);
	for (int i = 0; i < 3; i++)
		expect_pmi_at(2);
	assert_int_equal(xt.samples[0].period, 1);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR0), x86_pmu.cntval_mask - 1);
	close_all(e, fill, nfill);
}

/*
 * Near the width: with full-width writes (skylake) a period of
 * 2^47 - 1 is one PMI; without (nehalem) max_period is 2^31 - 1, so a
 * period of 2^32 takes three PMIs and reports one sample at exactly 2^32.
 */
static void test_full_width_writes_allow_periods_near_the_counter_width(void **state)
{
	struct perf_event *fill[8], *e;
	u64 pmis;
	int nfill;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	assert_int_equal(x86_pmu.max_period, (1ULL << 47) - 1);
	e = open_insns_on(1, (1ULL << 47) - 1, fill, &nfill);
	assert_int_equal(e->hw.event_base, MSR_IA32_PMC0 + 1);
	assert_int_equal(xt_rdmsr(0, MSR_IA32_PMC0 + 1), (1ULL << 47) + 1);	/* -(2^47-1) in 48 bits */
	pmis = model_cpu_nr_pmis(xt.cpu[0]);
	expect_pmi_at((1ULL << 47) - 1);
	assert_int_equal(model_cpu_nr_pmis(xt.cpu[0]), pmis + 1);
	close_all(e, fill, nfill);
	xt_shutdown();

	assert_int_equal(xt_boot("nehalem"), 0);
	assert_int_equal(x86_pmu.max_period, (1ULL << 31) - 1);
	e = open_insns_on(2, 1ULL << 32, fill, &nfill);
	assert_int_equal(e->hw.event_base, MSR_ARCH_PERFMON_PERFCTR0 + 2);
	assert_int_equal(xt_rdmsr(0, MSR_ARCH_PERFMON_PERFCTR0 + 2),
			 (-((1ULL << 31) - 1)) & x86_pmu.cntval_mask);
	pmis = model_cpu_nr_pmis(xt.cpu[0]);
	expect_pmi_at(1ULL << 32);
	assert_int_equal(model_cpu_nr_pmis(xt.cpu[0]), pmis + 3);
	assert_int_equal(xt.samples[0].period, 1ULL << 32);
	close_all(e, fill, nfill);
}

/*
 * Overshoot: the counter runs past the period within one retire call.
 * Less than a period over: the next period is shortened by the excess;
 * a period or more over: a fresh period starts.
 */
static void test_set_period_and_update_with_a_counter_that_overshoots(void **state)
{
	struct perf_event *fill[2], *e;
	int nfill;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = open_insns_on(INTEL_PMC_IDX_FIXED, 100, fill, &nfill);

	retire(130);				/* 30 over */
	assert_int_equal(xt.nr_overflows, 1);
	assert_int_equal(xt_read(e), 130);
	assert_int_equal(local64_read(&e->hw.period_left), 70);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR0),
			 x86_pmu.cntval_mask + 1 - 70 + 0);	/* -70, then nothing counted */
	expect_pmi_at(70);

	retire(250);				/* 150 over: more than a period */
	assert_int_equal(xt.nr_overflows, 3);
	assert_int_equal(local64_read(&e->hw.period_left), 100);
	assert_int_equal(xt.samples[2].period, 100);
	expect_pmi_at(100);
	assert_int_equal(xt_read(e), 130 + 70 + 250 + 100);
	close_all(e, fill, nfill);
}

/* The update arithmetic alone, on a counter that wraps at the width. */
static void test_update_takes_the_delta_modulo_the_counter_width(void **state)
{
	struct perf_event *fill[2], *e;
	int nfill;

	(void)state;
	assert_int_equal(xt_boot("core2"), 0);	/* 40-bit counters */
	e = open_insns_on(INTEL_PMC_IDX_FIXED, 0x7fffffff, fill, &nfill);
	x86_get_pmu()->stop(e, PERF_EF_UPDATE);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_FIXED_CTR0, 0xfffffffff0ULL), 0);
	local64_set(&e->hw.prev_count, 0xfffffffff0ULL);
	local64_set(&e->count, 0);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_CORE_PERF_FIXED_CTR0, 0x10), 0);
	x86_perf_event_update(e);
	assert_int_equal(local64_read(&e->count), 0x20);
	close_all(e, fill, nfill);
}

/* An LBR sampling event on branches; returns it. */
static struct perf_event *open_lbr_sampler(u64 period, u64 br_type)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
					   period);
	struct perf_event *e;
	int err;

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = br_type;
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	return e;
}

static void test_freeze_and_thaw_per_pmu_version(void **state)
{
	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		struct perf_event *e;

		if (model_cpu_desc_lookup(models[m])->arch_lbr)
			continue;	/* no DEBUGCTL.LBR, no TOS: tests/model/test_arch_lbr.c */
		assert_int_equal(xt_boot(models[m]), 0);
		for (u64 a = 0x1000; a < 0x1000 + 16 * 16; a += 16)
			x86_branch_text_add(a, MODEL_BR_JCC);
		e = open_lbr_sampler(5, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
		for (int i = 0; i < 5; i++)
			xt_branch(0, 0x1000 + i * 16, 0x2000, MODEL_BR_JCC);
		assert_int_equal(xt.nr_overflows, 1);
		/* After the handler: LBR running again, no freeze left, counters on. */
		assert_true(xt_rdmsr(0, MSR_IA32_DEBUGCTLMSR) & DEBUGCTLMSR_LBR);
		assert_true(xt_rdmsr(0, MSR_IA32_DEBUGCTLMSR) & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
		assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_STATUS), 0);
		assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_GLOBAL_CTRL), x86_pmu.intel_ctrl);
		/* The branch after the PMI is recorded: the stack moved on. */
		{
			u64 tos = xt_rdmsr(0, MSR_LBR_TOS);

			xt_branch(0, 0x1000 + 5 * 16, 0x2000, MODEL_BR_JCC);
			assert_int_equal(xt_rdmsr(0, MSR_LBR_TOS), (tos + 1) % x86_pmu.lbr_nr);
		}
		/* The sample's newest record is the branch that overflowed. */
		assert_int_equal(xt.samples[0].entries[0].from, 0x1000 + 4 * 16);
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

static void test_hw_idx_is_the_tos_at_the_pmi(void **state)
{
	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		struct perf_event *e;

		assert_int_equal(xt_boot(models[m]), 0);
		for (u64 a = 0x1000; a < 0x1000 + 100 * 16; a += 16)
			x86_branch_text_add(a, MODEL_BR_JCC);
		e = open_lbr_sampler(7, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
				     PERF_SAMPLE_BRANCH_HW_INDEX);
		for (int i = 0; i < 100; i++)
			xt_branch(0, 0x1000 + i * 16, 0x3000 + i, MODEL_BR_JCC);
		assert_int_equal(xt.nr_samples, 100 / 7);
		for (unsigned int s = 0; s < xt.nr_samples; s++) {
			assert_true(xt.samples[s].has_br);
			if (x86_pmu.arch_lbr)	/* no TOS; v6.12 leaves hw_idx at 0 */
				assert_int_equal(xt.samples[s].br.hw_idx, 0);
			else
				assert_int_equal(xt.samples[s].br.hw_idx, xt.samples[s].model_tos);
			/* the newest record is the 7th, 14th, ... branch */
			assert_int_equal(xt.samples[s].entries[0].from, 0x1000 + (7 * (s + 1) - 1) * 16);
			assert_int_equal(xt.samples[s].ip, 0x3000 + 7 * (s + 1) - 1);
		}
		if (x86_pmu.arch_lbr) {
			/*
			 * The Arch LBR read does not write hw_idx at all: what a
			 * PEBS-LBR record left there (-1ULL) is what the next
			 * plain sample carries, as in v6.12.
			 */
			cpu_hw_events[0].lbr_stack.hw_idx = -1ULL;
			for (int i = 0; i < 7; i++)
				xt_branch(0, 0x1000 + i * 16, 0x3000 + i, MODEL_BR_JCC);
			assert_int_equal(xt.samples[xt.nr_samples - 1].br.hw_idx, -1ULL);
		}
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

/*
 * The handler stops an event the core throttled: with a budget of three
 * samples per tick, the third PMI's overflow returns 1, x86_pmu_stop()
 * takes the counter off (its FIXED_CTR_CTRL field goes to 0 at the
 * re-enable that ends the handler), and nothing counts or samples until
 * the tick unthrottles it.
 */
static void test_pmi_stops_an_event_the_core_throttled(void **state)
{
	struct perf_event *fill[2], *e;
	int saved_rate = sysctl_perf_event_sample_rate;
	u64 frozen_at;
	int nfill;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	assert_int_equal(perf_event_max_sample_rate_set(3 * HZ), 0);
	e = open_insns_on(INTEL_PMC_IDX_FIXED, 10, fill, &nfill);
	for (int i = 0; i < 3; i++)
		expect_pmi_at(10);
	assert_true(e->hw.state & PERF_HES_STOPPED);
	assert_int_equal(e->hw.interrupts, MAX_INTERRUPTS);
	assert_false(cpu_hw_events[0].active_mask >> INTEL_PMC_IDX_FIXED & 1);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR_CTRL) & 0xf, 0);
	frozen_at = xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR0);
	retire(100);
	assert_int_equal(xt.nr_overflows, 3);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR0), frozen_at);

	perf_event_task_tick();		/* unthrottle: counting and sampling again */
	assert_false(e->hw.state & PERF_HES_STOPPED);
	assert_int_equal(xt_rdmsr(0, MSR_CORE_PERF_FIXED_CTR_CTRL) & 0xf, 0xb);
	retire(10);
	assert_int_equal(xt.nr_overflows, 4);
	close_all(e, fill, nfill);
	perf_event_max_sample_rate_set(saved_rate);
	assert_int_equal(pmusim_warn_count(), 0);
}

/*
 * perf_sample_event_took(): PMIs of 2 us stay within the 2.5 us a
 * sample may take at 100000 samples a second (25 %); PMIs of 5 us lower
 * the rate, and the tick budget with it, until a tick's samples at that
 * length fit in 25 % of the tick; perf_cpu_time_max_percent 0 turns it off.
 */
static void test_long_pmis_lower_the_sample_rate(void **state)
{
	static const struct {
		u64 ns;
		int percent;
		bool lowered;
	} c[] = { { 2000, 25, false }, { 5000, 25, true }, { 5000, 0, false } };

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		struct perf_event *fill[2], *e;
		int nfill;

		perf_cpu_limits_reset();
		assert_int_equal(perf_cpu_time_max_percent_set(c[i].percent), 0);
		assert_int_equal(xt_boot("skylake"), 0);
		x86_pmu_set_pmi_ns(0, c[i].ns);
		e = open_insns_on(INTEL_PMC_IDX_FIXED, 1000, fill, &nfill);
		for (int pmi = 0; pmi < 1000; pmi++) {
			retire(1000);
			if (pmi % 8 == 7)
				perf_event_task_tick();
		}
		assert_int_equal(xt.nr_overflows, 1000);
		assert_int_equal(perf_sample_rate_lowered > 0, c[i].lowered);
		if (c[i].lowered) {
			assert_true(sysctl_perf_event_sample_rate < CONFIG_PERF_SAMPLE_MAX_RATE);
			assert_int_equal(sysctl_perf_event_sample_rate, max_samples_per_tick * HZ);
			/* a tick's samples at 5 us (plus the quarter) fit in 25 % of it */
			assert_true((u64)max_samples_per_tick * 6250 <= TICK_NSEC / 4);
			assert_true((u64)(max_samples_per_tick + 1) * 6250 > TICK_NSEC / 4 / 2);
		} else {
			assert_int_equal(sysctl_perf_event_sample_rate, CONFIG_PERF_SAMPLE_MAX_RATE);
		}
		close_all(e, fill, nfill);
		x86_pmu_set_pmi_ns(0, 0);
		xt_shutdown();
	}
	perf_cpu_limits_reset();
	assert_int_equal(pmusim_warn_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pmi_at_exact_period_in_every_counter_of_every_model, xt_teardown),
		cmocka_unit_test_teardown(test_long_pmis_lower_the_sample_rate, xt_teardown),
		cmocka_unit_test_teardown(test_period_one_overflows_every_second_event, xt_teardown),
		cmocka_unit_test_teardown(test_full_width_writes_allow_periods_near_the_counter_width, xt_teardown),
		cmocka_unit_test_teardown(test_set_period_and_update_with_a_counter_that_overshoots, xt_teardown),
		cmocka_unit_test_teardown(test_update_takes_the_delta_modulo_the_counter_width, xt_teardown),
		cmocka_unit_test_teardown(test_freeze_and_thaw_per_pmu_version, xt_teardown),
		cmocka_unit_test_teardown(test_hw_idx_is_the_tos_at_the_pmi, xt_teardown),
		cmocka_unit_test_teardown(test_pmi_stops_an_event_the_core_throttled, xt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
