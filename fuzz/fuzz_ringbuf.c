// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring-buffer race harness. The input picks a buffer and a schedule;
 * the schedule's ops run at the top level or, bound to an interleaving
 * point, inside another writer when it reaches that point (a nested
 * writer is an NMI on this CPU, a reader step is another CPU looking).
 * A model of the buffer, written from the rules and not from
 * core/ring_buffer.c, follows every writer through the points and
 * predicts each reservation, LOST count and wakeup; after every step the
 * buffer, as user space sees it, must match the model.
 *
 * Input:
 *   byte 0  bits 0-2 page order (pages = 1 << (k % 5)), bit 3 backward,
 *           bit 4 overwrite (read-only mapping), bit 5 sample_id_all,
 *           bit 6 attr.watermark, bit 7 long reach (ops 0-2, below)
 *   byte 1  wakeup_watermark = 64 * b (attr.watermark) or wakeup_events = b % 8
 *   then 2-byte ops: op = b0 & 7, point = (b0 >> 3) - 1 (-1 or a
 *   non-ring-buffer point: top level), arg = b1
 *     0 write a record of 16 + 8 * (arg & 127) bytes; with long reach
 *       and arg bit 7 set, a burst: 8 * ((arg & 15) + 1) records of
 *       16 << ((arg >> 4) & 7) bytes, one after the other
 *     1 write a sample (counts for wakeup_events), same sizes and bursts
 *     2 write a large record: 16 + 32 * arg bytes (may exceed the buffer);
 *       with long reach, a size the model picks at a limit (edge_size()):
 *       arg bit 7 set, 65528 - 8 * (arg & 127) bytes (the largest records
 *       a u16 header.size allows); clear, the record whose reservation
 *       ends 8 * ((arg & 15) - 8) bytes off the ((arg >> 4) + 1)-th
 *       watermark step ahead (the wakeup rule's edge)
 *     3 reader step: consume up to arg % 8 records (0: all), then check;
 *       arg bit 3 set: with libperf's reader (tools/lib/perf/mmap_libperf.h,
 *       perf top's loop), when the build has a kernel tree
 *     4 pause   5 resume   6 garbage to data_tail (arg * 0x01010101 ...)
 *     7 window readers (tools/lib/perf/mmap_read.c), by mode:
 *       backward, arg bit 0 clear: read_backward, the paused reader (at
 *         the top level only, as it requires); arg bit 1 set: libperf's
 *         (overwrite_rb_find_range, read_event), through a write-protected
 *         user page in overwrite mode, with the same oracle. The window
 *         check after every top-level op alternates the two.
 *       backward overwrite, arg bit 0 set: read_backward_verify, the
 *         copy-then-verify reader, at any point, with guard 8 * (arg >> 1)
 *         bytes; ops bound to the pseudo-points PI__MAX and PI__MAX + 1
 *         run at its step, between its copy of a chunk and its re-read
 *         of data_head (two points, verify-header-copied and
 *         verify-record-copied, when it checked each record twice: the
 *         corpus binds ops to both, and both still mean that step)
 *       forward overwrite: read_overwrite_forward (top level only)
 *   The consumer of op 3 is tools/lib/perf/mmap_read.c's read_forward for a forward
 *   buffer (a backward writable buffer has no reader there: a walk here).
 *   Ops bound to the pseudo-points PI__MAX + 2 and PI__MAX + 3 run at a
 *   writer's PI_OUTPUT_BEGIN_READ_TAIL and PI_PUT_HANDLE_READ_HEAD on a
 *   retry pass only (its reservation's cmpxchg failed, or it found head
 *   moved after publishing): bound to the plain point, an op meant for
 *   the retry would run at the first pass, or in the nested writer that
 *   caused the retry, which reaches the point first.
 *
 * PMUSIM_FUZZ_TRACE=1 (or replay_fuzz_ringbuf -t FILE) prints the
 * schedule as it runs; a failure prints it, then the broken invariant,
 * then aborts.
 */
#include <stdarg.h>

#include "core/internal.h"
#include "fuzz/fuzz.h"
#include "tools/lib/perf/mmap_read.h"
#include "tools/lib/perf/mmap_libperf.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_RING_BUFFER
#include "ksrc/oracle/ring_buffer_diff.h"
#endif

#define FZ_MAX_OPS	512
#define FZ_MAX_BURST	2048		/* writers all bursts of an input may add */
#define FZ_MAX_RECS	(2 * (FZ_MAX_OPS + FZ_MAX_BURST) + 4)
#define FZ_MAX_DEPTH	6
#define FZ_SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
/* The model's own sizes: header + id + lost, and the trailer of FZ_SAMPLE_TYPE. */
#define FZ_LOST_SIZE	24
#define FZ_ID_SIZE	40
#define FZ_TYPE		PERF_RECORD_SAMPLE

/* The verifying reader's step, as points ops can be bound to (two names for it). */
#define FZ_PT_VERIFY_HEADER	PI__MAX
#define FZ_PT_VERIFY_RECORD	(PI__MAX + 1)
/* A writer's loops on their second and later passes, as points. */
#define FZ_PT_RETRY_READ_TAIL	(PI__MAX + 2)
#define FZ_PT_RETRY_READ_HEAD	(PI__MAX + 3)

/* The largest record: header.size is a u16, records are 8-aligned. */
#define FZ_MAX_RECORD		65528u

enum { OP_WRITE, OP_SAMPLE, OP_BIG, OP_READ, OP_PAUSE, OP_RESUME, OP_GARBAGE, OP_WINDOW };
static const char *const op_names[] = {
	"write", "sample", "write-big", "read", "pause", "resume", "garbage-tail", "window",
};

/* A record the model expects, at its free-running position. */
struct fz_rec {
	u64 pos;
	u32 size;
	u64 resv_end;		/* end of its reservation (a LOST shares one) */
	u64 guard;		/* the far end of the bytes written after it */
	bool lost_rec;		/* PERF_RECORD_LOST */
	bool complete;		/* its writer has finished copying */
	bool fenced;		/* complete before a store fence: other CPUs see it */
	bool lost_known;	/* LOST: the count is taken */
	u32 seq;		/* SAMPLE: the writer's sequence number */
	u64 lost;		/* LOST: the count it must carry */
};

/* A writer in progress: the model's view of how far it got. */
struct fz_writer {
	u32 seq, size;
	bool sample;
	bool not_paused, got_handle, failed, reserved, have_lost;
	bool fail_pending, events_pending, wm_pending;
	unsigned long written;			/* bytes written once it reserved */
	u64 resv_start, resv_end;
	unsigned long head_seen, tail_seen;	/* at its last READ_TAIL */
	unsigned long stamp_at_get;
	unsigned long publish_head;
	long events_val;
	unsigned int nest_seen;
	unsigned int tail_reads, head_reads;	/* passes of its two loops */
	int rec_lost, rec;			/* indexes in fz.recs, -1 none */
	int depth;
};

static struct {
	/* input */
	const u8 *ops;
	size_t nr_ops, next_op;
	/* configuration */
	int nr_pages;
	unsigned long size;
	bool backward, overwrite, sample_id_all, watermark_mode;
	bool long_reach;		/* byte 0 bit 7: bursts and edge sizes */
	unsigned int wakeup_events;
	unsigned long watermark;
	/* the system under test */
	struct perf_event event;
	struct perf_buffer *rb;
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	/* the model */
	unsigned long head;		/* reservations so far */
	/*
	 * The wakeup stamp, one number for both rules as in the kernel: the
	 * watermark steps it by watermark bytes, wakeup_events by one (so
	 * sample wakeups shift the byte comparison a little).
	 */
	unsigned long stamp;
	long events;
	long lost;			/* records dropped, not yet in a LOST */
	unsigned int nest;
	bool paused;
	bool tainted;			/* data_tail was garbage: contents unchecked */
	bool oversized;			/* a record larger than the buffer was written */
	bool piled_up;			/* nested writers had more than a buffer in flight */
	u64 attempted, failures, lost_reported, read_records;
	u64 expected_wakeups, wakeups;
	u64 consumer;			/* the forward/backward consumer's position */
	struct perf_mmap_reader reader;	/* read_forward: the consumer (forward) */
	struct perf_mmap_reader ow_reader;	/* read_overwrite_forward */
	struct perf_mmap_libperf lp;	/* libperf's consumer (forward) */
	bool have_lp;
	bool in_verify;			/* the verifying reader runs */
	bool guard_broken;		/* its guard was below the unpublished bytes */
	u64 last_data_head;
	unsigned long warn_base;
	struct fz_rec recs[FZ_MAX_RECS];
	int nr_recs;
	int first_unfenced;		/* recs[] below it are all fenced */
	struct fz_writer *stack[FZ_MAX_DEPTH + 1];
	int depth;
	u32 next_seq;
	unsigned int burst_writers;
	/* tracing */
	bool trace_live;
	char trace[1 << 16];
	size_t trace_len;
	bool trace_truncated;
} fz;

static void fz_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fz_trace(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (fz.trace_live)
		fprintf(stderr, "%*s%s\n", 2 * fz.depth, "", line);
	if (fz.trace_len + (size_t)n + 2 * fz.depth + 2 >= sizeof(fz.trace)) {
		fz.trace_truncated = true;
		return;
	}
	fz.trace_len += (size_t)snprintf(fz.trace + fz.trace_len, sizeof(fz.trace) - fz.trace_len,
					 "%*s%s\n", 2 * fz.depth, "", line);
}

static void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fz_fail(const char *fmt, ...)
{
	va_list ap;

	if (!fz.trace_live) {
		fputs(fz.trace, stderr);
		if (fz.trace_truncated)
			fputs("... (trace truncated)\n", stderr);
	}
	fprintf(stderr, "fuzz_ringbuf: INVARIANT BROKEN: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  model: head %#lx lost %ld nest %u stamp %lu paused %d depth %d; "
		"data_head %#llx data_tail %#llx rb->head %#lx\n",
		fz.head, fz.lost, fz.nest, fz.stamp, fz.paused, fz.depth,
		(unsigned long long)fz.pg->data_head, (unsigned long long)fz.pg->data_tail,
		(unsigned long)local_read(&fz.rb->head));
	fflush(stderr);
	abort();
}

#define fz_check(cond, ...) do { if (!(cond)) fz_fail(__VA_ARGS__); } while (0)

/* ---- the rules, stated for the model ------------------------------------ */

/* Room for @need bytes, one byte always kept free; both directions. */
static bool model_has_space(unsigned long head, unsigned long tail, unsigned long need)
{
	unsigned long used = fz.backward ? tail - head : head - tail;

	used &= fz.size - 1;
	return fz.size - 1 - used >= need;
}

static u32 lost_rec_size(void)
{
	return FZ_LOST_SIZE + (fz.sample_id_all ? FZ_ID_SIZE : 0);
}

static u8 payload_byte(u32 seq, u32 size, u32 i)
{
	return (u8)(seq * 29 + i * 13 + size);
}

static void copy_out(u64 pos, void *dst, size_t len)
{
	unsigned char *d = dst;

	while (len) {
		size_t off = pos & (fz.size - 1);
		size_t n = min(len, (size_t)(fz.size - off));

		memcpy(d, fz.data + off, n);
		d += n;
		pos += n;
		len -= n;
	}
}

/*
 * Is no byte of the record where a later byte went? Bytes written after
 * it lie on both sides: later reservations, up to the head (forward) or
 * down to it (backward), and what the writers it interrupted still
 * copied after it, on the other side, as far as r->guard (set when it
 * completes; its own reservation counts, as a record can exceed the
 * buffer in overwrite mode). Either side reaching a buffer size away
 * from the record's far end wrote over it.
 */
/* Written over by the writers it interrupted (or by itself): for good. */
static bool rec_torn_early(const struct fz_rec *r)
{
	if (r->size > fz.size)
		return true;
	if (!fz.backward)
		return (u64)(r->pos + r->size - r->guard) > fz.size;
	return (u64)(r->guard - r->pos) > fz.size;
}

static bool rec_intact(const struct fz_rec *r)
{
	if (rec_torn_early(r))
		return false;
	if (!fz.backward)
		return (u64)(fz.head - r->pos) <= fz.size;
	return (u64)(r->pos + r->size - fz.head) <= fz.size;
}

static bool rec_published(const struct fz_rec *r, u64 data_head)
{
	if (!fz.backward)
		return (s64)(data_head - (r->pos + r->size)) >= 0;
	return (s64)(r->pos - data_head) >= 0;
}

/* The model's record at @pos, or NULL. Records are kept in reservation order. */
static struct fz_rec *rec_at(u64 pos)
{
	int lo = 0, hi = fz.nr_recs - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		s64 d = (s64)(fz.recs[mid].pos - pos);

		if (fz.backward)
			d = -d;
		if (d == 0)
			return &fz.recs[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* @bytes (@len of them) are the model's record @r, as its writer wrote it. */
static void verify_bytes(const struct fz_rec *r, const u8 *bytes, size_t len, const char *who)
{
	struct perf_event_header h;
	u64 w[2];
	u32 i;

	fz_check(len == r->size && len >= 16, "%s: record at %#llx handed over as %zu bytes, it has %u",
		 who, (unsigned long long)r->pos, len, r->size);
	memcpy(&h, bytes, sizeof(h));
	memcpy(&w[0], bytes + 8, 8);
	w[1] = 0;
	if (len >= 24)
		memcpy(&w[1], bytes + 16, 8);
	if (r->lost_rec) {
		fz_check(h.type == PERF_RECORD_LOST && h.misc == 0 && h.size == r->size,
			 "%s: LOST at %#llx: header type %u misc %u size %u, expected LOST size %u",
			 who, (unsigned long long)r->pos, h.type, h.misc, h.size, r->size);
		fz_check(w[0] == fz.event.id, "%s: LOST at %#llx: id %llu", who,
			 (unsigned long long)r->pos, (unsigned long long)w[0]);
		fz_check(w[1] == r->lost, "%s: LOST at %#llx counts %llu records, the model %llu",
			 who, (unsigned long long)r->pos, (unsigned long long)w[1],
			 (unsigned long long)r->lost);
		return;
	}
	fz_check(h.type == FZ_TYPE && h.misc == 0 && h.size == r->size,
		 "%s: record #%u at %#llx: header type %u misc %u size %u, expected size %u",
		 who, r->seq, (unsigned long long)r->pos, h.type, h.misc, h.size, r->size);
	fz_check(w[0] == ((u64)r->seq << 32 | r->size),
		 "%s: record at %#llx holds seq/size %#llx, expected #%u size %u",
		 who, (unsigned long long)r->pos, (unsigned long long)w[0], r->seq, r->size);
	for (i = 16; i < r->size; i++)
		fz_check(bytes[i] == payload_byte(r->seq, r->size, i),
			 "%s: record #%u at %#llx: byte %u is %#x, expected %#x", who, r->seq,
			 (unsigned long long)r->pos, i, bytes[i], payload_byte(r->seq, r->size, i));
}

/* The bytes in the buffer are the model's record @r. */
static void verify_rec(const struct fz_rec *r, const char *who)
{
	static u8 buf[1 << 16];

	copy_out(r->pos, buf, r->size);
	verify_bytes(r, buf, r->size, who);
}

/* ---- oracles --------------------------------------------------------------- */

/*
 * The store buffer: a record's bytes reach other CPUs, in no particular
 * order, only once a store fence (smp_wmb, smp_mb) runs after they were
 * written. data_head must never cover a record not fenced yet, or a
 * reader on a weakly ordered CPU could read it before its bytes.
 */
static void on_store_fence(void)
{
	for (int i = fz.first_unfenced; i < fz.nr_recs; i++)
		if (fz.recs[i].complete)
			fz.recs[i].fenced = true;
	while (fz.first_unfenced < fz.nr_recs && fz.recs[fz.first_unfenced].fenced)
		fz.first_unfenced++;
}

/* data_head never moves back (forward) or up (backward) and covers only whole records. */
static void check_data_head(const char *where)
{
	u64 data_head = __atomic_load_n(&fz.pg->data_head, __ATOMIC_ACQUIRE);
	s64 moved = fz.backward ? (s64)(fz.last_data_head - data_head)
				: (s64)(data_head - fz.last_data_head);

	fz_check(moved >= 0, "%s: data_head went from %#llx back to %#llx", where,
		 (unsigned long long)fz.last_data_head, (unsigned long long)data_head);
	if (data_head != fz.last_data_head) {
		struct fz_rec *r = fz.backward ? rec_at(data_head) : NULL;

		/* Forward, data_head is the end of a record: the start of none yet. */
		if (!fz.backward) {
			bool found = false;

			for (int i = fz.nr_recs - 1; i >= 0; i--) {
				struct fz_rec *q = &fz.recs[i];

				if (q->pos + q->size == data_head) {
					r = q;
					found = true;
					break;
				}
				if ((s64)(q->pos + q->size - data_head) < 0)
					break;
			}
			fz_check(found, "%s: data_head %#llx is not the end of a reserved record",
				 where, (unsigned long long)data_head);
		} else {
			fz_check(r, "%s: data_head %#llx is not the start of a reserved record",
				 where, (unsigned long long)data_head);
		}
		/* everything it covers is completely written */
		for (int i = fz.nr_recs - 1; i >= 0; i--) {
			struct fz_rec *q = &fz.recs[i];

			if (!rec_published(q, data_head))
				continue;
			if (rec_published(q, fz.last_data_head))
				break;
			fz_check(q->complete, "%s: data_head %#llx published record at %#llx "
				 "before its writer finished it", where,
				 (unsigned long long)data_head, (unsigned long long)q->pos);
			fz_check(q->fenced, "%s: data_head %#llx published record at %#llx with "
				 "no store fence since it was written (a weakly ordered reader may "
				 "see data_head first)", where, (unsigned long long)data_head,
				 (unsigned long long)q->pos);
		}
	}
	fz.last_data_head = data_head;
}

/* Every record the model says is published and intact is in the buffer as written. */
static void check_contents(const char *where)
{
	u64 data_head = READ_ONCE(fz.pg->data_head);

	if (fz.tainted)
		return;
	for (int i = fz.nr_recs - 1; i >= 0; i--) {
		struct fz_rec *r = &fz.recs[i];

		if (!rec_published(r, data_head) || !r->complete)
			continue;
		if (!rec_intact(r))
			break;
		/* non-overwrite: unread records must never be overwritten */
		if (!fz.overwrite && (fz.backward ? (s64)(r->pos - fz.consumer) >= 0
						  : (s64)(r->pos - fz.consumer) < 0))
			break;
		verify_rec(r, where);
	}
}

static void check_step(const char *where)
{
	check_data_head(where);
	check_contents(where);
	fz_check(pmusim_warn_count() == fz.warn_base, "%s: the ring buffer raised a WARN_ON", where);
	if (fz.depth == 0) {
		u64 data_head = READ_ONCE(fz.pg->data_head);

		fz_check(data_head == (u64)fz.head && (unsigned long)local_read(&fz.rb->head) == fz.head,
			 "%s: no writer runs, but data_head %#llx / rb->head %#lx != reserved %#lx",
			 where, (unsigned long long)data_head,
			 (unsigned long)local_read(&fz.rb->head), fz.head);
		fz_check(fz.wakeups == fz.expected_wakeups, "%s: %llu wakeups, the rules give %llu",
			 where, (unsigned long long)fz.wakeups,
			 (unsigned long long)fz.expected_wakeups);
		fz_check(fz.nest == 0 && READ_ONCE(fz.rb->nest) == 0,
			 "%s: no writer runs, but rb->nest is %u", where, READ_ONCE(fz.rb->nest));
		/* every refused record, paused or out of room, counts for the event */
		fz_check((u64)atomic64_read(&fz.event.lost_samples) == fz.failures,
			 "%s: event->lost_samples is %lld, %llu records were refused", where,
			 (long long)atomic64_read(&fz.event.lost_samples),
			 (unsigned long long)fz.failures);
	}
}

/* ---- readers ----------------------------------------------------------------- */

/* What a reader callback needs to place the record it was handed. */
struct fz_read {
	struct perf_mmap_reader *reader;
	struct perf_mmap_libperf *lp;	/* libperf's reader instead: the record is at lp->pos */
	const char *who;
	u64 pos;			/* walks that do not say where they are */
	unsigned long n;
	bool unsure;			/* read_backward: no judging from judge_end on */
	u64 judge_end;
};

static void account_read(const struct fz_rec *r)
{
	if (r->lost_rec)
		fz.lost_reported += r->lost;
	else
		fz.read_records++;
}

/* read_forward / read_overwrite_forward: the record starts at reader->prev. */
static int on_forward_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct fz_read *rd = arg;
	u64 pos = rd->lp ? rd->lp->pos : rd->reader->prev;
	struct fz_rec *r = rec_at(pos);

	fz_check(r, "%s: handed a record (size %zu) at %#llx where the model has none",
		 rd->who, size, (unsigned long long)pos);
	fz_check(r->complete, "%s: record at %#llx is published but not finished", rd->who,
		 (unsigned long long)pos);
	fz_check(rec_intact(r), "%s: handed record at %#llx, which was overwritten", rd->who,
		 (unsigned long long)pos);
	verify_bytes(r, (const u8 *)rec, size, rd->who);
	rd->n++;
	return 0;
}

/*
 * The consumer of a writable mapping. Forward: tools/lib/perf/mmap_read.c's
 * read_forward, oldest first from data_tail, data_tail moved past each
 * record. Backward (no reader there: perf never maps it so): from
 * data_head up to where it stopped last time, then data_tail = data_head.
 * Each record must be the model's, whole.
 */
/* libperf's consumer, from the consumer's position, with read_forward's checks. */
static void reader_consume_libperf(unsigned int max, u64 data_head)
{
	struct fz_read rd = { .lp = &fz.lp, .who = "libperf read_event/consume" };
	enum perf_mmap_read_status st;
	u64 from = fz.consumer, to;

	perf_mmap_libperf__set_prev(&fz.lp, from);
	st = perf_mmap_libperf__read_forward(&fz.lp, max, on_forward_record, &rd);
	to = perf_mmap_libperf__prev(&fz.lp);
	fz_check(st == PERF_MMAP_READ_END, "libperf from %#llx (head %#llx): %s",
		 (unsigned long long)from, (unsigned long long)data_head,
		 perf_mmap_read_status_name(st));
	fz_check(max ? rd.n <= max : to == data_head,
		 "libperf: stopped at %#llx after %lu records, head %#llx max %u",
		 (unsigned long long)to, rd.n, (unsigned long long)data_head, max);
	fz_check(READ_ONCE(fz.pg->data_tail) == to, "libperf: at %#llx, but data_tail %#llx",
		 (unsigned long long)to, (unsigned long long)READ_ONCE(fz.pg->data_tail));
	for (u64 pos = from; pos != to;) {
		struct fz_rec *r = rec_at(pos);

		account_read(r);
		pos += r->size;
	}
	fz.consumer = fz.reader.prev = to;
}

static void reader_consume(unsigned int max, bool libperf)
{
	u64 data_head = __atomic_load_n(&fz.pg->data_head, __ATOMIC_ACQUIRE);

	if (fz.tainted || fz.overwrite)
		return;
	if (!fz.backward && libperf && fz.have_lp) {
		reader_consume_libperf(max, data_head);
	} else if (!fz.backward) {
		struct fz_read rd = { .reader = &fz.reader, .who = "read_forward" };
		enum perf_mmap_read_status st;
		u64 from = fz.reader.prev;

		fz_check(fz.reader.prev == fz.consumer, "read_forward: at %#llx, the consumer at %#llx",
			 (unsigned long long)fz.reader.prev, (unsigned long long)fz.consumer);
		st = perf_mmap_reader__read_forward(&fz.reader, max, on_forward_record, &rd);
		fz_check(st == PERF_MMAP_READ_END, "read_forward from %#llx (head %#llx): %s",
			 (unsigned long long)from, (unsigned long long)data_head,
			 perf_mmap_read_status_name(st));
		fz_check(max ? rd.n <= max : fz.reader.prev == data_head,
			 "read_forward: stopped at %#llx after %lu records, head %#llx max %u",
			 (unsigned long long)fz.reader.prev, rd.n, (unsigned long long)data_head, max);
		fz_check(READ_ONCE(fz.pg->data_tail) == fz.reader.prev,
			 "read_forward: at %#llx, but data_tail %#llx",
			 (unsigned long long)fz.reader.prev,
			 (unsigned long long)READ_ONCE(fz.pg->data_tail));
		for (u64 pos = from; pos != fz.reader.prev;) {
			struct fz_rec *r = rec_at(pos);

			account_read(r);
			pos += r->size;
		}
		fz.consumer = fz.reader.prev;
	} else {
		/* newest first: all of [data_head, consumer) in one go */
		u64 pos = data_head;

		while (pos != fz.consumer) {
			struct fz_rec *r = rec_at(pos);

			fz_check(r, "reader: no model record at %#llx", (unsigned long long)pos);
			fz_check(r->complete, "reader: record at %#llx published unfinished",
				 (unsigned long long)pos);
			verify_rec(r, "reader");
			account_read(r);
			pos += r->size;
		}
		fz.consumer = data_head;
		__atomic_store_n(&fz.pg->data_tail, fz.consumer, __ATOMIC_RELEASE);
	}
	fz_trace("reader consumed up to %#llx (%llu records, %llu lost so far)",
		 (unsigned long long)fz.consumer, (unsigned long long)fz.read_records,
		 (unsigned long long)fz.lost_reported);
}

/* read_backward: records come newest first from data_head, each after the last. */
static int on_backward_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct fz_read *rd = arg;
	struct fz_rec *r = rec_at(rd->pos);

	if (rd->unsure && rd->pos == rd->judge_end)
		return 1;
	fz_check(r, "%s: handed a record (size %zu) at %#llx where the model has none",
		 rd->who, size, (unsigned long long)rd->pos);
	fz_check(r->complete && rec_intact(r), "%s: handed record at %#llx, %s", rd->who,
		 (unsigned long long)rd->pos, r->complete ? "overwritten" : "unfinished");
	verify_bytes(r, (const u8 *)rec, size, rd->who);
	rd->pos += size;
	rd->n++;
	return 0;
}

/*
 * The paused backward reader (libperf's overwrite_rb_find_range walk):
 * from data_head, the records that are whole within one buffer size.
 * Every one must be a model record, intact, and it must stop exactly
 * where the model's whole records end. Only with no writer in flight,
 * as the reader requires (the buffer paused or its events stopped).
 */
static void reader_window_libperf(void);

static void reader_window(bool libperf)
{
	u64 data_head = READ_ONCE(fz.pg->data_head);
	u64 window = (u64)-data_head < fz.size ? (u64)-data_head : fz.size;
	struct perf_mmap_reader reader;
	struct fz_read rd = { .reader = &reader, .who = "read_backward", .pos = data_head };
	enum perf_mmap_read_status st;
	u64 pos;

	if (libperf && perf_mmap_libperf__available()) {
		reader_window_libperf();
		return;
	}

	if (fz.tainted || fz.depth)
		return;
	/*
	 * The model's answer: whole records from data_head while they fit.
	 * A record larger than the buffer (overwrite mode) wrote over its
	 * own header, and nested writers with more than a buffer in flight
	 * overwrite records inside the window (the interrupted ones copy
	 * last): nothing in the buffer says so, the reader cannot know, and
	 * from there on nothing is judged.
	 */
	for (pos = data_head; pos - data_head < window;) {
		struct fz_rec *r = rec_at(pos);

		if (r && r->complete && rec_torn_early(r)) {
			rd.unsure = true;
			rd.judge_end = pos;
			break;
		}
		if (!r || r->size > window - (pos - data_head))
			break;
		if (!rec_intact(r)) {
			rd.unsure = true;
			rd.judge_end = pos;
			break;
		}
		pos += r->size;
	}
	fz_check(perf_mmap_reader__init(&reader, fz.pg) == 0, "perf_mmap_reader__init");
	st = perf_mmap_reader__read_backward(&reader, on_backward_record, &rd);
	perf_mmap_reader__exit(&reader);
	if (rd.unsure) {
		fz_check(rd.pos == pos, "read_backward: stopped at %#llx before the whole records "
			 "end at %#llx", (unsigned long long)rd.pos, (unsigned long long)pos);
		fz_trace("read_backward: [%#llx, %#llx) whole, then records written over by "
			 "nested writers", (unsigned long long)data_head, (unsigned long long)pos);
		return;
	}
	fz_check(st == PERF_MMAP_READ_END,
		 "read_backward from %#llx: %s", (unsigned long long)data_head,
		 perf_mmap_read_status_name(st));
	fz_check(reader.stop == pos && rd.pos == pos,
		 "read_backward: window [%#llx, +%#llx): stopped at %#llx, whole records end at %#llx",
		 (unsigned long long)data_head, (unsigned long long)window,
		 (unsigned long long)reader.stop, (unsigned long long)pos);
	fz_trace("read_backward: [%#llx, %#llx) whole, %lu records", (unsigned long long)data_head,
		 (unsigned long long)pos, rd.n);
}

/*
 * libperf's read of the paused backward buffer, as perf record --overwrite
 * reads it once mapped (prev 0), the user page read-only in overwrite
 * mode. The same answer as read_backward's: every record a model record,
 * intact, and the walk stops exactly where the whole records end. Where
 * nested writers overwrote records inside the window (unsure), it may stop
 * anywhere up to that point, as overwrite_rb_find_range walks the torn
 * sizes too, but hands out nothing torn.
 */
static void reader_window_libperf(void)
{
	u64 data_head = READ_ONCE(fz.pg->data_head);
	u64 window = (u64)-data_head < fz.size ? (u64)-data_head : fz.size;
	struct perf_mmap_libperf lp;
	struct fz_read rd = { .who = "libperf read_backward", .pos = data_head };
	enum perf_mmap_read_status st;
	u64 pos;

	if (fz.tainted || fz.depth)
		return;
	for (pos = data_head; pos - data_head < window;) {
		struct fz_rec *r = rec_at(pos);

		if (r && r->complete && (rec_torn_early(r) || !rec_intact(r))) {
			rd.unsure = true;
			rd.judge_end = pos;
			break;
		}
		if (!r || r->size > window - (pos - data_head))
			break;
		pos += r->size;
	}
	fz_check(perf_mmap_libperf__init(&lp, fz.pg, true, fz.overwrite) == 0,
		 "perf_mmap_libperf__init");
	rd.lp = &lp;
	st = perf_mmap_libperf__read_backward(&lp, true, on_backward_record, &rd);
	perf_mmap_libperf__exit(&lp);
	if (rd.unsure) {
		fz_check(rd.pos - data_head <= pos - data_head,
			 "libperf read_backward: walked to %#llx, past the whole records' end %#llx",
			 (unsigned long long)rd.pos, (unsigned long long)pos);
		return;
	}
	fz_check(st == PERF_MMAP_READ_END, "libperf read_backward from %#llx: %s",
		 (unsigned long long)data_head, perf_mmap_read_status_name(st));
	fz_check(lp.pos == pos && rd.pos == pos,
		 "libperf read_backward: window [%#llx, +%#llx): stopped at %#llx, whole records end at %#llx",
		 (unsigned long long)data_head, (unsigned long long)window,
		 (unsigned long long)lp.pos, (unsigned long long)pos);
	fz_trace("libperf read_backward: [%#llx, %#llx) whole, %lu records",
		 (unsigned long long)data_head, (unsigned long long)pos, rd.n);
}

/*
 * The forward overwrite reader (top level only): [prev, data_head) when
 * that is at most one buffer, otherwise it must say it fell behind.
 */
static void reader_overwrite_forward(void)
{
	u64 data_head = READ_ONCE(fz.pg->data_head);
	u64 from = fz.ow_reader.prev;
	struct fz_read rd = { .reader = &fz.ow_reader, .who = "read_overwrite_forward" };
	enum perf_mmap_read_status st;

	if (fz.depth || !fz.overwrite)
		return;
	st = perf_mmap_reader__read_overwrite_forward(&fz.ow_reader, on_forward_record, &rd);
	if (data_head - from > fz.size)
		fz_check(st == PERF_MMAP_READ_FELL_BEHIND && fz.ow_reader.prev == data_head,
			 "read_overwrite_forward: %#llx behind, but %s at %#llx",
			 (unsigned long long)(data_head - from), perf_mmap_read_status_name(st),
			 (unsigned long long)fz.ow_reader.prev);
	else
		fz_check(st == PERF_MMAP_READ_END && fz.ow_reader.prev == data_head,
			 "read_overwrite_forward: [%#llx, %#llx): %s at %#llx",
			 (unsigned long long)from, (unsigned long long)data_head,
			 perf_mmap_read_status_name(st), (unsigned long long)fz.ow_reader.prev);
	fz_trace("read_overwrite_forward: [%#llx, %#llx): %s, %lu records",
		 (unsigned long long)from, (unsigned long long)data_head,
		 perf_mmap_read_status_name(st), rd.n);
}

static void run_bound_ops(int point, const char *name, u32 seq);

/* Unpublished bytes (reserved, data_head not there yet) above the reader's guard? */
static void check_guard(struct perf_mmap_reader *reader)
{
	u64 data_head = READ_ONCE(fz.pg->data_head);
	u64 unpublished = fz.backward ? data_head - (u64)fz.head : (u64)fz.head - data_head;

	if (unpublished > reader->guard && !fz.guard_broken) {
		fz.guard_broken = true;
		fz_trace("verify: %llu bytes reserved but unpublished, guard %llu: results not judged",
			 (unsigned long long)unpublished, (unsigned long long)reader->guard);
	}
}

static void on_verify_step(struct perf_mmap_reader *reader, enum perf_mmap_verify_step step,
			   void *arg)
{
	(void)arg;
	(void)step;			/* PERF_MMAP_VERIFY_CHUNK_COPIED, the only one */
	run_bound_ops(FZ_PT_VERIFY_HEADER, "verify-chunk-copied", 0);
	check_guard(reader);
}

/* read_backward_verify: the record it hands over ends at reader->stop. */
static int on_verified_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct fz_read *rd = arg;
	u64 pos = rd->reader->stop - size;
	struct fz_rec *r = rec_at(pos);

	rd->n++;
	/* a record larger than the buffer or a pile-up tore records for good */
	if (fz.guard_broken || fz.piled_up || fz.oversized)
		return 0;
	fz_check(r, "%s: handed a record (size %zu) at %#llx as good where the model has none",
		 rd->who, size, (unsigned long long)pos);
	/*
	 * Writers run here only at the reader's step, after its copy, so the
	 * copy holds the old bytes whatever the check says. What the check
	 * must prove is that no writer has reserved over the record since
	 * (nothing ran between its re-read of data_head and this call), as
	 * it is what makes the copy good when writers run during it.
	 */
	fz_check(rec_intact(r), "%s: handed record at %#llx as good, but writers reserved over it",
		 rd->who, (unsigned long long)pos);
	verify_bytes(r, (const u8 *)rec, size, rd->who);
	return 0;
}

