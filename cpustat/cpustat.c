/*
 * cpustat - monitor system behaviour using CPU performance counters.
 *
 * main parses and validates the command line into struct opts; run()
 * (sampler.c) does the sampling.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "args.h"
#include "caps.h"
#include "cpustat.h"
#include "errh.h"
#include "output.h"
#include "timefmt.h"

#define MAX_INTERVAL	1000000.0	/* seconds */
#define MIN_INTERVAL	0.001

const char *progname = "cpustat";

static const char synopsis[] =
    "[-c events [-c events]...] [-p period] [-T u|d]\n"
    "\t\t[-sntDh] [interval [count]]";

static const struct option longopts[] = {
	{ "events",	required_argument,	NULL, 'c' },
	{ "debug",	no_argument,		NULL, 'D' },
	{ "no-header",	no_argument,		NULL, 'n' },
	{ "period",	required_argument,	NULL, 'p' },
	{ "soak",	no_argument,		NULL, 's' },
	{ "tsc",	no_argument,		NULL, 't' },
	{ "timestamp",	required_argument,	NULL, 'T' },
	{ "help",	no_argument,		NULL, 'H' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 },
};

static void
print_usage(FILE *fp)
{
	fprintf(fp, "Usage:\n\t%s %s\n\n", progname, synopsis);
	fprintf(fp,
	    "\t-c events\tevents to count (repeat -c to rotate sets)\n"
	    "\t-n\t\tsuppress the title line\n"
	    "\t-p period\tcycle through the sets once every period seconds\n"
	    "\t-s\t\trun a soaker thread per CPU while a set counts only\n"
	    "\t\t\tsystem mode\n"
	    "\t-t\t\tinclude the %s register\n"
	    "\t-T u|d\t\tprint an epoch seconds (u) or date (d) line before\n"
	    "\t\t\teach sample\n"
	    "\t-D\t\tdebug: name the failing libcpc function in errors\n"
	    "\t-h\t\tprint this text and the events this machine counts\n"
	    "\n"
	    "\tLong options: --events=EVENTS --no-header --period=SECONDS\n"
	    "\t--soak --tsc --timestamp=u|d --debug --help --version\n"
	    "\n"
	    "\tinterval: seconds between samples (default 5)\n"
	    "\tcount: number of samples (default: until interrupted)\n",
	    out_tickname());
}

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		vwarnx(fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "usage: %s %s\n", progname, synopsis);
	exit(2);
}

static void
add_spec(cpc_t *cpc, struct opts *o, const char *text)
{
	char msg[512];
	struct spec *s;
	cpc_set_t *set;

	s = realloc(o->o_specs, (o->o_nspecs + 1) * sizeof(*s));
	if (s == NULL)
		err(1, "out of memory");
	o->o_specs = s;
	if (spec_parse_cpc(cpc, text, &s[o->o_nspecs], msg, sizeof(msg)) != 0)
		usage_error("-c '%s': %s", text, msg);
	o->o_nspecs++;
	/* Resolve the events once here, so a bad name is a usage error. */
	if ((set = spec_build(cpc, &s[o->o_nspecs - 1])) == NULL) {
		/* A wrong name is a usage error; a machine that cannot is not. */
		if (errno != EINVAL)
			errx(1, "-c '%s': %s", text, errh_last());
		usage_error("-c '%s': %s", text, errh_last());
	}
	cpc_set_destroy(cpc, set);
}

static double
seconds_arg(const char *what, const char *arg, double lo, double hi)
{
	double v = 0;

	switch (args_seconds(arg, lo, hi, &v)) {
	case ARGS_OK:
		break;
	case ARGS_SYNTAX:
		usage_error("invalid %s '%s': not a number of seconds", what,
		    arg);
		break;
	case ARGS_RANGE:
		usage_error("invalid %s '%s': must be from %.10g to %.10g "
		    "seconds",
		    what, arg, lo, hi);
		break;
	}
	return v;
}

