/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listev.h - --list-events: the event catalogue as fixed columns, one
 * event a line:
 *
 *	name (40 wide) kind (10 wide) avail (4 wide) description
 *
 * the fields separated by at least one space (a longer name pushes the
 * rest right; names hold no blanks, so awk's $1 $2 $3 are always name,
 * kind and avail, and the description is the rest of the line).
 */
#ifndef LISTEV_H
#define LISTEV_H

#include <stdio.h>
#include <libcpc.h>

/*
 * Print the events that match pattern (NULL: all) on fp.  percpu: the
 * availability is tested per CPU (cpustat), not for a thread (cputrack).
 * Returns the exit status: 0 when something was listed, 1 when nothing
 * matched (said on stderr) or fp could not be written.
 */
int	listev_print(FILE *fp, cpc_t *cpc, const char *pattern, int percpu);
/*
 * --list-events[=pattern] with the operands left after the options: one
 * operand is the pattern when the option had none; more are a usage
 * error.  Prints on stdout and returns the exit status.
 */
/* The forms of event names, in the order they are tried, for --help. */
void	listev_usage(FILE *fp);
int	listev_run(cpc_t *cpc, const char *pattern, int argc, char **argv,
	    int percpu);

#endif
