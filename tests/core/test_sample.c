// SPDX-License-Identifier: GPL-2.0-only
/*
 * PERF_RECORD_SAMPLE byte by byte in a real ring buffer: each fixed
 * field alone and together in uapi order, read_format blocks single and
 * grouped, callchains with context markers and exclusions, branch stacks
 * with and without hw_idx, hw_time, and wakeup_events accounting.
 */
#include "tests/test.h"
#include "core/x86/tsc.h"
#include "core/sideband.h"
#include "records_fixture.h"

static struct pt_regs user_regs(void)
{
	return (struct pt_regs){ .ip = 0x401000, .user = true };
}

static void emit(struct perf_event *ev, struct pt_regs *regs, u64 period)
{
	struct perf_sample_data data;

	perf_sample_data_init(&data, 0, period);
	assert_int_equal(perf_event_output(ev, &data, regs), 0);
}

/* The fields of the fixture, written as the uapi orders them. */
static void expect_fixed(struct expect *e, u64 st, u64 ip, u64 period)
{
	if (st & PERF_SAMPLE_IDENTIFIER) put64(e, 7);
	if (st & PERF_SAMPLE_IP) put64(e, ip);
	if (st & PERF_SAMPLE_TID) { put32(e, 100); put32(e, 101); }
	if (st & PERF_SAMPLE_TIME) put64(e, 123456789);
	if (st & PERF_SAMPLE_ADDR) put64(e, 0);
	if (st & PERF_SAMPLE_ID) put64(e, 7);
	if (st & PERF_SAMPLE_STREAM_ID) put64(e, 7);
	if (st & PERF_SAMPLE_CPU) { put32(e, 3); put32(e, 0); }
	if (st & PERF_SAMPLE_PERIOD) put64(e, period);
}

static int popcount_fixed(u64 st)
{
	int n = 0;

	for (u64 b = st; b; b &= b - 1)
		n++;
	return n;
}

static void check_fixed(u64 st)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct expect e = { 0 };

	fixture_event(&ev, &rb);
	ev.attr.sample_type = st;
	fixture_sizes(&ev);
	emit(&ev, &regs, 5000);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 8 * popcount_fixed(st));
	expect_fixed(&e, st, 0x401000, 5000);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void each_fixed_field_alone_in_its_place(void **state)
{
	static const u64 bits[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD,
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		check_fixed(bits[i]);
}

static void all_fixed_fields_in_uapi_order(void **state)
{
	(void)state;
	check_fixed(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
		    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	check_fixed(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD);
}

static void kernel_exact_sample_sets_misc(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = { .ip = 0xffffffff81000000ULL, .exact = true };
	struct expect e = { 0 };

	(void)state;
	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_IP;
	fixture_sizes(&ev);
	emit(&ev, &regs, 1);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_EXACT_IP, 16);
	put64(&e, 0xffffffff81000000ULL);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void read_single_every_read_format(void **state)
{
	(void)state;
	for (u64 rf = 0; rf < PERF_FORMAT_MAX; rf++) {
		struct perf_event ev;
		struct perf_buffer *rb;
		struct pt_regs regs = user_regs();
		struct expect e = { 0 };

		if (rf & PERF_FORMAT_GROUP)
			continue;
		fixture_event(&ev, &rb);
		ev.attr.sample_type = PERF_SAMPLE_READ;
		ev.attr.read_format = rf;
		local64_set(&ev.count, 900);
		atomic64_set(&ev.child_count, 11);
		atomic64_set(&ev.lost_samples, 4);
		ev.total_time_enabled = 1000;
		ev.total_time_running = 600;
		ev.tstamp = fixture_now - 50;		/* active for 50 ns more */
		fixture_sizes(&ev);
		emit(&ev, &regs, 1);
		put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + ev.read_size);
		put64(&e, 911);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) put64(&e, 1050);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) put64(&e, 650);
		if (rf & PERF_FORMAT_ID) put64(&e, 7);
		if (rf & PERF_FORMAT_LOST) put64(&e, 4);
		assert_int_equal(e.n, 8 + ev.read_size);
		assert_buffer(rb, &e);
		fixture_done(&ev, rb);
	}
}

