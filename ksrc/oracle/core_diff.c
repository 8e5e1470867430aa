// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lockstep driver of the event core's differential checks
 * (interface and contract: core_diff.h). core/ runs through its x86
 * driver on one model CPU, the kernel's core.c through the model driver
 * on another of the same model; every call here does the same thing to
 * both and leaves the comparing to ksrc_core_diff_compare(). A build
 * without the core unit (no tree) has core/'s half only: the kernel's
 * calls are left out, its results are core/'s and nothing differs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/sched.h"
#include "core/x86/msr.h"
#include "core/x86/pmu.h"
#include "ksrc/oracle/core_diff.h"
#include "model/model.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_CORE
#include "ksrc/core_ksrc.h"
#endif

#define CD_PAGE		4096
#define CD_MAX_PAGES	16
/* what both sides' attr memory holds: the largest size perf_copy_attr() reads */
#define CD_ATTR_MEM	(2 * CD_PAGE)

static struct {
	struct model_cpu *cpu_core, *cpu_ksrc;
	bool booted;
	u64 now_ns;
	/* core/'s hooks as begin found them */
	struct model_cpu *saved_cpu0;
	u64 (*saved_clock)(void);
	struct task_struct *saved_curr;
	struct task_struct *(*saved_find)(int pid);
	int saved_this_cpu;
} cd;

static struct pt_regs cd_regs = { .user = true };
/* core/'s running task, as the shim's (ksrc/kernel/events/core_shim.c): pid 1, tid 1 */
static struct task_struct cd_task = { .pid = 1, .tid = 1, .comm = "ksrc" };
/* each side's attr memory, zero past what the caller gave */
static u8 cd_attr_core[CD_ATTR_MEM], cd_attr_ksrc[CD_ATTR_MEM];

static u64 cd_clock(void)
{
	return cd.now_ns;
}

bool ksrc_core_diff_have_kernel(void)
{
#ifdef KSRC_UNIT_CORE
	return true;
#else
	return false;
#endif
}

void ksrc_core_diff_set_clock(uint64_t ns)
{
	cd.now_ns = ns;
#ifdef KSRC_UNIT_CORE
	ksrc_core_set_clock(ns);
#endif
}

uint64_t ksrc_core_diff_clock(void)
{
	return cd.now_ns;
}

uint64_t ksrc_core_diff_nr_pmis(void)
{
	return ksrc_core_diff_have_kernel() && cd.cpu_ksrc ? model_cpu_nr_pmis(cd.cpu_ksrc) : 0;
}

int ksrc_core_diff_begin(void)
{
	const struct model_cpu_desc *d = model_cpu_desc_lookup("skylake");
	int err;

	if (!cd.cpu_core) {
		cd.cpu_core = model_cpu_create(d, 0);
		cd.cpu_ksrc = model_cpu_create(d, 0);
		if (!cd.cpu_core || !cd.cpu_ksrc)
			return -ENOMEM;
	}
	cd.saved_cpu0 = x86_model_cpus[0];
	cd.saved_clock = pmusim_clock_ns;
	cd.saved_curr = pmusim_curr[0];
	cd.saved_find = perf_find_task_by_vpid;
	cd.saved_this_cpu = pmusim_this_cpu;
	err = x86_pmu_attach_cpu(0, cd.cpu_core);
	if (err)
		return err;
	x86_pmu_set_irq_regs(0, &cd_regs);
	pmusim_clock_ns = cd_clock;
	pmusim_curr[0] = &cd_task;
	perf_find_task_by_vpid = NULL;
	pmusim_this_cpu = 0;
	if (cd.booted) {
		/* a clock that only moves on: the kernel's contexts keep their times */
		ksrc_core_diff_set_clock(cd.now_ns + NSEC_PER_SEC);
		return 0;
	}
	ksrc_core_diff_set_clock(1000000);
#ifdef KSRC_UNIT_CORE
	err = ksrc_core_boot(cd.cpu_ksrc);
	if (err)
		return err;
#endif
	cd.booted = true;
	return 0;
}

void ksrc_core_diff_end(void)
{
	x86_pmu_attach_cpu(0, cd.saved_cpu0);
	pmusim_clock_ns = cd.saved_clock;
	pmusim_curr[0] = cd.saved_curr;
	perf_find_task_by_vpid = cd.saved_find;
	pmusim_this_cpu = cd.saved_this_cpu;
}

