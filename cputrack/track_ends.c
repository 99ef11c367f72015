/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track_ends.c - cputrack without a stop at each thread.
 *
 * A ptrace stop at every thread's birth and end costs the command about
 * 50 us a thread (bench/ptfloor.c), more than perf stat's whole cost of a
 * thread.  Where nothing needs a thread stopped - no ticks (-T 0), one
 * set, a command of ours (not -p), no -e, -f, -v, -t or -S - the one set
 * is bound to the command's first thread with CPC_BIND_LWP_INHERIT and
 * CPC_BIND_LWP_ENDS before it runs: the kernel copies the counters into
 * each new thread at its creation, and when one ends it keeps that
 * thread's own counts for us.  libpctx then lets the command go
 * (pctx_detach), and a reader thread prints each report the library
 * gives, as the ptrace run prints the same events:
 *
 *	a new thread		lwp_create (its counters start at 0)
 *	a thread's end		lwp_exit with its own counts
 *	a fork			the fork line (the child is not counted)
 *	the exec		lwp_exit for the first thread when another one
 *				exec'd, then the exec lines; the counters
 *				froze at the exec, and tracking ends
 *
 * The first thread's own counts are never reported apart, as in the
 * ptrace run: they are in the exit (or total) line, read from the set
 * once the command is reaped, which sums every thread's.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <libpctx.h>

#include "cputrack.h"
#include "errh.h"
#include "setgrp.h"
#include "track_impl.h"

/*
 * The reader looks at the ring so often: an exec's command line is read
 * while the new image runs.  It does not poll the ring's descriptor: the
 * kernel wakes its pollers at every thread's end (for POLLHUP), and a
 * wake-up a thread would cost more than the thread.  The ring holds
 * thousands of threads' reports: more than can come in POLL_MS.
 */
#define POLL_MS		10

static struct {
	struct setgrp	*sg;
	cpc_set_t	*set;
	cpc_buf_t	*buf;		/* the reader's, for each report */
	cpc_buf_t	*acc;		/* the ended threads' counts, summed */
	cpc_buf_t	*tot;		/* the set's counts */
	pid_t		 pid;
	int		 stopfd;	/* eventfd: the reader ends */
	pthread_t	 reader;
	int		 reading;	/* the reader runs */
	int		 over;		/* exec or totals printed: no more */
	int		 execthr;	/* another thread than the first exec'd */
	int		 lostsaid;
} E = { .stopfd = -1 };

/* Whether the options let the threads run without stops. */
static int
applies(const struct topts *o)
{
	return o->o_msec == 0 && o->o_pid == 0 && o->o_nspecs == 1 &&
	    !o->o_followexec && !o->o_followfork && !o->o_verbose &&
	    !o->o_tick && !smpl_on(&o->o_smpl);
}

/* The exec: the first thread's end if another exec'd, the exec lines. */
static void
on_exec(const cpc_lwp_event_t *ev)
{
	char cmd[CMDMAX], esc[4 * CMDMAX + 1];
	hrtime_t t;

	if (cpc_set_sample(T.cpc, E.set, E.tot) != 0) {
		warnmsg("%d: exec: cannot read the counters: %s",
		    (int)ev->le_pid, errh_last());
		return;
	}
	if (E.execthr) {
		cpc_buf_sub(T.cpc, E.acc, E.tot, E.acc);
		line_values(ev->le_pid, ev->le_pid, "lwp_exit", 0, E.acc);
	}
	line_values(ev->le_pid, ev->le_tid, "exec", 0, E.tot);
	t = cpc_buf_hrtime(T.cpc, E.tot);
	/* Gone by now, maybe: then the program's name. */
	pctx_cmdline(ev->le_pid, cmd, sizeof(cmd));
	if (*cmd == '\0')
		snprintf(cmd, sizeof(cmd), "%s", ev->le_comm);
	if (T.fmt != NULL)
		fmt_note(t, ev->le_pid, ev->le_tid, "exec", 0, cmd);
	else
		line_note(t, ev->le_pid, ev->le_tid, "exec", "'%s'",
		    *cmd != '\0' ? escape(cmd, esc, sizeof(esc)) :
		    "(unknown)");
}

/* One report of the library: its line.  Non-zero: no more reports. */
static int
on_report(void *arg, const cpc_lwp_event_t *ev, cpc_buf_t *buf)
{
	(void)arg;
	if (E.over || T.outfail)
		return 1;
	switch (ev->le_what) {
	case CPC_LWP_CREATE:
		line_values(ev->le_pid, ev->le_tid, "lwp_create", 0, buf);
		break;
	case CPC_LWP_END:
		cpc_buf_add(T.cpc, E.acc, E.acc, buf);
		/* The thread that exec'd has taken the first one's id. */
		if (ev->le_tid == ev->le_pid)
			E.execthr = 1;
		else
			line_values(ev->le_pid, ev->le_tid, "lwp_exit", 0, buf);
		break;
	case CPC_LWP_FORK:
		if (T.fmt != NULL)
			fmt_note(ev->le_time, ev->le_pid, ev->le_tid, "fork",
			    ev->le_child, NULL);
		else
			line_note(ev->le_time, ev->le_pid, ev->le_tid, "fork",
			    "%d", (int)ev->le_child);
		break;
	case CPC_LWP_EXEC:
		on_exec(ev);
		E.over = 1;
		break;
	case CPC_LWP_LOST:
		if (E.lostsaid++)
			break;
		if (ev->le_lost > 0)
			warnmsg("%d: %llu reports of threads did not fit the "
			    "ring: some lwp_create and lwp_exit lines are "
			    "missing (the totals are whole)", (int)E.pid,
			    (unsigned long long)ev->le_lost);
		else
			warnmsg("%d: reports of threads did not fit the ring: "
			    "some lwp_create and lwp_exit lines are missing "
			    "(the totals are whole)", (int)E.pid);
		break;
	}
	out_check();
	return E.over || T.outfail;
}

