/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tracepoint.c - the catalogue's tracepoints, system:event, with their
 * ids from tracefs.  Listing reads the systems with libtracefs; the
 * description of a tracepoint is the names of its own fields.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/perf_event.h>

#include "catalogue.h"

/*
 * What close names are drawn from, read again when a second old: a
 * program (or a fuzzer) that tries many names would otherwise have the
 * kernel write out thousands of lines, or look up every system's
 * directory, for each unknown one.  Tracepoints that come or go (a
 * module, a kprobe) are offered a second late at most.  tp_lock guards
 * them all: available_events (its lines '\0'-ended, in the file's
 * order), and libtracefs's list of the systems and of the events of the
 * system last asked for (in its order).
 */
#define TP_KEEP_NS	1000000000LL

struct tp_list {
	char		**tl_names;
	const char	*tl_dir;	/* the tracefs it was read from */
	char		 tl_sys[256];	/* whose events; "": the systems */
	int64_t		 tl_when;	/* CLOCK_MONOTONIC ns of the read */
};

static pthread_mutex_t tp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tp_list tp_systems, tp_events;
static char *tp_text;		/* available_events, or NULL */
/* Its system:event lines, compared whole, and by their event part. */
static struct ev_cand *tp_whole, *tp_part;
static size_t tp_npoints;
static const char *tp_dir;
static int64_t tp_when;

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The systems (sys ""), or the events of sys; NULL when unreadable. */
static char **
tp_list(struct tp_list *tl, const char *dir, const char *sys)
{
	if (tl->tl_names != NULL && tl->tl_dir == dir &&
	    strcmp(tl->tl_sys, sys) == 0 && now_ns() - tl->tl_when < TP_KEEP_NS)
		return tl->tl_names;
	cpc_tracefs_list_free(tl->tl_names);
	tl->tl_names = sys[0] == '\0' ? cpc_tracefs_systems(dir) :
	    cpc_tracefs_events(dir, sys);
	tl->tl_dir = dir;
	snprintf(tl->tl_sys, sizeof(tl->tl_sys), "%s", sys);
	tl->tl_when = now_ns();
	return tl->tl_names;
}

/* The systems (sys NULL), or the events of system sys as sys:event. */
static void
offer_tracepoints(const char *dir, const char *sys, const char *want,
    struct ev_suggest *sg)
{
	char full[CPC_MAX_EVENT_LEN], **p;

	pthread_mutex_lock(&tp_lock);
	if (sys == NULL) {
		if ((p = tp_list(&tp_systems, dir, "")) != NULL)
			for (; *p != NULL; p++)
				ev_suggest_name(sg, want, *p);
	} else if ((p = tp_list(&tp_events, dir, sys)) != NULL)
		for (; *p != NULL; p++) {
			snprintf(full, sizeof(full), "%s:%s", sys, *p);
			ev_suggest_name(sg, want, full);
		}
	pthread_mutex_unlock(&tp_lock);
}

/* The lines of text (len bytes) that have a ':' become the copy. */
static int
tp_points_of(const char *dir, char *text, size_t len)
{
	struct ev_cand *whole, *part;
	char *line, *end = text + len, *nl, *colon;
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	whole = calloc(n + 1, sizeof(*whole));
	part = calloc(n + 1, sizeof(*part));
	if (whole == NULL || part == NULL) {
		free(whole);
		free(part);
		free(text);
		return -1;
	}
	for (n = 0, line = text; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		*nl = '\0';
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		ev_cand_set(&whole[n], line, line);
		ev_cand_set(&part[n++], colon + 1, line);
	}
	free(tp_text);
	free(tp_whole);
	free(tp_part);
	tp_text = text;
	tp_whole = whole;
	tp_part = part;
	tp_npoints = n;
	tp_dir = dir;
	tp_when = now_ns();
	return 0;
}

