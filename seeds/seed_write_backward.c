// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write_backward seed:
 * a flight recorder, an overwrite buffer that nobody reads until the
 * end, run three times on the same scenario and seed:
 *
 *   backward    written from the end; the reader starts at data_head and
 *               finds every record that is still whole.
 *   forward     the same buffer written forward: once the writer has
 *               wrapped, nothing says where the oldest whole record
 *               begins, and data_head - size is inside a record.
 *   unpaused    backward, read while the writer goes on (the machine runs
 *               inside the reader's walk): the plain backward reader hands
 *               out records that were overwritten under it; the
 *               copy-then-verify reader notices and stops.
 *
 * A record is judged against the simulator's own log of the samples it
 * took (run_truths): the newest-first walk must meet the samples in
 * reverse order of taking, with the same tid, time and ip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/testcase.h"
#include "tools/lib/perf/mmap_read.h"
#include "sim/run.h"
#include "seeds/seeds.h"

struct wb_walk {
	struct run *r;
	const struct run_truth *truth;
	size_t nr_truth;
	size_t *order;			/* truth indices sorted by (tid, time) */
	long long expect;		/* truth index the next record should be; -1: first */
	uint64_t records, consistent, bytes;
	uint32_t min_size, max_size;	/* of the records read; 0: none yet */
	uint64_t step_size;		/* bytes a record takes, for the writer's half buffer
					   before this walk has read one (0: unknown) */
	uint64_t buf_size, period;
	bool advance;			/* let the writer go on inside the walk, once */
	bool advanced, failed;
	bool forward;			/* walking oldest first */
};

static const struct run_truth *sort_truth;

static int order_cmp(const void *a, const void *b)
{
	const struct run_truth *x = &sort_truth[*(const size_t *)a];
	const struct run_truth *y = &sort_truth[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	/* one tid's samples: each at a time of its own (qsort compares no element with itself) */
	return (x->time > y->time) - (x->time < y->time);
}

/* Index the simulator's log as it is now (again after the machine ran on). */
static int walk_index(struct wb_walk *w)
{
	free(w->order);
	w->truth = run_truths(w->r, &w->nr_truth);
	w->order = malloc((w->nr_truth + 1) * sizeof(*w->order));
	if (!w->order)
		return -1;
	for (size_t i = 0; i < w->nr_truth; i++)
		w->order[i] = i;
	sort_truth = w->truth;
	qsort(w->order, w->nr_truth, sizeof(*w->order), order_cmp);
	return 0;
}

static int walk_init(struct wb_walk *w, struct run *r, uint64_t buf_size, uint64_t period)
{
	memset(w, 0, sizeof(*w));
	w->r = r;
	w->expect = -1;
	w->buf_size = buf_size;
	w->period = period;
	return walk_index(w);
}

/* Bytes a record takes: this walk's mean, or what it was told before it read one. */
static uint64_t walk_record_size(const struct wb_walk *w)
{
	return w->records ? w->bytes / w->records : w->step_size;
}

/* Let the writer write about half a buffer while the reader is mid-walk. */
static void writer_goes_on(struct wb_walk *w)
{
	w->advanced = true;
	run_advance(w->r, (w->buf_size / 2 / walk_record_size(w) + 1) * w->period);
	if (walk_index(w))
		w->failed = true;
}

/* Which sample this record is, by the simulator's log; -1 if none matches. */
static long long truth_index(const struct wb_walk *w, const struct perf_sample *s)
{
	size_t lo = 0, hi = w->nr_truth;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct run_truth *t = &w->truth[w->order[mid]];

		if (t->tid < s->tid || (t->tid == s->tid && t->time < s->time))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < w->nr_truth) {
		const struct run_truth *t = &w->truth[w->order[lo]];

		if (t->tid == s->tid && t->time == s->time && t->ip == s->ip)
			return (long long)w->order[lo];
	}
	return -1;
}

static int on_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct wb_walk *w = arg;
	struct perf_sample s;
	long long idx = -1;

	w->records++;
	w->bytes += size;
	if (!w->min_size || size < w->min_size)
		w->min_size = (uint32_t)size;
	if (size > w->max_size)
		w->max_size = (uint32_t)size;
	/*
	 * Only a sample record takes a sample's place: another record (a
	 * context switch, say) is read but neither judged nor expected.
	 */
	if (rec->type != PERF_RECORD_SAMPLE)
		goto next;
	if (!run_parse_sample(w->r, rec, size, &s))
		idx = truth_index(w, &s);
	/* consistent: a sample that was taken, the one after (or before) the last */
	if (idx >= 0 && (w->expect < 0 || idx == w->expect))
		w->consistent++;

	if (idx >= 0)
		w->expect = w->forward ? idx + 1 : idx - 1;
	else if (w->expect >= 0)
		w->expect = w->forward ? w->expect + 1 : w->expect - 1;
next:
	if (w->advance && !w->advanced)
		writer_goes_on(w);
	return w->failed;
}

