/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pctx.c - the libpctx handle's small calls: the callbacks
 * (pctx_set_events, pctx_set_ops), pctx_pid, pctx_terminate, pctx_kill,
 * pctx_detach and pctx_release.  How the tree is controlled is written in
 * pctx_impl.h; the handle's life and its error handler are in lwp.c,
 * beneath the rest.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pctx_impl.h"

/* pctx_set_events' fork handler cannot ask to follow: report only. */
static int
sol_fork(pctx_t *p, pid_t pid, id_t lwpid, pid_t child, void *arg)
{
	if (p->p_solfork != NULL)
		p->p_solfork(p, pid, lwpid, child, arg);
	return 0;
}

PCTX_EXPORT int
pctx_set_events(pctx_t *p, ...)
{
	pctx_sysc_forkfn_t *solfork;
	struct pctx_ops ops;
	pctx_event_t ev;
	va_list ap;
	int rc = 0;

	if (p == NULL) {
		errno = EINVAL;
		return -1;
	}
	/* Staged: a failed call changes no callback. */
	ops = p->p_ops;
	solfork = p->p_solfork;
	va_start(ap, p);
	while ((ev = va_arg(ap, pctx_event_t)) != PCTX_NULL_EVENT) {
		switch (ev) {
		case PCTX_SYSC_EXEC_EVENT:
			ops.po_exec = va_arg(ap, pctx_sysc_execfn_t *);
			break;
		case PCTX_SYSC_FORK_EVENT:
			solfork = va_arg(ap, pctx_sysc_forkfn_t *);
			ops.po_fork = sol_fork;
			break;
		case PCTX_SYSC_EXIT_EVENT:
			ops.po_exit = va_arg(ap, pctx_sysc_exitfn_t *);
			break;
		case PCTX_SYSC_LWP_CREATE_EVENT:
			ops.po_lwp_create = va_arg(ap,
			    pctx_sysc_lwp_createfn_t *);
			break;
		case PCTX_INIT_LWP_EVENT:
			ops.po_init_lwp = va_arg(ap, pctx_init_lwpfn_t *);
			break;
		case PCTX_FINI_LWP_EVENT:
			ops.po_fini_lwp = va_arg(ap, pctx_fini_lwpfn_t *);
			break;
		case PCTX_SYSC_LWP_EXIT_EVENT:
			ops.po_lwp_exit = va_arg(ap,
			    pctx_sysc_lwp_exitfn_t *);
			break;
		default:
			pctx_err(p, "set_events", "unknown event type %x",
			    (unsigned)ev);
			rc = -1;
			goto out;
		}
	}
	p->p_ops = ops;
	p->p_solfork = solfork;
out:
	va_end(ap);
	if (rc != 0)
		errno = EINVAL;
	return rc;
}

PCTX_EXPORT int
pctx_set_ops(pctx_t *p, const struct pctx_ops *ops)
{
	if (p == NULL || ops == NULL) {
		errno = EINVAL;
		return -1;
	}
	p->p_ops = *ops;
	return 0;
}

PCTX_EXPORT int
pctx_set_idle(pctx_t *p, pctx_idlefn_t *fn)
{
	if (p == NULL) {
		errno = EINVAL;
		return -1;
	}
	p->p_idle = fn;
	return 0;
}

PCTX_EXPORT pid_t
pctx_pid(pctx_t *p)
{
	return p == NULL ? -1 : p->p_pid;
}

PCTX_EXPORT int
pctx_has_lwp(pctx_t *p, id_t lwpid)
{
	const struct lwp *l;

	if (p == NULL || (pid_t)lwpid <= 0)
		return 0;
	l = pctx_lwp_find(p, (pid_t)lwpid);
	return l != NULL && l->l_proc != NULL;
}

PCTX_EXPORT int
pctx_detach_at_exit(pctx_t *p)
{
	if (p == NULL || p->p_created) {
		errno = EINVAL;
		return -1;
	}
	p->p_atexit = 1;
	return 0;
}

PCTX_EXPORT void
pctx_terminate(pctx_t *p)
{
	uint64_t one = 1;
	int e = errno;

	if (p == NULL)
		return;
	p->p_terminate = 1;
	p->p_nterm++;
	(void)!write(p->p_evfd, &one, sizeof(one));
	errno = e;
}

PCTX_EXPORT int
pctx_kill(pctx_t *p, int sig)
{
	if (p == NULL || !p->p_created) {
		errno = ECHILD;
		return -1;
	}
	/* Reaped: its pid may be another process's by now. */
	if (p->p_rootdone) {
		errno = ESRCH;
		return -1;
	}
#ifdef SYS_pidfd_send_signal
	if (p->p_pidfd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, p->p_pidfd, sig,
		    NULL, 0);
#endif
	return kill(p->p_pid, sig);
}

PCTX_EXPORT int
pctx_detach(pctx_t *p)
{
	if (p == NULL) {
		errno = EINVAL;
		return -1;
	}
	memset(&p->p_ops, 0, sizeof(p->p_ops));
	pctx_release_all(p, 0);
	while (p->p_procs != NULL && pctx_drain(p, 1) >= 0)
		;
	return 0;
}

/*
 * Kill every tracked process of a created tree and silence them: the
 * release of a created command kills it.  Whether the command itself
 * was killed here.
 */
static int
kill_tree(pctx_t *p)
{
	struct proc *pr;
	int killed = 0;

	for (pr = p->p_procs; pr != NULL; pr = pr->pr_next)
		if (pr->pr_state == PR_TRACKED) {
			(void)kill(pr->pr_pid, SIGKILL);
			killed |= pr->pr_pid == p->p_pid;
		}
	/* Nothing more is reported to the client. */
	memset(&p->p_ops, 0, sizeof(p->p_ops));
	for (pr = p->p_procs; pr != NULL; pr = pr->pr_next)
		pr->pr_state = PR_RELEASING;
	return killed;
}

PCTX_EXPORT void
pctx_release(pctx_t *p)
{
	int killed = 0, st;

	if (p == NULL)
		return;
	if (p->p_created)
		killed = kill_tree(p);
	else
		pctx_release_all(p, 0);
	while (p->p_procs != NULL && pctx_drain(p, 1) >= 0)
		;
	/*
	 * The process is dropped once no thread of it is left attached,
	 * which can be before the command's own death report: reap the
	 * command killed here, or it stays a zombie of the caller.
	 */
	while (killed && !p->p_rootdone &&
	    waitpid(p->p_pid, &st, __WALL) < 0 && errno == EINTR)
		;
	pctx_free(p);
}
