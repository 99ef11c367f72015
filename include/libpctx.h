/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libpctx.h - process context library (the Solaris libpctx API) on
 * Linux ptrace.
 *
 * A pctx is a tree of processes under the control of the calling thread:
 * a command it created (pctx_create) or a running process it captured
 * (pctx_capture), and the children it chooses to follow.  pctx_run calls
 * back the client at each event of every thread of the tree:
 *
 *	init_lwp	a thread is under control and has not run user code
 *			since (new threads, each thread of a captured
 *			process, the thread of a new image after exec)
 *	lwp_create	after init_lwp, for a thread created by the tree
 *	fini_lwp	a thread leaves control (exit, exec, release)
 *	lwp_exit	after fini_lwp, when the thread ended and others live
 *	exit		after fini_lwp, when the last thread of a process ended
 *	exec		after fini_lwp, a process started a new image
 *	fork		a process created a child (vfork and posix_spawn too)
 *	tick		every msec milliseconds, for every live thread
 *
 * Thread ids (id_t lwpid) are Linux TIDs.  Ticks come from a timer in the
 * caller: they never stop the target.  Signals meant for the target are
 * delivered unchanged and job-control stops behave as without a tracer.
 * All functions must be called from the thread that created or captured
 * the tree (ptrace is per thread).  MT-unsafe.
 */
#ifndef LIBPCTX_H
#define LIBPCTX_H

#include <stdarg.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Solaris types, guarded as in libcpc.h: either header first. */
/*
 * uint_t as libcpc.h defines it (see there), either header first: the
 * declarations use cpc_uint_t, and uint_t is defined unless the program
 * defines it itself.
 */
#ifndef _CPC_UINT_T
#define _CPC_UINT_T
typedef unsigned int cpc_uint_t;
#endif
#ifndef CPC_NO_SOLARIS_TYPES
#if !defined(uint_t) && !defined(_UINT_T_DEFINED)
#define _UINT_T_DEFINED
typedef cpc_uint_t uint_t;
#endif
#endif
#ifndef _PCTX_T_DEFINED
#define _PCTX_T_DEFINED
typedef struct pctx pctx_t;
#endif

/* fn is the short name of the call: "create", "capture", "run", ... */
typedef void (pctx_errfn_t)(const char *fn, const char *fmt, va_list ap);

typedef enum {
	PCTX_NULL_EVENT = 0,
	PCTX_SYSC_EXEC_EVENT,
	PCTX_SYSC_FORK_EVENT,
	PCTX_SYSC_EXIT_EVENT,
	PCTX_SYSC_LWP_CREATE_EVENT,
	PCTX_INIT_LWP_EVENT,
	PCTX_FINI_LWP_EVENT,
	PCTX_SYSC_LWP_EXIT_EVENT
} pctx_event_t;

typedef int	pctx_sysc_execfn_t(pctx_t *, pid_t, id_t, char *, void *);
/* (process, forking thread, child): the order of the Solaris header. */
typedef void	pctx_sysc_forkfn_t(pctx_t *, pid_t, id_t, pid_t, void *);
/* status is a wait status (WIFEXITED, WTERMSIG, ...). */
typedef void	pctx_sysc_exitfn_t(pctx_t *, pid_t, id_t, int, void *);
typedef int	pctx_sysc_lwp_createfn_t(pctx_t *, pid_t, id_t, void *);
typedef int	pctx_init_lwpfn_t(pctx_t *, pid_t, id_t, void *);
typedef int	pctx_fini_lwpfn_t(pctx_t *, pid_t, id_t, void *);
typedef int	pctx_sysc_lwp_exitfn_t(pctx_t *, pid_t, id_t, void *);
typedef int	pctx_tickfn_t(pctx_t *, pid_t, id_t, void *);

/*
 * Start file (searched in PATH) with argv, stopped before its first
 * instruction.  It is killed (SIGKILL) when the calling thread ends, even
 * once released, unless it executed a set-id program since.  NULL with
 * errno and a message: ENOENT not found, EACCES/ENOEXEC not executable.
 */
pctx_t	*pctx_create(const char *file, char *const *argv, void *arg,
	    int verbose, pctx_errfn_t *errfn);
/* Take control of every thread of a running process; it keeps running. */
pctx_t	*pctx_capture(pid_t pid, void *arg, int verbose,
	    pctx_errfn_t *errfn);
/*
 * (pctx_event_t, handler) pairs ending with PCTX_NULL_EVENT.  A fork
 * handler set here only reports the child, which is not followed.
 */