/*
 * The copy-then-verify reader on an overwrite backward buffer that is
 * not paused: it may run anywhere, writers may run between its copy and
 * its check. Whatever it hands over as good must be what was written
 * there, unless the writers in flight had more unpublished bytes than
 * the guard it was given (the one assumption it makes).
 */
static void reader_verify(u8 arg)
{
	struct perf_mmap_reader reader;
	struct fz_read rd = { .reader = &reader, .who = "read_backward_verify" };
	enum perf_mmap_read_status st;

	if (!fz.backward || !fz.overwrite || fz.in_verify)
		return;
	fz_check(perf_mmap_reader__init(&reader, fz.pg) == 0, "perf_mmap_reader__init");
	reader.guard = 8u * (arg >> 1);
	reader.step = on_verify_step;
	fz.guard_broken = false;
	check_guard(&reader);
	fz.in_verify = true;
	st = perf_mmap_reader__read_backward_verify(&reader, on_verified_record, &rd);
	fz.in_verify = false;
	perf_mmap_reader__exit(&reader);
	fz_check(fz.guard_broken || fz.oversized || fz.piled_up || st != PERF_MMAP_READ_BAD_SIZE,
		 "read_backward_verify: a bad size within its guard");
	fz_trace("read_backward_verify (guard %llu): %s after %lu records%s",
		 (unsigned long long)reader.guard, perf_mmap_read_status_name(st), rd.n,
		 fz.guard_broken ? " (guard too small: not judged)" :
		 fz.piled_up ? " (nested writers overwrote records: not judged)" : "");
}

