/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calling a pmusim command in the test's own process with its stdout and
 * stderr in files (tests/lib/capture.c), to compare what it printed.
 */
#ifndef PMUSIM_TESTS_LIB_CAPTURE_H
#define PMUSIM_TESTS_LIB_CAPTURE_H

/* CMD(ARGC, ARGV) with stdout in the file OUT and stderr in ERR; what it returned */
int capture_call(int (*cmd)(int, char **), int argc, char **argv,
		 const char *out, const char *err);

#endif
