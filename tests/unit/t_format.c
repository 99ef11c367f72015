/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_format.c - the writers' rows (common/out/): the event columns of
 * several sets, text lines and notes, CSV quoting, JSON escaping, rows of
 * another set's columns left empty, the samples of -S requests
 * (fmt_add_samples), captured with open_memstream.  Table-driven; no counter is opened.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "strtoset.h"
#include "tap.h"

struct cols {
	const char	*c_specs[3];	/* the -c sets, NULL-terminated */
	unsigned	 c_flags;
	int		 c_track;
	const char	*c_header;	/* the CSV header row */
};

static const struct cols colrows[] = {
	{ { "cpu-clock", NULL }, 0, 0,
	  "time,cpu,kind,set,cpu-clock,enabled_ns,running_ns,scaled\n" },
	/* the same name in two sets shares a column */
	{ { "cpu-clock,cs", "cs,page-faults", NULL }, 0, 0,
	  "time,cpu,kind,set,cpu-clock,cs,page-faults,enabled_ns,"
	  "running_ns,scaled\n" },
	/* twice in one set: #2; the second set reuses both */
	{ { "pic0=cs,pic1=cs,sys1", "cs,cs", NULL }, FMT_EPOCH, 0,
	  "time,cpu,kind,set,epoch,cs,cs#2,enabled_ns,running_ns,scaled\n" },
	{ { "a,b", "b,c", "c,a" }, FMT_DATE, 0,
	  "time,cpu,kind,set,date,a,b,c,enabled_ns,running_ns,scaled\n" },
	{ { "syscalls:sys_enter_getpid", NULL }, 0, 1,
	  "time,pid,lwp,kind,set,syscalls:sys_enter_getpid,enabled_ns,"
	  "running_ns,scaled,note\n" },
};

struct rowcase {
	const char	*r_name;
	enum fmt_kind	 r_kind;
	int		 r_track;
	struct fmt_row	 r_row;
	const char	*r_want;
};

static const uint64_t vals[] = { 7, 18446744073709551615ULL };

