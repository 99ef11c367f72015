/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_lwpev_walk.c - the records of a set bound with CPC_BIND_LWP_EVENTS
 * (perf_lwpev.c has its rings and why there are several), read as
 * cpc_lwp_events reports.
 *
 * Records come in time order within a ring and are merged by time.  What
 * one walk takes is consistent: the READ rings' heads are loaded between
 * two loads of the CPU rings' heads, so a thread's end comes with its
 * creation (its FORK was written before it ran), and an exec's COMM seen
 * at the first load comes with the READ records written before it; a
 * COMM seen only at the second waits, and so does everything after it.
 * Under CPC_BIND_LWP_FORKS a thread's EXIT is a COMM's like: its READ
 * records come before it, and it waits as a COMM does.
 *
 * When a thread ends, each of its events writes a READ record of the
 * group it is still in, so a thread's values come in one record or
 * several, which may interleave with another thread's ending elsewhere:
 * the first value of each event is kept (struct pend), the thread is
 * reported once every event gave one, and forgotten once every event
 * wrote its record (a thread ID may come again), or once PEND_STALE
 * went by since the first: one thread's records are written within
 * microseconds, so after a loss of records a thread's part is not taken
 * for another's that reuses its ID.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_lwpev.h"
#include "perf_ring.h"
#include "perf_lwpev_impl.h"

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

/* Done with p: the last takes its place (buffers swapped). */
static void
pend_drop(struct cpc_lwpev *en, struct pend *p)
{
	struct pend last = en->e_pend[--en->e_npend];

	if (p != &en->e_pend[en->e_npend]) {
		en->e_pend[en->e_npend] = *p;
		*p = last;
	}
}

/*
 * Forget the threads whose first record is PEND_STALE older than the
 * latest record read: the records of theirs still to come were lost.
 */
static void
pend_prune(struct cpc_lwpev *en, hrtime_t now)
{
	int i;

	for (i = en->e_npend - 1; i >= 0; i--)
		if (now - en->e_pend[i].p_t0 > PEND_STALE)
			pend_drop(en, &en->e_pend[i]);
}

static void
pend_init(struct pend *p, int nfds, pid_t pid, pid_t tid, hrtime_t t)
{
	memset(p->p_have, 0, nfds);
	p->p_pid = pid;
	p->p_tid = tid;
	p->p_nhave = 0;
	p->p_nrec = 0;
	p->p_t0 = t;
}

/* The pending thread tid, made if new; NULL without memory. */
static struct pend *
pend_get(struct cpc_lwpev *en, int nfds, pid_t pid, pid_t tid, hrtime_t t)
{
	struct pend *p;
	int i;

	for (i = 0; i < en->e_npend; i++)
		if (en->e_pend[i].p_tid == tid) {
			p = &en->e_pend[i];
			if (t - p->p_t0 > PEND_STALE)
				pend_init(p, nfds, pid, tid, t);
			return p;
		}
	if (en->e_npend == en->e_cap) {
		int cap = en->e_cap ? 2 * en->e_cap : 8;

		p = realloc(en->e_pend, cap * sizeof(*p));
		if (p == NULL)
			return NULL;
		memset(p + en->e_cap, 0, (cap - en->e_cap) * sizeof(*p));
		en->e_pend = p;
		en->e_cap = cap;
	}
	p = &en->e_pend[en->e_npend];
	if ((p->p_vals == NULL &&
	    (p->p_vals = calloc(nfds, sizeof(uint64_t))) == NULL) ||
	    (p->p_have == NULL && (p->p_have = calloc(nfds, 1)) == NULL))
		return NULL;
	pend_init(p, nfds, pid, tid, t);
	en->e_npend++;
	return p;
}

struct walk {
	cpc_t		*w_cpc;
	struct perf_ctx	*w_pc;
	cpc_buf_t	*w_buf;
	cpc_lwp_fn_t	*w_fn;
	void		*w_arg;
	int		 w_n;
};

/* Report ev with buf zero but for the time; fn's return. */
static int
emit(struct walk *w, cpc_lwp_event_t *ev)
{
	cpc_buf_t *b = w->w_buf;

	memset(b->cb_vals, 0, b->cb_nreqs * sizeof(uint64_t));
	b->cb_scaled = 0;
	b->cb_ena = b->cb_run = 0;
	b->cb_tick = 0;
	b->cb_hrtime = ev->le_time;
	w->w_n++;
	return w->w_fn(w->w_arg, ev, b);
}

