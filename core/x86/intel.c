// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel.c - the Intel half of the x86 PMU driver (arch/x86/events/intel/
 * core.c) for the model's CPUs: sizing the PMU from CPUID leaf 0xA and
 * PERF_CAPABILITIES, event constraints, enabling and disabling through
 * GLOBAL_CTRL and FIXED_CTR_CTRL, and the PMI handler.
 */
#include "core/x86/perf_event.h"

#define EVENT_CONSTRAINT(c, n, m)	{ .idxmsk64 = (n), .code = (c), .cmask = (m), \
					  .weight = __builtin_popcountll(n) }
#define INTEL_EVENT_CONSTRAINT(c, n)	EVENT_CONSTRAINT(c, n, ARCH_PERFMON_EVENTSEL_EVENT)
#define INTEL_UEVENT_CONSTRAINT(c, n)	EVENT_CONSTRAINT(c, n, INTEL_ARCH_EVENT_MASK)
/* The general-purpose counters are added to the mask at init, except for 0x0300. */
#define FIXED_EVENT_CONSTRAINT(c, n)	EVENT_CONSTRAINT(c, 1ULL << (INTEL_PMC_IDX_FIXED + (n)), \
							 FIXED_EVENT_FLAGS)
#define EVENT_CONSTRAINT_END		{ .weight = -1 }

#define INTEL_MODEL_CORE2		0x0f
#define INTEL_MODEL_ATOM_SILVERMONT	0x37
#define INTEL_MODEL_NEHALEM		0x1a
#define INTEL_MODEL_HASWELL		0x3c
#define INTEL_MODEL_SKYLAKE		0x5e
#define INTEL_MODEL_ICELAKE		0x7e
#define INTEL_MODEL_SAPPHIRERAPIDS	0x8f

/* Templates; intel_pmu_init() copies one and fixes its masks up. */
static const struct event_constraint intel_core2_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_EVENT_CONSTRAINT(0x10, 0x1),	/* FP_COMP_OPS_EXE */
	INTEL_EVENT_CONSTRAINT(0x11, 0x2),	/* FP_ASSIST */
	INTEL_EVENT_CONSTRAINT(0x12, 0x2),	/* MUL */
	INTEL_EVENT_CONSTRAINT(0x13, 0x2),	/* DIV */
	INTEL_EVENT_CONSTRAINT(0x14, 0x1),	/* CYCLES_DIV_BUSY */
	INTEL_EVENT_CONSTRAINT(0x18, 0x1),	/* IDLE_DURING_DIV */
	INTEL_EVENT_CONSTRAINT(0xc1, 0x1),	/* FP_COMP_INSTR_RET */
	INTEL_EVENT_CONSTRAINT(0xc9, 0x1),	/* ITLB_MISS_RETIRED */
	INTEL_EVENT_CONSTRAINT(0xcb, 0x1),	/* MEM_LOAD_RETIRED */
	EVENT_CONSTRAINT_END
};

static const struct event_constraint intel_slm_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),
	FIXED_EVENT_CONSTRAINT(0x003c, 1),
	FIXED_EVENT_CONSTRAINT(0x0300, 2),
	EVENT_CONSTRAINT_END
};

static const struct event_constraint intel_nehalem_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),
	FIXED_EVENT_CONSTRAINT(0x003c, 1),
	FIXED_EVENT_CONSTRAINT(0x0300, 2),
	INTEL_EVENT_CONSTRAINT(0x40, 0x3),	/* L1D_CACHE_LD */
	INTEL_EVENT_CONSTRAINT(0x41, 0x3),	/* L1D_CACHE_ST */
	INTEL_EVENT_CONSTRAINT(0x42, 0x3),	/* L1D_CACHE_LOCK */
	INTEL_EVENT_CONSTRAINT(0x43, 0x3),	/* L1D_ALL_REF */
	INTEL_EVENT_CONSTRAINT(0x48, 0x3),	/* L1D_PEND_MISS */
	INTEL_EVENT_CONSTRAINT(0x4e, 0x3),	/* L1D_PREFETCH */
	INTEL_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D */
	INTEL_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	EVENT_CONSTRAINT_END
};

static const struct event_constraint intel_skl_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),
	FIXED_EVENT_CONSTRAINT(0x003c, 1),
	FIXED_EVENT_CONSTRAINT(0x0300, 2),
	INTEL_UEVENT_CONSTRAINT(0x1c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	EVENT_CONSTRAINT_END
};

