// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact counts, in the manner of the KVM PMU selftests: a known sequence of
 * instructions and branches in user and kernel mode, counted in every GP
 * and fixed counter of every CPU model with each privilege filter, plus the
 * enables that gate counting and the CMASK/INV/EDGE semantics the model
 * implements.
 */
#include <generated/autoconf.h>

#include "model_test.h"

static const char *const models[] = { "core2", "atom", "nehalem", "haswell", "skylake", "icelake", "sapphirerapids" };
#define NR_MODELS (sizeof(models) / sizeof(models[0]))

enum { KERNEL, USER, BOTH };

struct totals { uint64_t insns, cycles, branches, misses; };

/* The sequence and what it adds up to, per privilege level. */
static const struct totals seq_user = { 112, 165, 2, 1 };
static const struct totals seq_kernel = { 41, 65, 1, 1 };

static void run_sequence(struct model_cpu *cpu)
{
	model_retire_insns(cpu, 100, 150, true);
	model_retire_branch(cpu, 0x401000, 0x401100, MODEL_BR_JCC, true, true, 3);
	model_retire_branch(cpu, 0x401100, 0x402000, MODEL_BR_NEAR_REL_CALL, true, false, 2);
	model_retire_insns(cpu, 40, 60, false);
	model_retire_branch(cpu, 0xffffffff81000000ULL, 0x402005, MODEL_BR_NEAR_RET, false,
			    true, 5);
	model_retire_insns(cpu, 10, 10, true);
}

static uint64_t pick(uint64_t user, uint64_t kernel, int filter)
{
	return filter == USER ? user : filter == KERNEL ? kernel : user + kernel;
}

static uint64_t filter_bits(int filter)
{
	return filter == USER ? ARCH_PERFMON_EVENTSEL_USR :
	       filter == KERNEL ? ARCH_PERFMON_EVENTSEL_OS :
	       ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS;
}

static void every_gp_counter_counts_each_event_exactly(void **state)
{
	static const uint64_t events[] = {
		EVT_INSNS, EVT_CYCLES, EVT_REF_CYCLES, EVT_BRANCHES, EVT_BRANCH_MISSES,
	};

	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		const struct model_cpu_desc *d = model_cpu_desc_lookup(models[m]);

		for (unsigned int i = 0; i < d->nr_gp; i++)
			for (size_t e = 0; e < sizeof(events) / sizeof(events[0]); e++)
				for (int f = KERNEL; f <= BOTH; f++) {
					struct model_cpu *cpu = model_cpu_create(d, 0);
					uint64_t want;

					wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, events[e] |
					   ARCH_PERFMON_EVENTSEL_ENABLE | filter_bits(f));
					run_sequence(cpu);
					switch (e) {
					case 0: want = pick(seq_user.insns, seq_kernel.insns, f); break;
					case 1:
					case 2: want = pick(seq_user.cycles, seq_kernel.cycles, f); break;
					case 3: want = pick(seq_user.branches, seq_kernel.branches, f); break;
					default: want = pick(seq_user.misses, seq_kernel.misses, f); break;
					}
					if (rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i) != want)
						fail_msg("%s PMC%u event %#llx filter %d: %llu != %llu",
							 d->name, i, (unsigned long long)events[e], f,
							 (unsigned long long)rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i),
							 (unsigned long long)want);
					model_cpu_destroy(cpu);
				}
	}
}

static void every_fixed_counter_counts_exactly_with_each_filter(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		const struct model_cpu_desc *d = model_cpu_desc_lookup(models[m]);

		for (unsigned int j = 0; j < d->nr_fixed; j++)
			for (int f = KERNEL; f <= BOTH; f++) {
				struct model_cpu *cpu = model_cpu_create(d, 0);
				uint64_t en = f == KERNEL ? 1 : f == USER ? 2 : 3, want;

				wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, en << (4 * j));
				wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL << (32 + j));
				run_sequence(cpu);
				switch (j) {
				case 0: want = pick(seq_user.insns, seq_kernel.insns, f); break;
				case 1:
				case 2: want = pick(seq_user.cycles, seq_kernel.cycles, f); break;
				default:
					want = pick(seq_user.cycles, seq_kernel.cycles, f) *
					       d->slots_per_cycle;
					break;
				}
				assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + j), want);
				model_cpu_destroy(cpu);
			}
	}
}

