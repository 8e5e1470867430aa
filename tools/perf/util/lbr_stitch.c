// SPDX-License-Identifier: GPL-2.0-only
/*
 * LBR stitching (see lbr_stitch.h). perf keeps the stitched frames in a
 * linked list with a free list; here they live in one array per thread,
 * stored outermost first so that prepending the newly stitched frames is
 * an append.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/kernel.h"
#include "tools/perf/util/lbr_stitch.h"

/* One branch entry in a sample: from, to, flags */
#define BRANCH_SIZE	sizeof(struct perf_sample_branch)
/* The bits every context marker has set */
#define CONTEXT_HIGH_BITS	(PERF_CONTEXT_MAX & ~0xfffull)

struct lbr_stitch_thread {
	bool used;
	u32 tid;
	/* the previous sample with hw_idx (perf's lbr_stitch->prev_sample) */
	bool have_prev;
	u64 prev_nr;
	u64 prev_hw_idx;
	const u8 *prev;			/* prev_nr entries: prev_copy or the sample's own */
	struct perf_sample_branch *prev_copy;
	u32 prev_cap;
	/* which of prev's entries became frames (prev_lbr_cursor[].valid) */
	bool *prev_valid;		/* max_lbr + 1 */
	/* stitched frames, outermost first (perf's lbr_stitch->lists reversed) */
	u64 *list;
	u32 list_nr;
	u32 list_cap;
};

int lbr_stitcher__init(struct lbr_stitcher *st, u32 max_lbr, bool enable)
{
	memset(st, 0, sizeof(*st));
	st->max_lbr = max_lbr;
	/* without CONFIG_LBR_STITCH the stitching below is never reached, and compiled out */
	st->enable = IS_ENABLED(CONFIG_LBR_STITCH) && enable && max_lbr > 0;
	return 0;
}

static void thread_free(struct lbr_stitch_thread *t)
{
	free(t->prev_copy);
	free(t->prev_valid);
	free(t->list);
}

void lbr_stitcher__exit(struct lbr_stitcher *st)
{
	for (u32 i = 0; i < st->threads_size; i++)
		if (st->threads[i].used)
			thread_free(&st->threads[i]);
	free(st->threads);
	free(st->frames);
	memset(st, 0, sizeof(*st));
}

static u32 tid_hash(u32 tid, u32 size)
{
	return (tid * 2654435761u) & (size - 1);
}

static int threads_grow(struct lbr_stitcher *st)
{
	u32 size = st->threads_size ? st->threads_size * 2 : 64, i, h;
	struct lbr_stitch_thread *t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < st->threads_size; i++) {
		if (!st->threads[i].used)
			continue;
		h = tid_hash(st->threads[i].tid, size);
		while (t[h].used)
			h = (h + 1) & (size - 1);
		t[h] = st->threads[i];
	}
	free(st->threads);
	st->threads = t;
	st->threads_size = size;
	return 0;
}

static struct lbr_stitch_thread *thread_findnew(struct lbr_stitcher *st, u32 tid)
{
	struct lbr_stitch_thread *t;
	u32 h;

	if (st->threads_size) {
		h = tid_hash(tid, st->threads_size);
		while (st->threads[h].used) {
			if (st->threads[h].tid == tid)
				return &st->threads[h];
			h = (h + 1) & (st->threads_size - 1);
		}
	}
	if ((st->nr_threads + 1) * 2 > st->threads_size && threads_grow(st))
		return NULL;
	h = tid_hash(tid, st->threads_size);
	while (st->threads[h].used)
		h = (h + 1) & (st->threads_size - 1);
	t = &st->threads[h];
	t->prev_valid = calloc(st->max_lbr + 1, sizeof(bool));
	if (!t->prev_valid)
		return NULL;
	t->used = true;
	t->tid = tid;
	st->nr_threads++;
	return t;
}

static int ensure_u64(u64 **buf, u32 *cap, u64 need)
{
	u64 *p;
	u64 n;

	if (need <= *cap)
		return 0;
	if (need > UINT32_MAX / 2)
		return -1;
	n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * sizeof(u64));
	if (!p)
		return -1;
	*buf = p;
	*cap = (u32)n;
	return 0;
}

/*
 * has_stitched_lbr(): whether S continues T's previous sample, and if so
 * put the previous sample's frames below the overlap in front of T's list.
 * The arithmetic is perf's, unsigned 64-bit, wraps included.
 */
