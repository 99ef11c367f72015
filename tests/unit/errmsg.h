/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * errmsg.h - an error handler for tests that keeps libcpc's last message
 * (formatted, as a program's handler gets it) in errmsg.
 */
#ifndef ERRMSG_H
#define ERRMSG_H

#include <stdarg.h>
#include <stdio.h>

static char errmsg[2048];

static void
keep_errmsg(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)fn;
	(void)subcode;
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
}

#endif /* ERRMSG_H */
