/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every harness in fuzz/ shares: the libFuzzer entry points, which
 * the three drivers call (libFuzzer itself, fuzz/afl_main.c for AFL++'s
 * persistent mode, fuzz/replay_main.c for `make fuzz-replay`).
 *
 * A harness reports a broken invariant by printing what it saw and then
 * calling abort(), so that every engine records the input as a crash and
 * the replay driver reports it as a failed test.
 */
#ifndef PMUSIM_FUZZ_FUZZ_H
#define PMUSIM_FUZZ_FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* PMUSIM_FUZZ_TRACE set (and not 0): the harness says what it runs. */
static inline bool fuzz_trace_on(void)
{
	const char *env = getenv("PMUSIM_FUZZ_TRACE");

	return env && *env && *env != '0';
}

/* One line of trace on stderr, when @on. */
static inline void fuzz_trace_line(bool on, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void fuzz_trace_line(bool on, const char *fmt, ...)
{
	va_list ap;

	if (!on)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "@who: INVARIANT BROKEN: ..." on stderr, then abort(). */
static inline void fuzz_fail(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static inline void fuzz_fail(const char *who, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: INVARIANT BROKEN: ", who);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

#endif /* PMUSIM_FUZZ_FUZZ_H */
