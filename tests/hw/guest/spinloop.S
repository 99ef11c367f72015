/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spinloop.S - the hardware tier's busy CPU: a static aarch64 program with
 * no libc that spins in user mode until it is killed, or until SPIN_SECS
 * seconds of (the guest's) wall time have passed, when SIGALRM ends it.
 *
 * usage: spinloop
 *
 * Unlike insnloop, whose length is a number of instructions and so a
 * duration only under -icount, spinloop lasts as long as its caller needs
 * whatever the host's speed: percpu.sh's spin starts it and unspin kills
 * it.  The alarm only bounds a spinner whose caller died.  Apart from the
 * setitimer(2) call at the start it makes no system call, so its CPU's
 * kernel-mode time is the timer interrupts' alone.  It exits 1 if the
 * alarm cannot be set.
 */
#define SPIN_SECS	300
#define NR_setitimer	103
#define NR_exit		93

	.text
	.global	_start
	.type	_start, %function
_start:
	sub	sp, sp, #32			// struct itimerval
	stp	xzr, xzr, [sp]			// it_interval: none
	mov	x9, #SPIN_SECS
	stp	x9, xzr, [sp, #16]		// it_value: SPIN_SECS s
	mov	x0, #0				// ITIMER_REAL
	mov	x1, sp
	mov	x2, #0
	mov	x8, #NR_setitimer
	svc	#0
	cbnz	x0, 2f
1:	nop					// the spin: user mode only
	b	1b
2:	mov	x0, #1				// exit(1): no alarm, no spin
	mov	x8, #NR_exit
	svc	#0
	.size	_start, . - _start

	.section .note.GNU-stack, "", %progbits
