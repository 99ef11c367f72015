/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ends.c - a set bound with CPC_BIND_LWP_ENDS: the counting group
 * is inherited (perf.c), so the kernel copies it into every thread the
 * target creates, with no stop, and the copies' counts join the group's
 * when the threads end.  Here each thread's own counts are kept as well:
 *
 *	inherit_stat	when a copy ends, the kernel writes its values as a
 *			PERF_RECORD_READ, with the thread's pid, tid, time
 *	task		the leader's copies write a PERF_RECORD_FORK for
 *			each new thread or process (and an EXIT, unused)
 *	remove_on_exec	the events go at the next exec (Linux 5.13), their
 *			counts frozen there (the group read then finds the
 *			group taken apart: cpc_perf_ends_read)
 *
 * The kernel maps no ring for an inherited per-thread event, so the ring
 * is another event's, a dummy on the target alone, and the group writes
 * into it (PERF_EVENT_IOC_SET_OUTPUT).  Records are in the order written.
 * An exec by the target thread is the dummy's PERF_RECORD_COMM; the
 * thread that execs takes the process ID as its own (execve(2)), so an
 * exec by another thread is its READ record with a tid equal to the pid,
 * the removal of its events: the target thread never writes one, its
 * events being the group's own, not copies.  (A dummy inherited by every
 * thread for the FORK and COMM records would cost each new thread about
 * twice what the leader's records do.)
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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ends.h"
#include "perf_ring.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)
#endif

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

/*
 * Every record ends with pid and tid, the time, and the id of the event
 * that wrote it (sample_id_all): the ring's dummy writes FORK and EXIT
 * records of its own thread too, as any event with comm set does.
 */
#define ENDS_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_IDENTIFIER)
#define REC_TIME(rg, end)	((hrtime_t)ring_u64((rg), (end) - 16))
#define REC_ID(rg, end)		ring_u64((rg), (end) - 8)
/* A thread's records are all written within this (ns). */
#define PEND_STALE	100000000LL
/* The ring's data for root (others: what perf_event_mlock_kb allows). */
#define ENDS_ROOT_RING	(4UL << 20)

/* A thread whose READ records came in part: one per event comes. */
struct pend {
	pid_t		 p_pid;
	pid_t		 p_tid;
	int		 p_nhave;	/* events with a value */
	int		 p_nrec;	/* READ records */
	hrtime_t	 p_t0;		/* the first one's time */
	uint64_t	 p_ena;
	uint64_t	 p_run;
	uint64_t	*p_vals;	/* per event */
	unsigned char	*p_have;
};

struct cpc_ends {
	int		 e_ring;	/* the dummy that owns the ring */
	uint64_t	 e_ringid;	/* its id */
	void		*e_map;
	size_t		 e_maplen;
	uint64_t	 e_tail;
	uint64_t	*e_ids;		/* per event of the group: its id */
	uint64_t	*e_rb;		/* a group read's shape */
	struct pend	*e_pend;
	int		 e_npend;
	int		 e_cap;
	int		 e_done;	/* the exec was reported */
	hrtime_t	 e_tlast;	/* the latest record's time */
};

static void
ends_common(struct perf_event_attr *a)
{
	a->sample_type = ENDS_TYPE;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

void
cpc_perf_ends_attr(struct perf_event_attr *a, int leader)
{
	a->inherit_stat = 1;
	a->remove_on_exec = 1;
	a->task = leader;
	ends_common(a);
}

static void
dummy_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	ends_common(a);
}

