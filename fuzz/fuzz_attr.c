// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event open and control: arbitrary attr bytes and ioctl sequences
 * through the event core's syscall entry points (perf_event_open_attr,
 * perf_ioctl), on model CPUs driven by the x86 driver, with branches
 * retired in between so accepted events count, overflow and write.
 *
 * Oracles: every open returns 0 and an event, or an errno from the
 * syscall's list and no event; a group's read_format block stays within
 * the 16 KiB the kernel allows (perf_event_validate_size), by the ABI's
 * own layout: an open that makes it larger must fail with -E2BIG, and
 * -E2BIG for an attr of the right size means exactly that; every ioctl
 * returns 0 or such an errno;
 * no WARN_ON; the records in every buffer parse (headers 8-aligned and
 * of a known type, samples decoded by tools/perf/util/perf_data_read.c with the
 * attr of the events writing there); nothing crashes, and nothing leaks
 * once every event is closed (LeakSanitizer in the libFuzzer build).
 *
 * Input: byte 0 picks the CPU model; then commands, byte c, c & 7:
 *   0 open, raw:   size byte S, S attr bytes, target byte, flags byte
 *   1 open, patch: from a valid sampling attr, N = byte & 15 patches of
 *                  (offset byte, value byte), then target and flags bytes;
 *                  with bit 7 of c, a count byte K first: 1 + 4 K opens of
 *                  that attr (groups up to the read-size limit and past it)
 *       target: bits 0-1 pid (-1, 0 = current, 101 = the other task,
 *               4242 = none), bits 2-3 cpu (-1, 0, 1, 9), bits 4-7 the
 *               group leader (0: none, else open event n - 1)
 *   2 ioctl: event byte, command byte, 8 argument bytes
 *   3 run: cpu byte, count byte: count * 4 user branches on that CPU
 *   4 close: event byte
 *   5 mmap: event byte, byte: pages 1 << (b & 3), bit 2 writable
 *   6 read: event byte
 *   7 tick (bit 3 clear) or swap the two tasks between the CPUs
 * PMUSIM_FUZZ_TRACE=1 prints each call and its result.
 *
 * With a kernel tree (KSRC, <generated/ksrc.h>) every input first runs on
 * core/ and the kernel's own kernel/events/core.c in lockstep
 * (fa_ksrc_pass(), ksrc/oracle/core_diff.c): every open's errno, every
 * ioctl's return, and after every command each event's ring bytes,
 * count, periods, throttle state and state must be the same, unless the
 * difference is a named departure (counted).
 */
#include <stdarg.h>

#include "core/internal.h"
#include "core/sched.h"
#include "core/task_ctx_data.h"
#include "core/x86/pmu.h"
#include "fuzz/fuzz.h"
#include "model/model.h"
#include "tools/perf/util/perf_data_read.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_CORE
#include "ksrc/oracle/core_diff.h"
#endif

#define FA_CPUS		2
/* a group of every ID, LOST and time field reaches 16 KiB at 682 members */
#define FA_EVENTS	1024
#define FA_READ_SIZE_MAX	(16 * 1024)
#define FA_ATTR_MAX	(1 << 16)	/* what a size field can claim */
#define FA_BUFFERS	32

/*
 * A buffer the harness mapped, with a reference of its own so it stays
 * (and keeps its address) until the end, and the sample format of every
 * event that ever wrote to it: a closed event's records stay behind.
 */
struct fa_rb {
	struct perf_buffer *rb;
	struct perf_event_attr fmt;
	bool mixed;			/* writers with different formats */
	bool backward;
};

static struct {
	const u8 *p, *end;
	struct model_cpu *cpu[FA_CPUS];
	struct pt_regs regs[FA_CPUS];
	struct task_struct tasks[FA_CPUS];
	struct perf_event *ev[FA_EVENTS];
	int nr_ev;
	struct fa_rb rbs[FA_BUFFERS];
	int nr_rbs;
	unsigned long warn_base;
	u64 ip;
	bool trace;
} fa;

/* The attr memory the core reads: as large as any size field claims. */
static u8 uattr[FA_ATTR_MAX];

