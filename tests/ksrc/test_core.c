// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own kernel/events/core.c (the core unit, ksrc/core_ksrc.h):
 * perf_event_open() through the syscall's body, its checks on invalid
 * attrs. Part of make ksrc-check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_CORE
#include "ksrc/core_ksrc.h"
#include "model/model.h"
#include "include/pmusim/perf_event.h"

static struct model_cpu *cpu;

static int setup(void **state)
{
	(void)state;
	cpu = model_cpu_create(model_cpu_desc_default(), 0);
	if (!cpu)
		return -1;
	return ksrc_core_boot(cpu);
}

static struct perf_event_attr dummy_attr(uint64_t period, uint64_t sample_type)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = period;
	attr.sample_type = sample_type;
	attr.exclude_kernel = 1;
	return attr;
}

/* perf_event_open()'s own checks: errno of a few invalid attrs */
static void open_errnos(void **state)
{
	struct perf_event_attr attr = dummy_attr(1000, PERF_SAMPLE_IP);
	int fd;

	(void)state;
	attr.type = 1000;	/* no such PMU */
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, 0), -ENOENT);
	attr = dummy_attr(1000, PERF_SAMPLE_IP);
	attr.sample_type = 1ULL << 63;	/* an unknown sample bit */
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, 0), -EINVAL);
	attr = dummy_attr(1000, PERF_SAMPLE_IP);
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, ~0UL), -EINVAL);
	attr = dummy_attr(1000, PERF_SAMPLE_IP);
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;	/* above perf_event_max_sample_rate */
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, 0), -EINVAL);
	attr = dummy_attr(1000, PERF_SAMPLE_IP);
	fd = ksrc_core_perf_event_open(&attr, -1, 0, -1, 0);
	assert_true(fd >= 0);
	ksrc_core_close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_errnos),
	};

	printf("# kernel/events/core.c of %s\n", KSRC_VERSION);
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
