/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.h - command-line helpers both tools share: strict operands, -c
 * sets checked while parsing, the common options, --format.
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

#include <libcpc.h>

#include "format.h"
#include "metric.h"
#include "strtoset.h"
#include "smplopt.h"
#include "usage.h"

/* A number of seconds from lo to hi, or a usage error naming what. */
double	cli_seconds(const char *what, const char *arg, double lo, double hi);
/* A whole number from lo to hi, or a usage error naming what. */
unsigned long long cli_count(const char *what, const char *arg,
	    unsigned long long lo, unsigned long long hi);
/*
 * Parse text and resolve its events once (a set is built and destroyed),
 * appending it to *specs.  A bad spec or an unknown name is a usage
 * error; an event this machine cannot count exits with failstatus.
 */
void	cli_add_spec(cpc_t *cpc, struct spec **specs, int *nspecs,
	    const char *text, int failstatus);
/*
 * As many open files as the hard limit allows (one fd per counter).  The
 * raised limit is inherited: call it after starting a command, which must
 * keep the limit it was given.
 */
void	cli_raise_nofile(void);
/* --format's argument, or a usage error when it names no format. */
void	cli_format_option(const char *arg, enum fmt_kind *kind);
/*
 * The output options together: --profile needs the text format,
 * openmetrics and prometheus need -o; each conflict a usage error.
 */
void	cli_check_output(enum fmt_kind kind, const char *outname,
	    int profile);
/*
 * The stream the rows go to: -o opened (as outfile_open does), or
 * stdout without -o or when the writer writes a file of its own
 * (openmetrics, prometheus).  A file that cannot be opened exits with failstatus.
 */
FILE	*cli_open_output(enum fmt_kind kind, const char *outname,
	    int failstatus);
/* --help's lines for -o and --format; the expositions count per what. */
void	cli_help_output(FILE *fp, const char *what);

/*
 * The options both tools have, as getopt_long returns them: -c (kept in
 * order), -D, -h, --help ('H'), --list-events ('L'), --version ('V'), the
 * errors ':' and '?', and perf's options that are refused with a hint
 * (hints.h).
 */
struct cli_common {
	const char	**cc_texts;	/* the -c arguments */
	int		  cc_ntexts;
	int		  cc_help;	/* -h: usage and the capabilities */
	int		  cc_list;	/* --list-events */
	const char	 *cc_pattern;	/* its =PATTERN, or NULL */
	int		  cc_debug;	/* -D */
	const char	**cc_mtexts;	/* the -M arguments */
	int		  cc_nmtexts;
	struct metrics	 *cc_met;	/* cli_metrics' */
};
/*
 * Take option ch if it is one of those (1), or leave it (0).  --help and
 * --version print and exit 0; an error is a usage error.  failstatus is
 * the tool's status for running out of memory.
 */
int	cli_common_opt(cpc_t *cpc, struct cli_common *cc, int ch, char **argv,
	    void (*usage)(FILE *), int failstatus);
/*
 * -M: the metrics parsed and their events checked into cc_met (a usage
 * error for a wrong one, failstatus for events this machine cannot
 * count), their events added to the -c texts (metric.h's met_plan).
 * After cli_common_end; nothing without -M.
 */
void	cli_metrics(cpc_t *cpc, struct cli_common *cc, int failstatus);
/* --help's lines for -M. */
const char *cli_help_metrics(void);
/*
 * After the options: -h prints the usage and the capabilities, and
 * --list-events the listing (with the operands as its pattern), each
 * then exiting; else nothing.  listflags as listev_run's.
 */
void	cli_common_end(cpc_t *cpc, const struct cli_common *cc,
	    void (*usage)(FILE *), int argc, char **argv, int listflags);

#endif