/* ---- open, map, close -------------------------------------------------------- */

#ifdef KSRC_UNIT_CORE
/* The attr of the probes that read the next id: a disabled counting event */
static void cd_probe_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = PERF_ATTR_SIZE_VER5;
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_INSTRUCTIONS;
	a->disabled = 1;
}

/* One id taken on core/'s side: the probe's own. */
static int cd_take_id_core(u64 *id)
{
	struct perf_event_attr a;
	struct perf_event *ev;
	int err;

	cd_probe_attr(&a);
	err = perf_event_open_attr(&a, a.size, -1, 0, NULL, 0, NULL, &ev);
	if (err)
		return err;
	*id = ev->id;
	perf_event_release_kernel(ev);
	return 0;
}

/* One id taken on the kernel's side (PERF_EVENT_IOC_ID of the probe). */
static int cd_take_id_ksrc(u64 *id)
{
	struct perf_event_attr a;
	int fd, err;

	cd_probe_attr(&a);
	fd = ksrc_core_perf_event_open(&a, -1, 0, -1, 0);
	if (fd < 0)
		return fd;
	err = (int)ksrc_core_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)id);
	ksrc_core_close(fd);
	return err;
}

#endif

int ksrc_core_diff_sync_ids(void)
{
#ifdef KSRC_UNIT_CORE
	u64 ic, ik;

	if (cd_take_id_core(&ic) || cd_take_id_ksrc(&ik))
		return -1;
	if (ic + 65536 < ik || ik + 65536 < ic)
		return -1;
	while (ic < ik)
		if (cd_take_id_core(&ic))
			return -1;
	while (ik < ic)
		if (cd_take_id_ksrc(&ik))
			return -1;
#endif
	return 0;
}

void ksrc_core_diff_open(const void *uattr, size_t size, int cpu,
			 const struct ksrc_core_diff_event *leader, unsigned long flags,
			 int *err_core, int *err_ksrc, struct ksrc_core_diff_event *e)
{
	ksrc_core_diff_open_on(uattr, size, -1, cpu, NULL, leader, flags, err_core, err_ksrc, e);
}

void ksrc_core_diff_open_on(const void *uattr, size_t size, int pid, int cpu, struct pmu *core_pmu,
			    const struct ksrc_core_diff_event *leader, unsigned long flags,
			    int *err_core, int *err_ksrc, struct ksrc_core_diff_event *e)
{
	u32 asize = 0;

	if (size > CD_ATTR_MEM)
		size = CD_ATTR_MEM;
	memset(cd_attr_core, 0, sizeof(cd_attr_core));
	memcpy(cd_attr_core, uattr, size);
	memcpy(cd_attr_ksrc, cd_attr_core, sizeof(cd_attr_ksrc));
	/* the syscall reads attr.size from the attr; core/'s entry takes it as an argument */
	memcpy(&asize, cd_attr_core + 4, sizeof(asize));
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	*err_core = perf_event_open_attr(cd_attr_core, asize, pid, cpu, leader ? leader->ev : NULL,
					 flags, core_pmu, &e->ev);
	if (*err_core)
		e->ev = NULL;
#ifdef KSRC_UNIT_CORE
	e->fd = ksrc_core_perf_event_open(cd_attr_ksrc, pid, cpu, leader ? leader->fd : -1, flags);
	*err_ksrc = e->fd < 0 ? e->fd : 0;
	if (e->fd < 0)
		e->fd = -1;
#else
	*err_ksrc = *err_core;
#endif
}

void ksrc_core_diff_mmap(struct ksrc_core_diff_event *e, unsigned int nr_pages,
			 int *err_core, int *err_ksrc)
{
	ksrc_core_diff_mmap_prot(e, nr_pages, true, err_core, err_ksrc);
}