int	 pctx_set_events(pctx_t *pctx, ...);
/*
 * The event loop: returns 0 when no process of the tree is left under
 * control (all exited, released, or pctx_terminate was called), -1 when a
 * callback failed or control was lost.  msec 0: no ticks; nsamples 0:
 * unlimited, else each process is released after that many ticks.
 */
int	 pctx_run(pctx_t *pctx, cpc_uint_t msec, cpc_uint_t nsamples,
	    pctx_tickfn_t *tick);
/*
 * Give up the tree and free the handle: captured processes are detached
 * and keep running; created ones still under control are killed.
 */
void	 pctx_release(pctx_t *pctx);
/*
 * Make pctx_run finish: it ticks every thread once more (when ticking),
 * calls fini_lwp for each and the release handler for each process,
 * detaches them and returns 0.  Called after pctx_run returned, it makes
 * pctx_wait return -1 with EINTR.  Async-signal-safe.
 */
void	 pctx_terminate(pctx_t *pctx);

/*
 * Linux extensions.
 *
 * The typed interface behind pctx_set_events.  Unset members do nothing.
 *	po_exec		0 continue with the new image (init_lwp follows),
 *			1 stop following this process (it runs on), -1 error
 *	po_fork		1 follow the child, 0 let it go (it runs on
 *			untraced), -1 error
 *	po_release	control of a live process ends (pctx_terminate, the
 *			sample budget); fini_lwp was called for each thread
 */
struct pctx_ops {
	pctx_init_lwpfn_t	*po_init_lwp;
	pctx_fini_lwpfn_t	*po_fini_lwp;
	pctx_sysc_lwp_createfn_t *po_lwp_create;
	pctx_sysc_lwp_exitfn_t	*po_lwp_exit;
	pctx_sysc_execfn_t	*po_exec;
	int			(*po_fork)(pctx_t *, pid_t, id_t, pid_t,
				    void *);
	pctx_sysc_exitfn_t	*po_exit;
	void			(*po_release)(pctx_t *, pid_t, void *);
};

int	 pctx_set_ops(pctx_t *pctx, const struct pctx_ops *ops);
/* The process created or captured. */
pid_t	 pctx_pid(pctx_t *pctx);
/*
 * 1 when lwpid is a thread of a process pctx controls (the process
 * created or captured, or a child it follows), 0 otherwise.
 */
int	 pctx_has_lwp(pctx_t *pctx, id_t lwpid);
/*
 * For a created command: wait until it has ended (it may already have
 * been reaped by pctx_run) and store its wait status; no callback is
 * made.  0, or -1 with errno: EINTR after a pctx_terminate (call it
 * again to go on waiting), ECHILD for a captured process.
 */
int	 pctx_wait(pctx_t *pctx, int *status);
/*
 * Send sig to the created command, tracked, released or a zombie, never
 * to a process that reused its pid: -1 with ESRCH once it was reaped,
 * ECHILD for a captured process.
 */
int	 pctx_kill(pctx_t *pctx, int sig);
/*
 * Let every process of the tree run on by itself, untraced, with no
 * callback from now on (counters bound to its threads keep counting).
 * A created command can still be waited for and signalled with
 * pctx_wait and pctx_kill, and dies with the caller as before.  0, or
 * -1 with EINVAL.
 */
int	 pctx_detach(pctx_t *pctx);
/*
 * The command line of process pid as the exec callback gets it: "arg0
 * arg1 ...", at most len - 1 characters; "" when it cannot be read.
 */
void	 pctx_cmdline(pid_t pid, char *buf, size_t len);
/*
 * For a captured process whose caller ends its thread right after
 * pctx_run (or pctx_release): the last release leaves the threads that
 * are not stopped attached, and the kernel detaches them all when the
 * calling thread ends, without stopping them.  Until then, a thread that
 * meets a traced event (clone, exec, exit, a signal) waits.  0, or -1
 * with EINVAL for a created command (its release kills it).
 */
int	 pctx_detach_at_exit(pctx_t *pctx);
/*
 * fn (NULL: none) is called with the pctx and its arg each time
 * pctx_run has handled what was waiting and is about to wait for more
 * (a report, a tick, pctx_terminate): the place to write out what the
 * callbacks buffered.  0, or -1 with EINVAL without a pctx.
 */
typedef void	pctx_idlefn_t(pctx_t *, void *);
int	 pctx_set_idle(pctx_t *pctx, pctx_idlefn_t *fn);

#ifdef __cplusplus
}
#endif

#endif /* LIBPCTX_H */
