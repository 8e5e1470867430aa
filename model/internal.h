/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model CPU's private state, shared by the files of model/ only.
 * Nothing outside model/ includes this.
 */
#ifndef PMUSIM_MODEL_INTERNAL_H
#define PMUSIM_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "model/msr-index.h"

#define MODEL_MAX_GP		8
#define MODEL_MAX_FIXED		4
/* Dense counter index: GP counters 0..7, fixed counters from 8. */
#define MODEL_FIXED_BASE	MODEL_MAX_GP
#define MODEL_NR_CTRS		(MODEL_MAX_GP + MODEL_MAX_FIXED)

/* What a counter counts, decided when its control register is written. */
enum model_event_class {
	MODEL_EV_NONE,
	MODEL_EV_INSNS,
	MODEL_EV_CYCLES,
	MODEL_EV_REF_CYCLES,
	MODEL_EV_BRANCHES,
	MODEL_EV_BRANCH_MISSES,
	MODEL_EV_SLOTS,
	MODEL_EV__NR
};

/* A retire call's amounts, or the pending sums of one privilege (retire.c). */
enum model_pending {
	MODEL_PEND_INSNS,
	MODEL_PEND_BRANCHES,
	MODEL_PEND_MISSES,
	MODEL_PEND_CYCLES,
	MODEL_PEND_REF,
	MODEL_PEND__NR
};

/*
 * One enabled counter in a per-privilege counting list, with its width
 * mask beside it so the retire path touches one line per counter.
 */
struct model_counting {
	uint64_t mask;		/* ctr_mask[ctr] */
	uint8_t ctr;		/* dense index */
	uint8_t cls;		/* enum model_event_class */
};

struct model_cpu {
	/* first: the inline retire path (retire.h) finds it at the struct's address */
	struct model_retire_state rt;

	const struct model_cpu_desc *desc;
	int cpu_id;
	model_pmi_fn pmi;
	void *pmi_ctx;

	/*
	 * Time: the TSC and the unhalted cycle count are rt.clock plus these
	 * (idle time, PMI handlers, a TSC write, another core clock).
	 */
	uint64_t tsc_offset;
	uint64_t cycles_offset;
	uint64_t tsc_rem;	/* carried remainder of cycles * tsc_khz / core_khz */
	uint32_t tsc_khz, core_khz;
	uint32_t slots_per_cycle;	/* desc->slots_per_cycle, kept at hand */

	/*
	 * Lazy counting (retire.c, retire.h): the budget when the pending
	 * sums were last empty, and the clock then.
	 */
	uint64_t budget_base;
	uint64_t clock_folded;

	/* PMU registers */
	uint64_t ctr[MODEL_NR_CTRS];
	uint64_t ctr_mask[MODEL_NR_CTRS];	/* counter width */
	uint64_t evtsel[MODEL_MAX_GP];
	uint64_t fixed_ctr_ctrl;
	uint64_t global_ctrl;
	uint64_t global_status;
	uint64_t debugctl;

	/*
	 * Derived on every control write (model_pmu_update), read per retire:
	 * counting[user] lists the counters that count at that privilege with
	 * the plain semantics; cmask_counting[user] those with CMASK/INV/EDGE.
	 */
	struct model_counting counting[2][MODEL_NR_CTRS];
	uint8_t nr_counting[2];
	struct model_counting cmask_counting[2][MODEL_NR_CTRS];
	uint8_t nr_cmask_counting[2];
	bool cmask_asserted[MODEL_NR_CTRS];	/* EDGE: last modelled cycle asserted */
	uint16_t pmi_on_overflow;		/* dense-index mask: INT / fixed PMI bit */

	bool pmi_pending;
	bool in_pmi;
	model_pmi_at_fn pmi_at;		/* model_cpu_set_pmi_at() */
	void *pmi_at_ctx;
	uint64_t pmi_at_base;		/* instructions of the retire call before this piece */
	uint64_t nr_pmis;
	uint64_t pmi_cycles;		/* core cycles each handled PMI takes */

	/* LBR (its ring and the per-branch state are in rt) */
	uint32_t lbr_msr_from, lbr_msr_to, lbr_msr_info;	/* entry MSR ranges (lbr.c) */
	unsigned int lbr_msr_nr, lbr_msr_info_nr;
	uint64_t lbr_select;
	uint64_t arch_lbr_ctl;
	bool lbr_cyc_valid;		/* Arch LBR: CYC_CNT_VALID for the next record */
	/* the format, and Arch LBR's INFO.BR_TYPE bits per type, for model_lbr_push_encoded() */
	uint8_t lbr_format;
	bool lbr_from_signext;		/* FROM writes must sign-extend into 62:61 (lbr.c) */
	uint64_t lbr_info_br_type[MODEL_BR__NR];
};

/* The TSC and the unhalted cycle count: the retire clock plus what it does not see. */
static inline uint64_t model_tsc(const struct model_cpu *cpu)
{
	return cpu->rt.clock + cpu->tsc_offset;
}

static inline uint64_t model_unhalted_cycles(const struct model_cpu *cpu)
{
	return cpu->rt.clock + cpu->cycles_offset;
}

static inline unsigned int model_status_bit(unsigned int ctr)
{
	return ctr < MODEL_FIXED_BASE ? ctr : INTEL_PMC_IDX_FIXED + ctr - MODEL_FIXED_BASE;
}

/* retire.c: the pending sums into the counters */
void model_fold_pending(struct model_cpu *cpu);

/*
 * Before anyone reads or changes the counters (every MSR access, and the
 * counting lists' change): pending counts folded in, and the budget 0, so
 * that the next retire call is exact and measures it afresh.
 */
static inline void model_pmu_sync(struct model_cpu *cpu)
{
	if (cpu->rt.budget != cpu->budget_base)
		model_fold_pending(cpu);
	cpu->rt.budget = cpu->budget_base = 0;
}
/* retire.c: @cycles core cycles pass that the PMU does not see (a PMI's handler) */
void model_cpu_pass_unseen(struct model_cpu *cpu, uint64_t cycles);

/* pmu.c */
void model_pmu_reset(struct model_cpu *cpu);
void model_pmu_update(struct model_cpu *cpu);
void model_pmu_deliver_pmi(struct model_cpu *cpu);
uint64_t model_cmask_count(struct model_cpu *cpu, unsigned int ctr, uint64_t events,
			   uint64_t cycles);
int model_pmu_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val);
int model_pmu_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);

/* lbr.c (and model_lbr_push_encoded(), retire.h) */
void model_lbr_reset(struct model_cpu *cpu);
void model_lbr_update(struct model_cpu *cpu);
/* the ring slot behind a FROM/TO/INFO MSR, or NULL (msr.c asks this first) */
uint64_t *model_lbr_entry(struct model_cpu *cpu, uint32_t msr);
bool model_lbr_from_write_ok(const struct model_cpu *cpu, uint32_t msr, uint64_t val);
int model_lbr_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val);
int model_lbr_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);

#endif /* PMUSIM_MODEL_INTERNAL_H */
