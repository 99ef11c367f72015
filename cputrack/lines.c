/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lines.c - what cputrack prints: the title, value lines, fork and exec
 * lines in the text format or through format.c, the total of a -f tree,
 * and the openmetrics file.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errh.h"
#include "msgsafe.h"
#include "output.h"
#include "smpl.h"
#include "track_impl.h"

hrtime_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Diagnostics go to stderr whatever -o says. */
void
warnmsg(const char *fmt, ...)
{
	char msg[CPC_MSG_MAX];
	va_list ap;

	out_flush();
	va_start(ap, fmt);
	fprintf(stderr, "%s: %s\n", progname,
	    cpc_vmsgsafe(msg, sizeof(msg), fmt, ap));
	va_end(ap);
}

/*
 * After every line and every flush: a failed write ends the tracking,
 * once.  A closed pipe only means nobody reads any more: the processes
 * are released, and a command runs to its end.  Any other error is
 * cputrack's failure: the command is killed now, and the callbacks fail
 * from now on so that pctx_run ends (see cb_rc).  An attached process
 * is only let go.
 */
void
out_check(void)
{
	if (T.outfail || !ferror(T.out))
		return;
	T.outfail = 1;
	T.outerr = errno;
	if (T.outerr == EPIPE || T.o->o_pid != 0) {
		pctx_terminate(T.pctx);
		return;
	}
	T.outfatal = 1;
	(void)pctx_kill(T.pctx, SIGKILL);
}

/* What is buffered, written out now. */
void
out_flush(void)
{
	if (T.outfail)
		return;
	(void)fflush(T.out);
	out_check();
}

int
cb_rc(int rc)
{
	return T.outfatal ? -1 : rc;
}

static void
line_head(hrtime_t t, pid_t pid, pid_t lwp, const char *kind)
{
	size_t n = strlen(kind);

	/* As "%7.3f %7d %10s ", without printf (out_time, out_u64). */
	out_time(T.out, t == 0 ? T.t0 : t, T.t0);
	fputc(' ', T.out);
	if (T.o->o_followfork) {
		out_u64(T.out, (uint64_t)pid, 7);
		fputc(' ', T.out);
	}
	out_u64(T.out, (uint64_t)lwp, 7);
	fputc(' ', T.out);
	for (; n < 10; n++)
		fputc(' ', T.out);
	fputs(kind, T.out);
	fputc(' ', T.out);
}

static const char *
set_note(int set)
{
	return T.o->o_nspecs > 1 ? T.o->o_specs[set].sp_text : NULL;
}

/*
 * The openmetrics file once per interval (-T, or a second without
 * ticks), when the last rewrite is that old.
 */
static void
om_flush(int force)
{
	hrtime_t t = now(), ival = T.o->o_msec ? T.o->o_msec : 1000;

	if (T.fmt == NULL || (!force && t - T.flushed < ival * 1000000))
		return;
	T.flushed = t;
	if (!T.outfail && fmt_flush(T.fmt) != 0) {
		/* As a write error (out_check), said here. */
		warnmsg("-o '%s': %s", T.o->o_outname, errh_last());
		T.outfail = 1;
		T.outerr = 0;
		if (T.pctx == NULL)
			return;
		if (T.o->o_pid != 0) {
			pctx_terminate(T.pctx);
			return;
		}
		T.outfatal = 1;
		(void)pctx_kill(T.pctx, SIGKILL);
	}
}

static void
fmt_values(hrtime_t t, pid_t pid, long lwp, const char *kind, int set,
    cpc_buf_t *buf, int tree)
{
	struct fmt_row r = { .fr_kind = kind, .fr_pid = pid, .fr_lwp = lwp,
	    .fr_set = set, .fr_tree = tree };

	r.fr_time = t == 0 ? 0.0 : out_reltime(t, T.t0);
	fmt_buf(T.fmt, &r, T.cpc, buf);
	om_flush(0);
}

void
line_values(pid_t pid, pid_t lwp, const char *kind, int set, cpc_buf_t *buf)
{
	line_values_at(cpc_buf_hrtime(T.cpc, buf), pid, lwp, kind, set, buf);
}

/* The same at time t, not the buffer's. */
void
line_values_at(hrtime_t t, pid_t pid, pid_t lwp, const char *kind, int set,
    cpc_buf_t *buf)
{
	if (T.outfail)
		return;
	if (T.fmt != NULL) {
		fmt_values(t, pid, lwp, kind, set, buf, 0);
	} else {
		line_head(t, pid, lwp, kind);
		out_values(T.out, T.cpc, buf, T.o->o_specs[set].sp_nreqs +
		    smpl_nreqs(&T.o->o_smpl),
		    T.o->o_tick, set_note(set));
	}
	out_check();
}

