/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bind.c - binding sets to targets, and unbinding them.
 *
 * Each bind takes a context of the set (ctx.c) for its target.  A
 * context stays open after cpc_unbind (stopped), so that the tools can
 * rotate through several sets by enabling and disabling groups: closing
 * a tracepoint event costs tens of milliseconds in the kernel.  Binding
 * a set again to a target it has a context open on just restarts it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "backend.h"
#include "ctx.h"
#include "libpctx.h"

/*
 * Solaris semantics: a set whose hardware requests cannot all have a
 * counter at once fails at bind, rather than being time-shared in
 * silence.  The kernel does not always refuse such a group itself (the
 * ARMv8 driver opens seven event-counter requests on six counters, and
 * never schedules them), so the counters are counted here.
 */
int
cpc_set_fits(cpc_t *cpc, const char *fn, const cpc_set_t *set)
{
	const struct cpc_platform *pf;
	int taken[4] = { 0 };
	int i, k, gp = 0;

	if (!cpc->c_hwpmu)
		return 0;
	pf = cpc_platform(cpc);
	if (pf->pf_ngp + pf->pf_nfixed == 0)
		return 0;		/* nothing known: the kernel decides */
	for (i = 0; i < set->cs_nreqs; i++) {
		const struct cpc_event *ev = &set->cs_reqs[i].cr_ev;

		if (!ev->ev_hw)
			continue;
		/* One request per fixed counter; the others need a gp one. */
		k = ev->ev_derived ? 0 : cpc_fixed_counter(pf->pf_vendor,
		    ev->ev_type, ev->ev_config);
		if (k > 0 && k <= pf->pf_nfixed && !taken[k]++)
			continue;
		gp += 1 + ev->ev_derived;
	}
	if (gp <= pf->pf_ngp)
		return 0;
	cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL, "Hardware resource "
	    "unavailable: the set needs %d general-purpose counters and this "
	    "processor has %d (and %d fixed, each for one event: %s)", gp,
	    pf->pf_ngp, pf->pf_nfixed, pf->pf_vendor == CPC_VENDOR_INTEL ?
	    "instructions, cycles, ref-cycles" : "cycles");
	errno = EINVAL;
	return -1;
}

int
cpc_period_too_short(cpc_t *cpc, const char *fn,
    const struct cpc_request *r, uint64_t preset)
{
	uint64_t min = cpc->c_be->be_min_period(&r->cr_ev);

	if (min == 0 || 0 - preset >= min)
		return 0;
	cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "preset %#llx of '%s' "
	    "would overflow every %llu events; this kernel cannot take an "
	    "overflow period under %llu for it (an interrupt storm stalls "
	    "the CPU): use a preset of at most %#llx",
	    (unsigned long long)preset, r->cr_event,
	    (unsigned long long)(0 - preset), (unsigned long long)min,
	    (unsigned long long)(0 - min));
	errno = EINVAL;
	return -1;
}

/* A preset cpc_set_add_request takes with CPC_OVF_NOTIFY_EMT. */
static int
can_overflow(const struct cpc_request *r)
{
	return r->cr_preset != 0 && (0 - r->cr_preset) <= (uint64_t)INT64_MAX &&
	    !r->cr_ev.ev_derived;
}

/*
 * Whether r overflows in a binding: those added with CPC_OVF_NOTIFY_EMT,
 * and with CPC_BIND_EMT_OVF every request whose preset lets it overflow
 * (a preset of 0 would overflow after 2^64 events: never).  A SMPL
 * request signals, but overflows nothing.
 */
static int
overflows(const struct cpc_request *r, int emtovf)
{
	return !r->cr_smpl && ((r->cr_flags & CPC_OVF_NOTIFY_EMT) != 0 ||
	    (emtovf && can_overflow(r)));
}

/*
 * A SMPL request's signal (CPC_OVF_NOTIFY_EMT) goes to the thread bound
 * with cpc_bind_curlwp, as a counting overflow's: the kernel signals the
 * owner of the descriptor, which only the bound thread's opens have.
 */
