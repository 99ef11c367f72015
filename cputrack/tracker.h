/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tracker.h - the state of one cputrack run.  Every part of the run gets
 * it as an argument: the pctx callbacks as libpctx's arg, the LWP event
 * reader as its thread's argument (illumos cputrack: struct pstate
 * *state = arg).  Only the two entries that are called without an
 * argument (the signal handler, libpctx's error function) reach it
 * through a pointer of command.c's own.
 */
#ifndef TRACKER_H
#define TRACKER_H

#include <signal.h>
#include <stdio.h>
#include <libcpc.h>
#include <libpctx.h>

#include "cputrack.h"
#include "format.h"

/* Buckets of the thread index (procs.c): a tick looks up every thread. */
#define TRACK_NHASH	16384

struct tproc;
struct tlwp;

struct tracker {
	cpc_t		*tr_cpc;
	const struct topts *tr_o;
	FILE		*tr_out;
	cpc_set_t	**tr_tmpl;	/* per set: for buffer shapes */
	struct smpl	*tr_sm;		/* -S, or NULL */
	hrtime_t	 tr_t0;		/* the start: time 0 of the lines */
	pctx_t		*tr_pctx;	/* NULL once released */
	struct tproc	*tr_procs;	/* the processes tracked */
	struct tproc	*tr_retired;	/* -p: let go; freed at the next
					   wait, else left to the exit */
	struct tlwp	*tr_hash[TRACK_NHASH];	/* threads by TID */
	int		 tr_outfail;	/* a write failed: print no more */
	int		 tr_outerr;	/* its errno */
	int		 tr_outfatal;	/* not EPIPE: fail, kill the command */
	int		 tr_titled;	/* the title line is out */
	int		 tr_rootstatus;	/* -p: the wait status at exit */
	int		 tr_rootexited;
	volatile sig_atomic_t tr_sig;	/* caught, not yet forwarded: 0 none */
	volatile sig_atomic_t tr_sigfwd; /* forward it to the command */
	struct fmt	*tr_fmt;	/* the writer of --format */
	hrtime_t	 tr_flushed;	/* its last end of a batch (lines.c) */
	cpc_buf_t	**tr_tree;	/* -f: per set, the whole tree's */
	long		 tr_nprocs;	/* processes counted in it */
	pid_t		 tr_rootpid;	/* the command or the -p process */
};

#endif