/* What an open's target byte and an ioctl's command byte pick */
static const int pids[] = { -1, 0, 101, 4242 };
static const int cpus[] = { -1, 0, 1, 9 };
static const unsigned int cmds[] = {
	PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE, PERF_EVENT_IOC_REFRESH,
	PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,
	PERF_EVENT_IOC_SET_FILTER, PERF_EVENT_IOC_ID, PERF_EVENT_IOC_SET_BPF,
	PERF_EVENT_IOC_PAUSE_OUTPUT, PERF_EVENT_IOC_QUERY_BPF,
	PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
};

static unsigned int fa_cmd(u8 c)
{
	return c < 2 * ARRAY_SIZE(cmds) ? cmds[c % ARRAY_SIZE(cmds)] : c;
}

#define fa_fail(...) fuzz_fail("fuzz_attr", __VA_ARGS__)
#define fa_trace(...) fuzz_trace_line(fa.trace, __VA_ARGS__)

static u8 next_byte(void)
{
	return fa.p < fa.end ? *fa.p++ : 0;
}

static u64 next_u64(void)
{
	u64 v = 0;

	for (int i = 0; i < 8; i++)
		v |= (u64)next_byte() << (8 * i);
	return v;
}

static bool is_errno(int err, const int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (err == list[i])
			return true;
	return false;
}

static struct task_struct *fa_find_task(int pid)
{
	for (int i = 0; i < FA_CPUS; i++)
		if (fa.tasks[i].tid == pid)
			return &fa.tasks[i];
	return NULL;
}

static bool same_format(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->sample_type == b->sample_type && a->read_format == b->read_format &&
	       a->branch_sample_type == b->branch_sample_type && a->sample_id_all == b->sample_id_all;
}

/* @ev writes to its buffer from now on: note its format there. */
static void note_writer(struct perf_event *ev)
{
	for (int i = 0; i < fa.nr_rbs; i++) {
		if (fa.rbs[i].rb != ev->rb)
			continue;
		if (!same_format(&fa.rbs[i].fmt, &ev->attr))
			fa.rbs[i].mixed = true;
	}
}

/* ---- open ------------------------------------------------------------------ */

/* The read_format block of a member of an N-event group, from the ABI's layout. */
static u64 read_block_size(u64 read_format, u64 members)
{
	u64 value = 8 + (read_format & PERF_FORMAT_ID ? 8 : 0) +
		    (read_format & PERF_FORMAT_LOST ? 8 : 0);
	u64 size = (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED ? 8 : 0) +
		   (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING ? 8 : 0);

	if (read_format & PERF_FORMAT_GROUP)
		return size + 8 + members * value;
	return size + value;
}

/* The largest read_format block in @leader's group with @extra_format joined (0: none). */
static u64 group_read_size(const struct perf_event *leader, const u64 *extra_format)
{
	u64 members = 1 + (u64)leader->nr_siblings + (extra_format ? 1 : 0);
	u64 max = read_block_size(leader->attr.read_format, members);

	for (int i = 0; i < leader->nr_siblings; i++) {
		u64 n = read_block_size(leader->siblings[i]->attr.read_format, members);

		max = n > max ? n : max;
	}
	if (extra_format && read_block_size(*extra_format, members) > max)
		max = read_block_size(*extra_format, members);
	return max;
}

