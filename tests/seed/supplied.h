/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * supplied.h - what the seed page's examples leave to their reader:
 * error(), "a user-provided routine analogous to the familiar printf(3C)
 * function from the C library that also performs an exit(2) after
 * printing the message", and work(), the computation they measure: WORK
 * getpid calls, the tests' oracle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

static void
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
work(void)
{
	int i;

	for (i = 0; i < WORK; i++)
		(void) syscall(SYS_getpid);
}

