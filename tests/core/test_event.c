// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event controls: each ioctl and each of its errnos, groups and their
 * rules at open, exclusive PMUs, per-task events following their task
 * through sched-in/out with time enabled/running.
 */
#include "core/perf_event.h"
#include "core/internal.h"
#include "tests/lib/test_pmu.h"
#include "tests/test.h"

#define TASK_TID	200

static struct test_pmu tp;
static struct task_struct task = { .pid = TASK_TID, .tid = TASK_TID, .comm = "w" };
static u64 now_ns;

static u64 test_clock(void)
{
	return now_ns;
}

static int setup(void **state)
{
	(void)state;
	test_pmu_init(&tp, PERF_TYPE_RAW);
	now_ns = 0;
	pmusim_clock_ns = test_clock;
	pmusim_this_cpu = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmusim_clock_ns = NULL;
	pmusim_curr[1] = NULL;
	return 0;
}

static int open_ev(struct perf_event_attr *attr, int pid, int cpu, struct perf_event *leader,
		   unsigned long flags, struct perf_event **ev)
{
	attr->size = sizeof(*attr);
	return perf_event_open_attr(attr, sizeof(*attr), pid, cpu, leader, flags, &tp.pmu, ev);
}

static struct perf_event *must_open(struct perf_event_attr *attr, int cpu, struct perf_event *leader)
{
	struct perf_event *ev;

	assert_int_equal(open_ev(attr, -1, cpu, leader, 0, &ev), 0);
	return ev;
}

static void test_enable_disable_reset_and_read(void **state)
{
	struct perf_event_attr attr = { .disabled = 1 };
	struct perf_event *ev = must_open(&attr, 0, NULL);

	(void)state;
	assert_int_equal(ev->state, PERF_EVENT_STATE_OFF);
	assert_int_equal(test_pmu_count(&tp, TP_ADD, ev), 0);
	test_pmu_advance(ev, 5);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), 0);

	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(ev->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(test_pmu_count(&tp, TP_ADD, ev), 1);
	test_pmu_advance(ev, 40);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), 40);

	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_RESET, 0), 0);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), 0);
	test_pmu_advance(ev, 2);

	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_DISABLE, 0), 0);
	assert_int_equal(ev->state, PERF_EVENT_STATE_OFF);
	assert_int_equal(test_pmu_count(&tp, TP_DEL, ev), 1);
	test_pmu_advance(ev, 7);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), 2);
	perf_event_release_kernel(ev);
}

static void test_group_flag_applies_to_the_whole_group(void **state)
{
	struct perf_event_attr attr = { .disabled = 1 };
	struct perf_event *leader = must_open(&attr, 0, NULL);
	struct perf_event *sib = must_open(&attr, 0, leader);

	(void)state;
	assert_int_equal(leader->nr_siblings, 1);
	assert_int_equal(perf_ioctl(sib, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	assert_int_equal(leader->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(sib->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(perf_ioctl(leader, PERF_EVENT_IOC_DISABLE, 0), 0);
	/* the leader off takes its group off the PMU */
	assert_int_equal(sib->state, PERF_EVENT_STATE_INACTIVE);
	perf_event_release_kernel(sib);
	assert_int_equal(leader->nr_siblings, 0);
	perf_event_release_kernel(leader);
}

static void test_id_ioctl_and_its_efault(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *a = must_open(&attr, 0, NULL), *b = must_open(&attr, 0, NULL);
	u64 id = 0;

	(void)state;
	assert_int_equal(perf_ioctl(a, PERF_EVENT_IOC_ID, (unsigned long)&id), 0);
	assert_int_equal(id, a->id);
	assert_true(b->id > a->id);
	assert_int_equal(perf_ioctl(a, PERF_EVENT_IOC_ID, 0), -EFAULT);
	perf_event_release_kernel(a);
	perf_event_release_kernel(b);
}

static void test_period_ioctl_checks_and_reprograms_at_once(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1000 };
	struct perf_event *ev = must_open(&attr, 0, NULL), *cnt;
	u64 v, progs[8];
	unsigned int n;

	(void)state;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, 0), -EFAULT);
	v = 0;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), -EINVAL);
	v = 1ULL << 63;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), -EINVAL);
	tp.check_period_err = -EINVAL;
	v = 50;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), -EINVAL);
	tp.check_period_err = 0;

	test_pmu_advance(ev, 10);
	test_pmu_clear_log(&tp);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	assert_int_equal(ev->attr.sample_period, 50);
	assert_int_equal(tp.calls[0].op, TP_STOP);
	assert_int_equal(tp.calls[0].flags, PERF_EF_UPDATE);
	assert_int_equal(tp.calls[1].op, TP_START);
	assert_int_equal(tp.calls[1].flags, PERF_EF_RELOAD);
	n = test_pmu_programmed(&tp, ev, progs, 8);
	assert_int_equal(n, 1);
	assert_int_equal(progs[0], 50);

	attr = (struct perf_event_attr){ .config = 1 };
	cnt = must_open(&attr, 0, NULL);
	assert_int_equal(perf_ioctl(cnt, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), -EINVAL);
	perf_event_release_kernel(cnt);
	perf_event_release_kernel(ev);

	attr = (struct perf_event_attr){ .freq = 1, .sample_freq = 100 };
	ev = must_open(&attr, 0, NULL);
	v = (u64)sysctl_perf_event_sample_rate + 1;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), -EINVAL);
	v = 200;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	assert_int_equal(ev->attr.sample_freq, 200);
	perf_event_release_kernel(ev);
}

