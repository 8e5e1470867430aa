/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel.h - the one shim between pmusim's core/ and the host.
 *
 * Everything core/ would take from the kernel's own headers comes from
 * here, sorted by what it is:
 *
 *   customised: READ_ONCE/WRITE_ONCE and the barriers are C11 atomics, so
 *               the same code is exact under ThreadSanitizer on real
 *               threads; local_t is a long with relaxed atomic RMW ops.
 *   customised: interleaving points (perf_interleave()) mark each place
 *               where an IRQ/NMI may run or another CPU may look; tests
 *               and fuzzers hook them (CONFIG_PERF_INTERLEAVE).
 *   customised: kzalloc/kfree go through a runtime that can fail on
 *               demand (pmusim_alloc_fail_after()).
 *   duplicated: likely/unlikely, IS_ENABLED, min/max, ALIGN, BIT, errno.
 *   stubbed:    rcu_read_lock/unlock, preempt_disable/enable are no-ops:
 *               pmusim frees nothing while a writer runs.
 */
#ifndef PMUSIM_CORE_KERNEL_H
#define PMUSIM_CORE_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>

#include <generated/autoconf.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* ---- duplicated ------------------------------------------------------ */

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * IS_ENABLED(CONFIG_FOO) is 1 when autoconf.h defines CONFIG_FOO to 1 and 0
 * when it does not define it, so both arms of an if () are compiled in
 * every configuration. The kernel does it with the same argument-shift
 * trick; this is a small re-statement of it.
 */
#define __PMUSIM_ARG_PLACEHOLDER_1 0,
#define __pmusim_take_second(ignored, val, ...) val
#define __pmusim_is_defined(x) ___pmusim_is_defined(x)
#define ___pmusim_is_defined(val) ____pmusim_is_defined(__PMUSIM_ARG_PLACEHOLDER_##val)
#define ____pmusim_is_defined(arg1_or_junk) __pmusim_take_second(arg1_or_junk 1, 0, 0)
#define IS_ENABLED(option) __pmusim_is_defined(option)

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define is_power_of_2(n)	((n) != 0 && (((n) & ((n) - 1)) == 0))
/* floor(log2(@n)) of an @n above 0 */
static inline int ilog2(unsigned long n) { return 63 - __builtin_clzl(n); }

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * A coverage build (COVERAGE=1) keeps forced-inline functions out of
 * line: gcov gives each inlined copy counters of its own, so a branch
 * would count once per call site, and a copy whose caller passes a
 * constant would count arms no call can take. Out of line, the -O0 code
 * has one copy per function (one per file for a static inline, which lcov
 * adds up), exactly what the source says. Only the inlining changes.
 */
#ifdef PMUSIM_COVERAGE
#undef __always_inline
#define __always_inline inline
#elif !defined(__always_inline)
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline __attribute__((noinline))
#define __maybe_unused __attribute__((unused))

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

/* ---- customised: memory model ---------------------------------------- */

/*
 * READ_ONCE/WRITE_ONCE are relaxed atomic accesses: the kernel's volatile
 * accesses give the same single-copy atomicity, and the C11 spelling lets
 * TSan see that the race is intended. On x86 builds without sanitizers
 * they are the kernel's volatile accesses, as local_read/local_set are
 * below, and for the same reason: GCC gives an atomic access an address
 * register of its own, and in a loop it keeps that address live
 * throughout (bench_ringbuf's writer held &event->rb in a register for
 * the whole loop and spilled three of its own values for it: 2
 * instructions a record). An aligned scalar's volatile access is one
 * move either way, and smp_*() are compiler barriers for it too.
 */
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#elif !defined(__SANITIZE_THREAD__)
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#else
/*
 * ThreadSanitizer does not model fences (GCC's -Wtsan says so), so it
 * would not see the barrier pairs below order anything. Under TSan,
 * READ_ONCE is an acquire load and WRITE_ONCE a release store: stronger
 * than the kernel's, and they hand the tool the edges the pairs make.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#endif

/*
 * customised: with CONFIG_PERF_INTERLEAVE a single-threaded harness can
 * see every store fence (smp_wmb, smp_mb) and so model a store buffer:
 * stores become visible to other CPUs, in no particular order, only at a
 * fence (fuzz/fuzz_ringbuf.c checks a record is fenced before data_head
 * covers it). Ordinary builds compile it away.
 */
