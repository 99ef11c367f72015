/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpustat - monitor system behaviour using CPU performance counters.
 *
 * main parses the command line into struct opts, checks it, resolves the
 * events and the CPUs and opens the output; run() (run.c) does the
 * sampling.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "caps.h"
#include "cli.h"
#include "cpustat.h"
#include "errh.h"
#include "stdfds.h"
#include "hints.h"
#include "listenopt.h"
#include "listev.h"
#include "msgsafe.h"
#include "cells.h"
#include "timefmt.h"

#define MAX_INTERVAL	1000000.0	/* seconds */
#define MIN_INTERVAL	0.001
#define OPT_FORMAT	0x200		/* --format: no letter (HINT_EVENT is 0x100) */

static const char progname[] = "cpustat";

static const char synopsis[] =
    "[-c events [-c events]...] [-M metrics] [-C cpulist]\n"
    "\t\t[-G cgroup[,cgroup]...] [-p period] [-T u|d] [-o file]\n"
    "\t\t[--format=text|csv|json|openmetrics|prometheus]\n"
    "\t\t[-S events] [-g] [--profile[=N]] [--per-cpu]\n"
    "\t\t[--samples=file] [--samples-format=csv|perf] [--folded=file]\n"
    "\t\t[--listen=addr:port]\n"
    "\t\t[-sntDh] [interval [count]]";

static const struct option longopts[] = {
	{ "events",	required_argument,	NULL, 'c' },
	{ "cpus",	required_argument,	NULL, 'C' },
	{ "cgroup",	required_argument,	NULL, 'G' },
	{ "metrics",	required_argument,	NULL, 'M' },
	{ "debug",	no_argument,		NULL, 'D' },
	{ "no-header",	no_argument,		NULL, 'n' },
	{ "format",	required_argument,	NULL, OPT_FORMAT },
	{ "output",	required_argument,	NULL, 'o' },
	{ "period",	required_argument,	NULL, 'p' },
	{ "soak",	no_argument,		NULL, 's' },
	{ "tsc",	no_argument,		NULL, 't' },
	{ "timestamp",	required_argument,	NULL, 'T' },
	{ "help",	no_argument,		NULL, 'H' },
	{ "list-events", optional_argument,	NULL, 'L' },
	{ "version",	no_argument,		NULL, 'V' },
	HINT_LONGOPTS('e'),
	SMPL_LONGOPTS,
	SMPL_LONGOPT_PERCPU,
	CLI_LONGOPT_LISTEN,
	{ NULL,		0,			NULL, 0 },
};

