// SPDX-License-Identifier: GPL-2.0-only
/* Where a recorded program's instructions start; see vg_code.h. */
#include <stdlib.h>
#include <string.h>

#include "sim/vg_code.h"

/* Fibonacci hashing: code addresses differ in their low bits, which this spreads. */
static inline uint64_t slot_of(const struct vg_code *c, uint64_t addr)
{
	return (addr * 0x9e3779b97f4a7c15ULL) >> 20 & c->mask;
}

static void put(struct vg_code *c, uint64_t addr, uint8_t len)
{
	uint64_t i = slot_of(c, addr);

	while (c->addr[i] && c->addr[i] != addr)
		i = (i + 1) & c->mask;
	if (!c->addr[i]) {
		c->addr[i] = addr;
		c->used++;
	}
	c->len[i] = len;
}

/* Room for @more entries at half load at most. 0, or -1 out of memory. */
static int reserve(struct vg_code *c, uint64_t more)
{
	uint64_t slots = c->addr ? c->mask + 1 : 0, n = slots ? slots : 1024;
	struct vg_code bigger = { 0 };

	if ((c->used + more) * 2 <= slots)
		return 0;
	while ((c->used + more) * 2 > n)
		n *= 2;
	bigger.addr = calloc(n, sizeof(*bigger.addr));
	bigger.len = malloc(n);
	if (!bigger.addr || !bigger.len) {
		vg_code_free(&bigger);
		return -1;
	}
	bigger.mask = n - 1;
	for (uint64_t i = 0; i < slots; i++)
		if (c->addr[i])
			put(&bigger, c->addr[i], c->len[i]);
	vg_code_free(c);
	*c = bigger;
	return 0;
}

int vg_code_add(struct vg_code *c, uint64_t addr, const uint8_t *lens, uint32_t n)
{
	if (reserve(c, n))
		return -1;
	for (uint32_t i = 0; i < n; addr += lens[i++])
		if (addr)
			put(c, addr, lens[i]);
	return 0;
}

unsigned int vg_code_len(const struct vg_code *c, uint64_t addr)
{
	uint64_t i;

	if (!c->addr || !addr)
		return 0;
	for (i = slot_of(c, addr); c->addr[i]; i = (i + 1) & c->mask)
		if (c->addr[i] == addr)
			return c->len[i];
	return 0;
}

void vg_code_free(struct vg_code *c)
{
	free(c->addr);
	free(c->len);
	memset(c, 0, sizeof(*c));
}
