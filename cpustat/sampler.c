/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sampler.c - cpustat's runtime: one pinned sampling thread per CPU,
 * which also print, and a signal thread.
 *
 * Each CPU thread binds its ring of sets to its CPU (so reads are local:
 * no inter-processor interrupt), sleeps to absolute deadlines
 * start + k*interval (no drift), samples, and posts one record per
 * interval k to its queue: the sample, or why there is none (skipped,
 * offline, failed), after an R_ONLINE in the interval it comes back.  The
 * thread whose post completes interval k (every running CPU has posted
 * it) prints those records in CPU order and flushes, unless another
 * thread is printing: that one prints k after its own.  Interval k counts
 * set (k - 1) mod n on every CPU, so a CPU late or back from offline
 * counts what the others count.
 *
 *	cpu threads --post(k)--> queues --(all heads at k)--> the last
 *	poster prints
 *	signal thread --stop--> cpu threads take a last partial sample
 *
 * Records carry copies of the values, so the threads never share
 * buffers.  One mutex guards the queues and who prints (g_printing); the
 * main thread holds that role until the title is out, then only waits
 * for the threads to end and prints the totals.  So an interval costs
 * each CPU one wake-up, from its own timer, and no thread is woken to
 * print.  Each CPU thread sleeps alone in a futex wait on its own word
 * with an absolute CLOCK_MONOTONIC timeout (nap.c: one system call, the
 * thread's 1 ns timer slack), which the signal thread sets and wakes to
 * stop it: no lock is shared at wake-up, so CPUs do not wake each other
 * (IPIs).
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "cpustat.h"
#include "errh.h"
#include "nap.h"
#include "recs.h"
#include "setgrp.h"
#include "soak.h"
#include "smpl.h"
#include "smplset.h"

struct cpu {
	int		 c_id;
	pthread_t	 c_thr;
	int		 c_started;
	struct setgrp	*c_grp;
	struct rec	*c_head, *c_tail;	/* under g_lock */
	int		 c_done;		/* main saw R_DONE */
	int		 c_offline;		/* main's view */
	int		 c_measured;		/* main saw a sample */
	atomic_int	 c_stop;		/* told to stop (nap_wake) */
	struct recpool	 c_pool;		/* its printed records */
	struct soaker	 c_soak;
};

static const struct opts *g_opts;
static cpc_t		*g_cpc;
static hrtime_t		 g_base;	/* CLOCK_MONOTONIC at start */
static hrtime_t		 g_walloff;	/* CLOCK_REALTIME - MONOTONIC */
static int64_t		 g_ival;	/* interval, ns */
static int64_t		 g_rest;	/* -p rest after each cycle, ns */
static unsigned long long g_count;	/* samples per CPU, 0 = forever */
static pthread_mutex_t	 g_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
static pthread_cond_t	 g_cv_main = PTHREAD_COND_INITIALIZER;
static int		 g_nready;	/* CPU threads set up, under g_lock */
static int		 g_printing;	/* a thread prints, under g_lock */
static int		 g_prc;		/* print_batch's results: 1 when
					 * some CPU failed, < 0 when stdout
					 * went away; under g_printing */
static struct smpl	*g_smpl;	/* -S, or NULL */
static struct cpu	*g_cpus;
static int		 g_ncpu;

/* CLOCK_MONOTONIC in ns: the clock of cpc_buf_hrtime. */
static hrtime_t
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- CPU threads ---- */

/*
 * Under g_lock: the interval that can be printed next, or 0 while some
 * CPU still running has not posted all its records for it (or none
 * runs).  A
 * thread posts, per interval, an R_ONLINE when the CPU has just come back
 * and then exactly one other record (R_DONE ends the queue), so a CPU is
 * behind while its queue is empty or holds only the R_ONLINE of the
 * interval.
 */
static unsigned long long
batch_ready(void)
{
	unsigned long long k = ULLONG_MAX;
	int i, alive = 0;

	for (i = 0; i < g_ncpu; i++) {
		if (g_cpus[i].c_done)
			continue;
		if (g_cpus[i].c_head == NULL)
			return 0;
		if (g_cpus[i].c_head->r_k < k)
			k = g_cpus[i].c_head->r_k;
		alive++;
	}
	if (alive == 0)
		return 0;
	for (i = 0; i < g_ncpu; i++) {
		const struct rec *h = g_cpus[i].c_head;

		if (!g_cpus[i].c_done && h->r_k == k &&
		    h->r_kind == R_ONLINE && h->r_next == NULL)
			return 0;
	}
	return k;
}

static void drain(void);

/*
 * Queue r; when that completes an interval and no thread prints, print
 * it (and whatever else is complete by then) in this thread.
 */
static void
post(struct cpu *c, struct rec *r)
{
	r->r_next = NULL;
	pthread_mutex_lock(&g_lock);
	if (c->c_tail != NULL)
		c->c_tail->r_next = r;
	else
		c->c_head = r;
	c->c_tail = r;
	if (!g_printing) {
		g_printing = 1;
		drain();
		g_printing = 0;
	}
	pthread_mutex_unlock(&g_lock);
}

static void
post_kind(struct cpu *c, unsigned long long k, enum rkind kind,
    const char *msg)
{
	struct rec *r = rec_get(&c->c_pool);

	r->r_k = k;
	r->r_kind = kind;
	if (msg != NULL)
		snprintf(r->r_msg, sizeof(r->r_msg), "%s", msg);
	post(c, r);
}

static void
post_sample(struct cpu *c, unsigned long long k)
{
	struct setgrp_elem *e = setgrp_cur(c->c_grp);
	struct rec *r = rec_get(&c->c_pool);
	int i;

	r->r_k = k;
	r->r_kind = R_SAMPLE;
	r->r_elem = c->c_grp->sg_cur;
	r->r_hr = cpc_buf_hrtime(g_cpc, e->se_delta);
	r->r_tick = cpc_buf_tick(g_cpc, e->se_delta);
	r->r_scaled = cpc_buf_scaled(g_cpc, e->se_delta);
	(void)cpc_buf_times(g_cpc, e->se_delta, &r->r_ena, &r->r_run);
	r->r_nvals = e->se_nreqs < SPEC_MAXPIC ? e->se_nreqs : SPEC_MAXPIC;
	for (i = 0; i < r->r_nvals; i++)
		(void)cpc_buf_get(g_cpc, e->se_delta, i, &r->r_vals[i]);
	post(c, r);
}

/*
 * The set of interval k (k >= 1), the same on every CPU: the first set in
 * interval 1, the second in interval 2, ..., whatever happened to this
 * CPU before (skipped intervals, time offline).
 */
static int
set_of(unsigned long long k)
{
	return (int)((k - 1) % (unsigned long long)g_opts->o_nspecs);
}

/* With -p, a rest comes before the first interval of every cycle but one. */
static int
rest_before(unsigned long long k)
{
	return g_rest > 0 && k > 1 && set_of(k) == 0;
}

/* Sample k is due at start + k*interval, plus a rest per full -p cycle. */
static hrtime_t
deadline(unsigned long long k)
{
	int n = g_opts->o_nspecs;

	return g_base + (hrtime_t)k * g_ival +
	    (hrtime_t)((k - 1) / (unsigned long long)n) * g_rest;
}

/*
 * Sleep until the absolute time t; returns 1 when told to stop first.
 * (Told to stop, it no longer sleeps.)
 */
static int
sleep_until(struct cpu *c, hrtime_t t)
{
	return nap_until(&c->c_stop, t) != 0;
}

/* Tell every CPU thread to take its last sample and end. */
static void
stop_all(void)
{
	int i;

	for (i = 0; i < g_ncpu; i++)
		nap_wake(&g_cpus[i].c_stop);
}

static int
bind_cur(struct cpu *c)
{
	struct setgrp_elem *e = setgrp_cur(c->c_grp);

	if (cpc_bind_cpu(g_cpc, c->c_id, e->se_set, 0) != 0)
		return -1;
	setgrp_bound(c->c_grp, e);
	soak_set(&c->c_soak, e->se_spec->sp_sysonly);
	return 0;
}

/*
 * Did the read (reading) or bind that just failed fail because the CPU
 * went away?  While it is offline, whatever failed failed for that.  When
 * it went offline and came back since, its old groups stay in the
 * kernel's error state: reading one, or restarting it in a bind, gives
 * EIO; and a thread that the kernel moved off the CPU gets EAGAIN from
 * the read.  Keeps errno for the message if not.
 */
static int
went_away(const struct cpu *c, int reading)
{
	int e = errno, r;

	r = e == EIO || (reading && e == EAGAIN) || !cpu_online(c->c_id);
	errno = e;
	return r;
}

/*
 * Count interval k's set (the set is unbound), after the -p rest when k
 * begins a cycle: nothing counts and the soaker does not spin until
 * interval k starts.  0 when counting, 1 when told to stop while resting,
 * -1 when the bind failed.
 */
static int
start_set(struct cpu *c, unsigned long long k)
{
	(void)setgrp_select(c->c_grp, set_of(k));
	if (rest_before(k)) {
		soak_set(&c->c_soak, 0);
		if (sleep_until(c, deadline(k) - g_ival))
			return 1;
	}
	return bind_cur(c) != 0 ? -1 : 0;
}

/*
 * Interval k is next: count its set, keeping the bound one counting when
 * it is the same and no rest comes first.  As start_set.
 */
static int
advance(struct cpu *c, unsigned long long k)
{
	if (c->c_grp->sg_cur == set_of(k) && !rest_before(k))
		return 0;
	(void)cpc_unbind(g_cpc, setgrp_cur(c->c_grp)->se_set);
	return start_set(c, k);
}

/*
 * Build the CPU's sets afresh (at start, and when the CPU came back: its
 * old groups died with it), keeping the totals so far, pin the soaker and
 * count interval k.  As start_set, with errh_last() on failure.
 */
static int
setup(struct cpu *c, unsigned long long k)
{
	struct setgrp *old = c->c_grp;
	int i;

	c->c_grp = smpl_setgrp_create(g_cpc, g_opts->o_specs,
	    g_opts->o_nspecs, g_smpl, NULL);
	if (c->c_grp == NULL) {
		c->c_grp = old;
		return -1;
	}
	for (i = 0; old != NULL && i < old->sg_n; i++)
		cpc_buf_add(g_cpc, c->c_grp->sg_elems[i].se_total,
		    c->c_grp->sg_elems[i].se_total, old->sg_elems[i].se_total);
	setgrp_destroy(old);
	soak_pin(&c->c_soak);
	return start_set(c, k);
}

/*
 * Counting failed for good from interval k on: say so.  (Its R_FAIL is
 * the record of interval k, printed with the other CPUs' lines of k.)
 */
static void
fail(struct cpu *c, unsigned long long k)
{
	char msg[sizeof(((struct rec *)NULL)->r_msg)];	/* as r_msg */

	snprintf(msg, sizeof(msg), "cpu %d: %s", c->c_id,
	    errh_last()[0] != '\0' ? errh_last() : strerror(errno));
	post_kind(c, k, R_FAIL, msg);
}

/*
 * The CPU went away and interval k cannot be counted.  Post R_OFFLINE
 * for every interval it misses, looking at the start of each next one
 * (after any -p rest) whether it is back: a CPU that went offline and
 * came back within interval k is back at once.  Then set it up again,
 * counting the set every CPU counts then, and post R_ONLINE.  Returns the
 * interval it now counts, or 0 to end the thread.
 */
static unsigned long long
wait_online(struct cpu *c, unsigned long long k)
{
	int rc;

	soak_set(&c->c_soak, 0);
	for (;;) {
		errh_clear();
		post_kind(c, k, R_OFFLINE, NULL);
		if (k == g_count || sleep_until(c, deadline(k + 1) - g_ival))
			return 0;
		k++;
		if (!cpu_online(c->c_id))
			continue;
		if ((rc = setup(c, k)) > 0)
			return 0;
		if (rc == 0)
			break;
		if (!went_away(c, 0)) {
			fail(c, k);
			return 0;
		}
	}
	post_kind(c, k, R_ONLINE, NULL);
	return k;
}

/*
 * Interval k cannot be counted: its read (reading) or bind failed.
 * Returns the next k to sample, or 0 to end the thread.
 */
static unsigned long long
lost(struct cpu *c, unsigned long long k, int reading)
{
	if (went_away(c, reading))
		return wait_online(c, k);
	fail(c, k);
	return 0;
}

/* Sample from interval k on (its set is bound) until the count. */
static void
sample_loop(struct cpu *c, unsigned long long k)
{
	int last, rc;

	for (;;) {
		last = sleep_until(c, deadline(k));
		if (setgrp_sample(c->c_grp, setgrp_cur(c->c_grp)) != 0) {
			if ((k = lost(c, k, 1)) == 0)
				return;
			continue;
		}
		post_sample(c, k);
		if (last)
			return;
		/*
		 * Woken more than an interval late (stopped, starved): this
		 * sample holds the missed intervals' counts; skip their
		 * deadlines and say so, rather than sample again at once.
		 */
		while ((g_count == 0 || k < g_count) &&
		    mono_now() >= deadline(k + 1))
			post_kind(c, ++k, R_SKIP, NULL);
		/* Done: no rest, no last set to bind (and fail). */
		if (k++ == g_count)
			return;
		if ((rc = advance(c, k)) > 0)
			return;
		if (rc < 0 && (k = lost(c, k, 0)) == 0)
			return;
	}
}

static void
pin_self(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	(void)sched_setaffinity(0, sizeof(one), &one);
}

/* This CPU thread has set up its counters (or failed to): main waits. */
static void
ready(void)
{
	pthread_mutex_lock(&g_lock);
	g_nready++;
	pthread_cond_broadcast(&g_cv_main);
	pthread_mutex_unlock(&g_lock);
}

static void *
cpu_main(void *arg)
{
	struct cpu *c = arg;
	unsigned long long k;
	int rc;

	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* On its CPU for good: rotating sets then never re-pins it. */
	pin_self(c->c_id);
	if (g_opts->o_soak) {
		int i, any = 0;

		for (i = 0; i < g_opts->o_nspecs; i++)
			any |= g_opts->o_specs[i].sp_sysonly;
		if (any)
			soak_start(&c->c_soak, c->c_id);
	}
	rc = setup(c, 1);
	ready();
	if (rc == 0)
		sample_loop(c, 1);
	else if (c->c_grp == NULL)
		fail(c, 1);	/* not even the sets: nothing to bind later */
	else if ((k = lost(c, 1, 0)) != 0)
		sample_loop(c, k);
	if (c->c_grp != NULL)
		(void)cpc_unbind(g_cpc, setgrp_cur(c->c_grp)->se_set);
	soak_stop(&c->c_soak);
	post_kind(c, ULLONG_MAX, R_DONE, NULL);
	return NULL;
}

/* ---- the main thread: print in order ---- */

static void
print_sample(const struct cpu *c, const struct rec *r)
{
	struct sample smp = { .s_cpu = c->c_id, .s_elem = r->r_elem,
	    .s_hr = r->r_hr, .s_tick = r->r_tick, .s_vals = r->r_vals,
	    .s_nvals = r->r_nvals, .s_scaled = r->r_scaled,
	    .s_ena = r->r_ena, .s_run = r->r_run };

	rep_sample(&smp);
}

static int
print_rec(const struct opts *o, struct cpu *c, const struct rec *r)
{
	switch (r->r_kind) {
	case R_SAMPLE:
		print_sample(c, r);
		c->c_measured = 1;
		break;
	case R_SKIP:
		fflush(o->o_out);
		warnx("cpu %d: interval %llu skipped (cpustat ran more than "
		    "an interval late); its counts are in the previous sample",
		    c->c_id, r->r_k);
		break;
	case R_OFFLINE:
		if (!c->c_offline)
			warnx("cpu %d: offline; skipping it until it returns",
			    c->c_id);
		c->c_offline = 1;
		break;
	case R_ONLINE:
		warnx("cpu %d: online again; counting from zero", c->c_id);
		c->c_offline = 0;
		break;
	case R_FAIL:
		fflush(o->o_out);
		warnx("%s", r->r_msg);
		return 1;
	case R_DONE:
		break;
	}
	return 0;
}

/*
 * Under g_lock: take the records of interval k off the queues into
 * batch[], one list per CPU (R_ONLINE with its sample).
 */
static void
take_batch(unsigned long long k, struct rec **batch)
{
	struct rec *r, **tail;
	int i;

	for (i = 0; i < g_ncpu; i++) {
		struct cpu *c = &g_cpus[i];

		batch[i] = NULL;
		tail = &batch[i];
		while (!c->c_done && c->c_head != NULL &&
		    c->c_head->r_k == k) {
			r = c->c_head;
			if ((c->c_head = r->r_next) == NULL)
				c->c_tail = NULL;
			r->r_next = NULL;
			*tail = r;
			tail = &r->r_next;
			if (r->r_kind == R_DONE)
				c->c_done = 1;
		}
	}
}

/*
 * Print one interval's records in CPU order, hand them back to their
 * CPUs' pools and flush.
 * Returns 1 when some CPU failed, -1 when stdout went away (closed
 * pipe), -2 on another write error.
 */
static int
print_batch(struct rec **batch)
{
	const struct opts *o = g_opts;
	struct rec *r;
	int i, rc = 0;

	for (i = 0; i < g_ncpu; i++) {
		for (r = batch[i]; r != NULL; r = r->r_next)
			rc |= print_rec(o, &g_cpus[i], r);
		rec_put(&g_cpus[i].c_pool, batch[i]);
	}
	smpl_flush(g_smpl);
	if (rep_flush() != 0)
		return -2;
	if (fflush(o->o_out) != 0 || ferror(o->o_out)) {
		/* A closed pipe ends us quietly; other errors do not. */
		if (errno != EPIPE) {
			warn("write error");
			return -2;
		}
		return -1;
	}
	return rc;
}

/*
 * Under g_lock, in the thread that holds g_printing: print every
 * interval complete, in order, until one is not (or stdout is gone: then
 * stop the CPU threads and print no more).  The lock is let go while
 * printing, so the CPU threads post meanwhile; the last to complete an
 * interval prints it, and no thread is woken only to print.
 */
static void
drain(void)
{
	struct rec *batch[CPU_SETSIZE];
	unsigned long long k;
	int rc;

	while (g_prc >= 0 && (k = batch_ready()) != 0) {
		take_batch(k, batch);
		pthread_mutex_unlock(&g_lock);
		rc = print_batch(batch);
		pthread_mutex_lock(&g_lock);
		if (rc < 0) {
			g_prc = rc;
			stop_all();
		} else
			g_prc |= rc;
	}
}

/* --profile after the totals: the system's, or one per CPU measured. */
static void
print_profiles(const struct opts *o, struct cpu *cpus, int ncpu)
{
	char what[32];
	int i;

	if (!o->o_smpl.so_percpu) {
		smpl_print_profile(g_smpl, o->o_out, -1, "system");
		return;
	}
	for (i = 0; i < ncpu; i++) {
		snprintf(what, sizeof(what), "cpu %d", cpus[i].c_id);
		smpl_print_profile(g_smpl, o->o_out, cpus[i].c_id, what);
	}
}

/*
 * One total line per set.  Its CPU column counts the CPUs measured: those
 * with at least one sample line, including a CPU that later failed or
 * went offline for good (its counts are in the sums), not one that failed
 * before its first sample.
 */
static int
print_totals(const struct opts *o, struct cpu *cpus, int ncpu)
{
	int s, i, n;

	for (i = 0, n = 0; i < ncpu; i++)
		n += cpus[i].c_measured;
	for (s = 0; s < o->o_nspecs; s++) {
		cpc_buf_t *acc = NULL;

		for (i = 0; i < ncpu; i++) {
			struct setgrp_elem *e;

			if (cpus[i].c_grp == NULL)
				continue;
			e = &cpus[i].c_grp->sg_elems[s];
			if (acc == NULL &&
			    (acc = cpc_buf_create(g_cpc, e->se_set)) == NULL)
				return 0;
			cpc_buf_add(g_cpc, acc, acc, e->se_total);
		}
		if (acc == NULL)
			continue;
		rep_total(g_cpc, s, n, cpc_buf_hrtime(g_cpc, acc) == 0 ?
		    mono_now() : cpc_buf_hrtime(g_cpc, acc), acc);
		cpc_buf_destroy(g_cpc, acc);
	}
	print_profiles(o, cpus, ncpu);
	if (rep_flush() != 0)
		return -2;
	return fflush(o->o_out) != 0 || ferror(o->o_out) ? -1 : 0;
}

/* ---- signals ---- */

static sigset_t g_sigs;

static void *
sig_main(void *arg)
{
	int sig;

	(void)arg;
	for (;;) {
		if (sigwait(&g_sigs, &sig) == 0)
			stop_all();
	}
	return NULL;
}

static int
sig_ignored(int sig)
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

/* The CPUs of o->o_cpus, ascending. */
static int
list_cpus(const struct opts *o, struct cpu **out)
{
	struct cpu *cpus;
	int i, n = 0;

	if ((cpus = calloc(CPU_COUNT(&o->o_cpus) + 1, sizeof(*cpus))) == NULL)
		err(1, "out of memory");
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &o->o_cpus))
			cpus[n++].c_id = i;
	*out = cpus;
	return n;
}

