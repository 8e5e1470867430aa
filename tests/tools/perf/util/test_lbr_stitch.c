// SPDX-License-Identifier: GPL-2.0-only
/*
 * LBR stitching as perf's --stitch-lbr does it: the frames an overflowed
 * call-stack LBR lost come back from the previous sample of the same
 * thread when the entries at the base match in the same physical slots;
 * not without hw_idx, not when flags differ, not across threads; and on
 * a 43-deep chain with a 32-entry LBR every leaf sample gets all frames.
 * A build without CONFIG_LBR_STITCH stitches never, asked to or not.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/kernel.h"
#include "tests/lib/lbr_chain.h"
#include "tools/perf/util/lbr_stitch.h"

enum { MAIN = 0x100, FN1 = 0x200, FN2 = 0x300, FN3 = 0x400, FN4 = 0x500, FN5 = 0x600 };

struct fake {
	u64 chain[2];
	u64 br[8][3];
	struct perf_sample s;
};

/* A sample of TID with NR branches {from, to} and hw_idx TOS. */
static void fake(struct fake *f, u32 tid, u64 tos, bool hw, u32 nr, const u64 (*br)[2])
{
	memset(f, 0, sizeof(*f));
	f->chain[0] = PERF_CONTEXT_USER;
	f->chain[1] = 0xdead;
	for (u32 i = 0; i < nr; i++) {
		f->br[i][0] = br[i][0];
		f->br[i][1] = br[i][1];
	}
	f->s.pid = f->s.tid = tid;
	f->s.callchain_nr = 2;
	f->s.callchain = (const u8 *)f->chain;
	f->s.branch_nr = nr;
	f->s.hw_idx = tos;
	f->s.no_hw_idx = !hw;
	f->s.branch_entries = (const u8 *)f->br;
}

/* The example checked against perf 6.1: max_lbr 4, fn5..fn1 then main. */
static const u64 s1[][2] = { { FN2, FN3 }, { FN1, FN2 }, { MAIN, FN1 } };
static const u64 s2[][2] = { { FN4, FN5 }, { FN3, FN4 }, { FN2, FN3 }, { FN1, FN2 } };
/* s2 after s1, stitched: main comes back */
static const u64 s2_stitched[] = { FN5, FN4, FN3, FN2, FN1, MAIN };

/* A test of stitching itself: only a build with CONFIG_LBR_STITCH stitches. */
#define needs_stitch() do {							\
	if (!IS_ENABLED(CONFIG_LBR_STITCH))					\
		pmusim_skip("this build has no CONFIG_LBR_STITCH (no stitching)");	\
} while (0)

static u32 resolve(struct lbr_stitcher *st, struct fake *f, const u64 **frames)
{
	u32 nr = 0;

	assert_int_equal(lbr_stitcher__resolve(st, &f->s, frames, &nr), 1);
	return nr;
}

static void second_sample_gets_the_frame_the_lbr_lost(void **state)
{
	struct lbr_stitcher st;
	struct fake a, b;
	const u64 *fr;

	(void)state;
	needs_stitch();
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, true, 3, s1);
	fake(&b, 1, 0, true, 4, s2);
	assert_int_equal(resolve(&st, &a, &fr), 4);	/* fn3 (to), fn2, fn1, main */
	assert_int_equal(fr[0], FN3);
	assert_int_equal(fr[3], MAIN);
	assert_int_equal(resolve(&st, &b, &fr), 6);
	assert_memory_equal(fr, s2_stitched, sizeof(s2_stitched));
	lbr_stitcher__exit(&st);
}

/*
 * An empty branch stack: perf reads entries[0].to anyway (in a file, the
 * word after the sample); the frame is the sample's ip, one frame, so
 * that the sample is not left without a stack. A repeat with another ip
 * is no repeat. The thread's history after it stitches nothing onto it.
 */