/* Rows of the sets "x,y" and "y,z". */
static const struct rowcase rowrows[] = {
	{ "csv: the second set fills its columns, the quoted set",
	  FMT_CSV, 0, { .fr_ns = 1500000000, .fr_kind = "tick", .fr_cpu = 3,
	  .fr_set = 1, .fr_vals = vals, .fr_ena = 10, .fr_run = 5,
	  .fr_scaled = 1 },
	  "1.500,3,tick,\"y,z\",,7,18446744073709551615,10,5,1\n" },
	{ "csv: a fork row of cputrack: empty set and values, the child",
	  FMT_CSV, 1, { .fr_ns = 250000000, .fr_kind = "fork", .fr_pid = 40,
	  .fr_lwp = 41, .fr_set = -1, .fr_child = 42 },
	  "0.250,40,41,fork,,,,,,,,42\n" },
	{ "csv: an exec's command with a quote and a comma, quoted",
	  FMT_CSV, 1, { .fr_kind = "exec", .fr_pid = 40, .fr_lwp = 40,
	  .fr_set = -1, .fr_command = "sh -c \"a,b\"" },
	  "0.000,40,40,exec,,,,,,,,\"sh -c \"\"a,b\"\"\"\n" },
	{ "json: a cpustat total, numbers as numbers",
	  FMT_JSON, 0, { .fr_ns = 2000000000, .fr_kind = "total", .fr_cpu = 2,
	  .fr_ncpu = 2, .fr_set = 0, .fr_vals = vals, .fr_ena = 9,
	  .fr_run = 9 },
	  "{\"tool\":\"cpustat\",\"kind\":\"total\",\"time\":2.000,"
	  "\"cpus\":2,\"set\":\"x,y\",\"set_index\":0,\"counts\":{\"x\":7,"
	  "\"y\":18446744073709551615},\"enabled_ns\":9,\"running_ns\":9,"
	  "\"scaled\":false}\n" },
	{ "json: control bytes, quotes and backslashes escaped",
	  FMT_JSON, 1, { .fr_kind = "exec", .fr_pid = 5, .fr_lwp = 6,
	  .fr_set = -1, .fr_command = "a\"b\\c\nd\te\001" },
	  "{\"tool\":\"cputrack\",\"kind\":\"exec\",\"time\":0.000,"
	  "\"pid\":5,\"lwp\":6,\"command\":\"a\\\"b\\\\c\\nd\\te\\u0001\"}\n" },
	{ "text: cpustat's tick line, the set named, scaled",
	  FMT_TEXT, 0, { .fr_ns = 1500000000, .fr_kind = "tick", .fr_cpu = 3,
	  .fr_set = 1, .fr_vals = vals, .fr_nvals = 2, .fr_scaled = 1 },
	  "  1.500   3  tick         7 18446744073709551615  # y,z "
	  "(scaled)\n" },
	{ "text: cputrack's fork note, blank values and the child",
	  FMT_TEXT, 1, { .fr_ns = 250000000, .fr_kind = "fork", .fr_pid = 40,
	  .fr_lwp = 41, .fr_set = -1, .fr_child = 42 },
	  "  0.250      41       fork                     # 42\n" },
	{ "text: an exec's command made one line",
	  FMT_TEXT, 1, { .fr_kind = "exec", .fr_pid = 40, .fr_lwp = 40,
	  .fr_set = -1, .fr_command = "a\nb\\" },
	  "  0.000      40       exec                     # 'a\\nb\\\\'\n" },
	{ "text: an exec of no known command",
	  FMT_TEXT, 1, { .fr_kind = "exec", .fr_pid = 40, .fr_lwp = 40,
	  .fr_set = -1, .fr_command = "" },
	  "  0.000      40       exec                     # '(unknown)'\n" },
	{ "text: a -f tree's total, its processes in the lwp column",
	  FMT_TEXT, 1, { .fr_kind = "total", .fr_pid = 40, .fr_lwp = 3,
	  .fr_set = 0, .fr_vals = vals, .fr_nvals = 2, .fr_tree = 1 },
	  "  0.000       3      total         7 18446744073709551615  "
	  "# tree x,y\n" },
	{ "json: never counted",
	  FMT_JSON, 1, { .fr_kind = "tick", .fr_pid = 5, .fr_lwp = 5,
	  .fr_set = 1, .fr_vals = vals, .fr_ena = 4, .fr_scaled = 3 },
	  "{\"tool\":\"cputrack\",\"kind\":\"tick\",\"time\":0.000,"
	  "\"pid\":5,\"lwp\":5,\"set\":\"y,z\",\"set_index\":1,\"counts\":"
	  "{\"y\":7,\"z\":18446744073709551615},\"enabled_ns\":4,"
	  "\"running_ns\":0,\"scaled\":true,\"not_counted\":true}\n" },
};

/*
 * -S "s,t,s" beside the sets "x,y" and -S alone's set of no request:
 * the values 3 and 4 counted, the samples 10, 20 and 30.
 */
static const uint64_t svals[] = { 3, 4, 10, 20, 30 };