void ksrc_core_diff_mmap_prot(struct ksrc_core_diff_event *e, unsigned int nr_pages, bool writable,
			      int *err_core, int *err_ksrc)
{
	struct perf_event *ev = e->ev;

	*err_core = *err_ksrc = -EBADF;
	if (nr_pages > CD_MAX_PAGES)
		nr_pages = CD_MAX_PAGES;
	if (ev) {
		/* perf_mmap()'s refusals that matter here: a buffer already, one set by SET_OUTPUT */
		if (ev->rb) {
			*err_core = -EINVAL;
		} else {
			e->rb = rb_alloc((int)nr_pages,
					 ev->attr.watermark ? (long)ev->attr.wakeup_watermark : 0,
					 ev->cpu, writable ? RING_BUFFER_WRITABLE : 0);
			*err_core = e->rb ? 0 : -ENOMEM;
		}
		if (e->rb) {
			/* core/'s perf_mmap(), as sim/run.c has it */
			refcount_inc(&e->rb->refcount);
			ring_buffer_attach(ev, e->rb);
			perf_event_init_userpage(ev);
			perf_event_update_userpage(ev);
		}
	}
#ifdef KSRC_UNIT_CORE
	if (e->fd >= 0)
		*err_ksrc = ksrc_core_mmap_prot(e->fd, nr_pages, writable);
#else
	*err_ksrc = *err_core;
#endif
	if (!*err_core && !*err_ksrc)
		e->nr_pages = nr_pages;
}

void ksrc_core_diff_close(struct ksrc_core_diff_event *e)
{
	if (e->ev)
		perf_event_release_kernel(e->ev);
#ifdef KSRC_UNIT_CORE
	if (e->fd >= 0)
		ksrc_core_close(e->fd);
#endif
	if (e->rb)
		ring_buffer_put(e->rb);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

/* ---- what runs ---------------------------------------------------------------- */

void ksrc_core_diff_ioctl(const struct ksrc_core_diff_event *e, unsigned int cmd, uint64_t arg,
			  const struct ksrc_core_diff_event *target, long *ret_core, long *ret_ksrc)
{
	u64 vc = arg, vk = arg;
	unsigned long ac, ak;

	switch (cmd) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
		ac = (unsigned long)&vc;
		ak = (unsigned long)&vk;
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		ac = (unsigned long)(target ? target->ev : NULL);
		ak = (unsigned long)(long)(target ? target->fd : -1);
		break;
	default:
		ac = ak = (unsigned long)arg;
		break;
	}
	*ret_core = e->ev ? perf_ioctl(e->ev, cmd, ac) : -EBADF;
	perf_event_irq_work_run();
#ifdef KSRC_UNIT_CORE
	*ret_ksrc = e->fd >= 0 ? ksrc_core_ioctl(e->fd, cmd, ak) : -EBADF;
	ksrc_irq_work_run();
#else
	(void)ak;
	*ret_ksrc = *ret_core;
#endif
}

void ksrc_core_diff_retire(uint64_t insns)
{
	model_retire_insns(cd.cpu_core, insns, insns, true);
	perf_event_irq_work_run();
	if (ksrc_core_diff_have_kernel())
		model_retire_insns(cd.cpu_ksrc, insns, insns, true);
}

void ksrc_core_diff_set_user_stack(const uint64_t *ips, unsigned int nr)
{
	cd_regs.callers = ips;
	cd_regs.nr_callers = nr;
#ifdef KSRC_UNIT_CORE
	ksrc_core_set_user_stack(ips, nr);
#endif
}

void ksrc_core_diff_tick(void)
{
	perf_event_task_tick();
	perf_event_irq_work_run();
#ifdef KSRC_UNIT_CORE
	ksrc_core_tick();
#endif
}

void ksrc_core_diff_consume(const struct ksrc_core_diff_event *e)
{
	if (e->rb) {
		struct perf_event_mmap_page *pg = e->rb->user_page;

		WRITE_ONCE(pg->data_tail, READ_ONCE(pg->data_head));
	}
#ifdef KSRC_UNIT_CORE
	if (e->fd >= 0 && e->nr_pages)
		ksrc_core_rb_consume(e->fd);
#endif
}

/* One line in @why; 1 (KSRC_CORE_DIFF_DIFFER) */
static int cd_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int cd_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return 1;
}

/* ---- comparing ---------------------------------------------------------------- */

#ifdef KSRC_UNIT_CORE
/* core/'s data pages as user space sees them, in order. */
static void cd_core_data(const struct perf_buffer *rb, u8 *dst, size_t size)
{
	for (size_t off = 0; off < size; off++) {
#ifdef CONFIG_PERF_USE_VMALLOC
		dst[off] = ((const u8 *)rb->data_pages[0])[off];
#else
		dst[off] = ((const u8 *)rb->data_pages[off / CD_PAGE])[off % CD_PAGE];
#endif
	}
}

