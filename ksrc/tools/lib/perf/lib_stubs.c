// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link-time stubs of the libperf_mmap unit: what tools/lib/perf/mmap.c
 * takes from libperf's and tools/lib's other files. lib.c's page_size (the bridge sets
 * it to the mapping's data_offset) and core.c's libperf_print, here as
 * perf's own printer is at verbosity 0: errors and warnings to stderr,
 * debug levels nowhere (libperf's default would print every
 * overwrite_rb_find_range step), and tools/lib/zalloc.c's __zfree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/zalloc.h>
#include <perf/core.h>

void libperf_print(enum libperf_print_level level, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

unsigned int page_size;

void libperf_print(enum libperf_print_level level, const char *format, ...)
{
	va_list args;

	if (level > LIBPERF_WARN)
		return;
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
}

void __zfree(void **ptr)
{
	free(*ptr);
	*ptr = NULL;
}
