/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paced - make getpid(2) calls at an exact rate for a fixed time: the
 * oracle for a rate read through Prometheus (rate() over a window must
 * give the rate), and, sleeping after a burst, a long-lived process of
 * known count to give an odd name.
 *
 * usage: paced [-b burst] [-n name] [-r rate] duration_ms
 *
 *	-b burst	make this many calls at once at the start
 *	-n name		set the process's name (comm) with
 *			prctl(PR_SET_NAME) first; the kernel keeps the
 *			first 15 bytes
 *	-r rate		then this many calls per second (default 1000;
 *			0: none, just sleep until the end)
 *
 * Every TICK_MS (10 ms) of CLOCK_MONOTONIC, on an absolute deadline, it
 * makes the calls due so far: after t seconds it has made
 * burst + floor(rate * t) calls, whatever the scheduling delays, so the
 * count over any window of a few seconds is rate times its length to
 * within one tick's calls.  At duration_ms it stops, having made exactly
 * burst + rate * duration_ms / 1000 calls (rounded down), and prints
 *
 *	paced <pid> <calls>
 *
 * where pid is gettid(2) of its one thread.  The calls go through
 * syscall(2), so no libc cache can absorb one; nothing else in this
 * program calls getpid.  Exit status 0, 2 on a usage error, 1 when
 * stdout could not be written.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

#define	PROG		"paced"
#define	TICK_MS		10
#define	NS		1000000000LL

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-b burst] [-n name] [-r rate] "
	    "duration_ms\n", PROG);
	exit(2);
}

static long long
elapsed_ns(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * NS +
	    (now.tv_nsec - start->tv_nsec);
}

/* start plus ns, for an absolute sleep. */
static struct timespec
ts_after(const struct timespec *start, long long ns)
{
	struct timespec t;

	ns += start->tv_nsec;
	t.tv_sec = start->tv_sec + ns / NS;
	t.tv_nsec = ns % NS;
	return t;
}

static void
calls(long long n)
{
	while (n-- > 0)
		(void)syscall(SYS_getpid);
}

/*
 * Keep the count at floor(rate * t) until duration_ms; the number of
 * calls made.
 */
static long long
pace(long rate, long duration_ms)
{
	struct timespec start, next;
	long long end = duration_ms * 1000000LL, made = 0, due, t, tick;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (tick = 1;; tick++) {
		t = elapsed_ns(&start);
		if (t > end)
			t = end;
		due = rate * (t / NS) + rate * (t % NS) / NS;
		calls(due - made);
		made = due;
		if (t >= end)
			return made;
		next = ts_after(&start, tick * TICK_MS * 1000000LL);
		if (tick * TICK_MS * 1000000LL > end)
			next = ts_after(&start, end);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
		    NULL) != 0)
			;
	}
}

int
main(int argc, char **argv)
{
	long burst = 0, rate = 1000, duration;
	const char *name = NULL;
	long long made;
	int ch;

	while ((ch = getopt(argc, argv, "b:n:r:")) != -1) {
		switch (ch) {
		case 'b':
			burst = wl_num(optarg, 0, 1000000000L, usage);
			break;
		case 'n':
			name = optarg;
			break;
		case 'r':
			rate = wl_num(optarg, 0, 10000000L, usage);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	duration = wl_num(argv[optind], 0, 86400000L, usage);
	if (name != NULL)
		(void)prctl(PR_SET_NAME, name, 0, 0, 0);
	calls(burst);
	made = burst + pace(rate, duration);
	printf("%s %ld %lld\n", PROG, (long)syscall(SYS_gettid), made);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
