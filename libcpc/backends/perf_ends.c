/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ends.c - a set bound with CPC_BIND_LWP_ENDS: the counting group
 * is inherited (perf.c), so the kernel copies it into every thread the
 * target creates, with no stop, and the copies' counts join the group's
 * when the threads end.  Here each thread's own counts are kept as well:
 *
 *	inherit_stat	when a copy ends, the kernel writes its values as a
 *			PERF_RECORD_READ, with the thread's pid, tid, time
 *	remove_on_exec	the events go at the next exec (Linux 5.13), their
 *			counts frozen there (the group read then finds the
 *			group taken apart: cpc_perf_ends_read)
 *
 * The rings.  A perf ring takes one writer at a time: its head and its
 * count of nested writers are CPU-local (local_t), so two CPUs writing
 * into one ring at once lose records, or write one over the other, and
 * nothing says so (one ring for every record lost some or all of 200
 * threads' ends in one run of ten here).  The kernel maps no ring for an
 * inherited per-thread event for that reason.  So each ring here has
 * writers that never write at once:
 *
 *	one per counting event	the READ records of its copies, which the
 *				kernel writes holding that event's
 *				child_mutex; the ring is a dummy's on the
 *				target, which writes nothing itself, and the
 *				event writes into it (IOC_SET_OUTPUT)
 *	one per CPU		a dummy with task and comm: a PERF_RECORD_FORK
 *				for each new thread or process, a
 *				PERF_RECORD_COMM at an exec (and an EXIT,
 *				unused).  The kernel writes such side-band
 *				records from the event's own CPU only, with
 *				preemption off (as perf record's).  Where the
 *				caller may, the dummy is the whole CPU's, and
 *				other processes' records are left out; else
 *				it is the target's for that CPU, copied into
 *				the threads it creates (not into forked
 *				processes), at about 2 us a thread.  Every
 *				CPU present has one: a thread may run on one
 *				brought online later (which a whole CPU's
 *				dummy cannot be opened for before).
 *
 * A thread that execs takes the process ID as its own (execve(2)), so an
 * exec by a thread other than the target is its READ records with a tid
 * equal to the pid, the removal of its events (the target never writes
 * one: its events are the group's own, not copies), before the COMM.
 *
 * The silent dummies keep the target's events from moving to another
 * thread: the kernel marks a new thread's context a clone of its
 * creator's only when every event was copied, and swaps clones' contexts
 * at a switch between their threads; a thread holding the target's own
 * events when it ended would write no READ record.
 *
 * Records come in time order within a ring and are merged by time.  What
 * one walk takes is consistent: the READ rings' heads are loaded between
 * two loads of the CPU rings' heads, so a thread's end comes with its
 * creation (its FORK was written before it ran), and an exec's COMM seen
 * at the first load comes with the READ records written before it; a
 * COMM seen only at the second waits, and so does everything after it.
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
#include <sys/epoll.h>
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
 * that wrote it (sample_id_all).
 */
#define ENDS_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_IDENTIFIER)
#define REC_TIME(rg, end)	((hrtime_t)ring_u64((rg), (end) - 16))
/* A thread's records are all written within this (ns). */
#define PEND_STALE	100000000LL
/*
 * Root's rings: the counters' 4 MiB in all, the CPUs' 4 MiB in all with
 * 512 KiB each at least (others: what perf_event_mlock_kb allows).
 */
#define ENDS_ROOT_READS	(4UL << 20)
#define ENDS_ROOT_CPUS	(4UL << 20)
#define CPU_ROOT_RING	(512UL << 10)
/* The largest record of a CPU's ring: FORK or COMM, with sample_id. */
#define CPU_MAXREC	56
/* CPU numbers looked for. */
#define CPU_IDS		8192

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

/* One ring and the dummy that owns it. */
struct ering {
	int		 r_fd;
	void		*r_map;
	size_t		 r_maplen;
	uint64_t	 r_tail;
	uint64_t	 r_lim;		/* the walk's end of it */
	uint64_t	 r_maxrec;	/* its largest record */
	struct ring	 r_rg;
};

struct cpc_ends {
	struct ering	*e_ring;	/* e_nread READ rings, then the CPUs' */
	int		 e_nread;
	int		 e_nring;
	int		 e_poll;	/* epoll: every ring */
	pid_t		 e_pid;		/* the target's process */
	uint64_t	*e_ids;		/* per event of the group: its id */
	uint64_t	*e_rb;		/* a group read's shape */
	struct pend	*e_pend;
	int		 e_npend;
	int		 e_cap;
	int		 e_done;	/* the exec was reported */
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
cpc_perf_ends_attr(struct perf_event_attr *a)
{
	a->inherit_stat = 1;
	a->remove_on_exec = 1;
	ends_common(a);
}

static void
dummy_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	/* What it counts: nothing; so nothing of the kernel's (paranoid 2). */
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->watermark = 1;
	ends_common(a);
}

/*
 * The data of a ring with share bytes of the budget (its control page
 * included), or CPC_ENDS_RING bytes if set (tests): a power of two of
 * pages, one at least.
 */
static size_t
ring_data(size_t share)
{
	size_t pg = cpc_ring_pagesz(), d = pg;
	const char *env = getenv("CPC_ENDS_RING");

	if (env != NULL && *env != '\0')
		share = (size_t)strtoul(env, NULL, 0) + pg;
	while (d * 2 + pg <= share)
		d *= 2;
	return d;
}

/* The kernel's allowance of ring memory to a user on each online CPU. */
static size_t
mlock_per_cpu(void)
{
	return (size_t)cpc_sysctl_long("/proc/sys/kernel/perf_event_mlock_kb",
	    516) * 1024;
}

/*
 * The shares of ring memory (each with its control page): a CPU's ring
 * one, the counters' rings all, together.  Root: CPU_ROOT_RING or more
 * each, ENDS_ROOT_READS for the counters; others: half their allowance
 * on a CPU each, and the rest of it for the counters.
 */
static void
ring_shares(int ncpu, size_t *cpu_share, size_t *read_share)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	size_t pg = cpc_ring_pagesz(), all, cpus;

	if (geteuid() == 0) {
		*cpu_share = ENDS_ROOT_CPUS / (size_t)ncpu;
		if (*cpu_share < CPU_ROOT_RING + pg)
			*cpu_share = CPU_ROOT_RING + pg;
		*read_share = ENDS_ROOT_READS;
		return;
	}
	all = mlock_per_cpu() * (size_t)(online > 0 ? online : 1);
	*cpu_share = mlock_per_cpu() / 2 + pg;
	cpus = (size_t)ncpu * (ring_data(*cpu_share) + pg);
	*read_share = all > cpus ? all - cpus : 0;
}

/* The CPUs there are, online or not, into *ids: their number, or -1. */
static int
cpu_ids(int **ids)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, k = 0;

	if (n < 1)
		n = 1;
	if ((*ids = calloc((size_t)n, sizeof(int))) == NULL)
		return -1;
	for (cpu = 0; k < n && cpu < CPU_IDS; cpu++)
		if (cpc_cpu_state(cpu) >= 0)
			(*ids)[k++] = cpu;
	if (k == 0)
		errno = ENOENT;
	return k > 0 ? k : -1;
}

/* A dummy with attributes a on tid and cpu, and its ring: 0, or -1. */
static int
ring_open(struct ering *r, struct perf_event_attr *a, pid_t tid, int cpu,
    size_t data)
{
	long fd;

	a->wakeup_watermark = (uint32_t)(data / 4);
	fd = syscall(SYS_perf_event_open, a, tid, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	r->r_fd = (int)fd;
	r->r_maplen = cpc_ring_pagesz() + data;
	r->r_map = mmap(NULL, r->r_maplen, PROT_READ | PROT_WRITE,
	    MAP_SHARED, r->r_fd, 0);
	if (r->r_map == MAP_FAILED) {
		r->r_map = NULL;
		return -1;
	}
	r->r_rg.rg_data = (const char *)r->r_map + cpc_ring_pagesz();
	r->r_rg.rg_size = data;
	r->r_rg.rg_tail = &r->r_tail;
	return 0;
}

static void
ring_close(struct ering *r)
{
	if (r->r_map != NULL)
		munmap(r->r_map, r->r_maplen);
	if (r->r_fd >= 0)
		close(r->r_fd);
	r->r_map = NULL;
	r->r_fd = -1;
}

/* The rings of the CPUs, done with at the exec: their copies go too. */
static void
cpu_rings_close(struct cpc_ends *en)
{
	int i;

	for (i = en->e_nread; i < en->e_nring; i++)
		ring_close(&en->e_ring[i]);
}

void
cpc_perf_ends_close(cpc_set_t *set)
{
	struct cpc_ends *en = set->cs_endst;
	int i;

	if (en == NULL)
		return;
	for (i = 0; en->e_ring != NULL && i < en->e_nring; i++)
		ring_close(&en->e_ring[i]);
	if (en->e_poll >= 0)
		close(en->e_poll);
	for (i = 0; i < en->e_cap; i++) {
		free(en->e_pend[i].p_vals);
		free(en->e_pend[i].p_have);
	}
	free(en->e_pend);
	free(en->e_ring);
	free(en->e_ids);
	free(en->e_rb);
	free(en);
	set->cs_endst = NULL;
}

static struct cpc_ends *
ends_alloc(int nfds, int ncpu)
{
	struct cpc_ends *en;
	int i;

	if ((en = calloc(1, sizeof(*en))) == NULL)
		return NULL;
	en->e_poll = -1;
	en->e_nread = nfds;
	en->e_nring = nfds + ncpu;
	if ((en->e_ring = calloc((size_t)en->e_nring, sizeof(*en->e_ring))) ==
	    NULL || (en->e_ids = calloc((size_t)nfds, sizeof(uint64_t))) ==
	    NULL || (en->e_rb = calloc(3 + 2 * (size_t)nfds,
	    sizeof(uint64_t))) == NULL) {
		free(en->e_ring);
		free(en->e_ids);
		free(en);
		return NULL;
	}
	for (i = 0; i < en->e_nring; i++)
		en->e_ring[i].r_fd = -1;
	return en;
}

/* The events' rings: each writes into its own.  0, or -1. */
static int
open_reads(struct cpc_ends *en, cpc_set_t *set, pid_t tid, size_t share)
{
	struct perf_event_attr a;
	size_t data = ring_data(share / (size_t)en->e_nread);
	int i;

	dummy_attr(&a);
	for (i = 0; i < en->e_nread; i++) {
		struct ering *r = &en->e_ring[i];

		if (ring_open(r, &a, tid, -1, data) != 0 ||
		    ioctl(set->cs_fds[i], PERF_EVENT_IOC_SET_OUTPUT,
		    r->r_fd) != 0 ||
		    ioctl(set->cs_fds[i], PERF_EVENT_IOC_ID, &en->e_ids[i]) !=
		    0)
			return -1;
		r->r_maxrec = 64 + 16 * (uint64_t)en->e_nread;
	}
	return 0;
}

/*
 * The ring of cpu: a dummy of the whole CPU where the caller may (root,
 * CAP_PERFMON, or perf_event_paranoid -1 or 0), which costs the target's
 * threads nothing, its records of other processes left out (on_record);
 * else, or on a CPU offline now, the target's, copied into each thread
 * it creates (about 2 us a thread).  *sys: whether to try the first.
 */
static int
open_cpu(struct ering *r, struct perf_event_attr *a, pid_t tid, int cpu,
    size_t data, int *sys)
{
	if (*sys) {
		a->inherit = a->inherit_thread = 0;
		if (ring_open(r, a, -1, cpu, data) == 0)
			return 0;
		if (errno == EACCES || errno == EPERM)
			*sys = 0;
		ring_close(r);
	}
	a->inherit = a->inherit_thread = 1;
	return ring_open(r, a, tid, cpu, data);
}

/* The CPUs' rings, of new threads, forks and the exec.  0, or -1. */
static int
open_cpus(struct cpc_ends *en, const int *cpus, pid_t tid, size_t share)
{
	struct perf_event_attr a;
	int ncpu = en->e_nring - en->e_nread, k, sys = 1;
	size_t data = ring_data(share);

	dummy_attr(&a);
	a.task = 1;
	a.comm = 1;
	a.comm_exec = 1;
	for (k = 0; k < ncpu; k++) {
		struct ering *r = &en->e_ring[en->e_nread + k];

		if (open_cpu(r, &a, tid, cpus[k], data, &sys) != 0)
			return -1;
		r->r_maxrec = CPU_MAXREC;
	}
	return 0;
}

/* The process of thread tid (its Tgid), or tid if it cannot be read. */
static pid_t
tgid_of(pid_t tid)
{
	char path[48], line[96];
	pid_t pid = tid;
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((f = fopen(path, "re")) == NULL)
		return tid;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Tgid: %d", &v) == 1) {
			pid = (pid_t)v;
			break;
		}
	fclose(f);
	return pid;
}

/* One descriptor to poll for them all. */
static int
open_poll(struct cpc_ends *en)
{
	int i;

	if ((en->e_poll = epoll_create1(EPOLL_CLOEXEC)) < 0)
		return -1;
	for (i = 0; i < en->e_nring; i++) {
		struct epoll_event ev = { .events = EPOLLIN,
		    .data.u32 = (uint32_t)i };

		if (epoll_ctl(en->e_poll, EPOLL_CTL_ADD, en->e_ring[i].r_fd,
		    &ev) != 0)
			return -1;
	}
	return 0;
}

/* The rings, after the group: 0, or -1 reported. */
int
cpc_perf_ends_open(cpc_t *cpc, cpc_set_t *set, const struct cpc_target *t)
{
	struct cpc_ends *en = NULL;
	size_t cpu_share, read_share;
	int *cpus = NULL, ncpu, e;

	if ((e = cpc_perf_ends_probe()) <= 0) {
		e = e == 0 ? ENOTSUP : errno;
		report(cpc, t->t_fn, -1, "cannot keep the counts of the threads "
		    "of thread %d as they end (CPC_BIND_LWP_ENDS): %s", (int)
		    t->t_tid, e == ENOTSUP ? "this kernel does not report an "
		    "inherited counter's thread at its end (Linux 5.13 to 6.17 "
		    "without the fix \"perf/core: Fix missing read event "
		    "generation on task exit\")" : strerror(e));
		errno = e;
		return -1;
	}
	if ((ncpu = cpu_ids(&cpus)) < 0 && cpus == NULL)
		return -1;
	if (ncpu < 0)
		goto fail;
	if ((en = ends_alloc(set->cs_nfds, ncpu)) == NULL) {
		free(cpus);
		errno = ENOMEM;
		return -1;
	}
	set->cs_endst = en;
	en->e_pid = tgid_of(t->t_tid);
	ring_shares(ncpu, &cpu_share, &read_share);
	if (open_reads(en, set, t->t_tid, read_share) != 0 ||
	    open_cpus(en, cpus, t->t_tid, cpu_share) != 0 ||
	    open_poll(en) != 0)
		goto fail;
	free(cpus);
	return 0;
fail:
	e = errno;
	free(cpus);
	report(cpc, t->t_fn, -1, "cannot keep the counts of the threads of "
	    "thread %d as they end (CPC_BIND_LWP_ENDS): %s%s", (int)t->t_tid,
	    strerror(e), e == EPERM || e == ENOMEM ? " (its rings are over "
	    "kernel.perf_event_mlock_kb?)" : "");
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
		/*
		 * With a tid equal to the pid, another thread's exec (see
		 * above): its COMM, from its copy of a CPU's dummy, follows.
		 */
		rc = emit_end(w, p, time);
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
	pid_t pid = w->w_set->cs_endst->e_pid;
	uint64_t a, b;

	switch (h->type) {
	case PERF_RECORD_READ:
		return on_read(w, rg, off, end);
	case PERF_RECORD_FORK:
		a = ring_u64(rg, off);		/* pid, ppid */
		b = ring_u64(rg, off + 8);	/* tid, ptid */
		if ((pid_t)u32_second(a) != pid)
			return 0;		/* another process's */
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
		if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;	/* a thread named itself */
		a = ring_u64(rg, off);
		if ((pid_t)u32_first(a) != pid)
			return 0;
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

static uint64_t
head_of(const struct ering *r)
{
	const struct perf_event_mmap_page *mp = r->r_map;

	return r->r_map == NULL ? r->r_tail :
	    __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
}

/* The header of the record at off in r. */
static struct perf_event_header
header_at(const struct ering *r, uint64_t off)
{
	struct perf_event_header h;
	uint64_t word = ring_u64(&r->r_rg, off);

	memcpy(&h, &word, sizeof(h));
	return h;
}

/* Whether the record at off in r, before lim, is one to read. */
static int
rec_ok(const struct ering *r, uint64_t off, uint64_t lim)
{
	struct perf_event_header h = header_at(r, off);

	return h.size >= sizeof(h) + 24 && off + h.size <= lim;
}

/*
 * How far this walk reads each ring (see the top): the READ rings to
 * their heads, loaded between two loads of the CPU rings' heads, which
 * are read to the second but for an exec's COMM seen only then.  The
 * time of the first such COMM, or INT64_MAX: nothing later is read.
 */
static hrtime_t
walk_limits(struct cpc_ends *en)
{
	hrtime_t stop = INT64_MAX;
	int i;

	for (i = en->e_nread; i < en->e_nring; i++)
		en->e_ring[i].r_lim = head_of(&en->e_ring[i]);
	for (i = 0; i < en->e_nread; i++)
		en->e_ring[i].r_lim = head_of(&en->e_ring[i]);
	for (i = en->e_nread; i < en->e_nring; i++) {
		struct ering *r = &en->e_ring[i];
		uint64_t off = r->r_lim, head = head_of(r);

		while (off + 8 <= head && rec_ok(r, off, head)) {
			struct perf_event_header h = header_at(r, off);

			if (h.type == PERF_RECORD_COMM &&
			    (h.misc & PERF_RECORD_MISC_COMM_EXEC)) {
				hrtime_t t = REC_TIME(&r->r_rg, off + h.size);

				stop = t < stop ? t : stop;
				break;
			}
			off += h.size;
		}
		r->r_lim = off;
	}
	return stop;
}

/*
 * The ring whose next record is the oldest, before stop; -1 when none.
 * A damaged ring is reported and dropped.
 */
static int
oldest(cpc_t *cpc, struct cpc_ends *en, hrtime_t stop)
{
	hrtime_t best = stop;
	int i, at = -1;

	for (i = 0; i < en->e_nring; i++) {
		struct ering *r = &en->e_ring[i];
		hrtime_t t;

		if (r->r_tail + 8 > r->r_lim)
			continue;
		if (!rec_ok(r, r->r_tail, r->r_lim)) {
			report(cpc, "cpc_lwp_events", -1, "a ring of thread "
			    "reports is damaged (a record of %u bytes): the "
			    "rest of it is dropped",
			    (unsigned)header_at(r, r->r_tail).size);
			r->r_tail = r->r_lim;
			continue;
		}
		t = REC_TIME(&r->r_rg, r->r_tail + header_at(r, r->r_tail).size);
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
ring_full(const struct cpc_ends *en)
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
cpc_perf_lwp_events(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf,
    cpc_lwp_fn_t *fn, void *arg)
{
	struct cpc_ends *en = set->cs_endst;
	struct walk w = { cpc, set, buf, fn, arg, 0 };
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
		struct perf_event_header h = header_at(r, r->r_tail);

		halt = on_record(&w, &r->r_rg, &h);
		tlast = REC_TIME(&r->r_rg, r->r_tail + h.size);
		r->r_tail += h.size;
	}
	for (i = 0; i < en->e_nring; i++)
		if (en->e_ring[i].r_map != NULL)
			__atomic_store_n(&((struct perf_event_mmap_page *)
			    en->e_ring[i].r_map)->data_tail,
			    en->e_ring[i].r_tail, __ATOMIC_RELEASE);
	if (tlast != 0)
		pend_prune(en, tlast);
	if (en->e_done)
		cpu_rings_close(en);
	return w.w_n;
}

int
cpc_perf_lwp_fd(cpc_set_t *set)
{
	return set->cs_endst != NULL ? set->cs_endst->e_poll : -1;
}
