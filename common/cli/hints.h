/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hints.h - what to say to someone used to perf stat: perf's options that
 * these tools lack are refused with the option to use instead, and perf's
 * event list (-e) is shown in the -c syntax.  Valid Solaris options keep
 * their meaning: cputrack's -e is still "follow exec".
 */
#ifndef HINTS_H
#define HINTS_H

#include <stddef.h>

#include <libcpc.h>

/* getopt_long's code for perf's --event in cputrack, whose -e is taken. */
#define HINT_EVENT	0x100

/* perf's short options the tools refuse with a hint (both tools). */
#define HINT_OPTSTRING	"aI:x:"
/* perf's long options, as longopts entries; ev: the code for --event. */
#define HINT_LONGOPTS(ev)						\
	{ "event",		required_argument,	NULL, (ev) },	\
	{ "all-cpus",		no_argument,		NULL, 'a' },	\
	{ "interval-print",	required_argument,	NULL, 'I' },	\
	{ "field-separator",	required_argument,	NULL, 'x' }

/*
 * perf's event list (cycles:u,instructions, pmu/term=v/k, {a,b}) as a -c
 * specification that counts the same modes, into buf: 0 when it has one
 * that the -c grammar takes, else -1 (modifiers other than u and k, a
 * group modifier, a list too long for buf).
 */
int	hint_perf_events(cpc_t *cpc, const char *perf, char *buf, size_t len);
/*
 * The usage error message for perf's option ch (-e or HINT_EVENT, -a,
 * -I, -x; arg its argument or NULL) given to tool, into buf; NULL when ch
 * is none of them.
 */
const char *hint_option(cpc_t *cpc, const char *tool, int ch,
	    const char *arg, char *buf, size_t len);
/*
 * cputrack without -c, given -e: what it is told beside "no events", into
 * buf (operand: the first operand, perf's event list if it was one: its
 * -c spelling is shown when it names known events, not a command).
 */
const char *hint_cputrack_e(cpc_t *cpc, const char *operand, char *buf,
	    size_t len);
/*
 * cpustat -p arg with nsets sets: a warning when arg looks like a process
 * ID, into buf (see cpustat(1) for the rule); NULL when it does not.
 */
const char *hint_period(const char *arg, int nsets, char *buf, size_t len);

#endif