/* Read dir's available_events into the copy; -1 when it cannot be. */
static int
tp_read(const char *dir)
{
	char path[512], *buf = NULL, *grown;
	size_t len = 0, cap = 0;
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/available_events", dir);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap != 0 ? cap * 2 : 65536;
			if ((grown = realloc(buf, cap)) == NULL) {
				n = -1;
				break;
			}
			buf = grown;
		}
		/* One byte kept for the '\0' after the last line. */
		if ((n = read(fd, buf + len, cap - len - 1)) <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (n != 0) {			/* an error, or out of memory */
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	return tp_points_of(dir, buf, len);
}

/*
 * Every tracepoint, for a name no stage knew: compared as a whole with a
 * system:event name (SCHED:sched_switch), by its event part with a bare
 * name (sched_switch).  Read from available_events only on the way to an
 * error; nothing when tracefs is not there or not readable.
 */
static void
offer_all_tracepoints(const char *name, struct ev_suggest *sg)
{
	const char *dir = cpc_tracefs_dir();
	int bare = strchr(name, ':') == NULL;

	if (dir == NULL)
		return;
	pthread_mutex_lock(&tp_lock);
	if ((tp_text == NULL || tp_dir != dir ||
	    now_ns() - tp_when >= TP_KEEP_NS) && tp_read(dir) != 0) {
		pthread_mutex_unlock(&tp_lock);
		return;
	}
	ev_suggest_offer_list(sg, name, bare ? tp_part : tp_whole,
	    tp_npoints);
	pthread_mutex_unlock(&tp_lock);
}

/* tracefs is there but this user may not read it. */
static int
no_access(const struct ev_ctx *ec, const char *fn, const char *name,
    const char *path)
{
	ev_err(ec, fn, CPC_INVALID_EVENT, "cannot look up tracepoint '%s': "
	    "%s: %s (tracepoints need root)", name, path, strerror(EACCES));
	errno = EACCES;
	return -1;
}

/*
 * name is not a tracepoint: system sys (within tracefs dir) has no
 * event evn, or (evn NULL) there is no such system.  Reported with the
 * names nearest; -1 (EINVAL).
 */
static int
no_tracepoint(const struct ev_ctx *ec, const char *fn, const char *name,
    const char *dir, const char *sys, const char *evn)
{
	char hint[3 * CPC_MAX_EVENT_LEN + 64] = "";
	struct ev_suggest sg;

	if (!ev_quiet(fn)) {
		ev_suggest_init(&sg, evn == NULL ? sys : name);
		offer_tracepoints(dir, evn == NULL ? NULL : sys,
		    evn == NULL ? sys : name, &sg);
		ev_suggest_text(&sg, hint, sizeof(hint));
	}
	if (evn == NULL)
		ev_err(ec, fn, CPC_INVALID_EVENT, "unknown event '%s': no "
		    "tracepoint system '%s'%s", name, sys, hint);
	else
		ev_err(ec, fn, CPC_INVALID_EVENT, "unknown event '%s': "
		    "system '%s' has no tracepoint '%s'%s", name, sys, evn,
		    hint);
	errno = EINVAL;
	return -1;
}

/* system:event, reported when it is not a tracepoint. */
static int
lookup_tracepoint(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	char sys[256], path[768], buf[32];
	const char *colon = strchr(name, ':'), *evn = colon + 1, *dir;
	struct stat st;
	char *end;

	/* No directory has a longer name (NAME_MAX). */
	if ((size_t)(colon - name) >= sizeof(sys)) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "unknown event: tracepoint "
		    "system name too long (at most %zu characters)",
		    sizeof(sys) - 1);
		return -1;
	}
	memcpy(sys, name, colon - name);
	sys[colon - name] = '\0';
	if ((dir = cpc_tracefs_dir()) == NULL) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "cannot look up "
		    "tracepoint '%s': tracefs is not mounted (as root: "
		    "mount -t tracefs nodev /sys/kernel/tracing)", name);
		errno = ENOSYS;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	if (stat(path, &st) != 0) {
		if (errno == EACCES)
			return no_access(ec, fn, name, path);
		return no_tracepoint(ec, fn, name, dir, sys, NULL);
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, evn);
	if (evn[0] == '\0' || strchr(evn, '/') != NULL ||
	    cpc_read_small(path, buf, sizeof(buf)) != 0) {
		if (errno == EACCES)
			return no_access(ec, fn, name, path);
		return no_tracepoint(ec, fn, name, dir, sys, evn);
	}
	memset(ev, 0, sizeof(*ev));
	ev->ev_kind = EVK_TRACEPOINT;
	ev->ev_type = PERF_TYPE_TRACEPOINT;
	ev->ev_config = strtoull(buf, &end, 10);
	return 0;
}

static int
has_upper(const char *s, const char *end)
{
	for (; s < end; s++)
		if (isupper((unsigned char)*s))
			return 1;
	return 0;
}