/* A thread that every event has given its values: reported. */
static int
emit_end(struct walk *w, const struct pend *p, hrtime_t time)
{
	struct perf_ctx *pc = w->w_pc;
	struct cpc_lwpev *en = pc->pc_lwpev;
	cpc_lwp_event_t ev = { .le_what = CPC_LWP_END, .le_pid = p->p_pid,
	    .le_tid = p->p_tid, .le_time = time };
	cpc_buf_t *b = w->w_buf;
	int i;

	en->e_rb[0] = (uint64_t)pc->pc_nfds;
	en->e_rb[1] = p->p_ena;
	en->e_rb[2] = p->p_run;
	for (i = 0; i < pc->pc_nfds; i++) {
		en->e_rb[3 + 2 * i] = p->p_vals[i];
		en->e_rb[4 + 2 * i] = en->e_ids[i];
	}
	cpc_perf_values(pc, en->e_rb, NULL, b->cb_vals, &b->cb_scaled);
	b->cb_ena = en->e_rb[1];
	b->cb_run = en->e_rb[2];
	b->cb_tick = 0;
	b->cb_hrtime = time;
	w->w_n++;
	return w->w_fn(w->w_arg, &ev, b);
}

/* A READ record at off (after its header), end its end: fn's return. */
static int
on_read(struct walk *w, const struct ring *rg, uint64_t off, uint64_t end)
{
	struct perf_ctx *pc = w->w_pc;
	struct cpc_lwpev *en = pc->pc_lwpev;
	uint64_t pt = ring_u64(rg, off), nr = ring_u64(rg, off + 8), k;
	hrtime_t time = REC_TIME(rg, end);
	struct pend *p;
	int i, had, rc = 0;

	p = pend_get(en, pc->pc_nfds, (pid_t)u32_first(pt),
	    (pid_t)u32_second(pt), time);
	if (p == NULL) {
		report(w->w_cpc, "cpc_lwp_events", -1, "out of memory: the "
		    "counts of thread %d are lost", (int)u32_second(pt));
		return 0;
	}
	if (p->p_nrec++ == 0) {
		p->p_ena = ring_u64(rg, off + 16);
		p->p_run = ring_u64(rg, off + 24);
	}
	had = p->p_nhave;
	for (k = 0; k < nr && off + 48 + 16 * k <= end - 24; k++) {
		uint64_t v = ring_u64(rg, off + 32 + 16 * k);
		uint64_t id = ring_u64(rg, off + 40 + 16 * k);

		for (i = 0; i < pc->pc_nfds; i++)
			if (en->e_ids[i] == id && !p->p_have[i]) {
				p->p_have[i] = 1;
				p->p_vals[i] = v;
				p->p_nhave++;
			}
	}
	if (had < pc->pc_nfds && p->p_nhave == pc->pc_nfds) {
		/*
		 * With a tid equal to the pid, another thread's exec (see
		 * above): its COMM, from its copy of a CPU's dummy, follows.
		 */
		rc = emit_end(w, p, time);
	}
	if (p->p_nrec >= pc->pc_nfds)
		pend_drop(en, p);
	return rc;
}

/* FORKS: the process pid counted, or NULL. */
static struct eproc *
proc_find(struct cpc_lwpev *en, pid_t pid)
{
	int i;

	for (i = 0; i < en->e_nproc; i++)
		if (en->e_procs[i].ep_pid == pid)
			return &en->e_procs[i];
	return NULL;
}

/* FORKS: pid counted from now, one thread; 0, or -1 without memory. */
static int
proc_add(struct cpc_lwpev *en, pid_t pid)
{
	if (en->e_nproc == en->e_pcap) {
		struct eproc *p = realloc(en->e_procs,
		    2 * (size_t)en->e_pcap * sizeof(*p));

		if (p == NULL)
			return -1;
		en->e_procs = p;
		en->e_pcap *= 2;
	}
	en->e_procs[en->e_nproc].ep_pid = pid;
	en->e_procs[en->e_nproc].ep_nthr = 1;
	en->e_nproc++;
	return 0;
}

/* FORKS: p counted no more; none left: nothing more to report. */
static void
proc_del(struct cpc_lwpev *en, struct eproc *p)
{
	*p = en->e_procs[--en->e_nproc];
	if (en->e_nproc == 0)
		en->e_done = 1;
}

/*
 * A FORK record (pid, ppid, tid, ptid, time): a new thread or process
 * of the target's, or of a process counted (FORKS); fn's return, or 0.
 */
static int
on_fork(struct walk *w, const struct ring *rg, uint64_t off)
{
	struct cpc_lwpev *en = w->w_pc->pc_lwpev;
	uint64_t a = ring_u64(rg, off), b = ring_u64(rg, off + 8);
	pid_t pid = (pid_t)u32_first(a), ppid = (pid_t)u32_second(a);
	cpc_lwp_event_t ev = { .le_time = (hrtime_t)ring_u64(rg, off + 16) };
	struct eproc *p = NULL;

	if (en->e_tree ? (p = proc_find(en, ppid)) == NULL : ppid != en->e_pid)
		return 0;		/* another process's */
	if (pid == ppid) {
		ev.le_what = CPC_LWP_CREATE;
		ev.le_pid = pid;
		ev.le_tid = (pid_t)u32_first(b);
		if (p != NULL)
			p->ep_nthr++;
	} else {
		ev.le_what = CPC_LWP_FORK;
		ev.le_pid = ppid;
		ev.le_tid = (pid_t)u32_second(b);
		ev.le_child = pid;
		if (p != NULL && proc_add(en, pid) != 0)
			report(w->w_cpc, "cpc_lwp_events", -1, "out of memory: "
			    "process %d is not followed", (int)pid);
	}
	return emit(w, &ev);
}

