/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * customised: what kernel/events/core.c needs to run, changed for one
 * process and one CPU (ksrc/kernel/events/core_shim.c defines what is not
 * inline):
 *   per-CPU data        plain variables: CPU 0 is the only one
 *   current             ksrc_current, a task the bridge sets
 *   static keys         bools
 *   irq_work            queued, run by ksrc_irq_work_run() (the bridge
 *                       calls it where the kernel's IPI would arrive)
 *   hrtimers            remembered, never fire on their own
 *   smp_call_function_single  runs the function now, on "CPU 0"
 *   idr, min-heap, cleanup guards, bitmaps: the kernel's meaning, written
 *                       here
 *   kmalloc & co        the C allocator
 */
#ifndef KSRC_CORE_CUSTOMISED_H
#define KSRC_CORE_CUSTOMISED_H

#include <sys/types.h>

/* ---- cleanup guards (<linux/cleanup.h>) ----------------------------------- */
#define __KSRC_PASTE_(a, b)		a##b
#define __KSRC_PASTE(a, b)		__KSRC_PASTE_(a, b)
#define __KSRC_UNIQUE(p)		__KSRC_PASTE(p, __COUNTER__)
#define __cleanup(f)			__attribute__((__cleanup__(f)))
#define DEFINE_CLASS(name, type, exit, init, init_args...)			\
	typedef type class_##name##_t;						\
	static inline void class_##name##_destructor(type *p)			\
	{ type _T = *p; exit; }							\
	static inline type class_##name##_constructor(init_args)		\
	{ type t = init; return t; }
#define CLASS(name, var)						\
	class_##name##_t var __cleanup(class_##name##_destructor) =	\
		class_##name##_constructor
#define guard(name)	CLASS(name, __KSRC_UNIQUE(__guard_))
#define scoped_guard(name, args...)					\
	for (CLASS(name, scope)(args), *__done = NULL; !__done; __done = (void *)1)
/* the guards core.c takes: all no-ops, as the locks are */
typedef struct { void *lock; } class_raw_spinlock_t;
static inline void class_raw_spinlock_destructor(class_raw_spinlock_t *p) { (void)p; }
static inline class_raw_spinlock_t class_raw_spinlock_constructor(raw_spinlock_t *l)
{ return (class_raw_spinlock_t){ l }; }
typedef struct { void *lock; } class_irqsave_t;
static inline void class_irqsave_destructor(class_irqsave_t *p) { (void)p; }
static inline class_irqsave_t class_irqsave_constructor(void) { return (class_irqsave_t){ NULL }; }
typedef struct { void *lock; } class_rcu_t;
static inline void class_rcu_destructor(class_rcu_t *p) { (void)p; }
static inline class_rcu_t class_rcu_constructor(void) { return (class_rcu_t){ NULL }; }
typedef struct { void *lock; } class_mutex_t;
static inline void class_mutex_destructor(class_mutex_t *p) { (void)p; }
static inline class_mutex_t class_mutex_constructor(struct mutex *m) { return (class_mutex_t){ m }; }

/* ---- per-CPU data: one CPU -------------------------------------------------- */
#define DEFINE_PER_CPU(type, name)		__typeof__(type) name
#define DECLARE_PER_CPU(type, name)		extern __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name)	DEFINE_PER_CPU(type, name)
#define this_cpu_ptr(p)				(p)
#define raw_cpu_ptr(p)				(p)
#define per_cpu_ptr(p, cpu)			((void)(cpu), (p))
#define per_cpu(var, cpu)			(*per_cpu_ptr(&(var), cpu))
#define get_cpu_ptr(p)				(p)
#define put_cpu_ptr(p)				((void)(p))
#define get_cpu_var(v)				(v)
#define put_cpu_var(v)				((void)0)
#define this_cpu_read(v)			(v)
#define __this_cpu_read(v)			(v)
#define this_cpu_write(v, x)			((v) = (x))
#define __this_cpu_write(v, x)			((v) = (x))
#define this_cpu_inc(v)				((v)++)
#define __this_cpu_inc(v)			((v)++)
#define this_cpu_dec(v)				((v)--)
#define __this_cpu_dec(v)			((v)--)
#define this_cpu_add(v, x)			((v) += (x))
#define __this_cpu_add(v, x)			((v) += (x))
#define this_cpu_inc_return(v)			(++(v))
#define __this_cpu_xchg(v, x)			({ __typeof__(v) __o = (v); (v) = (x); __o; })
#define this_cpu_xchg(v, x)			__this_cpu_xchg(v, x)
void *ksrc_alloc_percpu(size_t size);
#define alloc_percpu(type)			((type *)ksrc_alloc_percpu(sizeof(type)))
#define alloc_percpu_gfp(type, gfp)		alloc_percpu(type)
#define free_percpu(p)				kfree(p)
#define get_cpu()				0
#define put_cpu()				do { } while (0)
#define nr_cpu_ids				1U
#define num_online_cpus()			1U
#define num_possible_cpus()			1U
#define for_each_possible_cpu(cpu)		for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define for_each_online_cpu(cpu)		for_each_possible_cpu(cpu)
#define cpu_online(cpu)				((cpu) == 0)
#define cpu_possible(cpu)			((cpu) == 0)
#define topology_physical_package_id(c)		0
#define topology_die_cpumask(c)			cpu_online_mask
#define topology_cluster_cpumask(c)		cpu_online_mask
#define topology_core_cpumask(c)		cpu_online_mask
#define topology_sibling_cpumask(c)		cpu_online_mask
#define cpu_to_node(cpu)			((void)(cpu), 0)

/* ---- cpumasks and bitmaps ---------------------------------------------------- */
struct cpumask { unsigned long bits[1]; };
typedef struct cpumask cpumask_var_t[1];
typedef struct cpumask cpumask_t;
extern const struct cpumask *const cpu_online_mask;
extern const struct cpumask *const cpu_possible_mask;
#define cpumask_bits(m)				((m)->bits)
#define cpumask_test_cpu(c, m)			((c) == 0 && ((m)->bits[0] & 1))
#define cpumask_set_cpu(c, m)			((void)(c), (m)->bits[0] |= 1)
#define cpumask_empty(m)			(!((m)->bits[0] & 1))
#define cpumask_any_and(a, b)			(((a)->bits[0] & (b)->bits[0] & 1) ? 0 : 1)
#define cpumask_first(m)			(((m)->bits[0] & 1) ? 0 : 1)
#define zalloc_cpumask_var(m, g)		({ (*(m))[0].bits[0] = 0; true; })
#define free_cpumask_var(m)			((void)(m))
#define DECLARE_BITMAP(name, bits)		unsigned long name[BITS_TO_LONGS(bits)]
#define for_each_set_bit(bit, addr, size)						\
	for ((bit) = ksrc_find_next_bit((addr), (size), 0); (bit) < (size);		\
	     (bit) = ksrc_find_next_bit((addr), (size), (bit) + 1))
static inline unsigned long ksrc_find_next_bit(const unsigned long *addr, unsigned long size,
					       unsigned long from)
{
	for (; from < size; from++)
		if (addr[from / BITS_PER_LONG] & (1UL << (from % BITS_PER_LONG)))
			return from;
	return size;
}
static inline void bitmap_from_u64(unsigned long *dst, u64 mask) { dst[0] = mask; }
#define hweight64(x)		__builtin_popcountll(x)
#define hweight32(x)		__builtin_popcount(x)
#define hweight_long(x)		__builtin_popcountl(x)
#define fls64(x)		((x) ? 64 - __builtin_clzll(x) : 0)
#define fls(x)			((x) ? 32 - __builtin_clz(x) : 0)
#define __ffs(x)		((unsigned long)__builtin_ctzl(x))
#define test_bit(n, a)		(!!((a)[(n) / BITS_PER_LONG] & (1UL << ((n) % BITS_PER_LONG))))
#define __set_bit(n, a)		((a)[(n) / BITS_PER_LONG] |= 1UL << ((n) % BITS_PER_LONG))
#define __clear_bit(n, a)	((a)[(n) / BITS_PER_LONG] &= ~(1UL << ((n) % BITS_PER_LONG)))
#define set_bit(n, a)		__set_bit(n, a)
#define clear_bit(n, a)		__clear_bit(n, a)

/* ---- more atomics (the ring shim has the basic ones) -------------------------- */
#define atomic_add(i, v)		((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic_sub(i, v)		((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic_dec(v)			atomic_sub(1, v)
#define atomic_inc_return(v)		__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_dec_return(v)		__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_dec_and_test(v)		(atomic_dec_return(v) == 0)
#define atomic_add_return(i, v)		__atomic_add_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic_xchg(v, n)		__atomic_exchange_n(&(v)->counter, (n), __ATOMIC_SEQ_CST)
#define atomic_cmpxchg(v, o, n) ({ __typeof__((v)->counter) __o = (o);				\
	__atomic_compare_exchange_n(&(v)->counter, &__o, (n), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); __o; })
