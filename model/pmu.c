// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counters of the model PMU: their MSRs, what each one counts, overflow
 * into GLOBAL_STATUS, the PMI and freeze-on-PMI.
 *
 * Which counter counts what is decided here, when a control register is
 * written (model_pmu_update), so that the retire path (retire.c) only walks
 * a short list per privilege level.
 */
#include <errno.h>

#include "model/internal.h"
#include "model/msr-index.h"

#define EVTSEL_EVENT_UMASK(event, umask)	((uint64_t)(event) | (uint64_t)(umask) << 8)

/*
 * The events the model counts: the ones the Linux driver maps the generic
 * hardware events to.  Every other code counts nothing (real hardware would
 * count something; the model has no caches, TLBs or pipeline to count).
 */
static enum model_event_class model_decode_event(const struct model_cpu *cpu, uint64_t sel)
{
	switch (sel & (ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK)) {
	case EVTSEL_EVENT_UMASK(0xc0, 0x00):	/* INST_RETIRED.ANY_P */
		return MODEL_EV_INSNS;
	case EVTSEL_EVENT_UMASK(0x3c, 0x00):	/* CPU_CLK_UNHALTED.THREAD_P */
		return MODEL_EV_CYCLES;
	case EVTSEL_EVENT_UMASK(0x3c, 0x01):	/* CPU_CLK_UNHALTED.REF_XCLK: at TSC rate here */
		return MODEL_EV_REF_CYCLES;
	case EVTSEL_EVENT_UMASK(0xc4, 0x00):	/* BR_INST_RETIRED.ALL_BRANCHES */
		return MODEL_EV_BRANCHES;
	case EVTSEL_EVENT_UMASK(0xc5, 0x00):	/* BR_MISP_RETIRED.ALL_BRANCHES */
		return MODEL_EV_BRANCH_MISSES;
	case EVTSEL_EVENT_UMASK(0xa4, 0x01):	/* TOPDOWN.SLOTS_P (Ice Lake+) */
		return cpu->desc->slots_per_cycle ? MODEL_EV_SLOTS : MODEL_EV_NONE;
	default:
		return MODEL_EV_NONE;
	}
}

static const enum model_event_class model_fixed_event[MODEL_MAX_FIXED] = {
	MODEL_EV_INSNS, MODEL_EV_CYCLES, MODEL_EV_REF_CYCLES, MODEL_EV_SLOTS,
};

static bool model_pmu_frozen(const struct model_cpu *cpu)
{
	return cpu->desc->pmu_version >= 4 &&
	       (cpu->global_status & GLOBAL_STATUS_COUNTERS_FROZEN);
}

static bool model_global_enabled(const struct model_cpu *cpu, unsigned int ctr)
{
	return cpu->desc->pmu_version < 2 ||
	       (cpu->global_ctrl >> model_status_bit(ctr) & 1);
}

static void model_add_counting(struct model_cpu *cpu, unsigned int ctr,
			       enum model_event_class cls, bool os, bool usr, bool slow)
{
	struct model_counting c = {
		.mask = cpu->ctr_mask[ctr], .ctr = (uint8_t)ctr, .cls = (uint8_t)cls,
	};

	for (int user = 0; user < 2; user++) {
		if (!(user ? usr : os))
			continue;
		if (slow)
			cpu->cmask_counting[user][cpu->nr_cmask_counting[user]++] = c;
		else
			cpu->counting[user][cpu->nr_counting[user]++] = c;
	}
}