static int
smpl_signal_ok(cpc_t *cpc, const char *fn, const cpc_set_t *set,
    const struct cpc_target *t)
{
	int i;

	for (i = 0; i < set->cs_nreqs; i++) {
		const struct cpc_request *r = &set->cs_reqs[i];

		if (!r->cr_smpl || !(r->cr_flags & CPC_OVF_NOTIFY_EMT) ||
		    (t->t_kind == CPC_BIND_CURLWP && !t->t_inherit))
			continue;
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "the signal of "
		    "sampling request '%s' (CPC_OVF_NOTIFY_EMT) is for sets "
		    "bound with cpc_bind_curlwp, without "
		    "CPC_BIND_LWP_INHERIT", r->cr_event);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* CPC_BIND_LWP_EVENTS: counting requests only, on a backend that can. */
static int
lwpev_ok(cpc_t *cpc, const char *fn, const cpc_set_t *set,
    const struct cpc_target *t)
{
	if (!t->t_lwpev)
		return 0;
	if (set->cs_nsmpl > 0) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "CPC_BIND_LWP_EVENTS "
		    "is for sets of counting requests; this one samples");
		errno = EINVAL;
		return -1;
	}
	if (cpc_set_backend(cpc, set)->be_lwp_events == NULL) {
		cpc_err(cpc, fn, -1, "CPC_BIND_LWP_EVENTS: the %s backend "
		    "cannot count threads", cpc_set_backend(cpc, set)->be_name);
		errno = ENOTSUP;
		return -1;
	}
	return 0;
}

/* cpc_bind_cpu_cgroup: on a backend that counts per cgroup. */
static int
cgroup_ok(cpc_t *cpc, const char *fn, const cpc_set_t *set,
    const struct cpc_target *t)
{
	const struct cpc_backend *be = cpc_set_backend(cpc, set);

	if (t->t_cgid == 0 || be->be_cgroup)
		return 0;
	cpc_err(cpc, fn, -1, "cgroup '%s': the %s backend counts whole CPUs "
	    "only, not per cgroup (the kernel's cgroup mode of perf_event is "
	    "needed)", t->t_cgroup, be->be_name);
	errno = ENOTSUP;
	return -1;
}

/*
 * Whether set can be bound to t as it is: its handle, its requests, the
 * overflow and sampling rules, the counters it needs.  0, or -1 with
 * errno and a reported message.
 */
static int
bind_check(cpc_t *cpc, const char *fn, cpc_set_t *set,
    const struct cpc_target *t)
{
	int i, ovf = 0;

	if (set->cs_cpc != cpc) {
		errno = EINVAL;
		cpc_err(cpc, fn, -1, "the set was created with another handle");
		return -1;
	}
	if (set->cs_nreqs == 0) {
		errno = EINVAL;
		cpc_err(cpc, fn, -1, "the set has no requests");
		return -1;
	}
	for (i = 0; i < set->cs_nreqs; i++) {
		if (!overflows(&set->cs_reqs[i], t->t_emtovf))
			continue;
		ovf = 1;
		if (cpc_period_too_short(cpc, fn, &set->cs_reqs[i],
		    set->cs_reqs[i].cr_preset) != 0)
			return -1;
	}
	if (ovf && t->t_inherit) {
		errno = EINVAL;
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "overflow notification "
		    "(CPC_OVF_NOTIFY_EMT) cannot go with CPC_BIND_LWP_INHERIT "
		    "here: Linux signals the overflow of a counter only through "
		    "the descriptor that opened it, and a new thread's counters "
		    "are copies the kernel opens, with no descriptor, so its "
		    "overflows would reach nobody");
		return -1;
	}
	if (ovf && t->t_kind != CPC_BIND_CURLWP) {
		errno = EINVAL;
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "overflow notification "
		    "(CPC_OVF_NOTIFY_EMT) is for sets bound with "
		    "cpc_bind_curlwp, without CPC_BIND_LWP_INHERIT");
		return -1;
	}
	if (smpl_signal_ok(cpc, fn, set, t) != 0 ||
	    lwpev_ok(cpc, fn, set, t) != 0 ||
	    cgroup_ok(cpc, fn, set, t) != 0 ||
	    cpc_set_fits(cpc, fn, set) != 0)
		return -1;
	return 0;
}

/* A context of set for t, TAKEN, once set may be bound so; or NULL. */
static struct cpc_ctx *
bind_begin(cpc_t *cpc, const char *fn, cpc_set_t *set,
    const struct cpc_target *t)
{
	struct cpc_ctx *cx;

	if (bind_check(cpc, fn, set, t) != 0)
		return NULL;
	if ((cx = cpc_ctx_take(set, t)) == NULL) {
		cpc_err(cpc, fn, -1, "out of memory");
		errno = ENOMEM;
	}
	return cx;
}

