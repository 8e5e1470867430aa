// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixed sizes of samples: the read_format block for every flag
 * combination, alone and in groups, and the per-event header_size.
 */
#include "tests/test.h"
#include "core/perf_event.h"

/* The read_format block size built up field by field from the uapi layout. */
static int expected_read_size(u64 rf, int nr_siblings)
{
	int per_value = 8 + ((rf & PERF_FORMAT_ID) ? 8 : 0) + ((rf & PERF_FORMAT_LOST) ? 8 : 0);
	int times = ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0) +
		    ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0);

	if (rf & PERF_FORMAT_GROUP)
		return 8 + times + (1 + nr_siblings) * per_value;	/* nr, times, values[] */
	return per_value + times;
}

static void read_size_matches_layout_for_every_read_format(void **state)
{
	(void)state;
	for (u64 rf = 0; rf < PERF_FORMAT_MAX; rf++)
		for (int sib = 0; sib < 5; sib++)
			assert_int_equal(__perf_event_read_size(rf, sib),
					 expected_read_size(rf, sib));
}

static void read_size_known_values(void **state)
{
	(void)state;
	assert_int_equal(__perf_event_read_size(0, 0), 8);
	assert_int_equal(__perf_event_read_size(0, 7), 8);	/* siblings only count with GROUP */
	assert_int_equal(__perf_event_read_size(PERF_FORMAT_TOTAL_TIME_ENABLED |
						PERF_FORMAT_TOTAL_TIME_RUNNING |
						PERF_FORMAT_ID | PERF_FORMAT_LOST, 0), 40);
	assert_int_equal(__perf_event_read_size(PERF_FORMAT_GROUP | PERF_FORMAT_ID, 2), 8 + 3 * 16);
}

static void header_size_counts_ip_addr_period_read_only(void **state)
{
	struct perf_event ev = { 0 };

	(void)state;
	ev.group_leader = &ev;
	ev.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER |
			      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	perf_event__header_size(&ev);
	assert_int_equal(ev.header_size, 0);
	assert_int_equal(ev.read_size, 8);

	ev.attr.sample_type |= PERF_SAMPLE_IP;
	perf_event__header_size(&ev);
	assert_int_equal(ev.header_size, 8);
	ev.attr.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD;
	perf_event__header_size(&ev);
	assert_int_equal(ev.header_size, 24);
	ev.attr.sample_type |= PERF_SAMPLE_READ;
	ev.attr.read_format = PERF_FORMAT_ID;
	perf_event__header_size(&ev);
	assert_int_equal(ev.read_size, 16);
	assert_int_equal(ev.header_size, 24 + 16);
}

static void header_size_of_a_member_follows_its_leaders_siblings(void **state)
{
	struct perf_event leader = { 0 }, a = { 0 }, b = { 0 };
	struct perf_event *sibs[] = { &a, &b };

	(void)state;
	leader.group_leader = a.group_leader = b.group_leader = &leader;
	leader.siblings = sibs;
	leader.nr_siblings = 2;
	a.attr.sample_type = PERF_SAMPLE_READ;
	a.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_LOST;
	perf_event__header_size(&a);
	assert_int_equal(a.read_size, 8 + 8 + 3 * 16);
	assert_int_equal(a.header_size, a.read_size);

	leader.nr_siblings = 1;		/* b left the group */
	perf_event__header_size(&a);
	assert_int_equal(a.read_size, 8 + 8 + 2 * 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_size_matches_layout_for_every_read_format),
		cmocka_unit_test(read_size_known_values),
		cmocka_unit_test(header_size_counts_ip_addr_period_read_only),
		cmocka_unit_test(header_size_of_a_member_follows_its_leaders_siblings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