static long
open_dummy(struct perf_event_attr *a, pid_t tid)
{
	return syscall(SYS_perf_event_open, a, tid, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
}

/* The ring's data size: CPC_ENDS_RING bytes if set (tests), else ours. */
static size_t
ring_data(void)
{
	size_t cap = geteuid() == 0 ? ENDS_ROOT_RING : cpc_ring_max_data();
	size_t d = cpc_ring_pagesz();
	const char *env = getenv("CPC_ENDS_RING");

	if (env != NULL && *env != '\0')
		cap = (size_t)strtoul(env, NULL, 0);
	while (d * 2 <= cap)
		d *= 2;
	return d;
}

void
cpc_perf_ends_close(cpc_set_t *set)
{
	struct cpc_ends *en = set->cs_endst;
	int i;

	if (en == NULL)
		return;
	if (en->e_map != NULL)
		munmap(en->e_map, en->e_maplen);
	if (en->e_ring >= 0)
		close(en->e_ring);
	for (i = 0; i < en->e_cap; i++) {
		free(en->e_pend[i].p_vals);
		free(en->e_pend[i].p_have);
	}
	free(en->e_pend);
	free(en->e_ids);
	free(en->e_rb);
	free(en);
	set->cs_endst = NULL;
}

/* The ring and its owner: 0, or -1 with errno. */
static int
open_ring(struct cpc_ends *en, pid_t tid)
{
	struct perf_event_attr a;
	size_t data = ring_data();
	long fd;

	dummy_attr(&a);
	/* The target thread's exec.  Wake a poller at a quarter full. */
	a.comm = 1;
	a.comm_exec = 1;
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(data / 4);
	if ((fd = open_dummy(&a, tid)) < 0)
		return -1;
	en->e_ring = (int)fd;
	en->e_maplen = cpc_ring_pagesz() + data;
	en->e_map = mmap(NULL, en->e_maplen, PROT_READ | PROT_WRITE,
	    MAP_SHARED, en->e_ring, 0);
	if (en->e_map == MAP_FAILED) {
		en->e_map = NULL;
		return -1;
	}
	return ioctl(en->e_ring, PERF_EVENT_IOC_ID, &en->e_ringid);
}

int
cpc_perf_ends_open(cpc_t *cpc, cpc_set_t *set, const struct cpc_target *t)
{
	struct cpc_ends *en;
	int i, e;

	if ((en = calloc(1, sizeof(*en))) == NULL ||
	    (en->e_ids = calloc(set->cs_nfds + 1, sizeof(uint64_t))) ==
	    NULL || (en->e_rb = calloc(3 + 2 * (size_t)set->cs_nfds,
	    sizeof(uint64_t))) == NULL) {
		if (en != NULL)
			free(en->e_ids);
		free(en);
		errno = ENOMEM;
		return -1;
	}
	en->e_ring = -1;
	set->cs_endst = en;
	if (open_ring(en, t->t_tid) != 0)
		goto fail;
	for (i = 0; i < set->cs_nfds; i++)
		if (ioctl(set->cs_fds[i], PERF_EVENT_IOC_SET_OUTPUT,
		    en->e_ring) != 0 ||
		    ioctl(set->cs_fds[i], PERF_EVENT_IOC_ID, &en->e_ids[i]) !=
		    0)
			goto fail;
	return 0;
fail:
	e = errno;
	report(cpc, t->t_fn, -1, "cannot keep the counts of the threads of "
	    "thread %d as they end (CPC_BIND_LWP_ENDS): %s%s", (int)t->t_tid,
	    strerror(e), e == EPERM || e == ENOMEM ? " (the ring of their "
	    "reports is over kernel.perf_event_mlock_kb?)" : "");
	cpc_perf_ends_close(set);
	errno = e == EPERM || e == ENOMEM ? EAGAIN : e;
	return -1;
}

/*
 * After an exec removed the events, each is its own group: read them
 * one by one into the group read's shape.
 */
int
cpc_perf_ends_read(cpc_set_t *set)
{
	uint64_t *rb = set->cs_rdbuf, one[5];
	int i;

	for (i = 0; i < set->cs_nfds; i++) {
		ssize_t n = read(set->cs_fds[i], one, sizeof(one));

		if (n < (ssize_t)(5 * sizeof(uint64_t)) || one[0] != 1) {
			errno = EIO;
			return -1;
		}
		if (i == 0) {
			rb[1] = one[1];
			rb[2] = one[2];
		}
		rb[3 + 2 * i] = one[3];
		rb[4 + 2 * i] = one[4];
	}
	rb[0] = (uint64_t)set->cs_nfds;
	return 0;
}

/* Done with p: the last takes its place (buffers swapped). */
static void
pend_drop(struct cpc_ends *en, struct pend *p)
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
pend_prune(struct cpc_ends *en, hrtime_t now)
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
pend_get(struct cpc_ends *en, int nfds, pid_t pid, pid_t tid, hrtime_t t)
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
	cpc_set_t	*w_set;
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
	cpc_set_t *set = w->w_set;
	struct cpc_ends *en = set->cs_endst;
	cpc_lwp_event_t ev = { .le_what = CPC_LWP_END, .le_pid = p->p_pid,
	    .le_tid = p->p_tid, .le_time = time };
	cpc_buf_t *b = w->w_buf;
	int i;

	en->e_rb[0] = (uint64_t)set->cs_nfds;
	en->e_rb[1] = p->p_ena;
	en->e_rb[2] = p->p_run;
	for (i = 0; i < set->cs_nfds; i++) {
		en->e_rb[3 + 2 * i] = p->p_vals[i];
		en->e_rb[4 + 2 * i] = en->e_ids[i];
	}
	cpc_perf_values(set, en->e_rb, NULL, b->cb_vals, &b->cb_scaled);
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
	cpc_set_t *set = w->w_set;
	struct cpc_ends *en = set->cs_endst;
	uint64_t pt = ring_u64(rg, off), nr = ring_u64(rg, off + 8), k;
	hrtime_t time = REC_TIME(rg, end);
	struct pend *p;
	int i, had, rc = 0;

	p = pend_get(en, set->cs_nfds, (pid_t)u32_first(pt),
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

		for (i = 0; i < set->cs_nfds; i++)
			if (en->e_ids[i] == id && !p->p_have[i]) {
				p->p_have[i] = 1;
				p->p_vals[i] = v;
				p->p_nhave++;
			}
	}
	if (had < set->cs_nfds && p->p_nhave == set->cs_nfds) {
		rc = emit_end(w, p, time);
		/* Another thread's exec: it took the pid (see above). */
		if (p->p_tid == p->p_pid && !rc) {
			cpc_lwp_event_t ev = { .le_what = CPC_LWP_EXEC,
			    .le_pid = p->p_pid, .le_tid = p->p_tid,
			    .le_time = time };
			char path[40];

			/* No COMM record: the name, if it is still there. */
			snprintf(path, sizeof(path), "/proc/%d/comm",
			    (int)p->p_pid);
			if (cpc_read_small(path, ev.le_comm,
			    sizeof(ev.le_comm)) != 0)
				ev.le_comm[0] = '\0';
			en->e_done = 1;
			rc = emit(w, &ev);
		}
	}
	if (p->p_nrec >= set->cs_nfds)
		pend_drop(en, p);
	return rc;
}

