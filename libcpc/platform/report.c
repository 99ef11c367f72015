/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the one call that hands a message to an error handler: the
 * handle's (cpc_seterrhndlr) or the default, which prints what the seed
 * pages promise, "libcpc: fn: message".
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "msgsafe.h"
#include "platform.h"

static const char *const subcode_text[] = {
	[CPC_INVALID_EVENT] = "Unknown event",
	[CPC_INVALID_PICNUM] = "Invalid counter number",
	[CPC_INVALID_ATTRIBUTE] = "Unknown attribute",
	[CPC_ATTRIBUTE_OUT_OF_RANGE] = "Attribute out of range",
	[CPC_RESOURCE_UNAVAIL] = "Hardware resource unavailable",
	[CPC_PIC_NOT_CAPABLE] = "Counter cannot count requested event",
	[CPC_REQ_INVALID_FLAGS] = "Invalid flags in a request",
	[CPC_CONFLICTING_REQS] = "Requests conflict with each other",
	[CPC_ATTR_REQUIRES_PRIVILEGE] =
	    "Attribute requires the cpc_cpu privilege",
	[CPC_PBIND_FAILED] = "Couldn't bind LWP to requested processor",
	[CPC_HV_NO_ACCESS] = "Hypervisor event access denied",
};

static void
default_errfn(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)subcode;
	fprintf(stderr, "libcpc: %s: ", fn);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Call h with the arguments after fmt. */
static void __attribute__((format(printf, 4, 5)))
call_handler(cpc_errhndlr_t *h, const char *fn, int subcode,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	h(fn, subcode, fmt, ap);
	va_end(ap);
}

/* Messages the calling thread reported (cpc_err_count). */
static __thread unsigned long err_count;

/*
 * errno is preserved, so callers set errno first and report second, or
 * the other way round.  Every handler, the default one or a program's,
 * gets the message made safe (msgsafe.h), as "%s": names quoted from the
 * user's input come with their escape sequences escaped and cut.
 */
void
cpc_vreport(cpc_errhndlr_t *h, const char *fn, int subcode, const char *fmt,
    va_list ap)
{
	int saved = errno;

	if (fn == NULL)		/* a quiet probe (the catalogue's) */
		return;
	err_count++;
	if (h == NULL)
		h = default_errfn;
	if (fmt == NULL && subcode > 0 &&
	    (size_t)subcode < sizeof(subcode_text) / sizeof(*subcode_text))
		fmt = subcode_text[subcode];
	if (fmt == NULL) {
		h(fn, subcode, fmt, ap);
	} else {
		char msg[CPC_MSG_MAX];

		cpc_vmsgsafe(msg, sizeof(msg), fmt, ap);
		call_handler(h, fn, subcode, "%s", msg);
	}
	errno = saved;
}

void
cpc_report(cpc_errhndlr_t *h, const char *fn, int subcode, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	cpc_vreport(h, fn, subcode, fmt, ap);
	va_end(ap);
}

unsigned long
cpc_err_count(void)
{
	return err_count;
}
