/*
 * catalogue.c - walking the event catalogue: the Solaris walkers
 * (cpc_walk_events_all, cpc_walk_generic_events_all, their per-pic forms
 * and cpc_walk_attrs), which name what a user can count here, and the
 * Linux extension cpc_walk_catalogue, which names everything the library
 * accepts, each name with its kind, a description and the result of a
 * test open.
 *
 * The test opens are real perf_event_open(2) calls, one per name, except
 * for tracepoints: closing a tracepoint's perf event costs the kernel an
 * RCU grace period (about 35 ms here), so two thousand of them would take
 * over a minute.  Every tracepoint passes the same permission checks, so
 * one tracepoint of those listed is opened and its result stands for all
 * of them whose id could be read.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <tracefs.h>

#include "cpc_impl.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)
#endif

#define SYSFS_PMUS	"/sys/bus/event_source/devices"
#define DESC_LEN	256

/* ---- the Solaris walkers ---- */

/*
 * Hardware names are offered when the kernel has a hardware PMU, or when
 * LIBPFM_FORCE_PMU asked for a PMU's table: the user then wants to see
 * that table's names (the kernel still decides at bind time).
 */
static int
hw_listed(cpc_t *cpc)
{
	struct cpc_pmu pmu;

	if (cpc->c_hwpmu)
		return 1;
	/* Not otherwise: a walk need not start libpfm4 with no PMU. */
	return cpc_pfm_forced() != NULL && cpc_pfm_pmu(cpc, &pmu) == 0;
}

/* The name encodes, and a hardware event only where hardware is listed. */
static int
countable(cpc_t *cpc, const char *name, int hw)
{
	struct cpc_event ev;

	if (cpc_event_encode(cpc, NULL, name, &ev) != 0)
		return 0;
	return !ev.ev_hw || hw;
}

CPC_EXPORT void
cpc_walk_generic_events_all(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *event))
{
	char name[64];
	size_t i;
	int hw = hw_listed(cpc);

	for (i = 0; i < cpc_ngeneric_names; i++) {
		snprintf(name, sizeof(name), "PAPI_%s",
		    cpc_generic_names[i].gn_name);
		if (countable(cpc, name, hw))
			fn(arg, name);
	}
}

struct pic_walk {
	uint_t	  pw_pic;
	void	 *pw_arg;
	void	(*pw_fn)(void *, uint_t, const char *);
};

static void
pic_adapter(void *arg, const char *event)
{
	struct pic_walk *pw = arg;

	pw->pw_fn(pw->pw_arg, pw->pw_pic, event);
}

/*
 * Linux chooses the physical counter of a request, so every pic can count
 * every event: the per-pic walks are the walks of all events.
 */
CPC_EXPORT void
cpc_walk_generic_events_pic(cpc_t *cpc, uint_t picno, void *arg,
    void (*fn)(void *arg, uint_t picno, const char *event))
{
	struct pic_walk pw = { picno, arg, fn };

	if (picno >= cpc_npic(cpc)) {
		errno = EINVAL;
		return;
	}
	cpc_walk_generic_events_all(cpc, &pw, pic_adapter);
}

struct name_walk {
	void	 *nw_arg;
	void	(*nw_fn)(void *, const char *);
};

/* Only names -c takes: not an event that needs one of its unit masks. */
static void
native_adapter(void *arg, const char *name, const char *desc,
    enum cpc_pfm_how how)
{
	struct name_walk *nw = arg;

	(void)desc;
	if (how == CPC_PFM_ENCODES)
		nw->nw_fn(nw->nw_arg, name);
}

/*
 * Platform events: perf's hardware and cache names and the native names
 * of the PMU (where hardware is listed), the software events, and the
 * classic Solaris names that can be counted.
 */
