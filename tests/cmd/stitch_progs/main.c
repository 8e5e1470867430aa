// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stitch_record.sh's program: its frames are in libstitch.so (its
 * own ELF file, with a .symtab), in libc (through the PLT) and here.
 */
#include <stdio.h>
#include <stdlib.h>

int stitch_top(int n);

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400;
	long sum = 0;

	for (int i = 0; i < rounds; i++)
		sum += stitch_top(i);
	printf("%ld\n", sum);
	return 0;
}