static void empty_branch_stack_gives_the_sample_ip(void **state)
{
	struct lbr_stitcher st;
	struct fake a, b, c;
	const u64 *fr;

	(void)state;
	for (int enable = 0; enable < 2; enable++) {
		lbr_stitcher__init(&st, 4, enable);
		st.entries_stay = true;
		fake(&a, 1, 2, true, 0, s1);
		a.s.ip = 0x4242;
		assert_int_equal(resolve(&st, &a, &fr), 1);
		assert_int_equal(fr[0], 0x4242);
		b = a;
		b.s.ip = 0x4343;
		assert_int_equal(resolve(&st, &b, &fr), 1);
		assert_false(st.repeated);
		assert_int_equal(fr[0], 0x4343);
		/* the next sample, full again, is stitched to nothing */
		fake(&c, 1, 0, true, 4, s2);
		assert_int_equal(resolve(&st, &c, &fr), 5);
		assert_int_equal(fr[4], FN1);
		lbr_stitcher__exit(&st);
	}
}

static void no_stitching_without_hw_idx_or_when_disabled(void **state)
{
	struct lbr_stitcher st;
	struct fake a, b;
	const u64 *fr;

	(void)state;
	for (int mode = 0; mode < 3; mode++) {
		/* disabled; no hw_idx; no LBR depth known */
		lbr_stitcher__init(&st, mode == 2 ? 0 : 4, mode != 0);
		fake(&a, 1, 2, mode != 1, 3, s1);
		fake(&b, 1, 0, mode != 1, 4, s2);
		resolve(&st, &a, &fr);
		assert_int_equal(resolve(&st, &b, &fr), 5);	/* main is lost */
		assert_int_equal(fr[4], FN1);
		lbr_stitcher__exit(&st);
	}
}

/* Asked to stitch, a build without CONFIG_LBR_STITCH gives the plain stack. */
static void stitching_follows_the_config(void **state)
{
	struct lbr_stitcher st;
	struct fake a, b;
	const u64 *fr;

	(void)state;
	lbr_stitcher__init(&st, 4, true);
	assert_int_equal(st.enable, IS_ENABLED(CONFIG_LBR_STITCH));
	fake(&a, 1, 2, true, 3, s1);
	fake(&b, 1, 0, true, 4, s2);
	resolve(&st, &a, &fr);
	if (IS_ENABLED(CONFIG_LBR_STITCH)) {
		assert_int_equal(resolve(&st, &b, &fr), 6);
		assert_memory_equal(fr, s2_stitched, sizeof(s2_stitched));
	} else {
		assert_int_equal(resolve(&st, &b, &fr), 5);	/* main is lost */
		assert_memory_equal(fr, s2_stitched, 5 * sizeof(u64));
		assert_int_equal(st.nr_threads, 0);		/* no history kept */
	}
	lbr_stitcher__exit(&st);
}

static void different_flags_or_slots_do_not_stitch(void **state)
{
	struct lbr_stitcher st;
	struct fake a, b;
	const u64 *fr;

	(void)state;
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, true, 3, s1);
	a.br[0][2] = 1;		/* mispred on the shared fn2->fn3 entry */
	a.br[1][2] = 1;
	fake(&b, 1, 0, true, 4, s2);
	resolve(&st, &a, &fr);
	assert_int_equal(resolve(&st, &b, &fr), 5);
	lbr_stitcher__exit(&st);

	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 3, true, 3, s1);	/* TOS one slot off: other registers */
	fake(&b, 1, 0, true, 4, s2);
	resolve(&st, &a, &fr);
	assert_int_equal(resolve(&st, &b, &fr), 5);
	lbr_stitcher__exit(&st);
}

static void history_is_per_thread(void **state)
{
	static const u64 other[][2] = { { 0x7000, 0x7100 } };
	struct lbr_stitcher st;
	struct fake a, b, c;
	const u64 *fr;

	(void)state;
	needs_stitch();
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, true, 3, s1);
	fake(&c, 2, 1, true, 1, other);	/* another thread in between */
	fake(&b, 1, 0, true, 4, s2);
	resolve(&st, &a, &fr);
	assert_int_equal(resolve(&st, &c, &fr), 2);
	assert_int_equal(resolve(&st, &b, &fr), 6);
	/* thread 2 got nothing from thread 1 */
	fake(&c, 2, 0, true, 4, s2);
	assert_int_equal(resolve(&st, &c, &fr), 5);
	lbr_stitcher__exit(&st);
}