void model_pmu_update(struct model_cpu *cpu)
{
	const struct model_cpu_desc *d = cpu->desc;
	bool frozen;

	/* What is pending was counted under the lists about to change. */
	model_pmu_sync(cpu);
	frozen = model_pmu_frozen(cpu);
	cpu->nr_counting[0] = cpu->nr_counting[1] = 0;
	cpu->nr_cmask_counting[0] = cpu->nr_cmask_counting[1] = 0;
	cpu->pmi_on_overflow = 0;

	for (unsigned int i = 0; i < d->nr_gp; i++) {
		uint64_t sel = cpu->evtsel[i];
		enum model_event_class cls;

		if (sel & ARCH_PERFMON_EVENTSEL_INT)
			cpu->pmi_on_overflow |= 1u << i;
		if (!(sel & ARCH_PERFMON_EVENTSEL_ENABLE) || !model_global_enabled(cpu, i) ||
		    frozen)
			continue;
		cls = model_decode_event(cpu, sel);
		if (cls == MODEL_EV_NONE)
			continue;
		model_add_counting(cpu, i, cls, sel & ARCH_PERFMON_EVENTSEL_OS,
				   sel & ARCH_PERFMON_EVENTSEL_USR,
				   sel & (ARCH_PERFMON_EVENTSEL_CMASK | ARCH_PERFMON_EVENTSEL_INV |
					  ARCH_PERFMON_EVENTSEL_EDGE));
	}

	for (unsigned int j = 0; j < d->nr_fixed; j++) {
		unsigned int ctr = MODEL_FIXED_BASE + j;
		uint64_t bits = cpu->fixed_ctr_ctrl >> (j * INTEL_FIXED_BITS_STRIDE);

		if (bits & INTEL_FIXED_0_ENABLE_PMI)
			cpu->pmi_on_overflow |= 1u << ctr;
		if (!model_global_enabled(cpu, ctr) || frozen)
			continue;
		model_add_counting(cpu, ctr, model_fixed_event[j], bits & INTEL_FIXED_0_KERNEL,
				   bits & INTEL_FIXED_0_USER, false);
	}
}

void model_pmu_reset(struct model_cpu *cpu)
{
	const struct model_cpu_desc *d = cpu->desc;

	for (unsigned int i = 0; i < MODEL_NR_CTRS; i++) {
		unsigned int width = i < MODEL_FIXED_BASE ? d->gp_width : d->fixed_width;

		cpu->ctr[i] = 0;
		cpu->ctr_mask[i] = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	}
	/* Reset value: GP counters enabled, fixed ones not (SDM, for v1 software). */
	cpu->global_ctrl = (1ULL << d->nr_gp) - 1;
}

/*
 * CMASK/INV/EDGE: the model does not know how a retire call's events fall on
 * its cycles, so it spreads them as evenly as possible, the earlier cycles
 * getting the extra one: with e events over c cycles, the first e % c cycles
 * see e / c + 1 and the rest e / c.  The counter then counts the cycles whose
 * event count is >= CMASK (CMASK 0 behaves as 1), or < CMASK with INV, or with
 * EDGE the 0 -> 1 transitions of that condition, carried across retire calls.
 * A call with no cycles counts nothing.
 */
uint64_t model_cmask_count(struct model_cpu *cpu, unsigned int ctr, uint64_t events,
			   uint64_t cycles)
{
	uint64_t sel = cpu->evtsel[ctr];
	uint64_t threshold = (sel & ARCH_PERFMON_EVENTSEL_CMASK) >> ARCH_PERFMON_EVENTSEL_CMASK_SHIFT;
	uint64_t per_cycle, extra, asserted, first, last;

	if (!cycles)
		return 0;
	if (!threshold)
		threshold = 1;
	per_cycle = events / cycles;
	extra = events % cycles;
	if (per_cycle >= threshold)
		asserted = cycles;
	else if (per_cycle + 1 >= threshold)
		asserted = extra;
	else
		asserted = 0;

	/* The asserted cycles form one run: a prefix, or a suffix with INV. */
	if (sel & ARCH_PERFMON_EVENTSEL_INV) {
		asserted = cycles - asserted;
		first = cycles - asserted;
	} else {
		first = 0;
	}
	last = first + asserted;	/* one past */

	if (!(sel & ARCH_PERFMON_EVENTSEL_EDGE))
		return asserted;
	if (!asserted) {
		cpu->cmask_asserted[ctr] = false;
		return 0;
	}
	{
		bool rising = first > 0 || !cpu->cmask_asserted[ctr];

		cpu->cmask_asserted[ctr] = last == cycles;
		return rising;
	}
}

/*
 * Freeze on PMI.  Before v4 the PMI clears DEBUGCTL.LBR and the enables of
 * GLOBAL_CTRL and software sets them again; from v4 it sets LBR_FRZ/CTR_FRZ
 * in GLOBAL_STATUS, and writing those bits to STATUS_RESET thaws.
 */
static void model_pmu_freeze_on_pmi(struct model_cpu *cpu)
{
	bool freeze_lbrs = cpu->debugctl & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	bool freeze_ctrs = cpu->debugctl & DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI;

	if (cpu->desc->pmu_version >= 4) {
		if (freeze_lbrs)
			cpu->global_status |= GLOBAL_STATUS_LBRS_FROZEN;
		if (freeze_ctrs)
			cpu->global_status |= GLOBAL_STATUS_COUNTERS_FROZEN;
	} else {
		if (freeze_lbrs)
			cpu->debugctl &= ~DEBUGCTLMSR_LBR;
		if (freeze_ctrs)
			cpu->global_ctrl = 0;
	}
	model_pmu_update(cpu);
	model_lbr_update(cpu);
}