static void
print_usage(FILE *fp)
{
	fprintf(fp, "Usage:\n\t%s %s\n\t%s --list-events[=pattern]\n\n",
	    progname, synopsis, progname);
	fprintf(fp,
	    "\t-c events\tevents to count (repeat -c to rotate sets)\n"
	    "%s"
	    "\t-C cpulist\tcount only these CPUs (0,2-3: the kernel's list\n"
	    "\t\t\tsyntax; each online when cpustat starts)\n"
	    "\t-G cgroup,...\tcount on each CPU only the tasks of each cgroup\n"
	    "\t\t\t(a path under the cgroup v2 hierarchy, and the\n"
	    "\t\t\tcgroups below it): a line per CPU and cgroup\n"
	    "\t-n\t\tsuppress the title line\n"
	    "\t-p period\tcycle through the sets once every period seconds\n"
	    "\t-s\t\trun a soaker thread per CPU while a set counts only\n"
	    "\t\t\tsystem mode\n"
	    "\t-t\t\tinclude the %s register\n"
	    "\t-T u|d\t\tprint an epoch seconds (u) or date (d) line before\n"
	    "\t\t\teach interval's samples (a column in csv and json)\n",
	    cli_help_metrics(), out_tickname());
	cli_help_output(fp, "CPU");
	cli_help_listen(fp);
	fprintf(fp,
	    "\t-S events\tsample these events on every CPU (the -c grammar,\n"
	    "\t\t\tperiod=N events between samples); a column smplN\n"
	    "\t\t\tper event counts the samples (no default -c set)\n"
	    "\t-g\t\trecord call chains with the samples\n"
	    "\t--profile[=N]\tafter the totals, the N hottest functions of\n"
	    "\t\t\tthe system (default 10): pct, samples, symbol, object;\n"
	    "\t\t\twith -g total%%, self%%, total, self, symbol, object,\n"
	    "\t\t\tthen the callers and callees of those N\n"
	    "\t--per-cpu\twith --profile: one profile per CPU\n"
	    "\t--samples=file\twrite every sample to file (CSV by default)\n"
	    "\t--samples-format=csv|perf\n"
	    "\t\t\tthe format of --samples: perf is the text of perf\n"
	    "\t\t\tscript, which Firefox Profiler and speedscope open\n"
	    "\t--folded=file\twrite the call chains (-g) as folded stacks\n"
	    "\t-D\t\tdebug: name the failing libcpc function in errors\n"
	    "\t-h\t\tprint this text and the events this machine counts\n"
	    "\t--list-events[=pattern]\n"
	    "\t\t\tlist the event names that contain pattern (or match\n"
	    "\t\t\tit, with * ? [), any case: name, kind, yes/no/priv\n"
	    "\t\t\t(can be counted per CPU now), description\n"
	    "\n"
	    "\tLong options: --events=EVENTS --metrics=METRICS --cpus=CPULIST\n"
	    "\t--cgroup=CGROUPS --no-header --period=SECONDS --soak --tsc\n"
	    "\t--timestamp=u|d --output=FILE --format=FORMAT --debug\n"
	    "\t--sample=EVENTS --callchain --help --version --listen=ADDR:PORT\n"
	    "\n"
	    "\tinterval: seconds between samples (default 5)\n"
	    "\tcount: number of samples (default: until interrupted)\n"
	    "\n");
	listev_usage(fp);
	fputs("\n\tCPC_BACKEND=msr, or a kernel without the processor's PMU "
	    "driver and a\n\tusable msr device: hardware events are counted "
	    "through /dev/cpu/N/msr\n\t(CPC_MSR_ROOT) by libcpc's msr backend, "
	    "per CPU only; see cpustat(1).\n", fp);
	fputs("\n\tUse cputrack(1) to monitor per-process statistics.\n", fp);
}

/* One option: cpustat's own, a sampling option, or a common one. */
static void
take_option(cpc_t *cpc, struct opts *o, int ch, char **argv)
{
	switch (ch) {
	case 'C':
		o->o_cpulist = optarg;
		break;
	case 'G':
		cgroups_parse(o, optarg);
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
			cli_usage_error("invalid -T argument '%s': use u "
			    "or d", optarg);
		break;
	case 'o':
		o->o_outname = optarg;
		break;
	case OPT_FORMAT:
		cli_format_option(optarg, &o->o_format);
		break;
	case CLI_OPT_LISTEN:
		o->o_listen = cli_listen_option(optarg);
		break;
	case 'p':
		o->o_period = cli_seconds("period", optarg, 0, MAX_INTERVAL);
		o->o_periodtext = optarg;
		break;
	default:
		if (!smpl_opt(&o->o_smpl, ch, optarg))
			(void)cli_common_opt(cpc, &o->o_cli, ch, argv,
			    print_usage, 1);
	}
}

/* interval [count] */
static void
parse_operands(int argc, char **argv, struct opts *o)
{
	if (argc > 2)
		cli_usage_error("too many operands (from '%s' on)", argv[2]);
	if (argc >= 1)
		o->o_interval = cli_seconds("interval", argv[0], MIN_INTERVAL,
		    MAX_INTERVAL);
	if (argc == 2)
		o->o_count = cli_count("count", argv[1], 1, 1000000000ULL);
}

/* The options and operands into o; -h and --list-events exit here. */
static void
parse_options(cpc_t *cpc, int argc, char **argv, struct opts *o)
{
	int ch;

	o->o_interval = 5.0;
	opterr = 0;
	/* '+': options end at the first operand, so "1 -1" is a bad count. */
	while ((ch = getopt_long(argc, argv, "+:c:C:G:DhM:nsT:tp:o:e:"
	    HINT_OPTSTRING SMPL_SHORTOPTS, longopts, NULL)) != -1)
		take_option(cpc, o, ch, argv);
	o->o_debug = o->o_cli.cc_debug;
	cli_common_end(cpc, &o->o_cli, print_usage, argc - optind,
	    argv + optind, 1);
	parse_operands(argc - optind, argv + optind, o);
}