static void cd_dump(const u8 *dc, const u8 *dk, u64 head, u64 size)
{
	for (u64 off = 0; off < head && off < size; ) {
		const struct perf_event_header *h1 = (const void *)(dc + off);
		const struct perf_event_header *h2 = (const void *)(dk + off);

		fprintf(stderr, "# %llu: core/ type %u size %u, kernel type %u size %u;",
		       (unsigned long long)off, h1->type, h1->size, h2->type, h2->size);
		for (unsigned int w = 1; w < h1->size / 8u && off + 8 * w < size; w++)
			fprintf(stderr, " %llx/%llx", (unsigned long long)((const u64 *)h1)[w],
			       (unsigned long long)((const u64 *)h2)[w]);
		fputc('\n', stderr);
		if (!h1->size)
			break;
		off += h1->size;
	}
}


/* The records of a ring's linear copy @lin from 0 to @len, each as its start; their number or -1 */
static int cd_records(const u8 *lin, size_t len, const u8 **rec, int max)
{
	int n = 0;

	for (size_t off = 0; off < len; n++) {
		const struct perf_event_header *h = (const void *)(lin + off);

		if (n == max || h->size < sizeof(*h) || h->size > len - off)
			return -1;
		rec[n] = lin + off;
		off += h->size;
	}
	return n;
}

static int cd_record_cmp(const void *a, const void *b)
{
	const u8 *ra = *(const u8 *const *)a, *rb = *(const u8 *const *)b;
	const struct perf_event_header *ha = (const void *)ra, *hb = (const void *)rb;

	if (ha->size != hb->size)
		return ha->size < hb->size ? -1 : 1;
	return memcmp(ra, rb, ha->size);
}

/*
 * Whether the two rings (data areas of @size bytes) hold the same records
 * from @tail to @head, in any order: what several events writing to one
 * ring leave when the two drivers handle the events of one PMI in
 * another order (core/'s x86 driver has cycles and instructions on fixed
 * counters, after the general-purpose ones; the model driver has only
 * general-purpose counters).
 */
static bool cd_same_records(const u8 *dc, const u8 *dk, size_t size, u64 tail, u64 head)
{
	static u8 lc[CD_MAX_PAGES * CD_PAGE], lk[CD_MAX_PAGES * CD_PAGE];
	static const u8 *rc[CD_MAX_PAGES * CD_PAGE / 8], *rk[CD_MAX_PAGES * CD_PAGE / 8];
	/* a backward ring's records run from data_head up to 0 */
	u64 from = (s64)head < 0 ? head : tail;
	size_t len = (s64)head < 0 ? -head : head - tail;
	int nc, nk;

	if (((s64)head >= 0 && head < tail) || len > size)
		return false;
	for (size_t i = 0; i < len; i++) {
		lc[i] = dc[(from + i) & (size - 1)];
		lk[i] = dk[(from + i) & (size - 1)];
	}
	nc = cd_records(lc, len, rc, (int)ARRAY_SIZE(rc));
	nk = cd_records(lk, len, rk, (int)ARRAY_SIZE(rk));
	if (nc < 0 || nc != nk)
		return false;
	qsort(rc, (size_t)nc, sizeof(rc[0]), cd_record_cmp);
	qsort(rk, (size_t)nk, sizeof(rk[0]), cd_record_cmp);
	for (int i = 0; i < nc; i++)
		if (cd_record_cmp(&rc[i], &rk[i]))
			return false;
	return true;
}

