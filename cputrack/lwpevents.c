/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lwpevents.c - cputrack without a stop at each thread: the LWP event
 * reports of the command's threads (and with -f of its processes).
 *
 * A ptrace stop at every thread's birth and end costs the command about
 * 50 us a thread (bench/forkexec-ptfloor.c), more than perf stat's whole
 * cost of a thread.  Where nothing needs a thread stopped - no ticks
 * (-T 0), one set, a command of ours (not -p), no -e, -v, -t or -S - the
 * one set is bound to the command's first thread with
 * CPC_BIND_LWP_INHERIT and CPC_BIND_LWP_EVENTS (the LWP event reports)
 * before it runs: the kernel
 * copies the counters into each new thread at its creation, and when one
 * ends it keeps that thread's own counts for us.  With -f,
 * CPC_BIND_LWP_FORKS as well: the kernel copies them into each process
 * forked too (lwpevlines.c says how they are counted).  libpctx then
 * lets the command go (pctx_detach), and a reader thread prints each
 * report the library gives, as the ptrace run prints the same events:
 *
 *	a new thread		lwp_create (its counters start at 0)
 *	a thread's end		lwp_exit with its own counts
 *	a fork			the fork line (without -f, the child is not
 *				counted)
 *	the exec		lwp_exit for the first thread when another one
 *				exec'd, then the exec lines; the counters
 *				froze at the exec, and tracking of the
 *				process ends
 *
 * The first thread's own counts are never reported apart, as in the
 * ptrace run: they are in the exit (or total) line, read from the set
 * once the command is reaped, which sums every thread's.
 *
 * The reader thread and, once it is stopped, the main thread print; the
 * run's state (struct lwpev) reaches the reader as its argument and the
 * report callback as cpc_lwp_events' arg.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <libpctx.h>

#include "command.h"
#include "errh.h"
#include "lines.h"
#include "lwpevents.h"
#include "lwpevlines.h"
#include "setgrp.h"
#include "smpl.h"

/*
 * The reader looks at the ring so often: an exec's command line is read
 * while the new image runs.  It does not poll the ring's descriptor: the
 * kernel wakes its pollers at every thread's end (for POLLHUP), and a
 * wake-up a thread would cost more than the thread.  The ring holds
 * thousands of threads' reports: more than can come in POLL_MS.
 */
#define POLL_MS		10

/* Whether the options let the threads run without stops. */
static int
runs_without_stops(const struct topts *o)
{
	return o->o_msec == 0 && o->o_pid == 0 && o->o_nspecs == 1 &&
	    !o->o_followexec && !o->o_verbose &&
	    !o->o_tick && !smpl_on(&o->o_smpl);
}

/* Every report waiting, printed, and written out at once. */
static void
drain_reports(struct lwpev *lr)
{
	struct tracker *tr = lr->lr_tr;

	if (!lr->lr_over && !tr->tr_outfail &&
	    cpc_lwp_events(tr->tr_cpc, lr->lr_set, lr->lr_buf, lwpev_report,
	    lr) < 0)
		warnmsg(tr, "%d: %s", (int)lr->lr_pid, errh_last());
	if (lr->lr_tree && !lr->lr_over && !tr->tr_outfail)
		lwpev_give_up_lost(lr);
	if (!tr->tr_outfail) {
		fflush(tr->tr_out);
		out_check(tr);
	}
}

/* The reader: every POLL_MS until stopped. */
static void *
read_reports(void *arg)
{
	struct lwpev *lr = arg;
	struct pollfd fd;

	fd.fd = lr->lr_stopfd;
	fd.events = POLLIN;
	for (;;) {
		int n = poll(&fd, 1, POLL_MS);

		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (fd.revents & POLLIN))
			break;
		drain_reports(lr);
	}
	return NULL;
}

static void
stop_reader(struct lwpev *lr)
{
	uint64_t one = 1;

	if (!lr->lr_reading)
		return;
	(void)!write(lr->lr_stopfd, &one, sizeof(one));
	pthread_join(lr->lr_reader, NULL);
	lr->lr_reading = 0;
}

/* The reader, with every signal blocked: they are the main thread's. */
static int
start_reader(struct lwpev *lr)
{
	sigset_t all, old;
	int e;

	if ((lr->lr_stopfd = eventfd(0, EFD_CLOEXEC)) < 0)
		return errno;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&lr->lr_reader, NULL, read_reports, lr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	lr->lr_reading = e == 0;
	return e;
}

void
lwpev_destroy(struct lwpev *lr)
{
	cpc_t *cpc;

	if (lr == NULL)
		return;
	cpc = lr->lr_tr->tr_cpc;
	stop_reader(lr);
	if (lr->lr_stopfd >= 0)
		close(lr->lr_stopfd);
	if (lr->lr_buf != NULL)
		cpc_buf_destroy(cpc, lr->lr_buf);
	if (lr->lr_acc != NULL)
		cpc_buf_destroy(cpc, lr->lr_acc);
	if (lr->lr_tot != NULL)
		cpc_buf_destroy(cpc, lr->lr_tot);
	if (lr->lr_kidsum != NULL)
		cpc_buf_destroy(cpc, lr->lr_kidsum);
	while (lr->lr_nkids > 0) {
		cpc_buf_destroy(cpc, lr->lr_kids[--lr->lr_nkids].k_acc);
		cpc_buf_destroy(cpc, lr->lr_kids[lr->lr_nkids].k_hbuf);
	}
	free(lr->lr_kids);
	setgrp_destroy(lr->lr_sg);
	free(lr);
}

