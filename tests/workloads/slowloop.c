/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * slowloop - call getpid(2) once per interval in one or more threads for
 * a fixed time, then report how many calls were made: a long-lived,
 * mostly sleeping target to attach to (cputrack -p) and detach from,
 * whose total is known after the fact.
 *
 * usage: slowloop [-mP] [-i interval_ms] [-t threads] [-x status] duration_ms
 *
 *	-i interval_ms	each thread calls getpid, then sleeps this long
 *			(default 10; 0 calls back to back)
 *	-t threads	this many threads loop (default 1: the main thread
 *			alone; with -t N, N-1 more threads loop with it)
 *	-x status	exit status after a clean end (default 0)
 *	-P		paced: the calls keep to a schedule, one every
 *			interval from the start (a late wake-up catches
 *			up), so each thread makes 1000 / interval_ms calls
 *			a second, not fewer as the calls' own time adds up
 *	-m		the main thread makes no call: it ends (pthread_exit)
 *			once the others run, and stays a zombie while they
 *			do (needs -t 2 or more)
 *
 * Every thread stops when duration_ms of CLOCK_MONOTONIC have passed since
 * the start, or when the process gets SIGUSR1 (the thread that takes the
 * signal stops at once, the others within SLICE_MS, 10 ms).  No call is made
 * after a thread has seen the end.  Then stdout gets
 *
 *	slowloop <pid> <total getpid calls made by all threads>
 *
 * where pid is the main thread's gettid(2), which is the process ID
 * (asking getpid would add a call).  The calls go through syscall(2), so
 * no libc cache can absorb one; nothing else in this program calls getpid.
 *
 * Sleeps are clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to a
 * deadline, so an EINTR or a ptrace stop (attach, detach) resumes with
 * exactly the remaining time and does not stretch the run.
 *
 * Exit status: -x status after a clean end (deadline or SIGUSR1), 2 on a
 * usage error, 1 when a thread could not be created or stdout could not
 * be written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

#define	PROG		"slowloop"
#define	MAX_THREADS	1000
#define	STACK_SIZE	(64 * 1024)
#define	SLICE_MS	10	/* longest sleep between looks at stop */

struct looper {
	long		l_calls;	/* getpid calls made */
	pthread_t	l_thr;
};

struct opts {
	long	o_interval;	/* -i, ms */
	long	o_threads;	/* -t */
	int	o_status;	/* -x */
	int	o_mainexit;	/* -m */
	int	o_paced;	/* -P */
	long	o_duration;	/* operand, ms */
};

static volatile sig_atomic_t	stop;		/* SIGUSR1 seen */
static struct timespec		deadline;	/* CLOCK_MONOTONIC */
static long			interval;	/* ms */
static int			paced;		/* -P */

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-mP] [-i interval_ms] [-t threads] "
	    "[-x status] duration_ms\n", PROG);
	exit(2);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->o_interval = 10;
	o->o_threads = 1;
	while ((ch = getopt(argc, argv, "i:mPt:x:")) != -1) {
		switch (ch) {
		case 'P':
			o->o_paced = 1;
			break;
		case 'm':
			o->o_mainexit = 1;
			break;
		case 'i':
			o->o_interval = wl_num(optarg, 0, 600000, usage);
			break;
		case 't':
			o->o_threads = wl_num(optarg, 1, MAX_THREADS, usage);
			break;
		case 'x':
			o->o_status = (int)wl_num(optarg, 0, 255, usage);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1 || (o->o_mainexit && o->o_threads < 2))
		usage();
	o->o_duration = wl_num(argv[optind], 0, 1000000000L, usage);
}

static void
on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

static struct timespec
ts_add_ms(struct timespec t, long ms)
{
	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* a < b */
static int
ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	    (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * Sleep until `until' or until stop is set.  The sleep is cut into slices
 * of SLICE_MS so a thread that did not take SIGUSR1 notices it soon; each
 * slice ends at an absolute time, so EINTR just means "look again".
 */
static void
sleep_until(const struct timespec *until)
{
	struct timespec now, t;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (stop || !ts_before(&now, until))
			return;
		t = ts_add_ms(now, SLICE_MS);
		if (ts_before(until, &t))
			t = *until;
		(void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t,
		    NULL);
	}
}

static void *
loop(void *arg)
{
	struct looper *l = arg;
	struct timespec now, next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (stop || !ts_before(&now, &deadline))
			break;
		(void)syscall(SYS_getpid);
		l->l_calls++;
		next = ts_add_ms(paced ? next : now, interval);
		if (ts_before(&deadline, &next))
			next = deadline;
		sleep_until(&next);
	}
	return NULL;
}

static struct looper	*ls;
static const struct opts *opts;
static pid_t		 mainpid;	/* the main thread's gettid */

/* Join the other loopers, print the total; the exit status. */
static int
report(long first)
{
	long i, total = first;

	for (i = 1; i < opts->o_threads; i++) {
		pthread_join(ls[i].l_thr, NULL);
		total += ls[i].l_calls;
	}
	free(ls);
	printf("slowloop %d %ld\n", (int)mainpid, total);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", PROG, strerror(errno));
		return 1;
	}
	return opts->o_status;
}

/* -m: what the main thread would do after its loop, from a thread. */
static void *
reporter(void *arg)
{
	(void)arg;
	exit(report(0));
}

static int
run(const struct opts *o)
{
	pthread_attr_t attr;
	size_t stack = STACK_SIZE;
	pthread_t rep;
	long i;
	int e;

	opts = o;
	mainpid = gettid();
	if ((ls = calloc(o->o_threads, sizeof(*ls))) == NULL) {
		fprintf(stderr, "%s: calloc: %s\n", PROG, strerror(errno));
		return 1;
	}
	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = PTHREAD_STACK_MIN;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	interval = o->o_interval;
	paced = o->o_paced;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline = ts_add_ms(deadline, o->o_duration);
	/* ls[0] is the main thread's own loop. */
	for (i = 1; i <= o->o_threads; i++) {
		if (i == o->o_threads && !o->o_mainexit)
			break;
		if ((e = i < o->o_threads ?
		    pthread_create(&ls[i].l_thr, &attr, loop, &ls[i]) :
		    pthread_create(&rep, &attr, reporter, NULL)) != 0) {
			fprintf(stderr, "%s: pthread_create: %s\n", PROG,
			    strerror(e));
			exit(1);
		}
	}
	pthread_attr_destroy(&attr);
	if (o->o_mainexit)
		pthread_exit(NULL);
	loop(&ls[0]);
	return report(ls[0].l_calls);
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	struct opts o;

	/* First, so an early SIGUSR1 ends the run instead of killing it. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	parse(argc, argv, &o);
	return run(&o);
}