static void
parse_operands(int argc, char **argv, struct opts *o)
{
	unsigned long long n = 0;

	if (argc > 2)
		usage_error("too many operands (from '%s' on)", argv[2]);
	if (argc >= 1)
		o->o_interval = seconds_arg("interval", argv[0], MIN_INTERVAL,
		    MAX_INTERVAL);
	if (argc == 2) {
		switch (args_ulong(argv[1], 1, 1000000000ULL, &n)) {
		case ARGS_OK:
			break;
		case ARGS_SYNTAX:
			usage_error("invalid count '%s': not a whole number",
			    argv[1]);
			break;
		case ARGS_RANGE:
			usage_error("invalid count '%s': must be from 1 to "
			    "1000000000", argv[1]);
			break;
		}
		o->o_count = n;
	}
}

/* The set used without -c: hardware basics, or what this machine has. */
static void
default_spec(cpc_t *cpc, struct opts *o)
{
	add_spec(cpc, o, cpc_have_hw_pmu(cpc) ? "PAPI_tot_cyc,PAPI_tot_ins" :
	    "cpu-clock,context-switches,cpu-migrations,page-faults,sys");
	o->o_default = 1;
}

static void
parse_args(cpc_t *cpc, int argc, char **argv, struct opts *o)
{
	const char **texts = NULL, **nt;
	int ch, help = 0, ntexts = 0, i;

	o->o_interval = 5.0;
	opterr = 0;
	/* '+': options end at the first operand, so "1 -1" is a bad count. */
	while ((ch = getopt_long(argc, argv, "+:c:DhnsT:tp:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			nt = realloc(texts, (ntexts + 1) * sizeof(*texts));
			if (nt == NULL)
				err(1, "out of memory");
			texts = nt;
			texts[ntexts++] = optarg;
			break;
		case 'D':
			o->o_debug++;
			errh_install(cpc, 1);
			break;
		case 'h':
			help = 1;
			break;
		case 'n':
			o->o_noheader = 1;
			break;
		case 's':
			o->o_soak = 1;
			break;
		case 't':
			o->o_tick = 1;
			break;
		case 'T':
			if (!tf_parse(optarg, &o->o_tstamp))
				usage_error("invalid -T argument '%s': use u "
				    "or d", optarg);
			break;
		case 'p':
			o->o_period = seconds_arg("period", optarg, 0,
			    MAX_INTERVAL);
			break;
		case 'H':
			print_usage(stdout);
			exit(0);
		case 'V':
			printf("%s (cpc-tools) %s\n", progname, CPC_VERSION);
			exit(0);
		case ':':
			usage_error("option '%s' needs an argument",
			    argv[optind - 1]);
			break;
		default:
			if (optopt != 0)
				usage_error("invalid option '-%c'", optopt);
			usage_error("invalid option '%s'", argv[optind - 1]);
		}
	}
	if (help) {
		print_usage(stdout);
		fputc('\n', stdout);
		caps_print(stdout, cpc);
		exit(0);
	}
	parse_operands(argc - optind, argv + optind, o);
	for (i = 0; i < ntexts; i++)
		add_spec(cpc, o, texts[i]);
	free(texts);
	if (o->o_nspecs == 0)
		default_spec(cpc, o);
}

static void
free_opts(struct opts *o)
{
	int i;

	for (i = 0; i < o->o_nspecs; i++)
		spec_free(&o->o_specs[i]);
	free(o->o_specs);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct rlimit rl;
	cpc_t *cpc;
	int rc;

	memset(&o, 0, sizeof(o));
	/* One fd per request per CPU: allow as many as the hard limit. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		err(1, "cannot access performance counters");
	errh_install(cpc, 0);
	parse_args(cpc, argc, argv, &o);
	rc = run(cpc, &o);
	free_opts(&o);
	cpc_close(cpc);
	return rc;
}