/*
 * The set bound to the command with the LWP event reports, and the
 * buffers; 0, or -1.  A kernel before 5.13 refuses, and -f where the
 * library cannot see every process's end: the ptrace run counts instead.
 */
static int
bind_reports(struct lwpev *lr)
{
	struct tracker *tr = lr->lr_tr;
	cpc_t *cpc = tr->tr_cpc;

	if ((lr->lr_sg = setgrp_create(cpc, tr->tr_o->o_specs, 1)) == NULL)
		return -1;
	lr->lr_set = setgrp_cur(lr->lr_sg)->se_set;
	if (cpc_bind_pctx(cpc, tr->tr_pctx, lr->lr_pid, lr->lr_set,
	    CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_EVENTS |
	    (lr->lr_tree ? CPC_BIND_LWP_FORKS : 0)) != 0 ||
	    (lr->lr_buf = cpc_buf_create(cpc, lr->lr_set)) == NULL ||
	    (lr->lr_acc = cpc_buf_create(cpc, lr->lr_set)) == NULL ||
	    (lr->lr_tot = cpc_buf_create(cpc, lr->lr_set)) == NULL ||
	    (lr->lr_tree &&
	    (lr->lr_kidsum = cpc_buf_create(cpc, lr->lr_set)) == NULL)) {
		if (tr->tr_o->o_debug)
			warnmsg(tr, "%s are stopped at birth and end: %s",
			    lr->lr_tree ? "threads and processes" : "threads",
			    errh_last());
		errh_clear();
		return -1;
	}
	return 0;
}

struct lwpev *
lwpev_start(struct tracker *tr)
{
	struct lwpev *lr;
	int e;

	if (!runs_without_stops(tr->tr_o) ||
	    (lr = calloc(1, sizeof(*lr))) == NULL)
		return NULL;
	lr->lr_tr = tr;
	lr->lr_stopfd = -1;
	lr->lr_pid = tr->tr_rootpid;
	lr->lr_tree = tr->tr_o->o_followfork;
	lr->lr_rootlive = 1;
	if (bind_reports(lr) != 0) {
		lwpev_destroy(lr);
		return NULL;
	}
	/* The reader's first drain waits for the stream (its lock). */
	flockfile(tr->tr_out);
	if ((e = start_reader(lr)) != 0) {
		funlockfile(tr->tr_out);
		warnmsg(tr, "cannot start a thread: %s", strerror(e));
		lwpev_destroy(lr);
		return NULL;
	}
	print_title(tr);
	/*
	 * The reader writes what it read all at once (drain_reports), not a
	 * line at a time: a write per line would cost more than the thread
	 * did.
	 */
	fflush(tr->tr_out);
	setvbuf(tr->tr_out, NULL, _IOFBF, 0);
	funlockfile(tr->tr_out);
	(void)pctx_detach(tr->tr_pctx);
	return lr;
}

/* The reader stopped, the last reports, and the set's line of kind. */
static void
print_last_lines(struct lwpev *lr, const char *kind)
{
	stop_reader(lr);
	drain_reports(lr);
	lwpev_last_lines(lr, kind);
}

/*
 * -f, the command waited for: until no kid is left, or a signal.  The
 * reports are read here from now on: the command's end is in already,
 * and often the last kid's.
 */
static void
wait_tree(struct lwpev *lr)
{
	struct timespec ts = { 0, POLL_MS * 1000000L };
	struct tracker *tr = lr->lr_tr;

	stop_reader(lr);
	lr->lr_reaped = 1;
	for (;;) {
		drain_reports(lr);
		if (tr->tr_sig != 0 || tr->tr_outfail || lr->lr_over ||
		    lr->lr_rootlive + lr->lr_nkids == 0)
			break;
		nanosleep(&ts, NULL);
	}
}

/*
 * A signal (or a failed write) ends the tracking as in the ptrace run:
 * the reports so far and a total line, then the signal goes to the
 * command, which is waited for.  -f: then for the kids still counted.
 */
int
lwpev_wait(struct lwpev *lr)
{
	struct tracker *tr = lr->lr_tr;
	int st;

	while (pctx_wait(tr->tr_pctx, &st) != 0) {
		if (errno != EINTR) {
			warnmsg(tr, "cannot wait for the command: %s",
			    strerror(errno));
			(void)pctx_kill(tr->tr_pctx, SIGKILL);
			return EXIT_OWNFAIL;
		}
		print_last_lines(lr, "total");
		forward(tr);
	}
	if (lr->lr_tree && !lr->lr_over)
		wait_tree(lr);
	/* A signal that came as the command ended ends the tracking too. */
	print_last_lines(lr, tr->tr_sig != 0 ? "total" : "exit");
	/* Lines lost are cputrack's failure, as a failed write is. */
	if (outfailed(tr) || tr->tr_outfatal || lr->lr_lostsaid ||
	    lr->lr_kidlost)
		return EXIT_OWNFAIL;
	return wait_status(st);
}