/* The record at the ring's tail, header h: fn's return, or 0. */
static int
on_record(struct walk *w, const struct ring *rg,
    const struct perf_event_header *h)
{
	uint64_t off = *rg->rg_tail + sizeof(*h), end = *rg->rg_tail + h->size;
	cpc_lwp_event_t ev = { 0 };
	uint64_t a, b;

	switch (h->type) {
	case PERF_RECORD_READ:
		return on_read(w, rg, off, end);
	case PERF_RECORD_FORK:
		if (REC_ID(rg, end) == w->w_set->cs_endst->e_ringid)
			return 0;	/* the group's leader wrote it too */
		a = ring_u64(rg, off);		/* pid, ppid */
		b = ring_u64(rg, off + 8);	/* tid, ptid */
		ev.le_time = (hrtime_t)ring_u64(rg, off + 16);
		if (u32_first(a) == u32_second(a)) {
			ev.le_what = CPC_LWP_CREATE;
			ev.le_pid = (pid_t)u32_first(a);
			ev.le_tid = (pid_t)u32_first(b);
		} else {
			ev.le_what = CPC_LWP_FORK;
			ev.le_pid = (pid_t)u32_second(a);
			ev.le_tid = (pid_t)u32_second(b);
			ev.le_child = (pid_t)u32_first(a);
		}
		return emit(w, &ev);
	case PERF_RECORD_COMM:
		if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC) ||
		    REC_ID(rg, end) != w->w_set->cs_endst->e_ringid)
			return 0;
		a = ring_u64(rg, off);
		ev.le_what = CPC_LWP_EXEC;
		ev.le_pid = (pid_t)u32_first(a);
		ev.le_tid = (pid_t)u32_second(a);
		/* The name: 16 bytes at most, NUL-padded to 8. */
		for (b = 0; b < 2 && off + 16 + 8 * b <= end - 24; b++) {
			uint64_t w8 = ring_u64(rg, off + 8 + 8 * b);

			memcpy(ev.le_comm + 8 * b, &w8, 8);
		}
		ev.le_time = REC_TIME(rg, end);
		w->w_set->cs_endst->e_done = 1;
		return emit(w, &ev);
	case PERF_RECORD_LOST:
		ev.le_what = CPC_LWP_LOST;
		ev.le_lost = ring_u64(rg, off + 8);
		ev.le_time = REC_TIME(rg, end);
		return emit(w, &ev);
	default:
		return 0;	/* PERF_RECORD_EXIT: the READ says more */
	}
}

