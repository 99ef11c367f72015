/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lwpevlines.c - what the LWP event reports print (lwpevents.c reads
 * them): lwp_create, lwp_exit, fork and exec lines, the command's exit
 * or total line and, under -f, the lines of every process forked.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libpctx.h>

#include "errh.h"
#include "lwpevlines.h"

/* -f: what a loss of reports leaves whole. */
#define LOST_TREE	"the tree's total is whole; the command's line may " \
			"hold what its children's lines lack"

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

/*
 * The command's exec at t by tid, its own counts in lr_tot: the first
 * thread's end if another exec'd, the exec lines.
 */
static void
root_exec(struct lwpev *lr, hrtime_t t, pid_t tid, const char *cmd)
{
	struct tracker *tr = lr->lr_tr;

	if (lr->lr_execthr) {
		cpc_buf_sub(tr->tr_cpc, lr->lr_acc, lr->lr_tot, lr->lr_acc);
		line_values_at(tr, t, lr->lr_pid, lr->lr_pid, "lwp_exit", 0,
		    lr->lr_acc);
	}
	line_values_at(tr, t, lr->lr_pid, tid, "exec", 0, lr->lr_tot);
	line_exec(tr, t, lr->lr_pid, tid, cmd);
}

/* The exec, without -f: its counts are the set's now. */
static void
on_exec(struct lwpev *lr, const cpc_lwp_event_t *ev)
{
	struct tracker *tr = lr->lr_tr;
	char cmd[CMDMAX];

	if (cpc_set_sample(tr->tr_cpc, lr->lr_set, lr->lr_tot) != 0) {
		warnmsg(tr, "%d: exec: cannot read the counters: %s",
		    (int)ev->le_pid, errh_last());
		return;
	}
	exec_cmd(ev, cmd, sizeof(cmd));
	root_exec(lr, cpc_buf_hrtime(tr->tr_cpc, lr->lr_tot), ev->le_tid, cmd);
}

static struct kid *
kid_find(struct lwpev *lr, pid_t pid)
{
	int i;

	for (i = 0; i < lr->lr_nkids; i++)
		if (lr->lr_kids[i].k_pid == pid)
			return &lr->lr_kids[i];
	return NULL;
}

/* A kid from its fork on; NULL (said) without memory. */
static struct kid *
kid_add(struct lwpev *lr, pid_t pid)
{
	cpc_t *cpc = lr->lr_tr->tr_cpc;
	struct kid *k;

	if (lr->lr_nkids == lr->lr_kidcap) {
		int cap = lr->lr_kidcap ? 2 * lr->lr_kidcap : 16;

		if ((k = realloc(lr->lr_kids, cap * sizeof(*k))) == NULL)
			goto nomem;
		lr->lr_kids = k;
		lr->lr_kidcap = cap;
	}
	k = &lr->lr_kids[lr->lr_nkids];
	k->k_pid = pid;
	k->k_gone = 0;
	k->k_held = 0;
	if ((k->k_acc = cpc_buf_create(cpc, lr->lr_set)) == NULL)
		goto nomem;
	if ((k->k_hbuf = cpc_buf_create(cpc, lr->lr_set)) == NULL) {
		cpc_buf_destroy(cpc, k->k_acc);
		goto nomem;
	}
	lr->lr_nkids++;
	return k;
nomem:
	warnmsg(lr->lr_tr, "%d: out of memory: its lines are missing",
	    (int)pid);
	return NULL;
}

/* The end held back of a kid's thread that was not its last. */
static void
kid_flush(struct lwpev *lr, struct kid *k)
{
	if (k->k_held != 0)
		line_values(lr->lr_tr, k->k_pid, k->k_held, "lwp_exit", 0,
		    k->k_hbuf);
	k->k_held = 0;
}

/*
 * a - b into ds, each count at 0 at least: scaled counts (of counters
 * time-shared) summed over threads may pass the group's.
 */
static void
sub_floor(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b)
{
	uint64_t va, vb;
	int i;

	cpc_buf_copy(cpc, ds, a);
	for (i = 0; cpc_buf_get(cpc, a, i, &va) == 0 &&
	    cpc_buf_get(cpc, b, i, &vb) == 0; i++)
		(void)cpc_buf_set(cpc, ds, i, va > vb ? va - vb : 0);
}

/*
 * -f: the command's own lines, its counts the set's (in lr_tot) less
 * every kid's: its exec lines, or its line of kind (exit, or total after
 * a signal, with the threads of the kids still running in it).  Then
 * into the tree's.
 */
