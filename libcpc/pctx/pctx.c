/*
 * pctx.c - process contexts (libpctx) on ptrace.
 *
 * Every thread of the tree is a tracee of the calling thread, seized with
 * PTRACE_SEIZE and the options below, so that:
 *
 *  - a new thread or process is announced by its creator's CLONE, FORK or
 *    VFORK event and starts in a ptrace-stop of its own; init_lwp runs
 *    before it is resumed, so it never runs user code uncounted.  The two
 *    stops arrive in either order: a stop of an unknown tid is held (it
 *    stays stopped) until its creator's event names it.
 *  - PTRACE_EVENT_EXIT stops a thread at its end with its counts complete;
 *    a thread killed with SIGKILL may skip that stop, and is then ended at
 *    its death report (its counters stay readable after it is reaped).
 *  - PTRACE_EVENT_EXEC comes after the other threads of the process were
 *    killed and, for a non-leader exec, after the thread took the pid.
 *  - signal-delivery-stops deliver the signal unchanged; group-stops are
 *    left with PTRACE_LISTEN, so job control works as without a tracer.
 *
 * Ticks are a timerfd in the controller: reading a thread's counters does
 * not need the thread stopped.  The loop polls the timer, a signalfd for
 * SIGCHLD (blocked while it runs) and an eventfd for pctx_terminate.
 *
 * Releasing a process: PTRACE_INTERRUPT each thread and detach it at its
 * next stop (with the signal of a signal-delivery-stop).
 *
 * A created command outlives its tracing (release, exec, nsamples), and it
 * may be reaped while followed children are still tracked.  Two things
 * keep it tied to the caller all the same:
 *
 *  - a pidfd names it for pctx_kill: after the reap, pidfd_send_signal
 *    says ESRCH where kill(2) could hit a process that reused the pid;
 *  - PR_SET_PDEATHSIG kills it when the caller's thread ends, as
 *    PTRACE_O_EXITKILL does only while it is traced.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

#include "cpc_impl.h"
#include "libpctx.h"

#define PCTX_OPTS	(PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | \
			 PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | \
			 PTRACE_O_TRACEEXIT)
#define HASHSZ		1024
#define CMDLEN		80

enum lwp_state {
	LWP_NEW,		/* announced or seen, not yet running */
	LWP_LIVE,
	LWP_ENDED,		/* fini done, waiting for its death report */
};

struct lwp {
	pid_t		 l_tid;
	enum lwp_state	 l_state;
	int		 l_stopped;	/* in a ptrace-stop, not resumed */
	int		 l_seen;	/* NEW: its first stop arrived */
	int		 l_bound;	/* init_lwp done, fini_lwp owed */
	struct proc	*l_proc;	/* NULL: creator not known yet */
	struct lwp	*l_next;	/* the process's threads */
	struct lwp	*l_hnext;
};

enum proc_state {
	PR_TRACKED,		/* callbacks are made */
	PR_RELEASING,		/* being detached, silently */
};

struct proc {
	pid_t		 pr_pid;
	enum proc_state	 pr_state;
	unsigned	 pr_ticks;
	int		 pr_exited;	/* the exit callback was made */
	struct lwp	*pr_lwps;
	struct proc	*pr_next;
};

struct pctx {
	pid_t		 p_pid;
	int		 p_created;
	void		*p_arg;
	int		 p_verbose;
	pctx_errfn_t	*p_errfn;
	struct pctx_ops	 p_ops;
	pctx_sysc_forkfn_t *p_solfork;
	pctx_tickfn_t	*p_tick;
	unsigned	 p_nsamples;
	struct proc	*p_procs;
	struct lwp	*p_hash[HASHSZ];
	int		 p_evfd;
	volatile sig_atomic_t p_terminate;
	volatile sig_atomic_t p_nterm;	/* pctx_terminate calls */
	int		 p_termseen;	/* p_nterm that pctx_run answered */
	int		 p_terminated;
	int		 p_failed;
	int		 p_ticking;
	int		 p_rootdone;	/* created command reaped */
	int		 p_rootstatus;
	int		 p_pidfd;	/* the created command, or -1 */
};