static void test_refresh_refused_on_counting_and_inherited_events(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *ev = must_open(&attr, 0, NULL);

	(void)state;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_REFRESH, 1), -EINVAL);
	perf_event_release_kernel(ev);
	pmusim_curr[1] = &task;
	attr = (struct perf_event_attr){ .sample_period = 10, .inherit = 1 };
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &ev), 0);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_REFRESH, 1), -EINVAL);
	perf_event_release_kernel(ev);
}

static void test_set_output_rules_and_pause_output(void **state)
{
	struct perf_event_attr attr = { .sample_period = 10 };
	struct perf_event *out = must_open(&attr, 0, NULL), *ev = must_open(&attr, 0, NULL);
	struct perf_event *other_cpu = must_open(&attr, 1, NULL), *bw, *clk, *ev2;
	struct perf_buffer *rb;

	(void)state;
	attr.write_backward = 1;
	bw = must_open(&attr, 0, NULL);
	attr.write_backward = 0;
	attr.use_clockid = 1;
	attr.clockid = PERF_CLOCK_MONOTONIC;
	clk = must_open(&attr, 0, NULL);

	/* nothing to pause without a buffer */
	assert_int_equal(perf_ioctl(out, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), -EINVAL);
	/* a target without a buffer */
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out), -EINVAL);

	rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);
	assert_non_null(rb);
	ring_buffer_attach(out, rb);

	assert_int_equal(perf_ioctl(out, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out), -EINVAL);
	assert_int_equal(perf_ioctl(other_cpu, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out), -EINVAL);
	assert_int_equal(perf_ioctl(bw, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out), -EINVAL);
	assert_int_equal(perf_ioctl(clk, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out), -EINVAL);
	/* an event with a buffer of its own stays with it */
	assert_int_equal(perf_ioctl(out, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)ev), -EINVAL);

	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out), 0);
	assert_ptr_equal(ev->rb, rb);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 0);
	assert_int_equal(rb->paused, 1);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), 0);
	assert_int_equal(rb->paused, 0);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_SET_OUTPUT, 0), 0);
	assert_null(ev->rb);

	/* PERF_FLAG_FD_OUTPUT at open: the group fd's buffer */
	attr = (struct perf_event_attr){ .sample_period = 10 };
	assert_int_equal(open_ev(&attr, -1, 0, out, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, &ev2), 0);
	assert_ptr_equal(ev2->rb, rb);
	assert_ptr_equal(ev2->group_leader, ev2);
	perf_event_release_kernel(ev2);
	attr.write_backward = 1;
	assert_int_equal(open_ev(&attr, -1, 0, out, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, &ev2), -EINVAL);

	/* a buffer without data pages cannot be paused or resumed */
	rb = rb_alloc(0, 0, 0, 0);
	ring_buffer_attach(ev, rb);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), -EINVAL);

	perf_event_release_kernel(ev);
	perf_event_release_kernel(out);
	perf_event_release_kernel(other_cpu);
	perf_event_release_kernel(bw);
	perf_event_release_kernel(clk);
}

static void test_unknown_and_unsupported_ioctls(void **state)
{
	struct perf_event_attr attr = { .config = 1 }, bad = { .size = sizeof(bad), .type = 9 };
	struct perf_event *ev = must_open(&attr, 0, NULL);

	(void)state;
	assert_int_equal(perf_ioctl(ev, 0x1234, 0), -ENOTTY);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_SET_FILTER, 0), -EINVAL);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_SET_BPF, 3), -EOPNOTSUPP);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, 0), -EFAULT);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (unsigned long)&bad), -EINVAL);
	bad.type = ev->attr.type;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (unsigned long)&bad), -EOPNOTSUPP);
	perf_event_release_kernel(ev);
}

static void test_group_rules_at_open(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *leader = must_open(&attr, 0, NULL), *sib = must_open(&attr, 0, leader);
	struct perf_event *ev, *t;
	struct test_pmu other;
	enum perf_event_state saved;

	(void)state;
	assert_int_equal(open_ev(&attr, -1, 1, leader, 0, &ev), -EINVAL);	/* other cpu */
	assert_int_equal(open_ev(&attr, -1, 0, sib, 0, &ev), -EINVAL);	/* a sibling as leader */
	attr.pinned = 1;
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -EINVAL);
	attr.pinned = 0;
	attr.exclusive = 1;
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -EINVAL);
	attr.exclusive = 0;
	attr.use_clockid = 1;
	attr.clockid = PERF_CLOCK_MONOTONIC;
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -EINVAL);	/* clock */
	attr.use_clockid = 0;
	/* a task event cannot join a cpu group */
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, TASK_TID, 0, leader, 0, &ev), -EINVAL);
	/* inherit must match the task leader's */
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &t), 0);
	attr.inherit = 1;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, t, 0, &ev), -EINVAL);
	attr.inherit = 0;
	perf_event_release_kernel(t);
	/* one PMU per group */
	test_pmu_init(&other, PERF_TYPE_RAW);
	attr.size = sizeof(attr);
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, leader, 0, &other.pmu, &ev),
			 -EINVAL);
	saved = leader->state;
	leader->state = PERF_EVENT_STATE_EXIT;
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -ENODEV);
	leader->state = saved;
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
}

