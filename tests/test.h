/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every pmusim test includes: cmocka with the headers it needs,
 * and the one-line skip convention (scripts/run-tests.sh prints the
 * reason next to the test's name).
 */
#ifndef PMUSIM_TESTS_TEST_H
#define PMUSIM_TESTS_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#define pmusim_skip(fmt, ...) do {					\
	printf("# skipped: " fmt "\n", ##__VA_ARGS__);			\
	fflush(stdout);							\
	skip();								\
} while (0)

#endif
