/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_args.c - strict parsing of command-line numbers (common/cli/args.c).
 */
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "tap.h"

#define SENTINEL_D	-12345.0
#define SENTINEL_U	12345ULL

static const char *const rc_name[] = { "ARGS_OK", "ARGS_SYNTAX",
    "ARGS_RANGE" };

struct sec {
	const char	*s_text;
	double		 s_lo, s_hi;
	enum args_rc	 s_rc;
	double		 s_want;	/* when ARGS_OK */
};

static const struct sec secs[] = {
	{ "1", 0, 1e6, ARGS_OK, 1.0 },
	{ "0.5", 0, 1e6, ARGS_OK, 0.5 },
	{ "1e-3", 0, 1e6, ARGS_OK, 0.001 },
	{ "1E+2", 0, 1e6, ARGS_OK, 100.0 },
	{ "1e6", 0, 1e6, ARGS_OK, 1e6 },
	{ "+2", 0, 1e6, ARGS_OK, 2.0 },
	{ "1.", 0, 1e6, ARGS_OK, 1.0 },
	{ ".5", 0, 1e6, ARGS_OK, 0.5 },
	{ "007", 0, 1e6, ARGS_OK, 7.0 },
	{ "0", 0, 1e6, ARGS_OK, 0.0 },
	{ "0.001", 0.001, 1e6, ARGS_OK, 0.001 },
	{ "4", 1, 4, ARGS_OK, 4.0 },
	{ "1", 1, 4, ARGS_OK, 1.0 },
	/* Not numbers. */
	{ "", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "abc", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1x", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1s", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "nan", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "NaN", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "inf", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "infinity", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "-inf", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "0x10", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "0x1p3", 0, 1e6, ARGS_SYNTAX, 0 },
	{ " 1", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1 ", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "\t1", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1\n", 0, 1e6, ARGS_SYNTAX, 0 },
	{ ".", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "+", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "-", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "-abc", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "++1", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "+-1", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "--1", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1e", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1e+", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "e5", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1e2.5", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1.2.3", 0, 1e6, ARGS_SYNTAX, 0 },
	{ "1,5", 0, 1e6, ARGS_SYNTAX, 0 },
	/* Numbers out of range. */
	{ "1e999", 0, DBL_MAX, ARGS_RANGE, 0 },
	{ "-1", 0, 1e6, ARGS_RANGE, 0 },
	{ "-0.5", 0, 1e6, ARGS_RANGE, 0 },
	{ "-1e3", 0, 1e6, ARGS_RANGE, 0 },
	{ "0", 0.001, 1e6, ARGS_RANGE, 0 },
	{ "0.0009", 0.001, 1e6, ARGS_RANGE, 0 },
	{ "1000000.1", 0, 1e6, ARGS_RANGE, 0 },
	{ "1e7", 0, 1e6, ARGS_RANGE, 0 },
	{ "5", 1, 4, ARGS_RANGE, 0 },
	{ "0.999", 1, 4, ARGS_RANGE, 0 },
};

struct ul {
	const char		*u_text;
	unsigned long long	 u_lo, u_hi;
	enum args_rc		 u_rc;
	unsigned long long	 u_want;
};

static const struct ul uls[] = {
	{ "0", 0, ULLONG_MAX, ARGS_OK, 0 },
	{ "1", 0, ULLONG_MAX, ARGS_OK, 1 },
	{ "+5", 0, ULLONG_MAX, ARGS_OK, 5 },
	{ "010", 0, ULLONG_MAX, ARGS_OK, 10 },
	{ "18446744073709551615", 0, ULLONG_MAX, ARGS_OK, ULLONG_MAX },
	{ "1", 1, 4, ARGS_OK, 1 },
	{ "4", 1, 4, ARGS_OK, 4 },
	{ "1000000000", 1, 1000000000ULL, ARGS_OK, 1000000000ULL },
	/* Not numbers. */
	{ "", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "abc", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "1x", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "0x10", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ " 1", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "1 ", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "1.5", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "1e3", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "+", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "-", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "--1", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "+-1", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "-+1", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "++1", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "-x", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "\t1", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	{ "1\n", 0, ULLONG_MAX, ARGS_SYNTAX, 0 },
	/* Numbers out of range. */
	{ "-1", 0, ULLONG_MAX, ARGS_RANGE, 0 },
	{ "-5", 1, 4, ARGS_RANGE, 0 },
	{ "18446744073709551616", 0, ULLONG_MAX, ARGS_RANGE, 0 },
	{ "99999999999999999999999", 0, ULLONG_MAX, ARGS_RANGE, 0 },
	{ "0", 1, 4, ARGS_RANGE, 0 },
	{ "5", 1, 4, ARGS_RANGE, 0 },
	{ "1000000001", 1, 1000000000ULL, ARGS_RANGE, 0 },
};

/* s with tabs and newlines made visible, for test names. */
static const char *
shown(const char *s)
{
	static char buf[128];
	size_t n = 0;

	for (; *s != '\0' && n < sizeof(buf) - 3; s++) {
		if (*s == '\t' || *s == '\n') {
			buf[n++] = '\\';
			buf[n++] = *s == '\t' ? 't' : 'n';
		} else
			buf[n++] = *s;
	}
	buf[n] = '\0';
	return buf;
}

static void
test_seconds(void)
{
	size_t i;

	for (i = 0; i < sizeof(secs) / sizeof(*secs); i++) {
		const struct sec *t = &secs[i];
		double out = SENTINEL_D;
		enum args_rc rc = args_seconds(t->s_text, t->s_lo, t->s_hi,
		    &out);

		tap_ok(rc == t->s_rc, "args_seconds(\"%s\", %g, %g) -> %s "
		    "(got %s)", shown(t->s_text), t->s_lo, t->s_hi,
		    rc_name[t->s_rc], rc <= ARGS_RANGE ? rc_name[rc] : "?");
		if (t->s_rc == ARGS_OK)
			tap_ok(out == t->s_want, "  value %g (got %g)",
			    t->s_want, out);
		else
			tap_ok(out == SENTINEL_D, "  *out untouched");
	}
}

static void
test_ulong(void)
{
	size_t i;

	for (i = 0; i < sizeof(uls) / sizeof(*uls); i++) {
		const struct ul *t = &uls[i];
		unsigned long long out = SENTINEL_U;
		enum args_rc rc = args_ulong(t->u_text, t->u_lo, t->u_hi, &out);

		tap_ok(rc == t->u_rc, "args_ulong(\"%s\", %llu, %llu) -> %s "
		    "(got %s)", shown(t->u_text), t->u_lo, t->u_hi,
		    rc_name[t->u_rc], rc <= ARGS_RANGE ? rc_name[rc] : "?");
		if (t->u_rc == ARGS_OK)
			tap_u64(out, t->u_want, "  value");
		else
			tap_u64(out, SENTINEL_U, "  *out untouched");
	}
}

int
main(void)
{
	test_seconds();
	test_ulong();
	tap_str(args_rc_text(ARGS_OK), "ok", "args_rc_text(ARGS_OK)");
	tap_str(args_rc_text(ARGS_SYNTAX), "not a number",
	    "args_rc_text(ARGS_SYNTAX)");
	tap_str(args_rc_text(ARGS_RANGE), "out of range",
	    "args_rc_text(ARGS_RANGE)");
	tap_str(args_rc_text((enum args_rc)42), "?",
	    "args_rc_text of an unknown code");
	return tap_done();
}
