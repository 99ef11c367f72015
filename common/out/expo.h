/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * expo.h - the exposition inside common/out: the rows of either tool kept
 * as Prometheus series (expo.c), and their rendering (exporender.c) as
 * the Prometheus text format 0.0.4 or OpenMetrics 1.0, the same families
 * and labels in both.  The openmetrics and prometheus writers keep one
 * to write their file (openmetrics.c); fmt_expose keeps one beside any
 * writer (format.c).
 *
 * A series is a CPU's (cpustat), a process's between its start or exec
 * and its end (cputrack), or a command's (cputrack --by-command).  Each
 * holds, per column (the events', then the -S requests'), the count and
 * the enabled and running nanoseconds since it began.
 */
#ifndef EXPO_H
#define EXPO_H

#include <stdint.h>
#include <stdio.h>

#include "format.h"

enum expo_flavour {
	EXPO_PROM,	/* text/plain; version=0.0.4 */
	EXPO_OM,	/* application/openmetrics-text; version=1.0.0 */
};

/* A column's quantities. */
enum { EXPO_COUNT, EXPO_ENA, EXPO_RUN, EXPO_NQ };

struct expo_cell {
	/* base: the totals before the last; run: the intervals since */
	uint64_t	 ec_base[EXPO_NQ];
	uint64_t	 ec_run[EXPO_NQ];
	int		 ec_has;	/* a row gave it a value */
};

struct expo_ser {
	long		 es_key;	/* the CPU or the pid; -1: a command */
	char		*es_comm;	/* cputrack: the command label */
	int64_t		 es_created;	/* CLOCK_REALTIME ns: _created */
	int64_t		 es_ended;	/* CLOCK_MONOTONIC ns of its end, or 0 */
	struct expo_cell *es_cells;	/* one per column */
};

struct expo;

/* An exposition of f's rows; comm: cputrack's first command.  NULL. */
struct expo	*expo_create(const struct fmt *f, const char *comm);
void		 expo_destroy(struct expo *e);
/* Whether a row of pid (< 0: a note) needs fr_comm. */
int		 expo_needs_comm(const struct expo *e, long pid);
/* A row of values, or a note (fork, exec). */
void		 expo_row(struct expo *e, const struct fmt_row *r);
/*
 * The end of a batch: the last-update time is now; series that ended
 * more than the grace period ago leave (--by-command: a command's
 * series, when its last process ended that long ago).
 */
void		 expo_batch(struct expo *e);
/*
 * The whole exposition in flavour fl to fp.  0, or -1 with a message
 * in errh_last() (out of memory while rows were kept).
 */
int		 expo_render(const struct expo *e, enum expo_flavour fl,
		    FILE *fp);
/*
 * Both flavours in memory (malloc'd, *om and *prom); 0, or -1 with
 * errno.
 */
int		 expo_render_both(const struct expo *e, char **om,
		    size_t *omlen, char **prom, size_t *promlen);

/* For exporender.c: what expo.c keeps. */
const struct fmt *expo_fmt(const struct expo *e);
int		 expo_nseries(const struct expo *e);
const struct expo_ser *expo_series(const struct expo *e, int i);
int64_t		 expo_started(const struct expo *e);	/* REALTIME ns */
int64_t		 expo_updated(const struct expo *e);	/* REALTIME ns */
int		 expo_failed(const struct expo *e);

#endif
