/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track.c - cputrack's run: a libpctx client that binds a ring of sets
 * (common/setgrp) to every thread of the tracked tree and prints a line
 * at each event.
 *
 * Per thread: a setgrp, bound at init_lwp while the thread has not run.
 * Per process: one accumulator buffer per set, the totals of its threads
 * that left control, printed by exit, exec and total lines.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <libpctx.h>

#include "cli.h"
#include "cputrack.h"
#include "errh.h"
#include "format.h"
#include "msgsafe.h"
#include "output.h"
#include "setgrp.h"
#include "track_impl.h"
#include "smpl.h"

#define NHASH	TRACK_NHASH

struct tlwp {
	pid_t		 tl_tid;
	pid_t		 tl_pid;
	struct setgrp	*tl_sg;
	struct tlwp	*tl_next;	/* hash chain */
	struct tproc	*tl_proc;
	struct tlwp	*tl_pnext;	/* the process's threads, */
	struct tlwp	*tl_pprev;	/* both ways */
	int		 tl_ended;	/* ended before a rebind: nothing
					   bound, only its totals left */
};

struct tproc {
	pid_t		 tp_pid;
	cpc_buf_t	**tp_acc;	/* per set: totals of ended threads */
	struct tlwp	*tp_lwps;
	struct tproc	*tp_next;
};

struct tstate T;

/* The signals that end the tracking. */
static const int endsigs[] = { SIGINT, SIGHUP, SIGTERM };

/* libpctx's messages (the command's name in them) made safe to print. */
static void
pctx_errfn(const char *fn, const char *fmt, va_list ap)
{
	char msg[CPC_MSG_MAX];

	out_flush();
	cpc_vmsgsafe(msg, sizeof(msg), fmt, ap);
	if (T.o != NULL && T.o->o_debug)
		fprintf(stderr, "%s: pctx_%s: %s\n", progname, fn, msg);
	else
		fprintf(stderr, "%s: %s\n", progname, msg);
}

/* Threads and processes. */

static struct tlwp *
lwp_find(pid_t tid)
{
	struct tlwp *tl;

	for (tl = T.hash[tid % NHASH]; tl != NULL; tl = tl->tl_next)
		if (tl->tl_tid == tid)
			return tl;
	return NULL;
}

/* Out of the TID index (a retired thread is out of it already). */
static void
lwp_unhash(struct tlwp *tl)
{
	struct tlwp **pp;

	for (pp = &T.hash[tl->tl_tid % NHASH]; *pp != NULL;
	    pp = &(*pp)->tl_next)
		if (*pp == tl) {
			*pp = tl->tl_next;
			break;
		}
}

static void
lwp_free(struct tlwp *tl)
{
	lwp_unhash(tl);
	if (tl->tl_pprev != NULL)
		tl->tl_pprev->tl_pnext = tl->tl_pnext;
	else
		tl->tl_proc->tp_lwps = tl->tl_pnext;
	if (tl->tl_pnext != NULL)
		tl->tl_pnext->tl_pprev = tl->tl_pprev;
	setgrp_destroy(tl->tl_sg);
	free(tl);
}

/* Free every thread of a process (at exit, exec, release, retirement). */
static void
lwp_free_proc(struct tproc *tp)
{
	while (tp->tp_lwps != NULL)
		lwp_free(tp->tp_lwps);
}

static struct tproc *
proc_find(pid_t pid)
{
	struct tproc *tp;

	for (tp = T.procs; tp != NULL; tp = tp->tp_next)
		if (tp->tp_pid == pid)
			return tp;
	return NULL;
}