/* An exec's COMM record of a process counted: fn's return, or 0. */
static int
on_exec_comm(struct walk *w, const struct ring *rg, uint64_t off, uint64_t end)
{
	struct cpc_lwpev *en = w->w_pc->pc_lwpev;
	uint64_t a = ring_u64(rg, off), b;
	cpc_lwp_event_t ev = { .le_what = CPC_LWP_EXEC };
	struct eproc *p = NULL;

	ev.le_pid = (pid_t)u32_first(a);
	ev.le_tid = (pid_t)u32_second(a);
	if (en->e_tree ? (p = proc_find(en, ev.le_pid)) == NULL :
	    ev.le_pid != en->e_pid)
		return 0;
	/* The name: 16 bytes at most, NUL-padded to 8. */
	for (b = 0; b < 2 && off + 16 + 8 * b <= end - 24; b++) {
		uint64_t w8 = ring_u64(rg, off + 8 + 8 * b);

		memcpy(ev.le_comm + 8 * b, &w8, 8);
	}
	ev.le_time = REC_TIME(rg, end);
	if (p != NULL)
		proc_del(en, p);
	else
		en->e_done = 1;
	return emit(w, &ev);
}

/* FORKS: a thread's EXIT (as FORK's); its process's last: reported. */
static int
on_thread_exit(struct walk *w, const struct ring *rg, uint64_t off)
{
	struct cpc_lwpev *en = w->w_pc->pc_lwpev;
	uint64_t a = ring_u64(rg, off), b = ring_u64(rg, off + 8);
	cpc_lwp_event_t ev = { .le_what = CPC_LWP_EXIT };
	struct eproc *p;

	ev.le_pid = (pid_t)u32_first(a);
	ev.le_tid = (pid_t)u32_first(b);
	ev.le_time = (hrtime_t)ring_u64(rg, off + 16);
	if (!en->e_tree || (p = proc_find(en, ev.le_pid)) == NULL ||
	    --p->ep_nthr > 0)
		return 0;
	proc_del(en, p);
	return emit(w, &ev);
}

/* The record at the ring's tail, header h: fn's return, or 0. */
static int
on_record(struct walk *w, const struct ring *rg,
    const struct perf_event_header *h)
{
	uint64_t off = *rg->rg_tail + sizeof(*h), end = *rg->rg_tail + h->size;
	cpc_lwp_event_t ev = { 0 };

	switch (h->type) {
	case PERF_RECORD_READ:
		return on_read(w, rg, off, end);
	case PERF_RECORD_FORK:
		return on_fork(w, rg, off);
	case PERF_RECORD_COMM:
		if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;	/* a thread named itself */
		return on_exec_comm(w, rg, off, end);
	case PERF_RECORD_EXIT:
		return on_thread_exit(w, rg, off);
	case PERF_RECORD_LOST:
		ev.le_what = CPC_LWP_LOST;
		ev.le_lost = ring_u64(rg, off + 8);
		ev.le_time = REC_TIME(rg, end);
		return emit(w, &ev);
	default:
		return 0;
	}
}

static uint64_t
head_of(const struct ering *r)
{
	return r->r_map == NULL ? r->r_tail : cpc_ring_head(&r->r_rg);
}

/*
 * The ring reader's next record (cpc_ring_next), one to read only with
 * the sample_id that every record here ends with: else damaged (-1).
 */
static int
rec_next(const struct ring *rg, struct perf_event_header *h)
{
	int rc = cpc_ring_next(rg, h);

	return rc > 0 && h->size < sizeof(*h) + 24 ? -1 : rc;
}

/* An exec's COMM, or (FORKS) a thread's EXIT: the walk waits for it. */
static int
waits(const struct cpc_lwpev *en, const struct perf_event_header *h)
{
	return (h->type == PERF_RECORD_COMM &&
	    (h->misc & PERF_RECORD_MISC_COMM_EXEC)) ||
	    (h->type == PERF_RECORD_EXIT && en->e_tree);
}

/*
 * How far this walk reads each ring (see the top; each ring's rg_head):
 * the READ rings to their heads, loaded between two loads of the CPU
 * rings' heads, which are read to the second but for an exec's COMM
 * (FORKS: or an EXIT) seen only then.  The time of the first such
 * record, or INT64_MAX: nothing later is read.
 */
