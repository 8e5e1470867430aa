/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The core unit's shim for trees after v6.12: what kernel/events/core.c of
 * v6.13..v6.17 names that the shim must supply, kept apart from the kinds
 * the v6.12 tree needs (as tools/testing/vma keeps dup.h apart), each item
 * with the release that brought it. Names no older tree uses are a
 * superset, harmless there; an item whose meaning changed between
 * releases is under KSRC_VERSION_CODE. Kinds as in core_shim.h:
 *   duplicated   the sysctl bounds, for_each_process_thread
 *   stubbed      the page-table calls of perf_mmap()'s map_range(), sysctl
 *                registration, the percpu rw-semaphore (one thread)
 *   customised   the cleanup helpers (__free, no_free_ptr), the guards and
 *                classes core.c takes (spinlock, srcu, percpu_read/write,
 *                fd, idr_alloc)
 */
#ifndef KSRC_CORE_NEWER_H
#define KSRC_CORE_NEWER_H

/* ---- customised: <linux/cleanup.h>'s scope-based frees ------------------------------
 * core.c frees a half-made event and PMU through them since v6.15
 * ("perf/core: Simplify perf_event_alloc()", "perf: Simplify
 * perf_pmu_register()"). */
#define DEFINE_FREE(name, type, free_stmt)						\
	static inline void __ksrc_free_##name(void *p)					\
	{ type _T = *(type *)p; free_stmt; }
#define __free(name)			__cleanup(__ksrc_free_##name)
/* hand the pointer on: the scope's free then sees NULL */
#define no_free_ptr(p)			({ __auto_type __ksrc_p = (p); (p) = NULL; __ksrc_p; })
#define return_ptr(p)			return no_free_ptr(p)

/* ---- customised: the guards and classes of newer trees (no-ops, as the locks) ---------- */
/* CLASS(name, v)(lock) and guard(name)(lock) of a lock one thread never waits on */
#define KSRC_NOOP_LOCK_CLASS(name, lock_type)						\
	typedef struct { void *lock; } class_##name##_t;				\
	static inline void class_##name##_destructor(class_##name##_t *p) { (void)p; }	\
	static inline class_##name##_t class_##name##_constructor(lock_type *l)	\
	{ return (class_##name##_t){ l }; }
KSRC_NOOP_LOCK_CLASS(spinlock, spinlock_t)
KSRC_NOOP_LOCK_CLASS(srcu, struct srcu_struct)
/* v6.15's per-task PMU data ("perf: Support extension of sched_task callback")
 * is guarded by a percpu rw-semaphore: one thread takes it uncontended */
struct percpu_rw_semaphore { int readers; };
#define DEFINE_STATIC_PERCPU_RWSEM(name)	static struct percpu_rw_semaphore name
KSRC_NOOP_LOCK_CLASS(percpu_read, struct percpu_rw_semaphore)
KSRC_NOOP_LOCK_CLASS(percpu_write, struct percpu_rw_semaphore)
/* CLASS(fd, f)(fd): the file table's entry, or an empty one for -1 (v6.12's
 * "introduce fd_file(), convert all accessors to it" and its CLASS) */
typedef struct fd class_fd_t;
static inline void class_fd_destructor(class_fd_t *p) { fdput(*p); }
static inline class_fd_t class_fd_constructor(int fd) { return fdget((unsigned int)fd); }
#define fd_empty(f)			(!fd_file(f))
/* CLASS(idr_alloc, id)(idr, ptr, start, end, gfp): an id that the scope's end
 * gives back unless take_idr_id() kept it (v6.15, perf_pmu_register()) */
struct ksrc_class_idr { struct idr *idr; int id; };
typedef struct ksrc_class_idr class_idr_alloc_t;
static inline void class_idr_alloc_destructor(class_idr_alloc_t *p)
{
	if (p->id >= 0)
		idr_remove(p->idr, (unsigned long)p->id);
}
static inline class_idr_alloc_t class_idr_alloc_constructor(struct idr *idr, void *ptr, int start,
							    int end, gfp_t gfp)
{
	return (class_idr_alloc_t){ idr, idr_alloc(idr, ptr, start, end, gfp) };
}
#define take_idr_id(c)			((c).id = -1)

/* ---- stubbed/duplicated: the rest of what newer trees name ------------------------- */
/* one process, one thread: the walk over every thread sees current alone */
#define for_each_process_thread(g, t)						\
	for ((g) = (t) = ksrc_current; (t); (g) = (t) = NULL)
/* drops a reference unless it is the last one, which it keeps (then false) */
static inline bool refcount_dec_not_one(refcount_t *r)
{
	int old = atomic_read(&r->refs);

	while (old != 1) {
		if (atomic_try_cmpxchg(&r->refs, &old, old - 1))
			return true;
	}
	return false;
}
#define POLL_ERR			4
/* v6.14 moved the perf sysctls into core.c ("perf: Move perf_event sysctls
 * into kernel/events"): the table (struct ctl_table, core_duplicated.h) is
 * built, never registered */
#define SYSCTL_ZERO			((void *)&(const int){ 0 })
#define SYSCTL_ONE			((void *)&(const int){ 1 })
#define SYSCTL_ONE_HUNDRED		((void *)&(const int){ 100 })
#define SYSCTL_ONE_THOUSAND		((void *)&(const int){ 1000 })
#define register_sysctl_init(path, table)	((void)(path), (void)(table))
/* handlers core.c names in its table: functions now, reached never */
#undef proc_dointvec
#undef proc_dointvec_minmax
static inline int proc_dointvec(const struct ctl_table *t, int w, void *b, size_t *l, loff_t *p)
{
	return KSRC_UNEXPECTED(int, proc_dointvec, t, w, b, l, p);
}
static inline int proc_dointvec_minmax(const struct ctl_table *t, int w, void *b, size_t *l,
				       loff_t *p)
{
	return KSRC_UNEXPECTED(int, proc_dointvec_minmax, t, w, b, l, p);
}
/* v6.14's min-heap names ("lib min_heap: ... inline variants"): the heap is
 * the shim's, one implementation for both */
#define min_heapify_all_inline(h, f, a)		min_heapify_all(h, f, a)
#define min_heap_sift_down_inline(h, p, f, a)	min_heap_sift_down(h, p, f, a)
#define min_heap_pop_inline(h, f, a)		min_heap_pop(h, f, a)
/* v6.16's map_range() ("perf/core: map pages in advance"): perf_mmap()
 * maps the buffer's pages itself. The bridge reads the pages through
 * perf_mmap_to_page() as user space sees them, so there is no page table
 * to fill: each page the walk finds is mapped, none is ever zapped. */
typedef struct { unsigned long pgprot; } pgprot_t;
#define vm_get_page_prot(flags)		((pgprot_t){ (flags) })
#define page_to_pfn(page)		((unsigned long)(uintptr_t)(page))
#define remap_pfn_range(vma, addr, pfn, size, prot)	\
	((void)(vma), (void)(addr), (void)(pfn), (void)(size), (void)(prot), 0)
#define zap_page_range_single(vma, addr, size, details)	\
	KSRC_UNEXPECTED_V(zap_page_range_single, vma, addr, size, details)
/* the initcall that registers the sysctl table: kept, never run */
#undef core_initcall
#define core_initcall(f)		static int (*const __ksrc_initcall_##f)(void) __attribute__((__used__)) = (f)

#endif /* KSRC_CORE_NEWER_H */