static void test_group_read_size_limit_is_e2big(void **state)
{
	struct perf_event_attr attr = { .disabled = 1, .read_format = PERF_FORMAT_GROUP |
		PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING };
	static struct perf_event *sibs[700];
	struct perf_event *leader = must_open(&attr, 0, NULL), *ev;
	int i;

	(void)state;
	/* 8 + 16 + 24 per member: 681 members fit in 16k, 682 do not */
	for (i = 0; i < 680; i++)
		sibs[i] = must_open(&attr, 0, leader);
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -E2BIG);
	/* a plain sibling is small, but the members' group reads would grow */
	attr.read_format = 0;
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -E2BIG);
	perf_event_release_kernel(sibs[679]);
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), 0);
	assert_int_equal(leader->read_size, 8 + 16 + 681 * 24);
	perf_event_release_kernel(ev);
	for (i = 0; i < 679; i++)
		perf_event_release_kernel(sibs[i]);
	assert_int_equal(leader->nr_siblings, 0);
	perf_event_release_kernel(leader);
}

static void test_exclusive_pmu_keeps_task_and_cpu_events_apart(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *a, *b;

	(void)state;
	tp.pmu.capabilities = PERF_PMU_CAP_EXCLUSIVE;
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &a), 0);
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &b), -EBUSY);
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &b), -EBUSY);	/* same cpu */
	assert_int_equal(open_ev(&attr, -1, 1, NULL, 0, &b), 0);
	perf_event_release_kernel(a);
	perf_event_release_kernel(b);
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &a), 0);
	perf_event_release_kernel(a);
	tp.pmu.capabilities = 0;
}

static void test_task_event_follows_its_task_with_times(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *ev;
	u64 enabled, running;

	(void)state;
	/* not running anywhere: found through the simulator's lookup only */
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &ev), -ESRCH);
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &ev), 0);
	/* the task runs on cpu 1: the event went on there at once */
	assert_int_equal(ev->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(ev->oncpu, 1);
	now_ns = 100;
	test_pmu_advance(ev, 30);

	perf_event_sched_out(1, &task);
	assert_int_equal(ev->state, PERF_EVENT_STATE_INACTIVE);
	now_ns = 500;			/* switched out: no time at all */
	test_pmu_advance(ev, 30);
	perf_event_sched_in(2, &task);
	assert_int_equal(ev->oncpu, 2);
	now_ns = 600;
	test_pmu_advance(ev, 5);
	assert_int_equal(perf_event_read_value(ev, &enabled, &running), 35);
	assert_int_equal(enabled, 200);
	assert_int_equal(running, 200);

	/* a per-task event bound to cpu 3 waits while its task is on cpu 2 */
	perf_event_release_kernel(ev);
	perf_event_sched_out(2, &task);
	assert_int_equal(open_ev(&attr, TASK_TID, 3, NULL, 0, &ev), 0);
	assert_int_equal(ev->state, PERF_EVENT_STATE_INACTIVE);
	perf_event_sched_in(2, &task);
	assert_int_equal(ev->state, PERF_EVENT_STATE_INACTIVE);
	now_ns = 700;
	perf_event_read_value(ev, &enabled, &running);
	assert_int_equal(enabled, 100);
	assert_int_equal(running, 0);
	perf_event_sched_out(2, &task);
	perf_event_release_kernel(ev);
}

static void test_group_goes_on_all_or_nothing(void **state)
{
	struct perf_event_attr attr = { .disabled = 1 };
	struct perf_event *leader, *s1, *s2;

	(void)state;
	tp.nr_counters = 2;
	leader = must_open(&attr, 0, NULL);
	s1 = must_open(&attr, 0, leader);
	s2 = must_open(&attr, 0, leader);
	/* members on first: they wait for their leader */
	assert_int_equal(perf_ioctl(s1, PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(perf_ioctl(s2, PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(s1->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(perf_ioctl(leader, PERF_EVENT_IOC_ENABLE, 0), 0);
	/* three members, two counters: the group stays off the PMU */
	assert_int_equal(leader->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(s1->state, PERF_EVENT_STATE_INACTIVE);
	assert_null(tp.counters[0]);
	perf_event_release_kernel(s2);
	perf_ioctl(leader, PERF_EVENT_IOC_DISABLE, 0);
	perf_ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
	assert_int_equal(leader->state, PERF_EVENT_STATE_ACTIVE);
	assert_int_equal(s1->state, PERF_EVENT_STATE_ACTIVE);
	perf_event_release_kernel(leader);
	/* the orphaned sibling runs alone */
	assert_ptr_equal(s1->group_leader, s1);
	assert_int_equal(s1->state, PERF_EVENT_STATE_ACTIVE);
	perf_event_release_kernel(s1);
}

/*
 * What a self-monitoring reader computes from the page (the lock
 * sequence around index, offset and rdpmc of the counter, sign-extended
 * from pmc_width), with the test PMU's counters as the registers. As on
 * x86, prev_count is the sign-extended -left after a new period but the
 * zero-extended register after a read, so offset can be 2^pmc_width off
 * (pmu-tools#51): the value is exact modulo 2^pmc_width.
 */
static u64 user_read(struct perf_event_mmap_page *pg)
{
	u32 seq;
	u64 count;

	do {
		seq = READ_ONCE(pg->lock);
		assert_int_equal(seq & 1, 0);
		barrier();
		count = pg->offset;
		if (pg->index && pg->cap_user_rdpmc) {
			u64 pmc = tp.raw[pg->index - 1] << (64 - pg->pmc_width);

			count += (u64)((s64)pmc >> (64 - pg->pmc_width));
		}
		barrier();
	} while (READ_ONCE(pg->lock) != seq);
	return count & ((1ULL << pg->pmc_width) - 1);
}

static struct perf_buffer *map_buffer(struct perf_event *ev)
{
	struct perf_buffer *rb = rb_alloc(1, 0, 0, RING_BUFFER_WRITABLE);

	assert_non_null(rb);
	ring_buffer_attach(ev, rb);
	perf_event_update_userpage(ev);		/* as perf_mmap() leaves it */
	return rb;
}

static void test_reset_and_period_keep_the_self_monitoring_read_exact(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1000 };
	struct perf_event *ev = must_open(&attr, 0, NULL);
	struct perf_event_mmap_page *pg = map_buffer(ev)->user_page;
	u32 lock;
	u64 v;

	(void)state;
	assert_int_equal(pg->index, ev->hw.idx + 1);
	test_pmu_advance(ev, 300);
	assert_int_equal(user_read(pg), 300);

	lock = pg->lock;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_RESET, 0), 0);
	assert_true(pg->lock > lock);
	assert_int_equal(user_read(pg), 0);
	test_pmu_advance(ev, 5);
	assert_int_equal(user_read(pg), 5);

	/* a new period reprograms the counter: the page follows at once */
	lock = pg->lock;
	v = 50;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	assert_true(pg->lock > lock);
	assert_int_equal(user_read(pg), 5);
	test_pmu_advance(ev, 7);
	assert_int_equal(user_read(pg), 12);
	assert_int_equal(perf_event_read_value(ev, NULL, NULL), 12);

	/* off the PMU: no index, the count is all in offset */
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_DISABLE, 0), 0);
	assert_int_equal(pg->index, 0);
	assert_int_equal(user_read(pg), 12);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_RESET, 0), 0);
	assert_int_equal(user_read(pg), 0);
	perf_event_release_kernel(ev);
}

