/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.c - operands, -c sets and the options both tools share.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <sys/resource.h>

#include "args.h"
#include "cli.h"
#include "caps.h"
#include "errh.h"
#include "hints.h"
#include "listev.h"
#include "msgsafe.h"
#include "outfile.h"

void
cli_format_option(const char *arg, enum fmt_kind *kind)
{
	if (!fmt_parse(arg, kind))
		cli_usage_error("invalid --format '%s': use text, csv, json, "
		    "openmetrics or prometheus", arg);
}

/* The expositions: a file of their own, rewritten at every interval. */
static int
writes_file(enum fmt_kind kind)
{
	return kind == FMT_OPENMETRICS || kind == FMT_PROMETHEUS;
}

void
cli_check_output(enum fmt_kind kind, const char *outname, int profile)
{
	if (profile && kind != FMT_TEXT)
		cli_usage_error("--profile prints text after the totals: use "
		    "it with the text format (--samples=file writes CSV)");
	if (writes_file(kind) && outname == NULL)
		cli_usage_error("--format=%s needs -o file",
		    kind == FMT_OPENMETRICS ? "openmetrics" : "prometheus");
}

FILE *
cli_open_output(enum fmt_kind kind, const char *outname, int failstatus)
{
	char msg[512];
	FILE *fp;

	/* Replaced at each interval: never a device or a FIFO. */
	if (writes_file(kind) && outfile_replaceable(outname, msg,
	    sizeof(msg)) != 0)
		cli_errx(failstatus, "cannot write '%s': %s", outname, msg);
	if (writes_file(kind) || outname == NULL)
		return stdout;
	if ((fp = outfile_open(outname, msg, sizeof(msg))) == NULL)
		cli_errx(failstatus, "cannot open '%s' for writing: %s",
		    outname, msg);
	return fp;
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
		cli_usage_error("-c '%s': %s%s", text,
		    errh_debugging() ? "cpc_strtoset: " : "", msg);
	(*nspecs)++;
	/* Resolve the events once here, so a bad name is a usage error. */
	if ((set = spec_build(cpc, &s[*nspecs - 1])) == NULL) {
		/* A wrong name is a usage error; a machine that cannot is not. */
		if (errno != EINVAL)
			cli_errx(failstatus, "-c '%s': %s", text, errh_last());
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

/*
 * getopt_long's ':' or '?' for arg, the word it was in.  A long option
 * is named as typed, up to any '='; glibc gives it its short letter in
 * optopt, which the user never typed (--help=1 is not "-H").  A short
 * option is named alone, out of a cluster such as -nc.
 */
static void __attribute__((noreturn))
option_error(int ch, const char *arg)
{
	int len;

	if (strncmp(arg, "--", 2) == 0) {
		len = (int)strcspn(arg, "=");
		if (ch == ':')
			cli_usage_error("option '%.*s' needs an argument", len,
			    arg);
		if (arg[len] == '=' && optopt != 0)
			cli_usage_error("option '%.*s' takes no argument", len,
			    arg);
		cli_usage_error("invalid option '%.*s'", len, arg);
	}
	if (ch == ':')
		cli_usage_error("option '-%c' needs an argument", optopt);
	cli_usage_error("invalid option '-%c'", optopt);
}

int
cli_common_opt(cpc_t *cpc, struct cli_common *cc, int ch, char **argv,
    void (*usage)(FILE *), int failstatus)
{
	const char **nt, *hint;
	char msg[CPC_MSG_MAX];

	switch (ch) {
	case 'c':
		nt = realloc(cc->cc_texts, (cc->cc_ntexts + 1) * sizeof(*nt));
		if (nt == NULL)
			err(failstatus, "out of memory");
		cc->cc_texts = nt;
		cc->cc_texts[cc->cc_ntexts++] = optarg;
		return 1;
	case 'M':
		nt = realloc(cc->cc_mtexts, (cc->cc_nmtexts + 1) *
		    sizeof(*nt));
		if (nt == NULL)
			err(failstatus, "out of memory");
		cc->cc_mtexts = nt;
		cc->cc_mtexts[cc->cc_nmtexts++] = optarg;
		return 1;
	case 'D':
		cc->cc_debug++;
		errh_install(cpc, 1);
		return 1;
	case 'h':
		cc->cc_help = 1;
		return 1;
	case 'H':
		usage(stdout);
		exit(0);
	case 'L':
		cc->cc_list = 1;
		cc->cc_pattern = optarg;
		return 1;
	case 'V':
		printf("%s (cpc-tools) %s\n", cli_progname(), CPC_VERSION);
		exit(0);
	case ':':
	case '?':
		/* perf's -e and the like, given without their argument */
		if (ch == ':' && (hint = hint_option(cpc, cli_progname(), optopt,
		    NULL, msg, sizeof(msg))) != NULL)
			cli_usage_error("%s", hint);
		option_error(ch, argv[optind - 1]);
	}
	if ((hint = hint_option(cpc, cli_progname(), ch, optarg, msg,
	    sizeof(msg))) != NULL)
		cli_usage_error("%s", hint);
	return 0;
}

void
cli_common_end(cpc_t *cpc, const struct cli_common *cc,
    void (*usage)(FILE *), int argc, char **argv, int listflags)
{
	if (cc->cc_help) {
		usage(stdout);
		fputc('\n', stdout);
		caps_print(stdout, cpc);
		exit(0);
	}
	if (cc->cc_list)
		exit(listev_run(cpc, cc->cc_pattern, argc, argv, listflags));
}

void
cli_help_output(FILE *fp, const char *what)
{
	fprintf(fp,
	    "\t-o file\t\twrite the counts to file (a symbolic link in a\n"
	    "\t\t\tsticky world-writable directory is followed only\n"
	    "\t\t\tif it is yours or the directory owner's)\n"
	    "\t--format=text|csv|json|openmetrics|prometheus\n"
	    "\t\t\ttext: the Solaris columns (default); csv: a header\n"
	    "\t\t\trow and a column per event; json: an object a line;\n"
	    "\t\t\tprometheus: a node_exporter textfile (text format\n"
	    "\t\t\t0.0.4), openmetrics: OpenMetrics 1.0; each needs -o,\n"
	    "\t\t\trewritten each interval, counters per %s\n", what);
}
