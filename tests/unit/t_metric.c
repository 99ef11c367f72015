/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_metric.c - derived metrics (common/metric/): the expression grammar
 * and its values, every error with its position, the -M list, where the
 * events go (met_plan), and the rows' values and lengths as a writer
 * prints them (met_attach).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "metric.h"
#include "strtoset.h"
#include "tap.h"

struct val {
	const char	*v_text;
	double		 v_want;	/* NAN: no value */
};

/* Events a, b, c count 6, 3, 0 and the row lasts 2 seconds. */
static const struct val vals[] = {
	{ "1 + 2 * 3", 7 },
	{ "(1 + 2) * 3", 9 },
	{ "8 / 2 / 2", 2 },
	{ "8 - 2 - 2", 4 },
	{ "-2 * -3", 6 },
	{ "--1", 1 },
	{ "- (a - b)", -3 },
	{ "a / b", 2 },
	{ "a/secs", 3 },
	{ "\"a\" * 2", 12 },
	{ "100 * b / a", 50 },
	{ "1e3 + .5 + 2.", 1002.5 },
	{ "a / c", NAN },
	{ "1 / (b - b)", NAN },
	{ "(a / c) * 0", NAN },
	{ "1e308 * 10", NAN },
	{ " \ta\t", 6 },
};

struct bad {
	const char	*b_text;
	const char	*b_msg;
};

static const struct bad bads[] = {
	{ "", "position 1: empty expression" },
	{ "  ", "position 3: empty expression" },
	{ "1 +", "position 4: expected a number, an event or '(', found "
	    "the end" },
	{ "2*)", "position 3: expected a number, an event or '(', found ')'" },
	{ "(1", "position 1: '(' not closed" },
	{ "1)", "position 2: ')' without its '('" },
	{ "1 2", "position 3: expected an operator, found '2'" },
	{ "a b", "position 3: expected an operator, found 'b'" },
	{ "\"a", "position 1: '\"' not closed" },
	{ "\"\"", "position 1: empty event name \"\"" },
	{ "\"a\nb\"", "position 3: a control character (0x0a) in an event "
	    "name" },
	{ "2x", "position 2: a name cannot start with a digit" },
	{ ".", "position 1: not a number" },
	{ "1e999", "position 1: number out of range" },
	{ "a % b", "position 3: expected an operator, found '%'" },
	{ "a\001", "position 2: expected an operator, found byte 0x01" },
	{ "(1 + (2 x", "position 9: expected an operator or ')', found 'x'" },
};

/* s for a test's name: a line break shown as \n. */
static const char *
shown(const char *s)
{
	static char buf[256];
	size_t n = 0;

	for (; *s != '\0' && n < sizeof(buf) - 3; s++)
		if (*s == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *s;
		}
	buf[n] = '\0';
	return buf;
}

static void
test_values(void)
{
	double ev[3] = { 6, 3, 0 }, v[MX_MAXEVENTS], got;
	struct mx_expr x;
	char err[256] = "";
	size_t i;
	int j;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		if (!tap_ok(mx_parse(vals[i].v_text, 0, &x, err,
		    sizeof(err)) == 0, "'%s' parses (%s)", vals[i].v_text,
		    err))
			continue;
		/* each event's count by its name: a, b or c */
		for (j = 0; j < x.mx_nevents; j++)
			v[j] = ev[x.mx_events[j][0] - 'a'];
		got = mx_eval(&x, v, 2.0);
		if (isnan(vals[i].v_want))
			tap_ok(isnan(got), "'%s': no value (got %g)",
			    vals[i].v_text, got);
		else
			tap_ok(got == vals[i].v_want, "'%s' = %g (got %g)",
			    vals[i].v_text, vals[i].v_want, got);
		mx_free(&x);
	}
}

