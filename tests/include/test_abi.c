// SPDX-License-Identifier: GPL-2.0-only
/*
 * include/pmusim/perf_event.h against the ABI it claims to be.
 *
 * The *_match_host tests compare every fact of abi_list.h (field offsets
 * and sizes, bit-field masks, struct sizes, constants) with the same
 * facts built from the host's <linux/perf_event.h> in abi_host_table.c.
 * A fact the host header is too old to have is not compared; each such
 * fact is noted in one line. Without a host header these tests are
 * skipped, and the reason is printed once.
 *
 * The remaining tests need no host header: they check the fixed points
 * of the layout (size versions, 1 KiB user page, ioctl encoding, bit
 * positions that other constants describe) and the RFC extensions in
 * whichever Kconfig configuration this is built with.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pmusim/perf_event.h>

#define ABI_SIDE_PMUSIM		1
#define ABI_SIDE_HAS(maj, min)	1
#include "abi_list.h"

static struct abi_table pmusim_table;

static int build_pmusim_table(void **state)
{
	(void)state;
	abi_fill(&pmusim_table);
	return pmusim_table.overflowed ? -1 : 0;
}

static const char *group_name(enum abi_group g)
{
	switch (g) {
	case ABI_ATTR:			return "struct perf_event_attr";
	case ABI_MMAP_PAGE:		return "struct perf_event_mmap_page";
	case ABI_HEADER:		return "struct perf_event_header";
	case ABI_BRANCH_ENTRY:		return "struct perf_branch_entry";
	case ABI_SMALL_TYPES:		return "ns link, query_bpf, mem_data_src, sample_weight";
	case ABI_IOCTL:			return "ioctl numbers";
	case ABI_RECORD_TYPE:		return "record types";
	case ABI_SAMPLE_TYPE:		return "sample_type bits";
	case ABI_BRANCH_SAMPLE_TYPE:	return "branch_sample_type bits";
	case ABI_READ_FORMAT:		return "read_format bits";
	case ABI_CALLCHAIN_CONTEXT:	return "callchain contexts";
	case ABI_RECORD_MISC:		return "header.misc bits";
	case ABI_OTHER_CONSTANTS:	return "other constants";
	case ABI_RFC:			return "RFC extensions";
	}
	return "?";
}

/*
 * Compares group g of both tables, printing every disagreement before
 * failing, so one run shows them all.
 */
static void expect_group_matches_host(enum abi_group g)
{
	static int told_why_skipped;
	const struct abi_table *host = abi_host_table();
	unsigned int compared = 0, bad = 0;
	char mine[160], theirs[160];
	size_t i;

	if (host->unavailable) {
		if (!told_why_skipped)
			print_message("skipped: %s\n", host->unavailable);
		told_why_skipped = 1;
		skip();
	}
	assert_false(host->overflowed);

	for (i = 0; i < pmusim_table.n; i++) {
		const struct abi_entry *p = &pmusim_table.e[i];
		const struct abi_entry *h;

		if (p->group != g)
			continue;
		h = abi_find(host, g, p->name);
		if (!h) {
			print_error("%s: missing from the host table\n", p->name);
			bad++;
			continue;
		}
		if (p->kind == ABI_KIND_SKIPPED || h->kind == ABI_KIND_SKIPPED) {
			const struct abi_entry *s = p->kind == ABI_KIND_SKIPPED ? p : h;

			print_message("note: %s not compared (%s: %s)\n", p->name,
				      s == p ? "pmusim" : "host", s->why_skipped);
			continue;
		}
		compared++;
		if (abi_same(p, h))
			continue;
		abi_describe(p, mine, sizeof(mine));
		abi_describe(h, theirs, sizeof(theirs));
		print_error("%s: pmusim has %s, host has %s\n", p->name, mine, theirs);
		bad++;
	}
	for (i = 0; i < host->n; i++) {
		const struct abi_entry *h = &host->e[i];

		if (h->group == g && !abi_find(&pmusim_table, g, h->name)) {
			print_error("%s: missing from pmusim's table\n", h->name);
			bad++;
		}
	}
	if (bad)
		print_error("%s: %u of %u facts differ\n", group_name(g), bad, compared);
	assert_int_equal(bad, 0);
	assert_true(compared > 0);
}

static void test_attr_layout_matches_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_ATTR);
}

static void test_mmap_page_layout_matches_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_MMAP_PAGE);
}

static void test_header_layout_matches_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_HEADER);
}

