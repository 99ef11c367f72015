/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf.c - the perf_event_open(2) backend.
 *
 * A bound set is one perf group on its target: the first request is the
 * leader, opened disabled (a lone event of another thread: enabled); the
 * others follow it.  The group is read with
 * PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING, so every
 * request of a sample comes from one consistent snapshot:
 *
 *	u64 nr, time_enabled, time_running; { u64 value, id; } [nr]
 *
 * A derived request (EC_hit = references - misses) has a second event:
 * the second events follow every request's first, in request order.
 *
 * Overflow (CPC_OVF_NOTIFY_EMT): the request's event samples every
 * 2^64 - preset events and signals the bound thread (F_SETOWN_EX,
 * F_SETSIG, O_ASYNC).  PERF_EVENT_IOC_REFRESH 1 makes the kernel disable
 * the event at its next overflow; the first such request is the group's
 * leader, so that disabling it stops the whole set (Solaris freezes the
 * set).  Its count is then at least its period: that is how a restart
 * knows the refresh was used up.  A tracepoint stopped that way is opened
 * afresh at the restart (reopen_from).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ctx.h"
#include "perf_ends.h"
#include "perf_user.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)
#endif

/* Messages go to the handle's error handler. */
#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

#define RDFMT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
		 PERF_FORMAT_TOTAL_TIME_ENABLED | \
		 PERF_FORMAT_TOTAL_TIME_RUNNING)

static int
read_int_file(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (f == NULL)
		return -1;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/*
 * The one place that turns a failed counter open into advice.  target is
 * "cpu 3", "thread 1234", ...
 */
void
cpc_perf_open_error(cpc_t *cpc, const char *fn, int err,
    const struct cpc_request *req, const char *target)
{
	int paranoid = 0;
	const char *ev = req->cr_event;

	errno = err;
	switch (err) {
	case EACCES:
	case EPERM:
		if (read_int_file("/proc/sys/kernel/perf_event_paranoid",
		    &paranoid) != 0)
			paranoid = 2;
		if (req->cr_ev.ev_kind == EVK_TRACEPOINT)
			report(cpc, fn, -1, "cannot count '%s' on %s: %s "
			    "(tracepoints need root or CAP_PERFMON; "
			    "perf_event_paranoid is %d)", ev, target,
			    strerror(err), paranoid);
		else if (strncmp(target, "cpu", 3) == 0)
			report(cpc, fn, -1, "cannot count on %s: %s "
			    "(per-CPU counting needs root, CAP_PERFMON, or "
			    "kernel.perf_event_paranoid <= 0; it is %d)",
			    target, strerror(err), paranoid);
		else
			report(cpc, fn, -1, "cannot count '%s' on %s: %s "
			    "(perf_event_paranoid is %d: without CAP_PERFMON "
			    "only user-mode events of your own threads can be "
			    "counted at 2, set it to 1 to count kernel mode "
			    "too)", ev, target, strerror(err), paranoid);
		break;
	case ENOENT:
	case EOPNOTSUPP:
		if (req->cr_ev.ev_hw && !cpc->c_hwpmu)
			report(cpc, fn, -1, "cannot count '%s': no hardware "
			    "PMU (virtual machine without a virtual PMU?)",
			    ev);
		else
			report(cpc, fn, -1, "cannot count '%s' on %s: the "
			    "kernel does not support this event (%s)", ev,
			    target, strerror(err));
		break;
	case EINVAL:
		if (req->cr_ev.ev_hw)
			report(cpc, fn, CPC_RESOURCE_UNAVAIL, "cannot count "
			    "'%s' on %s: Hardware resource unavailable (the "
			    "set's requests do not fit the PMU's counters "
			    "together, or an attribute is invalid)", ev,
			    target);
		else
			report(cpc, fn, -1, "cannot count '%s' on %s: %s "
			    "(the kernel refused the event's settings)", ev,
			    target, strerror(err));
		break;
	case ENODEV:
	case ENXIO:
		report(cpc, fn, -1, "cannot count '%s' on %s: %s (CPU "
		    "offline?)", ev, target, strerror(err));
		break;
	case EMFILE:
	case ENFILE:
		report(cpc, fn, -1, "cannot count '%s' on %s: %s (raise "
		    "the open-file limit: ulimit -n)", ev, target,
		    strerror(err));
		break;
	default:
		report(cpc, fn, -1, "cannot count '%s' on %s: %s", ev,
		    target, strerror(err));
		break;
	}
	errno = err;
}

static long
perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group,
	    PERF_FLAG_FD_CLOEXEC);
}

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
		cpc_perf_ends_attr(a);
}