static const struct event_constraint intel_icl_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),
	FIXED_EVENT_CONSTRAINT(0x01c0, 0),	/* INST_RETIRED.PREC_DIST */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),
	FIXED_EVENT_CONSTRAINT(0x0300, 2),
	EVENT_CONSTRAINT_END
};

#define MAX_EVENT_CONSTRAINTS	16
static struct event_constraint intel_event_constraints[MAX_EVENT_CONSTRAINTS];
static struct event_constraint unconstrained;
static struct event_constraint emptyconstraint;

/* The pseudo-encodings name a fixed counter only: no GP counter counts them. */
static bool use_fixed_pseudo_encoding(u64 code)
{
	return !(code & 0xff);
}

static void intel_pmu_check_event_constraints(const struct event_constraint *tmpl)
{
	u64 gp = (1ULL << x86_pmu.num_counters) - 1;
	int n = 0;

	for (; tmpl->weight != -1 && n < MAX_EVENT_CONSTRAINTS - 1; tmpl++) {
		struct event_constraint c = *tmpl;

		if (c.cmask == FIXED_EVENT_FLAGS) {
			c.idxmsk64 &= x86_pmu.intel_ctrl;	/* fixed counters CPUID has */
			if (!use_fixed_pseudo_encoding(c.code))
				c.idxmsk64 |= gp;
		} else {
			c.idxmsk64 &= gp;
		}
		c.weight = __builtin_popcountll(c.idxmsk64);
		intel_event_constraints[n++] = c;
	}
	intel_event_constraints[n].weight = -1;
	x86_pmu.event_constraints = intel_event_constraints;

	unconstrained.idxmsk64 = gp;
	unconstrained.weight = x86_pmu.num_counters;
}

struct event_constraint *intel_get_event_constraints(struct cpu_hw_events *cpuc,
						     struct perf_event *event)
{
	struct event_constraint *c;
	u64 config = event->hw.config;

	(void)cpuc;
	for (c = x86_pmu.event_constraints; c && c->weight != -1; c++)
		if ((config & c->cmask) == c->code)
			return c->weight ? c : &emptyconstraint;
	return &unconstrained;
}

int intel_pmu_hw_config(struct perf_event *event)
{
	int ret = x86_pmu_hw_config(event);

	if (ret)
		return ret;

	/*
	 * Branch counter logging (PMU_FL_BR_CNTR) is a feature of CPUs newer
	 * than any model here: v6.12 refuses the bit, whatever sample_type is.
	 */
	if (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
		return -EINVAL;

	if (has_branch_stack(event)) {
		ret = intel_pmu_setup_lbr_filter(event);
		if (ret)
			return ret;
	}

	if (event->attr.type != PERF_TYPE_RAW)
		return 0;
	if (!(event->attr.config & ARCH_PERFMON_EVENTSEL_ANY))
		return 0;
	/* AnyThread: v3 and v4 only; the model's v5 deprecates it (#GP). */
	if (x86_pmu.version < 3 || x86_pmu.version >= 5)
		return -EINVAL;
	event->hw.config |= ARCH_PERFMON_EVENTSEL_ANY;
	return 0;
}

/* ---- enable and disable ------------------------------------------------------ */

void intel_pmu_disable_all(void)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	intel_pmu_lbr_disable_all();
}

static void __intel_pmu_enable_all(int added, bool pmi)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	(void)added;
	intel_pmu_lbr_enable_all(pmi);
	if (cpuc->fixed_ctrl_val != cpuc->active_fixed_ctrl_val) {
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, cpuc->fixed_ctrl_val);
		cpuc->active_fixed_ctrl_val = cpuc->fixed_ctrl_val;
	}
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, x86_pmu.intel_ctrl);
}

void intel_pmu_enable_all(int added)
{
	__intel_pmu_enable_all(added, false);
}

static void intel_pmu_enable_fixed(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx - INTEL_PMC_IDX_FIXED;
	u64 bits = INTEL_FIXED_0_ENABLE_PMI;

	if (hwc->config & ARCH_PERFMON_EVENTSEL_USR)
		bits |= INTEL_FIXED_0_USER;
	if (hwc->config & ARCH_PERFMON_EVENTSEL_OS)
		bits |= INTEL_FIXED_0_KERNEL;
	if (x86_pmu.version > 2 && (hwc->config & ARCH_PERFMON_EVENTSEL_ANY))
		bits |= INTEL_FIXED_0_ANYTHREAD;

	cpuc->fixed_ctrl_val &= ~intel_fixed_bits_by_idx(idx, INTEL_FIXED_BITS_MASK);
	cpuc->fixed_ctrl_val |= intel_fixed_bits_by_idx(idx, bits);
}

