// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPU model table and the CPUID leaves the driver derives its view of
 * the PMU from: what each named model promises, and that CPUID and
 * PERF_CAPABILITIES say the same thing as the table.
 */
#include <string.h>

#include <generated/autoconf.h>

#include "model_test.h"

struct expected_model {
	const char *name;
	unsigned int version, nr_gp, gp_width, nr_fixed, fixed_width, lbr_nr, lbr_format;
	unsigned int cpuid_model;
	bool perf_caps, fw_write, lbr_info, arch_lbr;
};

static const struct expected_model expected[] = {
	{ "core2", 2, 2, 40, 3, 40, 4, LBR_FORMAT_32, 0x0f, false, false, false, false },
	{ "atom", 3, 2, 40, 3, 40, 8, LBR_FORMAT_EIP_FLAGS, 0x37, true, false, false, false },
	{ "nehalem", 3, 4, 48, 3, 48, 16, LBR_FORMAT_EIP_FLAGS, 0x1a, true, false, false, false },
	{ "haswell", 3, 4, 48, 3, 48, 16, LBR_FORMAT_EIP_FLAGS2, 0x3c, true, false, false, false },
	{ "skylake", 4, 4, 48, 3, 48, 32, LBR_FORMAT_INFO, 0x5e, true, true, true, false },
	{ "icelake", 5, 8, 48, 4, 48, 32, LBR_FORMAT_INFO, 0x7e, true, true, true, false },
	{ "sapphirerapids", 5, 8, 48, 4, 48, 32, LBR_FORMAT_ARCH_LBR, 0x8f, true, true, false, true },
};

static void table_rows_have_the_documented_values(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct expected_model *e = &expected[i];
		const struct model_cpu_desc *d = model_cpu_desc_lookup(e->name);

		assert_non_null(d);
		assert_string_equal(d->name, e->name);
		assert_int_equal(d->pmu_version, e->version);
		assert_int_equal(d->nr_gp, e->nr_gp);
		assert_int_equal(d->gp_width, e->gp_width);
		assert_int_equal(d->nr_fixed, e->nr_fixed);
		assert_int_equal(d->fixed_width, e->fixed_width);
		assert_int_equal(d->lbr_nr, e->lbr_nr);
		assert_int_equal(d->lbr_format, e->lbr_format);
		assert_int_equal(d->family, 6);
		assert_int_equal(d->model, e->cpuid_model);
		assert_int_equal(d->has_perf_capabilities, e->perf_caps);
		assert_int_equal(d->fw_write, e->fw_write);
		assert_int_equal(d->has_lbr_info, e->lbr_info);
		assert_int_equal(d->arch_lbr, e->arch_lbr);
		if (d->has_perf_capabilities)
			assert_int_equal(d->perf_capabilities & PERF_CAP_LBR_FMT, e->lbr_format);
		assert_int_equal(!!(d->perf_capabilities & PERF_CAP_FW_WRITES), e->fw_write);
	}
}

static void table_iteration_covers_every_row(void **state)
{
	unsigned int nr;
	const struct model_cpu_desc *t = model_cpu_desc_table(&nr);

	(void)state;
	assert_int_equal(nr, sizeof(expected) / sizeof(expected[0]));
	for (unsigned int i = 0; i < nr; i++)
		assert_ptr_equal(model_cpu_desc_lookup(t[i].name), &t[i]);
}

static void unknown_names_are_not_found(void **state)
{
	(void)state;
	assert_null(model_cpu_desc_lookup("pentium4"));
	assert_null(model_cpu_desc_lookup(""));
	assert_null(model_cpu_desc_lookup("Skylake"));
	assert_null(model_cpu_desc_lookup(NULL));
}