static void op_window(u8 arg)
{
	if (!fz.backward)
		reader_overwrite_forward();
	else if (arg & 1)
		reader_verify(arg);
	else
		reader_window(arg & 2);
}

/* ---- the schedule --------------------------------------------------------- */

static void run_op(u8 b0, u8 arg, int point);

/* @w finished copying: its records are whole until bytes written later reach them. */
static void complete(struct fz_writer *w)
{
	/*
	 * Forward: the lowest byte still to come below the record (its own
	 * start, or an interrupted writer's); backward: the highest above it
	 * (its reservation's end: in a backward reservation the record comes
	 * after its LOST, above it).
	 */
	u64 lowest = fz.recs[w->rec].pos, highest = w->resv_end;

	for (int i = 1; i < fz.depth; i++) {
		struct fz_writer *o = fz.stack[i];

		/* only a writer still copying writes after it */
		if (!o->reserved || fz.recs[o->rec].complete)
			continue;
		if ((s64)(o->resv_start - lowest) < 0)
			lowest = o->resv_start;
		if ((s64)(o->resv_end - highest) > 0)
			highest = o->resv_end;
	}
	fz.recs[w->rec].complete = true;
	fz.recs[w->rec].guard = fz.backward ? highest : lowest;
	/*
	 * The writers it interrupted will write over its reservation: no
	 * reader can tell. The reservation's far end from them counts, not
	 * the record's: backward, the LOST riding in front of the record
	 * lies below it and is torn first (its header is then the writers'
	 * bytes, whatever size they spell).
	 */
	if (fz.backward ? highest - w->resv_start > fz.size : w->resv_end - lowest > fz.size)
		fz.piled_up = true;
	if (w->rec_lost >= 0) {
		u64 lost_pos = fz.recs[w->rec_lost].pos;

		fz.recs[w->rec_lost].guard = fz.backward ? highest :
					     (s64)(lost_pos - lowest) < 0 ? lost_pos : lowest;
		fz.recs[w->rec_lost].complete = true;
	}
}

