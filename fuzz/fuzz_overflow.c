// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overflow path: a program of events, PMIs, ticks, ioctls and ring
 * reads, run on core/ and, in a build with a kernel tree, on the kernel's
 * own kernel/events/core.c in lockstep (ksrc/oracle/core_diff.c: each on
 * a Skylake model CPU of its own, CPU-wide events on CPU 0, one clock).
 *
 * Oracles:
 *   - against the kernel's file (with a tree): after every op, each open
 *     event's ring (data_head, data_tail, every data byte), count,
 *     sample_period, last_period, period_left, hw.interrupts (the
 *     throttle state) and state are the same on both sides; every open
 *     and ioctl returns the same (or both an event), unless the open is a
 *     named departure (ksrc_core_diff_open_departure(): the one-CPU shim,
 *     software events, sigtrap, the RFC attr fields), which is counted
 *     and its event not used; a ring other events write to (SET_OUTPUT)
 *     may hold the same records in another order (departure
 *     pmi-counter-order, counted);
 *   - core/ on its own (every build): opens and ioctls return 0 or an
 *     errno perf_event_open()/ioctl() give; no WARN_ON; a non-freq
 *     sampling event's hw.sample_period is its attr.sample_period; the
 *     throttle count is below max_samples_per_tick or MAX_INTERRUPTS;
 *     data_head never moves back and never runs more than the buffer
 *     past data_tail; each record is 8-aligned, of a known type, a
 *     sample parses with its event's attr (tools/perf/util/
 *     perf_data_read.c), THROTTLE and UNTHROTTLE alternate for each id
 *     and start with THROTTLE, and no event writes more than
 *     max_samples_per_tick samples between two ticks.
 *
 * Input: byte 0 bits 0-1 the rings' pages (1 << (b & 3)); then ops, byte
 * c, op c & 7 with x = c >> 3:
 *   0 open: menu byte m, period byte p, then (x & 3) patches of (offset,
 *     value) to the attr's bytes. m & 7 picks the attr (below), m bit 3
 *     joins slot 0's group, bit 4 opens it disabled, bit 5 maps it at
 *     once, bit 6 sets attr.watermark (wakeup_watermark 64 * p), bit 7
 *     write_backward. At most FO_EVENTS events are open.
 *   1 mmap slot x % FO_EVENTS
 *   2 retire (byte + 1) * 16 * (x + 1) user instructions: the PMIs come
 *   3 tick (the clock moves TICK_NSEC first)
 *   4 ioctl: slot byte, argument byte a; the command by x % 10: ENABLE,
 *     DISABLE, REFRESH (a as s8), RESET, PERIOD (a * a * 8, with x >= 10
 *     0 or 2^63), PAUSE_OUTPUT (a & 1), SET_OUTPUT (slot a, 0xff: none),
 *     ID, an unknown command, ENABLE/DISABLE/RESET of the group
 *     (PERF_IOC_FLAG_GROUP, by a % 3)
 *   5 read the rings: data_tail = data_head on every mapped ring
 *   6 close slot x % FO_EVENTS
 *   7 the clock moves (x + 1) * 10 us
 * The attrs of the menu (instructions or cycles, exclude_kernel/hv):
 *   0 period 16 + 8 p, IP|TID|TIME|PERIOD       1 cycles, period 64 + 32 p,
 *     IP|ID|IDENTIFIER|PERIOD                   2 freq 100 p + 100, IP|TIME|PERIOD
 *   3 counting, read_format GROUP|ID            4 period 64 + 16 p, READ of
 *     GROUP|ID|TIMES|LOST, PERIOD               5 raw 0xc0, period 32 + 4 p,
 *     IP|CPU|STREAM_ID|ADDR                     6 period 128 + p, TIME|ID,
 *     wakeup_events 2, sample_id_all            7 cycles freq 50 p + 50,
 *     PERIOD|TIME, sample_id_all
 * PMUSIM_FUZZ_TRACE=1 prints each op and its results.
 */
#include <stdarg.h>

#include "core/internal.h"
#include "fuzz/fuzz.h"
#include "ksrc/oracle/core_diff.h"
#include "tools/perf/util/perf_data_read.h"

#define FO_EVENTS	4	/* the model driver's general-purpose counters */
#define FO_IDS		16
#define FO_MAX_OPS	2048

struct fo_slot {
	bool open;
	u64 tick_samples;	/* in its own ring since the last tick */
};