static void all_counters_count_at_once(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		static const uint64_t ev[] = { EVT_INSNS, EVT_CYCLES, EVT_BRANCHES, EVT_BRANCH_MISSES };
		uint64_t want[] = { 153, 230, 3, 2 };

		for (unsigned int i = 0; i < d->nr_gp; i++)
			wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, ev[i % 4] | EVT_EN_ALL);
		wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x3333 & ((1ULL << (4 * d->nr_fixed)) - 1));
		wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, ((1ULL << d->nr_gp) - 1) |
		   ((1ULL << d->nr_fixed) - 1) << 32);
		run_sequence(cpu);
		for (unsigned int i = 0; i < d->nr_gp; i++)
			assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i), want[i % 4]);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0), 153);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 230);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 230);
		assert_int_equal(model_cpu_cycles(cpu), 230);
		assert_int_equal(model_cpu_tsc(cpu), 230);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 0);
		model_cpu_destroy(cpu);
	}
}

static void counting_needs_enable_and_global_ctrl(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	(void)state;
	/* EN clear */
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | ARCH_PERFMON_EVENTSEL_USR |
	   ARCH_PERFMON_EVENTSEL_OS);
	/* EN set, GLOBAL_CTRL bit clear */
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 1, EVT_INSNS | EVT_EN_ALL);
	/* no USR/OS: counts nowhere */
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 2, EVT_INSNS | ARCH_PERFMON_EVENTSEL_ENABLE);
	/* fixed counter with enable bits but no GLOBAL_CTRL bit */
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x3);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0x5);
	run_sequence(cpu);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 0);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 0);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 2), 0);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0), 0);

	/* enabling in the middle counts only what follows */
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0x3);
	model_retire_insns(cpu, 7, 7, true);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 7);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0);
	model_retire_insns(cpu, 7, 7, true);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 7);
	model_cpu_destroy(cpu);
}

static void unknown_events_count_nothing(void **state)
{
	struct model_cpu *cpu = model_test_cpu("icelake");
	static const uint64_t unknown[] = {
		EVTSEL(0x2e, 0x4f), EVTSEL(0x2e, 0x41), EVTSEL(0xc0, 0x01), EVTSEL(0xc4, 0x20),
		EVTSEL(0x00, 0x03), EVTSEL(0xd1, 0x01), EVTSEL(0x3c, 0x02), EVTSEL(0xff, 0xff),
	};

	(void)state;
	for (unsigned int i = 0; i < 8; i++)
		wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, unknown[i] | EVT_EN_ALL);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0xff);
	run_sequence(cpu);
	for (unsigned int i = 0; i < 8; i++)
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i), 0);
	model_cpu_destroy(cpu);
}

static void topdown_slots_count_on_gp_only_where_they_exist(void **state)
{
	struct model_cpu *icl = model_test_cpu("icelake"), *skl = model_test_cpu("skylake");

	(void)state;
	wr(icl, MSR_ARCH_PERFMON_EVENTSEL0, EVT_SLOTS | EVT_EN_ALL);
	wr(skl, MSR_ARCH_PERFMON_EVENTSEL0, EVT_SLOTS | EVT_EN_ALL);
	run_sequence(icl);
	run_sequence(skl);
	assert_int_equal(rd(icl, MSR_ARCH_PERFMON_PERFCTR0), 230 * 4);
	assert_int_equal(rd(skl, MSR_ARCH_PERFMON_PERFCTR0), 0);
	model_cpu_destroy(icl);
	model_cpu_destroy(skl);
}

