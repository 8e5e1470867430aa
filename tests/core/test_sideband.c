// SPDX-License-Identifier: GPL-2.0-only
/*
 * Side-band records byte by byte, each with the full sample_id trailer,
 * and their delivery through the event contexts: the CPU's own events
 * that asked for them and current's task context, nothing else.
 */
#include "tests/test.h"
#include "core/sideband.h"
#include "tests/lib/test_pmu.h"
#include "records_fixture.h"

#define ID_ALL (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define CPU	3
#define NOW	123456789ULL

static struct test_pmu tp;
static struct task_struct cur = { .pid = 100, .tid = 101, .comm = "work" };
static struct task_struct other = { .pid = 300, .tid = 301, .comm = "other" };

static u64 test_clock(void)
{
	return NOW;
}

static struct task_struct *find_task(int pid)
{
	if (pid == cur.tid)
		return &cur;
	if (pid == other.tid)
		return &other;
	return NULL;
}

static int setup(void **state)
{
	(void)state;
	test_pmu_init(&tp, PERF_TYPE_RAW);
	pmusim_this_cpu = CPU;
	pmusim_curr[CPU] = &cur;
	pmusim_clock_ns = test_clock;
	perf_find_task_by_vpid = find_task;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmusim_curr[CPU] = NULL;
	pmusim_clock_ns = NULL;
	perf_find_task_by_vpid = NULL;
	return 0;
}

struct sb_event {
	struct perf_event *ev;
	struct perf_buffer *rb;
};

/* Open @attr (with the full trailer) for @pid/@cpu and give it a buffer. */
static void open_sb(struct sb_event *s, struct perf_event_attr *attr, int pid, int cpu)
{
	attr->size = sizeof(*attr);
	attr->sample_type |= ID_ALL;
	attr->sample_id_all = 1;
	assert_int_equal(perf_event_open_attr(attr, sizeof(*attr), pid, cpu, NULL, 0,
					      &tp.pmu, &s->ev), 0);
	s->rb = rb_alloc(2, 0, cpu < 0 ? 0 : cpu, RING_BUFFER_WRITABLE);
	assert_non_null(s->rb);
	refcount_inc(&s->rb->refcount);		/* the test's own reference */
	ring_buffer_attach(s->ev, s->rb);
}

static void close_sb(struct sb_event *s)
{
	perf_event_release_kernel(s->ev);
	ring_buffer_put(s->rb);
}

/* TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER: 48 bytes, as current sees them. */
static void put_trailer(struct expect *e, struct perf_event *ev)
{
	struct task_struct *t = current;

	put32(e, t ? (u32)t->pid : 0); put32(e, t ? (u32)t->tid : 0);
	put64(e, NOW);
	put64(e, ev->id);
	put64(e, ev->id);
	put32(e, CPU); put32(e, 0);
	put64(e, ev->id);
}

/* The types of the records in @rb, in order; returns how many. */
static unsigned int record_types(struct perf_buffer *rb, u32 *types, unsigned int max)
{
	const u8 *data = (const u8 *)rb->user_page + rb->user_page->data_offset;
	u64 off = 0, head = rb->user_page->data_head;
	unsigned int n = 0;

	while (off < head && n < max) {
		const struct perf_event_header *h = (const void *)(data + off);

		types[n++] = h->type;
		off += h->size;
	}
	return n;
}