/*
 * Whether cx's open group counts for t as it must: the same target and
 * the same overflows.  An inheriting group holds the counts of the
 * threads that ended (the kernel adds them to it): never again.
 */
static int
reusable(const struct cpc_ctx *cx, const struct cpc_target *t)
{
	if (!cx->cx_open || cx->cx_kind != t->t_kind || t->t_inherit ||
	    cx->cx_inherit || cx->cx_lwpev != t->t_lwpev ||
	    cx->cx_emtovf != t->t_emtovf)
		return 0;
	return t->t_kind == CPC_BIND_CPU ? cx->cx_cpu == t->t_cpu &&
	    cx->cx_cgid == t->t_cgid : cx->cx_tid == t->t_tid;
}

/* Open cx on t, its group and its SMPL requests: 0, or -1. */
static int
open_target(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_target *t)
{
	int e;

	cx->cx_kind = t->t_kind;
	cx->cx_cpu = t->t_cpu;
	cx->cx_tid = t->t_tid;
	cx->cx_cgid = t->t_cgid;
	/* The context's own: the kernel takes it at every open. */
	if (t->t_cgid != 0 &&
	    (cx->cx_cgfd = fcntl(t->t_cgfd, F_DUPFD_CLOEXEC, 0)) < 0) {
		cpc_err(cpc, t->t_fn, -1, "cgroup '%s': %s", t->t_cgroup,
		    strerror(errno));
		return -1;
	}
	cx->cx_inherit = t->t_inherit;
	cx->cx_lwpev = t->t_lwpev;
	cx->cx_emtovf = t->t_emtovf;
	if (cx->cx_be->be_open(cpc, cx, t) != 0)
		goto fail;
	/* The SMPL requests, outside the group (backend.h). */
	if (cpc->c_sbe->sb_open(cpc, cx, t) != 0) {
		e = errno;
		cx->cx_be->be_close(cpc, cx);
		errno = e;
		goto fail;
	}
	cx->cx_open = 1;
	return 0;
fail:
	e = errno;
	cpc_ctx_close(cx);	/* the cgroup's directory */
	errno = e;
	return -1;
}

/*
 * Bind the taken context cx to t: opened there unless it is already,
 * every request at its preset, started.  0; or -1 with cx let go.
 */
static int
bind_ctx(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_target *t)
{
	const cpc_set_t *set = cx->cx_set;
	int i, e;

	/* From a CPU to a thread: the pinned thread runs where it ran. */
	if (t->t_kind != CPC_BIND_CPU)
		cpc_ctx_unpin(cx);
	if (cx->cx_open && !reusable(cx, t))
		cpc_ctx_close(cx);
	for (i = 0; i < set->cs_nreqs; i++) {
		cx->cx_rq[i].cq_cur = set->cs_reqs[i].cr_preset;
		cx->cx_rq[i].cq_hasnext = 0;
		cx->cx_rq[i].cq_ovf = overflows(&set->cs_reqs[i], t->t_emtovf);
	}
	if (!cx->cx_open && open_target(cpc, cx, t) != 0)
		goto fail;
	cx->cx_tick0 = cpc_ticknow();
	/* The clock's vDSO pages in now, not as a fault the set sees. */
	(void)cpc_hrnow();
	if (cx->cx_be->be_start(cpc, cx) != 0 ||
	    cpc->c_sbe->sb_start(cpc, cx) != 0)
		goto fail;
	cx->cx_disabled = 0;
	cx->cx_binder = cpc_ctx_self();
	return 0;
fail:
	e = errno;
	cpc_ctx_fail(cx);
	errno = e;
	return -1;
}

static int
inval(void)
{
	errno = EINVAL;
	return -1;
}

/* Flag bits fn does not take: EINVAL, with the ones it does. */
static int
bad_flags(cpc_t *cpc, const char *fn, uint_t flags, const char *takes)
{
	cpc_err(cpc, fn, -1, "flags %#x: it takes %s", flags, takes);
	return inval();
}

