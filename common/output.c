/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c - formatting of title cells and value columns.
 */
#include "config.h"

#include <inttypes.h>

#include "output.h"

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

void
out_row(FILE *fp, int tick, uint64_t tickval, const uint64_t *vals,
    int nvals, int scaled, const char *note)
{
	int i;

	if (tick)
		fprintf(fp, "%9" PRIu64 " ", tickval);
	for (i = 0; i < nvals; i++)
		fprintf(fp, "%9" PRIu64 " ", vals[i]);
	if (note != NULL)
		fprintf(fp, " # %s", note);
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