static void
pctx_err(pctx_t *p, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
pctx_err(pctx_t *p, const char *fn, const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	if (p != NULL && p->p_errfn != NULL) {
		p->p_errfn(fn, fmt, ap);
	} else {
		fprintf(stderr, "libpctx: pctx_%s: ", fn);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
	errno = e;
}

/* Threads: a hash by tid, and a list per process in creation order. */

static struct lwp *
lwp_find(pctx_t *p, pid_t tid)
{
	struct lwp *l;

	for (l = p->p_hash[tid % HASHSZ]; l != NULL; l = l->l_hnext)
		if (l->l_tid == tid)
			return l;
	return NULL;
}

static void
lwp_link(struct proc *pr, struct lwp *l)
{
	struct lwp **lp;

	for (lp = &pr->pr_lwps; *lp != NULL; lp = &(*lp)->l_next)
		;
	*lp = l;
	l->l_next = NULL;
	l->l_proc = pr;
}

static void
lwp_unlink(struct lwp *l)
{
	struct lwp **lp;

	if (l->l_proc == NULL)
		return;
	for (lp = &l->l_proc->pr_lwps; *lp != NULL; lp = &(*lp)->l_next)
		if (*lp == l) {
			*lp = l->l_next;
			break;
		}
	l->l_proc = NULL;
	l->l_next = NULL;
}

static struct lwp *
lwp_add(pctx_t *p, pid_t tid, struct proc *pr, enum lwp_state st)
{
	struct lwp *l;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return NULL;
	l->l_tid = tid;
	l->l_state = st;
	l->l_hnext = p->p_hash[tid % HASHSZ];
	p->p_hash[tid % HASHSZ] = l;
	if (pr != NULL)
		lwp_link(pr, l);
	return l;
}

static void
lwp_free(pctx_t *p, struct lwp *l)
{
	struct lwp **lp;

	lwp_unlink(l);
	for (lp = &p->p_hash[l->l_tid % HASHSZ]; *lp != NULL;
	    lp = &(*lp)->l_hnext)
		if (*lp == l) {
			*lp = l->l_hnext;
			break;
		}
	free(l);
}

static void
lwp_rekey(pctx_t *p, struct lwp *l, pid_t tid)
{
	struct lwp **lp;

	for (lp = &p->p_hash[l->l_tid % HASHSZ]; *lp != NULL;
	    lp = &(*lp)->l_hnext)
		if (*lp == l) {
			*lp = l->l_hnext;
			break;
		}
	l->l_tid = tid;
	l->l_hnext = p->p_hash[tid % HASHSZ];
	p->p_hash[tid % HASHSZ] = l;
}

static struct proc *
proc_add(pctx_t *p, pid_t pid, enum proc_state st)
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

/* Forget a process; its ended threads wait in the hash for their reap. */
static void
proc_drop(pctx_t *p, struct proc *pr)
{
	struct proc **pp;

	while (pr->pr_lwps != NULL)
		lwp_unlink(pr->pr_lwps);
	for (pp = &p->p_procs; *pp != NULL; pp = &(*pp)->pr_next)
		if (*pp == pr) {
			*pp = pr->pr_next;
			break;
		}
	free(pr);
}

static int
proc_nlive(const struct proc *pr)
{
	const struct lwp *l;
	int n = 0;

	for (l = pr->pr_lwps; l != NULL; l = l->l_next)
		n += l->l_state != LWP_ENDED;
	return n;
}

/* A released process is done when none of its threads is attached. */
static void
proc_check_released(pctx_t *p, struct proc *pr)
{
	if (pr->pr_state == PR_RELEASING && proc_nlive(pr) == 0)
		proc_drop(p, pr);
}

/* ptrace actions on a stopped thread. */

static void
lwp_detach(pctx_t *p, struct lwp *l, int sig)
{
	struct proc *pr = l->l_proc;

	(void)ptrace(PTRACE_DETACH, l->l_tid, NULL, (void *)(long)sig);
	lwp_free(p, l);
	if (pr != NULL)
		proc_check_released(p, pr);
}

static void
lwp_resume(pctx_t *p, struct lwp *l, int sig)
{
	if (l->l_proc != NULL && l->l_proc->pr_state == PR_RELEASING &&
	    l->l_state != LWP_ENDED) {
		lwp_detach(p, l, sig);
		return;
	}
	l->l_stopped = 0;
	/* ESRCH: killed meanwhile; its death report follows. */
	(void)ptrace(PTRACE_CONT, l->l_tid, NULL, (void *)(long)sig);
}

/* Callbacks. */

static int
cb_init(pctx_t *p, struct lwp *l)
{
	if (p->p_ops.po_init_lwp != NULL &&
	    p->p_ops.po_init_lwp(p, l->l_proc->pr_pid, l->l_tid,
	    p->p_arg) != 0)
		return -1;
	l->l_bound = 1;
	return 0;
}

static int
cb_fini(pctx_t *p, struct lwp *l, pid_t lwpid)
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
fail(pctx_t *p)
{
	p->p_failed = 1;
}

/*
 * A thread ended (at its exit stop or its death report).  The last live
 * thread of a tracked process makes the exit callback.  (When a thread
 * of several calls exit(3), the kernel gives no sign, at its exit stop,
 * that the others will follow: it is reported as an lwp_exit, and the
 * exit callback names the last thread to end.)
 */
static void
lwp_end(pctx_t *p, struct lwp *l, int status)
{
	struct proc *pr = l->l_proc;
	int last;

	if (l->l_state == LWP_ENDED || pr == NULL)
		return;
	last = proc_nlive(pr) == 1;
	if (pr->pr_state == PR_TRACKED) {
		if (cb_fini(p, l, l->l_tid) != 0)
			fail(p);
		l->l_state = LWP_ENDED;
		if (!last) {
			if (p->p_ops.po_lwp_exit != NULL &&
			    p->p_ops.po_lwp_exit(p, pr->pr_pid, l->l_tid,
			    p->p_arg) != 0)
				fail(p);
		} else if (!pr->pr_exited) {
			pr->pr_exited = 1;
			if (p->p_ops.po_exit != NULL)
				p->p_ops.po_exit(p, pr->pr_pid, l->l_tid,
				    status, p->p_arg);
		}
	}
	l->l_state = LWP_ENDED;
}

/* "arg0 arg1 ..." of a process, at most CMDLEN characters. */
static void
read_cmdline(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, i;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	buf[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
}

/*
 * An unprivileged tracer makes the kernel run a set-id program without
 * its privileges.  Say so: the program may behave differently.
 */
static void
setid_note(pctx_t *p, const char *fn, pid_t pid)
{
	char path[64], exe[4096];
	struct stat st;
	ssize_t n;

	if (geteuid() == 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &st) != 0)
		return;
	if (((st.st_mode & S_ISUID) == 0 || st.st_uid == geteuid()) &&
	    ((st.st_mode & S_ISGID) == 0 || st.st_gid == getegid()))
		return;
	if ((n = readlink(path, exe, sizeof(exe) - 1)) < 0)
		n = 0;
	exe[n] = '\0';
	pctx_err(p, fn, "note: '%s' is set-%s-ID: under tracing it runs "
	    "without its privileges, as under a debugger", exe,
	    (st.st_mode & S_ISUID) ? "user" : "group");
}

static long	status_field(pid_t tid, const char *key);

/* The creator's event names a new thread or process. */
static void
on_new(pctx_t *p, struct lwp *parent, int event, pid_t child)
{
	struct proc *ppr = parent->l_proc, *pr;
	struct lwp *l;
	int follow = 0;

	l = lwp_find(p, child);
	if (l != NULL && l->l_proc != NULL)
		return;		/* found while capturing */
	/*
	 * clone(2) without CLONE_THREAD makes a process, whatever its exit
	 * signal; ptrace reports it as a fork only for SIGCHLD.
	 */
	if (event == PTRACE_EVENT_CLONE &&
	    status_field(child, "Tgid") == (long)child)
		event = PTRACE_EVENT_FORK;
	if (event == PTRACE_EVENT_CLONE) {
		pr = ppr;
	} else {
		if (ppr->pr_state == PR_TRACKED && p->p_ops.po_fork != NULL) {
			follow = p->p_ops.po_fork(p, ppr->pr_pid,
			    parent->l_tid, child, p->p_arg);
			if (follow < 0)
				fail(p);
		}
		pr = proc_add(p, child, follow > 0 ? PR_TRACKED :
		    PR_RELEASING);
		if (pr == NULL) {
			pctx_err(p, "run", "out of memory");
			fail(p);
			return;
		}
	}
	if (l == NULL) {
		if ((l = lwp_add(p, child, pr, LWP_NEW)) == NULL) {
			pctx_err(p, "run", "out of memory");
			fail(p);
			return;
		}
	} else {
		lwp_link(pr, l);
	}
	if (pr->pr_state == PR_TRACKED) {
		if (cb_init(p, l) != 0)
			fail(p);
		else if (event == PTRACE_EVENT_CLONE &&
		    p->p_ops.po_lwp_create != NULL &&
		    p->p_ops.po_lwp_create(p, pr->pr_pid, child,
		    p->p_arg) != 0)
			fail(p);
	}
	if (l->l_seen) {
		l->l_state = LWP_LIVE;
		lwp_resume(p, l, 0);
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
			lwp_end(p, o, 0);
	}
	/* The old leader is gone for good: its tid is l's now. */
	for (o = pr->pr_lwps; o != NULL; o = next) {
		next = o->l_next;
		if (o != l && o->l_tid == pr->pr_pid)
			lwp_free(p, o);
	}
	if (l->l_tid != pr->pr_pid)
		lwp_rekey(p, l, pr->pr_pid);
	setid_note(p, "run", pr->pr_pid);
	if (pr->pr_state != PR_TRACKED)
		return;
	if (cb_fini(p, l, former) != 0)
		fail(p);
	read_cmdline(pr->pr_pid, cmd, sizeof(cmd));
	if (p->p_ops.po_exec != NULL)
		r = p->p_ops.po_exec(p, pr->pr_pid, l->l_tid, cmd, p->p_arg);
	if (r < 0) {
		fail(p);
	} else if (r > 0) {
		pr->pr_state = PR_RELEASING;	/* detached on resume */
	} else if (cb_init(p, l) != 0) {
		fail(p);
	}
}

/* A stop of a thread nobody announced yet: hold it. */
static void
on_unknown_stop(pctx_t *p, pid_t tid)
{
	struct lwp *l;

	if ((l = lwp_add(p, tid, NULL, LWP_NEW)) == NULL) {
		pctx_err(p, "run", "out of memory");
		fail(p);
		return;
	}
	l->l_seen = 1;
	l->l_stopped = 1;
}

/* One waitpid report. */
static void
dispatch(pctx_t *p, pid_t tid, int status)
{
	struct lwp *l = lwp_find(p, tid);
	unsigned long msg = 0;
	int event, sig;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		struct proc *pr;

		if (p->p_created && tid == p->p_pid) {
			p->p_rootdone = 1;
			p->p_rootstatus = status;
		}
		if (l == NULL)
			return;
		pr = l->l_proc;
		lwp_end(p, l, status);
		lwp_free(p, l);
		if (pr != NULL && pr->pr_lwps == NULL)
			proc_drop(p, pr);
		else if (pr != NULL)
			proc_check_released(p, pr);
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	sig = WSTOPSIG(status);
	event = (unsigned)status >> 16;
	if (event == PTRACE_EVENT_EXEC) {
		/* Reported under the pid; the thread is the former tid. */
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) != 0)
			msg = tid;
		if ((pid_t)msg != tid && lwp_find(p, (pid_t)msg) != NULL)
			l = lwp_find(p, (pid_t)msg);
	}
	if (l == NULL) {
		on_unknown_stop(p, tid);
		return;
	}
	l->l_stopped = 1;
	switch (event) {
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) == 0 &&
		    l->l_proc != NULL)
			on_new(p, l, event, (pid_t)msg);
		sig = 0;
		break;
	case PTRACE_EVENT_EXEC:
		if (l->l_proc != NULL)
			on_exec(p, l, (pid_t)msg);
		sig = 0;
		break;
	case PTRACE_EVENT_EXIT:
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) != 0)
			msg = 0;
		lwp_end(p, l, (int)msg);
		sig = 0;
		break;
	case PTRACE_EVENT_STOP:
		if (l->l_state == LWP_NEW) {
			/* Its first stop: resume once its creator spoke. */
			l->l_seen = 1;
			if (l->l_proc == NULL)
				return;
			l->l_state = LWP_LIVE;
			sig = 0;
			break;
		}
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU) {
			/* A group-stop: stay stopped as without us. */
			if (l->l_proc != NULL &&
			    l->l_proc->pr_state == PR_RELEASING) {
				lwp_detach(p, l, 0);
			} else {
				l->l_stopped = 0;
				(void)ptrace(PTRACE_LISTEN, tid, NULL, NULL);
			}
			return;
		}
		sig = 0;	/* our PTRACE_INTERRUPT */
		break;
	case 0:
		break;		/* a signal for the thread: pass it on */
	default:
		sig = 0;
		break;
	}
	/* The callbacks may have detached or freed it. */
	if ((l = lwp_find(p, tid)) != NULL && l->l_stopped &&
	    l->l_proc != NULL)
		lwp_resume(p, l, sig);
}

