/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * expo.c - the exposition's series (expo.h), fed by the rows.
 *
 * cpustat adds each CPU's interval counts.  cputrack's lines are of two
 * sorts: a thread's interval counts (tick, lwp_create, init_lwp), added
 * to the process's running sum, and a process's totals (exit, exec, and
 * total at release), which hold everything since its start or last exec
 * and so replace that sum: a series is base + running, where base keeps
 * the totals before the last exec of the same command.
 *
 * A process's series begins at its first line after it starts or execs,
 * labelled with the process's name then (fr_comm: /proc/PID/comm, which
 * prctl(PR_SET_NAME) sets), else the name it was forked with or exec'd.
 * An exec ends the series (a new one begins, other labels), as does the
 * process's exit; an ended series stays for the grace period, then
 * leaves.  With --by-command the series shown are the commands': each
 * the sum of its processes' series, those that left included, so that
 * it never goes down; it leaves when its last process ended more than
 * the grace period ago.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expo.h"
#include "writer.h"

struct expo_proc {
	long		 ep_pid;
	struct expo_ser	*ep_cur;	/* its series now, or NULL */
	char		*ep_comm;	/* the name it was forked or exec'd
					   with, until its series begins */
};

struct expo {
	const struct fmt *e_f;
	int		 e_track;	/* cputrack's rows */
	char		*e_comm;	/* the first process's command */
	struct expo_ser	**e_ser;
	int		 e_nser;
	struct expo_proc *e_procs;
	int		 e_nprocs;
	int64_t		 e_started;	/* REALTIME ns */
	int64_t		 e_updated;
	int		 e_failed;	/* memory ran out while feeding */
};

/*
 * The columns: the events', then the -S requests' (added after
 * fmt_create, before any row).
 */
static int
ncells(const struct expo *e)
{
	return cols_n(e->e_f->f_cols) + cols_nsmpl(e->e_f->f_cols);
}

