/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text.c - the text format, as the illumos tools print it: a title
 * line, then fixed columns (cells.h) of time, where (cpustat: the CPU,
 * and with -G the cgroup, as wide as the longest; cputrack: [pid] lwp),
 * kind, the tick with -t, the values, and a
 * " # note" naming the set when there are several.  A fork or exec note
 * leaves the values blank.  cpustat's -T prints a stamp line before
 * each interval's rows.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "timefmt.h"
#include "writer.h"

/*
 * libpctx's exec command lines are at most 80 bytes, each escaped to
 * at most 4 ("\ooo").
 */
#define CMD_ESCAPED	(4 * 80 + 1)

struct text {
	int	tx_stamped;	/* this batch's -T line is out */
};

static int
text_open(struct fmt *f, const char *path, const char *comm)
{
	return (f->f_state = calloc(1, sizeof(struct text))) == NULL ? -1 : 0;
}

static void
text_close(struct fmt *f)
{
	free(f->f_state);
}

static void
text_header(struct fmt *f)
{
	FILE *fp = f->f_fp;
	char cell[16];
	int i;

	if (f->f_tool == FMT_CPUSTAT) {
		fprintf(fp, "%7s %3s ", "time", "cpu");
		if (f->f_cgwidth > 0)
			fprintf(fp, "%-*s ", f->f_cgwidth, "cgroup");
		fprintf(fp, "%5s ", "event");
	} else {
		fprintf(fp, "%7s ", "time");
		if (f->f_flags & FMT_PIDCOL)
			fprintf(fp, "%7s ", "pid");
		fprintf(fp, "%7s %10s ", "lwp", "event");
	}
	if (f->f_flags & FMT_TICK)
		fprintf(fp, "%9s ", out_tickname());
	out_pic_cells(fp, cols_spec(f->f_cols, 0));
	for (i = 0; i < cols_nsmpl(f->f_cols); i++) {
		snprintf(cell, sizeof(cell), "smpl%d", i);
		fprintf(fp, "%9s ", cell);
	}
	for (i = 0; i < cols_nmet(f->f_cols); i++)
		fprintf(fp, "%*s ", out_met_width(cols_metname(f->f_cols, i)),
		    cols_metname(f->f_cols, i));
	fputc('\n', fp);
}

static const char *escape(const char *s, char *buf, size_t len);

/*
 * "%7.3f %3d %5s " (cpustat) or "%7.3f [%7ld ]%7ld %10s " (cputrack)
 * without printf (out_time, out_u64): the cost of an interval's line.
 */
static void
line_head(struct fmt *f, const struct fmt_row *r)
{
	char esc[1025];		/* a cgroup's path, escaped (cut) */
	FILE *fp = f->f_fp;
	int cpustat = f->f_tool == FMT_CPUSTAT;
	size_t n = strlen(r->fr_kind);

	out_time(fp, r->fr_ns, 0);
	fputc(' ', fp);
	if (cpustat) {
		out_u64(fp, (uint64_t)r->fr_cpu, 3);
		if (r->fr_cgroup != NULL)
			fprintf(fp, " %-*s", f->f_cgwidth,
			    escape(r->fr_cgroup, esc, sizeof(esc)));
	} else {
		if (f->f_flags & FMT_PIDCOL) {
			out_u64(fp, (uint64_t)r->fr_pid, 7);
			fputc(' ', fp);
		}
		out_u64(fp, (uint64_t)r->fr_lwp, 7);
	}
	fputc(' ', fp);
	for (; n < (cpustat ? 5 : 10); n++)
		fputc(' ', fp);
	fputs(r->fr_kind, fp);
	fputc(' ', fp);
}

/* The set's text when sets need naming, else NULL. */
static const char *
set_name(const struct fmt *f, int set)
{
	return cols_nsets(f->f_cols) > 1 || (f->f_flags & FMT_NAMESET) ?
	    cols_spec(f->f_cols, set)->sp_text : NULL;
}

static void
text_row(struct fmt *f, const struct fmt_row *r)
{
	struct text *tx = f->f_state;
	const char *note = set_name(f, r->fr_set);
	char tree[600];
	int i;

	/* One -T line per interval; the totals have none. */
	if ((f->f_flags & (FMT_EPOCH | FMT_DATE)) && !tx->tx_stamped &&
	    strcmp(r->fr_kind, "total") != 0) {
		tf_print(f->f_fp, (f->f_flags & FMT_EPOCH) ? 'u' : 'd',
		    (time_t)(r->fr_wallns / 1000000000));
		tx->tx_stamped = 1;
	}
	if (r->fr_tree) {
		snprintf(tree, sizeof(tree), "tree%s%s", note ? " " : "",
		    note ? note : "");
		note = tree;
	}
	line_head(f, r);
	out_row_cells(f->f_fp, (f->f_flags & FMT_TICK) != 0, r->fr_tick,
	    r->fr_vals, r->fr_nvals);
	for (i = 0; r->fr_mets != NULL && i < cols_nmet(f->f_cols); i++)
		out_met(f->f_fp, r->fr_mets[i],
		    out_met_width(cols_metname(f->f_cols, i)));
	out_row_end(f->f_fp, r->fr_scaled, note);
}

/*
 * s with its control characters escaped, so that a newline in an
 * argument cannot break the one-line-per-record output: \n, \t, \\ for
 * a backslash, \ooo for the other bytes below 0x20 and 0x7f.  Bytes from
 * 0x80 up pass unchanged (UTF-8).  Cut to fit buf.
 */
static const char *
escape(const char *s, char *buf, size_t len)
{
	char e[5];
	size_t n = 0, k;
	unsigned char c;

	for (; (c = (unsigned char)*s) != '\0'; s++) {
		if (c == '\\' || c == '\n' || c == '\t')
			snprintf(e, sizeof(e), "\\%c", c == '\n' ? 'n' :
			    c == '\t' ? 't' : '\\');
		else if (c < 0x20 || c == 0x7f)
			snprintf(e, sizeof(e), "\\%03o", c);
		else
			snprintf(e, sizeof(e), "%c", c);
		if (n + (k = strlen(e)) >= len)
			break;
		memcpy(buf + n, e, k);
		n += k;
	}
	buf[n] = '\0';
	return buf;
}

/* Blank values and " # " the child (fork) or 'command' (exec). */
static void
text_note(struct fmt *f, const struct fmt_row *r)
{
	FILE *fp = f->f_fp;
	char esc[CMD_ESCAPED];

	line_head(f, r);
	if (f->f_flags & FMT_TICK)
		fprintf(fp, "%9s ", "");
	fprintf(fp, "%9s %9s # ", "", "");
	if (r->fr_command == NULL)
		fprintf(fp, "%ld", r->fr_child);
	else if (*r->fr_command != '\0')
		fprintf(fp, "'%s'", escape(r->fr_command, esc, sizeof(esc)));
	else
		fputs("'(unknown)'", fp);
	fputc('\n', fp);
}

/* The next row begins an interval: it gets a -T line. */
static int
text_flush(struct fmt *f)
{
	struct text *tx = f->f_state;

	tx->tx_stamped = 0;
	return 0;
}

const struct fmt_writer fmt_text = {
	.fw_name = "text",
	.fw_open = text_open,
	.fw_close = text_close,
	.fw_header = text_header,
	.fw_row = text_row,
	.fw_note = text_note,
	.fw_flush = text_flush,
};
