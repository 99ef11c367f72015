/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lines.c - what cputrack prints: the title, value lines, fork and exec
 * notes and the total of a -f tree, each a row handed to the writer of
 * the chosen format (format.h); and what a failed write does to the run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errh.h"
#include "lines.h"
#include "msgsafe.h"
#include "smpl.h"

hrtime_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Diagnostics go to stderr whatever -o says, after the lines before. */
void
warnmsg(struct tracker *tr, const char *fmt, ...)
{
	char msg[CPC_MSG_MAX];
	va_list ap;

	out_flush(tr);
	va_start(ap, fmt);
	fprintf(stderr, "%s: %s\n", PROGNAME,
	    cpc_vmsgsafe(msg, sizeof(msg), fmt, ap));
	va_end(ap);
}

/*
 * After every line and every flush: a failed write ends the tracking,
 * once.  A closed pipe only means nobody reads any more: the processes
 * are released, and a command runs to its end.  Any other error is
 * cputrack's failure: the command is killed now, and the callbacks fail
 * from now on so that pctx_run ends (callbacks.c's cb_rc).  An attached
 * process is only let go.
 */
void
out_check(struct tracker *tr)
{
	if (tr->tr_outfail || !ferror(tr->tr_out))
		return;
	tr->tr_outfail = 1;
	tr->tr_outerr = errno;
	if (tr->tr_outerr == EPIPE || tr->tr_o->o_pid != 0) {
		pctx_terminate(tr->tr_pctx);
		return;
	}
	tr->tr_outfatal = 1;
	(void)pctx_kill(tr->tr_pctx, SIGKILL);
}

void
out_flush(struct tracker *tr)
{
	if (tr->tr_outfail)
		return;
	(void)fflush(tr->tr_out);
	out_check(tr);
}

int
outfailed(struct tracker *tr)
{
	if (!tr->tr_outfail || tr->tr_outerr == EPIPE)
		return 0;
	if (tr->tr_outerr != 0)
		warnmsg(tr, "write error: %s", strerror(tr->tr_outerr));
	return 1;
}

/*
 * The writer's end of a batch once per interval (-T, or a second
 * without ticks), when the last is that old: openmetrics rewrites its
 * file then.  A failure is a write error (out_check's), said here.
 */
static void
flush_due(struct tracker *tr, int force)
{
	const struct topts *o = tr->tr_o;
	hrtime_t t = now(), ival = o->o_msec ? o->o_msec : 1000;

	if (!force && t - tr->tr_flushed < ival * 1000000)
		return;
	tr->tr_flushed = t;
	if (tr->tr_outfail || fmt_flush(tr->tr_fmt) == 0)
		return;
	warnmsg(tr, "-o '%s': %s", o->o_outname, errh_last());
	tr->tr_outfail = 1;
	tr->tr_outerr = 0;
	if (tr->tr_pctx == NULL)
		return;
	if (o->o_pid != 0) {
		pctx_terminate(tr->tr_pctx);
		return;
	}
	tr->tr_outfatal = 1;
	(void)pctx_kill(tr->tr_pctx, SIGKILL);
}

/* Nanoseconds since the start; time 0 for a time not known (0). */
static int64_t
since_start(const struct tracker *tr, hrtime_t t)
{
	return t == 0 ? 0 : t - tr->tr_t0;
}

/*
 * The process's name for the exposition's command label, when the
 * writer keeps one and this row would begin pid's series (key: pid, or
 * -1 for a note): the kernel's name now, read only then.
 */
static const char *
row_comm(const struct tracker *tr, pid_t pid, long key, char *buf,
    size_t len)
{
	if (!fmt_wants_comm(tr->tr_fmt, key))
		return NULL;
	proc_comm(pid, buf, len);
	return buf;
}

/* A row of buf's values; tree: the total of a -f tree. */
static void
values_row(struct tracker *tr, hrtime_t t, pid_t pid, long lwp,
    const char *kind, int set, cpc_buf_t *buf, int tree)
{
	struct fmt_row r = { .fr_kind = kind, .fr_pid = pid, .fr_lwp = lwp,
	    .fr_set = set, .fr_tree = tree };

	char comm[64];

	if (tr->tr_outfail)
		return;
	r.fr_ns = since_start(tr, t);
	/* An exec's counts are the old image's: the name now is the new. */
	if (strcmp(kind, "exec") != 0)
		r.fr_comm = row_comm(tr, pid, pid, comm, sizeof(comm));
	fmt_buf(tr->tr_fmt, &r, tr->tr_cpc, buf);
	flush_due(tr, 0);
	out_check(tr);
}

void
line_values(struct tracker *tr, pid_t pid, pid_t lwp, const char *kind,
    int set, cpc_buf_t *buf)
{
	line_values_at(tr, cpc_buf_hrtime(tr->tr_cpc, buf), pid, lwp, kind,
	    set, buf);
}

void
line_values_at(struct tracker *tr, hrtime_t t, pid_t pid, pid_t lwp,
    const char *kind, int set, cpc_buf_t *buf)
{
	values_row(tr, t, pid, lwp, kind, set, buf, 0);
}

