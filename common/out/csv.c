/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * csv.c - --format=csv: a header row, then one row per line of the
 * tool, every event a column (columns.h); a row of one set leaves the
 * other sets' columns empty and names its set in the "set" column.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "timefmt.h"
#include "writer.h"

/* A row's values by column: where spread puts them. */
struct csv {
	uint64_t	*cv_line;
	int		*cv_has;
};

/* RFC 4180: a field with , " CR or LF is quoted, each " doubled. */
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

static int
csv_open(struct fmt *f, const char *path, const char *comm)
{
	struct csv *cv;
	int n = cols_n(f->f_cols) + 1;

	if ((cv = calloc(1, sizeof(*cv))) == NULL)
		return -1;
	f->f_state = cv;
	cv->cv_line = calloc(n, sizeof(*cv->cv_line));
	cv->cv_has = calloc(n, sizeof(*cv->cv_has));
	return cv->cv_line == NULL || cv->cv_has == NULL ? -1 : 0;
}

static void
csv_close(struct fmt *f)
{
	struct csv *cv = f->f_state;

	if (cv == NULL)
		return;
	free(cv->cv_line);
	free(cv->cv_has);
	free(cv);
}

static void
csv_header(struct fmt *f)
{
	char name[CPC_MAX_EVENT_LEN + 32];
	int c;

	if (f->f_tool == FMT_CPUSTAT && f->f_cgwidth > 0)
		fputs("time,cpu,cgroup,kind,set", f->f_fp);
	else if (f->f_tool == FMT_CPUSTAT)
		fputs("time,cpu,kind,set", f->f_fp);
	else
		fputs("time,pid,lwp,kind,set", f->f_fp);
	if (f->f_flags & FMT_EPOCH)
		fputs(",epoch", f->f_fp);
	if (f->f_flags & FMT_DATE)
		fputs(",date", f->f_fp);
	if (f->f_flags & FMT_TICK)
		fprintf(f->f_fp, ",%s", out_tickname());
	for (c = 0; c < cols_n(f->f_cols); c++) {
		fputc(',', f->f_fp);
		csv_str(f->f_fp, cols_name(f->f_cols, c));
	}
	for (c = 0; c < cols_nsmpl(f->f_cols); c++) {
		snprintf(name, sizeof(name), "samples:%s",
		    cols_smplname(f->f_cols, c));
		fputc(',', f->f_fp);
		csv_str(f->f_fp, name);
	}
	for (c = 0; c < cols_nmet(f->f_cols); c++) {
		snprintf(name, sizeof(name), "metric:%s",
		    cols_metname(f->f_cols, c));
		fputc(',', f->f_fp);
		csv_str(f->f_fp, name);
	}
	fputs(",enabled_ns,running_ns,scaled", f->f_fp);
	if (f->f_tool == FMT_CPUTRACK)
		fputs(",note", f->f_fp);
	fputc('\n', f->f_fp);
}

/* The row's values by column, in cv_line and cv_has. */
static void
spread(struct fmt *f, const struct fmt_row *r)
{
	struct csv *cv = f->f_state;
	int i, c;

	memset(cv->cv_has, 0, cols_n(f->f_cols) * sizeof(*cv->cv_has));
	if (r->fr_set < 0)
		return;
	for (i = 0; i < cols_spec(f->f_cols, r->fr_set)->sp_nreqs; i++) {
		c = cols_of(f->f_cols, r->fr_set, i);
		cv->cv_line[c] = r->fr_vals[i];
		cv->cv_has[c] = 1;
	}
}

/*
 * time, cpu (and -G's cgroup) or pid and lwp, kind, set, and -T's and
 * -t's columns.
 */
static void
csv_lead(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	double wall = (double)r->fr_wallns / 1e9;
	char buf[128];

	fprintf(fp, "%.3f,", (double)r->fr_ns / 1e9);
	if (f->f_tool == FMT_CPUSTAT)
		fprintf(fp, "%d,", r->fr_cpu);
	else
		fprintf(fp, "%ld,%ld,", r->fr_pid, r->fr_lwp);
	if (r->fr_cgroup != NULL) {
		csv_str(fp, r->fr_cgroup);
		fputc(',', fp);
	}
	fprintf(fp, "%s,", r->fr_kind);
	if (r->fr_set >= 0)
		csv_str(fp, cols_spec(f->f_cols, r->fr_set)->sp_text);
	if (f->f_flags & FMT_EPOCH)
		fprintf(fp, ",%lld", (long long)wall);
	if (f->f_flags & FMT_DATE) {
		tf_date(buf, sizeof(buf), (time_t)wall);
		fprintf(fp, ",%s", buf);
	}
	if ((f->f_flags & FMT_TICK) && r->fr_set >= 0)
		fprintf(fp, ",%" PRIu64, r->fr_tick);
	else if (f->f_flags & FMT_TICK)
		fputc(',', fp);
}

/* The note column: "tree", the exec's command, or the fork's child. */
static void
csv_note(FILE *fp, const struct fmt_row *r)
{
	fputc(',', fp);
	if (r->fr_tree)
		fputs("tree", fp);
	else if (r->fr_command != NULL)
		csv_str(fp, r->fr_command);
	else if (r->fr_child > 0)
		fprintf(fp, "%ld", r->fr_child);
}

/* A row of values and a note alike: a note's value columns are empty. */
static void
csv_row(struct fmt *f, const struct fmt_row *r)
{
	struct csv *cv = f->f_state;
	FILE *fp = f->f_fp;
	int c;

	csv_lead(f, r);
	spread(f, r);
	for (c = 0; c < cols_n(f->f_cols); c++)
		if (cv->cv_has[c])
			fprintf(fp, ",%" PRIu64, cv->cv_line[c]);
		else
			fputc(',', fp);
	for (c = 0; c < cols_nsmpl(f->f_cols); c++)
		if (r->fr_set >= 0 && r->fr_smpl != NULL)
			fprintf(fp, ",%" PRIu64, r->fr_smpl[c]);
		else
			fputc(',', fp);
	for (c = 0; c < cols_nmet(f->f_cols); c++)
		if (r->fr_mets != NULL && !isnan(r->fr_mets[c]))
			fprintf(fp, ",%.15g", r->fr_mets[c]);
		else
			fputc(',', fp);
	if (r->fr_set >= 0)
		fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",%d", r->fr_ena,
		    r->fr_run, r->fr_scaled != 0);
	else
		fputs(",,,", fp);
	if (f->f_tool == FMT_CPUTRACK)
		csv_note(fp, r);
	fputc('\n', fp);
}

const struct fmt_writer fmt_csv = {
	.fw_name = "csv",
	.fw_open = csv_open,
	.fw_close = csv_close,
	.fw_header = csv_header,
	.fw_row = csv_row,
	.fw_note = csv_row,
};