static void on_verify_step(struct perf_mmap_reader *reader, enum perf_mmap_verify_step step,
			   void *arg)
{
	struct wb_walk *w = arg;

	/*
	 * At its first chunk: between the copy and the check, where a writer
	 * hurts the verifying reader most. The record size is the plain
	 * walk's mean (at_end), as nothing is handed out yet. Only the
	 * unpaused walk has this step; its plain walk, before it, read at
	 * least the record at which it let the writer go on, so the size is
	 * known; and the reader has no step but CHUNK_COPIED.
	 */
	(void)reader;
	if (!ALWAYS(step == PERF_MMAP_VERIFY_CHUNK_COPIED) || NEVER(!walk_record_size(w)))
		return;
	if (!w->advanced)
		writer_goes_on(w);
}

enum wb_mode { WB_BACKWARD, WB_FORWARD, WB_UNPAUSED };

struct wb_result {
	enum wb_mode mode;
	uint64_t period;
	uint64_t samples;		/* taken (the simulator's log) */
	uint64_t written, size;		/* bytes written, buffer size */
	uint32_t min_size, max_size;	/* of the records read; 0: none read */
	bool whole_known;		/* the records have one size to count them by */
	uint64_t whole;			/* whole records the buffer holds (bytes / record) */
	struct wb_walk a, b;		/* the readers' walks */
	enum perf_mmap_read_status sa, sb;
	uint64_t fell_behind, skipped;
	bool start_is_record;		/* forward: data_head - size starts a taken sample */
	uint64_t overwritten;
	unsigned int nr_buffers;	/* the run's ring buffers, when not the one it reads */
};

/* Does the byte at POS of the ring start a record that is a taken sample? */
static bool starts_sample(struct wb_walk *w, struct perf_mmap_reader *rd, uint64_t pos)
{
	unsigned char buf[PERF_MMAP_COPY_MAX];
	struct perf_event_header h;
	struct perf_sample s;

	for (size_t i = 0; i < sizeof(h); i++)
		((unsigned char *)&h)[i] = rd->data[(pos + i) & rd->mask];
	/* a size the readers would take, which also keeps the copy inside buf */
	if (!perf_mmap_reader__size_valid(h.size, rd->size))
		return false;
	for (size_t i = 0; i < h.size; i++)
		buf[i] = rd->data[(pos + i) & rd->mask];
	return !run_parse_sample(w->r, buf, h.size, &s) && truth_index(w, &s) >= 0;
}

static int at_end(struct run *r, void *arg)
{
	struct wb_result *res = arg;
	struct perf_event_mmap_page *pg;
	struct perf_mmap_reader rd;
	uint64_t head;
	int ret = -1, err;

	if (run_nr_buffers(r) != 1) {
		res->nr_buffers = run_nr_buffers(r);
		return -1;
	}
	pg = run_buffer_page(r, 0);
	err = perf_mmap_reader__init(&rd, pg);
	/* buffer.pages is a power of two up to 4096 (scenario_load): a size the reader takes */
	if (NEVER(err))
		return -1;
	if (walk_init(&res->a, r, rd.size, res->period) ||
	    walk_init(&res->b, r, rd.size, res->period))
		goto out;
	res->samples = res->a.nr_truth;
	res->size = rd.size;
	head = perf_mmap__read_head(pg);
	res->written = res->mode == WB_FORWARD ? head : -head;
	if (res->mode == WB_BACKWARD) {
		run_buffer_pause(r, 0, true);
		res->sa = perf_mmap_reader__read_backward(&rd, on_record, &res->a);
		run_buffer_pause(r, 0, false);
	} else if (res->mode == WB_FORWARD) {
		res->a.forward = res->b.forward = true;
		res->sa = perf_mmap_reader__read_overwrite_forward(&rd, on_record, &res->a);
		res->fell_behind = rd.stats.fell_behind;
		res->skipped = rd.stats.skipped_bytes;
		res->start_is_record = res->written > rd.size &&
				       starts_sample(&res->b, &rd, head - rd.size);
	} else {	/* WB_UNPAUSED */
		res->a.advance = res->b.advance = true;
		res->sa = perf_mmap_reader__read_backward(&rd, on_record, &res->a);
		rd.step = on_verify_step;
		rd.step_arg = &res->b;
		/* the machine ran on under the first reader: index what it sampled */
		if (walk_index(&res->b))
			goto out;
		res->b.step_size = walk_record_size(&res->a);
		res->sb = perf_mmap_reader__read_backward_verify(&rd, on_record, &res->b);
		res->overwritten = rd.stats.overwritten;
	}
	/* a reader that could not grow its copy buffer read nothing worth a row */
	if (res->a.failed || res->b.failed || res->sa == PERF_MMAP_READ_NOMEM ||
	    res->sb == PERF_MMAP_READ_NOMEM)
		goto out;
	res->min_size = res->a.records ? res->a.min_size : res->b.min_size;
	res->max_size = res->a.records ? res->a.max_size : res->b.max_size;
	res->whole_known = res->min_size && res->min_size == res->max_size;
	if (res->whole_known) {
		uint64_t window = res->written < res->size ? res->written : res->size;

		res->whole = window / res->min_size;
		if (res->whole > res->samples)
			res->whole = res->samples;
	}
	ret = 0;
out:
	perf_mmap_reader__exit(&rd);
	return ret;
}

