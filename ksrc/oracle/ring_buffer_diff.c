// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring buffer's differential oracle (ring_buffer_diff.h): core/'s
 * ring buffer and the kernel's own ring_buffer.c run one schedule each,
 * the kernel's first, its observations recorded, then core/'s, compared
 * observation by observation as it goes and stopped at the first that
 * differs. Both are deterministic, so "lockstep" needs no threads: the
 * n-th observation of one run is the n-th of the other.
 *
 * An observation is taken at every interleaving point the writer under
 * way passes (core/interleave.h: the kernel's file reaches the same points
 * through the shim, ksrc/ring_buffer_bridge.c) and after every top-level
 * operation, where the data area's bytes are compared too. Ops bound to a
 * point run there, nested, exactly as in fuzz/fuzz_ringbuf.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "ksrc/ring_buffer_ksrc.h"
#include "ksrc/oracle/ring_buffer_diff.h"

#define D_MAX_OPS	512
#define D_MAX_DEPTH	6
#define D_SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define D_EVENT_ID	0x1d
#define D_TOP_LEVEL	(-1)		/* an observation after a top-level op */

enum { OP_WRITE, OP_SAMPLE, OP_BIG, OP_READ, OP_PAUSE, OP_RESUME, OP_TAIL, OP_WINDOW };
static const char *const op_names[] = {
	"write", "sample", "write-big", "read", "pause", "resume", "tail", "window",
};

/* What both runs must agree on, each time. */
struct obs {
	int point;			/* PI_*, or D_TOP_LEVEL */
	u32 seq;			/* the writer at the point; the op at top level */
	unsigned long long data_head, data_tail;
	unsigned long head;
	long lost, wakeup, events;
	unsigned int nest;
	int paused;
	int ret;			/* the last perf_output_begin() */
	unsigned long long wakeups, lost_samples;
	u64 bytes;			/* FNV-1a of the data area (top level only) */
};

/* One implementation behind the same few calls. */
struct impl {
	const char *name;
	int (*setup)(void);
	void (*teardown)(void);
	int (*begin)(void *handle, unsigned int size);
	void (*copy)(void *handle, const void *buf, unsigned int len);
	void (*sample_wakeup)(void *handle);
	void (*end)(void *handle);
	void (*pause)(bool pause);
	void (*state)(struct obs *o);	/* head, lost, wakeup, events, nest, paused */
	bool (*take_wakeup)(void);
	u64 (*lost_samples)(void);
	struct perf_event_mmap_page *pg;
	void *obj;			/* what the interleaving points name */
};

static struct {
	/* input */
	const u8 *ops;
	size_t nr_ops, next_op;
	int nr_pages;
	unsigned long size;
	bool backward, overwrite, sample_id_all, watermark_mode;
	unsigned int wakeup_events, wakeup_watermark;
	unsigned int lost_size;		/* a LOST record: header, id, lost, sample_id trailer */
	/* the run */
	const struct impl *impl;
	int depth;
	u32 next_seq, op_seq;
	int last_ret;
	u64 wakeups;
	bool unfenced;			/* bytes written since the last store fence */
	u64 published;			/* data_head at the last check */
	/* observations: recorded (kernel) or compared against (core) */
	struct obs *rec;
	size_t nr_rec, cap_rec, at;
	bool recording;
	size_t stop_at;			/* re-run: stop at this observation */
	u8 *snapshot;			/* re-run: the data area there */
	bool stopped, failed;
	char *why, *trace;
	size_t why_len, trace_len, trace_used;
} d;

/* ---- the two implementations ------------------------------------------------ */

static struct perf_event core_event;
static struct perf_buffer *core_rb;

