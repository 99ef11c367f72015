/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.h - the machine-readable outputs of both tools (--format=csv,
 * json, openmetrics).  The text format stays in output.c, printed by the
 * tools as before; for the others a tool hands every line it would print
 * as a struct fmt_row, and this module writes it.
 *
 * Every requested event gets a column (CSV), a key of "counts" (JSON) or
 * an event label (OpenMetrics), named as written in -c; the same name in
 * two sets shares one column, the same name twice in one set gets "#2",
 * "#3" after the second.  Rows of a set leave the other sets' columns
 * empty, and name their set in the "set" column.
 *
 * With -S (fmt_add_samples), every row of values also carries the
 * samples each sampling request took over the row's span: a CSV column
 * "samples:NAME", a key of "samples" (JSON), a series of the samples
 * family (OpenMetrics), named by the same rule within the -S set.
 */
#ifndef FORMAT_H
#define FORMAT_H

#include <stdint.h>
#include <stdio.h>

#include <libcpc.h>

#include "strtoset.h"

enum fmt_kind {
	FMT_TEXT = 0,
	FMT_CSV,
	FMT_JSON,
	FMT_OPENMETRICS,
};

enum fmt_tool {
	FMT_CPUSTAT,
	FMT_CPUTRACK,
};

/* Flags of fmt_create. */
#define FMT_TICK	0x1	/* -t: a tick register column */
#define FMT_EPOCH	0x2	/* cpustat -T u: an epoch column */
#define FMT_DATE	0x4	/* cpustat -T d: a date column */

/* One line of either tool. */
struct fmt_row {
	double		 fr_time;	/* seconds since the start */
	double		 fr_wall;	/* epoch seconds (-T) */
	const char	*fr_kind;	/* tick, total, exit, fork, ... */
	int		 fr_cpu;	/* cpustat: the CPU, or for a total */
	int		 fr_ncpu;	/* the CPUs measured */
	long		 fr_pid;	/* cputrack: process, thread */
	long		 fr_lwp;	/* (a tree total: processes) */
	int		 fr_tree;	/* cputrack: the total of the tree */
	int		 fr_set;	/* the set's index; -1: no values */
	uint64_t	 fr_tick;
	const uint64_t	*fr_vals;	/* one per request of the set */
	const uint64_t	*fr_smpl;	/* one per -S request, or NULL */
	uint64_t	 fr_ena;	/* enabled, running ns */
	uint64_t	 fr_run;
	int		 fr_scaled;	/* cpc_buf_scaled */
	long		 fr_child;	/* fork: the child */
	const char	*fr_command;	/* exec: the new command */
};

struct fmt;

/* --format's argument; 0 when it names no format. */
int		 fmt_parse(const char *arg, enum fmt_kind *kind);
/* The same for the option: a usage error (cli.h) when it names none. */
void		 fmt_option(const char *arg, enum fmt_kind *kind);
/*
 * A writer of kind (not FMT_TEXT) to fp, or for FMT_OPENMETRICS to the
 * file path, rewritten by fmt_flush.  comm: cputrack's command (the
 * first process's), for OpenMetrics' command label.  NULL with errno.
 */
struct fmt	*fmt_create(enum fmt_kind kind, enum fmt_tool tool, FILE *fp,
		    const char *path, const struct spec *specs, int nspecs,
		    unsigned flags, const char *comm);
void		 fmt_destroy(struct fmt *f);
/*
 * The sampling requests every set carries (-S, after the set's own):
 * their columns.  Before any row; 0, or -1 with errno.
 */
int		 fmt_add_samples(struct fmt *f, const struct spec *smpl);
/* The CSV header row; nothing in the other formats. */
void		 fmt_header(struct fmt *f);
void		 fmt_row(struct fmt *f, const struct fmt_row *r);
/*
 * fmt_row with r's values (and samples), tick, times and scaled flag
 * taken from buf.
 */
void		 fmt_buf(struct fmt *f, struct fmt_row *r, cpc_t *cpc,
		    cpc_buf_t *buf);
/*
 * The end of an interval: OpenMetrics rewrites its file (0, or -1 with
 * a message in errh_last()); the others do nothing.
 */
int		 fmt_flush(struct fmt *f);

/* Within format.c and openmetrics.c. */
int		 fmt_ncols(const struct fmt *f);
const char	*fmt_colname(const struct fmt *f, int col);
int		 fmt_col(const struct fmt *f, int set, int req);
int		 fmt_nreqs(const struct fmt *f, int set);
/* The -S requests, and the name of request i's samples. */
int		 fmt_nsmpl(const struct fmt *f);
const char	*fmt_smplname(const struct fmt *f, int i);

#endif
