/*
 * touch_pages - take exactly N page faults: a known count for the
 * page-faults software event.
 *
 * usage: touch_pages [-c cpu] [-d delay_ms] [-a after_ms] count
 *
 *	-c cpu		pin to this CPU first, so every fault happens there
 *	-d delay_ms	sleep this long before faulting
 *	-a after_ms	sleep this long afterwards, before exiting
 *
 * A small anonymous mapping (never huge pages) is written one byte per
 * page; each write to a page that has no frame is one fault.  After every
 * pass the mapping is emptied with MADV_DONTNEED, so the next pass faults
 * on every page again.  The memory used stays small whatever the count.
 * Exit status 0 when done, 2 on a usage error, 1 on a system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CHUNK	256	/* pages per pass */

static void
usage(void)
{
	fprintf(stderr, "usage: touch_pages [-c cpu] [-d delay_ms] "
	    "[-a after_ms] count\n");
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

int
main(int argc, char **argv)
{
	long cpu = -1, delay = 0, after = 0, n, done, i, pass;
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *mem;
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
			perror("touch_pages: sched_setaffinity");
			return 1;
		}
	}
	mem = mmap(NULL, CHUNK * pagesz, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("touch_pages: mmap");
		return 1;
	}
	/* One fault per 4 KiB page, never one per 2 MiB. */
	(void)madvise((void *)mem, CHUNK * pagesz, MADV_NOHUGEPAGE);
	sleep_ms(delay);
	for (done = 0; done < n; done += pass) {
		pass = n - done < CHUNK ? n - done : CHUNK;
		for (i = 0; i < pass; i++)
			mem[(size_t)i * pagesz] = 1;
		if (madvise((void *)mem, CHUNK * pagesz, MADV_DONTNEED) != 0) {
			perror("touch_pages: madvise");
			return 1;
		}
	}
	sleep_ms(after);
	return 0;
}
