/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kidthreads - a child whose threads end in an unusual order, with known
 * getpid(2) calls per thread: the oracle for a process's lines when its
 * first thread is not its last.
 *
 * usage: kidthreads lead | exec
 *
 * The parent makes 3 calls, forks a child and waits for it.  The child
 * makes 5 calls in its first thread, then
 *	lead	starts a thread that sleeps 50 ms and makes 30 calls, and
 *		ends its first thread (pthread_exit): the process ends with
 *		that thread
 *	exec	starts a thread that makes 11 calls and executes this
 *		program again as "kidthreads idle" (100 calls), while the
 *		first thread waits for it
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *prog;

static void
calls(int n)
{
	while (n-- > 0)
		(void)syscall(SYS_getpid);
}

static void *
late(void *arg)
{
	struct timespec ts = { 0, 50000000 };

	(void)arg;
	nanosleep(&ts, NULL);
	calls(30);
	return NULL;
}

static void *
execer(void *arg)
{
	(void)arg;
	calls(11);
	execl(prog, prog, "idle", (char *)NULL);
	_exit(127);
}

int
main(int argc, char **argv)
{
	pthread_t t;
	pid_t kid;
	int lead;

	prog = argv[0];
	if (argc != 2 || (strcmp(argv[1], "lead") != 0 &&
	    strcmp(argv[1], "exec") != 0 && strcmp(argv[1], "idle") != 0)) {
		fprintf(stderr, "usage: kidthreads lead | exec\n");
		return 2;
	}
	if (strcmp(argv[1], "idle") == 0) {
		calls(100);
		return 0;
	}
	lead = strcmp(argv[1], "lead") == 0;
	calls(3);
	if ((kid = fork()) < 0)
		return 1;
	if (kid == 0) {
		calls(5);
		if (pthread_create(&t, NULL, lead ? late : execer, NULL) != 0)
			_exit(1);
		if (lead)
			pthread_exit(NULL);
		pthread_join(t, NULL);
		_exit(1);
	}
	return waitpid(kid, NULL, 0) == kid ? 0 : 1;
}
