// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two phases: 2^21 calls, between which no run of conditional branches
 * is long enough for the tool to mark, then a loop of 24M iterations with
 * no call, whose runs are all long.
 */
__attribute__((noinline)) int step(int i)
{
	__asm__ volatile("" ::: "memory");
	return i & 1 ? i : -i;
}

int main(void)
{
	long sum = 0;

	for (int i = 0; i < 1 << 21; i++)
		sum += step(i);
	for (volatile int k = 0; k < 24 << 20; k++)
		;
	return sum == 0 ? 1 : 0;
}
