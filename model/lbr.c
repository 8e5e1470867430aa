// SPDX-License-Identifier: GPL-2.0-only
/*
 * Last Branch Records: the legacy, model-specific LBR (DEBUGCTL.LBR,
 * LBR_SELECT, LBR_TOS, FROM/TO/INFO at the model's bases) and the
 * Architectural LBR (ARCH_LBR_CTL, ARCH_LBR_DEPTH, no TOS).
 *
 * Both are one ring of lbr_depth slots holding the MSR encodings.  The
 * legacy MSRs expose the slots as they are, with lbr_tos pointing at the
 * newest; Arch LBR shows entry i as slot (lbr_tos - i) mod depth, so that
 * entry 0 is always the newest and a new record moves the others down.
 */
#include <errno.h>
#include <string.h>

#include "model/internal.h"
#include "model/msr-index.h"

_Static_assert(MODEL_LBR_INFO_CYCLES == LBR_INFO_CYCLES, "retire.h saturates as LBR_INFO does");

#define ALL_BRANCH_TYPES	((1u << MODEL_BR__NR) - 1)

/* LBR_SELECT suppress bit (legacy) and ARCH_LBR_CTL capture bit per type */
static const uint64_t lbr_select_bit[MODEL_BR__NR] = {
	[MODEL_BR_JCC] = LBR_JCC,
	[MODEL_BR_NEAR_REL_JMP] = LBR_REL_JMP,
	[MODEL_BR_NEAR_IND_JMP] = LBR_IND_JMP,
	[MODEL_BR_NEAR_REL_CALL] = LBR_REL_CALL,
	[MODEL_BR_NEAR_IND_CALL] = LBR_IND_CALL,
	[MODEL_BR_NEAR_RET] = LBR_RETURN,
	[MODEL_BR_FAR] = LBR_FAR,
};

static const uint64_t arch_lbr_ctl_bit[MODEL_BR__NR] = {
	[MODEL_BR_JCC] = ARCH_LBR_JCC,
	[MODEL_BR_NEAR_REL_JMP] = ARCH_LBR_REL_JMP,
	[MODEL_BR_NEAR_IND_JMP] = ARCH_LBR_IND_JMP,
	[MODEL_BR_NEAR_REL_CALL] = ARCH_LBR_REL_CALL,
	[MODEL_BR_NEAR_IND_CALL] = ARCH_LBR_IND_CALL,
	[MODEL_BR_NEAR_RET] = ARCH_LBR_RETURN,
	[MODEL_BR_FAR] = ARCH_LBR_OTHER_BRANCH,
};

static const uint8_t arch_lbr_br_type[MODEL_BR__NR] = {
	[MODEL_BR_JCC] = ARCH_LBR_BR_TYPE_JCC,
	[MODEL_BR_NEAR_REL_JMP] = ARCH_LBR_BR_TYPE_NEAR_REL_JMP,
	[MODEL_BR_NEAR_IND_JMP] = ARCH_LBR_BR_TYPE_NEAR_IND_JMP,
	[MODEL_BR_NEAR_REL_CALL] = ARCH_LBR_BR_TYPE_NEAR_REL_CALL,
	[MODEL_BR_NEAR_IND_CALL] = ARCH_LBR_BR_TYPE_NEAR_IND_CALL,
	[MODEL_BR_NEAR_RET] = ARCH_LBR_BR_TYPE_NEAR_RET,
	[MODEL_BR_FAR] = ARCH_LBR_BR_TYPE_OTHER,
};

#define ARCH_LBR_CTL_BITS	(ARCH_LBR_CTL_LBREN | ARCH_LBR_CTL_CPL | ARCH_LBR_CTL_STACK | \
				 ARCH_LBR_CTL_FILTER)

static void model_lbr_clear(struct model_cpu *cpu)
{
	memset(cpu->rt.lbr_from, 0, sizeof(cpu->rt.lbr_from));
	memset(cpu->rt.lbr_to, 0, sizeof(cpu->rt.lbr_to));
	memset(cpu->rt.lbr_info, 0, sizeof(cpu->rt.lbr_info));
	cpu->rt.lbr_tos = 0;
	cpu->rt.lbr_mark = cpu->rt.clock;
	cpu->lbr_cyc_valid = false;
}

