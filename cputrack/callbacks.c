/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callbacks.c - cputrack's ptrace run: libpctx's callbacks bind a ring
 * of sets (common/setgrp) to every thread of the tracked tree while it is
 * stopped at its birth, sample it at each tick, and print a line at each
 * event.  Each gets the run's state as libpctx's arg.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <libpctx.h>

#include "callbacks.h"
#include "errh.h"
#include "lines.h"
#include "procs.h"
#include "setgrp.h"
#include "smpl.h"
#include "smplset.h"

/* What a callback returns: -1 once an output error was fatal. */
static int
cb_rc(const struct tracker *tr, int rc)
{
	return tr->tr_outfatal ? -1 : rc;
}

/* One line per set of the accumulator that holds counts. */
static hrtime_t
print_acc(struct tracker *tr, struct tproc *tp, pid_t lwp, const char *kind)
{
	hrtime_t t, last = 0;
	int i;

	for (i = 0; i < tr->tr_o->o_nspecs; i++) {
		if ((t = cpc_buf_hrtime(tr->tr_cpc, tp->tp_acc[i])) == 0)
			continue;
		line_values(tr, tp->tp_pid, lwp, kind, i, tp->tp_acc[i]);
		if (tr->tr_tree != NULL)
			cpc_buf_add(tr->tr_cpc, tr->tr_tree[i], tr->tr_tree[i],
			    tp->tp_acc[i]);
		if (t > last)
			last = t;
	}
	return last;
}

/* After a process's totals: its profile (--profile), then forgotten. */
static void
print_profile(struct tracker *tr, pid_t pid)
{
	char what[32];

	if (tr->tr_sm == NULL || tr->tr_outfail)
		return;
	snprintf(what, sizeof(what), "pid %d", (int)pid);
	smpl_print_profile(tr->tr_sm, tr->tr_out, pid, what);
	out_check(tr);
}

/*
 * 0 bound; 1 the thread has ended (ESRCH: a thread of a process
 * attached with -p can end before its counters are opened, or between
 * the sets of a rotation; its end is reported after); -1 failed.
 */
static int
bind_elem(struct tracker *tr, struct tlwp *tl, struct setgrp_elem *e,
    const char *cb)
{
	if (cpc_bind_pctx(tr->tr_cpc, tr->tr_pctx, tl->tl_tid, e->se_set,
	    0) != 0) {
		if (errno == ESRCH)
			return 1;
		warnmsg(tr, "%d: %s: %s", (int)tl->tl_pid, cb, errh_last());
		return -1;
	}
	setgrp_bound(tl->tl_sg, e);
	/* The title once the first thread counts, before it runs. */
	if (!tr->tr_titled)
		print_title(tr);
	return 0;
}

static int
sample(struct tracker *tr, struct tlwp *tl, struct setgrp_elem *e,
    const char *cb)
{
	if (setgrp_sample(tl->tl_sg, e) != 0) {
		warnmsg(tr, "%d: %s: cannot read the counters of thread %d: "
		    "%s", (int)tl->tl_pid, cb, (int)tl->tl_tid, errh_last());
		return -1;
	}
	return 0;
}

/* A new thread of tp, its sets made; NULL (said) when they cannot be. */
static struct tlwp *
lwp_new(struct tracker *tr, struct tproc *tp, pid_t tid)
{
	const struct topts *o = tr->tr_o;
	struct tlwp *tl;

	if ((tl = calloc(1, sizeof(*tl))) == NULL ||
	    (tl->tl_sg = smpl_setgrp_create(tr->tr_cpc, o->o_specs,
	    o->o_nspecs, tr->tr_sm, tr->tr_tmpl)) == NULL) {
		warnmsg(tr, "%d: init_lwp: %s", (int)tp->tp_pid, tl == NULL ?
		    "out of memory" : errh_last());
		free(tl);
		return NULL;
	}
	tl->tl_tid = tid;
	tl->tl_pid = tp->tp_pid;
	smpl_note_pid(tr->tr_sm, tp->tp_pid);
	lwp_link(tr, tp, tl);
	return tl;
}

