/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * customised: the kernel's primitives, changed for testing. Same meaning
 * as the kernel's, and each access that core/ marks as an interleaving
 * point also tells ksrc_access_hook (before and after it), so the race
 * schedules of tests and fuzzers reach the kernel's own file:
 *
 *   READ_ONCE/WRITE_ONCE, rcu_dereference  relaxed C11 atomics (acquire/
 *                         release under ThreadSanitizer, as core/kernel.h)
 *   local_t               x86's single instructions without LOCK, as the
 *                         kernel's <asm/local.h> has them (C11 under the
 *                         sanitizers)
 *   smp_wmb, smp_mb       also call perf_store_fence_hook: the store-buffer
 *                         model of fuzz_ringbuf sees the kernel's fences
 *   memcpy                a chunk of output: PI_OUTPUT_COPY
 *   atomic_t, atomic64_t, refcount_t  C11 atomics
 *   WARN_ON_ONCE          reported through pmusim_warn(), as core/ does
 *   kzalloc & co          the C allocator, declared here, defined in
 *                         ksrc/kernel/events/core_stubs.c
 * The hook is only called with CONFIG_PERF_INTERLEAVE; ksrc/ring_buffer_
 * bridge.c turns the accesses into core/interleave.h's points.
 */
#ifndef KSRC_SHIM_CUSTOMISED_H
#define KSRC_SHIM_CUSTOMISED_H

#include <stdatomic.h>
#include <shim/duplicated.h>

/* ---- the access hook -------------------------------------------------- */

enum ksrc_prim {
	KSRC_READ_ONCE,		/* READ_ONCE(), rcu_dereference() */
	KSRC_WRITE_ONCE,
	KSRC_LOCAL_READ,
	KSRC_LOCAL_SET,
	KSRC_LOCAL_ADD,		/* local_add/sub/inc/dec */
	KSRC_LOCAL_INC_RETURN,
	KSRC_LOCAL_XCHG,
	KSRC_LOCAL_CMPXCHG,	/* after: val is 1 when it swapped */
	KSRC_COPY,		/* memcpy() of output: val is the length */
};

enum ksrc_phase { KSRC_BEFORE, KSRC_AFTER };

typedef void (*ksrc_access_fn)(enum ksrc_prim prim, const volatile void *addr,
			       enum ksrc_phase phase, long val);
extern ksrc_access_fn ksrc_access_hook;

static __always_inline void ksrc_access(enum ksrc_prim prim, const volatile void *addr,
					enum ksrc_phase phase, long val)
{
	if (IS_ENABLED(CONFIG_PERF_INTERLEAVE)) {
		ksrc_access_fn fn = ksrc_access_hook;

		if (fn)
			fn(prim, addr, phase, val);
	}
}

/* ---- memory model ------------------------------------------------------- */

#ifndef __SANITIZE_THREAD__
#define __KSRC_LOAD	__ATOMIC_RELAXED
#define __KSRC_STORE	__ATOMIC_RELAXED
#else
/* TSan does not see fences: give it the edges the barrier pairs make. */
#define __KSRC_LOAD	__ATOMIC_ACQUIRE
#define __KSRC_STORE	__ATOMIC_RELEASE
#endif

#define READ_ONCE(x) ({							\
	__typeof__(&(x)) __p = &(x);					\
	ksrc_access(KSRC_READ_ONCE, __p, KSRC_BEFORE, 0);		\
	__auto_type __v = __atomic_load_n(__p, __KSRC_LOAD);		\
	ksrc_access(KSRC_READ_ONCE, __p, KSRC_AFTER, 0);		\
	__v;								\
})
#define WRITE_ONCE(x, v) do {						\
	__typeof__(&(x)) __p = &(x);					\
	ksrc_access(KSRC_WRITE_ONCE, __p, KSRC_BEFORE, 0);		\
	__atomic_store_n(__p, (v), __KSRC_STORE);			\
	ksrc_access(KSRC_WRITE_ONCE, __p, KSRC_AFTER, 0);		\
} while (0)
#define rcu_dereference(p)	READ_ONCE(p)