static int core_setup(void)
{
	struct perf_event *event = &core_event;

	memset(event, 0, sizeof(*event));
	event->attr.size = sizeof(event->attr);
	event->attr.write_backward = d.backward;
	event->attr.sample_id_all = d.sample_id_all;
	event->attr.sample_type = D_SAMPLE_TYPE;
	event->attr.watermark = d.watermark_mode;
	if (d.watermark_mode)
		event->attr.wakeup_watermark = d.wakeup_watermark;
	else
		event->attr.wakeup_events = d.wakeup_events;
	event->id = D_EVENT_ID;
	perf_event__id_header_size(event);
	core_rb = rb_alloc(d.nr_pages, d.watermark_mode ? (long)d.wakeup_watermark : 0, 0,
			   d.overwrite ? 0 : RING_BUFFER_WRITABLE);
	if (!core_rb)
		return -1;
	ring_buffer_attach(event, core_rb);
	return 0;
}

static void core_teardown(void)
{
	ring_buffer_attach(&core_event, NULL);
	core_rb = NULL;
}

static int core_begin(void *handle, unsigned int size)
{
	struct perf_sample_data data;

	perf_sample_data_init(&data, 0, 0);
	return perf_output_begin(handle, &data, &core_event, size);
}

static void core_copy(void *handle, const void *buf, unsigned int len)
{
	perf_output_copy(handle, buf, len);
}

static void core_sample_wakeup(void *handle)
{
	perf_output_sample_wakeup(handle);
}

static void core_end(void *handle)
{
	perf_output_end(handle);
}

static void core_pause(bool pause)
{
	rb_toggle_paused(core_rb, pause);
}

static void core_state(struct obs *o)
{
	o->head = (unsigned long)local_read(&core_rb->head);
	o->lost = local_read(&core_rb->lost);
	o->wakeup = local_read(&core_rb->wakeup);
	o->events = local_read(&core_rb->events);
	o->nest = READ_ONCE(core_rb->nest);
	o->paused = READ_ONCE(core_rb->paused);
}

static bool core_take_wakeup(void)
{
	bool woke = core_event.pending_wakeup;

	core_event.pending_wakeup = 0;
	return woke;
}

static u64 core_lost_samples(void)
{
	return (u64)atomic64_read(&core_event.lost_samples);
}

static struct impl core_impl = {
	.name = "core", .setup = core_setup, .teardown = core_teardown,
	.begin = core_begin, .copy = core_copy, .sample_wakeup = core_sample_wakeup,
	.end = core_end, .pause = core_pause, .state = core_state,
	.take_wakeup = core_take_wakeup, .lost_samples = core_lost_samples,
};

static struct ksrc_buffer *k_buf;
static struct ksrc_event *k_event;

/* The LOST trailer names who core/ would name: current, perf_clock(), this CPU. */
static struct ksrc_running core_running(void *arg)
{
	struct task_struct *task = current;

	(void)arg;
	return (struct ksrc_running){
		.pid = task ? (u32)task->pid : 0,
		.tid = task ? (u32)task->tid : 0,
		.cpu = (u32)smp_processor_id(),
		.time = perf_clock(),
	};
}

static int k_setup(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.write_backward = d.backward,
		.sample_id_all = d.sample_id_all,
		.sample_type = D_SAMPLE_TYPE,
		.watermark = d.watermark_mode,
	};

	if (d.watermark_mode)
		attr.wakeup_watermark = d.wakeup_watermark;
	else
		attr.wakeup_events = d.wakeup_events;
	k_buf = ksrc_rb_alloc(d.nr_pages, d.watermark_mode ? (long)d.wakeup_watermark : 0,
			      !d.overwrite);
	if (!k_buf)
		return -1;
	k_event = ksrc_event_new(k_buf, &attr, D_EVENT_ID);
	if (!k_event) {
		ksrc_rb_free(k_buf);
		return -1;
	}
	ksrc_set_running(core_running, NULL);
	return 0;
}

static void k_teardown(void)
{
	ksrc_event_free(k_event);
	ksrc_rb_free(k_buf);
	ksrc_set_running(NULL, NULL);
	k_event = NULL;
	k_buf = NULL;
}

