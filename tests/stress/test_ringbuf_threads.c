// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring buffer on real threads. A writer thread stands for one CPU
 * and writes records through perf_output_begin/copy/end; a timer signal
 * aimed at that thread (timer_create, SIGEV_THREAD_ID) stands for the
 * NMI: its handler writes whole records of its own into the same buffer,
 * at whatever point the writer was interrupted. A reader thread runs the
 * user-space readers of tools/lib/perf/mmap_read.c at the same time, one mode per
 * test:
 *
 *   forward   writable mapping, data_tail moved after each record;
 *   pause     write_backward, overwrite; the reader pauses the buffer
 *             (rb_toggle_paused, PERF_EVENT_IOC_PAUSE_OUTPUT) to read;
 *   verify    write_backward, overwrite, never paused: copy, then check
 *             data_head says the copy cannot have been overwritten.
 *
 * The forward and pause modes run a second time with libperf's own reader
 * (tools/lib/perf/mmap.c of the kernel tree, tools/lib/perf/mmap_libperf.h)
 * in place of pmusim's, with the same checks: perf top's loop (read_init,
 * read_event, consume, read_done), and perf record --overwrite's read of
 * the paused buffer through a write-protected user page, from scratch or
 * from where the last read_done left it. Without a kernel tree they are
 * skipped. libperf's read_done skips the records published after its
 * last read_event looked at data_head (README, departures): the forward
 * run walks each range it skipped, with the same checks, and counts its
 * records apart, so every record is still read, skipped so, or LOST.
 *
 * Every record carries (writer, sequence, size) and a checksum
 * (tests/lib/ringbuf_oracle.c). The reader checks each record it gets is
 * whole and in sequence per writer, every LOST record, and that
 * data_head never moves back; at the end, written + lost == attempted.
 *
 * STRESS_SECONDS (default 1.5) is the time for the five runs together.
 * Time only bounds the run; nothing is asserted on it. Under
 * ThreadSanitizer the signal is delivered at TSan's next safe point (the
 * other builds run the handler truly asynchronously), and the verifying
 * reader's speculative copies are annotated as the intended races they
 * are (tools/lib/perf/mmap_read.c), so all three modes run there too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/test.h"
#include "core/internal.h"
#include "tools/lib/perf/mmap_read.h"
#include "tools/lib/perf/mmap_libperf.h"
#include "tests/lib/ringbuf_oracle.h"

#define STRESS_PAGES		16
#define STRESS_EVENT_ID		4242
#define STRESS_SIGNAL		SIGUSR1
#ifndef __SANITIZE_THREAD__
#define STRESS_TIMER_NS		25000
#else
/* TSan's signal delivery is slow: a faster timer leaves the thread no time. */
#define STRESS_TIMER_NS		500000
#endif
#define THREAD_MAX_SIZE		1024u
#define NMI_MAX_SIZE		256u
#define NR_WRITERS		2	/* 0: the thread, 1: its signal handler */
#define NMI_PER_OUTER		2

enum stress_mode { MODE_FORWARD, MODE_PAUSE, MODE_VERIFY };
static const char *const mode_names[] = { "forward", "backward-pause", "backward-verify" };
static const char *const libperf_mode_names[] = { "libperf-forward", "libperf-backward-pause" };
#define NR_RUNS			5	/* the three modes, and two with libperf's reader */

struct writer_state {
	uint32_t id;
	uint32_t rng;
	uint32_t max_size;
	uint64_t seq;			/* records written: the next one's number */
	uint64_t attempted;
	uint64_t failed;		/* perf_output_begin() said -ENOSPC */
	uint64_t held_writes;		/* began although the reader held the buffer paused */
	unsigned char buf[THREAD_MAX_SIZE];
};

static struct {
	enum stress_mode mode;
	bool libperf;			/* libperf's reader instead of pmusim's */
	struct perf_event event;
	struct perf_buffer *rb;
	size_t lost_size;

