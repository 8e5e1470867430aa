/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86_test.h - what the x86 driver tests share: a machine of model CPUs
 * plugged into the driver, events opened through the event core with a
 * recording overflow handler, and the model's ground truth (tests may
 * read model registers directly; the driver may not).
 */
#ifndef PMUSIM_TESTS_X86_TEST_H
#define PMUSIM_TESTS_X86_TEST_H

#include "tests/test.h"
#include "core/perf_event.h"
#include "core/x86/pmu.h"
#include "core/x86/perf_event.h"
#include "model/model.h"
#include "model/msr-index.h"

#define XT_CPUS		2
#define XT_MAX_SAMPLES	64

struct xt_sample {
	u64 period;
	u64 count;			/* event->count at the PMI */
	u64 model_tos;			/* MSR_LBR_TOS as the test reads it */
	u64 ip;
	bool has_br;
	struct perf_branch_stack br;
	struct perf_branch_entry entries[MAX_LBR_ENTRIES];
};

struct xt_machine {
	struct model_cpu *cpu[XT_CPUS];
	struct pt_regs regs[XT_CPUS];
	unsigned int nr_samples;
	struct xt_sample samples[XT_MAX_SAMPLES];
	unsigned long nr_overflows;
};

static struct xt_machine xt;

static inline void xt_handler(struct perf_event *event, struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	struct xt_sample *s;

	xt.nr_overflows++;
	if (xt.nr_samples >= XT_MAX_SAMPLES)
		return;
	s = &xt.samples[xt.nr_samples++];
	memset(s, 0, sizeof(*s));
	s->period = data->period;
	s->count = local64_read(&event->count);
	s->ip = regs->ip;
	if (model_rdmsr(xt.cpu[smp_processor_id()], MSR_LBR_TOS, &s->model_tos))
		s->model_tos = ~0ULL;
	if ((data->sample_flags & PERF_SAMPLE_BRANCH_STACK) && data->br_stack) {
		s->has_br = true;
		s->br.nr = data->br_stack->nr;
		s->br.hw_idx = data->br_stack->hw_idx;
		memcpy(s->entries, data->br_stack->entries, s->br.nr * sizeof(s->entries[0]));
	}
}

/* Plug CPUs of model @d in (@d must outlive them); returns 0 or the attach error. */
static inline int xt_boot_desc(const struct model_cpu_desc *d)
{
	int ret = 0;

	memset(&xt, 0, sizeof(xt));
	pmusim_this_cpu = 0;
	for (int i = 0; i < XT_CPUS && !ret; i++) {
		xt.cpu[i] = model_cpu_create(d, i);
		if (!xt.cpu[i])
			return -ENOMEM;
		ret = x86_pmu_attach_cpu(i, xt.cpu[i]);
		x86_pmu_set_irq_regs(i, &xt.regs[i]);
	}
	return ret;
}

/* Plug @name's CPUs in; returns 0 or the attach error. */
static inline int xt_boot(const char *name)
{
	return xt_boot_desc(model_cpu_desc_lookup(name));
}

static inline void xt_shutdown(void)
{
	for (int i = 0; i < XT_CPUS; i++) {
		if (!xt.cpu[i])
			continue;
		x86_pmu_attach_cpu(i, NULL);
		model_cpu_destroy(xt.cpu[i]);
		xt.cpu[i] = NULL;
	}
	x86_branch_text_reset();
	pmusim_this_cpu = 0;
}

static inline int xt_teardown(void **state)
{
	(void)state;
	xt_shutdown();
	return 0;
}

static inline struct perf_event *xt_open(struct perf_event_attr *attr, int cpu,
					 struct task_struct *task, int *err)
{
	attr->size = sizeof(*attr);
	return perf_event_create_kernel_counter(attr, cpu, task, xt_handler, NULL, NULL, err);
}

static inline struct perf_event_attr xt_attr(u32 type, u64 config, u64 period)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.config = config;
	a.sample_period = period;
	a.exclude_hv = 1;
	return a;
}

static inline u64 xt_read(struct perf_event *event)
{
	return perf_event_read_value(event, NULL, NULL);
}

static inline u64 xt_rdmsr(int cpu, u32 msr)
{
	u64 v = 0;

	assert_int_equal(model_rdmsr(xt.cpu[cpu], msr, &v), 0);
	return v;
}

/* A user branch on CPU @cpu; the PMI sees ip = to. */
static inline void xt_branch(int cpu, u64 from, u64 to, enum model_branch_type type)
{
	xt.regs[cpu].ip = to;
	xt.regs[cpu].user = !kernel_ip(to);
	model_retire_branch(xt.cpu[cpu], from, to, type, !kernel_ip(from), false, 1);
}

#endif /* PMUSIM_TESTS_X86_TEST_H */
