// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_event_open()'s attr checks: every rule once accepted and once
 * refused with the kernel's errno, in every configuration; the size
 * rules; random attr bytes never crash or leak.
 */
#include "core/perf_event.h"
#include "tests/lib/test_pmu.h"
#include "tests/test.h"

#define TASK_TID	100

enum target { ON_CPU0, ON_TASK, ON_NOTHING, ON_CPU_BAD, ON_MISSING_TASK };

struct attr_rule {
	const char *what;
	struct perf_event_attr attr;
	enum target target;
	unsigned long flags;
	int pmu_caps;
	int err;
};

static struct test_pmu tp;
static struct task_struct task = { .pid = TASK_TID, .tid = TASK_TID, .comm = "t" };

static int setup(void **state)
{
	(void)state;
	test_pmu_init(&tp, PERF_TYPE_RAW);
	pmusim_curr[0] = &task;
	perf_event_max_sample_rate_set(CONFIG_PERF_SAMPLE_MAX_RATE);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmusim_curr[0] = NULL;
	return 0;
}

#define RATE	CONFIG_PERF_SAMPLE_MAX_RATE
#define BR	PERF_SAMPLE_BRANCH_STACK
#define REG_IP	(1ULL << 8)

static const struct attr_rule rules[] = {
	{ "plain counting event", { .config = 1 }, ON_CPU0, 0, 0, 0 },
	{ "__reserved_1", { .__reserved_1 = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "__reserved_2", { .__reserved_2 = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "__reserved_3", { .__reserved_3 = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "known sample_type", { .sample_period = 1, .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID },
	  ON_CPU0, 0, 0, 0 },
	{ "unknown sample_type", { .sample_type = PERF_SAMPLE_MAX }, ON_CPU0, 0, 0, -EINVAL },
	{ "known read_format", { .read_format = PERF_FORMAT_MAX - 1 }, ON_CPU0, 0, 0, 0 },
	{ "unknown read_format", { .read_format = PERF_FORMAT_MAX }, ON_CPU0, 0, 0, -EINVAL },
	{ "branch stack with a branch type", { .sample_type = BR, .branch_sample_type = PERF_SAMPLE_BRANCH_ANY },
	  ON_CPU0, 0, 0, 0 },
	{ "branch stack without branch_sample_type", { .sample_type = BR }, ON_CPU0, 0, 0, -EINVAL },
	{ "branch stack with privilege bits only", { .sample_type = BR, .branch_sample_type = PERF_SAMPLE_BRANCH_USER },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "branch stack with an unknown bit", { .sample_type = BR,
	  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_MAX }, ON_CPU0, 0, 0, -EINVAL },
	{ "branch_sample_type without branch stack is ignored", { .branch_sample_type = ~0ULL },
	  ON_CPU0, 0, 0, 0 },
	{ "regs_user IP", { .sample_type = PERF_SAMPLE_REGS_USER, .sample_regs_user = REG_IP }, ON_CPU0, 0, 0, 0 },
	{ "regs_user empty", { .sample_type = PERF_SAMPLE_REGS_USER }, ON_CPU0, 0, 0, -EINVAL },
	{ "regs_user DS", { .sample_type = PERF_SAMPLE_REGS_USER, .sample_regs_user = 1ULL << 10 },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "regs_user past R15", { .sample_type = PERF_SAMPLE_REGS_USER, .sample_regs_user = 1ULL << 24 },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "regs_user XMM0 without extended regs", { .sample_type = PERF_SAMPLE_REGS_USER,
	  .sample_regs_user = REG_IP | 1ULL << 32 }, ON_CPU0, 0, 0, -EOPNOTSUPP },
	{ "regs_user XMM0 with extended regs", { .sample_type = PERF_SAMPLE_REGS_USER,
	  .sample_regs_user = REG_IP | 1ULL << 32 }, ON_CPU0, 0, PERF_PMU_CAP_EXTENDED_REGS, 0 },
	{ "regs_intr IP", { .sample_type = PERF_SAMPLE_REGS_INTR, .sample_regs_intr = REG_IP }, ON_CPU0, 0, 0, 0 },
	{ "regs_intr GS", { .sample_type = PERF_SAMPLE_REGS_INTR, .sample_regs_intr = 1ULL << 13 },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "stack_user 8-aligned", { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 65528 },
	  ON_CPU0, 0, 0, 0 },
	{ "stack_user not 8-aligned", { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 12 },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "stack_user USHRT_MAX", { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 65535 },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "sample cgroup (no cgroups)", { .sample_type = PERF_SAMPLE_CGROUP }, ON_CPU0, 0, 0, -EINVAL },
	{ "weight alone", { .sample_type = PERF_SAMPLE_WEIGHT }, ON_CPU0, 0, 0, 0 },
	{ "weight and weight struct", { .sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "inherit_thread with inherit", { .inherit = 1, .inherit_thread = 1 }, ON_TASK, 0, 0, 0 },
	{ "inherit_thread without inherit", { .inherit_thread = 1 }, ON_TASK, 0, 0, -EINVAL },
	{ "remove_on_exec", { .remove_on_exec = 1 }, ON_TASK, 0, 0, 0 },
	{ "remove_on_exec and enable_on_exec", { .remove_on_exec = 1, .enable_on_exec = 1 },
	  ON_TASK, 0, 0, -EINVAL },
	/* a departure: pmusim cannot send the signal */
	{ "sigtrap on a task", { .sigtrap = 1, .remove_on_exec = 1 }, ON_TASK, 0, 0, -EOPNOTSUPP },
	{ "sigtrap without remove_on_exec", { .sigtrap = 1 }, ON_TASK, 0, 0, -EINVAL },
	{ "sigtrap without a task", { .sigtrap = 1, .remove_on_exec = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "freq at the max rate", { .freq = 1, .sample_freq = RATE }, ON_CPU0, 0, 0, 0 },
	{ "freq above the max rate", { .freq = 1, .sample_freq = RATE + 1ULL }, ON_CPU0, 0, 0, -EINVAL },
	{ "period bit 62", { .sample_period = 1ULL << 62 }, ON_CPU0, 0, 0, 0 },
	{ "period bit 63", { .sample_period = 1ULL << 63 }, ON_CPU0, 0, 0, -EINVAL },
	{ "clock monotonic", { .use_clockid = 1, .clockid = PERF_CLOCK_MONOTONIC }, ON_CPU0, 0, 0, 0 },
	{ "clock realtime from NMI context", { .use_clockid = 1, .clockid = PERF_CLOCK_REALTIME },
	  ON_CPU0, 0, 0, -EINVAL },
	{ "clock realtime on a no-NMI PMU", { .use_clockid = 1, .clockid = PERF_CLOCK_REALTIME },
	  ON_CPU0, 0, PERF_PMU_CAP_NO_NMI, 0 },
	{ "unknown clockid", { .use_clockid = 1, .clockid = 3 }, ON_CPU0, 0, 0, -EINVAL },
	{ "inherit sample read with tid", { .inherit = 1, .sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID },
	  ON_TASK, 0, 0, 0 },
	{ "inherit sample read without tid", { .inherit = 1, .sample_type = PERF_SAMPLE_READ },
	  ON_TASK, 0, 0, -EINVAL },
	{ "callchain at the max stack", { .sample_type = PERF_SAMPLE_CALLCHAIN, .sample_max_stack = 127 },
	  ON_CPU0, 0, 0, 0 },
	{ "callchain deeper than the max stack", { .sample_type = PERF_SAMPLE_CALLCHAIN,
	  .sample_max_stack = 128 }, ON_CPU0, 0, 0, -EOVERFLOW },
	{ "aux_output", { .aux_output = 1 }, ON_CPU0, 0, 0, -EOPNOTSUPP },
	{ "aux_pause and aux_resume", { .aux_pause = 1, .aux_resume = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "aux_start_paused", { .aux_start_paused = 1 }, ON_CPU0, 0, 0, -EOPNOTSUPP },
	/* perf_get_aux_event() finds no AUX leader */
	{ "aux_pause alone", { .aux_pause = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "aux_resume alone", { .aux_resume = 1 }, ON_CPU0, 0, 0, -EINVAL },
	{ "aux_sample_size alone", { .aux_sample_size = 4096 }, ON_CPU0, 0, 0, -EINVAL },
	{ "aux_pause on an aux-pause PMU", { .aux_pause = 1 }, ON_CPU0, 0, PERF_PMU_CAP_AUX_PAUSE,
	  -EINVAL },
	{ "aux_start_paused on an aux-pause PMU", { .aux_start_paused = 1 }, ON_CPU0, 0,
	  PERF_PMU_CAP_AUX_PAUSE, 0 },
	{ "known flags", { .config = 1 }, ON_CPU0, PERF_FLAG_FD_CLOEXEC, 0, 0 },
	{ "unknown flag", { .config = 1 }, ON_CPU0, 1UL << 4, 0, -EINVAL },
	{ "cgroup flag", { .config = 1 }, ON_CPU0, PERF_FLAG_PID_CGROUP, 0, -EINVAL },
	{ "a cpu out of range", { .config = 1 }, ON_CPU_BAD, 0, 0, -EINVAL },
	{ "neither task nor cpu", { .config = 1 }, ON_NOTHING, 0, 0, -EINVAL },
	{ "a task on any cpu", { .config = 1 }, ON_TASK, 0, 0, 0 },
	{ "a task that does not exist", { .config = 1 }, ON_MISSING_TASK, 0, 0, -ESRCH },
	{ "sampling on a no-interrupt PMU", { .sample_period = 1 }, ON_CPU0, 0, PERF_PMU_CAP_NO_INTERRUPT,
	  -EOPNOTSUPP },
	{ "counting on a no-interrupt PMU", { .config = 1 }, ON_CPU0, 0, PERF_PMU_CAP_NO_INTERRUPT, 0 },
	{ "exclude flags on a no-exclude PMU", { .exclude_kernel = 1 }, ON_CPU0, 0, PERF_PMU_CAP_NO_EXCLUDE,
	  -EINVAL },
#ifdef CONFIG_PERF_HW_TIME
	{ "hw_time", { .hw_time = 1 }, ON_CPU0, 0, 0, 0 },
	{ "hw_time with clock monotonic raw", { .hw_time = 1, .use_clockid = 1,
	  .clockid = PERF_CLOCK_MONOTONIC_RAW }, ON_CPU0, 0, 0, 0 },
	{ "hw_time with clock monotonic", { .hw_time = 1, .use_clockid = 1,
	  .clockid = PERF_CLOCK_MONOTONIC }, ON_CPU0, 0, 0, -EINVAL },
#endif
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	{ "alternative period", { .sample_period = 1000, .alternative_sample_period = 10 }, ON_CPU0, 0, 0, 0 },
	{ "alternative period equal to the period", { .sample_period = 1000,
	  .alternative_sample_period = 1000 }, ON_CPU0, 0, 0, 0 },
	{ "alternative period with freq", { .freq = 1, .sample_freq = 100,
	  .alternative_sample_period = 10 }, ON_CPU0, 0, 0, -EINVAL },
	{ "alternative period without a period", { .alternative_sample_period = 10 }, ON_CPU0, 0, 0, -EINVAL },
	{ "alternative period bit 63", { .sample_period = 1000,
	  .alternative_sample_period = 1ULL << 63 }, ON_CPU0, 0, 0, -EINVAL },
#endif
};

static int open_rule(const struct attr_rule *r, struct perf_event **ev)
{
	struct perf_event_attr attr = r->attr;
	int pid = -1, cpu = 0;

	attr.size = sizeof(attr);
	switch (r->target) {
	case ON_CPU0: break;
	case ON_TASK: pid = TASK_TID; cpu = -1; break;
	case ON_NOTHING: cpu = -1; break;
	case ON_CPU_BAD: cpu = CONFIG_MODEL_MAX_CPUS; break;
	case ON_MISSING_TASK: pid = TASK_TID + 1; cpu = -1; break;
	}
	tp.pmu.capabilities = r->pmu_caps;
	return perf_event_open_attr(&attr, attr.size, pid, cpu, NULL, r->flags, &tp.pmu, ev);
}

static void test_every_attr_rule_accepts_and_refuses_with_the_kernel_errno(void **state)
{
	unsigned int i, bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		struct perf_event_attr src, copy;
		struct perf_event *ev;
		int err = open_rule(&rules[i], &ev), want = rules[i].err;

		/*
		 * A kernel-valid sample_type that pmusim's output cannot
		 * write: the attr rule passes, open then says EOPNOTSUPP.
		 */
		if (!want && (rules[i].attr.sample_type & ~PERF_SAMPLE_PMUSIM_MASK)) {
			src = rules[i].attr;
			if (perf_copy_attr(&src, sizeof(src), &copy, NULL)) {
				printf("# rule '%s': perf_copy_attr refused it\n", rules[i].what);
				bad++;
			}
			want = -EOPNOTSUPP;
		}
		if (err != want || (!err) != (ev != NULL)) {
			printf("# rule '%s': got %d, want %d\n", rules[i].what, err, want);
			bad++;
		}
		perf_event_release_kernel(ev);
	}
	tp.pmu.capabilities = 0;
	assert_int_equal(bad, 0);
}

/* branch_sample_type as open leaves it for a branch-stack event. */
static u64 branch_type_after_open(u64 branch_sample_type, bool excl_user, bool excl_kernel,
				  bool excl_hv)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_type = BR,
		.branch_sample_type = branch_sample_type, .exclude_user = excl_user,
		.exclude_kernel = excl_kernel, .exclude_hv = excl_hv };
	struct perf_event *ev;
	u64 type;

	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &ev), 0);
	type = ev->attr.branch_sample_type;
	perf_event_release_kernel(ev);
	return type;
}

static void test_branch_privilege_follows_the_exclude_bits(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .branch_sample_type = ~0ULL };
	struct perf_event *ev;

	(void)state;
	/* no level asked for: the event's own, from its exclude bits */
	assert_int_equal(branch_type_after_open(PERF_SAMPLE_BRANCH_ANY, false, true, false),
			 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_HV);
	assert_int_equal(branch_type_after_open(PERF_SAMPLE_BRANCH_ANY, true, false, true),
			 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL);
	/* a level asked for is kept as it is */
	assert_int_equal(branch_type_after_open(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
						false, true, false),
			 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);

	/* no branch stack: whatever was there is dropped */
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &ev), 0);
	assert_int_equal(ev->attr.branch_sample_type, 0);
	perf_event_release_kernel(ev);
}

