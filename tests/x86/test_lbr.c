// SPDX-License-Identifier: GPL-2.0-only
/*
 * LBR contents in samples: a known branch sequence read back through each
 * branch_sample_type filter on each CPU model, compared with what the
 * kernel would report (hardware filter, then the software filter);
 * LBR_SELECT as the kernel programs it; call stacks deeper than the LBR;
 * TOS wrap.
 */
#include "tests/x86/x86_test.h"

#define K(x)	(0xffffffff81000000ULL + (x))

static const struct {
	u64 from, to;
	enum model_branch_type type;
} seq[] = {
	{ 0x1000, 0x1010, MODEL_BR_JCC },		/* 0 */
	{ 0x1020, 0x2000, MODEL_BR_NEAR_REL_CALL },	/* 1 */
	{ 0x2010, 0x2020, MODEL_BR_NEAR_REL_JMP },	/* 2 */
	{ 0x2030, 0x3000, MODEL_BR_NEAR_IND_CALL },	/* 3 */
	{ 0x3010, 0x3020, MODEL_BR_NEAR_IND_JMP },	/* 4 */
	{ 0x3030, 0x2035, MODEL_BR_NEAR_RET },		/* 5 */
	{ K(0x0), K(0x10), MODEL_BR_JCC },		/* 6: kernel */
	{ 0x2040, 0x1025, MODEL_BR_NEAR_RET },		/* 7 */
	{ 0x1030, 0x1040, MODEL_BR_JCC },		/* 8 */
	{ 0x1050, 0x4000, MODEL_BR_NEAR_REL_CALL },	/* 9: the PMI */
};

#define U	PERF_SAMPLE_BRANCH_USER
static const struct {
	const char *name;
	u64 br_type;
	int expect[11];		/* sequence indices, newest first, -1 ends */
	int expect_core2[5];	/* the same from core2's 4 entries (b6..b9) */
} filters[] = {
	{ "any user", PERF_SAMPLE_BRANCH_ANY | U,
	  { 9, 8, 7, 5, 4, 3, 2, 1, 0, -1 }, { 9, 8, 7, -1 } },
	/* LBR_FORMAT_32 keeps 32 address bits: core2's kernel record no longer decodes */
	{ "any kernel", PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL,
	  { 6, -1 }, { -1 } },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL | U, { 9, 3, 1, -1 }, { 9, -1 } },
	{ "any_return", PERF_SAMPLE_BRANCH_ANY_RETURN | U, { 7, 5, -1 }, { 7, -1 } },
	{ "cond", PERF_SAMPLE_BRANCH_COND | U, { 8, 0, -1 }, { 8, -1 } },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL | U, { 3, -1 }, { -1 } },
	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK | U, { 9, -1 }, { -1 } },
};

static void register_text(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(seq); i++)
		assert_int_equal(x86_branch_text_add(seq[i].from, seq[i].type), 0);
}

static void run_seq(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(seq); i++)
		xt_branch(0, seq[i].from, seq[i].to, seq[i].type);
}

static struct perf_event *open_sampler(u64 period, u64 br_type, int *err)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
					   period);

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = br_type;
	return xt_open(&a, 0, NULL, err);
}

static void test_each_filter_on_each_model_reports_what_the_kernel_would(void **state)
{
	static const char *const models[] = { "core2", "atom", "nehalem", "haswell", "skylake",
					      "icelake", "sapphirerapids" };
	(void)state;

	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		for (unsigned int f = 0; f < ARRAY_SIZE(filters); f++) {
			const int *exp;
			struct perf_event *e;
			unsigned int n;
			int err;

			assert_int_equal(xt_boot(models[m]), 0);
			register_text();
			e = open_sampler(ARRAY_SIZE(seq), filters[f].br_type, &err);
			if (filters[f].br_type & PERF_SAMPLE_BRANCH_CALL_STACK &&
			    !model_cpu_desc_lookup(models[m])->has_lbr_callstack &&
			    !model_cpu_desc_lookup(models[m])->arch_lbr) {
				assert_null(e);
				assert_int_equal(err, -EOPNOTSUPP);
				xt_shutdown();
				continue;
			}
			assert_non_null(e);
			run_seq();
			assert_int_equal(xt.nr_samples, 1);
			exp = strcmp(models[m], "core2") ? filters[f].expect : filters[f].expect_core2;
			for (n = 0; exp[n] >= 0; n++)
				;
			/*
			 * Where LBR_SELECT filters, the hardware kept at most 9
			 * records; atom's 8 entries hold the newest 8 of them.
			 */
			if (n > (unsigned int)x86_pmu.lbr_nr)
				n = x86_pmu.lbr_nr;
			if (xt.samples[0].br.nr != n)
				fail_msg("%s %s: %llu entries, expected %u", models[m], filters[f].name,
					 (unsigned long long)xt.samples[0].br.nr, n);
			for (unsigned int i = 0; i < n; i++) {
				assert_int_equal(xt.samples[0].entries[i].from, seq[exp[i]].from);
				assert_int_equal(xt.samples[0].entries[i].to, seq[exp[i]].to);
			}
			perf_event_release_kernel(e);
			xt_shutdown();
		}
	}
	assert_int_equal(pmusim_warn_count(), 0);
}

