/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dispatch.c - what each waitpid report of the tree means: the threads
 * and processes are kept (lwp.c) and the callbacks made.  loop.c's event
 * loop and pctx_wait hand every report here.
 *
 *	waitpid report		what it means here
 *	--------------		------------------
 *	exited, signaled	a thread's death report (on_death)
 *	CLONE, FORK, VFORK	the creator names a new thread (on_new)
 *	EXEC			a process has a new image (on_exec)
 *	EXIT			a thread ends, its counts complete
 *	STOP			a new thread's first stop, a group-stop or
 *				our PTRACE_INTERRUPT (on_event_stop)
 *	a signal		delivered unchanged
 *	a stop of a tid nobody named yet: held (on_unknown_stop), or
 *				let go when no process is tracked (let_go)
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pctx_impl.h"

/* A new process: po_fork says whether it is followed.  NULL: failed. */
static struct proc *
fork_proc(pctx_t *p, struct lwp *parent, pid_t child)
{
	struct proc *ppr = parent->l_proc, *pr;
	int follow = 0;

	if (ppr->pr_state == PR_TRACKED && p->p_ops.po_fork != NULL) {
		follow = p->p_ops.po_fork(p, ppr->pr_pid, parent->l_tid,
		    child, p->p_arg);
		if (follow < 0)
			pctx_fail(p);
	}
	pr = pctx_proc_add(p, child, follow > 0 ? PR_TRACKED : PR_RELEASING);
	if (pr == NULL) {
		pctx_err(p, "run", "out of memory");
		pctx_fail(p);
	}
	return pr;
}

/*
 * Whether child is a thread of parent's process: 1, 0, or -1 when child
 * no longer exists.  A null signal through tgkill says so without
 * reading /proc/<child>/status, which cost more than the rest of a new
 * thread's handling; /proc decides only when the kernel refuses the
 * signal (EPERM).  Only when tgkill finds no such thread of the process
 * does a second null signal ask whether child is anywhere.
 */
static int
same_group(const struct lwp *parent, pid_t child)
{
	pid_t tgid = parent->l_proc->pr_pid;

	if (syscall(SYS_tgkill, tgid, child, 0) == 0)
		return 1;
	if (errno == ESRCH)
		return kill(child, 0) != 0 && errno == ESRCH ? -1 : 0;
	if (errno != EPERM)
		return 0;
	return pctx_status_field(child, "Tgid") == (long)tgid;
}

/* The creator's event names a new thread or process. */
static void
on_new(pctx_t *p, struct lwp *parent, int event, pid_t child)
{
	struct proc *pr;
	struct lwp *l;

	l = pctx_lwp_find(p, child);
	if (l != NULL && l->l_proc != NULL)
		return;		/* found while capturing */
	/*
	 * clone(2) without CLONE_THREAD makes a process, whatever its exit
	 * signal; ptrace reports it as a fork only for SIGCHLD.  A thread
	 * found while capturing can have run, ended and been reaped already
	 * (the reports of two threads come in no set order): made anew
	 * here, it would wait for a stop that never comes.
	 */
	if (event == PTRACE_EVENT_CLONE) {
		int g = same_group(parent, child);

		if (g < 0 && l == NULL)
			return;
		if (g != 1)
			event = PTRACE_EVENT_FORK;
	}
	if (event == PTRACE_EVENT_CLONE)
		pr = parent->l_proc;
	else if ((pr = fork_proc(p, parent, child)) == NULL)
		return;
	if (l == NULL) {
		if ((l = pctx_lwp_add(p, child, pr, LWP_NEW)) == NULL) {
			pctx_err(p, "run", "out of memory");
			pctx_fail(p);
			return;
		}
	} else {
		pctx_lwp_link(pr, l);
	}
	if (pr->pr_state == PR_TRACKED) {
		if (pctx_cb_init(p, l) != 0)
			pctx_fail(p);
		else if (event == PTRACE_EVENT_CLONE &&
		    p->p_ops.po_lwp_create != NULL &&
		    p->p_ops.po_lwp_create(p, pr->pr_pid, child,
		    p->p_arg) != 0)
			pctx_fail(p);
	}
	if (l->l_seen) {
		l->l_state = LWP_LIVE;
		pctx_lwp_resume(p, l, 0);
	}
}

