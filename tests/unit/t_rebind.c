/*
 * t_rebind - binding a set again to another kind of target: from a CPU
 * back to the calling thread (the thread must not stay pinned), and from
 * an inheriting binding to a plain one (the counts of the threads that
 * inherited must not come back).  Oracle: getpid calls counted by the
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

#include "tap.h"

#define EV	"syscalls:sys_enter_getpid"

static void
getpids(long n)
{
	long i;

	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
}

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