/*
 * A fixed counter's enable bits reach FIXED_CTR_CTRL at the next
 * enable_all; the caller has the PMU disabled, as the event core does.
 */
void intel_pmu_enable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (is_counter_fixed(hwc->idx))
		intel_pmu_enable_fixed(event);
	else
		wrmsrl(hwc->config_base, hwc->config | ARCH_PERFMON_EVENTSEL_ENABLE);
}

void intel_pmu_disable_event(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct hw_perf_event *hwc = &event->hw;

	if (is_counter_fixed(hwc->idx))
		cpuc->fixed_ctrl_val &= ~intel_fixed_bits_by_idx(hwc->idx - INTEL_PMC_IDX_FIXED,
								 INTEL_FIXED_BITS_MASK);
	else
		wrmsrl(hwc->config_base, hwc->config);
}

/* Every counter and control to 0, as after a stuck PMI (intel_pmu_reset()). */
void intel_pmu_reset(void)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();

	for (int idx = 0; idx < x86_pmu.num_counters; idx++) {
		wrmsrl(x86_pmu.eventsel + idx, 0);
		wrmsrl(x86_pmu.perfctr + idx, 0);
	}
	for (int idx = 0; idx < x86_pmu.num_counters_fixed; idx++)
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + idx, 0);
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, 0);
	cpuc->fixed_ctrl_val = cpuc->active_fixed_ctrl_val = 0;
	if (x86_pmu.version >= 2)
		wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, x86_pmu.intel_ctrl);
	intel_pmu_lbr_reset();
}

/* ---- the PMI ---------------------------------------------------------------- */

static u64 intel_pmu_get_status(void)
{
	u64 status;

	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	return status;
}

static void intel_pmu_ack_status(u64 ack)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, ack);
}

static int handle_pmi_common(struct pt_regs *regs, u64 status)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	struct perf_sample_data data;
	int handled = 0;

	/* Freeze and condition bits say nothing about a counter. */
	status &= x86_pmu.intel_ctrl;
	while (status) {
		int bit = __builtin_ctzll(status);
		struct perf_event *event = cpuc->events[bit];

		status &= status - 1;
		handled++;
		if (!(cpuc->active_mask >> bit & 1))
			continue;

		/* intel_pmu_save_and_restart() */
		x86_perf_event_update(event);
		if (!x86_perf_event_set_period(event))
			continue;

		perf_sample_data_init(&data, 0, event->hw.last_period);
		if (has_branch_stack(event))
			intel_pmu_lbr_save_brstack(&data, cpuc, event);

		if (event->attr.precise_ip && regs->eventing_ip) {
			/*
			 * What the kernel's PEBS drain does with a record: the
			 * sample is at the eventing ip, marked exact. The model
			 * has no PEBS buffer; the ip comes with the PMI.
			 */
			struct pt_regs pebs_regs = *regs;

			pebs_regs.ip = regs->eventing_ip;
			pebs_regs.exact = true;
			if (perf_event_overflow(event, &data, &pebs_regs))
				x86_pmu_stop(event, 0);
			continue;
		}
		if (perf_event_overflow(event, &data, regs))
			x86_pmu_stop(event, 0);
	}
	return handled;
}

/*
 * The PMI. Counters are stopped for the whole handler; the LBR is read
 * while still frozen, before the status ack, which from PMU v4 also thaws
 * it (LBR_FRZ is among the acked bits); before v4 the freeze cleared
 * DEBUGCTL.LBR and the re-enable at the end sets it again.
 */
int intel_pmu_handle_irq(struct pt_regs *regs)
{
	struct cpu_hw_events *cpuc = this_cpu_hw_events();
	int pmu_enabled = cpuc->enabled;
	int loops = 0, handled = 0;
	u64 status;

	cpuc->enabled = 0;
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	status = intel_pmu_get_status();
	if (!status)
		goto done;

again:
	intel_pmu_lbr_read();
	intel_pmu_ack_status(status);
	if (++loops > 100) {
		static bool warned;

		if (!warned) {
			fprintf(stderr, "pmusim: perfevents: irq loop stuck!\n");
			warned = true;
		}
		WARN_ON_ONCE(1);
		intel_pmu_reset();
		goto done;
	}

	handled += handle_pmi_common(regs, status);

	status = intel_pmu_get_status();
	if (status)
		goto again;

done:
	cpuc->enabled = pmu_enabled;
	if (pmu_enabled)
		__intel_pmu_enable_all(0, true);
	return handled;
}

