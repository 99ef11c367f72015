/*
 * getpid_n - make exactly N getpid(2) system calls: a known count for the
 * syscalls:sys_enter_getpid tracepoint.
 *
 * usage: getpid_n [-c cpu] [-d delay_ms] [-a after_ms] count
 *
 *	-c cpu		pin to this CPU first, so every call happens there
 *	-d delay_ms	sleep this long before the calls (lets a counter
 *			started at the same moment bind first)
 *	-a after_ms	sleep this long after the calls, before exiting
 *
 * The calls go through syscall(2), so no libc cache can absorb one.
 * Nothing else in this program calls getpid.  Exit status 0 when all calls
 * were made, 2 on a usage error, 1 when pinning failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: getpid_n [-c cpu] [-d delay_ms] "
	    "[-a after_ms] count\n");
	exit(2);
}

/* A whole number from lo to hi, or a usage error. */
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

int
main(int argc, char **argv)
{
	long cpu = -1, delay = 0, after = 0, n, i;
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
	n = number(argv[optind], 0, 1000000000L);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0) {
			perror("getpid_n: sched_setaffinity");
			return 1;
		}
	}
	sleep_ms(delay);
	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	sleep_ms(after);
	return 0;
}