/* pmusim's store-buffer hook (core/kernel.c): a fence makes stores visible */
extern void (*perf_store_fence_hook)(void);
static __always_inline void ksrc_store_fence(void)
{
	if (IS_ENABLED(CONFIG_PERF_INTERLEAVE)) {
		void (*fn)(void) = perf_store_fence_hook;

		if (fn)
			fn();
	}
}

#define barrier()		atomic_signal_fence(memory_order_seq_cst)
#define smp_mb()		do { atomic_thread_fence(memory_order_seq_cst); ksrc_store_fence(); } while (0)
#define smp_rmb()		atomic_thread_fence(memory_order_acquire)
#define smp_wmb()		do { atomic_thread_fence(memory_order_release); ksrc_store_fence(); } while (0)

/* ---- local_t ---------------------------------------------------------- */

typedef struct { long a; } local_t;

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
static __always_inline void __ksrc_local_add(long v, local_t *l)
{
	__asm__ volatile("addq %1, %0" : "+m"(l->a) : "er"(v) : "memory");
}
static __always_inline long __ksrc_local_add_return(long v, local_t *l)
{
	long old = v;

	__asm__ volatile("xaddq %0, %1" : "+r"(old), "+m"(l->a) : : "memory");
	return old + v;
}
static __always_inline bool __ksrc_local_try_cmpxchg(local_t *l, long *old, long new)
{
	bool ok;

	__asm__ volatile("cmpxchgq %3, %1" : "=@ccz"(ok), "+m"(l->a), "+a"(*old)
			 : "r"(new) : "memory");
	return ok;
}
#else
static __always_inline void __ksrc_local_add(long v, local_t *l)
{
	__atomic_fetch_add(&l->a, v, __ATOMIC_RELAXED);
}
static __always_inline long __ksrc_local_add_return(long v, local_t *l)
{
	return __atomic_add_fetch(&l->a, v, __ATOMIC_RELAXED);
}
static __always_inline bool __ksrc_local_try_cmpxchg(local_t *l, long *old, long new)
{
	return __atomic_compare_exchange_n(&l->a, old, new, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
#endif

static __always_inline long local_read(local_t *l)
{
	long v;

	ksrc_access(KSRC_LOCAL_READ, l, KSRC_BEFORE, 0);
	v = __atomic_load_n(&l->a, __ATOMIC_RELAXED);
	ksrc_access(KSRC_LOCAL_READ, l, KSRC_AFTER, v);
	return v;
}
static __always_inline void local_set(local_t *l, long v)
{
	ksrc_access(KSRC_LOCAL_SET, l, KSRC_BEFORE, v);
	__atomic_store_n(&l->a, v, __ATOMIC_RELAXED);
	ksrc_access(KSRC_LOCAL_SET, l, KSRC_AFTER, v);
}
static __always_inline void local_add(long v, local_t *l)
{
	ksrc_access(KSRC_LOCAL_ADD, l, KSRC_BEFORE, v);
	__ksrc_local_add(v, l);
	ksrc_access(KSRC_LOCAL_ADD, l, KSRC_AFTER, v);
}
#define local_sub(v, l)		local_add(-(long)(v), (l))
#define local_inc(l)		local_add(1, (l))
#define local_dec(l)		local_add(-1, (l))
static __always_inline long local_inc_return(local_t *l)
{
	long v;

	ksrc_access(KSRC_LOCAL_INC_RETURN, l, KSRC_BEFORE, 0);
	v = __ksrc_local_add_return(1, l);
	ksrc_access(KSRC_LOCAL_INC_RETURN, l, KSRC_AFTER, v);
	return v;
}
/* xchg is locked on x86 whatever the prefix: so is the kernel's local_xchg */
static __always_inline long local_xchg(local_t *l, long n)
{
	long v;

	ksrc_access(KSRC_LOCAL_XCHG, l, KSRC_BEFORE, n);
	v = __atomic_exchange_n(&l->a, n, __ATOMIC_RELAXED);
	ksrc_access(KSRC_LOCAL_XCHG, l, KSRC_AFTER, v);
	return v;
}
static __always_inline bool local_try_cmpxchg(local_t *l, long *old, long new)
{
	bool ok;

	ksrc_access(KSRC_LOCAL_CMPXCHG, l, KSRC_BEFORE, new);
	ok = __ksrc_local_try_cmpxchg(l, old, new);
	ksrc_access(KSRC_LOCAL_CMPXCHG, l, KSRC_AFTER, ok);
	return ok;
}
/* The kernel's local_try_cmpxchg() takes a long *; ring_buffer.c passes unsigned long *. */
#define local_try_cmpxchg(l, old, new) local_try_cmpxchg((l), (long *)(old), (long)(new))
/* The value it found: what ring_buffer.c called before v6.5 (the same instruction). */
static __always_inline long local_cmpxchg(local_t *l, long old, long new)
{
	long found = old;
	bool ok;

	ksrc_access(KSRC_LOCAL_CMPXCHG, l, KSRC_BEFORE, new);
	ok = __ksrc_local_try_cmpxchg(l, &found, new);
	ksrc_access(KSRC_LOCAL_CMPXCHG, l, KSRC_AFTER, ok);
	return found;
}

/* ---- atomics ----------------------------------------------------------- */

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
typedef struct { atomic_t refs; } refcount_t;

#define atomic_read(v)		__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_inc(v)		((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic64_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic64_inc(v)		((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_SEQ_CST))

#define REFCOUNT_INIT(n)	{ .refs = { .counter = (n) } }
static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t *r) { return (unsigned int)atomic_read(&r->refs); }
static inline void refcount_inc(refcount_t *r) { atomic_inc(&r->refs); }
static inline bool refcount_dec_and_test(refcount_t *r)
{
	return __atomic_sub_fetch(&r->refs.counter, 1, __ATOMIC_SEQ_CST) == 0;
}
static inline bool refcount_inc_not_zero(refcount_t *r)
{
	int old = atomic_read(&r->refs);

	do {
		if (!old)
			return false;
	} while (!__atomic_compare_exchange_n(&r->refs.counter, &old, old + 1, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}

/* ---- output copies -------------------------------------------------------- */

static __always_inline void *ksrc_memcpy(void *dst, const void *src, size_t n)
{
	ksrc_access(KSRC_COPY, dst, KSRC_BEFORE, (long)n);
	__builtin_memcpy(dst, src, n);
	ksrc_access(KSRC_COPY, dst, KSRC_AFTER, (long)n);
	return dst;
}
#define memcpy(dst, src, n)	ksrc_memcpy((dst), (src), (n))

/* ---- warnings ------------------------------------------------------------- */

void pmusim_warn(const char *file, int line, const char *cond);
#define WARN_ON_ONCE(cond) ({						\
	bool __w = !!(cond);						\
	if (unlikely(__w)) {						\
		static bool __warned;					\
		if (!__warned) {					\
			__warned = true;				\
			pmusim_warn(__FILE__, __LINE__, #cond);		\
		}							\
	}								\
	__w;								\
})
#define WARN_ON(cond)		WARN_ON_ONCE(cond)

/* ---- allocation (ksrc/kernel/events/core_stubs.c) -------------------------- */

void *kzalloc_node(size_t size, gfp_t flags, int node);
void *kcalloc_node(size_t n, size_t size, gfp_t flags, int node);
void kfree(const void *p);
#define kzalloc(size, flags)	kzalloc_node((size), (flags), -1)

#endif /* KSRC_SHIM_CUSTOMISED_H */