static void fa_open(const u8 *attr, size_t size, u8 target, u8 flags)
{
	static const int open_errnos[] = {
		-EINVAL, -E2BIG, -EOPNOTSUPP, -EOVERFLOW, -ESRCH, -ENOENT, -ENODEV,
		-EACCES, -EBUSY, -ENOSPC, -EPERM, -EFAULT, -EMFILE,
	};
	struct perf_event *leader = NULL, *ev = NULL;
	int pid = pids[target & 3], cpu = cpus[(target >> 2) & 3];
	int g = target >> 4, err;

	u64 would_be = 0;

	if (pid == 0)
		pid = current ? current->tid : -1;
	if (g && g - 1 < fa.nr_ev)
		leader = fa.ev[g - 1];
	if (fa.nr_ev == FA_EVENTS)
		return;
	memset(uattr, 0, size);
	memcpy(uattr, attr, size);
	if (leader && !(flags & PERF_FLAG_FD_NO_GROUP) && leader->group_leader == leader &&
	    size >= 40) {
		u64 read_format;

		memcpy(&read_format, uattr + 32, 8);
		would_be = group_read_size(leader, &read_format);
	}
	err = perf_event_open_attr(uattr, size, pid, cpu, leader, flags, NULL, &ev);
	fa_trace("open(size %zu, type %u, config %#llx, pid %d, cpu %d, group %d, flags %#x) = %d",
		 size, size >= 4 ? *(u32 *)uattr : 0,
		 size >= 16 ? (unsigned long long)*(u64 *)(uattr + 8) : 0ULL,
		 pid, cpu, leader ? g - 1 : -1, flags, err);
	if (err == 0) {
		if (!ev)
			fa_fail("open returned 0 without an event");
		fa.ev[fa.nr_ev++] = ev;
		if (ev->rb)	/* PERF_FLAG_FD_OUTPUT */
			note_writer(ev);
		if (group_read_size(ev->group_leader, NULL) > FA_READ_SIZE_MAX)
			fa_fail("a group of %d events, whose read_format block is %llu bytes",
				ev->group_leader->nr_siblings + 1,
				(unsigned long long)group_read_size(ev->group_leader, NULL));
		return;
	}
	/* an attr of the size it says: -E2BIG can only be the group's read size */
	if (err == -E2BIG && size == sizeof(struct perf_event_attr) &&
	    !memcmp(uattr + 4, &(u32){ sizeof(struct perf_event_attr) }, 4) &&
	    would_be && would_be <= FA_READ_SIZE_MAX)
		fa_fail("-E2BIG for a group whose read_format block would be %llu bytes",
			(unsigned long long)would_be);
	if (ev)
		fa_fail("open returned %d, but also an event", err);
	if (!is_errno(err, open_errnos, ARRAY_SIZE(open_errnos)))
		fa_fail("open returned %d, not an errno perf_event_open gives", err);
}

/*
 * A sampling event every model has: the patches start from something
 * valid. @lbr: of branches, with a branch stack; else of instructions
 * without one (the ksrc pass's: the model driver has no LBR).
 */
static void fa_base_attr(struct perf_event_attr *a, bool lbr)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = lbr ? PERF_COUNT_HW_BRANCH_INSTRUCTIONS : PERF_COUNT_HW_INSTRUCTIONS;
	a->sample_period = 7;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_PERIOD | (lbr ? PERF_SAMPLE_BRANCH_STACK : 0);
	a->branch_sample_type = lbr ? PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER : 0;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->sample_id_all = 1;
}

/* The patched attr of command 1 into @buf (its copies into *@copies) */
static void fa_patched_attr(bool batch, bool lbr, u8 *buf, unsigned int *copies)
{
	struct perf_event_attr a;
	unsigned int n;

	*copies = batch ? 1 + 4 * next_byte() : 1;
	n = next_byte() & 15;
	fa_base_attr(&a, lbr);
	memcpy(buf, &a, sizeof(a));
	while (n--) {
		u8 off = next_byte();
		u8 val = next_byte();

		buf[off % sizeof(a)] = val;
	}
}

static void fa_open_patched(bool batch)
{
	u8 buf[sizeof(struct perf_event_attr)];
	unsigned int copies;

	fa_patched_attr(batch, true, buf, &copies);
	{
		u8 target = next_byte();
		u8 flags = next_byte();

		while (copies--)
			fa_open(buf, sizeof(buf), target, flags);
	}
}

/* The raw attr of command 0 into @buf (256 bytes); its size */
static size_t fa_raw_attr(u8 *buf)
{
	size_t size = next_byte();

	memset(buf, 0, 256);
	for (size_t i = 0; i < size; i++)
		buf[i] = next_byte();
	return size;
}

static void fa_open_raw(void)
{
	u8 buf[256];
	size_t size = fa_raw_attr(buf);

	{
		u8 target = next_byte();
		u8 flags = next_byte();

		fa_open(buf, size, target, flags);
	}
}

/* ---- control ---------------------------------------------------------------- */

/* Traces name events by slot and buffers by number, never by address: replays must match byte for byte. */
static int ev_slot(const struct perf_event *ev)
{
	for (int i = 0; i < fa.nr_ev; i++)
		if (fa.ev[i] == ev)
			return i;
	return -1;
}

