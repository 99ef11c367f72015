/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pctx_impl.h - libpctx's private structures and internal functions.
 * Nothing outside libcpc/pctx/ includes this file, and libpctx includes
 * nothing of libcpc: it is a library of its own (libpctx.so.1).
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
 *  - a vfork parent cannot run until its child execs or ends: it is held
 *    in its VFORK stop until then (pr_vparent), not resumed to go to sleep
 *    in the kernel at once and be woken again, which would cost each
 *    fork+exec a wake-up more.
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
 * next stop (with the signal of a signal-delivery-stop).  After
 * pctx_detach_at_exit, the last release of a captured tree instead
 * forgets the threads not stopped: the kernel detaches every tracee of a
 * thread when it ends, without stopping it, and the caller ends next.
 *
 * A created command outlives its tracing (release, exec, nsamples), and it
 * may be reaped while followed children are still tracked.  Two things
 * keep it tied to the caller all the same:
 *
 *  - a pidfd names it for pctx_kill: after the reap, pidfd_send_signal
 *    says ESRCH where kill(2) could hit a process that reused the pid;
 *  - PR_SET_PDEATHSIG kills it when the caller's thread ends, as
 *    PTRACE_O_EXITKILL does only while it is traced.
 *
 * The files, by concern:
 *
 *	pctx.c		the handle and the small calls (set_events, set_ops,
 *			pid, terminate, kill, release)
 *	start.c		pctx_create: fork, seize, exec, the exec stop
 *	capture.c	pctx_capture: seizing every thread of a running
 *			process, and why the kernel said EPERM
 *	loop.c		the event loop: each waitpid report, new threads and
 *			processes, exec, ticks; pctx_run and pctx_wait
 *	lwp.c		threads and processes: the hash and lists, resuming
 *			and detaching, the lifecycle callbacks, release
 *	procfs.c	what /proc says about a tracee
 *	msgsafe.c	libcpc's message escaping, compiled again for libpctx
 *
 * Internal functions shared by these files are named pctx_<object>_<verb>
 * (or pctx_<verb>) and are hidden: libpctx.map exports the API alone.
 */
#ifndef PCTX_IMPL_H
#define PCTX_IMPL_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "libpctx.h"

#define PCTX_EXPORT	__attribute__((visibility("default")))

#define PCTX_OPTS	(PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | \
			 PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | \
			 PTRACE_O_TRACEEXIT)
#define HASHSZ		16384
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
	struct lwp	*l_next;	/* the process's threads, */
	struct lwp	*l_prev;	/* both ways: unlinked in O(1) */
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
	int		 pr_nlive;	/* threads listed not LWP_ENDED */
	pid_t		 pr_vparent;	/* its vfork parent, held stopped */
	struct lwp	*pr_lwps;	/* in creation order, */
	struct lwp	*pr_last;	/* linked at the end in O(1) */
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
	pctx_idlefn_t	*p_idle;
	unsigned	 p_nsamples;
	struct proc	*p_procs;
	struct lwp	*p_hash[HASHSZ];
	int		 p_nhashed;	/* threads in it (some awaiting reap) */
	int		 p_evfd;
	volatile sig_atomic_t p_terminate;
	volatile sig_atomic_t p_nterm;	/* pctx_terminate calls */
	int		 p_termseen;	/* p_nterm that pctx_run answered */
	int		 p_terminated;
	int		 p_failed;
	int		 p_more;	/* pctx_drain stopped at its most:
					   reports may be waiting */
	int		 p_ticking;
	int		 p_rootdone;	/* created command reaped */
	int		 p_rootstatus;
	int		 p_pidfd;	/* the created command, or -1 */
	uid_t		 p_euid;	/* ours, for the set-id note */
	int		 p_atexit;	/* pctx_detach_at_exit was called */
	int		 p_final;	/* releasing all: nothing stays */
};

/* A callback failed, or control was lost: pctx_run returns -1. */
static inline void
pctx_fail(pctx_t *p)
{
	p->p_failed = 1;
}

/*
 * lwp.c: the handle and the error handler (errno is preserved).  The
 * default handler, when the client gave none, prints the message made
 * fit for a terminal (pctx_vmsgsafe): it may quote a command's name.
 */
pctx_t	*pctx_alloc(void *arg, int verbose, pctx_errfn_t *errfn);
void	 pctx_free(pctx_t *p);
void	 pctx_err(pctx_t *p, const char *fn, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * msgsafe.c: libcpc's cpc_vmsgsafe (libcpc/toolapi/msgsafe.h, which
 * says what it escapes and cuts), the same source compiled into libpctx
 * under this name.  PCTX_MSG_MAX is the room libcpc gives a message, CPC_MSG_MAX.
 */
#define PCTX_MSG_MAX	1024
char	*pctx_vmsgsafe(char *dst, size_t len, const char *fmt, va_list ap)
	    __attribute__((format(printf, 3, 0)));

/* lwp.c: threads (a hash by tid, a list per process) and processes. */
struct lwp *pctx_lwp_find(pctx_t *p, pid_t tid);
struct lwp *pctx_lwp_add(pctx_t *p, pid_t tid, struct proc *pr,
	    enum lwp_state st);
void	 pctx_lwp_link(struct proc *pr, struct lwp *l);
void	 pctx_lwp_free(pctx_t *p, struct lwp *l);
void	 pctx_lwp_rekey(pctx_t *p, struct lwp *l, pid_t tid);
struct proc *pctx_proc_add(pctx_t *p, pid_t pid, enum proc_state st);
void	 pctx_proc_drop(pctx_t *p, struct proc *pr);
void	 pctx_proc_check_released(pctx_t *p, struct proc *pr);
/* ptrace actions on a stopped thread. */
void	 pctx_lwp_detach(pctx_t *p, struct lwp *l, int sig);
void	 pctx_lwp_resume(pctx_t *p, struct lwp *l, int sig);
/* The lifecycle callbacks: init_lwp, fini_lwp, lwp_exit and exit. */
int	 pctx_cb_init(pctx_t *p, struct lwp *l);
int	 pctx_cb_fini(pctx_t *p, struct lwp *l, pid_t lwpid);
void	 pctx_lwp_end(pctx_t *p, struct lwp *l, int status);
/* Giving up control of processes (callbacks: fini_lwp and release). */
void	 pctx_proc_release(pctx_t *p, struct proc *pr, int callbacks);
/* pr's vfork parent, held at its event, goes on (pr exec'd or ended). */
void	 pctx_vfork_done(pctx_t *p, struct proc *pr);
void	 pctx_release_all(pctx_t *p, int callbacks);

/* dispatch.c: one waitpid report of thread tid. */
void	 pctx_dispatch(pctx_t *p, pid_t tid, int status);
/* loop.c: handle every waitpid report ready (or wait for one: block). */
int	 pctx_drain(pctx_t *p, int block);

/* procfs.c */
long	 pctx_status_field(pid_t tid, const char *key);
void	 pctx_read_cmdline(pid_t pid, int atexec, char *buf, size_t len);
void	 pctx_setid_note(pctx_t *p, const char *fn, pid_t pid);

#endif /* PCTX_IMPL_H */