void model_pmu_deliver_pmi(struct model_cpu *cpu)
{
	while (cpu->pmi_pending) {
		cpu->pmi_pending = false;
		model_pmu_freeze_on_pmi(cpu);
		cpu->nr_pmis++;
		if (cpu->pmi) {
			cpu->in_pmi = true;
			cpu->pmi(cpu->pmi_ctx, cpu->cpu_id);
			/* the handler's time, with NMIs still blocked */
			model_cpu_pass_unseen(cpu, cpu->pmi_cycles);
			cpu->in_pmi = false;
		}
	}
}

/* ---- MSRs ---------------------------------------------------------------- */

static uint64_t model_counter_bits(const struct model_cpu_desc *d)
{
	return ((1ULL << d->nr_gp) - 1) |
	       ((1ULL << d->nr_fixed) - 1) << INTEL_PMC_IDX_FIXED;
}

/* Bits of GLOBAL_STATUS that OVF_CTRL/STATUS_RESET and STATUS_SET act on. */
static uint64_t model_status_bits(const struct model_cpu_desc *d)
{
	uint64_t bits = model_counter_bits(d) | GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHG;

	if (d->pmu_version >= 4)
		bits |= GLOBAL_STATUS_TRACE_TOPAPMI | GLOBAL_STATUS_LBRS_FROZEN |
			GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_ASIF | GLOBAL_STATUS_UNC_OVF;
	return bits;
}

/* AnyThread exists from v3 and is deprecated (reserved) from v5. */
static bool model_has_anythread(const struct model_cpu_desc *d)
{
	return d->pmu_version >= 3 && d->pmu_version < 5;
}

static uint64_t model_evtsel_bits(const struct model_cpu_desc *d)
{
	uint64_t bits = 0xffffffffULL;

	if (!model_has_anythread(d))
		bits &= ~ARCH_PERFMON_EVENTSEL_ANY;
	return bits;
}

static uint64_t model_fixed_ctrl_bits(const struct model_cpu_desc *d)
{
	uint64_t per = INTEL_FIXED_0_KERNEL | INTEL_FIXED_0_USER | INTEL_FIXED_0_ENABLE_PMI;
	uint64_t bits = 0;

	if (model_has_anythread(d))
		per |= INTEL_FIXED_0_ANYTHREAD;
	for (unsigned int j = 0; j < d->nr_fixed; j++)
		bits |= intel_fixed_bits_by_idx(j, per);
	return bits;
}

/* 1 + the counter's dense index if msr is one of its counter MSRs, else 0 */
static unsigned int model_counter_msr(const struct model_cpu_desc *d, uint32_t msr,
				      bool *full_width)
{
	*full_width = true;
	if (msr >= MSR_ARCH_PERFMON_PERFCTR0 && msr < MSR_ARCH_PERFMON_PERFCTR0 + d->nr_gp) {
		*full_width = false;
		return 1 + msr - MSR_ARCH_PERFMON_PERFCTR0;
	}
	if (d->fw_write && msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + d->nr_gp)
		return 1 + msr - MSR_IA32_PMC0;
	if (d->pmu_version >= 2 && msr >= MSR_CORE_PERF_FIXED_CTR0 &&
	    msr < MSR_CORE_PERF_FIXED_CTR0 + d->nr_fixed)
		return 1 + MODEL_FIXED_BASE + msr - MSR_CORE_PERF_FIXED_CTR0;
	return 0;
}

