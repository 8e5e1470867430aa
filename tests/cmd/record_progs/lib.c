// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared library guest.c dlopen's: lib_work() calls lib_inner() (static:
 * a direct call, not through the PLT), which works.
 */
static volatile long lib_sink;

__attribute__((noinline)) static void lib_inner(int n)
{
	for (int i = 0; i < n; i++)
		lib_sink += i;
}

int lib_work(int x)
{
	lib_inner(200000);
	__asm__ volatile("" ::: "memory");
	return x + 1;
}