static void sibling_read(struct perf_event *event)
{
	local64_add(1, &event->count);	/* the PMU read advances it */
}

static void read_group_every_read_format(void **state)
{
	(void)state;
	for (u64 rf = PERF_FORMAT_GROUP; rf < PERF_FORMAT_MAX; rf++) {
		struct perf_event ev, sib1 = { 0 }, sib2 = { 0 };
		struct perf_event *sibs[] = { &sib1, &sib2 };
		struct pmu pmu = { .read = sibling_read };
		struct perf_buffer *rb;
		struct pt_regs regs = user_regs();
		struct expect e = { 0 };

		if (!(rf & PERF_FORMAT_GROUP))
			continue;
		fixture_event(&ev, &rb);
		sib1.group_leader = sib2.group_leader = &ev;
		sib1.id = 20; sib2.id = 21;
		sib1.pmu = sib2.pmu = &pmu;
		sib1.state = PERF_EVENT_STATE_ACTIVE;
		sib2.state = PERF_EVENT_STATE_INACTIVE;	/* not read: not on the PMU */
		local64_set(&sib1.count, 30);
		local64_set(&sib2.count, 40);
		atomic64_set(&sib2.lost_samples, 2);
		ev.siblings = sibs;
		ev.nr_siblings = 2;
		ev.attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_IP;
		ev.attr.read_format = rf;
		local64_set(&ev.count, 10);
		ev.total_time_enabled = 5;
		ev.total_time_running = 3;
		ev.tstamp = fixture_now;
		fixture_sizes(&ev);
		emit(&ev, &regs, 1);
		put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 16 + ev.read_size);
		put64(&e, 0x401000);
		put64(&e, 3);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) put64(&e, 5);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) put64(&e, 3);
		put64(&e, 10);
		if (rf & PERF_FORMAT_ID) put64(&e, 7);
		if (rf & PERF_FORMAT_LOST) put64(&e, 0);
		put64(&e, 31);
		if (rf & PERF_FORMAT_ID) put64(&e, 20);
		if (rf & PERF_FORMAT_LOST) put64(&e, 0);
		put64(&e, 40);
		if (rf & PERF_FORMAT_ID) put64(&e, 21);
		if (rf & PERF_FORMAT_LOST) put64(&e, 2);
		assert_int_equal(e.n, 16 + ev.read_size);
		assert_buffer(rb, &e);
		fixture_done(&ev, rb);
	}
}

static const u64 kcallers[] = { 0xffffffff81000100ULL, 0xffffffff81000200ULL, 0, 0xdead };
static const u64 ucallers[] = { 0x401100, 0x401200, 0x401300 };

/* A kernel-mode sample with a user task underneath. */
static void callchain_case(bool excl_kernel, bool excl_user, u16 max_stack,
			   bool kernel_thread, const u64 *want, int nr_want)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs uregs = { .ip = 0x401000, .user = true,
				 .callers = ucallers, .nr_callers = 3 };
	struct pt_regs regs = { .ip = 0xffffffff81000000ULL,
				.callers = kcallers, .nr_callers = 4,
				.user_regs = kernel_thread ? NULL : &uregs };
	struct expect e = { 0 };

	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	ev.attr.exclude_callchain_kernel = excl_kernel;
	ev.attr.exclude_callchain_user = excl_user;
	ev.attr.sample_max_stack = max_stack;
	fixture_sizes(&ev);
	emit(&ev, &regs, 1);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, 16 + 8 * nr_want);
	put64(&e, nr_want);
	for (int i = 0; i < nr_want; i++)
		put64(&e, want[i]);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void callchain_markers_kernel_then_user(void **state)
{
	const u64 want[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL,
			     0xffffffff81000100ULL, 0xffffffff81000200ULL,
			     PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200, 0x401300 };

	(void)state;
	callchain_case(false, false, 127, false, want, ARRAY_SIZE(want));
}

