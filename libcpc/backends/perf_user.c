/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_user.c - cpc_set_sample without a system call: hardware counters
 * read in user space through each event's first mmap page
 * (struct perf_event_mmap_page), as perf_event_open(2) documents.
 *
 * Only where the answer is the one read(2) would give:
 *   - the set is bound with cpc_bind_curlwp, without inherit (the page
 *     holds the thread's own count, not its children's) and without
 *     overflows (a refresh stops the group behind the page's back), and
 *     the sample is taken by that thread (the counter is on its CPU);
 *   - every request is a hardware event (the page of a software event or
 *     a tracepoint never has a counter index);
 *   - at the read, every page says cap_user_rdpmc with a counter index
 *     (the group is on the PMU now) and the group was not time-shared
 *     since the bind (time_enabled - time_running unchanged: the count
 *     needs no scaling).
 * Anything else reads with read(2), as before.
 *
 * Each page is read under its seqlock: lock, then index, offset, the
 * counter (index - 1) sign-extended from pmc_width bits, then lock again;
 * a changed lock (the kernel updated the page: an interrupt, a context
 * switch) reads again.  The count is offset + counter.
 *
 * x86: the rdpmc instruction, allowed when the event is mapped and
 * /sys/devices/cpu/rdpmc is 1 (the default).  arm64 (Linux 5.17 on): the
 * kernel lets EL0 read PMEVCNTR<n>_EL0 and PMCCNTR_EL0 (index 32: the
 * cycle counter) only for thread-bound events opened with attr.config1
 * bit 1, and only while the sysctl kernel.perf_user_access is 1; bit 1
 * costs nothing where the sysctl is 0 (the page's index stays 0).
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include "perf_user.h"

unsigned long	cpc_perf_user_nreads;
int		cpc_perf_user_off;

struct pu_state {
	const void	*pu_owner;	/* &pu_me of the bound thread */
	unsigned long	 pu_forks;	/* pu_forks when mapped */
	int		 pu_live;	/* started, not stopped */
	int		 pu_n;
	volatile struct perf_event_mmap_page *pu_pg[];
};

/* Its address tells one thread from another. */
static __thread char pu_me;

/*
 * A forked child has the forking thread's TLS at the same address, but
 * not the pages (the kernel never copies a perf mapping) nor the events:
 * a child's count of forks tells it so.
 */
static unsigned long pu_forks;
static pthread_once_t pu_once = PTHREAD_ONCE_INIT;

static void
pu_forked(void)
{
	pu_forks++;
}

static void
pu_init(void)
{
	(void)pthread_atfork(NULL, NULL, pu_forked);
}

#define barrier()	__asm__ __volatile__("" ::: "memory")

#if defined(__x86_64__) || defined(__i386__)
#define PU_ARCH	1

static inline uint64_t
pu_counter(uint32_t c)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(c));
	return lo | (uint64_t)hi << 32;
}
#elif defined(__aarch64__)
#define PU_ARCH	1

/* The counter number is part of the instruction. */
#define EVCNTR(n)	case n: \
	__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break

