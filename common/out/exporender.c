/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exporender.c - the exposition written out (expo.h): the Prometheus
 * text format 0.0.4 (what node_exporter's textfile collector and
 * `promtool check metrics` read) or OpenMetrics 1.0, from one table of
 * families, so both carry the same families, samples and labels.
 *
 * The two differ in where the metadata goes: 0.0.4 puts HELP and TYPE
 * on the sample's name (cpustat_events_total), OpenMetrics on the
 * family's (cpustat_events), with a UNIT line, a _created sample beside
 * each counter's _total, an info type (0.0.4: a gauge of 1) and a final
 * "# EOF".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errh.h"
#include "expo.h"
#include "msgsafe.h"
#include "writer.h"

enum fam_kind {
	FAM_INFO,	/* the run: version, backend, events, sets */
	FAM_GAUGE,	/* a number of the run */
	FAM_COUNTER,	/* a column's quantity, per series */
};

/* Which columns a counter family shows, and which of their quantities. */
enum fam_cols { COLS_COUNTS, COLS_CLOCKS, COLS_SAMPLES, COLS_ALL };

struct family {
	const char	*fa_name;	/* after "cpustat_"; OpenMetrics' */
	enum fam_kind	 fa_kind;
	const char	*fa_unit;	/* OpenMetrics' UNIT, or NULL */
	const char	*fa_help;
	enum fam_cols	 fa_cols;	/* FAM_COUNTER: which columns */
	int		 fa_q;		/* FAM_COUNTER: EXPO_COUNT, ... */
	int		 fa_gauge;	/* FAM_GAUGE: which (gauge_value) */
};

enum { G_START, G_UPDATE, G_INTERVAL };

static const struct family families[] = {
	{ "", FAM_INFO, NULL, "The run: version, libcpc backend, the event "
	    "columns and the sets as given to -c (; between sets).",
	    0, 0, 0 },
	{ "start_time_seconds", FAM_GAUGE, "seconds", "When counting began, "
	    "in seconds since the epoch.", 0, 0, G_START },
	{ "last_update_timestamp_seconds", FAM_GAUGE, "seconds", "When these "
	    "values were last updated, in seconds since the epoch.",
	    0, 0, G_UPDATE },
	{ "interval_seconds", FAM_GAUGE, "seconds", "The seconds between "
	    "updates.", 0, 0, G_INTERVAL },
	{ "events", FAM_COUNTER, NULL, "Events counted since the series "
	    "began.", COLS_COUNTS, EXPO_COUNT, 0 },
	{ "clock_seconds", FAM_COUNTER, "seconds", "Time counted by the "
	    "clock events (task-clock, cpu-clock) since the series began, "
	    "in seconds.", COLS_CLOCKS, EXPO_COUNT, 0 },
	{ "samples", FAM_COUNTER, NULL, "Samples taken (-S) since the series "
	    "began.", COLS_SAMPLES, EXPO_COUNT, 0 },
	{ "enabled_seconds", FAM_COUNTER, "seconds", "Seconds the event's set "
	    "was enabled (bound to count).", COLS_ALL, EXPO_ENA, 0 },
	{ "running_seconds", FAM_COUNTER, "seconds", "Seconds the event "
	    "was counting: scale a count by "
	    "rate(events)/rate(running_seconds).", COLS_ALL, EXPO_RUN, 0 },
};

#define NFAMILIES	((int)(sizeof(families) / sizeof(families[0])))

/* The events the kernel counts in nanoseconds: shown in seconds. */
static int
is_clock(const char *name)
{
	static const char *const clocks[] = { "task-clock", "cpu-clock" };
	size_t i, n;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		n = strlen(clocks[i]);
		if (strncasecmp(name, clocks[i], n) == 0 &&
		    (name[n] == '\0' || name[n] == '#'))
			return 1;
	}
	return 0;
}

/* Whether family fa shows column c (events, then -S requests). */
static int
fam_has_col(const struct fmt *f, const struct family *fa, int c)
{
	int nev = cols_n(f->f_cols);

	switch (fa->fa_cols) {
	case COLS_COUNTS:
		return c < nev && !is_clock(cols_name(f->f_cols, c));
	case COLS_CLOCKS:
		return c < nev && is_clock(cols_name(f->f_cols, c));
	case COLS_SAMPLES:
		return c >= nev;
	case COLS_ALL:
		return c < nev;
	}
	return 0;
}

/*
 * A label value: valid UTF-8 always.  Backslash, double quote and
 * newline escaped as both formats say; a byte that begins no valid
 * UTF-8 sequence, and any other control character, becomes U+FFFD.
 */