static void test_branch_entry_layout_matches_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_BRANCH_ENTRY);
}

static void test_small_types_layout_matches_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_SMALL_TYPES);
}

static void test_ioctl_numbers_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_IOCTL);
}

static void test_record_types_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_RECORD_TYPE);
}

static void test_sample_type_bits_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_SAMPLE_TYPE);
}

static void test_branch_sample_type_bits_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_BRANCH_SAMPLE_TYPE);
}

static void test_read_format_bits_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_READ_FORMAT);
}

static void test_callchain_contexts_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_CALLCHAIN_CONTEXT);
}

static void test_record_misc_bits_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_RECORD_MISC);
}

static void test_other_constants_match_host(void **state)
{
	(void)state;
	expect_group_matches_host(ABI_OTHER_CONSTANTS);
}

/* ------------------------------------------------------------------ */

#define end_of(T, F)	(offsetof(T, F) + sizeof(((T *)0)->F))

/* Bits first..first+width-1 of the struct, counted from its first byte. */
static void expect_bits(enum abi_group g, const char *name,
			unsigned int first, unsigned int width)
{
	const struct abi_entry *e = abi_find(&pmusim_table, g, name);
	unsigned int got_first, got_width;

	assert_non_null(e);
	assert_true(abi_bit_range(e, &got_first, &got_width));
	if (got_first != first || got_width != width)
		print_error("%s: bits %u..%u, expected %u..%u\n", name,
			    got_first, got_first + got_width - 1,
			    first, first + width - 1);
	assert_int_equal(got_first, first);
	assert_int_equal(got_width, width);
}

/* Each PERF_ATTR_SIZE_VERn ends exactly at the last field it added. */
static void test_attr_size_versions_end_at_their_fields(void **state)
{
	typedef struct perf_event_attr A;

	(void)state;
	assert_int_equal(PERF_ATTR_SIZE_VER0, end_of(A, config1));
	assert_int_equal(PERF_ATTR_SIZE_VER1, end_of(A, config2));
	assert_int_equal(PERF_ATTR_SIZE_VER2, end_of(A, branch_sample_type));
	assert_int_equal(PERF_ATTR_SIZE_VER3, end_of(A, clockid));
	assert_int_equal(PERF_ATTR_SIZE_VER4, end_of(A, sample_regs_intr));
	assert_int_equal(PERF_ATTR_SIZE_VER5, end_of(A, __reserved_2));
	assert_int_equal(PERF_ATTR_SIZE_VER6, end_of(A, aux_action));
	assert_int_equal(PERF_ATTR_SIZE_VER7, end_of(A, sig_data));
	assert_int_equal(PERF_ATTR_SIZE_VER8, end_of(A, config3));
	assert_int_equal(PERF_ATTR_SIZE_MAX, sizeof(A));
}

static void test_alt_sample_period_follows_config3(void **state)
{
	(void)state;
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	assert_int_equal(offsetof(struct perf_event_attr, alternative_sample_period), 136);
	assert_int_equal(sizeof(((struct perf_event_attr *)0)->alternative_sample_period), 8);
	assert_int_equal(PERF_ATTR_SIZE_VER9, 144);
	assert_int_equal(PERF_ATTR_SIZE_MAX, 144);
	assert_int_equal(sizeof(struct perf_event_attr), 144);
#else
#ifdef PERF_ATTR_SIZE_VER9
	fail_msg("PERF_ATTR_SIZE_VER9 defined without CONFIG_PERF_ALT_SAMPLE_PERIOD");
#endif
	/* The plain v6.12 struct. */
	assert_int_equal(PERF_ATTR_SIZE_MAX, 136);
	assert_int_equal(sizeof(struct perf_event_attr), 136);
#endif
}

/* The flags word follows read_format; sigtrap is its bit 37. */
static void test_hw_time_is_the_bit_after_sigtrap(void **state)
{
	const unsigned int flags = 8 * end_of(struct perf_event_attr, read_format);

	(void)state;
	assert_int_equal(flags, 8 * 40);
	expect_bits(ABI_ATTR, "perf_event_attr.disabled", flags + 0, 1);
	expect_bits(ABI_ATTR, "perf_event_attr.precise_ip", flags + 15, 2);
	expect_bits(ABI_ATTR, "perf_event_attr.sigtrap", flags + 37, 1);
#ifdef CONFIG_PERF_HW_TIME
	expect_bits(ABI_RFC, "perf_event_attr.hw_time", flags + 38, 1);
	expect_bits(ABI_RFC, "perf_event_attr.__reserved_1", flags + 39, 25);
#else
	expect_bits(ABI_ATTR, "perf_event_attr.__reserved_1", flags + 38, 26);
#endif
	/* Either way the flags stay within their u64. */
	assert_int_equal(offsetof(struct perf_event_attr, wakeup_events), 48);
}

