/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tables of ABI facts for test_abi: one built against pmusim's
 * <pmusim/perf_event.h> (in test_abi.c), one against the host's
 * <linux/perf_event.h> (in abi_host_table.c). The two headers never meet
 * in one translation unit; the tables are what crosses over.
 *
 * An entry is one fact, named the way a kernel developer would write it:
 *   field		"perf_event_attr.sample_type": byte offset and size
 *   bit-field		"perf_event_attr.precise_ip": the bits that change in a
 *			zeroed object when the field is set to all ones, as
 *			the first byte touched, the number of bytes touched and
 *			a mask over those bytes (bit 0 = bit 0 of the first byte)
 *   sizeof		"sizeof(struct perf_event_header)"
 *   constant		"PERF_RECORD_SAMPLE": its value as a u64
 *   skipped		a fact one side cannot state, and why
 */
#ifndef PMUSIM_TESTS_ABI_TABLE_H
#define PMUSIM_TESTS_ABI_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* What each test compares; ABI_RFC is pmusim-only and never compared. */
enum abi_group {
	ABI_ATTR,
	ABI_MMAP_PAGE,
	ABI_HEADER,
	ABI_BRANCH_ENTRY,
	ABI_SMALL_TYPES,	/* ns link, query_bpf, mem_data_src, sample_weight */
	ABI_IOCTL,
	ABI_RECORD_TYPE,
	ABI_SAMPLE_TYPE,
	ABI_BRANCH_SAMPLE_TYPE,
	ABI_READ_FORMAT,
	ABI_CALLCHAIN_CONTEXT,
	ABI_RECORD_MISC,
	ABI_OTHER_CONSTANTS,
	ABI_RFC,
};

enum abi_kind {
	ABI_KIND_FIELD,
	ABI_KIND_BITFIELD,
	ABI_KIND_SIZEOF,
	ABI_KIND_CONST,
	ABI_KIND_SKIPPED,
};

struct abi_entry {
	enum abi_group	group;
	enum abi_kind	kind;
	const char	*name;
	const char	*why_skipped;	/* ABI_KIND_SKIPPED only */
	uint64_t	offset;		/* field: offsetof; bit-field: first byte touched */
	uint64_t	size;		/* field: sizeof; bit-field: bytes touched; sizeof */
	uint64_t	value;		/* bit-field: mask; constant: value */
};

#define ABI_TABLE_CAP	1024

struct abi_table {
	const char	*unavailable;	/* set: no facts, and this says why */
	size_t		n;
	int		overflowed;	/* more facts than ABI_TABLE_CAP */
	struct abi_entry e[ABI_TABLE_CAP];
};

/* Appending facts; abi_list.h calls these through its macros. */
void abi_add_field(struct abi_table *t, enum abi_group g, const char *name,
		   size_t offset, size_t size);
void abi_add_bits(struct abi_table *t, enum abi_group g, const char *name,
		  const void *obj, size_t obj_size);
void abi_add_sizeof(struct abi_table *t, enum abi_group g, const char *name,
		    size_t size);
void abi_add_const(struct abi_table *t, enum abi_group g, const char *name,
		   uint64_t value);
void abi_add_skipped(struct abi_table *t, enum abi_group g, const char *name,
		     const char *why);

/* The entry of group g called name, or NULL. */
const struct abi_entry *abi_find(const struct abi_table *t, enum abi_group g,
				 const char *name);

/*
 * A bit-field's position counted in bits from the start of its struct,
 * and its width. Returns 0 if the entry is no bit-field or its bits are
 * not contiguous.
 */
int abi_bit_range(const struct abi_entry *e, unsigned int *first,
		  unsigned int *width);

/* Whether two entries state the same fact. */
int abi_same(const struct abi_entry *a, const struct abi_entry *b);

/* Writes a one-line description of what e says into buf. */
void abi_describe(const struct abi_entry *e, char *buf, size_t len);

/* From abi_host_table.c: the facts as the host's header states them. */
const struct abi_table *abi_host_table(void);

#endif /* PMUSIM_TESTS_ABI_TABLE_H */
