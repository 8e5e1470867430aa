/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the model tests: MSR access that must succeed, a CPU of
 * a named model, and a PMI recorder.  Header-only so that every
 * tests/model/test_*.c stays one program.
 */
#ifndef PMUSIM_TESTS_MODEL_TEST_H
#define PMUSIM_TESTS_MODEL_TEST_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/model.h"
#include "model/msr-index.h"

#define EVTSEL(event, umask)	((uint64_t)(event) | (uint64_t)(umask) << 8)
#define EVT_INSNS		EVTSEL(0xc0, 0x00)
#define EVT_CYCLES		EVTSEL(0x3c, 0x00)
#define EVT_REF_CYCLES		EVTSEL(0x3c, 0x01)
#define EVT_BRANCHES		EVTSEL(0xc4, 0x00)
#define EVT_BRANCH_MISSES	EVTSEL(0xc5, 0x00)
#define EVT_SLOTS		EVTSEL(0xa4, 0x01)
#define EVT_EN_ALL		(ARCH_PERFMON_EVENTSEL_ENABLE | ARCH_PERFMON_EVENTSEL_USR | \
				 ARCH_PERFMON_EVENTSEL_OS)

static inline struct model_cpu *model_test_cpu(const char *name)
{
	const struct model_cpu_desc *desc = model_cpu_desc_lookup(name);
	struct model_cpu *cpu;

	assert_non_null(desc);
	cpu = model_cpu_create(desc, 0);
	assert_non_null(cpu);
	return cpu;
}

static inline void wr(struct model_cpu *cpu, uint32_t msr, uint64_t val)
{
	assert_int_equal(model_wrmsr(cpu, msr, val), 0);
}

static inline uint64_t rd(struct model_cpu *cpu, uint32_t msr)
{
	uint64_t val = 0xdeadbeef;

	assert_int_equal(model_rdmsr(cpu, msr, &val), 0);
	return val;
}

static inline uint64_t counter_mask(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

/* Records PMIs; optionally runs a handler inside the PMI. */
struct pmi_log {
	unsigned int count;
	int last_cpu;
	uint64_t status_seen;		/* GLOBAL_STATUS read inside the last PMI */
	struct model_cpu *cpu;
	void (*handler)(struct pmi_log *log);
};

static inline void pmi_log_fn(void *ctx, int cpu_id)
{
	struct pmi_log *log = ctx;

	log->count++;
	log->last_cpu = cpu_id;
	if (log->cpu &&
	    model_cpu_get_desc(log->cpu)->pmu_version >= 2)
		assert_int_equal(model_rdmsr(log->cpu, MSR_CORE_PERF_GLOBAL_STATUS,
					     &log->status_seen), 0);
	if (log->handler)
		log->handler(log);
}

static inline void pmi_log_attach(struct pmi_log *log, struct model_cpu *cpu)
{
	*log = (struct pmi_log){ .cpu = cpu };
	model_cpu_set_pmi(cpu, pmi_log_fn, log);
}

#endif /* PMUSIM_TESTS_MODEL_TEST_H */