	struct writer_state w[NR_WRITERS];
	pid_t writer_tid;
	atomic_int writer_ready;
	atomic_bool stop;		/* main -> writer */
	atomic_bool writer_done;	/* main -> reader, after joining the writer */
	atomic_ulong progress;		/* writer attempts, for the reader's pacing */

	/*
	 * Pause mode: once the writer thread acknowledges a pause it is
	 * outside any perf_output_begin/end, and every write it or its
	 * handler attempts must fail until it acknowledges the resume.
	 */
	atomic_ulong pause_req, pause_ack, resume_req, resume_ack;
	unsigned long gen;		/* the writer's copy of the last pause_req */
	volatile sig_atomic_t held;

	/*
	 * Verify mode: the reader trusts nothing within reader.guard bytes of
	 * data_head, which covers one record of the thread and NMI_PER_OUTER
	 * of the handler. Signals that pile up inside one record of the
	 * thread (it was preempted there, say) could reserve more without
	 * publishing, so the handler writes no more than that many per record
	 * of the thread in that mode.
	 */
	volatile sig_atomic_t in_outer, outer_nested;

	/* the reader */
	atomic_bool failed;
	char failure[256];
	uint64_t next_seq[NR_WRITERS];	/* forward: the next record expected */
	uint64_t newest[NR_WRITERS];	/* backward: the newest seen in any walk, +1 */
	uint64_t read_records, read_lost_records, lost_sum, walks;
	uint64_t overwritten, last_head;
	uint64_t skipped_records;	/* libperf: passed over by its read_done */
	struct perf_mmap_reader *reader;
	bool head_seen;
} st;

#define mode_name(m)	(st.libperf ? libperf_mode_names[m] : mode_names[m])

static void stress_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void stress_fail(const char *fmt, ...)
{
	va_list ap;

	if (atomic_exchange(&st.failed, true))
		return;
	va_start(ap, fmt);
	vsnprintf(st.failure, sizeof(st.failure), fmt, ap);
	va_end(ap);
	atomic_store(&st.stop, true);
}

static uint32_t rng_next(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* ---- writers ------------------------------------------------------------- */

static bool write_one(struct writer_state *w)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	uint32_t size = RB_ORACLE_MIN_SIZE +
		8 * (rng_next(&w->rng) % ((w->max_size - RB_ORACLE_MIN_SIZE) / 8 + 1));
	uint32_t split;
	bool held = st.held;

	if (w->id == 0) {
		st.outer_nested = 0;
		st.in_outer = 1;
		atomic_signal_fence(memory_order_seq_cst);
	} else if (st.mode == MODE_VERIFY && st.in_outer) {
		if (st.outer_nested >= NMI_PER_OUTER)
			return false;
		st.outer_nested++;
	}
	w->attempted++;
	perf_sample_data_init(&data, 0, 0);
	if (perf_output_begin(&handle, &data, &st.event, size)) {
		w->failed++;
		if (w->id == 0)
			st.in_outer = 0;
		return false;
	}
	if (held)
		w->held_writes++;
	rb_oracle_encode(w->buf, w->id, w->seq, size);
	/* Two copies, so a record also ends a copy mid-page. */
	split = 8 * (rng_next(&w->rng) % (size / 8 + 1));
	perf_output_copy(&handle, w->buf, split);
	perf_output_copy(&handle, w->buf + split, size - split);
	perf_output_end(&handle);
	atomic_signal_fence(memory_order_seq_cst);
	if (w->id == 0)
		st.in_outer = 0;
	w->seq++;
	return true;
}

/* The NMI: async-signal-safe apart from the ring buffer, which is NMI-safe. */
static void nmi_handler(int sig)
{
	struct writer_state *w = &st.w[1];
	int saved_errno = errno;
	unsigned int n = 1 + (rng_next(&w->rng) & 1);

	(void)sig;
	while (n--)
		write_one(w);
	errno = saved_errno;
}

static void writer_gate(void)
{
	if (!st.held) {
		unsigned long req = atomic_load_explicit(&st.pause_req, memory_order_acquire);

		if (req != st.gen) {
			st.gen = req;
			st.held = 1;
			atomic_store_explicit(&st.pause_ack, req, memory_order_release);
		}
	} else if (atomic_load_explicit(&st.resume_req, memory_order_acquire) == st.gen) {
		st.held = 0;
		atomic_signal_fence(memory_order_seq_cst);
		atomic_store_explicit(&st.resume_ack, st.gen, memory_order_release);
	}
}

