/*
 * cli.h - command-line helpers both tools share: the usage error, strict
 * operands, and -c sets checked while parsing.
 */
#ifndef CLI_H
#define CLI_H

#include <libcpc.h>

#include "strtoset.h"

/* The tool's name and its one-line synopsis, for usage errors. */
void	cli_init(const char *prog, const char *synopsis);
/* "prog: message" (when fmt), the synopsis, exit 2. */
void	cli_usage_error(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
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
/* As many open files as the hard limit allows (one fd per counter). */
void	cli_raise_nofile(void);

#endif