static int cd_compare_ring(const struct ksrc_core_diff_event *e, char *why, size_t len)
{
	static u8 dc[CD_MAX_PAGES * CD_PAGE], bk[(CD_MAX_PAGES + 1) * CD_PAGE];
	const struct perf_event_mmap_page *upk = (const void *)bk;
	const struct perf_event_mmap_page *upc = e->rb->user_page;
	size_t size = (size_t)e->nr_pages * CD_PAGE;
	const u8 *dk = bk + CD_PAGE;

	if (ksrc_core_rb_copy(e->fd, bk, size + CD_PAGE) != size + CD_PAGE)
		return cd_why(why, len, "the kernel's ring is not mapped whole");
	cd_core_data(e->rb, dc, size);
	if (getenv("KSRC_CORE_DIFF_DUMP"))
		cd_dump(dc, dk, upc->data_head, size);
	if (upc->data_head != upk->data_head)
		return cd_why(why, len, "data_head: core/ %llu, the kernel's %llu",
			      (unsigned long long)upc->data_head, (unsigned long long)upk->data_head);
	if (upc->data_tail != upk->data_tail)
		return cd_why(why, len, "data_tail: core/ %llu, the kernel's %llu",
			      (unsigned long long)upc->data_tail, (unsigned long long)upk->data_tail);
	for (size_t i = 0; i < size; i++) {
		if (dc[i] == dk[i])
			continue;
		if (e->shared && cd_same_records(dc, dk, size, upc->data_tail, upc->data_head))
			return cd_why(why, len, "pmi-counter-order: the same records from data_tail "
				      "to data_head, in another order (byte %zu)", i) + 1;
		return cd_why(why, len, "ring-buffer byte %zu (data_head %llu): core/ %#x, "
			      "the kernel's %#x", i, (unsigned long long)upc->data_head,
			      dc[i], dk[i]);
	}
	return 0;
}

#endif

int ksrc_core_diff_compare(const struct ksrc_core_diff_event *e, char *why, size_t why_len)
{
#ifdef KSRC_UNIT_CORE
	struct ksrc_core_state st;
	struct perf_event *ev = e->ev;

	if (!ev || e->fd < 0)
		return cd_why(why, why_len, "an event on one side only (core/ %s, the kernel's %s)",
			      ev ? "open" : "none", e->fd >= 0 ? "open" : "none");
	int ring = e->nr_pages && e->rb ? cd_compare_ring(e, why, why_len) : 0;

	if (ring == KSRC_CORE_DIFF_DIFFER)
		return ring;
	if (ksrc_core_event_state(e->fd, &st))
		return cd_why(why, why_len, "the kernel's fd %d has no event", e->fd);
	/* the kernel's bridge folds the counter in for an active event; so here */
	if (ev->state == PERF_EVENT_STATE_ACTIVE)
		ev->pmu->read(ev);
#define CD_SAME(what, c, k) do {							\
	if ((u64)(c) != (u64)(k))							\
		return cd_why(why, why_len, "%s: core/ %lld, the kernel's %lld", what,	\
			      (long long)(c), (long long)(k));				\
} while (0)
	CD_SAME("count", local64_read(&ev->count), st.count);
	CD_SAME("sample_period", ev->hw.sample_period, st.sample_period);
	CD_SAME("last_period", ev->hw.last_period, st.last_period);
	CD_SAME("period_left", local64_read(&ev->hw.period_left), st.period_left);
	CD_SAME("hw.interrupts", ev->hw.interrupts, st.interrupts);
	CD_SAME("state", ev->state, st.state);
	CD_SAME("lost_samples", atomic64_read(&ev->lost_samples), st.lost_samples);
#undef CD_SAME
	return ring;
#else
	(void)e;
	(void)why;
	(void)why_len;
#endif
	return 0;
}

/* ---- departures ---------------------------------------------------------------- */

/*
 * The model driver has no LBR: the kernel's core.c then writes a branch
 * stack sample as "nr = 0" (perf_prepare_sample(), no driver stack), where
 * core/'s x86 driver saves the model's LBR as intel_pmu_handle_irq() does
 * (hw_idx, entries). Both sides still check the attr alike (an errno
 * from perf_copy_attr() is compared); an event either side opened is not.
 * The tree's lbr.c is compared with core/'s in lbr_diff.c.
 */
#define CD_NO_LBR "model-driver-no-lbr: the model driver has no LBR (the kernel's core.c " \
		  "writes nr = 0 and no hw_idx); core/'s x86 driver samples the model's LBR"