/* The process of l started a new image; l has its pid now. */
static void
on_exec(pctx_t *p, struct lwp *l, pid_t former)
{
	struct proc *pr = l->l_proc;
	struct lwp *o, *next;
	char cmd[CMDLEN + 1];
	int r = 0;

	/* Threads killed by the exec that did not stop at their exit. */
	for (o = pr->pr_lwps; o != NULL; o = next) {
		next = o->l_next;
		if (o != l && o->l_state != LWP_ENDED)
			pctx_lwp_end(p, o, 0);
	}
	/* The old leader is gone for good: its tid is l's now. */
	for (o = pr->pr_lwps; o != NULL; o = next) {
		next = o->l_next;
		if (o != l && o->l_tid == pr->pr_pid)
			pctx_lwp_free(p, o);
	}
	if (l->l_tid != pr->pr_pid)
		pctx_lwp_rekey(p, l, pr->pr_pid);
	pctx_setid_note(p, "run", pr->pr_pid);
	if (pr->pr_state != PR_TRACKED)
		return;
	if (pctx_cb_fini(p, l, former) != 0)
		pctx_fail(p);
	pctx_read_cmdline(pr->pr_pid, 1, cmd, sizeof(cmd));
	if (p->p_ops.po_exec != NULL)
		r = p->p_ops.po_exec(p, pr->pr_pid, l->l_tid, cmd, p->p_arg);
	if (r < 0) {
		pctx_fail(p);
	} else if (r > 0) {
		pr->pr_state = PR_RELEASING;	/* detached on resume */
	} else if (pctx_cb_init(p, l) != 0) {
		pctx_fail(p);
	}
	pctx_vfork_done(p, pr);
}

/* A stop of a thread nobody announced yet: hold it. */
static void
on_unknown_stop(pctx_t *p, pid_t tid)
{
	struct lwp *l;

	if ((l = pctx_lwp_add(p, tid, NULL, LWP_NEW)) == NULL) {
		pctx_err(p, "run", "out of memory");
		pctx_fail(p);
		return;
	}
	l->l_seen = 1;
	l->l_stopped = 1;
}

/*
 * A stop of a thread while no process is under control: a thread that
 * made us its tracer with PTRACE_TRACEME after its process was let go
 * (pctx_detach), as a program run under a debugger does.  No report will
 * ever name it, so held it would never run again: let it go, its signal
 * delivered, but for the SIGTRAP the kernel sends such a thread at its
 * exec (SI_USER, from itself), of which it would die.
 */
static void
let_go(pid_t tid, int status)
{
	siginfo_t si;
	int sig = WSTOPSIG(status);

	if ((unsigned)status >> 16 != 0)
		sig = 0;
	else if (sig == SIGTRAP &&
	    ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) == 0 &&
	    si.si_code == SI_USER && si.si_pid == tid)
		sig = 0;
	(void)ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)sig);
}

/* The death report of thread tid (l: NULL when not ours). */
static void
on_death(pctx_t *p, struct lwp *l, pid_t tid, int status)
{
	struct proc *pr;

	if (p->p_created && tid == p->p_pid) {
		p->p_rootdone = 1;
		p->p_rootstatus = status;
	}
	if (l == NULL)
		return;
	pr = l->l_proc;
	pctx_lwp_end(p, l, status);
	pctx_lwp_free(p, l);
	if (pr != NULL && pr->pr_lwps == NULL)
		pctx_proc_drop(p, pr);
	else if (pr != NULL)
		pctx_proc_check_released(p, pr);
}

/*
 * Whether parent, which made child with vfork, stays stopped until the
 * child execs or ends: it could not run before, and resuming it now
 * would only put it to sleep in the kernel, to be woken again then.
 * Only for a child followed: the others are let go at their first stop,
 * unseen after.
 */
static int
vfork_hold(pctx_t *p, struct lwp *parent, pid_t child)
{
	struct lwp *c = pctx_lwp_find(p, child);

	if (c == NULL || c->l_proc == NULL || c->l_proc == parent->l_proc ||
	    c->l_proc->pr_state != PR_TRACKED ||
	    parent->l_proc->pr_state != PR_TRACKED ||
	    c->l_state == LWP_ENDED)
		return 0;
	c->l_proc->pr_vparent = parent->l_tid;
	return 1;
}

