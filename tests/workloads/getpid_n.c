/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * getpid_n - make exactly N getpid(2) system calls: a known count for the
 * syscalls:sys_enter_getpid tracepoint.
 *
 * usage: getpid_n [-c cpu] [-d delay_ms] [-a after_ms] count
 *
 *	-c cpu		pin to this CPU first, so every call happens there
 *	-d delay_ms	sleep this long before the calls (lets a counter
 *			started at the same moment bind first)
 *	-a after_ms	sleep this long after the calls, before exiting
 *
 * The calls go through syscall(2), so no libc cache can absorb one.
 * Nothing else in this program calls getpid.  Exit status 0 when all calls
 * were made, 2 on a usage error, 1 when pinning failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

int
main(int argc, char **argv)
{
	struct wl_args a;
	long n, i;

	wl_parse(argc, argv, "getpid_n", "count", &a);
	n = a.n;
	if (wl_pin(a.cpu, "getpid_n") != 0)
		return 1;
	wl_sleep_ms(a.delay);
	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	wl_sleep_ms(a.after);
	/* No exit-time work (a sanitizer's leak check) on the pinned CPU. */
	_exit(0);
}
