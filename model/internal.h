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
#define MODEL_MAX_LBR		32

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

/* One enabled counter in a per-privilege counting list. */
struct model_counting {
	uint8_t ctr;		/* dense index */
	uint8_t cls;		/* enum model_event_class */
};

struct model_cpu {
	const struct model_cpu_desc *desc;
	int cpu_id;
	model_pmi_fn pmi;
	void *pmi_ctx;

	/* time */
	uint64_t tsc;
	uint64_t tsc_rem;	/* carried remainder of cycles * tsc_khz / core_khz */
	uint64_t cycles;	/* unhalted core cycles */
	uint32_t tsc_khz, core_khz;

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
	uint64_t nr_pmis;

	/* LBR: one ring for legacy and Arch LBR, in MSR encoding */
	uint64_t lbr_from[MODEL_MAX_LBR];
	uint64_t lbr_to[MODEL_MAX_LBR];
	uint64_t lbr_info[MODEL_MAX_LBR];
	unsigned int lbr_tos;		/* legacy TOS; Arch LBR: slot of entry 0 */
	unsigned int lbr_depth;		/* legacy lbr_nr; Arch LBR: MSR_ARCH_LBR_DEPTH */
	uint64_t lbr_select;
	uint64_t arch_lbr_ctl;
	uint64_t lbr_cycles;		/* core cycles since the last LBR record */
	bool lbr_cyc_valid;		/* Arch LBR: CYC_CNT_VALID for the next record */
	/* Derived: branch types (bit per enum model_branch_type) to record, per [user] */
	uint16_t lbr_capture[2];
	bool lbr_call_stack;
};

static inline unsigned int model_status_bit(unsigned int ctr)
{
	return ctr < MODEL_FIXED_BASE ? ctr : INTEL_PMC_IDX_FIXED + ctr - MODEL_FIXED_BASE;
}

/* pmu.c */
void model_pmu_reset(struct model_cpu *cpu);
void model_pmu_update(struct model_cpu *cpu);
void model_pmu_deliver_pmi(struct model_cpu *cpu);
uint64_t model_cmask_count(struct model_cpu *cpu, unsigned int ctr, uint64_t events,
			   uint64_t cycles);
int model_pmu_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val);
int model_pmu_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);

/* lbr.c */
void model_lbr_reset(struct model_cpu *cpu);
void model_lbr_update(struct model_cpu *cpu);
void model_lbr_record(struct model_cpu *cpu, uint64_t from, uint64_t to,
		      enum model_branch_type type, bool mispred);
int model_lbr_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val);
int model_lbr_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val);

#endif /* PMUSIM_MODEL_INTERNAL_H */
