/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * relay - threads that keep handing over to new threads: the workload for
 * attaching to a process whose threads are born and end while the tracer
 * seizes them one by one.
 *
 * usage: relay [-l life_us] R
 *
 * R chains run side by side.  The thread of a chain sleeps life_us
 * (default 1000), starts its successor (detached) and ends, so each chain
 * has one thread alive at almost every moment and a new one every
 * life_us.  The main thread waits until it is killed.  A thread not
 * seized by a tracer that attaches meanwhile starts successors that are
 * not traced either, for ever: what a capture that misses one leaves.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

static long life_us = 1000;

static void *
link_main(void *arg)
{
	struct timespec ts = { life_us / 1000000, life_us % 1000000 * 1000 };
	pthread_attr_t a;
	pthread_t t;
	int e;

	(void)arg;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	while ((e = pthread_create(&t, &a, link_main, NULL)) == EAGAIN)
		(void)usleep(100);
	if (e != 0)
		fprintf(stderr, "relay: pthread_create: %s\n", strerror(e));
	pthread_attr_destroy(&a);
	return NULL;
}

static void
usage(void)
{
	fprintf(stderr, "usage: relay [-l life_us] R\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	pthread_attr_t a;
	pthread_t t;
	long r, i;
	int c, e;

	while ((c = getopt(argc, argv, "l:")) != -1) {
		if (c != 'l')
			usage();
		life_us = wl_num(optarg, 1, 10000000, usage);
	}
	if (optind != argc - 1)
		usage();
	r = wl_num(argv[optind], 1, 1000, usage);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < r; i++)
		if ((e = pthread_create(&t, &a, link_main, NULL)) != 0) {
			fprintf(stderr, "relay: pthread_create: %s\n",
			    strerror(e));
			return 1;
		}
	pthread_attr_destroy(&a);
	for (;;)
		pause();
}
