/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pingpong - two threads on one CPU hand a byte back and forth N times
 * through two pipes: each round trip is two context switches (to the
 * partner and back), a known count for context-switches and
 * sched:sched_switch.
 *
 * usage: pingpong [-c cpu] [-d delay_ms] [-a after_ms] rounds
 *
 *	-c cpu		pin both threads to this CPU (without it the
 *			threads may run on two CPUs and switch less)
 *	-d delay_ms	sleep this long before the first round
 *	-a after_ms	sleep this long after the last one
 *
 * Exit status 0 when done, 2 on a usage error, 1 on a system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

static int	ping[2], pong[2];	/* main -> partner, partner -> main */
static long	rounds;

/* Move one byte from fd to fd; 0 on success. */
static int
xfer(int rfd, int wfd, int read_first)
{
	char b = 'x';

	if (read_first && read(rfd, &b, 1) != 1)
		return -1;
	if (write(wfd, &b, 1) != 1)
		return -1;
	if (!read_first && read(rfd, &b, 1) != 1)
		return -1;
	return 0;
}

static void *
partner(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++)
		if (xfer(ping[0], pong[1], 1) != 0) {
			perror("pingpong: partner");
			exit(1);
		}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct wl_args a;
	long i;
	pthread_t thr;

	wl_parse(argc, argv, "pingpong", "rounds", &a);
	rounds = a.n;
	/* Before the thread exists, so it inherits the mask. */
	if (wl_pin(a.cpu, "pingpong") != 0)
		return 1;
	if (pipe(ping) != 0 || pipe(pong) != 0) {
		perror("pingpong: pipe");
		return 1;
	}
	if ((errno = pthread_create(&thr, NULL, partner, NULL)) != 0) {
		perror("pingpong: pthread_create");
		return 1;
	}
	wl_sleep_ms(a.delay);
	for (i = 0; i < rounds; i++)
		if (xfer(pong[0], ping[1], 0) != 0) {
			perror("pingpong: main");
			return 1;
		}
	pthread_join(thr, NULL);
	wl_sleep_ms(a.after);
	/* No exit-time work (a sanitizer's leak check) on the pinned CPU. */
	_exit(0);
}
