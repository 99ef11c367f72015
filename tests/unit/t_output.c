/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_output.c - the fixed columns both tools print (common/output.c) and
 * the -T timestamps (common/timefmt.c), captured with open_memstream.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libcpc.h>

#include "output.h"
#include "strtoset.h"
#include "timefmt.h"
#include "tap.h"

/* A memory stream; take() closes it and hands back the text. */
struct cap {
	char	*c_buf;
	size_t	 c_len;
	FILE	*c_fp;
};

static FILE *
cap_open(struct cap *c)
{
	c->c_buf = NULL;
	c->c_len = 0;
	c->c_fp = open_memstream(&c->c_buf, &c->c_len);
	return c->c_fp;
}

static const char *
cap_take(struct cap *c)
{
	static char text[1024];

	fclose(c->c_fp);
	snprintf(text, sizeof(text), "%s", c->c_buf ? c->c_buf : "(null)");
	free(c->c_buf);
	return text;
}

struct row {
	const char	*r_name;
	int		 r_tick;
	uint64_t	 r_tickval;
	uint64_t	 r_vals[4];
	int		 r_nvals;
	int		 r_scaled;
	const char	*r_note;
	const char	*r_want;
};

static const struct row rows[] = {
	{ "one value", 0, 0, { 1 }, 1, 0, NULL,
	  "        1 \n" },
	{ "two values", 0, 0, { 1, 22 }, 2, 0, NULL,
	  "        1        22 \n" },
	{ "zero", 0, 0, { 0 }, 1, 0, NULL,
	  "        0 \n" },
	{ "nine digits fill the column", 0, 0, { 123456789 }, 1, 0, NULL,
	  "123456789 \n" },
	{ "ten digits widen it", 0, 0, { 1234567890 }, 1, 0, NULL,
	  "1234567890 \n" },
	{ "2^64-1 in full", 0, 0, { UINT64_MAX }, 1, 0, NULL,
	  "18446744073709551615 \n" },
	{ "tick column first", 1, 123, { 4, 5 }, 2, 0, NULL,
	  "      123         4         5 \n" },
	{ "tick of zero is printed", 1, 0, { 4 }, 1, 0, NULL,
	  "        0         4 \n" },
	{ "tick without values", 1, 7, { 0 }, 0, 0, NULL,
	  "        7 \n" },
	{ "no values at all", 0, 0, { 0 }, 0, 0, NULL,
	  "\n" },
	{ "a note", 0, 0, { 1 }, 1, 0, "total",
	  "        1  # total\n" },
	{ "scaled marker", 0, 0, { 1 }, 1, 1, NULL,
	  "        1  # (scaled)\n" },
	{ "note and scaled marker", 0, 0, { 1 }, 1, 1, "total",
	  "        1  # total (scaled)\n" },
	{ "tick, values, note, scaled", 1, 99, { 3, 4 }, 2, 1, "x",
	  "       99         3         4  # x (scaled)\n" },
};

static void
test_rows(void)
{
	struct cap c;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		const struct row *r = &rows[i];

		if (cap_open(&c) == NULL) {
			tap_ok(0, "open_memstream");
			return;
		}
		out_row(c.c_fp, r->r_tick, r->r_tickval, r->r_vals, r->r_nvals,
		    r->r_scaled, r->r_note);
		tap_str(cap_take(&c), r->r_want, r->r_name);
	}
}

struct cells {
	const char	*c_spec;
	const char	*c_want;
};

static const struct cells cellrows[] = {
	{ "a", "     pic0 " },
	{ "a,b", "     pic0      pic1 " },
	{ "pic3=a", "     pic3 " },
	{ "a,pic12=b", "     pic0     pic12 " },
	{ "pic63=a", "    pic63 " },
	{ "pic9=a,pic10=b", "     pic9     pic10 " },
};

static void
test_cells(void)
{
	char err[256];
	struct spec sp;
	struct cap c;
	size_t i;

	for (i = 0; i < sizeof(cellrows) / sizeof(*cellrows); i++) {
		const struct cells *t = &cellrows[i];

		if (spec_parse(t->c_spec, 64, NULL, &sp, err,
		    sizeof(err)) != 0) {
			tap_ok(0, "parse '%s': %s", t->c_spec, err);
			continue;
		}
		cap_open(&c);
		out_pic_cells(c.c_fp, &sp);
		tap_str(cap_take(&c), t->c_want, t->c_spec);
		spec_free(&sp);
	}
}