static void
test_errors(void)
{
	struct mx_expr x;
	char err[256] = "", deep[200];
	size_t i;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		err[0] = '\0';
		tap_ok(mx_parse(bads[i].b_text, 0, &x, err, sizeof(err)) != 0,
		    "'%s' is refused", shown(bads[i].b_text));
		tap_str(err, bads[i].b_msg, shown(bads[i].b_text));
	}
	/* positions count from the expression's place in the argument */
	(void)mx_parse("1 +", 10, &x, err, sizeof(err));
	tap_str(err, "position 14: expected a number, an event or '(', "
	    "found the end", "base 10");
	memset(deep, '(', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	(void)mx_parse(deep, 0, &x, err, sizeof(err));
	tap_str(err, "position 33: nested deeper than 32", "deep parentheses");
	memset(deep, '-', sizeof(deep) - 1);
	(void)mx_parse(deep, 0, &x, err, sizeof(err));
	tap_str(err, "position 33: nested deeper than 32", "many minus signs");
}

/* The quoted and bare names, and secs, in the event list. */
static void
test_names(void)
{
	struct mx_expr x;
	char err[256] = "";

	tap_ok(mx_parse("2*\"syscalls:sys_enter_getpid\" + "
	    "syscalls:sys_enter_getpid / \"cache-misses\" + secs + \"secs\"",
	    0, &x, err, sizeof(err)) == 0, "names parse (%s)", err);
	tap_u64(x.mx_nevents, 3, "three distinct events");
	tap_str(x.mx_events[0], "syscalls:sys_enter_getpid", "event 1");
	tap_str(x.mx_events[1], "cache-misses", "event 2 (quoted)");
	tap_str(x.mx_events[2], "secs", "event 3 (secs, quoted)");
	tap_u64(x.mx_evpos[1], 62, "where event 2's name begins");
	tap_ok(x.mx_secs, "secs used");
	mx_free(&x);
}

static void
test_list(void)
{
	struct metrics *ms = met_create();
	char err[256] = "";
	static const struct bad bad[] = {
		{ "", "position 1: no metric named" },
		{ "cpi,", "position 5: empty metric" },
		{ "ipcx", "position 1: unknown metric 'ipcx': the built-ins "
		    "are "
		    "ipc, cpi, ghz, branch-miss%, cache-miss%, ec-hit%, "
		    "rate:EVENT; or NAME=EXPR" },
		{ "=1", "position 1: a metric's name is letters, digits and "
		    "_ . % : - (NAME=EXPR)" },
		{ "a b=1", "position 2: a metric's name is letters, digits and "
		    "_ . % : - (NAME=EXPR)" },
		{ "ok=1,x=(", "position 9: expected a number, an event or '(', "
		    "found the end" },
		{ "x\ny", "position 1: unknown metric (with a control "
		    "character)" },
		{ "rate:", "position 6: rate: needs an event name (of no '\"' "
		    "or control character)" },
		{ "ipc", "position 1: metric 'ipc' given twice" },
	};
	size_t i;

	tap_ok(met_add(ms, "ipc,r=\"a,b\"/secs,rate:\"page-faults\","
	    "rate:syscalls:sys_enter_getpid", err, sizeof(err)) == 0,
	    "a list with a comma in quotes (%s)", err);
	tap_u64(met_n(ms), 4, "four metrics");
	tap_str(met_get(ms, 1)->m_x.mx_events[0], "a,b", "quoted comma");
	tap_str(met_get(ms, 2)->m_name, "rate:page-faults", "rate's name");
	tap_str(met_get(ms, 3)->m_x.mx_events[0],
	    "syscalls:sys_enter_getpid", "rate's event");
	tap_ok(met_get(ms, 0)->m_builtin && !met_get(ms, 1)->m_builtin,
	    "built-in or not");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		tap_ok(met_add(ms, bad[i].b_text, err, sizeof(err)) != 0,
		    "-M '%s' refused", shown(bad[i].b_text));
		tap_str(err, bad[i].b_msg, shown(bad[i].b_text));
	}
	met_destroy(ms);
}

