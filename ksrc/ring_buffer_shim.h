/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the shim-side files built with kernel/events/ring_buffer.c
 * (the bridge and the stubs): the kernel's own internal.h, and what the
 * bridge tells the stubs.
 */
#ifndef PMUSIM_KSRC_RING_BUFFER_SHIM_H
#define PMUSIM_KSRC_RING_BUFFER_SHIM_H

#include <linux/perf_event.h>
#include "internal.h"		/* the kernel tree's kernel/events/internal.h */
#include "ksrc/ring_buffer_ksrc.h"

/* What runs now, for a LOST trailer (ksrc_set_running()). */
struct ksrc_running ksrc_running(struct perf_event *event);
void ksrc_perf_output_sample_wakeup(struct perf_output_handle *handle);

#endif /* PMUSIM_KSRC_RING_BUFFER_SHIM_H */
