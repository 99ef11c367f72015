/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wl.h - what the test workloads share: the command line
 * "[-c cpu] [-d delay_ms] [-a after_ms] N", pinning and sleeping.
 * Header-only (static inline) because each workload is one program.
 */
#ifndef WL_H
#define WL_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct wl_args {
	long	cpu;	/* -c: pin here, -1 = no pinning */
	long	delay;	/* -d: ms to sleep before the work */
	long	after;	/* -a: ms to sleep after it */
	long	n;	/* the operand */
};

static inline void
wl_usage(const char *prog, const char *operand)
{
	fprintf(stderr, "usage: %s [-c cpu] [-d delay_ms] [-a after_ms] "
	    "%s\n", prog, operand);
	exit(2);
}

/* A whole number from lo to hi; else usage(), which exits. */
static inline long
wl_num(const char *s, long lo, long hi, void (*usage)(void))
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
		usage();
	return v;
}

static const char *wl_prog, *wl_operand;

static inline void
wl_usage_std(void)
{
	wl_usage(wl_prog, wl_operand);
}

/* A whole number from lo to hi, or the usage message (exit 2). */
static inline long
wl_number(const char *s, long lo, long hi, const char *prog,
    const char *operand)
{
	wl_prog = prog;
	wl_operand = operand;
	return wl_num(s, lo, hi, wl_usage_std);
}

static inline void
wl_parse(int argc, char **argv, const char *prog, const char *operand,
    struct wl_args *a)
{
	int ch;

	a->cpu = -1;
	a->delay = a->after = 0;
	while ((ch = getopt(argc, argv, "a:c:d:")) != -1) {
		switch (ch) {
		case 'a':
			a->after = wl_number(optarg, 0, 600000, prog, operand);
			break;
		case 'c':
			a->cpu = wl_number(optarg, 0, CPU_SETSIZE - 1, prog,
			    operand);
			break;
		case 'd':
			a->delay = wl_number(optarg, 0, 600000, prog, operand);
			break;
		default:
			wl_usage(prog, operand);
		}
	}
	if (argc - optind != 1)
		wl_usage(prog, operand);
	a->n = wl_number(argv[optind], 0, 1000000000L, prog, operand);
}

/* Pin the calling thread (and threads it creates later) to cpu. */
static inline int
wl_pin(long cpu, const char *prog)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		fprintf(stderr, "%s: sched_setaffinity: %s\n", prog,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static inline void
wl_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

#endif