static void ref_cycles_follow_the_tsc_not_the_core_clock(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	(void)state;
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x333);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 7ULL << 32);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_REF_CYCLES | EVT_EN_ALL);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 7ULL << 32 | 1);
	/* at the default clocks one core cycle is one TSC tick */
	model_retire_insns(cpu, 1, 1000, true);
	assert_int_equal(model_cpu_tsc(cpu), 1000);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 1000);

	/* core at 3/2 of the TSC rate: TSC = floor(cycles * 2 / 3), remainder carried */
	model_cpu_set_core_khz(cpu, CONFIG_MODEL_TSC_KHZ / 2 * 3);
	for (uint64_t k = 1; k <= 10; k++) {
		model_retire_branch(cpu, 1, 2, MODEL_BR_JCC, k & 1, false, 1);
		assert_int_equal(model_cpu_tsc(cpu), 1000 + k * 2 / 3);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 1000 + k * 2 / 3);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 1000 + k * 2 / 3);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 1000 + k);
	}
	/* a large block in one call is exact too */
	model_retire_insns(cpu, 1, 3000000002ULL, true);
	assert_int_equal(model_cpu_tsc(cpu), 1000 + (10 + 3000000002ULL) * 2 / 3);

	/* 0 is the TSC's rate again: one core cycle, one tick */
	{
		uint64_t tsc = model_cpu_tsc(cpu), ref = rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2);

		model_cpu_set_core_khz(cpu, 0);
		model_retire_insns(cpu, 1, 999, true);
		assert_int_equal(model_cpu_tsc(cpu), tsc + 999);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), ref + 999);
	}
	model_cpu_destroy(cpu);
}

static void idle_moves_only_the_tsc(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	(void)state;
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x333);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 7ULL << 32);
	model_cpu_idle(cpu, 5000);
	model_retire_insns(cpu, 10, 20, false);
	assert_int_equal(model_cpu_tsc(cpu), 5020);
	assert_int_equal(model_cpu_cycles(cpu), 20);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0), 10);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 20);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 20);
	model_cpu_destroy(cpu);
}

static uint64_t cmask_sel(uint64_t event, unsigned int cmask, bool inv, bool edge)
{
	return event | EVT_EN_ALL | (uint64_t)cmask << 24 |
	       (inv ? ARCH_PERFMON_EVENTSEL_INV : 0) | (edge ? ARCH_PERFMON_EVENTSEL_EDGE : 0);
}

static void cmask_counts_cycles_at_or_above_the_threshold(void **state)
{
	struct model_cpu *cpu = model_test_cpu("icelake");

	(void)state;
	/* 10 instructions over 4 cycles are modelled as 3, 3, 2, 2 */
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 0, cmask_sel(EVT_INSNS, 2, false, false));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 1, cmask_sel(EVT_INSNS, 3, false, false));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 2, cmask_sel(EVT_INSNS, 4, false, false));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 3, cmask_sel(EVT_INSNS, 3, true, false));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 4, cmask_sel(EVT_INSNS, 3, false, true));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 5, cmask_sel(EVT_CYCLES, 1, false, false));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 6, cmask_sel(EVT_INSNS, 1, true, true));
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 7, cmask_sel(EVT_INSNS, 0, false, true));
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0xff);

	model_retire_insns(cpu, 10, 4, true);
	model_retire_insns(cpu, 10, 4, false);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 0), 8);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 4);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 2), 0);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 3), 4);
	/* the run of >= 3 is cycles 0-1 of each call: two rising edges */
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 4), 2);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 5), 8);
	/* never fewer than one instruction per cycle: INV+EDGE never rises */
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 6), 0);
	/* CMASK 0 with EDGE: asserted throughout, one rising edge only */
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 7), 1);

	/* a stall (cycles without instructions) ends the run: the next one rises */
	model_retire_insns(cpu, 0, 5, true);
	model_retire_insns(cpu, 3, 1, true);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 7), 2);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 6), 1);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 3), 4 + 5 + 0);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 5), 14);

	/* a branch with no cycles adds to no CMASK counter */
	model_retire_branch(cpu, 1, 2, MODEL_BR_JCC, true, false, 0);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 5), 14);
	model_cpu_destroy(cpu);
}