static inline uint64_t
pu_counter(uint32_t c)
{
	uint64_t v = 0;

	switch (c) {
	EVCNTR(0); EVCNTR(1); EVCNTR(2); EVCNTR(3); EVCNTR(4);
	EVCNTR(5); EVCNTR(6); EVCNTR(7); EVCNTR(8); EVCNTR(9);
	EVCNTR(10); EVCNTR(11); EVCNTR(12); EVCNTR(13); EVCNTR(14);
	EVCNTR(15); EVCNTR(16); EVCNTR(17); EVCNTR(18); EVCNTR(19);
	EVCNTR(20); EVCNTR(21); EVCNTR(22); EVCNTR(23); EVCNTR(24);
	EVCNTR(25); EVCNTR(26); EVCNTR(27); EVCNTR(28); EVCNTR(29);
	EVCNTR(30);
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}
#else
#define PU_ARCH	0
#endif

static int
hw_type(uint32_t type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ||
	    type == PERF_TYPE_RAW;
}

/* Could this context be read in user space at all? */
static int
qualifies(const struct perf_ctx *pc)
{
	const struct cpc_ctx *cx = &pc->pc_cx;
	int i;

	if (!PU_ARCH || cpc_perf_user_off || cx->cx_kind != CPC_BIND_CURLWP ||
	    cx->cx_inherit)
		return 0;
	for (i = 0; i < cx->cx_nreqs; i++) {
		const struct cpc_request *r = &cx->cx_set->cs_reqs[i];

		if (cx->cx_rq[i].cq_ovf || !hw_type(r->cr_ev.ev_type) ||
		    (r->cr_ev.ev_derived && !hw_type(r->cr_ev.ev_sub.en_type)) ||
		    (r->cr_flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) == 0)
			return 0;
	}
	return 1;
}

void
cpc_perf_user_attr(const struct perf_ctx *pc, const struct cpc_request *r,
    struct perf_event_attr *a)
{
	(void)r;
#if defined(__aarch64__)
	/* The armv8 PMU's "rdpmc" format bit: user access, 32-bit. */
	if (qualifies(pc) && hw_type(a->type))
		a->config1 |= 2;
#else
	(void)pc;
	(void)a;
#endif
}

void
cpc_perf_user_map(struct perf_ctx *pc)
{
	struct pu_state *st;
	long pg = sysconf(_SC_PAGESIZE);
	int i;

	cpc_perf_user_unmap(pc);
	if (!qualifies(pc) || pc->pc_nfds <= 0 || pg <= 0)
		return;
	(void)pthread_once(&pu_once, pu_init);
	st = calloc(1, sizeof(*st) + pc->pc_nfds * sizeof(st->pu_pg[0]));
	if (st == NULL)
		return;
	for (i = 0; i < pc->pc_nfds; i++) {
		void *p = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED,
		    pc->pc_fds[i], 0);

		if (p == MAP_FAILED)
			break;
		st->pu_pg[st->pu_n++] = p;
	}
	st->pu_owner = &pu_me;
	st->pu_forks = pu_forks;
	pc->pc_user = st;
	if (st->pu_n < pc->pc_nfds)
		cpc_perf_user_unmap(pc);
}

void
cpc_perf_user_unmap(struct perf_ctx *pc)
{
	struct pu_state *st = pc->pc_user;
	long pg = sysconf(_SC_PAGESIZE);
	int i;

	if (st == NULL)
		return;
	/* In a forked child the pages are not there to unmap. */
	for (i = 0; i < st->pu_n && st->pu_forks == pu_forks; i++)
		munmap((void *)st->pu_pg[i], (size_t)pg);
	free(st);
	pc->pc_user = NULL;
}

void
cpc_perf_user_live(struct perf_ctx *pc, int on)
{
	struct pu_state *st = pc->pc_user;

	if (st != NULL)
		st->pu_live = on;
}

#if PU_ARCH
/* One page under its seqlock: 0 and the count, or -1. */
static int
pu_count(volatile struct perf_event_mmap_page *pg, uint64_t *count,
    uint64_t *idle)
{
	uint32_t seq, idx;
	uint64_t off, pmc, ena, run;
	unsigned width;

	do {
		seq = pg->lock;
		barrier();
		idx = pg->index;
		off = pg->offset;
		ena = pg->time_enabled;
		run = pg->time_running;
		width = pg->pmc_width;
		if (!pg->cap_user_rdpmc || idx == 0 || width == 0 ||
		    width > 64)
			return -1;
		pmc = pu_counter(idx - 1);
		barrier();
	} while (pg->lock != seq);
	if (width < 64)
		pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >>
		    (64 - width));
	*count = off + pmc;
	*idle = ena - run;
	return 0;
}
#endif

int
cpc_perf_user_read(struct perf_ctx *pc)
{
#if PU_ARCH
	struct pu_state *st = pc->pc_user;
	uint64_t *rb = pc->pc_rdbuf, idle, v;
	int i;

	if (st == NULL || !st->pu_live || st->pu_owner != &pu_me ||
	    st->pu_forks != pu_forks || cpc_perf_user_off)
		return -1;
	for (i = 0; i < st->pu_n; i++) {
		if (pu_count(st->pu_pg[i], &v, &idle) != 0)
			return -1;
		/* Time-shared since the bind: read() scales. */
		if (i == 0 && idle != pc->pc_ena0 - pc->pc_run0)
			return -1;
		rb[3 + 2 * i] = v;
	}
	/* No time passes unscaled: perf_read sees enabled == running. */
	rb[0] = (uint64_t)st->pu_n;
	rb[1] = pc->pc_ena0;
	rb[2] = pc->pc_run0;
	cpc_perf_user_nreads++;
	return 0;
#else
	(void)pc;
	return -1;
#endif
}