static const struct rowcase smplrows[] = {
	{ "csv: counts, then the samples of each -S request",
	  FMT_CSV, 0, { .fr_ns = 1000000000, .fr_kind = "tick", .fr_set = 0,
	  .fr_vals = svals, .fr_smpl = svals + 2, .fr_ena = 5, .fr_run = 5 },
	  "1.000,0,tick,\"x,y\",3,4,10,20,30,5,5,0\n" },
	{ "csv: -S alone, an empty set and no counts",
	  FMT_CSV, 0, { .fr_ns = 1000000000, .fr_kind = "tick", .fr_cpu = 1,
	  .fr_set = 1, .fr_smpl = svals + 2 },
	  "1.000,1,tick,,,,10,20,30,0,0,0\n" },
	{ "csv: a fork row leaves the sample columns empty",
	  FMT_CSV, 1, { .fr_kind = "fork", .fr_pid = 4, .fr_lwp = 4,
	  .fr_set = -1, .fr_child = 9 },
	  "0.000,4,4,fork,,,,,,,,,,9\n" },
	{ "json: counts and samples, the repeated name #2",
	  FMT_JSON, 0, { .fr_ns = 1000000000, .fr_kind = "tick", .fr_set = 0,
	  .fr_vals = svals, .fr_smpl = svals + 2, .fr_ena = 5, .fr_run = 5 },
	  "{\"tool\":\"cpustat\",\"kind\":\"tick\",\"time\":1.000,"
	  "\"cpu\":0,\"set\":\"x,y\",\"set_index\":0,\"counts\":{\"x\":3,"
	  "\"y\":4},\"samples\":{\"s\":10,\"t\":20,\"s#2\":30},"
	  "\"enabled_ns\":5,\"running_ns\":5,\"scaled\":false}\n" },
	{ "json: -S alone, samples without set or counts",
	  FMT_JSON, 1, { .fr_kind = "exit", .fr_pid = 4, .fr_lwp = 4,
	  .fr_set = 1, .fr_smpl = svals + 2 },
	  "{\"tool\":\"cputrack\",\"kind\":\"exit\",\"time\":0.000,"
	  "\"pid\":4,\"lwp\":4,\"set_index\":1,\"samples\":{\"s\":10,"
	  "\"t\":20,\"s#2\":30},\"enabled_ns\":0,\"running_ns\":0,"
	  "\"scaled\":false}\n" },
	{ "json: a row without its samples has no samples key",
	  FMT_JSON, 0, { .fr_ns = 1000000000, .fr_kind = "tick", .fr_set = 0,
	  .fr_vals = svals, .fr_ena = 5, .fr_run = 5 },
	  "{\"tool\":\"cpustat\",\"kind\":\"tick\",\"time\":1.000,"
	  "\"cpu\":0,\"set\":\"x,y\",\"set_index\":0,\"counts\":{\"x\":3,"
	  "\"y\":4},\"enabled_ns\":5,\"running_ns\":5,"
	  "\"scaled\":false}\n" },
};

static int
parse_all(const char *const *texts, struct spec *sp, int *n)
{
	char err[256];

	for (*n = 0; *n < 3 && texts[*n] != NULL; (*n)++)
		if (spec_parse(texts[*n], 64, NULL, &sp[*n], err,
		    sizeof(err)) != 0) {
			tap_ok(0, "parse '%s': %s", texts[*n], err);
			return -1;
		}
	return 0;
}

static void
free_all(struct spec *sp, int n)
{
	while (n-- > 0)
		spec_free(&sp[n]);
}

static void
test_columns(void)
{
	struct spec sp[3];
	struct fmt *f;
	char *buf;
	size_t len, i;
	FILE *fp;
	int n;

	for (i = 0; i < sizeof(colrows) / sizeof(*colrows); i++) {
		const struct cols *t = &colrows[i];

		if (parse_all(t->c_specs, sp, &n) != 0)
			continue;
		fp = open_memstream(&buf, &len);
		f = fmt_create(FMT_CSV, t->c_track ? FMT_CPUTRACK :
		    FMT_CPUSTAT, fp, NULL, sp, n, t->c_flags, NULL);
		if (!tap_ok(f != NULL, "fmt_create (%s)", t->c_specs[0]))
			continue;
		fmt_header(f);
		fclose(fp);
		tap_str(buf, t->c_header, t->c_specs[0]);
		free(buf);
		fmt_destroy(f);
		free_all(sp, n);
	}
}