static void
root_lines(struct lwpev *lr, const char *kind)
{
	struct tracker *tr = lr->lr_tr;

	sub_floor(tr->tr_cpc, lr->lr_tot, lr->lr_tot, lr->lr_kidsum);
	if (lr->lr_rootexec)
		root_exec(lr, lr->lr_roott, lr->lr_roottid, lr->lr_rootcmd);
	else
		line_values_at(tr, lr->lr_roott != 0 &&
		    strcmp(kind, "exit") == 0 ? lr->lr_roott :
		    cpc_buf_hrtime(tr->tr_cpc, lr->lr_tot), lr->lr_pid,
		    lr->lr_pid, kind, 0, lr->lr_tot);
	if (tr->tr_tree != NULL)
		cpc_buf_add(tr->tr_cpc, tr->tr_tree[0], tr->tr_tree[0],
		    lr->lr_tot);
	tr->tr_nprocs++;
}

/*
 * -f: once the command has ended (or exec'd) and no kid is left, the
 * command's lines: nothing more comes.
 */
static void
tree_check_end(struct lwpev *lr)
{
	struct tracker *tr = lr->lr_tr;

	if (lr->lr_over || lr->lr_rootlive || lr->lr_nkids > 0)
		return;
	lr->lr_over = 1;
	if (cpc_set_sample(tr->tr_cpc, lr->lr_set, lr->lr_tot) != 0) {
		warnmsg(tr, "%d: cannot read the counters: %s",
		    (int)lr->lr_pid, errh_last());
		return;
	}
	root_lines(lr, "exit");
}

/*
 * A kid's line of kind (exit, exec, or total after a signal) at t for
 * thread lwp, into the tree's total; the kid forgotten.
 */
static void
kid_done(struct lwpev *lr, struct kid *k, hrtime_t t, pid_t lwp,
    const char *kind)
{
	struct tracker *tr = lr->lr_tr;

	if (strcmp(kind, "total") == 0)
		kid_flush(lr, k);
	line_values_at(tr, t, k->k_pid, lwp, kind, 0, k->k_acc);
	if (tr->tr_tree != NULL)
		cpc_buf_add(tr->tr_cpc, tr->tr_tree[0], tr->tr_tree[0],
		    k->k_acc);
	tr->tr_nprocs++;
	cpc_buf_destroy(tr->tr_cpc, k->k_acc);
	cpc_buf_destroy(tr->tr_cpc, k->k_hbuf);
	*k = lr->lr_kids[--lr->lr_nkids];
}

/*
 * A kid's thread ended: into the kid's counts; the end before it, held
 * back, was not the kid's last (its lwp_exit line), this one is held.
 */
static void
kid_end(struct lwpev *lr, const cpc_lwp_event_t *ev, cpc_buf_t *buf)
{
	cpc_t *cpc = lr->lr_tr->tr_cpc;
	struct kid *k = kid_find(lr, ev->le_pid);

	/* Its fork's report was lost: counted from here. */
	if (k == NULL && (k = kid_add(lr, ev->le_pid)) == NULL)
		return;
	cpc_buf_add(cpc, k->k_acc, k->k_acc, buf);
	cpc_buf_add(cpc, lr->lr_kidsum, lr->lr_kidsum, buf);
	kid_flush(lr, k);
	cpc_buf_copy(cpc, k->k_hbuf, buf);
	k->k_held = ev->le_tid;
}

/*
 * -f: an exec, or a process's end: a kid's lines (its last thread's end
 * is in them), or the command's once it is the last.
 */
static void
tree_end(struct lwpev *lr, const cpc_lwp_event_t *ev)
{
	struct kid *k;
	char cmd[CMDMAX];

	if (ev->le_pid == lr->lr_pid) {
		lr->lr_rootlive = 0;
		lr->lr_roott = ev->le_time;
		if (ev->le_what == CPC_LWP_EXEC) {
			lr->lr_rootexec = 1;
			lr->lr_roottid = ev->le_tid;
			exec_cmd(ev, lr->lr_rootcmd, sizeof(lr->lr_rootcmd));
		}
	} else if ((k = kid_find(lr, ev->le_pid)) == NULL) {
		return;
	} else if (ev->le_what == CPC_LWP_EXIT) {
		kid_done(lr, k, ev->le_time, ev->le_tid, "exit");
	} else {
		exec_cmd(ev, cmd, sizeof(cmd));
		kid_done(lr, k, ev->le_time, ev->le_tid, "exec");
		line_exec(lr->lr_tr, ev->le_time, ev->le_pid, ev->le_tid, cmd);
	}
	tree_check_end(lr);
}