/*
 * Thread ids 64 apart share their slot in the stitcher's table (and half
 * of them again once it grows past 32 threads): each thread still finds
 * its own previous sample, and one that had none stitches nothing.
 */
static void history_is_per_thread_when_thread_ids_collide(void **state)
{
	enum { NR = 40 };
	static struct fake a[NR], b;
	struct lbr_stitcher st;
	const u64 *fr;

	(void)state;
	needs_stitch();
	lbr_stitcher__init(&st, 4, true);
	for (u32 i = 0; i < NR; i++) {
		fake(&a[i], 1 + 64 * i, 2, true, 3, s1);
		assert_int_equal(resolve(&st, &a[i], &fr), 4);
	}
	for (u32 i = 0; i < NR; i++) {
		fake(&b, 1 + 64 * i, 0, true, 4, s2);
		assert_int_equal(resolve(&st, &b, &fr), 6);
		assert_memory_equal(fr, s2_stitched, sizeof(s2_stitched));
	}
	fake(&b, 1 + 64 * NR, 0, true, 4, s2);	/* a new thread in the same slot */
	assert_int_equal(resolve(&st, &b, &fr), 5);
	lbr_stitcher__exit(&st);
}

static void callchain_without_user_context_is_not_lbr(void **state)
{
	struct lbr_stitcher st;
	struct fake a;
	const u64 *fr;
	u32 nr;

	(void)state;
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, true, 3, s1);
	a.chain[0] = PERF_CONTEXT_KERNEL;
	assert_int_equal(lbr_stitcher__resolve(&st, &a.s, &fr, &nr), 0);
	/* kernel ips before PERF_CONTEXT_USER come first */
	a.chain[1] = PERF_CONTEXT_USER;
	a.s.callchain_nr = 2;
	a.chain[0] = 0xffffffff81000000ULL;
	assert_int_equal(resolve(&st, &a, &fr), 5);
	assert_int_equal(fr[0], 0xffffffff81000000ULL);
	assert_int_equal(fr[1], FN3);
	lbr_stitcher__exit(&st);
}

/*
 * The previous sample is copied unless the caller says its entries stay
 * (entries_stay): a caller reusing its buffer loses nothing, and with
 * entries_stay the stitcher reads the entries where they are.
 */
static void previous_sample_is_copied_unless_entries_stay(void **state)
{
	struct lbr_stitcher st;
	struct fake a, b;
	const u64 *fr;

	(void)state;
	needs_stitch();
	for (int stay = 0; stay < 2; stay++) {
		lbr_stitcher__init(&st, 4, true);
		st.entries_stay = stay;
		fake(&a, 1, 2, true, 3, s1);
		fake(&b, 1, 0, true, 4, s2);
		resolve(&st, &a, &fr);
		if (!stay)
			memset(a.br, 0x55, sizeof(a.br));	/* the buffer reused */
		assert_int_equal(resolve(&st, &b, &fr), 6);
		assert_memory_equal(fr, s2_stitched, sizeof(s2_stitched));
		lbr_stitcher__exit(&st);
	}
	lbr_stitcher__init(&st, 4, true);
	st.entries_stay = true;
	fake(&a, 1, 2, true, 3, s1);
	fake(&b, 1, 0, true, 4, s2);
	resolve(&st, &a, &fr);
	a.br[1][2] = 1;		/* seen through the pointer: the base entry differs now */
	assert_int_equal(resolve(&st, &b, &fr), 5);
	lbr_stitcher__exit(&st);
}

/*
 * With entries_stay a sample repeating the thread's previous one byte for
 * byte takes its frames without a walk (st->repeated): the frames are
 * always what the walk of a copying stitcher gives, over a random run of
 * samples drawn from a few, on two threads, with hw_idx and flags varied,
 * copies of the same bytes at new places included.
 */