/* system:event: one colon, neither part empty. */
static const char *
tp_colon(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon != NULL && colon > name && colon[1] != '\0' ? colon :
	    NULL;
}

/* A tracefs system of that name exists (tracefs mounted, dir there). */
static int
is_trace_system(const char *name, const char *colon)
{
	const char *dir = cpc_tracefs_dir();
	char path[512];
	struct stat st;

	if (dir == NULL || colon - name > 255)
		return 0;
	snprintf(path, sizeof(path), "%s/events/%.*s", dir,
	    (int)(colon - name), name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
ev_tp_lookup(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const char *colon = tp_colon(name);

	if (colon == NULL || !is_trace_system(name, colon))
		return 1;
	return lookup_tracepoint(ec, fn, name, ev);
}

/*
 * Tracepoint systems are lower case, native names not: a name of that
 * shape that libpfm4 has for no PMU is taken for a tracepoint whose
 * system is missing, and said so.
 */
int
ev_tp_explain(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const char *colon = tp_colon(name);
	char where[256];

	if (colon == NULL || ev_native_where(name, where, sizeof(where)) == 0 ||
	    has_upper(name, colon))
		return 1;
	return lookup_tracepoint(ec, fn, name, ev);
}

/*
 * Every tracepoint, for a name no kind knew (but a libpfm4 table's,
 * skl::...): compared as a whole with a system:event name
 * (SCHED:sched_switch), by its event part with a bare name
 * (sched_switch).
 */
static void
ev_tp_suggest(const struct ev_ctx *ec, struct ev_suggest *sg,
    const char *name, const char *base)
{
	(void)ec;
	(void)base;
	if (strstr(name, "::") == NULL)
		offer_all_tracepoints(name, sg);
}

/* ---- listing ---- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A tracepoint's description: the names of its own fields (not the
 * common_ ones every event has), from its format file.  Lines look like
 *	field:unsigned int prev_pid;	offset:24;	size:4;	signed:0;
 *	field:__data_loc char[] name;	...
 *	field:char prev_comm[16];	...
 */
static int
tp_desc(int sysfd, const char *ev, char *desc, size_t len)
{
	char path[512], buf[8192], *line, *save = NULL;
	size_t used = 0;
	ssize_t n = -1;
	int fd, nf = 0;

	/* From the system's directory: 2300 opens and closes 14 -> 10 ms. */
	snprintf(path, sizeof(path), "%s/format", ev);
	if ((fd = openat(sysfd, path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	snprintf(desc, len, "fields:");
	used = strlen(desc);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *f = strstr(line, "field:"), *end, *start;

		if (f == NULL || (end = strchr(f, ';')) == NULL)
			continue;
		while (end > f && end[-1] == ']')	/* name[16] */
			while (end > f && *--end != '[')
				;
		start = end;
		while (start > f && (isalnum((unsigned char)start[-1]) ||
		    start[-1] == '_'))
			start--;
		if (start == end || strncmp(start, "common_", 7) == 0)
			continue;
		if (used + (size_t)(end - start) + 5 >= len) {
			snprintf(desc + used, len - used, " ...");
			return 0;
		}
		used += snprintf(desc + used, len - used, " %.*s",
		    (int)(end - start), start);
		nf++;
	}
	if (nf == 0)
		snprintf(desc, len, "no fields");
	return n > 0 ? 0 : -1;
}

/*
 * What the one test open of the listed tracepoints opens (the walk's
 * shared test), NULL when none can be counted.  Counting a tracepoint,
 * the kernel checks what it checks for any event of the same modes on
 * the same target (the paranoia level, the process or the CPU, the
 * security module's open hook) and, of the tracepoint's own, that its
 * id is one (the ids listed are tracefs's), the permission that raw
 * samples and ftrace's function event need (a count of a listed one asks
 * for neither), and a hook a rare event has.  So the dummy software
 * event, with a tracepoint's modes, stands in for them where the kernel
 * has the tracepoint PMU, as the first tracepoint listed used to: its
 * own open would tell no more of the others and cost a third of a whole
 * listing, for its close waits for RCU grace periods (28-38 ms here)
 * holding the tracing event mutex, which every format file read behind
 * it then waits for.  Where sysfs cannot say whether the PMU is there
 * (tpmu, cpc_pmu_registered's), the tracepoint itself (tp) is opened.
 */
static const struct cpc_event *
tp_test_event(int tpmu, const struct cpc_event *tp, struct cpc_event *dummy)
{
	switch (tpmu) {
	case 1:
		memset(dummy, 0, sizeof(*dummy));
		dummy->ev_kind = EVK_SOFTWARE;
		dummy->ev_type = PERF_TYPE_SOFTWARE;
		dummy->ev_config = PERF_COUNT_SW_DUMMY;
		dummy->ev_modes = tp->ev_modes;
		return dummy;
	case 0:
		return NULL;
	default:
		return tp;
	}
}

/*
 * A listing reads every wanted tracepoint's format file (2300 here, most
 * of the listing's time).  The kernel makes each read under its tracing
 * event mutex, but the open and close around it (a path lookup in
 * eventfs, a file made and freed) need no lock: a thread of its own
 * reads the second half of the descriptions while the caller reads and
 * emits the first (35 ms to 22 ms for the reads here).  Names and the
 * callback stay with the caller's thread, in the listing's order.
 */
#define TP_SPLIT_MIN	64	/* fewer: not worth a thread */

struct tp_item {
	const char	*ti_sys;
	const char	*ti_ev;
	int		 ti_fmt;	/* tp_desc's result, once read */
};

/* Reads descriptions, keeping the open system's directory. */
struct tp_reader {
	const char	*tr_dir;
	const char	*tr_sys;
	int		 tr_fd;
};

static int
tp_read_desc(struct tp_reader *r, const struct tp_item *it, char *desc)
{
	char path[512];

	if (r->tr_sys != it->ti_sys) {
		if (r->tr_fd >= 0)
			close(r->tr_fd);
		r->tr_sys = it->ti_sys;
		snprintf(path, sizeof(path), "%s/events/%s", r->tr_dir,
		    r->tr_sys);
		r->tr_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	return tp_desc(r->tr_fd, it->ti_ev, desc, EV_DESC_LEN);
}

static void
tp_reader_done(struct tp_reader *r)
{
	if (r->tr_fd >= 0)
		close(r->tr_fd);
}

/* The second half: items tw_from to tw_to, descriptions into tw_desc. */
struct tp_work {
	const char	*tw_dir;
	struct tp_item	*tw_items;
	size_t		 tw_from, tw_to;
	char		*tw_desc;	/* EV_DESC_LEN for each */
	pthread_t	 tw_thread;
};

static void *
tp_worker(void *arg)
{
	struct tp_work *tw = arg;
	struct tp_reader r = { tw->tw_dir, NULL, -1 };
	size_t i;

	for (i = tw->tw_from; i < tw->tw_to; i++)
		tw->tw_items[i].ti_fmt = tp_read_desc(&r, &tw->tw_items[i],
		    tw->tw_desc + (i - tw->tw_from) * EV_DESC_LEN);
	tp_reader_done(&r);
	return NULL;
}

/* Start the second half's thread; 0 when it could not start. */
static int
tp_work_start(struct tp_work *tw)
{
	sigset_t all, old;
	int rc;

	if ((tw->tw_desc = malloc((tw->tw_to - tw->tw_from) *
	    EV_DESC_LEN)) == NULL)
		return 0;
	/* The caller's signals stay the caller's: the thread takes none. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&tw->tw_thread, NULL, tp_worker, tw);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		free(tw->tw_desc);
		return 0;
	}
	return 1;
}

/*
 * Emit one tracepoint.  Every tracepoint passes the same checks (one
 * test, made for the first one listed), so only that one needs its id
 * read (*needid); for the others, a format file read (fmt 0) is proof
 * enough that the event is there, and the id is read only when the
 * format could not be: half the files --list-events opened.
 */
static void
tp_emit(struct ev_walk *w, const char *dir, const struct tp_item *it,
    const char *desc, int fmt, int *needid, int tpmu)
{
	char name[CPC_MAX_EVENT_LEN], path[768], id[32];
	struct cpc_event ev, dummy;
	const struct cpc_event *test = NULL;
	char *end;

	snprintf(name, sizeof(name), "%s:%s", it->ti_sys, it->ti_ev);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, it->ti_sys,
	    it->ti_ev);
	snprintf(id, sizeof(id), "0");
	if ((fmt != 0 || *needid) && cpc_read_small(path, id, sizeof(id)) != 0)
		id[0] = '\0';
	else
		*needid = 0;
	memset(&ev, 0, sizeof(ev));
	ev.ev_kind = EVK_TRACEPOINT;
	ev.ev_type = PERF_TYPE_TRACEPOINT;
	ev.ev_config = strtoull(id, &end, 10);
	/* Every tracepoint passes the same checks: one test. */
	if (isdigit((unsigned char)id[0]))
		test = tp_test_event(tpmu, &ev, &dummy);
	w->ew_emit(w, name, "tracepoint", desc, test, 1);
}

/*
 * The wanted tracepoints of the sorted systems sys[0..nsys), each
 * system's events sorted, into *items (*n of them); each system's list
 * of events is kept in evs[] for the names.  -1 when out of memory.
 */
static int
tp_wanted(struct ev_walk *w, const char *dir, char **sys, size_t nsys,
    char ***evs, struct tp_item **items, size_t *n)
{
	char name[CPC_MAX_EVENT_LEN];
	struct tp_item *it = NULL, *grown;
	size_t s, i, ne, cap = 0;

	*n = 0;
	for (s = 0; s < nsys; s++) {
		if ((evs[s] = cpc_tracefs_events(dir, sys[s])) == NULL)
			continue;
		for (ne = 0; evs[s][ne] != NULL; ne++)
			;
		qsort(evs[s], ne, sizeof(*evs[s]), name_cmp);
		for (i = 0; i < ne; i++) {
			snprintf(name, sizeof(name), "%s:%s", sys[s],
			    evs[s][i]);
			if (!w->ew_want(w, name))
				continue;
			if (*n == cap) {
				cap = cap != 0 ? 2 * cap : 256;
				if ((grown = realloc(it, cap * sizeof(*it))) ==
				    NULL) {
					free(it);
					return -1;
				}
				it = grown;
			}
			it[*n].ti_sys = sys[s];
			it[*n].ti_ev = evs[s][i];
			it[*n].ti_fmt = -1;
			(*n)++;
		}
	}
	*items = it;
	return 0;
}

/* Every tracepoint, by system, as --list-events shows them. */
static void
ev_tp_walk(const struct ev_ctx *ec, struct ev_walk *w)
{
	const char *dir = cpc_tracefs_dir();
	char path[512], desc[EV_DESC_LEN], **sys, ***evs = NULL;
	struct tp_item *items = NULL;
	struct tp_reader r = { dir, NULL, -1 };
	struct tp_work tw;
	size_t n = 0, nsys, i, half;
	int needid = 1, tpmu, split = 0;

	if (dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/events", dir);
	if (access(path, R_OK | X_OK) != 0) {
		ev_err(ec, "cpc_walk_catalogue", -1, "tracepoints not "
		    "listed: %s: %s (tracepoints need root)", path,
		    strerror(errno));
		return;
	}
	if ((sys = cpc_tracefs_systems(dir)) == NULL)
		return;
	for (nsys = 0; sys[nsys] != NULL; nsys++)
		;
	qsort(sys, nsys, sizeof(*sys), name_cmp);
	if ((evs = calloc(nsys, sizeof(*evs))) == NULL ||
	    tp_wanted(w, dir, sys, nsys, evs, &items, &n) != 0)
		goto out;
	tpmu = cpc_pmu_registered("tracepoint");
	half = n;
	if (n >= TP_SPLIT_MIN) {
		tw.tw_dir = dir;
		tw.tw_items = items;
		tw.tw_from = n / 2;
		tw.tw_to = n;
		if ((split = tp_work_start(&tw)) != 0)
			half = n / 2;
	}
	for (i = 0; i < half; i++)
		tp_emit(w, dir, &items[i], desc, tp_read_desc(&r, &items[i],
		    desc), &needid, tpmu);
	tp_reader_done(&r);
	if (split) {
		pthread_join(tw.tw_thread, NULL);
		for (i = half; i < n; i++)
			tp_emit(w, dir, &items[i], tw.tw_desc +
			    (i - half) * EV_DESC_LEN, items[i].ti_fmt,
			    &needid, tpmu);
		free(tw.tw_desc);
	}
out:
	free(items);
	for (i = 0; evs != NULL && i < nsys; i++)
		cpc_tracefs_list_free(evs[i]);
	free(evs);
	cpc_tracefs_list_free(sys);
}

const struct ev_kind ev_kind_tracepoint = {
	.ek_name = "tracepoint",
	.ek_lookup = ev_tp_lookup,
	.ek_walk = ev_tp_walk,
	.ek_suggest = ev_tp_suggest,
};
