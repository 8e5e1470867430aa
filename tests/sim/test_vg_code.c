// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a recorded program's instructions start (sim/vg_code.c): each
 * instruction of a VGS_CODE record found by its address, with its length;
 * a later record replaces an earlier one's lengths; the table grows past
 * its first size; address 0 and addresses never given have none.
 */
#include "tests/test.h"
#include "sim/vg_code.h"

static void test_lengths_by_address(void **state)
{
	static const uint8_t lens[] = { 2, 4, 4, 1, 15, 3 };
	struct vg_code c = { 0 };
	uint64_t at = 0x401000;

	(void)state;
	assert_int_equal(vg_code_len(&c, 0x401000), 0);	/* nothing yet */
	assert_int_equal(vg_code_add(&c, at, lens, sizeof(lens)), 0);
	for (unsigned int i = 0; i < sizeof(lens); at += lens[i++]) {
		assert_int_equal(vg_code_len(&c, at), lens[i]);
		/* inside an instruction: no start */
		if (lens[i] > 1)
			assert_int_equal(vg_code_len(&c, at + 1), 0);
	}
	assert_int_equal(vg_code_len(&c, at), 0);	/* after the last */
	assert_int_equal(vg_code_len(&c, 0), 0);
	vg_code_free(&c);
	assert_int_equal(vg_code_len(&c, 0x401000), 0);
}

static void test_a_later_record_replaces(void **state)
{
	static const uint8_t first[] = { 5, 5 }, again[] = { 3, 7 };
	struct vg_code c = { 0 };

	(void)state;
	assert_int_equal(vg_code_add(&c, 0x1000, first, 2), 0);
	assert_int_equal(vg_code_add(&c, 0x1000, again, 2), 0);
	assert_int_equal(vg_code_len(&c, 0x1000), 3);
	assert_int_equal(vg_code_len(&c, 0x1003), 7);
	assert_int_equal(vg_code_len(&c, 0x1005), 5);	/* the first record's, not replaced */
	assert_true(c.used == 3);
	vg_code_free(&c);
}

/* Far more than the first table holds, at addresses a stride apart: all found. */
static void test_it_grows(void **state)
{
	static uint8_t lens[4096];
	struct vg_code c = { 0 };

	(void)state;
	for (unsigned int i = 0; i < sizeof(lens); i++)
		lens[i] = (uint8_t)(1 + i % 15);
	for (uint64_t r = 0; r < 64; r++)
		assert_int_equal(vg_code_add(&c, 0x7f0000000000ULL + r * 0x100000, lens,
					     sizeof(lens)), 0);
	assert_true(c.used == 64 * sizeof(lens));
	assert_true(c.used * 2 <= c.mask + 1);
	for (uint64_t r = 0; r < 64; r++) {
		uint64_t at = 0x7f0000000000ULL + r * 0x100000;

		for (unsigned int i = 0; i < sizeof(lens); at += lens[i++])
			if (vg_code_len(&c, at) != lens[i])
				fail_msg("record %llu instruction %u", (unsigned long long)r, i);
	}
	vg_code_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths_by_address),
		cmocka_unit_test(test_a_later_record_replaces),
		cmocka_unit_test(test_it_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