/* ---- init ------------------------------------------------------------------ */

int intel_pmu_init(void)
{
	u32 eax, ebx, ecx, edx, max_leaf, fms;
	const struct event_constraint *tmpl;

	cpuid(0, &max_leaf, &ebx, &ecx, &edx);
	if (max_leaf < CPUID_LEAF_ARCH_PERFMON)
		return -ENODEV;
	cpuid(CPUID_LEAF_FEATURES, &fms, &ebx, &ecx, &edx);
	x86_pmu.cpu_model = ((fms >> 4) & 0xf) | ((fms >> 16) & 0xf) << 4;

	cpuid(CPUID_LEAF_ARCH_PERFMON, &eax, &ebx, &ecx, &edx);
	x86_pmu.version = eax & 0xff;
	/* Version 1 lacks GLOBAL_CTRL; the kernel's core_pmu is not modelled. */
	if (x86_pmu.version < 2)
		return -ENODEV;
	x86_pmu.num_counters = min_t(int, (eax >> 8) & 0xff, INTEL_PMC_MAX_GENERIC);
	x86_pmu.cntval_bits = (eax >> 16) & 0xff;
	x86_pmu.cntval_mask = (1ULL << x86_pmu.cntval_bits) - 1;
	x86_pmu_mask_arch_events(ebx, (eax >> 24) & 0xff);
	/* v2 and up have at least three fixed counters, whatever EDX says. */
	x86_pmu.num_counters_fixed = min_t(int, max_t(int, edx & 0x1f, 3), INTEL_PMC_MAX_FIXED);
	if (x86_pmu.version >= 5 && ecx)
		x86_pmu.num_counters_fixed = min_t(int, 32 - __builtin_clz(ecx), INTEL_PMC_MAX_FIXED);
	x86_pmu.intel_ctrl = ((1ULL << x86_pmu.num_counters) - 1) |
			     (((1ULL << x86_pmu.num_counters_fixed) - 1) << INTEL_PMC_IDX_FIXED);
	x86_pmu.eventsel = MSR_ARCH_PERFMON_EVENTSEL0;
	x86_pmu.perfctr = MSR_ARCH_PERFMON_PERFCTR0;
	x86_pmu.config_mask = X86_RAW_EVENT_MASK;
	/* Legacy counter writes take 32 bits sign-extended. */
	x86_pmu.max_period = (1ULL << 31) - 1;

	cpuid(CPUID_LEAF_FEATURES, &eax, &ebx, &ecx, &edx);
	if (ecx & CPUID_1_ECX_PDCM)
		rdmsrl(MSR_IA32_PERF_CAPABILITIES, x86_pmu.intel_cap);
	x86_pmu.lbr_format = x86_pmu.intel_cap & PERF_CAP_LBR_FMT;
	if (x86_pmu.intel_cap & PERF_CAP_FW_WRITES) {
		x86_pmu.full_width_write = true;
		x86_pmu.max_period = x86_pmu.cntval_mask >> 1;
		x86_pmu.perfctr = MSR_IA32_PMC0;
	}

	switch (x86_pmu.cpu_model) {
	case INTEL_MODEL_CORE2:
		x86_pmu.name = "core2";
		tmpl = intel_core2_event_constraints;
		break;
	case INTEL_MODEL_ATOM_SILVERMONT:
		x86_pmu.name = "silvermont";
		tmpl = intel_slm_event_constraints;
		break;
	case INTEL_MODEL_NEHALEM:
		x86_pmu.name = "nehalem";
		tmpl = intel_nehalem_event_constraints;
		break;
	case INTEL_MODEL_HASWELL:
		x86_pmu.name = "haswell";
		x86_pmu.lbr_double_abort = true;
		tmpl = intel_skl_event_constraints;	/* the same for what the model counts */
		break;
	case INTEL_MODEL_SKYLAKE:
		x86_pmu.name = "skylake";
		tmpl = intel_skl_event_constraints;
		break;
	case INTEL_MODEL_ICELAKE:
		x86_pmu.name = "icelake";
		tmpl = intel_icl_event_constraints;
		break;
	case INTEL_MODEL_SAPPHIRERAPIDS:
		x86_pmu.name = "sapphire_rapids";
		tmpl = intel_icl_event_constraints;
		break;
	default:
		x86_pmu.name = "generic_arch_v2+";
		tmpl = intel_skl_event_constraints;
		break;
	}
	intel_pmu_check_event_constraints(tmpl);
	intel_pmu_lbr_init();
	return 0;
}