static void test_size_rules_and_the_size_written_back(void **state)
{
	static const u32 known[] = { PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5, PERF_ATTR_SIZE_VER6,
		PERF_ATTR_SIZE_VER7, PERF_ATTR_SIZE_VER8 };
	u8 buf[PAGE_SIZE + 8];
	struct perf_event_attr attr;
	u32 ret_size = 0;
	unsigned int i;

	(void)state;
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(known); i++) {
		assert_int_equal(perf_copy_attr(buf, known[i], &attr, NULL), 0);
		assert_int_equal(attr.size, known[i]);
	}
	/* 0: a caller from before attr.size */
	assert_int_equal(perf_copy_attr(buf, 0, &attr, NULL), 0);
	assert_int_equal(attr.size, PERF_ATTR_SIZE_VER0);

	assert_int_equal(perf_copy_attr(buf, PERF_ATTR_SIZE_VER0 - 1, &attr, &ret_size), -E2BIG);
	assert_int_equal(ret_size, sizeof(struct perf_event_attr));
	assert_int_equal(perf_copy_attr(buf, PAGE_SIZE + 1, &attr, NULL), -E2BIG);

	/* bigger than we know: fine while the unknown tail is zero */
	assert_int_equal(perf_copy_attr(buf, PAGE_SIZE, &attr, NULL), 0);
	buf[PAGE_SIZE - 1] = 1;
	assert_int_equal(perf_copy_attr(buf, PAGE_SIZE, &attr, NULL), -E2BIG);
	buf[PAGE_SIZE - 1] = 0;

	/* VER9 = 144 is alternative_sample_period, only with the RFC */
	buf[136] = 7;
	ret_size = 0;
	assert_int_equal(perf_copy_attr(buf, 144, &attr, &ret_size),
			 IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD) ? 0 : -E2BIG);
	assert_int_equal(ret_size, IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD) ? 0 : 136);
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	assert_int_equal(attr.alternative_sample_period, 7);
#endif
	/* the same bytes through a VER8 caller: never looked at */
	assert_int_equal(perf_copy_attr(buf, 136, &attr, NULL), 0);
	buf[136] = 0;
	assert_int_equal(perf_copy_attr(buf, 144, &attr, NULL), 0);
	buf[150] = 1;
	assert_int_equal(perf_copy_attr(buf, 152, &attr, NULL), -E2BIG);
	assert_int_equal(perf_copy_attr(NULL, 64, &attr, NULL), -EFAULT);
}

