/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msr.c - the kernel-module fallback: a CPU's counters programmed through
 * the msr device (/dev/cpu/N/msr, platform/msrdev.c), for sets bound with
 * cpc_bind_cpu, where the kernel has no perf PMU driver for the processor
 * or perf events are refused but root has the device.  The registers are
 * msr_pmu.c's.
 *
 * A set takes a counter for each hardware request (two for a derived
 * one): on Intel the fixed counter of instructions, cycles or reference
 * cycles when the request is that event alone, else a general-purpose
 * counter whose enable bit nobody else has set.  Requests name their
 * event as perf would (a raw event select, or one of perf's generic
 * hardware events, which msr_pmu.c turns into the processor's code);
 * the user and system bits come from the request's flags.  The counters
 * are 48 bits wide (CPUID says): each read adds what a counter advanced
 * since the last one, modulo its width, to a 64-bit count, so a count
 * goes on across a wrap as long as two reads of a set are less than a
 * wrap apart (at 5 GHz, over 15 hours).
 *
 * What it cannot do: count a thread (the registers are the CPU's, and
 * nothing here follows a thread across context switches), notify an
 * overflow (that needs the kernel's interrupt handler), or count
 * software events and tracepoints.  The counters are shared with anyone
 * else writing the registers: nothing here can stop them.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "msr_pmu.h"

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

/* One hardware counter a set holds. */
struct mctr {
	int		 mc_fixed;	/* Intel fixed counter, else gp */
	int		 mc_idx;
	uint32_t	 mc_ctr;	/* its count register */
	uint64_t	 mc_sel;	/* gp: the event select, enabled */
	uint64_t	 mc_mask;	/* 2^width - 1 */
	uint64_t	 mc_last;	/* raw at the last read */
	uint64_t	 mc_acc;	/* 64-bit count since the start */
};

/* The backend's context: struct cpc_ctx first (backend.h). */
struct mset {
	struct cpc_ctx		 ms_cx;
	int			 ms_fd;
	int			 ms_cpu;
	struct cpc_msr_pmu	 ms_pmu;
	int			 ms_n;
	struct mctr		 ms_c[CPC_MSR_MAXGP + CPC_MSR_MAXFIXED];
	int			*ms_pos;	/* request -> counter */
	int			*ms_sub;	/* derived: its second, or -1 */
	uint64_t		 ms_global;	/* GLOBAL_CTRL bits */
	uint64_t		 ms_fmask;	/* FIXED_CTR_CTRL fields held */
	uint64_t		 ms_fctrl;	/* and their value */
	int			 ms_running;	/* enabled by this set */
};

#define MSET(cx)	((struct mset *)(cx))

static int
has_global(const struct cpc_msr_pmu *p)
{
	return p->mp_version >= 2;
}

static uint32_t
global_reg(const struct cpc_msr_pmu *p)
{
	return p->mp_vendor == CPC_VENDOR_INTEL ? MSR_PERF_GLOBAL_CTRL :
	    MSR_AMD_GLOBAL_CTL;
}

/*
 * The event code of encoding en on p, in *code; -1 reported when the
 * msr backend cannot count it.
 */
static int
event_code(cpc_t *cpc, const char *fn, const struct cpc_msr_pmu *p,
    const char *name, const struct cpc_enc *en, uint64_t *code)
{
	if (en->en_type == PERF_TYPE_RAW) {
		if (en->en_config1 != 0 || en->en_config2 != 0) {
			report(cpc, fn, CPC_INVALID_EVENT, "event '%s' needs "
			    "registers beside its event select (offcore "
			    "response, load latency): the msr backend does "
			    "not program them", name);
			errno = ENOTSUP;
			return -1;
		}
		*code = en->en_config & msr_code_mask(p);
		return 0;
	}
	if (en->en_type == PERF_TYPE_HARDWARE) {
		if (msr_generic_code(p, en->en_config, code) == 0)
			return 0;
		report(cpc, fn, CPC_INVALID_EVENT, "event '%s' (%s): %s has "
		    "no such event for the msr backend; name the processor's "
		    "own event instead (--list-events)", name,
		    msr_generic_name(en->en_config), p->mp_name);
		errno = ENOTSUP;
		return -1;
	}
	report(cpc, fn, CPC_INVALID_EVENT, "event '%s' is not one of the "
	    "processor's counters: the msr backend counts hardware events "
	    "only (CPC_BACKEND=perf counts software events and tracepoints "
	    "through perf_event)", name);
	errno = ENOTSUP;
	return -1;
}

/* The next free general-purpose counter from *next; -1 when none. */
static int
free_gp(struct mset *ms, const uint8_t *busy, int *next)
{
	while (*next < ms->ms_pmu.mp_ngp && busy[*next])
		(*next)++;
	return *next < ms->ms_pmu.mp_ngp ? (*next)++ : -1;
}

/*
 * Give en a counter: Intel's fixed one for its event when free, else a
 * general-purpose one.  Its index in ms->ms_c, or -1 reported.
 */
static int
take_counter(cpc_t *cpc, const char *fn, struct mset *ms,
    const struct cpc_request *r, const struct cpc_enc *en, uint8_t *busy,
    int *next)
{
	const struct cpc_msr_pmu *p = &ms->ms_pmu;
	struct mctr *c = &ms->ms_c[ms->ms_n];
	uint64_t code, modes = 0;
	int k, gp;

	if (r->cr_flags & CPC_COUNT_USER)
		modes |= MSR_SEL_USR;
	if (r->cr_flags & CPC_COUNT_SYSTEM)
		modes |= MSR_SEL_OS;
	k = p->mp_vendor == CPC_VENDOR_INTEL ? cpc_fixed_counter(p->mp_vendor,
	    en->en_type, en->en_config) : 0;
	if (k > 0 && k <= p->mp_nfixed && !(ms->ms_fmask >> (4 * (k - 1)) &
	    0xf) && !busy[CPC_MSR_MAXGP + k - 1]) {
		c->mc_fixed = 1;
		c->mc_idx = k - 1;
		c->mc_ctr = MSR_FIXED_CTR0 + (uint32_t)(k - 1);
		c->mc_mask = p->mp_fwidth >= 64 ? ~0ULL :
		    (1ULL << (p->mp_fwidth > 0 ? p->mp_fwidth : 48)) - 1;
		ms->ms_fmask |= 0xfULL << (4 * (k - 1));
		ms->ms_fctrl |= ((modes & MSR_SEL_USR ? MSR_FIXED_USR : 0) |
		    (modes & MSR_SEL_OS ? MSR_FIXED_OS : 0)) << (4 * (k - 1));
		ms->ms_global |= 1ULL << (32 + k - 1);
		return ms->ms_n++;
	}
	if (event_code(cpc, fn, p, r->cr_event, en, &code) != 0)
		return -1;
	if ((gp = free_gp(ms, busy, next)) < 0) {
		report(cpc, fn, CPC_RESOURCE_UNAVAIL, "Hardware resource "
		    "unavailable: no free counter on cpu %d for '%s' (%s has "
		    "%d general-purpose counters; those enabled by another "
		    "user of the msr device are not taken)", ms->ms_cpu,
		    r->cr_event, p->mp_name, p->mp_ngp);
		errno = EBUSY;
		return -1;
	}
	c->mc_fixed = 0;
	c->mc_idx = gp;
	c->mc_ctr = msr_ctr_reg(p, gp);
	c->mc_sel = code | modes | MSR_SEL_EN;
	c->mc_mask = p->mp_width >= 64 ? ~0ULL :
	    (1ULL << (p->mp_width > 0 ? p->mp_width : 48)) - 1;
	ms->ms_global |= 1ULL << gp;
	return ms->ms_n++;
}

/* The counters someone else has enabled: not to be taken. */
static int
find_busy(const struct mset *ms, uint8_t *busy)
{
	const struct cpc_msr_pmu *p = &ms->ms_pmu;
	uint64_t v;
	int i;

	for (i = 0; i < p->mp_ngp; i++) {
		if (cpc_msr_read(ms->ms_fd, msr_sel_reg(p, i), &v) != 0)
			return -1;
		busy[i] = (v & MSR_SEL_EN) != 0;
	}
	if (p->mp_nfixed > 0) {
		if (cpc_msr_read(ms->ms_fd, MSR_FIXED_CTR_CTRL, &v) != 0)
			return -1;
		for (i = 0; i < p->mp_nfixed; i++)
			busy[CPC_MSR_MAXGP + i] = (v >> (4 * i) & 3) != 0;
	}
	return 0;
}

static int enable(struct mset *ms, int on);

static void
msr_close(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct mset *ms = MSET(cx);

	(void)cpc;
	/* Closing a counting set stops it, as closing perf's group does. */
	if (ms->ms_fd >= 0 && ms->ms_running)
		(void)enable(ms, 0);
	if (ms->ms_fd >= 0)
		close(ms->ms_fd);
	free(ms->ms_pos);
	free(ms->ms_sub);
	memset((char *)ms + sizeof(ms->ms_cx), 0, sizeof(*ms) -
	    sizeof(ms->ms_cx));
	ms->ms_fd = -1;
}

/*
 * The device of a CPU that cpu 0's root has but this CPU has not: the
 * kernel removes a CPU's device when it goes offline.  EIO then, which
 * callers (cpustat) take for a CPU that went away.
 */
static int
gone_errno(int cpu, int e)
{
	char path[256];

	if (e != ENOENT && e != ENXIO)
		return e;
	cpc_msr_path(cpc_msr_first_cpu(), "msr", path, sizeof(path));
	return cpu != cpc_msr_first_cpu() && access(path, F_OK) == 0 ? EIO :
	    e;
}

/*
 * The context's state for the CPU (msr_close frees it): 0, or -1 with
 * errno and the reason said.
 */
static int
attach_mset(cpc_t *cpc, const char *fn, struct mset *ms, int cpu)
{
	ms->ms_fd = -1;
	ms->ms_cpu = cpu;
	if ((ms->ms_pos = calloc((size_t)ms->ms_cx.cx_nreqs, sizeof(int))) ==
	    NULL ||
	    (ms->ms_sub = calloc((size_t)ms->ms_cx.cx_nreqs, sizeof(int))) ==
	    NULL) {
		report(cpc, fn, -1, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/*
 * The CPU's PMU probed, its msr device opened, and in busy the counters
 * another user has enabled: 0, or -1 with errno (EIO for a CPU that
 * went offline) and the reason said.
 */
static int
open_device(cpc_t *cpc, const char *fn, struct mset *ms, uint8_t *busy)
{
	char path[256];
	int e, oe;

	if (cpc_msr_probe(ms->ms_cpu, &ms->ms_pmu) != 0) {
		e = gone_errno(ms->ms_cpu, errno);
		if (e == EIO)
			report(cpc, fn, -1, "cpu %d has no msr device under %s "
			    "(it went offline?)", ms->ms_cpu, cpc_msr_root());
		else
			report(cpc, fn, -1, "%s", ms->ms_pmu.mp_why);
		errno = e;
		return -1;
	}
	if ((ms->ms_fd = cpc_msr_open(ms->ms_cpu, 1)) < 0 ||
	    find_busy(ms, busy) != 0) {
		oe = errno;
		e = gone_errno(ms->ms_cpu, oe);
		cpc_msr_path(ms->ms_cpu, "msr", path, sizeof(path));
		report(cpc, fn, -1, "cannot read the counters' registers "
		    "through %s: %s", path, strerror(oe));
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * A counter for each request, two for a derived one (ms_pos, ms_sub):
 * 0, or -1 with errno and the reason said.
 */
static int
place_requests(cpc_t *cpc, const char *fn, struct mset *ms, uint8_t *busy)
{
	const cpc_set_t *set = ms->ms_cx.cx_set;
	int i, k, next = 0;

	for (i = 0; i < set->cs_nreqs; i++) {
		const struct cpc_request *r = &set->cs_reqs[i];
		int ovf = ms->ms_cx.cx_rq[i].cq_ovf;
		struct cpc_enc en = { r->cr_ev.ev_type, r->cr_ev.ev_config,
		    r->cr_ev.ev_config1, r->cr_ev.ev_config2 };

		if (ovf || (r->cr_flags & CPC_HW_SMPL)) {
			report(cpc, fn, CPC_REQ_INVALID_FLAGS, "the msr "
			    "backend cannot %s ('%s')", ovf ?
			    "notify overflows" : "sample", r->cr_event);
			errno = ENOTSUP;
			return -1;
		}
		if ((k = take_counter(cpc, fn, ms, r, &en, busy, &next)) < 0)
			return -1;
		ms->ms_pos[i] = k;
		ms->ms_sub[i] = -1;
		if (r->cr_ev.ev_derived) {
			if ((k = take_counter(cpc, fn, ms, r, &r->cr_ev.ev_sub,
			    busy, &next)) < 0)
				return -1;
			ms->ms_sub[i] = k;
		}
	}
	return 0;
}

static int
msr_open_set(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_target *t)
{
	uint8_t busy[CPC_MSR_MAXGP + CPC_MSR_MAXFIXED] = { 0 };
	int e;

	if (t->t_kind != CPC_BIND_CPU) {
		report(cpc, t->t_fn, CPC_REQ_INVALID_FLAGS, "the msr backend "
		    "counts whole CPUs only (cpc_bind_cpu, cpustat): a "
		    "thread's counts (cpc_bind_curlwp, cpc_bind_pctx, "
		    "cputrack) need perf_event and its PMU driver");
		errno = ENOTSUP;
		return -1;
	}
	if (attach_mset(cpc, t->t_fn, MSET(cx), t->t_cpu) != 0 ||
	    open_device(cpc, t->t_fn, MSET(cx), busy) != 0 ||
	    place_requests(cpc, t->t_fn, MSET(cx), busy) != 0)
		goto out_close;
	return 0;
out_close:
	e = errno;
	msr_close(cpc, cx);
	errno = e;
	return -1;
}

/* Read-modify-write the bits of mask in reg to val. */
static int
rmw(int fd, uint32_t reg, uint64_t mask, uint64_t val)
{
	uint64_t v;

	if (cpc_msr_read(fd, reg, &v) != 0)
		return -1;
	return cpc_msr_write(fd, reg, (v & ~mask) | (val & mask));
}

/* Enable (on) or disable the set's counters. */
static int
enable(struct mset *ms, int on)
{
	const struct cpc_msr_pmu *p = &ms->ms_pmu;
	int i;

	if (!on && has_global(p) &&
	    rmw(ms->ms_fd, global_reg(p), ms->ms_global, 0) != 0)
		return -1;
	for (i = 0; i < ms->ms_n; i++) {
		const struct mctr *c = &ms->ms_c[i];

		if (!c->mc_fixed && cpc_msr_write(ms->ms_fd,
		    msr_sel_reg(p, c->mc_idx), on ? c->mc_sel :
		    c->mc_sel & ~MSR_SEL_EN) != 0)
			return -1;
	}
	if (ms->ms_fmask != 0 && rmw(ms->ms_fd, MSR_FIXED_CTR_CTRL,
	    ms->ms_fmask, on ? ms->ms_fctrl : 0) != 0)
		return -1;
	if (on && has_global(p) &&
	    rmw(ms->ms_fd, global_reg(p), ms->ms_global, ms->ms_global) != 0)
		return -1;
	ms->ms_running = on;
	return 0;
}

static int
failed(cpc_t *cpc, struct cpc_ctx *cx, const char *fn, const char *what)
{
	struct mset *ms = MSET(cx);
	int e = errno;
	char path[256];

	cpc_msr_path(ms->ms_cpu, "msr", path, sizeof(path));
	if (e == ENXIO || e == ENOENT || e == ENODEV) {
		report(cpc, fn, -1, "cannot %s the counters of cpu %d through "
		    "%s: %s (it went offline?)", what, ms->ms_cpu, path,
		    strerror(e));
		e = EIO;
	} else
		report(cpc, fn, -1, "cannot %s the counters of cpu %d through "
		    "%s: %s", what, ms->ms_cpu, path, strerror(e));
	errno = e;
	return -1;
}

/* Zero the counters and start them. */
static int
msr_start(cpc_t *cpc, struct cpc_ctx *cx)
{
	struct mset *ms = MSET(cx);
	int i;

	if (enable(ms, 0) != 0)
		return failed(cpc, cx, "cpc_bind_cpu", "stop");
	for (i = 0; i < ms->ms_n; i++) {
		struct mctr *c = &ms->ms_c[i];

		if (cpc_msr_write(ms->ms_fd, c->mc_ctr, 0) != 0)
			return failed(cpc, cx, "cpc_bind_cpu", "zero");
		c->mc_last = 0;
		c->mc_acc = 0;
	}
	if (ms->ms_pmu.mp_vendor == CPC_VENDOR_INTEL && has_global(&ms->ms_pmu) &&
	    cpc_msr_write(ms->ms_fd, MSR_PERF_GLOBAL_OVF_CTRL,
	    ms->ms_global) != 0)
		return failed(cpc, cx, "cpc_bind_cpu", "clear the overflows of");
	if (enable(ms, 1) != 0)
		return failed(cpc, cx, "cpc_bind_cpu", "start");
	return 0;
}

static int
msr_stop(cpc_t *cpc, struct cpc_ctx *cx)
{
	return enable(MSET(cx), 0) != 0 ? failed(cpc, cx, "cpc_unbind",
	    "stop") : 0;
}

static int
msr_resume(cpc_t *cpc, struct cpc_ctx *cx)
{
	return enable(MSET(cx), 1) != 0 ? failed(cpc, cx, "cpc_enable",
	    "start") : 0;
}

static int
msr_read(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
{
	struct mset *ms = MSET(cx);
	uint64_t *vals = buf->cb_vals;
	uint64_t raw;
	int i;

	for (i = 0; i < ms->ms_n; i++) {
		struct mctr *c = &ms->ms_c[i];

		if (cpc_msr_read(ms->ms_fd, c->mc_ctr, &raw) != 0)
			return failed(cpc, cx, "cpc_set_sample", "read");
		c->mc_acc += (raw - c->mc_last) & c->mc_mask;
		c->mc_last = raw & c->mc_mask;
	}
	buf->cb_scaled = 0;
	buf->cb_ena = buf->cb_run = 0;
	for (i = 0; i < cx->cx_nreqs; i++) {
		uint64_t v = ms->ms_c[ms->ms_pos[i]].mc_acc;

		if (ms->ms_sub[i] >= 0) {
			uint64_t s = ms->ms_c[ms->ms_sub[i]].mc_acc;

			v = v > s ? v - s : 0;
		}
		vals[i] = v + cx->cx_rq[i].cq_cur;
	}
	return 0;
}

/*
 * Listings: an encoding counts when the device of cpu (or the first)
 * works and the processor has the event; a thread never.  The device's
 * description is read once per root.
 */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static char probe_root[512];
static int probe_cpu = -1, probe_rc, probe_errno;
static struct cpc_msr_pmu probe_pmu;

static int
msr_probe(const struct cpc_enc *en, int modes, pid_t pid, int cpu)
{
	uint64_t code;
	int rc, e, a;

	(void)modes;
	if (pid != -1)
		return CPC_AVAIL_NO;
	if (cpu < 0)
		cpu = cpc_msr_first_cpu();
	pthread_mutex_lock(&probe_lock);
	if (probe_cpu != cpu || strcmp(probe_root, cpc_msr_root()) != 0) {
		snprintf(probe_root, sizeof(probe_root), "%s", cpc_msr_root());
		probe_cpu = cpu;
		probe_rc = cpc_msr_probe(cpu, &probe_pmu);
		probe_errno = errno;
	}
	rc = probe_rc;
	e = probe_errno;
	if (rc != 0)
		a = e == EACCES || e == EPERM ? CPC_AVAIL_PRIV : CPC_AVAIL_NO;
	else if (en->en_type == PERF_TYPE_RAW)
		a = en->en_config1 == 0 && en->en_config2 == 0 ? CPC_AVAIL_YES :
		    CPC_AVAIL_NO;
	else if (en->en_type == PERF_TYPE_HARDWARE)
		a = msr_generic_code(&probe_pmu, en->en_config, &code) == 0 ?
		    CPC_AVAIL_YES : CPC_AVAIL_NO;
	else
		a = CPC_AVAIL_NO;
	pthread_mutex_unlock(&probe_lock);
	return a;
}

static uint64_t
msr_min_period(const struct cpc_event *ev)
{
	(void)ev;
	return 0;
}

const struct cpc_backend cpc_be_msr = {
	.be_name = "msr",
	.be_ctxsize = sizeof(struct mset),
	.be_open = msr_open_set,
	.be_start = msr_start,
	.be_stop = msr_stop,
	.be_resume = msr_resume,
	.be_read = msr_read,
	.be_close = msr_close,
	.be_probe = msr_probe,
	.be_min_period = msr_min_period,
};
