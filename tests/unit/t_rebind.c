/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_rebind - binding a set again to another kind of target: from a CPU
 * back to the calling thread (the thread must not stay pinned), and from
 * an inheriting binding to a plain one (the counts of the threads that
 * inherited must not come back); and a set pinned to a CPU by one thread
 * and let go by another (the thread it pinned gets its affinity back, the
 * other keeps its own).  Oracle: getpid calls counted by the
 * syscalls:sys_enter_getpid tracepoint, exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <libcpc.h>

#include "getpids.h"
#include "steps.h"
#include "tap.h"

static void *
child(void *arg)
{
	getpids((long)arg);
	return NULL;
}

static int
ncpus_allowed(void)
{
	cpu_set_t m;

	if (sched_getaffinity(0, sizeof(m), &m) != 0)
		return -1;
	return CPU_COUNT(&m);
}

/* The CPUs a thread may run on, as a bit mask of the first 64. */
static unsigned long
mask_of(pid_t tid)
{
	unsigned long m = 0;
	cpu_set_t s;
	int i;

	if (sched_getaffinity(tid, sizeof(s), &s) != 0)
		return 0;
	for (i = 0; i < 64; i++)
		if (CPU_ISSET(i, &s))
			m |= 1UL << i;
	return m;
}

static void
pin_self(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	(void)sched_setaffinity(0, sizeof(s), &s);
}

/* A thread that binds a set to CPU 1 and waits until it is let go. */
struct pinned {
	cpc_t		*cpc;
	cpc_set_t	*set;
	pid_t		 tid;
	int		 bound;
	struct steps	 st;		/* 1 bound, 2 let go, 3 checked */
	unsigned long	 after;		/* its mask once let go */
};

static void *
pinned_main(void *arg)
{
	struct pinned *p = arg;

	p->tid = (pid_t)syscall(SYS_gettid);
	p->bound = cpc_bind_cpu(p->cpc, 1, p->set, 0);
	steps_go(&p->st, 1, 2);
	p->after = mask_of(0);
	steps_go(&p->st, 3, 0);
	return NULL;
}

/*
 * how: 0 cpc_unbind, 1 cpc_set_destroy, 2 cpc_close, 3 cpc_bind_cpu to
 * CPU 0, all by main, pinned to CPU 0 meanwhile.
 */
static void
let_go_elsewhere(int how, const char *what)
{
	struct pinned p = {
		.st = STEPS_INIT,
	};
	unsigned long mine = mask_of(0), all;
	cpu_set_t back;
	pthread_t t;
	int rc = -1;

	CPU_ZERO(&back);
	all = mine;
	if ((p.cpc = cpc_open(CPC_VER_CURRENT)) == NULL ||
	    (p.set = cpc_set_create(p.cpc)) == NULL ||
	    cpc_set_add_request(p.cpc, p.set, EV, 0, CPC_COUNT_USER, 0,
	    NULL) != 0) {
		tap_ok(0, "%s elsewhere: a set", what);
		cpc_close(p.cpc);
		return;
	}
	pthread_create(&t, NULL, pinned_main, &p);
	steps_go(&p.st, 0, 1);
	pin_self(0);
	if (p.bound == 0) {
		switch (how) {
		case 0: rc = cpc_unbind(p.cpc, p.set); break;
		case 1: rc = cpc_set_destroy(p.cpc, p.set); break;
		case 2: rc = cpc_close(p.cpc); p.cpc = NULL; break;
		case 3: rc = cpc_bind_cpu(p.cpc, 0, p.set, 0); break;
		}
	}
	tap_ok(p.bound == 0 && rc == 0, "a set on CPU 1 bound by a thread, "
	    "then %s by main", what);
	if (how == 3) {
		tap_ok(mask_of(0) == 1, "main, which bound it now, is pinned "
		    "to CPU 0 (%#lx)", mask_of(0));
		cpc_unbind(p.cpc, p.set);
	}
	steps_go(&p.st, 2, 3);
	pthread_join(t, NULL);
	tap_ok(p.after == all, "the thread it pinned has its %#lx back "
	    "(%#lx)", all, p.after);
	tap_ok(mask_of(0) == 1, "main keeps its own CPU 0 (%#lx)",
	    mask_of(0));
	for (rc = 0; rc < 64; rc++)
		if (mine & (1UL << rc))
			CPU_SET(rc, &back);
	(void)sched_setaffinity(0, sizeof(back), &back);
	cpc_close(p.cpc);
}

