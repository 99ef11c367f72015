/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary-ivfloor.c - the floor of cpustat's per-interval cost: a thread per
 * online CPU of our mask, pinned to it, sleeping to the absolute
 * deadlines start + k * interval (a futex wait with a CLOCK_MONOTONIC
 * timeout, as cpustat's nap.c) and, with -r, reading a group of
 * cpu-clock and context-switches counting on its CPU once per wake: one
 * wake-up and one read per CPU per interval, no posting, no printing.
 *
 *	summary-ivfloor [-r] interval count
 *
 * bench/summary times it beside cpustat: what cpustat costs per interval
 * above this is its own; this much is the price of waking each CPU's
 * thread (and reading its counters) at all.
 */
#define _GNU_SOURCE
#include <err.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int		 g_read;
static int64_t		 g_ival, g_base;
static long		 g_count;
static int		 g_word;	/* never set: the waits time out */

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
open_sw(int cpu, int config, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = (uint64_t)config;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, group,
	    PERF_FLAG_FD_CLOEXEC);
}

static void *
cpu_main(void *arg)
{
	int cpu = (int)(intptr_t)arg, fd = -1;
	uint64_t buf[8];
	cpu_set_t one;
	long k;

	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);	/* as cpustat */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	(void)sched_setaffinity(0, sizeof(one), &one);
	if (g_read && ((fd = open_sw(cpu, PERF_COUNT_SW_CPU_CLOCK, -1)) < 0 ||
	    open_sw(cpu, PERF_COUNT_SW_CONTEXT_SWITCHES, fd) < 0))
		err(1, "perf_event_open on cpu %d", cpu);
	for (k = 1; k <= g_count; k++) {
		int64_t t = g_base + k * g_ival;
		struct timespec ts = { t / 1000000000, t % 1000000000 };

		(void)syscall(SYS_futex, &g_word, FUTEX_WAIT_BITSET_PRIVATE, 0,
		    &ts, NULL, FUTEX_BITSET_MATCH_ANY);
		if (fd >= 0 && read(fd, buf, sizeof(buf)) < 0)
			err(1, "read");
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t thr[CPU_SETSIZE];
	cpu_set_t mask;
	int i, n = 0;

	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		g_read = 1;
		argv++;
		argc--;
	}
	if (argc != 3)
		errx(2, "usage: summary-ivfloor [-r] interval count");
	g_ival = (int64_t)(atof(argv[1]) * 1e9 + 0.5);
	g_count = atol(argv[2]);
	if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
		err(1, "sched_getaffinity");
	g_base = now_ns();
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &mask) && pthread_create(&thr[n++], NULL,
		    cpu_main, (void *)(intptr_t)i) != 0)
			err(1, "pthread_create");
	while (n > 0)
		pthread_join(thr[--n], NULL);
	return 0;
}