/* f's row r, printed to fp (buf once closed): the case's line; f freed. */
static void
row_is(struct fmt *f, FILE *fp, char *const *buf, struct fmt_row *r,
    const struct rowcase *t)
{
	if (!tap_ok(f != NULL, "fmt_create (%s)", t->r_name)) {
		fclose(fp);
		free(*buf);
		return;
	}
	fmt_row(f, r);
	fclose(fp);
	tap_str(*buf, t->r_want, t->r_name);
	free(*buf);
	fmt_destroy(f);
}
static void
test_rows(void)
{
	static const char *const texts[] = { "x,y", "y,z", NULL };
	struct spec sp[3];
	struct fmt *f;
	char *buf;
	size_t len, i;
	FILE *fp;
	int n;

	if (parse_all(texts, sp, &n) != 0)
		return;
	for (i = 0; i < sizeof(rowrows) / sizeof(*rowrows); i++) {
		const struct rowcase *t = &rowrows[i];
		struct fmt_row r = t->r_row;

		fp = open_memstream(&buf, &len);
		f = fmt_create(t->r_kind, t->r_track ? FMT_CPUTRACK :
		    FMT_CPUSTAT, fp, NULL, sp, n, 0, NULL);
		row_is(f, fp, &buf, &r, t);
	}
	free_all(sp, n);
}

/* A writer of the sets sp (n) and -S smpl, into *buf; NULL on failure. */
static struct fmt *
smpl_fmt(enum fmt_kind kind, int track, const struct spec *sp, int n,
    const struct spec *smpl, FILE **fp, char **buf, size_t *len)
{
	struct fmt *f;

	*fp = open_memstream(buf, len);
	f = fmt_create(kind, track ? FMT_CPUTRACK : FMT_CPUSTAT, *fp, NULL,
	    sp, n, 0, NULL);
	if (f != NULL && fmt_add_samples(f, smpl) != 0) {
		fmt_destroy(f);
		f = NULL;
	}
	if (f == NULL) {
		fclose(*fp);
		free(*buf);
	}
	return f;
}

static void
test_samples(void)
{
	static const char *const texts[] = { "x,y", NULL };
	static const char *const stexts[] = { "s,t,s", NULL };
	struct spec sp[3], smpl[3];
	struct fmt *f;
	char *buf;
	size_t len, i;
	FILE *fp;
	int n, ns;

	if (parse_all(texts, sp, &n) != 0 || parse_all(stexts, smpl, &ns))
		return;
	memset(&sp[1], 0, sizeof(sp[1]));	/* smpl_empty_spec's */
	sp[1].sp_text = "";
	f = smpl_fmt(FMT_CSV, 1, sp, 2, smpl, &fp, &buf, &len);
	if (tap_ok(f != NULL, "fmt_add_samples")) {
		fmt_header(f);
		fclose(fp);
		tap_str(buf, "time,pid,lwp,kind,set,x,y,samples:s,samples:t,"
		    "samples:s#2,enabled_ns,running_ns,scaled,note\n",
		    "csv: a column per -S request, after the events'");
		free(buf);
		fmt_destroy(f);
	}
	for (i = 0; i < sizeof(smplrows) / sizeof(*smplrows); i++) {
		const struct rowcase *t = &smplrows[i];
		struct fmt_row r = t->r_row;

		f = smpl_fmt(t->r_kind, t->r_track, sp, 2, smpl, &fp, &buf,
		    &len);
		row_is(f, fp, &buf, &r, t);
	}
	free_all(sp, 1);
	free_all(smpl, ns);
}

static void
test_parse(void)
{
	enum fmt_kind k = FMT_TEXT;

	tap_ok(fmt_parse("openmetrics", &k) && k == FMT_OPENMETRICS,
	    "fmt_parse openmetrics");
	tap_ok(fmt_parse("csv", &k) && k == FMT_CSV, "fmt_parse csv");
	tap_ok(!fmt_parse("CSV", &k) && !fmt_parse("", &k) &&
	    !fmt_parse("jsonx", &k), "fmt_parse refuses CSV, '' and jsonx");
}

int
main(void)
{
	test_columns();
	test_rows();
	test_samples();
	test_parse();
	return tap_done();
}
