// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of core/ring_buffer.c against the v6.12 semantics written up in
 * shared/notes/ringbuf-semantics.md (sections 1.1-1.10): space rules in
 * both directions, overwrite, pause, LOST records, wakeups, copies across
 * pages and the end of the buffer, and nested writers at every
 * interleaving point.
 */
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>

#include "tests/core/ring_buffer_test.h"
#include "tests/test.h"

#define EV_ID	RB_CASE_ID
#define NMI_ID	77

static struct task_struct rbt_task = { .pid = 100, .tid = 101, .comm = "rbt" };
static u64 rbt_now = 5000;

static u64 rbt_clock(void)
{
	return rbt_now;
}

static int group_setup(void **state)
{
	(void)state;
	pmusim_this_cpu = 0;
	pmusim_curr[0] = &rbt_task;
	pmusim_clock_ns = rbt_clock;
	return 0;
}

static int test_teardown(void **state)
{
	(void)state;
	rbt_nmi_disarm();
	pmusim_alloc_fail_after(-1);
	return 0;
}

static void need_interleave(void)
{
	if (!IS_ENABLED(CONFIG_PERF_INTERLEAVE))
		pmusim_skip("CONFIG_PERF_INTERLEAVE is off");
}

/* A buffer of @nr_pages attached to a fresh @ev with id EV_ID. */
/* rb_setup()'s layout: 0 (one block) or RING_BUFFER_SCATTERED */
static int rb_layout;

static struct perf_buffer *rb_setup(struct perf_event *ev, int nr_pages,
				    bool writable, bool backward, long watermark)
{
	struct perf_buffer *rb;

	rb = rb_alloc(nr_pages, watermark, 0, (writable ? RING_BUFFER_WRITABLE : 0) | rb_layout);
	assert_non_null(rb);
	memset(ev, 0, sizeof(*ev));
	ev->attr.write_backward = backward;
	ev->id = EV_ID;
	ev->stream_id = EV_ID;
	ring_buffer_attach(ev, rb);
	return rb;
}

static void rb_teardown(struct perf_event *ev)
{
	ring_buffer_attach(ev, NULL);
}

static void assert_lost_record(const struct rbt_rec *r, u64 id, u64 lost)
{
	assert_int_equal(r->type, PERF_RECORD_LOST);
	assert_int_equal(r->misc, 0);
	assert_int_equal(r->size, 24);
	assert_int_equal(r->word1, id);
	assert_int_equal(r->word2, lost);
}

/* ---- allocation ------------------------------------------------------------ */

static void test_alloc_lays_out_user_page_then_data_pages_like_the_mmap(void **state)
{
	static const int nrs[] = { 1, 2, 8 };
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		struct perf_buffer *rb = rb_alloc(nrs[i], 0, 0, RING_BUFFER_WRITABLE);
		struct perf_event_mmap_page *pg;
		unsigned char *data;
		size_t b;

		assert_non_null(rb);
		pg = rb->user_page;
		assert_int_equal((uintptr_t)pg % PAGE_SIZE, 0);
		assert_int_equal(pg->data_offset, PAGE_SIZE);
		assert_int_equal(pg->data_size, nrs[i] * PAGE_SIZE);
		assert_int_equal(perf_data_size(rb), nrs[i] * PAGE_SIZE);
		assert_int_equal(pg->data_head, 0);
		assert_int_equal(pg->data_tail, 0);
		assert_int_equal(pg->index, 0);
		assert_int_equal(pg->time_enabled, 0);
		assert_int_equal(data_page_nr(rb), nrs[i]);
#ifdef CONFIG_PERF_USE_VMALLOC
		/* one page of order ilog2(n) */
		assert_int_equal(rb->nr_pages, 1);
		assert_int_equal(PAGE_SIZE << page_order(rb), nrs[i] * PAGE_SIZE);
		assert_ptr_equal(rb->data_pages[0], (char *)pg + PAGE_SIZE);
#else
		for (int p = 0; p < nrs[i]; p++)
			assert_ptr_equal(rb->data_pages[p], (char *)pg + (p + 1) * PAGE_SIZE);
#endif
		data = (unsigned char *)pg + pg->data_offset;
		for (b = 0; b < pg->data_size; b++)
			assert_int_equal(data[b], 0);
		assert_int_equal(rb->overwrite, 0);
		assert_int_equal(rb->paused, 0);
		assert_int_equal(refcount_read(&rb->refcount), 1);
		rb_free(rb);
	}

	/* A mapping without PROT_WRITE: the buffer overwrites itself. */
	{
		struct perf_buffer *rb = rb_alloc(1, 0, 0, 0);

		assert_non_null(rb);
		assert_int_equal(rb->overwrite, 1);
		rb_free(rb);
	}
}

/*
 * RING_BUFFER_SCATTERED: user space sees the user page and the data pages
 * in order, as its mmap() does; the writer sees each data page alone,
 * none next to the one before it, the same bytes through both.
 */
