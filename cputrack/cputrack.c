/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cputrack - monitor a process and its threads using CPU performance
 * counters.
 *
 * main parses the command line into struct topts, checks it, resolves
 * the events and opens the output; track() (track.c) runs the command or
 * attaches to the process.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "cli.h"
#include "cputrack.h"
#include "errh.h"
#include "stdfds.h"
#include "hints.h"
#include "listenopt.h"
#include "listev.h"
#include "msgsafe.h"
#include "cells.h"

#define MAX_INTERVAL	1000000.0	/* seconds */
#define OPT_FORMAT	0x200		/* --format: no letter (HINT_EVENT is 0x100) */
#define OPT_GRACE	0x210		/* --grace */
#define OPT_BYCOMMAND	0x211		/* --by-command */
#define DEF_GRACE	60.0		/* seconds: as cputrack(1) says */

static const char progname[] = PROGNAME;

static const char synopsis[] =
    "[-T secs] [-N count] [-Defghntv] [-o file]\n"
    "\t\t[--format=text|csv|json|openmetrics|prometheus]\n"
    "\t\t[--grace=secs] [--by-command] [-S events]\n"
    "\t\t[--profile[=N]] [--samples=file] [--samples-format=csv|perf]\n"
    "\t\t[--folded=file] [--listen=addr:port]\n"
    "\t\t-c events [-c events]... [-M metrics]\n"
    "\t\t[command [args] | -p pid]";

static const struct option longopts[] = {
	{ "events",	required_argument,	NULL, 'c' },
	{ "debug",	no_argument,		NULL, 'D' },
	{ "metrics",	required_argument,	NULL, 'M' },
	{ "follow-exec", no_argument,		NULL, 'e' },
	{ "follow-fork", no_argument,		NULL, 'f' },
	{ "format",	required_argument,	NULL, OPT_FORMAT },
	{ "grace",	required_argument,	NULL, OPT_GRACE },
	{ "by-command",	no_argument,		NULL, OPT_BYCOMMAND },
	{ "no-header",	no_argument,		NULL, 'n' },
	{ "count",	required_argument,	NULL, 'N' },
	{ "output",	required_argument,	NULL, 'o' },
	{ "pid",	required_argument,	NULL, 'p' },
	{ "tsc",	no_argument,		NULL, 't' },
	{ "interval",	required_argument,	NULL, 'T' },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "help",	no_argument,		NULL, 'H' },
	{ "list-events", optional_argument,	NULL, 'L' },
	{ "version",	no_argument,		NULL, 'V' },
	HINT_LONGOPTS(HINT_EVENT),
	SMPL_LONGOPTS,
	CLI_LONGOPT_LISTEN,
	{ NULL,		0,			NULL, 0 },
};