static struct perf_event *pick(u8 b)
{
	return fa.nr_ev ? fa.ev[b % fa.nr_ev] : NULL;
}

static void fa_ioctl(void)
{
	static const int ioctl_errnos[] = { -EINVAL, -EFAULT, -ENOTTY, -EOPNOTSUPP, -EBUSY,
					    -E2BIG, -ENOENT };
	struct perf_event *ev = pick(next_byte());
	u8 c = next_byte();
	u64 argv = next_u64(), value = argv;
	unsigned int cmd = fa_cmd(c);
	unsigned long arg;
	int ret;

	if (!ev)
		return;
	switch (cmd) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
		arg = argv & 1 << 8 ? 0 : (unsigned long)&value;	/* NULL: -EFAULT */
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		arg = (unsigned long)((argv & 0xff) == 0xff ? NULL : pick((u8)argv));
		break;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		/* a struct perf_event_attr with its size, and zeros after it */
		memset(uattr, 0, sizeof(struct perf_event_attr) + 8);
		memcpy(uattr, &ev->attr, sizeof(ev->attr));
		memcpy(uattr + 4, &argv, 4);		/* size */
		memcpy(uattr, (u8 *)&argv + 4, 4);	/* type */
		arg = argv & 1ULL << 63 ? 0 : (unsigned long)uattr;
		break;
	case PERF_EVENT_IOC_REFRESH:
		arg = (unsigned long)(long)(s8)argv;
		break;
	default:
		arg = (unsigned long)argv;
		break;
	}
	ret = perf_ioctl(ev, cmd, arg);
	if (ret == 0 && cmd == PERF_EVENT_IOC_SET_OUTPUT && ev->rb)
		note_writer(ev);
	if (cmd == PERF_EVENT_IOC_SET_OUTPUT)
		fa_trace("ioctl(ev %d, %#x, ev %d) = %d", ev_slot(ev), cmd,
			 arg ? ev_slot((struct perf_event *)arg) : -1, ret);
	else if (cmd == PERF_EVENT_IOC_PERIOD || cmd == PERF_EVENT_IOC_ID ||
		 cmd == PERF_EVENT_IOC_MODIFY_ATTRIBUTES)
		fa_trace("ioctl(ev %d, %#x, %s) = %d", ev_slot(ev), cmd, arg ? "&arg" : "NULL", ret);
	else
		fa_trace("ioctl(ev %d, %#x, %#lx) = %d", ev_slot(ev), cmd, arg, ret);
	if (ret && !is_errno(ret, ioctl_errnos, ARRAY_SIZE(ioctl_errnos)))
		fa_fail("ioctl %#x returned %d", cmd, ret);
	if (ret == 0 && cmd == PERF_EVENT_IOC_ID && value != ev->id)
		fa_fail("PERF_EVENT_IOC_ID gave %llu, the event's id is %llu",
			(unsigned long long)value, (unsigned long long)ev->id);
}

/* User branches on @cpu, of every type, the PMI seeing ip = to. */
static void fa_run(int cpu, unsigned int n)
{
	int saved = pmusim_this_cpu;

	pmusim_this_cpu = cpu;
	for (unsigned int i = 0; i < n; i++) {
		u64 from = 0x400000 + (fa.ip++ % 4096) * 16;
		u64 to = 0x400000 + ((fa.ip * 7919) % 4096) * 16;
		enum model_branch_type type = (enum model_branch_type)(i % MODEL_BR_FAR);

		fa.regs[cpu].ip = to;
		fa.regs[cpu].user = true;
		model_retire_branch(fa.cpu[cpu], from, to, type, true, i % 5 == 0, 1 + i % 3);
	}
	perf_event_irq_work_run();
	pmusim_this_cpu = saved;
	fa_trace("run: %u branches on cpu %d", n, cpu);
}

static void fa_close_slot(int i)
{
	fa_trace("close(ev %d)", i);
	perf_event_release_kernel(fa.ev[i]);
	fa.ev[i] = fa.ev[--fa.nr_ev];
}

static void fa_close(u8 b)
{
	if (fa.nr_ev)
		fa_close_slot(b % fa.nr_ev);
}