/*
 * Counts are exact at any read, however many retire calls went between
 * (the model counts lazily, retire.c), and a counter programmed close to
 * the wrap raises its PMI in the very call whose events cross it: a
 * reference sum is kept beside a random stream of branches and blocks in
 * both privileges, the counters are read after a random number of calls,
 * and each one is armed a random distance below the wrap.
 */
static void counts_are_exact_between_any_two_reads(void **state)
{
	uint64_t rng = 0x243f6a8885a308d3ULL;

	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		uint64_t mask = counter_mask(d->gp_width);
		uint64_t ref_count[2] = { 0, 0 };	/* GP0: user insns; GP1: all cycles */
		uint64_t left[2];			/* events to the wrap, per counter */
		unsigned int next_read = 1;
		struct pmi_log log;

		pmi_log_attach(&log, cpu);
		wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | ARCH_PERFMON_EVENTSEL_ENABLE |
		   ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_INT);
		wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 1, EVT_CYCLES | EVT_EN_ALL |
		   ARCH_PERFMON_EVENTSEL_INT);
		wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 3);
		for (int i = 0; i < 2; i++) {
			left[i] = 50 + i * 700;
			wr(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i, (0 - left[i]) & mask);
			ref_count[i] = (0 - left[i]) & mask;
		}
		for (unsigned int call = 1; call <= 20000; call++) {
			bool user, crossed = false;
			uint64_t insns, cycles, x;
			unsigned int pmis = log.count;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			x = rng;
			user = x & 1;
			cycles = (x >> 8) % 9;
			if (x & 2) {
				insns = 1;
				model_retire_branch(cpu, 0x1000, 0x2000, MODEL_BR_JCC, user,
						    false, (unsigned int)cycles);
			} else {
				insns = (x >> 16) % 7;
				model_retire_insns(cpu, insns, cycles, user);
			}
			/* the reference, and whether this call crossed a wrap */
			for (int i = 0; i < 2; i++) {
				uint64_t amount = i == 0 ? (user ? insns : 0) : cycles;

				if (amount >= left[i] && left[i]) {
					crossed = true;
					left[i] = 0;
				} else if (left[i]) {
					left[i] -= amount;
				}
				ref_count[i] = (ref_count[i] + amount) & mask;
			}
			if (log.count != pmis + crossed)
				fail_msg("%s call %u: %u PMIs, expected %u", d->name, call,
					 log.count - pmis, crossed);
			if (call == next_read) {
				for (int i = 0; i < 2; i++)
					if (rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i) != ref_count[i])
						fail_msg("%s call %u: counter %d off", d->name, call, i);
				/* re-arm a wrapped counter a random distance below the wrap */
				for (int i = 0; i < 2; i++)
					if (!left[i]) {
						left[i] = 1 + (x >> 32) % 3000;
						ref_count[i] = (0 - left[i]) & mask;
						wr(cpu, MSR_ARCH_PERFMON_PERFCTR0 + i, ref_count[i]);
					}
				wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, 3);
				next_read = call + 1 + (unsigned int)((x >> 40) % 400);
			}
		}
		assert_true(log.count > 10);
		model_cpu_destroy(cpu);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_gp_counter_counts_each_event_exactly),
		cmocka_unit_test(every_fixed_counter_counts_exactly_with_each_filter),
		cmocka_unit_test(all_counters_count_at_once),
		cmocka_unit_test(counting_needs_enable_and_global_ctrl),
		cmocka_unit_test(unknown_events_count_nothing),
		cmocka_unit_test(topdown_slots_count_on_gp_only_where_they_exist),
		cmocka_unit_test(ref_cycles_follow_the_tsc_not_the_core_clock),
		cmocka_unit_test(idle_moves_only_the_tsc),
		cmocka_unit_test(cmask_counts_cycles_at_or_above_the_threshold),
		cmocka_unit_test(counts_are_exact_between_any_two_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