/* Every report waiting, printed, and written out at once. */
static void
drain(void)
{
	if (!E.over && !T.outfail &&
	    cpc_lwp_events(T.cpc, E.set, E.buf, on_report, NULL) < 0)
		warnmsg("%d: %s", (int)E.pid, errh_last());
	if (!T.outfail) {
		fflush(T.out);
		out_check();
	}
}

/* The reader: every POLL_MS until stopped. */
static void *
read_reports(void *arg)
{
	struct pollfd fd;

	(void)arg;
	fd.fd = E.stopfd;
	fd.events = POLLIN;
	for (;;) {
		int n = poll(&fd, 1, POLL_MS);

		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (fd.revents & POLLIN))
			break;
		drain();
	}
	return NULL;
}

static void
stop_reader(void)
{
	uint64_t one = 1;

	if (!E.reading)
		return;
	(void)!write(E.stopfd, &one, sizeof(one));
	pthread_join(E.reader, NULL);
	E.reading = 0;
}

/* The reader, with every signal blocked: they are the main thread's. */
static int
start_reader(void)
{
	sigset_t all, old;
	int e;

	if ((E.stopfd = eventfd(0, EFD_CLOEXEC)) < 0)
		return errno;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&E.reader, NULL, read_reports, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	E.reading = e == 0;
	return e;
}

void
ends_cleanup(void)
{
	stop_reader();
	if (E.stopfd >= 0)
		close(E.stopfd);
	E.stopfd = -1;
	if (E.buf != NULL)
		cpc_buf_destroy(T.cpc, E.buf);
	if (E.acc != NULL)
		cpc_buf_destroy(T.cpc, E.acc);
	if (E.tot != NULL)
		cpc_buf_destroy(T.cpc, E.tot);
	E.buf = E.acc = E.tot = NULL;
	setgrp_destroy(E.sg);
	E.sg = NULL;
}

int
ends_start(void)
{
	int e;

	if (!applies(T.o))
		return -1;
	E.pid = T.rootpid;
	if ((E.sg = setgrp_create_smpl(T.cpc, T.o->o_specs, 1, NULL)) ==
	    NULL)
		return -1;
	E.set = setgrp_cur(E.sg)->se_set;
	/* A kernel before 5.13 refuses: the ptrace run counts instead. */
	if (cpc_bind_pctx(T.cpc, T.pctx, E.pid, E.set,
	    CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS) != 0 ||
	    (E.buf = cpc_buf_create(T.cpc, E.set)) == NULL ||
	    (E.acc = cpc_buf_create(T.cpc, E.set)) == NULL ||
	    (E.tot = cpc_buf_create(T.cpc, E.set)) == NULL) {
		if (T.o->o_debug)
			warnmsg("threads are stopped at birth and end: %s",
			    errh_last());
		errh_clear();
		ends_cleanup();
		return -1;
	}
	/* The reader's first drain waits for the stream (its lock). */
	flockfile(T.out);
	if ((e = start_reader()) != 0) {
		funlockfile(T.out);
		warnmsg("cannot start a thread: %s", strerror(e));
		ends_cleanup();
		return -1;
	}
	title();
	/*
	 * The reader writes what it read all at once (drain), not a line at
	 * a time: a write per line would cost more than the thread did.
	 */
	fflush(T.out);
	setvbuf(T.out, NULL, _IOFBF, 0);
	funlockfile(T.out);
	(void)pctx_detach(T.pctx);
	return 0;
}

/* The reader stopped, the last reports, and the set's line of kind. */
static void
finish(const char *kind)
{
	stop_reader();
	drain();
	if (E.over || T.outfail)
		return;
	E.over = 1;
	if (cpc_set_sample(T.cpc, E.set, E.tot) != 0) {
		warnmsg("%d: %s: cannot read the counters: %s", (int)E.pid,
		    kind, errh_last());
		return;
	}
	line_values(E.pid, E.pid, kind, 0, E.tot);
	fflush(T.out);
	out_check();
}

/*
 * Wait for the command.  A signal (or a failed write) ends the tracking
 * as in the ptrace run: the reports so far and a total line, then the
 * signal goes to the command, which is waited for.
 */
int
ends_run(void)
{
	int st;

	while (pctx_wait(T.pctx, &st) != 0) {
		if (errno != EINTR) {
			warnmsg("cannot wait for the command: %s",
			    strerror(errno));
			(void)pctx_kill(T.pctx, SIGKILL);
			return EXIT_OWNFAIL;
		}
		finish("total");
		forward();
	}
	/* A signal that came as the command ended ends the tracking too. */
	finish(T.sig != 0 ? "total" : "exit");
	/* Lines lost are cputrack's failure, as a failed write is. */
	if (outfailed() || T.outfatal || E.lostsaid)
		return EXIT_OWNFAIL;
	return wait_status(st);
}
