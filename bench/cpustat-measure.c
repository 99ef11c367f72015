/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpustat-measure.c - the timing, rusage and interrupt helper of
 * bench/cpustat.
 *
 *	cpustat-measure [-t timeout] [{-e|-a} event [-f filter]]... \
 *	    -- cmd [arg...]
 *	cpustat-measure [{-e|-a} event [-f filter]]... -b seconds
 *
 * The first form runs cmd with its stdout and stderr on two pipes and
 * stdin on /dev/null, and prints one record per line cmd writes, as it
 * arrives:
 *
 *	O|E <seconds since exec> <CAL sum> <counts> <the line>
 *
 * O for stdout, E for stderr.  The CAL sum is the "Function call
 * interrupts" line of /proc/interrupts summed over CPUs when the line
 * arrived (-1 if the kernel has no such line): every such interrupt on
 * the machine, whoever caused it.  <counts> are the values of the events
 * named with -e and -a, joined by commas ("-" when there are none; -1 for
 * one that could not be opened):
 *
 *   -e event	counted on cmd's threads and everything it starts
 *		(inherited, enabled at its exec): what happened while cmd
 *		itself was running on a CPU;
 *   -a event	counted on every CPU, whoever runs, from before the exec;
 *   -f filter	a tracepoint filter (ftrace syntax) for the event before.
 *
 * An event is a tracepoint "sys:name" or "sw:cpu-migrations" or
 * "sw:context-switches".  At the end comes
 *
 *	R <status> <wall s> <utime s> <stime s> <maxrss KB> <CAL at exec>
 *	  <CAL at exit> <timed out 0|1> <counts>
 *
 * with the rusage of the child from wait4().  cmd is sent SIGTERM (then
 * SIGKILL one second later) if it outlives the timeout (default 120 s).
 * The child is forked and waits on a pipe while the counters are attached
 * to it; the clock starts just before it is let go to execvp().
 *
 * The second form runs nothing: it sleeps the given seconds and prints
 * "B <seconds> <CAL delta> <counts delta>", the idle baseline of the same
 * figures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "spawn.h"

#define MAXEV	16

struct ev {
	const char	*spec;
	const char	*filt;
	int		 sys;	/* -a: one fd per CPU */
	int		 nfd;
	int		*fd;
};

static int g_intr_fd = -1;
static int g_nev;
static struct ev g_ev[MAXEV];

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CAL line of /proc/interrupts summed over CPUs, or -1. */
static long long
cal_sum(void)
{
	static char *buf;
	static size_t cap;
	size_t len = 0;
	ssize_t n;
	char *p, *end;
	long long sum = 0;

	if (g_intr_fd < 0 || lseek(g_intr_fd, 0, SEEK_SET) != 0)
		return -1;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (nb == NULL)
				return -1;
			buf = nb;
			cap += 65536;
		}
		n = read(g_intr_fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	for (p = buf; *p != '\0'; p = end) {
		if ((end = strchr(p, '\n')) == NULL)
			end = p + strlen(p);
		else
			end++;
		while (*p == ' ')
			p++;
		if (strncmp(p, "CAL:", 4) != 0)
			continue;
		p += 4;
		for (;;) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
		return sum;
	}
	return -1;
}

/* The id of tracepoint "sys:name", or -1. */
static long long
tp_id(const char *spec)
{
	static const char *roots[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	char path[512], name[256], *colon;
	long long id = -1;
	size_t i;
	FILE *f;

	snprintf(name, sizeof(name), "%s", spec);
	if ((colon = strchr(name, ':')) == NULL)
		return -1;
	*colon = '/';
	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/id", roots[i], name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fscanf(f, "%lld", &id) != 1)
			id = -1;
		fclose(f);
		if (id >= 0)
			break;
	}
	return id;
}

