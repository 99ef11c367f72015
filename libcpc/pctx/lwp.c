/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lwp.c - libpctx's bookkeeping: the handle's life (pctx_alloc,
 * pctx_free) and its error handler (pctx_err); threads and processes: a
 * hash of threads by tid, a list of threads per process in creation
 * order, the list of processes; resuming and detaching a stopped thread;
 * the callbacks of a thread's life (init_lwp, fini_lwp, lwp_exit, exit);
 * giving up a process.  Every other file of libpctx calls this one, and
 * it calls none of them but msgsafe.c.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ptrace.h>

#include "pctx_impl.h"

void
pctx_err(pctx_t *p, const char *fn, const char *fmt, ...)
{
	char msg[PCTX_MSG_MAX];
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	if (p != NULL && p->p_errfn != NULL)
		p->p_errfn(fn, fmt, ap);
	else
		fprintf(stderr, "libpctx: pctx_%s: %s\n", fn,
		    pctx_vmsgsafe(msg, sizeof(msg), fmt, ap));
	va_end(ap);
	errno = e;
}

pctx_t *
pctx_alloc(void *arg, int verbose, pctx_errfn_t *errfn)
{
	pctx_t *p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->p_arg = arg;
	p->p_verbose = verbose;
	p->p_errfn = errfn;
	p->p_pidfd = -1;
	p->p_euid = geteuid();
	if ((p->p_evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		int e = errno;

		free(p);
		errno = e;
		return NULL;
	}
	return p;
}

void
pctx_free(pctx_t *p)
{
	int i;

	while (p->p_procs != NULL)
		pctx_proc_drop(p, p->p_procs);
	for (i = 0; i < HASHSZ; i++)
		while (p->p_hash[i] != NULL)
			pctx_lwp_free(p, p->p_hash[i]);
	if (p->p_evfd >= 0)
		close(p->p_evfd);
	if (p->p_pidfd >= 0)
		close(p->p_pidfd);
	free(p);
}

struct lwp *
pctx_lwp_find(pctx_t *p, pid_t tid)
{
	struct lwp *l;

	for (l = p->p_hash[tid % HASHSZ]; l != NULL; l = l->l_hnext)
		if (l->l_tid == tid)
			return l;
	return NULL;
}

/*
 * The thread lists are linked both ways, with their last thread kept,
 * and the number of their threads not ended: attaching to thousands of
 * threads, their ends and their detaching stay linear.
 */
void
pctx_lwp_link(struct proc *pr, struct lwp *l)
{
	l->l_next = NULL;
	l->l_prev = pr->pr_last;
	if (pr->pr_last != NULL)
		pr->pr_last->l_next = l;
	else
		pr->pr_lwps = l;
	pr->pr_last = l;
	l->l_proc = pr;
	pr->pr_nlive += l->l_state != LWP_ENDED;
}

static void
lwp_unlink(struct lwp *l)
{
	struct proc *pr = l->l_proc;

	if (pr == NULL)
		return;
	if (l->l_prev != NULL)
		l->l_prev->l_next = l->l_next;
	else
		pr->pr_lwps = l->l_next;
	if (l->l_next != NULL)
		l->l_next->l_prev = l->l_prev;
	else
		pr->pr_last = l->l_prev;
	pr->pr_nlive -= l->l_state != LWP_ENDED;
	l->l_proc = NULL;
	l->l_next = l->l_prev = NULL;
}

/* Take l out of the hash chain of its tid. */
static void
lwp_unhash(pctx_t *p, struct lwp *l)
{
	struct lwp **lp;

	for (lp = &p->p_hash[l->l_tid % HASHSZ]; *lp != NULL;
	    lp = &(*lp)->l_hnext)
		if (*lp == l) {
			*lp = l->l_hnext;
			p->p_nhashed--;
			break;
		}
}

static void
lwp_hash(pctx_t *p, struct lwp *l)
{
	l->l_hnext = p->p_hash[l->l_tid % HASHSZ];
	p->p_hash[l->l_tid % HASHSZ] = l;
	p->p_nhashed++;
}

struct lwp *
pctx_lwp_add(pctx_t *p, pid_t tid, struct proc *pr, enum lwp_state st)
{
	struct lwp *l;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return NULL;
	l->l_tid = tid;
	l->l_state = st;
	lwp_hash(p, l);
	if (pr != NULL)
		pctx_lwp_link(pr, l);
	return l;
}

void
pctx_lwp_free(pctx_t *p, struct lwp *l)
{
	lwp_unlink(l);
	lwp_unhash(p, l);
	free(l);
}

/* l goes by tid from now on (a non-leader exec took the pid). */
void
pctx_lwp_rekey(pctx_t *p, struct lwp *l, pid_t tid)
{
	lwp_unhash(p, l);
	l->l_tid = tid;
	lwp_hash(p, l);
}

struct proc *
pctx_proc_add(pctx_t *p, pid_t pid, enum proc_state st)
{
	struct proc *pr, **pp;

	if ((pr = calloc(1, sizeof(*pr))) == NULL)
		return NULL;
	pr->pr_pid = pid;
	pr->pr_state = st;
	for (pp = &p->p_procs; *pp != NULL; pp = &(*pp)->pr_next)
		;
	*pp = pr;
	return pr;
}

void
pctx_vfork_done(pctx_t *p, struct proc *pr)
{
	struct lwp *l;

	if (pr->pr_vparent == 0)
		return;
	l = pctx_lwp_find(p, pr->pr_vparent);
	pr->pr_vparent = 0;
	if (l != NULL && l->l_stopped && l->l_proc != NULL)
		pctx_lwp_resume(p, l, 0);
}

/* Forget a process; its ended threads wait in the hash for their reap. */
void
pctx_proc_drop(pctx_t *p, struct proc *pr)
{
	struct proc **pp;

	pctx_vfork_done(p, pr);

	while (pr->pr_lwps != NULL)
		lwp_unlink(pr->pr_lwps);
	for (pp = &p->p_procs; *pp != NULL; pp = &(*pp)->pr_next)
		if (*pp == pr) {
			*pp = pr->pr_next;
			break;
		}
	free(pr);
}

/* A released process is done when none of its threads is attached. */
void
pctx_proc_check_released(pctx_t *p, struct proc *pr)
{
	if (pr->pr_state == PR_RELEASING && pr->pr_nlive == 0)
		pctx_proc_drop(p, pr);
}

void
pctx_lwp_detach(pctx_t *p, struct lwp *l, int sig)
{
	struct proc *pr = l->l_proc;

	(void)ptrace(PTRACE_DETACH, l->l_tid, NULL, (void *)(long)sig);
	pctx_lwp_free(p, l);
	if (pr != NULL)
		pctx_proc_check_released(p, pr);
}

void
pctx_lwp_resume(pctx_t *p, struct lwp *l, int sig)
{
	if (l->l_proc != NULL && l->l_proc->pr_state == PR_RELEASING &&
	    l->l_state != LWP_ENDED) {
		pctx_lwp_detach(p, l, sig);
		return;
	}
	l->l_stopped = 0;
	/* ESRCH: killed meanwhile; its death report follows. */
	(void)ptrace(PTRACE_CONT, l->l_tid, NULL, (void *)(long)sig);
}

int
pctx_cb_init(pctx_t *p, struct lwp *l)
{
	if (p->p_ops.po_init_lwp != NULL &&
	    p->p_ops.po_init_lwp(p, l->l_proc->pr_pid, l->l_tid,
	    p->p_arg) != 0)
		return -1;
	l->l_bound = 1;
	return 0;
}

int
pctx_cb_fini(pctx_t *p, struct lwp *l, pid_t lwpid)
{
	if (!l->l_bound)
		return 0;
	l->l_bound = 0;
	if (p->p_ops.po_fini_lwp != NULL)
		return p->p_ops.po_fini_lwp(p, l->l_proc->pr_pid, lwpid,
		    p->p_arg);
	return 0;
}

static void
lwp_set_ended(struct lwp *l)
{
	if (l->l_state == LWP_ENDED)
		return;
	l->l_state = LWP_ENDED;
	if (l->l_proc != NULL)
		l->l_proc->pr_nlive--;
}

/*
 * A thread ended (at its exit stop or its death report).  The last live
 * thread of a tracked process makes the exit callback.  (When a thread
 * of several calls exit(3), the kernel gives no sign, at its exit stop,
 * that the others will follow: it is reported as an lwp_exit, and the
 * exit callback names the last thread to end.)
 */
void
pctx_lwp_end(pctx_t *p, struct lwp *l, int status)
{
	struct proc *pr = l->l_proc;
	int last;

	if (l->l_state == LWP_ENDED || pr == NULL)
		return;
	last = pr->pr_nlive == 1;
	if (pr->pr_state == PR_TRACKED) {
		if (pctx_cb_fini(p, l, l->l_tid) != 0)
			pctx_fail(p);
		lwp_set_ended(l);
		if (!last) {
			if (p->p_ops.po_lwp_exit != NULL &&
			    p->p_ops.po_lwp_exit(p, pr->pr_pid, l->l_tid,
			    p->p_arg) != 0)
				pctx_fail(p);
		} else if (!pr->pr_exited) {
			pr->pr_exited = 1;
			if (p->p_ops.po_exit != NULL)
				p->p_ops.po_exit(p, pr->pr_pid, l->l_tid,
				    status, p->p_arg);
		}
	}
	lwp_set_ended(l);
	if (last)
		pctx_vfork_done(p, pr);
}

/*
 * Whether pr's threads not stopped are left attached, for the kernel to
 * detach when the caller ends (pctx_detach_at_exit): only at the last
 * release of a captured tree, when no process stays tracked.
 */
static int
left_at_exit(const pctx_t *p, const struct proc *pr)
{
	const struct proc *o;

	if (!p->p_atexit || p->p_created)
		return 0;
	if (p->p_final)
		return 1;
	for (o = p->p_procs; o != NULL; o = o->pr_next)
		if (o != pr && o->pr_state == PR_TRACKED)
			return 0;
	return 1;
}

/*
 * Stop controlling pr: fini_lwp for each thread and the release callback
 * when callbacks apply, then detach each thread (now if it is stopped,
 * else at the stop PTRACE_INTERRUPT brings, or when the caller ends).
 */
void
pctx_proc_release(pctx_t *p, struct proc *pr, int callbacks)
{
	struct lwp *l, *next;
	int leave;

	if (pr->pr_state == PR_TRACKED && callbacks && !pr->pr_exited) {
		for (l = pr->pr_lwps; l != NULL; l = l->l_next)
			if (l->l_state != LWP_ENDED && pctx_cb_fini(p, l,
			    l->l_tid) != 0)
				pctx_fail(p);
		if (p->p_ops.po_release != NULL)
			p->p_ops.po_release(p, pr->pr_pid, p->p_arg);
	}
	leave = left_at_exit(p, pr);
	pr->pr_state = PR_RELEASING;
	pctx_vfork_done(p, pr);
	for (l = pr->pr_lwps; l != NULL; l = next) {
		next = l->l_next;
		if (l->l_state == LWP_ENDED)
			continue;
		if (leave) {
			/* Stopped, it goes now; else when the caller ends. */
			if (l->l_stopped)
				(void)ptrace(PTRACE_DETACH, l->l_tid, NULL,
				    NULL);
			pctx_lwp_free(p, l);
		} else if (l->l_stopped) {
			pctx_lwp_detach(p, l, 0);
		} else if (l->l_state != LWP_NEW)
			(void)ptrace(PTRACE_INTERRUPT, l->l_tid, NULL, NULL);
		/* A NEW thread not yet stopped is detached at its stop. */
	}
	if (leave)
		pctx_proc_check_released(p, pr);
	/* pr may be gone now. */
}

void
pctx_release_all(pctx_t *p, int callbacks)
{
	struct proc *pr, *next;

	p->p_final = 1;
	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		if (pr->pr_state == PR_TRACKED)
			pctx_proc_release(p, pr, callbacks);
	}
	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		pctx_proc_check_released(p, pr);
	}
}