static void
print_usage(FILE *fp)
{
	fprintf(fp, "Usage:\n\t%s %s\n\t%s --list-events[=pattern]\n\n",
	    progname, synopsis, progname);
	fprintf(fp,
	    "\t-T secs\t\tseconds between samples, 0 for none (default 1);\n"
	    "\t\t\twith 0 a command's threads (and with -f its\n"
	    "\t\t\tprocesses) are counted without stopping them\n"
	    "\t\t\twhere the other options allow\n"
	    "\t-N count\tnumber of samples of each process, then let it go\n"
	    "\t\t\t(default: unlimited)\n"
	    "\t-D\t\tdebug: name the failing libcpc function in errors\n"
	    "\t-e\t\tfollow exec(2): count the new image from zero\n"
	    "\t-f\t\tfollow fork(2), vfork(2) and posix_spawn(3): count the\n"
	    "\t\t\tchildren too and add a pid column\n"
	    "\t-h\t\tprint this text and the events this machine counts\n"
	    "\t-n\t\tsuppress the title line\n"
	    "\t-t\t\tinclude the %s register\n"
	    "\t-v\t\tverbose: also print init_lwp and fini_lwp lines\n",
	    out_tickname());
	cli_help_output(fp, "process");
	cli_help_listen(fp);
	fprintf(fp,
	    "\t--grace=secs\tan ended process's series stay secs in the\n"
	    "\t\t\texposition, then leave (default %g)\n"
	    "\t--by-command\tthe exposition's series per command (summed),\n"
	    "\t\t\tnot per process\n", DEF_GRACE);
	fprintf(fp,
	    "\t-c events\tevents to count (repeat -c to rotate sets)\n"
	    "%s"
	    "\t-p pid\t\tattach to a running process, detach at the end\n"
	    "\t-S events\tsample these events (the -c grammar, period=N\n"
	    "\t\t\tevents between samples); a column smplN per event\n"
	    "\t\t\tcounts the samples taken (-c is then optional)\n"
	    "\t-g\t\trecord call chains with the samples\n"
	    "\t--profile[=N]\tafter each process's totals, its N hottest\n"
	    "\t\t\tfunctions (default 10): pct, samples, symbol, object;\n"
	    "\t\t\twith -g total%%, self%%, total, self, symbol, object,\n"
	    "\t\t\tthen the callers and callees of those N\n"
	    "\t--samples=file\twrite every sample to file (CSV by default)\n"
	    "\t--samples-format=csv|perf\n"
	    "\t\t\tthe format of --samples: perf is the text of perf\n"
	    "\t\t\tscript, which Firefox Profiler and speedscope open\n"
	    "\t--folded=file\twrite the call chains (-g) as folded stacks\n"
	    "\t--list-events[=pattern]\n"
	    "\t\t\tlist the event names that contain pattern (or match\n"
	    "\t\t\tit, with * ? [), any case: name, kind, yes/no/priv\n"
	    "\t\t\t(can be counted in a thread now), description\n"
	    "\n"
	    "\tLong options: --interval=SECS --count=N --debug "
	    "--follow-exec\n"
	    "\t--follow-fork --no-header --tsc --verbose --output=FILE\n"
	    "\t--events=EVENTS --metrics=METRICS --pid=PID --format=FORMAT\n"
	    "\t--sample=EVENTS --callchain --listen=ADDR:PORT --help --version\n"
	    "\n", cli_help_metrics());
	listev_usage(fp);
	fputs("\n\tUse cpustat(1) to monitor system-wide statistics.\n", fp);
}

/* One option: cputrack's own, a sampling option, or a common one. */
static void
take_option(cpc_t *cpc, struct topts *o, int ch, char **argv)
{
	double secs;

	switch (ch) {
	case 'e':
		o->o_followexec = 1;
		break;
	case 'f':
		o->o_followfork = 1;
		break;
	case 'n':
		o->o_noheader = 1;
		break;
	case 'N':
		o->o_count = (unsigned)cli_count("count", optarg, 0,
		    1000000000ULL);
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
	case OPT_GRACE:
		o->o_grace = cli_seconds("--grace", optarg, 0, MAX_INTERVAL);
		break;
	case OPT_BYCOMMAND:
		o->o_bycommand = 1;
		break;
	case 'p':
		if (o->o_pid != 0)
			cli_usage_error("-p given twice: cputrack "
			    "follows one process");
		o->o_pid = (pid_t)cli_count("pid", optarg, 1, 0x7fffffffULL);
		break;
	case 't':
		o->o_tick = 1;
		break;
	case 'T':
		secs = cli_seconds("interval", optarg, 0, MAX_INTERVAL);
		if (secs > 0 && secs < 0.001)
			cli_usage_error("invalid interval '%s': must "
			    "be 0 or at least 0.001 seconds", optarg);
		o->o_msec = (unsigned)(secs * 1000.0 + 0.5);
		break;
	case 'v':
		o->o_verbose = 1;
		break;
	default:
		if (!smpl_opt(&o->o_smpl, ch, optarg))
			(void)cli_common_opt(cpc, &o->o_cli, ch, argv,
			    print_usage, EXIT_OWNFAIL);
	}
}

/* The options into o; -h and --list-events print and exit here. */
static void
parse_options(cpc_t *cpc, int argc, char **argv, struct topts *o)
{
	int ch;

	o->o_msec = 1000;
	o->o_grace = DEF_GRACE;
	opterr = 0;
	/* '+': options end at the command. */
	while ((ch = getopt_long(argc, argv, "+:c:DefhM:nN:o:p:tT:v"
	    HINT_OPTSTRING SMPL_SHORTOPTS, longopts, NULL)) != -1)
		take_option(cpc, o, ch, argv);
	o->o_debug = o->o_cli.cc_debug;
	cli_common_end(cpc, &o->o_cli, print_usage, argc - optind,
	    argv + optind, 0);
	if (optind < argc)
		o->o_argv = argv + optind;
}

/*
 * The options together: the interval and -N, the command or -p, the
 * events, the sampling options, the output; each conflict is a usage
 * error with its own message.
 */