static void default_follows_the_kconfig_choice(void **state)
{
	const char *want =
#if defined(CONFIG_MODEL_CPU_CORE2)
		"core2";
#elif defined(CONFIG_MODEL_CPU_ATOM)
		"atom";
#elif defined(CONFIG_MODEL_CPU_NEHALEM)
		"nehalem";
#elif defined(CONFIG_MODEL_CPU_HASWELL)
		"haswell";
#elif defined(CONFIG_MODEL_CPU_ICELAKE)
		"icelake";
#elif defined(CONFIG_MODEL_CPU_SAPPHIRERAPIDS)
		"sapphirerapids";
#else
		"skylake";
#endif
	(void)state;
	assert_non_null(model_cpu_desc_default());
	assert_string_equal(model_cpu_desc_default()->name, want);
}

static void cpuid_leaf_0xa_describes_the_counters(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct expected_model *e = &expected[i];
		struct model_cpu *cpu = model_test_cpu(e->name);
		uint32_t r[4];

		model_cpuid(cpu, CPUID_LEAF_ARCH_PERFMON, 0, r);
		assert_int_equal(r[0] & 0xff, e->version);
		assert_int_equal(r[0] >> 8 & 0xff, e->nr_gp);
		assert_int_equal(r[0] >> 16 & 0xff, e->gp_width);
		assert_int_equal(r[0] >> 24, 7);
		/* LLC references and misses are absent; the five events we count are not */
		assert_int_equal(r[1], 0x18);
		assert_int_equal(r[3] & 0x1f, e->nr_fixed);
		assert_int_equal(r[3] >> 5 & 0xff, e->fixed_width);
		assert_int_equal(!!(r[3] & (1u << 15)), e->version >= 5);
		assert_int_equal(r[2], e->version >= 5 ? (1u << e->nr_fixed) - 1 : 0);
		model_cpu_destroy(cpu);
	}
}

static void cpuid_leaf_1_gives_family_model_and_pdcm(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct expected_model *e = &expected[i];
		struct model_cpu *cpu = model_test_cpu(e->name);
		uint32_t r[4];
		uint64_t caps;

		model_cpuid(cpu, CPUID_LEAF_FEATURES, 0, r);
		assert_int_equal(r[0] >> 8 & 0xf, 6);
		assert_int_equal((r[0] >> 4 & 0xf) | (r[0] >> 16 & 0xf) << 4, e->cpuid_model);
		assert_int_equal(!!(r[2] & CPUID_1_ECX_PDCM), e->perf_caps);
		/* PERF_CAPABILITIES exists exactly when PDCM says so */
		assert_int_equal(model_rdmsr(cpu, MSR_IA32_PERF_CAPABILITIES, &caps),
				 e->perf_caps ? 0 : -EIO);
		model_cpu_destroy(cpu);
	}
}

static void cpuid_vendor_is_genuine_intel(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	uint32_t r[4];
	char vendor[13];

	(void)state;
	model_cpuid(cpu, 0, 0, r);
	assert_true(r[0] >= CPUID_LEAF_ARCH_PERFMON);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = 0;
	assert_string_equal(vendor, "GenuineIntel");
	model_cpu_destroy(cpu);
}

static void arch_lbr_is_announced_only_on_sapphire_rapids(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		struct model_cpu *cpu = model_test_cpu(expected[i].name);
		uint32_t r[4];

		model_cpuid(cpu, CPUID_LEAF_EXT_FEATURES, 0, r);
		assert_int_equal(!!(r[3] & CPUID_7_EDX_ARCH_LBR), expected[i].arch_lbr);
		model_cpuid(cpu, CPUID_LEAF_ARCH_LBR, 0, r);
		if (expected[i].arch_lbr) {
			/* the kernel's depth: fls(mask) * 8 */
			assert_int_equal((32 - __builtin_clz(r[0] & 0xff)) * 8, 32);
			assert_int_equal(r[1] & 7, 7);
			assert_int_equal(r[2] & 7, 7);
			model_cpuid(cpu, 0, 0, r);
			assert_true(r[0] >= CPUID_LEAF_ARCH_LBR);
		} else {
			assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
		}
		model_cpu_destroy(cpu);
	}
}

