/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usage.h - messages about the command line, for both tools and for
 * every part of common/cli: usage errors (exit 2) and warnings, each
 * made safe to print (msgsafe.h) because it quotes what the user typed.
 */
#ifndef USAGE_H
#define USAGE_H

/* The tool's name and its one-line synopsis, for usage errors. */
void	cli_init(const char *prog, const char *synopsis);
/* The tool's name, as cli_init was given it. */
const char *cli_progname(void);
/*
 * "prog: message" (when fmt; made safe to print, msgsafe.h), the
 * synopsis, exit 2.
 */
void	cli_usage_error(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
/*
 * errx(3) with the message made safe to print (msgsafe.h): for every
 * message that quotes the command line.
 */
void	cli_errx(int status, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/* warnx(3) the same way. */
void	cli_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