/* Handle every report that is ready (or wait for one when block). */
static int
drain(pctx_t *p, int block)
{
	int status, n = 0;
	pid_t tid;

	for (;;) {
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

/*
 * Stop controlling pr: fini_lwp for each thread and the release callback
 * when callbacks apply, then detach each thread (now if it is stopped,
 * else at the stop PTRACE_INTERRUPT brings).
 */
static void
proc_release(pctx_t *p, struct proc *pr, int callbacks)
{
	struct lwp *l, *next;

	if (pr->pr_state == PR_TRACKED && callbacks && !pr->pr_exited) {
		for (l = pr->pr_lwps; l != NULL; l = l->l_next)
			if (l->l_state != LWP_ENDED && cb_fini(p, l,
			    l->l_tid) != 0)
				fail(p);
		if (p->p_ops.po_release != NULL)
			p->p_ops.po_release(p, pr->pr_pid, p->p_arg);
	}
	pr->pr_state = PR_RELEASING;
	for (l = pr->pr_lwps; l != NULL; l = next) {
		next = l->l_next;
		if (l->l_state == LWP_ENDED)
			continue;
		if (l->l_stopped)
			lwp_detach(p, l, 0);
		else if (l->l_state != LWP_NEW)
			(void)ptrace(PTRACE_INTERRUPT, l->l_tid, NULL, NULL);
		/* A NEW thread not yet stopped is detached at its stop. */
	}
	/* pr may be gone now. */
}

static void
release_all(pctx_t *p, int callbacks)
{
	struct proc *pr, *next;

	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		if (pr->pr_state == PR_TRACKED)
			proc_release(p, pr, callbacks);
	}
	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		proc_check_released(p, pr);
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
				fail(p);
		pr->pr_ticks++;
	}
	if (p->p_nsamples == 0)
		return;
	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		if (pr->pr_state == PR_TRACKED && !pr->pr_exited &&
		    pr->pr_ticks >= p->p_nsamples)
			proc_release(p, pr, 1);
	}
}

