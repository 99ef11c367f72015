/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.h - the state of one cpustat run, shared by its three parts: the
 * CPU threads (cputhread.c), the ordered printer (printer.c) and the run
 * itself (run.c: the CPUs, the clocks, the signal thread, the end).
 * Every part gets it as an argument: a CPU thread through its struct
 * cpu, the signal thread as its thread's argument.
 */
#ifndef RUN_H
#define RUN_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <libcpc.h>

#include "cpustat.h"
#include "nap.h"
#include "recs.h"
#include "soak.h"

struct runstate;

struct cpu {
	struct runstate	*c_run;
	int		 c_id;
	pthread_t	 c_thr;
	int		 c_started;
	int		 c_counting;		/* set up at the start */
	struct setgrp	**c_grps;		/* one per cgroup (-G), or one;
						 * [0] NULL: none made yet */
	struct rec	*c_head, *c_tail;	/* under rs_lock */
	int		 c_done;		/* main saw R_DONE */
	int		 c_offline;		/* main's view */
	int		 c_measured;		/* main saw a sample */
	atomic_int	 c_stop;		/* told to stop (nap_wake) */
	struct recpool	 c_pool;		/* its printed records */
	struct soaker	 c_soak;
};

struct runstate {
	const struct opts *rs_o;
	cpc_t		*rs_cpc;
	hrtime_t	 rs_base;	/* CLOCK_MONOTONIC at start */
	hrtime_t	 rs_walloff;	/* CLOCK_REALTIME - MONOTONIC */
	int64_t		 rs_ival;	/* interval, ns */
	int64_t		 rs_rest;	/* -p rest after each cycle, ns */
	unsigned long long rs_count;	/* samples per CPU, 0 = forever */
	pthread_mutex_t	 rs_lock;
	pthread_cond_t	 rs_cv_main;
	int		 rs_nready;	/* CPU threads set up, under rs_lock */
	int		 rs_printing;	/* a thread prints, under rs_lock */
	int		 rs_prc;	/* print_batch's results: 1 when
					 * some CPU failed, < 0 when stdout
					 * went away; under rs_printing */
	struct smpl	*rs_smpl;	/* -S, or NULL */
	struct cpu	*rs_cpus;
	int		 rs_ncpu;
	int		 rs_ngrp;	/* each CPU's c_grps: -G's, or 1 */
	sigset_t	 rs_sigs;	/* the signals that end the run */
	pthread_t	 rs_sigthr;	/* the thread that waits for them */
	int		 rs_sigstarted;
	atomic_int	 rs_sigend;	/* the signal thread is to end */
};

/* CLOCK_MONOTONIC in ns: the clock of cpc_buf_hrtime. */
static inline hrtime_t
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Tell every CPU thread to take its last sample and end (the signal
 * thread, or the printer when stdout went away).  Inline: both the
 * printer and the run call it, and the CPU threads' file calls the
 * printer.
 */
static inline void
stop_all(struct runstate *rs)
{
	int i;

	for (i = 0; i < rs->rs_ncpu; i++)
		nap_wake(&rs->rs_cpus[i].c_stop);
}

/* cputhread.c: a CPU thread's body (arg its struct cpu). */
void	*cpu_main(void *arg);

/*
 * printer.c.  post_record: queue r, and when that completes an interval
 * and no thread prints, print it (and whatever else is complete by then).
 */
void	post_record(struct cpu *c, struct rec *r);
/*
 * Once every CPU thread started counts (or has failed to): the title,
 * then what is complete; the main thread holds rs_printing until then.
 */
int	print_title(struct runstate *rs, int started);
void	say_failures(const struct runstate *rs);
/* The total lines and profiles: 0, -1 when stdout went away, -2 said. */
int	print_totals(struct runstate *rs);

#endif
