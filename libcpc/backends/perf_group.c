/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_group.c - a context's perf group: the events' attributes, the
 * order they are opened in, the group opened on the context's target,
 * closed, and reopened in part after an overflow (perf.c says when).
 *
 * The first request is the leader, opened disabled (a lone event of
 * another thread: enabled); the others follow it.  The group is read
 * with PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING, so
 * every request of a sample comes from one consistent snapshot:
 *
 *	u64 nr, time_enabled, time_running; { u64 value, id; } [nr]
 *
 * A derived request (EC_hit = references - misses) has a second event:
 * the second events follow every request's first, in request order.
 * SMPL requests sample outside the group (perf_smpl.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ctx.h"
#include "perf_impl.h"
#include "perf_lwpev.h"
#include "perf_user.h"

#define RDFMT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
		 PERF_FORMAT_TOTAL_TIME_ENABLED | \
		 PERF_FORMAT_TOTAL_TIME_RUNNING)

void
cpc_perf_event_attr(const struct cpc_request *r, int sub,
    struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (sub) {
		a->type = r->cr_ev.ev_sub.en_type;
		a->config = r->cr_ev.ev_sub.en_config;
		a->config1 = r->cr_ev.ev_sub.en_config1;
		a->config2 = r->cr_ev.ev_sub.en_config2;
	} else {
		a->type = r->cr_ev.ev_type;
		a->config = r->cr_ev.ev_config;
		a->config1 = r->cr_ev.ev_config1;
		a->config2 = r->cr_ev.ev_config2;
	}
	/*
	 * A request that counts in neither mode counts nothing (seed 000):
	 * the dummy event keeps its place in the group and never counts,
	 * where excluding both modes would still let a tracepoint or a
	 * clock count.
	 */
	if ((r->cr_flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) == 0) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_DUMMY;
		a->config1 = a->config2 = 0;
	}
	/*
	 * The Solaris mode flags apply only where the kernel honours them
	 * meaningfully; a tracepoint or a context switch happens in the
	 * kernel, and excluding the kernel would silently count nothing.
	 */
	if (r->cr_ev.ev_modes) {
		a->exclude_user = (r->cr_flags & CPC_COUNT_USER) == 0;
		a->exclude_kernel = (r->cr_flags & CPC_COUNT_SYSTEM) == 0;
		a->exclude_hv = (r->cr_flags & CPC_COUNT_HV) == 0;
	}
}

static void
fill_attr(const struct perf_ctx *pc, int k, int leader, int sub,
    struct perf_event_attr *a)
{
	const struct cpc_ctx *cx = &pc->pc_cx;
	const struct cpc_request *r = &cx->cx_set->cs_reqs[k];

	cpc_perf_event_attr(r, sub, a);
	a->read_format = RDFMT;
	a->disabled = leader && !pc->pc_onopen;
	a->inherit = cx->cx_inherit;
	/*
	 * New threads count into the group; forked processes only under
	 * CPC_BIND_LWP_FORKS.
	 */
	a->inherit_thread = cx->cx_inherit && cx->cx_lwpev != CPC_LWPEV_TREE;
	if (!sub && cx->cx_rq[k].cq_ovf)
		a->sample_period = 0 - cx->cx_rq[k].cq_cur;
	if (cx->cx_lwpev)
		cpc_perf_lwpev_attr(a);
}

/* The request that is the n-th (from 0) derived one. */
static int
nth_derived(const cpc_set_t *set, int n)
{
	int k;

	for (k = 0; k < set->cs_nreqs; k++)
		if (set->cs_reqs[k].cr_ev.ev_derived && n-- == 0)
			break;
	return k;
}

void
cpc_perf_close(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);
	int i;

	(void)cpc;
	cpc_perf_user_unmap(pc);
	cpc_perf_lwpev_close(pc);
	/* Members first: closing the leader first would promote them. */
	for (i = pc->pc_nfds - 1; i >= 0; i--)
		if (pc->pc_fds != NULL && pc->pc_fds[i] >= 0)
			close(pc->pc_fds[i]);
	free(pc->pc_base);	/* and the rest of the block (cpc_perf_open_set) */
	free(pc->pc_rdbuf);
	cx->cx_sample = NULL;
	pc->pc_fds = NULL;
	pc->pc_nfds = 0;
	pc->pc_pos = NULL;
	pc->pc_base = NULL;
	pc->pc_off = NULL;
	pc->pc_rdbuf = NULL;
}

/*
 * The counting requests: SMPL requests (CPC_HW_SMPL) sample outside the
 * group (perf_smpl.c), so that an overflow that stops the group never
 * stops them.  ncounting is how many requests the group has, nth_counting
 * the n-th (from 0) of them.
 */
static int
ncounting(const cpc_set_t *set)
{
	return set->cs_nreqs - set->cs_nsmpl;
}

