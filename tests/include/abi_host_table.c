// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helper of tests/include/test_abi.c: the ABI facts of abi_list.h as the
 * host's <linux/perf_event.h> states them.
 *
 * Test build convention: tests/<dir>/test_<name>.c is one cmocka program,
 * linked with every tests/<dir>/<name>_*.c helper beside it. This file is
 * such a helper (abi_*.c for test_abi.c) and is compiled on its own: the
 * host's header and <pmusim/perf_event.h> define the same names, so they
 * must never meet in one translation unit.
 *
 * On a host without the header, or with one older than the comparison
 * knows how to handle, the table is empty and says why.
 */
#include <stddef.h>

#include "abi_table.h"

#if defined(__has_include)
#if __has_include(<linux/perf_event.h>) && __has_include(<linux/version.h>)
#define ABI_HOST_HEADER 1
#endif
#endif

#ifdef ABI_HOST_HEADER
#include <linux/perf_event.h>
#include <linux/version.h>

/* The list's version guards go back to 6.1; older headers lack more. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define ABI_SIDE_PMUSIM		0
#define ABI_SIDE_HAS(maj, min)	(LINUX_VERSION_CODE >= KERNEL_VERSION(maj, min, 0))
#include "abi_list.h"
#else
#define ABI_HOST_TOO_OLD 1
#endif
#endif /* ABI_HOST_HEADER */

static struct abi_table host_table;

const struct abi_table *abi_host_table(void)
{
	static int built;

	if (built)
		return &host_table;
	built = 1;
#if !defined(ABI_HOST_HEADER)
	host_table.unavailable =
		"the host has no <linux/perf_event.h> (and <linux/version.h>) to compare with";
#elif defined(ABI_HOST_TOO_OLD)
	host_table.unavailable =
		"the host's <linux/perf_event.h> is older than Linux 6.1, the oldest this test compares with";
#else
	abi_fill(&host_table);
#endif
	return &host_table;
}