static struct task_struct *find_task(int pid)
{
	return pid == TASK_TID ? &task : NULL;
}

/*
 * A member of a group whose leader is off is off with it
 * (__perf_effective_state()): no enabled time while the leader is
 * disabled, though its own state stays INACTIVE; the leader going off and
 * coming back takes the member's time at each step.
 */
static void test_member_of_an_off_leader_has_no_enabled_time(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *leader, *sib;
	u64 enabled, running;

	(void)state;
	now_ns = 100;
	leader = must_open(&attr, 0, NULL);
	sib = must_open(&attr, 0, leader);
	now_ns = 200;
	perf_event_disable(leader);
	assert_int_equal(leader->state, PERF_EVENT_STATE_OFF);
	assert_int_equal(sib->state, PERF_EVENT_STATE_INACTIVE);
	now_ns = 1200;
	perf_event_read_value(sib, &enabled, &running);
	assert_int_equal(enabled, 100);
	perf_event_enable(leader);
	now_ns = 1300;
	perf_event_read_value(sib, &enabled, &running);
	assert_int_equal(enabled, 200);
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
}

/*
 * A group that cannot go on when its task is switched in still has its
 * page refreshed: time_enabled moves, time_running does not.
 */
static void test_group_left_off_the_pmu_still_updates_its_page(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *leader, *sib;
	struct perf_event_mmap_page *pg;

	(void)state;
	tp.nr_counters = 0;
	perf_find_task_by_vpid = find_task;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &leader), 0);
	assert_int_equal(open_ev(&attr, TASK_TID, -1, leader, 0, &sib), 0);
	pg = map_buffer(leader)->user_page;
	assert_int_equal(pg->lock, 2);

	now_ns = 100;
	perf_event_sched_in(1, &task);
	assert_int_equal(leader->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(pg->lock, 4);
	now_ns = 250;
	perf_event_sched_out(1, &task);
	now_ns = 400;
	perf_event_sched_in(1, &task);
	assert_int_equal(pg->lock, 6);
	assert_int_equal(pg->time_enabled, 150);
	assert_int_equal(pg->time_running, 0);
	assert_int_equal(pg->index, 0);
	perf_event_sched_out(1, &task);

	/* a pinned group that cannot go on is in error: no page update */
	leader->attr.pinned = 1;
	perf_event_sched_in(1, &task);
	assert_int_equal(leader->state, PERF_EVENT_STATE_ERROR);
	assert_int_equal(pg->lock, 6);
	perf_event_sched_out(1, &task);
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
	perf_find_task_by_vpid = NULL;
}

/*
 * Only an event with a page of its own gets the refresh: a member that
 * writes into its leader's buffer (set-output) would put its own count
 * in the leader's page, and a leader without a buffer stops the walk.
 */
static void test_group_page_refresh_skips_redirected_members_and_unmapped_leaders(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *leader, *sib, *plain;
	struct perf_event_mmap_page *pg, *sibpg;
	struct perf_buffer *rb, *plainrb;

	(void)state;
	tp.nr_counters = 0;
	perf_find_task_by_vpid = find_task;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &leader), 0);
	assert_int_equal(open_ev(&attr, TASK_TID, -1, leader, 0, &sib), 0);
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &plain), 0);
	rb = map_buffer(leader);
	pg = rb->user_page;
	assert_int_equal(perf_event_set_output(sib, leader), 0);
	assert_ptr_equal(sib->rb, rb);
	plainrb = map_buffer(plain);		/* a page of its own, not in the group */
	sibpg = plainrb->user_page;
	refcount_inc(&plainrb->refcount);	/* kept to look at after the unmap */
	ring_buffer_attach(plain, NULL);
	local64_set(&sib->count, 12345);

	now_ns = 100;
	perf_event_sched_in(1, &task);
	/* the leader's page: the leader's values, written once */
	assert_int_equal(pg->lock, 4);
	assert_int_equal(pg->offset, 0);
	/* an unmapped group is left alone */
	assert_int_equal(sibpg->lock, 2);
	perf_event_sched_out(1, &task);
	ring_buffer_put(plainrb);
	perf_event_release_kernel(plain);
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
	perf_find_task_by_vpid = NULL;
}

