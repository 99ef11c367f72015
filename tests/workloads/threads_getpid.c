/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * threads_getpid - create T threads, thread i making exactly K*i getpid(2)
 * system calls: a different, known count per thread for
 * syscalls:sys_enter_getpid, to check that counts follow threads (LWPs)
 * as they are created and exit.
 *
 * usage: threads_getpid [-d delay_ms] [-a after_ms] [-h hold_ms] [-k K]
 *            [-m M] [-s] T
 *
 *	-d delay_ms	sleep this long before creating the first thread
 *	-a after_ms	sleep this long after the main thread's calls,
 *			before printing
 *	-h hold_ms	each thread sleeps this long after its calls,
 *			before returning (default 0)
 *	-k K		thread i (i = 1..T in creation order) makes K*i
 *			calls (default 1000; 0 is allowed)
 *	-m M		the main thread makes M calls after the last join
 *			(default 0)
 *	-s		storm: create thread i, join it, then create thread
 *			i+1, so no more than one worker is ever alive.
 *			Without -s all T threads are created first and then
 *			joined, so they run concurrently.
 *
 * T is from 0 to 100000.  After the joins, the main thread's calls and
 * the -a sleep, stdout gets one line per thread in creation order and one
 * for the main thread:
 *
 *	thread <tid> <calls>
 *	main <pid> <M>
 *
 * tid is the thread's gettid(2), recorded by the thread itself; pid is the
 * main thread's gettid(2), which is the process ID (asking getpid would
 * add a call).  The calls go through syscall(2), so no libc cache can
 * absorb one; nothing else in this program calls getpid.  Stacks are
 * 64 KiB so thousands of threads are cheap.
 *
 * Exit status 0 when every call was made and the report written, 2 on a
 * usage error, 1 when a thread could not be created (the reason is on
 * stderr) or the report could not be written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "wl.h"

#define	PROG		"threads_getpid"
#define	MAX_THREADS	100000
#define	STACK_SIZE	(64 * 1024)

struct worker {
	long		w_calls;	/* getpid calls to make */
	long		w_hold;		/* ms to sleep after them */
	pid_t		w_tid;		/* gettid(), written by the thread */
	pthread_t	w_thr;
};

struct opts {
	long	o_delay;	/* -d */
	long	o_after;	/* -a */
	long	o_hold;		/* -h */
	long	o_k;		/* -k */
	long	o_m;		/* -m */
	int	o_storm;	/* -s */
	long	o_t;		/* operand */
};

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-d delay_ms] [-a after_ms] [-h hold_ms] "
	    "[-k K] [-m M] [-s] T\n", PROG);
	exit(2);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->o_k = 1000;
	while ((ch = getopt(argc, argv, "a:d:h:k:m:s")) != -1) {
		switch (ch) {
		case 'a':
			o->o_after = wl_num(optarg, 0, 600000, usage);
			break;
		case 'd':
			o->o_delay = wl_num(optarg, 0, 600000, usage);
			break;
		case 'h':
			o->o_hold = wl_num(optarg, 0, 600000, usage);
			break;
		case 'k':
			o->o_k = wl_num(optarg, 0, 1000000000L, usage);
			break;
		case 'm':
			o->o_m = wl_num(optarg, 0, 1000000000L, usage);
			break;
		case 's':
			o->o_storm = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	o->o_t = wl_num(argv[optind], 0, MAX_THREADS, usage);
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	long i;

	w->w_tid = gettid();
	for (i = 0; i < w->w_calls; i++)
		(void)syscall(SYS_getpid);
	wl_sleep_ms(w->w_hold);
	return NULL;
}

/* Start thread i (1-based); exits with status 1 when that fails. */
static void
start(struct worker *w, long i, const struct opts *o, pthread_attr_t *attr)
{
	int e;

	w->w_calls = o->o_k * i;
	w->w_hold = o->o_hold;
	if ((e = pthread_create(&w->w_thr, attr, work, w)) != 0) {
		fprintf(stderr, "%s: pthread_create (thread %ld of %ld): %s\n",
		    PROG, i, o->o_t, strerror(e));
		exit(1);
	}
}

static int
run(const struct opts *o)
{
	struct worker *ws;
	pthread_attr_t attr;
	size_t stack = STACK_SIZE;
	long i;

	if ((ws = calloc(o->o_t + 1, sizeof(*ws))) == NULL) {
		fprintf(stderr, "%s: calloc: %s\n", PROG, strerror(errno));
		return 1;
	}
	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = PTHREAD_STACK_MIN;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	wl_sleep_ms(o->o_delay);
	for (i = 1; i <= o->o_t; i++) {
		start(&ws[i], i, o, &attr);
		if (o->o_storm)
			pthread_join(ws[i].w_thr, NULL);
	}
	if (!o->o_storm)
		for (i = 1; i <= o->o_t; i++)
			pthread_join(ws[i].w_thr, NULL);
	pthread_attr_destroy(&attr);
	for (i = 0; i < o->o_m; i++)
		(void)syscall(SYS_getpid);
	wl_sleep_ms(o->o_after);
	for (i = 1; i <= o->o_t; i++)
		printf("thread %d %ld\n", (int)ws[i].w_tid, ws[i].w_calls);
	printf("main %d %ld\n", (int)gettid(), o->o_m);
	free(ws);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", PROG, strerror(errno));
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o;

	parse(argc, argv, &o);
	return run(&o);
}