/*
 * time_mask is at 88; the RFC's 32 bytes of time_mono_* follow it at 96
 * and the reserved hole shrinks by as much, leaving data_head at 1024.
 */
static void test_mono_raw_fields_follow_time_mask(void **state)
{
	typedef struct perf_event_mmap_page P;
	const unsigned int caps = 8 * offsetof(P, capabilities);

	(void)state;
	assert_int_equal(offsetof(P, time_mask), 88);
	expect_bits(ABI_MMAP_PAGE, "perf_event_mmap_page.cap_user_time_short", caps + 5, 1);
#ifdef CONFIG_PERF_HW_TIME
	expect_bits(ABI_RFC, "perf_event_mmap_page.cap_user_time_mono_raw", caps + 6, 1);
	expect_bits(ABI_RFC, "perf_event_mmap_page.cap_____res", caps + 7, 57);
	assert_int_equal(offsetof(P, time_mono_last), end_of(P, time_mask));
	assert_int_equal(offsetof(P, time_mono_last), 96);
	assert_int_equal(sizeof(((P *)0)->time_mono_last), 8);
	assert_int_equal(offsetof(P, time_mono_mult), 104);
	assert_int_equal(sizeof(((P *)0)->time_mono_mult), 4);
	assert_int_equal(offsetof(P, time_mono_shift), 108);
	assert_int_equal(sizeof(((P *)0)->time_mono_shift), 4);
	assert_int_equal(offsetof(P, time_mono_nsec), 112);
	assert_int_equal(offsetof(P, time_mono_base), 120);
	assert_int_equal(offsetof(P, __reserved), 128);
	assert_int_equal(sizeof(((P *)0)->__reserved), 112 * 8);
#else
	expect_bits(ABI_MMAP_PAGE, "perf_event_mmap_page.cap_____res", caps + 6, 58);
	assert_int_equal(offsetof(P, __reserved), 96);
	assert_int_equal(sizeof(((P *)0)->__reserved), 116 * 8);
#endif
	assert_int_equal(end_of(P, __reserved), 1024);
	assert_int_equal(offsetof(P, data_head), 1024);
	assert_int_equal(sizeof(P), 1024 + 8 * 8);
}

/* The numbers x86 Linux uses, written out rather than recomputed. */
static void test_ioctl_numbers_use_generic_encoding(void **state)
{
	/* SET_FILTER, ID, QUERY_BPF and MODIFY_ATTRIBUTES take a pointer. */
	const unsigned int ptr = (unsigned int)sizeof(void *) << 16;

	(void)state;
	assert_int_equal(PERF_EVENT_IOC_ENABLE, 0x2400);
	assert_int_equal(PERF_EVENT_IOC_DISABLE, 0x2401);
	assert_int_equal(PERF_EVENT_IOC_REFRESH, 0x2402);
	assert_int_equal(PERF_EVENT_IOC_RESET, 0x2403);
	assert_int_equal(PERF_EVENT_IOC_PERIOD, 0x40082404);
	assert_int_equal(PERF_EVENT_IOC_SET_OUTPUT, 0x2405);
	assert_int_equal(PERF_EVENT_IOC_SET_FILTER, 0x40002406 | ptr);
	assert_int_equal(PERF_EVENT_IOC_ID, 0x80002407 | ptr);
	assert_int_equal(PERF_EVENT_IOC_SET_BPF, 0x40042408);
	assert_int_equal(PERF_EVENT_IOC_PAUSE_OUTPUT, 0x40042409);
	assert_int_equal(PERF_EVENT_IOC_QUERY_BPF, 0xc000240a | ptr);
	assert_int_equal(PERF_EVENT_IOC_MODIFY_ATTRIBUTES, 0x4000240b | ptr);
	if (sizeof(void *) == 8) {
		assert_int_equal(PERF_EVENT_IOC_SET_FILTER, 0x40082406);
		assert_int_equal(PERF_EVENT_IOC_QUERY_BPF, 0xc008240a);
	}
}