static int
nth_counting(const cpc_set_t *set, int n)
{
	int k;

	for (k = 0; k < set->cs_nreqs; k++)
		if (!set->cs_reqs[k].cr_smpl && n-- == 0)
			break;
	return k;
}

/* The request whose event is opened i-th. */
static int
opened(const cpc_set_t *set, int lead, int i)
{
	int nc = ncounting(set), rank, k;

	if (i >= nc)
		return nth_derived(set, i - nc);
	if (i == 0)
		return lead;
	for (rank = 0, k = 0; k < lead; k++)
		rank += !set->cs_reqs[k].cr_smpl;
	return nth_counting(set, i <= rank ? i - 1 : i);
}

/*
 * Open the i-th event of the context (the request opened(set, lead, i),
 * or a derived request's second event) on its target, in the group led
 * by group (-1: it leads), set up for its overflow signal.  Makes no
 * allocation and no error report: a restart in a signal handler uses it.
 */
static long
open_one(struct perf_ctx *pc, int lead, int i, int group)
{
	const struct cpc_ctx *cx = &pc->pc_cx;
	const cpc_set_t *set = cx->cx_set;
	int sub = i >= ncounting(set), k = opened(set, lead, i);
	const struct cpc_request *r = &set->cs_reqs[k];
	struct perf_event_attr attr;
	long fd;

	fill_attr(pc, k, i == 0, sub, &attr);
	cpc_perf_user_attr(pc, r, &attr);
	fd = cpc_perf_open_ctx(&attr, cx, cx->cx_cpu, group);
	if (fd < 0 && attr.config1 != (sub ? r->cr_ev.ev_sub.en_config1 :
	    r->cr_ev.ev_config1)) {
		/* A kernel that refuses user access counts without it. */
		fill_attr(pc, k, i == 0, sub, &attr);
		fd = cpc_perf_open_ctx(&attr, cx, cx->cx_cpu, group);
	}
	if (fd >= 0 && attr.sample_period != 0 &&
	    cpc_perf_signal((int)fd, cx->cx_tid) != 0) {
		int e = errno;

		close((int)fd);
		errno = e;
		fd = -1;
	}
	return fd;
}

/* The request that leads: the first overflowing one stops them all. */
static int
leader(const struct cpc_ctx *cx)
{
	const cpc_set_t *set = cx->cx_set;
	int i, lead = nth_counting(set, 0);

	for (i = set->cs_nreqs - 1; i >= 0; i--)
		if (cx->cx_rq[i].cq_ovf && !set->cs_reqs[i].cr_smpl)
			lead = i;
	return lead;
}

/*
 * Another thread's group of one event (n fds) counts from its open
 * (opened enabled): one ioctl less per bind, a cross-CPU call to where
 * the thread last ran.  Not with members: they would start a system call
 * after the leader, and the counts of a sample must cover the same time.
 * Not the calling thread's own (its open would count), nor overflows
 * (they start from a reset) or CPC_BIND_LWP_EVENTS (perf_lwpev.c).
 */
static int
opens_enabled(const struct cpc_ctx *cx, const struct cpc_target *t, int n)
{
	int i;

	if (t->t_kind != CPC_BIND_PCTX || t->t_lwpev || n != 1)
		return 0;
	for (i = 0; i < cx->cx_nreqs; i++)
		if (cx->cx_rq[i].cq_ovf)
			return 0;
	return 1;
}

/*
 * What cpc_perf_sample_plain takes for granted: each request a count of its
 * own in the group (none sampling, none derived), read with read(), not
 * a CPU's group.  Request by request: the counts of a set with as many
 * derived as sampling requests add up to the same number of events.
 */
static int
is_plain(const struct perf_ctx *pc, const struct cpc_target *t)
{
	const cpc_set_t *set = pc->pc_cx.cx_set;
	int i;

	if (pc->pc_nfds != set->cs_nreqs || pc->pc_nfds == 0 ||
	    pc->pc_cx.cx_lwpev || pc->pc_user != NULL ||
	    t->t_kind == CPC_BIND_CPU)
		return 0;
	for (i = 0; i < set->cs_nreqs; i++) {
		const struct cpc_request *r = &set->cs_reqs[i];

		if (r->cr_smpl || r->cr_ev.ev_derived || pc->pc_pos[i] < 0)
			return 0;
	}
	return 1;
}

/*
 * The context's state, one block (n may be 0): per fd its count at the
 * bind, per request its offset, then the fds and each request's fd; and
 * the read buffer.  0, or -1 (ENOMEM).
 */
