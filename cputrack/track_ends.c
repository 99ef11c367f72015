/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track_ends.c - cputrack without a stop at each thread.
 *
 * A ptrace stop at every thread's birth and end costs the command about
 * 50 us a thread (bench/ptfloor.c), more than perf stat's whole cost of a
 * thread.  Where nothing needs a thread stopped - no ticks (-T 0), one
 * set, a command of ours (not -p), no -e, -v, -t or -S - the one set
 * is bound to the command's first thread with CPC_BIND_LWP_INHERIT and
 * CPC_BIND_LWP_ENDS before it runs: the kernel copies the counters into
 * each new thread at its creation, and when one ends it keeps that
 * thread's own counts for us.  With -f, CPC_BIND_LWP_FORKS as well: the
 * kernel copies them into each process forked too (see Fork and exec
 * under -f, below).  libpctx then lets the command go
 * (pctx_detach), and a reader thread prints each report the library
 * gives, as the ptrace run prints the same events:
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
 * Fork and exec under -f.  A forked process (a kid) is counted from its
 * fork to its exit or exec, as the ptrace run counts it: its threads'
 * ends are summed into its exit or exec line, printed when the library
 * reports its last thread's exit or its exec.  As in the ptrace run,
 * each of its threads but the last has a lwp_exit line, and the exit
 * line names the last: a thread's end is held back until the kid's next
 * end, exit or exec says whether it was the last.  The set's count is
 * the whole tree's, so the command's own is it less every kid's; the
 * command's exit (or exec) line is printed once it has ended and no kid
 * is left: only then is that difference exact, the kids' counts all in.
 * A kid whose end was not reported (reports lost) is given up once it is
 * gone (its exit line holds what came).
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

/* -f: what a loss of reports leaves whole. */
#define LOST_TREE	"the tree's total is whole; the command's line may " \
			"hold what its children's lines lack"

/* -f: a process forked in the tree, until its exit or exec. */
struct kid {
	pid_t		 k_pid;
	int		 k_gone;	/* drains since it was seen gone */
	cpc_buf_t	*k_acc;		/* its ended threads' counts */
	pid_t		 k_held;	/* the last end's thread, or 0 */
	cpc_buf_t	*k_hbuf;	/* its counts */
};

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
	int		 tree;		/* -f: the kids too */
	struct kid	*kids;
	int		 nkids;
	int		 kidcap;
	int		 kidlost;	/* a kid was given up */
	cpc_buf_t	*kidsum;	/* every kid's counts */
	int		 rootlive;	/* no end or exec of the command yet */
	int		 rootgone;	/* drains since it was reaped */
	int		 reaped;	/* the command was waited for (the
					   reader stopped) */
	int		 rootexec;	/* -f: the command exec'd, then: */
	hrtime_t	 roott;		/*  when it exec'd or exited */
	pid_t		 roottid;	/*  the thread that exec'd */
	char		 rootcmd[CMDMAX];
} E = { .stopfd = -1 };

/* Whether the options let the threads run without stops. */
static int
applies(const struct topts *o)
{
	return o->o_msec == 0 && o->o_pid == 0 && o->o_nspecs == 1 &&
	    !o->o_followexec && !o->o_verbose &&
	    !o->o_tick && !smpl_on(&o->o_smpl);
}

/*
 * The command line of pid that exec'd, or its program's name when it is
 * gone by now (or its ID is another process's, its name not the one the
 * exec gave).
 */
static void
exec_cmd(const cpc_lwp_event_t *ev, char *cmd, size_t len)
{
	char comm[32];

	*cmd = '\0';
	proc_comm(ev->le_pid, comm, sizeof(comm));
	if (*comm != '\0' && strcmp(comm, ev->le_comm) == 0)
		pctx_cmdline(ev->le_pid, cmd, len);
	if (*cmd == '\0')
		snprintf(cmd, len, "%s", ev->le_comm);
}

/* The exec line's note: the new command line. */
static void
exec_note(hrtime_t t, pid_t pid, pid_t tid, const char *cmd)
{
	char esc[4 * CMDMAX + 1];

	if (T.fmt != NULL)
		fmt_note(t, pid, tid, "exec", 0, cmd);
	else
		line_note(t, pid, tid, "exec", "'%s'",
		    *cmd != '\0' ? escape(cmd, esc, sizeof(esc)) :
		    "(unknown)");
}