/* A task's context cannot go live on a CPU that holds another task's. */
static void test_new_task_context_waits_for_a_busy_cpu(void **state)
{
	static struct task_struct t2 = { .pid = 300, .tid = 300, .comm = "b" };
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *a, *b;

	(void)state;
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &a), 0);
	assert_int_equal(a->oncpu, 1);
	/* t2 is current on cpu 1 without a switch through the hooks */
	pmusim_curr[1] = &t2;
	assert_int_equal(open_ev(&attr, 300, -1, NULL, 0, &b), 0);
	assert_int_equal(b->state, PERF_EVENT_STATE_INACTIVE);
	assert_int_equal(b->oncpu, -1);
	perf_event_release_kernel(b);
	perf_event_release_kernel(a);
	pmusim_curr[1] = NULL;
}

/* Two exclusive PMUs do not clash with each other; enable of an on event is a no-op. */
static void test_exclusive_is_per_pmu_and_enable_twice(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct test_pmu other;
	struct perf_event *a, *b;

	(void)state;
	test_pmu_init(&other, PERF_TYPE_RAW);
	tp.pmu.capabilities = other.pmu.capabilities = PERF_PMU_CAP_EXCLUSIVE;
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &a), 0);
	attr.size = sizeof(attr);
	assert_int_equal(perf_event_open_attr(&attr, sizeof(attr), -1, 0, NULL, 0, &other.pmu, &b), 0);
	perf_event_enable(a);
	assert_int_equal(test_pmu_count(&tp, TP_ADD, a), 1);
	perf_event_release_kernel(b);
	perf_event_release_kernel(a);
	tp.pmu.capabilities = 0;
}

/* Each clockid gives its own clock; the wall clocks sit at fixed offsets. */
static void test_each_clockid_reads_its_clock(void **state)
{
	static const int ids[] = { PERF_CLOCK_MONOTONIC, PERF_CLOCK_MONOTONIC_RAW,
		PERF_CLOCK_BOOTTIME, PERF_CLOCK_REALTIME, PERF_CLOCK_TAI };
	struct perf_event *ev[ARRAY_SIZE(ids)], *plain;
	struct perf_event_attr attr = { .config = 1 };
	unsigned int i, j;

	(void)state;
	tp.pmu.capabilities = PERF_PMU_CAP_NO_NMI;
	now_ns = 5000;
	plain = must_open(&attr, 0, NULL);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		attr = (struct perf_event_attr){ .config = 1, .use_clockid = 1, .clockid = ids[i] };
		ev[i] = must_open(&attr, 0, NULL);
		for (j = 0; j < i; j++)
			assert_ptr_not_equal(ev[i]->clock, ev[j]->clock);
		assert_ptr_not_equal(ev[i]->clock, plain->clock);
	}
	assert_int_equal(perf_event_clock(plain), 5000);
	assert_int_equal(perf_event_clock(ev[0]), 5000);
	assert_int_equal(perf_event_clock(ev[1]), 5000);
	assert_int_equal(perf_event_clock(ev[2]), 5000);
	assert_true(perf_event_clock(ev[3]) > 5000);
	assert_int_equal(perf_event_clock(ev[4]) - perf_event_clock(ev[3]), 37 * NSEC_PER_SEC);
	now_ns = 9000;
	assert_int_equal(perf_event_clock(ev[3]) - perf_event_clock(ev[0]),
			 perf_event_clock(ev[3]) - 9000);
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		perf_event_release_kernel(ev[i]);
	perf_event_release_kernel(plain);
	tp.pmu.capabilities = 0;
}

static void test_pmu_registry_refuses_bad_and_duplicate_pmus_and_fills_up(void **state)
{
	static struct test_pmu many[20];
	int i, registered = 0;

	(void)state;
	assert_int_equal(perf_pmu_register(NULL, "x", -1), -EINVAL);
	assert_int_equal(perf_pmu_register(&tp.pmu, "x", -2), -EINVAL);
	assert_int_equal(perf_pmu_register(&tp.pmu, "cpu", PERF_TYPE_RAW), 0);
	assert_int_equal(perf_pmu_register(&tp.pmu, "cpu", -1), -EEXIST);	/* the same PMU */
	for (i = 0; i < (int)ARRAY_SIZE(many); i++) {
		int err;

		test_pmu_init(&many[i], 0);
		err = perf_pmu_register(&many[i].pmu, "dyn", -1);
		if (err) {
			assert_int_equal(err, -ENOSPC);
			break;
		}
		registered++;
		/* dynamic types count on from the largest taken */
		assert_true(many[i].pmu.type >= PERF_TYPE_MAX + i);
	}
	assert_true(registered > 0 && registered < (int)ARRAY_SIZE(many));
	for (i = 0; i < registered; i++)
		perf_pmu_unregister(&many[i].pmu);
	perf_pmu_unregister(&tp.pmu);
	/* gone: its slot is free again */
	assert_int_equal(perf_pmu_register(&tp.pmu, "cpu", PERF_TYPE_RAW), 0);
	perf_pmu_unregister(&tp.pmu);
}

