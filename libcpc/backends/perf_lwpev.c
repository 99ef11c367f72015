/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_lwpev.c - a set bound with CPC_BIND_LWP_EVENTS: the counting group
 * is inherited (perf.c), so the kernel copies it into every thread the
 * target creates, with no stop, and the copies' counts join the group's
 * when the threads end.  Here each thread's own counts are kept as well:
 *
 *	inherit_stat	when a copy ends, the kernel writes its values as a
 *			PERF_RECORD_READ, with the thread's pid, tid, time
 *	remove_on_exec	the events go at the next exec (Linux 5.13), their
 *			counts frozen there (the group read then finds the
 *			group taken apart: cpc_perf_lwpev_read)
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
 *				PERF_RECORD_COMM at an exec, a
 *				PERF_RECORD_EXIT for each thread's end (used
 *				by FORKS).  The kernel writes such side-band
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
 * CPC_BIND_LWP_FORKS: the counting events are copied into forked
 * processes as well (perf.c), and the CPUs' dummies are the whole CPUs'
 * only, every CPU online: a process's last thread is known to have ended
 * by its PERF_RECORD_EXIT, which the kernel writes to the whole CPU's
 * dummy after the thread's READ records (its own task's dummy would
 * have it first), and a copy on the target for a CPU offline now would
 * miss the processes forked on it.  Else ENOTSUP, and the caller stops
 * the processes instead.
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
 * Here the rings are opened and closed; perf_lwpev_walk.c reads them.
 */
#include "config.h"

#include <dirent.h>
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
#include "perf_impl.h"
#include "perf_lwpev.h"
#include "perf_ring.h"
#include "perf_lwpev_impl.h"

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

/*
 * Root's rings: the counters' 4 MiB in all, the CPUs' 4 MiB in all with
 * 512 KiB each at least (others: what perf_event_mlock_kb allows).
 */
#define LWPEV_ROOT_READS	(4UL << 20)
#define LWPEV_ROOT_CPUS	(4UL << 20)
#define CPU_ROOT_RING	(512UL << 10)
/* The largest record of a CPU's ring: FORK or COMM, with sample_id. */
#define CPU_MAXREC	56
/* CPU numbers looked for. */
#define CPU_IDS		8192

