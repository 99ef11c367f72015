/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.h - strict number parsing for command-line operands: the whole
 * string must be a number in range; no atoi, no trailing garbage.
 */
#ifndef ARGS_H
#define ARGS_H

enum args_rc {
	ARGS_OK = 0,
	ARGS_SYNTAX,		/* not a number */
	ARGS_RANGE,		/* a number, outside [lo, hi] */
};

/* A decimal number of seconds (fractions allowed; no nan/inf/hex). */
enum args_rc	args_seconds(const char *s, double lo, double hi,
		    double *out);
/* A decimal integer. */
enum args_rc	args_ulong(const char *s, unsigned long long lo,
		    unsigned long long hi, unsigned long long *out);
/* A short description of a failure: "not a number", "out of range". */
const char	*args_rc_text(enum args_rc rc);

#endif