CPC_EXPORT void
cpc_walk_events_all(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *event))
{
	struct name_walk nw = { arg, fn };
	char name[64];
	size_t i, c, o;
	int r, hw = hw_listed(cpc);

	for (i = 0; i < cpc_nperf_names; i++)
		if (cpc_perf_names[i].nm_type == PERF_TYPE_HARDWARE && hw)
			fn(arg, cpc_perf_names[i].nm_name);
	for (c = 0; c < cpc_ncache_names && hw; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(name, sizeof(name), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				fn(arg, name);
			}
	for (i = 0; i < cpc_nperf_names; i++)
		if (cpc_perf_names[i].nm_type != PERF_TYPE_HARDWARE)
			fn(arg, cpc_perf_names[i].nm_name);
	for (i = 0; i < cpc_nclassic_names; i++)
		if (countable(cpc, cpc_classic_names[i].cl_name, hw))
			fn(arg, cpc_classic_names[i].cl_name);
	if (hw)
		cpc_pfm_walk(cpc, 0, &nw, native_adapter);
}

CPC_EXPORT void
cpc_walk_events_pic(cpc_t *cpc, uint_t picno, void *arg,
    void (*fn)(void *arg, uint_t picno, const char *event))
{
	struct pic_walk pw = { picno, arg, fn };

	if (picno >= cpc_npic(cpc)) {
		errno = EINVAL;
		return;
	}
	cpc_walk_events_all(cpc, &pw, pic_adapter);
}

CPC_EXPORT void
cpc_walk_attrs(cpc_t *cpc, void *arg, void (*fn)(void *arg, const char *attr))
{
	cpc_event_walk_attrs(cpc, arg, fn);
	fn(arg, "picnum");
}

/* ---- cpc_walk_catalogue ---- */

struct walk {
	cpc_t		*w_cpc;
	const char	*w_pat;		/* NULL: every name */
	int		 w_glob;	/* w_pat has * ? or [ */
	pid_t		 w_pid;		/* the test opens' target */
	int		 w_cpu;
	int		 w_tpavail;	/* the tracepoint test, -1 not yet */
	int		 w_n;		/* names passed to w_fn */
	void		*w_arg;
	void		(*w_fn)(void *, const cpc_evinfo_t *);
};

/* Case-insensitive: a substring, or a shell pattern for the whole name. */
static int
match(const struct walk *w, const char *name)
{
	if (w->w_pat == NULL)
		return 1;
	if (w->w_glob)
		return fnmatch(w->w_pat, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, w->w_pat) != NULL;
}

static void
emit(struct walk *w, const char *name, const char *kind, const char *desc,
    int avail)
{
	cpc_evinfo_t ei;

	ei.ei_name = name;
	ei.ei_kind = kind;
	ei.ei_desc = desc;
	ei.ei_avail = avail;
	w->w_fn(w->w_arg, &ei);
	w->w_n++;
}

static long
open_attr(struct perf_event_attr *a, const struct walk *w)
{
	return syscall(SYS_perf_event_open, a, w->w_pid, w->w_cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
}

/*
 * Open one encoding as a request with the default flags would be opened
 * (user mode only where the mode flags apply), and close it.  The clocks
 * are retried with the kernel excluded, as be_perf.c does: they count the
 * same, and an unprivileged user may open them only so.
 */
static int
try_open(const struct walk *w, const struct cpc_enc *en, int modes)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = en->en_type;
	a.config = en->en_config;
	a.config1 = en->en_config1;
	a.config2 = en->en_config2;
	a.disabled = 1;
	a.exclude_kernel = modes;
	a.exclude_hv = modes;
	fd = open_attr(&a, w);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !modes &&
	    en->en_type == PERF_TYPE_SOFTWARE &&
	    (en->en_config == PERF_COUNT_SW_TASK_CLOCK ||
	    en->en_config == PERF_COUNT_SW_CPU_CLOCK)) {
		a.exclude_kernel = 1;
		fd = open_attr(&a, w);
	}
	if (fd >= 0) {
		close((int)fd);
		return CPC_AVAIL_YES;
	}
	return errno == EACCES || errno == EPERM ? CPC_AVAIL_PRIV :
	    CPC_AVAIL_NO;
}