static void repeated_samples_give_the_frames_of_a_walk(void **state)
{
	static const u64 s3[][2] = { { FN3, FN4 }, { FN2, FN3 }, { FN1, FN2 }, { MAIN, FN1 } };
	/* more entries than the LBR has: the overlap test lands elsewhere */
	static const u64 s6[][2] = { { FN5, FN5 + 8 }, { FN4, FN5 }, { FN3, FN4 }, { FN2, FN3 },
				     { FN1, FN2 }, { MAIN, FN1 } };
	static const struct {
		u32 tid;
		u64 tos;
		u32 nr;
		const u64 (*br)[2];
	} kinds[] = {
		{ 1, 2, 3, s1 }, { 1, 0, 4, s2 }, { 1, 3, 4, s3 }, { 2, 1, 3, s1 },
		{ 2, 0, 4, s2 }, { 1, 1, 4, s2 }, { 1, 5, 4, s3 },	/* hw_idx past max_lbr */
		{ 1, 1, 6, s6 }, { 1, 3, 5, s6 + 1 },
		{ 1, 0, 4, s3 }, { 1, 2, 4, s2 }, { 1, 0, 3, s2 + 1 },	/* one field apart */
	};
	enum { N = 400 };
	static struct fake f[N];
	struct lbr_stitcher walk, stay;
	const u64 *a, *b;
	u32 na, nb, repeats = 0, seed = 1;

	(void)state;
	needs_stitch();
	lbr_stitcher__init(&walk, 4, true);
	lbr_stitcher__init(&stay, 4, true);
	stay.entries_stay = true;
	for (u32 i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		/* mostly the sample before again, as in a hot loop */
		if (i && (seed >> 16) % 4) {
			f[i] = f[i - 1];
			f[i].s.callchain = (const u8 *)f[i].chain;
			f[i].s.branch_entries = (const u8 *)f[i].br;
		} else {
			u32 k = (seed >> 20) % (sizeof(kinds) / sizeof(kinds[0]));

			fake(&f[i], kinds[k].tid, kinds[k].tos, true, kinds[k].nr, kinds[k].br);
			f[i].br[0][2] = (seed >> 28) & 1;	/* flags now and then */
		}
		assert_int_equal(lbr_stitcher__resolve(&walk, &f[i].s, &a, &na), 1);
		assert_false(walk.repeated);
		assert_int_equal(lbr_stitcher__resolve(&stay, &f[i].s, &b, &nb), 1);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na * sizeof(*a));
		repeats += stay.repeated;
	}
	assert_true(repeats > N / 2);
	lbr_stitcher__exit(&walk);
	lbr_stitcher__exit(&stay);

	/* the same bytes but another thread, or another TOS: not a repeat */
	for (int other = 0; other < 2; other++) {
		struct fake p, x, y;

		lbr_stitcher__init(&stay, 4, true);
		stay.entries_stay = true;
		fake(&p, 1, 2, true, 3, s1);
		fake(&x, 1, 0, true, 4, s2);
		fake(&y, other ? 1 : 2, other ? 1 : 0, true, 4, s2);
		resolve(&stay, &p, &b);
		assert_int_equal(resolve(&stay, &x, &b), 6);	/* main stitched on */
		assert_int_equal(resolve(&stay, &y, &b), 5);	/* no history / no overlap */
		assert_false(stay.repeated);
		lbr_stitcher__exit(&stay);
	}
}

/*
 * Froms at the top of the address space: kernel addresses and the last
 * address below PERF_CONTEXT_MAX are frames (together they have every
 * bit a marker has), a known marker is skipped, an unknown one makes
 * the sample not an LBR stack (0), as perf's add_callchain_ip decides.
 */