/* Every allocation on the open path can fail: -ENOMEM and nothing leaks. */
static void test_out_of_memory_on_every_allocation_of_open(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *leader = must_open(&attr, 0, NULL), *ev = NULL;
	long n;
	int err = -ENOMEM, fails = 0;

	(void)state;
	perf_find_task_by_vpid = find_task;
	/* a task context to create, then the event: each allocation fails once */
	for (n = 0; err == -ENOMEM; n++) {
		pmusim_alloc_fail_after(n);
		err = open_ev(&attr, TASK_TID, -1, NULL, 0, &ev);
		pmusim_alloc_fail_after(-1);
		fails += err == -ENOMEM;
		if (err == -ENOMEM)
			assert_null(ev);
	}
	assert_int_equal(err, 0);
	assert_int_equal(fails, 2);
	perf_event_release_kernel(ev);

	/* the group's sibling array */
	pmusim_alloc_fail_after(1);
	assert_int_equal(open_ev(&attr, -1, 0, leader, 0, &ev), -ENOMEM);
	pmusim_alloc_fail_after(-1);
	assert_int_equal(leader->nr_siblings, 0);

	/* a kernel counter: the event, then its task context */
	for (n = 0; n < 2; n++) {
		int kerr = 0;

		pmusim_alloc_fail_after(n);
		assert_null(perf_event_create_kernel_counter(&attr, -1, &task, NULL, NULL,
							     &tp.pmu, &kerr));
		pmusim_alloc_fail_after(-1);
		assert_int_equal(kerr, -ENOMEM);
	}
	/* and errp may be NULL */
	ev = perf_event_create_kernel_counter(&attr, 0, NULL, NULL, NULL, &tp.pmu, NULL);
	assert_non_null(ev);
	perf_event_release_kernel(ev);
	perf_event_release_kernel(leader);
	perf_find_task_by_vpid = NULL;
}

static void test_open_argument_errors(void **state)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .config = 1 };
	struct perf_event *ev;

	(void)state;
	/* larger than the syscall's u32 size */
	assert_int_equal(perf_event_open_attr(&attr, (size_t)UINT32_MAX + 1, -1, 0, NULL, 0,
					      &tp.pmu, &ev), -E2BIG);
	assert_null(ev);
	/* a task and a cpu out of range */
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, TASK_TID, CONFIG_MODEL_MAX_CPUS, NULL, 0, &ev), -EINVAL);
	assert_int_equal(open_ev(&attr, TASK_TID, -2, NULL, 0, &ev), -EINVAL);
	/* pid 0 is the caller's own task */
	pmusim_this_cpu = 1;
	assert_int_equal(open_ev(&attr, 0, -1, NULL, 0, &ev), 0);
	assert_ptr_equal(ev->target, &task);
	assert_int_equal(ev->oncpu, 1);
	perf_event_release_kernel(ev);
	pmusim_this_cpu = 0;
	/* the cgroup flag with pid or cpu -1 */
	assert_int_equal(open_ev(&attr, -1, 0, NULL, PERF_FLAG_PID_CGROUP, &ev), -EINVAL);
	assert_int_equal(open_ev(&attr, 3, -1, NULL, PERF_FLAG_PID_CGROUP, &ev), -EINVAL);
	/* a kernel counter is checked for exclusivity like an open */
	tp.pmu.capabilities = PERF_PMU_CAP_EXCLUSIVE;
	ev = must_open(&attr, 0, NULL);
	{
		int kerr = 0;

		assert_null(perf_event_create_kernel_counter(&attr, 0, NULL, NULL, NULL,
							     &tp.pmu, &kerr));
		assert_int_equal(kerr, -EBUSY);
	}
	perf_event_release_kernel(ev);
	tp.pmu.capabilities = 0;
	/* the kernel's own counters: no groups, so no AUX action (EINVAL before the PMU looks) */
	{
		struct perf_event_attr aux = attr;
		int kerr = 0;

		aux.aux_pause = 1;
		assert_null(perf_event_create_kernel_counter(&aux, 0, NULL, NULL, NULL,
							     &tp.pmu, &kerr));
		assert_int_equal(kerr, -EINVAL);
		aux = attr;
		aux.aux_output = 1;
		assert_null(perf_event_create_kernel_counter(&aux, 0, NULL, NULL, NULL,
							     &tp.pmu, &kerr));
		assert_int_equal(kerr, -EINVAL);
	}
}

/* The kernel refuses extended registers and excludes as the PMU says. */
static void test_pmu_capabilities_refuse_extended_regs_and_each_exclude_bit(void **state)
{
	static const struct perf_event_attr excl[] = {
		{ .exclude_user = 1 }, { .exclude_kernel = 1 }, { .exclude_hv = 1 },
		{ .exclude_idle = 1 }, { .exclude_host = 1 }, { .exclude_guest = 1 },
	};
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	(void)state;
	tp.pmu.capabilities = PERF_PMU_CAP_NO_EXCLUDE;
	for (i = 0; i < ARRAY_SIZE(excl); i++) {
		attr = excl[i];
		assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &ev), -EINVAL);
	}
	attr = (struct perf_event_attr){ .config = 1 };
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &ev), 0);
	perf_event_release_kernel(ev);
	tp.pmu.capabilities = 0;
	for (i = 0; i < ARRAY_SIZE(excl); i++) {
		attr = excl[i];
		assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &ev), 0);
		perf_event_release_kernel(ev);
	}
	/* XMM in the interrupt registers: only with extended-regs PMUs */
	attr = (struct perf_event_attr){ .sample_type = PERF_SAMPLE_REGS_INTR,
		.sample_regs_intr = (1ULL << 8) | (1ULL << 32) };
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &ev), -EOPNOTSUPP);
	tp.pmu.capabilities = PERF_PMU_CAP_EXTENDED_REGS;
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &ev), -EOPNOTSUPP);	/* not writable */
	tp.pmu.capabilities = 0;
}

