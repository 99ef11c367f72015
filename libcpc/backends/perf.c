/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf.c - the perf_event_open(2) backend.
 *
 * A bound set is one perf group on each target it is bound to, in the
 * context of that binding (struct perf_ctx): perf_group.c opens and
 * closes it, perf_read.c reads it; here it is started, stopped and
 * restarted, and the backend's table.
 *
 * Overflow (CPC_OVF_NOTIFY_EMT): the request's event samples every
 * 2^64 - preset events and signals the bound thread (F_SETOWN_EX,
 * F_SETSIG, O_ASYNC).  PERF_EVENT_IOC_REFRESH 1 makes the kernel disable
 * the event at its next overflow; the first such request is the group's
 * leader, so that disabling it stops the whole set (Solaris freezes the
 * set).  Its count is then at least its period: that is how a restart
 * knows the refresh was used up.  A tracepoint stopped that way is opened
 * afresh at the restart (cpc_perf_reopen_from).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ctx.h"
#include "perf_impl.h"
#include "perf_lwpev.h"
#include "perf_user.h"

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
	    cpc_perf_read_raw(pc) != 0)
		return -1;
	if ((from = tp_stopped(pc)) >= 0 &&
	    (cpc_perf_reopen_from(pc, from) != 0 || cpc_perf_read_raw(pc) != 0))
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
		    cpc_perf_read_raw(pc) != 0)
			return -1;
	} else {
		if (cpc_perf_read_raw(pc) != 0)
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
	 * enabled time read before (cpc_perf_read's check).
	 */
	if (cx->cx_kind == CPC_BIND_CPU) {
		pc->pc_enalast = rb[1];
		pc->pc_hrlast = cpc_hrnow();
	}
	cpc_perf_user_live(pc, 1);
	return pc->pc_ovf ? ovf_rearm(pc, 1) : 0;
}

static int
perf_stop(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);

	(void)cpc;
	cpc_perf_user_live(pc, 0);
	return perf_ioctl(pc, PERF_EVENT_IOC_DISABLE);
}

static int
perf_resume(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);

	(void)cpc;
	if (perf_ioctl(pc, PERF_EVENT_IOC_ENABLE) != 0)
		return -1;
	cpc_perf_user_live(pc, 1);
	return 0;
}

/*
 * Open one encoding as a request with the default flags would be opened
 * (user mode only where the mode flags apply), and close it.
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
	fd = cpc_perf_open(&a, pid, cpu, -1);
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
	.be_open = cpc_perf_open_set,
	.be_start = perf_start,
	.be_stop = perf_stop,
	.be_resume = perf_resume,
	.be_read = cpc_perf_read,
	.be_close = cpc_perf_close,
	.be_probe = perf_probe,
	.be_min_period = perf_min_period,
	.be_lwp_events = cpc_perf_lwp_events,
	.be_lwp_fd = cpc_perf_lwp_fd,
	.be_cgroup = 1,
};
