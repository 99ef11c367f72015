/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_mtctx - libcpc from many threads at once: a context per binding.
 *
 *   shared	one set bound with cpc_bind_curlwp by 8 threads at once,
 *		40 rounds each (sample, work, sample, restart, now and then
 *		an unbind and a bind again): every thread counts its own
 *		getpid calls exactly, never another's
 *   ab		the Solaris program of the issue: A binds and makes 1000
 *		calls, B binds the same set and makes 5000; A's samples and
 *		restart act on A's context (1000, then from 0), B's on B's
 *   none	a thread with no context of a set bound by others: EINVAL,
 *		with a message, never their counts
 *   gone	one set bound by 8 threads, destroyed by main while they
 *		wait: their calls on it are EINVAL, nothing dangles, and a
 *		set bound next counts
 *   own	one handle, 8 threads that each create, bind, sample and
 *		destroy sets of their own, 40 rounds
 *   cpu	8 threads binding sets of their own to 2 CPUs and sampling
 *		them many times: no sample fails (a reader preempted between
 *		the group's read and its time stamp once made the library
 *		report the CPU gone, EIO), and each counts at least the calls
 *		its own thread made there
 *   cpumove	one set bound with cpc_bind_cpu by 8 threads in turn: a set
 *		has one CPU context, which each bind moves; every call
 *		succeeds, or fails with EINVAL or EAGAIN (the context moved
 *		away), never otherwise, and nothing is corrupted
 *
 * Oracle: syscalls:sys_enter_getpid counts getpid calls exactly, per
 * thread.  Run 100 times in a row, under ASan and under TSan (make
 * check-tsan).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libcpc.h>

#include "getpids.h"
#include "tap.h"

#define NTHR	8
#define ROUNDS	40

/* The last message of the error handler (this test reads it alone). */
static __thread char errmsg[512];

static void
keep_error(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)fn;
	(void)subcode;
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
}

/* Start together: a barrier for the threads of one part. */
static pthread_barrier_t gate;

struct worker {
	cpc_t		*cpc;
	cpc_set_t	*set;		/* shared, or NULL: its own */
	int		 id;
	int		 cpu;		/* cpu: where it binds */
	int		 bad;		/* rounds with a wrong count */
	int		 failed;	/* calls that failed */
	int		 eio;		/* cpu: samples that failed */
	char		 why[160];	/* the first failure */
};

static void
note(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->why[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
}

static cpc_set_t *
getpid_set(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);

	if (set != NULL && cpc_set_add_request(cpc, set, EV, 0,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) != 0) {
		cpc_set_destroy(cpc, set);
		return NULL;
	}
	return set;
}

/* The count of set's request 0 in this thread's context; ~0 on failure. */
static uint64_t
count(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *b)
{
	uint64_t v = ~(uint64_t)0;

	if (cpc_set_sample(cpc, set, b) == 0)
		(void)cpc_buf_get(cpc, b, 0, &v);
	return v;
}

/* One round of a thread's own work on set, counted: 0, or -1 noted. */
static int
round_of(struct worker *w, cpc_set_t *set, cpc_buf_t *a, cpc_buf_t *b,
    cpc_buf_t *d, long n)
{
	uint64_t v;

	if (cpc_set_sample(w->cpc, set, a) != 0) {
		w->failed++;
		note(w, "sample: %s", strerror(errno));
		return -1;
	}
	getpids(n);
	if (cpc_set_sample(w->cpc, set, b) != 0) {
		w->failed++;
		note(w, "sample: %s", strerror(errno));
		return -1;
	}
	cpc_buf_sub(w->cpc, d, b, a);
	(void)cpc_buf_get(w->cpc, d, 0, &v);
	if (v != (uint64_t)n) {
		w->bad++;
		note(w, "counted %llu of its %ld calls",
		    (unsigned long long)v, n);
		return -1;
	}
	return 0;
}