static void *writer_main(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	st.writer_tid = gettid();
	atomic_store_explicit(&st.writer_ready, 1, memory_order_release);
	while (!atomic_load_explicit(&st.stop, memory_order_relaxed)) {
		if (st.mode == MODE_PAUSE)
			writer_gate();
		/* A full or held buffer waits for the reader: leave it the CPU. */
		if (!write_one(&st.w[0]) && (st.mode == MODE_FORWARD || st.held))
			sched_yield();
		atomic_store_explicit(&st.progress, ++n, memory_order_relaxed);
	}
	return NULL;
}

/* ---- the reader ------------------------------------------------------------ */

static bool writer_done(void)
{
	return atomic_load_explicit(&st.writer_done, memory_order_acquire);
}

/* data_head never moves back: down for a forward buffer, up for a backward one. */
static void check_head(void)
{
	uint64_t head = perf_mmap__read_head(st.rb->user_page);
	int64_t moved = (int64_t)(head - st.last_head);

	if (st.mode != MODE_FORWARD)
		moved = -moved;
	if (st.head_seen && moved < 0)
		stress_fail("%s: data_head went back from %#llx to %#llx", mode_name(st.mode),
		     (unsigned long long)st.last_head, (unsigned long long)head);
	st.last_head = head;
	st.head_seen = true;
}

static bool check_lost(const struct perf_event_header *rec, size_t size)
{
	const uint64_t *trailer = (const uint64_t *)((const char *)rec + 24);
	const char *why;
	uint64_t lost;

	why = rb_oracle_check_lost(rec, size, STRESS_EVENT_ID, st.event.id_header_size, &lost);
	/* sample_id trailer: ID, STREAM_ID, IDENTIFIER */
	if (!why && (trailer[0] != STRESS_EVENT_ID || trailer[1] != STRESS_EVENT_ID ||
		     trailer[2] != STRESS_EVENT_ID))
		why = "LOST sample_id trailer is not the event's";
	if (why) {
		stress_fail("%s: %s", mode_name(st.mode), why);
		return false;
	}
	st.read_lost_records++;
	st.lost_sum += lost;
	return true;
}

static bool check_record(const struct perf_event_header *rec, size_t size,
			 struct rb_oracle_rec *r)
{
	const char *why = rb_oracle_check(rec, size, r);

	if (!why && r->writer >= NR_WRITERS)
		why = "no such writer";
	if (why) {
		const uint32_t *w = (const uint32_t *)(rec + 1);

		stress_fail("%s: record of %zu bytes (says writer %u size %u #%llu) at data_head "
			    "%#llx + %#llx, data_head now %#llx: %s", mode_name(st.mode), size,
			    w[0], w[1], (unsigned long long)*(const uint64_t *)(w + 2),
			    (unsigned long long)st.last_head,
			    (unsigned long long)(st.reader ? st.reader->stop - size - st.last_head : 0),
			    (unsigned long long)perf_mmap__read_head(st.rb->user_page), why);
		return false;
	}
	st.read_records++;
	return true;
}

static int forward_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct rb_oracle_rec r;

	(void)arg;
	if (rec->type == PERF_RECORD_LOST)
		return !check_lost(rec, size);
	if (!check_record(rec, size, &r))
		return 1;
	if (r.seq != st.next_seq[r.writer]) {
		stress_fail("forward: writer %u record #%llu, expected #%llu", r.writer,
		     (unsigned long long)r.seq, (unsigned long long)st.next_seq[r.writer]);
		return 1;
	}
	st.next_seq[r.writer]++;
	return 0;
}

/* One walk of a backward buffer, newest record first. */
struct walk {
	bool seen[NR_WRITERS];
	uint64_t first[NR_WRITERS];	/* newest in this walk */
	uint64_t last[NR_WRITERS];	/* oldest so far in this walk */
};