static void test_hw_time_bit_is_reserved_without_the_rfc(void **state)
{
	u8 buf[sizeof(struct perf_event_attr)] = { 0 };
	struct perf_event_attr attr;

	(void)state;
	/* bit 38 of the flag word at offset 40 */
	buf[40 + 38 / 8] = 1u << (38 % 8);
	assert_int_equal(perf_copy_attr(buf, sizeof(buf), &attr, NULL),
			 IS_ENABLED(CONFIG_PERF_HW_TIME) ? 0 : -EINVAL);
}

static void test_sample_rate_sysctl_moves_the_freq_limit(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .freq = 1, .sample_freq = 5000 };
	struct perf_event *ev;

	(void)state;
	perf_event_max_sample_rate_set(4000);
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &ev), -EINVAL);
	perf_event_max_sample_rate_set(5000);
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &ev), 0);
	assert_int_equal(max_samples_per_tick, (5000 + HZ - 1) / HZ);
	perf_event_release_kernel(ev);
	perf_event_max_sample_rate_set(CONFIG_PERF_SAMPLE_MAX_RATE);
}

static void test_alternative_period_equal_to_period_is_dropped(void **state)
{
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_period = 1000,
		.alternative_sample_period = 1000 };
	struct perf_event *ev;

	(void)state;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &tp.pmu, &ev), 0);
	assert_int_equal(ev->attr.alternative_sample_period, 0);
	perf_event_release_kernel(ev);