static void writer(u32 size, bool sample)
{
	struct perf_event_header h = { .type = FZ_TYPE, .misc = 0, .size = (u16)size };
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct fz_writer w = { .size = size, .sample = sample, .rec = -1, .rec_lost = -1 };
	u64 word;
	u8 chunk[64];
	u32 i, k, n;
	int ret;

	w.seq = fz.next_seq++;
	w.depth = fz.depth;
	fz.attempted++;
	fz_trace("writer #%u: %u bytes%s", w.seq, size, sample ? " (sample)" : "");
	fz.stack[++fz.depth] = &w;
	fz.event.pending_wakeup = 0;

	perf_sample_data_init(&data, 0, 0);
	ret = perf_output_begin(&handle, &data, &fz.event, size);
	if (ret == 0) {
		fz_check(w.reserved, "writer #%u: begin succeeded without reaching RESERVED", w.seq);
		word = (u64)w.seq << 32 | size;
		perf_output_put(&handle, h);
		perf_output_put(&handle, word);
		for (i = 16; i < size; i += n) {
			n = min(size - i, (u32)sizeof(chunk));
			for (k = 0; k < n; k++)
				chunk[k] = payload_byte(w.seq, size, i + k);
			perf_output_copy(&handle, chunk, n);
		}
		complete(&w);
		/*
		 * A reservation that carries the lost count starts with the
		 * LOST record, unless writers reserved over its header since:
		 * forward its first byte goes first, backward its last.
		 */
		if (w.have_lost && !fz.tainted && w.resv_end - w.resv_start <= fz.size &&
		    (fz.backward ? w.resv_start + sizeof(h) - fz.head :
				   fz.head - w.resv_start) <= fz.size) {
			copy_out(w.resv_start, &h, sizeof(h));
			fz_check(h.type == PERF_RECORD_LOST,
				 "writer #%u: records were lost, but its reservation starts with type %u",
				 w.seq, h.type);
		}
		if (sample)
			perf_output_sample_wakeup(&handle);
		perf_output_end(&handle);
	} else if (!w.not_paused) {
		/* refused while paused: no handle, no points past ENTER */
		fz_check(fz.paused, "writer #%u: refused, but the buffer is not paused", w.seq);
		fz.lost++;
		fz.failures++;
	} else {
		fz_check(w.failed, "writer #%u: begin failed without reaching FAILED", w.seq);
		if (w.fail_pending) {
			fz.lost++;
			fz.failures++;
		}
	}
	if (w.events_pending) {
		w.events_pending = false;
		if (w.events_val >= (long)fz.wakeup_events) {
			fz.events -= fz.wakeup_events;
			fz.stamp++;
		}
	}

	/* put_handle: an inner writer only drops nest, the outermost may wake */
	if (w.got_handle) {
		if (w.nest_seen > 1) {
			fz.nest--;
		} else if (fz.stamp != w.stamp_at_get) {
			fz.expected_wakeups++;
		}
	}
	if (READ_ONCE(fz.event.pending_wakeup)) {
		fz.wakeups++;
		fz.event.pending_wakeup = 0;
		fz_trace("writer #%u woke the reader", w.seq);
	}
	fz.depth--;
	fz_trace("writer #%u: %s", w.seq, ret ? "-ENOSPC" : "done");
}

