/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A guest with a known retired-instruction count, built without libc:
 * 1 + 3 * 1000 (a loop whose jnz is taken 999 times) + call + ret + lea
 * + mov + one REP STOSB of 64 bytes (retires once) + mov + xor + syscall
 * = 3009 instructions; taken branches: 999 jcc, 1 call, 1 ret, 1 syscall.
 */
	.globl _start
	.text
_start:
	mov	$1000, %ecx
1:	add	$1, %eax
	dec	%ecx
	jnz	1b
	call	f
	lea	buf(%rip), %rdi
	mov	$64, %ecx
	rep stosb
	mov	$60, %eax
	xor	%edi, %edi
	syscall
f:	ret

	.bss
buf:	.space	64
	.section .note.GNU-stack,"",@progbits