static int has_stitched_lbr(struct lbr_stitcher *st, struct lbr_stitch_thread *t,
			    const struct perf_sample *s, bool *stitched)
{
	u64 max_lbr = st->max_lbr, cur_base, distance;
	long i, last;

	*stitched = false;
	if (!t->have_prev)
		return 0;
	cur_base = max_lbr - s->branch_nr + s->hw_idx + 1;
	distance = t->prev_hw_idx > cur_base ? t->prev_hw_idx - cur_base
					     : max_lbr + t->prev_hw_idx - cur_base;
	/* perf's distance + 1 > prev_nr, and its loop never runs for -1 either */
	if (distance >= t->prev_nr)
		return 0;
	/*
	 * perf counts the identical entries walking down from prev[distance]
	 * and cur[nr - 1], but only asks whether there is at least one: the
	 * first pair decides. An entry is the same when from, to and flags
	 * are: its 24 bytes.
	 */
	if (!s->branch_nr ||
	    memcmp(t->prev + distance * BRANCH_SIZE,
		   s->branch_entries + (s->branch_nr - 1) * BRANCH_SIZE, BRANCH_SIZE))
		return 0;
	/* perf list_add()s prev[nr-1] .. prev[distance+1]: the last added is first */
	last = (long)t->prev_nr - 1;
	if (ensure_u64(&t->list, &t->list_cap, t->list_nr + t->prev_nr))
		return -1;
	for (i = last; i > (long)distance; i--) {
		if (i > (long)st->max_lbr || !t->prev_valid[i])
			continue;
		t->list[t->list_nr++] = perf_sample__branch_from(t->prev, i);
	}
	*stitched = true;
	return 0;
}

/* Keep S's branches as the thread's previous sample. */
static int save_prev(struct lbr_stitcher *st, struct lbr_stitch_thread *t,
		     const struct perf_sample *s)
{
	struct perf_sample_branch *p;
	u32 n;

	t->prev_nr = s->branch_nr;
	t->prev_hw_idx = s->hw_idx;
	t->have_prev = s->branch_entries != NULL;
	if (st->entries_stay) {
		t->prev = s->branch_entries;
		return 0;
	}
	if (s->branch_nr > t->prev_cap) {
		n = t->prev_cap ? t->prev_cap : 32;
		while (n < s->branch_nr)
			n *= 2;
		p = realloc(t->prev_copy, n * sizeof(*p));
		if (!p) {
			t->have_prev = false;
			return -1;
		}
		t->prev_copy = p;
		t->prev_cap = n;
	}
	if (s->branch_nr)
		memcpy(t->prev_copy, s->branch_entries, s->branch_nr * sizeof(*p));
	t->prev = (const u8 *)t->prev_copy;
	return 0;
}

/* What perf's add_callchain_ip() does with a context marker; false: corrupt. */
static bool is_known_context(u64 ip)
{
	return ip == PERF_CONTEXT_HV || ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_USER;
}

/*
 * The from of NR entries into FRAMES. False when none of them can be a
 * context marker: a marker (PERF_CONTEXT_MAX and up) has the top 52 bits
 * set, so one among them sets those bits in the OR of all. User addresses
 * never do; kernel ones together may, and then the caller looks closer.
 */
static bool copy_froms(u64 *frames, const u8 *entries, u64 nr)
{
	u64 all = 0, i = 0;

	/* four a step: the entries are 24 bytes apart, and a loop of one copied slowly */
	for (; i + 4 <= nr; i += 4) {
		u64 a = perf_sample__branch_from(entries, i);
		u64 b = perf_sample__branch_from(entries, i + 1);
		u64 c = perf_sample__branch_from(entries, i + 2);
		u64 d = perf_sample__branch_from(entries, i + 3);

		frames[i] = a;
		frames[i + 1] = b;
		frames[i + 2] = c;
		frames[i + 3] = d;
		all |= a | b | c | d;
	}
	for (; i < nr; i++) {
		frames[i] = perf_sample__branch_from(entries, i);
		all |= frames[i];
	}
	return (all & CONTEXT_HIGH_BITS) == CONTEXT_HIGH_BITS;
}

/*
 * Whether S repeats st->last byte for byte in what resolving reads, in a
 * state where that gives the same frames. Stitching S onto an identical
 * previous sample finds the overlap at its last entry (distance nr - 1,
 * the same bytes) and adds nothing, so the thread's list and frames stay
 * as they were; that arithmetic holds for 1 <= nr <= max_lbr and an
 * hw_idx that does not wrap, which a sane file has. Anything else walks.
 */