static void model_point(struct fz_writer *w, enum perf_interleave_point point)
{
	/* what the writer did between its previous point and this one */
	if (w->fail_pending) {
		w->fail_pending = false;
		fz.lost++;
		fz.failures++;
	}
	if (w->events_pending) {
		w->events_pending = false;
		if (w->events_val >= (long)fz.wakeup_events) {
			fz.events -= fz.wakeup_events;
			fz.stamp++;
		}
	}
	if (w->wm_pending) {
		/* one watermark step per reservation, however large */
		w->wm_pending = false;
		if (w->written - fz.stamp > fz.watermark)
			fz.stamp += fz.watermark;
	}

	switch (point) {
	case PI_OUTPUT_BEGIN_NOT_PAUSED:
		fz_check(!fz.paused, "writer #%u: went on although the buffer is paused", w->seq);
		w->not_paused = true;
		break;
	case PI_OUTPUT_BEGIN_READ_LOST:
		w->have_lost = fz.lost != 0;
		break;
	case PI_OUTPUT_BEGIN_GOT_HANDLE:
		w->got_handle = true;
		w->stamp_at_get = fz.stamp;
		fz.nest++;
		break;
	case PI_OUTPUT_BEGIN_READ_TAIL:
		w->tail_reads++;
		w->head_seen = fz.head;
		w->tail_seen = READ_ONCE(fz.pg->data_tail);
		break;
	case PI_OUTPUT_BEGIN_CMPXCHG:
		if (!fz.overwrite)
			fz_check(model_has_space(w->head_seen, w->tail_seen,
						 w->size + (w->have_lost ? lost_rec_size() : 0)),
				 "writer #%u: passed the space check with no room (head %#lx tail %#lx need %u)",
				 w->seq, w->head_seen, w->tail_seen,
				 w->size + (w->have_lost ? lost_rec_size() : 0));
		break;
	case PI_OUTPUT_BEGIN_RESERVED: {
		u32 need = w->size + (w->have_lost ? lost_rec_size() : 0);
		unsigned long start;

		fz_check(w->head_seen == fz.head,
			 "writer #%u: reserved from head %#lx, but head had moved to %#lx",
			 w->seq, w->head_seen, fz.head);
		fz_check(fz.nr_recs + 2 <= FZ_MAX_RECS, "model: too many records");
		start = fz.backward ? fz.head - need : fz.head;
		w->resv_start = start;
		w->resv_end = start + need;
		if (need > fz.size)
			fz.oversized = true;
		fz.head = fz.backward ? fz.head - need : fz.head + need;
		if (w->have_lost) {
			w->rec_lost = fz.nr_recs;
			fz.recs[fz.nr_recs++] = (struct fz_rec){
				.pos = start, .size = lost_rec_size(), .lost_rec = true,
				.resv_end = start + need,
			};
			start += lost_rec_size();
		}
		w->rec = fz.nr_recs;
		fz.recs[fz.nr_recs++] = (struct fz_rec){
			.pos = start, .size = w->size, .seq = w->seq, .resv_end = start + w->size,
		};
		if (fz.backward) {
			/* keep recs[] in reservation order: the LOST is the newer-positioned one */
			if (w->have_lost) {
				struct fz_rec t = fz.recs[w->rec_lost];
				int i = w->rec_lost;

				fz.recs[w->rec_lost] = fz.recs[w->rec];
				fz.recs[w->rec] = t;
				w->rec_lost = w->rec;
				w->rec = i;
			}
		}
		/* the watermark is checked after this point, on this writer's own head */
		w->written = fz.backward ? -fz.head : fz.head;
		w->wm_pending = true;
		w->reserved = true;
		fz_trace("writer #%u reserved %u bytes at %#lx%s", w->seq, need,
			 fz.backward ? fz.head : fz.head - need, w->have_lost ? " (with LOST)" : "");
		break;
	}
	case PI_OUTPUT_BEGIN_LOST_TAKEN:
		fz_check(w->have_lost && w->rec_lost >= 0, "writer #%u: took lost without a LOST slot",
			 w->seq);
		fz.recs[w->rec_lost].lost = fz.lost;
		fz.recs[w->rec_lost].lost_known = true;
		fz.lost = 0;
		break;
	case PI_OUTPUT_BEGIN_FAILED:
		if (!fz.overwrite)
			fz_check(!model_has_space(w->head_seen, w->tail_seen,
						  w->size + (w->have_lost ? lost_rec_size() : 0)),
				 "writer #%u: refused although there is room (head %#lx tail %#lx need %u)",
				 w->seq, w->head_seen, w->tail_seen,
				 w->size + (w->have_lost ? lost_rec_size() : 0));
		else
			fz_fail("writer #%u: an overwrite buffer refused a record", w->seq);
		w->failed = true;
		w->fail_pending = true;
		break;
	case PI_OUTPUT_SAMPLE_EVENTS:
		if (!fz.watermark_mode && fz.wakeup_events) {
			w->events_val = ++fz.events;
			w->events_pending = true;
		}
		break;
	case PI_PUT_HANDLE_READ_NEST:
		w->nest_seen = fz.nest;
		break;
	case PI_PUT_HANDLE_READ_HEAD:
		w->head_reads++;
		fz.nest = 1;
		w->publish_head = fz.head;
		break;
	case PI_PUT_HANDLE_PUBLISHED:
		fz_check(READ_ONCE(fz.pg->data_head) == (u64)w->publish_head,
			 "writer #%u: published %#llx, head was %#lx", w->seq,
			 (unsigned long long)READ_ONCE(fz.pg->data_head), w->publish_head);
		break;
	case PI_PUT_HANDLE_NEST_CLEARED:
		fz.nest = 0;
		break;
	case PI_PUT_HANDLE_DONE:
		fz_check(w->publish_head == fz.head,
			 "writer #%u: done publishing %#lx, but %#lx is reserved", w->seq,
			 w->publish_head, fz.head);
		break;
	default:
		break;
	}
}

