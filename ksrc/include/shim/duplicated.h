/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * duplicated: what the kernel's headers define and the kernel files under
 * test use, restated with the kernel's names and meaning. Keep in sync
 * with the kernel: a change there that matters to a file under test must
 * be made here too (ksrc/README.md says how to find one).
 */
#ifndef KSRC_SHIM_DUPLICATED_H
#define KSRC_SHIM_DUPLICATED_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <generated/autoconf.h>
#include <generated/ksrc_tree.h>	/* KSRC_VERSION_CODE: what the shim versions */

/* <linux/types.h> */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;
typedef unsigned long pgoff_t;
typedef unsigned int gfp_t;
typedef unsigned int __poll_t;

/* <linux/compiler.h>, <linux/compiler_attributes.h> */
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define __cold			__attribute__((__cold__))
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __rcu
#define __user

/* <linux/kconfig.h>: IS_ENABLED(CONFIG_X) is 1 when autoconf.h sets it to 1 */
#define __KSRC_PLACEHOLDER_1		0,
#define __ksrc_second(ignored, val, ...) val
#define __ksrc_defined(x)		___ksrc_defined(x)
#define ___ksrc_defined(val)		____ksrc_defined(__KSRC_PLACEHOLDER_##val)
#define ____ksrc_defined(junk)		__ksrc_second(junk 1, 0, 0)
#ifndef IS_ENABLED
#define IS_ENABLED(option)		__ksrc_defined(option)
#endif

/* <linux/bits.h>, <linux/kernel.h>, <linux/minmax.h>, <linux/math.h> */
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define U32_MAX			((u32)~0U)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define min(a, b)	({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a < __b ? __a : __b; })
#define max(a, b)	({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a > __b ? __a : __b; })
#define min_t(t, a, b)	({ t __a = (a); t __b = (b); __a < __b ? __a : __b; })
#define max_t(t, a, b)	({ t __a = (a); t __b = (b); __a > __b ? __a : __b; })
#define rounddown(x, y)	({ __typeof__(x) __x = (x); __x - (__x % (y)); })

/* <linux/log2.h>: the argument is above 0 */
#define ilog2(n)		((int)(63 - __builtin_clzll((unsigned long long)(n))))
#define is_power_of_2(n)	((n) != 0 && (((n) & ((n) - 1)) == 0))
#define order_base_2(n)		((n) > 1 ? ilog2((n) - 1) + 1 : 0)

/* <asm/page.h>, <linux/mmzone.h> on x86-64 */
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define MAX_PAGE_ORDER		10
/*
 * MAX_ORDER, the name before v6.8 ("mm, treewide: rename MAX_ORDER to
 * MAX_PAGE_ORDER"), was one more than the largest order until v6.4 ("mm,
 * treewide: redefine MAX_ORDER sanely" made it the largest, and changed
 * ring_buffer.c's checks to match): each tree's check says the same.
 */
#if KSRC_VERSION_CODE < KSRC_KERNEL_VERSION(6, 4, 0)
#define MAX_ORDER		(MAX_PAGE_ORDER + 1)
#else
#define MAX_ORDER		MAX_PAGE_ORDER
#endif
static inline int get_order(unsigned long size)
{
	return size <= PAGE_SIZE ? 0 : ilog2((size - 1) >> PAGE_SHIFT) + 1;
}

/* <linux/gfp_types.h>: only passed along, never looked at but for __GFP_ZERO */
#define __GFP_ZERO		0x100u
#define __GFP_NOWARN		0x2000u
#define __GFP_NORETRY		0x10000u
#define GFP_KERNEL		0xcc0u

/* <linux/circ_buf.h> */
#define CIRC_CNT(head, tail, size)	(((head) - (tail)) & ((size) - 1))
#define CIRC_SPACE(head, tail, size)	CIRC_CNT((tail), ((head) + 1), (size))

/* <uapi/linux/eventpoll.h>, <uapi/asm-generic/siginfo.h> */
#define EPOLLIN			0x00000001u
#define EPOLLRDNORM		0x00000040u
#define POLL_IN			1

/* <linux/nospec.h>: the index if below @size, else 0 (no speculation here) */
#define array_index_nospec(index, size) ({			\
	__typeof__(index) __i = (index);			\
	__typeof__(size) __s = (size);				\
	(__typeof__(index))(__i < __s ? __i : 0);		\
})

/* Types the files name in their structs and never use. */
struct list_head { struct list_head *next, *prev; };
struct rcu_head { void *next; void (*func)(struct rcu_head *head); };
struct user_struct;
struct fasync_struct;
struct task_struct;
struct pt_regs;

#endif /* KSRC_SHIM_DUPLICATED_H */
