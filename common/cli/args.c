/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c - strict number parsing (see args.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "args.h"

/* Digits, at most one '.', optional exponent: what strtod may see. */
static int
plain_decimal(const char *s)
{
	int digits = 0;

	if (*s == '+')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

enum args_rc
args_seconds(const char *s, double lo, double hi, double *out)
{
	double v;
	char *end;

	if (*s == '-') {
		if (!plain_decimal(s + 1))
			return ARGS_SYNTAX;
		return ARGS_RANGE;
	}
	if (!plain_decimal(s))
		return ARGS_SYNTAX;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v) || v < lo || v > hi)
		return ARGS_RANGE;
	*out = v;
	return ARGS_OK;
}

enum args_rc
args_ulong(const char *s, unsigned long long lo, unsigned long long hi,
    unsigned long long *out)
{
	unsigned long long v;
	const char *p = s;
	char *end;

	if (*p == '-')
		p++;
	if (*p == '+' && p == s)
		p++;
	if (!isdigit((unsigned char)*p))
		return ARGS_SYNTAX;
	for (; isdigit((unsigned char)*p); p++)
		;
	if (*p != '\0')
		return ARGS_SYNTAX;
	if (*s == '-')
		return ARGS_RANGE;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || v < lo || v > hi)
		return ARGS_RANGE;
	*out = v;
	return ARGS_OK;
}

const char *
args_rc_text(enum args_rc rc)
{
	switch (rc) {
	case ARGS_OK:
		return "ok";
	case ARGS_SYNTAX:
		return "not a number";
	case ARGS_RANGE:
		return "out of range";
	}
	return "?";
}
