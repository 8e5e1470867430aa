// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's samples against the machine's truth. See judge.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/task_ctx_data.h"
#include "core/testcase.h"
#include "core/x86/tsc.h"
#include "sim/judge.h"
#include "sim/machine.h"
#include "sim/vg_task.h"
#include "tools/perf/util/lbr_stitch.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/tsc_convert.h"
#include "tools/perf/util/array_grow.h"

/* ---- the truth, as the samples are taken ------------------------------------ */

static size_t truth_hash(uint32_t tid, uint64_t time, size_t cap)
{
	uint64_t h = (time ^ ((uint64_t)tid << 40)) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/*
 * Index truth I (live judging): the first of a (tid, time) is the one
 * found; bounded, each is indexed, and the first not judged yet is found
 * (each sample its own truth, two events' samples of one instant too).
 */
static int index_insert(struct judge *j, size_t i)
{
	const struct run_truth *tr = &j->truth[i];
	size_t k;

	if ((j->nr_truth + 1) * 2 > j->index_cap) {
		size_t cap = j->index_cap ? j->index_cap * 2 : 4096;
		size_t *index = calloc(cap, sizeof(*index));

		if (!index)
			return -1;
		for (size_t o = 0; o < j->index_cap; o++) {
			const struct run_truth *x;

			if (!j->index[o])
				continue;
			x = &j->truth[j->index[o] - 1];
			for (k = truth_hash(x->tid, x->time, cap); index[k]; k = (k + 1) & (cap - 1))
				;
			index[k] = j->index[o];
		}
		free(j->index);
		j->index = index;
		j->index_cap = cap;
	}
	for (k = truth_hash(tr->tid, tr->time, j->index_cap); j->index[k];
	     k = (k + 1) & (j->index_cap - 1)) {
		const struct run_truth *x = &j->truth[j->index[k] - 1];

		if (x->tid == tr->tid && x->time == tr->time && !j->bounded)
			return 0;
	}
	j->index[k] = i + 1;
	return 0;
}

/* BUF's place in j->bufs, its WRITTEN and SIZE noted; -1: out of memory. */
static int judge_buf(struct judge *j, const void *buf, uint64_t written, uint64_t size)
{
	struct judge_buf *b;
	uint32_t i = j->last_buf;

	if (i >= j->nr_bufs || j->bufs[i].id != buf)
		for (i = 0; i < j->nr_bufs && j->bufs[i].id != buf; i++)
			;
	if (i == j->nr_bufs) {
		b = realloc(j->bufs, (j->nr_bufs + 1) * sizeof(*b));
		if (!b)
			return -1;
		j->bufs = b;
		j->bufs[j->nr_bufs++] = (struct judge_buf){ .id = buf };
	}
	b = &j->bufs[i];
	if (written > b->written)
		b->written = written;
	b->size = size;
	j->last_buf = i;
	return (int)i;
}

/*
 * Bounded: the truths that can still be wanted moved to the front, in
 * the order taken, and indexed again: those not judged whose buffer has
 * not had more than its size written after them.
 */
static int judge_compact(struct judge *j)
{
	size_t k = 0, nf = 0;

	for (size_t i = 0; i < j->nr_truth; i++) {
		struct run_truth tr = j->truth[i];
		const struct judge_buf *b = &j->bufs[tr.buf];

		if (tr.judged || b->written - tr.at > b->size)
			continue;
		/* (no frames: maybe no pool yet, which memmove() may not be given) */
		if (tr.nr)
			memmove(j->truth_frames + nf, j->truth_frames + tr.frames,
				tr.nr * sizeof(*j->truth_frames));
		tr.frames = nf;
		nf += tr.nr;
		j->truth[k++] = tr;
	}
	j->nr_truth = k;
	j->nr_truth_frames = nf;
	if (j->index_cap)
		memset(j->index, 0, j->index_cap * sizeof(*j->index));
	for (size_t i = 0; i < k; i++)
		if (index_insert(j, i))
			return -1;
	return 0;
}

void judge_note_sample(struct judge *j, struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs, const void *buf, uint64_t written, uint64_t size)
{
	struct sim_task *t = current ? current->sim : NULL;
	uint64_t ips[RUN_TRUTH_FRAMES];
	struct run_truth *tr;
	unsigned int n;
	int b;

	if (!t || !(event->attr.sample_type & PERF_SAMPLE_TIME))
		return;
	b = judge_buf(j, buf, written, size);
	if (b < 0) {
		j->error = ENOMEM;
		return;
	}
	/*
	 * Bounded and full: room made of what will not be wanted; if that
	 * leaves it over half full, it grows all the same, so that it is
	 * compacted again only after as many notes as it holds.
	 */
	if (j->bounded && j->nr_truth && j->nr_truth == j->truth_cap &&
	    (judge_compact(j) ||
	     (j->nr_truth * 2 > j->truth_cap &&
	      array_grow((void **)&j->truth, &j->truth_cap, j->truth_cap + 1, sizeof(*j->truth),
			 4096)))) {
		j->error = ENOMEM;
		return;
	}
	if (array_grow((void **)&j->truth, &j->truth_cap, j->nr_truth + 1, sizeof(*j->truth), 4096)) {
		j->error = ENOMEM;
		return;
	}
	tr = &j->truth[j->nr_truth++];
	tr->tid = (uint32_t)t->task.tid;
	tr->time = data->time;
	tr->ip = regs->ip;		/* what the sample records (the executor's own op may lag) */
	tr->tsc = perf_hw_time();
	tr->nr = 0;
	tr->judged = false;
	tr->buf = (uint32_t)b;
	tr->at = written;
	tr->frames = j->nr_truth_frames;
	if (j->live && index_insert(j, j->nr_truth - 1)) {
		j->error = ENOMEM;
		return;
	}
	/* only LBR call-stack samples are judged against their stacks */
	if (!(event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) ||
	    !(event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		return;
	n = j->trace ? vg_trace_callstack(t, ips, RUN_TRUTH_FRAMES) :
		       wl_exec_callstack(&t->exec, ips, RUN_TRUTH_FRAMES);
	if (array_grow((void **)&j->truth_frames, &j->truth_frames_cap, j->nr_truth_frames + n,
		 sizeof(*j->truth_frames), 4096)) {
		j->error = ENOMEM;
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct wl_func *fn = j->trace ? NULL : workload_func_at(t->exec.wl, ips[i]);

		j->truth_frames[j->nr_truth_frames++] = j->trace ? ips[i] :
			fn ? (uint64_t)(fn - t->exec.wl->funcs) : UINT64_MAX;
	}
	tr->nr = (uint16_t)n;
}

/* ---- the summary, from the file --------------------------------------------- */

static int truth_cmp(const void *a, const void *b)
{
	const struct run_truth *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return 0;
}

/*
 * The truth of the sample TID took at TIME, or NULL. Truth sorted by
 * truth_cmp, or indexed (live: index_insert() says which of a key's).
 */
static struct run_truth *truth_find(const struct judge *j, uint32_t tid, uint64_t time)
{
	struct run_truth key = { .tid = tid, .time = time };

	if (j->live) {
		for (size_t k = j->index_cap ? truth_hash(tid, time, j->index_cap) : 0;
		     j->index_cap && j->index[k]; k = (k + 1) & (j->index_cap - 1)) {
			struct run_truth *x = &j->truth[j->index[k] - 1];

			if (x->tid == tid && x->time == time && !x->judged)
				return x;
		}
		return NULL;
	}
	return !j->nr_truth ? NULL : bsearch(&key, j->truth, j->nr_truth, sizeof(key), truth_cmp);
}

static struct run_task_depth *task_depth(struct run_stats *st, const struct sim_task *t)
{
	struct run_task_depth *d;

	for (unsigned int i = 0; i < st->nr_tasks; i++)
		if (st->tasks[i].tid == (uint32_t)t->task.tid)
			return &st->tasks[i];
	d = realloc(st->tasks, (st->nr_tasks + 1) * sizeof(*d));
	if (!d)
		return NULL;
	st->tasks = d;
	d = &st->tasks[st->nr_tasks++];
	memset(d, 0, sizeof(*d));
	d->tid = (uint32_t)t->task.tid;
	d->group = t->group;
	return d;
}

enum stack_verdict { STACK_WHOLE, STACK_SHORT, STACK_WRONG };

/* FRAMES (innermost first) against the true stack, function by function. */
static enum stack_verdict judge_stack(const struct judge *j, const struct workload *wl,
				      const struct run_truth *tr, const u64 *frames, u32 nr)
{
	const uint64_t *truth = j->truth_frames + tr->frames;

	for (u32 i = 0; i < nr; i++) {
		const struct wl_func *fn = j->trace ? NULL : workload_func_at(wl, frames[i]);

		if (i >= tr->nr)
			return STACK_WRONG;
		if (j->trace ? frames[i] != truth[i] :
			       !fn || (uint64_t)(fn - wl->funcs) != truth[i])
			return STACK_WRONG;
	}
	return nr == tr->nr ? STACK_WHOLE : STACK_SHORT;
}

/*
 * VERDICT: the raw and the stitched stack's judgement, -1 where there is
 * none. 0, or -1 when a stitcher ran out of memory: a sample left out
 * would skew the figures.
 */
static int account_depth(const struct judge *j, struct run_stats *st, struct run_task_depth *d,
			 const struct workload *wl, const struct run_truth *tr,
			 struct lbr_stitcher *plain, struct lbr_stitcher *stitched,
			 const struct perf_sample *s, int verdict[2])
{
	const u64 *frames;
	u32 nr;
	int ret;

	verdict[0] = verdict[1] = -1;

	ret = lbr_stitcher__resolve(plain, s, &frames, &nr);
	if (ret < 0)
		return -1;
	if (ret > 0) {
		st->cs_samples++;
		st->depth_sum += nr;
		if (nr > st->depth_max)
			st->depth_max = nr;
		if (d && tr) {
			d->samples++;
			d->lbr_sum += nr;
			if (nr > d->lbr_max)
				d->lbr_max = nr;
			if (tr->nr > d->true_max)
				d->true_max = tr->nr;
			verdict[0] = (int)judge_stack(j, wl, tr, frames, nr);
			d->lbr_whole += verdict[0] == STACK_WHOLE;
		}
	}
	/* without CONFIG_LBR_STITCH there is no stitched stack to judge: no figures at all */
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		return 0;
	ret = lbr_stitcher__resolve(stitched, s, &frames, &nr);
	if (ret < 0)
		return -1;
	if (ret > 0) {
		st->stitched_sum += nr;
		if (nr > st->stitched_max)
			st->stitched_max = nr;
		if (d && tr) {
			d->stitched_sum += nr;
			if (nr > d->stitched_max)
				d->stitched_max = nr;
			verdict[1] = (int)judge_stack(j, wl, tr, frames, nr);
			switch (verdict[1]) {
			case STACK_WHOLE: d->stitched_whole++; break;
			case STACK_SHORT: d->stitched_short++; break;
			case STACK_WRONG: d->stitched_wrong++; break;
			}
		}
	}
	return 0;
}

/* The latest page snapshot that applies to CYC (its time_mono_last is not later). */
static const struct tsc_conv *conv_for(const struct judge *j, uint64_t cyc)
{
	for (size_t i = j->nr_convs; i > 0; i--)
		if (j->convs[i - 1].mono_last <= cyc)
			return &j->convs[i - 1];
	return NULL;
}

/* A hw_time sample: its raw TSC post-processed as a tool would, against the model. */
static void account_hw_time(const struct judge *j, struct run_hw_time *hw, uint64_t tsc)
{
	const struct tsc_conv *conv = conv_for(j, tsc);
	unsigned __int128 exact;
	uint64_t mono, off;

	if (!conv) {
		hw->no_snapshot++;
		return;
	}
	hw->samples++;
	mono = tsc_conv_to_mono_raw(conv, tsc);
	hw->mono_equal += mono == model_clock_tsc_to_mono_raw(tsc);
	/* the model clock exactly: cycles since c0 at tsc_khz, no mult/shift rounding */
	exact = (unsigned __int128)(tsc - model_clock.tsc_at_zero) * 1000000u /
		model_clock.tsc_khz + model_clock.raw_at_zero;
	off = mono > (uint64_t)exact ? mono - (uint64_t)exact : (uint64_t)exact - mono;
	if (off > hw->max_ns_off_exact)
		hw->max_ns_off_exact = off;
	hw->tsc_khz = model_clock.tsc_khz;
}

/* The previous sample of one task from one event: where its next window began. */
struct window_start {
	uint64_t time;
	bool seen;
};

static bool counts_instructions(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE && attr->config == PERF_COUNT_HW_INSTRUCTIONS &&
	       (attr->sample_type & PERF_SAMPLE_TIME) && (attr->sample_type & PERF_SAMPLE_PERIOD);
}

/*
 * The window S closed: its instructions and, from the task's previous
 * sample of the same event, its cycles. Returns false for a task's first
 * sample. The task runs alone on its CPU for this to be its own cycles.
 */
static bool sample_window(struct window_start *w, const struct scn_event *e,
			  const struct perf_sample *s, uint64_t *cycles)
{
	bool have = w->seen && s->time > w->time;

	if (have)
		*cycles = e->hw_time ? s->time - w->time :
				       model_clock_ns_to_tsc(s->time) - model_clock_ns_to_tsc(w->time);
	w->seen = true;
	w->time = s->time;
	return have;
}

/*
 * The truth file (run_trace()): one line per sample that has its truth,
 * in the perf.data's order: tid, time (ns), the raw LBR stack's and the
 * stitched stack's verdict (whole, short, wrong; - where the sample has no
 * LBR call stack), the sample's ip, the number of true frames, then the
 * frames in hex, innermost first: the innermost call's target, then each
 * call site (sim/vg_task.h).
 */
static void write_truth_line(const struct judge *j, const struct run_truth *tr,
			     const int verdict[2])
{
	static const char *const names[] = { "whole", "short", "wrong" };
	const uint64_t *fr = j->truth_frames + tr->frames;

	fprintf(j->truth_fp, "%u %llu %s %s %#llx %u", tr->tid, (unsigned long long)tr->time,
		verdict[0] < 0 ? "-" : names[verdict[0]], verdict[1] < 0 ? "-" : names[verdict[1]],
		(unsigned long long)tr->ip, tr->nr);
	for (unsigned int i = 0; i < tr->nr; i++)
		fprintf(j->truth_fp, " %#llx", (unsigned long long)fr[i]);
	fputc('\n', j->truth_fp);
}

/* Ready to judge samples of NR_ATTRS events, with MAX_BRANCHES-deep LBRs. 0, or -1: no memory. */
static int judge_begin(struct judge *j, u32 nr_attrs, u32 max_branches)
{
	j->nr_attrs = nr_attrs;
	j->starts = calloc((size_t)j->m->nr_tasks * nr_attrs + 1, sizeof(*j->starts));
	if (!j->starts)
		return -1;
	lbr_stitcher__init(&j->plain, max_branches, false);
	lbr_stitcher__init(&j->stitched, max_branches, true);
	j->judging = true;
	return 0;
}

static void judge_end(struct judge *j)
{
	if (!j->judging)
		return;
	lbr_stitcher__exit(&j->plain);
	lbr_stitcher__exit(&j->stitched);
	free(j->starts);
	j->starts = NULL;
	j->judging = false;
}

/* One sample of the file, in its order: of event IDX, ATTR. 0, or -1: out of memory. */
static int judge_sample(struct judge *j, u32 idx, const struct perf_event_attr *attr,
			const u8 *ev, u32 size)
{
	struct run_stats *st = j->st;
	struct run_truth *tr = NULL;
	struct run_task_depth *d = NULL;
	const struct scn_event *e;
	const struct workload *wl = NULL;
	struct perf_sample s;
	int verdict[2];
	struct sim_task *t;
	const char *why;
	int bad;

	/*
	 * the run's own records: each sample parses (the call outside
	 * NEVER(), which a coverage build folds to 0 without evaluating it)
	 */
	bad = perf_sample__parse(attr, ev, size, &s, &why);
	if (NEVER(bad))
		return 0;
	/* the file's attrs are the scenario's events, in order */
	e = &j->s->events[idx];
	if (idx < RUN_MAX_EVENTS)
		st->event_samples[idx]++;
	t = machine_find_task(j->m, (int)s.tid);
	if (attr->sample_type & PERF_SAMPLE_TIME)
		tr = truth_find(j, s.tid, s.time);
	/* (bounded: it goes at the next compaction, the sample being this one's) */
	if (tr && j->bounded)
		tr->judged = true;
	if (t && !j->trace) {
		const struct wl_func *fn;
		bool is_short = e->alternative_period &&
				(attr->sample_type & PERF_SAMPLE_PERIOD) &&
				s.period == e->alternative_period;
		uint64_t win = 0;
		bool windowed = counts_instructions(attr) &&
				sample_window(&j->starts[(size_t)t->index * j->nr_attrs + idx], e, &s,
					      &win) &&
				(!e->alternative_period || is_short);

		/*
		 * The previous sample's PMI handler ran inside this
		 * window: time moved, but a cycles counter read with
		 * the sample would not have counted it (the PMU is off
		 * in the handler). The model's TSC runs at the core
		 * clock here, so the handler's cost comes off as is.
		 */
		if (windowed && win > j->s->machine->pmi_cycles)
			win -= j->s->machine->pmi_cycles;

		wl = j->wls[t->group];
		fn = workload_func_at(wl, s.ip);
		for (unsigned int i = 0; fn && i < st->nr_funcs; i++) {
			if (st->funcs[i].group != t->group || strcmp(st->funcs[i].name, fn->name))
				continue;
			st->funcs[i].samples++;
			st->funcs[i].short_samples += is_short;
			if (windowed) {
				st->funcs[i].win_insns += s.period;
				st->funcs[i].win_cycles += win;
			}
		}
	}
	if (e->hw_time && tr)
		account_hw_time(j, &st->hw_time, s.time);
	verdict[0] = verdict[1] = -1;
	if ((attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	    (attr->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		if (t && tr) {
			d = task_depth(st, t);
			if (!d)
				return -1;
		}
		if (account_depth(j, st, d, wl, tr, &j->plain, &j->stitched, &s, verdict))
			return -1;
	}
	if (j->truth_fp && tr)
		write_truth_line(j, tr, verdict);
	return 0;
}

int judge_file(struct judge *j, struct perf_data_writer *w, char *err, size_t errlen)
{
	struct perf_data_iter it;
	struct perf_data_file f;
	const u8 *ev;
	u32 size;
	int ret;

	/* the finished file, before it goes to the output: a device cannot be read back */
	if (perf_data_writer__open_result(w, &f)) {
		snprintf(err, errlen, "%s", f.err);
		perf_data_file__close(&f);
		return -1;
	}
	if (judge_begin(j, f.nr_attrs, f.max_branches))
		goto nomem;
	if (j->nr_truth)	/* a run without samples has no array to sort */
		qsort(j->truth, j->nr_truth, sizeof(*j->truth), truth_cmp);
	perf_data_file__iter_init(&f, &it);
	while ((ret = perf_data_file__next(&f, &it, &ev, &size)) > 0) {
		const struct perf_data_attr *a;

		if (((const struct perf_event_header *)ev)->type != PERF_RECORD_SAMPLE)
			continue;
		a = perf_data_file__sample_attr(&f, ev, size);
		/* the run's own file: each sample has its attr */
		if (NEVER(!a))
			continue;
		if (judge_sample(j, (u32)(a - f.attrs), &a->attr, ev, size))
			goto nomem;
	}
	judge_end(j);
	perf_data_file__close(&f);
	return 0;
nomem:
	judge_end(j);
	perf_data_file__close(&f);
	snprintf(err, errlen, "pmusim: out of memory");
	return -1;
}

/* ---- the summary, as the samples go down a pipe ----------------------------- */

static void judge_hook(void *arg, u32 idx, const struct perf_event_attr *attr, const u8 *ev,
		       u32 size)
{
	struct judge *j = arg;

	if (!j->error && judge_sample(j, idx, attr, ev, size))
		j->error = ENOMEM;
}

int judge_live(struct judge *j, struct perf_data_writer *w, u32 nr_attrs, u32 max_branches)
{
	if (judge_begin(j, nr_attrs, max_branches))
		return -1;
	j->live = true;
	perf_data_writer__set_sample_hook(w, judge_hook, j);
	return 0;
}

int judge_ground_truth(struct judge *j)
{
	struct run_stats *st = j->st;
	const struct scenario *s = j->s;
	unsigned int n = 0;

	if (j->trace) {
		struct vg_trace_stats vs;

		vg_trace_stats(j->trace, &vs);
		st->insns = vs.insns;
		st->branches = vs.branches;
		st->cycles = vs.insns;		/* CPI 1 */
		/*
		 * In frames, as a true stack counts them (the innermost
		 * function, then a call site for each call): one more than
		 * the calls on the deepest shadow stack.
		 */
		st->true_depth_max = vs.max_depth ? vs.max_depth + 1 : 0;
		goto machine;
	}
	for (unsigned int g = 0; g < s->tasks_count; g++)
		n += j->wls[g]->nr_funcs;
	st->funcs = calloc(n, sizeof(*st->funcs));
	if (!st->funcs)
		return -1;
	for (unsigned int g = 0; g < s->tasks_count; g++) {
		for (uint32_t f = 0; f < j->wls[g]->nr_funcs; f++) {
			struct run_func *rf = &st->funcs[st->nr_funcs + f];

			snprintf(rf->name, sizeof(rf->name), "%s", j->wls[g]->funcs[f].name);
			rf->group = g;
		}
		for (unsigned int t = 0; t < j->m->nr_tasks; t++) {
			struct sim_task *tk = j->m->tasks[t];

			if (tk->group != g)
				continue;
			for (uint32_t f = 0; f < j->wls[g]->nr_funcs; f++) {
				st->funcs[st->nr_funcs + f].insns += tk->exec.self_insns[f];
				st->funcs[st->nr_funcs + f].cycles += tk->exec.self_insns[f] +
					(uint64_t)j->wls[g]->params.mispredict_penalty *
					tk->exec.self_mispredicts[f];
			}
		}
		st->nr_funcs += j->wls[g]->nr_funcs;
	}
	for (unsigned int t = 0; t < j->m->nr_tasks; t++) {
		struct wl_exec *x = &j->m->tasks[t]->exec;

		st->insns += x->insns;
		st->branches += x->branches;
		st->cycles += x->cycles;
		st->mispredicts += x->mispredicts;
		if (x->max_depth > st->true_depth_max)
			st->true_depth_max = x->max_depth;
	}
machine:
	for (unsigned int t = 0; t < j->m->nr_tasks; t++) {
		size_t bytes = perf_ctx_data_task_bytes(&j->m->tasks[t]->task);

		if (!bytes)
			continue;
		st->ctx_data_tasks++;
		if (bytes > st->ctx_data_task_bytes)
			st->ctx_data_task_bytes = bytes;
	}
	st->ctx_data_total_bytes = perf_ctx_data_total_bytes();
	st->switches = j->m->nr_switches;
	st->migrations = j->m->nr_migrations;
	st->ticks = j->m->nr_ticks;
	for (unsigned int c = 0; c < j->m->cfg.nr_cpus; c++)
		st->pmis += model_cpu_nr_pmis(j->m->cpus[c].model);
	return 0;
}

int judge_open_truth(struct judge *j, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* a device or a FIFO (--truth /dev/stderr): written in place, never replaced */
		j->truth_tmp[0] = '\0';
		j->truth_fp = fopen(path, "w");
		if (!j->truth_fp) {
			snprintf(err, errlen, "pmusim: %s: %s", path, strerror(errno));
			return -1;
		}
	} else {
		snprintf(j->truth_tmp, sizeof(j->truth_tmp), "%s.XXXXXX", path);
		fd = mkstemp(j->truth_tmp);
		if (fd < 0 || !(j->truth_fp = fdopen(fd, "w"))) {
			snprintf(err, errlen, "pmusim: %s: %s", path, strerror(errno));
			if (fd >= 0) {
				close(fd);
				unlink(j->truth_tmp);
			}
			j->truth_tmp[0] = '\0';
			return -1;
		}
		fchmod(fd, 0644);
	}
	fputs("# pmusim truth 1: tid time lbr stitched ip nr frames (callee entry, call sites)\n",
	      j->truth_fp);
	return 0;
}

int judge_close_truth(struct judge *j, const char *path, char *err, size_t errlen)
{
	int bad = ferror(j->truth_fp);

	bad |= fclose(j->truth_fp);
	j->truth_fp = NULL;
	if (bad || (j->truth_tmp[0] && rename(j->truth_tmp, path))) {
		snprintf(err, errlen, "pmusim: %s: %s", path, bad ? "write error" : strerror(errno));
		return -1;
	}
	j->truth_tmp[0] = '\0';
	return 0;
}

void judge_exit(struct judge *j)
{
	judge_end(j);
	free(j->index);
	j->index = NULL;
	j->index_cap = 0;
	j->live = false;
	if (j->truth_fp)
		fclose(j->truth_fp);
	j->truth_fp = NULL;
	if (j->truth_tmp[0])
		unlink(j->truth_tmp);
	j->truth_tmp[0] = '\0';
	free(j->truth);
	free(j->truth_frames);
	free(j->bufs);
	j->bufs = NULL;
	j->nr_bufs = j->last_buf = 0;
	j->truth = NULL;
	j->truth_frames = NULL;
	j->nr_truth = j->truth_cap = j->nr_truth_frames = j->truth_frames_cap = 0;
}