static int
cb_init_lwp(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tracker *tr = arg;
	struct setgrp_elem *e;
	struct tproc *tp;
	struct tlwp *tl;

	(void)pctx;
	if ((tp = proc_get(tr, pid)) == NULL) {
		warnmsg(tr, "%d: init_lwp: out of memory", (int)pid);
		return -1;
	}
	if ((tl = lwp_find(tr, (pid_t)lwpid)) != NULL)
		lwp_free(tr, tl);
	if ((tl = lwp_new(tr, tp, (pid_t)lwpid)) == NULL)
		return -1;
	e = setgrp_cur(tl->tl_sg);
	switch (bind_elem(tr, tl, e, "init_lwp")) {
	case 0:
		break;
	case 1:
		/* Ended before it could be counted: nothing to say of it. */
		lwp_free(tr, tl);
		return cb_rc(tr, 0);
	default:
		return -1;
	}
	if (tr->tr_o->o_verbose) {
		if (sample(tr, tl, e, "init_lwp") != 0)
			return -1;
		line_values(tr, pid, tl->tl_tid, "init_lwp", 0, e->se_delta);
	}
	return cb_rc(tr, 0);
}

static int
cb_lwp_create(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tracker *tr = arg;
	struct tlwp *tl = lwp_find(tr, (pid_t)lwpid);
	struct setgrp_elem *e;

	(void)pctx;
	if (tl == NULL || tl->tl_ended)
		return 0;
	e = setgrp_cur(tl->tl_sg);
	if (sample(tr, tl, e, "lwp_create") != 0)
		return -1;
	line_values(tr, pid, tl->tl_tid, "lwp_create", tl->tl_sg->sg_cur,
	    e->se_delta);
	return cb_rc(tr, 0);
}

static int
cb_tick(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tracker *tr = arg;
	struct tlwp *tl = lwp_find(tr, (pid_t)lwpid);
	struct setgrp_elem *e;
	int set;

	(void)pctx;
	if (tl == NULL || tl->tl_ended)
		return 0;
	e = setgrp_cur(tl->tl_sg);
	set = tl->tl_sg->sg_cur;
	if (sample(tr, tl, e, "tick") != 0)
		return -1;
	line_values(tr, pid, tl->tl_tid, "tick", set, e->se_delta);
	if (tr->tr_o->o_nspecs > 1) {
		(void)cpc_unbind(tr->tr_cpc, e->se_set);
		switch (bind_elem(tr, tl, setgrp_next(tl->tl_sg), "tick")) {
		case 0:
			break;
		case 1:
			tl->tl_ended = 1;
			break;
		default:
			return -1;
		}
	}
	return cb_rc(tr, 0);
}

static int
cb_fini_lwp(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tracker *tr = arg;
	struct tlwp *tl = lwp_find(tr, (pid_t)lwpid);
	struct tproc *tp = proc_find(tr, pid);
	struct setgrp_elem *e;
	int i, rc;

	(void)pctx;
	if (tl == NULL || tp == NULL)
		return 0;
	e = setgrp_cur(tl->tl_sg);
	/*
	 * No unbind: the sets are destroyed (closed) right after, at the
	 * thread's lwp_exit, the exec or the release (-p: at the loop's
	 * next wait, or at cputrack's exit: proc_retire), and disabling the
	 * group of a stopped thread is a cross-CPU call to where it ran.
	 * A thread that ended in a rotation has its totals, nothing bound.
	 */
	rc = tl->tl_ended ? 0 : sample(tr, tl, e, "fini_lwp");
	for (i = 0; i < tl->tl_sg->sg_n; i++) {
		e = &tl->tl_sg->sg_elems[i];
		if (e->se_nsamples == 0)
			continue;
		cpc_buf_add(tr->tr_cpc, tp->tp_acc[i], tp->tp_acc[i],
		    e->se_total);
		if (tr->tr_o->o_verbose)
			line_values(tr, pid, tl->tl_tid, "fini_lwp", i,
			    e->se_total);
	}
	return cb_rc(tr, rc);
}