static void fa_mmap(u8 b, u8 how)
{
	struct perf_event *ev = pick(b);
	struct perf_buffer *rb;

	if (!ev || ev->rb || fa.nr_rbs == FA_BUFFERS)
		return;
	rb = rb_alloc(1 << (how & 3), ev->attr.watermark ? ev->attr.wakeup_watermark : 0,
		      ev->cpu, how & 4 ? RING_BUFFER_WRITABLE : 0);
	if (!rb)
		fa_fail("rb_alloc(%d) failed", 1 << (how & 3));
	ring_buffer_attach(ev, rb);
	fa.rbs[fa.nr_rbs++] = (struct fa_rb){
		.rb = ring_buffer_get(ev), .fmt = ev->attr, .backward = is_write_backward(ev),
	};
	fa_trace("mmap(ev %d, %d pages, %s)", ev_slot(ev), 1 << (how & 3),
		 how & 4 ? "writable" : "overwrite");
}

/* The two tasks trade CPUs, through the driver's and the core's hooks. */
static void fa_swap(void)
{
	struct task_struct *t0 = pmusim_curr[0], *t1 = pmusim_curr[1];
	int saved = pmusim_this_cpu;

	for (int cpu = 0; cpu < FA_CPUS; cpu++) {
		struct task_struct *prev = pmusim_curr[cpu];

		pmusim_this_cpu = cpu;
		x86_pmu_sched_out(prev);
		perf_event_sched_out(cpu, prev);
		pmusim_curr[cpu] = NULL;
	}
	pmusim_curr[0] = t1;
	pmusim_curr[1] = t0;
	for (int cpu = 0; cpu < FA_CPUS; cpu++) {
		pmusim_this_cpu = cpu;
		perf_event_sched_in(cpu, pmusim_curr[cpu]);
		x86_pmu_sched_in(pmusim_curr[cpu]);
	}
	pmusim_this_cpu = saved;
	fa_trace("swap tasks");
}

/* ---- the records -------------------------------------------------------------- */

static void check_record(const struct perf_event_attr *attr, const u8 *rec, u64 pos)
{
	struct perf_event_header h;
	struct perf_sample s;
	const char *why;

	memcpy(&h, rec, sizeof(h));
	if (h.type == 0 || h.type >= PERF_RECORD_MAX)
		fa_fail("record at %#llx: type %u", (unsigned long long)pos, h.type);
	if (h.type == PERF_RECORD_SAMPLE && attr &&
	    perf_sample__parse(attr, rec, h.size, &s, &why))
		fa_fail("sample at %#llx (%u bytes, sample_type %#llx) does not parse: %s",
			(unsigned long long)pos, h.size, (unsigned long long)attr->sample_type, why);
}

/*
 * The records a reader can trust: a writable forward buffer from its
 * tail (0: nothing was consumed) to data_head; an overwrite one only
 * while it has not wrapped; a backward one from data_head up.
 */
static void check_rb(const struct fa_rb *b)
{
	static u8 rec[1 << 16];
	struct perf_event_mmap_page *pg = b->rb->user_page;
	const u8 *data = (const u8 *)pg + pg->data_offset;
	const struct perf_event_attr *attr = b->mixed ? NULL : &b->fmt;
	u64 size = pg->data_size, head = READ_ONCE(pg->data_head);
	bool backward = b->backward;	/* SET_OUTPUT keeps one direction per buffer */
	u64 pos, end;
	unsigned long n = 0;

	pos = backward ? head : 0;
	end = backward ? 0 : head;
	if (!size || (backward ? -head : head) > size)
		return;		/* wrapped: the oldest record may be torn */
	while (pos != end) {
		struct perf_event_header h;

		memcpy(&h, data + (pos & (size - 1)), sizeof(h));
		if (h.size < sizeof(h) || h.size & 7 || h.size > end - pos)
			fa_fail("record at %#llx: size %u (%#llx bytes left)", (unsigned long long)pos,
				h.size, (unsigned long long)(end - pos));
		for (u32 i = 0; i < h.size; i++)
			rec[i] = data[(pos + i) & (size - 1)];
		check_record(attr, rec, pos);
		pos += h.size;
		n++;
	}
	fa_trace("buffer %ld: %lu records parse", (long)(b - fa.rbs), n);
}