/* The set's count over n getpid calls of this thread. */
static uint64_t
counted(cpc_t *cpc, cpc_set_t *set, long n)
{
	cpc_buf_t *a = cpc_buf_create(cpc, set), *b = cpc_buf_create(cpc, set);
	uint64_t v0 = 0, v1 = 0;

	cpc_set_sample(cpc, set, a);
	getpids(n);
	cpc_set_sample(cpc, set, b);
	cpc_buf_get(cpc, a, 0, &v0);
	cpc_buf_get(cpc, b, 0, &v1);
	cpc_buf_destroy(cpc, a);
	cpc_buf_destroy(cpc, b);
	return v1 - v0;
}

int
main(void)
{
	cpc_set_t *set;
	cpc_buf_t *buf;
	pthread_t t;
	uint64_t v = 0;
	int before, rc, now;
	cpc_t *cpc;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	set = cpc_set_create(cpc);
	if (cpc_set_add_request(cpc, set, EV, 0, CPC_COUNT_USER, 0,
	    NULL) != 0 || (buf = cpc_buf_create(cpc, set)) == NULL) {
		tap_skip("the getpid tracepoint needs root and tracefs",
		    "rebinding");
		return tap_done();
	}

	/* A CPU, then the thread: the old affinity is back. */
	before = ncpus_allowed();
	if (before < 2 || cpc_bind_cpu(cpc, 0, set, 0) != 0) {
		tap_skip("needs two CPUs and per-CPU counting", "from a CPU");
	} else {
		tap_ok(ncpus_allowed() == 1, "bound to cpu 0: pinned there");
		rc = cpc_bind_curlwp(cpc, set, 0);
		now = ncpus_allowed();
		tap_ok(rc == 0 && now == before, "bound to the thread again: "
		    "the %d CPUs it had (%d)", before, now);
		tap_u64(counted(cpc, set, 300), 300, "and it counts the "
		    "thread's own calls");
		cpc_unbind(cpc, set);
		tap_ok(ncpus_allowed() == before, "unbound: still %d CPUs",
		    before);
	}

	/* Pinned by one thread, let go by another. */
	if (before < 2 || !(mask_of(0) & 2) || !(mask_of(0) & 1)) {
		tap_skip("needs CPUs 0 and 1", "let go by another thread");
	} else {
		static const char *const how[] = {
			"cpc_unbind", "cpc_set_destroy", "cpc_close",
			"cpc_bind_cpu",
		};
		int i;

		for (i = 0; i < 4; i++)
			let_go_elsewhere(i, how[i]);
	}

	/* Inheriting, then not: the children's counts stay behind. */
	if (cpc_bind_curlwp(cpc, set, CPC_BIND_LWP_INHERIT) != 0) {
		tap_ok(0, "bind with CPC_BIND_LWP_INHERIT: %s",
		    strerror(errno));
		return tap_done();
	}
	pthread_create(&t, NULL, child, (void *)1000L);
	pthread_join(t, NULL);
	getpids(5);
	cpc_set_sample(cpc, set, buf);
	cpc_buf_get(cpc, buf, 0, &v);
	tap_u64(v, 1005, "inheriting: a child's 1000 calls and our 5");
	cpc_unbind(cpc, set);
	tap_ok(cpc_bind_curlwp(cpc, set, 0) == 0, "bound again without "
	    "inheritance");
	getpids(7);
	cpc_set_sample(cpc, set, buf);
	cpc_buf_get(cpc, buf, 0, &v);
	tap_u64(v, 7, "the new binding counts our 7 calls alone");
	pthread_create(&t, NULL, child, (void *)50L);
	pthread_join(t, NULL);
	cpc_set_sample(cpc, set, buf);
	cpc_buf_get(cpc, buf, 0, &v);
	tap_u64(v, 7, "and a new child's calls are not inherited");
	cpc_close(cpc);
	return tap_done();
}