static int
cb_lwp_exit(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tracker *tr = arg;
	struct tlwp *tl = lwp_find(tr, (pid_t)lwpid);
	int i;

	(void)pctx;
	if (tl == NULL)
		return 0;
	for (i = 0; i < tl->tl_sg->sg_n; i++)
		if (tl->tl_sg->sg_elems[i].se_nsamples > 0)
			line_values(tr, pid, tl->tl_tid, "lwp_exit", i,
			    tl->tl_sg->sg_elems[i].se_total);
	lwp_free(tr, tl);
	return cb_rc(tr, 0);
}

static void
cb_exit(pctx_t *pctx, pid_t pid, id_t lwpid, int status, void *arg)
{
	struct tracker *tr = arg;
	struct tproc *tp = proc_find(tr, pid);

	if (pid == pctx_pid(pctx)) {
		tr->tr_rootexited = 1;
		tr->tr_rootstatus = status;
	}
	if (tp == NULL)
		return;
	(void)print_acc(tr, tp, (pid_t)lwpid, "exit");
	print_profile(tr, pid);
	proc_free(tr, tp);
}

static int
cb_exec(pctx_t *pctx, pid_t pid, id_t lwpid, char *cmd, void *arg)
{
	struct tracker *tr = arg;
	struct tproc *tp = proc_find(tr, pid);
	hrtime_t last = 0;
	int i;

	(void)pctx;
	if (tp != NULL) {
		last = print_acc(tr, tp, (pid_t)lwpid, "exec");
		print_profile(tr, pid);
		smpl_exec_pid(tr->tr_sm, pid);
		lwp_free_proc(tr, tp);
		for (i = 0; i < tr->tr_o->o_nspecs; i++)
			cpc_buf_zero(tr->tr_cpc, tp->tp_acc[i]);
	}
	line_exec(tr, last, pid, (pid_t)lwpid, cmd);
	if (tr->tr_o->o_followexec)
		return cb_rc(tr, 0);
	if (tp != NULL)
		proc_free(tr, tp);
	return cb_rc(tr, 1);
}

static int
cb_fork(pctx_t *pctx, pid_t pid, id_t lwpid, pid_t child, void *arg)
{
	struct tracker *tr = arg;

	(void)pctx;
	line_fork(tr, now(), pid, (pid_t)lwpid, child);
	return cb_rc(tr, tr->tr_o->o_followfork);
}

static void
cb_release(pctx_t *pctx, pid_t pid, void *arg)
{
	struct tracker *tr = arg;
	struct tproc *tp = proc_find(tr, pid);

	(void)pctx;
	if (tp == NULL)
		return;
	(void)print_acc(tr, tp, pid, "total");
	print_profile(tr, pid);
	if (tr->tr_o->o_pid != 0)
		proc_retire(tr, tp);
	else
		proc_free(tr, tp);
}

/*
 * The output is written out whenever the loop has nothing left to do
 * (pctx_set_idle), not a line at a time: a tick of thousands of threads
 * in one write per buffer, not one per thread, and a line is never held
 * while cputrack waits.
 */
static void
cb_idle(pctx_t *pctx, void *arg)
{
	struct tracker *tr = arg;

	(void)pctx;
	out_flush(tr);
	retired_free(tr);
}

static const struct pctx_ops ops = {
	.po_init_lwp = cb_init_lwp,
	.po_fini_lwp = cb_fini_lwp,
	.po_lwp_create = cb_lwp_create,
	.po_lwp_exit = cb_lwp_exit,
	.po_exec = cb_exec,
	.po_fork = cb_fork,
	.po_exit = cb_exit,
	.po_release = cb_release,
};

void
callbacks_set(struct tracker *tr)
{
	pctx_set_ops(tr->tr_pctx, &ops);
	pctx_set_idle(tr->tr_pctx, cb_idle);
}

int
callbacks_run(struct tracker *tr)
{
	return pctx_run(tr->tr_pctx, tr->tr_o->o_msec, tr->tr_o->o_count,
	    cb_tick) != 0 ? -1 : 0;
}