int
cpc_perf_lwp_events(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf,
    cpc_lwp_fn_t *fn, void *arg)
{
	struct cpc_ends *en = set->cs_endst;
	struct perf_event_mmap_page *mp = en->e_map;
	struct walk w = { cpc, set, buf, fn, arg, 0 };
	struct perf_event_header h;
	struct ring rg;
	int stop = 0;

	rg.rg_data = (const char *)mp + cpc_ring_pagesz();
	rg.rg_size = en->e_maplen - cpc_ring_pagesz();
	rg.rg_head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	rg.rg_tail = &en->e_tail;
	/*
	 * A record that finds no room is lost, and the kernel says how many
	 * in a PERF_RECORD_LOST when the next record fits.  When the ring
	 * has no room for the largest record now, some may have been lost
	 * since the last walk that the kernel cannot say yet (or ever, if
	 * nothing more comes): reported, as a number unknown.
	 */
	if (rg.rg_size - (rg.rg_head - en->e_tail) <
	    56 + 16 * (uint64_t)set->cs_nfds && !en->e_done) {
		cpc_lwp_event_t ev = { .le_what = CPC_LWP_LOST,
		    .le_time = cpc_hrnow() };

		stop = emit(&w, &ev);
	}
	while (!stop && !en->e_done && en->e_tail + sizeof(h) <= rg.rg_head) {
		uint64_t word = ring_u64(&rg, en->e_tail);

		memcpy(&h, &word, sizeof(h));
		if (h.size < sizeof(h) + 24 || en->e_tail + h.size >
		    rg.rg_head) {
			report(cpc, "cpc_lwp_events", -1, "the ring of thread "
			    "reports is damaged (a record of %u bytes): the "
			    "rest of it is dropped", (unsigned)h.size);
			en->e_tail = rg.rg_head;
			break;
		}
		stop = on_record(&w, &rg, &h);
		en->e_tlast = REC_TIME(&rg, en->e_tail + h.size);
		en->e_tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, en->e_tail, __ATOMIC_RELEASE);
	pend_prune(en, en->e_tlast);
	return w.w_n;
}

int
cpc_perf_lwp_fd(cpc_set_t *set)
{
	return set->cs_endst != NULL ? set->cs_endst->e_ring : -1;
}
