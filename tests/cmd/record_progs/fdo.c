// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest of tests/cmd/test_record_consumers.sh, for BOLT and AutoFDO:
 * hashes N numbers (argv[1], default 20000), sorts them with libc's
 * qsort and classifies each 20 times through a function with a chain of
 * branches biased differently, then prints the counts and a sum, which
 * the optimised programs must print alike.
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned int hash(unsigned int x)
{
	x ^= x >> 13;
	x *= 0x5bd1e995u;
	return x ^ (x >> 15);
}

static int cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) static unsigned int classify(unsigned int v)
{
	if (v % 7 == 0)
		return 3;
	if (v % 3 == 0)
		return 2;
	if (v & 1)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 20000, counts[4] = { 0 };
	unsigned int *a = malloc((n ? n : 1) * sizeof(*a));
	unsigned long sum = 0;

	if (!a)
		return 1;
	for (unsigned int i = 0; i < n; i++)
		a[i] = hash(i);
	qsort(a, n, sizeof(*a), cmp);
	for (unsigned int r = 0; r < 20; r++)
		for (unsigned int i = 0; i < n; i++) {
			counts[classify(a[i] + r)]++;
			sum += a[i] >> 20;
		}
	printf("%u %u %u %u %lu\n", counts[0], counts[1], counts[2], counts[3], sum);
	free(a);
	return 0;
}