static bool ring_buffer_point(int point)
{
	return point >= 0 && point < PI__MAX && point != PI_OVERFLOW_ENTER &&
	       point != PI_OVERFLOW_OUTPUT;
}

/* Ops bound to @point run here, as an NMI or another CPU. */
static void run_bound_ops(int point, const char *name, u32 seq)
{
	while (fz.next_op < fz.nr_ops && fz.depth < FZ_MAX_DEPTH) {
		const u8 *op = fz.ops + 2 * fz.next_op;
		int p = (op[0] >> 3) - 1;

		if (p == FZ_PT_VERIFY_RECORD)
			p = FZ_PT_VERIFY_HEADER;	/* the same step */
		if (p != point)
			break;
		fz.next_op++;
		if (point == FZ_PT_VERIFY_HEADER)
			fz_trace("at %s of the verifying reader:", name);
		else
			fz_trace("at %s of writer #%u:", name, seq);
		run_op(op[0], op[1], p);
	}
}

static void fz_hook(enum perf_interleave_point point, void *obj)
{
	struct fz_writer *w = fz.stack[fz.depth];

	if (obj != fz.rb || !w)
		return;
	model_point(w, point);
	check_data_head(perf_interleave_point_names[point]);
	run_bound_ops(point, perf_interleave_point_names[point], w->seq);
	if (point == PI_OUTPUT_BEGIN_READ_TAIL && w->tail_reads > 1)
		run_bound_ops(FZ_PT_RETRY_READ_TAIL, "PI_OUTPUT_BEGIN_READ_TAIL (retry)", w->seq);
	if (point == PI_PUT_HANDLE_READ_HEAD && w->head_reads > 1)
		run_bound_ops(FZ_PT_RETRY_READ_HEAD, "PI_PUT_HANDLE_READ_HEAD (retry)", w->seq);
}

