/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loop.c - libpctx's event loop: every waitpid report of the tree goes
 * through dispatch, which keeps the threads and processes (lwp.c) and
 * makes the callbacks; pctx_run polls SIGCHLD, pctx_terminate and the
 * tick timer; pctx_wait waits for a created command once the run is over.
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
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
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

/* One waitpid report. */
static void
dispatch(pctx_t *p, pid_t tid, int status)
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

/*
 * The reports waiting, the first waited for when block: how many, or -1
 * with errno.  At most DRAIN_MAX, so that a process making threads
 * without end cannot hold off the ticks and pctx_terminate: p_more then
 * says that more may be waiting (their SIGCHLD may have been read), and
 * pctx_run looks at its timer and comes back without sleeping.
 */
#define DRAIN_MAX	256

int
pctx_drain(pctx_t *p, int block)
{
	int status, n = 0;
	pid_t tid;

	for (p->p_more = 0;; ) {
		if (n == DRAIN_MAX) {
			p->p_more = 1;
			return n;
		}
		tid = waitpid(-1, &status, __WALL | (block ? 0 : WNOHANG));
		if (tid == 0)
			return n;
		if (tid < 0) {
			if (errno == EINTR && !block)
				continue;
			return errno == EINTR ? n : -1;
		}
		dispatch(p, tid, status);
		n++;
		block = 0;
	}
}

static void
tick_all(pctx_t *p)
{
	struct proc *pr, *next;
	struct lwp *l;

	for (pr = p->p_procs; pr != NULL; pr = pr->pr_next) {
		if (pr->pr_state != PR_TRACKED || pr->pr_exited)
			continue;
		for (l = pr->pr_lwps; l != NULL; l = l->l_next)
			if (l->l_bound && l->l_state != LWP_ENDED &&
			    p->p_tick != NULL &&
			    p->p_tick(p, pr->pr_pid, l->l_tid, p->p_arg) != 0)
				pctx_fail(p);
		pr->pr_ticks++;
	}
	if (p->p_nsamples == 0)
		return;
	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		if (pr->pr_state == PR_TRACKED && !pr->pr_exited &&
		    pr->pr_ticks >= p->p_nsamples)
			pctx_proc_release(p, pr, 1);
	}
}