static void
init_clock(void)
{
	struct timespec rt;

	clock_gettime(CLOCK_REALTIME, &rt);
	g_base = mono_now();
	g_walloff = (hrtime_t)rt.tv_sec * 1000000000 + rt.tv_nsec - g_base;
}

/* The interval, the -p rest and the samples per CPU, from the options. */
static void
init_timing(const struct opts *o)
{
	int cycle = o->o_nspecs;

	g_ival = (int64_t)(o->o_interval * 1e9 + 0.5);
	g_rest = o->o_period > 0 ? (int64_t)(o->o_period * 1e9 + 0.5) -
	    g_ival * cycle : 0;
	if (g_rest < 0)
		g_rest = 0;
	g_count = o->o_count * (o->o_period > 0 ? (unsigned)cycle : 1);
}

/*
 * Hand the ending signals to a thread of their own.  SIGINT and SIGHUP
 * end the run only when they were not ignored at start (nohup, background
 * jobs of a script): a blocked signal is never discarded, so blocking an
 * ignored one would revive it.
 */
static void
catch_signals(void)
{
	pthread_t sigthr;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&g_sigs);
	sigaddset(&g_sigs, SIGTERM);
	if (!sig_ignored(SIGINT))
		sigaddset(&g_sigs, SIGINT);
	if (!sig_ignored(SIGHUP))
		sigaddset(&g_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &g_sigs, NULL);
	if (pthread_create(&sigthr, NULL, sig_main, NULL) != 0)
		err(1, "cannot create the signal thread");
	pthread_detach(sigthr);
}