static int backward_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct walk *walk = arg;
	struct rb_oracle_rec r;

	if (rec->type == PERF_RECORD_LOST)
		return !check_lost(rec, size);
	if (!check_record(rec, size, &r))
		return 1;
	if (!walk->seen[r.writer]) {
		/* Nothing newer of this writer can hide below data_head. */
		if (r.seq + 1 < st.newest[r.writer]) {
			stress_fail("%s: walk %llu starts writer %u at #%llu, an earlier walk saw #%llu",
			     mode_name(st.mode), (unsigned long long)st.walks, r.writer,
			     (unsigned long long)r.seq,
			     (unsigned long long)st.newest[r.writer] - 1);
			return 1;
		}
		walk->seen[r.writer] = true;
		walk->first[r.writer] = r.seq;
		if (r.seq + 1 > st.newest[r.writer])
			st.newest[r.writer] = r.seq + 1;
	} else if (r.seq + 1 != walk->last[r.writer]) {
		/* A walk is contiguous: a writer's records follow one another. */
		stress_fail("%s: writer %u record #%llu follows #%llu in one walk",
		     mode_name(st.mode), r.writer, (unsigned long long)r.seq,
		     (unsigned long long)walk->last[r.writer]);
		return 1;
	}
	walk->last[r.writer] = r.seq;
	return 0;
}

static void reader_wait_progress(uint32_t *rng)
{
	unsigned long from = atomic_load_explicit(&st.progress, memory_order_relaxed);
	unsigned long want = 1 + rng_next(rng) % 4000;

	while (!writer_done() && !atomic_load(&st.failed) &&
	       atomic_load_explicit(&st.progress, memory_order_relaxed) - from < want)
		sched_yield();
}

static void pause_handshake(atomic_ulong *req, atomic_ulong *ack, unsigned long gen)
{
	atomic_store_explicit(req, gen, memory_order_release);
	while (atomic_load_explicit(ack, memory_order_acquire) != gen && !writer_done())
		sched_yield();
}

static void read_forward(struct perf_mmap_reader *reader, bool last)
{
	enum perf_mmap_read_status status;

	check_head();
	status = perf_mmap_reader__read_forward(reader, 0, forward_record, NULL);
	st.walks++;
	if (status != PERF_MMAP_READ_END && status != PERF_MMAP_READ_STOPPED)
		stress_fail("forward: reader returned %s", perf_mmap_read_status_name(status));
	if (!last)
		sched_yield();
}

static void read_paused(struct perf_mmap_reader *reader, uint32_t *rng)
{
	enum perf_mmap_read_status status;
	struct walk walk = { 0 };
	unsigned long gen = st.walks + 1;

	rb_toggle_paused(st.rb, true);
	pause_handshake(&st.pause_req, &st.pause_ack, gen);
	check_head();
	status = perf_mmap_reader__read_backward(reader, backward_record, &walk);
	st.walks++;
	if (status != PERF_MMAP_READ_END && status != PERF_MMAP_READ_STOPPED)
		stress_fail("backward-pause: reader returned %s", perf_mmap_read_status_name(status));
	pause_handshake(&st.resume_req, &st.resume_ack, gen);
	rb_toggle_paused(st.rb, false);
	reader_wait_progress(rng);
}

static struct walk read_verify(struct perf_mmap_reader *reader)
{
	enum perf_mmap_read_status status;
	struct walk walk = { 0 };

	check_head();
	status = perf_mmap_reader__read_backward_verify(reader, backward_record, &walk);
	st.walks++;
	if (status == PERF_MMAP_READ_HEADER_OVERWRITTEN ||
	    status == PERF_MMAP_READ_RECORD_OVERWRITTEN)
		st.overwritten++;
	else if (status != PERF_MMAP_READ_END && status != PERF_MMAP_READ_STOPPED)
		stress_fail("backward-verify: reader returned %s", perf_mmap_read_status_name(status));
	return walk;
}

