/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lockstep driver of the event core's differential checks: core/'s
 * port and the kernel's own kernel/events/core.c (ksrc/core_bridge.c),
 * each on a model CPU of its own of the same model (Skylake, the one the
 * model driver ksrc/core_model_pmu.c drives), CPU-wide events on CPU 0,
 * one clock for both. Both sides get the same calls; ksrc_core_diff_compare()
 * names the first difference in what a user of the ABI can see (the ring's
 * bytes, data_head and data_tail) and in the period state (count,
 * sample_period, last_period, period_left, hw.interrupts, state).
 *
 * Users: tests/ksrc/test_core_diff (every check of it), fuzz/fuzz_attr
 * (its ksrc pass) and fuzz/fuzz_overflow. A build without the core unit (no kernel tree)
 * still has this driver, with core/'s half only: every call runs on
 * core/, the kernel's results are reported as core/'s, and nothing
 * differs (fuzz_overflow's own invariants still judge core/). core/'s global hooks (CPU 0's model CPU and irq
 * regs, the clock, the running task) are the pair's between
 * ksrc_core_diff_begin() and ksrc_core_diff_end(), so a harness that also
 * drives core/ on CPUs of its own puts them back after.
 */
#ifndef PMUSIM_KSRC_ORACLE_CORE_DIFF_H
#define PMUSIM_KSRC_ORACLE_CORE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_event;
struct perf_buffer;
struct pmu;

/* An event opened on both sides: core/'s, its buffer, the kernel's fd. */
struct ksrc_core_diff_event {
	struct perf_event	*ev;
	struct perf_buffer	*rb;		/* core/'s mapping (NULL: none) */
	int			fd;		/* the kernel's (-1: none) */
	unsigned int		nr_pages;	/* of both mappings */
	bool			shared;		/* other events write to the ring (SET_OUTPUT) */
};

/*
 * The pair: made and the kernel's file booted on the first call (the
 * kernel boots once a process, at clock 1 ms), then core/'s CPU 0, its
 * irq regs, the clock and the running task set to the pair's; each later
 * call moves the clock a second on (it never goes back: the kernel's
 * contexts keep their times). 0 or -errno.
 */
int ksrc_core_diff_begin(void);
/* core/'s hooks as ksrc_core_diff_begin() found them. */
void ksrc_core_diff_end(void);
/* Whether the build has the kernel's half (the core unit). */
bool ksrc_core_diff_have_kernel(void);

/* The one clock both sides read (ns), and where it stands. */
void ksrc_core_diff_set_clock(uint64_t ns);
uint64_t ksrc_core_diff_clock(void);
/* the PMIs the kernel's side took so far (its model CPU's count) */
uint64_t ksrc_core_diff_nr_pmis(void);

/*
 * Both sides' next event id made the same (core/'s perf_event_id and the
 * kernel's count apart when one side allocated an event the other
 * refused before allocating): ids are in the records compared. 0, or -1
 * when they could not be brought together.
 */
int ksrc_core_diff_sync_ids(void);

/*
 * perf_event_open() on both: @uattr's @size bytes (the attr memory both
 * read; the attr's own size field says how much), CPU @cpu, pid -1,
 * @leader (NULL: group_fd -1), @flags. 0/-errno of each in *@err_core and
 * *@err_ksrc; @e holds what opened (ev NULL, fd -1 otherwise).
 */
void ksrc_core_diff_open(const void *uattr, size_t size, int cpu,
			 const struct ksrc_core_diff_event *leader, unsigned long flags,
			 int *err_core, int *err_ksrc, struct ksrc_core_diff_event *e);

/*
 * ksrc_core_diff_open() of pid @pid (-1: CPU-wide; a task: the shim's
 * pid 1 or 2, core/'s through perf_find_task_by_vpid, the caller's to
 * set), core/'s event on @core_pmu (NULL: by attr.type, its x86 driver;
 * the kernel's side always has the model driver).
 */
void ksrc_core_diff_open_on(const void *uattr, size_t size, int pid, int cpu, struct pmu *core_pmu,
			    const struct ksrc_core_diff_event *leader, unsigned long flags,
			    int *err_core, int *err_ksrc, struct ksrc_core_diff_event *e);

/*
 * mmap() of 1 + @nr_pages pages, read-write, on both (core/: as sim/run.c
 * maps, rb_alloc() and ring_buffer_attach()); 0/-errno of each.
 */
void ksrc_core_diff_mmap(struct ksrc_core_diff_event *e, unsigned int nr_pages,
			 int *err_core, int *err_ksrc);
/* The same, read-only when !@writable: the overwrite mode (no data_tail from user space) */
void ksrc_core_diff_mmap_prot(struct ksrc_core_diff_event *e, unsigned int nr_pages, bool writable,
			      int *err_core, int *err_ksrc);

/* close() on both (the mapping first, as munmap then close). */
void ksrc_core_diff_close(struct ksrc_core_diff_event *e);

/*
 * The fd's ioctl on both: @arg is what user space passes (a u64 value
 * for PERIOD and ID, passed by pointer to each side; for SET_OUTPUT,
 * @target's event and fd, or none when NULL). Each side's return.
 */
void ksrc_core_diff_ioctl(const struct ksrc_core_diff_event *e, unsigned int cmd, uint64_t arg,
			  const struct ksrc_core_diff_event *target, long *ret_core, long *ret_ksrc);

/* @insns user instructions retired on both CPUs (PMIs as they come), then the irq_work */
void ksrc_core_diff_retire(uint64_t insns);
/*
 * The user stack both sides' callchains walk: @nr return addresses, the
 * innermost first (core/'s irq regs' callers, the bridge's stack); NULL, 0: none.
 */
void ksrc_core_diff_set_user_stack(const uint64_t *ips, unsigned int nr);
/* the scheduler tick on both: unthrottle, freq adjust */
void ksrc_core_diff_tick(void);

/*
 * A reader of both rings consumed everything: data_tail = data_head on
 * each side (what each side's own head says).
 */
void ksrc_core_diff_consume(const struct ksrc_core_diff_event *e);

enum {
	KSRC_CORE_DIFF_SAME = 0,
	KSRC_CORE_DIFF_DIFFER = 1,	/* @why names the first difference */
	KSRC_CORE_DIFF_ORDER = 2,	/* departure pmi-counter-order; @why says where */
	KSRC_CORE_DIFF_DEPARTED = 3,	/* another named departure, in @why */
};

/*
 * Compare @e's two sides: the ring (data_head, data_tail, every data
 * byte) when mapped (an event without a mapping of its own, one
 * redirected by SET_OUTPUT or a group's member, has its state compared
 * only), then count, sample_period, last_period, period_left,
 * hw.interrupts, state and lost_samples. KSRC_CORE_DIFF_SAME, or
 * KSRC_CORE_DIFF_DIFFER with one line naming the first difference in
 * @why. A @e->shared ring whose bytes differ but that holds the same
 * records from data_tail to data_head in another order is the departure
 * pmi-counter-order (KSRC_CORE_DIFF_ORDER, the rest compared as usual):
 * the events of one PMI are handled in the drivers' counter order, and
 * core/'s x86 driver puts cycles and instructions on fixed counters,
 * which it handles after the general-purpose ones, where the model
 * driver has general-purpose counters only. KSRC_CORE_DIFF_DUMP=1 prints
 * both rings' records first.
 */
int ksrc_core_diff_compare(const struct ksrc_core_diff_event *e, char *why, size_t why_len);

/*
 * The named departure an open of @uattr (@size bytes) falls under, where
 * core/ and the kernel's file are known to answer it differently on
 * purpose or by the harness's make (README "Departures"): its name and
 * reason, one line; NULL when the two must agree. @err_core and
 * @err_ksrc are what each answered.
 */
const char *ksrc_core_diff_open_departure(const void *uattr, size_t size, int cpu,
					  unsigned long flags, int err_core, int err_ksrc);

/*
 * ksrc_core_diff_open() as the harnesses check it: the ids brought
 * together first, then the two results. KSRC_CORE_DIFF_SAME: the same
 * errno (core/'s in *@err), or both an event, in @e; KSRC_CORE_DIFF_DIFFER:
 * @why names the difference; KSRC_CORE_DIFF_DEPARTED: a named departure
 * (ksrc_core_diff_open_departure() or _event_departure()), in @why. In
 * the last two, nothing is left open.
 */
int ksrc_core_diff_open_compare(const void *uattr, size_t size, int cpu,
				const struct ksrc_core_diff_event *leader, unsigned long flags,
				int *err, struct ksrc_core_diff_event *e, char *why, size_t why_len);

/*
 * The named departure an event of @uattr falls under once open on both
 * (it counts differently on the two drivers): its text, or NULL. The
 * harnesses close such an event and go on without it.
 */
const char *ksrc_core_diff_event_departure(const void *uattr, size_t size);

/*
 * Before an open (@uattr, @size) or an ioctl that enables (@uattr NULL):
 * the departure no-resched when it may show, given the pair's open events
 * @evs[@n], else NULL. core/ puts a new or enabled event on alone; the
 * kernel's ctx_resched() takes every flexible group off and puts them
 * back, which unthrottles a throttled one and tries an inactive one
 * again, and core/ keeps no group exclusive. A difference right after
 * such an op is that departure: the harnesses stop comparing the input.
 */
const char *ksrc_core_diff_resched_departure(const struct ksrc_core_diff_event *evs, int n,
					     const void *uattr, size_t size);

/*
 * The munmap() of @e's mapping, on core/'s side (which has no mmap()):
 * as perf_mmap_close() does when a buffer's last mapping goes, every
 * other event of @evs[@n] writing to it (SET_OUTPUT) is detached. Call
 * before ksrc_core_diff_close(@e).
 */
void ksrc_core_diff_unmap(const struct ksrc_core_diff_event *e, struct ksrc_core_diff_event *evs,
			  int n);

/*
 * Around a retire: each of @evs[@n]'s hw.interrupts (and its tick
 * window, interrupts_seq) into @snap before;
 * after, the departure pmi-counter-order when two or more events took a
 * PMI (a difference then is that departure: the harnesses stop comparing
 * the input), else NULL.
 */
void ksrc_core_diff_pmi_snapshot(const struct ksrc_core_diff_event *evs, int n, uint64_t *snap);
const char *ksrc_core_diff_pmi_order_departure(const struct ksrc_core_diff_event *evs, int n,
					       const uint64_t *snap);

#endif /* PMUSIM_KSRC_ORACLE_CORE_DIFF_H */