/* A fork (child) or exec (command) note: no values. */
static void
note_row(struct tracker *tr, hrtime_t t, pid_t pid, pid_t lwp,
    const char *kind, long child, const char *command)
{
	struct fmt_row r = { .fr_kind = kind, .fr_pid = pid, .fr_lwp = lwp,
	    .fr_set = -1, .fr_child = child, .fr_command = command };

	char comm[64];

	if (tr->tr_outfail)
		return;
	r.fr_ns = since_start(tr, t);
	r.fr_comm = row_comm(tr, pid, -1, comm, sizeof(comm));
	fmt_row(tr->tr_fmt, &r);
	out_check(tr);
}

void
line_fork(struct tracker *tr, hrtime_t t, pid_t pid, pid_t lwp, pid_t child)
{
	note_row(tr, t, pid, lwp, "fork", child, NULL);
}

void
line_exec(struct tracker *tr, hrtime_t t, pid_t pid, pid_t lwp,
    const char *cmd)
{
	note_row(tr, t, pid, lwp, "exec", 0, cmd);
}

void
print_title(struct tracker *tr)
{
	tr->tr_titled = 1;
	if (tr->tr_o->o_noheader)
		return;
	fmt_header(tr->tr_fmt);
	out_check(tr);
}

/*
 * -f: a total line per set for the whole tree, after the processes'
 * own: its pid column is the first process, its lwp column the number
 * of processes counted.  Then the last openmetrics file.  0, or -1 when
 * the output failed.
 */
int
tree_total(struct tracker *tr)
{
	hrtime_t t;
	int i;

	for (i = 0; tr->tr_tree != NULL && !tr->tr_outfail &&
	    i < tr->tr_o->o_nspecs; i++) {
		if ((t = cpc_buf_hrtime(tr->tr_cpc, tr->tr_tree[i])) == 0)
			continue;
		values_row(tr, t, tr->tr_rootpid, tr->tr_nprocs, "total", i,
		    tr->tr_tree[i], 1);
	}
	flush_due(tr, 1);
	out_flush(tr);
	return tr->tr_outfail && tr->tr_outerr != EPIPE ? -1 : 0;
}

void
proc_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	/* The name may hold a newline: only the last one is the kernel's. */
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
}

/* The command's name, for openmetrics' command label. */
static void
root_comm(const struct topts *o, char *buf, size_t len)
{
	const char *s;

	if (o->o_argv != NULL) {
		s = strrchr(o->o_argv[0], '/');
		snprintf(buf, len, "%s", s != NULL ? s + 1 : o->o_argv[0]);
		return;
	}
	proc_comm(o->o_pid, buf, len);
}

/* -f: the tree's accumulators, one per set; 0 or -1 (said). */
static int
tree_open(struct tracker *tr)
{
	int i;

	if ((tr->tr_tree = calloc(tr->tr_o->o_nspecs,
	    sizeof(*tr->tr_tree))) == NULL) {
		warnmsg(tr, "out of memory");
		return -1;
	}
	for (i = 0; i < tr->tr_o->o_nspecs; i++)
		if ((tr->tr_tree[i] = cpc_buf_create(tr->tr_cpc,
		    tr->tr_tmpl[i])) == NULL) {
			warnmsg(tr, "%s", strerror(errno));
			return -1;
		}
	return 0;
}

int
lines_open(struct tracker *tr)
{
	const struct topts *o = tr->tr_o;
	unsigned flags = (o->o_tick ? FMT_TICK : 0) |
	    (o->o_followfork ? FMT_PIDCOL : 0);
	/* The exposition's interval: flush_due's. */
	struct fmt_runinfo ri = { (o->o_msec ? o->o_msec : 1000) / 1000.0,
	    cpc_cciname(tr->tr_cpc), o->o_grace, o->o_bycommand };
	char comm[256];

	if (o->o_followfork && tree_open(tr) != 0)
		return -1;
	root_comm(o, comm, sizeof(comm));
	tr->tr_fmt = fmt_create(o->o_format, FMT_CPUTRACK, tr->tr_out,
	    o->o_outname, o->o_specs, o->o_nspecs, flags, comm);
	if (tr->tr_fmt == NULL ||
	    fmt_add_samples(tr->tr_fmt, smpl_spec(&o->o_smpl)) != 0 ||
	    (o->o_srv != NULL && fmt_expose(tr->tr_fmt, srv_publish,
	    o->o_srv) != 0) ||
	    met_attach(o->o_cli.cc_met, tr->tr_fmt, o->o_specs,
	    o->o_nspecs) != 0) {
		warnmsg(tr, "out of memory");
		return -1;
	}
	fmt_runinfo(tr->tr_fmt, &ri);
	/* The first openmetrics file, before any line. */
	if (fmt_flush(tr->tr_fmt) != 0) {
		warnmsg(tr, "-o '%s': %s", o->o_outname, errh_last());
		return -1;
	}
	tr->tr_flushed = now();
	return 0;
}
