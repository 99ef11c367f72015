/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listev.c - --list-events for both tools: libcpc's catalogue walk,
 * printed in the columns listev.h describes.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "usage.h"
#include "errh.h"
#include "listev.h"

#define NAME_W	40
#define KIND_W	10
#define AVAIL_W	4

static const char *
avail_word(int avail)
{
	switch (avail) {
	case CPC_AVAIL_YES:
		return "yes";
	case CPC_AVAIL_PRIV:
		return "priv";
	default:
		return "no";
	}
}

static void
print_event(void *arg, const cpc_evinfo_t *ei)
{
	FILE *fp = arg;

	fprintf(fp, "%-*s %-*s %-*s %s\n", NAME_W, ei->ei_name, KIND_W,
	    ei->ei_kind, AVAIL_W, avail_word(ei->ei_avail),
	    ei->ei_desc[0] != '\0' ? ei->ei_desc : "-");
}

int
listev_print(FILE *fp, cpc_t *cpc, const char *pattern, int percpu)
{
	const char *msg;
	int n;

	errh_clear();
	n = cpc_walk_catalogue(cpc, pattern, percpu ? CPC_WALK_CPU : 0, fp,
	    print_event);
	if (fflush(fp) == EOF || ferror(fp)) {
		warn("cannot write the event list");
		return 1;
	}
	if ((msg = errh_last())[0] != '\0')
		warnx("%s", msg);
	if (n < 0) {
		warn("cannot list the events");
		return 1;
	}
	if (n == 0) {
		if (pattern != NULL && pattern[0] != '\0')
			cli_warnx("no event name matches '%s'", pattern);
		else
			warnx("no events to list");
		return 1;
	}
	return 0;
}

int
listev_run(cpc_t *cpc, const char *pattern, int argc, char **argv,
    int percpu)
{
	if (argc > 0 && pattern != NULL)
		cli_usage_error("--list-events=%s: unexpected operand '%s'",
		    pattern, argv[0]);
	if (argc > 1)
		cli_usage_error("--list-events: one pattern at most (from "
		    "'%s' on)", argv[1]);
	return listev_print(stdout, cpc, argc == 1 ? argv[0] : pattern,
	    percpu);
}

void
listev_usage(FILE *fp)
{
	fputs("\tEvent names, tried in this order (the first form that "
	    "matches wins):\n"
	    "\t  pmu/term=val,.../  a sysfs PMU event (msr/tsc/)\n"
	    "\t  system:event       a tracepoint (sched:sched_switch)\n"
	    "\t  generic            perf's (cycles, task-clock, "
	    "L1-dcache-loads)\n"
	    "\t                     and PAPI_* (PAPI_tot_cyc, "
	    "PAPI_TOT_CYC)\n"
	    "\t  Solaris            EC_ref, EC_misses, EC_hit, Cycle_cnt, "
	    "Instr_cnt\n"
	    "\t  libpfm4            the CPU's native names "
	    "(INST_RETIRED:ANY_P,\n"
	    "\t                     skl::INST_RETIRED:ANY_P)\n"
	    "\t  raw code           a number (0xc0), with umask, cmask, "
	    "...\n", fp);
}