static void test_alloc_scattered_pages_are_separate_behind_one_user_view(void **state)
{
	static const int nrs[] = { 0, 1, 2, 8 };

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(nrs); i++) {
		struct perf_buffer *rb = rb_alloc(nrs[i], 0, 0,
						  RING_BUFFER_WRITABLE | RING_BUFFER_SCATTERED);
		struct perf_event_mmap_page *pg;
		unsigned char *data;

		assert_non_null(rb);
		pg = rb->user_page;
		assert_int_equal((uintptr_t)pg % PAGE_SIZE, 0);
		assert_int_equal(pg->data_offset, PAGE_SIZE);
		assert_int_equal(pg->data_size, nrs[i] * PAGE_SIZE);
		assert_int_equal(pg->data_head, 0);
		data = (unsigned char *)pg + pg->data_offset;
		for (size_t b = 0; b < pg->data_size; b++)
			assert_int_equal(data[b], 0);
#ifndef CONFIG_PERF_USE_VMALLOC
		assert_int_equal(rb->nr_pages, nrs[i]);
		for (int p = 0; p < nrs[i]; p++) {
			unsigned char *page = rb->data_pages[p];

			assert_int_equal((uintptr_t)page % PAGE_SIZE, 0);
			assert_ptr_not_equal(page, data + p * PAGE_SIZE);
			if (p)
				assert_ptr_not_equal(page, (unsigned char *)rb->data_pages[p - 1] + PAGE_SIZE);
			/* one page, two views */
			page[0] = (unsigned char)(p + 1);
			page[PAGE_SIZE - 1] = (unsigned char)(p + 0x81);
			assert_int_equal(data[p * PAGE_SIZE], p + 1);
			assert_int_equal(data[p * PAGE_SIZE + PAGE_SIZE - 1], p + 0x81);
		}
#else
		/* the one data area, apart from the user page, the same bytes */
		assert_int_equal(rb->nr_pages, !!nrs[i]);
		if (nrs[i]) {
			unsigned char *area = rb->data_pages[0];

			assert_ptr_not_equal(area, data);
			area[0] = 1;
			area[nrs[i] * PAGE_SIZE - 1] = 2;
			assert_int_equal(data[0], 1);
			assert_int_equal(data[nrs[i] * PAGE_SIZE - 1], 2);
		}
#endif
		rb_free(rb);
	}
}

static void test_alloc_rejects_page_counts_that_are_not_a_power_of_two(void **state)
{
	static const int bad[] = { 3, 6, 12, -1, -4, INT_MAX, 1 << 30 };
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_null(rb_alloc(bad[i], 0, 0, RING_BUFFER_WRITABLE));
}

static void test_alloc_zero_pages_stays_paused_and_counts_no_loss(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_setup(&ev, 0, true, false, 0);

	(void)state;
	assert_int_equal(rb->paused, 1);
	assert_int_equal(rb->user_page->data_size, 0);
	assert_int_equal(rb->watermark, 0);
	assert_int_equal(rbt_write(&ev, 16, 1, false), -ENOSPC);
	rb_toggle_paused(rb, false);
	assert_int_equal(rb->paused, 1);
	assert_int_equal(rbt_write(&ev, 16, 2, false), -ENOSPC);
	assert_int_equal(local_read(&rb->lost), 0);
	assert_int_equal(atomic64_read(&ev.lost_samples), 0);
	rb_teardown(&ev);
}

static void test_alloc_failure_at_each_allocation_returns_null(void **state)
{
	struct perf_buffer *rb;
	long n;

	(void)state;
	/* Two allocations: the struct and the pages. Leaks show under ASan. */
	for (n = 0; n < 2; n++) {
		pmusim_alloc_fail_after(n);
		assert_null(rb_alloc(4, 0, 0, RING_BUFFER_WRITABLE));
	}
	pmusim_alloc_fail_after(2);
	rb = rb_alloc(4, 0, 0, RING_BUFFER_WRITABLE);
	assert_non_null(rb);
	pmusim_alloc_fail_after(-1);
	rb_free(rb);
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * Scattered pages come from the host (a memfd, mapped twice): when it
 * refuses, with no descriptor left for the memfd or a file size limit
 * below the buffer's size, rb_alloc() fails whole, with no descriptor
 * left open (and, under ASan, nothing leaked).
 */
static void test_alloc_scattered_fails_whole_when_the_host_refuses(void **state)
{
	struct rlimit saved, none = { 0, 0 };
	void (*old_xfsz)(int);
	unsigned int fds = open_fds();

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	none.rlim_max = saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &none), 0);
	assert_null(rb_alloc(2, 0, 0, RING_BUFFER_WRITABLE | RING_BUFFER_SCATTERED));
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(open_fds(), fds);

	/* ftruncate() past RLIMIT_FSIZE: EFBIG (and SIGXFSZ, ignored here) */
	old_xfsz = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	none.rlim_max = saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &none), 0);
	assert_null(rb_alloc(2, 0, 0, RING_BUFFER_WRITABLE | RING_BUFFER_SCATTERED));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, old_xfsz);
	assert_int_equal(open_fds(), fds);
}