static void callchain_exclusions_and_kernel_thread(void **state)
{
	const u64 user_only[] = { PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200, 0x401300 };
	const u64 kernel_only[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL,
				    0xffffffff81000100ULL, 0xffffffff81000200ULL };

	(void)state;
	callchain_case(true, false, 127, false, user_only, ARRAY_SIZE(user_only));
	callchain_case(false, true, 127, false, kernel_only, ARRAY_SIZE(kernel_only));
	callchain_case(false, false, 127, true, kernel_only, ARRAY_SIZE(kernel_only));
	callchain_case(true, true, 127, false, NULL, 0);
}

static void callchain_max_stack_counts_ips_not_markers(void **state)
{
	/* The limit is on ips for the whole chain: none are left for user. */
	const u64 want[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL,
			     0xffffffff81000100ULL, PERF_CONTEXT_USER };
	const u64 user_two[] = { PERF_CONTEXT_USER, 0x401000, 0x401100 };

	(void)state;
	callchain_case(false, false, 2, false, want, ARRAY_SIZE(want));
	callchain_case(true, false, 2, false, user_two, ARRAY_SIZE(user_two));
}

static void branch_stack_case(bool hw_index, bool have_stack)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct perf_sample_data data;
	struct expect e = { 0 };
	/* a stack with two entries, in u64s: no struct with a flexible array inside */
	u64 buf[(sizeof(struct perf_branch_stack) + 2 * sizeof(struct perf_branch_entry)) / 8] = { 0 };
	struct perf_branch_stack *bs = (struct perf_branch_stack *)buf;
	u64 nr_bytes;

	bs->nr = 2;
	bs->hw_idx = 13;
	bs->entries[0] = (struct perf_branch_entry){ .from = 0x10, .to = 0x20, .mispred = 1,
						     .cycles = 0x1234, .type = 3 };
	bs->entries[1] = (struct perf_branch_entry){ .from = 0x30, .to = 0x40, .predicted = 1,
						     .in_tx = 1, .abort = 1, .spec = 2, .priv = 5 };
	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				     (hw_index ? PERF_SAMPLE_BRANCH_HW_INDEX : 0);
	fixture_sizes(&ev);
	perf_sample_data_init(&data, 0, 1);
	if (have_stack)
		perf_sample_save_brstack(&data, &ev, bs);
	assert_int_equal(perf_event_output(&ev, &data, &regs), 0);

	nr_bytes = have_stack ? 8 + (hw_index ? 8 : 0) + 2 * 24 : 8;
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + nr_bytes);
	if (!have_stack) {
		put64(&e, 0);
	} else {
		put64(&e, 2);
		if (hw_index)
			put64(&e, 13);
		put64(&e, 0x10); put64(&e, 0x20);
		put64(&e, 1ULL | (0x1234ULL << 4) | (3ULL << 20));
		put64(&e, 0x30); put64(&e, 0x40);
		put64(&e, 2ULL | 4ULL | 8ULL | (2ULL << 24) | (5ULL << 30));
	}
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void branch_stack_with_and_without_hw_idx(void **state)
{
	(void)state;
	branch_stack_case(false, true);
	branch_stack_case(true, true);
	branch_stack_case(true, false);		/* no stack: nr = 0 only */
}

