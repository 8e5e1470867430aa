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

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#endif /* PMUSIM_FUZZ_FUZZ_H */