static struct tproc *
proc_get(pid_t pid)
{
	struct tproc *tp;
	int i;

	if ((tp = proc_find(pid)) != NULL)
		return tp;
	if ((tp = calloc(1, sizeof(*tp))) == NULL ||
	    (tp->tp_acc = calloc(T.o->o_nspecs, sizeof(*tp->tp_acc))) ==
	    NULL) {
		free(tp);
		return NULL;
	}
	tp->tp_pid = pid;
	for (i = 0; i < T.o->o_nspecs; i++)
		if ((tp->tp_acc[i] = cpc_buf_create(T.cpc, T.tmpl[i])) ==
		    NULL) {
			while (i-- > 0)
				cpc_buf_destroy(T.cpc, tp->tp_acc[i]);
			free(tp->tp_acc);
			free(tp);
			return NULL;
		}
	tp->tp_next = T.procs;
	T.procs = tp;
	T.nprocs++;
	return tp;
}

static void
proc_free(struct tproc *tp)
{
	struct tproc **pp;
	int i;

	lwp_free_proc(tp);
	for (pp = &T.procs; *pp != NULL; pp = &(*pp)->tp_next)
		if (*pp == tp) {
			*pp = tp->tp_next;
			break;
		}
	for (i = 0; i < T.o->o_nspecs; i++)
		cpc_buf_destroy(T.cpc, tp->tp_acc[i]);
	free(tp->tp_acc);
	free(tp);
}

/*
 * -p: a process let go is retired, not freed: out of the lists, its
 * lines printed.  Its threads' counters are closed at the loop's next
 * wait (others are still tracked: retired_free) or, at the end, by the
 * kernel when cputrack exits, as it detaches the threads then
 * (pctx_detach_at_exit), and main does not close the handle: at 4000
 * threads, 8000 closes and some 70000 frees and table look-ups spared,
 * a third of the attach's user time.
 */
static void
proc_retire(struct tproc *tp)
{
	struct tproc **pp;
	struct tlwp *tl;

	for (pp = &T.procs; *pp != NULL; pp = &(*pp)->tp_next)
		if (*pp == tp) {
			*pp = tp->tp_next;
			break;
		}
	for (tl = tp->tp_lwps; tl != NULL; tl = tl->tl_pnext)
		lwp_unhash(tl);
	tp->tp_next = T.retired;
	T.retired = tp;
}

static void
retired_free(void)
{
	struct tproc *tp;

	while ((tp = T.retired) != NULL) {
		T.retired = tp->tp_next;
		tp->tp_next = NULL;
		proc_free(tp);
	}
}

/* One line per set of the accumulator that holds counts. */
static hrtime_t
print_acc(struct tproc *tp, pid_t lwp, const char *kind)
{
	hrtime_t t, last = 0;
	int i;

	for (i = 0; i < T.o->o_nspecs; i++) {
		if ((t = cpc_buf_hrtime(T.cpc, tp->tp_acc[i])) == 0)
			continue;
		line_values(tp->tp_pid, lwp, kind, i, tp->tp_acc[i]);
		if (T.tree != NULL)
			cpc_buf_add(T.cpc, T.tree[i], T.tree[i], tp->tp_acc[i]);
		if (t > last)
			last = t;
	}
	return last;
}

/* After a process's totals: its profile (--profile), then forgotten. */
static void
print_profile(pid_t pid)
{
	char what[32];

	if (T.sm == NULL || T.outfail)
		return;
	snprintf(what, sizeof(what), "pid %d", (int)pid);
	smpl_print_profile(T.sm, T.out, pid, what);
	out_check();
}

/*
 * 0 bound; 1 the thread has ended (ESRCH: a thread of a process
 * attached with -p can end before its counters are opened, or between
 * the sets of a rotation; its end is reported after); -1 failed.
 */
static int
bind_elem(pctx_t *pctx, struct tlwp *tl, struct setgrp_elem *e,
    const char *cb)
{
	if (cpc_bind_pctx(T.cpc, pctx, tl->tl_tid, e->se_set, 0) != 0) {
		if (errno == ESRCH)
			return 1;
		warnmsg("%d: %s: %s", (int)tl->tl_pid, cb, errh_last());
		return -1;
	}
	setgrp_bound(tl->tl_sg, e);
	/* The title once the first thread counts, before it runs. */
	if (!T.titled)
		title();
	return 0;
}