/* shared: the set bound here, then rounds of exact counts. */
static void *
shared_main(void *arg)
{
	struct worker *w = arg;
	cpc_buf_t *a = cpc_buf_create(w->cpc, w->set);
	cpc_buf_t *b = cpc_buf_create(w->cpc, w->set);
	cpc_buf_t *d = cpc_buf_create(w->cpc, w->set);
	uint64_t v = ~(uint64_t)0;
	int r;

	pthread_barrier_wait(&gate);
	if (a == NULL || b == NULL || d == NULL ||
	    cpc_bind_curlwp(w->cpc, w->set, 0) != 0) {
		w->failed++;
		note(w, "buffers or bind: %s", strerror(errno));
		goto out;
	}
	for (r = 0; r < ROUNDS; r++) {
		(void)round_of(w, w->set, a, b, d, 50 + 7 * w->id + r);
		/* From its preset (0) again: only this thread's context. */
		getpids(3);
		if (cpc_set_restart(w->cpc, w->set) != 0 ||
		    (v = count(w->cpc, w->set, a)) > 1) {
			w->bad++;
			note(w, "after cpc_set_restart: %llu",
			    (unsigned long long)v);
		}
		if (r % 10 == 9 && (cpc_unbind(w->cpc, w->set) != 0 ||
		    cpc_bind_curlwp(w->cpc, w->set, 0) != 0)) {
			w->failed++;
			note(w, "unbind and bind again: %s", strerror(errno));
		}
	}
	if (cpc_unbind(w->cpc, w->set) != 0) {
		w->failed++;
		note(w, "unbind: %s", strerror(errno));
	}
out:
	cpc_buf_destroy(w->cpc, a);
	cpc_buf_destroy(w->cpc, b);
	cpc_buf_destroy(w->cpc, d);
	return NULL;
}

/* Run fn in NTHR threads over w[]; the number that went wrong. */
static int
run(void *(*fn)(void *), struct worker *w, const char *what)
{
	pthread_t t[NTHR];
	int i, wrong = 0;

	pthread_barrier_init(&gate, NULL, NTHR);
	for (i = 0; i < NTHR; i++)
		pthread_create(&t[i], NULL, fn, &w[i]);
	for (i = 0; i < NTHR; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&gate);
	for (i = 0; i < NTHR; i++)
		if (w[i].bad != 0 || w[i].failed != 0) {
			if (wrong++ == 0)
				printf("# %s: thread %d: %d wrong, %d failed: "
				    "%s\n", what, i, w[i].bad, w[i].failed,
				    w[i].why);
		}
	return wrong;
}

static void
shared(cpc_t *cpc)
{
	struct worker w[NTHR];
	cpc_set_t *set = getpid_set(cpc);
	int i;

	if (!tap_ok(set != NULL, "shared: a getpid set"))
		return;
	memset(w, 0, sizeof(w));
	for (i = 0; i < NTHR; i++) {
		w[i].cpc = cpc;
		w[i].set = set;
		w[i].id = i;
	}
	tap_ok(run(shared_main, w, "shared") == 0, "shared: one set bound by "
	    "%d threads at once, %d rounds each: every count exact",
	    NTHR, ROUNDS);
	tap_ok(cpc_set_destroy(cpc, set) == 0, "shared: the set destroyed");
}

/* ab: A's and B's steps, in turn. */
struct ab {
	cpc_t		*cpc;
	cpc_set_t	*set;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cv;
	int		 step;
	uint64_t	 b_count;
	int		 b_rc;
};

static void
ab_wait(struct ab *x, int step)
{
	pthread_mutex_lock(&x->lock);
	while (x->step < step)
		pthread_cond_wait(&x->cv, &x->lock);
	pthread_mutex_unlock(&x->lock);
}

static void
ab_go(struct ab *x, int step)
{
	pthread_mutex_lock(&x->lock);
	x->step = step;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->lock);
}

static void *
b_main(void *arg)
{
	struct ab *x = arg;
	cpc_buf_t *b = cpc_buf_create(x->cpc, x->set);

	ab_wait(x, 1);
	x->b_rc = cpc_bind_curlwp(x->cpc, x->set, 0);
	getpids(5000);
	ab_go(x, 2);
	ab_wait(x, 3);
	x->b_count = count(x->cpc, x->set, b);
	cpc_buf_destroy(x->cpc, b);
	(void)cpc_unbind(x->cpc, x->set);
	return NULL;
}