#ifdef KSRC_UNIT_CORE
/* ---- the ksrc pass: core/ against the kernel's core.c ---------------------------- */

/* The model driver's general-purpose counters: more events would be scheduled differently */
#define FK_EVENTS	4

static struct {
	struct ksrc_core_diff_event ev[FK_EVENTS];
	int nr_ev;
	unsigned long opens, compared, departures, skipped;
	/* the last command may show no-resched; once it did, the input is not compared further */
	bool exposed, diverged;
} fk;

#define fk_fail(...) fa_fail("ksrc: " __VA_ARGS__)

static void fk_check(const char *after)
{
	char why[256];

	if (pmusim_warn_count() != fa.warn_base)
		fk_fail("after %s: a WARN_ON fired", after);
	for (int i = 0; i < fk.nr_ev && !fk.diverged; i++) {
		int r = ksrc_core_diff_compare(&fk.ev[i], why, sizeof(why));

		if (r == KSRC_CORE_DIFF_DIFFER && !fk.exposed)
			fk_fail("after %s: event %d: %s", after, i, why);
		fk.diverged = r == KSRC_CORE_DIFF_DIFFER;
		fk.departures += r != KSRC_CORE_DIFF_SAME;
	}
	fk.exposed = false;
}

static void fk_close_slot(int i)
{
	ksrc_core_diff_unmap(&fk.ev[i], fk.ev, fk.nr_ev);
	ksrc_core_diff_close(&fk.ev[i]);
	fk.ev[i] = fk.ev[--fk.nr_ev];
}

static struct ksrc_core_diff_event *fk_pick(u8 b)
{
	return fk.nr_ev ? &fk.ev[b % fk.nr_ev] : NULL;
}

/* One open on both: the same errno, or both an event, or a named departure */
static void fk_open(const u8 *attr, size_t size, u8 target, u8 flags)
{
	const struct ksrc_core_diff_event *leader = NULL;
	struct ksrc_core_diff_event e;
	int cpu = cpus[(target >> 2) & 3], g = target >> 4, ec, r;
	char why[256];

	if (pids[target & 3] != -1 || fk.nr_ev == FK_EVENTS) {
		/* per task: the shim has one task; a fifth counter the model driver has not */
		fk.skipped++;
		return;
	}
	if (g && g - 1 < fk.nr_ev)
		leader = &fk.ev[g - 1];
	if (ksrc_core_diff_resched_departure(fk.ev, fk.nr_ev, attr, size))
		fk.exposed = true;
	r = ksrc_core_diff_open_compare(attr, size, cpu, leader, flags, &ec, &e, why, sizeof(why));
	fk.opens++;
	fa_trace("ksrc: open(size %zu, cpu %d, group %d, flags %#x) = %d%s%s", size, cpu,
		 leader ? g - 1 : -1, flags, ec, r ? ": " : "", r ? why : "");
	if (r == KSRC_CORE_DIFF_DIFFER && !fk.diverged)
		fk_fail("open (size %zu, type %u, cpu %d, flags %#x): %s", size,
			size >= 4 ? *(const u32 *)attr : 0, cpu, flags, why);
	fk.departures += r == KSRC_CORE_DIFF_DEPARTED;
	fk.compared += r == KSRC_CORE_DIFF_SAME;
	if (r != KSRC_CORE_DIFF_SAME || ec)
		return;
	fk.ev[fk.nr_ev++] = e;
}

