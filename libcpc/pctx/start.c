/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * start.c - pctx_create: start a command under control, stopped before
 * its first instruction.
 *
 *	caller				child
 *	------				-----
 *	fork ------------------------->	prctl(PR_SET_PDEATHSIG)
 *	pidfd_open			read(go) ... blocks
 *	PTRACE_SEIZE
 *	write(go) -------------------->	execvp
 *	read(report) ... blocks		  failed: write(report, errno)
 *	  EOF (close-on-exec): it ran	  ran: the exec stop
 *	waitpid: the exec stop
 *
 * The report pipe is close-on-exec: its end of file says the exec
 * succeeded, a number says why it failed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pctx_impl.h"

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

/* The child's side: wait for the go, then exec; never returns. */
static void __attribute__((noreturn))
child_exec(const char *file, char *const *argv, int go[2], int report[2])
{
	ssize_t n;
	char c;
	int e;

	/*
	 * Die with the caller even once released: PTRACE_O_EXITKILL only
	 * holds while traced.  The kernel sends the signal when the thread
	 * that forked ends, not its process, so the caller must keep that
	 * thread (cputrack has only one).
	 */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	/*
	 * Wait until seized, so the exec is seen.  A caller that died before
	 * the prctl never sends the byte, and its end closes the pipe: this
	 * is the usual getppid() check against that race, in a form that
	 * also works when the caller is outside our pid namespace (getppid()
	 * is 0 there).
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

/*
 * Fork the child, held before its exec; *go and *report are the caller's
 * ends of the two pipes.  The pid, or -1 with errno (said why).
 */
static pid_t
start_child(pctx_t *p, const char *file, char *const *argv, int *go,
    int *report)
{
	int gp[2], rp[2], e;
	pid_t pid;

	if (pipe2(gp, O_CLOEXEC) != 0 || pipe2(rp, O_CLOEXEC) != 0) {
		e = errno;
		pctx_err(p, "create", "cannot fork: %s", strerror(e));
		errno = e;
		return -1;
	}
	if ((pid = fork()) < 0) {
		e = errno;
		pctx_err(p, "create", "cannot fork: %s", strerror(e));
		close(gp[0]); close(gp[1]);
		close(rp[0]); close(rp[1]);
		errno = e;
		return -1;
	}
	if (pid == 0)
		child_exec(file, argv, gp, rp);
	close(gp[0]);
	close(rp[1]);
	*go = gp[1];
	*report = rp[0];
	return pid;
}

/* Seize the child with EXITKILL: 0, or the errno (said why). */
static int
seize_child(pctx_t *p, pid_t pid)
{
	int e;

	if (ptrace(PTRACE_SEIZE, pid, NULL,
	    (void *)(long)(PCTX_OPTS | PTRACE_O_EXITKILL)) == 0)
		return 0;
	e = errno;
	pctx_err(p, "create", "cannot trace the new process: %s%s",
	    strerror(e), e == EPERM ? " (ptrace is not permitted "
	    "here: a seccomp or security-module policy?)" : "");
	return e;
}

/*
 * Let the child exec and hear how it went: 0, or the errno of its execvp
 * (said why).  Closes both pipes.
 */
static int
exec_result(pctx_t *p, const char *file, int go, int report)
{
	ssize_t n;
	char c = 0;
	int e;

	(void)!write(go, &c, 1);
	close(go);
	while ((n = read(report, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report);
	if (n != (ssize_t)sizeof(e))
		return 0;
	if (e == ENOENT)
		pctx_err(p, "create", "cannot find program '%s'", file);
	else
		pctx_err(p, "create", "cannot execute '%s': %s", file,
		    strerror(e));
	return e;
}

/*
 * Wait for the exec stop, before the program's first instruction,
 * delivering the signals that come first: 0, or an errno.
 */
static int
wait_exec_stop(pid_t pid)
{
	int status;

	for (;;) {
		if (waitpid(pid, &status, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (WIFSTOPPED(status) &&
		    (status >> 16) == PTRACE_EVENT_EXEC)
			return 0;
		if (!WIFSTOPPED(status))
			return ECHILD;
		/* A signal sent early: deliver it. */
		(void)ptrace(PTRACE_CONT, pid, NULL, (void *)(long)
		    ((status >> 16) == 0 ? WSTOPSIG(status) : 0));
	}
}

/* The command's process and thread, stopped: 0, or ENOMEM (said). */
static int
track_command(pctx_t *p, pid_t pid)
{
	struct proc *pr;
	struct lwp *l;

	p->p_pid = pid;
	p->p_created = 1;
	if ((pr = pctx_proc_add(p, pid, PR_TRACKED)) == NULL ||
	    (l = pctx_lwp_add(p, pid, pr, LWP_LIVE)) == NULL) {
		pctx_err(p, "create", "out of memory");
		return ENOMEM;
	}
	l->l_stopped = 1;
	return 0;
}

PCTX_EXPORT pctx_t *
pctx_create(const char *file, char *const *argv, void *arg, int verbose,
    pctx_errfn_t *errfn)
{
	int go, report, e;
	pctx_t *p;
	pid_t pid;

	if (file == NULL || argv == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if ((p = pctx_alloc(arg, verbose, errfn)) == NULL) {
		pctx_err(NULL, "create", "%s", strerror(errno));
		return NULL;
	}
	if ((pid = start_child(p, file, argv, &go, &report)) < 0) {
		e = errno;
		goto out_free;
	}
	/* Our unreaped child: the pidfd cannot name another process. */
	p->p_pidfd = pidfd_open_child(pid);
	if ((e = seize_child(p, pid)) != 0) {
		close(go);
		close(report);
		goto out_reap;
	}
	if ((e = exec_result(p, file, go, report)) != 0)
		goto out_reap;
	if ((e = wait_exec_stop(pid)) != 0) {
		pctx_err(p, "create", "'%s' ended before it started", file);
		goto out_reap;
	}
	if ((e = track_command(p, pid)) != 0)
		goto out_reap;
	pctx_setid_note(p, "create", pid);
	return p;
out_reap:
	reap(pid);
out_free:
	pctx_free(p);
	errno = e;
	return NULL;
}