/*
 * Long reach, op 2: a record at a limit, picked from the model's state. The
 * watermark rule steps the wakeup stamp once per reservation when the
 * bytes written pass it by more than the watermark: aiming a
 * reservation's end at the step, a word either side, tells '>' from
 * '>=' and one step from several at once, where random sizes seldom
 * land on it.
 */
static u32 edge_size(u8 arg)
{
	unsigned long written = fz.backward ? -fz.head : fz.head;
	unsigned long steps = (arg >> 4) + 1;
	long size;

	if (arg & 0x80)
		return FZ_MAX_RECORD - 8 * (arg & 127);
	size = (long)(fz.stamp + steps * fz.watermark - written) + 8 * ((long)(arg & 15) - 8);
	if (fz.lost)			/* the LOST rides in the same reservation */
		size -= lost_rec_size();
	size &= ~7L;
	return size < 16 ? 16 : size > (long)FZ_MAX_RECORD ? FZ_MAX_RECORD : (u32)size;
}

/*
 * Long reach, ops 0 and 1: many records in one op. What the wakeup rules
 * count (bytes past the watermark, samples up to wakeup_events, and in
 * watermark mode the wakeup_watermark that shares wakeup_events' field)
 * takes tens of records to come round; one op brings it.
 */
static void burst(u8 arg, bool sample)
{
	unsigned int n = 8 * ((arg & 15) + 1);
	u32 size = 16u << ((arg >> 4) & 7);

	if (n > FZ_MAX_BURST - fz.burst_writers)
		n = FZ_MAX_BURST - fz.burst_writers;
	fz.burst_writers += n;
	fz_trace("burst: %u %s of %u bytes", n, sample ? "samples" : "records", size);
	while (n--)
		writer(size, sample);
}