/* Leaves 7 and 0x1C have their features in subleaf 0 only. */
static void other_subleaves_of_leaves_7_and_0x1c_read_zero(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		struct model_cpu *cpu = model_test_cpu(expected[i].name);
		uint32_t r[4];

		model_cpuid(cpu, CPUID_LEAF_EXT_FEATURES, 0, r);
		if (expected[i].arch_lbr)
			assert_int_equal(r[3], CPUID_7_EDX_ARCH_LBR);
		model_cpuid(cpu, CPUID_LEAF_EXT_FEATURES, 1, r);
		assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
		model_cpuid(cpu, CPUID_LEAF_ARCH_LBR, 1, r);
		assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
		model_cpu_destroy(cpu);
	}
	/* no table row has TSX; a test's may */
	{
		struct model_cpu_desc d = *model_cpu_desc_lookup("skylake");
		struct model_cpu *cpu;
		uint32_t r[4];

		d.has_tsx = true;
		cpu = model_cpu_create(&d, 0);
		assert_non_null(cpu);
		model_cpuid(cpu, CPUID_LEAF_EXT_FEATURES, 0, r);
		assert_int_equal(r[1], CPUID_7_EBX_HLE | CPUID_7_EBX_RTM);
		model_cpuid(cpu, CPUID_LEAF_EXT_FEATURES, 1, r);
		assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
		model_cpu_destroy(cpu);
	}
}

static void unknown_cpuid_leaves_read_zero(void **state)
{
	struct model_cpu *cpu = model_test_cpu("icelake");
	uint32_t r[4] = { 1, 2, 3, 4 };

	(void)state;
	model_cpuid(cpu, 0x4, 0, r);
	assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
	model_cpu_destroy(cpu);
}

static void create_refuses_a_null_desc_and_sets_cpu_id(void **state)
{
	struct model_cpu *cpu;

	(void)state;
	assert_null(model_cpu_create(NULL, 0));
	cpu = model_cpu_create(model_cpu_desc_lookup("nehalem"), 7);
	assert_non_null(cpu);
	assert_int_equal(model_cpu_id(cpu), 7);
	assert_ptr_equal(model_cpu_get_desc(cpu), model_cpu_desc_lookup("nehalem"));
	model_cpu_destroy(cpu);
}

/* A description the model cannot hold: more counters or LBR entries than its arrays. */
static void create_refuses_a_desc_beyond_the_model(void **state)
{
	struct model_cpu_desc d = *model_cpu_desc_lookup("icelake");
	struct model_cpu *cpu;

	(void)state;
	d.nr_gp = 9;
	assert_null(model_cpu_create(&d, 0));
	d.nr_gp = 8;
	d.nr_fixed = 5;
	assert_null(model_cpu_create(&d, 0));
	d.nr_fixed = 4;
	d.lbr_nr = 33;
	assert_null(model_cpu_create(&d, 0));
	/* at the limits it is a CPU */
	d.lbr_nr = 32;
	cpu = model_cpu_create(&d, 0);
	assert_non_null(cpu);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_rows_have_the_documented_values),
		cmocka_unit_test(table_iteration_covers_every_row),
		cmocka_unit_test(unknown_names_are_not_found),
		cmocka_unit_test(default_follows_the_kconfig_choice),
		cmocka_unit_test(cpuid_leaf_0xa_describes_the_counters),
		cmocka_unit_test(cpuid_leaf_1_gives_family_model_and_pdcm),
		cmocka_unit_test(cpuid_vendor_is_genuine_intel),
		cmocka_unit_test(arch_lbr_is_announced_only_on_sapphire_rapids),
		cmocka_unit_test(other_subleaves_of_leaves_7_and_0x1c_read_zero),
		cmocka_unit_test(unknown_cpuid_leaves_read_zero),
		cmocka_unit_test(create_refuses_a_null_desc_and_sets_cpu_id),
		cmocka_unit_test(create_refuses_a_desc_beyond_the_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
