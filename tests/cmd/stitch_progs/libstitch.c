// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared library of test_stitch_record.sh's program: a chain of
 * distinct functions (so that stacks go deeper than the LBR without
 * recursion), a call into libc that calls back (qsort), a local
 * function, an alias (two symbols at one address, of which perf keeps
 * one), a weak one and an assembly function without a size (perf
 * stretches it to the next symbol).
 */
#include <stdlib.h>

int stitch_leaf(int n);
void stitch_nosize(void);

__asm__(".text\n"
	".globl stitch_nosize\n"
	".type stitch_nosize, @function\n"
	"stitch_nosize:\n"
	"\tret\n");

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) int stitch_leaf(int n)
{
	int v[48];

	for (int i = 0; i < 48; i++)
		v[i] = (i * 7919 + n) % 97;
	qsort(v, 48, sizeof(v[0]), by_value);
	stitch_nosize();
	return v[n % 48];
}

/* the same function under a second name */
int stitch_leaf_alias(int n) __attribute__((alias("stitch_leaf")));

#define LINK(name, next) \
	__attribute__((noinline)) int name(int n) { return next(n + 1) + 1; }
LINK(stitch_f1, stitch_leaf)
LINK(stitch_f2, stitch_f1)
LINK(stitch_f3, stitch_f2)
LINK(stitch_f4, stitch_f3)
LINK(stitch_f5, stitch_f4)
LINK(stitch_f6, stitch_f5)
LINK(stitch_f7, stitch_f6)
LINK(stitch_f8, stitch_f7)
LINK(stitch_f9, stitch_f8)
LINK(stitch_f10, stitch_f9)
LINK(stitch_f11, stitch_f10)
LINK(stitch_f12, stitch_f11)
LINK(stitch_f13, stitch_f12)
LINK(stitch_f14, stitch_f13)
LINK(stitch_f15, stitch_f14)
LINK(stitch_f16, stitch_f15)
LINK(stitch_f17, stitch_f16)
LINK(stitch_f18, stitch_f17)
LINK(stitch_f19, stitch_f18)
LINK(stitch_f20, stitch_f19)
LINK(stitch_f21, stitch_f20)
LINK(stitch_f22, stitch_f21)
LINK(stitch_f23, stitch_f22)
LINK(stitch_f24, stitch_f23)
LINK(stitch_f25, stitch_f24)
LINK(stitch_f26, stitch_f25)
LINK(stitch_f27, stitch_f26)
LINK(stitch_f28, stitch_f27)
LINK(stitch_f29, stitch_f28)
LINK(stitch_f30, stitch_f29)
LINK(stitch_f31, stitch_f30)
LINK(stitch_f32, stitch_f31)
LINK(stitch_f33, stitch_f32)
LINK(stitch_f34, stitch_f33)
LINK(stitch_f35, stitch_f34)
LINK(stitch_f36, stitch_f35)
LINK(stitch_f37, stitch_f36)
LINK(stitch_f38, stitch_f37)
LINK(stitch_f39, stitch_f38)
LINK(stitch_f40, stitch_f39)

__attribute__((weak, noinline)) int stitch_top(int n)
{
	return stitch_f40(n);
}