extern void (*perf_store_fence_hook)(void);
static inline void perf_store_fence(void)
{
	if (IS_ENABLED(CONFIG_PERF_INTERLEAVE)) {
		void (*fn)(void) = perf_store_fence_hook;

		if (fn)
			fn();
	}
}

/* The compiler forgets what it knew of @var's value (no instruction). */
#define OPTIMIZER_HIDE_VAR(var)	__asm__("" : "+r"(var))

/* A compiler barrier: no reordering by the compiler, no CPU fence. */
#define barrier()		atomic_signal_fence(memory_order_seq_cst)
/*
 * The SMP barriers are fences. smp_rmb/smp_wmb are stronger than needed
 * (acquire/release fences order loads and stores both ways on the side
 * they guard), which is what lets them pair with the reader's
 * smp_load_acquire/smp_store_release exactly as the kernel's comment in
 * ring_buffer.c describes.
 */
#define smp_mb()		do { atomic_thread_fence(memory_order_seq_cst); \
				     perf_store_fence(); } while (0)
#define smp_rmb()		atomic_thread_fence(memory_order_acquire)
#define smp_wmb()		do { atomic_thread_fence(memory_order_release); \
				     perf_store_fence(); } while (0)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/*
 * local_t: a per-CPU counter that only its own CPU (and that CPU's NMIs)
 * modifies. Relaxed atomics are exactly right: nesting on one CPU needs
 * the RMW to be indivisible, not ordered against other CPUs.
 */
typedef struct { long a; } local_t;

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
/*
 * As on x86 Linux: single instructions without the LOCK prefix. An
 * interrupt (a signal, in the stress test) sees them whole, and no other
 * CPU writes a local_t, so the bus lock would buy nothing. Sanitizer
 * builds use the C11 spelling so the tools can see the accesses.
 * local_read/local_set are volatile accesses, as the kernel's are: GCC
 * gives an atomic access to a field an address register of its own (a
 * lea in front), where a volatile one addresses the field directly.
 */