CPC_EXPORT int
cpc_bind_curlwp(cpc_t *cpc, cpc_set_t *set, uint_t flags)
{
	static const char fn[] = "cpc_bind_curlwp";
	struct cpc_target t = {
		.t_kind = CPC_BIND_CURLWP,
		.t_cpu = -1,
		.t_tid = cpc_ctx_self(),
		.t_cgfd = -1,
		.t_inherit = (flags & CPC_BIND_LWP_INHERIT) != 0,
		.t_emtovf = (flags & CPC_BIND_EMT_OVF) != 0,
		.t_fn = fn,
	};
	struct cpc_ctx *cx;

	if (set == NULL)
		return inval();
	if ((flags & ~(CPC_BIND_LWP_INHERIT | CPC_BIND_EMT_OVF)) != 0)
		return bad_flags(cpc, fn, flags, "CPC_BIND_LWP_INHERIT and "
		    "CPC_BIND_EMT_OVF");
	cpc_ctx_prepare();
	if ((cx = bind_begin(cpc, fn, set, &t)) == NULL ||
	    bind_ctx(cpc, cx, &t) != 0)
		return -1;
	cpc_ctx_publish(cx);
	return 0;
}

/* cpc_bind_cpu's checks of the CPU: 0, or -1 with errno. */
static int
cpu_ok(cpc_t *cpc, const char *fn, processorid_t cpu)
{
	switch (cpc_cpu_state(cpu)) {
	case -1:
		cpc_err(cpc, fn, -1, "there is no cpu %d", cpu);
		errno = EINVAL;
		return -1;
	case 0:
		cpc_err(cpc, fn, -1, "cpu %d is offline", cpu);
		errno = ENOSYS;
		return -1;
	}
	return 0;
}

/*
 * Run the calling thread on cpu alone, from the mask old it had before
 * (cx keeps it for the unbind); 0, or -1 with cx let go.
 */
static int
pin(cpc_t *cpc, const char *fn, struct cpc_ctx *cx, processorid_t cpu,
    const cpu_set_t *old)
{
	cpu_set_t mask;
	int e;

	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	if (sched_setaffinity(0, sizeof(mask), &mask) != 0) {
		e = errno;
		cpc_err(cpc, fn, CPC_PBIND_FAILED, "cannot run on cpu %d: %s",
		    cpu, strerror(e));
		cpc_ctx_fail(cx);
		errno = e == ESRCH ? EINVAL : e;
		return -1;
	}
	cx->cx_oldmask = *old;
	cx->cx_pinned = cpc_ctx_self();
	return 0;
}

/*
 * cpc_bind_cpu and cpc_bind_cpu_cgroup: set to t, the calling thread
 * run on t's CPU until the unbind.
 */
static int
bind_cpu(cpc_t *cpc, const char *fn, cpc_set_t *set,
    const struct cpc_target *t)
{
	processorid_t cpu = t->t_cpu;
	pid_t self = cpc_ctx_self();
	struct cpc_ctx *cx;
	cpu_set_t old, mask;
	int mine;

	if (cpu_ok(cpc, fn, cpu) != 0 ||
	    (cx = bind_begin(cpc, fn, set, t)) == NULL)
		return -1;
	if (sched_getaffinity(0, sizeof(old), &old) != 0)
		CPU_ZERO(&old);
	/* Moved from another CPU: the mask before, or another's pin undone. */
	mine = cx->cx_kind == CPC_BIND_CPU && cx->cx_pinned == self;
	if (mine)
		old = cx->cx_oldmask;
	else
		cpc_ctx_unpin(cx);
	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	/*
	 * A thread that runs only on cpu already (cpustat's, which binds
	 * set after set there) is neither pinned nor, at unbind, unpinned.
	 */
	if (CPU_EQUAL(&old, &mask) && !mine)
		cx->cx_pinned = 0;
	else if (pin(cpc, fn, cx, cpu, &old) != 0)
		return -1;
	if (bind_ctx(cpc, cx, t) != 0)
		return -1;
	cpc_ctx_publish(cx);
	return 0;
}

CPC_EXPORT int
cpc_bind_cpu(cpc_t *cpc, processorid_t cpu, cpc_set_t *set, uint_t flags)
{
	static const char fn[] = "cpc_bind_cpu";
	struct cpc_target t = {
		.t_kind = CPC_BIND_CPU, .t_cpu = cpu, .t_tid = -1,
		.t_cgfd = -1, .t_fn = fn,
	};

	if (set == NULL || cpu < 0 || cpu >= CPU_SETSIZE)
		return inval();
	if (flags != 0)
		return bad_flags(cpc, fn, flags, "none");
	return bind_cpu(cpc, fn, set, &t);
}

