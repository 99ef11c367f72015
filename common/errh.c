/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * errh.c - capture libcpc's error messages per thread.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errh.h"
#include "msgsafe.h"

static __thread char last[1024];
static int errh_debug;

static void
capture(const char *fn, int subcode, const char *fmt, va_list ap)
{
	size_t n = 0;

	(void)subcode;
	if (errh_debug)
		n = (size_t)snprintf(last, sizeof(last), "%s: ", fn);
	if (n < sizeof(last))
		vsnprintf(last + n, sizeof(last) - n, fmt, ap);
}

void
errh_install(cpc_t *cpc, int debug)
{
	errh_debug = debug;
	cpc_seterrhndlr(cpc, capture);
}

int
errh_debugging(void)
{
	return errh_debug;
}

const char *
errh_last(void)
{
	return last;
}

void
errh_clear(void)
{
	last[0] = '\0';
}

void
errh_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cpc_vmsgsafe(last, sizeof(last), fmt, ap);
	va_end(ap);
}
