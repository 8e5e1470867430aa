// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link-time stubs for arch/x86/events/intel/lbr.c: what it takes from the
 * rest of the x86 driver (arch/x86/events/core.c and intel/core.c: the
 * x86_pmu description, the per-CPU cpu_hw_events, the PMU), from the
 * event core (perf_sched_cb_inc/dec), the slab, the xsave instructions
 * and the boot CPU's data. ksrc/lbr_bridge.c fills them as intel_pmu_init()
 * and intel_pmu_cpu_starting() would for the model CPU plugged in.
 * branch_type() and common_branch_type() (arch/x86/events/utils.c, which
 * decodes instruction bytes) are core/x86/branch_type.c's, through the
 * same text registry: the software filter's decoder is pmusim's on both
 * sides.
 */
#include <stdio.h>
#include <stdlib.h>

#include <events/perf_event.h>

struct x86_pmu x86_pmu;
DEFINE_PER_CPU(struct cpu_hw_events, cpu_hw_events);
struct cpuinfo_x86 boot_cpu_data;
struct static_key_false perf_is_hybrid;
struct model_cpu *ksrc_x86_cpu;
/* The ring-buffer shim's access hook: nobody listens in this unit. */
ksrc_access_fn ksrc_access_hook;

/* The "cpu" PMU: lbr.c keeps the task context's cache in it. */
static struct pmu ksrc_x86_pmu;

struct pmu *x86_get_pmu(unsigned int cpu)
{
	(void)cpu;
	return &ksrc_x86_pmu;
}

/* Every event the bridge makes is the x86 PMU's. */
int is_x86_event(struct perf_event *event)
{
	return event->pmu == &ksrc_x86_pmu;
}

/* The sched_task callback is the bridge's to call: only count. */
static int ksrc_sched_cb_usage;

void perf_sched_cb_inc(struct pmu *pmu)
{
	(void)pmu;
	ksrc_sched_cb_usage++;
}

void perf_sched_cb_dec(struct pmu *pmu)
{
	(void)pmu;
	ksrc_sched_cb_usage--;
}

int ksrc_x86_sched_cb_usage(void)
{
	return ksrc_sched_cb_usage;
}

void ksrc_x86_msr_unchecked(u32 msr, u64 val, bool write)
{
	fprintf(stderr, "pmusim: ksrc lbr.c: unchecked MSR access error: %s 0x%x (0x%llx)\n",
		write ? "WRMSR to" : "RDMSR from", msr, (unsigned long long)val);
	WARN_ON_ONCE(1);
}

/* ---- static keys: all off again for the next CPU model ------------------------ */

#define KSRC_MAX_STATIC_KEYS 16
static struct static_key_false *ksrc_static_keys[KSRC_MAX_STATIC_KEYS];
static unsigned int ksrc_nr_static_keys;

void ksrc_static_key_enable(struct static_key_false *key)
{
	unsigned int i;

	key->enabled = true;
	for (i = 0; i < ksrc_nr_static_keys; i++)
		if (ksrc_static_keys[i] == key)
			return;
	if (WARN_ON_ONCE(ksrc_nr_static_keys == KSRC_MAX_STATIC_KEYS))
		return;
	ksrc_static_keys[ksrc_nr_static_keys++] = key;
}

void ksrc_x86_static_keys_reset(void)
{
	for (unsigned int i = 0; i < ksrc_nr_static_keys; i++)
		ksrc_static_keys[i]->enabled = false;
}

/* ---- slab: a cache is its object size ---------------------------------------------- */

struct kmem_cache {
	size_t size;
};

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     unsigned long flags, void (*ctor)(void *))
{
	struct kmem_cache *c = calloc(1, sizeof(*c));

	(void)name;
	(void)align;
	(void)flags;
	(void)ctor;
	if (c)
		c->size = size;
	return c;
}

void *kmem_cache_alloc_node(struct kmem_cache *cache, gfp_t flags, int node)
{
	(void)flags;
	(void)node;
	return calloc(1, cache->size);
}

void kmem_cache_free(struct kmem_cache *cache, void *obj)
{
	(void)cache;
	free(obj);
}

size_t ksrc_x86_kmem_cache_size(struct kmem_cache *cache)
{
	return cache ? cache->size : 0;
}

void ksrc_x86_kmem_cache_destroy(struct kmem_cache *cache)
{
	free(cache);
}

/* ---- xsave: no model CPU has XSAVES, so lbr.c never gets here ------------------- */

void xsaves(struct xregs_state *xstate, u64 mask)
{
	(void)xstate;
	(void)mask;
	WARN_ON_ONCE(1);
}

void xrstors(struct xregs_state *xstate, u64 mask)
{
	(void)xstate;
	(void)mask;
	WARN_ON_ONCE(1);
}

int xfeature_size(int xfeature_nr)
{
	(void)xfeature_nr;
	return 0;
}
