/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where each instruction of a recorded program starts: the lengths the
 * Valgrind tool's VGS_CODE records give (vgtool/vgstream.h), by address.
 * A thread's instructions between two taken branches run straight from
 * the first one's target, so the address of its k-th instruction there is
 * that target stepped over k lengths: how a sample gets the exact
 * instruction a counter overflowed at, with no x86 decoder here.
 *
 * An open-addressed table of addresses and their lengths; a later length
 * for an address replaces the earlier one.
 */
#ifndef PMUSIM_SIM_VG_CODE_H
#define PMUSIM_SIM_VG_CODE_H

#include <stdint.h>

struct vg_code {
	uint64_t *addr;			/* 0: a free slot (no code is at address 0) */
	uint8_t *len;
	uint64_t mask;			/* slots - 1; the slots a power of two */
	uint64_t used;
};

/* @n instructions laid end to end from @addr, @lens their lengths. 0, or -1 out of memory. */
int vg_code_add(struct vg_code *c, uint64_t addr, const uint8_t *lens, uint32_t n);
/* The length of the instruction at @addr; 0 if none is known to start there. */
unsigned int vg_code_len(const struct vg_code *c, uint64_t addr);
void vg_code_free(struct vg_code *c);

#endif /* PMUSIM_SIM_VG_CODE_H */