/* A thread's end: a kid's (-f), or the command's own lwp_exit line. */
static void
on_lwp_end(struct lwpev *lr, const cpc_lwp_event_t *ev, cpc_buf_t *buf)
{
	struct tracker *tr = lr->lr_tr;

	if (lr->lr_tree && ev->le_pid != lr->lr_pid) {
		kid_end(lr, ev, buf);
		return;
	}
	cpc_buf_add(tr->tr_cpc, lr->lr_acc, lr->lr_acc, buf);
	/* The thread that exec'd has taken the first one's id. */
	if (ev->le_tid == ev->le_pid)
		lr->lr_execthr = 1;
	else
		line_values(tr, ev->le_pid, ev->le_tid, "lwp_exit", 0, buf);
}

/* Reports lost: said once, with what stays whole. */
static void
on_lost(struct lwpev *lr, const cpc_lwp_event_t *ev)
{
	const char *whole = lr->lr_tree ? LOST_TREE : "the totals are whole";

	if (lr->lr_lostsaid++)
		return;
	if (ev->le_lost > 0)
		warnmsg(lr->lr_tr, "%d: %llu reports of threads did not fit "
		    "the ring: some lwp_create and lwp_exit lines are "
		    "missing (%s)", (int)lr->lr_pid,
		    (unsigned long long)ev->le_lost, whole);
	else
		warnmsg(lr->lr_tr, "%d: reports of threads did not fit the "
		    "ring: some lwp_create and lwp_exit lines are missing "
		    "(%s)", (int)lr->lr_pid, whole);
}

int
lwpev_report(void *arg, const cpc_lwp_event_t *ev, cpc_buf_t *buf)
{
	struct lwpev *lr = arg;
	struct tracker *tr = lr->lr_tr;

	if (lr->lr_over || tr->tr_outfail)
		return 1;
	switch (ev->le_what) {
	case CPC_LWP_CREATE:
		line_values(tr, ev->le_pid, ev->le_tid, "lwp_create", 0, buf);
		break;
	case CPC_LWP_END:
		on_lwp_end(lr, ev, buf);
		break;
	case CPC_LWP_FORK:
		line_fork(tr, ev->le_time, ev->le_pid, ev->le_tid,
		    ev->le_child);
		if (lr->lr_tree)
			(void)kid_add(lr, ev->le_child);
		break;
	case CPC_LWP_EXEC:
		if (lr->lr_tree) {
			tree_end(lr, ev);
			break;
		}
		on_exec(lr, ev);
		lr->lr_over = 1;
		break;
	case CPC_LWP_EXIT:
		tree_end(lr, ev);
		break;
	case CPC_LWP_LOST:
		on_lost(lr, ev);
		break;
	}
	out_check(tr);
	return lr->lr_over || tr->tr_outfail;
}

/* Whether process pid has ended: gone, or a zombie. */
static int
proc_gone(pid_t pid)
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
 * A process is given up after three drains that found it gone: its
 * records were all written before it went.
 */
void
lwpev_give_up_lost(struct lwpev *lr)
{
	int i;

	if (!lr->lr_reaped)
		return;
	for (i = lr->lr_nkids - 1; i >= 0; i--) {
		struct kid *k = &lr->lr_kids[i];

		if (!proc_gone(k->k_pid)) {
			k->k_gone = 0;
			continue;
		}
		if (++k->k_gone < 3)
			continue;
		if (!lr->lr_kidlost++)
			warnmsg(lr->lr_tr, "%d: its end was not reported "
			    "(reports lost): its exit line has the threads "
			    "reported", (int)k->k_pid);
		kid_done(lr, k, now(), k->k_pid, "exit");
	}
	if (lr->lr_rootlive && ++lr->lr_rootgone >= 3)
		lr->lr_rootlive = 0;
	tree_check_end(lr);
}

void
lwpev_last_lines(struct lwpev *lr, const char *kind)
{
	struct tracker *tr = lr->lr_tr;

	if (lr->lr_over || tr->tr_outfail)
		return;
	lr->lr_over = 1;
	if (cpc_set_sample(tr->tr_cpc, lr->lr_set, lr->lr_tot) != 0) {
		warnmsg(tr, "%d: %s: cannot read the counters: %s",
		    (int)lr->lr_pid, kind, errh_last());
		return;
	}
	if (lr->lr_tree) {
		/* Interrupted: the kids still running, their threads' ends. */
		while (lr->lr_nkids > 0)
			kid_done(lr, &lr->lr_kids[0],
			    cpc_buf_hrtime(tr->tr_cpc, lr->lr_tot),
			    lr->lr_kids[0].k_pid, "total");
		root_lines(lr, kind);
	} else {
		line_values(tr, lr->lr_pid, lr->lr_pid, kind, 0, lr->lr_tot);
	}
	fflush(tr->tr_out);
	out_check(tr);
}
