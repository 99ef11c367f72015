/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.c - CSV and JSON lines, the event columns, and the dispatch to
 * openmetrics.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "format.h"
#include "openmetrics.h"
#include "output.h"

struct fmt {
	enum fmt_kind	 f_kind;
	enum fmt_tool	 f_tool;
	FILE		*f_fp;
	const struct spec *f_specs;
	int		 f_nspecs;
	unsigned	 f_flags;
	char		**f_cols;	/* the event columns' names */
	int		 f_ncols;
	int		**f_colof;	/* [set][request] -> column */
	uint64_t	*f_line;	/* a row's values by column */
	int		*f_has;		/* and which it has */
	char		**f_snames;	/* the -S requests' names */
	int		 f_nsmpl;
	struct om	*f_om;
};

int
fmt_parse(const char *arg, enum fmt_kind *kind)
{
	static const char *const names[] = {
		[FMT_TEXT] = "text", [FMT_CSV] = "csv", [FMT_JSON] = "json",
		[FMT_OPENMETRICS] = "openmetrics",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(arg, names[i]) == 0) {
			*kind = (enum fmt_kind)i;
			return 1;
		}
	return 0;
}

void
fmt_option(const char *arg, enum fmt_kind *kind)
{
	if (!fmt_parse(arg, kind))
		cli_usage_error("invalid --format '%s': use text, csv, json "
		    "or openmetrics", arg);
}

/* A column's name: ev, or "ev#N" for the Nth (N > 1) of ev in a set. */
static char *
col_name(const char *ev, int nth)
{
	char name[CPC_MAX_EVENT_LEN + 16];

	if (nth <= 1)
		snprintf(name, sizeof(name), "%s", ev);
	else
		snprintf(name, sizeof(name), "%s#%d", ev, nth);
	return strdup(name);
}

/*
 * Request req of set s takes the first column of its name that no
 * earlier request of s took; else a new one, "name" or "name#N" for the
 * Nth of that name in one set.
 */
static int
add_col(struct fmt *f, int s, int req)
{
	const char *ev = f->f_specs[s].sp_reqs[req].sr_event;
	char **nc;
	int c, r, taken, nth = 0;

	for (c = 0; c < f->f_ncols; c++) {
		if (strcmp(f->f_cols[c], ev) != 0 &&
		    (strncmp(f->f_cols[c], ev, strlen(ev)) != 0 ||
		    f->f_cols[c][strlen(ev)] != '#'))
			continue;
		nth++;
		for (r = 0, taken = 0; r < req; r++)
			taken |= f->f_colof[s][r] == c;
		if (!taken)
			return c;
	}
	if ((nc = realloc(f->f_cols, (f->f_ncols + 1) * sizeof(*nc))) == NULL)
		return -1;
	f->f_cols = nc;
	if ((nc[f->f_ncols] = col_name(ev, nth + 1)) == NULL)
		return -1;
	return f->f_ncols++;
}

static int
make_cols(struct fmt *f)
{
	int s, r;

	if ((f->f_colof = calloc(f->f_nspecs, sizeof(*f->f_colof))) == NULL)
		return -1;
	for (s = 0; s < f->f_nspecs; s++) {
		f->f_colof[s] = calloc(f->f_specs[s].sp_nreqs + 1, sizeof(int));
		if (f->f_colof[s] == NULL)
			return -1;
		for (r = 0; r < f->f_specs[s].sp_nreqs; r++)
			if ((f->f_colof[s][r] = add_col(f, s, r)) < 0)
				return -1;
	}
	f->f_line = calloc(f->f_ncols + 1, sizeof(*f->f_line));
	f->f_has = calloc(f->f_ncols + 1, sizeof(*f->f_has));
	return f->f_line == NULL || f->f_has == NULL ? -1 : 0;
}