/* Exclusive PMUs: cpu-wide after per-task, and which events clash. */
static void test_exclusive_pmu_cpu_wide_after_task_and_the_match_rules(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *t, *t2, *c;

	(void)state;
	tp.pmu.capabilities = PERF_PMU_CAP_EXCLUSIVE;
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &t), 0);
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &c), -EBUSY);
	/* the same task twice: clash on any cpu, also one bound to a cpu */
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &t2), -EBUSY);
	assert_int_equal(open_ev(&attr, TASK_TID, 2, NULL, 0, &t2), -EBUSY);
	perf_event_release_kernel(t);
	assert_int_equal(open_ev(&attr, TASK_TID, 2, NULL, 0, &t), 0);
	/* bound to cpu 2 and cpu 3: no clash */
	assert_int_equal(open_ev(&attr, TASK_TID, 3, NULL, 0, &t2), 0);
	perf_event_release_kernel(t2);
	perf_event_release_kernel(t);
	/* the count is back to zero: cpu-wide events may come */
	assert_int_equal(open_ev(&attr, -1, 0, NULL, 0, &c), 0);
	perf_event_release_kernel(c);
	tp.pmu.capabilities = 0;
}

/* A task context whose CPU already runs another task's context waits. */
static void test_task_contexts_come_and_go(void **state)
{
	static struct task_struct t2 = { .pid = 300, .tid = 300, .comm = "b" };
	static struct task_struct t3 = { .pid = 400, .tid = 400, .comm = "c" };
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *a, *b, *c;

	(void)state;
	pmusim_curr[1] = &task;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &a), 0);
	assert_int_equal(a->state, PERF_EVENT_STATE_ACTIVE);
	/* t2 "runs" on cpu 1 too (a stale current): its context cannot go live */
	pmusim_curr[2] = &t2;
	assert_int_equal(open_ev(&attr, 300, -1, NULL, 0, &b), 0);
	assert_int_equal(b->oncpu, 2);
	pmusim_curr[2] = NULL;
	pmusim_curr[1] = &t2;
	perf_find_task_by_vpid = NULL;
	pmusim_curr[3] = &t3;
	assert_int_equal(open_ev(&attr, 400, -1, NULL, 0, &c), 0);
	pmusim_curr[3] = NULL;
	/* sched hooks for tasks with no context, or another task's, do nothing */
	perf_event_sched_out(1, &t3);
	perf_event_sched_out(1, NULL);
	perf_event_sched_in(1, NULL);
	perf_event_sched_in(1, &task);		/* already on */
	assert_int_equal(a->oncpu, 1);
	/* free the middle context of three, then the others */
	perf_event_release_kernel(b);
	perf_event_release_kernel(c);
	perf_event_release_kernel(a);
	pmusim_curr[1] = NULL;
}

/* A throttled event taken off and put back: UNTHROTTLE and a fresh count. */
static void test_throttled_event_unthrottles_when_it_goes_back_on(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1 };
	struct perf_event *ev = must_open(&attr, 0, NULL);
	struct perf_buffer *rb = map_buffer(ev);
	const struct perf_event_header *h;

	(void)state;
	perf_event_task_tick();
	test_pmu_advance(ev, (u64)max_samples_per_tick + 3);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_DISABLE, 0), 0);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(ev->hw.interrupts, 0);
	h = (const void *)((const u8 *)rb->data_pages[0] + rb->user_page->data_head - 32);
	assert_int_equal(h->type, PERF_RECORD_UNTHROTTLE);
	perf_event_release_kernel(ev);
}

/* PERIOD on a throttled event unthrottles it (or the tick would start it twice). */
static void test_period_on_a_throttled_event_unthrottles_it(void **state)
{
	struct perf_event_attr attr = { .sample_period = 1, .disabled = 1 };
	struct perf_event *ev = must_open(&attr, 0, NULL);
	u64 v = 1000;

	(void)state;
	/* off: the new period waits for the next start */
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	assert_int_equal(ev->hw.sample_period, 1000);
	assert_int_equal(local64_read(&ev->hw.period_left), 0);
	assert_int_equal(test_pmu_count(&tp, TP_START, ev), 0);
	v = 1;
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_ENABLE, 0), 0);
	perf_event_task_tick();
	test_pmu_advance(ev, (u64)max_samples_per_tick + 3);
	assert_int_equal(ev->hw.interrupts, MAX_INTERRUPTS);
	v = 100;
	test_pmu_clear_log(&tp);
	assert_int_equal(perf_ioctl(ev, PERF_EVENT_IOC_PERIOD, (unsigned long)&v), 0);
	assert_int_equal(ev->hw.interrupts, 0);
	assert_false(ev->hw.state & PERF_HES_STOPPED);
	/* and the tick does not start it again */
	test_pmu_clear_log(&tp);
	perf_event_task_tick();
	assert_int_equal(test_pmu_count(&tp, TP_START, ev), 0);
	perf_event_release_kernel(ev);
}

