/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * capture.c - pctx_capture: take control of every thread of a running
 * process, which keeps running.  The threads are read from
 * /proc/<pid>/task and seized, pass after pass, until a pass finds none
 * it had not seized (a thread not yet seized may create others), or the
 * process counts no thread but those seized (all_seized).  When the
 * kernel refuses (EPERM), /proc tells why as precisely as it can.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>

#include "pctx_impl.h"

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
 * A kernel thread: kthreadd (pid 2) and its children; /proc says so
 * itself from Linux 6.2 on.
 */
static int
is_kthread(pid_t pid)
{
	long k = pctx_status_field(pid, "Kthread");

	if (k >= 0)
		return k == 1;
	return pid == 2 || pctx_status_field(pid, "PPid") == 2;
}

/* kernel.yama.ptrace_scope, or -1 without Yama. */
static int
yama_scope(void)
{
	char b[8] = "";
	int fd, scope = -1;

	fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, b, sizeof(b) - 1) > 0)
			scope = atoi(b);
		close(fd);
	}
	return scope;
}

/* The command name of pid into comm, left "?" when unreadable. */
static void
read_comm(long pid, char *comm, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		if ((n = read(fd, comm, len - 1)) > 0)
			comm[n - (comm[n - 1] == '\n')] = '\0';
		close(fd);
	}
}

/*
 * Why PTRACE_SEIZE of thread tid of pid said EPERM, as precisely as /proc
 * tells.  Ask about tid itself: the threads seized before it name us as
 * their tracer, and we are not the one in the way.
 */
static void
explain_eperm(pctx_t *p, pid_t pid, pid_t tid)
{
	long tracer = pctx_status_field(tid, "TracerPid");
	long uid = pctx_status_field(tid, "Uid");
	int scope = yama_scope();
	char thr[48] = "it", comm[32] = "?";

	if (tracer == (long)getpid())
		tracer = 0;
	if (tid != pid)
		snprintf(thr, sizeof(thr), "its thread %d", (int)tid);
	if (tracer > 0) {
		read_comm(tracer, comm, sizeof(comm));
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

/*
 * Seize thread tid of pr: 0 done, -1 to pass over (it just ended, or it
 * is an ended main thread whose process runs on), or the errno.
 */
static int
seize_thread(struct proc *pr, pid_t tid)
{
	int e;

	if (ptrace(PTRACE_SEIZE, tid, NULL, (void *)(long)PCTX_OPTS) == 0)
		return 0;
	e = errno;
	if (e == ESRCH)
		return -1;	/* it just ended */
	/* An ended main thread: its process runs on. */
	if (e == EPERM && thread_state(pr->pr_pid, tid) == 'Z')
		return -1;
	/* Created by a thread seized in this pass: ours already. */
	if (e == EPERM && pctx_status_field(tid, "TracerPid") == getpid())
		return 0;
	return e;
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
	int n = 0, r, e = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pr->pr_pid);
	if ((d = opendir(path)) == NULL) {
		*err = errno == ENOENT ? ESRCH : errno;
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid <= 0 || pctx_lwp_find(p, tid) != NULL)
			continue;
		if ((r = seize_thread(pr, tid)) < 0)
			continue;
		if (r > 0) {
			e = r;
			*errtid = tid;
			break;
		}
		if (pctx_lwp_add(p, tid, pr, LWP_LIVE) == NULL) {
			e = ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (e != 0) {
		*err = e;
		return -1;
	}
	return n;
}

/* Whether pid can be captured: 0, or the errno (said why). */
static int
capture_check(pctx_t *p, pid_t pid)
{
	long tgid;
	char state;

	if (pid <= 0 || pid == getpid()) {
		pctx_err(p, "capture", pid <= 0 ? "invalid pid %d" :
		    "cannot capture itself (pid %d)", (int)pid);
		return EINVAL;
	}
	if ((state = thread_state(pid, pid)) == 0 ||
	    (tgid = pctx_status_field(pid, "Tgid")) <= 0) {
		pctx_err(p, "capture", "process %d does not exist", (int)pid);
		return ESRCH;
	}
	if (tgid != pid) {
		pctx_err(p, "capture", "%d is a thread of process %ld: give "
		    "the process's pid", (int)pid, tgid);
		return ESRCH;
	}
	if (state == 'Z' && !any_thread_alive(pid)) {
		pctx_err(p, "capture", "process %d is a zombie", (int)pid);
		return ESRCH;
	}
	return 0;
}

/*
 * Whether the process has no thread but the nseized seized so far, which
 * spares a pass over /proc/<pid>/task (6 ms of system time at 4000
 * threads, here).  The kernel's count of a process's threads ("Threads:"
 * in its status) keeps a thread until it is reaped, and a traced thread
 * is reaped only by our wait, which capture does not do: so every thread
 * seized is still counted, and the count exceeds nseized by the threads
 * not seized.  Not when SIGCHLD is ignored: the kernel then reaps traced
 * threads itself, and an ended thread could hide one not seized.  A
 * count that differs for any other reason (an ended main thread, passed
 * over; a thread the kernel attached to us at its birth, not yet listed)
 * only costs the pass.
 */
static int
all_seized(pid_t pid, int nseized)
{
	struct sigaction sa;

	if (sigaction(SIGCHLD, NULL, &sa) != 0 ||
	    sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_NOCLDWAIT) != 0)
		return 0;
	return pctx_status_field(pid, "Threads") == (long)nseized;
}

/* Say why seizing failed (e from capture_pass, 0: no thread seized). */
static void
capture_error(pctx_t *p, pid_t pid, int e, pid_t etid)
{
	if (e == EPERM)
		explain_eperm(p, pid, etid);
	else if (e == ESRCH || e == 0)
		pctx_err(p, "capture", "process %d does not exist", (int)pid);
	else
		pctx_err(p, "capture", "cannot trace pid %d: %s", (int)pid,
		    strerror(e));
}

PCTX_EXPORT pctx_t *
pctx_capture(pid_t pid, void *arg, int verbose, pctx_errfn_t *errfn)
{
	struct proc *pr;
	pctx_t *p;
	pid_t etid = pid;
	int n, e = 0, passes = 0, nseized = 0;

	if ((p = pctx_alloc(arg, verbose, errfn)) == NULL) {
		pctx_err(NULL, "capture", "%s", strerror(errno));
		return NULL;
	}
	if ((e = capture_check(p, pid)) != 0)
		goto out_free;
	if ((pr = pctx_proc_add(p, pid, PR_TRACKED)) == NULL) {
		pctx_err(p, "capture", "out of memory");
		e = ENOMEM;
		goto out_free;
	}
	p->p_pid = pid;
	/* Until a pass finds no thread it had not seized, or none is left. */
	do {
		n = capture_pass(p, pr, &e, &etid);
		passes++;
		nseized += n > 0 ? n : 0;
	} while (n > 0 && passes < 1000 && !all_seized(pid, nseized));
	if (n < 0 || pr->pr_lwps == NULL) {
		capture_error(p, pid, e, etid);
		pctx_release_all(p, 0);
		while (p->p_procs != NULL && pctx_drain(p, 1) >= 0)
			;
		e = e ? e : ESRCH;
		goto out_free;
	}
	return p;
out_free:
	pctx_free(p);
	errno = e;
	return NULL;
}
