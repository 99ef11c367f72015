/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procs.h - the processes and threads the ptrace run tracks (procs.c):
 * per thread a setgrp, bound at init_lwp while the thread has not run;
 * per process one accumulator buffer per set, the totals of its threads
 * that left control, printed by the exit, exec and total lines.
 */
#ifndef PROCS_H
#define PROCS_H

#include <sys/types.h>
#include <libcpc.h>

#include "tracker.h"

struct tlwp {
	pid_t		 tl_tid;
	pid_t		 tl_pid;
	struct setgrp	*tl_sg;
	struct tlwp	*tl_next;	/* hash chain */
	struct tproc	*tl_proc;
	struct tlwp	*tl_pnext;	/* the process's threads, */
	struct tlwp	*tl_pprev;	/* both ways */
	int		 tl_ended;	/* ended before a rebind: nothing
					   bound, only its totals left */
};

struct tproc {
	pid_t		 tp_pid;
	cpc_buf_t	**tp_acc;	/* per set: totals of ended threads */
	struct tlwp	*tp_lwps;
	struct tproc	*tp_next;
};

/* The thread tid, or NULL. */
struct tlwp	*lwp_find(struct tracker *tr, pid_t tid);
/* tl (its tl_tid set) into the index and into tp's threads. */
void		 lwp_link(struct tracker *tr, struct tproc *tp,
		    struct tlwp *tl);
/* tl out of both, its sets closed, freed. */
void		 lwp_free(struct tracker *tr, struct tlwp *tl);
/* Every thread of tp freed (at exit, exec, release, retirement). */
void		 lwp_free_proc(struct tracker *tr, struct tproc *tp);
/* The process pid, or NULL. */
struct tproc	*proc_find(struct tracker *tr, pid_t pid);
/* The process pid, made with zeroed accumulators if new; NULL no memory. */
struct tproc	*proc_get(struct tracker *tr, pid_t pid);
/* tp and its threads freed. */
void		 proc_free(struct tracker *tr, struct tproc *tp);
/* -p: tp let go, its counters left open (see procs.c). */
void		 proc_retire(struct tracker *tr, struct tproc *tp);
/* The processes retired so far, freed. */
void		 retired_free(struct tracker *tr);
/* Every process still tracked, freed (the retired ones stay). */
void		 procs_free(struct tracker *tr);

#endif