/* out_values reads a libcpc buffer: values, tick, scaled. */
static void
test_values(void)
{
	cpc_t *cpc = cpc_open(CPC_VER_CURRENT);
	cpc_set_t *set;
	cpc_buf_t *b;
	struct cap c;

	if (cpc == NULL) {
		tap_skip("cpc_open failed", "out_values");
		return;
	}
	set = cpc_set_create(cpc);
	cpc_set_add_request(cpc, set, "task-clock", 0, CPC_COUNT_USER, 0,
	    NULL);
	cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER, 0,
	    NULL);
	b = cpc_buf_create(cpc, set);
	if (!tap_ok(b != NULL, "a two-request buffer"))
		goto out;
	cpc_buf_set(cpc, b, 0, 5);
	cpc_buf_set(cpc, b, 1, 1234567890123ULL);
	cap_open(&c);
	out_values(c.c_fp, cpc, b, 2, 0, NULL);
	tap_str(cap_take(&c), "        5 1234567890123 \n",
	    "out_values: the buffer's values");
	cap_open(&c);
	out_values(c.c_fp, cpc, b, 2, 1, "total");
	tap_str(cap_take(&c), "        0         5 1234567890123  # total\n",
	    "out_values: tick column (0: never sampled) and note");
	cap_open(&c);
	out_values(c.c_fp, cpc, b, 1, 0, NULL);
	tap_str(cap_take(&c), "        5 \n",
	    "out_values: only the first nreqs values");
out:
	cpc_close(cpc);
}

struct when {
	const char	*w_tz;
	time_t		 w_t;
	char		 w_kind;
	const char	*w_want;
};

static const struct when whens[] = {
	{ "UTC", 0, 'u', "0\n" },
	{ "UTC", 1700000000, 'u', "1700000000\n" },
	{ "UTC", -1, 'u', "-1\n" },
	{ "UTC", 1700000000, 'd', "Tue Nov 14 22:13:20 UTC 2023\n" },
	{ "UTC", 0, 'd', "Thu Jan  1 00:00:00 UTC 1970\n" },
	{ "UTC", -1, 'd', "Wed Dec 31 23:59:59 UTC 1969\n" },
	{ "UTC", 4102444800, 'd', "Fri Jan  1 00:00:00 UTC 2100\n" },
	/* POSIX rules: no zoneinfo files needed. */
	{ "EST5EDT,M3.2.0,M11.1.0", 1700000000, 'd',
	  "Tue Nov 14 17:13:20 EST 2023\n" },
	{ "EST5EDT,M3.2.0,M11.1.0", 1690000000, 'd',
	  "Sat Jul 22 00:26:40 EDT 2023\n" },
	/* 'u' does not depend on the zone. */
	{ "EST5EDT,M3.2.0,M11.1.0", 1690000000, 'u', "1690000000\n" },
};

static void
test_time(void)
{
	char *old = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	struct cap c;
	size_t i;

	for (i = 0; i < sizeof(whens) / sizeof(*whens); i++) {
		const struct when *w = &whens[i];
		char name[128];

		setenv("TZ", w->w_tz, 1);
		tzset();
		cap_open(&c);
		tf_print(c.c_fp, w->w_kind, w->w_t);
		snprintf(name, sizeof(name), "tf_print '%c' %lld in %s",
		    w->w_kind, (long long)w->w_t, w->w_tz);
		tap_str(cap_take(&c), w->w_want, name);
	}
	if (old != NULL)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
}

struct targ {
	const char	*t_arg;
	int		 t_ok;
	char		 t_kind;
};

static const struct targ targs[] = {
	{ "u", 1, 'u' },
	{ "d", 1, 'd' },
	{ "", 0, 0 },
	{ "x", 0, 0 },
	{ "U", 0, 0 },
	{ "D", 0, 0 },
	{ "uu", 0, 0 },
	{ "ud", 0, 0 },
	{ "u ", 0, 0 },
	{ " d", 0, 0 },
};

static void
test_tf_parse(void)
{
	size_t i;

	for (i = 0; i < sizeof(targs) / sizeof(*targs); i++) {
		const struct targ *t = &targs[i];
		char kind = '?';
		int rc = tf_parse(t->t_arg, &kind);

		tap_ok(rc == t->t_ok && kind == (t->t_ok ? t->t_kind : '?'),
		    "tf_parse(\"%s\") -> %d, kind %c (got %d, %c)", t->t_arg,
		    t->t_ok, t->t_ok ? t->t_kind : '?', rc, kind);
	}
}

int
main(void)
{
	test_rows();
	test_cells();
	test_values();
	tap_ok(out_reltime(1500000000, 500000000) == 1.0,
	    "out_reltime: 1e9 ns apart is 1.0 s");
	tap_ok(out_reltime(1000000001, 1000000000) == 1e-9,
	    "out_reltime: one nanosecond");
	tap_ok(out_reltime(7, 7) == 0.0, "out_reltime: same time is 0");
	tap_ok(out_reltime(0, 250000000) == -0.25,
	    "out_reltime: before the base is negative");
#if defined(__x86_64__) || defined(__i386__)
	tap_str(out_tickname(), "tsc", "out_tickname on x86 is tsc");
#else
	tap_str(out_tickname(), "tick", "out_tickname elsewhere is tick");
#endif
	test_time();
	test_tf_parse();
	return tap_done();
}