static void comm_and_comm_exec(void **state)
{
	struct perf_event_attr attr = { 0 };
	struct sb_event s;
	struct task_struct t = { .pid = 5, .tid = 6, .comm = "abcdefgh" };
	struct expect e = { 0 };

	(void)state;
	open_sb(&s, &attr, -1, CPU);
	perf_event_comm(&t, false);		/* not asked for */
	s.ev->attr.comm = 1;
	perf_event_comm(&t, false);
	perf_event_comm(&t, true);
	for (int exec = 0; exec < 2; exec++) {
		put_header(&e, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, 8 + 8 + 16 + 48);
		put32(&e, 5); put32(&e, 6);
		put_bytes(&e, "abcdefgh\0\0\0\0\0\0\0\0", 16);
		put_trailer(&e, s.ev);
	}
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

static void comm_of_full_length_is_cut_at_15(void **state)
{
	struct perf_event_attr attr = { .comm = 1 };
	struct sb_event s;
	struct task_struct t = { .pid = 5, .tid = 6 };
	struct expect e = { 0 };

	(void)state;
	memcpy(t.comm, "0123456789abcdefXYZ", TASK_COMM_LEN);	/* no NUL */
	open_sb(&s, &attr, -1, CPU);
	perf_event_comm(&t, false);
	put_header(&e, PERF_RECORD_COMM, 0, 8 + 8 + 16 + 48);
	put32(&e, 5); put32(&e, 6);
	put_bytes(&e, "0123456789abcde\0", 16);
	put_trailer(&e, s.ev);
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

static void mmap2_mmap_and_data(void **state)
{
	struct perf_event_attr attr = { .mmap2 = 1 };
	struct sb_event s;
	struct perf_mmap_info exec = { .pid = 9, .tid = 10, .addr = 0x400000, .len = 0x2000,
				       .pgoff = 0x1000, .maj = 8, .min = 1, .ino = 1234,
				       .ino_generation = 2, .prot = 5, .flags = 2,
				       .filename = "/bin/x" };
	struct perf_mmap_info data = exec;
	struct expect e = { 0 };

	(void)state;
	data.prot = 3;
	data.filename = "/data/file.bin";
	open_sb(&s, &attr, -1, CPU);
	perf_event_mmap(&data);			/* no mmap_data: skipped */
	perf_event_mmap(&exec);
	put_header(&e, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 8 + 32 + 32 + 8 + 48);
	put32(&e, 9); put32(&e, 10);
	put64(&e, 0x400000); put64(&e, 0x2000); put64(&e, 0x1000);
	put32(&e, 8); put32(&e, 1); put64(&e, 1234); put64(&e, 2); put32(&e, 5); put32(&e, 2);
	put_bytes(&e, "/bin/x\0\0", 8);
	put_trailer(&e, s.ev);

	s.ev->attr.mmap2 = 0;
	s.ev->attr.mmap_data = 1;
	perf_event_mmap(&data);
	put_header(&e, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
		   8 + 32 + 16 + 48);
	put32(&e, 9); put32(&e, 10);
	put64(&e, 0x400000); put64(&e, 0x2000); put64(&e, 0x1000);
	put_bytes(&e, "/data/file.bin\0\0", 16);
	put_trailer(&e, s.ev);

	/* plain MMAP: executable mappings only; an anonymous one is "//anon" */
	s.ev->attr.mmap_data = 0;
	s.ev->attr.mmap = 1;
	perf_event_mmap(&data);
	exec.filename = NULL;
	perf_event_mmap(&exec);
	put_header(&e, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER, 8 + 32 + 8 + 48);
	put32(&e, 9); put32(&e, 10);
	put64(&e, 0x400000); put64(&e, 0x2000); put64(&e, 0x1000);
	put_bytes(&e, "//anon\0\0", 8);
	put_trailer(&e, s.ev);
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

static void mmap_name_longer_than_a_path_is_toolong(void **state)
{
	struct perf_event_attr attr = { .mmap = 1 };
	struct sb_event s;
	static char name[5000];
	struct perf_mmap_info exec = { .pid = 9, .tid = 10, .addr = 0x1000, .len = 0x1000,
				       .prot = 5, .filename = name };
	struct expect e = { 0 };

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	open_sb(&s, &attr, -1, CPU);
	perf_event_mmap(&exec);
	put_header(&e, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER, 8 + 32 + 16 + 48);
	put32(&e, 9); put32(&e, 10);
	put64(&e, 0x1000); put64(&e, 0x1000); put64(&e, 0);
	put_bytes(&e, "//toolong\0\0\0\0\0\0\0", 16);
	put_trailer(&e, s.ev);
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

static void fork_and_exit(void **state)
{
	struct perf_event_attr attr = { 0 };
	struct sb_event s;
	struct task_struct parent = { .pid = 100, .tid = 101 };
	struct task_struct child = { .pid = 200, .tid = 201, .real_parent = &parent };
	struct expect e = { 0 };

	(void)state;
	open_sb(&s, &attr, -1, CPU);
	perf_event_task(&child, 1);		/* not asked for */
	s.ev->attr.task = 1;
	perf_event_task(&child, 1);
	perf_event_task(&child, 0);
	put_header(&e, PERF_RECORD_FORK, 0, 8 + 24 + 48);
	put32(&e, 200); put32(&e, 100); put32(&e, 201); put32(&e, 101); put64(&e, NOW);
	put_trailer(&e, s.ev);
	put_header(&e, PERF_RECORD_EXIT, 0, 8 + 24 + 48);
	put32(&e, 200); put32(&e, 100); put32(&e, 201); put32(&e, 100); put64(&e, NOW);
	put_trailer(&e, s.ev);
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

static void switch_per_task_and_cpu_wide(void **state)
{
	struct perf_event_attr attr = { .context_switch = 1 };
	struct sb_event task_ev, wide;
	struct expect e = { 0 }, w = { 0 };

	(void)state;
	open_sb(&wide, &attr, -1, CPU);
	attr = (struct perf_event_attr){ .context_switch = 1 };
	open_sb(&task_ev, &attr, cur.tid, -1);
	cur.on_rq = 1;
	perf_event_switch(&cur, &other, false);		/* preempted */
	cur.on_rq = 0;
	perf_event_switch(&cur, &other, false);		/* blocked */
	perf_event_switch(&cur, &other, true);

	put_header(&e, PERF_RECORD_SWITCH,
		   PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, 56);
	put_trailer(&e, task_ev.ev);
	put_header(&e, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT, 56);
	put_trailer(&e, task_ev.ev);
	put_header(&e, PERF_RECORD_SWITCH, 0, 56);
	put_trailer(&e, task_ev.ev);
	assert_buffer(task_ev.rb, &e);

	put_header(&w, PERF_RECORD_SWITCH_CPU_WIDE,
		   PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, 64);
	put32(&w, 300); put32(&w, 301); put_trailer(&w, wide.ev);
	put_header(&w, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT, 64);
	put32(&w, 300); put32(&w, 301); put_trailer(&w, wide.ev);
	put_header(&w, PERF_RECORD_SWITCH_CPU_WIDE, 0, 64);
	put32(&w, 300); put32(&w, 301); put_trailer(&w, wide.ev);
	assert_buffer(wide.rb, &w);
	close_sb(&task_ev);
	close_sb(&wide);
}

/*
 * A context switch as the simulator drives it: SWITCH_OUT while the old
 * task is current, its context off, the new task's on, SWITCH_IN. The
 * per-task event hears only its own task's half; the CPU-wide one both.
 */
static void switch_follows_current_through_a_real_context_switch(void **state)
{
	struct perf_event_attr attr = { .context_switch = 1 };
	struct sb_event wide, mine, theirs;
	u32 types[8];

	(void)state;
	open_sb(&wide, &attr, -1, CPU);
	attr = (struct perf_event_attr){ .context_switch = 1 };
	open_sb(&mine, &attr, cur.tid, -1);
	attr = (struct perf_event_attr){ .context_switch = 1 };
	open_sb(&theirs, &attr, other.tid, -1);
	assert_int_equal(theirs.ev->state, PERF_EVENT_STATE_INACTIVE);

	perf_event_switch(&cur, &other, false);
	perf_event_sched_out(CPU, &cur);
	pmusim_curr[CPU] = &other;
	perf_event_sched_in(CPU, &other);
	perf_event_switch(&other, &cur, true);

	assert_int_equal(record_types(mine.rb, types, 8), 1);
	assert_int_equal(types[0], PERF_RECORD_SWITCH);
	assert_int_equal(record_types(theirs.rb, types, 8), 1);
	assert_int_equal(types[0], PERF_RECORD_SWITCH);
	assert_int_equal(record_types(wide.rb, types, 8), 2);
	assert_int_equal(types[0], PERF_RECORD_SWITCH_CPU_WIDE);
	assert_int_equal(types[1], PERF_RECORD_SWITCH_CPU_WIDE);
	/* the in-record of the new task carries its ids in the trailer */
	assert_int_equal(theirs.ev->state, PERF_EVENT_STATE_ACTIVE);

	perf_event_sched_out(CPU, &other);
	pmusim_curr[CPU] = &cur;
	perf_event_sched_in(CPU, &cur);
	close_sb(&theirs);
	close_sb(&mine);
	close_sb(&wide);
}

static void comm_goes_to_every_event_that_may_want_it_and_no_other(void **state)
{
	struct task_struct t = { .pid = 5, .tid = 6, .comm = "x" };
	struct sb_event wide, wide_cpu2, task_any, task_cpu2, other_task, off, no_comm, counting;
	struct perf_event_attr attr;
	u32 types[4];

	(void)state;
	attr = (struct perf_event_attr){ .comm = 1 };
	open_sb(&wide, &attr, -1, CPU);
	attr = (struct perf_event_attr){ .comm = 1 };
	open_sb(&wide_cpu2, &attr, -1, 2);		/* another CPU's */
	attr = (struct perf_event_attr){ .comm = 1 };
	open_sb(&task_any, &attr, cur.tid, -1);		/* current's, any CPU */
	attr = (struct perf_event_attr){ .comm = 1 };
	open_sb(&task_cpu2, &attr, cur.tid, 2);		/* current's, bound to CPU 2 */
	attr = (struct perf_event_attr){ .comm = 1 };
	open_sb(&other_task, &attr, other.tid, -1);	/* a task not running */
	attr = (struct perf_event_attr){ .comm = 1, .disabled = 1 };
	open_sb(&off, &attr, -1, CPU);
	attr = (struct perf_event_attr){ .mmap = 1 };
	open_sb(&no_comm, &attr, -1, CPU);		/* side-band, but not COMM */
	attr = (struct perf_event_attr){ .sample_period = 100 };
	open_sb(&counting, &attr, -1, CPU);		/* no side-band at all */

	perf_event_comm(&t, false);

	assert_int_equal(record_types(wide.rb, types, 4), 1);
	assert_int_equal(types[0], PERF_RECORD_COMM);
	assert_int_equal(record_types(task_any.rb, types, 4), 1);
	assert_int_equal(record_types(wide_cpu2.rb, types, 4), 0);
	assert_int_equal(record_types(task_cpu2.rb, types, 4), 0);
	assert_int_equal(record_types(other_task.rb, types, 4), 0);
	assert_int_equal(record_types(off.rb, types, 4), 0);
	assert_int_equal(record_types(no_comm.rb, types, 4), 0);
	assert_int_equal(record_types(counting.rb, types, 4), 0);

	/* enabled, it hears the next one; from CPU 2 the CPU-2 events do */
	assert_int_equal(perf_ioctl(off.ev, PERF_EVENT_IOC_ENABLE, 0), 0);
	perf_event_comm(&t, false);
	assert_int_equal(record_types(off.rb, types, 4), 1);
	pmusim_curr[2] = &cur;
	pmusim_this_cpu = 2;
	perf_event_comm(&t, false);
	pmusim_this_cpu = CPU;
	pmusim_curr[2] = NULL;
	assert_int_equal(record_types(wide_cpu2.rb, types, 4), 1);
	assert_int_equal(record_types(task_cpu2.rb, types, 4), 1);
	assert_int_equal(record_types(task_any.rb, types, 4), 3);
	assert_int_equal(record_types(wide.rb, types, 4), 2);

	/* the idle task has no context: only the CPU's events hear it */
	pmusim_curr[CPU] = NULL;
	perf_event_comm(&t, false);
	pmusim_curr[CPU] = &cur;
	assert_int_equal(record_types(wide.rb, types, 4), 3);
	assert_int_equal(record_types(task_any.rb, types, 4), 3);

	close_sb(&counting);
	close_sb(&no_comm);
	close_sb(&off);
	close_sb(&other_task);
	close_sb(&task_cpu2);
	close_sb(&task_any);
	close_sb(&wide_cpu2);
	close_sb(&wide);
}

static void throttle_unthrottle_lost_samples(void **state)
{
	struct perf_event_attr attr = { .sample_period = 10 };
	struct sb_event s;
	struct expect e = { 0 };

	(void)state;
	open_sb(&s, &attr, -1, CPU);
	perf_log_throttle(s.ev, 0);
	perf_log_throttle(s.ev, 1);
	perf_log_lost_samples(s.ev, 42);
	for (int en = 0; en < 2; en++) {
		put_header(&e, en ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE, 0, 32 + 48);
		put64(&e, NOW); put64(&e, s.ev->id); put64(&e, s.ev->id);
		put_trailer(&e, s.ev);
	}
	put_header(&e, PERF_RECORD_LOST_SAMPLES, 0, 16 + 48);
	put64(&e, 42);
	put_trailer(&e, s.ev);
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

static void no_trailer_without_sample_id_all(void **state)
{
	struct perf_event_attr attr = { .comm = 1 };
	struct sb_event s;
	struct task_struct t = { .pid = 5, .tid = 6, .comm = "x" };
	struct expect e = { 0 };

	(void)state;
	open_sb(&s, &attr, -1, CPU);
	s.ev->attr.sample_id_all = 0;
	perf_event_comm(&t, false);
	put_header(&e, PERF_RECORD_COMM, 0, 8 + 8 + 8);
	put32(&e, 5); put32(&e, 6);
	put_bytes(&e, "x\0\0\0\0\0\0\0", 8);
	assert_buffer(s.rb, &e);
	close_sb(&s);
}

/* A paused buffer refuses side-band records; each is counted for the next LOST. */
static void sideband_into_a_paused_buffer_is_counted_lost(void **state)
{
	struct perf_event_attr attr = { .comm = 1, .task = 1, .mmap = 1, .context_switch = 1 };
	struct perf_mmap_info exec = { .addr = 0x1000, .len = 0x1000, .prot = 5, .filename = "/x" };
	struct task_struct t = { .pid = 5, .tid = 6, .comm = "x", .real_parent = &cur };
	struct sb_event s;

	(void)state;
	open_sb(&s, &attr, -1, CPU);
	assert_int_equal(perf_ioctl(s.ev, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 0);
	perf_event_comm(&t, false);
	perf_event_mmap(&exec);
	perf_event_task(&t, 1);
	perf_event_switch(&cur, &other, false);
	perf_log_throttle(s.ev, 0);
	perf_log_lost_samples(s.ev, 1);
	assert_int_equal(s.rb->user_page->data_head, 0);
	assert_int_equal(local_read(&s.rb->lost), 6);
	assert_int_equal(atomic64_read(&s.ev->lost_samples), 6);
	close_sb(&s);
}

static struct perf_event *visited[16];
static unsigned int nr_visited;

static void visit(struct perf_event *event, void *data)
{
	(void)data;
	if (nr_visited < ARRAY_SIZE(visited))
		visited[nr_visited] = event;
	nr_visited++;
}

static bool was_visited(struct perf_event *event)
{
	for (unsigned int i = 0; i < nr_visited && i < ARRAY_SIZE(visited); i++)
		if (visited[i] == event)
			return true;
	return false;
}

/* Each attr bit that asks for side-band puts a CPU-wide event on the walk. */
static void every_side_band_bit_puts_a_cpu_event_on_the_walk(void **state)
{
	static const struct perf_event_attr bits[] = {
		{ .mmap = 1 }, { .mmap_data = 1 }, { .mmap2 = 1 }, { .comm = 1 },
		{ .comm_exec = 1 }, { .task = 1 }, { .ksymbol = 1 },
		{ .context_switch = 1 }, { .text_poke = 1 }, { .bpf_event = 1 },
	};
	struct sb_event s[ARRAY_SIZE(bits)], none;
	struct perf_event_attr attr;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		attr = bits[i];
		open_sb(&s[i], &attr, -1, CPU);
	}
	attr = (struct perf_event_attr){ .sample_period = 1 };
	open_sb(&none, &attr, -1, CPU);
	nr_visited = 0;
	perf_iterate_sb(visit, NULL);
	assert_int_equal(nr_visited, ARRAY_SIZE(bits));
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		assert_true(was_visited(s[i].ev));
	assert_false(was_visited(none.ev));
	close_sb(&none);
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		close_sb(&s[i]);
}

/* FORK and EXIT go to comm, mmap, mmap2, mmap_data and task events alike. */
static void fork_goes_to_every_tracking_bit_and_switch_to_none(void **state)
{
	static const struct perf_event_attr bits[] = {
		{ .comm = 1 }, { .mmap = 1 }, { .mmap2 = 1 }, { .mmap_data = 1 }, { .task = 1 },
	};
	struct task_struct child = { .pid = 200, .tid = 201, .real_parent = &cur };
	struct sb_event s[ARRAY_SIZE(bits)], sw;
	struct perf_event_attr attr;
	u32 types[4];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		attr = bits[i];
		open_sb(&s[i], &attr, -1, CPU);
	}
	attr = (struct perf_event_attr){ .context_switch = 1 };
	open_sb(&sw, &attr, -1, CPU);
	perf_event_task(&child, 1);
	perf_event_task(&child, 0);
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		assert_int_equal(record_types(s[i].rb, types, 4), 2);
		assert_int_equal(types[0], PERF_RECORD_FORK);
		assert_int_equal(types[1], PERF_RECORD_EXIT);
	}
	assert_int_equal(record_types(sw.rb, types, 4), 0);
	/* and a switch reaches only the context_switch one */
	perf_event_switch(&cur, &other, false);
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		assert_int_equal(record_types(s[i].rb, types, 4), 2);
	assert_int_equal(record_types(sw.rb, types, 4), 1);
	close_sb(&sw);
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		close_sb(&s[i]);
}

/* mmap_data is for data mappings only; mmap and mmap2 for executable ones. */
static void mmap_bits_split_executable_and_data_mappings(void **state)
{
	struct perf_mmap_info exec = { .addr = 0x1000, .len = 0x1000, .prot = 5, .filename = "/x" };
	struct perf_mmap_info data = { .addr = 0x2000, .len = 0x1000, .prot = 3, .filename = "/d" };
	struct perf_event_attr attr;
	struct sb_event only_data, only_mmap, both;
	u32 types[4];

	(void)state;
	attr = (struct perf_event_attr){ .mmap_data = 1 };
	open_sb(&only_data, &attr, -1, CPU);
	attr = (struct perf_event_attr){ .mmap = 1 };
	open_sb(&only_mmap, &attr, -1, CPU);
	attr = (struct perf_event_attr){ .mmap2 = 1, .mmap_data = 1 };
	open_sb(&both, &attr, -1, CPU);
	perf_event_mmap(&exec);
	perf_event_mmap(&data);
	assert_int_equal(record_types(only_data.rb, types, 4), 1);
	assert_int_equal(types[0], PERF_RECORD_MMAP);
	assert_int_equal(record_types(only_mmap.rb, types, 4), 1);
	assert_int_equal(types[0], PERF_RECORD_MMAP);
	assert_int_equal(record_types(both.rb, types, 4), 2);
	assert_int_equal(types[0], PERF_RECORD_MMAP2);
	assert_int_equal(types[1], PERF_RECORD_MMAP2);
	close_sb(&both);
	close_sb(&only_mmap);
	close_sb(&only_data);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(comm_and_comm_exec),
		T(comm_of_full_length_is_cut_at_15),
		T(mmap2_mmap_and_data),
		T(mmap_name_longer_than_a_path_is_toolong),
		T(fork_and_exit),
		T(switch_per_task_and_cpu_wide),
		T(switch_follows_current_through_a_real_context_switch),
		T(comm_goes_to_every_event_that_may_want_it_and_no_other),
		T(throttle_unthrottle_lost_samples),
		T(no_trailer_without_sample_id_all),
		T(sideband_into_a_paused_buffer_is_counted_lost),
		T(every_side_band_bit_puts_a_cpu_event_on_the_walk),
		T(fork_goes_to_every_tracking_bit_and_switch_to_none),
		T(mmap_bits_split_executable_and_data_mappings),
	};
	return cmocka_run_group_tests_name("sideband", tests, NULL, NULL);
}
