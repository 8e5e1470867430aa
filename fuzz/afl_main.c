// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AFL++ driver of every harness: persistent mode with the test case
 * in shared memory, so one process runs many inputs and no input goes
 * through a file. Built with afl-clang-fast, which defines the __AFL_*
 * macros; outside afl-fuzz the same binary reads one input on stdin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

#if !defined(__AFL_COMPILER) || !defined(__AFL_HAVE_MANUAL_CONTROL)
#error "fuzz/afl_main.c is built with afl-clang-fast only"
#endif

__AFL_FUZZ_INIT();

int main(int argc, char **argv)
{
	const unsigned char *buf;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	__AFL_INIT();
	/* Must be taken after __AFL_INIT(): the shared buffer is mapped there. */
	buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(100000)) {
		size_t len = __AFL_FUZZ_TESTCASE_LEN;

		LLVMFuzzerTestOneInput(buf, len);
	}
	return 0;
}