/* The entry MSRs' ranges: the model's bases, or Arch LBR's up to the current depth. */
static void model_lbr_entry_ranges(struct model_cpu *cpu)
{
	const struct model_cpu_desc *d = cpu->desc;

	if (d->arch_lbr) {
		cpu->lbr_msr_from = MSR_ARCH_LBR_FROM_0;
		cpu->lbr_msr_to = MSR_ARCH_LBR_TO_0;
		cpu->lbr_msr_info = MSR_ARCH_LBR_INFO_0;
		/* entries beyond the current depth #GP */
		cpu->lbr_msr_nr = cpu->lbr_msr_info_nr = cpu->rt.lbr_depth;
		return;
	}
	cpu->lbr_msr_from = d->lbr_from;
	cpu->lbr_msr_to = d->lbr_to;
	cpu->lbr_msr_info = MSR_LBR_INFO_0;
	cpu->lbr_msr_nr = d->lbr_nr;
	cpu->lbr_msr_info_nr = d->has_lbr_info ? d->lbr_nr : 0;
}

void model_lbr_reset(struct model_cpu *cpu)
{
	model_lbr_clear(cpu);
	cpu->rt.lbr_depth = cpu->desc->lbr_nr;	/* ARCH_LBR_DEPTH resets to the maximum */
	model_lbr_entry_ranges(cpu);
	cpu->lbr_format = (uint8_t)cpu->desc->lbr_format;
	cpu->lbr_from_signext = !cpu->desc->arch_lbr && !cpu->desc->has_tsx &&
				cpu->lbr_format == LBR_FORMAT_EIP_FLAGS2;
	cpu->rt.lbr_info_format = cpu->lbr_format == LBR_FORMAT_INFO ||
				  cpu->lbr_format == LBR_FORMAT_INFO2;
	for (unsigned int t = 0; t < MODEL_BR__NR; t++)
		cpu->lbr_info_br_type[t] = (uint64_t)arch_lbr_br_type[t] << LBR_INFO_BR_TYPE_OFFSET;
	cpu->lbr_select = 0;
	cpu->arch_lbr_ctl = 0;
}

static bool model_lbr_frozen(const struct model_cpu *cpu)
{
	return cpu->desc->pmu_version >= 4 &&
	       (cpu->global_status & GLOBAL_STATUS_LBRS_FROZEN);
}

void model_lbr_update(struct model_cpu *cpu)
{
	const struct model_cpu_desc *d = cpu->desc;
	unsigned int types = 0;

	cpu->rt.lbr_capture[0] = cpu->rt.lbr_capture[1] = 0;
	cpu->rt.lbr_pop_type = MODEL_BR__NR;
	if (!d->lbr_nr || model_lbr_frozen(cpu))
		return;

	if (d->arch_lbr) {
		uint64_t ctl = cpu->arch_lbr_ctl;

		if (!(ctl & ARCH_LBR_CTL_LBREN))
			return;
		/* Positive sense: no type bit set records nothing. */
		for (unsigned int t = 0; t < MODEL_BR__NR; t++)
			if (ctl & arch_lbr_ctl_bit[t])
				types |= 1u << t;
		cpu->rt.lbr_capture[0] = ctl & ARCH_LBR_KERNEL ? types : 0;
		cpu->rt.lbr_capture[1] = ctl & ARCH_LBR_USER ? types : 0;
		if (ctl & ARCH_LBR_CTL_STACK)
			cpu->rt.lbr_pop_type = MODEL_BR_NEAR_RET;
		return;
	}

	/* DEBUGCTL.LBR is ignored on Arch LBR parts, required here. */
	if (!(cpu->debugctl & DEBUGCTLMSR_LBR))
		return;
	if (!d->has_lbr_select) {
		cpu->rt.lbr_capture[0] = cpu->rt.lbr_capture[1] = ALL_BRANCH_TYPES;
		return;
	}
	for (unsigned int t = 0; t < MODEL_BR__NR; t++)
		if (!(cpu->lbr_select & lbr_select_bit[t]))
			types |= 1u << t;
	cpu->rt.lbr_capture[0] = cpu->lbr_select & LBR_KERNEL ? 0 : types;
	cpu->rt.lbr_capture[1] = cpu->lbr_select & LBR_USER ? 0 : types;
	if (d->has_lbr_callstack && (cpu->lbr_select & LBR_CALL_STACK))
		cpu->rt.lbr_pop_type = MODEL_BR_NEAR_RET;
}

