/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.c - walking the event catalogue: the Solaris walkers
 * (cpc_walk_events_all, cpc_walk_generic_events_all, their per-pic forms
 * and cpc_walk_attrs), which name what a user can count here, and the
 * Linux extension cpc_walk_catalogue, which names everything the library
 * accepts, each name with its kind, a description and the result of a
 * test open.  The _common walkers are the SMPL interface's (smpl.c).
 *
 * Each kind of name in the catalogue walks its own names; the test opens
 * are the backend's (be_probe), one per name, except for tracepoints:
 * closing a tracepoint's perf event costs the kernel an RCU grace period
 * (about 35 ms here), so two thousand of them would take over a minute,
 * and every tracepoint passes the same checks, so one test open (of the
 * event events/tracepoint.c says stands for them) is made for all of
 * them whose id could be read.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"

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
	return cpc_pfm_forced() != NULL && cpc_pfm_describe(&pmu) == 0;
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

/*
 * Platform events: perf's hardware and cache names and the native names
 * of the PMU (where hardware is listed), the software events, and the
 * classic Solaris names that can be counted.
 */
CPC_EXPORT void
cpc_walk_events_all(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *event))
{
	size_t i;
	int hw = hw_listed(cpc);

	ev_generic_names(hw, arg, fn);
	for (i = 0; i < cpc_nclassic_names; i++)
		if (countable(cpc, cpc_classic_names[i].cl_name, hw))
			fn(arg, cpc_classic_names[i].cl_name);
	if (hw)
		ev_native_names(arg, fn);
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
	struct ev_ctx ec;

	ev_walk_attrs(cpc_ev_ctx(cpc, &ec), arg, fn);
	fn(arg, "picnum");
}

/*
 * ---- the walkers of the SMPL interface (smpl.c) ----
 * The events a SMPL request accepts, the attributes it takes.
 */

struct common_walk {
	cpc_t		 *cw_cpc;
	uint_t		  cw_pic;
	void		 *cw_arg;
	void		(*cw_fn)(void *, const char *);
	void		(*cw_picfn)(void *, uint_t, const char *);
};

/* Every event the walkers name can be sampled, but a difference. */
static void
common_event(void *arg, const char *event)
{
	struct common_walk *cw = arg;
	struct cpc_event ev;

	if (cpc_event_encode(cw->cw_cpc, NULL, event, &ev) != 0 ||
	    ev.ev_derived)
		return;
	if (cw->cw_picfn != NULL)
		cw->cw_picfn(cw->cw_arg, cw->cw_pic, event);
	else
		cw->cw_fn(cw->cw_arg, event);
}

CPC_EXPORT void
cpc_walk_events_all_common(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *event))
{
	struct common_walk cw = { cpc, 0, arg, fn, NULL };

	cpc_walk_events_all(cpc, &cw, common_event);
}

/* Linux chooses the counter: every pic samples every such event. */
CPC_EXPORT void
cpc_walk_events_pic_common(cpc_t *cpc, uint_t picno, void *arg,
    void (*fn)(void *arg, uint_t picno, const char *event))
{
	struct common_walk cw = { cpc, picno, arg, NULL, fn };

	if (picno >= cpc_npic(cpc)) {
		errno = EINVAL;
		return;
	}
	cpc_walk_events_all(cpc, &cw, common_event);
}

CPC_EXPORT void
cpc_walk_attrs_common(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *attr))
{
	cpc_walk_attrs(cpc, arg, fn);
	cpc_smpl_walk_attrs(arg, fn);
}

/* ---- cpc_walk_catalogue ---- */

/*
 * A walk of the whole catalogue: the kinds call ew_want and ew_emit (the
 * first member, so that they hand back this struct).
 */
struct walk {
	struct ev_walk	 w_ev;
	cpc_t		*w_cpc;
	const char	*w_pat;		/* NULL: every name */
	int		 w_glob;	/* w_pat has * ? or [ */
	pid_t		 w_pid;		/* the test opens' target */
	int		 w_cpu;
	int		 w_shared;	/* the shared test, -1 not yet */
	int		 w_n;		/* names passed to w_fn */
	void		*w_arg;
	void		(*w_fn)(void *, const cpc_evinfo_t *);
};

/* Case-insensitive: a substring, or a shell pattern for the whole name. */
static int
want(struct ev_walk *ew, const char *name)
{
	const struct walk *w = (const struct walk *)ew;

	if (w->w_pat == NULL)
		return 1;
	if (w->w_glob)
		return fnmatch(w->w_pat, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, w->w_pat) != NULL;
}

/* A derived event needs both of its counters. */
static int
test_event(const struct walk *w, const struct cpc_event *ev)
{
	const struct cpc_backend *be = ev->ev_hw ? w->w_cpc->c_hwbe :
	    w->w_cpc->c_be;
	struct cpc_enc en = { ev->ev_type, ev->ev_config, ev->ev_config1,
	    ev->ev_config2 };
	int a = be->be_probe(&en, ev->ev_modes, w->w_pid, w->w_cpu);

	if (a == CPC_AVAIL_YES && ev->ev_derived)
		a = be->be_probe(&ev->ev_sub, ev->ev_modes, w->w_pid,
		    w->w_cpu);
	return a;
}

static void
emit(struct ev_walk *ew, const char *name, const char *kind,
    const char *desc, const struct cpc_event *ev, int shared)
{
	struct walk *w = (struct walk *)ew;
	char mdesc[EV_DESC_LEN + 32];
	cpc_evinfo_t ei;

	ei.ei_name = name;
	ei.ei_kind = kind;
	ei.ei_desc = desc;
	/* Say which hardware events the msr backend counts. */
	if (ev != NULL && ev->ev_hw && w->w_cpc->c_hwbe == &cpc_be_msr) {
		snprintf(mdesc, sizeof(mdesc), "[msr] %s", desc);
		ei.ei_desc = mdesc;
	}
	if (ev == NULL)
		ei.ei_avail = CPC_AVAIL_NO;
	else if (!shared)
		ei.ei_avail = test_event(w, ev);
	else {
		if (w->w_shared < 0)
			w->w_shared = test_event(w, ev);
		ei.ei_avail = w->w_shared;
	}
	w->w_fn(w->w_arg, &ei);
	w->w_n++;
}

CPC_EXPORT int
cpc_walk_catalogue(cpc_t *cpc, const char *pattern, uint_t flags, void *arg,
    void (*fn)(void *arg, const cpc_evinfo_t *ev))
{
	struct ev_ctx ec;
	struct walk w;
	int cpu;

	if (cpc == NULL || fn == NULL || (flags & ~CPC_WALK_CPU) != 0) {
		errno = EINVAL;
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.w_ev.ew_want = want;
	w.w_ev.ew_emit = emit;
	w.w_cpc = cpc;
	w.w_pat = pattern != NULL && pattern[0] != '\0' ? pattern : NULL;
	w.w_glob = w.w_pat != NULL && strpbrk(w.w_pat, "*?[") != NULL;
	w.w_pid = 0;
	w.w_cpu = -1;
	if (flags & CPC_WALK_CPU) {
		w.w_pid = -1;
		w.w_cpu = (cpu = sched_getcpu()) >= 0 ? cpu : 0;
	}
	w.w_shared = -1;
	w.w_arg = arg;
	w.w_fn = fn;
	ev_walk_all(cpc_ev_ctx(cpc, &ec), &w.w_ev);
	return w.w_n;
}