const char *ksrc_core_diff_open_departure(const void *uattr, size_t size, int cpu,
					  unsigned long flags, int err_core, int err_ksrc)
{
	struct perf_event_attr a;

	(void)flags;
	memset(&a, 0, sizeof(a));
	memcpy(&a, uattr, size < sizeof(a) ? size : sizeof(a));
	u32 ext = (a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_HW_CACHE) ?
		  (u32)(a.config >> PERF_PMU_TYPE_SHIFT) : 0;

	/*
	 * cpu_clock and task_clock have the first dynamic types, from
	 * PERF_TYPE_MAX; a hardware event's extended type may name any of them
	 */
	if (((a.type == PERF_TYPE_SOFTWARE || a.type >= PERF_TYPE_MAX) && err_core == -ENOENT &&
	     err_ksrc != -ENOENT) ||
	    ext == PERF_TYPE_SOFTWARE || ext == PERF_TYPE_MAX || ext == PERF_TYPE_MAX + 1)
		return "no-software-pmu: core/ registers no software PMU (perf_swevent, cpu_clock, "
		       "task_clock), the kernel's perf_event_init() does";
	if (a.type == PERF_TYPE_HARDWARE && a.config != PERF_COUNT_HW_CPU_CYCLES &&
	    a.config != PERF_COUNT_HW_INSTRUCTIONS && err_ksrc == -EOPNOTSUPP)
		return "model-driver-events: the model driver (ksrc/core_model_pmu.c) maps the hardware "
		       "events cycles and instructions only; core/'s x86 driver every one the model has";
	if ((a.sample_type & ~PERF_SAMPLE_PMUSIM_MASK) && err_core == -EOPNOTSUPP)
		return "unwritten-sample-types: core/ refuses the sample types core/sample.c does not "
		       "write (EOPNOTSUPP); the kernel takes them";
	if ((a.sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR |
			      PERF_SAMPLE_STACK_USER)) && err_ksrc == -ENOSYS)
		return "no-user-regs: the shim has no arch perf_regs.c nor user stack dump (ENOSYS to "
		       "any register mask, and to PERF_SAMPLE_STACK_USER)";
	if (a.precise_ip)
		return "model-driver-precise: the model driver has no PEBS and takes any precise_ip; "
		       "core/'s x86 driver checks it as x86's does";
	if (a.type == PERF_TYPE_RAW && (a.config & ~0xffffULL))
		return "model-driver-raw-bits: the model driver takes a raw event's select and umask "
		       "only; core/'s x86 driver every bit the PMU has";
	if ((a.sample_type & PERF_SAMPLE_BRANCH_STACK) && (!err_core || !err_ksrc))
		return CD_NO_LBR;
	if (a.sigtrap && err_core == -EOPNOTSUPP)
		return "sigtrap: core/ refuses attr.sigtrap (pmusim sends no signals)";
	if (cpu > 0 && err_core && err_ksrc == -EINVAL)
		return "cpu-ids: the shim has one CPU (nr_cpu_ids 1: EINVAL, before any other "
		       "check); core/'s machine has CONFIG_MODEL_MAX_CPUS possible ones and refuses "
		       "one without a model CPU with ENODEV, as the kernel refuses an offline CPU, "
		       "after its other checks";
#ifdef CONFIG_PERF_HW_TIME
	if (a.hw_time)
		return "rfc-hw-time: attr.hw_time (CONFIG_PERF_HW_TIME) is a reserved bit to the tree";
#endif
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	if (a.size > PERF_ATTR_SIZE_VER8 && a.alternative_sample_period)
		return "rfc-alt-period: attr.alternative_sample_period (CONFIG_PERF_ALT_SAMPLE_PERIOD) "
		       "is past the tree's attr";
#endif
	return NULL;
}

const char *ksrc_core_diff_event_departure(const void *uattr, size_t size)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(&a, uattr, size < sizeof(a) ? size : sizeof(a));
	if (a.type == PERF_TYPE_RAW && (a.config & ~0xffffULL))
		return "model-driver-raw-bits: the model driver takes a raw event's select and umask "
		       "only (count what it counts); core/'s x86 driver every bit the PMU has "
		       "(edge, inv, cmask, ...)";
	if (a.sample_type & PERF_SAMPLE_BRANCH_STACK)
		return CD_NO_LBR;
	return NULL;
}