static int k_begin(void *handle, unsigned int size)
{
	return ksrc_output_begin(handle, k_event, size);
}

static void k_copy(void *handle, const void *buf, unsigned int len)
{
	ksrc_output_copy(handle, buf, len);
}

static void k_sample_wakeup(void *handle)
{
	ksrc_output_sample_wakeup(handle);
}

static void k_end(void *handle)
{
	ksrc_output_end(handle);
}

static void k_pause(bool pause)
{
	ksrc_rb_pause(k_buf, pause);
}

static void k_state(struct obs *o)
{
	struct ksrc_rb_state s = ksrc_rb_state(k_buf);

	o->head = s.head;
	o->lost = s.lost;
	o->wakeup = s.wakeup;
	o->events = s.events;
	o->nest = s.nest;
	o->paused = s.paused;
}

static bool k_take_wakeup(void)
{
	return ksrc_event_take_wakeup(k_event);
}

static u64 k_lost_samples(void)
{
	return ksrc_event_lost_samples(k_event);
}

static struct impl ksrc_impl = {
	.name = "kernel", .setup = k_setup, .teardown = k_teardown,
	.begin = k_begin, .copy = k_copy, .sample_wakeup = k_sample_wakeup,
	.end = k_end, .pause = k_pause, .state = k_state,
	.take_wakeup = k_take_wakeup, .lost_samples = k_lost_samples,
};

/* ---- observations --------------------------------------------------------------- */

static void d_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void d_trace(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!d.trace || d.recording || d.trace_used + 1 >= d.trace_len)
		return;
	n = snprintf(d.trace + d.trace_used, d.trace_len - d.trace_used, "%*s", 2 * d.depth, "");
	if (n > 0)
		d.trace_used = min(d.trace_used + (size_t)n, d.trace_len - 1);
	va_start(ap, fmt);
	n = vsnprintf(d.trace + d.trace_used, d.trace_len - d.trace_used, fmt, ap);
	va_end(ap);
	if (n > 0)
		d.trace_used = min(d.trace_used + (size_t)n, d.trace_len - 1);
	if (d.trace_used + 1 < d.trace_len) {
		d.trace[d.trace_used++] = '\n';
		d.trace[d.trace_used] = '\0';
	}
}

static void d_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void d_fail(const char *fmt, ...)
{
	va_list ap;

	if (d.failed)
		return;
	d.failed = true;
	va_start(ap, fmt);
	vsnprintf(d.why, d.why_len, fmt, ap);
	va_end(ap);
}

static unsigned char *data_area(void)
{
	return (unsigned char *)d.impl->pg + d.impl->pg->data_offset;
}