/* What the ring checks remember of one mapped slot's buffer */
struct fo_ring {
	u64 head;		/* data_head at the last check */
	u64 scanned;		/* records checked up to here */
	bool mixed;		/* other events write here (SET_OUTPUT) */
	struct { u64 id; u32 last; } thr[FO_IDS];	/* THROTTLE/UNTHROTTLE per id */
	unsigned int nr_thr;
};

static struct {
	const u8 *p, *end;
	struct fo_slot slot[FO_EVENTS];
	struct ksrc_core_diff_event ev[FO_EVENTS];	/* the open slots' pairs */
	struct fo_ring ring[FO_EVENTS];
	unsigned int pages;
	unsigned long warn_base, departures;
	/* a no-resched departure showed: the rest of the input is core/'s alone */
	bool diverged;
	bool trace;
} fo;

#define fo_fail(...) fuzz_fail("fuzz_overflow", __VA_ARGS__)
#define fo_trace(...) fuzz_trace_line(fo.trace, __VA_ARGS__)

static u8 next_byte(void)
{
	return fo.p < fo.end ? *fo.p++ : 0;
}

static bool in_list(long err, const int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (err == list[i])
			return true;
	return false;
}

/* ---- the rings ------------------------------------------------------------------- */

static void check_throttle(struct fo_ring *r, u32 type, u64 id, u64 pos)
{
	unsigned int i;

	for (i = 0; i < r->nr_thr && r->thr[i].id != id; i++)
		;
	if (i == r->nr_thr) {
		if (r->nr_thr == FO_IDS)
			return;
		r->thr[r->nr_thr++] = (typeof(r->thr[0])){ .id = id, .last = PERF_RECORD_UNTHROTTLE };
	}
	if (r->thr[i].last == type)
		fo_fail("record at %llu: %s twice in a row for id %llu", (unsigned long long)pos,
			type == PERF_RECORD_THROTTLE ? "THROTTLE" : "UNTHROTTLE",
			(unsigned long long)id);
	r->thr[i].last = type;
}

/* The records written since the last check: whole, of known types, samples that parse */
static void check_ring(int n)
{
	static u8 rec[1 << 16];
	struct fo_slot *s = &fo.slot[n];
	struct fo_ring *r = &fo.ring[n];
	struct perf_event_mmap_page *pg = fo.ev[n].rb->user_page;
	const u8 *data = (const u8 *)pg + pg->data_offset;
	u64 size = pg->data_size, head = READ_ONCE(pg->data_head), tail = READ_ONCE(pg->data_tail);

	if (is_write_backward(fo.ev[n].ev))
		return;		/* a backward ring's checks are fuzz_ringbuf's */
	if (head < r->head)
		fo_fail("slot %d: data_head went back from %llu to %llu", n,
			(unsigned long long)r->head, (unsigned long long)head);
	if (head - tail > size)
		fo_fail("slot %d: data_head %llu is more than the buffer past data_tail %llu", n,
			(unsigned long long)head, (unsigned long long)tail);
	r->head = head;
	while (r->scanned < head) {
		struct perf_event_header h;
		u64 pos = r->scanned;

		memcpy(&h, data + (pos & (size - 1)), sizeof(h));
		if (h.size < sizeof(h) || h.size & 7 || h.size > head - pos)
			fo_fail("slot %d: record at %llu: size %u (%llu bytes to data_head)", n,
				(unsigned long long)pos, h.size, (unsigned long long)(head - pos));
		if (h.type == 0 || h.type >= PERF_RECORD_MAX)
			fo_fail("slot %d: record at %llu: type %u", n, (unsigned long long)pos, h.type);
		for (u32 i = 0; i < h.size; i++)
			rec[i] = data[(pos + i) & (size - 1)];
		if (h.type == PERF_RECORD_SAMPLE && !r->mixed) {
			struct perf_sample smp;
			const char *why;

			if (perf_sample__parse(&fo.ev[n].ev->attr, rec, h.size, &smp, &why))
				fo_fail("slot %d: sample at %llu (%u bytes) does not parse: %s", n,
					(unsigned long long)pos, h.size, why);
			if (++s->tick_samples > (u64)max_samples_per_tick)
				fo_fail("slot %d: %llu samples in one tick, max_samples_per_tick %d", n,
					(unsigned long long)s->tick_samples, max_samples_per_tick);
		}
		if ((h.type == PERF_RECORD_THROTTLE || h.type == PERF_RECORD_UNTHROTTLE) && h.size >= 24)
			check_throttle(r, h.type, perf_data__get_u64(rec + 16), pos);
		/* unthrottled (the tick, a PERIOD, going back on): a new budget */
		if (h.type == PERF_RECORD_UNTHROTTLE)
			s->tick_samples = 0;
		r->scanned = pos + h.size;
	}
}

