/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A test's scratch directory (tests/lib/scratch.c): made under /tmp for
 * the test's files, read back whole, and removed with all it holds.
 */
#ifndef PMUSIM_TESTS_LIB_SCRATCH_H
#define PMUSIM_TESTS_LIB_SCRATCH_H

#include <stddef.h>

/* DIR (SIZE bytes) becomes a new directory /tmp/pmusim-NAME-XXXXXX; 0 or -1 */
int scratch_dir_make(char *dir, size_t size, const char *name);

/* DIR and everything below it, links not followed; 0 or -1 */
int scratch_dir_remove(const char *dir);

/* the whole file at PATH, NUL-terminated (malloc'd); a cmocka failure if unreadable */
char *scratch_read(const char *path);

#endif