static int64_t
now_ns(clockid_t id)
{
	struct timespec ts;

	(void)clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct expo *
expo_create(const struct fmt *f, const char *comm)
{
	struct expo *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	e->e_f = f;
	e->e_track = f->f_tool == FMT_CPUTRACK;
	e->e_started = e->e_updated = now_ns(CLOCK_REALTIME);
	if ((e->e_comm = strdup(comm != NULL ? comm : "")) == NULL) {
		free(e);
		return NULL;
	}
	return e;
}

static void
ser_free(struct expo_ser *s)
{
	if (s == NULL)
		return;
	free(s->es_comm);
	free(s->es_cells);
	free(s);
}

void
expo_destroy(struct expo *e)
{
	int i;

	if (e == NULL)
		return;
	for (i = 0; i < e->e_nser; i++)
		ser_free(e->e_ser[i]);
	for (i = 0; i < e->e_nprocs; i++)
		free(e->e_procs[i].ep_comm);
	free(e->e_ser);
	free(e->e_procs);
	free(e->e_comm);
	free(e);
}

/*
 * The series of key and comm (comm NULL: cpustat's, by key alone), made
 * when new; one that ended with these labels begins again (an exec of
 * the same command), so that no two series share their labels.
 */
static struct expo_ser *
series_of(struct expo *e, long key, const char *comm)
{
	struct expo_ser *s, **v;
	int i;

	for (i = 0; i < e->e_nser; i++) {
		s = e->e_ser[i];
		if (s->es_key == key && (comm == NULL ||
		    strcmp(s->es_comm, comm) == 0)) {
			s->es_ended = 0;
			return s;
		}
	}
	v = realloc(e->e_ser, (e->e_nser + 1) * sizeof(*v));
	if (v == NULL)
		return NULL;
	e->e_ser = v;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->es_key = key;
	s->es_created = now_ns(CLOCK_REALTIME);
	s->es_cells = calloc(ncells(e) + 1, sizeof(*s->es_cells));
	s->es_comm = comm != NULL ? strdup(comm) : NULL;
	if (s->es_cells == NULL || (comm != NULL && s->es_comm == NULL)) {
		ser_free(s);
		return NULL;
	}
	v[e->e_nser++] = s;
	return s;
}

static struct expo_proc *
proc_of(struct expo *e, long pid)
{
	struct expo_proc *p;
	int i;

	for (i = 0; i < e->e_nprocs; i++)
		if (e->e_procs[i].ep_pid == pid)
			return &e->e_procs[i];
	p = realloc(e->e_procs, (e->e_nprocs + 1) * sizeof(*p));
	if (p == NULL)
		return NULL;
	e->e_procs = p;
	p = &p[e->e_nprocs++];
	memset(p, 0, sizeof(*p));
	p->ep_pid = pid;
	return p;
}

/*
 * Whether a row of pid would begin a series, and so be named (fr_comm):
 * only then is the name read.  pid < 0: any row (a note).
 */
int
expo_needs_comm(const struct expo *e, long pid)
{
	int i;

	for (i = 0; pid >= 0 && i < e->e_nprocs; i++)
		if (e->e_procs[i].ep_pid == pid)
			return e->e_procs[i].ep_cur == NULL;
	return 1;
}

/* A process that ended: its entry goes (a later pid may be the same). */
static void
proc_end(struct expo *e, struct expo_proc *p)
{
	if (p->ep_cur != NULL)
		p->ep_cur->es_ended = now_ns(CLOCK_MONOTONIC);
	free(p->ep_comm);
	*p = e->e_procs[--e->e_nprocs];
}

/*
 * The current series of r's process, begun now when it has none: named
 * by r's fr_comm, or the name it was forked or exec'd with, or the
 * first command's.  With --by-command its command's series exists too.
 */
static struct expo_ser *
proc_series(struct expo *e, const struct fmt_row *r)
{
	struct expo_proc *p = proc_of(e, r->fr_pid);
	const char *comm;

	if (p == NULL)
		return NULL;
	if (p->ep_cur != NULL)
		return p->ep_cur;
	comm = r->fr_comm != NULL && r->fr_comm[0] != '\0' ? r->fr_comm :
	    p->ep_comm != NULL ? p->ep_comm : e->e_comm;
	if (e->e_f->f_run.ri_bycommand && series_of(e, -1, comm) == NULL)
		return NULL;
	return p->ep_cur = series_of(e, r->fr_pid, comm);
}

/*
 * An exec's name when the row has none (its process already gone): the
 * first word's last path component of its command line.
 */
static char *
exec_name(const struct fmt_row *r)
{
	const char *line = r->fr_command != NULL ? r->fr_command : "";
	size_t n = strcspn(line, " ");
	const char *s = line;
	size_t i;

	if (r->fr_comm != NULL && r->fr_comm[0] != '\0')
		return strdup(r->fr_comm);
	for (i = 0; i < n; i++)
		if (line[i] == '/' && i + 1 < n)
			s = line + i + 1;
	return strndup(s, n - (size_t)(s - line));
}

/*
 * A fork (the child takes its parent's name) or an exec (the series
 * ends; the next line begins the new command's).
 */
static int
track_note(struct expo *e, const struct fmt_row *r)
{
	struct expo_proc *p;
	struct expo_ser *s;
	char *name;

	if (r->fr_child > 0) {
		if ((s = proc_series(e, r)) == NULL ||
		    (name = strdup(s->es_comm)) == NULL)
			return -1;
		if ((p = proc_of(e, r->fr_child)) == NULL) {
			free(name);
			return -1;
		}
		free(p->ep_comm);
		p->ep_comm = name;
		p->ep_cur = NULL;
		return 0;
	}
	if ((p = proc_of(e, r->fr_pid)) == NULL ||
	    (name = exec_name(r)) == NULL)
		return -1;
	if (p->ep_cur != NULL)
		p->ep_cur->es_ended = now_ns(CLOCK_MONOTONIC);
	p->ep_cur = NULL;
	free(p->ep_comm);
	p->ep_comm = name;
	return 0;
}

/* Column c of s: an interval's values added, or a total in place. */
static void
add_cell(struct expo_ser *s, int c, const uint64_t q[EXPO_NQ], int delta)
{
	struct expo_cell *cl = &s->es_cells[c];
	int i;

	cl->ec_has = 1;
	for (i = 0; i < EXPO_NQ; i++) {
		if (delta) {
			cl->ec_run[i] += q[i];
		} else {
			cl->ec_base[i] += q[i];
			cl->ec_run[i] = 0;
		}
	}
}

/* Which rows count: a delta (1), a total (0), neither (-1). */
static int
row_sort(const struct expo *e, const struct fmt_row *r)
{
	const char *k = r->fr_kind;

	if (strcmp(k, "tick") == 0 || (e->e_track &&
	    (strcmp(k, "lwp_create") == 0 || strcmp(k, "init_lwp") == 0)))
		return 1;
	if (e->e_track && !r->fr_tree && (strcmp(k, "exit") == 0 ||
	    strcmp(k, "exec") == 0 || strcmp(k, "total") == 0))
		return 0;
	return -1;
}

static void
values_row(struct expo *e, const struct fmt_row *r)
{
	const struct cols *cs = e->e_f->f_cols;
	uint64_t q[EXPO_NQ] = { 0, r->fr_ena, r->fr_run };
	struct expo_ser *s;
	struct expo_proc *p;
	int i, delta;

	if ((delta = row_sort(e, r)) < 0)
		return;
	s = e->e_track ? proc_series(e, r) :
	    series_of(e, r->fr_cpu, r->fr_cgroup);
	if (s == NULL) {
		e->e_failed = 1;
		return;
	}
	for (i = 0; i < cols_spec(cs, r->fr_set)->sp_nreqs; i++) {
		q[EXPO_COUNT] = r->fr_vals[i];
		add_cell(s, cols_of(cs, r->fr_set, i), q, delta);
	}
	for (i = 0; r->fr_smpl != NULL && i < cols_nsmpl(cs); i++) {
		q[EXPO_COUNT] = r->fr_smpl[i];
		add_cell(s, cols_n(cs) + i, q, delta);
	}
	if (e->e_track && strcmp(r->fr_kind, "exit") == 0 &&
	    (p = proc_of(e, r->fr_pid)) != NULL)
		proc_end(e, p);
}

void
expo_row(struct expo *e, const struct fmt_row *r)
{
	if (r->fr_set >= 0)
		values_row(e, r);
	else if (e->e_track && track_note(e, r) != 0)
		e->e_failed = 1;
}

/* Whether a process's series of comm has not ended. */
static int
command_live(const struct expo *e, const char *comm)
{
	int i;

	for (i = 0; i < e->e_nser; i++)
		if (e->e_ser[i]->es_key >= 0 && e->e_ser[i]->es_ended == 0 &&
		    strcmp(e->e_ser[i]->es_comm, comm) == 0)
			return 1;
	return 0;
}

/*
 * --by-command: an ended process's series added to its command's base
 * (the command's series keeps counting what it counted).
 */
static void
fold(struct expo *e, const struct expo_ser *s)
{
	struct expo_ser *c = series_of(e, -1, s->es_comm);
	int i, q;

	if (c == NULL) {
		e->e_failed = 1;
		return;
	}
	for (i = 0; i < ncells(e); i++) {
		if (!s->es_cells[i].ec_has)
			continue;
		c->es_cells[i].ec_has = 1;
		for (q = 0; q < EXPO_NQ; q++)
			c->es_cells[i].ec_base[q] += s->es_cells[i].ec_base[q] +
			    s->es_cells[i].ec_run[q];
	}
}

/* Whether s leaves now, folded into its command first (--by-command). */
static int
leaves(struct expo *e, struct expo_ser *s, int64_t now, int64_t grace)
{
	if (e->e_f->f_run.ri_bycommand) {
		if (s->es_key >= 0) {
			if (s->es_ended != 0)
				fold(e, s);
			return s->es_ended != 0;
		}
		if (command_live(e, s->es_comm))
			s->es_ended = 0;
		else if (s->es_ended == 0)
			s->es_ended = now;
	}
	return s->es_ended != 0 && now - s->es_ended >= grace;
}

void
expo_batch(struct expo *e)
{
	int64_t now = now_ns(CLOCK_MONOTONIC);
	int64_t grace = (int64_t)(e->e_f->f_run.ri_grace * 1e9);
	int i, n = 0;

	e->e_updated = now_ns(CLOCK_REALTIME);
	if (!e->e_track)
		return;
	/* The processes' series first: a command's end is its last's. */
	for (i = 0; i < e->e_nser; i++)
		if (e->e_ser[i]->es_key >= 0 && leaves(e, e->e_ser[i], now,
		    grace))
			e->e_ser[i]->es_key = -2;
	for (i = 0; i < e->e_nser; i++)
		if (e->e_ser[i]->es_key == -1 && leaves(e, e->e_ser[i], now,
		    grace))
			e->e_ser[i]->es_key = -2;
	for (i = 0; i < e->e_nser; i++) {
		if (e->e_ser[i]->es_key == -2)
			ser_free(e->e_ser[i]);
		else
			e->e_ser[n++] = e->e_ser[i];
	}
	e->e_nser = n;
}

const struct fmt *
expo_fmt(const struct expo *e)
{
	return e->e_f;
}

int
expo_nseries(const struct expo *e)
{
	return e->e_nser;
}

const struct expo_ser *
expo_series(const struct expo *e, int i)
{
	return e->e_ser[i];
}

int64_t
expo_started(const struct expo *e)
{
	return e->e_started;
}

int64_t
expo_updated(const struct expo *e)
{
	return e->e_updated;
}

int
expo_failed(const struct expo *e)
{
	return e->e_failed;
}