/* ---- core/'s own invariants -------------------------------------------------------- */

static void check_slot(int n)
{
	struct perf_event *ev = fo.ev[n].ev;
	struct hw_perf_event *hwc = &ev->hw;

	if (is_sampling_event(ev) && !ev->attr.freq && hwc->sample_period != ev->attr.sample_period)
		fo_fail("slot %d: hw.sample_period %llu, attr.sample_period %llu", n,
			(unsigned long long)hwc->sample_period,
			(unsigned long long)ev->attr.sample_period);
	if (is_sampling_event(ev) && !hwc->sample_period)
		fo_fail("slot %d: a sampling event with sample_period 0", n);
	if (hwc->interrupts != MAX_INTERRUPTS && hwc->interrupts >= (u64)max_samples_per_tick)
		fo_fail("slot %d: hw.interrupts %llu and not throttled (max_samples_per_tick %d)", n,
			(unsigned long long)hwc->interrupts, max_samples_per_tick);
	if (fo.ev[n].rb && fo.ev[n].nr_pages)
		check_ring(n);
}

/*
 * After every op: core/'s invariants, then core/ against the kernel's
 * file; @exposed: the departure the op may show (no-resched,
 * pmi-counter-order): a difference is that departure, and the rest of the
 * input is not compared.
 */
static void check_all(const char *after, const char *exposed)
{
	char why[256];

	if (pmusim_warn_count() != fo.warn_base)
		fo_fail("after %s: a WARN_ON fired", after);
	for (int n = 0; n < FO_EVENTS; n++) {
		if (!fo.slot[n].open)
			continue;
		check_slot(n);
		if (fo.diverged)
			continue;
		switch (ksrc_core_diff_compare(&fo.ev[n], why, sizeof(why))) {
		case KSRC_CORE_DIFF_SAME:
			break;
		case KSRC_CORE_DIFF_ORDER:
			fo_trace("departure %s", why);
			fo.departures++;
			break;
		default:
			if (!exposed)
				fo_fail("after %s: slot %d: %s", after, n, why);
			fo_trace("departure %s: %s", exposed, why);
			fo.departures++;
			fo.diverged = true;
		}
	}
}

/* ---- ops --------------------------------------------------------------------------- */

static void menu_attr(struct perf_event_attr *a, u8 m, u8 p)
{
	memset(a, 0, sizeof(*a));
	a->size = PERF_ATTR_SIZE_VER8;
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_INSTRUCTIONS;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	switch (m & 7) {
	case 0:
		a->sample_period = 16 + 8ULL * p;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		break;
	case 1:
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->sample_period = 64 + 32ULL * p;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER |
				 PERF_SAMPLE_PERIOD;
		break;
	case 2:
		a->freq = 1;
		a->sample_freq = 100ULL * p + 100;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		break;
	case 3:
		a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		break;
	case 4:
		a->sample_period = 64 + 16ULL * p;
		a->sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD;
		a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST;
		break;
	case 5:
		a->type = PERF_TYPE_RAW;
		a->config = 0xc0;
		a->sample_period = 32 + 4ULL * p;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID |
				 PERF_SAMPLE_ADDR;
		break;
	case 6:
		a->sample_period = 128 + p;
		a->sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
		a->wakeup_events = 2;
		a->sample_id_all = 1;
		break;
	default:
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->freq = 1;
		a->sample_freq = 50ULL * p + 50;
		a->sample_type = PERF_SAMPLE_PERIOD | PERF_SAMPLE_TIME;
		a->sample_id_all = 1;
		break;
	}
	a->disabled = !!(m & 0x10);
	if (m & 0x40) {
		a->watermark = 1;
		a->wakeup_watermark = 64u * p;
	}
	a->write_backward = !!(m & 0x80);
}

static void fo_mmap(int n)
{
	struct fo_slot *s = &fo.slot[n];
	int ec, ek;

	if (!s->open || fo.ev[n].nr_pages || fo.ev[n].ev->rb)
		return;
	ksrc_core_diff_mmap(&fo.ev[n], fo.pages, &ec, &ek);
	fo_trace("mmap(slot %d, %u pages) = %d, the kernel's %d", n, fo.pages, ec, ek);
	if (ec != ek && !fo.diverged)
		fo_fail("mmap of slot %d: core/ %d, the kernel's %d", n, ec, ek);
	memset(&fo.ring[n], 0, sizeof(fo.ring[n]));
}