struct fmt *
fmt_create(enum fmt_kind kind, enum fmt_tool tool, FILE *fp,
    const char *path, const struct spec *specs, int nspecs, unsigned flags,
    const char *comm)
{
	struct fmt *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	f->f_kind = kind;
	f->f_tool = tool;
	f->f_fp = fp;
	f->f_specs = specs;
	f->f_nspecs = nspecs;
	f->f_flags = flags;
	if (make_cols(f) != 0 || (kind == FMT_OPENMETRICS &&
	    (f->f_om = om_create(path, tool == FMT_CPUTRACK, comm)) == NULL)) {
		fmt_destroy(f);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}

int
fmt_add_samples(struct fmt *f, const struct spec *smpl)
{
	const struct spec_req *rq;
	int i, j, nth;

	if (smpl == NULL || smpl->sp_nreqs == 0)
		return 0;
	f->f_snames = calloc(smpl->sp_nreqs, sizeof(*f->f_snames));
	if (f->f_snames == NULL)
		return -1;
	rq = smpl->sp_reqs;
	for (i = 0; i < smpl->sp_nreqs; i++) {
		for (j = 0, nth = 1; j < i; j++)
			nth += strcmp(rq[j].sr_event, rq[i].sr_event) == 0;
		f->f_nsmpl = i + 1;
		if ((f->f_snames[i] = col_name(rq[i].sr_event, nth)) == NULL)
			return -1;
	}
	return 0;
}

void
fmt_destroy(struct fmt *f)
{
	int i;

	if (f == NULL)
		return;
	om_destroy(f->f_om);
	for (i = 0; i < f->f_ncols; i++)
		free(f->f_cols[i]);
	for (i = 0; i < f->f_nsmpl; i++)
		free(f->f_snames[i]);
	free(f->f_snames);
	for (i = 0; f->f_colof != NULL && i < f->f_nspecs; i++)
		free(f->f_colof[i]);
	free(f->f_colof);
	free(f->f_cols);
	free(f->f_line);
	free(f->f_has);
	free(f);
}

int
fmt_ncols(const struct fmt *f)
{
	return f->f_ncols;
}

const char *
fmt_colname(const struct fmt *f, int col)
{
	return f->f_cols[col];
}

int
fmt_col(const struct fmt *f, int set, int req)
{
	return f->f_colof[set][req];
}

int
fmt_nreqs(const struct fmt *f, int set)
{
	return f->f_specs[set].sp_nreqs;
}

int
fmt_nsmpl(const struct fmt *f)
{
	return f->f_nsmpl;
}

const char *
fmt_smplname(const struct fmt *f, int i)
{
	return f->f_snames[i];
}

/* ---- CSV (RFC 4180: a field with , " CR or LF is quoted) ---- */

static void
csv_str(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

void
fmt_header(struct fmt *f)
{
	char name[CPC_MAX_EVENT_LEN + 32];
	int c;

	if (f->f_kind != FMT_CSV)
		return;
	if (f->f_tool == FMT_CPUSTAT)
		fputs("time,cpu,kind,set", f->f_fp);
	else
		fputs("time,pid,lwp,kind,set", f->f_fp);
	if (f->f_flags & FMT_EPOCH)
		fputs(",epoch", f->f_fp);
	if (f->f_flags & FMT_DATE)
		fputs(",date", f->f_fp);
	if (f->f_flags & FMT_TICK)
		fprintf(f->f_fp, ",%s", out_tickname());
	for (c = 0; c < f->f_ncols; c++) {
		fputc(',', f->f_fp);
		csv_str(f->f_fp, f->f_cols[c]);
	}
	for (c = 0; c < f->f_nsmpl; c++) {
		snprintf(name, sizeof(name), "samples:%s", f->f_snames[c]);
		fputc(',', f->f_fp);
		csv_str(f->f_fp, name);
	}
	fputs(",enabled_ns,running_ns,scaled", f->f_fp);
	if (f->f_tool == FMT_CPUTRACK)
		fputs(",note", f->f_fp);
	fputc('\n', f->f_fp);
}

/* The row's values by column, in f_line and f_has. */
static void
spread(struct fmt *f, const struct fmt_row *r)
{
	int i;

	memset(f->f_has, 0, f->f_ncols * sizeof(*f->f_has));
	if (r->fr_set < 0)
		return;
	for (i = 0; i < f->f_specs[r->fr_set].sp_nreqs; i++) {
		f->f_line[f->f_colof[r->fr_set][i]] = r->fr_vals[i];
		f->f_has[f->f_colof[r->fr_set][i]] = 1;
	}
}

static void
date_str(double wall, char *buf, size_t len)
{
	time_t t = (time_t)wall;
	struct tm tm;

	localtime_r(&t, &tm);
	if (strftime(buf, len, "%a %b %e %H:%M:%S %Z %Y", &tm) == 0)
		buf[0] = '\0';
}

static void
csv_row(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	char buf[128];
	int c;

	fprintf(fp, "%.3f,", r->fr_time);
	if (f->f_tool == FMT_CPUSTAT)
		fprintf(fp, "%d,", r->fr_cpu);
	else
		fprintf(fp, "%ld,%ld,", r->fr_pid, r->fr_lwp);
	fprintf(fp, "%s,", r->fr_kind);
	if (r->fr_set >= 0)
		csv_str(fp, f->f_specs[r->fr_set].sp_text);
	if (f->f_flags & FMT_EPOCH)
		fprintf(fp, ",%lld", (long long)r->fr_wall);
	if (f->f_flags & FMT_DATE) {
		date_str(r->fr_wall, buf, sizeof(buf));
		fprintf(fp, ",%s", buf);
	}
	if ((f->f_flags & FMT_TICK) && r->fr_set >= 0)
		fprintf(fp, ",%" PRIu64, r->fr_tick);
	else if (f->f_flags & FMT_TICK)
		fputc(',', fp);
	spread(f, r);
	for (c = 0; c < f->f_ncols; c++)
		if (f->f_has[c])
			fprintf(fp, ",%" PRIu64, f->f_line[c]);
		else
			fputc(',', fp);
	for (c = 0; c < f->f_nsmpl; c++)
		if (r->fr_set >= 0 && r->fr_smpl != NULL)
			fprintf(fp, ",%" PRIu64, r->fr_smpl[c]);
		else
			fputc(',', fp);
	if (r->fr_set >= 0)
		fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",%d", r->fr_ena,
		    r->fr_run, r->fr_scaled != 0);
	else
		fputs(",,,", fp);
	if (f->f_tool == FMT_CPUTRACK) {
		fputc(',', fp);
		if (r->fr_tree)
			fputs("tree", fp);
		else if (r->fr_command != NULL)
			csv_str(fp, r->fr_command);
		else if (r->fr_child > 0)
			fprintf(fp, "%ld", r->fr_child);
	}
	fputc('\n', fp);
}

/* ---- JSON: one object a line ---- */

static void
json_str(FILE *fp, const char *s)
{
	unsigned char c;

	fputc('"', fp);
	for (; (c = (unsigned char)*s) != '\0'; s++) {
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

/* One "name":value of an object, after a comma unless the first. */
static void
json_member(FILE *fp, int first, const char *name, uint64_t val)
{
	if (!first)
		fputc(',', fp);
	json_str(fp, name);
	fprintf(fp, ":%" PRIu64, val);
}

/*
 * The set and its counts, then the samples with -S.  A set of no
 * counting request (-S alone) has neither a name nor counts.
 */
static void
json_values(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	const struct spec *sp = &f->f_specs[r->fr_set];
	int i;

	if (sp->sp_nreqs > 0) {
		fputs(",\"set\":", fp);
		json_str(fp, sp->sp_text);
	}
	fprintf(fp, ",\"set_index\":%d", r->fr_set);
	if (f->f_flags & FMT_TICK) {
		fprintf(fp, ",\"%s\":%" PRIu64, out_tickname(), r->fr_tick);
	}
	if (sp->sp_nreqs > 0) {
		fputs(",\"counts\":{", fp);
		for (i = 0; i < sp->sp_nreqs; i++)
			json_member(fp, i == 0,
			    f->f_cols[f->f_colof[r->fr_set][i]], r->fr_vals[i]);
		fputc('}', fp);
	}
	if (f->f_nsmpl > 0 && r->fr_smpl != NULL) {
		fputs(",\"samples\":{", fp);
		for (i = 0; i < f->f_nsmpl; i++)
			json_member(fp, i == 0, f->f_snames[i], r->fr_smpl[i]);
		fputc('}', fp);
	}
	fprintf(fp, ",\"enabled_ns\":%" PRIu64 ",\"running_ns\":%" PRIu64
	    ",\"scaled\":%s", r->fr_ena, r->fr_run,
	    r->fr_scaled ? "true" : "false");
	if (r->fr_scaled & 2)
		fputs(",\"not_counted\":true", fp);
}

static void
json_row(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	char buf[128];

	fprintf(fp, "{\"tool\":\"%s\",\"kind\":", f->f_tool == FMT_CPUSTAT ?
	    "cpustat" : "cputrack");
	json_str(fp, r->fr_kind);
	fprintf(fp, ",\"time\":%.3f", r->fr_time);
	if (f->f_flags & FMT_EPOCH)
		fprintf(fp, ",\"epoch\":%lld", (long long)r->fr_wall);
	if (f->f_flags & FMT_DATE) {
		date_str(r->fr_wall, buf, sizeof(buf));
		fputs(",\"date\":", fp);
		json_str(fp, buf);
	}
	if (f->f_tool == FMT_CPUSTAT && strcmp(r->fr_kind, "total") == 0)
		fprintf(fp, ",\"cpus\":%d", r->fr_ncpu);
	else if (f->f_tool == FMT_CPUSTAT)
		fprintf(fp, ",\"cpu\":%d", r->fr_cpu);
	else if (r->fr_tree)
		fprintf(fp, ",\"pid\":%ld,\"tree\":true,\"processes\":%ld",
		    r->fr_pid, r->fr_lwp);
	else
		fprintf(fp, ",\"pid\":%ld,\"lwp\":%ld", r->fr_pid, r->fr_lwp);
	if (r->fr_set >= 0)
		json_values(f, r);
	if (r->fr_child > 0)
		fprintf(fp, ",\"child\":%ld", r->fr_child);
	if (r->fr_command != NULL) {
		fputs(",\"command\":", fp);
		json_str(fp, r->fr_command);
	}
	fputs("}\n", fp);
}

void
fmt_row(struct fmt *f, const struct fmt_row *r)
{
	switch (f->f_kind) {
	case FMT_CSV:
		csv_row(f, r);
		break;
	case FMT_JSON:
		json_row(f, r);
		break;
	case FMT_OPENMETRICS:
		om_row(f->f_om, f, r);
		break;
	case FMT_TEXT:
		break;
	}
}

/*
 * The buffer holds the set's requests, then the -S requests (added after
 * them to every set): fr_smpl points at those, when they all fit.
 */
void
fmt_buf(struct fmt *f, struct fmt_row *r, cpc_t *cpc, cpc_buf_t *buf)
{
	uint64_t vals[SPEC_MAXPIC];
	int i, nreqs = f->f_specs[r->fr_set].sp_nreqs;

	for (i = 0; i < nreqs + f->f_nsmpl && i < SPEC_MAXPIC; i++) {
		vals[i] = 0;
		(void)cpc_buf_get(cpc, buf, i, &vals[i]);
	}
	r->fr_vals = vals;
	r->fr_smpl = f->f_nsmpl > 0 && i == nreqs + f->f_nsmpl ?
	    vals + nreqs : NULL;
	r->fr_tick = cpc_buf_tick(cpc, buf);
	r->fr_scaled = cpc_buf_scaled(cpc, buf);
	(void)cpc_buf_times(cpc, buf, &r->fr_ena, &r->fr_run);
	fmt_row(f, r);
	r->fr_vals = NULL;
	r->fr_smpl = NULL;
}

int
fmt_flush(struct fmt *f)
{
	return f->f_kind == FMT_OPENMETRICS ? om_write(f->f_om, f) : 0;
}