/*
 * The kernel's cgroup mode: the set counts on cpu only while a task of
 * the cgroup (or of a cgroup below it) runs there.  The cgroup's
 * directory is held by the context from its open to its close.
 */
CPC_EXPORT int
cpc_bind_cpu_cgroup(cpc_t *cpc, processorid_t cpu, const char *cgroup,
    cpc_set_t *set, uint_t flags)
{
	static const char fn[] = "cpc_bind_cpu_cgroup";
	struct cpc_target t = {
		.t_kind = CPC_BIND_CPU, .t_cpu = cpu, .t_tid = -1,
		.t_cgroup = cgroup, .t_fn = fn,
	};
	char msg[1200];
	struct stat st;
	int rc, e;

	if (set == NULL || cgroup == NULL || cpu < 0 || cpu >= CPU_SETSIZE)
		return inval();
	if (flags != 0)
		return bad_flags(cpc, fn, flags, "none");
	if ((t.t_cgfd = cpc_cgroup_open(cgroup, msg, sizeof(msg))) < 0) {
		e = errno;
		cpc_err(cpc, fn, -1, "%s", msg);
		errno = e;
		return -1;
	}
	/*
	 * Its inode says which cgroup a context counts (the kernel's cgroup
	 * id; never 0, which means "no cgroup" in a target).
	 */
	e = fstat(t.t_cgfd, &st) != 0 ? errno : st.st_ino == 0 ? EINVAL : 0;
	if (e != 0) {
		cpc_err(cpc, fn, -1, "cgroup '%s': %s", cgroup, strerror(e));
		rc = -1;
	} else {
		t.t_cgid = (uint64_t)st.st_ino;
		rc = bind_cpu(cpc, fn, set, &t);
		e = errno;
	}
	close(t.t_cgfd);
	errno = e;
	return rc;
}

CPC_EXPORT int
cpc_bind_pctx(cpc_t *cpc, pctx_t *pctx, id_t id, cpc_set_t *set,
    uint_t flags)
{
	static const char fn[] = "cpc_bind_pctx";
	struct cpc_target t = {
		.t_kind = CPC_BIND_PCTX, .t_cpu = -1, .t_tid = (pid_t)id,
		.t_cgfd = -1, .t_fn = fn,
	};
	struct cpc_ctx *cx;

	if (set == NULL || pctx == NULL || (pid_t)id <= 0)
		return inval();
	if ((flags & ~(CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_EVENTS |
	    CPC_BIND_LWP_FORKS)) != 0)
		return bad_flags(cpc, fn, flags, "CPC_BIND_LWP_INHERIT, "
		    "CPC_BIND_LWP_EVENTS and CPC_BIND_LWP_FORKS");
	if (((flags & CPC_BIND_LWP_EVENTS) && !(flags & CPC_BIND_LWP_INHERIT)) ||
	    ((flags & CPC_BIND_LWP_FORKS) && !(flags & CPC_BIND_LWP_EVENTS)))
		return inval();
	t.t_inherit = (flags & CPC_BIND_LWP_INHERIT) != 0;
	t.t_lwpev = (flags & CPC_BIND_LWP_FORKS) ? CPC_LWPEV_TREE :
	    (flags & CPC_BIND_LWP_EVENTS) != 0;
	if (!pctx_has_lwp(pctx, id)) {
		cpc_err(cpc, fn, -1, "thread %d is not one of the controlled "
		    "process's", (int)id);
		errno = ESRCH;
		return -1;
	}
	if ((cx = bind_begin(cpc, fn, set, &t)) == NULL ||
	    bind_ctx(cpc, cx, &t) != 0)
		return -1;
	cpc_ctx_publish(cx);
	return 0;
}

/*
 * The calling thread's context of set if it has one; else every context
 * of set bound with cpc_bind_pctx or cpc_bind_cpu.
 */
CPC_EXPORT int
cpc_unbind(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_ctx *cx = cpc_ctx_here();

	if (set == NULL || set->cs_cpc != cpc) {
		errno = EINVAL;
		return -1;
	}
	if (cx != NULL && cx->cx_set == set) {
		cpc_ctx_unbind(cx);
		return 0;
	}
	if (cpc_set_unbind_shared(set) > 0)
		return 0;
	if (cpc_set_lwp_bound(set))
		cpc_err(cpc, "cpc_unbind", -1, "the set is bound with "
		    "cpc_bind_curlwp by other threads, not this one: each "
		    "thread unbinds its own");
	errno = EINVAL;
	return -1;
}