static void
pctx_free(pctx_t *p)
{
	int i;

	while (p->p_procs != NULL)
		proc_drop(p, p->p_procs);
	for (i = 0; i < HASHSZ; i++)
		while (p->p_hash[i] != NULL)
			lwp_free(p, p->p_hash[i]);
	if (p->p_evfd >= 0)
		close(p->p_evfd);
	if (p->p_pidfd >= 0)
		close(p->p_pidfd);
	free(p);
}

static pctx_t *
pctx_alloc(void *arg, int verbose, pctx_errfn_t *errfn)
{
	pctx_t *p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->p_arg = arg;
	p->p_verbose = verbose;
	p->p_errfn = errfn;
	p->p_pidfd = -1;
	if ((p->p_evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		int e = errno;

		free(p);
		errno = e;
		return NULL;
	}
	return p;
}

/*
 * A pidfd for our child pid, or -1 where the kernel has none (before
 * Linux 5.3): pctx_kill then falls back to kill(2), which is safe as long
 * as the library alone reaps the command (it notes each reap).
 */
static int
pidfd_open_child(pid_t pid)
{
#ifdef SYS_pidfd_open
	/* Close-on-exec by definition. */
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Reap a child that failed before it was of use. */
static void
reap(pid_t pid)
{
	int status;

	(void)kill(pid, SIGKILL);
	while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
		;
}

CPC_EXPORT pctx_t *
pctx_create(const char *file, char *const *argv, void *arg, int verbose,
    pctx_errfn_t *errfn)
{
	int go[2], report[2], e, status;
	struct proc *pr;
	struct lwp *l;
	pctx_t *p;
	pid_t pid;
	ssize_t n;
	char c = 0;

	if (file == NULL || argv == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if ((p = pctx_alloc(arg, verbose, errfn)) == NULL) {
		pctx_err(NULL, "create", "%s", strerror(errno));
		return NULL;
	}
	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
		e = errno;
		pctx_err(p, "create", "cannot fork: %s", strerror(e));
		pctx_free(p);
		errno = e;
		return NULL;
	}
	if ((pid = fork()) < 0) {
		e = errno;
		pctx_err(p, "create", "cannot fork: %s", strerror(e));
		close(go[0]); close(go[1]);
		close(report[0]); close(report[1]);
		pctx_free(p);
		errno = e;
		return NULL;
	}
	if (pid == 0) {
		/*
		 * Die with the caller even once released: PTRACE_O_EXITKILL
		 * only holds while traced.  The kernel sends the signal when
		 * the thread that forked ends, not its process, so the caller
		 * must keep that thread (cputrack has only one).
		 */
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		/*
		 * Wait until seized, so the exec is seen.  A caller that died
		 * before the prctl never sends the byte, and its end closes
		 * the pipe: this is the usual getppid() check against that
		 * race, in a form that also works when the caller is outside
		 * our pid namespace (getppid() is 0 there).
		 */
		close(go[1]);
		close(report[0]);
		while ((n = read(go[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			_exit(1);
		execvp(file, argv);
		e = errno;
		(void)!write(report[1], &e, sizeof(e));
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(report[1]);
	/* Our unreaped child: the pidfd cannot name another process. */
	p->p_pidfd = pidfd_open_child(pid);
	if (ptrace(PTRACE_SEIZE, pid, NULL,
	    (void *)(long)(PCTX_OPTS | PTRACE_O_EXITKILL)) != 0) {
		e = errno;
		pctx_err(p, "create", "cannot trace the new process: %s%s",
		    strerror(e), e == EPERM ? " (ptrace is not permitted "
		    "here: a seccomp or security-module policy?)" : "");
		close(go[1]);
		close(report[0]);
		reap(pid);
		pctx_free(p);
		errno = e;
		return NULL;
	}
	(void)!write(go[1], &c, 1);
	close(go[1]);
	while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (n == (ssize_t)sizeof(e)) {
		if (e == ENOENT)
			pctx_err(p, "create", "cannot find program '%s'", file);
		else
			pctx_err(p, "create", "cannot execute '%s': %s", file,
			    strerror(e));
		reap(pid);
		pctx_free(p);
		errno = e;
		return NULL;
	}
	/* The exec stop, before the program's first instruction. */
	for (;;) {
		if (waitpid(pid, &status, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			break;
		}
		if (WIFSTOPPED(status) &&
		    (status >> 16) == PTRACE_EVENT_EXEC) {
			e = 0;
			break;
		}
		if (!WIFSTOPPED(status)) {
			e = ECHILD;
			break;
		}
		/* A signal sent early: deliver it. */
		(void)ptrace(PTRACE_CONT, pid, NULL, (void *)(long)
		    ((status >> 16) == 0 ? WSTOPSIG(status) : 0));
	}
	if (e != 0) {
		pctx_err(p, "create", "'%s' ended before it started", file);
		reap(pid);
		pctx_free(p);
		errno = e;
		return NULL;
	}
	p->p_pid = pid;
	p->p_created = 1;
	if ((pr = proc_add(p, pid, PR_TRACKED)) == NULL ||
	    (l = lwp_add(p, pid, pr, LWP_LIVE)) == NULL) {
		pctx_err(p, "create", "out of memory");
		reap(pid);
		pctx_free(p);
		errno = ENOMEM;
		return NULL;
	}
	l->l_stopped = 1;
	setid_note(p, "create", pid);
	return p;
}

/* One "Key:\tvalue" number of /proc/<tid>/status; -1 when absent. */
static long
status_field(pid_t tid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(fp);
	return v;
}

/*
 * A kernel thread: kthreadd (pid 2) and its children; /proc says so
 * itself from Linux 6.2 on.
 */
static int
is_kthread(pid_t pid)
{
	long k = status_field(pid, "Kthread");

	if (k >= 0)
		return k == 1;
	return pid == 2 || status_field(pid, "PPid") == 2;
}

/*
 * Why PTRACE_SEIZE of thread tid of pid said EPERM, as precisely as /proc
 * tells.  Ask about tid itself: the threads seized before it name us as
 * their tracer, and we are not the one in the way.
 */
static void
explain_eperm(pctx_t *p, pid_t pid, pid_t tid)
{
	long tracer = status_field(tid, "TracerPid");
	long uid = status_field(tid, "Uid");
	char path[64], thr[48] = "it";
	int fd, scope = -1;

	fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char b[8] = "";

		if (read(fd, b, sizeof(b) - 1) > 0)
			scope = atoi(b);
		close(fd);
	}
	if (tracer == (long)getpid())
		tracer = 0;
	if (tid != pid)
		snprintf(thr, sizeof(thr), "its thread %d", (int)tid);
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tracer);
	if (tracer > 0) {
		char comm[32] = "?";
		ssize_t n;

		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
			if ((n = read(fd, comm, sizeof(comm) - 1)) > 0)
				comm[n - (comm[n - 1] == '\n')] = '\0';
			close(fd);
		}
		pctx_err(p, "capture", "cannot trace pid %d: %s is already "
		    "being traced by pid %ld (%s)", (int)pid, thr, tracer,
		    comm);
	} else if (uid >= 0 && geteuid() != 0 && (uid_t)uid != getuid()) {
		pctx_err(p, "capture", "cannot trace pid %d: it belongs to "
		    "uid %ld; only its owner or root may trace it",
		    (int)pid, uid);
	} else if (is_kthread(pid)) {
		pctx_err(p, "capture", "cannot trace pid %d: it is a kernel "
		    "thread, which runs no program to count", (int)pid);
	} else if (scope > 0 && geteuid() != 0) {
		pctx_err(p, "capture", "cannot trace pid %d: "
		    "kernel.yama.ptrace_scope is %d (%s)", (int)pid, scope,
		    scope == 1 ? "only a parent may trace its descendants; "
		    "run as root or set it to 0" : "tracing needs root or "
		    "CAP_SYS_PTRACE");
	} else {
		pctx_err(p, "capture", "cannot trace pid %d: %s (a set-id "
		    "program, or a security policy forbids it)", (int)pid,
		    strerror(EPERM));
	}
}

/* The state letter of thread tid of pid (R, S, Z, ...), or 0. */
static char
thread_state(pid_t pid, pid_t tid)
{
	char path[64], st[512], *s;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
	    (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	len = read(fd, st, sizeof(st) - 1);
	close(fd);
	st[len > 0 ? len : 0] = '\0';
	if ((s = strrchr(st, ')')) == NULL || s[1] != ' ')
		return 0;
	return s[2];
}

/*
 * Whether a thread of pid is alive: a main thread that called
 * pthread_exit stays a zombie while the others run on.
 */
static int
any_thread_alive(pid_t pid)
{
	char path[64];
	struct dirent *de;
	int alive = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return 0;
	while (!alive && (de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);
		char c;

		alive = tid > 0 && (c = thread_state(pid, tid)) != 0 &&
		    c != 'Z' && c != 'X';
	}
	closedir(d);
	return alive;
}

/*
 * One pass over /proc/<pid>/task; the number of threads newly seized, or
 * -1 with *err and, for EPERM, the thread refused in *errtid.
 */
static int
capture_pass(pctx_t *p, struct proc *pr, int *err, pid_t *errtid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pr->pr_pid);
	if ((d = opendir(path)) == NULL) {
		*err = errno == ENOENT ? ESRCH : errno;
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);
		struct lwp *l;

		if (tid <= 0 || lwp_find(p, tid) != NULL)
			continue;
		if (ptrace(PTRACE_SEIZE, tid, NULL, (void *)(long)PCTX_OPTS)
		    != 0) {
			int e = errno;

			if (e == ESRCH)
				continue;	/* it just ended */
			/* An ended main thread: its process runs on. */
			if (e == EPERM &&
			    thread_state(pr->pr_pid, tid) == 'Z')
				continue;
			if (e != EPERM ||
			    status_field(tid, "TracerPid") != getpid()) {
				*err = e;
				*errtid = tid;
				closedir(d);
				return -1;
			}
			/* Created by a thread seized in this pass. */
		}
		if ((l = lwp_add(p, tid, pr, LWP_LIVE)) == NULL) {
			*err = ENOMEM;
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	return n;
}

CPC_EXPORT pctx_t *
pctx_capture(pid_t pid, void *arg, int verbose, pctx_errfn_t *errfn)
{
	struct proc *pr;
	pctx_t *p;
	pid_t etid = pid;
	int n, e = 0, passes = 0;
	long tgid;
	char state;

	if ((p = pctx_alloc(arg, verbose, errfn)) == NULL) {
		pctx_err(NULL, "capture", "%s", strerror(errno));
		return NULL;
	}
	if (pid <= 0 || pid == getpid()) {
		pctx_err(p, "capture", pid <= 0 ? "invalid pid %d" :
		    "cannot capture itself (pid %d)", (int)pid);
		pctx_free(p);
		errno = EINVAL;
		return NULL;
	}
	if ((state = thread_state(pid, pid)) == 0 ||
	    (tgid = status_field(pid, "Tgid")) <= 0) {
		pctx_err(p, "capture", "process %d does not exist", (int)pid);
		pctx_free(p);
		errno = ESRCH;
		return NULL;
	}
	if (tgid != pid) {
		pctx_err(p, "capture", "%d is a thread of process %ld: give "
		    "the process's pid", (int)pid, tgid);
		pctx_free(p);
		errno = ESRCH;
		return NULL;
	}
	if (state == 'Z' && !any_thread_alive(pid)) {
		pctx_err(p, "capture", "process %d is a zombie", (int)pid);
		pctx_free(p);
		errno = ESRCH;
		return NULL;
	}
	if ((pr = proc_add(p, pid, PR_TRACKED)) == NULL) {
		pctx_err(p, "capture", "out of memory");
		pctx_free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->p_pid = pid;
	/* Until a pass finds no thread it had not seized. */
	do {
		n = capture_pass(p, pr, &e, &etid);
		passes++;
	} while (n > 0 && passes < 1000);
	if (n < 0 || pr->pr_lwps == NULL) {
		if (e == EPERM)
			explain_eperm(p, pid, etid);
		else if (e == ESRCH || e == 0)
			pctx_err(p, "capture", "process %d does not exist",
			    (int)pid);
		else
			pctx_err(p, "capture", "cannot trace pid %d: %s",
			    (int)pid, strerror(e));
		release_all(p, 0);
		while (p->p_procs != NULL && drain(p, 1) >= 0)
			;
		pctx_free(p);
		errno = e ? e : ESRCH;
		return NULL;
	}
	return p;
}

/* pctx_set_events' fork handler cannot ask to follow: report only. */
static int
sol_fork(pctx_t *p, pid_t pid, id_t lwpid, pid_t child, void *arg)
{
	if (p->p_solfork != NULL)
		p->p_solfork(p, pid, lwpid, child, arg);
	return 0;
}

CPC_EXPORT int
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

CPC_EXPORT int
pctx_set_ops(pctx_t *p, const struct pctx_ops *ops)
{
	if (p == NULL || ops == NULL) {
		errno = EINVAL;
		return -1;
	}
	p->p_ops = *ops;
	return 0;
}

CPC_EXPORT pid_t
pctx_pid(pctx_t *p)
{
	return p == NULL ? -1 : p->p_pid;
}

CPC_EXPORT void
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

CPC_EXPORT int
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

CPC_EXPORT int
pctx_run(pctx_t *p, uint_t msec, uint_t nsamples, pctx_tickfn_t *tick)
{
	sigset_t chld, old;
	struct pollfd fds[3];
	struct proc *pr;
	struct lwp *l, *next;
	int sfd, tfd = -1, e;
	uint64_t junk;

	if (p == NULL) {
		errno = EINVAL;
		return -1;
	}
	p->p_tick = tick;
	p->p_nsamples = msec ? nsamples : 0;
	p->p_ticking = msec > 0;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &old);
	if ((sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC)) < 0 ||
	    (msec > 0 && (tfd = timer_start(msec)) < 0)) {
		e = errno;
		pctx_err(p, "run", "cannot set up the event loop: %s",
		    strerror(e));
		if (sfd >= 0)
			close(sfd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		errno = e;
		return -1;
	}
	/*
	 * Discovery: the threads present at the start.  A failed callback
	 * said why itself, as everywhere else.
	 */
	for (pr = p->p_procs; pr != NULL && !p->p_failed; pr = pr->pr_next)
		for (l = pr->pr_lwps; l != NULL; l = next) {
			next = l->l_next;
			if (!l->l_bound && l->l_state != LWP_ENDED &&
			    cb_init(p, l) != 0) {
				fail(p);
				break;
			}
			if (l->l_stopped)
				lwp_resume(p, l, 0);
		}
	fds[0].fd = sfd;
	fds[1].fd = p->p_evfd;
	fds[2].fd = tfd;
	fds[0].events = fds[1].events = fds[2].events = POLLIN;
	while (p->p_procs != NULL && !p->p_failed) {
		if (p->p_terminate && !p->p_terminated) {
			p->p_terminated = 1;
			if (p->p_ticking)
				tick_all(p);
			release_all(p, 1);
			continue;
		}
		if (drain(p, 0) < 0 && errno == ECHILD && p->p_procs != NULL) {
			pctx_err(p, "run", "lost control of every process");
			fail(p);
			break;
		}
		if (p->p_procs == NULL || p->p_failed)
			break;
		if (p->p_terminate && !p->p_terminated)
			continue;
		if (poll(fds, tfd >= 0 ? 3 : 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			pctx_err(p, "run", "poll: %s", strerror(errno));
			fail(p);
			break;
		}
		if (fds[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) > 0)
				;
		}
		if (fds[1].revents & POLLIN)
			(void)!read(p->p_evfd, &junk, sizeof(junk));
		if (tfd >= 0 && (fds[2].revents & POLLIN) &&
		    read(tfd, &junk, sizeof(junk)) > 0 && !p->p_terminate) {
			/* Missed expirations are not made up for. */
			drain(p, 0);
			tick_all(p);
		}
	}
	close(sfd);
	if (tfd >= 0)
		close(tfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* Terminations from now on are pctx_wait's to report. */
	p->p_termseen = p->p_nterm;
	return p->p_failed ? -1 : 0;
}

/*
 * Reap what is ready until the created command is reaped.  Processes
 * still under control (pctx_run failed, or was not called) report too,
 * and are answered on the way: a stopped thread left alone would never
 * end, nor would the command if it is one of them.  1 once the command
 * is reaped, 0 when nothing more is ready, -1 with errno.
 */
static int
reap_root(pctx_t *p)
{
	pid_t r;
	int st;

	while (!p->p_rootdone) {
		r = waitpid(p->p_procs != NULL ? -1 : p->p_pid, &st,
		    __WALL | WNOHANG);
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

CPC_EXPORT int
pctx_wait(pctx_t *p, int *status)
{
	struct pctx_ops ops;
	sigset_t chld, old;
	struct lwp *l, *next;
	int sfd, r, e, i;

	if (p == NULL || !p->p_created) {
		errno = ECHILD;
		return -1;
	}
	if (!p->p_rootdone) {
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		pthread_sigmask(SIG_BLOCK, &chld, &old);
		if ((sfd = signalfd(-1, &chld, SFD_NONBLOCK |
		    SFD_CLOEXEC)) < 0) {
			e = errno;
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			errno = e;
			return -1;
		}
		/* No callbacks: the client's event loop is over. */
		ops = p->p_ops;
		memset(&p->p_ops, 0, sizeof(p->p_ops));
		/* Threads held stopped (a failed discovery) go on. */
		for (i = 0; i < HASHSZ; i++)
			for (l = p->p_hash[i]; l != NULL; l = next) {
				next = l->l_hnext;
				if (l->l_stopped && l->l_proc != NULL)
					lwp_resume(p, l, 0);
			}
		r = wait_loop(p, sfd);
		e = errno;
		p->p_ops = ops;
		close(sfd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (r != 0) {
			errno = e;
			return -1;
		}
	}
	if (status != NULL)
		*status = p->p_rootstatus;
	return 0;
}

CPC_EXPORT void
pctx_release(pctx_t *p)
{
	struct proc *pr;
	int killed = 0, st;

	if (p == NULL)
		return;
	if (p->p_created) {
		for (pr = p->p_procs; pr != NULL; pr = pr->pr_next)
			if (pr->pr_state == PR_TRACKED) {
				(void)kill(pr->pr_pid, SIGKILL);
				killed |= pr->pr_pid == p->p_pid;
			}
		/* Nothing more is reported to the client. */
		memset(&p->p_ops, 0, sizeof(p->p_ops));
		for (pr = p->p_procs; pr != NULL; pr = pr->pr_next)
			pr->pr_state = PR_RELEASING;
	} else {
		release_all(p, 0);
	}
	while (p->p_procs != NULL && drain(p, 1) >= 0)
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