static int
timer_start(uint_t msec)
{
	struct itimerspec its;
	struct timespec now;
	int fd;

	if ((fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK |
	    TFD_CLOEXEC)) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	its.it_interval.tv_sec = msec / 1000;
	its.it_interval.tv_nsec = (long)(msec % 1000) * 1000000L;
	its.it_value.tv_sec = now.tv_sec + its.it_interval.tv_sec;
	its.it_value.tv_nsec = now.tv_nsec + its.it_interval.tv_nsec;
	if (its.it_value.tv_nsec >= 1000000000L) {
		its.it_value.tv_sec++;
		its.it_value.tv_nsec -= 1000000000L;
	}
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Block SIGCHLD (the old mask in *old) and return a signalfd for it; -1
 * with errno and the mask as it was.
 */
static int
chld_open(sigset_t *old)
{
	sigset_t chld;
	int sfd, e;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, old);
	if ((sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) {
		e = errno;
		pthread_sigmask(SIG_SETMASK, old, NULL);
		errno = e;
	}
	return sfd;
}

/*
 * pctx_run's descriptors: fds[0] the SIGCHLD signalfd, fds[1] the
 * pctx_terminate eventfd, fds[2] the tick timer (-1 without ticks).
 * 0, or -1 with errno (said why) and nothing left open.
 */
static int
loop_open(pctx_t *p, uint_t msec, struct pollfd fds[3], sigset_t *old)
{
	int sfd, tfd = -1, e;

	if ((sfd = chld_open(old)) < 0 ||
	    (msec > 0 && (tfd = timer_start(msec)) < 0)) {
		e = errno;
		pctx_err(p, "run", "cannot set up the event loop: %s",
		    strerror(e));
		if (sfd >= 0) {
			close(sfd);
			pthread_sigmask(SIG_SETMASK, old, NULL);
		}
		errno = e;
		return -1;
	}
	fds[0].fd = sfd;
	fds[1].fd = p->p_evfd;
	fds[2].fd = tfd;
	fds[0].events = fds[1].events = fds[2].events = POLLIN;
	return 0;
}

static void
loop_close(struct pollfd fds[3], const sigset_t *old)
{
	close(fds[0].fd);
	if (fds[2].fd >= 0)
		close(fds[2].fd);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * Discovery: init_lwp for the threads present at the start, which are
 * then resumed.  A failed callback said why itself, as everywhere else.
 */
static void
discover(pctx_t *p)
{
	struct proc *pr;
	struct lwp *l, *next;

	for (pr = p->p_procs; pr != NULL && !p->p_failed; pr = pr->pr_next)
		for (l = pr->pr_lwps; l != NULL; l = next) {
			next = l->l_next;
			if (!l->l_bound && l->l_state != LWP_ENDED &&
			    pctx_cb_init(p, l) != 0) {
				pctx_fail(p);
				break;
			}
			if (l->l_stopped)
				pctx_lwp_resume(p, l, 0);
		}
}

/*
 * Wait for something to do: a report (SIGCHLD), a pctx_terminate or a
 * tick, which is made here; not at all when reports may be waiting
 * (p_more).  The idle callback first (pctx_set_idle).  0, or -1 when
 * poll failed (said why).
 */
static int
loop_wait(pctx_t *p, struct pollfd fds[3])
{
	struct signalfd_siginfo si;
	uint64_t junk;

	if (p->p_idle != NULL)
		p->p_idle(p, p->p_arg);
	if (poll(fds, fds[2].fd >= 0 ? 3 : 2, p->p_more ? 0 : -1) < 0) {
		if (errno == EINTR)
			return 0;
		pctx_err(p, "run", "poll: %s", strerror(errno));
		pctx_fail(p);
		return -1;
	}
	/* SIGCHLD is pending once at most: one read takes it. */
	if (fds[0].revents & POLLIN)
		(void)!read(fds[0].fd, &si, sizeof(si));
	if (fds[1].revents & POLLIN)
		(void)!read(p->p_evfd, &junk, sizeof(junk));
	if (fds[2].fd >= 0 && (fds[2].revents & POLLIN) &&
	    read(fds[2].fd, &junk, sizeof(junk)) > 0 && !p->p_terminate) {
		/* Missed expirations are not made up for. */
		pctx_drain(p, 0);
		tick_all(p);
	}
	return 0;
}

PCTX_EXPORT int
pctx_run(pctx_t *p, uint_t msec, uint_t nsamples, pctx_tickfn_t *tick)
{
	struct pollfd fds[3];
	sigset_t old;

	if (p == NULL) {
		errno = EINVAL;
		return -1;
	}
	p->p_tick = tick;
	p->p_nsamples = msec ? nsamples : 0;
	p->p_ticking = msec > 0;
	if (loop_open(p, msec, fds, &old) != 0)
		return -1;
	discover(p);
	while (p->p_procs != NULL && !p->p_failed) {
		if (p->p_terminate && !p->p_terminated) {
			/* A last tick, then let every process go. */
			p->p_terminated = 1;
			if (p->p_ticking)
				tick_all(p);
			pctx_release_all(p, 1);
			continue;
		}
		if (pctx_drain(p, 0) < 0 && errno == ECHILD &&
		    p->p_procs != NULL) {
			pctx_err(p, "run", "lost control of every process");
			pctx_fail(p);
			break;
		}
		if (p->p_procs == NULL || p->p_failed)
			break;
		if (p->p_terminate && !p->p_terminated)
			continue;
		if (loop_wait(p, fds) != 0)
			break;
	}
	loop_close(fds, &old);
	/* Terminations from now on are pctx_wait's to report. */
	p->p_termseen = p->p_nterm;
	return p->p_failed ? -1 : 0;
}

/*
 * Reap what is ready until the created command is reaped.  Processes
 * still under control (pctx_run failed, or was not called) report too,
 * and are answered on the way: a stopped thread left alone would never
 * end, nor would the command if it is one of them.  So do threads that
 * ended while attached, whose processes were let go since: the command
 * cannot be reaped before them.  1 once the command is reaped, 0 when
 * nothing more is ready, -1 with errno.
 */
static int
reap_root(pctx_t *p)
{
	pid_t r;
	int st;

	while (!p->p_rootdone) {
		r = waitpid(p->p_procs != NULL || p->p_nhashed > 0 ? -1 :
		    p->p_pid, &st, __WALL | WNOHANG);
		if (r == 0)
			return 0;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		dispatch(p, r, st);
	}
	return 1;
}

/*
 * pctx_wait's loop, SIGCHLD blocked and read from sfd: 0 once the command
 * is reaped, -1 with errno, EINTR for a pctx_terminate pctx_run did not
 * answer (a signal handler's: the caller acts on it and waits again).
 */
static int
wait_loop(pctx_t *p, int sfd)
{
	struct signalfd_siginfo si;
	struct pollfd fds[2];
	uint64_t junk;
	int r;

	fds[0].fd = sfd;
	fds[1].fd = p->p_evfd;
	fds[0].events = fds[1].events = POLLIN;
	for (;;) {
		/* Empty both before looking: what comes later wakes poll. */
		while (read(sfd, &si, sizeof(si)) > 0)
			;
		(void)!read(p->p_evfd, &junk, sizeof(junk));
		if ((r = reap_root(p)) != 0)
			return r > 0 ? 0 : -1;
		if (p->p_nterm != p->p_termseen) {
			p->p_termseen = p->p_nterm;
			errno = EINTR;
			return -1;
		}
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			return -1;
	}
}

/* Threads held stopped (a failed discovery) go on. */
static void
resume_held(pctx_t *p)
{
	struct lwp *l, *next;
	int i;

	for (i = 0; i < HASHSZ; i++)
		for (l = p->p_hash[i]; l != NULL; l = next) {
			next = l->l_hnext;
			if (l->l_stopped && l->l_proc != NULL)
				pctx_lwp_resume(p, l, 0);
		}
}

/* Wait until the created command is reaped: 0, or -1 with errno. */
static int
wait_root(pctx_t *p)
{
	struct pctx_ops ops;
	sigset_t old;
	int sfd, r, e;

	if ((sfd = chld_open(&old)) < 0)
		return -1;
	/* No callbacks: the client's event loop is over. */
	ops = p->p_ops;
	memset(&p->p_ops, 0, sizeof(p->p_ops));
	resume_held(p);
	r = wait_loop(p, sfd);
	e = errno;
	p->p_ops = ops;
	close(sfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0)
		errno = e;
	return r;
}

PCTX_EXPORT int
pctx_wait(pctx_t *p, int *status)
{
	if (p == NULL || !p->p_created) {
		errno = ECHILD;
		return -1;
	}
	if (!p->p_rootdone && wait_root(p) != 0)
		return -1;
	if (status != NULL)
		*status = p->p_rootstatus;
	return 0;
}