static void
put_value(FILE *fp, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t n = strlen(v), len;

	while (n > 0) {
		len = cpc_utf8_len(s, n);
		if (*s == '\\' || *s == '"')
			fprintf(fp, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", fp);
		else if (len == 0 || *s < 0x20 || *s == 0x7f)
			fputs("\xef\xbf\xbd", fp);
		else
			fwrite(s, 1, len, fp);
		if (len == 0)
			len = 1;
		s += len;
		n -= len;
	}
}

static void
put_label(FILE *fp, const char *sep, const char *name, const char *v)
{
	fprintf(fp, "%s%s=\"", sep, name);
	put_value(fp, v);
	fputc('"', fp);
}

/* Nanoseconds as seconds, exactly (no rounding through a double). */
static void
put_seconds(FILE *fp, int64_t ns)
{
	if (ns < 0) {
		fputc('-', fp);
		ns = -ns;
	}
	fprintf(fp, "%" PRId64 ".%09" PRId64, ns / 1000000000,
	    ns % 1000000000);
}

static const char *
tool_name(const struct fmt *f)
{
	return f->f_tool == FMT_CPUTRACK ? "cputrack" : "cpustat";
}

/* The series shown: all but --by-command's processes or its commands. */
static int
shown(const struct fmt *f, const struct expo_ser *s)
{
	if (f->f_tool != FMT_CPUTRACK)
		return 1;
	return f->f_run.ri_bycommand ? s->es_key == -1 : s->es_key >= 0;
}

/*
 * Quantity q of column c of s: a command's adds its processes' that
 * have not left yet.
 */
static uint64_t
cell_value(const struct expo *e, const struct expo_ser *s, int c, int q,
    int *has)
{
	const struct expo_ser *p;
	uint64_t v = s->es_cells[c].ec_base[q] + s->es_cells[c].ec_run[q];
	int i;

	*has = s->es_cells[c].ec_has;
	for (i = 0; s->es_key == -1 && i < expo_nseries(e); i++) {
		p = expo_series(e, i);
		if (p->es_key < 0 || strcmp(p->es_comm, s->es_comm) != 0 ||
		    !p->es_cells[c].ec_has)
			continue;
		*has = 1;
		v += p->es_cells[c].ec_base[q] + p->es_cells[c].ec_run[q];
	}
	return v;
}

/* The name of fa's samples (sample 1) or of its family (0), in fl. */
static void
fam_name(char *buf, size_t len, const struct fmt *f,
    const struct family *fa, enum expo_flavour fl, int sample)
{
	const char *suffix = "";

	if (fa->fa_kind == FAM_COUNTER && (sample || fl == EXPO_PROM))
		suffix = "_total";
	else if (fa->fa_kind == FAM_INFO && (sample || fl == EXPO_PROM))
		suffix = "_info";
	snprintf(buf, len, "%s%s%s%s", tool_name(f),
	    fa->fa_name[0] != '\0' ? "_" : "", fa->fa_name, suffix);
}

/* HELP and TYPE (and OpenMetrics' UNIT) of fa. */
static void
put_meta(FILE *fp, const struct fmt *f, const struct family *fa,
    enum expo_flavour fl)
{
	const char *type = fa->fa_kind == FAM_COUNTER ? "counter" :
	    fa->fa_kind == FAM_INFO && fl == EXPO_OM ? "info" : "gauge";
	char name[128];

	fam_name(name, sizeof(name), f, fa, fl, 0);
	if (fl == EXPO_PROM) {
		fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", name, fa->fa_help,
		    name, type);
		return;
	}
	fprintf(fp, "# TYPE %s %s\n", name, type);
	if (fa->fa_unit != NULL)
		fprintf(fp, "# UNIT %s %s\n", name, fa->fa_unit);
	fprintf(fp, "# HELP %s %s\n", name, fa->fa_help);
}

/* s's labels, the event's last: {cpu} or {pid,command} or {command}. */
static void
put_labels(FILE *fp, const struct fmt *f, const struct expo_ser *s,
    const char *event)
{
	if (f->f_tool != FMT_CPUTRACK) {
		fprintf(fp, "{cpu=\"%ld\"", s->es_key);
	} else if (s->es_key >= 0) {
		fprintf(fp, "{pid=\"%ld\"", s->es_key);
		put_label(fp, ",", "command", s->es_comm);
	} else {
		put_label(fp, "{", "command", s->es_comm);
	}
	put_label(fp, ",", "event", event);
	fputc('}', fp);
}

static const char *
col_name(const struct fmt *f, int c)
{
	int nev = cols_n(f->f_cols);

	return c < nev ? cols_name(f->f_cols, c) :
	    cols_smplname(f->f_cols, c - nev);
}

/* One sample of counter family name: a count, or ns as seconds. */
static void
put_sample(FILE *fp, const char *name, const char *suffix,
    const struct fmt *f, const struct expo_ser *s, const char *event,
    int secs, uint64_t v)
{
	fprintf(fp, "%s%s", name, suffix);
	put_labels(fp, f, s, event);
	fputc(' ', fp);
	if (secs)
		put_seconds(fp, (int64_t)v);
	else
		fprintf(fp, "%" PRIu64, v);
	fputc('\n', fp);
}

