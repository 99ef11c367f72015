/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procs.c - the processes and threads the ptrace run tracks: a list of
 * processes, each with its threads, and an index of the threads by TID
 * (a tick visits every thread: the look-up must not walk them all).
 */
#include "config.h"

#include <stdlib.h>

#include "procs.h"
#include "setgrp.h"

#define NHASH	TRACK_NHASH

struct tlwp *
lwp_find(struct tracker *tr, pid_t tid)
{
	struct tlwp *tl;

	for (tl = tr->tr_hash[tid % NHASH]; tl != NULL; tl = tl->tl_next)
		if (tl->tl_tid == tid)
			return tl;
	return NULL;
}

void
lwp_link(struct tracker *tr, struct tproc *tp, struct tlwp *tl)
{
	tl->tl_next = tr->tr_hash[tl->tl_tid % NHASH];
	tr->tr_hash[tl->tl_tid % NHASH] = tl;
	tl->tl_proc = tp;
	tl->tl_pnext = tp->tp_lwps;
	if (tp->tp_lwps != NULL)
		tp->tp_lwps->tl_pprev = tl;
	tp->tp_lwps = tl;
}

/* Out of the TID index (a retired thread is out of it already). */
static void
lwp_unhash(struct tracker *tr, struct tlwp *tl)
{
	struct tlwp **pp;

	for (pp = &tr->tr_hash[tl->tl_tid % NHASH]; *pp != NULL;
	    pp = &(*pp)->tl_next)
		if (*pp == tl) {
			*pp = tl->tl_next;
			break;
		}
}

void
lwp_free(struct tracker *tr, struct tlwp *tl)
{
	lwp_unhash(tr, tl);
	if (tl->tl_pprev != NULL)
		tl->tl_pprev->tl_pnext = tl->tl_pnext;
	else
		tl->tl_proc->tp_lwps = tl->tl_pnext;
	if (tl->tl_pnext != NULL)
		tl->tl_pnext->tl_pprev = tl->tl_pprev;
	setgrp_destroy(tl->tl_sg);
	free(tl);
}

void
lwp_free_proc(struct tracker *tr, struct tproc *tp)
{
	while (tp->tp_lwps != NULL)
		lwp_free(tr, tp->tp_lwps);
}

struct tproc *
proc_find(struct tracker *tr, pid_t pid)
{
	struct tproc *tp;

	for (tp = tr->tr_procs; tp != NULL; tp = tp->tp_next)
		if (tp->tp_pid == pid)
			return tp;
	return NULL;
}

struct tproc *
proc_get(struct tracker *tr, pid_t pid)
{
	int i, n = tr->tr_o->o_nspecs;
	struct tproc *tp;

	if ((tp = proc_find(tr, pid)) != NULL)
		return tp;
	if ((tp = calloc(1, sizeof(*tp))) == NULL ||
	    (tp->tp_acc = calloc(n, sizeof(*tp->tp_acc))) == NULL) {
		free(tp);
		return NULL;
	}
	tp->tp_pid = pid;
	for (i = 0; i < n; i++)
		if ((tp->tp_acc[i] = cpc_buf_create(tr->tr_cpc,
		    tr->tr_tmpl[i])) == NULL) {
			while (i-- > 0)
				cpc_buf_destroy(tr->tr_cpc, tp->tp_acc[i]);
			free(tp->tp_acc);
			free(tp);
			return NULL;
		}
	tp->tp_next = tr->tr_procs;
	tr->tr_procs = tp;
	tr->tr_nprocs++;
	return tp;
}

/* tp out of the list of processes tracked. */
static void
proc_unlist(struct tracker *tr, struct tproc *tp)
{
	struct tproc **pp;

	for (pp = &tr->tr_procs; *pp != NULL; pp = &(*pp)->tp_next)
		if (*pp == tp) {
			*pp = tp->tp_next;
			break;
		}
}

void
proc_free(struct tracker *tr, struct tproc *tp)
{
	int i;

	lwp_free_proc(tr, tp);
	proc_unlist(tr, tp);
	for (i = 0; i < tr->tr_o->o_nspecs; i++)
		cpc_buf_destroy(tr->tr_cpc, tp->tp_acc[i]);
	free(tp->tp_acc);
	free(tp);
}

/*
 * -p: a process let go is retired, not freed: out of the lists, its
 * lines printed.  Its threads' counters are closed at the loop's next
 * wait (others are still tracked: retired_free) or, at the end, by the
 * kernel when cputrack exits, as it detaches the threads then
 * (pctx_detach_at_exit), and main does not close the handle: at 4000
 * threads, 8000 closes and some 70000 frees and table look-ups spared,
 * a third of the attach's user time.
 */
void
proc_retire(struct tracker *tr, struct tproc *tp)
{
	struct tlwp *tl;

	proc_unlist(tr, tp);
	for (tl = tp->tp_lwps; tl != NULL; tl = tl->tl_pnext)
		lwp_unhash(tr, tl);
	tp->tp_next = tr->tr_retired;
	tr->tr_retired = tp;
}

void
retired_free(struct tracker *tr)
{
	struct tproc *tp;

	while ((tp = tr->tr_retired) != NULL) {
		tr->tr_retired = tp->tp_next;
		tp->tp_next = NULL;
		proc_free(tr, tp);
	}
}

void
procs_free(struct tracker *tr)
{
	while (tr->tr_procs != NULL)
		proc_free(tr, tr->tr_procs);
}