static int
sample(struct tlwp *tl, struct setgrp_elem *e, const char *cb)
{
	if (setgrp_sample(tl->tl_sg, e) != 0) {
		warnmsg("%d: %s: cannot read the counters of thread %d: %s",
		    (int)tl->tl_pid, cb, (int)tl->tl_tid, errh_last());
		return -1;
	}
	return 0;
}

/* The pctx callbacks. */

static int
cb_init_lwp(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct setgrp_elem *e;
	struct tproc *tp;
	struct tlwp *tl;

	if ((tp = proc_get(pid)) == NULL) {
		warnmsg("%d: init_lwp: out of memory", (int)pid);
		return -1;
	}
	if ((tl = lwp_find((pid_t)lwpid)) != NULL)
		lwp_free(tl);
	if ((tl = calloc(1, sizeof(*tl))) == NULL ||
	    (tl->tl_sg = setgrp_create_like(T.cpc, T.o->o_specs,
	    T.o->o_nspecs, T.sm, T.tmpl)) == NULL) {
		warnmsg("%d: init_lwp: %s", (int)pid, tl == NULL ?
		    "out of memory" : errh_last());
		free(tl);
		return -1;
	}
	tl->tl_tid = (pid_t)lwpid;
	tl->tl_pid = pid;
	smpl_note_pid(T.sm, pid);
	tl->tl_next = T.hash[tl->tl_tid % NHASH];
	T.hash[tl->tl_tid % NHASH] = tl;
	tl->tl_proc = tp;
	tl->tl_pnext = tp->tp_lwps;
	if (tp->tp_lwps != NULL)
		tp->tp_lwps->tl_pprev = tl;
	tp->tp_lwps = tl;
	e = setgrp_cur(tl->tl_sg);
	switch (bind_elem(pctx, tl, e, "init_lwp")) {
	case 0:
		break;
	case 1:
		/* Ended before it could be counted: nothing to say of it. */
		lwp_free(tl);
		return cb_rc(0);
	default:
		return -1;
	}
	if (T.o->o_verbose) {
		if (sample(tl, e, "init_lwp") != 0)
			return -1;
		line_values(pid, tl->tl_tid, "init_lwp", 0, e->se_delta);
	}
	return cb_rc(0);
}

static int
cb_lwp_create(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tlwp *tl = lwp_find((pid_t)lwpid);
	struct setgrp_elem *e;

	if (tl == NULL || tl->tl_ended)
		return 0;
	e = setgrp_cur(tl->tl_sg);
	if (sample(tl, e, "lwp_create") != 0)
		return -1;
	line_values(pid, tl->tl_tid, "lwp_create", tl->tl_sg->sg_cur,
	    e->se_delta);
	return cb_rc(0);
}

static int
cb_tick(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tlwp *tl = lwp_find((pid_t)lwpid);
	struct setgrp_elem *e;
	int set;

	if (tl == NULL || tl->tl_ended)
		return 0;
	e = setgrp_cur(tl->tl_sg);
	set = tl->tl_sg->sg_cur;
	if (sample(tl, e, "tick") != 0)
		return -1;
	line_values(pid, tl->tl_tid, "tick", set, e->se_delta);
	if (T.o->o_nspecs > 1) {
		(void)cpc_unbind(T.cpc, e->se_set);
		switch (bind_elem(pctx, tl, setgrp_next(tl->tl_sg), "tick")) {
		case 0:
			break;
		case 1:
			tl->tl_ended = 1;
			break;
		default:
			return -1;
		}
	}
	return cb_rc(0);
}

