/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * printer.c - cpustat's ordered printing: the CPU threads post their
 * records here (post_record), and the thread whose post completes
 * interval k (every running CPU has posted it) prints those records in
 * CPU order and flushes, unless another thread is printing: that one
 * prints k after its own.
 *
 *	cpu threads --post_record(k)--> queues --(all heads at k)--> the
 *	last poster prints
 *
 * One mutex (rs_lock) guards the queues and who prints (rs_printing);
 * the main thread holds that role until the title is out, then only
 * waits for the threads to end and prints the totals.  So an interval
 * costs each CPU one wake-up, from its own timer, and no thread is woken
 * to print.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "run.h"
#include "setgrp.h"
#include "smpl.h"

/*
 * Under rs_lock: the interval that can be printed next, or 0 while some
 * CPU still running has not posted all its records for it (or none
 * runs).  A thread posts, per interval, an R_ONLINE when the CPU has
 * just come back and then exactly one other post: a record, or with -G
 * the samples of every cgroup in one list (R_DONE ends the queue), so a
 * CPU is behind while its queue is empty or holds only the R_ONLINE of
 * the interval.
 */
static unsigned long long
batch_ready(const struct runstate *rs)
{
	unsigned long long k = ULLONG_MAX;
	const struct cpu *c;
	int i, alive = 0;

	for (i = 0; i < rs->rs_ncpu; i++) {
		c = &rs->rs_cpus[i];
		if (c->c_done)
			continue;
		if (c->c_head == NULL)
			return 0;
		if (c->c_head->r_k < k)
			k = c->c_head->r_k;
		alive++;
	}
	if (alive == 0)
		return 0;
	for (i = 0; i < rs->rs_ncpu; i++) {
		const struct rec *h = rs->rs_cpus[i].c_head;

		if (!rs->rs_cpus[i].c_done && h->r_k == k &&
		    h->r_kind == R_ONLINE && h->r_next == NULL)
			return 0;
	}
	return k;
}