/*
 * fa's samples (fp NULL: none, only their number): every shown series'
 * columns that have a value; OpenMetrics adds each one's _created.
 */
static int
put_counter(FILE *fp, const struct expo *e, const struct family *fa,
    enum expo_flavour fl)
{
	const struct fmt *f = expo_fmt(e);
	int i, c, has, n = 0, ncol = cols_n(f->f_cols) + cols_nsmpl(f->f_cols);
	const struct expo_ser *s;
	char name[128];
	uint64_t v;

	fam_name(name, sizeof(name), f, fa, fl, 0);
	for (i = 0; i < expo_nseries(e); i++) {
		if (!shown(f, s = expo_series(e, i)))
			continue;
		for (c = 0; c < ncol; c++) {
			if (!fam_has_col(f, fa, c))
				continue;
			v = cell_value(e, s, c, fa->fa_q, &has);
			if (!has)
				continue;
			n++;
			if (fp == NULL)
				continue;
			put_sample(fp, name, fl == EXPO_OM ? "_total" : "", f,
			    s, col_name(f, c), fa->fa_unit != NULL, v);
			if (fl == EXPO_OM)
				put_sample(fp, name, "_created", f, s,
				    col_name(f, c), 1, (uint64_t)s->es_created);
		}
	}
	return n;
}

/* The info sample: the run's version, backend, columns and sets. */
static void
put_info(FILE *fp, const struct fmt *f, const char *name)
{
	const char *be = f->f_run.ri_backend;
	int i;

	fprintf(fp, "%s", name);
	put_label(fp, "{", "version", PACKAGE_VERSION);
	put_label(fp, ",", "backend", be != NULL ? be : "");
	fputs(",events=\"", fp);
	for (i = 0; i < cols_n(f->f_cols) + cols_nsmpl(f->f_cols); i++) {
		if (i > 0)
			fputc(',', fp);
		put_value(fp, col_name(f, i));
	}
	fputs("\",sets=\"", fp);
	for (i = 0; i < cols_nsets(f->f_cols); i++) {
		if (i > 0)
			fputc(';', fp);
		put_value(fp, cols_spec(f->f_cols, i)->sp_text);
	}
	fputs("\"} 1\n", fp);
}

static void
put_gauge(FILE *fp, const struct expo *e, const struct family *fa,
    const char *name)
{
	int64_t v = 0;

	switch (fa->fa_gauge) {
	case G_START:
		v = expo_started(e);
		break;
	case G_UPDATE:
		v = expo_updated(e);
		break;
	case G_INTERVAL:
		v = (int64_t)(expo_fmt(e)->f_run.ri_interval * 1e9 + 0.5);
		break;
	}
	fprintf(fp, "%s ", name);
	put_seconds(fp, v);
	fputc('\n', fp);
}

int
expo_render(const struct expo *e, enum expo_flavour fl, FILE *fp)
{
	const struct fmt *f = expo_fmt(e);
	const struct family *fa;
	char name[128];
	int i;

	if (expo_failed(e)) {
		errh_set("out of memory");
		return -1;
	}
	for (i = 0; i < NFAMILIES; i++) {
		fa = &families[i];
		if (fa->fa_kind == FAM_COUNTER && put_counter(NULL, e, fa,
		    fl) == 0)
			continue;
		put_meta(fp, f, fa, fl);
		fam_name(name, sizeof(name), f, fa, fl, 1);
		if (fa->fa_kind == FAM_INFO)
			put_info(fp, f, name);
		else if (fa->fa_kind == FAM_GAUGE)
			put_gauge(fp, e, fa, name);
		else
			(void)put_counter(fp, e, fa, fl);
	}
	if (fl == EXPO_OM)
		fputs("# EOF\n", fp);
	return 0;
}

/* One flavour into a buffer of its own. */
static int
render_mem(const struct expo *e, enum expo_flavour fl, char **buf,
    size_t *len)
{
	FILE *fp;
	int rc;

	*buf = NULL;
	if ((fp = open_memstream(buf, len)) == NULL)
		return -1;
	rc = expo_render(e, fl, fp);
	if (fclose(fp) != 0 || rc != 0) {
		if (rc != 0)
			errno = ENOMEM;
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

int
expo_render_both(const struct expo *e, char **om, size_t *omlen,
    char **prom, size_t *promlen)
{
	if (render_mem(e, EXPO_OM, om, omlen) != 0)
		return -1;
	if (render_mem(e, EXPO_PROM, prom, promlen) != 0) {
		free(*om);
		*om = NULL;
		return -1;
	}
	return 0;
}