static u64 hash_bytes(const unsigned char *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static const char *point_name(int point)
{
	return point == D_TOP_LEVEL ? "the end of the op" : perf_interleave_point_names[point];
}

static void observe(int point, u32 seq)
{
	struct obs o = { .point = point, .seq = seq };
	const struct obs *r;
	size_t i = d.at++;

	d.impl->state(&o);
	o.data_head = __atomic_load_n(&d.impl->pg->data_head, __ATOMIC_RELAXED);
	o.data_tail = __atomic_load_n(&d.impl->pg->data_tail, __ATOMIC_RELAXED);
	o.ret = d.last_ret;
	o.wakeups = d.wakeups;
	o.lost_samples = d.impl->lost_samples();
	if (point == D_TOP_LEVEL)
		o.bytes = hash_bytes(data_area(), d.size);

	if (d.stop_at && i + 1 == d.stop_at) {
		memcpy(d.snapshot, data_area(), d.size);
		d.stopped = true;
		return;
	}
	if (d.recording) {
		if (d.nr_rec == d.cap_rec) {
			size_t cap = d.cap_rec ? 2 * d.cap_rec : 1024;
			struct obs *v = realloc(d.rec, cap * sizeof(*v));

			if (!v) {
				d_fail("out of memory for the observations");
				return;
			}
			d.rec = v;
			d.cap_rec = cap;
		}
		d.rec[d.nr_rec++] = o;
		return;
	}
	if (d.failed)
		return;
	if (i >= d.nr_rec) {
		d_fail("observation %zu: core reached %s, the kernel's file had stopped", i,
		       point_name(point));
		return;
	}
	r = &d.rec[i];
#define DIFF(field, what, fmt)							\
	if (o.field != r->field) {						\
		d_fail("observation %zu (%s of %s #%u): %s: core " fmt ", kernel " fmt, \
		       i, point_name(point), point == D_TOP_LEVEL ? "op" : "writer", seq, \
		       what, o.field, r->field);				\
		return;								\
	}
	if (o.point != r->point || o.seq != r->seq) {
		const char *what = "";

		if (o.point == PI_OUTPUT_BEGIN_FAILED || r->point == PI_OUTPUT_BEGIN_FAILED)
			what = o.point == PI_OUTPUT_BEGIN_FAILED ?
			       " (core found no room where the kernel's file did)" :
			       " (the kernel's file found no room where core did)";
		d_fail("observation %zu: core at %s of #%u, the kernel's file at %s of #%u%s",
		       i, point_name(o.point), o.seq, point_name(r->point), r->seq, what);
		return;
	}
	DIFF(ret, "perf_output_begin() returned", "%d")
	DIFF(data_head, "data_head", "%#llx")
	DIFF(data_tail, "data_tail", "%#llx")
	DIFF(head, "rb->head", "%#lx")
	DIFF(lost, "rb->lost (records lost, not yet in a LOST record)", "%ld")
	DIFF(lost_samples, "event->lost_samples", "%llu")
	DIFF(wakeup, "rb->wakeup (the wakeup stamp)", "%ld")
	DIFF(wakeups, "wakeups of the reader", "%llu")
	DIFF(events, "rb->events", "%ld")
	DIFF(nest, "rb->nest", "%u")
	DIFF(paused, "rb->paused", "%d")
	if (o.bytes != r->bytes)
		d_fail("observation %zu (after op #%u): buffer bytes differ", i, seq);
#undef DIFF
}

/* ---- the schedule ------------------------------------------------------------ */

static void run_op(u8 b0, u8 arg);

static u8 payload_byte(u32 seq, u32 size, u32 i)
{
	return (u8)(seq * 29 + i * 13 + size);
}

static void writer(u32 size, bool sample)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = (u16)size };
	_Alignas(16) unsigned char handle[128];
	u32 seq = d.next_seq++;
	u64 word = (u64)seq << 32 | size;
	u8 chunk[64];
	int ret;

	_Static_assert(sizeof(handle) >= sizeof(struct perf_output_handle) &&
		       sizeof(handle) >= sizeof(struct ksrc_output_handle), "handle room");
	d_trace("writer #%u: %u bytes%s", seq, size, sample ? " (sample)" : "");
	d.depth++;
	ret = d.impl->begin(handle, size);
	d.last_ret = ret;
	if (!ret) {
		d.impl->copy(handle, &h, sizeof(h));
		d.unfenced = true;
		d.impl->copy(handle, &word, sizeof(word));
		for (u32 i = 16, n; i < size; i += n) {
			n = min(size - i, (u32)sizeof(chunk));
			for (u32 k = 0; k < n; k++)
				chunk[k] = payload_byte(seq, size, i + k);
			d.impl->copy(handle, chunk, n);
			d.unfenced = true;
		}
		if (sample)
			d.impl->sample_wakeup(handle);
		d.impl->end(handle);
	}
	if (d.impl->take_wakeup())
		d.wakeups++;
	d.depth--;
	d_trace("writer #%u: %s", seq, ret ? "-ENOSPC" : "done");
}