static void
ab(cpc_t *cpc)
{
	struct ab x = { .cpc = cpc, .lock = PTHREAD_MUTEX_INITIALIZER,
	    .cv = PTHREAD_COND_INITIALIZER };
	cpc_buf_t *a;
	pthread_t t;

	if (!tap_ok((x.set = getpid_set(cpc)) != NULL, "ab: a getpid set"))
		return;
	a = cpc_buf_create(cpc, x.set);
	pthread_create(&t, NULL, b_main, &x);
	tap_ok(cpc_bind_curlwp(cpc, x.set, 0) == 0, "ab: A binds the set");
	getpids(1000);
	ab_go(&x, 1);
	ab_wait(&x, 2);
	tap_ok(x.b_rc == 0, "ab: B binds the same set");
	tap_u64(count(cpc, x.set, a), 1000, "ab: A's sample: A's 1000 calls, "
	    "not B's 5000");
	tap_ok(cpc_set_restart(cpc, x.set) == 0, "ab: A's cpc_set_restart "
	    "acts on A's context");
	getpids(10);
	tap_u64(count(cpc, x.set, a), 10, "ab: A counts from 0 again");
	ab_go(&x, 3);
	pthread_join(t, NULL);
	tap_u64(x.b_count, 5000, "ab: B's sample: B's 5000 calls, A's restart "
	    "did not touch it");
	tap_ok(cpc_unbind(cpc, x.set) == 0, "ab: A unbinds its own");
	cpc_buf_destroy(cpc, a);
	cpc_set_destroy(cpc, x.set);
}

static void *
bound_waiting(void *arg)
{
	struct ab *x = arg;

	x->b_rc = cpc_bind_curlwp(x->cpc, x->set, 0);
	getpids(40);
	ab_go(x, 1);
	ab_wait(x, 2);
	return NULL;
}

static void
none(cpc_t *cpc)
{
	struct ab x = { .cpc = cpc, .lock = PTHREAD_MUTEX_INITIALIZER,
	    .cv = PTHREAD_COND_INITIALIZER };
	cpc_buf_t *a;
	pthread_t t;
	int rc;

	if (!tap_ok((x.set = getpid_set(cpc)) != NULL, "none: a getpid set"))
		return;
	a = cpc_buf_create(cpc, x.set);
	pthread_create(&t, NULL, bound_waiting, &x);
	ab_wait(&x, 1);
	errno = 0;
	errmsg[0] = '\0';
	rc = cpc_set_sample(cpc, x.set, a);
	tap_ok(x.b_rc == 0 && rc == -1 && errno == EINVAL,
	    "none: sampling a set bound by another thread only: EINVAL");
	tap_ok(strstr(errmsg, "no context") != NULL, "none: with a message "
	    "(%s)", errmsg);
	errno = 0;
	errmsg[0] = '\0';
	tap_ok(cpc_set_restart(cpc, x.set) == -1 && errno == EINVAL &&
	    strstr(errmsg, "no context") != NULL, "none: its "
	    "cpc_set_restart too: EINVAL (%s)", errmsg);
	errno = 0;
	tap_ok(cpc_unbind(cpc, x.set) == -1 && errno == EINVAL,
	    "none: its cpc_unbind too: EINVAL");
	ab_go(&x, 2);
	pthread_join(t, NULL);
	errno = 0;
	tap_ok(cpc_unbind(cpc, x.set) == -1 && errno == EINVAL,
	    "none: after the thread ended, still nothing to unbind here");
	cpc_buf_destroy(cpc, a);
	cpc_set_destroy(cpc, x.set);
}

/* gone: bound, then told the set is gone, then a set of its own. */
static pthread_barrier_t bound_gate, gone_gate;

