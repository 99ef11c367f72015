/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cputhread.c - cpustat's CPU threads: one pinned thread per CPU binds
 * its ring of sets to its CPU (so reads are local: no inter-processor
 * interrupt; with -G a ring per cgroup, each bound for its cgroup, and
 * an interval's samples posted together), sleeps to absolute deadlines
 * start + k*interval (no drift), samples, and posts one record per
 * interval k to its queue (printer.c): the sample, or why there is none
 * (skipped, offline, failed), after an R_ONLINE in the interval it comes
 * back.  Interval k counts set (k - 1) mod n on every CPU, so a CPU late
 * or back from offline counts what the others count.
 *
 * Each thread sleeps alone in a futex wait on its own word with an
 * absolute CLOCK_MONOTONIC timeout (nap.c: one system call, the thread's
 * 1 ns timer slack), which the signal thread sets and wakes to stop it:
 * no lock is shared at wake-up, so CPUs do not wake each other (IPIs).
 * Records carry copies of the values, so the threads never share
 * buffers.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "errh.h"
#include "run.h"
#include "setgrp.h"
#include "smplset.h"

static void
post_kind(struct cpu *c, unsigned long long k, enum rkind kind,
    const char *msg)
{
	struct rec *r = rec_get(&c->c_pool);

	r->r_k = k;
	r->r_kind = kind;
	if (msg != NULL)
		snprintf(r->r_msg, sizeof(r->r_msg), "%s", msg);
	post_record(c, r);
}

/* Cgroup g's sample of interval k (r_next NULL). */
static struct rec *
sample_rec(struct cpu *c, int g, unsigned long long k)
{
	cpc_t *cpc = c->c_run->rs_cpc;
	struct setgrp_elem *e = setgrp_cur(c->c_grps[g]);
	struct rec *r = rec_get(&c->c_pool);
	int i;

	r->r_k = k;
	r->r_kind = R_SAMPLE;
	r->r_elem = c->c_grps[g]->sg_cur;
	r->r_cg = g;
	r->r_hr = cpc_buf_hrtime(cpc, e->se_delta);
	r->r_tick = cpc_buf_tick(cpc, e->se_delta);
	r->r_scaled = cpc_buf_scaled(cpc, e->se_delta);
	(void)cpc_buf_times(cpc, e->se_delta, &r->r_ena, &r->r_run);
	r->r_nvals = e->se_nreqs < SPEC_MAXPIC ? e->se_nreqs : SPEC_MAXPIC;
	for (i = 0; i < r->r_nvals; i++)
		(void)cpc_buf_get(cpc, e->se_delta, i, &r->r_vals[i]);
	return r;
}

/* Interval k's samples, one per cgroup, posted at once (printer.c). */
static void
post_sample(struct cpu *c, unsigned long long k)
{
	struct rec *head = NULL, **tail = &head;
	int g;

	for (g = 0; g < c->c_run->rs_ngrp; g++) {
		*tail = sample_rec(c, g, k);
		tail = &(*tail)->r_next;
	}
	post_record(c, head);
}

/*
 * The set of interval k (k >= 1), the same on every CPU: the first set in
 * interval 1, the second in interval 2, ..., whatever happened to this
 * CPU before (skipped intervals, time offline).
 */
static int
set_of(const struct runstate *rs, unsigned long long k)
{
	return (int)((k - 1) % (unsigned long long)rs->rs_o->o_nspecs);
}

/* With -p, a rest comes before the first interval of every cycle but one. */
static int
rest_before(const struct runstate *rs, unsigned long long k)
{
	return rs->rs_rest > 0 && k > 1 && set_of(rs, k) == 0;
}

/* Sample k is due at start + k*interval, plus a rest per full -p cycle. */
static hrtime_t
deadline(const struct runstate *rs, unsigned long long k)
{
	int n = rs->rs_o->o_nspecs;

	return rs->rs_base + (hrtime_t)k * rs->rs_ival +
	    (hrtime_t)((k - 1) / (unsigned long long)n) * rs->rs_rest;
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

/* The current set of every cgroup let go (those bound). */
static void
unbind_all(struct cpu *c)
{
	int g;

	for (g = 0; g < c->c_run->rs_ngrp && c->c_grps[g] != NULL; g++)
		(void)cpc_unbind(c->c_run->rs_cpc,
		    setgrp_cur(c->c_grps[g])->se_set);
}

/* The current set bound on the CPU, for each cgroup of -G: 0 or -1. */
static int
bind_cur(struct cpu *c)
{
	const struct runstate *rs = c->c_run;
	const struct opts *o = rs->rs_o;
	struct setgrp_elem *e;
	int g, rc;

	for (g = 0; g < rs->rs_ngrp; g++) {
		e = setgrp_cur(c->c_grps[g]);
		rc = o->o_ncgroups == 0 ?
		    cpc_bind_cpu(rs->rs_cpc, c->c_id, e->se_set, 0) :
		    cpc_bind_cpu_cgroup(rs->rs_cpc, c->c_id, o->o_cgroups[g],
		    e->se_set, 0);
		if (rc != 0) {
			int err = errno;

			unbind_all(c);
			errno = err;
			return -1;
		}
		setgrp_bound(c->c_grps[g], e);
	}
	soak_set(&c->c_soak, setgrp_cur(c->c_grps[0])->se_spec->sp_sysonly);
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
	const struct runstate *rs = c->c_run;
	int g;

	for (g = 0; g < rs->rs_ngrp; g++)
		(void)setgrp_select(c->c_grps[g], set_of(rs, k));
	if (rest_before(rs, k)) {
		soak_set(&c->c_soak, 0);
		if (sleep_until(c, deadline(rs, k) - rs->rs_ival))
			return 1;
	}
	return bind_cur(c) != 0 ? -1 : 0;
}

/*
 * Interval k is next: count its set, keeping the bound one counting when
 * it is the same and no rest comes first.  As start_set.
 */
static int
advance_set(struct cpu *c, unsigned long long k)
{
	if (c->c_grps[0]->sg_cur == set_of(c->c_run, k) &&
	    !rest_before(c->c_run, k))
		return 0;
	unbind_all(c);
	return start_set(c, k);
}

/*
 * Build the CPU's sets afresh (at start, and when the CPU came back: its
 * old groups died with it), keeping the totals so far, pin the soaker and
 * count interval k.  As start_set, with errh_last() on failure.
 */
static int
setup_sets(struct cpu *c, unsigned long long k)
{
	const struct runstate *rs = c->c_run;
	struct setgrp *new[CPUSTAT_MAXCG], *old;
	int g, i;

	for (g = 0; g < rs->rs_ngrp; g++)
		if ((new[g] = smpl_setgrp_create(rs->rs_cpc, rs->rs_o->o_specs,
		    rs->rs_o->o_nspecs, rs->rs_smpl, NULL)) == NULL) {
			while (--g >= 0)
				setgrp_destroy(new[g]);
			return -1;
		}
	for (g = 0; g < rs->rs_ngrp; g++) {
		old = c->c_grps[g];
		for (i = 0; old != NULL && i < old->sg_n; i++)
			cpc_buf_add(rs->rs_cpc, new[g]->sg_elems[i].se_total,
			    new[g]->sg_elems[i].se_total,
			    old->sg_elems[i].se_total);
		setgrp_destroy(old);
		c->c_grps[g] = new[g];
	}
	soak_pin(&c->c_soak);
	return start_set(c, k);
}

/*
 * Counting failed for good from interval k on: say so.  (Its R_FAIL is
 * the record of interval k, printed with the other CPUs' lines of k.)
 */
static void
post_failure(struct cpu *c, unsigned long long k)
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
	const struct runstate *rs = c->c_run;
	int rc;

	soak_set(&c->c_soak, 0);
	for (;;) {
		errh_clear();
		post_kind(c, k, R_OFFLINE, NULL);
		if (k == rs->rs_count ||
		    sleep_until(c, deadline(rs, k + 1) - rs->rs_ival))
			return 0;
		k++;
		if (!cpu_online(c->c_id))
			continue;
		if ((rc = setup_sets(c, k)) > 0)
			return 0;
		if (rc == 0)
			break;
		if (!went_away(c, 0)) {
			post_failure(c, k);
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
interval_lost(struct cpu *c, unsigned long long k, int reading)
{
	if (went_away(c, reading))
		return wait_online(c, k);
	post_failure(c, k);
	return 0;
}

/* Every cgroup's bound set sampled: 0, or -1 when one failed. */
static int
sample_all(struct cpu *c)
{
	int g;

	for (g = 0; g < c->c_run->rs_ngrp; g++)
		if (setgrp_sample(c->c_grps[g], setgrp_cur(c->c_grps[g])) != 0)
			return -1;
	return 0;
}

/* Sample from interval k on (its set is bound) until the count. */
static void
sample_loop(struct cpu *c, unsigned long long k)
{
	const struct runstate *rs = c->c_run;
	int last, rc;

	for (;;) {
		last = sleep_until(c, deadline(rs, k));
		if (sample_all(c) != 0) {
			if ((k = interval_lost(c, k, 1)) == 0)
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
		while ((rs->rs_count == 0 || k < rs->rs_count) &&
		    mono_now() >= deadline(rs, k + 1))
			post_kind(c, ++k, R_SKIP, NULL);
		/* Done: no rest, no last set to bind (and fail). */
		if (k++ == rs->rs_count)
			return;
		if ((rc = advance_set(c, k)) > 0)
			return;
		if (rc < 0 && (k = interval_lost(c, k, 0)) == 0)
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
say_ready(struct runstate *rs)
{
	pthread_mutex_lock(&rs->rs_lock);
	rs->rs_nready++;
	pthread_cond_broadcast(&rs->rs_cv_main);
	pthread_mutex_unlock(&rs->rs_lock);
}

/* -s: a soaker when some set counts only system mode. */
static void
start_soaker(struct cpu *c)
{
	const struct opts *o = c->c_run->rs_o;
	int i, any = 0;

	for (i = 0; i < o->o_nspecs; i++)
		any |= o->o_specs[i].sp_sysonly;
	if (any)
		soak_start(&c->c_soak, c->c_id);
}

void *
cpu_main(void *arg)
{
	struct cpu *c = arg;
	unsigned long long k;
	int rc;

	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* On its CPU for good: rotating sets then never re-pins it. */
	pin_self(c->c_id);
	if (c->c_run->rs_o->o_soak)
		start_soaker(c);
	rc = setup_sets(c, 1);
	c->c_counting = rc == 0;	/* main reads it after say_ready */
	say_ready(c->c_run);
	if (rc == 0)
		sample_loop(c, 1);
	else if (c->c_grps[0] == NULL)
		/* not even the sets: nothing to bind later */
		post_failure(c, 1);
	else if ((k = interval_lost(c, 1, 0)) != 0)
		sample_loop(c, k);
	unbind_all(c);
	soak_stop(&c->c_soak);
	post_kind(c, ULLONG_MAX, R_DONE, NULL);
	return NULL;
}