/* A derived event needs both of its counters. */
static int
test_event(const struct walk *w, const struct cpc_event *ev)
{
	struct cpc_enc en = { ev->ev_type, ev->ev_config, ev->ev_config1,
	    ev->ev_config2 };
	int a = try_open(w, &en, ev->ev_modes);

	if (a == CPC_AVAIL_YES && ev->ev_derived)
		a = try_open(w, &ev->ev_sub, ev->ev_modes);
	return a;
}

/* Encode a name and test it; CPC_AVAIL_NO when it does not encode. */
static int
test_name(const struct walk *w, const char *name, struct cpc_event *ev)
{
	if (cpc_event_encode(w->w_cpc, NULL, name, ev) != 0)
		return CPC_AVAIL_NO;
	return test_event(w, ev);
}

/* perf's hardware names (hw) or its software names (!hw). */
static void
walk_named(struct walk *w, int hw)
{
	const struct cpc_named *nm;
	struct cpc_event ev;
	size_t i;

	for (i = 0; i < cpc_nperf_names; i++) {
		nm = &cpc_perf_names[i];
		if ((nm->nm_type == PERF_TYPE_HARDWARE) != hw ||
		    !match(w, nm->nm_name))
			continue;
		emit(w, nm->nm_name, hw ? "hardware" : "software",
		    nm->nm_desc, test_name(w, nm->nm_name, &ev));
	}
}

/* In the order of PERF_COUNT_HW_CACHE_*, as cpc_cache_names. */
static const char *const cache_desc[] = {
	"level 1 data cache", "level 1 instruction cache",
	"last-level cache", "data TLB", "instruction TLB",
	"branch prediction unit", "local memory node",
};
static const char *const op_desc[][2] = {
	{ "loads", "load misses" },
	{ "stores", "store misses" },
	{ "prefetches", "prefetch misses" },
};

static void
walk_cache(struct walk *w)
{
	char name[64], desc[DESC_LEN];
	struct cpc_event ev;
	size_t c, o;
	int r;

	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(name, sizeof(name), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				if (!match(w, name))
					continue;
				if (c < sizeof(cache_desc) / sizeof(*cache_desc) &&
				    o < sizeof(op_desc) / sizeof(*op_desc))
					snprintf(desc, sizeof(desc), "%s %s",
					    cache_desc[c], op_desc[o][r]);
				else
					snprintf(desc, sizeof(desc), "%s %s",
					    cpc_cache_names[c],
					    cpc_cache_ops[o][r]);
				emit(w, name, "cache", desc,
				    test_name(w, name, &ev));
			}
}

/* What a generic name stands for here, as the catalogue resolves it. */
static void
generic_target(cpc_t *cpc, const struct cpc_generic *g,
    const struct cpc_event *ev, char *buf, size_t len)
{
	char cand[CPC_MAX_EVENT_LEN], *p, *save = NULL;
	struct cpc_event nev;

	snprintf(buf, len, "%s", g->gn_perf != NULL ? g->gn_perf : "?");
	if (ev->ev_kind != EVK_NATIVE || g->gn_native == NULL)
		return;
	snprintf(cand, sizeof(cand), "%s", g->gn_native);
	for (p = strtok_r(cand, "|", &save); p != NULL;
	    p = strtok_r(NULL, "|", &save))
		if (cpc_event_encode(cpc, NULL, p, &nev) == 0) {
			snprintf(buf, len, "%s", p);
			return;
		}
}

static void
walk_generic(struct walk *w)
{
	const struct cpc_generic *g;
	char name[64], desc[DESC_LEN], target[128];
	struct cpc_event ev;
	size_t i;
	int avail;

	for (i = 0; i < cpc_ngeneric_names; i++) {
		g = &cpc_generic_names[i];
		snprintf(name, sizeof(name), "PAPI_%s", g->gn_name);
		if (!match(w, name))
			continue;
		if (cpc_event_encode(w->w_cpc, NULL, name, &ev) == 0) {
			generic_target(w->w_cpc, g, &ev, target,
			    sizeof(target));
			snprintf(desc, sizeof(desc), "%s (%s)", g->gn_desc,
			    target);
			avail = test_event(w, &ev);
		} else {
			snprintf(desc, sizeof(desc), "%s (no equivalent on "
			    "this processor)", g->gn_desc);
			avail = CPC_AVAIL_NO;
		}
		emit(w, name, "generic", desc, avail);
	}
}