static void test_watermark_defaults_to_half_the_data_and_is_clamped_to_it(void **state)
{
	struct { int nr; long wm, want; } c[] = {
		{ 1, 0, 2048 }, { 4, 0, 8192 }, { 1, 100, 100 },
		{ 1, 10000, 4096 }, { 2, 8192, 8192 }, { 0, 0, 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct perf_buffer *rb = rb_alloc(c[i].nr, c[i].wm, 0, 0);

		assert_non_null(rb);
		assert_int_equal(rb->watermark, c[i].want);
		rb_free(rb);
	}
}

static void test_attach_hands_over_references_and_children_use_the_parent(void **state)
{
	struct perf_event ev, ev2, child;
	struct perf_buffer *rb = rb_setup(&ev, 1, true, false, 0), *got;
	struct rbt_view v;
	struct rbt_rec r;

	(void)state;
	memset(&ev2, 0, sizeof(ev2));
	memset(&child, 0, sizeof(child));
	child.parent = &ev;
	child.id = 1234;

	assert_int_equal(refcount_read(&rb->refcount), 1);
	got = ring_buffer_get(&child);
	assert_ptr_equal(got, rb);
	assert_int_equal(refcount_read(&rb->refcount), 2);
	ring_buffer_attach(&ev2, got);
	assert_ptr_equal(ev2.rb, rb);

	/* An inherited event writes into its parent's buffer, as the parent. */
	assert_int_equal(rbt_write(&child, 32, 5, false), 0);
	rbt_view_init(&v, rb);
	assert_int_equal(rbt_parse(&v, 0, rbt_read_head(&v), &r, 1), 1);
	assert_true(rbt_record_intact(&v, &r));

	ring_buffer_attach(&ev, NULL);
	assert_null(ev.rb);
	assert_int_equal(refcount_read(&rb->refcount), 1);
	assert_null(ring_buffer_get(&ev));
	ring_buffer_attach(&ev2, NULL);	/* the last reference frees it */
}

/* ---- basic writes and space rules ------------------------------------------ */

/*
 * Overwrite mode checks no space at all: a record larger than the
 * buffer is reserved and its copy wraps over its own beginning. The
 * bytes stay inside the data pages (ASan watches the rest).
 */
static void test_record_larger_than_the_buffer_wraps_onto_itself_in_overwrite_mode(void **state)
{
	const unsigned int size = 2 * 4096 + 8;
	int dir;

	(void)state;
	for (dir = 0; dir < 2; dir++) {
		struct perf_event ev;
		struct perf_buffer *rb = rb_setup(&ev, 1, false, dir, 0);
		struct perf_output_handle h;
		struct perf_sample_data data;
		struct rbt_view v;
		u64 start, i;
		u8 b;

		rbt_view_init(&v, rb);
		perf_sample_data_init(&data, 0, 0);
		assert_int_equal(perf_output_begin(&h, &data, &ev, size), 0);
		for (i = 0; i < size; i++) {
			b = (u8)(i * 7 + 3);
			perf_output_put(&h, b);
		}
		perf_output_end(&h);
		assert_int_equal(rbt_read_head(&v), dir ? -(u64)size : size);

		/* each offset holds the last byte written to it */
		start = dir ? -(u64)size : 0;
		for (i = size - 4096; i < size; i++)
			assert_int_equal(v.data[(start + i) & 4095], (u8)(i * 7 + 3));
		rb_teardown(&ev);
	}
}

/*
 * begin() takes an unsigned int and looks at the size only for the space
 * check: a 70000-byte reservation succeeds where it fits. header.size is
 * a u16, so such a record cannot describe itself; perf_prepare_sample()
 * is what keeps samples below 64 KiB.
 */
static void test_record_over_the_u16_header_limit_is_reserved_as_the_kernel_does(void **state)
{
	int writable;

	(void)state;
	for (writable = 0; writable < 2; writable++) {
		struct perf_event ev;
		struct perf_buffer *rb = rb_setup(&ev, 32, writable, false, 0);
		struct rbt_view v;
		struct rbt_rec r;

		rbt_view_init(&v, rb);
		assert_int_equal(rbt_write(&ev, 70000, 1, false), 0);
		assert_int_equal(rbt_read_head(&v), 70000);
		/* header.size says 70000 & 0xffff: the records no longer tile */
		assert_int_equal(rbt_parse(&v, 0, 70000, &r, 1), -1);
		assert_int_equal((u16)70000, 4464);
		rb_teardown(&ev);
	}
}

static void test_garbage_data_tail_is_only_masked(void **state)
{
	static const u64 tails[] = {
		1, 7, 4095, 4097, 0xdeadbeefcafebabeULL, ~0ULL,
		0x8000000000000003ULL, 12345, 1ULL << 63,
	};
	int dir;

	(void)state;
	for (dir = 0; dir < 2; dir++) {
		struct perf_event ev;
		struct perf_buffer *rb = rb_setup(&ev, 1, true, dir, 0);
		struct rbt_view v;
		unsigned int i, k, ok = 0, lost = 0;
		u64 tag = 1;

		rbt_view_init(&v, rb);
		for (i = 0; i < ARRAY_SIZE(tails); i++) {
			for (k = 0; k < 40; k++, tag++) {
				u64 t = tails[i] + k * 77;
				unsigned long head = local_read(&rb->head);
				unsigned int need = 64 + (local_read(&rb->lost) ? 24 : 0);
				u64 space = dir ? ((head - (t + 1)) & 4095)
						: ((t - (head + 1)) & 4095);
				int ret;

				rbt_write_tail(&v, t);
				ret = rbt_write(&ev, 64, tag, false);
				assert_int_equal(ret == 0, space >= need);
				ret == 0 ? ok++ : lost++;
			}
		}
		/* both outcomes happened, and the user page kept its shape */
		assert_true(ok > 0 && lost > 0);
		assert_int_equal(v.pg->data_offset, PAGE_SIZE);
		assert_int_equal(v.pg->data_size, PAGE_SIZE);
		assert_int_equal(rb->nest, 0);
		rb_teardown(&ev);
	}
}

/* ---- lost records ------------------------------------------------------------- */

static void test_lost_record_carries_the_sample_id_trailer_in_kernel_order(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_setup(&ev, 1, true, false, 0);
	struct perf_output_handle h;
	struct perf_sample_data data;
	struct rbt_view v;
	struct rbt_rec r[2];
	u64 got[9], want[9];

	(void)state;
	ev.attr.sample_id_all = 1;
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			      PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	ev.id = 0x1111;
	perf_event__id_header_size(&ev);
	assert_int_equal(ev.id_header_size, 48);
	rbt_view_init(&v, rb);

	rb_toggle_paused(rb, true);
	assert_int_equal(rbt_write(&ev, 32, 1, false), -ENOSPC);
	assert_int_equal(rbt_write(&ev, 32, 2, false), -ENOSPC);
	assert_int_equal(rbt_write(&ev, 32, 3, false), -ENOSPC);
	rb_toggle_paused(rb, false);

	rbt_now = 987654321;
	pmusim_this_cpu = CONFIG_MODEL_MAX_CPUS - 1;
	pmusim_curr[CONFIG_MODEL_MAX_CPUS - 1] = &rbt_task;
	perf_sample_data_init(&data, 0, 0);
	assert_int_equal(perf_output_begin(&h, &data, &ev, 32), 0);
	/* 24 + 48 for the LOST record, then the 32 asked for */
	assert_int_equal(local_read(&rb->head), 72 + 32);
	perf_output_skip(&h, 32);
	perf_output_end(&h);
	pmusim_this_cpu = 0;

	want[0] = rbt_header_word(PERF_RECORD_LOST, 0, 72);
	want[1] = 0x1111;			/* id */
	want[2] = 3;				/* lost */
	want[3] = 100 | (101ULL << 32);		/* TID: pid, tid */
	want[4] = 987654321;			/* TIME */
	want[5] = 0x1111;			/* ID */
	want[6] = 0x1111;			/* STREAM_ID */
	want[7] = CONFIG_MODEL_MAX_CPUS - 1;	/* CPU, reserved */
	want[8] = 0x1111;			/* IDENTIFIER, last */
	rbt_copy_out(&v, 0, got, sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(rbt_parse(&v, 0, 72, r, 1), 1);
	/* the caller's sample data now carries the same trailer */
	assert_int_equal(data.time, 987654321);
	assert_int_equal(data.cpu_entry.cpu, CONFIG_MODEL_MAX_CPUS - 1);
	rb_teardown(&ev);
}

/* ---- wakeups (the rest: tests/lib/rb_cases.c) --------------------------------- */

/* core/ marks rb->poll where the kernel's perf_output_wakeup() does */
static void test_watermark_wakeup_marks_the_buffer_readable_for_poll(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_setup(&ev, 1, false, false, 100);

	(void)state;
	assert_int_equal(rbt_write(&ev, 64, 1, false), 0);
	assert_int_equal(atomic_read(&rb->poll), 0);
	assert_int_equal(rbt_write(&ev, 64, 2, false), 0);	/* 128 - 0 > 100 */
	assert_int_equal(ev.pending_wakeup, 1);
	assert_int_equal(atomic_read(&rb->poll), EPOLLIN | EPOLLRDNORM);
	rb_teardown(&ev);
}

static void test_wakeup_sets_pending_kill_only_with_fasync_and_none_pending(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_setup(&ev, 1, false, false, 8);

	(void)state;
	(void)rb;
	assert_int_equal(rbt_write(&ev, 16, 1, false), 0);
	assert_int_equal(ev.pending_wakeup, 1);
	assert_int_equal(ev.pending_kill, 0);

	ev.fasync = true;
	assert_int_equal(rbt_write(&ev, 16, 2, false), 0);
	assert_int_equal(ev.pending_kill, POLL_IN);

	ev.pending_kill = POLL_HUP;
	assert_int_equal(rbt_write(&ev, 16, 3, false), 0);
	assert_int_equal(ev.pending_kill, POLL_HUP);
	rb_teardown(&ev);
}

/* ---- copies across pages and the end of the buffer ---------------------------- */

struct wrap_stats {
	unsigned int records, wraps, page_crossings;
};

static void check_window(const struct rbt_view *v, bool backward, u64 from,
			 struct wrap_stats *st)
{
	static struct rbt_rec recs[1024];
	int n, i;

	n = rbt_parse_since(v, backward, from, recs, ARRAY_SIZE(recs));
	assert_true(n >= 1);
	for (i = 0; i < n; i++) {
		u64 off = recs[i].pos & (v->size - 1);

		if (recs[i].type == PERF_RECORD_LOST)
			continue;
		assert_true(rbt_record_intact(v, &recs[i]));
		st->records++;
		if (off + recs[i].size > v->size)
			st->wraps++;
		if ((off & (PAGE_SIZE - 1)) + recs[i].size > PAGE_SIZE)
			st->page_crossings++;
	}
}

static void run_wrap(int nr, bool writable, bool backward)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_setup(&ev, nr, writable, backward, 0);
	unsigned long data = nr * PAGE_SIZE;
	unsigned int max = min(data / 2, 3 * PAGE_SIZE / 2) - 16;
	struct wrap_stats st = { 0, 0, 0 };
	unsigned int written = 0;
	u32 lcg = 12345 + nr;
	u64 total = 0, tag = 1, from = 0;
	struct rbt_view v;

	rbt_view_init(&v, rb);
	while (total < 5 * data) {
		unsigned int size;

		lcg = lcg * 1103515245 + 12345;
		size = 16 + 8 * ((lcg >> 8) % (max / 8));
		if (rbt_write(&ev, size, tag, false)) {
			/* full: the reader takes everything, frees it, and we go on */
			assert_true(writable);
			check_window(&v, backward, from, &st);
			from = rbt_read_head(&v);
			rbt_write_tail(&v, from);
			continue;
		}
		written++;
		tag++;
		total += size;
		if (!writable) {
			check_window(&v, backward, from, &st);
			from = rbt_read_head(&v);
		}
	}
	if (writable)
		check_window(&v, backward, from, &st);
	assert_int_equal(st.records, written);
	assert_true(st.wraps > 0);
	assert_true(st.page_crossings > 0);
	rb_teardown(&ev);
}

static void test_records_wrap_page_boundaries_and_the_end_for_1_to_16_pages(void **state)
{
	int nr, mode;

	(void)state;
	for (nr = 1; nr <= 16; nr *= 2)
		for (mode = 0; mode < 8; mode++) {
			/* and on separate pages: a copy that runs off a page faults */
			rb_layout = mode & 4 ? RING_BUFFER_SCATTERED : 0;
			run_wrap(nr, mode & 1, mode & 2);
		}
	rb_layout = 0;
}

static void test_output_skip_advances_without_writing(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb = rb_setup(&ev, 2, false, false, 0);
	struct perf_output_handle h;
	struct perf_sample_data data;
	struct rbt_view v;
	u64 x = 0x0102030405060708ULL;
	unsigned int i;

	(void)state;
	rbt_view_init(&v, rb);
	memset(v.data, 0xaa, v.size);
	perf_sample_data_init(&data, 0, 0);
	assert_int_equal(perf_output_begin(&h, &data, &ev, 4096 + 24), 0);
	perf_output_put(&h, x);
	assert_int_equal(perf_output_skip(&h, 4096 + 8), 0);	/* across the page */
	assert_ptr_equal(h.addr, (char *)v.data + 4096 + 16);
#ifndef CONFIG_PERF_USE_VMALLOC
	assert_int_equal(h.page, 1);
#endif
	perf_output_put(&h, x);
	perf_output_end(&h);
	assert_memory_equal(v.data, &x, 8);
	for (i = 8; i < 4096 + 16; i++)
		assert_int_equal(v.data[i], 0xaa);
	assert_memory_equal(v.data + 4096 + 16, &x, 8);
	rb_teardown(&ev);
}

/* ---- interleaving: pause, reader, nested writers -------------------------------- */

static void pause_action(void *arg)
{
	rb_toggle_paused(arg, true);
}

static void test_pause_during_begin_after_the_check_still_writes(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;

	(void)state;
	need_interleave();
	rb = rb_setup(&ev, 1, true, false, 0);
	rbt_nmi_arm(rb, false, PI_OUTPUT_BEGIN_NOT_PAUSED, pause_action, rb);
	assert_int_equal(rbt_write(&ev, 32, 1, false), 0);
	rbt_nmi_disarm();
	assert_true(rbt_nmi.fired);
	assert_int_equal(rb->user_page->data_head, 32);
	assert_int_equal(rbt_write(&ev, 32, 2, false), -ENOSPC);
	assert_int_equal(local_read(&rb->lost), 1);
	rb_teardown(&ev);
}

static void reader_consumes(void *arg)
{
	struct rbt_view v;

	rbt_view_init(&v, arg);
	rbt_write_tail(&v, rbt_read_head(&v));
}

static void test_reader_freeing_space_after_the_tail_read_helps_only_the_next_writer(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;

	(void)state;
	need_interleave();

	/* freed before the writer reads data_tail: it fits */
	rb = rb_setup(&ev, 1, true, false, 0);
	assert_int_equal(rbt_write(&ev, 4088, 1, false), 0);
	rbt_nmi_arm(rb, false, PI_OUTPUT_BEGIN_GOT_HANDLE, reader_consumes, rb);
	assert_int_equal(rbt_write(&ev, 64, 2, false), 0);
	rbt_nmi_disarm();
	rb_teardown(&ev);

	/* freed after: the stale tail loses the record, the next one fits */
	rb = rb_setup(&ev, 1, true, false, 0);
	assert_int_equal(rbt_write(&ev, 4088, 1, false), 0);
	rbt_nmi_arm(rb, false, PI_OUTPUT_BEGIN_READ_TAIL, reader_consumes, rb);
	assert_int_equal(rbt_write(&ev, 64, 2, false), -ENOSPC);
	rbt_nmi_disarm();
	assert_true(rbt_nmi.fired);
	assert_int_equal(rbt_write(&ev, 64, 3, false), 0);
	assert_int_equal(rb->user_page->data_head, 4088 + 24 + 64);
	rb_teardown(&ev);
}

#define OUTER_TAG	2
#define OUTER_SIZE	600
#define NMI_TAG		3
#define NMI_SIZE	48

static struct perf_event nmi_ev;

static void nmi_writer(void *arg)
{
	assert_int_equal(rbt_write(arg, NMI_SIZE, NMI_TAG, false), 0);
}

/* A second event sharing the buffer, as an NMI's event would. */
static void nmi_ev_attach(struct perf_event *ev)
{
	memset(&nmi_ev, 0, sizeof(nmi_ev));
	nmi_ev.attr.write_backward = ev->attr.write_backward;
	nmi_ev.id = NMI_ID;
	ring_buffer_attach(&nmi_ev, ring_buffer_get(ev));
}

struct expect_rec {
	u32 type;
	u64 word1, word2;	/* tag; or id and lost count */
};

#define REC(tag)		{ RBT_TYPE, tag, 0 }
#define LOST(id, n)		{ PERF_RECORD_LOST, id, n }

static void check_records(const struct rbt_view *v, bool backward, u64 from,
			  const struct expect_rec *want, int nwant, const char *ctx)
{
	struct rbt_rec r[8];
	int n = rbt_parse_since(v, backward, from, r, ARRAY_SIZE(r)), i;

	if (n != nwant)
		fail_msg("%s: %d records tile the window, want %d", ctx, n, nwant);
	for (i = 0; i < n; i++) {
		if (r[i].type != want[i].type || r[i].word1 != want[i].word1 ||
		    (want[i].type == PERF_RECORD_LOST && r[i].word2 != want[i].word2))
			fail_msg("%s: record %d is type %u %llu/%llu, want %u %llu/%llu",
				 ctx, i, r[i].type, (unsigned long long)r[i].word1,
				 (unsigned long long)r[i].word2, want[i].type,
				 (unsigned long long)want[i].word1,
				 (unsigned long long)want[i].word2);
		if (r[i].type == RBT_TYPE && !rbt_record_intact(v, &r[i]))
			fail_msg("%s: record %d torn", ctx, i);
	}
}

#define CHECK(ctx, cond) do {						\
	if (!(cond))							\
		fail_msg("%s: %s", ctx, #cond);				\
} while (0)

/*
 * One NMI writer runs at @point of an outer sample with a LOST record
 * pending. What the kernel's code makes of it depends only on which of
 * its steps the outer writer had taken.
 */
static void run_nested_at(enum perf_interleave_point point, bool writable,
			  bool backward)
{
	bool nested_first = false, outer_sampled_lost = true, outer_took_lost = false;
	unsigned int want_nest = 1;
	struct expect_rec want[8];
	struct perf_event ev;
	struct perf_buffer *rb;
	struct rbt_view v;
	char ctx[160];
	int n = 0;

	snprintf(ctx, sizeof(ctx), "%s %s %s", perf_interleave_point_names[point],
		 backward ? "backward" : "forward",
		 writable ? "non-overwrite" : "overwrite");

	switch (point) {
	case PI_OUTPUT_BEGIN_ENTER:
	case PI_OUTPUT_BEGIN_NOT_PAUSED:
		outer_sampled_lost = false;
		/* fall through */
	case PI_OUTPUT_BEGIN_READ_LOST:
		want_nest = 0;
		/* fall through */
	case PI_OUTPUT_BEGIN_GOT_HANDLE:
	case PI_OUTPUT_BEGIN_READ_TAIL:
	case PI_OUTPUT_BEGIN_CMPXCHG:
		nested_first = true;
		break;
	case PI_OUTPUT_BEGIN_RESERVED:
	case PI_OUTPUT_BEGIN_WAKEUP_CHECKED:
		break;
	case PI_PUT_HANDLE_NEST_CLEARED:
	case PI_PUT_HANDLE_DONE:
		want_nest = 0;
		/* fall through */
	default:
		outer_took_lost = true;
		break;
	}

	/* the buffer first holds a LOST and record 1; another loss is pending */
	want[n++] = (struct expect_rec)LOST(EV_ID, 1);
	want[n++] = (struct expect_rec)REC(1);
	if (nested_first) {
		want[n++] = (struct expect_rec)LOST(NMI_ID, 1);
		want[n++] = (struct expect_rec)REC(NMI_TAG);
		if (outer_sampled_lost)
			want[n++] = (struct expect_rec)LOST(EV_ID, 0);
		want[n++] = (struct expect_rec)REC(OUTER_TAG);
	} else if (outer_took_lost) {
		want[n++] = (struct expect_rec)LOST(EV_ID, 1);
		want[n++] = (struct expect_rec)REC(OUTER_TAG);
		want[n++] = (struct expect_rec)REC(NMI_TAG);
	} else {
		/* the NMI takes the count the outer writer made room for */
		want[n++] = (struct expect_rec)LOST(EV_ID, 0);
		want[n++] = (struct expect_rec)REC(OUTER_TAG);
		want[n++] = (struct expect_rec)LOST(NMI_ID, 1);
		want[n++] = (struct expect_rec)REC(NMI_TAG);
	}

	rb = rb_setup(&ev, 2, writable, backward, 0);
	ev.attr.wakeup_events = 1;
	nmi_ev_attach(&ev);
	rbt_view_init(&v, rb);

	rb_toggle_paused(rb, true);
	assert_int_equal(rbt_write(&ev, 40, 9, false), -ENOSPC);
	rb_toggle_paused(rb, false);
	assert_int_equal(rbt_write(&ev, 40, 1, false), 0);
	rb_toggle_paused(rb, true);
	assert_int_equal(rbt_write(&ev, 40, 9, false), -ENOSPC);
	rb_toggle_paused(rb, false);
	ev.pending_wakeup = 0;

	rbt_nmi_arm(rb, backward, point, nmi_writer, &nmi_ev);
	CHECK(ctx, rbt_write(&ev, OUTER_SIZE, OUTER_TAG, true) == 0);
	rbt_nmi_disarm();

	CHECK(ctx, rbt_nmi.fired);
	CHECK(ctx, rbt_nmi.nest_at_fire == want_nest);
	if (rbt_nmi.nest_at_fire)	/* an inner writer never publishes nor wakes */
		CHECK(ctx, rbt_nmi.data_head_after == rbt_nmi.data_head_before &&
			   nmi_ev.pending_wakeup == 0);
	else				/* an outermost one publishes all reserved so far */
		CHECK(ctx, rbt_nmi.data_head_after == (u64)rbt_nmi.head_after);
	CHECK(ctx, rbt_nmi.head_went_back == 0);
	CHECK(ctx, rb->user_page->data_head == (u64)local_read(&rb->head));
	CHECK(ctx, rb->nest == 0);
	CHECK(ctx, local_read(&rb->lost) == 0);
	CHECK(ctx, ev.pending_wakeup == 1);
	check_records(&v, backward, 0, want, n, ctx);

	ring_buffer_attach(&nmi_ev, NULL);
	rb_teardown(&ev);
}

static void test_nested_writer_at_point(void **state)
{
	enum perf_interleave_point point = (enum perf_interleave_point)(uintptr_t)*state;
	int mode;

	need_interleave();
	for (mode = 0; mode < 4; mode++)
		run_nested_at(point, mode & 1, mode & 2);
}

static void test_nmi_reserving_after_the_head_read_makes_the_outermost_publish_again(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;

	(void)state;
	need_interleave();
	rb = rb_setup(&ev, 1, true, false, 0);
	nmi_ev_attach(&ev);
	rbt_nmi_arm(rb, false, PI_PUT_HANDLE_READ_HEAD, nmi_writer, &nmi_ev);
	assert_int_equal(rbt_write(&ev, 64, OUTER_TAG, false), 0);
	rbt_nmi_disarm();
	/* the stale head 64 went out first, then 64 + 48 on the second round */
	assert_int_equal(rbt_nmi.hits[PI_PUT_HANDLE_READ_HEAD], 2);
	assert_int_equal(rbt_nmi.hits[PI_PUT_HANDLE_PUBLISHED], 2);
	assert_int_equal(rbt_nmi.publish_count, 2);
	assert_int_equal(rb->user_page->data_head, 64 + NMI_SIZE);
	ring_buffer_attach(&nmi_ev, NULL);
	rb_teardown(&ev);
}

/*
 * A second NMI at the outermost writer's head read on its retry pass
 * (the first NMI sent it round): it nests (nest is 1 again), so it
 * leaves its record to the outermost, whose second publication is stale
 * once more. Only a third pass publishes all three records.
 */
static void test_second_nmi_at_the_retry_head_read_sends_the_outermost_round_again(void **state)
{
	int backward;

	(void)state;
	need_interleave();
	for (backward = 0; backward < 2; backward++) {
		const char *ctx = backward ? "backward overwrite" : "forward non-overwrite";
		const struct expect_rec want[] = { REC(OUTER_TAG), REC(NMI_TAG), REC(NMI_TAG) };
		u64 all = 64 + 2 * NMI_SIZE;
		struct perf_event ev;
		struct perf_buffer *rb;
		struct rbt_view v;

		rb = rb_setup(&ev, 1, !backward, backward, 0);
		nmi_ev_attach(&ev);
		rbt_view_init(&v, rb);
		rbt_nmi_arm_times(rb, backward, PI_PUT_HANDLE_READ_HEAD, 2, nmi_writer, &nmi_ev);
		CHECK(ctx, rbt_write(&ev, 64, OUTER_TAG, false) == 0);
		rbt_nmi_disarm();
		CHECK(ctx, rbt_nmi.fires == 2);
		/* neither NMI was outermost: the writer it interrupted had nest 1 */
		CHECK(ctx, rbt_nmi.nest_at_fire == 1);
		CHECK(ctx, nmi_ev.pending_wakeup == 0);
		/* three passes, three publications, each covering more, never less */
		CHECK(ctx, rbt_nmi.hits[PI_PUT_HANDLE_READ_HEAD] == 3);
		CHECK(ctx, rbt_nmi.hits[PI_PUT_HANDLE_PUBLISHED] == 3);
		CHECK(ctx, rbt_nmi.publish_count == 3);
		CHECK(ctx, rbt_nmi.head_went_back == 0);
		CHECK(ctx, rb->user_page->data_head == (backward ? -all : all));
		CHECK(ctx, rb->user_page->data_head == (u64)local_read(&rb->head));
		CHECK(ctx, rb->nest == 0);
		check_records(&v, backward, 0, want, ARRAY_SIZE(want), ctx);
		ring_buffer_attach(&nmi_ev, NULL);
		rb_teardown(&ev);
	}
}

static void test_nmi_after_nest_cleared_publishes_itself_and_the_outermost_rechecks(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;

	(void)state;
	need_interleave();
	rb = rb_setup(&ev, 1, true, false, 0);
	nmi_ev_attach(&ev);
	rbt_nmi_arm(rb, false, PI_PUT_HANDLE_NEST_CLEARED, nmi_writer, &nmi_ev);
	assert_int_equal(rbt_write(&ev, 64, OUTER_TAG, false), 0);
	rbt_nmi_disarm();
	/* outer, then the NMI as outermost, then the outer's second round */
	assert_int_equal(rbt_nmi.hits[PI_PUT_HANDLE_READ_HEAD], 3);
	assert_int_equal(rbt_nmi.data_head_after, 64 + NMI_SIZE);
	assert_int_equal(rbt_nmi.publish_count, 2);
	assert_int_equal(rb->user_page->data_head, 64 + NMI_SIZE);
	assert_int_equal(rb->nest, 0);
	ring_buffer_attach(&nmi_ev, NULL);
	rb_teardown(&ev);
}

static void test_nmi_in_a_failing_writer_is_published_by_its_fail_path(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct rbt_view v;
	struct rbt_rec r[2];

	(void)state;
	need_interleave();
	rb = rb_setup(&ev, 1, true, false, 0);
	nmi_ev_attach(&ev);
	rbt_view_init(&v, rb);
	assert_int_equal(rbt_write(&ev, 4000, 1, false), 0);
	rbt_nmi_arm(rb, false, PI_OUTPUT_BEGIN_FAILED, nmi_writer, &nmi_ev);
	assert_int_equal(rbt_write(&ev, 200, OUTER_TAG, false), -ENOSPC);
	rbt_nmi_disarm();
	assert_true(rbt_nmi.fired);
	assert_int_equal(rbt_nmi.nest_at_fire, 1);
	assert_int_equal(rbt_nmi.data_head_after, 4000);
	assert_int_equal(rb->user_page->data_head, 4000 + NMI_SIZE);
	assert_int_equal(rbt_parse(&v, 4000, 4000 + NMI_SIZE, r, 2), 1);
	assert_int_equal(r[0].word1, NMI_TAG);
	assert_int_equal(local_read(&rb->lost), 1);
	assert_int_equal(rb->nest, 0);
	ring_buffer_attach(&nmi_ev, NULL);
	rb_teardown(&ev);
}

/*
 * have_lost is read before the reservation and the count is taken with
 * xchg after it. An NMI writing in between takes the count, and the
 * outer writer still fills the room it reserved with a LOST record of 0.
 */
static void test_have_lost_xchg_race_writes_a_lost_record_of_zero(void **state)
{
	u64 want[3] = { 0, EV_ID, 0 }, got[3];
	struct perf_event ev;
	struct perf_buffer *rb;
	struct rbt_view v;
	struct rbt_rec r[4];
	int i;

	(void)state;
	need_interleave();
	rb = rb_setup(&ev, 1, true, false, 0);
	nmi_ev_attach(&ev);
	rbt_view_init(&v, rb);
	rb_toggle_paused(rb, true);
	for (i = 0; i < 3; i++)
		assert_int_equal(rbt_write(&ev, 32, 9, false), -ENOSPC);
	rb_toggle_paused(rb, false);

	rbt_nmi_arm(rb, false, PI_OUTPUT_BEGIN_GOT_HANDLE, nmi_writer, &nmi_ev);
	assert_int_equal(rbt_write(&ev, 64, OUTER_TAG, false), 0);
	rbt_nmi_disarm();

	assert_int_equal(rbt_parse(&v, 0, rbt_read_head(&v), r, 4), 4);
	assert_lost_record(&r[0], NMI_ID, 3);
	assert_int_equal(r[1].word1, NMI_TAG);
	assert_lost_record(&r[2], EV_ID, 0);
	assert_int_equal(r[3].word1, OUTER_TAG);
	want[0] = rbt_header_word(PERF_RECORD_LOST, 0, 24);
	rbt_copy_out(&v, r[2].pos, got, sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(rb->user_page->data_head, 24 + NMI_SIZE + 24 + 64);
	ring_buffer_attach(&nmi_ev, NULL);
	rb_teardown(&ev);
}

static void nmi_in_nmi_writer(void *arg)
{
	/* the NMI is itself interrupted at its copy by a second writer */
	struct perf_event *e = arg;

	rbt_nmi.fired = false;
	rbt_nmi.fires = 0;
	rbt_nmi.point = PI_OUTPUT_COPY;
	rbt_nmi.action = nmi_writer;
	rbt_nmi.in_action = false;
	assert_int_equal(rbt_write(e, 32, 4, false), 0);
	rbt_nmi.in_action = true;
}

static void test_writers_nested_two_deep_publish_once_from_the_outermost(void **state)
{
	struct perf_event ev;
	struct perf_buffer *rb;
	struct rbt_view v;
	struct rbt_rec r[3];

	(void)state;
	need_interleave();
	rb = rb_setup(&ev, 1, true, false, 0);
	nmi_ev_attach(&ev);
	rbt_view_init(&v, rb);
	rbt_nmi_arm(rb, false, PI_OUTPUT_END_ENTER, nmi_in_nmi_writer, &nmi_ev);
	assert_int_equal(rbt_write(&ev, 64, OUTER_TAG, false), 0);
	rbt_nmi_disarm();
	assert_int_equal(rbt_nmi.nest_at_fire, 2);	/* seen by the innermost */
	assert_int_equal(rbt_nmi.publish_count, 1);
	assert_int_equal(rbt_nmi.head_went_back, 0);
	assert_int_equal(rbt_parse(&v, 0, rbt_read_head(&v), r, 3), 3);
	assert_int_equal(r[0].word1, OUTER_TAG);
	assert_int_equal(r[1].word1, 4);
	assert_int_equal(r[2].word1, NMI_TAG);
	assert_int_equal(rb->nest, 0);
	ring_buffer_attach(&nmi_ev, NULL);
	rb_teardown(&ev);
}

#define T(f) cmocka_unit_test_teardown(f, test_teardown)

static const struct CMUnitTest fixed_tests[] = {
	T(test_alloc_lays_out_user_page_then_data_pages_like_the_mmap),
	T(test_alloc_scattered_pages_are_separate_behind_one_user_view),
	T(test_alloc_rejects_page_counts_that_are_not_a_power_of_two),
	T(test_alloc_zero_pages_stays_paused_and_counts_no_loss),
	T(test_alloc_failure_at_each_allocation_returns_null),
	T(test_alloc_scattered_fails_whole_when_the_host_refuses),
	T(test_watermark_defaults_to_half_the_data_and_is_clamped_to_it),
	T(test_attach_hands_over_references_and_children_use_the_parent),
	T(test_record_larger_than_the_buffer_wraps_onto_itself_in_overwrite_mode),
	T(test_record_over_the_u16_header_limit_is_reserved_as_the_kernel_does),
	T(test_garbage_data_tail_is_only_masked),
	T(test_lost_record_carries_the_sample_id_trailer_in_kernel_order),
	T(test_watermark_wakeup_marks_the_buffer_readable_for_poll),
	T(test_wakeup_sets_pending_kill_only_with_fasync_and_none_pending),
	T(test_records_wrap_page_boundaries_and_the_end_for_1_to_16_pages),
	T(test_output_skip_advances_without_writing),
	T(test_pause_during_begin_after_the_check_still_writes),
	T(test_reader_freeing_space_after_the_tail_read_helps_only_the_next_writer),
	T(test_nmi_reserving_after_the_head_read_makes_the_outermost_publish_again),
	T(test_second_nmi_at_the_retry_head_read_sends_the_outermost_round_again),
	T(test_nmi_after_nest_cleared_publishes_itself_and_the_outermost_rechecks),
	T(test_nmi_in_a_failing_writer_is_published_by_its_fail_path),
	T(test_have_lost_xchg_race_writes_a_lost_record_of_zero),
	T(test_writers_nested_two_deep_publish_once_from_the_outermost),
};

int main(void)
{
	static struct CMUnitTest tests[ARRAY_SIZE(fixed_tests) + PI__MAX];
	static char names[PI__MAX][96];
	size_t n = ARRAY_SIZE(fixed_tests);
	int p;

	memcpy(tests, fixed_tests, sizeof(fixed_tests));
	/* one test per ring-buffer point a writer passes on a successful sample */
	for (p = 0; p < PI__MAX; p++) {
		if (p == PI_OUTPUT_BEGIN_FAILED || p == PI_OVERFLOW_ENTER ||
		    p == PI_OVERFLOW_OUTPUT)
			continue;
		snprintf(names[p], sizeof(names[p]),
			 "test_nested_writer_at_%s_keeps_the_invariants",
			 perf_interleave_point_names[p]);
		tests[n++] = (struct CMUnitTest){
			.name = names[p], .test_func = test_nested_writer_at_point,
			.teardown_func = test_teardown,
			.initial_state = (void *)(uintptr_t)p,
		};
	}
	/* the cases shared with the kernel's own file (tests/ksrc/test_ring_buffer_cases) */
	return _cmocka_run_group_tests("ring_buffer", tests, n, group_setup, NULL) |
	       rb_cases_run(&rb_backend_core, "ring_buffer_cases");
}