#define atomic_try_cmpxchg(v, po, n)	\
	__atomic_compare_exchange_n(&(v)->counter, (po), (n), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic64_add(i, v)		((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic64_sub(i, v)		((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic64_inc_return(v)		__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic64_add_return(i, v)	__atomic_add_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic64_xchg(v, n)		__atomic_exchange_n(&(v)->counter, (n), __ATOMIC_SEQ_CST)
#define atomic_long_read(v)		atomic_read(v)
#define atomic_long_set(v, i)		atomic_set(v, i)
#define atomic_long_add(i, v)		atomic_add(i, v)
#define atomic_long_sub(i, v)		atomic_sub(i, v)
#define atomic_long_inc(v)		atomic_inc(v)
#define atomic_long_dec_and_test(v)	atomic_dec_and_test(v)
#define atomic_long_add_return(i, v)	atomic_add_return(i, v)
#define atomic_long_cmpxchg(v, o, n)	atomic_cmpxchg(v, o, n)
static inline bool ksrc_atomic_add_unless(int *c, int a, int u)
{
	int old = __atomic_load_n(c, __ATOMIC_RELAXED);

	do {
		if (old == u)
			return false;
	} while (!__atomic_compare_exchange_n(c, &old, old + a, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}
static inline bool ksrc_atomic_long_add_unless(long *c, long a, long u)
{
	long old = __atomic_load_n(c, __ATOMIC_RELAXED);

	do {
		if (old == u)
			return false;
	} while (!__atomic_compare_exchange_n(c, &old, old + a, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}
#define atomic_add_unless(v, a, u)	ksrc_atomic_add_unless(&(v)->counter, (a), (u))
#define atomic_inc_not_zero(v)		atomic_add_unless((v), 1, 0)
#define atomic_long_inc_not_zero(v)	ksrc_atomic_long_add_unless(&(v)->counter, 1, 0)
static inline bool atomic_inc_unless_negative(atomic_t *v)
{
	int old = atomic_read(v);

	do {
		if (old < 0)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &old, old + 1, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}
static inline bool atomic_dec_unless_positive(atomic_t *v)
{
	int old = atomic_read(v);

	do {
		if (old > 0)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &old, old - 1, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}
#define ATOMIC_INIT(i)			{ (i) }
#define ATOMIC64_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)		{ (i) }
#define smp_load_acquire(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)		__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_mb__after_atomic()		smp_mb()
#define smp_mb__before_atomic()		smp_mb()
#define smp_cond_load_acquire(p, c)	smp_load_acquire(p)
#define cmpxchg(p, o, n) ({ __typeof__(*(p)) __o = (o);						\
	__atomic_compare_exchange_n((p), &__o, (n), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); __o; })
#define try_cmpxchg(p, po, n)	__atomic_compare_exchange_n((p), (po), (n), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define xchg(p, n)		__atomic_exchange_n((p), (n), __ATOMIC_SEQ_CST)
#define refcount_dec(r)		atomic_dec(&(r)->refs)
#define refcount_add(n, r)	atomic_add((n), &(r)->refs)
static inline bool local64_add_negative(s64 i, local64_t *l) { return (s64)local64_add_return(i, l) < 0; }

/* ---- tasks -------------------------------------------------------------------- */
enum perf_event_task_context {
	perf_invalid_context = -1,
	perf_hw_context = 0,
	perf_sw_context,
	perf_nr_task_contexts,
};
struct perf_event_context;
/* rw_semaphores: one thread */
struct rw_semaphore { int count; };
struct signal_struct { struct rw_semaphore exec_update_lock; };
struct task_struct {
	int				pid;
	int				tgid;
	unsigned int			flags;
	int				cpu;
	char				comm[TASK_COMM_LEN];
	struct mm_struct		*mm;
	struct signal_struct		*signal;
	struct task_struct		*real_parent;
#if KSRC_VERSION_CODE >= KSRC_KERNEL_VERSION(6, 2, 0)
	struct perf_event_context	*perf_event_ctxp;
#else
	/* one per context type before "perf: Rewrite core context handling" (v6.2) */
	struct perf_event_context	*perf_event_ctxp[perf_nr_task_contexts];
#endif
	int				on_rq;
	struct mutex			perf_event_mutex;
	struct list_head		perf_event_list;
	u8				perf_recursion[4];
	unsigned int			sched_migrated:1;
	refcount_t			usage;
	/*
	 * PMU data kept with the task: the per-task LBR data seed's sched.h
	 * half (ksrc/examples/core-task-ctx-data.patch; v6.15 has the
	 * pointer). A tree without it never touches either.
	 */
	struct perf_ctx_data __rcu	*perf_ctx_data;
	raw_spinlock_t			perf_ctx_data_lock;
};
extern struct task_struct *ksrc_current;
#define current				ksrc_current
/* the shim's two processes, pid 1 (current at boot) and 2 (core_shim.c) */
struct task_struct *ksrc_find_task_by_vpid(pid_t pid);
#define find_task_by_vpid(pid)		ksrc_find_task_by_vpid(pid)
#define PF_EXITING			0x00000004
#define PF_KTHREAD			0x00200000
#define task_cpu(p)			((void)(p), 0)
#define task_curr(p)			((p) == ksrc_current)
#define is_idle_task(p)			((p)->pid == 0)
#define is_user_task(p)			(!((p)->flags & PF_KTHREAD))
/* on a run queue: a task switched out so was preempted, not asleep (the bridge sets it) */
#define task_is_runnable(p)		(READ_ONCE((p)->on_rq) != 0)
#define pid_alive(p)			((void)(p), 1)
#define get_task_struct(p)		({ refcount_inc(&(p)->usage); (p); })
void put_task_struct(struct task_struct *t);
#define get_task_mm(p)			KSRC_UNEXPECTED(struct mm_struct *, get_task_mm, p)
#define mmput(m)			KSRC_UNEXPECTED_V(mmput, m)
#define task_active_pid_ns(p)		((void)(p), (struct pid_namespace *)NULL)
#define get_pid_ns(n)			(n)
#define put_pid_ns(n)			((void)(n))
enum pid_type { PIDTYPE_PID, PIDTYPE_TGID, PIDTYPE_PGID, PIDTYPE_SID, PIDTYPE_MAX };
#define __task_pid_nr_ns(p, t, ns)	((void)(ns), (t) == PIDTYPE_TGID ? (p)->tgid : (p)->pid)
#define task_pid_nr_ns(p, ns)		__task_pid_nr_ns(p, PIDTYPE_PID, ns)
#define task_tgid_nr_ns(p, ns)		__task_pid_nr_ns(p, PIDTYPE_TGID, ns)
#define task_pid_vnr(p)			((p)->pid)
#define task_tgid_vnr(p)		((p)->tgid)
#define __task_cred(t)			KSRC_UNEXPECTED(const struct cred *, __task_cred, t)
#define current_user()			KSRC_UNEXPECTED(struct user_struct *, current_user)
#define rlimit(r)			(~0UL)
#define RLIMIT_MEMLOCK			8
#define CLONE_THREAD			0x00010000
#define CLONE_CLEAR_SIGHAND		0x100000000ULL
#define same_thread_group(a, b)		((a)->tgid == (b)->tgid)

/* task_work: added, run by the bridge where the kernel returns to user space */
enum task_work_notify_mode { TWA_NONE, TWA_RESUME, TWA_SIGNAL, TWA_SIGNAL_NO_IPI, TWA_NMI_CURRENT };
typedef void (*task_work_func_t)(struct callback_head *);
static inline void init_task_work(struct callback_head *twork, task_work_func_t func) { twork->func = func; }
#define task_work_add(t, w, m)		KSRC_UNEXPECTED(int, task_work_add, t, w, m)
#define task_work_cancel(t, w)		KSRC_UNEXPECTED(bool, task_work_cancel, t, w)

/* ---- static keys: bools --------------------------------------------------------- */
struct static_key { int enabled; };
struct static_key_false { struct static_key key; };
struct static_key_true { struct static_key key; };
#define STATIC_KEY_INIT_FALSE			{ 0 }
#define DEFINE_STATIC_KEY_FALSE(name)		struct static_key_false name = { { 0 } }
#define DEFINE_STATIC_KEY_TRUE(name)		struct static_key_true name = { { 1 } }
#define DECLARE_STATIC_KEY_FALSE(name)		extern struct static_key_false name
#define static_key_false(k)			unlikely((k)->enabled > 0)
#define static_key_true(k)			likely((k)->enabled > 0)
#define static_key_enabled(k)			((k)->enabled > 0)
#define static_key_slow_inc(k)			((void)((k)->enabled++))
#define static_key_slow_dec(k)			((void)((k)->enabled--))
#define static_branch_unlikely(k)		unlikely((k)->key.enabled > 0)
#define static_branch_likely(k)			likely((k)->key.enabled > 0)
#define static_branch_inc(k)			((void)((k)->key.enabled++))
#define static_branch_dec(k)			((void)((k)->key.enabled--))
#define static_branch_enable(k)			((void)((k)->key.enabled = 1))
#define static_branch_disable(k)		((void)((k)->key.enabled = 0))
#define DEFINE_STATIC_CALL_RET0(name, f)	__typeof__(f) *const static_call_##name = NULL
#define DECLARE_STATIC_CALL(name, f)		extern __typeof__(f) *const static_call_##name
#define DEFINE_STATIC_CALL_NULL(name, f)	__typeof__(f) *static_call_##name
#define static_call(name)			(*static_call_##name)
#define static_call_update(name, f)		(static_call_##name = (f))
#define __static_call_return0			NULL

/* ---- irq_work: queued, run by ksrc_irq_work_run() ---------------------------------- */
void ksrc_irq_work_queue(struct irq_work *work);
void ksrc_irq_work_run(void);
/* the ring shim's irq_work_queue() does nothing; here the work runs later */
#define irq_work_queue(w)		({ ksrc_irq_work_queue(w); true; })
#define init_irq_work(w, f)		(*(w) = (struct irq_work){ .func = (f) })
#define IRQ_WORK_INIT_HARD(f)		((struct irq_work){ .func = (f) })
#define irq_work_queue_on(w, cpu)	irq_work_queue(w)
#define irq_work_sync(w)		((void)(w))
#define arch_irq_work_raise()		do { } while (0)

/* ---- work items: run now (the ring shim's schedule_work), delayed ones too --------- */
struct delayed_work { struct work_struct work; };
#define DECLARE_WORK(n, f)		struct work_struct n = { .func = (f) }
#define DECLARE_DELAYED_WORK(n, f)	struct delayed_work n = { { .func = (f) } }
#define INIT_DELAYED_WORK(w, f)		INIT_WORK(&(w)->work, (f))
/*
 * The delay has passed at once: unaccount_event()'s perf_sched_work (the
 * last event that needed the scheduler hooks gone, their static key off)
 * runs before the close returns, as it would a tick (HZ) later.
 */
static inline bool schedule_delayed_work(struct delayed_work *w, unsigned long delay)
{
	(void)delay;
	w->work.func(&w->work);
	return true;
}
#define flush_work(w)			((void)(w), true)
#define to_delayed_work(w)		container_of(w, struct delayed_work, work)

/* ---- wait queues and var events: nothing ever waits ------------------------------ */
#define init_waitqueue_head(w)		((w)->nr = 0, INIT_LIST_HEAD(&(w)->head))
#define wake_up_all(w)			((void)(w))
#define wake_up(w)			((void)(w))
#define wake_up_var(v)			((void)(v))
#define wait_var_event(v, c)		do { if (!(c)) KSRC_UNEXPECTED_V(wait_var_event, v); } while (0)
#define wait_event(w, c)		do { if (!(c)) KSRC_UNEXPECTED_V(wait_event, &(w)); } while (0)
struct poll_table_struct { int unused; };
typedef struct poll_table_struct poll_table;
#define poll_wait(f, w, p)		((void)(f), (void)(w), (void)(p))

/* ---- hrtimers: remembered, never fire ----------------------------------------------- */
#define hrtimer_init(t, c, m)		((t)->active = false, (t)->expires = 0)
#define hrtimer_setup(t, f, c, m)	((t)->function = (f), (t)->active = false)
#define hrtimer_start(t, d, m)		((t)->expires = (d), (t)->active = true)
#define hrtimer_start_expires(t, m)	((t)->active = true)
#define hrtimer_cancel(t)		({ bool __a = (t)->active; (t)->active = false; __a; })
#define hrtimer_try_to_cancel(t)	hrtimer_cancel(t)
#define hrtimer_active(t)		((t)->active)
#define hrtimer_forward_now(t, i)	({ (t)->expires += (i); 1ULL; })
#define hrtimer_get_remaining(t)	((ktime_t)0)
#define hrtimer_set_expires(t, e)	((t)->expires = (e))
#define hrtimer_cb_get_time(t)		((ktime_t)0)
#define HRTIMER_MODE_REL_HARD		0x09
#define CLOCK_MONOTONIC			1
#define CLOCK_REALTIME			0
#define CLOCK_BOOTTIME			7
#define CLOCK_TAI			11
#define CLOCK_MONOTONIC_RAW		4
#define ns_to_ktime(ns)			((ktime_t)(ns))
#define ktime_to_ns(t)			((s64)(t))
#define TICK_NSEC			(NSEC_PER_SEC / HZ)

/* clocks: the bridge's, so that both sides see the same time */
u64 ksrc_clock(void);
#define local_clock()			ksrc_clock()
#define sched_clock()			ksrc_clock()
#define ktime_get_mono_fast_ns()	ksrc_clock()
#define ktime_get_raw_fast_ns()		ksrc_clock()
#define ktime_get_real_ns()		ksrc_clock()
#define ktime_get_boottime_ns()		ksrc_clock()
#define ktime_get_clocktai_ns()		ksrc_clock()
#define ktime_get_ns()			ksrc_clock()
#define ktime_get_boot_fast_ns()	ksrc_clock()
#define ktime_get_tai_fast_ns()		ksrc_clock()
#define ktime_get_real_fast_ns()	ksrc_clock()

/* ---- cross calls: the function runs now, on this (the only) CPU ------------------------ */
typedef void (*smp_call_func_t)(void *info);
static inline int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	(void)cpu;
	(void)wait;
	func(info);
	return 0;
}

/* ---- allocation ------------------------------------------------------------------------ */
void *ksrc_kmalloc(size_t size, gfp_t flags);
#define kmalloc(s, f)			ksrc_kmalloc((s), (f))
#define kmalloc_node(s, f, n)		ksrc_kmalloc((s), (f))
#define kcalloc(n, s, f)		kcalloc_node((n), (s), (f), -1)
#define kfree_rcu(p, f)			kfree(p)
#define kvfree(p)			kfree(p)
#define kstrdup(s, g)			KSRC_UNEXPECTED(char *, kstrdup, s, g)
struct kmem_cache { size_t size; };
#define KMEM_CACHE(s, f)		ksrc_kmem_cache_create(sizeof(struct s))
struct kmem_cache *ksrc_kmem_cache_create(size_t size);
#define kmem_cache_alloc_node(c, f, n)	kzalloc((c)->size, (f))
#define kmem_cache_zalloc(c, f)		kzalloc((c)->size, (f))
#define kmem_cache_free(c, p)		((void)(c), kfree(p))
#define SLAB_PANIC			0x00040000U
#define GFP_ATOMIC			0x820u
#define GFP_NOWAIT			0x800u
#define __GFP_ACCOUNT			0x400000u
#define GFP_KERNEL_ACCOUNT		(GFP_KERNEL | __GFP_ACCOUNT)
#define NUMA_NO_NODE			(-1)
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));

/* ---- idr: a small table of ids (an id may be taken with a NULL pointer) ------------------ */
struct idr { void **ptrs; bool *used; int nr; };
#define DEFINE_IDR(name)		struct idr name = { NULL, NULL, 0 }
#define idr_init(i)			((i)->ptrs = NULL, (i)->used = NULL, (i)->nr = 0)
int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp);
void *idr_find(const struct idr *idr, unsigned long id);
void *idr_remove(struct idr *idr, unsigned long id);
void *idr_replace(struct idr *idr, void *ptr, unsigned long id);

/*
 * ---- min-heap (<linux/min_heap.h>) -----------------------------------------------------
 * v6.11 ("lib min_heap: add type-safe interface") made the heap a type of
 * its caller's (DEFINE_MIN_HEAP) and gave the callbacks an argument; the
 * trees before have struct min_heap and the element size in the callbacks.
 */
void ksrc_min_heap_sift_down(void *data, int nr, size_t elem_size, int pos,
			     bool (*less)(const void *, const void *, void *),
			     void (*swp)(void *, void *, void *), void *args,
			     bool (*less2)(const void *, const void *), void (*swp2)(void *, void *));
#if KSRC_VERSION_CODE >= KSRC_KERNEL_VERSION(6, 11, 0)
#define DEFINE_MIN_HEAP(type, name)		\
	struct name {				\
		int nr;				\
		int size;			\
		type *data;			\
		type preallocated[];		\
	}
struct min_heap_callbacks {
	bool (*less)(const void *lhs, const void *rhs, void *args);
	void (*swp)(void *lhs, void *rhs, void *args);
};
#define min_heap_sift_down(h, pos, f, a)	\
	ksrc_min_heap_sift_down((h)->data, (h)->nr, sizeof(*(h)->data), (pos), (f)->less, (f)->swp, (a), NULL, NULL)
#define min_heapify_all(h, f, a) do {							\
	for (int __i = (h)->nr / 2 - 1; __i >= 0; __i--)				\
		min_heap_sift_down((h), __i, (f), (a));					\
} while (0)
#define min_heap_pop(h, f, a) do {							\
	if ((h)->nr > 0) {								\
		(h)->nr--;								\
		memcpy(&(h)->data[0], &(h)->data[(h)->nr], sizeof(*(h)->data));		\
		min_heap_sift_down((h), 0, (f), (a));					\
	}										\
} while (0)
#else
struct min_heap {
	void *data;
	int nr;
	int size;
};
struct min_heap_callbacks {
	int elem_size;
	bool (*less)(const void *lhs, const void *rhs);
	void (*swp)(void *lhs, void *rhs);
};
#define min_heapify(h, pos, f)	\
	ksrc_min_heap_sift_down((h)->data, (h)->nr, (f)->elem_size, (pos), NULL, NULL, NULL, (f)->less, (f)->swp)
#define min_heapify_all(h, f) do {							\
	for (int __i = (h)->nr / 2 - 1; __i >= 0; __i--)				\
		min_heapify((h), __i, (f));						\
} while (0)
#define min_heap_pop(h, f) do {								\
	if ((h)->nr > 0) {								\
		char *__d = (h)->data;							\
		(h)->nr--;								\
		memcpy(__d, __d + (size_t)(h)->nr * (f)->elem_size, (f)->elem_size);	\
		min_heapify((h), 0, (f));						\
	}										\
} while (0)
#endif

/* ---- hashes ---------------------------------------------------------------------------- */
#define GOLDEN_RATIO_64			0x61C8864680B583EBull
static inline u32 hash_64(u64 val, unsigned int bits) { return (u32)(val * GOLDEN_RATIO_64 >> (64 - bits)); }
static inline u32 hash32_ptr(const void *ptr)
{
	unsigned long v = (unsigned long)ptr;

	return (u32)(v ^ (v >> 32));
}
#define hash_long(v, b)			hash_64((v), (b))

/* ---- user copies: user memory is this process's --------------------------------------- */
#define copy_from_user(to, from, n)	(__builtin_memcpy((to), (from), (n)), 0UL)
#define copy_to_user(to, from, n)	(__builtin_memcpy((to), (from), (n)), 0UL)
#define get_user(x, p)			({ (x) = *(p); 0; })
#define put_user(x, p)			({ *(p) = (x); 0; })
int copy_struct_from_user(void *dst, size_t ksize, const void __user *src, size_t usize);
#define access_ok(p, n)			((void)(p), 1)
#define TASK_SIZE			(1UL << 47)
#define TASK_SIZE_MAX			TASK_SIZE

#endif /* KSRC_CORE_CUSTOMISED_H */

/* ---- time as the bridge says (functions: core.c takes their addresses) ---- */
#ifndef KSRC_CORE_CUSTOMISED_TIME
#define KSRC_CORE_CUSTOMISED_TIME
#undef local_clock
#undef ktime_get_mono_fast_ns
#undef ktime_get_raw_fast_ns
#undef ktime_get_real_ns
#undef ktime_get_boottime_ns
#undef ktime_get_clocktai_ns
u64 local_clock(void);
u64 ktime_get_mono_fast_ns(void);
u64 ktime_get_raw_fast_ns(void);
u64 ktime_get_real_ns(void);
u64 ktime_get_boottime_ns(void);
u64 ktime_get_clocktai_ns(void);

#define WARN(cond, fmt...)		WARN_ON_ONCE(cond)
#define WARN_ONCE(cond, fmt...)		WARN_ON_ONCE(cond)
#define BUG_ON(cond)			do { if (unlikely(cond)) ksrc_core_unexpected("BUG_ON(" #cond ")"); } while (0)
#define BUG()				ksrc_core_unexpected("BUG()")
#define DEFINE_IRQ_WORK(name, f)	struct irq_work name = { .func = (f) }
#define get_irq_regs()			ksrc_irq_regs
extern struct pt_regs *ksrc_irq_regs;

/* strings */
/* the two-argument form (size from the array) is what newer trees call */
#define ksrc_strscpy3(d, s, n)		({ size_t __n = (n); strncpy((d), (s), __n); (d)[__n - 1] = 0; (ssize_t)strlen(d); })
#define ksrc_strscpy2(d, s)		ksrc_strscpy3(d, s, sizeof(d))
#define ksrc_strscpy_pick(_1, _2, _3, name, ...) name
#define strscpy(...)			ksrc_strscpy_pick(__VA_ARGS__, ksrc_strscpy3, ksrc_strscpy2)(__VA_ARGS__)
int scnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((__format__(printf, 3, 4)));
int sprintf(char *buf, const char *fmt, ...) __attribute__((__format__(printf, 2, 3)));
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtoint(const char *s, unsigned int base, int *res);
/* strlcpy, which core.c called before v6.8 */
#define strlcpy(d, s, n)		({ size_t __n = (n); strncpy((d), (s), __n); (d)[__n - 1] = 0; strlen(s); })
/*
 * O_ASYNC on an event fd (perf_fasync()): every file is an anonymous
 * perf file of one inode, whose lock is a no-op; fasync_helper() keeps one
 * owner per fd, kill_fasync() counts the SIGIOs and keeps the last band
 * for ksrc_core_sigio() (core_shim.c).
 */
#undef file_inode
#define file_inode(f)			((void)(f), &ksrc_anon_inode)
#undef inode_lock
#define inode_lock(i)			((void)(i))
#undef inode_unlock
#define inode_unlock(i)			((void)(i))
extern struct inode ksrc_anon_inode;
int fasync_helper(int fd, struct file *filp, int on, struct fasync_struct **fapp);
void kill_fasync(struct fasync_struct **fp, int sig, int band);

/* files: a small table (core_shim.c), for perf_event_open's fds */
struct file *anon_inode_getfile(const char *name, const struct file_operations *fops, void *priv, int flags);
int get_unused_fd_flags(unsigned int flags);
void put_unused_fd(unsigned int fd);
void fd_install(unsigned int fd, struct file *file);
struct fd fdget(unsigned int fd);
#define fdput(f)			((void)(f))
#define fd_file(f)			((f).file)
struct file *fget(unsigned int fd);
void fput(struct file *file);
#define get_file(f)			({ (f)->f_count++; (f); })
#define EMPTY_FD			((struct fd){ NULL, 0 })
#define O_RDWR				02
#define O_CLOEXEC			02000000

#define down_read_interruptible(s)	((void)(s), 0)
#define down_read(s)			((void)(s))
#define up_read(s)			((void)(s))

/* credentials and users: one user, no limits */
struct user_struct *get_current_user(void);
void free_uid(struct user_struct *user);
#undef current_user
#define current_user()			get_current_user_noref()
struct user_struct *get_current_user_noref(void);
#undef __task_cred
#define __task_cred(t)			((void)(t), &ksrc_cred)
#define current_cred()			(&ksrc_cred)
extern const struct cred ksrc_cred;
#endif