static inline long local_read(local_t *l) { return *(volatile long *)&l->a; }
static inline void local_set(local_t *l, long v) { *(volatile long *)&l->a = v; }
static inline void local_add(long v, local_t *l) { __asm__ volatile("addq %1, %0" : "+m"(l->a) : "er"(v) : "memory"); }
static inline void local_sub(long v, local_t *l) { __asm__ volatile("subq %1, %0" : "+m"(l->a) : "er"(v) : "memory"); }
static inline void local_inc(local_t *l) { __asm__ volatile("incq %0" : "+m"(l->a) : : "memory"); }
static inline long local_inc_return(local_t *l)
{
	long v = 1;

	__asm__ volatile("xaddq %0, %1" : "+r"(v), "+m"(l->a) : : "memory");
	return v + 1;
}
static inline bool local_try_cmpxchg(local_t *l, long *old, long new)
{
	bool ok;

	__asm__ volatile("cmpxchgq %3, %1"
			 : "=@ccz"(ok), "+m"(l->a), "+a"(*old)
			 : "r"(new) : "memory");
	return ok;
}
#else
static inline long local_read(local_t *l) { return __atomic_load_n(&l->a, __ATOMIC_RELAXED); }
static inline void local_set(local_t *l, long v) { __atomic_store_n(&l->a, v, __ATOMIC_RELAXED); }
static inline void local_add(long v, local_t *l) { __atomic_fetch_add(&l->a, v, __ATOMIC_RELAXED); }
static inline void local_sub(long v, local_t *l) { __atomic_fetch_sub(&l->a, v, __ATOMIC_RELAXED); }
static inline void local_inc(local_t *l) { __atomic_fetch_add(&l->a, 1, __ATOMIC_RELAXED); }
static inline long local_inc_return(local_t *l) { return __atomic_add_fetch(&l->a, 1, __ATOMIC_RELAXED); }
static inline bool local_try_cmpxchg(local_t *l, long *old, long new)
{
	return __atomic_compare_exchange_n(&l->a, old, new, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
#endif
/* xchg is always locked on x86: the kernel's local_xchg is too. */
static inline long local_xchg(local_t *l, long v) { return __atomic_exchange_n(&l->a, v, __ATOMIC_RELAXED); }

typedef struct { int64_t a; } local64_t;
static inline int64_t local64_read(local64_t *l) { return __atomic_load_n(&l->a, __ATOMIC_RELAXED); }
static inline void local64_set(local64_t *l, int64_t v) { __atomic_store_n(&l->a, v, __ATOMIC_RELAXED); }
static inline void local64_add(int64_t v, local64_t *l) { __atomic_fetch_add(&l->a, v, __ATOMIC_RELAXED); }
static inline int64_t local64_xchg(local64_t *l, int64_t v) { return __atomic_exchange_n(&l->a, v, __ATOMIC_RELAXED); }
static inline bool local64_try_cmpxchg(local64_t *l, int64_t *old, int64_t new)
{
	return __atomic_compare_exchange_n(&l->a, old, new, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

typedef struct { int a; } atomic_t;
static inline int atomic_read(const atomic_t *v) { return __atomic_load_n(&v->a, __ATOMIC_RELAXED); }
static inline void atomic_set(atomic_t *v, int i) { __atomic_store_n(&v->a, i, __ATOMIC_RELAXED); }
static inline void atomic_inc(atomic_t *v) { __atomic_fetch_add(&v->a, 1, __ATOMIC_SEQ_CST); }
static inline void atomic_add(int i, atomic_t *v) { __atomic_fetch_add(&v->a, i, __ATOMIC_SEQ_CST); }
static inline int atomic_inc_return(atomic_t *v) { return __atomic_add_fetch(&v->a, 1, __ATOMIC_SEQ_CST); }
static inline int atomic_dec_return(atomic_t *v) { return __atomic_sub_fetch(&v->a, 1, __ATOMIC_SEQ_CST); }
static inline bool atomic_dec_and_test(atomic_t *v) { return atomic_dec_return(v) == 0; }
static inline int atomic_xchg(atomic_t *v, int i) { return __atomic_exchange_n(&v->a, i, __ATOMIC_SEQ_CST); }

typedef struct { int64_t a; } atomic64_t;
static inline int64_t atomic64_read(const atomic64_t *v) { return __atomic_load_n(&v->a, __ATOMIC_RELAXED); }
static inline void atomic64_set(atomic64_t *v, int64_t i) { __atomic_store_n(&v->a, i, __ATOMIC_RELAXED); }
static inline void atomic64_inc(atomic64_t *v) { __atomic_fetch_add(&v->a, 1, __ATOMIC_SEQ_CST); }
static inline void atomic64_add(int64_t i, atomic64_t *v) { __atomic_fetch_add(&v->a, i, __ATOMIC_SEQ_CST); }

typedef struct { atomic_t refs; } refcount_t;
static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t *r) { return (unsigned int)atomic_read(&r->refs); }
static inline void refcount_inc(refcount_t *r) { atomic_inc(&r->refs); }
static inline bool refcount_dec_and_test(refcount_t *r) { return atomic_dec_and_test(&r->refs); }

/* ---- stubbed ----------------------------------------------------------- */

#define rcu_read_lock()		do { } while (0)
#define rcu_read_unlock()	do { } while (0)
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()

/* ---- customised: warnings ---------------------------------------------- */

/*
 * WARN_ON_ONCE reports through pmusim_warn(), which counts; tests assert
 * that a run produced no warning. The condition is evaluated whatever the
 * configuration, as in the kernel.
 */
void pmusim_warn(const char *file, int line, const char *cond);
unsigned long pmusim_warn_count(void);
#define WARN_ON_ONCE(cond) ({						\
	bool __w = !!(cond);						\
	if (unlikely(__w) && IS_ENABLED(CONFIG_DEBUG_PERF)) {		\
		static bool __warned;					\
		if (!__warned) {					\
			__warned = true;				\
			pmusim_warn(__FILE__, __LINE__, #cond);		\
		}							\
	}								\
	__w;								\
})
#define WARN_ON(cond) WARN_ON_ONCE(cond)

/* ---- customised: allocation with failure injection --------------------- */

void *kzalloc(size_t size);
void *kcalloc(size_t n, size_t size);
void kfree(const void *p);
/* After @n more successful allocations, every allocation fails; -1 disarms. */
void pmusim_alloc_fail_after(long n);

/* ---- customised: interleaving points ------------------------------------ */

/*
 * An interleaving point names a place where, on real hardware, an NMI can
 * arrive on this CPU or another CPU can observe shared state. The list is
 * in core/interleave.h next to the hook's definition; the points are
 * marked with perf_interleave(PI_...) in the code.
 */
#include "interleave.h"

#endif /* PMUSIM_CORE_KERNEL_H */