/*
 * The command's exec at t by tid, its own counts in E.tot: the first
 * thread's end if another exec'd, the exec lines.
 */
static void
root_exec(hrtime_t t, pid_t tid, const char *cmd)
{
	if (E.execthr) {
		cpc_buf_sub(T.cpc, E.acc, E.tot, E.acc);
		line_values_at(t, E.pid, E.pid, "lwp_exit", 0, E.acc);
	}
	line_values_at(t, E.pid, tid, "exec", 0, E.tot);
	exec_note(t, E.pid, tid, cmd);
}

/* The exec, without -f: its counts are the set's now. */
static void
on_exec(const cpc_lwp_event_t *ev)
{
	char cmd[CMDMAX];

	if (cpc_set_sample(T.cpc, E.set, E.tot) != 0) {
		warnmsg("%d: exec: cannot read the counters: %s",
		    (int)ev->le_pid, errh_last());
		return;
	}
	exec_cmd(ev, cmd, sizeof(cmd));
	root_exec(cpc_buf_hrtime(T.cpc, E.tot), ev->le_tid, cmd);
}

static struct kid *
kid_find(pid_t pid)
{
	int i;

	for (i = 0; i < E.nkids; i++)
		if (E.kids[i].k_pid == pid)
			return &E.kids[i];
	return NULL;
}

/* A kid from its fork on; NULL (said) without memory. */
static struct kid *
kid_add(pid_t pid)
{
	struct kid *k;

	if (E.nkids == E.kidcap) {
		int cap = E.kidcap ? 2 * E.kidcap : 16;

		if ((k = realloc(E.kids, cap * sizeof(*k))) == NULL)
			goto nomem;
		E.kids = k;
		E.kidcap = cap;
	}
	k = &E.kids[E.nkids];
	k->k_pid = pid;
	k->k_gone = 0;
	k->k_held = 0;
	if ((k->k_acc = cpc_buf_create(T.cpc, E.set)) == NULL)
		goto nomem;
	if ((k->k_hbuf = cpc_buf_create(T.cpc, E.set)) == NULL) {
		cpc_buf_destroy(T.cpc, k->k_acc);
		goto nomem;
	}
	E.nkids++;
	return k;
nomem:
	warnmsg("%d: out of memory: its lines are missing", (int)pid);
	return NULL;
}

/* The end held back of a kid's thread that was not its last. */
static void
kid_flush(struct kid *k)
{
	if (k->k_held != 0)
		line_values(k->k_pid, k->k_held, "lwp_exit", 0, k->k_hbuf);
	k->k_held = 0;
}

/*
 * a - b into ds, each count at 0 at least: scaled counts (of counters
 * time-shared) summed over threads may pass the group's.
 */
static void
sub_floor(cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b)
{
	uint64_t va, vb;
	int i;

	cpc_buf_copy(T.cpc, ds, a);
	for (i = 0; cpc_buf_get(T.cpc, a, i, &va) == 0 &&
	    cpc_buf_get(T.cpc, b, i, &vb) == 0; i++)
		(void)cpc_buf_set(T.cpc, ds, i, va > vb ? va - vb : 0);
}

/*
 * -f: the command's own lines, its counts the set's (in E.tot) less
 * every kid's: its exec lines, or its line of kind (exit, or total after
 * a signal, with the threads of the kids still running in it).  Then
 * into the tree's.
 */
static void
root_lines(const char *kind)
{
	sub_floor(E.tot, E.tot, E.kidsum);
	if (E.rootexec)
		root_exec(E.roott, E.roottid, E.rootcmd);
	else
		line_values_at(E.roott != 0 && strcmp(kind, "exit") == 0 ?
		    E.roott : cpc_buf_hrtime(T.cpc, E.tot), E.pid, E.pid,
		    kind, 0, E.tot);
	if (T.tree != NULL)
		cpc_buf_add(T.cpc, T.tree[0], T.tree[0], E.tot);
	T.nprocs++;
}

/*
 * -f: once the command has ended (or exec'd) and no kid is left, the
 * command's lines: nothing more comes.
 */
