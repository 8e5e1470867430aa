// SPDX-License-Identifier: GPL-2.0-only
/*
 * A test's scratch directory (scratch.h).
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"

int scratch_dir_make(char *dir, size_t size, const char *name)
{
	int n = snprintf(dir, size, "/tmp/pmusim-%s-XXXXXX", name);

	if (n < 0 || (size_t)n >= size)
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int scratch_dir_remove(const char *dir)
{
	/* children first (FTW_DEPTH), and a link is removed, never followed */
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

char *scratch_read(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	if (!f)
		fail_msg("%s: cannot open", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}