/* Texts of plan for -M mets over the -c texts (NULL-ended), joined. */
static const char *
plan(cpc_t *cpc, const char *mets, const char *const *texts)
{
	static char joined[1024];
	struct metrics *ms = met_create();
	const char *const *out;
	char err[512] = "";
	int n = 0, nout, i;

	while (texts[n] != NULL)
		n++;
	if (met_add(ms, mets, err, sizeof(err)) != 0 ||
	    met_plan(ms, cpc, texts, n, &out, &nout, err, sizeof(err)) != 0) {
		snprintf(joined, sizeof(joined), "error: %s", err);
		met_destroy(ms);
		return joined;
	}
	joined[0] = '\0';
	for (i = 0; i < nout; i++)
		snprintf(joined + strlen(joined), sizeof(joined) -
		    strlen(joined), "%s[%s]", i ? " " : "", out[i]);
	met_destroy(ms);
	return joined;
}

static void
test_plan(cpc_t *cpc)
{
	static const char *const none[] = { NULL };
	static const char *const one[] = { "page-faults", NULL };
	static const char *const two[] = { "page-faults",
	    "cpu-clock,context-switches", NULL };

	tap_str(plan(cpc, "x=\"page-faults\"*2", none), "[page-faults]",
	    "no -c: the metric's events are the set");
	tap_str(plan(cpc, "x=1", none), "", "no -c, no events: no set");
	tap_str(plan(cpc, "x=\"context-switches\"/\"page-faults\"", one),
	    "[page-faults,context-switches]", "the missing event added");
	tap_str(plan(cpc, "x=\"context-switches\"/\"cpu-clock\"", two),
	    "[page-faults] [cpu-clock,context-switches]",
	    "a set has them all: nothing added");
	tap_str(plan(cpc, "x=\"context-switches\"/\"page-faults\","
	    "rate:\"context-switches\"", two),
	    "[page-faults,context-switches] "
	    "[cpu-clock,context-switches,page-faults]",
	    "added to every set lacking them, once");
}

/* The CSV the writer prints for rows at times ns (ms) of cpu 0. */
static void
test_rows(cpc_t *cpc)
{
	struct metrics *ms = met_create();
	struct spec sp;
	struct fmt *f;
	struct fmt_row r = { .fr_kind = "tick", .fr_set = 0 };
	uint64_t v = 10;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!tap_ok(fp != NULL && ms != NULL &&
	    spec_parse_cpc(cpc, "page-faults", &sp, err, sizeof(err)) == 0 &&
	    met_add(ms, "rate:page-faults,s=secs,z=1/0", err,
	    sizeof(err)) == 0, "a set and metrics (%s)", err))
		return;
	f = fmt_create(FMT_CSV, FMT_CPUSTAT, fp, NULL, &sp, 1, 0, NULL);
	tap_ok(f != NULL && met_attach(ms, f, &sp, 1) == 0, "attached");
	fmt_header(f);
	r.fr_vals = &v;
	r.fr_nvals = 1;
	r.fr_ns = 500000000;
	fmt_row(f, &r);
	r.fr_ns = 2500000000;	/* 2 s after the last */
	fmt_row(f, &r);
	r.fr_cpu = 1;		/* another CPU: from the start */
	fmt_row(f, &r);
	r.fr_kind = "total";
	r.fr_cpu = 2;
	r.fr_ns = 4000000000;
	fmt_row(f, &r);
	fmt_destroy(f);
	fclose(fp);
	tap_str(buf, "time,cpu,kind,set,page-faults,metric:rate:page-faults,"
	    "metric:s,metric:z,enabled_ns,running_ns,scaled\n"
	    "0.500,0,tick,page-faults,10,20,0.5,,0,0,0\n"
	    "2.500,0,tick,page-faults,10,5,2,,0,0,0\n"
	    "2.500,1,tick,page-faults,10,4,2.5,,0,0,0\n"
	    "4.000,2,total,page-faults,10,2.5,4,,0,0,0\n",
	    "the rows' metrics and lengths");
	free(buf);
	spec_free(&sp);
	met_destroy(ms);
}

int
main(void)
{
	cpc_t *cpc = cpc_open(CPC_VER_CURRENT);

	test_values();
	test_errors();
	test_names();
	test_list();
	if (cpc == NULL) {
		tap_skip("cpc_open failed", "met_plan");
		tap_skip("cpc_open failed", "the rows");
	} else {
		test_plan(cpc);
		test_rows(cpc);
		cpc_close(cpc);
	}
	return tap_done();
}
