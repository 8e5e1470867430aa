// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest for exact sample ips (tests/cmd/test_record_ips.sh): straight()
 * loops N times over one straight-line block of 1000 four-byte adds, then
 * `dec %rdi` (3 bytes) and `jne` back (6 bytes): 1002 instructions an
 * iteration, every one a cycle on the model, so a sample's place in the
 * loop follows from its address alone. With "seven", seven() loops over
 * seven instructions instead (five of them straight, dec, jne): each
 * should have a seventh of the samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long straight(long n);

__asm__(".text\n"
	".globl straight\n"
	".type straight, @function\n"
	"straight:\n"
	"	xor %eax, %eax\n"
	"1:\n"
	".rept 1000\n"
	"	add $1, %rax\n"		/* 48 83 c0 01 */
	".endr\n"
	"	dec %rdi\n"		/* 48 ff cf */
	"	jne 1b\n"		/* 0f 85 rel32 */
	"	ret\n"
	".size straight, . - straight\n");

long seven(long n);

__asm__(".text\n"
	".globl seven\n"
	".type seven, @function\n"
	"seven:\n"
	"	xor %eax, %eax\n"
	"	xor %edx, %edx\n"
	"1:\n"
	"	add $1, %rax\n"
	"	add %rax, %rdx\n"
	"	xor $3, %rdx\n"
	"	add $7, %rax\n"
	"	sub $2, %rdx\n"
	"	dec %rdi\n"
	"	jne 1b\n"
	"	mov %rdx, %rax\n"
	"	ret\n"
	".size seven, . - seven\n");

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	if (argc > 2 && !strcmp(argv[2], "seven"))
		printf("%ld\n", seven(n > 0 ? n : 1));
	else
		printf("%ld\n", straight(n > 0 ? n : 1));
	return 0;
}