static void test_enable_disable_of_members_and_dead_events(void **state)
{
	struct perf_event_attr attr = { .config = 1 };
	struct perf_event *leader = must_open(&attr, 0, NULL), *sib = must_open(&attr, 0, leader);

	(void)state;
	assert_int_equal(sib->state, PERF_EVENT_STATE_ACTIVE);
	/* a member alone goes off; its leader stays */
	perf_event_disable(sib);
	assert_int_equal(sib->state, PERF_EVENT_STATE_OFF);
	assert_int_equal(leader->state, PERF_EVENT_STATE_ACTIVE);
	perf_event_disable(sib);			/* off already */
	assert_int_equal(test_pmu_count(&tp, TP_DEL, sib), 1);
	perf_event_enable(sib);
	assert_int_equal(sib->state, PERF_EVENT_STATE_ACTIVE);
	/* an exited event is not brought back (off the PMU first: no exit path here) */
	perf_event_disable(sib);
	sib->state = PERF_EVENT_STATE_EXIT;
	perf_event_enable(sib);
	assert_int_equal(sib->state, PERF_EVENT_STATE_EXIT);
	sib->state = PERF_EVENT_STATE_ERROR;
	perf_event_disable(sib);
	assert_int_equal(sib->state, PERF_EVENT_STATE_ERROR);
	perf_event_enable(sib);
	assert_int_equal(sib->state, PERF_EVENT_STATE_ACTIVE);
	perf_event_release_kernel(sib);
	perf_event_release_kernel(leader);
	perf_event_release_kernel(NULL);
}

static void test_set_output_to_another_tasks_buffer_and_bad_modify(void **state)
{
	static struct task_struct t2 = { .pid = 300, .tid = 300, .comm = "b" };
	struct perf_event_attr attr = { .sample_period = 10 };
	struct perf_event *a, *b, *c;
	struct perf_buffer *rb;
	struct perf_event_attr bad = { .size = 1 };

	(void)state;
	pmusim_curr[1] = &task;
	pmusim_curr[2] = &t2;
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &a), 0);
	assert_int_equal(open_ev(&attr, TASK_TID, -1, NULL, 0, &b), 0);
	assert_int_equal(open_ev(&attr, 300, -1, NULL, 0, &c), 0);
	rb = map_buffer(a);
	/* per-task buffers: one task only */
	assert_int_equal(perf_ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)a), -EINVAL);
	assert_int_equal(perf_ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)a), 0);
	assert_ptr_equal(b->rb, rb);
	/* a redirected event may be redirected again */
	assert_int_equal(perf_ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, 0), 0);
	/* a MODIFY_ATTRIBUTES attr that does not even copy */
	assert_int_equal(perf_ioctl(a, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (unsigned long)&bad), -E2BIG);
	perf_event_release_kernel(c);
	perf_event_release_kernel(b);
	perf_event_release_kernel(a);
	pmusim_curr[1] = pmusim_curr[2] = NULL;
}

/* The validate_size check counts every member's read_format, not only the new one's. */
static void test_group_read_size_counts_a_members_read_format(void **state)
{
	struct perf_event_attr big = { .disabled = 1, .read_format = PERF_FORMAT_GROUP |
		PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING };
	struct perf_event_attr small = { .disabled = 1 };
	static struct perf_event *sibs[700];
	struct perf_event *leader = must_open(&small, 0, NULL), *ev;
	int i;

	(void)state;
	/* one member reads the whole group, 24 bytes a member + 24 */
	sibs[0] = must_open(&big, 0, leader);
	for (i = 1; i < 680; i++)
		sibs[i] = must_open(&small, 0, leader);
	assert_int_equal(open_ev(&small, -1, 0, leader, 0, &ev), -E2BIG);
	perf_event_release_kernel(sibs[679]);
	assert_int_equal(open_ev(&small, -1, 0, leader, 0, &ev), 0);
	perf_event_release_kernel(ev);
	for (i = 0; i < 679; i++)
		perf_event_release_kernel(sibs[i]);
	perf_event_release_kernel(leader);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_enable_disable_reset_and_read),
		T(test_group_flag_applies_to_the_whole_group),
		T(test_id_ioctl_and_its_efault),
		T(test_period_ioctl_checks_and_reprograms_at_once),
		T(test_refresh_refused_on_counting_and_inherited_events),
		T(test_set_output_rules_and_pause_output),
		T(test_unknown_and_unsupported_ioctls),
		T(test_group_rules_at_open),
		T(test_group_read_size_limit_is_e2big),
		T(test_exclusive_pmu_keeps_task_and_cpu_events_apart),
		T(test_task_event_follows_its_task_with_times),
		T(test_group_goes_on_all_or_nothing),
		T(test_reset_and_period_keep_the_self_monitoring_read_exact),
		T(test_group_left_off_the_pmu_still_updates_its_page),
		T(test_member_of_an_off_leader_has_no_enabled_time),
		T(test_group_page_refresh_skips_redirected_members_and_unmapped_leaders),
		T(test_new_task_context_waits_for_a_busy_cpu),
		T(test_exclusive_is_per_pmu_and_enable_twice),
		T(test_each_clockid_reads_its_clock),
		T(test_pmu_registry_refuses_bad_and_duplicate_pmus_and_fills_up),
		T(test_out_of_memory_on_every_allocation_of_open),
		T(test_open_argument_errors),
		T(test_pmu_capabilities_refuse_extended_regs_and_each_exclude_bit),
		T(test_exclusive_pmu_cpu_wide_after_task_and_the_match_rules),
		T(test_task_contexts_come_and_go),
		T(test_throttled_event_unthrottles_when_it_goes_back_on),
		T(test_period_on_a_throttled_event_unthrottles_it),
		T(test_enable_disable_of_members_and_dead_events),
		T(test_set_output_to_another_tasks_buffer_and_bad_modify),
		T(test_group_read_size_counts_a_members_read_format),
	};
	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
