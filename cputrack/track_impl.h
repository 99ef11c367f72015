/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track_impl.h - cputrack's run state, shared by track.c (the pctx
 * callbacks, signals, the command) and lines.c (what is printed).
 */
#ifndef TRACK_IMPL_H
#define TRACK_IMPL_H

#include <signal.h>
#include <stdio.h>
#include <libcpc.h>
#include <libpctx.h>

#include "cputrack.h"
#include "format.h"

#define TRACK_NHASH	16384

struct tproc;
struct tlwp;

struct tstate {
	cpc_t		*cpc;
	const struct topts *o;
	FILE		*out;
	cpc_set_t	**tmpl;		/* per set: for buffer shapes */
	struct smpl	*sm;		/* -S, or NULL */
	hrtime_t	 t0;
	pctx_t		*pctx;
	struct tproc	*procs;
	struct tproc	*retired;	/* -p: let go; freed at the next
					   wait, else left to the exit */
	struct tlwp	*hash[TRACK_NHASH];
	int		 outfail;	/* a write failed: print no more */
	int		 outerr;	/* its errno */
	int		 outfatal;	/* not EPIPE: fail, kill the command */
	int		 titled;	/* the title line is out */
	int		 rootstatus;	/* -p: the wait status at exit */
	int		 rootexited;
	volatile sig_atomic_t sig;	/* caught, not yet forwarded: 0 none */
	volatile sig_atomic_t sigfwd;	/* forward it to the command */
	struct fmt	*fmt;		/* --format other than text */
	hrtime_t	 flushed;	/* openmetrics: the last rewrite */
	cpc_buf_t	**tree;		/* -f: per set, the whole tree's */
	long		 nprocs;	/* processes counted in it */
	pid_t		 rootpid;
};

extern struct tstate T;

/* CLOCK_MONOTONIC in ns. */
hrtime_t	now(void);
/* "cputrack: message" on stderr, whatever -o says. */
void		warnmsg(const char *fmt, ...)
		    __attribute__((format(printf, 1, 2)));
/* After every line: a failed write ends the tracking, once. */
void		out_check(void);
void		out_flush(void);
/* What a callback returns: -1 once an output error was fatal. */
int		cb_rc(int rc);
/* The title line (or CSV header), once. */
void		title(void);
/* A line of buf's values (set's), in the chosen format. */
void		line_values(pid_t pid, pid_t lwp, const char *kind, int set,
		    cpc_buf_t *buf);
/* The same at time t, not the buffer's. */
void		line_values_at(hrtime_t t, pid_t pid, pid_t lwp,
		    const char *kind, int set, cpc_buf_t *buf);
/* A text fork or exec-name line: blank values and " # note". */
void		line_note(hrtime_t t, pid_t pid, pid_t lwp, const char *kind,
		    const char *fmt, ...)
		    __attribute__((format(printf, 5, 6)));
/* The same in the other formats: child for a fork, command for exec. */
void		fmt_note(hrtime_t t, pid_t pid, pid_t lwp, const char *kind,
		    long child, const char *command);
/* The program name of process pid (/proc/<pid>/comm), or "". */
void		proc_comm(pid_t pid, char *buf, size_t len);
/* The formatter and -f's accumulators (before the run); 0 or -1. */
int		setup_output(void);
/* -f's total of the tree and the last openmetrics file; 0 or -1. */
int		tree_total(void);

/* libpctx's exec command lines, at most. */
#define CMDMAX		80
/* s made one line (\n, \t, \\, \ooo), cut to fit buf. */
const char	*escape(const char *s, char *buf, size_t len);
/* Send the command the signal caught since the last call, if any. */
void		forward(void);
/* The exit status for the command's wait status. */
int		wait_status(int st);
/* 1 (said) when a write failed for another reason than EPIPE. */
int		outfailed(void);

/*
 * track_ends.c: the run without thread stops, where it applies: 0 when
 * started (ends_run then waits and prints; ends_cleanup after release),
 * -1 when the ptrace run must do.
 */
int		ends_start(void);
int		ends_run(void);
void		ends_cleanup(void);

#endif
