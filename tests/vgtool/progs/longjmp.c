// SPDX-License-Identifier: GPL-2.0-only
/* setjmp, then longjmp from 20 frames down: the stack unwinds with no returns. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

__attribute__((noinline)) void down(int n)
{
	__asm__ volatile("" ::: "memory");
	if (n == 0)
		longjmp(env, 1);
	down(n - 1);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	printf("down %p\n", (void *)down);
	fflush(stdout);
	if (setjmp(env) == 0)
		down(20);
	return 0;
}