static void hw_time_puts_raw_tsc_in_samples_only(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct expect e = { 0 };
	u64 tsc;

	(void)state;
	if (!IS_ENABLED(CONFIG_PERF_HW_TIME))
		pmusim_skip("CONFIG_PERF_HW_TIME is off");
	fixture_event(&ev, &rb);
	model_clock_set(2100000, 64, 1000000, 0);
	ev.attr.sample_type = PERF_SAMPLE_TIME;
	ev.attr.sample_id_all = 1;
#ifdef CONFIG_PERF_HW_TIME
	ev.attr.hw_time = 1;
#endif
	fixture_sizes(&ev);
	tsc = rdtsc();
	assert_int_equal(model_clock_tsc_to_ns(tsc), fixture_now);
	assert_int_not_equal(tsc, fixture_now);
	emit(&ev, &regs, 1);
	perf_log_throttle(&ev, 0);	/* a non-sample record keeps perf time */
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 16);
	put64(&e, tsc);
	put_header(&e, PERF_RECORD_THROTTLE, 0, 40);
	put64(&e, fixture_now); put64(&e, 7); put64(&e, 7);
	put64(&e, fixture_now);		/* trailer */
	assert_buffer(rb, &e);
	model_clock_reset();
	fixture_done(&ev, rb);
}

static void callchain_contexts_per_stack_and_a_zero_max_stack(void **state)
{
	/* one marker allowed: the user half goes, markers and ips both */
	const u64 kernel_only[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL,
				    0xffffffff81000100ULL, 0xffffffff81000200ULL };
	/* no ips at all: the markers alone */
	const u64 markers[] = { PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER };
	int saved = sysctl_perf_event_max_contexts_per_stack;

	(void)state;
	sysctl_perf_event_max_contexts_per_stack = 1;
	callchain_case(false, false, 127, false, kernel_only, ARRAY_SIZE(kernel_only));
	sysctl_perf_event_max_contexts_per_stack = saved;
	callchain_case(false, false, 0, false, markers, ARRAY_SIZE(markers));
}

/* Inherited PERF_SAMPLE_READ reports the event's own count, not its children's. */
static void read_inherited_counts_only_itself(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct expect e = { 0 };

	(void)state;
	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	ev.attr.inherit = 1;
	local64_set(&ev.count, 900);
	atomic64_set(&ev.child_count, 11);
	fixture_sizes(&ev);
	emit(&ev, &regs, 1);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 24);
	put32(&e, 100); put32(&e, 101);
	put64(&e, 900);
	/* and in a group read too */
	ev.attr.read_format = PERF_FORMAT_GROUP;
	fixture_sizes(&ev);
	emit(&ev, &regs, 1);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 32);
	put32(&e, 100); put32(&e, 101);
	put64(&e, 1); put64(&e, 900);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

/* A member with no PMU read (a software-like member) is written as it is. */
static void read_group_member_without_a_read_op(void **state)
{
	struct perf_event ev, sib = { 0 };
	struct perf_event *sibs[] = { &sib };
	struct pmu pmu = { 0 };
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct expect e = { 0 };

	(void)state;
	fixture_event(&ev, &rb);
	sib.group_leader = &ev;
	sib.state = PERF_EVENT_STATE_ACTIVE;
	local64_set(&sib.count, 5);
	ev.siblings = sibs;
	ev.nr_siblings = 1;
	ev.attr.sample_type = PERF_SAMPLE_READ;
	ev.attr.read_format = PERF_FORMAT_GROUP;
	fixture_sizes(&ev);
	emit(&ev, &regs, 1);			/* no pmu at all */
	sib.pmu = &pmu;
	emit(&ev, &regs, 1);			/* a pmu without read */
	for (int i = 0; i < 2; i++) {
		put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 32);
		put64(&e, 2); put64(&e, 0); put64(&e, 5);
	}
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

/*
 * No room (a paused buffer): perf_event_output() says so, and none of
 * the three entry points (each its own inlined copy) writes anything;
 * each loss is counted.
 */
static void output_into_a_paused_buffer_fails(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct perf_sample_data data;

	(void)state;
	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_IP;
	fixture_sizes(&ev);
	rb_toggle_paused(rb, true);
	perf_sample_data_init(&data, 0, 1);
	assert_int_not_equal(perf_event_output(&ev, &data, &regs), 0);
	perf_sample_data_init(&data, 0, 1);
	perf_event_output_forward(&ev, &data, &regs);
	perf_sample_data_init(&data, 0, 1);
	perf_event_output_backward(&ev, &data, &regs);
	assert_int_equal(rb->user_page->data_head, 0);
	assert_int_equal(local_read(&rb->lost), 3);
	fixture_done(&ev, rb);
}