#else
	(void)state;
	pmusim_skip("CONFIG_PERF_ALT_SAMPLE_PERIOD is off");
#endif
}

static void test_pmu_registry_picks_the_pmu_by_type(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_HARDWARE };
	struct test_pmu other;
	struct perf_event *ev;

	(void)state;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), -ENOENT);
	assert_int_equal(perf_pmu_register(&tp.pmu, "cpu", PERF_TYPE_RAW), 0);
	test_pmu_init(&other, 0);
	assert_int_equal(perf_pmu_register(&other.pmu, "other", PERF_TYPE_RAW), -EEXIST);
	assert_int_equal(perf_pmu_register(&other.pmu, "other", -1), 0);
	assert_true(other.pmu.type >= PERF_TYPE_MAX);

	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), 0);
	assert_ptr_equal(ev->pmu, &tp.pmu);
	perf_event_release_kernel(ev);
	attr.type = other.pmu.type;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), 0);
	assert_ptr_equal(ev->pmu, &other.pmu);
	perf_event_release_kernel(ev);
	/* a type no PMU has: every PMU is asked in turn, as perf_init_event() does */
	attr.type = other.pmu.type + 1;
	tp.event_init_err = -ENOENT;
	other.event_init_err = -ENOENT;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), -ENOENT);
	other.event_init_err = 0;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), 0);
	assert_ptr_equal(ev->pmu, &other.pmu);
	perf_event_release_kernel(ev);
	tp.event_init_err = 0;

	/*
	 * The extended type: config's upper half names the PMU of a hardware
	 * event and comes off config. The raw PMU takes it; another PMU only
	 * with PERF_PMU_CAP_EXTENDED_HW_TYPE; a type no PMU has, the first
	 * PMU that takes it.
	 */
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = (u64)PERF_TYPE_RAW << PERF_PMU_TYPE_SHIFT | 1;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), 0);
	assert_ptr_equal(ev->pmu, &tp.pmu);
	assert_int_equal(ev->attr.config, 1);
	perf_event_release_kernel(ev);
	attr.config = (u64)other.pmu.type << PERF_PMU_TYPE_SHIFT | 1;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), -ENOENT);
	other.pmu.capabilities |= PERF_PMU_CAP_EXTENDED_HW_TYPE;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), 0);
	assert_ptr_equal(ev->pmu, &other.pmu);
	perf_event_release_kernel(ev);
	other.pmu.capabilities &= ~PERF_PMU_CAP_EXTENDED_HW_TYPE;
	attr.config = 0x3aULL << 48 | 1;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), 0);
	assert_ptr_equal(ev->pmu, &tp.pmu);
	perf_event_release_kernel(ev);
	attr.config = 0;

	tp.event_init_err = -ENOENT;
	attr.type = PERF_TYPE_RAW;
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, NULL, &ev), -ENOENT);
	tp.event_init_err = 0;
	perf_pmu_unregister(&tp.pmu);
	perf_pmu_unregister(&other.pmu);
}

