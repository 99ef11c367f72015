/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proctree - a process tree with known getpid(2) calls per thread and per
 * process.  Each argument is a step, run in order by the process:
 *	gN	make N getpid calls (this thread)
 *	tN	start a thread that makes N calls
 *	j	join the threads started so far
 *	sN	sleep N ms
 *	f[ ... ]	fork: the child runs the steps up to the matching
 *		"]", joins its threads, reports and _exits with its eN;
 *		the parent goes on after the "]"
 *	w	wait for every child
 *	eN	exit status N at the end
 *	q	no reports from here on (stdout is not written)
 *	x PROG ARGS...	report, then exec the rest
 * Reports, one write(2) each: "thread TID PID N" per thread when it
 * ends; "proc PID PARENT N" at the process's end, or "exec PID PARENT N"
 * before its exec: N is every call of its threads, PARENT the process
 * that forked it (for the first, its parent then).  The calls go through
 * syscall(2); nothing else calls getpid (pids are gettid() of the main
 * thread).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXT 256
static struct thr { pthread_t t; long n; } thrs[MAXT];
static int nthr, status, quiet;
static long total;
static pid_t me, parent;

static void
calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
}

static void *
work(void *a)
{
	struct thr *t = a;

	calls(t->n);
	if (!quiet)
		dprintf(1, "thread %d %d %ld\n", (int)gettid(), (int)me, t->n);
	return NULL;
}

static void
join(void)
{
	while (nthr > 0)
		pthread_join(thrs[--nthr].t, NULL);
}

static void
report(const char *what)
{
	join();
	if (!quiet)
		dprintf(1, "%s %d %d %ld\n", what, (int)me, (int)parent, total);
}

/* The index after the "]" matching the "f[" before i. */
static int
skip(char **av, int i)
{
	int depth = 1;

	for (; av[i] != NULL; i++) {
		if (av[i][0] == 'f')
			depth++;
		else if (av[i][0] == ']' && --depth == 0)
			return i + 1;
	}
	exit(3);
}

static void
run(char **av, int i)
{
	struct timespec ts;
	long n;

	for (; av[i] != NULL && av[i][0] != ']'; i++) {
		n = atol(av[i] + 1);
		switch (av[i][0]) {
		case 'g':
			calls(n);
			total += n;
			break;
		case 't':
			if (nthr == MAXT)
				exit(3);
			thrs[nthr].n = n;
			total += n;
			if (pthread_create(&thrs[nthr].t, NULL, work,
			    &thrs[nthr]) != 0)
				exit(4);
			nthr++;
			break;
		case 'j':
			join();
			break;
		case 's':
			ts.tv_sec = n / 1000;
			ts.tv_nsec = n % 1000 * 1000000;
			while (nanosleep(&ts, &ts) != 0)
				;
			break;
		case 'f':
			switch (fork()) {
			case -1:
				exit(5);
			case 0:
				parent = me;
				me = gettid();
				total = 0;
				nthr = 0;
				status = 0;
				run(av, i + 1);
				report("proc");
				_exit(status);
			}
			i = skip(av, i + 1) - 1;
			break;
		case 'w':
			while (wait(NULL) > 0)
				;
			break;
		case 'e':
			status = (int)n;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'x':
			report("exec");
			execvp(av[i + 1], av + i + 1);
			exit(127);
		default:
			exit(2);
		}
	}
}

int
main(int argc, char **argv)
{
	(void)argc;
	me = gettid();
	parent = getppid();
	run(argv, 1);
	report("proc");
	return status;
}
