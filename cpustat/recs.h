/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * recs.h - the records a CPU thread posts for the printer (printer.c),
 * and a pool per CPU that recycles them: the printer hands a printed
 * record back to its CPU's pool, so a running CPU allocates nothing.
 */
#ifndef RECS_H
#define RECS_H

#include <stdatomic.h>
#include <stdint.h>

#include "cpustat.h"

enum rkind {
	R_SAMPLE,	/* values of interval r_k */
	R_SKIP,		/* interval r_k missed: the thread woke too late */
	R_OFFLINE,	/* the CPU is offline */
	R_ONLINE,	/* it came back; interval r_k's record follows */
	R_FAIL,		/* the thread failed: r_msg; R_DONE follows */
	R_DONE,		/* no more records */
};

struct rec {
	struct rec	*r_next;
	unsigned long long r_k;
	enum rkind	 r_kind;
	int		 r_elem;	/* the set's index in the ring */
	int		 r_cg;		/* the cgroup's index (-G), else 0 */
	hrtime_t	 r_hr;
	uint64_t	 r_tick;
	int		 r_scaled;
	uint64_t	 r_ena, r_run;	/* enabled, running ns */
	int		 r_nvals;
	uint64_t	 r_vals[SPEC_MAXPIC];
	char		 r_msg[512];
};

/*
 * Records handed back by the printers (any thread, one at a time or
 * not), and those the CPU thread took over from them (its own).
 */
struct recpool {
	_Atomic(struct rec *) rp_back;
	struct rec	*rp_own;
};

/* A record, zeroed up to r_msg (r_msg empty); aborts when out of memory. */
struct rec	*rec_get(struct recpool *rp);
/* Hand the list r (linked by r_next) back to its CPU's pool. */
void		 rec_put(struct recpool *rp, struct rec *r);
/* Free every record of the pool. */
void		 rec_pool_free(struct recpool *rp);

#endif
