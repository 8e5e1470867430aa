// SPDX-License-Identifier: GPL-2.0-only
/*
 * A loop of N iterations (N the first argument): its stream grows with N
 * (some 5 bytes an iteration) and nothing else does, for
 * tests/cmd/test_record_stream.sh and bench/.
 */
#include <stdlib.h>

int main(int argc, char **argv)
{
	volatile unsigned long x = 0;
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 3;
	return (int)(x & 1);
}