static void fk_ioctl(void)
{
	struct ksrc_core_diff_event *e = fk_pick(next_byte()), *target = NULL;
	unsigned int cmd = fa_cmd(next_byte());
	u64 argv = next_u64(), arg = argv;
	long rc, rk;

	if (!e)
		return;
	switch (cmd) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
		if (argv & 1 << 8) {
			fk.skipped++;	/* a NULL argument: not compared */
			return;
		}
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		target = (argv & 0xff) == 0xff ? NULL : fk_pick((u8)argv);
		break;
	case PERF_EVENT_IOC_REFRESH:
		arg = (u64)(long)(s8)argv;
		break;
	case PERF_EVENT_IOC_SET_FILTER:
	case PERF_EVENT_IOC_SET_BPF:
	case PERF_EVENT_IOC_QUERY_BPF:
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		/* filters, BPF and attr changes reach what the shim leaves out */
		fk.skipped++;
		return;
	}
	if ((cmd == PERF_EVENT_IOC_ENABLE || cmd == PERF_EVENT_IOC_REFRESH) &&
	    ksrc_core_diff_resched_departure(fk.ev, fk.nr_ev, NULL, 0))
		fk.exposed = true;
	ksrc_core_diff_ioctl(e, cmd, arg, target, &rc, &rk);
	fa_trace("ksrc: ioctl(%#x, %#llx) = %ld, the kernel's %ld", cmd, (unsigned long long)arg, rc, rk);
	if (rc != rk && (fk.exposed || fk.diverged)) {
		fk.departures += !fk.diverged;
		fk.diverged = true;
	} else if (rc != rk)
		fk_fail("ioctl %#x (arg %#llx): core/ %ld, the kernel's %ld", cmd,
			(unsigned long long)arg, rc, rk);
	if (!rc && cmd == PERF_EVENT_IOC_SET_OUTPUT && target)
		target->shared = true;
}

static void fk_mmap(void)
{
	struct ksrc_core_diff_event *e = fk_pick(next_byte());
	u8 how = next_byte();
	int ec, ek;

	if (!e || e->nr_pages || e->ev->rb)
		return;
	if (!(how & 4)) {
		fk.skipped++;	/* overwrite mode: the bridge maps read-write */
		return;
	}
	ksrc_core_diff_mmap(e, 1u << (how & 3), &ec, &ek);
	if (ec != ek && !fk.diverged)
		fk_fail("mmap of %u pages: core/ %d, the kernel's %d", 1u << (how & 3), ec, ek);
}

/*
 * The input's commands again, on core/ and the kernel's core.c in
 * lockstep (ksrc/oracle/core_diff.c): CPU-wide events on CPU 0 of a
 * Skylake, at most FK_EVENTS at once. What the pair cannot run is left
 * out and counted: per-task events and the task swap (the shim has one
 * task and no scheduler), runs on CPU 1, overwrite mappings, the filter,
 * BPF and MODIFY_ATTRIBUTES ioctls. The patched opens start from the base
 * attr without a branch stack, of instructions (the model driver has no
 * LBR and maps cycles and instructions only).
 */
