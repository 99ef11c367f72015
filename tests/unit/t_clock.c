/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_clock - task-clock as a member of a group led by another event,
 * across what stops and starts a set: a bind, an unbind and a rebind (the
 * tools' rotation of -c sets), and cpc_set_restart after an overflow.
 * The oracle is a task-clock counter of the thread's own, opened alone
 * (no group) straight from perf_event_open and read around the two
 * samples: the same clock, so over a spin of 40 ms the two agree within
 * the few microseconds of the reads between them.  (A group disabled and
 * enabled as a whole makes the kernel miscount such a member: it counted
 * nothing, or a fraction.)  The thread's CPU clock
 * (CLOCK_THREAD_CPUTIME_ID) is not the oracle: on a virtual machine it
 * leaves out the time the host took from the guest (steal time), which
 * task-clock keeps, and CI saw the two differ by 6%.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include <libcpc.h>

#include "tap.h"

static double
cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Spin about ms of CPU time. */
static void
spin(double ms)
{
	double t0 = cputime_ns();
	volatile long x = 0;

	while (cputime_ns() - t0 < ms * 1e6)
		for (int i = 0; i < 10000; i++)
			x++;
}

static int oracle_fd = -1;

/* The oracle's task-clock, user mode as the requests are, in ns. */
static uint64_t
oracle_ns(void)
{
	uint64_t v = 0;

	if (oracle_fd < 0) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof (a));
		a.size = sizeof (a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		oracle_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
		    0);
	}
	if (oracle_fd < 0 || read(oracle_fd, &v, sizeof (v)) != sizeof (v))
		return 0;
	return v;
}

/*
 * The task-clock (request idx) over a spin, against the oracle read just
 * outside the two samples.
 */
static void
agrees(cpc_t *cpc, cpc_set_t *set, int idx, const char *when)
{
	cpc_buf_t *a = cpc_buf_create(cpc, set), *b = cpc_buf_create(cpc, set);
	uint64_t v0 = 0, v1 = 0, o0, o1;
	double ratio;

	o0 = oracle_ns();
	cpc_set_sample(cpc, set, a);
	spin(40);
	cpc_set_sample(cpc, set, b);
	o1 = oracle_ns();
	cpc_buf_get(cpc, a, idx, &v0);
	cpc_buf_get(cpc, b, idx, &v1);
	if (o1 <= o0) {
		tap_ok(0, "%s: the oracle's task-clock read: %s", when,
		    strerror(errno));
	} else {
		ratio = (double)(v1 - v0) / (double)(o1 - o0);
		tap_ok(ratio > 0.99 && ratio < 1.01, "%s: task-clock counted "
		    "%.3f ms of the oracle's %.3f ms", when, (v1 - v0) / 1e6,
		    (o1 - o0) / 1e6);
	}
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