/* An open; the no-resched departure it may show, or NULL */
static const char *fo_open(u8 x)
{
	static const int open_errnos[] = {
		-EINVAL, -E2BIG, -EOPNOTSUPP, -EOVERFLOW, -ENOENT, -ENODEV, -EACCES, -EBUSY,
		-ENOSPC, -EPERM, -EFAULT, -EMFILE,
	};
	struct perf_event_attr a;
	struct ksrc_core_diff_event e;
	u8 m = next_byte(), p = next_byte(), buf[sizeof(a)];
	const struct ksrc_core_diff_event *leader = NULL;
	const char *exposed;
	char why[256];
	int n, ec, r;

	menu_attr(&a, m, p);
	memcpy(buf, &a, sizeof(a));
	for (unsigned int i = x & 3; i; i--) {
		u8 off = next_byte() % PERF_ATTR_SIZE_VER8;

		buf[off] = next_byte();
		fo_trace("attr byte %u = %#x", off, buf[off]);
	}
	for (n = 0; n < FO_EVENTS && fo.slot[n].open; n++)
		;
	if (n == FO_EVENTS)
		return NULL;
	if ((m & 0x08) && fo.slot[0].open)
		leader = &fo.ev[0];
	exposed = ksrc_core_diff_resched_departure(fo.ev, FO_EVENTS, buf, sizeof(buf));
	r = ksrc_core_diff_open_compare(buf, sizeof(buf), 0, leader, 0, &ec, &e, why, sizeof(why));
	fo_trace("open(menu %u, p %u, %u patches%s) = %d%s%s", m & 7, p, x & 3,
		 leader ? ", in slot 0's group" : "", ec, r ? ": " : "", r ? why : "");
	if (ec && !in_list(ec, open_errnos, ARRAY_SIZE(open_errnos)))
		fo_fail("open returned %d, not an errno perf_event_open gives", ec);
	if (r == KSRC_CORE_DIFF_DIFFER && !fo.diverged)
		fo_fail("open (menu %u, p %u): %s", m & 7, p, why);
	fo.departures += r == KSRC_CORE_DIFF_DEPARTED;
	/*
	 * A departed open may have opened (and closed again) on the kernel's
	 * side: its ctx_resched() has put every flexible group back, so the
	 * no-resched departure can show on the others.
	 */
	if (r == KSRC_CORE_DIFF_DEPARTED)
		return exposed;
	if (r != KSRC_CORE_DIFF_SAME || ec)
		return NULL;
	fo.ev[n] = e;
	fo.slot[n] = (struct fo_slot){ .open = true };
	if (m & 0x20)
		fo_mmap(n);
	return exposed;
}

static void fo_close(int n)
{
	if (!fo.slot[n].open)
		return;
	ksrc_core_diff_unmap(&fo.ev[n], fo.ev, FO_EVENTS);
	ksrc_core_diff_close(&fo.ev[n]);
	fo.slot[n].open = false;
	fo_trace("close(slot %d)", n);
}

/* An ioctl; the no-resched departure it may show, or NULL */
static const char *fo_ioctl(u8 x)
{
	static const int ioctl_errnos[] = { -EINVAL, -EFAULT, -ENOTTY, -EOPNOTSUPP, -EBUSY, -ENOENT };
	static const unsigned int cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE, PERF_EVENT_IOC_REFRESH,
		PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_SET_OUTPUT, PERF_EVENT_IOC_ID, PERF_EVENT_IOC_ENABLE + 0x40,
		PERF_EVENT_IOC_ENABLE,
	};
	int n = next_byte() % FO_EVENTS;
	u8 a = next_byte();
	unsigned int cmd = cmds[x % ARRAY_SIZE(cmds)];
	const struct ksrc_core_diff_event *target = NULL;
	struct fo_slot *s = &fo.slot[n];
	u64 arg = a;
	const char *exposed = NULL;
	long rc, rk;

	if (!s->open)
		return NULL;
	switch (x % ARRAY_SIZE(cmds)) {
	case 2:
		arg = (u64)(long)(s8)a;
		break;
	case 4:
		arg = x >= ARRAY_SIZE(cmds) ? (a & 1 ? 1ULL << 63 : 0) : 8ULL * a * a;
		break;
	case 5:
		arg = a & 1;
		break;
	case 6:
		if (a != 0xff && fo.slot[a % FO_EVENTS].open)
			target = &fo.ev[a % FO_EVENTS];
		break;
	case 9:
		/* ENABLE, DISABLE or RESET of the whole group */
		cmd = (unsigned int[]){ PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
					PERF_EVENT_IOC_RESET }[a % 3];
		arg = PERF_IOC_FLAG_GROUP;
		break;
	}
	if (cmd == PERF_EVENT_IOC_ENABLE || cmd == PERF_EVENT_IOC_REFRESH)
		exposed = ksrc_core_diff_resched_departure(fo.ev, FO_EVENTS, NULL, 0);
	ksrc_core_diff_ioctl(&fo.ev[n], cmd, arg, target, &rc, &rk);
	fo_trace("ioctl(slot %d, %#x, %#llx%s) = %ld, the kernel's %ld", n, cmd,
		 (unsigned long long)arg, target ? " (a slot)" : "", rc, rk);
	if (rc && !in_list(rc, ioctl_errnos, ARRAY_SIZE(ioctl_errnos)))
		fo_fail("ioctl %#x returned %ld", cmd, rc);
	if (rc != rk && !fo.diverged && !exposed)
		fo_fail("ioctl %#x on slot %d: core/ %ld, the kernel's %ld", cmd, n, rc, rk);
	if (rc != rk && !fo.diverged) {
		fo_trace("departure %s", exposed);
		fo.departures++;
		fo.diverged = true;
	}
	/* records of another format now land in the target's ring */
	if (!rc && cmd == PERF_EVENT_IOC_SET_OUTPUT && target)
		for (int i = 0; i < FO_EVENTS; i++)
			if (&fo.ev[i] == target) {
				fo.ring[i].mixed = true;
				fo.ev[i].shared = true;
			}
	return exposed;
}