static void
walk_classic(struct walk *w)
{
	const struct cpc_classic *cl;
	char desc[DESC_LEN];
	struct cpc_event ev;
	size_t i;

	for (i = 0; i < cpc_nclassic_names; i++) {
		cl = &cpc_classic_names[i];
		if (!match(w, cl->cl_name))
			continue;
		if (cl->cl_minus != NULL)
			snprintf(desc, sizeof(desc), "%s (%s - %s)",
			    cl->cl_desc, cl->cl_event, cl->cl_minus);
		else
			snprintf(desc, sizeof(desc), "%s (%s)", cl->cl_desc,
			    cl->cl_event);
		emit(w, cl->cl_name, "classic", desc,
		    test_name(w, cl->cl_name, &ev));
	}
}

/* libpfm4's descriptions may run over several sentences: keep the line. */
static void
one_line(const char *in, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", in);
	for (i = 0; buf[i] != '\0'; i++)
		if (buf[i] == '\n' || buf[i] == '\t' || buf[i] == '\r')
			buf[i] = ' ';
}

/*
 * A native name that -c refuses is listed (its unit masks follow it) and
 * says why at the end of its description, which is cut to make room.
 */
static void
native_event(void *arg, const char *name, const char *desc,
    enum cpc_pfm_how how)
{
	static const char *const why[] = {
		[CPC_PFM_ENCODES] = "",
		[CPC_PFM_NEEDS_UMASK] = " (needs a unit mask: one of the "
		    "EVENT:UMASK lines below)",
		[CPC_PFM_REFUSED] = " (libpfm4 cannot encode it)",
	};
	struct walk *w = arg;
	char line[DESC_LEN];
	struct cpc_event ev;
	size_t room;

