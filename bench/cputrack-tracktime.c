/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cputrack-tracktime.c - the timing helper and the small workloads of
 * bench/cputrack.  One program, three commands:
 *
 *	cputrack-tracktime run [-o out] [-e err] [-t timeout] -- cmd [arg...]
 *	cputrack-tracktime spin N
 *	cputrack-tracktime storm T
 *
 * run: runs cmd with stdin on /dev/null, stdout on the file out and
 * stderr on the file err (both /dev/null unless given), in a process
 * group of its own, and prints one line
 *
 *	R <status> <wall s> <utime s> <stime s> <maxrss KB> <timed out 0|1>
 *
 * status is the exit status, or 128 + the signal that killed cmd; utime,
 * stime and maxrss are wait4's, so they include every child cmd reaped
 * (a tracer reaps its tracees).  The child is forked and waits on a pipe;
 * the clock (CLOCK_MONOTONIC) starts just before it is let go to execvp()
 * and stops when wait4 returns, so the fork is not in the figure.  If cmd
 * outlives the timeout (default 120 s) its process group gets SIGTERM,
 * then SIGKILL one second later.
 *
 * spin: a CPU-bound single thread, N iterations of a loop the compiler
 * cannot remove; prints "spin <seconds>", the loop's own wall time.
 *
 * storm: T threads created and joined one after the other, as
 * "threads_getpid -s -k 0 T" (the stand-in when tests/workloads/
 * threads_getpid.c is missing); prints nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "spawn.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
usage(void)
{
	fprintf(stderr, "usage: cputrack-tracktime run [-o out] [-e err] "
	    "[-t timeout] -- cmd [arg...]\n"
	    "       cputrack-tracktime spin N\n"
	    "       cputrack-tracktime storm T\n");
	exit(2);
}

static long long
number(const char *s, long long lo, long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
		usage();
	return v;
}

static int
spin(long long n)
{
	volatile unsigned long long x = 0;
	double t0, t1;
	long long i;

	t0 = now();
	for (i = 0; i < n; i++)
		x += (unsigned long long)i ^ (x >> 3);
	t1 = now();
	printf("spin %.6f\n", t1 - t0);
	return fflush(stdout) != 0;
}

static void *
nothing(void *arg)
{
	return arg;
}

static int
storm(long long t)
{
	pthread_attr_t attr;
	pthread_t thr;
	size_t stack = 64 * 1024;
	long long i;
	int e;

	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = PTHREAD_STACK_MIN;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	for (i = 0; i < t; i++) {
		if ((e = pthread_create(&thr, &attr, nothing, NULL)) != 0) {
			fprintf(stderr,
			    "cputrack-tracktime: pthread_create: %s\n",
			    strerror(e));
			return 1;
		}
		pthread_join(thr, NULL);
	}
	return 0;
}

static void
onalarm(int sig)
{
	(void)sig;
}

/* fd on path (for writing unless rd), or exit 1. */
static int
openfile(const char *path, int rd)
{
	int fd = open(path, rd ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC,
	    0644);

	if (fd < 0) {
		fprintf(stderr, "cputrack-tracktime: %s: %s\n", path,
		    strerror(errno));
		exit(1);
	}
	return fd;
}

static int
run(int argc, char **argv)
{
	const char *out = "/dev/null", *errf = "/dev/null";
	double timeout = 120, t0, wall, deadline;
	struct rusage ru;
	struct sigaction sa;
	struct itimerval it0;
	int go, ch, status = 0, timed_out = 0, in, fo, fe;
	pid_t pid, r;

	while ((ch = getopt(argc, argv, "+e:o:t:")) != -1) {
		switch (ch) {
		case 'e':
			errf = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 't':
			timeout = strtod(optarg, NULL);
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || timeout <= 0)
		usage();
	in = openfile("/dev/null", 1);
	fo = openfile(out, 0);
	fe = openfile(errf, 0);
	if ((pid = spawn_held("cputrack-tracktime", argv + optind, in, fo, fe,
	    1, &go)) < 0)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onalarm;	/* no SA_RESTART: wait4 returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	close(in);
	close(fo);
	close(fe);

	t0 = now();
	if (go_release("cputrack-tracktime", go) != 0)
		return 1;
	/*
	 * Block in wait4 (polling would put the clock's resolution at the
	 * poll period); an alarm without SA_RESTART interrupts it at the
	 * timeout.
	 */
	for (deadline = t0 + timeout;;) {
		double left = deadline - now();
		struct itimerval it;

		if (left <= 0) {
			(void)kill(-pid, timed_out ? SIGKILL : SIGTERM);
			timed_out = 1;
			deadline = now() + 1;
			left = 1;
		}
		memset(&it, 0, sizeof(it));
		it.it_value.tv_sec = (time_t)left;
		it.it_value.tv_usec = (suseconds_t)((left -
		    (double)(time_t)left) * 1e6);
		if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
			it.it_value.tv_usec = 1;
		setitimer(ITIMER_REAL, &it, NULL);
		r = wait4(pid, &status, 0, &ru);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			perror("cputrack-tracktime: wait4");
			return 1;
		}
	}
	wall = now() - t0;
	memset(&it0, 0, sizeof(it0));
	setitimer(ITIMER_REAL, &it0, NULL);
	/* whatever cmd left behind in its group (perf stat's workload) */
	if (timed_out)
		(void)kill(-pid, SIGKILL);
	printf("R %d %.6f %.6f %.6f %ld %d\n",
	    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	    wall,
	    (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
	    ru.ru_maxrss, timed_out);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "run") == 0)
		return run(argc - 1, argv + 1);
	if (strcmp(argv[1], "spin") == 0 && argc == 3)
		return spin(number(argv[2], 1, LLONG_MAX));
	if (strcmp(argv[1], "storm") == 0 && argc == 3)
		return storm(number(argv[2], 0, 1000000));
	usage();
	return 2;
}