static void
check_options(cpc_t *cpc, struct topts *o)
{
	char hint[CPC_MSG_MAX];
	int ntexts;

	cli_metrics(cpc, &o->o_cli, o->o_pid ? 1 : EXIT_OWNFAIL);
	ntexts = o->o_cli.cc_ntexts;
	if (o->o_msec == 0 && o->o_count != 0)
		cli_usage_error("-N %u counts ticks, and -T 0 makes none",
		    o->o_count);
	/* perf's -e EVENTS (with -p too): first say what -e is here */
	if (ntexts == 0 && o->o_followexec && !smpl_on(&o->o_smpl))
		cli_usage_error("no events: give at least one -c or -S%s",
		    hint_cputrack_e(cpc, o->o_argv != NULL ? o->o_argv[0] :
		    NULL, hint, sizeof(hint)));
	if (o->o_argv == NULL && o->o_pid == 0)
		cli_usage_error("no command to run and no -p pid");
	if (o->o_argv != NULL && o->o_pid != 0)
		cli_usage_error("both a command ('%s') and -p %d: choose one",
		    o->o_argv[0], (int)o->o_pid);
	if (ntexts == 0 && !smpl_on(&o->o_smpl))
		cli_usage_error("no events: give at least one -c or -S");
	smpl_check(cpc, &o->o_smpl, ntexts, o->o_pid ? 1 : EXIT_OWNFAIL);
	cli_check_output(o->o_format, o->o_outname, o->o_smpl.so_profile);
}

/* The -c sets, parsed; -S alone binds one set of sampling requests only. */
static void
make_specs(cpc_t *cpc, struct topts *o)
{
	int i;

	for (i = 0; i < o->o_cli.cc_ntexts; i++)
		cli_add_spec(cpc, &o->o_specs, &o->o_nspecs,
		    o->o_cli.cc_texts[i], o->o_pid ? 1 : EXIT_OWNFAIL);
	free(o->o_cli.cc_texts);
	o->o_cli.cc_texts = NULL;
	if (o->o_nspecs == 0) {
		if ((o->o_specs = calloc(1, sizeof(*o->o_specs))) == NULL ||
		    smpl_empty_spec(&o->o_specs[0]) != 0)
			err(EXIT_OWNFAIL, "out of memory");
		o->o_nspecs = 1;
	}
}

static void
free_options(struct topts *o)
{
	int i;

	if (o->o_out != stdout)
		fclose(o->o_out);
	for (i = 0; i < o->o_nspecs; i++)
		spec_free(&o->o_specs[i]);
	free(o->o_specs);
	smpl_opts_free(&o->o_smpl);
	met_destroy(o->o_cli.cc_met);
}

int
main(int argc, char **argv)
{
	/* Static: a usage error exits with them reachable (LeakSanitizer). */
	static struct topts o;
	static cpc_t *cpc;
	static struct tracker *tr;
	int rc;

	/* Before anything opens a file: messages go to stderr, not -o. */
	stdfds_open(EXIT_OWNFAIL);
	memset(&o, 0, sizeof(o));
	cli_init(progname, synopsis);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		err(EXIT_OWNFAIL, "cannot access performance counters");
	errh_install(cpc, 0);
	parse_options(cpc, argc, argv, &o);
	check_options(cpc, &o);
	make_specs(cpc, &o);
	/*
	 * First: a port in use leaves the -o file as it was, and the
	 * command is never started (it never sees the socket: cloexec).
	 */
	o.o_srv = cli_listen(o.o_listen, o.o_pid ? 1 : EXIT_OWNFAIL);
	o.o_out = cli_open_output(o.o_format, o.o_outname,
	    o.o_pid ? 1 : EXIT_OWNFAIL);
	if ((tr = tracker_create(cpc, &o)) == NULL) {
		warnx("out of memory");
		rc = o.o_pid ? 1 : EXIT_OWNFAIL;
	} else {
		rc = track(tr);
	}
	srv_destroy(o.o_srv);
	free_options(&o);
	/*
	 * -p: the threads' counters are the kernel's to close at our exit,
	 * with the threads it detaches then (procs.c's proc_retire); what
	 * is left stays reachable from cpc and tr (LeakSanitizer).
	 */
	if (o.o_pid == 0) {
		tracker_destroy(tr);
		cpc_close(cpc);
	}
	return rc;
}