static void froms_near_the_context_markers(void **state)
{
	const u64 high[][2] = { { 0xffffffff80001000ULL, FN3 }, { PERF_CONTEXT_MAX - 1, FN2 },
				{ MAIN, FN1 } };
	struct lbr_stitcher st;
	struct fake a;
	const u64 *fr;
	u32 nr;

	(void)state;
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, true, 3, high);
	assert_int_equal(resolve(&st, &a, &fr), 4);
	assert_int_equal(fr[0], FN3);
	assert_int_equal(fr[1], 0xffffffff80001000ULL);
	assert_int_equal(fr[2], PERF_CONTEXT_MAX - 1);
	assert_int_equal(fr[3], MAIN);
	a.br[1][0] = PERF_CONTEXT_USER;
	assert_int_equal(resolve(&st, &a, &fr), 3);
	assert_int_equal(fr[2], MAIN);
	a.br[1][0] = PERF_CONTEXT_MAX;
	assert_int_equal(lbr_stitcher__resolve(&st, &a.s, &fr, &nr), 0);
	lbr_stitcher__exit(&st);
}

/* Read the synthetic chain back and resolve every sample. */
static void chain_of_43_with_32_lbr_entries_is_complete_only_stitched(void **state)
{
	char dir[64], path[128], err[256];
	struct lbr_chain c = { .path = path, .map_dir = dir, .pid = 4242, .nr_threads = 2,
			       .depth = 43, .lbr_nr = 32, .nr_samples = 3000,
			       .hw_index = true, .pmu_caps = true };
	u32 max_frames[2] = { 0, 0 }, full = 0;

	(void)state;
	needs_stitch();
	assert_int_equal(scratch_dir_make(dir, sizeof(dir), "stitch"), 0);
	snprintf(path, sizeof(path), "%s/chain.data", dir);
	if (lbr_chain__write(&c, err, sizeof(err)))
		fail_msg("%s", err);
	for (int stitch = 0; stitch < 2; stitch++) {
		struct perf_data_file f;
		struct perf_data_iter it;
		struct lbr_stitcher st;
		struct perf_sample s;
		const char *why;
		const u8 *ev;
		const u64 *fr;
		u32 size, nr, k;

		assert_int_equal(perf_data_file__open(&f, path), 0);
		assert_int_equal(f.max_branches, 32);
		lbr_stitcher__init(&st, f.max_branches, stitch);
		perf_data_file__iter_init(&f, &it);
		while (perf_data_file__next(&f, &it, &ev, &size) > 0) {
			if (ev[0] != PERF_RECORD_SAMPLE)
				continue;
			assert_int_equal(perf_sample__parse(&f.attrs[0].attr, ev, size, &s, &why), 0);
			assert_int_equal(lbr_stitcher__resolve(&st, &s, &fr, &nr), 1);
			/* frame 0 is the entry of the sampled function, then callers */
			k = (u32)((fr[0] - LBR_CHAIN_BASE) / LBR_CHAIN_FUNC_SIZE);
			if (stitch) {
				assert_int_equal(nr, k + 1);	/* the whole true stack */
				for (u32 i = 1; i < nr; i++)
					assert_int_equal(fr[i], lbr_chain_func(k - i) + 0x20);
				full += nr == 43;
			} else {
				assert_true(nr <= 33);
			}
			if (nr > max_frames[stitch])
				max_frames[stitch] = nr;
		}
		lbr_stitcher__exit(&st);
		perf_data_file__close(&f);
	}
	assert_int_equal(max_frames[0], 33);
	assert_int_equal(max_frames[1], 43);
	assert_true(full > 100);
	assert_int_equal(scratch_dir_remove(dir), 0);
}

/*
 * The markers perf's add_callchain_ip() knows (kernel, hypervisor, user)
 * are skipped in the callchain and as the first branch's target; one it
 * does not know (a guest's) means the sample is not an LBR call stack it
 * reads: no frames.
 */
