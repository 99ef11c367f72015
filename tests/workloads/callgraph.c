/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callgraph - a call tree whose shape in samples is known exactly: the
 * oracle for the profile's inclusive and self counts, its callers and
 * callees, and the call chains of the samples written for perf tools.
 *
 * usage: callgraph [-c cpu] [-d delay_ms] [-a after_ms] K
 *
 *	-c cpu		pin to this CPU first (cpustat --per-cpu)
 *	-d delay_ms	sleep this long before the calls
 *	-a after_ms	sleep this long after them, before exiting (so that
 *			cpustat, which names its samples between intervals,
 *			still finds the process's mappings)
 *
 * main calls callg_a and callg_b; callg_a calls callg_c.  Each makes
 * getpid(2) system calls of its own: callg_a 3K, callg_c 3K, callg_b 2K,
 * main none.  Sampled on syscalls:sys_enter_getpid with period 1 (one
 * sample per call), the samples are therefore:
 *
 *	function  total  self   called from
 *	main        8K     0    (the C library's start)
 *	callg_a     6K    3K    main
 *	callg_c     3K    3K    callg_a
 *	callg_b     2K    2K    main
 *
 * main spends 3 parts in callg_a and 1 in callg_b, and callg_a half of
 * its time in callg_c.  The system call is made right in each function
 * (an instruction, not libc's syscall(), which keeps no frame of its
 * own and would hide its caller from a frame-pointer walk), and every
 * function keeps its frame pointer and is never inlined (the Makefile's
 * flags, which forbid tail calls too): the chains are exactly those of
 * the table.  Nothing else calls
 * getpid (nor prints: the tool's pid is the process's).  K from 1 to
 * 1000000.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl.h"

/* One getpid(2) right here, in the calling function's own frame. */
static inline __attribute__((always_inline)) void
getpid_here(void)
{
#if defined(__x86_64__)
	long rax = SYS_getpid;

	__asm__ volatile ("syscall" : "+a" (rax) : : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_getpid;
	register long x0 __asm__("x0");

	__asm__ volatile ("svc #0" : "=r" (x0) : "r" (x8) : "memory");
#else
	(void)syscall(SYS_getpid);	/* chains may miss a frame here */
#endif
}

/*
 * Called once by each function: a function that calls none is a leaf,
 * and the compiler may give a leaf no frame (whatever the flags say),
 * which would hide its caller.
 */
static __attribute__((noinline)) void
not_a_leaf(void)
{
	__asm__ volatile ("" : : : "memory");
}

__attribute__((noinline)) void callg_a(long k);
__attribute__((noinline)) void callg_b(long k);
__attribute__((noinline)) void callg_c(long k);

void
callg_c(long k)
{
	long i;

	not_a_leaf();
	for (i = 0; i < 3 * k; i++)
		getpid_here();
}

void
callg_a(long k)
{
	long i;

	not_a_leaf();
	for (i = 0; i < 3 * k; i++)
		getpid_here();
	callg_c(k);
}

void
callg_b(long k)
{
	long i;

	not_a_leaf();
	for (i = 0; i < 2 * k; i++)
		getpid_here();
}

int
main(int argc, char **argv)
{
	struct wl_args a;

	wl_parse(argc, argv, "callgraph", "K", &a);
	if (a.n < 1 || a.n > 1000000)
		wl_usage("callgraph", "K");
	if (wl_pin(a.cpu, "callgraph") != 0)
		return 1;
	wl_sleep_ms(a.delay);
	callg_a(a.n);
	callg_b(a.n);
	wl_sleep_ms(a.after);
	return 0;
}