static int
cb_fini_lwp(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tlwp *tl = lwp_find((pid_t)lwpid);
	struct tproc *tp = proc_find(pid);
	struct setgrp_elem *e;
	int i, rc;

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
	rc = tl->tl_ended ? 0 : sample(tl, e, "fini_lwp");
	for (i = 0; i < tl->tl_sg->sg_n; i++) {
		e = &tl->tl_sg->sg_elems[i];
		if (e->se_nsamples == 0)
			continue;
		cpc_buf_add(T.cpc, tp->tp_acc[i], tp->tp_acc[i], e->se_total);
		if (T.o->o_verbose)
			line_values(pid, tl->tl_tid, "fini_lwp", i,
			    e->se_total);
	}
	return cb_rc(rc);
}

static int
cb_lwp_exit(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg)
{
	struct tlwp *tl = lwp_find((pid_t)lwpid);
	int i;

	if (tl == NULL)
		return 0;
	for (i = 0; i < tl->tl_sg->sg_n; i++)
		if (tl->tl_sg->sg_elems[i].se_nsamples > 0)
			line_values(pid, tl->tl_tid, "lwp_exit", i,
			    tl->tl_sg->sg_elems[i].se_total);
	lwp_free(tl);
	return cb_rc(0);
}

static void
cb_exit(pctx_t *pctx, pid_t pid, id_t lwpid, int status, void *arg)
{
	struct tproc *tp = proc_find(pid);

	if (pid == pctx_pid(pctx)) {
		T.rootexited = 1;
		T.rootstatus = status;
	}
	if (tp == NULL)
		return;
	(void)print_acc(tp, (pid_t)lwpid, "exit");
	print_profile(pid);
	proc_free(tp);
}

/*
 * s with its control characters escaped, so that a newline in an
 * argument cannot break the one-line-per-record output: \n, \t, \\ for
 * a backslash, \ooo for the other bytes below 0x20 and 0x7f.  Bytes from
 * 0x80 up pass unchanged (UTF-8).  Cut to fit buf.
 */
const char *
escape(const char *s, char *buf, size_t len)
{
	char e[5];
	size_t n = 0, k;
	unsigned char c;

	for (; (c = (unsigned char)*s) != '\0'; s++) {
		if (c == '\\' || c == '\n' || c == '\t')
			snprintf(e, sizeof(e), "\\%c", c == '\n' ? 'n' :
			    c == '\t' ? 't' : '\\');
		else if (c < 0x20 || c == 0x7f)
			snprintf(e, sizeof(e), "\\%03o", c);
		else
			snprintf(e, sizeof(e), "%c", c);
		if (n + (k = strlen(e)) >= len)
			break;
		memcpy(buf + n, e, k);
		n += k;
	}
	buf[n] = '\0';
	return buf;
}

static int
cb_exec(pctx_t *pctx, pid_t pid, id_t lwpid, char *cmd, void *arg)
{
	struct tproc *tp = proc_find(pid);
	char esc[4 * CMDMAX + 1];
	hrtime_t last = 0;
	int i;

	if (tp != NULL) {
		last = print_acc(tp, (pid_t)lwpid, "exec");
		print_profile(pid);
		smpl_exec_pid(T.sm, pid);
		lwp_free_proc(tp);
		for (i = 0; i < T.o->o_nspecs; i++)
			cpc_buf_zero(T.cpc, tp->tp_acc[i]);
	}
	if (T.fmt != NULL)
		fmt_note(last, pid, (pid_t)lwpid, "exec", 0, cmd);
	else
		line_note(last, pid, (pid_t)lwpid, "exec", "'%s'",
		    *cmd != '\0' ? escape(cmd, esc, sizeof(esc)) :
		    "(unknown)");
	if (T.o->o_followexec)
		return cb_rc(0);
	if (tp != NULL)
		proc_free(tp);
	return cb_rc(1);
}

static int
cb_fork(pctx_t *pctx, pid_t pid, id_t lwpid, pid_t child, void *arg)
{
	if (T.fmt != NULL)
		fmt_note(now(), pid, (pid_t)lwpid, "fork", child, NULL);
	else
		line_note(now(), pid, (pid_t)lwpid, "fork", "%d", (int)child);
	return cb_rc(T.o->o_followfork);
}

