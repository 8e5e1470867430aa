// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own kernel/events/core.c (the core unit, ksrc/core_ksrc.h)
 * end to end: perf_event_open() through the syscall's body, perf_mmap(),
 * then PMIs from the model PMU through the model driver
 * (ksrc/core_model_pmu.c) into the real __perf_event_overflow(),
 * perf_prepare_sample()/perf_output_sample() and the tree's
 * ring_buffer.c. Part of make ksrc-check.
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

#define NR_PAGES	8
#define PAGE		4096

static struct model_cpu *cpu;

static int setup(void **state)
{
	(void)state;
	/*
	 * The driver's PMU (ksrc/core_model_pmu.c): four 48-bit counters
	 * written whole, as Skylake's. Not the build's default model: core2's
	 * 40-bit counters refuse such writes (randconfig picked core2).
	 */
	cpu = model_cpu_create(model_cpu_desc_lookup("skylake"), 0);
	if (!cpu)
		return -1;
	return ksrc_core_boot(cpu);
}

static struct perf_event_attr cycles_attr(uint64_t period, uint64_t sample_type)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.sample_period = period;
	attr.sample_type = sample_type;
	attr.exclude_kernel = 1;
	return attr;
}

/* One event, 10 periods retired: 10 PMIs, 10 samples in the real ring buffer. */
static void overflow_to_ring_buffer(void **state)
{
	struct perf_event_attr attr = cycles_attr(10000, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	static unsigned char buf[(NR_PAGES + 1) * PAGE];
	struct perf_event_mmap_page *up = (void *)buf;
	struct ksrc_core_state st;
	uint64_t pmis = model_cpu_nr_pmis(cpu);
	size_t off;
	int fd, n = 0;

	(void)state;
	fd = ksrc_core_perf_event_open(&attr, -1, 0, -1, 0);
	assert_true(fd >= 0);
	assert_int_equal(ksrc_core_mmap(fd, NR_PAGES), 0);
	for (int i = 0; i < 100; i++)
		model_retire_insns(cpu, 1000, 1000, true);
	assert_int_equal(model_cpu_nr_pmis(cpu) - pmis, 10);
	assert_int_equal(ksrc_core_rb_copy(fd, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(up->data_offset, PAGE);
	for (off = 0; off < up->data_head; n++) {
		struct perf_event_header *h = (void *)(buf + PAGE + off);
		uint64_t *v = (uint64_t *)(h + 1);

		assert_int_equal(h->type, PERF_RECORD_SAMPLE);
		assert_int_equal(h->size, sizeof(*h) + 2 * sizeof(uint64_t));
		assert_int_equal(v[1], 10000);	/* PERIOD: hw.last_period */
		off += h->size;
	}
	assert_int_equal(n, 10);
	assert_int_equal(ksrc_core_event_state(fd, &st), 0);
	assert_int_equal(st.sample_period, 10000);
	assert_int_equal(st.last_period, 10000);
	assert_int_equal(st.count, 100000);
	printf("# %d samples through the kernel's __perf_event_overflow into ring_buffer.c, "
	       "data_head %llu\n", n, (unsigned long long)up->data_head);
	ksrc_core_close(fd);
}

/* perf_event_open()'s own checks: errno of a few invalid attrs */
static void open_errnos(void **state)
{
	struct perf_event_attr attr = cycles_attr(1000, PERF_SAMPLE_IP);
	int fd;

	(void)state;
	attr.type = 1000;	/* no such PMU */
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, 0), -ENOENT);
	attr = cycles_attr(1000, PERF_SAMPLE_IP);
	attr.sample_type = 1ULL << 63;	/* an unknown sample bit */
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, 0), -EINVAL);
	attr = cycles_attr(1000, PERF_SAMPLE_IP);
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, ~0UL), -EINVAL);
	attr = cycles_attr(1000, PERF_SAMPLE_IP);
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;	/* above perf_event_max_sample_rate */
	assert_int_equal(ksrc_core_perf_event_open(&attr, -1, 0, -1, 0), -EINVAL);
	attr = cycles_attr(1000, PERF_SAMPLE_IP);
	fd = ksrc_core_perf_event_open(&attr, -1, 0, -1, 0);
	assert_true(fd >= 0);
	ksrc_core_close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overflow_to_ring_buffer),
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
