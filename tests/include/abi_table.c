// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helper of tests/include/test_abi.c: building, searching and printing
 * the ABI fact tables of abi_table.h. Knows nothing of either perf header.
 *
 * Test build convention: tests/<dir>/test_<name>.c is one cmocka program,
 * linked with every tests/<dir>/<name>_*.c helper beside it; so this file
 * and abi_host_table.c are linked into test_abi.
 */
#include <stdio.h>
#include <string.h>

#include "abi_table.h"

static struct abi_entry *abi_append(struct abi_table *t, enum abi_group g,
				    enum abi_kind kind, const char *name)
{
	struct abi_entry *e;

	if (t->n == ABI_TABLE_CAP) {
		t->overflowed = 1;
		return NULL;
	}
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->group = g;
	e->kind = kind;
	e->name = name;
	return e;
}

void abi_add_field(struct abi_table *t, enum abi_group g, const char *name,
		   size_t offset, size_t size)
{
	struct abi_entry *e = abi_append(t, g, ABI_KIND_FIELD, name);

	if (e) {
		e->offset = offset;
		e->size = size;
	}
}

void abi_add_bits(struct abi_table *t, enum abi_group g, const char *name,
		  const void *obj, size_t obj_size)
{
	struct abi_entry *e = abi_append(t, g, ABI_KIND_BITFIELD, name);
	const unsigned char *p = obj;
	size_t first = obj_size, last = 0, i;

	if (!e)
		return;
	for (i = 0; i < obj_size; i++) {
		if (!p[i])
			continue;
		if (first == obj_size)
			first = i;
		last = i;
	}
	if (first == obj_size)
		return;		/* nothing changed: size 0 never matches */

	e->offset = first;
	e->size = last - first + 1;
	/* Wider than a u64 is no bit-field; the size alone then disagrees. */
	for (i = first; i <= last && i - first < 8; i++)
		e->value |= (uint64_t)p[i] << (8 * (i - first));
}

void abi_add_sizeof(struct abi_table *t, enum abi_group g, const char *name,
		    size_t size)
{
	struct abi_entry *e = abi_append(t, g, ABI_KIND_SIZEOF, name);

	if (e)
		e->size = size;
}

void abi_add_const(struct abi_table *t, enum abi_group g, const char *name,
		   uint64_t value)
{
	struct abi_entry *e = abi_append(t, g, ABI_KIND_CONST, name);

	if (e)
		e->value = value;
}

void abi_add_skipped(struct abi_table *t, enum abi_group g, const char *name,
		     const char *why)
{
	struct abi_entry *e = abi_append(t, g, ABI_KIND_SKIPPED, name);

	if (e)
		e->why_skipped = why;
}

const struct abi_entry *abi_find(const struct abi_table *t, enum abi_group g,
				 const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].group == g && !strcmp(t->e[i].name, name))
			return &t->e[i];
	return NULL;
}

int abi_bit_range(const struct abi_entry *e, unsigned int *first,
		  unsigned int *width)
{
	uint64_t m = e->value;
	unsigned int lo = 0, n = 0;

	if (e->kind != ABI_KIND_BITFIELD || !m)
		return 0;
	while (!(m & 1)) {
		m >>= 1;
		lo++;
	}
	while (m & 1) {
		m >>= 1;
		n++;
	}
	if (m)
		return 0;	/* a gap: not one field */
	*first = 8 * (unsigned int)e->offset + lo;
	*width = n;
	return 1;
}

int abi_same(const struct abi_entry *a, const struct abi_entry *b)
{
	return a->kind == b->kind && a->offset == b->offset &&
	       a->size == b->size && a->value == b->value;
}

void abi_describe(const struct abi_entry *e, char *buf, size_t len)
{
	unsigned int first, width;

	switch (e->kind) {
	case ABI_KIND_FIELD:
		snprintf(buf, len, "offset %llu, size %llu",
			 (unsigned long long)e->offset,
			 (unsigned long long)e->size);
		break;
	case ABI_KIND_BITFIELD:
		if (abi_bit_range(e, &first, &width))
			snprintf(buf, len, "bits %u..%u of the struct (mask %#llx from byte %llu)",
				 first, first + width - 1,
				 (unsigned long long)e->value,
				 (unsigned long long)e->offset);
		else
			snprintf(buf, len, "%llu bytes from byte %llu, mask %#llx",
				 (unsigned long long)e->size,
				 (unsigned long long)e->offset,
				 (unsigned long long)e->value);
		break;
	case ABI_KIND_SIZEOF:
		snprintf(buf, len, "%llu bytes", (unsigned long long)e->size);
		break;
	case ABI_KIND_CONST:
		snprintf(buf, len, "%#llx", (unsigned long long)e->value);
		break;
	case ABI_KIND_SKIPPED:
		snprintf(buf, len, "not stated: %s", e->why_skipped);
		break;
	}
}