static void fa_ksrc_pass(const uint8_t *data, size_t size)
{
	u8 buf[256];

	memset(&fk, 0, sizeof(fk));
	fa.p = data + 1;
	fa.end = data + size;
	if (ksrc_core_diff_begin())
		fk_fail("the lockstep pair did not start");
	fa.warn_base = pmusim_warn_count();
	while (fa.p < fa.end) {
		u8 c = next_byte();

		switch (c & 7) {
		case 0: {
			size_t n = fa_raw_attr(buf);
			u8 target = next_byte();

			fk_open(buf, n, target, next_byte());
			break;
		}
		case 1: {
			unsigned int copies;
			u8 target, flags;

			fa_patched_attr(c & 0x80, false, buf, &copies);
			target = next_byte();
			flags = next_byte();
			/* a batch grows a group: the pair takes four */
			for (unsigned int i = 0; i < copies && i < FK_EVENTS; i++)
				fk_open(buf, sizeof(struct perf_event_attr), target, flags);
			break;
		}
		case 2:
			fk_ioctl();
			break;
		case 3: {
			u8 cpu = next_byte(), n = next_byte();

			if (cpu % FA_CPUS == 0) {
				u64 snap[FK_EVENTS];

				ksrc_core_diff_pmi_snapshot(fk.ev, fk.nr_ev, snap);
				ksrc_core_diff_retire(4u * n);
				fk.exposed = ksrc_core_diff_pmi_order_departure(fk.ev, fk.nr_ev, snap);
				fa_trace("ksrc: run %u%s", 4u * n, fk.exposed ? " (PMIs of two events)" : "");
			} else
				fk.skipped++;
			break;
		}
		case 4: {
			u8 b = next_byte();

			if (fk.nr_ev)
				fk_close_slot(b % fk.nr_ev);
			break;
		}
		case 5:
			fk_mmap();
			break;
		case 6:
			next_byte();	/* the comparison after every command reads them all */
			break;
		case 7:
			if (c & 8) {
				fk.skipped++;
			} else {
				ksrc_core_diff_set_clock(ksrc_core_diff_clock() + TICK_NSEC);
				ksrc_core_diff_tick();
			}
			break;
		}
		fk_check("a command");
	}
	while (fk.nr_ev)
		fk_close_slot(fk.nr_ev - 1);
	if (pmusim_warn_count() != fa.warn_base)
		fk_fail("a WARN_ON fired while closing");
	ksrc_core_diff_end();
	fa_trace("ksrc: %lu opens, %lu compared, %lu departures, %lu commands left out", fk.opens,
		 fk.compared, fk.departures, fk.skipped);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct model_cpu_desc *table;
	unsigned int nr_models;
	int err = 0;

	if (size < 1)
		return 0;
	memset(&fa, 0, sizeof(fa));
	fa.trace = fuzz_trace_on();
#ifdef KSRC_UNIT_CORE
	/* the kernel's own core.c in lockstep with core/ (ksrc/oracle/core_diff.c) */
	fa_ksrc_pass(data, size);
#endif
	fa.p = data + 1;
	fa.end = data + size;
	table = model_cpu_desc_table(&nr_models);

	pmusim_this_cpu = 0;
	for (int i = 0; i < FA_CPUS; i++) {
		fa.tasks[i].pid = fa.tasks[i].tid = 100 + i;
		snprintf(fa.tasks[i].comm, sizeof(fa.tasks[i].comm), "fuzz%d", i);
		pmusim_curr[i] = &fa.tasks[i];
		fa.cpu[i] = model_cpu_create(&table[data[0] % nr_models], i);
		if (!fa.cpu[i])
			fa_fail("model_cpu_create");
		if (!err)
			err = x86_pmu_attach_cpu(i, fa.cpu[i]);
		x86_pmu_set_irq_regs(i, &fa.regs[i]);
	}
	perf_find_task_by_vpid = fa_find_task;
	fa.warn_base = pmusim_warn_count();
	fa_trace("model %s: attach %d", table[data[0] % nr_models].name, err);

	while (!err && fa.p < fa.end) {
		u8 c = next_byte();

		switch (c & 7) {
		case 0:
			fa_open_raw();
			break;
		case 1:
			fa_open_patched(c & 0x80);
			break;
		case 2:
			fa_ioctl();
			break;
		case 3: {
			u8 cpu = next_byte();

			fa_run(cpu % FA_CPUS, 4u * next_byte());
			break;
		}
		case 4:
			fa_close(next_byte());
			break;
		case 5: {
			u8 b = next_byte();

			fa_mmap(b, next_byte());
			break;
		}
		case 6: {
			struct perf_event *ev = pick(next_byte());
			u64 enabled, running;

			if (ev) {
				perf_event_read_value(ev, &enabled, &running);
				if (running > enabled)
					fa_fail("read: running %llu > enabled %llu",
						(unsigned long long)running,
						(unsigned long long)enabled);
			}
			break;
		}
		case 7:
			if (c & 8) {
				fa_swap();
			} else {
				pmusim_this_cpu = (c >> 4) & 1;
				perf_event_task_tick();
				pmusim_this_cpu = 0;
			}
			break;
		}
		if (pmusim_warn_count() != fa.warn_base)
			fa_fail("a WARN_ON fired");
	}

	for (int i = 0; i < fa.nr_rbs; i++)
		check_rb(&fa.rbs[i]);
	while (fa.nr_ev)
		fa_close_slot(fa.nr_ev - 1);
	if (pmusim_warn_count() != fa.warn_base)
		fa_fail("a WARN_ON fired while closing");
	for (int i = 0; i < fa.nr_rbs; i++)
		ring_buffer_put(fa.rbs[i].rb);
	/* the tasks exit: their per-task PMU data goes with them */
	for (int i = 0; i < FA_CPUS; i++)
		perf_ctx_data_exit(&fa.tasks[i]);
	for (int i = 0; i < FA_CPUS; i++) {
		x86_pmu_attach_cpu(i, NULL);
		model_cpu_destroy(fa.cpu[i]);
		pmusim_curr[i] = NULL;
	}
	x86_branch_text_reset();
	perf_find_task_by_vpid = NULL;
	pmusim_this_cpu = 0;
	return 0;
}