/* Unfiltered legacy reads return every entry, the empty ones included. */
static void test_unfiltered_legacy_read_returns_all_entries(void **state)
{
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = open_sampler(ARRAY_SIZE(seq), PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_KERNEL, &err);
	run_seq();	/* no text registered: nothing needs decoding */
	assert_int_equal(xt.samples[0].br.nr, 32);
	for (unsigned int i = 0; i < ARRAY_SIZE(seq); i++)
		assert_int_equal(xt.samples[0].entries[i].from, seq[ARRAY_SIZE(seq) - 1 - i].from);
	assert_int_equal(xt.samples[0].entries[ARRAY_SIZE(seq)].from, 0);
	perf_event_release_kernel(e);
}

static void test_lbr_select_and_arch_lbr_ctl_as_the_kernel_programs_them(void **state)
{
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = open_sampler(1000, PERF_SAMPLE_BRANCH_CALL_STACK | U, &err);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_SELECT), 0x3c5);
	/* call-stack mode: no freeze on PMI */
	assert_false(xt_rdmsr(0, MSR_IA32_DEBUGCTLMSR) & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	perf_event_release_kernel(e);
	e = open_sampler(1000, PERF_SAMPLE_BRANCH_ANY_CALL | U, &err);
	/* capture REL_CALL|IND_CALL|FAR|USER, suppress the rest */
	assert_int_equal(xt_rdmsr(0, MSR_LBR_SELECT),
			 LBR_KERNEL | LBR_JCC | LBR_RETURN | LBR_IND_JMP | LBR_REL_JMP);
	perf_event_release_kernel(e);
	xt_shutdown();

	assert_int_equal(xt_boot("sapphirerapids"), 0);
	e = open_sampler(1000, PERF_SAMPLE_BRANCH_CALL_STACK | U, &err);
	assert_int_equal(xt_rdmsr(0, MSR_ARCH_LBR_CTL),
			 ARCH_LBR_CTL_LBREN | ARCH_LBR_USER | ARCH_LBR_CALL_STACK |
			 ARCH_LBR_REL_CALL | ARCH_LBR_IND_CALL | ARCH_LBR_RETURN);
	perf_event_release_kernel(e);
}

/* 40 nested calls on a 32-deep LBR, then 10 returns. */
/*
 * 40 nested calls on every model with the call-stack mode: the sample
 * holds the newest lbr_nr frames (16 on haswell, 32 on skylake and
 * sapphirerapids), the outermost are lost; 10 returns later it holds
 * lbr_nr - 10, still newest first.
 */
