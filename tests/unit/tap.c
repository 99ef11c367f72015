/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tap.c - TAP output for the unit tests (plan printed at the end).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

static int ntests, nfailed;

static int
report(int cond, const char *name)
{
	ntests++;
	if (!cond)
		nfailed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", ntests, name);
	return cond;
}

int
tap_ok(int cond, const char *fmt, ...)
{
	char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return report(cond, name);
}

int
tap_str(const char *got, const char *want, const char *name)
{
	int ok = got != NULL && want != NULL ? strcmp(got, want) == 0 :
	    got == want;

	if (!report(ok, name))
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)",
		    want ? want : "(null)");
	return ok;
}

int
tap_u64(uint64_t got, uint64_t want, const char *name)
{
	int ok = got == want;

	if (!report(ok, name))
		printf("#   got:  %" PRIu64 "\n#   want: %" PRIu64 "\n", got,
		    want);
	return ok;
}

void
tap_skip(const char *why, const char *name)
{
	ntests++;
	printf("ok %d - %s # skip %s\n", ntests, name, why);
}

int
tap_done(void)
{
	printf("1..%d\n", ntests);
	return nfailed != 0;
}