static void
print_sample(const struct cpu *c, const struct rec *r)
{
	struct sample smp = { .s_cpu = c->c_id, .s_elem = r->r_elem,
	    .s_cg = r->r_cg,
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
 * Under rs_lock: take the records of interval k off the queues into
 * batch[], one list per CPU (R_ONLINE with its sample).
 */
static void
take_batch(struct runstate *rs, unsigned long long k, struct rec **batch)
{
	struct rec *r, **tail;
	int i;

	for (i = 0; i < rs->rs_ncpu; i++) {
		struct cpu *c = &rs->rs_cpus[i];

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
print_batch(struct runstate *rs, struct rec **batch)
{
	const struct opts *o = rs->rs_o;
	struct rec *r;
	int i, rc = 0;

	for (i = 0; i < rs->rs_ncpu; i++) {
		for (r = batch[i]; r != NULL; r = r->r_next)
			rc |= print_rec(o, &rs->rs_cpus[i], r);
		rec_put(&rs->rs_cpus[i].c_pool, batch[i]);
	}
	smpl_flush(rs->rs_smpl);
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
 * Under rs_lock, in the thread that holds rs_printing: print every
 * interval complete, in order, until one is not (or stdout is gone: then
 * stop the CPU threads and print no more).  The lock is let go while
 * printing, so the CPU threads post meanwhile; the last to complete an
 * interval prints it, and no thread is woken only to print.
 */
static void
print_complete(struct runstate *rs)
{
	struct rec *batch[CPU_SETSIZE];
	unsigned long long k;
	int rc;

	while (rs->rs_prc >= 0 && (k = batch_ready(rs)) != 0) {
		take_batch(rs, k, batch);
		pthread_mutex_unlock(&rs->rs_lock);
		rc = print_batch(rs, batch);
		pthread_mutex_lock(&rs->rs_lock);
		if (rc < 0) {
			rs->rs_prc = rc;
			stop_all(rs);
		} else
			rs->rs_prc |= rc;
	}
}

/* r: one record, or a list of them (linked by r_next), queued at once. */
void
post_record(struct cpu *c, struct rec *r)
{
	struct runstate *rs = c->c_run;
	struct rec *last = r;

	while (last->r_next != NULL)
		last = last->r_next;
	pthread_mutex_lock(&rs->rs_lock);
	if (c->c_tail != NULL)
		c->c_tail->r_next = r;
	else
		c->c_head = r;
	c->c_tail = last;
	if (!rs->rs_printing) {
		rs->rs_printing = 1;
		print_complete(rs);
		rs->rs_printing = 0;
	}
	pthread_mutex_unlock(&rs->rs_lock);
}

/*
 * A line after the title, or a program started once it is out, is
 * counted: every CPU thread has bound its set by then.  Returns how many
 * CPUs count; with none, there is no title, the CPU threads are told to
 * end, and the main thread keeps rs_printing.
 */
int
print_title(struct runstate *rs, int started)
{
	int i, counting = 0;

	pthread_mutex_lock(&rs->rs_lock);
	while (rs->rs_nready < started)
		pthread_cond_wait(&rs->rs_cv_main, &rs->rs_lock);
	for (i = 0; i < rs->rs_ncpu; i++)
		counting += rs->rs_cpus[i].c_started &&
		    rs->rs_cpus[i].c_counting;
	pthread_mutex_unlock(&rs->rs_lock);
	if (counting == 0) {
		stop_all(rs);
		return 0;
	}
	if (!rs->rs_o->o_noheader)
		rep_title();
	/* The first OpenMetrics file: every CPU counts from now on. */
	if (rep_flush() != 0) {
		rs->rs_prc = -2;	/* ours: the main thread prints */
		stop_all(rs);
	}
	fflush(rs->rs_o->o_out);
	pthread_mutex_lock(&rs->rs_lock);
	print_complete(rs);
	rs->rs_printing = 0;
	pthread_mutex_unlock(&rs->rs_lock);
	return counting;
}

/*
 * No CPU could count: the threads have ended; say why each failed (a
 * thread not created said so already).  Nothing goes to the output.
 */
void
say_failures(const struct runstate *rs)
{
	const struct rec *r;
	int i;

	for (i = 0; i < rs->rs_ncpu; i++)
		for (r = rs->rs_cpus[i].c_head; r != NULL; r = r->r_next)
			if (r->r_kind == R_FAIL)
				warnx("%s", r->r_msg);
}

/* --profile after the totals: the system's, or one per CPU measured. */
static void
print_profiles(struct runstate *rs)
{
	const struct opts *o = rs->rs_o;
	char what[32];
	int i;

	if (!o->o_smpl.so_percpu) {
		smpl_print_profile(rs->rs_smpl, o->o_out, -1, "system");
		return;
	}
	for (i = 0; i < rs->rs_ncpu; i++) {
		snprintf(what, sizeof(what), "cpu %d", rs->rs_cpus[i].c_id);
		smpl_print_profile(rs->rs_smpl, o->o_out, rs->rs_cpus[i].c_id,
		    what);
	}
}

/*
 * Set s's totals of cgroup g (-G, else 0) summed over the CPUs into
 * *accp (a new buffer, or NULL when no CPU has its sets); -1 out of
 * memory.
 */
static int
sum_set(struct runstate *rs, int s, int g, cpc_buf_t **accp)
{
	cpc_buf_t *acc = NULL;
	struct setgrp_elem *e;
	int i;

	for (i = 0; i < rs->rs_ncpu; i++) {
		if (rs->rs_cpus[i].c_grps[g] == NULL)
			continue;
		e = &rs->rs_cpus[i].c_grps[g]->sg_elems[s];
		if (acc == NULL &&
		    (acc = cpc_buf_create(rs->rs_cpc, e->se_set)) == NULL)
			return -1;
		cpc_buf_add(rs->rs_cpc, acc, acc, e->se_total);
	}
	*accp = acc;
	return 0;
}

/*
 * One total line per set (and cgroup of -G).  Its CPU column counts the
 * CPUs measured: those with at least one sample line, including a CPU
 * that later failed or went offline for good (its counts are in the
 * sums), not one that failed before its first sample.
 */
int
print_totals(struct runstate *rs)
{
	const struct opts *o = rs->rs_o;
	cpc_t *cpc = rs->rs_cpc;
	cpc_buf_t *acc;
	int s, i, n;

	for (i = 0, n = 0; i < rs->rs_ncpu; i++)
		n += rs->rs_cpus[i].c_measured;
	for (s = 0; s < o->o_nspecs * rs->rs_ngrp; s++) {
		if (sum_set(rs, s / rs->rs_ngrp, s % rs->rs_ngrp, &acc) != 0)
			return 0;	/* out of memory: no totals */
		if (acc == NULL)
			continue;
		rep_total(cpc, s / rs->rs_ngrp, s % rs->rs_ngrp, n,
		    cpc_buf_hrtime(cpc, acc) == 0 ? mono_now() :
		    cpc_buf_hrtime(cpc, acc), acc);
		cpc_buf_destroy(cpc, acc);
	}
	print_profiles(rs);
	if (rep_flush() != 0)
		return -2;
	return fflush(o->o_out) != 0 || ferror(o->o_out) ? -1 : 0;
}
