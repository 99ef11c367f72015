/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * command.c - the command cputrack runs, or the process it attaches to:
 * its start, the signals that end the tracking (forwarded to a command),
 * its wait and exit status (as time(1)), its release.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <libpctx.h>

#include "command.h"
#include "lines.h"
#include "msgsafe.h"

/* The signals that end the tracking. */
static const int endsigs[] = { SIGINT, SIGHUP, SIGTERM };

/*
 * The run's state for the two entries that get no argument: the signal
 * handler, and libpctx's error function (its Solaris type has none).
 * Set once, before either can be called.
 */
static struct tracker *noarg_tracker;

/* libpctx's messages (the command's name in them) made safe to print. */
static void
pctx_errfn(const char *fn, const char *fmt, va_list ap)
{
	struct tracker *tr = noarg_tracker;
	char msg[CPC_MSG_MAX];

	out_flush(tr);
	cpc_vmsgsafe(msg, sizeof(msg), fmt, ap);
	if (tr->tr_o->o_debug)
		fprintf(stderr, "%s: pctx_%s: %s\n", PROGNAME, fn, msg);
	else
		fprintf(stderr, "%s: %s\n", PROGNAME, msg);
}

int
command_start(struct tracker *tr)
{
	const struct topts *o = tr->tr_o;

	noarg_tracker = tr;
	if (o->o_pid != 0)
		tr->tr_pctx = pctx_capture(o->o_pid, tr, 0, pctx_errfn);
	else
		tr->tr_pctx = pctx_create(o->o_argv[0], o->o_argv, tr, 0,
		    pctx_errfn);
	return tr->tr_pctx != NULL ? 0 : -1;
}

int
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

/*
 * Signals end the tracking; a created command gets the signal too.  The
 * handler only notes it: pctx_terminate makes pctx_run finish, or, once
 * the command runs on released, makes pctx_wait return EINTR, and the
 * main flow forwards it (forward).
 */
static void
on_signal(int sig, siginfo_t *si, void *uc)
{
	struct tracker *tr = noarg_tracker;

	(void)uc;
	tr->tr_sig = sig;
	/* The terminal signalled the command itself already. */
	tr->tr_sigfwd = si == NULL || si->si_code != SI_KERNEL;
	pctx_terminate(tr->tr_pctx);
}

void
catch_signals(struct tracker *tr)
{
	struct sigaction sa, old;
	size_t i;

	noarg_tracker = tr;
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
 * Several signals merge into the last, as pending signals do.  The
 * signals are blocked meanwhile, so that the one counted is the one
 * sent.  pctx_kill never reaches a process that took the pid of a
 * command already reaped.
 */
void
forward(struct tracker *tr)
{
	sigset_t old;

	block_endsigs(&old);
	if (tr->tr_sig != 0) {
		if (tr->tr_sigfwd)
			(void)pctx_kill(tr->tr_pctx, tr->tr_sig);
		tr->tr_sig = 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
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
 * After a failure the command is killed first, tracked or already
 * released: it would else outlive us, or be killed by its parent-death
 * signal and left to init unreaped.
 */
int
end_command(struct tracker *tr, int failed)
{
	int st;

	if (failed)
		(void)pctx_kill(tr->tr_pctx, SIGKILL);
	else
		forward(tr);
	while (pctx_wait(tr->tr_pctx, &st) != 0) {
		if (errno != EINTR) {
			warnmsg(tr, "cannot wait for the command: %s",
			    strerror(errno));
			return EXIT_OWNFAIL;
		}
		if (!failed)
			forward(tr);
	}
	return failed ? EXIT_OWNFAIL : wait_status(st);
}

/* The handle is taken away first: a signal from now on finds none. */
void
command_release(struct tracker *tr)
{
	sigset_t old;
	pctx_t *p;

	block_endsigs(&old);
	p = tr->tr_pctx;
	tr->tr_pctx = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
	pctx_release(p);
}