static bool repeats_last(const struct lbr_stitcher *st, const struct perf_sample *s, u64 user)
{
	const struct perf_sample *l = st->last;

	if (!l || l->tid != s->tid || l->branch_nr != s->branch_nr || l->hw_idx != s->hw_idx ||
	    l->no_hw_idx != s->no_hw_idx || l->callchain_nr < user + 1 ||
	    (!s->branch_nr && l->ip != s->ip))
		return false;
	if (st->enable && !s->no_hw_idx &&
	    (!s->branch_nr || s->branch_nr > st->max_lbr || s->hw_idx > UINT64_MAX - st->max_lbr))
		return false;
	return !memcmp(l->callchain, s->callchain, (user + 1) * 8) &&
	       !memcmp(l->branch_entries, s->branch_entries, s->branch_nr * BRANCH_SIZE);
}

int lbr_stitcher__resolve(struct lbr_stitcher *st, const struct perf_sample *s,
			  const u64 **frames, u32 *nr)
{
	struct lbr_stitch_thread *t = NULL;
	struct perf_sample_branch b;
	bool stitched = false, marker;
	u64 chain_nr = s->callchain_nr < LBR_STITCH_MAX_STACK ? s->callchain_nr
							       : LBR_STITCH_MAX_STACK;
	u64 user, i, ip, nr_save;
	u32 n = 0;

	st->repeated = false;
	for (user = 0; user < chain_nr; user++)
		if (perf_sample__callchain_ip(s, user) == PERF_CONTEXT_USER)
			break;
	if (user == chain_nr) {
		st->last = NULL;
		return 0;
	}
	if (repeats_last(st, s, user)) {
		/* the thread's prev keeps pointing at the same bytes, which stay */
		st->repeated = true;
		*frames = st->frames;
		*nr = st->nr_frames;
		return 1;
	}
	st->last = NULL;

	if (IS_ENABLED(CONFIG_LBR_STITCH) && st->enable && !s->no_hw_idx) {
		t = thread_findnew(st, s->tid);
		if (!t || has_stitched_lbr(st, t, s, &stitched))
			goto nomem;
		if (!stitched)
			t->list_nr = 0;
		if (save_prev(st, t, s))
			goto nomem;
	}
	if (ensure_u64(&st->frames, &st->frames_cap,
		       user + 2 + s->branch_nr + (stitched ? t->list_nr : 0)))
		goto nomem;

	for (i = 0; i <= user; i++) {
		ip = perf_sample__callchain_ip(s, i);
		if (ip >= PERF_CONTEXT_MAX) {
			if (!is_known_context(ip))
				return 0;
			continue;
		}
		st->frames[n++] = ip;
	}
	if (s->branch_nr) {
		perf_sample__branch(s, 0, &b);
		if (b.to >= PERF_CONTEXT_MAX) {
			if (!is_known_context(b.to))
				return 0;
		} else {
			st->frames[n++] = b.to;
		}
	} else {
		/*
		 * perf reads entries[0].to even when the stack is empty: from a
		 * file that is the word after the stack, past the sample (the
		 * next record's first field). The sample's own ip stands in.
		 */
		st->frames[n++] = s->ip;
	}
	/* prev_valid[] has max_lbr + 1 slots: only the entries below that are noted */
	nr_save = t ? (s->branch_nr < (u64)st->max_lbr + 1 ? s->branch_nr : (u64)st->max_lbr + 1) : 0;
	/*
	 * Usually every from is an address: copy them all, then look at what
	 * was copied. A context marker among them takes the walk below.
	 */
	marker = copy_froms(st->frames + n, s->branch_entries, s->branch_nr);
	if (!marker) {
		if (nr_save)
			memset(t->prev_valid, true, nr_save);
		n += s->branch_nr;
	}
	for (i = 0; marker && i < s->branch_nr; i++) {
		ip = perf_sample__branch_from(s->branch_entries, i);
		if (ip >= PERF_CONTEXT_MAX) {
			if (i < nr_save)
				t->prev_valid[i] = false;
			if (!is_known_context(ip))
				return 0;
			continue;
		}
		if (i < nr_save)
			t->prev_valid[i] = true;
		st->frames[n++] = ip;
	}
	if (stitched)
		for (i = t->list_nr; i > 0; i--)
			st->frames[n++] = t->list[i - 1];
	st->nr_frames = n;
	*frames = st->frames;
	*nr = n;
	if (st->entries_stay) {
		/* its callchain and entries stay where they are; the struct is the caller's */
		st->last_sample = *s;
		st->last = &st->last_sample;
	}
	return 1;
nomem:
	errno = ENOMEM;
	return -1;
}