/*
 * A PTRACE_EVENT_STOP of l, stopped by signal sig: the signal to resume
 * it with, or -1 to leave it as it is.
 */
static int
on_event_stop(pctx_t *p, struct lwp *l, pid_t tid, int sig)
{
	if (l->l_state == LWP_NEW) {
		/* Its first stop: resume once its creator spoke. */
		l->l_seen = 1;
		if (l->l_proc == NULL)
			return -1;
		l->l_state = LWP_LIVE;
		return 0;
	}
	if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	    sig == SIGTTOU) {
		/* A group-stop: stay stopped as without us. */
		if (l->l_proc != NULL &&
		    l->l_proc->pr_state == PR_RELEASING) {
			pctx_lwp_detach(p, l, 0);
		} else {
			l->l_stopped = 0;
			(void)ptrace(PTRACE_LISTEN, tid, NULL, NULL);
		}
		return -1;
	}
	return 0;	/* our PTRACE_INTERRUPT */
}

/*
 * A ptrace-stop of l (event, signal sig, msg the former tid of an exec):
 * the signal to resume it with, or -1 to leave it as it is.
 */
static int
on_stop(pctx_t *p, struct lwp *l, pid_t tid, int event, int sig,
    unsigned long msg)
{
	switch (event) {
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) != 0 ||
		    l->l_proc == NULL)
			return 0;
		on_new(p, l, event, (pid_t)msg);
		return event == PTRACE_EVENT_VFORK &&
		    vfork_hold(p, l, (pid_t)msg) ? -1 : 0;
	case PTRACE_EVENT_EXEC:
		if (l->l_proc != NULL)
			on_exec(p, l, (pid_t)msg);
		return 0;
	case PTRACE_EVENT_EXIT:
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) != 0)
			msg = 0;
		pctx_lwp_end(p, l, (int)msg);
		return 0;
	case PTRACE_EVENT_STOP:
		return on_event_stop(p, l, tid, sig);
	case 0:
		return sig;	/* a signal for the thread: pass it on */
	default:
		return 0;
	}
}

/*
 * Whether l, reporting an exec under tid, is the only thread of its
 * process that can have made it: the process's leader and its one thread
 * not ended (a thread that exists unannounced has never run).  Then the
 * former tid is tid, without asking the kernel.
 */
static int
lone_thread(const struct lwp *l, pid_t tid)
{
	return l != NULL && l->l_proc != NULL && l->l_tid == tid &&
	    l->l_proc->pr_pid == tid && l->l_state == LWP_LIVE &&
	    l->l_proc->pr_nlive == 1;
}

/* One waitpid report (pctx_impl.h). */
void
pctx_dispatch(pctx_t *p, pid_t tid, int status)
{
	struct lwp *l = pctx_lwp_find(p, tid);
	unsigned long msg = 0;
	int event, sig;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		on_death(p, l, tid, status);
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	event = (unsigned)status >> 16;
	if (event == PTRACE_EVENT_EXEC && lone_thread(l, tid)) {
		msg = tid;
	} else if (event == PTRACE_EVENT_EXEC) {
		/* Reported under the pid; the thread is the former tid. */
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) != 0)
			msg = tid;
		if ((pid_t)msg != tid && pctx_lwp_find(p, (pid_t)msg) != NULL)
			l = pctx_lwp_find(p, (pid_t)msg);
	}
	if (l == NULL && p->p_procs == NULL) {
		let_go(tid, status);
		return;
	}
	if (l == NULL) {
		on_unknown_stop(p, tid);
		return;
	}
	l->l_stopped = 1;
	if ((sig = on_stop(p, l, tid, event, WSTOPSIG(status), msg)) < 0)
		return;
	/* The callbacks may have detached or freed it. */
	if ((l = pctx_lwp_find(p, tid)) != NULL && l->l_stopped &&
	    l->l_proc != NULL)
		pctx_lwp_resume(p, l, sig);
}