/* The consumer: up to @max records (0: all) from data_tail, data_tail moved past them. */
static void reader(unsigned int max)
{
	struct perf_event_mmap_page *pg = d.impl->pg;
	u64 head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	u64 tail = pg->data_tail;
	unsigned int n = 0;

	if (d.overwrite)
		return;
	if (d.backward) {
		/* no reader walks a backward buffer: it takes everything */
		__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
		return;
	}
	while (tail != head && (!max || n < max)) {
		struct perf_event_header h;
		size_t off = tail & (d.size - 1);

		if (head - tail > d.size || off + sizeof(h) > d.size)
			break;
		memcpy(&h, data_area() + off, sizeof(h));
		if (!h.size || h.size % 8 || h.size > head - tail)
			break;
		tail += h.size;
		n++;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Free exactly what a @size-byte record needs (less @short_by), then write it. */
static void boundary_write(u32 size, u32 short_by)
{
	struct perf_event_mmap_page *pg = d.impl->pg;
	struct obs s;
	u64 head = pg->data_head, tail;
	u32 need = size;

	d.impl->state(&s);
	if (s.lost)
		need += d.lost_size;
	if (need - short_by >= d.size)
		return;
	/* CIRC_SPACE(head, tail) (backward: (tail, head)) is then need - short_by */
	tail = d.backward ? head + (d.size - 1 - (need - short_by))
			  : head - (d.size - 1 - (need - short_by));
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	d_trace("tail %#llx: %u bytes free for %u", (unsigned long long)tail, need - short_by, need);
	writer(size, false);
}

static void run_bound_ops(int point)
{
	while (d.next_op < d.nr_ops && d.depth < D_MAX_DEPTH && !d.failed && !d.stopped) {
		const u8 *op = d.ops + 2 * d.next_op;

		if ((op[0] >> 3) - 1 != point)
			break;
		d.next_op++;
		d_trace("at %s:", perf_interleave_point_names[point]);
		run_op(op[0], op[1]);
	}
}

static void on_point(enum perf_interleave_point point, void *obj)
{
	if (obj != d.impl->obj || d.failed || d.stopped)
		return;
	if (point == PI_PUT_HANDLE_PUBLISHED) {
		u64 data_head = __atomic_load_n(&d.impl->pg->data_head, __ATOMIC_RELAXED);

		if (data_head != d.published && d.unfenced)
			d_fail("%s: data_head %#llx published with record bytes that no store fence "
			       "has passed (smp_wmb missing?)", d.impl->name,
			       (unsigned long long)data_head);
		d.published = data_head;
	}
	observe(point, d.next_seq - 1);
	run_bound_ops(point);
}

static void on_fence(void)
{
	d.unfenced = false;
}

static void run_op(u8 b0, u8 arg)
{
	unsigned int kind = b0 & 7;

	switch (kind) {
	case OP_WRITE:
	case OP_SAMPLE:
		writer(16 + 8 * (arg & 127), kind == OP_SAMPLE);
		break;
	case OP_BIG:
		writer(16 + 32 * (u32)arg, false);
		break;
	case OP_READ:
		reader(arg % 8);
		d_trace("read %u", arg % 8);
		break;
	case OP_PAUSE:
	case OP_RESUME:
		d.impl->pause(kind == OP_PAUSE);
		d_trace("%s", op_names[kind]);
		break;
	case OP_TAIL:
		if (arg & 0x80) {
			boundary_write(16 + 8 * (arg & 0x3f), (arg & 0x40) ? 1 : 0);
		} else {
			__atomic_store_n(&d.impl->pg->data_tail,
					 (u64)arg * 0x0101010101010101ULL + (arg & 7), __ATOMIC_RELEASE);
			d_trace("garbage-tail");
		}
		break;
	default:
		break;
	}
}

static void run(const struct impl *impl)
{
	d.impl = impl;
	d.next_op = 0;
	d.depth = 0;
	d.next_seq = 0;
	d.last_ret = 0;
	d.wakeups = 0;
	d.unfenced = false;
	d.published = 0;
	d.at = 0;
	d.stopped = false;
	if (impl->setup()) {
		d_fail("%s: the buffer could not be allocated", impl->name);
		return;
	}
	if (impl == &core_impl) {
		core_impl.pg = core_rb->user_page;
		core_impl.obj = core_rb;
	} else {
		ksrc_impl.pg = ksrc_rb_user_page(k_buf);
		ksrc_impl.obj = ksrc_rb_kernel(k_buf);
	}
	if (impl->pg->data_size != d.size)
		d_fail("%s: data_size %llu, %lu expected", impl->name,
		       (unsigned long long)impl->pg->data_size, d.size);
	perf_interleave_hook = on_point;
	perf_store_fence_hook = on_fence;
	while (d.next_op < d.nr_ops && !d.failed && !d.stopped) {
		const u8 *op = d.ops + 2 * d.next_op++;
		u32 seq = (u32)(d.next_op - 1);

		d_trace("op %u: %s %u", seq, op_names[op[0] & 7], op[1]);
		run_op(op[0], op[1]);
		if (!d.failed && !d.stopped)
			observe(D_TOP_LEVEL, seq);
	}
	perf_interleave_hook = NULL;
	perf_store_fence_hook = NULL;
	impl->teardown();
}

/* The first byte where the two data areas differ at observation @at. */
static void name_byte_difference(size_t at, const u8 *core_bytes)
{
	u8 *kernel_bytes = malloc(d.size);
	char was[256];

	if (!kernel_bytes)
		return;
	snprintf(was, sizeof(was), "%s", d.why);
	d.failed = false;
	d.stop_at = at + 1;
	d.snapshot = kernel_bytes;
	d.recording = true;
	run(&ksrc_impl);
	d.recording = false;
	d.stop_at = 0;
	d.failed = true;
	for (size_t i = 0; i < d.size; i++) {
		if (core_bytes[i] != kernel_bytes[i]) {
			snprintf(d.why, d.why_len, "%s: first at offset %#zx: core %#04x, kernel %#04x",
				 was, i, core_bytes[i], kernel_bytes[i]);
			break;
		}
	}
	free(kernel_bytes);
}

int ksrc_ringbuf_diff(const uint8_t *data, size_t size, char *why, size_t why_len,
		      char *trace, size_t trace_len)
{
	char scratch[8];
	u8 *core_bytes = NULL;
	int k;

	memset(&d, 0, sizeof(d));
	d.why = why ? why : scratch;
	d.why_len = why ? why_len : sizeof(scratch);
	d.why[0] = '\0';
	d.trace = trace;
	d.trace_len = trace_len;
	if (trace && trace_len)
		trace[0] = '\0';
	if (size < 2)
		return 0;
	k = (data[0] & 7) % 5;
	d.nr_pages = 1 << k;
	d.size = (unsigned long)d.nr_pages * PAGE_SIZE;
	d.backward = data[0] & 0x08;
	d.overwrite = data[0] & 0x10;
	d.sample_id_all = data[0] & 0x20;
	d.watermark_mode = data[0] & 0x40;
	d.wakeup_watermark = d.watermark_mode ? 64u * data[1] : 0;
	d.wakeup_events = d.watermark_mode ? 0 : data[1] % 8;
	d.ops = data + 2;
	d.nr_ops = min((size - 2) / 2, (size_t)D_MAX_OPS);
	/* the same for both sides, whichever runs first: 8 bytes a D_SAMPLE_TYPE field */
	d.lost_size = 24 + (d.sample_id_all ? 8 * (unsigned int)__builtin_popcountll(D_SAMPLE_TYPE) : 0);

	d.recording = true;
	run(&ksrc_impl);
	d.recording = false;
	if (!d.failed) {
		d_trace("buffer: %d pages, %s, %s, sample_id_all %d, %s %u", d.nr_pages,
			d.backward ? "backward" : "forward", d.overwrite ? "overwrite" : "writable",
			d.sample_id_all, d.watermark_mode ? "watermark" : "wakeup_events",
			d.watermark_mode ? d.wakeup_watermark : d.wakeup_events);
		run(&core_impl);
	}
	if (!d.failed && d.at != d.nr_rec)
		d_fail("core made %zu observations, the kernel's file %zu", d.at, d.nr_rec);
	if (d.failed && strstr(d.why, "buffer bytes differ")) {
		/* core's buffer is gone: replay core to that point too */
		size_t at = d.at - 1;

		core_bytes = malloc(d.size);
		if (core_bytes) {
			d.failed = false;
			d.stop_at = at + 1;
			d.snapshot = core_bytes;
			d.recording = true;
			run(&core_impl);
			d.recording = false;
			d.failed = true;
			name_byte_difference(at, core_bytes);
			free(core_bytes);
		}
	}
	free(d.rec);
	d.rec = NULL;
	return d.failed;
}

/* ---- boundary inputs ---------------------------------------------------------- */

/* mode: 0 forward, 1 backward; pages 1 or 2; each with and without sample_id_all */
#define B_MODES		8
#define B_OFFSETS	4	/* where head stands: 0, mid-buffer, near the end, across it */
#define B_SIZES		4	/* record sizes */
#define B_SHORT		2	/* exact fit, one byte short */
#define B_LOST		2	/* a LOST record pending or not */

size_t ksrc_ringbuf_boundary_count(void)
{
	return B_MODES * B_OFFSETS * B_SIZES * B_SHORT * B_LOST;
}

size_t ksrc_ringbuf_boundary_input(size_t i, uint8_t *buf)
{
	static const u8 size_args[B_SIZES] = { 0, 1, 5, 63 };	/* 16, 24, 56, 520 bytes */
	size_t n = 0;
	unsigned int mode = i % B_MODES, off = (i / B_MODES) % B_OFFSETS;
	unsigned int sz = (i / (B_MODES * B_OFFSETS)) % B_SIZES;
	unsigned int shrt = (i / (B_MODES * B_OFFSETS * B_SIZES)) % B_SHORT;
	unsigned int lost = (i / (B_MODES * B_OFFSETS * B_SIZES * B_SHORT)) % B_LOST;
	unsigned int pages = (mode & 2) ? 1 : 0;	/* page order */

#define OP(op, arg) do { buf[n++] = (u8)(op); buf[n++] = (u8)(arg); } while (0)
	buf[n++] = (u8)(pages | ((mode & 1) ? 0x08 : 0) | ((mode & 4) ? 0x20 : 0));
	buf[n++] = 0;
	/* move head: big records read away again (4096 / 4 = 1024 per step) */
	for (unsigned int k = 0; k < off * (1u << pages) * 3; k++) {
		OP(OP_BIG, 31);		/* 1008 bytes */
		OP(OP_READ, 0);
	}
	if (off == B_OFFSETS - 1) {	/* and a few small ones, so records cross the end */
		OP(OP_WRITE, 9);
		OP(OP_WRITE, 3);
		OP(OP_READ, 0);
	}
	if (lost) {
		OP(OP_PAUSE, 0);
		OP(OP_WRITE, 0);
		OP(OP_RESUME, 0);
	}
	OP(OP_TAIL, 0x80 | (shrt ? 0x40 : 0) | size_args[sz]);
	/* and what follows it: the LOST it left or the record it wrote, read */
	OP(OP_READ, 0);
	OP(OP_WRITE, 1);
	OP(OP_READ, 0);
#undef OP
	return n;
}

/* For fuzz_ringbuf: a difference is a crash, with its schedule and its name. */
void ksrc_ringbuf_diff_or_abort(const uint8_t *data, size_t size)
{
	static char reason[512], ops[1 << 16];

	if (!ksrc_ringbuf_diff(data, size, reason, sizeof(reason), ops, sizeof(ops)))
		return;
	fprintf(stderr, "%sksrc_ringbuf_diff: core/ and the kernel's ring_buffer.c (%s) differ: %s\n",
		ops, ksrc_version(), reason);
	fflush(stderr);
	abort();
}
