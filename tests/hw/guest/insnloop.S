/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * insnloop.S - the instruction-count oracle of the hardware tier: a static
 * aarch64 program with no libc and no loader, so every user-mode
 * instruction it retires is one of the eleven below.
 *
 * usage: insnloop [arg ...]
 *
 * It runs its loop LOOPS * argc times (the arguments' values are ignored:
 * only their number scales the run) and exits 0.  From the first
 * instruction to the exit system call it retires exactly
 *
 *	4 + 3 * LOOPS * argc + 3	user-mode instructions
 *
 * (the svc that enters the kernel is the last one).  Under QEMU with
 * -icount shift=0 every instruction takes one cycle as well.
 */
#define LOOPS	1000000

	.text
	.global	_start
	.type	_start, %function
_start:
	ldr	x1, [sp]			// argc
	movz	x0, #(LOOPS & 0xffff)
	movk	x0, #(LOOPS >> 16), lsl #16
	mul	x0, x0, x1			// x0 = LOOPS * argc
1:	sub	x0, x0, #1			// the loop: three a turn
	nop
	cbnz	x0, 1b
	mov	x0, #0				// exit(0)
	mov	x8, #93
	svc	#0
	.size	_start, . - _start

	.section .note.GNU-stack, "", %progbits