/*
 * A push in the formats other than INFO and INFO2, the branch's cycles
 * since the last record given (retire.h's model_lbr_record() records
 * those two itself, and the call-stack pop).  TOS moves to the next slot; the record is encoded as
 * the format's MSRs hold it.
 */
void model_lbr_push_encoded(struct model_cpu *cpu, uint64_t from, uint64_t to,
			    enum model_branch_type type, bool mispred, uint64_t cycles)
{
	struct model_retire_state *rs = &cpu->rt;
	unsigned int slot = rs->lbr_tos + 1 == rs->lbr_depth ? 0 : rs->lbr_tos + 1;
	uint64_t mis = mispred;
	uint64_t info = 0;

	if (cycles > LBR_INFO_CYCLES)	/* the count saturates */
		cycles = LBR_INFO_CYCLES;
	rs->lbr_tos = slot;
	switch (cpu->lbr_format) {
	case LBR_FORMAT_32:
		from = (to & 0xffffffffULL) << 32 | (from & 0xffffffffULL);
		to &= 0xffffffffULL;
		break;
	case LBR_FORMAT_EIP_FLAGS:
		from = (from & ~(1ULL << 63)) | mis << 63;
		break;
	case LBR_FORMAT_EIP_FLAGS2:
		from = (from & ~(7ULL << 61)) | mis << 63;	/* no TSX: IN_TX = ABORT = 0 */
		break;
	case LBR_FORMAT_TIME:
		from = (from & ~(1ULL << 63)) | mis << 63;
		to = (to & 0xffffffffffffULL) | cycles << 48;
		break;
	case LBR_FORMAT_ARCH_LBR:
		info = mis << 63 | cycles | cpu->lbr_info_br_type[type] |
		       (cpu->lbr_cyc_valid ? LBR_INFO_CYC_CNT_VALID : 0);
		cpu->lbr_cyc_valid = true;
		break;
	default:	/* LIP, EIP: plain addresses */
		break;
	}
	rs->lbr_from[slot] = from;
	rs->lbr_to[slot] = to;
	rs->lbr_info[slot] = info;
}

/* ---- MSRs ---------------------------------------------------------------- */

/* ARCH_LBR_CTL bits this CPU takes: a filter CPUID.1CH:EBX does not list #GPs. */
static uint64_t model_arch_lbr_ctl_bits(const struct model_cpu_desc *d)
{
	uint64_t bits = ARCH_LBR_CTL_BITS;

	if (!(d->arch_lbr_caps & 0x1))
		bits &= ~ARCH_LBR_CTL_CPL;
	if (!(d->arch_lbr_caps & 0x2))
		bits &= ~ARCH_LBR_CTL_FILTER;
	if (!(d->arch_lbr_caps & 0x4))
		bits &= ~ARCH_LBR_CTL_STACK;
	return bits;
}

/*
 * A write to a FROM MSR where cpu->lbr_from_signext (EIP_FLAGS2 without
 * TSX): bits 62:61 are part of the sign extension (copies of bit 60)
 * though captures leave them 0, so writing back what was read #GPs for
 * an address with bit 60 set.
 */
bool model_lbr_from_write_ok(const struct model_cpu *cpu, uint32_t msr, uint64_t val)
{
	uint64_t top = val >> 60 & 7;

	return msr - cpu->lbr_msr_from >= cpu->lbr_msr_nr || top == 0 || top == 7;
}

