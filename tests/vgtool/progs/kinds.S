/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One taken branch of each near kind, in a known order, then exit(7):
 * jmp, jcc, indirect jmp, call, ret, indirect call, ret, syscall;
 * 15 instructions in all (f's nop and ret run twice).
 */
	.globl _start
	.text
_start:
	jmp	a			/* direct jump */
a:	xor	%eax, %eax
	jz	b			/* conditional, taken */
	ud2
b:	lea	c(%rip), %rdx
	jmp	*%rdx			/* indirect jump */
c:	call	f			/* direct call, then f's ret */
	lea	f(%rip), %rdx
	call	*%rdx			/* indirect call, then f's ret */
	mov	$60, %eax
	mov	$7, %edi
	syscall				/* exit(7): never returns */
f:	nop
	ret
	.section .note.GNU-stack,"",@progbits
