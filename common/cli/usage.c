/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usage.c - the tools' messages about their command line: usage errors
 * and warnings, every one made safe to print.
 */
#include "config.h"

#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "msgsafe.h"
#include "usage.h"

static const char *cli_prog = "cpc-tools";
static const char *cli_synopsis = "";

void
cli_init(const char *prog, const char *synopsis)
{
	cli_prog = prog;
	cli_synopsis = synopsis;
}

const char *
cli_progname(void)
{
	return cli_prog;
}

void
cli_usage_error(const char *fmt, ...)
{
	char msg[CPC_MSG_MAX];
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		warnx("%s", cpc_vmsgsafe(msg, sizeof(msg), fmt, ap));
		va_end(ap);
	}
	fprintf(stderr, "usage: %s %s\n", cli_prog, cli_synopsis);
	exit(2);
}

void
cli_warnx(const char *fmt, ...)
{
	char msg[CPC_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	warnx("%s", cpc_vmsgsafe(msg, sizeof(msg), fmt, ap));
	va_end(ap);
}

void
cli_errx(int status, const char *fmt, ...)
{
	char msg[CPC_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	errx(status, "%s", cpc_vmsgsafe(msg, sizeof(msg), fmt, ap));
	va_end(ap);
}