static void test_call_stack_deeper_than_the_lbr(void **state)
{
	static const char *const models[] = { "haswell", "skylake", "sapphirerapids" };

	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		struct perf_event *e;
		int depth, err;

		assert_int_equal(xt_boot(models[m]), 0);
		depth = x86_pmu.lbr_nr;
		assert_int_equal(depth, model_cpu_desc_lookup(models[m])->lbr_nr);
		for (int i = 0; i < 40; i++) {
			x86_branch_text_add(0x10000 * (i + 1) + 0x10, MODEL_BR_NEAR_REL_CALL);
			x86_branch_text_add(0x10000 * (i + 2) + 0x80, MODEL_BR_NEAR_RET);
		}
		e = open_sampler(40, PERF_SAMPLE_BRANCH_CALL_STACK | U, &err);
		assert_non_null(e);
		/* call i: from function i (at 0x10000*(i+1)) to function i+1 */
		for (int i = 0; i < 40; i++)
			xt_branch(0, 0x10000 * (i + 1) + 0x10, 0x10000 * (i + 2), MODEL_BR_NEAR_REL_CALL);
		assert_int_equal(xt.nr_samples, 1);
		assert_int_equal(xt.samples[0].br.nr, depth);	/* the 40 - depth outermost are lost */
		for (int i = 0; i < depth; i++)
			assert_int_equal(xt.samples[0].entries[i].from, 0x10000 * (40 - i) + 0x10);

		/* 10 returns, then the next sample: depth - 10 frames */
		perf_event_period(e, 10);
		for (int i = 39; i >= 30; i--)
			xt_branch(0, 0x10000 * (i + 2) + 0x80, 0x10000 * (i + 1) + 0x15,
				  MODEL_BR_NEAR_RET);
		assert_int_equal(xt.nr_samples, 2);
		assert_int_equal(xt.samples[1].br.nr, depth - 10);
		assert_int_equal(xt.samples[1].entries[0].from, 0x10000 * 30 + 0x10);
		assert_int_equal(xt.samples[1].entries[depth - 11].from,
				 0x10000 * (40 - depth + 1) + 0x10);
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

/*
 * 40 branches through every legacy LBR (4, 8, 16 and 32 entries): TOS
 * wrapped to 40 mod depth, hw_idx is it, and the entries read back newest
 * first, the flags decoded where the format has them.
 */
static void test_tos_wraps_and_entries_stay_newest_first(void **state)
{
	unsigned int nr;
	const struct model_cpu_desc *t = model_cpu_desc_table(&nr);

	(void)state;
	for (unsigned int m = 0; m < nr; m++) {
		struct perf_event *e;
		int depth, err;

		if (t[m].arch_lbr)
			continue;	/* no TOS: tests/model/test_arch_lbr.c */
		assert_int_equal(xt_boot(t[m].name), 0);
		depth = x86_pmu.lbr_nr;
		assert_int_equal(depth, t[m].lbr_nr);
		e = open_sampler(40, PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_KERNEL |
				 PERF_SAMPLE_BRANCH_HW_INDEX, &err);
		for (int i = 0; i < 40; i++)
			xt_branch(0, 0x1000 + i * 8, 0x9000 + i * 8, MODEL_BR_JCC);
		assert_int_equal(xt.samples[0].br.hw_idx, 40 % depth);
		assert_int_equal(xt.samples[0].model_tos, 40 % depth);
		assert_int_equal(xt.samples[0].br.nr, depth);
		for (int i = 0; i < depth; i++) {
			assert_int_equal(xt.samples[0].entries[i].from, 0x1000 + (39 - i) * 8);
			assert_int_equal(xt.samples[0].entries[i].to, 0x9000 + (39 - i) * 8);
			/* LBR_FORMAT_32 carries no flags at all */
			assert_int_equal(xt.samples[0].entries[i].predicted,
					 t[m].lbr_format != LBR_FORMAT_32);
		}
		/* LBR_INFO: one cycle per branch since the previous record */
		if (t[m].has_lbr_info)
			assert_int_equal(xt.samples[0].entries[0].cycles, 1);
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

/*
 * Mispredict from LBR_INFO (skylake, sapphirerapids) and from FROM[63]
 * (atom, nehalem, haswell).
 */
static void test_mispredict_flag_decoded_per_format(void **state)
{
	static const char *const models[] = { "atom", "nehalem", "haswell", "skylake",
					      "sapphirerapids" };

	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(models); m++) {
		struct perf_event *e;
		int err;

		assert_int_equal(xt_boot(models[m]), 0);
		x86_branch_text_add(0x1000, MODEL_BR_JCC);
		x86_branch_text_add(0x1100, MODEL_BR_JCC);
		e = open_sampler(2, PERF_SAMPLE_BRANCH_COND | U, &err);
		model_retire_branch(xt.cpu[0], 0x1000, 0x2000, MODEL_BR_JCC, true, true, 3);
		model_retire_branch(xt.cpu[0], 0x1100, 0x2100, MODEL_BR_JCC, true, false, 4);
		assert_int_equal(xt.samples[0].br.nr, 2);
		assert_int_equal(xt.samples[0].entries[0].from, 0x1100);
		assert_false(xt.samples[0].entries[0].mispred);
		assert_true(xt.samples[0].entries[1].mispred);
		assert_false(xt.samples[0].entries[1].predicted);
		assert_int_equal(xt.samples[0].entries[1].from, 0x1000);	/* flag bit stripped */
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_each_filter_on_each_model_reports_what_the_kernel_would, xt_teardown),
		cmocka_unit_test_teardown(test_unfiltered_legacy_read_returns_all_entries, xt_teardown),
		cmocka_unit_test_teardown(test_lbr_select_and_arch_lbr_ctl_as_the_kernel_programs_them, xt_teardown),
		cmocka_unit_test_teardown(test_call_stack_deeper_than_the_lbr, xt_teardown),
		cmocka_unit_test_teardown(test_tos_wraps_and_entries_stay_newest_first, xt_teardown),
		cmocka_unit_test_teardown(test_mispredict_flag_decoded_per_format, xt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