static void *
gone_main(void *arg)
{
	struct worker *w = arg;
	cpc_set_t *mine;
	cpc_buf_t *a, *b, *d;

	if (cpc_bind_curlwp(w->cpc, w->set, 0) != 0) {
		w->failed++;
		note(w, "bind: %s", strerror(errno));
	}
	pthread_barrier_wait(&bound_gate);
	pthread_barrier_wait(&gone_gate);
	errno = 0;
	if (cpc_set_restart(w->cpc, NULL) != -1 || errno != EINVAL ||
	    cpc_disable(w->cpc) != -1 || errno != EINVAL) {
		w->bad++;
		note(w, "the set destroyed: restart or disable did not fail");
	}
	mine = getpid_set(w->cpc);
	a = mine ? cpc_buf_create(w->cpc, mine) : NULL;
	b = mine ? cpc_buf_create(w->cpc, mine) : NULL;
	d = mine ? cpc_buf_create(w->cpc, mine) : NULL;
	if (d == NULL || cpc_bind_curlwp(w->cpc, mine, 0) != 0) {
		w->failed++;
		note(w, "a set of its own: %s", strerror(errno));
	} else {
		(void)round_of(w, mine, a, b, d, 30 + w->id);
	}
	cpc_buf_destroy(w->cpc, a);
	cpc_buf_destroy(w->cpc, b);
	cpc_buf_destroy(w->cpc, d);
	cpc_set_destroy(w->cpc, mine);
	return NULL;
}

static void
gone(cpc_t *cpc)
{
	struct worker w[NTHR];
	pthread_t t[NTHR];
	cpc_set_t *set = getpid_set(cpc);
	int i, wrong = 0, rc;

	if (!tap_ok(set != NULL, "gone: a getpid set"))
		return;
	memset(w, 0, sizeof(w));
	pthread_barrier_init(&bound_gate, NULL, NTHR + 1);
	pthread_barrier_init(&gone_gate, NULL, NTHR + 1);
	for (i = 0; i < NTHR; i++) {
		w[i].cpc = cpc;
		w[i].set = set;
		w[i].id = i;
		pthread_create(&t[i], NULL, gone_main, &w[i]);
	}
	pthread_barrier_wait(&bound_gate);
	rc = cpc_set_destroy(cpc, set);
	pthread_barrier_wait(&gone_gate);
	for (i = 0; i < NTHR; i++) {
		pthread_join(t[i], NULL);
		if (w[i].bad != 0 || w[i].failed != 0) {
			if (wrong++ == 0)
				printf("# gone: thread %d: %s\n", i, w[i].why);
		}
	}
	pthread_barrier_destroy(&bound_gate);
	pthread_barrier_destroy(&gone_gate);
	tap_ok(rc == 0 && wrong == 0, "gone: a set bound by %d threads "
	    "destroyed by another: their calls on it EINVAL, their next set "
	    "counts exactly", NTHR);
}

/* own: sets and buffers of its own, made and destroyed each round. */
static void *
own_main(void *arg)
{
	struct worker *w = arg;
	int r;

	pthread_barrier_wait(&gate);
	for (r = 0; r < ROUNDS; r++) {
		cpc_set_t *set = getpid_set(w->cpc);
		cpc_buf_t *a = set ? cpc_buf_create(w->cpc, set) : NULL;
		cpc_buf_t *b = set ? cpc_buf_create(w->cpc, set) : NULL;
		cpc_buf_t *d = set ? cpc_buf_create(w->cpc, set) : NULL;

		if (d == NULL || cpc_bind_curlwp(w->cpc, set, 0) != 0) {
			w->failed++;
			note(w, "set, buffers or bind: %s", strerror(errno));
		} else {
			(void)round_of(w, set, a, b, d, 20 + w->id + r);
		}
		cpc_buf_destroy(w->cpc, a);
		cpc_buf_destroy(w->cpc, b);
		cpc_buf_destroy(w->cpc, d);
		if (set != NULL && cpc_set_destroy(w->cpc, set) != 0) {
			w->failed++;
			note(w, "destroy: %s", strerror(errno));
		}
	}
	return NULL;
}

static void
own(cpc_t *cpc)
{
	struct worker w[NTHR];
	int i;

	memset(w, 0, sizeof(w));
	for (i = 0; i < NTHR; i++) {
		w[i].cpc = cpc;
		w[i].id = i;
	}
	tap_ok(run(own_main, w, "own") == 0, "own: one handle, %d threads "
	    "making, binding and destroying sets of their own: every count "
	    "exact", NTHR);
}

#define CPU_SAMPLES	10000