static int
is_clock(const struct cpc_request *r)
{
	return r->cr_ev.ev_type == PERF_TYPE_SOFTWARE &&
	    (r->cr_ev.ev_config == PERF_COUNT_SW_TASK_CLOCK ||
	    r->cr_ev.ev_config == PERF_COUNT_SW_CPU_CLOCK);
}

static void
target_name(const struct cpc_target *t, char *buf, size_t len)
{
	if (t->t_kind == CPC_BIND_CPU)
		snprintf(buf, len, "cpu %d", t->t_cpu);
	else
		snprintf(buf, len, "thread %d", (int)t->t_tid);
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

static void
perf_close(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);
	int i;

	(void)cpc;
	cpc_pu_unmap(pc);
	cpc_perf_ends_close(pc);
	/* Members first: closing the leader first would promote them. */
	for (i = pc->pc_nfds - 1; i >= 0; i--)
		if (pc->pc_fds != NULL && pc->pc_fds[i] >= 0)
			close(pc->pc_fds[i]);
	free(pc->pc_base);	/* and the rest of the block (perf_open_set) */
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

/* Overflow signals go to the bound thread. */
int
cpc_perf_signal(int fd, pid_t tid)
{
	struct f_owner_ex owner = { F_OWNER_TID, tid };
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
	    fcntl(fd, F_SETSIG, cpc_sigovf()) != 0 ||
	    fcntl(fd, F_SETFL, fl | O_ASYNC) != 0)
		return -1;
	return 0;
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
	pid_t pid = cx->cx_kind == CPC_BIND_CPU ? -1 : cx->cx_tid;
	struct perf_event_attr attr;
	long fd;

	fill_attr(pc, k, i == 0, sub, &attr);
	cpc_pu_attr(pc, r, &attr);
	fd = perf_open(&attr, pid, cx->cx_cpu, group);
	if (fd < 0 && attr.config1 != (sub ? r->cr_ev.ev_sub.en_config1 :
	    r->cr_ev.ev_config1)) {
		/* A kernel that refuses user access counts without it. */
		fill_attr(pc, k, i == 0, sub, &attr);
		fd = perf_open(&attr, pid, cx->cx_cpu, group);
	}
	if (fd < 0 && (errno == EACCES || errno == EPERM) && is_clock(r)) {
		/*
		 * A clock counts the same whatever the flag says, and a user
		 * at perf_event_paranoid 2 may count only with the kernel
		 * excluded.
		 */
		attr.exclude_kernel = 1;
		fd = perf_open(&attr, pid, cx->cx_cpu, group);
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

static int	perf_sample_plain(cpc_t *, struct cpc_ctx *, cpc_buf_t *);

/*
 * Another thread's group of one event (n fds) counts from its open
 * (opened enabled): one ioctl less per bind, a cross-CPU call to where
 * the thread last ran.  Not with members: they would start a system call
 * after the leader, and the counts of a sample must cover the same time.
 * Not the calling thread's own (its open would count), nor overflows
 * (they start from a reset) or CPC_BIND_LWP_EVENTS (perf_ends.c).
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
 * What perf_sample_plain takes for granted: each request a count of its
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
	char tname[48];

	for (i = 0; i < n; i++) {
		int sub = i >= ncounting(set), k = opened(set, lead, i);
		struct cpc_ctxreq *q = &cx->cx_rq[k];
		long fd = open_one(pc, lead, i, i == 0 ? -1 : pc->pc_fds[0]);

		if (fd < 0) {
			int e = errno;

			target_name(t, tname, sizeof(tname));
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

static int
perf_open_set(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_target *t)
{
	struct perf_ctx *pc = perf_ctx(cx);
	const cpc_set_t *set = cx->cx_set;
	int i, n, e;

	for (n = ncounting(set), i = 0; i < set->cs_nreqs; i++)
		n += set->cs_reqs[i].cr_ev.ev_derived;
	pc->pc_ovf = 0;
	pc->pc_onopen = opens_enabled(cx, t, n);
	if (alloc_state(pc, n) != 0 || open_group(cpc, pc, t, n) != 0 ||
	    (cx->cx_lwpev && cpc_perf_ends_open(cpc, pc, t) != 0))
		goto fail;
	pc->pc_fresh = 1;
	cpc_pu_map(pc);
	cx->cx_sample = is_plain(pc, t) ? perf_sample_plain : NULL;
	return 0;
fail:
	e = errno;
	perf_close(cpc, cx);
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

static int
reopen_from(struct perf_ctx *pc, int from)
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

/*
 * Reset the whole group; enable and disable its leader only.  A group
 * counts only while its leader is enabled, so that starts and stops the
 * set as well; and the kernel (6.x) miscounts a task-clock or cpu-clock
 * member of a group led by another event once the group has been
 * disabled and enabled as a whole (the clock then counts little or
 * nothing), which this avoids.  The members stay enabled throughout.
 */
static int
perf_ioctl(struct perf_ctx *pc, unsigned long req)
{
	if (pc->pc_nfds == 0)
		return 0;	/* SMPL requests only: no group */
	return ioctl(pc->pc_fds[0], req, req == PERF_EVENT_IOC_RESET ?
	    PERF_IOC_FLAG_GROUP : 0);
}

static int
perf_read_raw(struct perf_ctx *pc)
{
	uint64_t *rb = pc->pc_rdbuf;
	ssize_t n;

	if (pc->pc_nfds == 0) {
		memset(rb, 0, pc->pc_rdlen);
		return 0;
	}
	n = read(pc->pc_fds[0], rb, pc->pc_rdlen);
	if (n < 0)
		return -1;
	/* An exec took the events of a CPC_BIND_LWP_EVENTS set apart. */
	if (pc->pc_cx.cx_lwpev && (size_t)n >= 3 * sizeof(uint64_t) &&
	    rb[0] < (uint64_t)pc->pc_nfds)
		return cpc_perf_ends_read(pc);
	if ((size_t)n < 3 * sizeof(uint64_t) ||
	    rb[0] != (uint64_t)pc->pc_nfds) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/*
 * Every request back at its preset.  An overflowing request's period is
 * set again (which also restarts the kernel's count towards it), and its
 * refresh renewed where the last overflow used it up: a refresh not used
 * would add up, and the set would not stop at the next overflow.
 */
static int
ovf_rearm(struct perf_ctx *pc, int enabled)
{
	uint64_t *rb = pc->pc_rdbuf;
	int k;

	for (k = 0; k < pc->pc_cx.cx_nreqs; k++) {
		struct cpc_ctxreq *q = &pc->pc_cx.cx_rq[k];
		uint64_t period = 0 - q->cq_cur;
		int fd;

		if (!q->cq_ovf)
			continue;	/* SMPL requests have no place here */
		fd = pc->pc_fds[pc->pc_pos[k]];
		if (!enabled) {
			/* The count before the reset reached the period. */
			if (q->cq_armed &&
			    rb[3 + 2 * pc->pc_pos[k]] >= q->cq_period)
				q->cq_armed = 0;
			if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &period) != 0)
				return -1;
			q->cq_period = period;
		} else if (!q->cq_armed) {
			if (ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) != 0)
				return -1;
			q->cq_armed = 1;
		}
	}
	return 0;
}