/* The options together: each conflict a usage error of its own. */
static void
check_options(cpc_t *cpc, struct opts *o)
{
	cli_metrics(cpc, &o->o_cli, 1);
	smpl_check(cpc, &o->o_smpl, o->o_cli.cc_ntexts, 1);
	/* Sampling per cgroup (perf record -G) is not done yet. */
	if (o->o_ncgroups > 0 && smpl_on(&o->o_smpl))
		cli_usage_error("-G counts; it does not go with -S");
	cli_check_output(o->o_format, o->o_outname, o->o_smpl.so_profile);
}

/* The set used without -c: hardware basics, or what this machine has. */
static void
default_spec(cpc_t *cpc, struct opts *o)
{
	cli_add_spec(cpc, &o->o_specs, &o->o_nspecs, cpc_have_hw_pmu(cpc) ?
	    "PAPI_tot_cyc,PAPI_tot_ins" :
	    "cpu-clock,context-switches,cpu-migrations,page-faults,sys", 1);
	o->o_default = 1;
}

/*
 * The -c sets, parsed and resolved; -S alone samples with one set
 * without counting requests; neither: the default set.
 */
static void
make_specs(cpc_t *cpc, struct opts *o)
{
	const char *hint;
	char msg[CPC_MSG_MAX];
	int i;

	for (i = 0; i < o->o_cli.cc_ntexts; i++)
		cli_add_spec(cpc, &o->o_specs, &o->o_nspecs,
		    o->o_cli.cc_texts[i], 1);
	free(o->o_cli.cc_texts);
	o->o_cli.cc_texts = NULL;
	if (o->o_nspecs == 0 && smpl_on(&o->o_smpl)) {
		if ((o->o_specs = calloc(1, sizeof(*o->o_specs))) == NULL ||
		    smpl_empty_spec(&o->o_specs[0]) != 0)
			err(1, "out of memory");
		o->o_nspecs = 1;
	}
	if (o->o_nspecs == 0)
		default_spec(cpc, o);
	/* perf's -p PID: say so, and run as Solaris would */
	if (o->o_periodtext != NULL && (hint = hint_period(o->o_periodtext,
	    o->o_nspecs, msg, sizeof(msg))) != NULL)
		cli_warnx("%s", hint);
}

static void
free_opts(struct opts *o)
{
	int i;

	for (i = 0; i < o->o_nspecs; i++)
		spec_free(&o->o_specs[i]);
	free(o->o_specs);
	smpl_opts_free(&o->o_smpl);
	cgroups_free(o);
	met_destroy(o->o_cli.cc_met);
}

int
main(int argc, char **argv)
{
	/* Static: a usage error exits with them reachable (LeakSanitizer). */
	static struct opts o;
	static cpc_t *cpc;
	int rc;

	/* Before anything opens a file: messages go to stderr, not -o. */
	stdfds_open(1);
	memset(&o, 0, sizeof(o));
	cli_raise_nofile();
	cli_init(progname, synopsis);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		err(1, "cannot access performance counters");
	errh_install(cpc, 0);
	parse_options(cpc, argc, argv, &o);
	check_options(cpc, &o);
	make_specs(cpc, &o);
	if (o.o_cpulist != NULL)
		cpus_from_list(o.o_cpulist, &o.o_cpus);
	else
		cpus_default(&o.o_cpus);
	cgroups_check_fit(&o);
	/* first: a port in use leaves the -o file as it was */
	o.o_srv = cli_listen(o.o_listen, 1);
	o.o_out = cli_open_output(o.o_format, o.o_outname, 1);
	rc = run(cpc, &o);
	/* after the last publish: a scrape until then sees the totals */
	srv_destroy(o.o_srv);
	if (o.o_out != stdout && fclose(o.o_out) != 0 && rc == 0) {
		warn("-o '%s'", o.o_outname);
		rc = 1;
	}
	free_opts(&o);
	cpc_close(cpc);
	return rc;
}