static void
tree_check_end(void)
{
	if (E.over || E.rootlive || E.nkids > 0)
		return;
	E.over = 1;
	if (cpc_set_sample(T.cpc, E.set, E.tot) != 0) {
		warnmsg("%d: cannot read the counters: %s", (int)E.pid,
		    errh_last());
		return;
	}
	root_lines("exit");
}

/*
 * A kid's line of kind (exit, exec, or total after a signal) at t for
 * thread lwp, into the tree's total; the kid forgotten.
 */
static void
kid_done(struct kid *k, hrtime_t t, pid_t lwp, const char *kind)
{
	if (strcmp(kind, "total") == 0)
		kid_flush(k);
	line_values_at(t, k->k_pid, lwp, kind, 0, k->k_acc);
	if (T.tree != NULL)
		cpc_buf_add(T.cpc, T.tree[0], T.tree[0], k->k_acc);
	T.nprocs++;
	cpc_buf_destroy(T.cpc, k->k_acc);
	cpc_buf_destroy(T.cpc, k->k_hbuf);
	*k = E.kids[--E.nkids];
}

/*
 * A kid's thread ended: into the kid's counts; the end before it, held
 * back, was not the kid's last (its lwp_exit line), this one is held.
 */
static void
kid_end(const cpc_lwp_event_t *ev, cpc_buf_t *buf)
{
	struct kid *k = kid_find(ev->le_pid);

	/* Its fork's report was lost: counted from here. */
	if (k == NULL && (k = kid_add(ev->le_pid)) == NULL)
		return;
	cpc_buf_add(T.cpc, k->k_acc, k->k_acc, buf);
	cpc_buf_add(T.cpc, E.kidsum, E.kidsum, buf);
	kid_flush(k);
	cpc_buf_copy(T.cpc, k->k_hbuf, buf);
	k->k_held = ev->le_tid;
}

/*
 * -f: an exec, or a process's end: a kid's lines (its last thread's end
 * is in them), or the command's once it is the last.
 */
static void
tree_end(const cpc_lwp_event_t *ev)
{
	struct kid *k;
	char cmd[CMDMAX];

	if (ev->le_pid == E.pid) {
		E.rootlive = 0;
		E.roott = ev->le_time;
		if (ev->le_what == CPC_LWP_EXEC) {
			E.rootexec = 1;
			E.roottid = ev->le_tid;
			exec_cmd(ev, E.rootcmd, sizeof(E.rootcmd));
		}
	} else if ((k = kid_find(ev->le_pid)) == NULL) {
		return;
	} else if (ev->le_what == CPC_LWP_EXIT) {
		kid_done(k, ev->le_time, ev->le_tid, "exit");
	} else {
		exec_cmd(ev, cmd, sizeof(cmd));
		kid_done(k, ev->le_time, ev->le_tid, "exec");
		exec_note(ev->le_time, ev->le_pid, ev->le_tid, cmd);
	}
	tree_check_end();
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
		if (E.tree && ev->le_pid != E.pid) {
			kid_end(ev, buf);
			break;
		}
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
		if (E.tree)
			(void)kid_add(ev->le_child);
		break;
	case CPC_LWP_EXEC:
		if (E.tree) {
			tree_end(ev);
			break;
		}
		on_exec(ev);
		E.over = 1;
		break;
	case CPC_LWP_EXIT:
		tree_end(ev);
		break;
	case CPC_LWP_LOST:
		if (E.lostsaid++)
			break;
		if (ev->le_lost > 0)
			warnmsg("%d: %llu reports of threads did not fit the "
			    "ring: some lwp_create and lwp_exit lines are "
			    "missing (%s)", (int)E.pid,
			    (unsigned long long)ev->le_lost, E.tree ?
			    LOST_TREE : "the totals are whole");
		else
			warnmsg("%d: reports of threads did not fit the ring: "
			    "some lwp_create and lwp_exit lines are missing "
			    "(%s)", (int)E.pid, E.tree ? LOST_TREE :
			    "the totals are whole");
		break;
	}
	out_check();
	return E.over || T.outfail;
}

/* Whether process pid has ended: gone, or a zombie. */
static int
gone(pid_t pid)
{
	char path[48], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state after the name's last ')' */
	return (p = strrchr(buf, ')')) != NULL && p[1] == ' ' &&
	    (p[2] == 'Z' || p[2] == 'X');
}