/*
 * The ring slot behind a FROM/TO/INFO MSR, or NULL.  The driver reads
 * every entry at every PMI, so the MSR ranges are at hand (lbr_msr_*, set
 * at reset and by an Arch LBR depth write): three unsigned compares.
 */
uint64_t *model_lbr_entry(struct model_cpu *cpu, uint32_t msr)
{
	struct model_retire_state *rs = &cpu->rt;
	uint64_t *array;
	unsigned int i;

	if (msr - cpu->lbr_msr_from < cpu->lbr_msr_nr) {
		array = rs->lbr_from;
		i = msr - cpu->lbr_msr_from;
	} else if (msr - cpu->lbr_msr_to < cpu->lbr_msr_nr) {
		array = rs->lbr_to;
		i = msr - cpu->lbr_msr_to;
	} else if (msr - cpu->lbr_msr_info < cpu->lbr_msr_info_nr) {
		array = rs->lbr_info;
		i = msr - cpu->lbr_msr_info;
	} else {
		return NULL;
	}
	if (cpu->desc->arch_lbr)	/* entry i is the i-th newest */
		i = rs->lbr_tos >= i ? rs->lbr_tos - i : rs->lbr_tos + rs->lbr_depth - i;
	return &array[i];
}

int model_lbr_rdmsr(struct model_cpu *cpu, uint32_t msr, uint64_t *val)
{
	const struct model_cpu_desc *d = cpu->desc;

	switch (msr) {
	case MSR_LBR_SELECT:
		if (!d->has_lbr_select)
			return -EIO;
		*val = cpu->lbr_select;
		return 0;
	case MSR_LBR_TOS:
		if (d->arch_lbr || !d->lbr_nr)
			return -EIO;
		*val = cpu->rt.lbr_tos;
		return 0;
	case MSR_ARCH_LBR_CTL:
		if (!d->arch_lbr)
			return -EIO;
		*val = cpu->arch_lbr_ctl;
		return 0;
	case MSR_ARCH_LBR_DEPTH:
		if (!d->arch_lbr)
			return -EIO;
		*val = cpu->rt.lbr_depth;
		return 0;
	default:
		return -EIO;
	}
}

int model_lbr_wrmsr(struct model_cpu *cpu, uint32_t msr, uint64_t val)
{
	const struct model_cpu_desc *d = cpu->desc;

	switch (msr) {
	case MSR_LBR_SELECT: {
		uint64_t bits = LBR_KERNEL | LBR_USER | LBR_JCC | LBR_REL_CALL | LBR_IND_CALL |
				LBR_RETURN | LBR_IND_JMP | LBR_REL_JMP | LBR_FAR;

		if (d->has_lbr_callstack)
			bits |= LBR_CALL_STACK;
		if (!d->has_lbr_select || (val & ~bits))
			return -EIO;
		cpu->lbr_select = val;
		model_lbr_update(cpu);
		return 0;
	}
	case MSR_LBR_TOS:
		/* Writable where call-stack contexts are restored (HSW+). */
		if (d->arch_lbr || !d->has_lbr_callstack || val >= d->lbr_nr)
			return -EIO;
		cpu->rt.lbr_tos = (unsigned int)val;
		return 0;
	case MSR_ARCH_LBR_CTL:
		if (!d->arch_lbr || (val & ~model_arch_lbr_ctl_bits(d)))
			return -EIO;
		if ((val & ARCH_LBR_CTL_LBREN) && !(cpu->arch_lbr_ctl & ARCH_LBR_CTL_LBREN)) {
			cpu->rt.lbr_mark = cpu->rt.clock;
			cpu->lbr_cyc_valid = false;
		}
		cpu->arch_lbr_ctl = val;
		model_lbr_update(cpu);
		return 0;
	case MSR_ARCH_LBR_DEPTH:
		if (!d->arch_lbr || !val || val % 8 || val > d->lbr_nr)
			return -EIO;
		model_lbr_clear(cpu);
		cpu->rt.lbr_depth = (unsigned int)val;
		model_lbr_entry_ranges(cpu);
		return 0;
	default:
		return -EIO;
	}
}
