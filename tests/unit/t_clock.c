/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_clock - task-clock as a member of a group led by another event,
 * across what stops and starts a set: a bind, an unbind and a rebind (the
 * tools' rotation of -c sets), and cpc_set_restart after an overflow.
 * The oracle is the thread's own CPU clock (CLOCK_THREAD_CPUTIME_ID):
 * task-clock counts the same time, so over a spin of some tens of
 * milliseconds the two agree within a few percent.  (A group disabled and
 * enabled as a whole makes the kernel miscount such a member: it counted
 * nothing, or a fraction.)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <libcpc.h>

#include "tap.h"

static double
cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Spin about ms of CPU time; the thread's CPU time it took, in ns. */
static double
spin(double ms)
{
	double t0 = cputime_ns();
	volatile long x = 0;

	while (cputime_ns() - t0 < ms * 1e6)
		for (int i = 0; i < 10000; i++)
			x++;
	return cputime_ns() - t0;
}

/* The task-clock (request idx) over a spin, against the thread clock. */
static void
agrees(cpc_t *cpc, cpc_set_t *set, int idx, const char *when)
{
	cpc_buf_t *a = cpc_buf_create(cpc, set), *b = cpc_buf_create(cpc, set);
	uint64_t v0 = 0, v1 = 0;
	double ns, ratio;

	cpc_set_sample(cpc, set, a);
	ns = spin(40);
	cpc_set_sample(cpc, set, b);
	cpc_buf_get(cpc, a, idx, &v0);
	cpc_buf_get(cpc, b, idx, &v1);
	ratio = (double)(v1 - v0) / ns;
	tap_ok(ratio > 0.95 && ratio < 1.05, "%s: task-clock counted %.1f ms "
	    "of %.1f ms on the thread's clock", when, (v1 - v0) / 1e6,
	    ns / 1e6);
	cpc_buf_destroy(cpc, a);
	cpc_buf_destroy(cpc, b);
}

static volatile sig_atomic_t nsig;

static void
on_emt(int sig)
{
	(void)sig;
	nsig++;
}

int
main(void)
{
	cpc_set_t *set, *ovf;
	cpc_t *cpc;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	set = cpc_set_create(cpc);
	if (cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER,
	    0, NULL) != 0 || cpc_set_add_request(cpc, set, "task-clock", 0,
	    CPC_COUNT_USER, 0, NULL) != 1 ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_ok(0, "a page-faults,task-clock set bound: %s",
		    strerror(errno));
		return tap_done();
	}
	agrees(cpc, set, 1, "bound");
	cpc_unbind(cpc, set);
	spin(10);
	if (cpc_bind_curlwp(cpc, set, 0) == 0)
		agrees(cpc, set, 1, "unbound and bound again");
	cpc_unbind(cpc, set);
	cpc_bind_curlwp(cpc, set, 0);
	agrees(cpc, set, 1, "a third bind");
	cpc_set_destroy(cpc, set);

	/* An overflow set: the overflowing request leads the group. */
	signal(SIGEMT, on_emt);
	ovf = cpc_set_create(cpc);
	if (cpc_set_add_request(cpc, ovf, "task-clock", 0, CPC_COUNT_USER, 0,
	    NULL) != 0 || cpc_set_add_request(cpc, ovf, "page-faults",
	    UINT64_MAX - 1000000, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0,
	    NULL) != 1 || cpc_bind_curlwp(cpc, ovf, 0) != 0) {
		tap_ok(0, "an overflow set bound: %s", strerror(errno));
		return tap_done();
	}
	agrees(cpc, ovf, 0, "overflow set, bound");
	cpc_set_restart(cpc, ovf);
	agrees(cpc, ovf, 0, "overflow set, after cpc_set_restart");
	tap_ok(cpc_disable(cpc) == 0 && cpc_enable(cpc) == 0,
	    "cpc_disable, cpc_enable");
	agrees(cpc, ovf, 0, "overflow set, after cpc_disable and cpc_enable");
	cpc_close(cpc);
	return tap_done();
}