/* The first position of a tracepoint its overflow stopped, or -1. */
static int
tp_stopped(const struct perf_ctx *pc)
{
	const uint64_t *rb = pc->pc_rdbuf;
	const cpc_set_t *set = pc->pc_cx.cx_set;
	int k, from = -1;

	for (k = 0; k < set->cs_nreqs; k++) {
		const struct cpc_ctxreq *q = &pc->pc_cx.cx_rq[k];
		int pos = pc->pc_pos[k];

		if (set->cs_reqs[k].cr_ev.ev_type == PERF_TYPE_TRACEPOINT &&
		    q->cq_ovf && q->cq_armed &&
		    rb[3 + 2 * pos] >= q->cq_period &&
		    (from < 0 || pos < from))
			from = pos;
	}
	return from;
}

/*
 * RESET zeroes the counts but not the enabled/running times, so they are
 * noted here: scaling uses the times since this bind.  A plain read adds
 * to a count its request's offset (set_offsets): its preset in force
 * (the bind and cpc_set_restart set cq_cur before they start the set)
 * less the count at the bind, a subtraction and an addition in one.
 */
static void
set_offsets(struct perf_ctx *pc)
{
	int i;

	for (i = 0; i < pc->pc_cx.cx_nreqs; i++)
		if (pc->pc_pos[i] >= 0)
			pc->pc_off[i] = pc->pc_cx.cx_rq[i].cq_cur -
			    pc->pc_base[pc->pc_pos[i]];
}

