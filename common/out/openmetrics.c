/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * openmetrics.c - the OpenMetrics textfile: one counter family,
 * cpustat_events (labels cpu, event; and cgroup with -G) or
 * cputrack_events (labels pid, command, event), whose samples are the
 * counts since the start; with -S a second, cpustat_samples or
 * cputrack_samples (the same labels, the event a -S request's name), the
 * samples taken since the start.
 *
 * cpustat adds each CPU's interval counts.  cputrack's lines are of two
 * sorts: a thread's interval counts (tick, lwp_create, init_lwp), added
 * to the process's running sum, and a process's totals (exit, exec, and
 * total at release), which hold everything since its start or last exec
 * and so replace that sum: a series is base + running, where base keeps
 * the totals before the last exec.  A process that execs a new command
 * starts a new series (other labels); the old one stays with its last
 * value, as do the series of processes that ended.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "errh.h"
#include "outfile.h"
#include "writer.h"

struct om_series {
	long		 os_key;	/* the CPU or the pid */
	char		*os_comm;	/* cputrack: the command; cpustat
					   -G: the cgroup */
	/* per column: the events' (cols_of), then the -S requests' */
	uint64_t	*os_base;
	uint64_t	*os_run;
	int		*os_has;
};

struct om_proc {
	long		 op_pid;
	int		 op_cur;	/* its series now */
	char		*op_comm;	/* as forked, before its first row */
};

struct om {
	char		*om_path;
	int		 om_track;
	char		*om_comm;	/* the first process's command */
	struct om_series *om_ser;
	int		 om_nser;
	struct om_proc	*om_procs;
	int		 om_nprocs;
	int		 om_failed;	/* a column array could not be made */
};

static int
om_open(struct fmt *f, const char *path, const char *comm)
{
	struct om *om;

	if ((om = calloc(1, sizeof(*om))) == NULL)
		return -1;
	f->f_state = om;
	om->om_track = f->f_tool == FMT_CPUTRACK;
	if ((om->om_path = strdup(path)) == NULL ||
	    (om->om_comm = strdup(comm != NULL ? comm : "")) == NULL)
		return -1;
	return 0;
}

static void
om_close(struct fmt *f)
{
	struct om *om = f->f_state;
	int i;

	if (om == NULL)
		return;
	for (i = 0; i < om->om_nser; i++) {
		free(om->om_ser[i].os_comm);
		free(om->om_ser[i].os_base);
		free(om->om_ser[i].os_run);
		free(om->om_ser[i].os_has);
	}
	for (i = 0; i < om->om_nprocs; i++)
		free(om->om_procs[i].op_comm);
	free(om->om_ser);
	free(om->om_procs);
	free(om->om_path);
	free(om->om_comm);
	free(om);
}

/* The series of key (and comm), made when new; -1 out of memory. */
static int
series_of(struct om *om, const struct fmt *f, long key, const char *comm)
{
	struct om_series *s;
	int i, n = cols_n(f->f_cols) + cols_nsmpl(f->f_cols) + 1;

	for (i = 0; i < om->om_nser; i++)
		if (om->om_ser[i].os_key == key && (comm == NULL ||
		    strcmp(om->om_ser[i].os_comm, comm) == 0))
			return i;
	if ((s = realloc(om->om_ser, (om->om_nser + 1) * sizeof(*s))) == NULL)
		return -1;
	om->om_ser = s;
	s = &s[om->om_nser];
	memset(s, 0, sizeof(*s));
	s->os_key = key;
	s->os_base = calloc(n, sizeof(*s->os_base));
	s->os_run = calloc(n, sizeof(*s->os_run));
	s->os_has = calloc(n, sizeof(*s->os_has));
	s->os_comm = comm != NULL ? strdup(comm) : NULL;
	om->om_nser++;
	if (s->os_base == NULL || s->os_run == NULL || s->os_has == NULL ||
	    (comm != NULL && s->os_comm == NULL))
		return -1;
	return om->om_nser - 1;
}

static struct om_proc *
proc_of(struct om *om, long pid)
{
	struct om_proc *p;
	int i;

	for (i = 0; i < om->om_nprocs; i++)
		if (om->om_procs[i].op_pid == pid)
			return &om->om_procs[i];
	p = realloc(om->om_procs, (om->om_nprocs + 1) * sizeof(*p));
	if (p == NULL)
		return NULL;
	om->om_procs = p;
	p = &p[om->om_nprocs++];
	p->op_pid = pid;
	p->op_cur = -1;
	p->op_comm = NULL;
	return p;
}

/* The current series of pid: its command as forked, or the first's. */
static int
proc_series(struct om *om, const struct fmt *f, long pid)
{
	struct om_proc *p = proc_of(om, pid);

	if (p == NULL)
		return -1;
	if (p->op_cur < 0)
		p->op_cur = series_of(om, f, pid, p->op_comm != NULL ?
		    p->op_comm : om->om_comm);
	return p->op_cur;
}

/*
 * The command label of an exec's command line: its first word's last
 * path component, as the first command's (a name, as in ps -o comm).
 */
static char *
command_name(const char *line)
{
	size_t n = strcspn(line, " ");
	const char *s = line;
	size_t i;

	for (i = 0; i < n; i++)
		if (line[i] == '/' && i + 1 < n)
			s = line + i + 1;
	return strndup(s, n - (size_t)(s - line));
}

/* A fork (the child takes the command) or an exec (a new series). */
static int
track_note(struct om *om, const struct fmt *f, const struct fmt_row *r)
{
	struct om_proc *p;
	char *comm;
	int cur;

	if (r->fr_child > 0) {
		if ((cur = proc_series(om, f, r->fr_pid)) < 0 ||
		    (p = proc_of(om, r->fr_child)) == NULL)
			return -1;
		free(p->op_comm);
		p->op_comm = strdup(om->om_ser[cur].os_comm);
		return p->op_comm == NULL ? -1 : 0;
	}
	if ((p = proc_of(om, r->fr_pid)) == NULL ||
	    (comm = command_name(r->fr_command)) == NULL)
		return -1;
	p->op_cur = series_of(om, f, r->fr_pid, comm);
	free(comm);
	return p->op_cur < 0 ? -1 : 0;
}

/* Column c of s: an interval's count added, or a total in place. */
static void
add_value(struct om_series *s, int c, uint64_t v, int delta)
{
	s->os_has[c] = 1;
	if (delta) {
		s->os_run[c] += v;
	} else {
		s->os_base[c] += v;
		s->os_run[c] = 0;
	}
}

/* A fork or an exec of cputrack's; cpustat has no notes. */
static void
om_note(struct fmt *f, const struct fmt_row *r)
{
	struct om *om = f->f_state;

	if (om->om_track && track_note(om, f, r) != 0)
		om->om_failed = 1;
}

static void
om_row(struct fmt *f, const struct fmt_row *r)
{
	struct om *om = f->f_state;
	struct om_series *s;
	int i, si, delta, total;
	const char *k = r->fr_kind;

	delta = strcmp(k, "tick") == 0 || (om->om_track &&
	    (strcmp(k, "lwp_create") == 0 || strcmp(k, "init_lwp") == 0));
	total = om->om_track && !r->fr_tree && (strcmp(k, "exit") == 0 ||
	    strcmp(k, "exec") == 0 || strcmp(k, "total") == 0);
	if (!delta && !total)
		return;
	/* cpustat -G: a series per CPU and cgroup (os_comm the cgroup). */
	si = om->om_track ? proc_series(om, f, r->fr_pid) :
	    series_of(om, f, r->fr_cpu, r->fr_cgroup);
	if (si < 0) {
		om->om_failed = 1;
		return;
	}
	s = &om->om_ser[si];
	for (i = 0; i < cols_spec(f->f_cols, r->fr_set)->sp_nreqs; i++)
		add_value(s, cols_of(f->f_cols, r->fr_set, i), r->fr_vals[i], delta);
	for (i = 0; r->fr_smpl != NULL && i < cols_nsmpl(f->f_cols); i++)
		add_value(s, cols_n(f->f_cols) + i, r->fr_smpl[i], delta);
}

/* A label value: backslash, double quote and newline escaped. */
static void
label(FILE *fp, const char *name, const char *v)
{
	fprintf(fp, "%s=\"", name);
	for (; *v != '\0'; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(fp, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", fp);
		else
			fputc(*v, fp);
	}
	fputc('"', fp);
}

/*
 * A counter family: the events' (smpl 0) or the -S requests' columns of
 * every series that has them.
 */
static void
write_family(FILE *fp, const struct om *om, const struct fmt *f, int smpl)
{
	const char *tool = om->om_track ? "cputrack" : "cpustat";
	const char *fam = smpl ? "samples" : "events";
	const struct om_series *s;
	int i, c, c0 = smpl ? cols_n(f->f_cols) : 0;
	int n = smpl ? cols_nsmpl(f->f_cols) : cols_n(f->f_cols);

	fprintf(fp, "# TYPE %s_%s counter\n", tool, fam);
	fprintf(fp, "# HELP %s_%s %s since %s started, per %s.\n", tool, fam,
	    smpl ? "Samples taken" : "Events counted", tool,
	    om->om_track ? "process" : "CPU");
	for (i = 0; i < om->om_nser; i++) {
		s = &om->om_ser[i];
		for (c = 0; c < n; c++) {
			if (!s->os_has[c0 + c])
				continue;
			fprintf(fp, "%s_%s_total{", tool, fam);
			if (om->om_track) {
				fprintf(fp, "pid=\"%ld\",", s->os_key);
				label(fp, "command", s->os_comm);
			} else {
				fprintf(fp, "cpu=\"%ld\"", s->os_key);
				if (s->os_comm != NULL) {	/* -G */
					fputc(',', fp);
					label(fp, "cgroup", s->os_comm);
				}
			}
			fputc(',', fp);
			label(fp, "event", smpl ? cols_smplname(f->f_cols, c) :
			    cols_name(f->f_cols, c));
			fprintf(fp, "} %" PRIu64 "\n", s->os_base[c0 + c] +
			    s->os_run[c0 + c]);
		}
	}
}

/*
 * Write the whole file beside its name and rename it over the name: a
 * reader sees the old file or the new, never part of one (outfile.c).
 */
static int
om_write(struct fmt *f)
{
	struct om *om = f->f_state;
	char msg[512];
	FILE *fp;

	if (om->om_failed) {
		errh_set("out of memory");
		return -1;
	}
	if ((fp = outfile_begin(om->om_path, msg, sizeof(msg))) == NULL) {
		errh_set("%s", msg);
		return -1;
	}
	write_family(fp, om, f, 0);
	if (cols_nsmpl(f->f_cols) > 0)
		write_family(fp, om, f, 1);
	fputs("# EOF\n", fp);
	if (outfile_commit(fp, om->om_path, msg, sizeof(msg)) != 0) {
		errh_set("%s", msg);
		return -1;
	}
	return 0;
}

const struct fmt_writer fmt_openmetrics = {
	.fw_name = "openmetrics",
	.fw_open = om_open,
	.fw_close = om_close,
	.fw_row = om_row,
	.fw_note = om_note,
	.fw_flush = om_write,
};