const char *ksrc_core_diff_resched_departure(const struct ksrc_core_diff_event *evs, int n,
					     const void *uattr, size_t size)
{
	static const char *const why = "no-resched: core/ puts a new or enabled event on alone; "
		"the kernel's ctx_resched() takes every flexible group off and puts them all back "
		"(a throttled one unthrottled, an inactive one tried again, an exclusive or pinned one "
		"first or alone)";
	struct perf_event_attr a;

	if (uattr) {
		memset(&a, 0, sizeof(a));
		memcpy(&a, uattr, size < sizeof(a) ? size : sizeof(a));
		if (a.exclusive || a.pinned)
			return why;
	}
	for (int i = 0; i < n; i++) {
		const struct perf_event *ev = evs[i].ev;

		if (!ev)
			continue;
		if (ev->hw.interrupts == MAX_INTERRUPTS || ev->state == PERF_EVENT_STATE_INACTIVE ||
		    ev->state == PERF_EVENT_STATE_ERROR || ev->attr.exclusive || ev->attr.pinned)
			return why;
	}
	return NULL;
}

void ksrc_core_diff_unmap(const struct ksrc_core_diff_event *e, struct ksrc_core_diff_event *evs,
			  int n)
{
	if (!e->rb)
		return;
	for (int i = 0; i < n; i++) {
		struct perf_event *ev = evs[i].ev;

		if (ev && ev != e->ev && ev->rb == e->rb) {
			ring_buffer_attach(ev, NULL);
			ev->output_event = NULL;
		}
	}
}

int ksrc_core_diff_open_compare(const void *uattr, size_t size, int cpu,
				const struct ksrc_core_diff_event *leader, unsigned long flags,
				int *err, struct ksrc_core_diff_event *e, char *why, size_t why_len)
{
	struct perf_event_attr a;
	const char *dep;
	int ec, ek;

	memset(&a, 0, sizeof(a));
	memcpy(&a, uattr, size < sizeof(a) ? size : sizeof(a));
	/* what the unit leaves out and stops on: not opened on either side */
	if ((a.sample_type & PERF_SAMPLE_CALLCHAIN) && size >= offsetof(typeof(a), read_format)) {
		memset(e, 0, sizeof(*e));
		e->fd = -1;
		*err = 0;
		snprintf(why, why_len, "no-callchain-unit: callchain.c is not in the core unit "
			 "(get_callchain_buffers() stops the program); not opened");
		return KSRC_CORE_DIFF_DEPARTED;
	}
	if (ksrc_core_diff_sync_ids())
		return cd_why(why, why_len, "the two sides' event ids could not be brought together");
	ksrc_core_diff_open(uattr, size, cpu, leader, flags, &ec, &ek, e);
	*err = ec;
	dep = ec != ek ? ksrc_core_diff_open_departure(uattr, size, cpu, flags, ec, ek) :
	      !ec ? ksrc_core_diff_event_departure(uattr, size) : NULL;
	if (dep) {
		ksrc_core_diff_close(e);
		snprintf(why, why_len, "%s", dep);
		return KSRC_CORE_DIFF_DEPARTED;
	}
	if (ec != ek) {
		ksrc_core_diff_close(e);
		return cd_why(why, why_len, "perf_event_open(): core/ %d, the kernel's %d", ec, ek);
	}
	return KSRC_CORE_DIFF_SAME;
}

/* What a PMI of the event changes: its interrupt count, or the tick window it counts in */
static u64 cd_pmi_mark(const struct perf_event *ev)
{
	return ev ? ev->hw.interrupts + ev->hw.interrupts_seq * 0x9e3779b97f4a7c15ULL : 0;
}

void ksrc_core_diff_pmi_snapshot(const struct ksrc_core_diff_event *evs, int n, uint64_t *snap)
{
	for (int i = 0; i < n; i++)
		snap[i] = cd_pmi_mark(evs[i].ev);
}

const char *ksrc_core_diff_pmi_order_departure(const struct ksrc_core_diff_event *evs, int n,
					       const uint64_t *snap)
{
	int took = 0;

	for (int i = 0; i < n; i++)
		took += evs[i].ev && cd_pmi_mark(evs[i].ev) != snap[i];
	return took < 2 ? NULL :
	       "pmi-counter-order: two events took PMIs in one block, and the drivers handle an "
	       "overflow's events in their counter order (core/'s x86 puts cycles and instructions "
	       "on fixed counters, handled after the general-purpose ones; the model driver has "
	       "general-purpose ones only): a group read's LOST values, a paused ring's lost count "
	       "and a shared ring's records follow that order";
}