/* Overflows: every request at its period again, stopped ones reopened. */
static int
ovf_restart(struct perf_ctx *pc)
{
	int from;

	if (perf_ioctl(pc, PERF_EVENT_IOC_DISABLE) != 0 ||
	    perf_read_raw(pc) != 0)
		return -1;
	if ((from = tp_stopped(pc)) >= 0 &&
	    (reopen_from(pc, from) != 0 || perf_read_raw(pc) != 0))
		return -1;
	return ovf_rearm(pc, 0);
}

/*
 * Without overflows, counts since the bind are the counts less those at
 * the bind (pc_base): no reset, one ioctl less at every rebind
 * (cpustat's rotation of sets; each ioctl on the group of a thread is a
 * cross-CPU call to where it last ran).  A group just opened with its
 * leader disabled has counted nothing and been enabled for no time: not
 * even the read (cputrack binds every new thread so).  Overflows count
 * towards their period from a reset.
 */
static int
note_bases(struct perf_ctx *pc)
{
	uint64_t *rb = pc->pc_rdbuf;
	int i;

	memset(pc->pc_base, 0, pc->pc_nfds * sizeof(uint64_t));
	if (pc->pc_fresh && !pc->pc_ovf) {
		rb[1] = rb[2] = 0;
	} else if (pc->pc_ovf) {
		if (perf_ioctl(pc, PERF_EVENT_IOC_RESET) != 0 ||
		    perf_read_raw(pc) != 0)
			return -1;
	} else {
		if (perf_read_raw(pc) != 0)
			return -1;
		for (i = 0; i < pc->pc_nfds; i++)
			pc->pc_base[i] = rb[3 + 2 * i];
	}
	return 0;
}

static int
perf_start(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);
	uint64_t *rb = pc->pc_rdbuf;
	int onopen;

	(void)cpc;
	/* The new presets in force even if the start fails below. */
	set_offsets(pc);
	if (pc->pc_ovf && ovf_restart(pc) != 0)
		return -1;
	/* Opened enabled (pc_onopen): counting already, no enable. */
	onopen = pc->pc_fresh && pc->pc_onopen;
	if (note_bases(pc) != 0)
		return -1;
	set_offsets(pc);
	pc->pc_ena0 = rb[1];
	pc->pc_run0 = rb[2];
	pc->pc_fresh = 0;
	if (!onopen && perf_ioctl(pc, PERF_EVENT_IOC_ENABLE) != 0)
		return -1;
	/*
	 * A CPU's group: enabled since this time at the latest, with the
	 * enabled time read before (perf_read's check).
	 */
	if (cx->cx_kind == CPC_BIND_CPU) {
		pc->pc_enalast = rb[1];
		pc->pc_hrlast = cpc_hrnow();
	}
	cpc_pu_live(pc, 1);
	return pc->pc_ovf ? ovf_rearm(pc, 1) : 0;
}

