/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * getpids.h - the getpid oracle of the unit tests: the tracepoint EV
 * counts exactly the getpid(2) calls a thread makes through syscall(2)
 * (no libc cache can absorb one).  Header-only: each test is one program.
 */
#ifndef GETPIDS_H
#define GETPIDS_H

#include <unistd.h>
#include <sys/syscall.h>

#define EV	"syscalls:sys_enter_getpid"

static inline void
getpids(long n)
{
	long i;

	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
}

#endif