	if (!match(w, name))
		return;
	if (how == CPC_PFM_NEEDS_UMASK && strchr(name, ':') != NULL)
		how = CPC_PFM_REFUSED;	/* a unit mask that needs another */
	room = sizeof(line) - strlen(why[how]);
	one_line(desc, line, room);
	strcat(line, why[how]);
	emit(w, name, "native", line, test_name(w, name, &ev));
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A sysfs file's first line, trimmed; "" when unreadable. */
static void
read_line(const char *path, char *buf, size_t len)
{
	ssize_t n = -1;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The events of one sysfs PMU, "pmu/event/"; .scale and .unit skipped. */
static void
walk_pmu_events(struct walk *w, const char *pmu)
{
	char path[512], name[CPC_MAX_EVENT_LEN], terms[128], desc[DESC_LEN];
	struct dirent **ents = NULL;
	struct cpc_event ev;
	int i, n;

	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/events", pmu);
	if ((n = scandir(path, &ents, NULL, alphasort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (e[0] == '.' || strchr(e, '.') != NULL)
			continue;
		snprintf(name, sizeof(name), "%s/%s/", pmu, e);
		if (!match(w, name))
			continue;
		snprintf(path, sizeof(path), SYSFS_PMUS "/%s/events/%s",
		    pmu, e);
		read_line(path, terms, sizeof(terms));
		snprintf(desc, sizeof(desc), "event of the %s PMU (%s)", pmu,
		    terms);
		emit(w, name, "pmu", desc, test_name(w, name, &ev));
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
}

static void
walk_pmus(struct walk *w)
{
	struct dirent **ents = NULL;
	int i, n;

	if ((n = scandir(SYSFS_PMUS, &ents, NULL, alphasort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.')
			walk_pmu_events(w, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
}

/*
 * A tracepoint's description: the names of its own fields (not the
 * common_ ones every event has), from its format file.  Lines look like
 *	field:unsigned int prev_pid;	offset:24;	size:4;	signed:0;
 *	field:__data_loc char[] name;	...
 *	field:char prev_comm[16];	...
 */
static void
tp_desc(const char *dir, const char *sys, const char *ev, char *desc,
    size_t len)
{
	char path[768], buf[8192], *line, *save = NULL;
	size_t used = 0;
	ssize_t n = -1;
	int fd, nf = 0;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, ev);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
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
			return;
		}
		used += snprintf(desc + used, len - used, " %.*s",
		    (int)(end - start), start);
		nf++;
	}
	if (nf == 0)
		snprintf(desc, len, "no fields");
}

/*
 * The representative test of tracepoints, made on the first one listed
 * and kept for the others (see the comment at the top).
 */
static int
tp_avail(struct walk *w, const char *name)
{
	struct cpc_event ev;

	if (w->w_tpavail < 0)
		w->w_tpavail = test_name(w, name, &ev);
	return w->w_tpavail;
}

static void
walk_system(struct walk *w, const char *dir, const char *sys)
{
	char name[CPC_MAX_EVENT_LEN], path[768], id[32], desc[DESC_LEN];
	char **evs;
	size_t n, i;

	if ((evs = tracefs_system_events(dir, sys)) == NULL)
		return;
	for (n = 0; evs[n] != NULL; n++)
		;
	qsort(evs, n, sizeof(*evs), name_cmp);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s:%s", sys, evs[i]);
		if (!match(w, name))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys,
		    evs[i]);
		read_line(path, id, sizeof(id));
		tp_desc(dir, sys, evs[i], desc, sizeof(desc));
		emit(w, name, "tracepoint", desc, isdigit((unsigned char)id[0]) ?
		    tp_avail(w, name) : CPC_AVAIL_NO);
	}
	tracefs_list_free(evs);
}

static void
walk_tracepoints(struct walk *w)
{
	const char *dir = cpc_tracefs_dir();
	char path[512], **sys;
	size_t n, i;

	if (dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/events", dir);
	if (access(path, R_OK | X_OK) != 0) {
		cpc_err(w->w_cpc, "cpc_walk_catalogue", -1, "tracepoints not "
		    "listed: %s: %s (tracepoints need root)", path,
		    strerror(errno));
		return;
	}
	if ((sys = tracefs_event_systems(dir)) == NULL)
		return;
	for (n = 0; sys[n] != NULL; n++)
		;
	qsort(sys, n, sizeof(*sys), name_cmp);
	for (i = 0; i < n; i++)
		walk_system(w, dir, sys[i]);
	tracefs_list_free(sys);
}

CPC_EXPORT int
cpc_walk_catalogue(cpc_t *cpc, const char *pattern, uint_t flags, void *arg,
    void (*fn)(void *arg, const cpc_evinfo_t *ev))
{
	struct walk w;
	int cpu;

	if (cpc == NULL || fn == NULL || (flags & ~CPC_WALK_CPU) != 0) {
		errno = EINVAL;
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.w_cpc = cpc;
	w.w_pat = pattern != NULL && pattern[0] != '\0' ? pattern : NULL;
	w.w_glob = w.w_pat != NULL && strpbrk(w.w_pat, "*?[") != NULL;
	w.w_pid = 0;
	w.w_cpu = -1;
	if (flags & CPC_WALK_CPU) {
		w.w_pid = -1;
		w.w_cpu = (cpu = sched_getcpu()) >= 0 ? cpu : 0;
	}
	w.w_tpavail = -1;
	w.w_arg = arg;
	w.w_fn = fn;
	walk_named(&w, 1);
	walk_cache(&w);
	walk_named(&w, 0);
	walk_generic(&w);
	walk_classic(&w);
	cpc_pfm_walk(cpc, 1, &w, native_event);
	walk_pmus(&w);
	walk_tracepoints(&w);
	return w.w_n;
}