static void fo_tick(void)
{
	ksrc_core_diff_set_clock(ksrc_core_diff_clock() + TICK_NSEC);
	ksrc_core_diff_tick();
	fo_trace("tick");
	/* the ring checks first: what came before the tick belongs to the last one */
	for (int n = 0; n < FO_EVENTS; n++)
		if (fo.slot[n].open && fo.ev[n].rb && fo.ev[n].nr_pages)
			check_ring(n);
	for (int n = 0; n < FO_EVENTS; n++)
		fo.slot[n].tick_samples = 0;
}

static void fo_consume(void)
{
	for (int n = 0; n < FO_EVENTS; n++) {
		if (!fo.slot[n].open || !fo.ev[n].nr_pages)
			continue;
		check_ring(n);
		ksrc_core_diff_consume(&fo.ev[n]);
	}
	fo_trace("read the rings");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int ops = 0;

	if (size < 1)
		return 0;
	memset(&fo, 0, sizeof(fo));
	fo.trace = fuzz_trace_on();
	fo.pages = 1u << (data[0] & 3);
	fo.p = data + 1;
	fo.end = data + size;
	if (ksrc_core_diff_begin())
		fo_fail("the lockstep pair did not start");
	fo.warn_base = pmusim_warn_count();
	fo_trace("%s; rings of %u pages", ksrc_core_diff_have_kernel() ?
		 "core/ and the kernel's core.c in lockstep" : "core/ alone", fo.pages);

	while (fo.p < fo.end && ops++ < FO_MAX_OPS) {
		u8 c = next_byte(), x = c >> 3;

		switch (c & 7) {
		case 0:
			check_all("open", fo_open(x));
			break;
		case 1:
			fo_mmap(x % FO_EVENTS);
			check_all("mmap", NULL);
			break;
		case 2: {
			u64 n = (next_byte() + 1ULL) * 16 * (x + 1), snap[FO_EVENTS];

			ksrc_core_diff_pmi_snapshot(fo.ev, FO_EVENTS, snap);
			ksrc_core_diff_retire(n);
			fo_trace("retire %llu", (unsigned long long)n);
			check_all("retire", ksrc_core_diff_pmi_order_departure(fo.ev, FO_EVENTS, snap));
			break;
		}
		case 3:
			fo_tick();
			check_all("tick", NULL);
			break;
		case 4:
			check_all("ioctl", fo_ioctl(x));
			break;
		case 5:
			fo_consume();
			check_all("read", NULL);
			break;
		case 6:
			fo_close(x % FO_EVENTS);
			check_all("close", NULL);
			break;
		default:
			ksrc_core_diff_set_clock(ksrc_core_diff_clock() + (x + 1ULL) * 10000);
			break;
		}
	}
	for (int n = FO_EVENTS - 1; n >= 0; n--)
		fo_close(n);
	if (pmusim_warn_count() != fo.warn_base)
		fo_fail("a WARN_ON fired while closing");
	ksrc_core_diff_end();
	fo_trace("ok: %lu departures", fo.departures);
	return 0;
}