/*
 * -f, the command waited for: the processes whose end was not reported
 * (their EXIT lost), given up once gone for a few drains: their records
 * were all written before they went.
 */
static void
give_up_lost(void)
{
	int i;

	if (!E.reaped)
		return;
	for (i = E.nkids - 1; i >= 0; i--) {
		struct kid *k = &E.kids[i];

		if (!gone(k->k_pid)) {
			k->k_gone = 0;
			continue;
		}
		if (++k->k_gone < 3)
			continue;
		if (!E.kidlost++)
			warnmsg("%d: its end was not reported (reports lost): "
			    "its exit line has the threads reported",
			    (int)k->k_pid);
		kid_done(k, now(), k->k_pid, "exit");
	}
	if (E.rootlive && ++E.rootgone >= 3)
		E.rootlive = 0;
	tree_check_end();
}

/* Every report waiting, printed, and written out at once. */
static void
drain(void)
{
	if (!E.over && !T.outfail &&
	    cpc_lwp_events(T.cpc, E.set, E.buf, on_report, NULL) < 0)
		warnmsg("%d: %s", (int)E.pid, errh_last());
	if (E.tree && !E.over && !T.outfail)
		give_up_lost();
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
	if (E.kidsum != NULL)
		cpc_buf_destroy(T.cpc, E.kidsum);
	E.buf = E.acc = E.tot = E.kidsum = NULL;
	while (E.nkids > 0) {
		cpc_buf_destroy(T.cpc, E.kids[--E.nkids].k_acc);
		cpc_buf_destroy(T.cpc, E.kids[E.nkids].k_hbuf);
	}
	free(E.kids);
	E.kids = NULL;
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
	E.tree = T.o->o_followfork;
	E.rootlive = 1;
	if ((E.sg = setgrp_create_smpl(T.cpc, T.o->o_specs, 1, NULL)) ==
	    NULL)
		return -1;
	E.set = setgrp_cur(E.sg)->se_set;
	/*
	 * A kernel before 5.13 refuses, and -f where the library cannot
	 * see every process's end: the ptrace run counts instead.
	 */
	if (cpc_bind_pctx(T.cpc, T.pctx, E.pid, E.set,
	    CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS |
	    (E.tree ? CPC_BIND_LWP_FORKS : 0)) != 0 ||
	    (E.buf = cpc_buf_create(T.cpc, E.set)) == NULL ||
	    (E.acc = cpc_buf_create(T.cpc, E.set)) == NULL ||
	    (E.tot = cpc_buf_create(T.cpc, E.set)) == NULL ||
	    (E.tree && (E.kidsum = cpc_buf_create(T.cpc, E.set)) == NULL)) {
		if (T.o->o_debug)
			warnmsg("%s are stopped at birth and end: %s",
			    E.tree ? "threads and processes" : "threads",
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
	if (E.tree) {
		/* Interrupted: the kids still running, their threads' ends. */
		while (E.nkids > 0)
			kid_done(&E.kids[0], cpc_buf_hrtime(T.cpc, E.tot),
			    E.kids[0].k_pid, "total");
		root_lines(kind);
	} else {
		line_values(E.pid, E.pid, kind, 0, E.tot);
	}
	fflush(T.out);
	out_check();
}

/*
 * -f, the command waited for: until no kid is left, or a signal.  The
 * reports are read here from now on: the command's end is in already,
 * and often the last kid's.
 */
static void
wait_tree(void)
{
	struct timespec ts = { 0, POLL_MS * 1000000L };

	stop_reader();
	E.reaped = 1;
	for (;;) {
		drain();
		if (T.sig != 0 || T.outfail || E.over ||
		    E.rootlive + E.nkids == 0)
			break;
		nanosleep(&ts, NULL);
	}
}

/*
 * Wait for the command.  A signal (or a failed write) ends the tracking
 * as in the ptrace run: the reports so far and a total line, then the
 * signal goes to the command, which is waited for.  -f: then for the
 * kids still counted.
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
	if (E.tree && !E.over)
		wait_tree();
	/* A signal that came as the command ended ends the tracking too. */
	finish(T.sig != 0 ? "total" : "exit");
	/* Lines lost are cputrack's failure, as a failed write is. */
	if (outfailed() || T.outfatal || E.lostsaid || E.kidlost)
		return EXIT_OWNFAIL;
	return wait_status(st);
}
