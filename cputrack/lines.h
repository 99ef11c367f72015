/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lines.h - what cputrack prints (lines.c): the title, value lines, fork
 * and exec lines in the chosen format, the total of a -f tree, and what
 * a failed write does to the run.
 */
#ifndef LINES_H
#define LINES_H

#include <stddef.h>
#include <sys/types.h>
#include <libcpc.h>

#include "tracker.h"

/* libpctx's exec command lines, at most. */
#define CMDMAX		80

/* CLOCK_MONOTONIC in ns: the clock of cpc_buf_hrtime. */
hrtime_t	now(void);
/* "cputrack: message" on stderr, whatever -o says, after the lines. */
void		warnmsg(struct tracker *tr, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* After every line: a failed write ends the tracking, once. */
void		out_check(struct tracker *tr);
/* What is buffered, written out now (then out_check). */
void		out_flush(struct tracker *tr);
/* 1 (said) when a write failed for another reason than EPIPE. */
int		outfailed(struct tracker *tr);
/* The title line (or CSV header), once. */
void		print_title(struct tracker *tr);
/* A line of buf's values (set's), stamped with the buffer's time. */
void		line_values(struct tracker *tr, pid_t pid, pid_t lwp,
		    const char *kind, int set, cpc_buf_t *buf);
/* The same at time t, not the buffer's. */
void		line_values_at(struct tracker *tr, hrtime_t t, pid_t pid,
		    pid_t lwp, const char *kind, int set, cpc_buf_t *buf);
/* The fork line of thread lwp of pid that forked child. */
void		line_fork(struct tracker *tr, hrtime_t t, pid_t pid, pid_t lwp,
		    pid_t child);
/* The exec line's note: the new command line cmd ("" unknown). */
void		line_exec(struct tracker *tr, hrtime_t t, pid_t pid, pid_t lwp,
		    const char *cmd);
/*
 * The program name of process pid (/proc/<pid>/comm, newlines in it
 * kept), or "".
 */
void		proc_comm(pid_t pid, char *buf, size_t len);
/*
 * Before the run: the formatter, -f's accumulators and the first
 * openmetrics file; 0 or -1 (said).
 */
int		lines_open(struct tracker *tr);
/* -f's total of the tree and the last openmetrics file; 0 or -1. */
int		tree_total(struct tracker *tr);

#endif