static void
cb_release(pctx_t *pctx, pid_t pid, void *arg)
{
	struct tproc *tp = proc_find(pid);

	if (tp == NULL)
		return;
	(void)print_acc(tp, pid, "total");
	print_profile(pid);
	if (T.o->o_pid != 0)
		proc_retire(tp);
	else
		proc_free(tp);
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
	(void)pctx;
	(void)arg;
	out_flush();
	retired_free();
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

/*
 * Signals end the tracking; a created command gets the signal too.  The
 * handler only notes it: pctx_terminate makes pctx_run finish, or, once
 * the command runs on released, makes pctx_wait return EINTR, and the
 * main flow forwards it (forward).
 */
static void
on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	T.sig = sig;
	/* The terminal signalled the command itself already. */
	T.sigfwd = si == NULL || si->si_code != SI_KERNEL;
	pctx_terminate(T.pctx);
}

static void
catch_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(endsigs) / sizeof(endsigs[0]); i++) {
		/* An ignored INT or HUP (nohup, &) stays ignored. */
		if (endsigs[i] != SIGTERM &&
		    sigaction(endsigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		(void)sigaction(endsigs[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
}

/* Block the signals that end the tracking; *old gets the mask before. */
static void
block_endsigs(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(endsigs) / sizeof(endsigs[0]); i++)
		sigaddset(&set, endsigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * Send the command the signal caught since the last call, if any (several
 * merge into the last, as pending signals do).  The signals are blocked
 * meanwhile, so that the one counted is the one sent.  pctx_kill never
 * reaches a process that took the pid of a command already reaped.
 */
void
forward(void)
{
	sigset_t old;

	block_endsigs(&old);
	if (T.sig != 0) {
		if (T.sigfwd)
			(void)pctx_kill(T.pctx, T.sig);
		T.sig = 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int
outfailed(void)
{
	if (!T.outfail || T.outerr == EPIPE)
		return 0;
	if (T.outerr != 0)
		warnmsg("write error: %s", strerror(T.outerr));
	return 1;
}

static int
exec_status(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
	case ENAMETOOLONG:
		return EXIT_NOTFOUND;
	case EACCES:
	case ENOEXEC:
	case EISDIR:
	case ETXTBSY:
	case ELOOP:
		return EXIT_NOEXEC;
	default:
		return EXIT_OWNFAIL;
	}
}

int
wait_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return EXIT_OWNFAIL;
}

/*
 * The end of a command: wait for it, forwarding the signals that come
 * meanwhile, and return its status.  After a failure, kill it first,
 * tracked or already released (it would else outlive us, or be killed by
 * its parent-death signal and left to init unreaped), and return 125.
 */
static int
end_command(int failed)
{
	int st;

	if (failed)
		(void)pctx_kill(T.pctx, SIGKILL);
	else
		forward();
	while (pctx_wait(T.pctx, &st) != 0) {
		if (errno != EINTR) {
			warnmsg("cannot wait for the command: %s",
			    strerror(errno));
			return EXIT_OWNFAIL;
		}
		if (!failed)
			forward();
	}
	return failed ? EXIT_OWNFAIL : wait_status(st);
}

/*
 * Kill what is still tracked of a command, or detach a -p process, and
 * free the handle; a signal from now on finds no handle to terminate.
 */
static void
release(void)
{
	sigset_t old;
	pctx_t *p;

	block_endsigs(&old);
	p = T.pctx;
	T.pctx = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
	pctx_release(p);
}

static void
cleanup(void)
{
	int i;

	while (T.procs != NULL)
		proc_free(T.procs);
	for (i = 0; i < T.o->o_nspecs; i++) {
		if (T.tree != NULL)
			cpc_buf_destroy(T.cpc, T.tree[i]);
		cpc_set_destroy(T.cpc, T.tmpl[i]);
	}
	free(T.tree);
	free(T.tmpl);
	fmt_destroy(T.fmt);
	smpl_destroy(T.sm);
}

/*
 * Open every set once on cputrack itself and leave it disabled.  A
 * tracepoint is registered in the kernel while any event uses it, and
 * unregistering costs tens of milliseconds (RCU grace periods): without
 * this anchor, the exec of a single-threaded command under -e would close
 * the last user of each tracepoint and reopen it at once.  Where a set
 * cannot be opened here (a user's per-thread rules) nothing is lost.
 */
static void
anchor(void)
{
	int i;

	for (i = 0; i < T.o->o_nspecs; i++)
		if (cpc_bind_curlwp(T.cpc, T.tmpl[i], 0) == 0)
			(void)cpc_unbind(T.cpc, T.tmpl[i]);
	errh_clear();
}

/* The command started, or the process captured, for pctx_run. */
static pctx_t *
start(const struct topts *o)
{
	if (o->o_pid != 0)
		return pctx_capture(o->o_pid, NULL, 0, pctx_errfn);
	return pctx_create(o->o_argv[0], o->o_argv, NULL, 0, pctx_errfn);
}

int
track(cpc_t *cpc, const struct topts *o)
{
	int fail = o->o_pid ? 1 : EXIT_OWNFAIL;
	int i, rc, failed, first;

	T.cpc = cpc;
	T.o = o;
	T.out = o->o_out;
	setvbuf(T.out, NULL, _IOFBF, 0);
	if ((T.tmpl = calloc(o->o_nspecs, sizeof(*T.tmpl))) == NULL) {
		warnmsg("out of memory");
		return fail;
	}
	if (smpl_on(&o->o_smpl) && (T.sm = smpl_create(cpc, &o->o_smpl,
	    SMPL_BY_PID)) == NULL) {
		warnmsg("-S: %s", errh_last());
		cleanup();
		return fail;
	}
	for (i = 0; i < o->o_nspecs; i++)
		if ((T.tmpl[i] = setgrp_build(cpc, &o->o_specs[i], T.sm,
		    &first)) == NULL) {
			warnmsg("-c '%s': %s", o->o_specs[i].sp_text,
			    errh_last());
			cleanup();
			return fail;
		}
	if (setup_output() != 0) {
		cleanup();
		return fail;
	}
	anchor();
	if ((T.pctx = start(o)) == NULL) {
		cleanup();
		return o->o_pid ? 1 : exec_status(errno);
	}
	/*
	 * -p: we end right after the run, and the kernel then detaches
	 * every thread at once, not stopping one (see pctx_set_ops(3)).
	 */
	if (o->o_pid != 0)
		(void)pctx_detach_at_exit(T.pctx);
	T.rootpid = pctx_pid(T.pctx);
	/* Only now: the command keeps the limit it was given. */
	cli_raise_nofile();
	pctx_set_ops(T.pctx, &ops);
	pctx_set_idle(T.pctx, cb_idle);
	catch_signals();
	T.t0 = now();
	smpl_start(T.sm, T.t0);
	if (ends_start() == 0) {
		rc = ends_run();
		release();
		if (tree_total() != 0 && rc == 0)
			rc = fail;
		ends_cleanup();
		cleanup();
		return rc;
	}
	failed = pctx_run(T.pctx, o->o_msec, o->o_count, cb_tick) != 0;
	out_flush();	/* before a wait for the command */
	if (outfailed())
		failed = 1;
	if (o->o_pid == 0)
		rc = end_command(failed);
	else if (failed)
		rc = 1;
	else
		rc = T.rootexited && WIFSIGNALED(T.rootstatus) ?
		    wait_status(T.rootstatus) : 0;
	release();
	if (tree_total() != 0 && rc == 0)
		rc = fail;
	if (T.sm != NULL && smpl_finish(T.sm) != 0 && rc == 0)
		rc = fail;
	cleanup();
	return rc;
}
