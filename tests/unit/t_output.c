/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_output.c - the fixed columns both tools print (common/out/cells.c) and
 * the -T timestamps (common/out/timefmt.c), captured with open_memstream.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libcpc.h>

#include "cells.h"
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

/*
 * out_time against printf's "%7.3f" of out_reltime, and out_u64 against
 * "%*" PRIu64: every millisecond's half and its neighbours, the edges of
 * the exact range (2^22 s) and of the widths, negative times, and a
 * spread of others (a fixed LCG: the same numbers every run).
 */
static int
time_agrees(int64_t d)
{
	struct cap c;
	char want[64];

	snprintf(want, sizeof(want), "%7.3f", out_reltime(d + 1000, 1000));
	out_time(cap_open(&c), d + 1000, 1000);
	return strcmp(cap_take(&c), want) == 0;
}

static int
u64_agrees(uint64_t v, int width)
{
	struct cap c;
	char want[64];

	snprintf(want, sizeof(want), "%*" PRIu64, width, v);
	out_u64(cap_open(&c), v, width);
	return strcmp(cap_take(&c), want) == 0;
}

static void
test_printf_free(void)
{
	static const int64_t edge[] = { 0, 1, 499999, 500000, 500001,
	    999999, 1000000, 9999500000, 99999500000, 999999499999,
	    999999500000, 999999500001, 4194303999500001, 4194303999999999,
	    4194304000000000, 4194304000500000, -1, -500000, -1500000,
	    INT64_C(9000000000000000000) };
	static const uint64_t vals[] = { 0, 9, 10, 99999999, 100000000,
	    999999999, 1000000000, UINT64_MAX };
	uint64_t x = 88172645463325252u;
	int64_t d;
	size_t i;
	int bad = 0, w;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		bad += !time_agrees(edge[i]);
	for (i = 0; i < 20000; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		d = (int64_t)(x >> 12) % ((int64_t)1 << 52);
		/* the millisecond's half, its neighbours, and anywhere */
		bad += !time_agrees(d / 1000000 * 1000000 + 500000);
		bad += !time_agrees(d / 1000000 * 1000000 + 499999);
		bad += !time_agrees(d / 1000000 * 1000000 + 500001);
		bad += !time_agrees(d % 100000000000);
		bad += !time_agrees(d);
	}
	tap_ok(bad == 0, "out_time is printf's %%7.3f (%d differ)", bad);
	bad = 0;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (w = 0; w <= 22; w++)
			bad += !u64_agrees(vals[i], w);
	for (i = 0; i < 20000; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		bad += !u64_agrees(x >> (x & 63), 9);
	}
	tap_ok(bad == 0, "out_u64 is printf's %%*" PRIu64 " (%d differ)", bad);
}

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
	test_printf_free();
	return tap_done();
}
