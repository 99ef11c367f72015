/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_read.c - reading a context's perf group: the group read (or the
 * user-space one, perf_user.c), the values made of it (perf_values.c),
 * the presets added; cpc_set_sample whole for the common context; and
 * the check that a CPU's group still counts.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "perf_ctx.h"
#include "perf_impl.h"
#include "perf_lwpev.h"
#include "perf_user.h"

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

int
cpc_perf_read_raw(struct perf_ctx *pc)
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
		return cpc_perf_lwpev_read(pc);
	if ((size_t)n < 3 * sizeof(uint64_t) ||
	    rb[0] != (uint64_t)pc->pc_nfds) {
		errno = EIO;
		return -1;
	}
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
int
cpc_perf_sample_plain(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
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

	/*
	 * A cgroup's group (cpc_bind_cpu_cgroup) is enabled only while a
	 * task of the cgroup runs there: its enabled time says nothing of
	 * the CPU, unless it moved: a group that ran since the last read
	 * proves its CPU online.  Otherwise the CPU is asked (a CPU that
	 * went and came back between two reads is not seen; one gone
	 * while the group ran is seen at the next read).
	 */
	if (pc->pc_cx.cx_cgfd >= 0) {
		if (rb[1] != pc->pc_enalast) {
			pc->pc_enalast = rb[1];
			return 0;
		}
		if (cpc_cpu_state(pc->pc_cx.cx_cpu) > 0)
			return 0;
		report(cpc, "cpc_set_sample", -1, "the counters of cpu %d "
		    "stopped (it went offline?)", pc->pc_cx.cx_cpu);
		errno = EIO;
		return -1;
	}

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
int
cpc_perf_read(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
{
	struct perf_ctx *pc = perf_ctx(cx);
	uint64_t *rb = pc->pc_rdbuf;
	int cpu = cx->cx_kind == CPC_BIND_CPU && pc->pc_nfds > 0;
	hrtime_t before = cpu ? cpc_hrnow() : 0;

	/* Hardware counters of the calling thread: no system call. */
	if (cpc_perf_user_read(pc) != 0 && cpc_perf_read_raw(pc) != 0)
		return read_failed(cpc);
	if (cpu && cpu_stopped(cpc, pc, before) != 0)
		return -1;
	buf->cb_ena = rb[1] - pc->pc_ena0;
	buf->cb_run = rb[2] - pc->pc_run0;
	cpc_perf_values(pc, rb, pc->pc_base, buf->cb_vals, &buf->cb_scaled);
	add_presets(cx, buf->cb_vals);
	return 0;
}
