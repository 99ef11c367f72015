/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.c - --format=json: one JSON object a line (share/
 * output.schema.json): the tool, kind, time, where, then the set's
 * counts by column name (columns.h) and the samples of -S.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cells.h"
#include "timefmt.h"
#include "writer.h"

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

/* -M's "metrics":{"name":value or null}. */
static void
json_mets(struct fmt *f, const struct fmt_row *r)
{
	int i;

	if (r->fr_mets == NULL || cols_nmet(f->f_cols) == 0)
		return;
	fputs(",\"metrics\":{", f->f_fp);
	for (i = 0; i < cols_nmet(f->f_cols); i++) {
		if (i > 0)
			fputc(',', f->f_fp);
		json_str(f->f_fp, cols_metname(f->f_cols, i));
		if (isnan(r->fr_mets[i]))
			fputs(":null", f->f_fp);
		else
			fprintf(f->f_fp, ":%.15g", r->fr_mets[i]);
	}
	fputc('}', f->f_fp);
}

/*
 * The set and its counts, then the samples with -S.  A set of no
 * counting request (-S alone) has neither a name nor counts.
 */
static void
json_values(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	const struct spec *sp = cols_spec(f->f_cols, r->fr_set);
	int i, nsmpl = cols_nsmpl(f->f_cols);

	if (sp->sp_nreqs > 0) {
		fputs(",\"set\":", fp);
		json_str(fp, sp->sp_text);
	}
	fprintf(fp, ",\"set_index\":%d", r->fr_set);
	if (f->f_flags & FMT_TICK)
		fprintf(fp, ",\"%s\":%" PRIu64, out_tickname(), r->fr_tick);
	if (sp->sp_nreqs > 0) {
		fputs(",\"counts\":{", fp);
		for (i = 0; i < sp->sp_nreqs; i++)
			json_member(fp, i == 0, cols_name(f->f_cols,
			    cols_of(f->f_cols, r->fr_set, i)), r->fr_vals[i]);
		fputc('}', fp);
	}
	if (nsmpl > 0 && r->fr_smpl != NULL) {
		fputs(",\"samples\":{", fp);
		for (i = 0; i < nsmpl; i++)
			json_member(fp, i == 0, cols_smplname(f->f_cols, i),
			    r->fr_smpl[i]);
		fputc('}', fp);
	}
	json_mets(f, r);
	fprintf(fp, ",\"enabled_ns\":%" PRIu64 ",\"running_ns\":%" PRIu64
	    ",\"scaled\":%s", r->fr_ena, r->fr_run,
	    r->fr_scaled ? "true" : "false");
	if (r->fr_scaled & 2)
		fputs(",\"not_counted\":true", fp);
}

/* The time and -T's stamp. */
static void
json_time(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	double wall = (double)r->fr_wallns / 1e9;
	char buf[128];

	fprintf(fp, ",\"time\":%.3f", (double)r->fr_ns / 1e9);
	if (f->f_flags & FMT_EPOCH)
		fprintf(fp, ",\"epoch\":%lld", (long long)wall);
	if (f->f_flags & FMT_DATE) {
		tf_date(buf, sizeof(buf), (time_t)wall);
		fputs(",\"date\":", fp);
		json_str(fp, buf);
	}
}

/* A row of values and a note alike (a note has no "set"). */
static void
json_row(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;

	fprintf(fp, "{\"tool\":\"%s\",\"kind\":", f->f_tool == FMT_CPUSTAT ?
	    "cpustat" : "cputrack");
	json_str(fp, r->fr_kind);
	json_time(f, r);
	if (f->f_tool == FMT_CPUSTAT && strcmp(r->fr_kind, "total") == 0)
		fprintf(fp, ",\"cpus\":%d", r->fr_ncpu);
	else if (f->f_tool == FMT_CPUSTAT)
		fprintf(fp, ",\"cpu\":%d", r->fr_cpu);
	else if (r->fr_tree)
		fprintf(fp, ",\"pid\":%ld,\"tree\":true,\"processes\":%ld",
		    r->fr_pid, r->fr_lwp);
	else
		fprintf(fp, ",\"pid\":%ld,\"lwp\":%ld", r->fr_pid, r->fr_lwp);
	if (r->fr_cgroup != NULL) {
		fputs(",\"cgroup\":", fp);
		json_str(fp, r->fr_cgroup);
	}
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

const struct fmt_writer fmt_json = {
	.fw_name = "json",
	.fw_row = json_row,
	.fw_note = json_row,
};