/* Each data_src bit-field starts where its PERF_MEM_*_SHIFT says. */
static void test_mem_data_src_fields_sit_at_their_shifts(void **state)
{
	const enum abi_group g = ABI_SMALL_TYPES;

	(void)state;
	expect_bits(g, "perf_mem_data_src.mem_op", PERF_MEM_OP_SHIFT, 5);
	expect_bits(g, "perf_mem_data_src.mem_lvl", PERF_MEM_LVL_SHIFT, 14);
	expect_bits(g, "perf_mem_data_src.mem_snoop", PERF_MEM_SNOOP_SHIFT, 5);
	expect_bits(g, "perf_mem_data_src.mem_lock", PERF_MEM_LOCK_SHIFT, 2);
	expect_bits(g, "perf_mem_data_src.mem_dtlb", PERF_MEM_TLB_SHIFT, 7);
	expect_bits(g, "perf_mem_data_src.mem_lvl_num", PERF_MEM_LVLNUM_SHIFT, 4);
	expect_bits(g, "perf_mem_data_src.mem_remote", PERF_MEM_REMOTE_SHIFT, 1);
	expect_bits(g, "perf_mem_data_src.mem_snoopx", PERF_MEM_SNOOPX_SHIFT, 2);
	expect_bits(g, "perf_mem_data_src.mem_blk", PERF_MEM_BLK_SHIFT, 3);
	expect_bits(g, "perf_mem_data_src.mem_hops", PERF_MEM_HOPS_SHIFT, 3);
	expect_bits(g, "perf_mem_data_src.mem_rsvd", 46, 18);

	/* PERF_MEM_S() lands a value in its field. */
	{
		union perf_mem_data_src src = { .val = PERF_MEM_S(LVLNUM, L3) |
						       PERF_MEM_S(SNOOPX, PEER) };

		assert_int_equal(src.mem_lvl_num, PERF_MEM_LVLNUM_L3);
		assert_int_equal(src.mem_snoopx, PERF_MEM_SNOOPX_PEER);
		assert_int_equal(src.mem_op, 0);
	}
}

/* The used flag bits of a branch entry end at INFO_BITS_MAX. */
static void test_branch_entry_info_bits_max_covers_the_flags(void **state)
{
	const unsigned int flags = 8 * end_of(struct perf_branch_entry, to);
	const enum abi_group g = ABI_BRANCH_ENTRY;

	(void)state;
	expect_bits(g, "perf_branch_entry.mispred", flags + 0, 1);
	expect_bits(g, "perf_branch_entry.cycles", flags + 4, 16);
	expect_bits(g, "perf_branch_entry.type", flags + 20, 4);
	expect_bits(g, "perf_branch_entry.spec", flags + 24, 2);
	expect_bits(g, "perf_branch_entry.new_type", flags + 26, 4);
	expect_bits(g, "perf_branch_entry.priv", flags + 30, 3);
	expect_bits(g, "perf_branch_entry.reserved",
		    flags + PERF_BRANCH_ENTRY_INFO_BITS_MAX,
		    64 - PERF_BRANCH_ENTRY_INFO_BITS_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_layout_matches_host),
		cmocka_unit_test(test_mmap_page_layout_matches_host),
		cmocka_unit_test(test_header_layout_matches_host),
		cmocka_unit_test(test_branch_entry_layout_matches_host),
		cmocka_unit_test(test_small_types_layout_matches_host),
		cmocka_unit_test(test_ioctl_numbers_match_host),
		cmocka_unit_test(test_record_types_match_host),
		cmocka_unit_test(test_sample_type_bits_match_host),
		cmocka_unit_test(test_branch_sample_type_bits_match_host),
		cmocka_unit_test(test_read_format_bits_match_host),
		cmocka_unit_test(test_callchain_contexts_match_host),
		cmocka_unit_test(test_record_misc_bits_match_host),
		cmocka_unit_test(test_other_constants_match_host),
		cmocka_unit_test(test_attr_size_versions_end_at_their_fields),
		cmocka_unit_test(test_alt_sample_period_follows_config3),
		cmocka_unit_test(test_hw_time_is_the_bit_after_sigtrap),
		cmocka_unit_test(test_mono_raw_fields_follow_time_mask),
		cmocka_unit_test(test_ioctl_numbers_use_generic_encoding),
		cmocka_unit_test(test_mem_data_src_fields_sit_at_their_shifts),
		cmocka_unit_test(test_branch_entry_info_bits_max_covers_the_flags),
	};

	return cmocka_run_group_tests(tests, build_pmusim_table, NULL);
}