/* A thread per CPU; returns how many started. */
static int
start_cpus(void)
{
	int i, started = 0;

	for (i = 0; i < g_ncpu; i++) {
		struct cpu *c = &g_cpus[i];

		if (pthread_create(&c->c_thr, NULL, cpu_main, c) != 0) {
			warnx("cannot create a thread for cpu %d", c->c_id);
			pthread_mutex_lock(&g_lock);
			c->c_done = 1;
			pthread_mutex_unlock(&g_lock);
			continue;
		}
		c->c_started = 1;
		started++;
	}
	return started;
}

/*
 * The title once every CPU counts (or has failed to): a line after it,
 * or a program started once it is out, is counted.  Until then the main
 * thread holds g_printing; it prints what is complete and lets go.
 */
static void
print_title(const struct opts *o, int started)
{
	pthread_mutex_lock(&g_lock);
	while (g_nready < started)
		pthread_cond_wait(&g_cv_main, &g_lock);
	pthread_mutex_unlock(&g_lock);
	if (!o->o_noheader)
		rep_title();
	fflush(o->o_out);
	pthread_mutex_lock(&g_lock);
	drain();
	g_printing = 0;
	pthread_mutex_unlock(&g_lock);
}

/* The CPU threads have ended: the totals unless stdout went away. */
static int
finish(const struct opts *o, int rc)
{
	int i;

	if (rc >= 0 && (i = print_totals(o, g_cpus, g_ncpu)) != 0) {
		if (i == -2)
			rc = 1;
		else if (errno != EPIPE) {
			warn("write error");
			rc = 1;
		}
	}
	rep_fini();
	for (i = 0; i < g_ncpu; i++) {
		rec_put(&g_cpus[i].c_pool, g_cpus[i].c_head);
		rec_pool_free(&g_cpus[i].c_pool);
		setgrp_destroy(g_cpus[i].c_grp);
	}
	free(g_cpus);
	if (g_smpl != NULL && smpl_finish(g_smpl) != 0 && rc == 0)
		rc = -2;
	smpl_destroy(g_smpl);
	return rc == -1 ? 0 : rc == -2 ? 1 : rc;
}

int
run(cpc_t *cpc, const struct opts *o)
{
	int i;

	g_opts = o;
	g_cpc = cpc;
	init_timing(o);
	g_ncpu = list_cpus(o, &g_cpus);
	if (g_ncpu == 0 || cpu_preflight(cpc, g_cpus[0].c_id) != 0) {
		if (g_ncpu == 0)
			warnx("no online CPU to measure");
		free(g_cpus);
		return 1;
	}
	catch_signals();
	init_clock();
	if (rep_init(o, g_base, g_walloff) != 0) {
		free(g_cpus);
		return 1;
	}
	if (smpl_on(&o->o_smpl) && (g_smpl = smpl_create(cpc, &o->o_smpl,
	    SMPL_BY_CPU)) == NULL)
		errx(1, "-S: %s", errh_last());
	smpl_start(g_smpl, g_base);
	g_printing = 1;		/* not before the title */
	print_title(o, start_cpus());
	for (i = 0; i < g_ncpu; i++)
		if (g_cpus[i].c_started)
			pthread_join(g_cpus[i].c_thr, NULL);
	return finish(o, g_prc);
}