/* cpu: a set of its own bound to w->cpu, sampled over and over. */
static void *
cpu_main(void *arg)
{
	struct worker *w = arg;
	cpc_set_t *set = getpid_set(w->cpc);
	cpc_buf_t *a = set ? cpc_buf_create(w->cpc, set) : NULL;
	uint64_t v, last = 0;
	int i;

	pthread_barrier_wait(&gate);
	if (a == NULL || cpc_bind_cpu(w->cpc, w->cpu, set, 0) != 0) {
		w->failed++;
		note(w, "set or bind to cpu %d: %s", w->cpu, strerror(errno));
		goto out;
	}
	for (i = 0; i < CPU_SAMPLES; i++) {
		getpids(2);
		if (cpc_set_sample(w->cpc, set, a) != 0) {
			w->eio += errno == EIO;
			w->failed++;
			note(w, "sample %d: %s (%s)", i, strerror(errno),
			    errmsg);
			continue;
		}
		(void)cpc_buf_get(w->cpc, a, 0, &v);
		/* Its own calls at least, and never fewer than before. */
		if (v < 2 * (uint64_t)(i + 1) || v < last) {
			w->bad++;
			note(w, "sample %d: %llu", i, (unsigned long long)v);
		}
		last = v;
		if (i % 64 == 0)
			sched_yield();
	}
	if (cpc_unbind(w->cpc, set) != 0) {
		w->failed++;
		note(w, "unbind: %s", strerror(errno));
	}
out:
	cpc_buf_destroy(w->cpc, a);
	cpc_set_destroy(w->cpc, set);
	return NULL;
}

static void
cpu(cpc_t *cpc)
{
	struct worker w[NTHR];
	int i, eio = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tap_skip("fewer than 2 CPUs online", "cpu: 8 threads on 2 CPUs");
		return;
	}
	memset(w, 0, sizeof(w));
	for (i = 0; i < NTHR; i++) {
		w[i].cpc = cpc;
		w[i].id = i;
		w[i].cpu = i % 2;
	}
	tap_ok(run(cpu_main, w, "cpu") == 0, "cpu: %d threads binding sets "
	    "of their own to 2 CPUs, %d samples each: none fails, each "
	    "counts its own calls", NTHR, CPU_SAMPLES);
	for (i = 0; i < NTHR; i++)
		eio += w[i].eio;
	tap_ok(eio == 0, "cpu: no sample took the CPU for gone (%d EIO)",
	    eio);
}

/* cpumove: bind, sample, unbind one shared set, over and over. */
static void *
cpumove_main(void *arg)
{
	struct worker *w = arg;
	cpc_buf_t *a = cpc_buf_create(w->cpc, w->set);
	int i;

	pthread_barrier_wait(&gate);
	for (i = 0; a != NULL && i < 200; i++) {
		errno = 0;
		if (cpc_bind_cpu(w->cpc, w->cpu, w->set, 0) != 0 ||
		    cpc_set_sample(w->cpc, w->set, a) != 0 ||
		    cpc_unbind(w->cpc, w->set) != 0) {
			if (errno != EINVAL && errno != EAGAIN) {
				w->failed++;
				note(w, "round %d: %s", i, strerror(errno));
			}
		}
	}
	cpc_buf_destroy(w->cpc, a);
	return NULL;
}

static void
cpumove(cpc_t *cpc)
{
	struct worker w[NTHR];
	cpc_set_t *set = getpid_set(cpc);
	int i;

	if (!tap_ok(set != NULL, "cpumove: a getpid set"))
		return;
	memset(w, 0, sizeof(w));
	for (i = 0; i < NTHR; i++) {
		w[i].cpc = cpc;
		w[i].set = set;
		w[i].cpu = i % 2;
	}
	tap_ok(run(cpumove_main, w, "cpumove") == 0, "cpumove: one set bound "
	    "to CPUs by %d threads in turn: each call succeeds or is EINVAL "
	    "or EAGAIN", NTHR);
	tap_ok(cpc_set_destroy(cpc, set) == 0, "cpumove: the set destroyed");
}

int
main(void)
{
	cpc_t *cpc;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	cpc_seterrhndlr(cpc, keep_error);
	shared(cpc);
	ab(cpc);
	none(cpc);
	gone(cpc);
	own(cpc);
	cpu(cpc);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
		cpumove(cpc);
	cpc_close(cpc);
	return tap_done();
}
