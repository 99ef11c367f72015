/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_smpl.c - SMPL requests (CPC_HW_SMPL) on perf_event_open(2).
 *
 * Each SMPL request of a bound set is a sampling event of its own on the
 * set's target, never a member of the counting group (perf.c): an
 * overflow of a counting request disables the group's leader, and that
 * must not stop sampling (seed 001).  Every `period' events the kernel
 * writes a PERF_RECORD_SAMPLE into the event's ring, an mmap of a
 * control page and 2^n data pages:
 *
 *	control page	data_head (kernel writes), data_tail (we write)
 *	data		records: header, ip, pid tid, time, addr, cpu res,
 *			[nr, ips[nr]] with the call chain
 *
 * A record that finds no room is lost; the kernel counts it for the
 * event (read_format PERF_FORMAT_LOST, Linux 6.0) and, when room comes
 * back, writes a PERF_RECORD_LOST (the count of older kernels).  Times
 * are CLOCK_MONOTONIC (use_clockid), as cpc_buf_hrtime's.
 *
 * With CPC_OVF_NOTIFY_EMT the kernel wakes the ring's reader every
 * smpl_nrecs records (wakeup_events): the descriptor's owner, the bound
 * thread, gets CPC_SIGOVF with si_code POLL_IN.  Nothing stops.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_impl.h"
#include "perf_ring.h"

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

#define SMPL_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_CPU)
/* The smallest record: header, ip, pid+tid, time, addr, cpu+res. */
#define SMPL_MINREC	(6 * sizeof(uint64_t))
/* Root may lock more than the unprivileged allowance: up to this. */
#define SMPL_ROOT_RING	(16UL << 20)

static uint_t
perf_smpl_max_recs(void)
{
	return (uint_t)(cpc_ring_max_data() / SMPL_MINREC);
}

static uint_t
perf_smpl_max_stack(void)
{
	return (uint_t)cpc_sysctl_long("/proc/sys/kernel/perf_event_max_stack",
	    127);
}

/* x86 PMUs say how precise they can sample; others have no such file. */
static int
perf_smpl_precise(void)
{
	return cpc_sysctl_long(CPC_SYSFS_PMUS "/cpu/caps/max_precise", 0) > 0;
}

/* Bytes of one of r's records at most (a call chain has markers too). */
static size_t
rec_bytes(const struct cpc_request *r)
{
	size_t n = SMPL_MINREC;

	if (r->cr_chain > 0)
		n += (1 + (r->cr_recw - CPC_SMPL_ITEM_FRAMES) + 4) *
		    sizeof(uint64_t);
	return n;
}

/*
 * A clock (task-clock, cpu-clock) writes at most a record per period
 * of one CPU's time into each ring: root's ring holds this long of them
 * too, whatever smpl_nrecs says, so that a tool that samples once a
 * second (cputrack -T 1, cpustat's interval) and is a little late loses
 * nothing at a short period (10 kHz: 20000 records, 1 MiB).  Not for
 * other users: kernel.perf_event_mlock_kb is shared by all their rings,
 * and a larger ring would leave room for fewer threads.
 */
#define SMPL_CLOCK_NS	2000000000ULL

/*
 * The ring's data for smpl_nrecs of r's records, and for a clock's
 * SMPL_CLOCK_NS as root: 2^n pages.
 */
static size_t
ring_data(const cpc_t *cpc, const struct cpc_request *r)
{
	size_t need = (size_t)r->cr_nrecs * rec_bytes(r), clk;
	int root = geteuid() == 0;
	size_t cap = root ? SMPL_ROOT_RING : cpc_ring_max_data();
	size_t d = cpc_ring_pagesz();

	/* The clocks are the events with a shortest period. */
	if (root && cpc->c_be->be_min_period(&r->cr_ev) > 0 &&
	    r->cr_speriod > 0) {
		clk = (size_t)(SMPL_CLOCK_NS / r->cr_speriod) * rec_bytes(r);
		if (clk > need)
			need = clk;
	}
	while (d < need && d < cap)
		d *= 2;
	return d;
}

static void
fill_attr(const struct cpc_ctx *cx, const struct cpc_request *r,
    struct perf_event_attr *a)
{
	/* Sampling in neither mode samples nothing (as perf.c counts). */
	cpc_perf_event_attr(r, 0, a);
	a->disabled = 1;
	a->inherit = cx->cx_inherit;
	a->inherit_thread = cx->cx_inherit;
	a->sample_period = r->cr_speriod;
	a->sample_type = SMPL_TYPE;
	if (r->cr_chain > 0) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (r->cr_chain > 1)
			a->sample_max_stack = (uint16_t)r->cr_chain;
	}
	a->read_format = PERF_FORMAT_LOST;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

static long
perf_open(struct perf_event_attr *a, const struct cpc_ctx *cx, int cpu)
{
	return cpc_perf_open_ctx(a, cx, cpu, -1);
}

/*
 * Open event a on cpu: precise where the PMU can (precise_ip from 3
 * down, hardware events), without PERF_FORMAT_LOST on a kernel older
 * than 6.0 (*fmtlost 0); a clock with the kernel excluded where the
 * user may only so (cpc_perf_open).
 */
static long
open_event(struct perf_event_attr *a, const struct cpc_ctx *cx, int cpu, int hw,
    int *fmtlost)
{
	long fd;
	int p;

	for (p = hw ? 3 : 0; ; p--) {
		a->precise_ip = (uint64_t)p;
		if ((fd = perf_open(a, cx, cpu)) >= 0 || p == 0 ||
		    (errno != EINVAL && errno != EOPNOTSUPP))
			break;
	}
	if (fd < 0 && errno == EINVAL && a->read_format != 0) {
		a->read_format = 0;
		if ((fd = perf_open(a, cx, cpu)) >= 0)
			*fmtlost = 0;
		else
			a->read_format = PERF_FORMAT_LOST;
	}
	return fd;
}

static void
close_one(struct cpc_smpl *sm)
{
	int i;

	for (i = 0; i < sm->sm_nring; i++) {
		if (sm->sm_rings[i] != NULL)
			munmap(sm->sm_rings[i], sm->sm_maplen);
		if (sm->sm_fds[i] >= 0)
			close(sm->sm_fds[i]);
	}
	if (sm->sm_notefd >= 0)
		close(sm->sm_notefd);
	free(sm->sm_fds);
	free(sm->sm_rings);
	free(sm->sm_tails);
	free(sm->sm_rg);
	memset(sm, 0, sizeof(*sm));
	sm->sm_notefd = -1;
}

static void
perf_smpl_close(cpc_t *cpc, struct cpc_ctx *cx)
{
	int k;

	(void)cpc;
	if (cx->cx_smpl == NULL)
		return;
	for (k = 0; k < cx->cx_nreqs; k++)
		close_one(&cx->cx_smpl[k]);
	free(cx->cx_smpl);
	cx->cx_smpl = NULL;
}

static void
ring_error(cpc_t *cpc, const char *fn, int e, const struct cpc_request *r,
    size_t len)
{
	if (e == EPERM || e == ENOMEM)
		report(cpc, fn, CPC_RESOURCE_UNAVAIL, "cannot map %zu KiB of "
		    "sampling records for '%s': %s (beyond "
		    "kernel.perf_event_mlock_kb and RLIMIT_MEMLOCK without "
		    "CAP_IPC_LOCK: ask fewer smpl_nrecs, or raise them)",
		    len / 1024, r->cr_event, strerror(e));
	else
		report(cpc, fn, -1, "cannot map the sampling records of "
		    "'%s': %s", r->cr_event, strerror(e));
}

static void
target_error(cpc_t *cpc, const struct cpc_target *t, int e,
    const struct cpc_request *r)
{
	char tname[CPC_TARGET_NAME];

	cpc_perf_target_name(t, tname, sizeof(tname));
	cpc_perf_open_error(cpc, t->t_fn, e, r, tname);
	errno = e == ENOENT || e == EOPNOTSUPP ? ENOTSUP : e;
}

/*
 * The CPUs of r's rings: the set's (-1, any, for a thread), or every
 * online one for a thread bound with CPC_BIND_LWP_INHERIT: the kernel
 * maps an inheriting event only per CPU.  Fills cpus; returns how many.
 */
static int
ring_cpus(const struct cpc_ctx *cx, int *cpus, int max)
{
	int c, n = 0;

	if (!cx->cx_inherit || cx->cx_kind == CPC_BIND_CPU) {
		cpus[0] = cx->cx_cpu;
		return 1;
	}
	for (c = 0; c < CPU_SETSIZE && n < max; c++) {
		int st = cpc_cpu_state(c);

		if (st < 0)
			break;
		if (st > 0)
			cpus[n++] = c;
	}
	return n;
}

/*
 * With CPC_OVF_NOTIFY_EMT, a second event of the same kind counts
 * alone, overflowing every smpl_nrecs * period events: that is when
 * smpl_nrecs records have come, and its overflow signals the bound
 * thread.  (A sampling event with a signal would signal every record:
 * the kernel signals each overflow of an event whose owner asked for
 * signals, whatever wakeup_events says.)
 */
static int
open_notifier(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_request *r,
    struct cpc_smpl *sm, const struct cpc_target *t)
{
	struct perf_event_attr a;
	int unused;
	long fd;

	fill_attr(cx, r, &a);
	a.sample_type = 0;
	a.read_format = 0;
	a.use_clockid = 0;
	a.clockid = 0;
	a.sample_max_stack = 0;
	a.sample_period = r->cr_speriod * r->cr_nrecs;
	if ((fd = open_event(&a, cx, cx->cx_cpu, 0, &unused)) < 0) {
		target_error(cpc, t, errno, r);
		return -1;
	}
	sm->sm_notefd = (int)fd;
	if (cpc_perf_signal(sm->sm_notefd, cx->cx_tid) != 0) {
		int e = errno;

		report(cpc, t->t_fn, -1, "cannot direct the signal of '%s' "
		    "to thread %d: %s", r->cr_event, (int)cx->cx_tid,
		    strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

static int
open_one(cpc_t *cpc, struct cpc_ctx *cx, int k, const struct cpc_target *t)
{
	const struct cpc_request *r = &cx->cx_set->cs_reqs[k];
	struct cpc_smpl *sm = &cx->cx_smpl[k];
	struct perf_event_attr a;
	int cpus[CPU_SETSIZE], n, i, e;
	long fd;

	n = ring_cpus(cx, cpus, CPU_SETSIZE);
	sm->sm_fds = malloc(n * sizeof(int));
	sm->sm_rings = calloc(n, sizeof(void *));
	sm->sm_tails = calloc(n, sizeof(uint64_t));
	/* A read's view of the rings: no stack, no page to fault in. */
	sm->sm_rg = calloc(n, sizeof(struct ring));
	if (sm->sm_fds == NULL || sm->sm_rings == NULL ||
	    sm->sm_tails == NULL || sm->sm_rg == NULL) {
		errno = ENOMEM;
		return -1;
	}
	sm->sm_maplen = cpc_ring_pagesz() + ring_data(cpc, r);
	sm->sm_fmtlost = 1;
	for (i = 0; i < n; i++) {
		fill_attr(cx, r, &a);
		if ((fd = open_event(&a, cx, cpus[i], r->cr_ev.ev_hw,
		    &sm->sm_fmtlost)) < 0) {
			target_error(cpc, t, errno, r);
			return -1;
		}
		sm->sm_fds[sm->sm_nring++] = (int)fd;
		/* Populated now: no fault of the reader's is sampled. */
		sm->sm_rings[i] = mmap(NULL, sm->sm_maplen, PROT_READ |
		    PROT_WRITE, MAP_SHARED | MAP_POPULATE, (int)fd, 0);
		if (sm->sm_rings[i] == MAP_FAILED) {
			e = errno;
			sm->sm_rings[i] = NULL;
			ring_error(cpc, t->t_fn, e, r, sm->sm_maplen);
			errno = e == EPERM || e == ENOMEM ? EAGAIN : e;
			return -1;
		}
		cpc_ring_init(&((struct ring *)sm->sm_rg)[i], sm->sm_rings[i],
		    sm->sm_maplen - cpc_ring_pagesz(), &sm->sm_tails[i]);
	}
	if (r->cr_flags & CPC_OVF_NOTIFY_EMT)
		return open_notifier(cpc, cx, r, sm, t);
	return 0;
}

static int
perf_smpl_open(cpc_t *cpc, struct cpc_ctx *cx, const struct cpc_target *t)
{
	int k;

	perf_smpl_close(cpc, cx);
	if (cx->cx_set->cs_nsmpl == 0)
		return 0;
	if ((cx->cx_smpl = calloc(cx->cx_nreqs, sizeof(*cx->cx_smpl))) ==
	    NULL) {
		errno = ENOMEM;
		return -1;
	}
	for (k = 0; k < cx->cx_nreqs; k++)
		cx->cx_smpl[k].sm_notefd = -1;
	for (k = 0; k < cx->cx_nreqs; k++)
		if (cx->cx_set->cs_reqs[k].cr_smpl && open_one(cpc, cx, k, t) != 0) {
			int e = errno;

			perf_smpl_close(cpc, cx);
			errno = e;
			return -1;
		}
	return 0;
}

/* The kernel's count of sm's lost records (PERF_FORMAT_LOST), all rings. */
static int
read_lost(const struct cpc_smpl *sm, uint64_t *lost)
{
	uint64_t v[2];
	int i;

	*lost = 0;
	for (i = 0; i < sm->sm_nring; i++) {
		if (read(sm->sm_fds[i], v, sizeof(v)) != (ssize_t)sizeof(v)) {
			if (errno == 0)
				errno = EIO;
			return -1;
		}
		*lost += v[1];
	}
	return 0;
}

/* Every event of sm: enable or disable (reset first, on 2). */
static int
sm_ioctl(const struct cpc_smpl *sm, int how)
{
	unsigned long req = how ? PERF_EVENT_IOC_ENABLE :
	    PERF_EVENT_IOC_DISABLE;
	int i;

	for (i = -1; i < sm->sm_nring; i++) {
		int fd = i < 0 ? sm->sm_notefd : sm->sm_fds[i];

		if (fd < 0)
			continue;
		if (how == 2 && ioctl(fd, PERF_EVENT_IOC_RESET, 0) != 0)
			return -1;
		if (ioctl(fd, req, 0) != 0)
			return -1;
	}
	return 0;
}

static int
perf_smpl_start(cpc_t *cpc, struct cpc_ctx *cx)
{
	int k, i;

	(void)cpc;
	for (k = 0; cx->cx_smpl != NULL && k < cx->cx_nreqs; k++) {
		struct cpc_smpl *sm = &cx->cx_smpl[k];

		if (sm->sm_nring == 0)
			continue;
		if (sm_ioctl(sm, 0) != 0)
			return -1;
		/* The records of an earlier binding are not this one's. */
		for (i = 0; i < sm->sm_nring; i++)
			cpc_ring_drop(&((struct ring *)sm->sm_rg)[i]);
		sm->sm_lost0 = 0;
		if (sm->sm_fmtlost && read_lost(sm, &sm->sm_lost0) != 0)
			return -1;
		sm->sm_lost = 0;
		sm->sm_taken = 0;
		if (sm_ioctl(sm, 2) != 0)
			return -1;
	}
	return 0;
}

static int
perf_smpl_enable(cpc_t *cpc, struct cpc_ctx *cx, int on)
{
	int k;

	(void)cpc;
	for (k = 0; cx->cx_smpl != NULL && k < cx->cx_nreqs; k++)
		if (sm_ioctl(&cx->cx_smpl[k], on != 0) != 0)
			return -1;
	return 0;
}

/* Where the PC was: a CPC_COUNT_ flag (CPC_SMPL_ITEM_MODE). */
static uint64_t
pc_mode(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_USER:
		return CPC_COUNT_USER;
	case PERF_RECORD_MISC_KERNEL:
		return CPC_COUNT_SYSTEM;
	case PERF_RECORD_MISC_HYPERVISOR:
		return CPC_COUNT_HV;
	default:
		return 0;
	}
}

/*
 * The call chain from off: nr, then nr addresses where the kernel's
 * context markers (PERF_CONTEXT_KERNEL, _USER, ...) say whose the
 * following frames are.  The markers are left out; the kernel's frames
 * come first and are counted.
 */
static void
decode_chain(const struct ring *rg, uint64_t off, uint64_t end,
    uint64_t *rec, uint_t maxf)
{
	uint64_t nr = ring_u64(rg, off), ip, ctx = 0, i;
	uint64_t nf = 0, nk = 0;

	off += 8;
	for (i = 0; i < nr && off + 8 <= end; i++, off += 8) {
		ip = ring_u64(rg, off);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			ctx = ip;
			continue;
		}
		if (nf == maxf)
			continue;
		rec[CPC_SMPL_ITEM_FRAME(nf)] = ip;
		nf++;
		if (ctx == (uint64_t)PERF_CONTEXT_KERNEL)
			nk++;
	}
	rec[CPC_SMPL_ITEM_NFRAMES] = nf;
	rec[CPC_SMPL_ITEM_NKFRAMES] = nk;
}

/* The PERF_RECORD_SAMPLE at the ring's tail into rec. */
static void
decode_sample(const struct ring *rg, const struct perf_event_header *h,
    int chain, uint64_t *rec, uint_t recw)
{
	uint64_t off = *rg->rg_tail, end = off + h->size, pt, cr;

	off += sizeof(*h);
	rec[CPC_SMPL_ITEM_PC] = ring_u64(rg, off);
	pt = ring_u64(rg, off + 8);
	rec[CPC_SMPL_ITEM_TIME] = ring_u64(rg, off + 16);
	rec[CPC_SMPL_ITEM_ADDR] = ring_u64(rg, off + 24);
	cr = ring_u64(rg, off + 32);
	rec[CPC_SMPL_ITEM_PID] = u32_first(pt);
	rec[CPC_SMPL_ITEM_TID] = u32_second(pt);
	rec[CPC_SMPL_ITEM_CPU] = u32_first(cr);
	rec[CPC_SMPL_ITEM_MODE] = pc_mode(h->misc);
	rec[CPC_SMPL_ITEM_NFRAMES] = 0;
	rec[CPC_SMPL_ITEM_NKFRAMES] = 0;
	if (chain && off + 40 < end)
		decode_chain(rg, off + 40, end, rec,
		    recw - CPC_SMPL_ITEM_FRAMES);
}

/*
 * The ring's next sample: its header in *h, the records before it that
 * are not samples passed over (a PERF_RECORD_LOST counted, for a kernel
 * without PERF_FORMAT_LOST).  0 when it has none; -1 when damaged.
 */
static int
next_sample(struct ring *rg, struct cpc_smpl *sm,
    struct perf_event_header *h)
{
	int rc;

	while ((rc = cpc_ring_next(rg, h)) > 0) {
		if (h->type == PERF_RECORD_SAMPLE)
			return 1;
		if (h->type == PERF_RECORD_LOST && !sm->sm_fmtlost)
			sm->sm_lost += ring_u64(rg, *rg->rg_tail + 16);
		cpc_ring_consume(rg, h);
	}
	return rc;
}

/*
 * Move request k's records into bs, oldest first: with several rings
 * (one per CPU) the one whose next sample is oldest gives the next.
 */
static int
perf_smpl_read(cpc_t *cpc, struct cpc_ctx *cx, int k, struct cpc_bufsmpl *bs)
{
	const struct cpc_request *r = &cx->cx_set->cs_reqs[k];
	struct cpc_smpl *sm = &cx->cx_smpl[k];
	struct ring *rg = sm->sm_rg;
	struct perf_event_header h, hb;
	uint64_t lost, oldlost = sm->sm_lost;
	int i, best;

	for (i = 0; i < sm->sm_nring; i++)
		cpc_ring_read_init(&rg[i]);
	for (bs->bs_n = 0; bs->bs_n < bs->bs_cap; bs->bs_n++) {
		best = -1;
		for (i = 0; i < sm->sm_nring; i++) {
			int rc = next_sample(&rg[i], sm, &h);

			if (rc < 0) {
				report(cpc, "cpc_set_sample", -1, "the "
				    "sampling records of '%s' are damaged "
				    "(a record of %u bytes): the rest of "
				    "that ring is dropped", r->cr_event,
				    (unsigned)h.size);
				*rg[i].rg_tail = rg[i].rg_head;
			}
			if (rc <= 0)
				continue;
			if (best < 0 || ring_u64(&rg[i], *rg[i].rg_tail + 24) <
			    ring_u64(&rg[best], *rg[best].rg_tail + 24)) {
				best = i;
				hb = h;
			}
		}
		if (best < 0)
			break;
		decode_sample(&rg[best], &hb, r->cr_chain > 0,
		    bs->bs_recs + (size_t)bs->bs_n * bs->bs_recw, bs->bs_recw);
		cpc_ring_consume(&rg[best], &hb);
	}
	for (i = 0; i < sm->sm_nring; i++)
		cpc_ring_read_done(&rg[i]);
	if (sm->sm_fmtlost) {
		if (read_lost(sm, &lost) != 0) {
			int e = errno;

			report(cpc, "cpc_set_sample", -1, "cannot read the "
			    "lost records of '%s': %s", r->cr_event,
			    strerror(e));
			errno = e;
			return -1;
		}
		sm->sm_lost = lost - sm->sm_lost0;
	}
	bs->bs_lost = sm->sm_lost - oldlost;
	sm->sm_taken += bs->bs_n;
	return 0;
}

const struct cpc_smpl_backend cpc_sbe_perf = {
	.sb_open = perf_smpl_open,
	.sb_start = perf_smpl_start,
	.sb_enable = perf_smpl_enable,
	.sb_read = perf_smpl_read,
	.sb_close = perf_smpl_close,
	.sb_max_recs = perf_smpl_max_recs,
	.sb_max_stack = perf_smpl_max_stack,
	.sb_precise = perf_smpl_precise,
};