/* An address the driver gave (perf_sample_data_init) is the sample's ADDR. */
static void driver_address_goes_into_addr(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();
	struct perf_sample_data data;
	struct expect e = { 0 };

	(void)state;
	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD;
	fixture_sizes(&ev);
	perf_sample_data_init(&data, 0x7fff0000dead, 3);
	assert_int_equal(perf_event_output(&ev, &data, &regs), 0);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 24);
	put64(&e, 0x7fff0000dead); put64(&e, 3);
	assert_buffer(rb, &e);
	fixture_done(&ev, rb);
}

static void wakeup_events_counts_samples(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct pt_regs regs = user_regs();

	(void)state;
	fixture_event(&ev, &rb);
	ev.attr.sample_type = PERF_SAMPLE_IP;
	ev.attr.wakeup_events = 3;
	fixture_sizes(&ev);
	for (int i = 0; i < 7; i++)
		emit(&ev, &regs, 1);
	assert_int_equal(local_read(&rb->events), 1);
	assert_int_equal(local_read(&rb->wakeup), 2);
	fixture_done(&ev, rb);
}

static void backward_and_forward_handlers_write_the_same_record(void **state)
{
	struct perf_event fwd, bwd;
	struct perf_buffer *rb, *brb;
	struct pt_regs regs = user_regs();
	struct perf_sample_data data;
	struct expect e = { 0 };
	const u8 *bdata;
	u64 head;

	(void)state;
	fixture_event(&fwd, &rb);
	fwd.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	fixture_sizes(&fwd);
	perf_sample_data_init(&data, 0, 77);
	perf_event_output_forward(&fwd, &data, &regs);
	put_header(&e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 24);
	put64(&e, 0x401000); put64(&e, 77);
	assert_buffer(rb, &e);

	/* backward: the same bytes, ending where the head was (0) */
	fixture_event(&bwd, &brb);
	bwd.attr.sample_type = fwd.attr.sample_type;
	bwd.attr.write_backward = 1;
	fixture_sizes(&bwd);
	perf_sample_data_init(&data, 0, 77);
	perf_event_output_backward(&bwd, &data, &regs);
	head = brb->user_page->data_head;
	assert_int_equal(head, (u64)-24);
	bdata = (const u8 *)brb->user_page + brb->user_page->data_offset;
	assert_memory_equal(bdata + (head & (perf_data_size(brb) - 1)), e.b, e.n);
	fixture_done(&bwd, brb);
	fixture_done(&fwd, rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_fixed_field_alone_in_its_place),
		cmocka_unit_test(all_fixed_fields_in_uapi_order),
		cmocka_unit_test(kernel_exact_sample_sets_misc),
		cmocka_unit_test(read_single_every_read_format),
		cmocka_unit_test(read_group_every_read_format),
		cmocka_unit_test(callchain_markers_kernel_then_user),
		cmocka_unit_test(callchain_exclusions_and_kernel_thread),
		cmocka_unit_test(callchain_max_stack_counts_ips_not_markers),
		cmocka_unit_test(branch_stack_with_and_without_hw_idx),
		cmocka_unit_test(hw_time_puts_raw_tsc_in_samples_only),
		cmocka_unit_test(callchain_contexts_per_stack_and_a_zero_max_stack),
		cmocka_unit_test(read_inherited_counts_only_itself),
		cmocka_unit_test(read_group_member_without_a_read_op),
		cmocka_unit_test(output_into_a_paused_buffer_fails),
		cmocka_unit_test(driver_address_goes_into_addr),
		cmocka_unit_test(wakeup_events_counts_samples),
		cmocka_unit_test(backward_and_forward_handlers_write_the_same_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