static void check_final_walk(const struct walk *walk)
{
	int i;

	for (i = 0; i < NR_WRITERS; i++) {
		if (!st.w[i].seq)
			continue;
		if (i == 0 && !walk->seen[i])
			stress_fail("%s: the last walk misses the thread's last record", mode_name(st.mode));
		if (walk->seen[i] && walk->first[i] != st.w[i].seq - 1)
			stress_fail("%s: writer %d wrote %llu records, the newest in the buffer is #%llu",
			     mode_name(st.mode), i, (unsigned long long)st.w[i].seq,
			     (unsigned long long)walk->first[i]);
	}
}

/* libperf's consumer: perf top's loop; read_done once read_event has returned NULL. */
static void read_forward_libperf(struct perf_mmap_libperf *lp, bool last)
{
	enum perf_mmap_read_status status;

	check_head();
	status = perf_mmap_libperf__read_forward(lp, 0, forward_record, NULL);
	st.walks++;
	if (status != PERF_MMAP_READ_END && status != PERF_MMAP_READ_STOPPED)
		stress_fail("libperf-forward: reader returned %s", perf_mmap_read_status_name(status));
	if (!last)
		sched_yield();
}

/* perf record --overwrite: pause, read (from scratch, or on from prev), resume. */
static void read_paused_libperf(struct perf_mmap_libperf *lp, uint32_t *rng)
{
	enum perf_mmap_read_status status;
	struct walk walk = { 0 };
	unsigned long gen = st.walks + 1;

	rb_toggle_paused(st.rb, true);
	pause_handshake(&st.pause_req, &st.pause_ack, gen);
	check_head();
	status = perf_mmap_libperf__read_backward(lp, rng_next(rng) & 1, backward_record, &walk);
	st.walks++;
	if (status != PERF_MMAP_READ_END && status != PERF_MMAP_READ_STOPPED)
		stress_fail("libperf-backward-pause: reader returned %s",
			    perf_mmap_read_status_name(status));
	pause_handshake(&st.resume_req, &st.resume_ack, gen);
	rb_toggle_paused(st.rb, false);
	reader_wait_progress(rng);
}

/* A record libperf's read_done passed over: checked as if read, counted apart. */
struct skip_walk {
	uint64_t left;
};

static int skipped_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct skip_walk *sw = arg;

	if (forward_record(rec, size, NULL))
		return 1;
	st.skipped_records++;
	sw->left -= size;
	return sw->left == 0;
}

static void libperf_skipped(struct perf_mmap_libperf *lp, uint64_t from, uint64_t to, void *arg)
{
	struct perf_mmap_reader r;
	struct skip_walk sw = { to - from };

	(void)lp;
	(void)arg;
	if (perf_mmap_reader__init(&r, st.rb->user_page)) {
		stress_fail("perf_mmap_reader__init refused the buffer");
		return;
	}
	r.prev = from;
	perf_mmap_reader__peek_forward(&r, skipped_record, &sw);
	perf_mmap_reader__exit(&r);
	if (sw.left && !atomic_load(&st.failed))
		stress_fail("libperf-forward: read_done skipped [%#llx, %#llx), not whole records",
			    (unsigned long long)from, (unsigned long long)to);
}

static void reader_main_libperf(void)
{
	struct perf_mmap_libperf lp;
	uint32_t rng = 0x9e3779b9u;
	struct walk walk = { 0 };

	/* the user page write-protected while libperf reads a paused buffer */
	if (perf_mmap_libperf__init(&lp, st.rb->user_page, st.mode == MODE_PAUSE,
				    st.mode == MODE_PAUSE)) {
		stress_fail("perf_mmap_libperf__init refused the buffer");
		return;
	}
	lp.skipped = libperf_skipped;
	while (!writer_done() && !atomic_load(&st.failed)) {
		if (st.mode == MODE_FORWARD)
			read_forward_libperf(&lp, false);
		else
			read_paused_libperf(&lp, &rng);
	}
	if (!atomic_load(&st.failed)) {
		if (st.mode == MODE_FORWARD) {
			read_forward_libperf(&lp, true);
		} else {
			check_head();
			st.walks++;
			perf_mmap_libperf__read_backward(&lp, true, backward_record, &walk);
			check_final_walk(&walk);
		}
	}
	perf_mmap_libperf__exit(&lp);
}

