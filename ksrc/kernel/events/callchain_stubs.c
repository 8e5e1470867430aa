// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/events/callchain.c is not in the core unit: what core.c calls in
 * it stops the program, naming the call (an event with
 * PERF_SAMPLE_CALLCHAIN gets here at perf_event_open()). Their signatures
 * changed between trees; these never return, so they take none and this
 * file includes no kernel header.
 */
#include <stdnoreturn.h>

#define PERF_MAX_STACK_DEPTH_K	127

noreturn void ksrc_core_unexpected(const char *what, ...);

int sysctl_perf_event_max_stack = PERF_MAX_STACK_DEPTH_K;

void get_callchain_buffers(void);
void get_callchain_buffers(void)
{
	ksrc_core_unexpected("get_callchain_buffers (kernel/events/callchain.c)");
}

void put_callchain_buffers(void);
void put_callchain_buffers(void)
{
	ksrc_core_unexpected("put_callchain_buffers (kernel/events/callchain.c)");
}

void get_perf_callchain(void);
void get_perf_callchain(void)
{
	ksrc_core_unexpected("get_perf_callchain (kernel/events/callchain.c)");
}