int model_pmu_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val)
{
	const struct model_cpu_desc *d = cpu->desc;
	unsigned int ctr;
	bool full_width;

	ctr = model_counter_msr(d, msr, &full_width);
	if (ctr) {
		*val = cpu->ctr[ctr - 1];
		return 0;
	}
	if (msr >= MSR_ARCH_PERFMON_EVENTSEL0 && msr < MSR_ARCH_PERFMON_EVENTSEL0 + d->nr_gp) {
		*val = cpu->evtsel[msr - MSR_ARCH_PERFMON_EVENTSEL0];
		return 0;
	}
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		if (d->pmu_version < 2)
			return -EIO;
		*val = cpu->fixed_ctr_ctrl;
		return 0;
	case MSR_CORE_PERF_GLOBAL_STATUS:
		if (d->pmu_version < 2)
			return -EIO;
		*val = cpu->global_status;
		return 0;
	case MSR_CORE_PERF_GLOBAL_CTRL:
		if (d->pmu_version < 2)
			return -EIO;
		*val = cpu->global_ctrl;
		return 0;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:	/* write-1-to-clear: reads 0 */
		if (d->pmu_version < 2)
			return -EIO;
		*val = 0;
		return 0;
	case MSR_CORE_PERF_GLOBAL_STATUS_SET:	/* write-1-to-set: reads 0 */
		if (d->pmu_version < 4)
			return -EIO;
		*val = 0;
		return 0;
	case MSR_IA32_PERF_CAPABILITIES:
		if (!d->has_perf_capabilities)
			return -EIO;
		*val = d->perf_capabilities;
		return 0;
	case MSR_IA32_DEBUGCTLMSR:
		*val = cpu->debugctl;
		return 0;
	case MSR_IA32_TSC:
		*val = model_tsc(cpu);
		return 0;
	default:
		return -ENOENT;	/* not a PMU register; msr.c asks the LBR */
	}
}

static uint64_t model_debugctl_bits(const struct model_cpu_desc *d)
{
	uint64_t bits = DEBUGCTLMSR_LBR | DEBUGCTLMSR_BTF | DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS |
			DEBUGCTLMSR_BTINT | DEBUGCTLMSR_BTS_OFF_OS | DEBUGCTLMSR_BTS_OFF_USR |
			DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI;

	if (d->pmu_version >= 3)
		bits |= DEBUGCTLMSR_UNCORE_PMI_EN | DEBUGCTLMSR_FREEZE_IN_SMM;
	return bits;
}

int model_pmu_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val)
{
	const struct model_cpu_desc *d = cpu->desc;
	unsigned int ctr;
	bool full_width;

	ctr = model_counter_msr(d, msr, &full_width);
	if (ctr) {
		uint64_t mask = cpu->ctr_mask[--ctr];

		if (!full_width) {
			/* Legacy alias: EAX sign-extended, EDX ignored. */
			val = (uint64_t)(int64_t)(int32_t)(uint32_t)val;
		} else if (val & ~mask) {
			return -EIO;
		}
		cpu->ctr[ctr] = val & mask;
		return 0;
	}
	if (msr >= MSR_ARCH_PERFMON_EVENTSEL0 && msr < MSR_ARCH_PERFMON_EVENTSEL0 + d->nr_gp) {
		unsigned int i = msr - MSR_ARCH_PERFMON_EVENTSEL0;

		if (val & ~model_evtsel_bits(d))
			return -EIO;
		cpu->evtsel[i] = val;
		cpu->cmask_asserted[i] = false;
		model_pmu_update(cpu);
		return 0;
	}
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		if (d->pmu_version < 2 || (val & ~model_fixed_ctrl_bits(d)))
			return -EIO;
		cpu->fixed_ctr_ctrl = val;
		model_pmu_update(cpu);
		return 0;
	case MSR_CORE_PERF_GLOBAL_CTRL:
		if (d->pmu_version < 2 || (val & ~model_counter_bits(d)))
			return -EIO;
		cpu->global_ctrl = val;
		model_pmu_update(cpu);
		return 0;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		if (d->pmu_version < 2 || (val & ~model_status_bits(d)))
			return -EIO;
		cpu->global_status &= ~val;
		model_pmu_update(cpu);
		model_lbr_update(cpu);
		return 0;
	case MSR_CORE_PERF_GLOBAL_STATUS_SET:
		/* Sets status bits (for a VMM); raises no PMI. */
		if (d->pmu_version < 4 || (val & ~model_status_bits(d)))
			return -EIO;
		cpu->global_status |= val;
		model_pmu_update(cpu);
		model_lbr_update(cpu);
		return 0;
	case MSR_IA32_DEBUGCTLMSR:
		if (val & ~model_debugctl_bits(d))
			return -EIO;
		cpu->debugctl = val;
		model_lbr_update(cpu);
		return 0;
	case MSR_IA32_TSC:
		cpu->tsc_offset = val - cpu->rt.clock;
		cpu->tsc_rem = 0;
		return 0;
	case MSR_CORE_PERF_GLOBAL_STATUS:
	case MSR_IA32_PERF_CAPABILITIES:
		return -EIO;	/* read-only */
	default:
		return -ENOENT;
	}
}