static void *reader_main(void *arg)
{
	struct perf_mmap_reader reader;
	uint32_t rng = 0x9e3779b9u;
	struct walk walk = { 0 };

	(void)arg;
	if (st.libperf) {
		reader_main_libperf();
		return NULL;
	}
	if (perf_mmap_reader__init(&reader, st.rb->user_page)) {
		stress_fail("perf_mmap_reader__init refused the buffer");
		return NULL;
	}
	st.reader = &reader;
	/* A writer may have reserved, and be filling, this much past data_head. */
	reader.guard = THREAD_MAX_SIZE + NMI_PER_OUTER * NMI_MAX_SIZE + 2 * st.lost_size;

	while (!writer_done() && !atomic_load(&st.failed)) {
		switch (st.mode) {
		case MODE_FORWARD:
			read_forward(&reader, false);
			break;
		case MODE_PAUSE:
			read_paused(&reader, &rng);
			break;
		case MODE_VERIFY:
			read_verify(&reader);
			sched_yield();
			break;
		}
	}
	/* The writer has stopped: drain, and look at the newest records. */
	if (!atomic_load(&st.failed)) {
		switch (st.mode) {
		case MODE_FORWARD:
			read_forward(&reader, true);
			break;
		case MODE_PAUSE:
			check_head();
			st.walks++;
			perf_mmap_reader__read_backward(&reader, backward_record, &walk);
			check_final_walk(&walk);
			break;
		case MODE_VERIFY:
			walk = read_verify(&reader);
			check_final_walk(&walk);
			break;
		}
	}
	perf_mmap_reader__exit(&reader);
	return NULL;
}

/* ---- one run ---------------------------------------------------------------- */

static double stress_seconds(void)
{
	const char *s = getenv("STRESS_SECONDS");
	double v = s ? strtod(s, NULL) : 1.5;

	return v > 0 ? v : 1.5;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (time_t)seconds) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void stress_setup(enum stress_mode mode, bool libperf)
{
	int i;

	memset(&st, 0, sizeof(st));
	st.mode = mode;
	st.libperf = libperf;
	st.event.attr.size = sizeof(st.event.attr);
	st.event.attr.sample_id_all = 1;
	st.event.attr.sample_type = PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
				    PERF_SAMPLE_IDENTIFIER;
	st.event.attr.write_backward = mode != MODE_FORWARD;
	st.event.id = STRESS_EVENT_ID;
	st.event.stream_id = STRESS_EVENT_ID;
	perf_event__id_header_size(&st.event);
	st.lost_size = sizeof(struct perf_event_header) + 16 + st.event.id_header_size;

	st.rb = rb_alloc(STRESS_PAGES, 0, 0, mode == MODE_FORWARD ? RING_BUFFER_WRITABLE : 0);
	assert_non_null(st.rb);
	ring_buffer_attach(&st.event, st.rb);

	for (i = 0; i < NR_WRITERS; i++) {
		st.w[i].id = i;
		st.w[i].rng = 0x2545f491u * (i + 1) + mode;
		st.w[i].max_size = i ? NMI_MAX_SIZE : THREAD_MAX_SIZE;
	}
}

