/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.h - the one writer interface of both tools' output: a tool
 * hands every line it prints as a struct fmt_row, and the writer of the
 * --format chosen writes it.  Text, CSV, JSON lines and OpenMetrics are
 * writers of equal standing (text.c, csv.c, json.c, openmetrics.c: the
 * OpenMetrics and the Prometheus text files) over one column model
 * (columns.h), so the tools never test which format was chosen.
 *
 * A writer's life: fmt_create, fmt_add_samples (with -S), fmt_header
 * (unless -n), then rows, each batch of them (an interval, the totals)
 * ended by fmt_flush, then fmt_destroy.  Writers report errors by their
 * return value (a message in errh_last()); they never exit.
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
	FMT_PROMETHEUS,
};

enum fmt_tool {
	FMT_CPUSTAT,
	FMT_CPUTRACK,
};

/* Flags of fmt_create. */
#define FMT_TICK	0x01	/* -t: a tick register column */
#define FMT_EPOCH	0x02	/* cpustat -T u: an epoch column or line */
#define FMT_DATE	0x04	/* cpustat -T d: a date column or line */
#define FMT_PIDCOL	0x08	/* cputrack -f: text has a pid column */
#define FMT_NAMESET	0x10	/* text names the set even when alone
				   (cpustat's default set) */

/*
 * One line of either tool: a row of values (fr_set >= 0) or a note
 * (fr_set -1: a fork, with fr_child, or an exec, with fr_command).
 */
struct fmt_row {
	int64_t		 fr_ns;		/* nanoseconds since the start */
	int64_t		 fr_wallns;	/* -T: nanoseconds since the epoch */
	const char	*fr_kind;	/* tick, total, exit, fork, ... */
	int		 fr_cpu;	/* cpustat: the CPU, or for a total */
	int		 fr_ncpu;	/* the CPUs measured */
	long		 fr_pid;	/* cputrack: process, thread */
	long		 fr_lwp;	/* (a tree total: processes) */
	int		 fr_tree;	/* cputrack: the total of the tree */
	int		 fr_set;	/* the set's index; -1: a note */
	uint64_t	 fr_tick;
	const uint64_t	*fr_vals;	/* the set's counts, then samples */
	int		 fr_nvals;	/* all of them (the text cells) */
	const uint64_t	*fr_smpl;	/* one per -S request, or NULL */
	uint64_t	 fr_ena;	/* enabled, running ns */
	uint64_t	 fr_run;
	int		 fr_scaled;	/* cpc_buf_scaled */
	long		 fr_child;	/* fork: the child */
	const char	*fr_command;	/* exec: the new command */
	const char	*fr_comm;	/* cputrack: the process's name now
					   (/proc/PID/comm), or NULL */
	const char	*fr_cgroup;	/* cpustat -G: the cgroup, else NULL */
	const double	*fr_mets;	/* -M: a value per metric, NaN for
					   none (set by fmt_row) */
};

/*
 * What the exposition (openmetrics, prometheus, fmt_expose) says of the
 * run, and how cputrack's series live.  Zero: nothing said, no grace.
 */
struct fmt_runinfo {
	double		 ri_interval;	/* seconds between batches */
	const char	*ri_backend;	/* libcpc's (cpc_cciname), kept */
	double		 ri_grace;	/* cputrack: seconds an ended
					   process's series stays */
	int		 ri_bycommand;	/* cputrack: series per command */
};

/*
 * The exposition's publisher (fmt_expose): the OpenMetrics 1.0 text and
 * the Prometheus 0.0.4 text of the same state, valid during the call.
 */
typedef void fmt_publish_fn(void *arg, const char *om, size_t omlen,
    const char *prom, size_t promlen);

struct fmt;

/* --format's argument; 0 when it names no format. */
int		 fmt_parse(const char *arg, enum fmt_kind *kind);
/*
 * A writer of kind to fp, or for FMT_OPENMETRICS and FMT_PROMETHEUS to
 * the file path, rewritten by fmt_flush.  comm: cputrack's command (the
 * first process's), the command label until a row names its process.
 * NULL with errno.
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
/* The run as the exposition tells it (copied).  Before fmt_header. */
void		 fmt_runinfo(struct fmt *f, const struct fmt_runinfo *ri);
/*
 * Keep, besides f's own output, the exposition of every row (the same
 * families as --format=openmetrics), and at each fmt_flush (and once at
 * fmt_header, so a scrape before the first interval sees the info and
 * start metrics) render it in both flavours and call pub(arg, ...) from
 * the calling thread.  Before fmt_header.  0, or -1 with errno.
 */
int		 fmt_expose(struct fmt *f, fmt_publish_fn *pub, void *arg);
/*
 * Whether a row of pid needs fr_comm: an exposition names a process
 * when its series begins.  pid < 0: a note, which always may.
 */
int		 fmt_wants_comm(const struct fmt *f, long pid);
/*
 * cpustat -G: the rows name one of these n cgroups (fr_cgroup), in a
 * column of text and CSV, a "cgroup" member of JSON, a label of
 * OpenMetrics.  Before any row; 0, or -1 with errno.  n 0: none.
 */
int		 fmt_add_cgroups(struct fmt *f, const char *const *names,
		    int n);
/*
 * -M: fn(arg, r, vals) gives every row of values its n metrics (NaN:
 * none), columns named names (kept) after the counts and samples.  Not
 * in OpenMetrics.  Before fmt_header; 0, or -1 with errno.
 */
typedef void	 fmt_derive_fn(void *arg, const struct fmt_row *r,
		    double *vals);
int		 fmt_derive(struct fmt *f, const char *const *names, int n,
		    fmt_derive_fn *fn, void *arg);
/* The title line (text) or header row (CSV); nothing in the others. */
void		 fmt_header(struct fmt *f);
/* A row of values, or a note (fr_set -1). */
void		 fmt_row(struct fmt *f, const struct fmt_row *r);
/*
 * fmt_row with r's values (and samples), tick, times and scaled flag
 * taken from buf.
 */
void		 fmt_buf(struct fmt *f, struct fmt_row *r, cpc_t *cpc,
		    cpc_buf_t *buf);
/*
 * The end of a batch of rows (an interval, the totals): openmetrics and
 * prometheus rewrite their file (0, or -1 with a message in
 * errh_last()), text's next row starts a new -T stamp; fmt_expose's
 * publisher is called.
 */
int		 fmt_flush(struct fmt *f);

#endif