static void markers_in_the_callchain_and_the_first_target(void **state)
{
	u64 chain[4] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL, PERF_CONTEXT_USER, 0xdead };
	const u64 high[][2] = { { FN2, FN3 }, { PERF_CONTEXT_KERNEL, FN2 }, { MAIN, FN1 } };
	struct lbr_stitcher st;
	struct fake a;
	const u64 *fr;
	u32 nr;

	(void)state;
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, true, 3, s1);
	a.s.callchain = (const u8 *)chain;
	a.s.callchain_nr = 4;
	assert_int_equal(resolve(&st, &a, &fr), 5);
	assert_int_equal(fr[0], 0xffffffff81000000ULL);
	assert_int_equal(fr[1], FN3);
	assert_int_equal(fr[4], MAIN);
	chain[0] = PERF_CONTEXT_HV;
	assert_int_equal(resolve(&st, &a, &fr), 5);
	chain[0] = PERF_CONTEXT_GUEST;
	assert_int_equal(lbr_stitcher__resolve(&st, &a.s, &fr, &nr), 0);
	chain[0] = PERF_CONTEXT_KERNEL;
	a.br[0][1] = PERF_CONTEXT_USER;		/* the target: skipped */
	assert_int_equal(resolve(&st, &a, &fr), 4);
	assert_int_equal(fr[1], FN2);
	a.br[0][1] = PERF_CONTEXT_GUEST;
	assert_int_equal(lbr_stitcher__resolve(&st, &a.s, &fr, &nr), 0);
	lbr_stitcher__exit(&st);

	/* a marker among the froms of a sample without hw_idx: skipped, nothing noted */
	lbr_stitcher__init(&st, 4, true);
	fake(&a, 1, 2, false, 3, high);
	assert_int_equal(resolve(&st, &a, &fr), 3);
	assert_int_equal(fr[0], FN3);
	assert_int_equal(fr[1], FN2);
	assert_int_equal(fr[2], MAIN);
	lbr_stitcher__exit(&st);
}

/* A sample of 40 entries on a 64-entry LBR: all its frames, again for the same sample. */
static void forty_entries_grow_the_previous_sample(void **state)
{
	static u64 br[40][3];
	u64 chain[2] = { PERF_CONTEXT_USER, 0xdead };
	struct lbr_stitcher st;
	struct perf_sample s;
	const u64 *fr;
	u32 nr;

	(void)state;
	for (int i = 0; i < 40; i++) {
		br[i][0] = 0x10000 + 0x100 * (u64)(i + 1);	/* from: the caller */
		br[i][1] = 0x10000 + 0x100 * (u64)i;		/* to: the callee */
	}
	memset(&s, 0, sizeof(s));
	s.tid = s.pid = 9;
	s.callchain_nr = 2;
	s.callchain = (const u8 *)chain;
	s.branch_nr = 40;
	s.hw_idx = 39;
	s.branch_entries = (const u8 *)br;
	lbr_stitcher__init(&st, 64, true);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(lbr_stitcher__resolve(&st, &s, &fr, &nr), 1);
		assert_int_equal(nr, 41);
		assert_int_equal(fr[0], 0x10000);
		assert_int_equal(fr[40], 0x10000 + 0x100 * 40);
	}
	lbr_stitcher__exit(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(second_sample_gets_the_frame_the_lbr_lost),
		cmocka_unit_test(empty_branch_stack_gives_the_sample_ip),
		cmocka_unit_test(no_stitching_without_hw_idx_or_when_disabled),
		cmocka_unit_test(stitching_follows_the_config),
		cmocka_unit_test(different_flags_or_slots_do_not_stitch),
		cmocka_unit_test(history_is_per_thread),
		cmocka_unit_test(history_is_per_thread_when_thread_ids_collide),
		cmocka_unit_test(callchain_without_user_context_is_not_lbr),
		cmocka_unit_test(previous_sample_is_copied_unless_entries_stay),
		cmocka_unit_test(repeated_samples_give_the_frames_of_a_walk),
		cmocka_unit_test(froms_near_the_context_markers),
		cmocka_unit_test(chain_of_43_with_32_lbr_entries_is_complete_only_stitched),
		cmocka_unit_test(markers_in_the_callchain_and_the_first_target),
		cmocka_unit_test(forty_entries_grow_the_previous_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