static int
perf_stop(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);

	(void)cpc;
	cpc_pu_live(pc, 0);
	return perf_ioctl(pc, PERF_EVENT_IOC_DISABLE);
}

static int
perf_resume(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);

	(void)cpc;
	if (perf_ioctl(pc, PERF_EVENT_IOC_ENABLE) != 0)
		return -1;
	cpc_pu_live(pc, 1);
	return 0;
}

static int
read_failed(cpc_t *cpc)
{
	int e = errno;

	report(cpc, "cpc_set_sample", -1, "cannot read counters: %s",
	    strerror(e));
	errno = e;
	return -1;
}

/* The presets in force, added to the counts since the bind. */
static void
add_presets(const struct cpc_ctx *cx, uint64_t *vals)
{
	int i;

	for (i = 0; i < cx->cx_nreqs; i++)
		vals[i] += cx->cx_rq[i].cq_cur;
}

/*
 * cpc_set_sample whole for the common context (cx_sample): a thread's
 * group of counts, none derived, none sampling, none read in user space.
 * The read, the stamps and the values in one function, in the fewest
 * instructions: right after the read() the processor runs them slowly,
 * so they are most of what a sample costs over the bare system call.
 * The stamps and the scaled flag as ctx.c's sample makes them for the
 * other contexts.
 */
static int
perf_sample_plain(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
{
	struct perf_ctx *pc = perf_ctx(cx);
	const uint64_t *rb = pc->pc_rdbuf, *off = pc->pc_off;
	const int *pos = pc->pc_pos;
	uint64_t *vals = buf->cb_vals;
	int i, n = cx->cx_nreqs;
	ssize_t got;

	got = read(pc->pc_fds[0], pc->pc_rdbuf, pc->pc_rdlen);
	if (got != (ssize_t)pc->pc_rdlen || rb[0] != (uint64_t)n) {
		if (got >= 0)
			errno = EIO;
		return read_failed(cpc);
	}
	buf->cb_hrtime = cpc_hrnow();
	buf->cb_tick = cpc_ticknow() - cx->cx_tick0;
	buf->cb_ena = rb[1] - pc->pc_ena0;
	buf->cb_run = rb[2] - pc->pc_run0;
	if (buf->cb_run < buf->cb_ena) {
		cpc_perf_values(pc, rb, pc->pc_base, vals, &buf->cb_scaled);
		add_presets(cx, vals);
		return 0;
	}
	buf->cb_scaled = 0;
	for (i = 0; i < n; i++)
		vals[i] = rb[3 + 2 * pos[i]] + off[i];
	return 0;
}

/*
 * A CPU's group is enabled all along, so its enabled time keeps up with
 * the clock between two reads, unless the CPU went offline (and maybe
 * came back): the kernel then detached the group, whose count stopped
 * there.  The clock is taken before this read (before) and after the
 * last one (pc_hrlast), so the span between is one the group surely
 * counted through, however long the reader was preempted on either side
 * of a read.  Allowed: an eighth and a millisecond, for the two clocks.
 * (A thread's group waits while the thread sleeps: there this says
 * nothing; nor for a set of SMPL requests alone, which has no counting
 * group to read.)
 */
static int
cpu_stopped(cpc_t *cpc, struct perf_ctx *pc, hrtime_t before)
{
	uint64_t *rb = pc->pc_rdbuf, span;

	span = before > pc->pc_hrlast ? (uint64_t)(before - pc->pc_hrlast) : 0;
	if ((rb[1] - pc->pc_enalast) + span / 8 + 1000000 < span) {
		report(cpc, "cpc_set_sample", -1, "the counters of cpu %d "
		    "stopped (it went offline?)", pc->pc_cx.cx_cpu);
		errno = EIO;
		return -1;
	}
	pc->pc_enalast = rb[1];
	pc->pc_hrlast = cpc_hrnow();
	return 0;
}

/* Every other context: user-space reads, derived counts, a CPU's group. */
static int
perf_read(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
{
	struct perf_ctx *pc = perf_ctx(cx);
	uint64_t *rb = pc->pc_rdbuf;
	int cpu = cx->cx_kind == CPC_BIND_CPU && pc->pc_nfds > 0;
	hrtime_t before = cpu ? cpc_hrnow() : 0;

	/* Hardware counters of the calling thread: no system call. */
	if (cpc_pu_read(pc) != 0 && perf_read_raw(pc) != 0)
		return read_failed(cpc);
	if (cpu && cpu_stopped(cpc, pc, before) != 0)
		return -1;
	buf->cb_ena = rb[1] - pc->pc_ena0;
	buf->cb_run = rb[2] - pc->pc_run0;
	cpc_perf_values(pc, rb, pc->pc_base, buf->cb_vals, &buf->cb_scaled);
	add_presets(cx, buf->cb_vals);
	return 0;
}

/*
 * Open one encoding as a request with the default flags would be opened
 * (user mode only where the mode flags apply), and close it.  The clocks
 * are retried with the kernel excluded, as fill_attr does: they count the
 * same, and an unprivileged user may open them only so.
 */
static int
perf_probe(const struct cpc_enc *en, int modes, pid_t pid, int cpu)
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
	fd = perf_open(&a, pid, cpu, -1);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !modes &&
	    en->en_type == PERF_TYPE_SOFTWARE &&
	    (en->en_config == PERF_COUNT_SW_TASK_CLOCK ||
	    en->en_config == PERF_COUNT_SW_CPU_CLOCK)) {
		a.exclude_kernel = 1;
		fd = perf_open(&a, pid, cpu, -1);
	}
	if (fd >= 0) {
		close((int)fd);
		return CPC_AVAIL_YES;
	}
	return errno == EACCES || errno == EPERM ? CPC_AVAIL_PRIV :
	    CPC_AVAIL_NO;
}

