/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The LBR's per-branch step: writing one record, or popping one in
 * call-stack mode.  It runs for every recorded branch, so it is inline in
 * the retire path (retire.c); the LBR's registers, filters and the
 * precomputed state it reads (lbr_pop_type, lbr_info_br_type) are lbr.c's.
 */
#ifndef PMUSIM_MODEL_LBR_RECORD_H
#define PMUSIM_MODEL_LBR_RECORD_H

#include "model/internal.h"

/*
 * For a branch that passed the filter.  In call-stack mode a near return
 * pops: the newest record is cleared (FROM == 0 is where the driver stops
 * reading) and TOS steps back; a push beyond the depth overwrites the
 * oldest frame without a trace.  Outside call-stack mode lbr_pop_type is
 * MODEL_BR__NR, which no branch has.
 */
static inline void model_lbr_record(struct model_cpu *cpu, uint64_t from, uint64_t to,
				    enum model_branch_type type, bool mispred)
{
	unsigned int slot = cpu->lbr_tos;
	uint64_t cycles = cpu->lbr_cycles;
	uint64_t mis = mispred;
	uint64_t info = 0;

	cpu->lbr_cycles = 0;
	if (type == cpu->lbr_pop_type) {
		cpu->lbr_from[slot] = cpu->lbr_to[slot] = cpu->lbr_info[slot] = 0;
		cpu->lbr_tos = (slot ? slot : cpu->lbr_depth) - 1;
		return;
	}
	if (cycles > LBR_INFO_CYCLES)	/* the count saturates */
		cycles = LBR_INFO_CYCLES;
	slot = slot + 1 == cpu->lbr_depth ? 0 : slot + 1;
	cpu->lbr_tos = slot;

	switch (cpu->lbr_format) {
	case LBR_FORMAT_INFO:
	case LBR_FORMAT_INFO2:
		info = mis << 63 | cycles;
		break;
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
	cpu->lbr_from[slot] = from;
	cpu->lbr_to[slot] = to;
	cpu->lbr_info[slot] = info;
}

#endif /* PMUSIM_MODEL_LBR_RECORD_H */
