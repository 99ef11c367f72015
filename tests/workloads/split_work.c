/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * split_work - spend three quarters of its CPU time in one function and
 * one quarter in another: the oracle for a profile's percentages.
 *
 * usage: split_work [-t] M
 *
 *	-t	do the work in a second thread (main waits in pthread_join)
 *
 * split_hot runs 3 * M million iterations of a loop, split_cold M million
 * of the very same loop, in 100 alternating rounds (so that a profile
 * cut short keeps the ratio).  Both are noinline, keep their frame
 * pointers (so call chains walk through them) and are named in the
 * symbol table.  M from 1 to 100000.  Prints "done <tid>" at the end.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "wl.h"

#define ROUNDS	100

static volatile uint64_t sink;

/* The loop both share: the same instructions per iteration. */
#define SPIN(n) do {							\
	uint64_t i_, x_ = sink;						\
	for (i_ = 0; i_ < (n); i_++)					\
		x_ = x_ * 6364136223846793005ULL + 1442695040888963407ULL; \
	sink = x_;							\
} while (0)

__attribute__((noinline)) void split_hot(uint64_t n);
__attribute__((noinline)) void split_cold(uint64_t n);

void
split_hot(uint64_t n)
{
	SPIN(3 * n);
}

void
split_cold(uint64_t n)
{
	SPIN(n);
}

static long m;

static void *
work(void *arg)
{
	uint64_t per = (uint64_t)m * 1000000 / ROUNDS;
	int r;

	(void)arg;
	for (r = 0; r < ROUNDS; r++) {
		split_hot(per);
		split_cold(per);
	}
	printf("done %ld\n", (long)syscall(SYS_gettid));
	return NULL;
}

static void
usage(void)
{
	wl_usage("split_work", "[-t] M");
}

int
main(int argc, char **argv)
{
	pthread_t t;
	int thread = 0;

	if (argc == 3 && strcmp(argv[1], "-t") == 0) {
		thread = 1;
		argv++;
		argc--;
	}
	if (argc != 2)
		usage();
	m = wl_num(argv[1], 1, 100000, usage);
	if (!thread) {
		work(NULL);
		return 0;
	}
	if (pthread_create(&t, NULL, work, NULL) != 0)
		return 1;
	pthread_join(t, NULL);
	return 0;
}
