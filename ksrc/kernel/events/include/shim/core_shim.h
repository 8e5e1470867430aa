/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The core unit's shim (kernel/events/core.c with the tree's own
 * <linux/perf_event.h>): every <linux/...> and <asm/...> header the files
 * include is one line pulling in this, as tools/testing/vma's headers pull
 * in vma_internal.h. The kinds, each a header of its own:
 *   core_config.h       the minimal kernel .config the unit is built with
 *   the ring unit's shim/customised.h, stubbed.h, mm.h (ksrc/include)
 *   core_duplicated.h   the kernel's definitions, restated
 *   core_stubbed.h      what has no counterpart in one process
 *   core_customised.h   changed for testing
 */
#ifndef KSRC_CORE_SHIM_H
#define KSRC_CORE_SHIM_H

#include <shim/core_config.h>
#include <shim/mm.h>
#include <shim/core_duplicated.h>
#include <shim/core_stubbed.h>
#include <shim/core_customised.h>
#include <shim/core_newer.h>

#endif /* KSRC_CORE_SHIM_H */
