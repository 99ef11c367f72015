/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cells.h - the cells of the fixed-column text both tools print (the
 * text writer, text.c).  Every counter value is an unsigned 64-bit
 * decimal right-aligned in 9 columns and followed by one space; a line
 * may end with " # <text>".
 */
#ifndef CELLS_H
#define CELLS_H

#include <stdint.h>
#include <stdio.h>
#include <libcpc.h>

#include "strtoset.h"

/* The tick register's column title: "tsc" on x86. */
const char	*out_tickname(void);
/* One "     picN " cell per request of sp. */
void		 out_pic_cells(FILE *fp, const struct spec *sp);
/*
 * The values of buf (and its tick first, when tick is set), then
 * " # note" when note is not NULL, " (scaled)" when the kernel
 * time-shared the counters, and a newline.
 */
void		 out_values(FILE *fp, cpc_t *cpc, cpc_buf_t *buf, int nreqs,
		    int tick, const char *note);
/* The same from plain values: out_row_cells, then out_row_end. */
void		 out_row(FILE *fp, int tick, uint64_t tickval,
		    const uint64_t *vals, int nvals, int scaled,
		    const char *note);
void		 out_row_cells(FILE *fp, int tick, uint64_t tickval,
		    const uint64_t *vals, int nvals);
void		 out_row_end(FILE *fp, int scaled, const char *note);
/* A -M metric's cell: v ("-" for NaN) in width columns and a space. */
void		 out_met(FILE *fp, double v, int width);
/* The width of a metric's column: its name's, at least 9. */
int		 out_met_width(const char *name);
/* Seconds between two CLOCK_MONOTONIC nanosecond times. */
double		 out_reltime(hrtime_t t, hrtime_t base);
/* The same as printf's "%7.3f" prints it, for the time column. */
void		 out_time(FILE *fp, hrtime_t t, hrtime_t base);
/*
 * v in decimal, right-aligned in width columns, ending at end (a NUL at
 * end[-1]; the text and its padding fit in width + 21 bytes before it):
 * where the text starts.
 */
char		*out_u64_cell(char *end, uint64_t v, int width);
/* v right-aligned in width columns, as "%*" PRIu64 (width <= 40). */
void		 out_u64(FILE *fp, uint64_t v, int width);

#endif
