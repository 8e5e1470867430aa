// SPDX-License-Identifier: GPL-2.0-only
/*
 * The x86 driver counts exactly and schedules events onto counters as the
 * kernel does: generic events on every CPU model of the table, privilege
 * filters, fixed versus general-purpose counters, constraints, and the
 * errors when events cannot go on.
 */
#include "tests/x86/x86_test.h"

static const char *const models[] = { "core2", "atom", "nehalem", "haswell", "skylake", "icelake", "sapphirerapids" };

/* 100 user instructions over 150 cycles, then 10 branches (3 mispredicted) of 2 cycles. */
static void run_known_sequence(struct model_cpu *cpu)
{
	model_retire_insns(cpu, 100, 150, true);
	for (int i = 0; i < 10; i++)
		model_retire_branch(cpu, 0x401000 + i * 16, 0x402000 + i * 16,
				    MODEL_BR_JCC, true, i < 3, 2);
}

static void test_generic_events_count_exactly_on_every_model(void **state)
{
	static const struct { u64 config; u64 expect; } ev[] = {
		{ PERF_COUNT_HW_INSTRUCTIONS, 110 },
		{ PERF_COUNT_HW_CPU_CYCLES, 170 },
		{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 10 },
		{ PERF_COUNT_HW_BRANCH_MISSES, 3 },
		{ PERF_COUNT_HW_REF_CPU_CYCLES, 170 },	/* TSC rate == core rate */
	};
	(void)state;

	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		struct perf_event *e[ARRAY_SIZE(ev)];

		assert_int_equal(xt_boot(models[m]), 0);
		for (unsigned int i = 0; i < ARRAY_SIZE(ev); i++) {
			struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, ev[i].config, 0);
			int err;

			e[i] = xt_open(&a, 0, NULL, &err);
			assert_non_null(e[i]);
			assert_int_equal(e[i]->state, PERF_EVENT_STATE_ACTIVE);
		}
		run_known_sequence(xt.cpu[0]);
		for (unsigned int i = 0; i < ARRAY_SIZE(ev); i++) {
			if (xt_read(e[i]) != ev[i].expect)
				fail_msg("%s: event %llu counted %llu, expected %llu", models[m],
					 (unsigned long long)ev[i].config,
					 (unsigned long long)xt_read(e[i]),
					 (unsigned long long)ev[i].expect);
			perf_event_release_kernel(e[i]);
		}
		xt_shutdown();
	}
	assert_int_equal(pmusim_warn_count(), 0);
}

static void test_exclude_user_and_kernel_select_the_privilege(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	struct perf_event *usr, *os, *both;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.exclude_kernel = 1;
	usr = xt_open(&a, 0, NULL, &err);
	a.exclude_kernel = 0;
	a.exclude_user = 1;
	os = xt_open(&a, 0, NULL, &err);
	a.exclude_user = 0;
	both = xt_open(&a, 0, NULL, &err);
	assert_non_null(usr);
	assert_non_null(os);
	assert_non_null(both);

	model_retire_insns(xt.cpu[0], 7, 7, true);
	model_retire_insns(xt.cpu[0], 5, 5, false);
	assert_int_equal(xt_read(usr), 7);
	assert_int_equal(xt_read(os), 5);
	assert_int_equal(xt_read(both), 12);
	/* the first instructions event took fixed counter 0, the others GP counters */
	assert_int_equal(usr->hw.idx, INTEL_PMC_IDX_FIXED);
	assert_true(os->hw.idx < INTEL_PMC_IDX_FIXED);
	assert_true(both->hw.idx < INTEL_PMC_IDX_FIXED);
	assert_int_equal(xt_rdmsr(0, os->hw.config_base) & 0xffffffffULL,
			 ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_OS |
			 ARCH_PERFMON_EVENTSEL_ENABLE | 0xc0);
	perf_event_release_kernel(usr);
	perf_event_release_kernel(os);
	perf_event_release_kernel(both);
	xt_shutdown();
}

static void test_fixed_counters_first_then_gp_and_ref_cycles_only_on_fixed2(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
	struct perf_event *c1, *c2, *r1, *r2;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	c1 = xt_open(&a, 0, NULL, &err);
	c2 = xt_open(&a, 0, NULL, &err);
	a.config = PERF_COUNT_HW_REF_CPU_CYCLES;
	r1 = xt_open(&a, 0, NULL, &err);
	r2 = xt_open(&a, 0, NULL, &err);
	assert_int_equal(c1->hw.idx, INTEL_PMC_IDX_FIXED + 1);
	assert_int_equal(c2->hw.idx, 0);
	assert_int_equal(r1->hw.idx, INTEL_PMC_IDX_FIXED + 2);
	assert_int_equal(r1->state, PERF_EVENT_STATE_ACTIVE);
	/* fixed 2 is taken and no GP counter counts the pseudo-encoding */
	assert_int_equal(r2->state, PERF_EVENT_STATE_INACTIVE);
	model_retire_insns(xt.cpu[0], 10, 40, true);
	assert_int_equal(xt_read(c1), 40);
	assert_int_equal(xt_read(c2), 40);
	assert_int_equal(xt_read(r1), 40);
	assert_int_equal(xt_read(r2), 0);
	perf_event_release_kernel(r2);
	perf_event_release_kernel(r1);
	perf_event_release_kernel(c2);
	perf_event_release_kernel(c1);
	xt_shutdown();
}