static void run_op(u8 b0, u8 arg, int point)
{
	unsigned int kind = b0 & 7;

	switch (kind) {
	case OP_WRITE:
	case OP_SAMPLE:
		if (fz.long_reach && (arg & 0x80))
			burst(arg, kind == OP_SAMPLE);
		else
			writer(16 + 8 * (arg & 127), kind == OP_SAMPLE);
		break;
	case OP_BIG:
		writer(fz.long_reach ? edge_size(arg) : 16 + 32 * (u32)arg, false);
		break;
	case OP_READ:
		reader_consume(arg % 8, arg & 8);
		break;
	case OP_PAUSE:
	case OP_RESUME:
		rb_toggle_paused(fz.rb, kind == OP_PAUSE);
		fz.paused = kind == OP_PAUSE;
		fz_trace("%s", op_names[kind]);
		break;
	case OP_GARBAGE:
		WRITE_ONCE(fz.pg->data_tail, (u64)arg * 0x0101010101010101ULL + (arg & 7));
		fz.tainted = true;
		fz_trace("garbage-tail %#llx", (unsigned long long)fz.pg->data_tail);
		break;
	case OP_WINDOW:
		op_window(arg);
		break;
	}
	(void)point;
	check_step(op_names[kind]);
}

/* Resume, read everything, write one more: every attempt must be accounted for. */
static void final_drain(void)
{
	if (fz.tainted || fz.overwrite)
		return;
	fz_trace("final: resume, drain, one more record");
	rb_toggle_paused(fz.rb, false);
	fz.paused = false;
	reader_consume(0, false);
	writer(16, false);
	check_step("final write");
	fz_check(fz.lost == 0, "final: a record into an empty buffer left %ld lost", fz.lost);
	reader_consume(0, false);
	fz_check(fz.read_records + fz.failures == fz.attempted,
		 "conservation: %llu read + %llu lost != %llu attempted",
		 (unsigned long long)fz.read_records, (unsigned long long)fz.failures,
		 (unsigned long long)fz.attempted);
	fz_check(fz.lost_reported == fz.failures,
		 "conservation: LOST records count %llu, %llu were refused",
		 (unsigned long long)fz.lost_reported, (unsigned long long)fz.failures);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event *event = &fz.event;
	int k;

	if (size < 2)
		return 0;
#ifdef KSRC_UNIT_RING_BUFFER
	/* the kernel's own ring_buffer.c in lockstep with core/ (ksrc/oracle) */
	ksrc_ringbuf_diff_or_abort(data, size);
#endif
	memset(&fz, 0, offsetof(typeof(fz), trace));
	fz.trace_len = 0;
	fz.trace[0] = 0;
	fz.trace_truncated = false;
	fz.trace_live = fuzz_trace_on();

	k = (data[0] & 7) % 5;
	fz.nr_pages = 1 << k;
	fz.size = (unsigned long)fz.nr_pages * PAGE_SIZE;
	fz.backward = data[0] & 0x08;
	fz.overwrite = data[0] & 0x10;
	fz.sample_id_all = data[0] & 0x20;
	fz.watermark_mode = data[0] & 0x40;
	fz.long_reach = data[0] & 0x80;
	event->attr.size = sizeof(event->attr);
	event->attr.write_backward = fz.backward;
	event->attr.sample_id_all = fz.sample_id_all;
	event->attr.sample_type = FZ_SAMPLE_TYPE;
	event->attr.watermark = fz.watermark_mode;
	if (fz.watermark_mode)
		event->attr.wakeup_watermark = 64u * data[1];
	else
		event->attr.wakeup_events = data[1] % 8;
	fz.wakeup_events = fz.watermark_mode ? 0 : data[1] % 8;
	fz.watermark = fz.watermark_mode && data[1] ? min(fz.size, 64UL * data[1]) : fz.size / 2;
	event->id = 0x1d;
	perf_event__id_header_size(event);

	fz.ops = data + 2;
	fz.nr_ops = min((size - 2) / 2, (size_t)FZ_MAX_OPS);
	fz_trace("buffer: %d pages, %s, %s, sample_id_all %d, %s %lu%s; %zu ops",
		 fz.nr_pages, fz.backward ? "backward" : "forward",
		 fz.overwrite ? "overwrite" : "writable", fz.sample_id_all,
		 fz.watermark_mode ? "watermark" : "wakeup_events",
		 fz.watermark_mode ? fz.watermark : fz.wakeup_events,
		 fz.long_reach ? ", long reach" : "", fz.nr_ops);

	/* separate pages behind guard pages, as the kernel's: a copy that runs off one faults */
	fz.rb = rb_alloc(fz.nr_pages, fz.watermark_mode ? (long)event->attr.wakeup_watermark : 0,
			 0, (fz.overwrite ? 0 : RING_BUFFER_WRITABLE) | RING_BUFFER_SCATTERED);
	if (!fz.rb)
		fz_fail("rb_alloc(%d) failed", fz.nr_pages);
	ring_buffer_attach(event, fz.rb);
	fz.pg = fz.rb->user_page;
	fz.data = (unsigned char *)fz.pg + fz.pg->data_offset;
	fz_check(fz.pg->data_size == fz.size, "data_size %llu", (unsigned long long)fz.pg->data_size);
	fz.warn_base = pmusim_warn_count();
	fz_check(perf_mmap_reader__init(&fz.reader, fz.pg) == 0 &&
		 perf_mmap_reader__init(&fz.ow_reader, fz.pg) == 0, "perf_mmap_reader__init");
	fz.have_lp = !fz.overwrite && !fz.backward &&
		     perf_mmap_libperf__init(&fz.lp, fz.pg, false, false) == 0;
	perf_interleave_hook = fz_hook;
	perf_store_fence_hook = on_store_fence;

	while (fz.next_op < fz.nr_ops) {
		const u8 *op = fz.ops + 2 * fz.next_op++;
		int p = (op[0] >> 3) - 1;

		if (ring_buffer_point(p))
			fz_trace("(op bound to %s, run at top level)", perf_interleave_point_names[p]);
		run_op(op[0], op[1], -1);
		if (fz.backward && !fz.tainted)
			reader_window(fz.next_op & 1);
	}
	final_drain();

	perf_interleave_hook = NULL;
	perf_store_fence_hook = NULL;
	perf_mmap_reader__exit(&fz.reader);
	perf_mmap_reader__exit(&fz.ow_reader);
	if (fz.have_lp)
		perf_mmap_libperf__exit(&fz.lp);
	if (fz.trace_live)
		fprintf(stderr, "ok: %llu attempted, %llu read, %llu lost, %llu wakeups\n",
			(unsigned long long)fz.attempted, (unsigned long long)fz.read_records,
			(unsigned long long)fz.failures, (unsigned long long)fz.wakeups);
	ring_buffer_attach(event, NULL);
	fz.rb = NULL;
	return 0;
}
