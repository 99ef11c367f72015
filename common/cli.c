/*
 * cli.c - usage errors, operands and -c sets for both tools.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "args.h"
#include "cli.h"
#include "errh.h"

static const char *cli_prog = "cpc-tools";
static const char *cli_synopsis = "";

void
cli_init(const char *prog, const char *synopsis)
{
	cli_prog = prog;
	cli_synopsis = synopsis;
}

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		vwarnx(fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "usage: %s %s\n", cli_prog, cli_synopsis);
	exit(2);
}

double
cli_seconds(const char *what, const char *arg, double lo, double hi)
{
	double v = 0;

	switch (args_seconds(arg, lo, hi, &v)) {
	case ARGS_OK:
		break;
	case ARGS_SYNTAX:
		cli_usage_error("invalid %s '%s': not a number of seconds",
		    what, arg);
	case ARGS_RANGE:
		cli_usage_error("invalid %s '%s': must be from %.10g to %.10g "
		    "seconds", what, arg, lo, hi);
	}
	return v;
}

unsigned long long
cli_count(const char *what, const char *arg, unsigned long long lo,
    unsigned long long hi)
{
	unsigned long long n = 0;

	switch (args_ulong(arg, lo, hi, &n)) {
	case ARGS_OK:
		break;
	case ARGS_SYNTAX:
		cli_usage_error("invalid %s '%s': not a whole number", what,
		    arg);
	case ARGS_RANGE:
		cli_usage_error("invalid %s '%s': must be from %llu to %llu",
		    what, arg, lo, hi);
	}
	return n;
}

void
cli_add_spec(cpc_t *cpc, struct spec **specs, int *nspecs, const char *text,
    int failstatus)
{
	char msg[512];
	struct spec *s;
	cpc_set_t *set;

	if ((s = realloc(*specs, (*nspecs + 1) * sizeof(*s))) == NULL)
		err(failstatus, "out of memory");
	*specs = s;
	if (spec_parse_cpc(cpc, text, &s[*nspecs], msg, sizeof(msg)) != 0)
		cli_usage_error("-c '%s': %s", text, msg);
	(*nspecs)++;
	/* Resolve the events once here, so a bad name is a usage error. */
	if ((set = spec_build(cpc, &s[*nspecs - 1])) == NULL) {
		/* A wrong name is a usage error; a machine that cannot is not. */
		if (errno != EINVAL)
			errx(failstatus, "-c '%s': %s", text, errh_last());
		cli_usage_error("-c '%s': %s", text, errh_last());
	}
	cpc_set_destroy(cpc, set);
}

void
cli_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}
