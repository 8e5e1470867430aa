/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stubbed: x86 kernel facilities lbr.c names but whose work has no
 * counterpart here. One CPU per unit, so per-CPU variables are plain ones;
 * static calls are never called by lbr.c (declarations only); printk's
 * continuation lines print nothing; the xsave instructions and the slab
 * caches are link-time stubs (ksrc/arch/x86/events/core_stubs.c): no
 * model CPU has XSAVES, and a cache only remembers its object size.
 */
#ifndef KSRC_X86_SHIM_STUBBED_H
#define KSRC_X86_SHIM_STUBBED_H

#include <shim/x86_customised.h>

#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name
#define DEFINE_PER_CPU(type, name)	__typeof__(type) name
#define this_cpu_ptr(ptr)		(ptr)
#define per_cpu_ptr(ptr, cpu)		((void)(cpu), (ptr))
#define __this_cpu_read(var)		(var)
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)

#define DECLARE_STATIC_CALL(name, func)	extern int __ksrc_static_call_##name

#define pr_cont(fmt, ...)		do { } while (0)
#define pr_warn(fmt, ...)		do { } while (0)

typedef struct { int locked; } raw_spinlock_t;

/* sysfs: perf_event.h declares its show functions, which lbr.c never calls */
struct device;
struct device_attribute;

/* No groups: an event has no siblings. */
#define for_each_sibling_event(sibling, event) \
	for ((sibling) = NULL, (void)(event); (sibling); (sibling) = NULL)

struct kmem_cache;
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     unsigned long flags, void (*ctor)(void *));
void *kmem_cache_alloc_node(struct kmem_cache *cache, gfp_t flags, int node);
void kmem_cache_free(struct kmem_cache *cache, void *obj);

void xsaves(struct xregs_state *xstate, u64 mask);
void xrstors(struct xregs_state *xstate, u64 mask);
int xfeature_size(int xfeature_nr);

#endif /* KSRC_X86_SHIM_STUBBED_H */