/* One counter of e on pid/cpu; -1 (with a message unless quiet). */
static int
ev_open1(const struct ev *e, pid_t pid, int cpu, int quiet)
{
	struct perf_event_attr a;
	long long id;
	int fd;

	memset(&a, 0, sizeof(a));
	if (strcmp(e->spec, "sw:cpu-migrations") == 0) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	} else if (strcmp(e->spec, "sw:context-switches") == 0) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	} else if ((id = tp_id(e->spec)) >= 0) {
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (unsigned long long)id;
	} else {
		fprintf(stderr, "cpustat-measure: no event %s\n", e->spec);
		return -1;
	}
	a.size = sizeof(a);
	if (!e->sys) {
		a.disabled = 1;
		a.inherit = 1;
		a.enable_on_exec = 1;
	}
	fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		if (!quiet)
			fprintf(stderr,
			    "cpustat-measure: perf_event_open %s: %s\n",
			    e->spec, strerror(errno));
		return -1;
	}
	if (e->filt != NULL &&
	    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, e->filt) != 0) {
		fprintf(stderr, "cpustat-measure: filter '%s' on %s: %s\n",
		    e->filt,
		    e->spec, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Open every event: -e ones on pid, -a ones on every online CPU. */
static void
ev_open(pid_t pid)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int i, c, fd;

	for (i = 0; i < g_nev; i++) {
		struct ev *e = &g_ev[i];

		if (!e->sys) {
			e->fd = malloc(sizeof(int));
			if (e->fd != NULL && (fd = ev_open1(e, pid, -1, 0)) >= 0)
				e->fd[e->nfd++] = fd;
			continue;
		}
		e->fd = calloc((size_t)ncpu, sizeof(int));
		for (c = 0; e->fd != NULL && c < ncpu; c++) {
			/* Offline CPUs refuse (ENODEV): leave them out. */
			if ((fd = ev_open1(e, -1, c, c > 0)) >= 0)
				e->fd[e->nfd++] = fd;
			else if (c == 0)
				break;
		}
	}
}

/* Event i's count, -1 if it could not be opened. */
static long long
ev_read(int i)
{
	const struct ev *e = &g_ev[i];
	unsigned long long v, sum = 0;
	int k;

	if (e->nfd == 0)
		return -1;
	for (k = 0; k < e->nfd; k++) {
		if (read(e->fd[k], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return -1;
		sum += v;
	}
	return (long long)sum;
}

/* Every count, "a,b,..." ("-" when none), into buf. */
static const char *
counts(char *buf, size_t size, const long long *base)
{
	size_t len = 0;
	long long v;
	int i;

	if (g_nev == 0)
		return "-";
	for (i = 0; i < g_nev && len < size; i++) {
		v = ev_read(i);
		if (base != NULL && v >= 0)
			v = base[i] < 0 ? -1 : v - base[i];
		len += (size_t)snprintf(buf + len, size - len, "%s%lld",
		    i ? "," : "", v);
	}
	return buf;
}

struct stream {
	int	 fd;
	char	 tag;
	char	*buf;
	size_t	 len, cap;
};

/* Read what is there; print each complete line; 0 at end of file. */
static int
drain(struct stream *s, double t0, FILE *out)
{
	char cnt[MAXEV * 24];
	char *nl, *start;
	ssize_t n;
	double t;
	long long cal = -2;

	if (s->cap - s->len < 4096) {
		char *nb = realloc(s->buf, s->cap + 65536);

		if (nb == NULL) {
			perror("cpustat-measure: realloc");
			exit(1);
		}
		s->buf = nb;
		s->cap += 65536;
	}
	n = read(s->fd, s->buf + s->len, s->cap - s->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	t = now() - t0;
	if (n == 0) {
		if (s->len > 0) {	/* an unterminated last line */
			fprintf(out, "%c %.6f %lld %s %.*s\n", s->tag, t,
			    cal_sum(), counts(cnt, sizeof(cnt), NULL),
			    (int)s->len, s->buf);
			s->len = 0;
		}
		return 0;
	}
	s->len += (size_t)n;
	start = s->buf;
	while ((nl = memchr(start, '\n', s->len - (size_t)(start - s->buf)))
	    != NULL) {
		if (cal == -2) {	/* once per read */
			cal = cal_sum();
			counts(cnt, sizeof(cnt), NULL);
		}
		fprintf(out, "%c %.6f %lld %s %.*s\n", s->tag, t, cal,
		    g_nev ? cnt : "-", (int)(nl - start), start);
		start = nl + 1;
	}
	s->len -= (size_t)(start - s->buf);
	memmove(s->buf, start, s->len);
	return 1;
}

static int
baseline(const char *arg)
{
	char cnt[MAXEV * 24];
	long long base[MAXEV];
	double secs = strtod(arg, NULL);
	struct timespec ts;
	long long c0, c1;
	int i;

	if (secs <= 0) {
		fprintf(stderr, "cpustat-measure: bad -b seconds '%s'\n", arg);
		return 2;
	}
	for (i = 0; i < g_nev; i++)
		if (!g_ev[i].sys) {
			fprintf(stderr,
			    "cpustat-measure: -b takes -a events only\n");
			return 2;
		}
	ev_open(-1);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)secs;
	ts.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	c0 = cal_sum();
	for (i = 0; i < g_nev; i++)
		base[i] = ev_read(i);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)
	    == EINTR)
		;
	c1 = cal_sum();
	printf("B %.3f %lld %s\n", secs, c0 < 0 || c1 < 0 ? -1 : c1 - c0,
	    counts(cnt, sizeof(cnt), base));
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: cpustat-measure [-t timeout] [{-e|-a} event "
	    "[-f filter]]... -- cmd [arg...]\n"
	    "       cpustat-measure [-a event [-f filter]]... -b seconds\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	char cnt[MAXEV * 24];
	double timeout = 120, t0, t_end, wall;
	const char *bsecs = NULL;
	struct stream st[2];
	struct pollfd pfd[2];
	struct rusage ru;
	int outp[2], errp[2], go, null, ch, status = 0, open_fds, i;
	int timed_out = 0;
	long long cal0, cal1;
	pid_t pid;

	g_intr_fd = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
	while ((ch = getopt(argc, argv, "+a:b:e:f:t:")) != -1) {
		switch (ch) {
		case 'a':
		case 'e':
			if (g_nev == MAXEV) {
				fprintf(stderr,
				    "cpustat-measure: at most %d events\n",
				    MAXEV);
				return 2;
			}
			g_ev[g_nev].spec = optarg;
			g_ev[g_nev++].sys = ch == 'a';
			break;
		case 'b':
			bsecs = optarg;
			break;
		case 'f':
			if (g_nev == 0)
				usage();
			g_ev[g_nev - 1].filt = optarg;
			break;
		case 't':
			timeout = strtod(optarg, NULL);
			break;
		default:
			usage();
		}
	}
	if (bsecs != NULL)
		return baseline(bsecs);
	if (optind >= argc)
		usage();
	if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
	    (null = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		perror("cpustat-measure: pipe");
		return 1;
	}
	pid = spawn_held("cpustat-measure", argv + optind, null, outp[1],
	    errp[1], 0, &go);
	if (pid < 0)
		return 1;
	close(null);
	close(outp[1]);
	close(errp[1]);
	ev_open(pid);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);

	cal0 = cal_sum();
	t0 = now();
	if (go_release("cpustat-measure", go) != 0)
		return 1;
	memset(st, 0, sizeof(st));
	st[0].fd = outp[0];
	st[0].tag = 'O';
	st[1].fd = errp[0];
	st[1].tag = 'E';
	t_end = t0 + timeout;
	for (open_fds = 2; open_fds > 0;) {
		double left = t_end - now();
		int n;

		for (i = 0; i < 2; i++) {
			pfd[i].fd = st[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (left <= 0) {
			if (!timed_out) {
				timed_out = 1;
				kill(pid, SIGTERM);
				t_end = now() + 1;
				continue;
			}
			kill(pid, SIGKILL);
			break;
		}
		n = poll(pfd, 2, (int)(left * 1000) + 1);
		if (n < 0 && errno != EINTR) {
			perror("cpustat-measure: poll");
			break;
		}
		for (i = 0; n > 0 && i < 2; i++) {
			if (st[i].fd < 0 || pfd[i].revents == 0)
				continue;
			if (!drain(&st[i], t0, stdout)) {
				close(st[i].fd);
				st[i].fd = -1;
				open_fds--;
			}
		}
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("cpustat-measure: wait4");
			return 1;
		}
	}
	wall = now() - t0;
	cal1 = cal_sum();
	printf("R %d %.6f %.6f %.6f %ld %lld %lld %d %s\n",
	    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	    wall,
	    (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
	    ru.ru_maxrss, cal0, cal1, timed_out, counts(cnt, sizeof(cnt), NULL));
	return 0;
}