static u64 xorshift64(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_random_attr_bytes_give_an_errno_or_an_event(void **state)
{
	static const int allowed[] = { 0, -EINVAL, -E2BIG, -EOPNOTSUPP, -EOVERFLOW, -ESRCH, -ENOENT };
	u8 buf[256];
	u64 seed = 0x9e3779b97f4a7c15ULL;
	unsigned long opened = 0;
	int i, j;

	(void)state;
	for (i = 0; i < 100000; i++) {
		struct perf_event *ev = NULL;
		u64 r = xorshift64(&seed);
		u32 size = (u32)(r % sizeof(buf));
		int density = (int)((r >> 8) % 64) + 1, err, ok = 0;
		int pid = (r >> 16) & 1 ? -1 : TASK_TID;
		int cpu = (int)((r >> 17) % 3) - 1;

		/* mostly zero bytes, so that the checks deeper down are reached */
		for (j = 0; j < (int)sizeof(buf); j++) {
			u64 b = xorshift64(&seed);

			buf[j] = (b % 64) < (u64)density / 8 ? (u8)(b >> 8) : 0;
		}
		err = perf_event_open_attr(buf, size, pid, cpu, NULL, (r >> 20) & 0x1f, &tp.pmu, &ev);
		for (j = 0; j < (int)ARRAY_SIZE(allowed); j++)
			ok |= err == allowed[j];
		if (!ok || (!err) != (ev != NULL))
			fail_msg("iteration %d: err %d event %p", i, err, (void *)ev);
		opened += !err;
		perf_event_release_kernel(ev);
	}
	printf("# %lu of 100000 random attrs opened\n", opened);
	assert_true(opened > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_attr_rule_accepts_and_refuses_with_the_kernel_errno),
		cmocka_unit_test(test_branch_privilege_follows_the_exclude_bits),
		cmocka_unit_test(test_size_rules_and_the_size_written_back),
		cmocka_unit_test(test_hw_time_bit_is_reserved_without_the_rfc),
		cmocka_unit_test(test_sample_rate_sysctl_moves_the_freq_limit),
		cmocka_unit_test(test_alternative_period_equal_to_period_is_dropped),
		cmocka_unit_test(test_pmu_registry_picks_the_pmu_by_type),
		cmocka_unit_test(test_random_attr_bytes_give_an_errno_or_an_event),
	};
	return cmocka_run_group_tests_name("attr", tests, setup, teardown);
}