static void test_constraint_puts_prec_dist_on_pmc1(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_RAW, 0x01c0, 0);
	struct perf_event_attr b = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct perf_event *br0, *prec, *prec2;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	br0 = xt_open(&b, 0, NULL, &err);
	prec = xt_open(&a, 0, NULL, &err);
	prec2 = xt_open(&a, 0, NULL, &err);
	assert_int_equal(br0->hw.idx, 0);
	assert_int_equal(prec->hw.idx, 1);
	assert_int_equal(prec2->state, PERF_EVENT_STATE_INACTIVE);
	perf_event_release_kernel(prec2);
	perf_event_release_kernel(prec);
	perf_event_release_kernel(br0);
	xt_shutdown();
}

static void test_more_events_than_counters_stay_off_and_groups_are_refused(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct perf_event *e[5], *g[5];
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	for (int i = 0; i < 5; i++)
		e[i] = xt_open(&a, 0, NULL, &err);
	for (int i = 0; i < 4; i++)
		assert_int_equal(e[i]->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(e[4]->state, PERF_EVENT_STATE_INACTIVE);
	model_retire_branch(xt.cpu[0], 0x1000, 0x2000, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(xt_read(e[3]), 1);
	assert_int_equal(xt_read(e[4]), 0);
	for (int i = 0; i < 5; i++)
		perf_event_release_kernel(e[i]);

	/* A group of five branch events can never be on four GP counters: EINVAL. */
	a.size = sizeof(a);
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &g[0]), 0);
	for (int i = 1; i < 4; i++)
		assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, g[0], 0, NULL, &g[i]), 0);
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, g[0], 0, NULL, &g[4]), -EINVAL);
	for (int i = 3; i >= 0; i--)
		perf_event_release_kernel(g[i]);
	xt_shutdown();
}

/*
 * A sibling that joins a group already counting is put on its own counter
 * (the event core adds it inside a PMU transaction, as the kernel does;
 * without one it stayed ACTIVE with no counter: found by fuzz_attr).
 */
static void test_a_sibling_joining_a_running_group_counts(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct perf_event *leader, *sibling;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	a.size = sizeof(a);
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, NULL, 0, NULL, &leader), 0);
	model_retire_branch(xt.cpu[0], 0x1000, 0x2000, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(perf_event_open_attr(&a, sizeof(a), -1, 0, leader, 0, NULL, &sibling), 0);
	assert_int_equal(sibling->state, PERF_EVENT_STATE_ACTIVE);
	assert_true(sibling->hw.idx >= 0);
	for (int i = 0; i < 3; i++)
		model_retire_branch(xt.cpu[0], 0x1000, 0x2000, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(xt_read(leader), 4);
	assert_int_equal(xt_read(sibling), 3);
	/* alone once the leader goes, it still counts */
	perf_event_release_kernel(leader);
	model_retire_branch(xt.cpu[0], 0x1000, 0x2000, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(xt_read(sibling), 4);
	perf_event_release_kernel(sibling);
	assert_int_equal(pmusim_warn_count(), 0);
	xt_shutdown();
}

static void test_raw_config_bits_outside_the_mask_are_dropped_and_anythread_checked(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_RAW, (1ULL << 40) | ARCH_PERFMON_EVENTSEL_INT |
					   ARCH_PERFMON_EVENTSEL_ENABLE | 0xc4, 0);
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	assert_int_equal(e->hw.config & ~(ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS),
			 ARCH_PERFMON_EVENTSEL_INT | 0xc4);
	model_retire_branch(xt.cpu[0], 0x1000, 0x2000, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(xt_read(e), 1);
	perf_event_release_kernel(e);

	a.config = ARCH_PERFMON_EVENTSEL_ANY | 0xc4;	/* v4: AnyThread allowed */
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	assert_true(e->hw.config & ARCH_PERFMON_EVENTSEL_ANY);
	perf_event_release_kernel(e);
	xt_shutdown();

	assert_int_equal(xt_boot("icelake"), 0);	/* v5: deprecated */
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EINVAL);
	xt_shutdown();
}

static void test_unknown_and_absent_events_are_refused(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0);
	int err;

	(void)state;
	assert_int_equal(xt_boot("nehalem"), 0);
	assert_null(xt_open(&a, 0, NULL, &err));	/* CPUID.0AH:EBX says absent */
	assert_int_equal(err, -ENOENT);
	a.config = PERF_COUNT_HW_MAX;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EINVAL);
	a.type = PERF_TYPE_HW_CACHE;
	a.config = 0;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -ENOENT);
	xt_shutdown();
}

static void test_hybrid_machines_are_refused(void **state)
{
	struct model_cpu *other;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	other = model_cpu_create(model_cpu_desc_lookup("nehalem"), 5);
	assert_int_equal(x86_pmu_attach_cpu(5, other), -EINVAL);
	assert_int_equal(x86_pmu_attach_cpu(0, other), -EBUSY);
	model_cpu_destroy(other);
	xt_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_generic_events_count_exactly_on_every_model, xt_teardown),
		cmocka_unit_test_teardown(test_exclude_user_and_kernel_select_the_privilege, xt_teardown),
		cmocka_unit_test_teardown(test_fixed_counters_first_then_gp_and_ref_cycles_only_on_fixed2, xt_teardown),
		cmocka_unit_test_teardown(test_constraint_puts_prec_dist_on_pmc1, xt_teardown),
		cmocka_unit_test_teardown(test_more_events_than_counters_stay_off_and_groups_are_refused, xt_teardown),
		cmocka_unit_test_teardown(test_a_sibling_joining_a_running_group_counts, xt_teardown),
		cmocka_unit_test_teardown(test_raw_config_bits_outside_the_mask_are_dropped_and_anythread_checked, xt_teardown),
		cmocka_unit_test_teardown(test_unknown_and_absent_events_are_refused, xt_teardown),
		cmocka_unit_test_teardown(test_hybrid_machines_are_refused, xt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
