/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_lwpev_impl.h - the state of a set bound with CPC_BIND_LWP_EVENTS,
 * shared by perf_lwpev.c (its rings opened and closed),
 * perf_lwpev_walk.c (their records read) and perf_lwpev_probe.c (the
 * kernel tried): the events' attributes, the records' shape.
 */
#ifndef CPC_PERF_LWPEV_IMPL_H
#define CPC_PERF_LWPEV_IMPL_H

#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ring.h"

/*
 * Every record ends with pid and tid, the time, and the id of the event
 * that wrote it (sample_id_all).
 */
#define LWPEV_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_IDENTIFIER)

static inline void
cpc_lwpev_common(struct perf_event_attr *a)
{
	a->sample_type = LWPEV_TYPE;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

/* A counter-less event (a ring's owner): counts nothing of the kernel's. */
static inline void
cpc_lwpev_dummy_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	/* What it counts: nothing; so nothing of the kernel's (paranoid 2). */
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->watermark = 1;
	cpc_lwpev_common(a);
}

/* A record's time (sample_id_all: pid and tid, time, id at its end). */
#define REC_TIME(rg, end)	((hrtime_t)ring_u64((rg), (end) - 16))
/* A thread's records are all written within this (ns). */
#define PEND_STALE	100000000LL

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
	uint64_t	 r_maxrec;	/* its largest record */
	uint64_t	 r_tnat;	/* r_tail + 1 when r_tnext is known */
	hrtime_t	 r_tnext;	/* the time of the record at r_tail */
	struct ring	 r_rg;		/* its reader: rg_head the walk's
					   end of it */
};

/* CPC_BIND_LWP_FORKS: a process counted, and its threads not yet ended. */
struct eproc {
	pid_t		 ep_pid;
	int		 ep_nthr;
};

struct cpc_lwpev {
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
	int		 e_done;	/* the exec was reported (FORKS: the
					   last process's end or exec) */
	int		 e_tree;	/* CPC_BIND_LWP_FORKS */
	struct eproc	*e_procs;	/* FORKS: the processes counted */
	int		 e_nproc;
	int		 e_pcap;
};

/* The CPUs' rings closed (at the exec). */
void	cpc_perf_lwpev_cpus_close(struct cpc_lwpev *);

#endif /* CPC_PERF_LWPEV_IMPL_H */
