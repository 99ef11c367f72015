/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c - cpustat's run: the CPUs to measure, the clocks, a thread per
 * CPU (cputhread.c) that also prints (printer.c), a signal thread, and
 * at the end the totals.
 *
 *	signal thread --stop--> cpu threads take a last partial sample
 *
 * The run's state (struct runstate) lives in run() and reaches every
 * thread as its argument: no global is shared between the files.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errh.h"
#include "run.h"
#include "setgrp.h"
#include "smpl.h"

/* The signal thread: every ending signal stops the CPU threads. */
static void *
sig_main(void *arg)
{
	struct runstate *rs = arg;
	int sig;

	for (;;) {
		if (sigwait(&rs->rs_sigs, &sig) != 0)
			continue;
		if (atomic_load(&rs->rs_sigend))
			return NULL;
		stop_all(rs);
	}
}

static int
sig_ignored(int sig)
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

/*
 * Hand the ending signals to a thread of their own.  SIGINT and SIGHUP
 * end the run only when they were not ignored at start (nohup, background
 * jobs of a script): a blocked signal is never discarded, so blocking an
 * ignored one would revive it.
 */
static void
catch_signals(struct runstate *rs)
{
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&rs->rs_sigs);
	sigaddset(&rs->rs_sigs, SIGTERM);
	if (!sig_ignored(SIGINT))
		sigaddset(&rs->rs_sigs, SIGINT);
	if (!sig_ignored(SIGHUP))
		sigaddset(&rs->rs_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &rs->rs_sigs, NULL);
	if (pthread_create(&rs->rs_sigthr, NULL, sig_main, rs) != 0)
		err(1, "cannot create the signal thread");
	rs->rs_sigstarted = 1;
}

/*
 * The signal thread ends before the CPUs it would stop are freed: told
 * by rs_sigend and a SIGTERM sent to it alone.  Not pthread_cancel,
 * which loads libgcc_s to unwind and aborts where it is missing (a
 * minimal system).  A signal from now on stays pending.
 */
static void
end_signals(struct runstate *rs)
{
	if (!rs->rs_sigstarted)
		return;
	atomic_store(&rs->rs_sigend, 1);
	(void)pthread_kill(rs->rs_sigthr, SIGTERM);
	pthread_join(rs->rs_sigthr, NULL);
	rs->rs_sigstarted = 0;
}

/* The CPUs of o->o_cpus, ascending. */
static int
list_cpus(struct runstate *rs)
{
	const struct opts *o = rs->rs_o;
	struct cpu *cpus;
	int i, n = 0;

	if ((cpus = calloc(CPU_COUNT(&o->o_cpus) + 1, sizeof(*cpus))) == NULL)
		err(1, "out of memory");
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &o->o_cpus)) {
			cpus[n].c_run = rs;
			cpus[n++].c_id = i;
		}
	rs->rs_cpus = cpus;
	return n;
}

static void
init_clock(struct runstate *rs)
{
	struct timespec rt;

	clock_gettime(CLOCK_REALTIME, &rt);
	rs->rs_base = mono_now();
	rs->rs_walloff = (hrtime_t)rt.tv_sec * 1000000000 + rt.tv_nsec -
	    rs->rs_base;
}

/* The interval, the -p rest and the samples per CPU, from the options. */
static void
init_timing(struct runstate *rs)
{
	const struct opts *o = rs->rs_o;
	int cycle = o->o_nspecs;

	rs->rs_ival = (int64_t)(o->o_interval * 1e9 + 0.5);
	rs->rs_rest = o->o_period > 0 ? (int64_t)(o->o_period * 1e9 + 0.5) -
	    rs->rs_ival * cycle : 0;
	if (rs->rs_rest < 0)
		rs->rs_rest = 0;
	rs->rs_count = o->o_count * (o->o_period > 0 ? (unsigned)cycle : 1);
}

/* A thread per CPU; returns how many started. */
static int
start_cpus(struct runstate *rs)
{
	int i, e, started = 0;

	for (i = 0; i < rs->rs_ncpu; i++) {
		struct cpu *c = &rs->rs_cpus[i];

		if ((e = pthread_create(&c->c_thr, NULL, cpu_main, c)) != 0) {
			warnx("cannot create a thread for cpu %d: %s", c->c_id,
			    strerror(e));
			pthread_mutex_lock(&rs->rs_lock);
			c->c_done = 1;
			pthread_mutex_unlock(&rs->rs_lock);
			continue;
		}
		c->c_started = 1;
		started++;
	}
	return started;
}

/* end_run's rc when no CPU could count: no totals, exit status 1. */
#define	NOCPU	(-3)

/* The CPU threads have ended: the totals unless stdout went away. */
static int
end_run(struct runstate *rs, int rc)
{
	int i;

	if (rc >= 0 && rc != NOCPU && (i = print_totals(rs)) != 0) {
		if (i == -2)
			rc = 1;
		else if (errno != EPIPE) {
			warn("write error");
			rc = 1;
		}
	}
	rep_fini();
	end_signals(rs);
	for (i = 0; i < rs->rs_ncpu; i++) {
		rec_put(&rs->rs_cpus[i].c_pool, rs->rs_cpus[i].c_head);
		rec_pool_free(&rs->rs_cpus[i].c_pool);
		setgrp_destroy(rs->rs_cpus[i].c_grp);
	}
	free(rs->rs_cpus);
	if (rs->rs_smpl != NULL && smpl_finish(rs->rs_smpl) != 0 && rc == 0)
		rc = -2;
	smpl_destroy(rs->rs_smpl);
	return rc == -1 ? 0 : rc == -2 || rc == NOCPU ? 1 : rc;
}

int
run(cpc_t *cpc, const struct opts *o)
{
	struct runstate rs = { .rs_o = o, .rs_cpc = cpc,
	    .rs_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP,
	    .rs_cv_main = PTHREAD_COND_INITIALIZER };
	int i, counting;

	init_timing(&rs);
	rs.rs_ncpu = list_cpus(&rs);
	if (rs.rs_ncpu == 0 || cpu_preflight(cpc, rs.rs_cpus[0].c_id) != 0) {
		if (rs.rs_ncpu == 0)
			warnx("no online CPU to measure");
		free(rs.rs_cpus);
		return 1;
	}
	catch_signals(&rs);
	init_clock(&rs);
	if (rep_init(cpc, o, rs.rs_base, rs.rs_walloff) != 0) {
		end_signals(&rs);
		free(rs.rs_cpus);
		return 1;
	}
	if (smpl_on(&o->o_smpl) && (rs.rs_smpl = smpl_create(cpc, &o->o_smpl,
	    SMPL_BY_CPU)) == NULL)
		errx(1, "-S: %s", errh_last());
	smpl_start(rs.rs_smpl, rs.rs_base);
	rs.rs_printing = 1;		/* not before the title */
	counting = print_title(&rs, start_cpus(&rs));
	for (i = 0; i < rs.rs_ncpu; i++)
		if (rs.rs_cpus[i].c_started)
			pthread_join(rs.rs_cpus[i].c_thr, NULL);
	if (counting == 0)
		say_failures(&rs);
	return end_run(&rs, counting == 0 ? NOCPU : rs.rs_prc);
}