void
cpc_perf_lwpev_attr(struct perf_event_attr *a)
{
	a->inherit_stat = 1;
	a->remove_on_exec = 1;
	cpc_lwpev_common(a);
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
 * each, LWPEV_ROOT_READS for the counters; others: half their allowance
 * on a CPU each, and the rest of it for the counters.
 */
static void
ring_shares(int ncpu, size_t *cpu_share, size_t *read_share)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	size_t pg = cpc_ring_pagesz(), all, cpus;

	if (geteuid() == 0) {
		*cpu_share = LWPEV_ROOT_CPUS / (size_t)ncpu;
		if (*cpu_share < CPU_ROOT_RING + pg)
			*cpu_share = CPU_ROOT_RING + pg;
		*read_share = LWPEV_ROOT_READS;
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
	fd = cpc_perf_open(a, tid, cpu, -1);
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
	cpc_ring_init(&r->r_rg, r->r_map, data, &r->r_tail);
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
void
cpc_perf_lwpev_cpus_close(struct cpc_lwpev *en)
{
	int i;

	for (i = en->e_nread; i < en->e_nring; i++)
		ring_close(&en->e_ring[i]);
}

void
cpc_perf_lwpev_close(struct perf_ctx *pc)
{
	struct cpc_lwpev *en = pc->pc_lwpev;
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
	free(en->e_procs);
	free(en->e_ring);
	free(en->e_ids);
	free(en->e_rb);
	free(en);
	pc->pc_lwpev = NULL;
}

static struct cpc_lwpev *
lwpev_alloc(int nfds, int ncpu)
{
	struct cpc_lwpev *en;
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
open_reads(struct cpc_lwpev *en, struct perf_ctx *pc, pid_t tid,
    size_t share)
{
	struct perf_event_attr a;
	size_t data = ring_data(share / (size_t)en->e_nread);
	int i;

	cpc_lwpev_dummy_attr(&a);
	for (i = 0; i < en->e_nread; i++) {
		struct ering *r = &en->e_ring[i];

		if (ring_open(r, &a, tid, -1, data) != 0 ||
		    ioctl(pc->pc_fds[i], PERF_EVENT_IOC_SET_OUTPUT,
		    r->r_fd) != 0 ||
		    ioctl(pc->pc_fds[i], PERF_EVENT_IOC_ID, &en->e_ids[i]) !=
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
 * it creates (about 2 us a thread).  *sys: whether to try the first
 * (-1: that one only, FORKS).
 */
static int
open_cpu(struct ering *r, struct perf_event_attr *a, pid_t tid, int cpu,
    size_t data, int *sys)
{
	int e;

	if (*sys != 0) {
		a->inherit = a->inherit_thread = 0;
		if (ring_open(r, a, -1, cpu, data) == 0)
			return 0;
		e = errno;
		ring_close(r);
		errno = e;
		if (*sys < 0)
			return -1;	/* FORKS: the whole CPU's or none */
		if (e == EACCES || e == EPERM)
			*sys = 0;
	}
	a->inherit = a->inherit_thread = 1;
	return ring_open(r, a, tid, cpu, data);
}

/*
 * The CPUs' rings, of new threads, forks and the exec (FORKS: and
 * threads' exits).  0, or -1.
 */
static int
open_cpus(struct cpc_lwpev *en, const int *cpus, pid_t tid, size_t share)
{
	struct perf_event_attr a;
	int ncpu = en->e_nring - en->e_nread, k, sys = en->e_tree ? -1 : 1;
	size_t data = ring_data(share);

	cpc_lwpev_dummy_attr(&a);
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

/* FORKS: the target's process, counted with its threads now. */
static int
procs_init(struct cpc_lwpev *en)
{
	char path[48];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)en->e_pid);
	if ((dir = opendir(path)) != NULL) {
		while ((d = readdir(dir)) != NULL)
			n += d->d_name[0] != '.';
		closedir(dir);
	}
	if ((en->e_procs = malloc(4 * sizeof(*en->e_procs))) == NULL)
		return -1;
	en->e_pcap = 4;
	en->e_nproc = 1;
	en->e_procs[0].ep_pid = en->e_pid;
	en->e_procs[0].ep_nthr = n > 0 ? n : 1;
	return 0;
}

/* One descriptor to poll for them all. */
static int
open_poll(struct cpc_lwpev *en)
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

/* Why the bind of t cannot keep its threads' counts: why, and more. */
static void
lwpev_refused(cpc_t *cpc, const struct cpc_target *t, const char *why,
    const char *more)
{
	report(cpc, t->t_fn, -1, "cannot keep the counts of the threads of "
	    "thread %d as they end (CPC_BIND_LWP_EVENTS): %s%s", (int)t->t_tid,
	    why, more);
}

/* The rings, after the group: 0, or -1 reported. */
int
cpc_perf_lwpev_open(cpc_t *cpc, struct perf_ctx *pc,
    const struct cpc_target *t)
{
	struct cpc_lwpev *en = NULL;
	size_t cpu_share, read_share;
	int *cpus = NULL, ncpu, e;

	if ((e = cpc_perf_lwpev_probe()) <= 0) {
		e = e == 0 ? ENOTSUP : errno;
		lwpev_refused(cpc, t, e == ENOTSUP ? "this kernel does not "
		    "report an inherited counter's thread at its end (Linux "
		    "5.13 to 6.17 without the fix \"perf/core: Fix missing "
		    "read event generation on task exit\")" : strerror(e), "");
		errno = e;
		return -1;
	}
	if ((ncpu = cpu_ids(&cpus)) < 0 && cpus == NULL)
		return -1;
	if (ncpu < 0)
		goto fail;
	if ((en = lwpev_alloc(pc->pc_nfds, ncpu)) == NULL) {
		free(cpus);
		errno = ENOMEM;
		return -1;
	}
	pc->pc_lwpev = en;
	en->e_pid = tgid_of(t->t_tid);
	en->e_tree = pc->pc_cx.cx_lwpev == CPC_LWPEV_TREE;
	ring_shares(ncpu, &cpu_share, &read_share);
	if (open_reads(en, pc, t->t_tid, read_share) != 0 ||
	    (en->e_tree && procs_init(en) != 0))
		goto fail;
	if (open_cpus(en, cpus, t->t_tid, cpu_share) != 0) {
		if (!en->e_tree)
			goto fail;
		e = errno;
		free(cpus);
		lwpev_refused(cpc, t, "CPC_BIND_LWP_FORKS needs a record of "
		    "every process's end from every processor (root, "
		    "CAP_PERFMON or kernel.perf_event_paranoid 0 or less, and "
		    "every processor online): ", strerror(e));
		cpc_perf_lwpev_close(pc);
		errno = ENOTSUP;
		return -1;
	}
	if (open_poll(en) != 0)
		goto fail;
	free(cpus);
	return 0;
fail:
	e = errno;
	free(cpus);
	lwpev_refused(cpc, t, strerror(e), e == EPERM || e == ENOMEM ?
	    " (its rings are over kernel.perf_event_mlock_kb?)" : "");
	cpc_perf_lwpev_close(pc);
	errno = e == EPERM || e == ENOMEM ? EAGAIN : e;
	return -1;
}

/*
 * After an exec removed the events, each is its own group: read them
 * one by one into the group read's shape.
 */
int
cpc_perf_lwpev_read(struct perf_ctx *pc)
{
	uint64_t *rb = pc->pc_rdbuf, one[5];
	int i;

	for (i = 0; i < pc->pc_nfds; i++) {
		ssize_t n = read(pc->pc_fds[i], one, sizeof(one));

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
	rb[0] = (uint64_t)pc->pc_nfds;
	return 0;
}
