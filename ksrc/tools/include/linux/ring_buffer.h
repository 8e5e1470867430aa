/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * customised: the tree's tools/include/linux/ring_buffer.h, except under
 * ThreadSanitizer. On x86 the tree reads data_head with a volatile load
 * and a compiler barrier and stores data_tail the same way (acquire and
 * release on a TSO CPU, and the same mov instructions as the C11 atomics
 * below); ThreadSanitizer knows C11 atomics only, so there the two
 * accesses are restated as what they mean. The rest of libperf's
 * mmap.c is the tree's.
 */
#ifndef PMUSIM_KSRC_TOOLS_LINUX_RING_BUFFER_H
#define PMUSIM_KSRC_TOOLS_LINUX_RING_BUFFER_H

#ifndef __SANITIZE_THREAD__
#include_next <linux/ring_buffer.h>
#else
#include <asm/barrier.h>
#include <linux/perf_event.h>

static inline u64 ring_buffer_read_head(struct perf_event_mmap_page *base)
{
	return __atomic_load_n(&base->data_head, __ATOMIC_ACQUIRE);
}

static inline void ring_buffer_write_tail(struct perf_event_mmap_page *base, u64 tail)
{
	__atomic_store_n(&base->data_tail, tail, __ATOMIC_RELEASE);
}
#endif

#endif /* PMUSIM_KSRC_TOOLS_LINUX_RING_BUFFER_H */