static int
alloc_state(struct perf_ctx *pc, int n)
{
	int nreqs = pc->pc_cx.cx_nreqs, i;

	pc->pc_nfds = 0;
	pc->pc_base = calloc(1, (n + 1 + (size_t)nreqs) *
	    (sizeof(uint64_t) + sizeof(int)));
	pc->pc_rdlen = (3 + 2 * (size_t)n) * sizeof(uint64_t);
	pc->pc_rdbuf = calloc(1, pc->pc_rdlen);
	if (pc->pc_base == NULL || pc->pc_rdbuf == NULL) {
		errno = ENOMEM;
		return -1;
	}
	pc->pc_off = pc->pc_base + n + 1;
	pc->pc_fds = (int *)(pc->pc_off + nreqs);
	pc->pc_pos = pc->pc_fds + n + 1;
	for (i = 0; i < nreqs; i++)
		pc->pc_pos[i] = -1;	/* SMPL requests have none */
	return 0;
}

/* Open the group's n events: 0, or -1 reported. */
static int
open_group(cpc_t *cpc, struct perf_ctx *pc, const struct cpc_target *t,
    int n)
{
	struct cpc_ctx *cx = &pc->pc_cx;
	const cpc_set_t *set = cx->cx_set;
	int i, lead = leader(cx);
	char tname[CPC_TARGET_NAME];

	for (i = 0; i < n; i++) {
		int sub = i >= ncounting(set), k = opened(set, lead, i);
		struct cpc_ctxreq *q = &cx->cx_rq[k];
		long fd = open_one(pc, lead, i, i == 0 ? -1 : pc->pc_fds[0]);

		if (fd < 0) {
			int e = errno;

			if (cpc_perf_cgroup_error(cpc, t->t_fn, e, cx, t))
				return -1;
			cpc_perf_target_name(t, tname, sizeof(tname));
			cpc_perf_open_error(cpc, t->t_fn, e, &set->cs_reqs[k],
			    tname);
			errno = e == ENOENT || e == EOPNOTSUPP ? ENOTSUP : e;
			return -1;
		}
		if (!sub) {
			pc->pc_pos[k] = i;
			q->cq_armed = 0;
			q->cq_period = 0;
			if (q->cq_ovf) {
				q->cq_period = 0 - q->cq_cur;
				pc->pc_ovf = 1;
			}
		}
		pc->pc_fds[pc->pc_nfds++] = (int)fd;
	}
	return 0;
}

int
cpc_perf_open_set(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_target *t)
{
	struct perf_ctx *pc = perf_ctx(cx);
	const cpc_set_t *set = cx->cx_set;
	int i, n, e;

	for (n = ncounting(set), i = 0; i < set->cs_nreqs; i++)
		n += set->cs_reqs[i].cr_ev.ev_derived;
	pc->pc_ovf = 0;
	pc->pc_onopen = opens_enabled(cx, t, n);
	if (alloc_state(pc, n) != 0 || open_group(cpc, pc, t, n) != 0 ||
	    (cx->cx_lwpev && cpc_perf_lwpev_open(cpc, pc, t) != 0))
		goto fail;
	pc->pc_fresh = 1;
	cpc_perf_user_map(pc);
	cx->cx_sample = is_plain(pc, t) ? cpc_perf_sample_plain : NULL;
	return 0;
fail:
	e = errno;
	cpc_perf_close(cpc, cx);
	errno = e;
	return -1;
}


/*
 * A tracepoint stopped by its overflow never counts again: the kernel
 * (6.x) stops it at the refresh limit, and only a start clears that,
 * which enabling a tracepoint does not do (perf_trace_add).  So a restart
 * opens such an event afresh, with the events after it (a new member
 * joins the group's end, and the read order must stay), before closing
 * the old ones: the tracepoint keeps a user throughout, and closing costs
 * no RCU grace period.  From the leader on, that is the whole group.
 */
#define REOPEN_MAX	64

int
cpc_perf_reopen_from(struct perf_ctx *pc, int from)
{
	int nfd[REOPEN_MAX], i, k, lead = leader(&pc->pc_cx);

	if (pc->pc_nfds - from > REOPEN_MAX) {
		errno = E2BIG;
		return -1;
	}
	for (i = from; i < pc->pc_nfds; i++) {
		long fd = open_one(pc, lead, i, i == 0 ? -1 :
		    from == 0 ? nfd[0] : pc->pc_fds[0]);

		if (fd < 0) {
			int e = errno;

			while (--i >= from)
				close(nfd[i - from]);
			errno = e;
			return -1;
		}
		nfd[i - from] = (int)fd;
	}
	for (i = pc->pc_nfds - 1; i >= from; i--) {
		close(pc->pc_fds[i]);
		pc->pc_fds[i] = nfd[i - from];
	}
	for (k = 0; k < pc->pc_cx.cx_nreqs; k++)
		if (pc->pc_pos[k] >= from)
			pc->pc_cx.cx_rq[k].cq_armed = 0;
	return 0;
}
