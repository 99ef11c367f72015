/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cells.c - the text format's cells: counts, times and titles in fixed
 * columns, written without printf where a line is written per interval.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cells.h"

const char *
out_tickname(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return "tsc";
#else
	return "tick";
#endif
}

void
out_pic_cells(FILE *fp, const struct spec *sp)
{
	char cell[16];
	int i;

	for (i = 0; i < sp->sp_nreqs; i++) {
		snprintf(cell, sizeof(cell), "pic%d", sp->sp_reqs[i].sr_pic);
		fprintf(fp, "%9s ", cell);
	}
}

/*
 * printf's "%*" PRIu64 without printf, whose code is a large part of
 * what an interval's line costs a CPU woken from idle (and a sampling
 * record's CSV line).
 */
char *
out_u64_cell(char *end, uint64_t v, int width)
{
	char *p = end;

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (end - 1 - p < width)
		*--p = ' ';
	return p;
}

void
out_u64(FILE *fp, uint64_t v, int width)
{
	char buf[48];

	fputs(out_u64_cell(buf + sizeof(buf), v, width < 40 ? width : 40), fp);
}

void
out_row(FILE *fp, int tick, uint64_t tickval, const uint64_t *vals,
    int nvals, int scaled, const char *note)
{
	out_row_cells(fp, tick, tickval, vals, nvals);
	out_row_end(fp, scaled, note);
}

void
out_row_cells(FILE *fp, int tick, uint64_t tickval, const uint64_t *vals,
    int nvals)
{
	int i;

	if (tick) {
		out_u64(fp, tickval, 9);
		fputc(' ', fp);
	}
	for (i = 0; i < nvals; i++) {
		out_u64(fp, vals[i], 9);
		fputc(' ', fp);
	}
}

int
out_met_width(const char *name)
{
	int n = (int)strlen(name);

	return n > 9 ? n : 9;
}

void
out_met(FILE *fp, double v, int width)
{
	if (isnan(v))
		fprintf(fp, "%*s ", width, "-");
	else
		fprintf(fp, "%*.3f ", width, v);
}

void
out_row_end(FILE *fp, int scaled, const char *note)
{
	if (note != NULL) {
		fputs(" # ", fp);
		fputs(note, fp);
	}
	if (scaled)
		fprintf(fp, "%s%s", note != NULL ? " " : " # ", (scaled & 2) ?
		    "(not counted: no counter was free)" : "(scaled)");
	fputc('\n', fp);
}

void
out_values(FILE *fp, cpc_t *cpc, cpc_buf_t *buf, int nreqs, int tick,
    const char *note)
{
	uint64_t vals[SPEC_MAXPIC];
	int i;

	for (i = 0; i < nreqs && i < SPEC_MAXPIC; i++) {
		vals[i] = 0;
		(void)cpc_buf_get(cpc, buf, i, &vals[i]);
	}
	out_row(fp, tick, cpc_buf_tick(cpc, buf), vals, i,
	    cpc_buf_scaled(cpc, buf), note);
}

double
out_reltime(hrtime_t t, hrtime_t base)
{
	return (double)(t - base) / 1e9;
}

/*
 * "%7.3f" of out_reltime(t, base), mostly without printf.  The double
 * d / 1e9 is within half an ulp of the exact quotient: under 2^22 s that
 * is under 0.24 ns, so it rounds to the millisecond as the exact
 * quotient does, except on the exact half (d ending in 500000 ns), where
 * the binary value decides: printf decides that, and negative or larger
 * times.
 */
void
out_time(FILE *fp, hrtime_t t, hrtime_t base)
{
	int64_t d = t - base;
	uint64_t ms;
	char buf[64], *p;

	if (d < 0 || d >= ((int64_t)1 << 22) * 1000000000 ||
	    d % 1000000 == 500000) {
		fprintf(fp, "%7.3f", out_reltime(t, base));
		return;
	}
	ms = (uint64_t)d / 1000000 + ((uint64_t)d % 1000000 > 500000);
	p = out_u64_cell(buf + 40, ms / 1000, 0);	/* its NUL at buf[39] */
	buf[39] = '.';
	buf[40] = (char)('0' + ms / 100 % 10);
	buf[41] = (char)('0' + ms / 10 % 10);
	buf[42] = (char)('0' + ms % 10);
	buf[43] = '\0';
	while (buf + 43 - p < 7)
		*--p = ' ';
	fputs(p, fp);
}