static hrtime_t
walk_limits(struct cpc_lwpev *en)
{
	struct perf_event_header h;
	hrtime_t stop = INT64_MAX;
	int i;

	for (i = en->e_nread; i < en->e_nring; i++)
		en->e_ring[i].r_rg.rg_head = head_of(&en->e_ring[i]);
	for (i = 0; i < en->e_nread; i++)
		en->e_ring[i].r_rg.rg_head = head_of(&en->e_ring[i]);
	for (i = en->e_nread; i < en->e_nring; i++) {
		struct ering *r = &en->e_ring[i];
		uint64_t off = r->r_rg.rg_head;
		struct ring ahead = r->r_rg;	/* a look past the limit */

		ahead.rg_tail = &off;
		ahead.rg_head = head_of(r);
		while (rec_next(&ahead, &h) > 0) {
			if (waits(en, &h)) {
				hrtime_t t = REC_TIME(&r->r_rg, off + h.size);

				stop = t < stop ? t : stop;
				break;
			}
			cpc_ring_consume(&ahead, &h);
		}
		r->r_rg.rg_head = off;
	}
	return stop;
}

/*
 * The ring whose next record is the oldest, before stop; -1 when none.
 * A damaged ring is reported and dropped.  A ring's next time is kept
 * until its tail moves: one record is taken at a time, from one ring.
 */
static int
oldest(cpc_t *cpc, struct cpc_lwpev *en, hrtime_t stop)
{
	struct perf_event_header h;
	hrtime_t best = stop;
	int i, rc, at = -1;

	for (i = 0; i < en->e_nring; i++) {
		struct ering *r = &en->e_ring[i];
		hrtime_t t;

		if ((rc = rec_next(&r->r_rg, &h)) == 0)
			continue;
		if (r->r_tnat == r->r_tail + 1) {
			t = r->r_tnext;		/* known from the last look */
		} else if (rc < 0) {
			report(cpc, "cpc_lwp_events", -1, "a ring of LWP event "
			    "reports is damaged (a record of %u bytes): the "
			    "rest of it is dropped", (unsigned)h.size);
			r->r_tail = r->r_rg.rg_head;
			continue;
		} else {
			t = REC_TIME(&r->r_rg, r->r_tail + h.size);
			r->r_tnext = t;
			r->r_tnat = r->r_tail + 1;
		}
		if (t < best) {
			best = t;
			at = i;
		}
	}
	return at;
}

/*
 * A record that finds no room is lost, and the kernel says how many in
 * a PERF_RECORD_LOST when the next record fits.  When a ring has no room
 * for its largest record now, some may have been lost since the last
 * walk that the kernel cannot say yet (or ever, if nothing more comes).
 */
static int
ring_full(const struct cpc_lwpev *en)
{
	int i;

	for (i = 0; i < en->e_nring; i++) {
		const struct ering *r = &en->e_ring[i];

		if (r->r_map != NULL && r->r_rg.rg_size -
		    (head_of(r) - r->r_tail) < r->r_maxrec)
			return 1;
	}
	return 0;
}

int
cpc_perf_lwp_events(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf,
    cpc_lwp_fn_t *fn, void *arg)
{
	struct perf_ctx *pc = perf_ctx(cx);
	struct cpc_lwpev *en = pc->pc_lwpev;
	struct walk w = { cpc, pc, buf, fn, arg, 0 };
	hrtime_t stop, tlast = 0;
	int i, at, halt = 0;

	if (en->e_done)
		return 0;
	if (ring_full(en)) {
		cpc_lwp_event_t ev = { .le_what = CPC_LWP_LOST,
		    .le_time = cpc_hrnow() };

		halt = emit(&w, &ev);
	}
	stop = walk_limits(en);
	while (!halt && !en->e_done && (at = oldest(cpc, en, stop)) >= 0) {
		struct ering *r = &en->e_ring[at];
		struct perf_event_header h = cpc_ring_header(&r->r_rg,
		    r->r_tail);

		halt = on_record(&w, &r->r_rg, &h);
		tlast = REC_TIME(&r->r_rg, r->r_tail + h.size);
		cpc_ring_consume(&r->r_rg, &h);
	}
	for (i = 0; i < en->e_nring; i++)
		if (en->e_ring[i].r_map != NULL)
			cpc_ring_read_done(&en->e_ring[i].r_rg);
	if (tlast != 0)
		pend_prune(en, tlast);
	if (en->e_done)
		cpc_perf_lwpev_cpus_close(en);
	return w.w_n;
}

int
cpc_perf_lwp_fd(struct cpc_ctx *cx)
{
	struct perf_ctx *pc = perf_ctx(cx);

	return pc->pc_lwpev != NULL ? pc->pc_lwpev->e_poll : -1;
}
