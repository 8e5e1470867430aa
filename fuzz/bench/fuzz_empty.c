// SPDX-License-Identifier: GPL-2.0-only
/*
 * The empty harness: the cost of the engine and the driver alone, the
 * baseline the execs/s of every real harness is compared with. Built and
 * run exactly like them (`make fuzz FUZZER=empty`), never part of
 * fuzz-all or fuzz-replay.
 */
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