static void stress_run(enum stress_mode mode, bool libperf)
{
	struct sigaction sa = { .sa_handler = nmi_handler };
	struct sigevent sev = { 0 };
	struct itimerspec its = {
		.it_interval.tv_nsec = STRESS_TIMER_NS,
		.it_value.tv_nsec = STRESS_TIMER_NS,
	};
	pthread_t writer, reader;
	double seconds = stress_seconds() / NR_RUNS, t0, elapsed;
	uint64_t written, attempted, failed, lost;
	timer_t timer;
	int i;

	stress_setup(mode, libperf);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(STRESS_SIGNAL, &sa, NULL), 0);

	assert_int_equal(pthread_create(&reader, NULL, reader_main, NULL), 0);
	assert_int_equal(pthread_create(&writer, NULL, writer_main, NULL), 0);
	while (!atomic_load_explicit(&st.writer_ready, memory_order_acquire))
		sched_yield();

	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = STRESS_SIGNAL;
	sev._sigev_un._tid = st.writer_tid;
	assert_int_equal(timer_create(CLOCK_MONOTONIC, &sev, &timer), 0);
	assert_int_equal(timer_settime(timer, 0, &its, NULL), 0);

	t0 = now();
	sleep_for(seconds);
	atomic_store(&st.stop, true);
	timer_delete(timer);
	pthread_join(writer, NULL);
	elapsed = now() - t0;
	atomic_store_explicit(&st.writer_done, true, memory_order_release);
	pthread_join(reader, NULL);

	written = st.w[0].seq + st.w[1].seq;
	attempted = st.w[0].attempted + st.w[1].attempted;
	failed = st.w[0].failed + st.w[1].failed;
	lost = (uint64_t)local_read(&st.rb->lost);
	printf("# %s: %.0f records/s written (%llu by the thread, %llu by the handler), "
	       "%llu attempts refused, %llu records read in %llu walks, %llu LOST records, "
	       "%llu walks cut short by overwriting\n",
	       mode_name(mode), written / elapsed, (unsigned long long)st.w[0].seq,
	       (unsigned long long)st.w[1].seq, (unsigned long long)failed,
	       (unsigned long long)st.read_records, (unsigned long long)st.walks,
	       (unsigned long long)st.read_lost_records, (unsigned long long)st.overwritten);
	if (st.libperf && mode == MODE_FORWARD)
		printf("# libperf-forward: %llu of the records read were skipped by libperf's read_done "
		       "(README, departures)\n", (unsigned long long)st.skipped_records);
	fflush(stdout);

	if (atomic_load(&st.failed))
		fail_msg("%s", st.failure);
	for (i = 0; i < NR_WRITERS; i++)
		assert_int_equal(st.w[i].held_writes, 0);
	assert_true(st.w[0].seq > 0);
	/* The kernel's own count of refused records agrees with the writers'. */
	assert_int_equal(atomic64_read(&st.event.lost_samples), failed);
	assert_int_equal(written + failed, attempted);
	if (mode == MODE_FORWARD) {
		/* Every record was read or counted in a LOST record (or is still pending). */
		for (i = 0; i < NR_WRITERS; i++)
			assert_int_equal(st.next_seq[i], st.w[i].seq);
		assert_int_equal(st.lost_sum + lost, failed);
	}
	assert_int_equal(pmusim_warn_count(), 0);

	ring_buffer_attach(&st.event, NULL);
	signal(STRESS_SIGNAL, SIG_DFL);
}

static void forward_reader_gets_every_record_whole_in_order_or_counted_lost(void **state)
{
	(void)state;
	stress_run(MODE_FORWARD, false);
}

static void paused_backward_reader_gets_whole_consecutive_records(void **state)
{
	(void)state;
	stress_run(MODE_PAUSE, false);
}

static void verifying_backward_reader_returns_only_intact_records(void **state)
{
	(void)state;
	stress_run(MODE_VERIFY, false);
}

static void libperf_forward_reader_gets_every_record_whole_in_order_or_counted_lost(void **state)
{
	(void)state;
	if (!perf_mmap_libperf__available())
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	stress_run(MODE_FORWARD, true);
}

static void libperf_paused_backward_reader_gets_whole_consecutive_records(void **state)
{
	(void)state;
	if (!perf_mmap_libperf__available())
		pmusim_skip("%s", KSRC_NO_UNIT_WHY("libperf_mmap"));
	stress_run(MODE_PAUSE, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forward_reader_gets_every_record_whole_in_order_or_counted_lost),
		cmocka_unit_test(paused_backward_reader_gets_whole_consecutive_records),
		cmocka_unit_test(verifying_backward_reader_returns_only_intact_records),
		cmocka_unit_test(libperf_forward_reader_gets_every_record_whole_in_order_or_counted_lost),
		cmocka_unit_test(libperf_paused_backward_reader_gets_whole_consecutive_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