/*
 * The clocks (task-clock, cpu-clock) overflow through an hrtimer, and a
 * period of a few microseconds has put the CPU into an interrupt storm
 * that SIGKILL cannot end and that stalls RCU for the whole machine (the
 * seed's Example 2 on task-clock, 1000 ns, did so for 18 minutes: issue
 * 12).  bench/ovf-clock-minimum measured on this project's VM (Debian's
 * 6.1 kernel, 2026-11-26), an overflow handler restarting the set each
 * time: from 20 us up every overflow comes (2000 in 84 ms at 20 us);
 * from 2 to 10 us only the first does, the kernel's timer floor of 10 us
 * then keeps the restarted clock from overflowing again; at 1 us 2000
 * came in 55 ms without a storm in that harness, but that is the period
 * of the reported storm.  The limit is five times the shortest period
 * that behaved, at most 10000 signals a second.
 */
#define CLOCK_MIN_PERIOD	100000ULL	/* ns */

static uint64_t
perf_min_period(const struct cpc_event *ev)
{
	if (ev->ev_type == PERF_TYPE_SOFTWARE &&
	    (ev->ev_config == PERF_COUNT_SW_TASK_CLOCK ||
	    ev->ev_config == PERF_COUNT_SW_CPU_CLOCK))
		return CLOCK_MIN_PERIOD;
	return 0;
}

const struct cpc_backend cpc_be_perf = {
	.be_name = "perf_event",
	.be_ctxsize = sizeof(struct perf_ctx),
	.be_open = perf_open_set,
	.be_start = perf_start,
	.be_stop = perf_stop,
	.be_resume = perf_resume,
	.be_read = perf_read,
	.be_close = perf_close,
	.be_probe = perf_probe,
	.be_min_period = perf_min_period,
	.be_lwp_events = cpc_perf_lwp_events,
	.be_lwp_fd = cpc_perf_lwp_fd,
};