static void walk_free(struct wb_walk *w)
{
	free(w->order);
	w->order = NULL;
}

static int run_mode(struct scenario *s, const struct seed_opts *o, enum wb_mode mode,
		    struct wb_result *res)
{
	struct run_end_hook hook = { at_end, res };
	struct run_stats st;
	char err[512];
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->mode = mode;
	res->period = s->events[0].period;
	s->events[0].write_backward = mode != WB_FORWARD;
	if (run_scenario_hooked(s, o->output, o->map_dir, NULL, &hook, &st, err, sizeof(err))) {
		if (res->nr_buffers)
			fprintf(stderr, "pmusim: seed write-backward: %s: the run has %u ring buffers "
				"(one per task and CPU); the seed reads one: one task on one CPU\n",
				s->file, res->nr_buffers);
		else
			fprintf(stderr, "%s\n", err);
		ret = 1;
	}
	s->events[0].write_backward = true;
	run_stats_free(&st);
	walk_free(&res->a);
	walk_free(&res->b);
	return ret;
}

static void print_row(const char *name, const struct wb_result *res, const struct wb_walk *w,
		      enum perf_mmap_read_status status)
{
	char whole[24] = "-";

	if (res->whole_known)
		snprintf(whole, sizeof(whole), "%llu", (unsigned long long)res->whole);
	printf("  %-36s %7s %7llu %10llu  %s\n", name, whole, (unsigned long long)w->records,
	       (unsigned long long)w->consistent, perf_mmap_read_status_name(status));
}

/* The line under the title: the samples, their size, what the buffer holds whole. */
static void print_sizes(const struct wb_result *bw)
{
	printf("  %llu samples ", (unsigned long long)bw->samples);
	if (bw->whole_known)
		printf("of %u bytes ", bw->min_size);
	else
		printf("of mixed sizes (%u to %u bytes) ", bw->min_size, bw->max_size);
	printf("taken, %llu bytes written: ", (unsigned long long)bw->written);
	if (bw->whole_known)
		printf("%llu records are whole in the buffer\n", (unsigned long long)bw->whole);
	else
		printf("no one record size to count the whole records by\n");
}

int seed_write_backward(struct scenario *s, const struct seed_opts *o)
{
	struct wb_result bw, fw, up;

	/* (scenario_load() wants one task at least) */
	if (s->events_count != 1 || !s->buffer->overwrite ||
	    !s->events[0].period || !(s->events[0].sample_type & PERF_SAMPLE_TIME)) {
		fprintf(stderr, "%s: the write-backward seed wants one event with a period and "
			"time in sample_type, and an overwrite buffer\n", s->file);
		return 1;
	}
	if (run_mode(s, o, WB_BACKWARD, &bw))
		return 1;
	if (!bw.samples) {
		fprintf(stderr, "pmusim: seed write-backward: %s: no sample was taken (the event "
			"never counted while the tasks ran): nothing to read\n", s->file);
		return 1;
	}
	if (run_mode(s, o, WB_FORWARD, &fw) || run_mode(s, o, WB_UNPAUSED, &up))
		return 1;
	if (!fw.min_size) {
		/* the same records; the forward reader found none */
		fw.whole = bw.whole;
		fw.whole_known = bw.whole_known;
	}
	printf("seed write-backward: %s, a %llu-byte overwrite buffer read at the end\n",
	       s->file, (unsigned long long)bw.size);
	print_sizes(&bw);
	printf("  %-36s %7s %7s %10s  %s\n", "reader", "whole", "read", "consistent", "ends with");
	print_row("backward, paused, from data_head", &bw, &bw.a, bw.sa);
	print_row("forward overwrite, from its place", &fw, &fw.a, fw.sa);
	print_row("backward, unpaused, plain", &up, &up.a, up.sa);
	print_row("backward, unpaused, copy-then-verify", &up, &up.b, up.sb);
	printf("  forward: lost its place %llu time(s), skipped %llu bytes; data_head - size "
	       "%s a record\n", (unsigned long long)fw.fell_behind,
	       (unsigned long long)fw.skipped, fw.start_is_record ? "starts" : "does not start");
	printf("  unpaused: the writer wrote about half a buffer inside each walk; "
	       "copy-then-verify found %llu record(s) overwritten\n",
	       (unsigned long long)up.overwritten);
	return 0;
}