/* A fork or exec line in the other formats. */
void
fmt_note(hrtime_t t, pid_t pid, pid_t lwp, const char *kind, long child,
    const char *command)
{
	struct fmt_row r = { .fr_kind = kind, .fr_pid = pid, .fr_lwp = lwp,
	    .fr_set = -1, .fr_child = child, .fr_command = command };

	if (T.outfail)
		return;
	r.fr_time = t == 0 ? 0.0 : out_reltime(t, T.t0);
	fmt_row(T.fmt, &r);
	out_check();
}

void
line_note(hrtime_t t, pid_t pid, pid_t lwp, const char *kind,
    const char *fmt, ...)
{
	va_list ap;

	if (T.outfail)
		return;
	line_head(t, pid, lwp, kind);
	if (T.o->o_tick)
		fprintf(T.out, "%9s ", "");
	fprintf(T.out, "%9s %9s # ", "", "");
	va_start(ap, fmt);
	vfprintf(T.out, fmt, ap);
	va_end(ap);
	fputc('\n', T.out);
	out_check();
}

void
title(void)
{
	T.titled = 1;
	if (T.o->o_noheader)
		return;
	if (T.fmt != NULL) {
		fmt_header(T.fmt);
		out_check();
		return;
	}
	fprintf(T.out, "%7s ", "time");
	if (T.o->o_followfork)
		fprintf(T.out, "%7s ", "pid");
	fprintf(T.out, "%7s %10s ", "lwp", "event");
	if (T.o->o_tick)
		fprintf(T.out, "%9s ", out_tickname());
	out_pic_cells(T.out, &T.o->o_specs[0]);
	smpl_title_cells(T.out, &T.o->o_smpl);
	fputc('\n', T.out);
	out_check();
}

/*
 * -f: a total line per set for the whole tree, after the processes'
 * own: its pid column is the first process, its lwp column the number
 * of processes counted.  Then the last openmetrics file.  0, or -1 when
 * the output failed.
 */
int
tree_total(void)
{
	char note[600];
	int i;

	for (i = 0; T.tree != NULL && !T.outfail && i < T.o->o_nspecs; i++) {
		if (cpc_buf_hrtime(T.cpc, T.tree[i]) == 0)
			continue;
		if (T.fmt != NULL) {
			fmt_values(cpc_buf_hrtime(T.cpc, T.tree[i]), T.rootpid,
			    T.nprocs, "total", i, T.tree[i], 1);
			continue;
		}
		snprintf(note, sizeof(note), "tree%s%s", set_note(i) ? " " : "",
		    set_note(i) ? set_note(i) : "");
		line_head(cpc_buf_hrtime(T.cpc, T.tree[i]), T.rootpid,
		    (pid_t)T.nprocs, "total");
		out_values(T.out, T.cpc, T.tree[i], T.o->o_specs[i].sp_nreqs +
		    smpl_nreqs(&T.o->o_smpl),
		    T.o->o_tick, note);
		out_check();
	}
	om_flush(1);
	out_flush();
	return T.outfail && T.outerr != EPIPE ? -1 : 0;
}

/* The program name of process pid (/proc/<pid>/comm), or "". */
void
proc_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The command's name, for openmetrics' command label. */
static void
root_comm(char *buf, size_t len)
{
	const char *s;

	if (T.o->o_argv != NULL) {
		s = strrchr(T.o->o_argv[0], '/');
		snprintf(buf, len, "%s", s != NULL ? s + 1 : T.o->o_argv[0]);
		return;
	}
	proc_comm(T.o->o_pid, buf, len);
}

/* The formatter, the tree's accumulators, and the first openmetrics file. */
int
setup_output(void)
{
	char comm[256];
	int i;

	if (T.o->o_followfork &&
	    (T.tree = calloc(T.o->o_nspecs, sizeof(*T.tree))) != NULL)
		for (i = 0; i < T.o->o_nspecs; i++)
			if ((T.tree[i] = cpc_buf_create(T.cpc, T.tmpl[i])) ==
			    NULL) {
				warnmsg("%s", strerror(errno));
				return -1;
			}
	if (T.o->o_followfork && T.tree == NULL) {
		warnmsg("out of memory");
		return -1;
	}
	if (T.o->o_format == FMT_TEXT)
		return 0;
	root_comm(comm, sizeof(comm));
	T.fmt = fmt_create(T.o->o_format, FMT_CPUTRACK, T.out, T.o->o_outname,
	    T.o->o_specs, T.o->o_nspecs, T.o->o_tick ? FMT_TICK : 0, comm);
	if (T.fmt == NULL ||
	    fmt_add_samples(T.fmt, smpl_spec(&T.o->o_smpl)) != 0) {
		warnmsg("out of memory");
		return -1;
	}
	if (T.o->o_format == FMT_OPENMETRICS && fmt_flush(T.fmt) != 0) {
		warnmsg("-o '%s': %s", T.o->o_outname, errh_last());
		return -1;
	}
	T.flushed = now();
	return 0;
}

