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

static int	ping[2], pong[2];	/* main -> partner, partner -> main */
static long	rounds;

static void
usage(void)
{
	fprintf(stderr, "usage: pingpong [-c cpu] [-d delay_ms] "
	    "[-a after_ms] rounds\n");
	exit(2);
}

static long
number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
		usage();
	return v;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

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
	long cpu = -1, delay = 0, after = 0, i;
	pthread_t thr;
	cpu_set_t set;
	int ch;

	while ((ch = getopt(argc, argv, "a:c:d:")) != -1) {
		switch (ch) {
		case 'a':
			after = number(optarg, 0, 600000);
			break;
		case 'c':
			cpu = number(optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'd':
			delay = number(optarg, 0, 600000);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	rounds = number(argv[optind], 0, 1000000000L);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		/* Before the thread exists, so it inherits the mask. */
		if (sched_setaffinity(0, sizeof(set), &set) != 0) {
			perror("pingpong: sched_setaffinity");
			return 1;
		}
	}
	if (pipe(ping) != 0 || pipe(pong) != 0) {
		perror("pingpong: pipe");
		return 1;
	}
	if ((errno = pthread_create(&thr, NULL, partner, NULL)) != 0) {
		perror("pingpong: pthread_create");
		return 1;
	}
	sleep_ms(delay);
	for (i = 0; i < rounds; i++)
		if (xfer(pong[0], ping[1], 0) != 0) {
			perror("pingpong: main");
			return 1;
		}
	pthread_join(thr, NULL);
	sleep_ms(after);
	return 0;
}
