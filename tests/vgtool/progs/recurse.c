// SPDX-License-Identifier: GPL-2.0-only
/* Recursion 100 deep, deeper than any LBR: prints the function's address. */
#include <stdio.h>

__attribute__((noinline)) int rec(int n)
{
	__asm__ volatile("" ::: "memory");
	return n ? rec(n - 1) + 1 : 0;
}

int main(void)
{
	printf("rec %p\n", (void *)rec);
	fflush(stdout);
	return rec(100) == 100 ? 0 : 1;
}
