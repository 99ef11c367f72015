/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_userread.c - cpc_set_sample's read of hardware counters in user space
 * (backends/perf_user.c) against its read(2), on the same set.
 *
 * The oracle: a loop of n iterations of two instructions (subtract,
 * branch) retires exactly 2n more user-mode instructions for every n more
 * iterations, whatever the sampling around it costs, as long as that cost
 * is the same each time (the same code runs).  So for each path
 *
 *	(s1 - s0 around loop(N2)) - (s1 - s0 around loop(N1)) == 2 (N2 - N1)
 *
 * exactly, where instructions are counted exactly (the hardware tier's
 * QEMU guest under -icount).  And samples taken one after the other by
 * the user path, read(), the user path again are ordered and close: both
 * paths read the same counter.
 *
 * Without a hardware PMU (this VM) the user path is skipped with the
 * reason; a software set is checked to take read() everywhere.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <libcpc.h>

#include "perf_user.h"
#include "tap.h"

#define N1	100000UL
#define N2	1100000UL

/* n iterations of exactly two instructions. */
static void __attribute__((noinline))
loop(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ __volatile__("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : :
	    "cc");
#elif defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
	volatile unsigned long i;

	for (i = 0; i < n; i++)
		;
#endif
}

static cpc_t *cpc;
static cpc_set_t *set;
static cpc_buf_t *buf;

static uint64_t
sample(void)
{
	uint64_t v = 0;

	if (cpc_set_sample(cpc, set, buf) != 0 ||
	    cpc_buf_get(cpc, buf, 0, &v) != 0)
		return 0;
	return v;
}

/* Instructions around loop(n), sampled by one path. */
static uint64_t
around(unsigned long n)
{
	uint64_t s0, s1;

	s0 = sample();
	loop(n);
	s1 = sample();
	return s1 - s0;
}

static int
read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f != NULL) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Why the kernel would give no user access, or NULL. */
static const char *
no_access(void)
{
#if defined(__aarch64__)
	if (read_int("/proc/sys/kernel/perf_user_access") != 1)
		return "sysctl kernel.perf_user_access is not 1";
	return NULL;
#elif defined(__x86_64__) || defined(__i386__)
	if (read_int("/sys/bus/event_source/devices/cpu/rdpmc") == 0)
		return "/sys/bus/event_source/devices/cpu/rdpmc is 0";
	return NULL;
#else
	return "no user-space read on this architecture";
#endif
}

static void
software(void)
{
	unsigned long n0;
	uint64_t v;

	set = cpc_set_create(cpc);
	if (set == NULL || cpc_set_add_request(cpc, set, "page-faults", 0,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) != 0 ||
	    (buf = cpc_buf_create(cpc, set)) == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_ok(0, "a software set binds (%s)", strerror(errno));
		return;
	}
	n0 = cpc_perf_user_nreads;
	tap_ok(cpc_set_sample(cpc, set, buf) == 0 &&
	    cpc_buf_get(cpc, buf, 0, &v) == 0 && cpc_perf_user_nreads == n0,
	    "a software event is sampled with read(), not in user space");
	cpc_buf_destroy(cpc, buf);
	cpc_set_destroy(cpc, set);
}

static void
hardware(void)
{
	uint64_t u1, u2, r1, r2, a, b, c;
	unsigned long n0;
	const char *why;

	set = cpc_set_create(cpc);
	if (set == NULL || cpc_set_add_request(cpc, set, "instructions", 0,
	    CPC_COUNT_USER, 0, NULL) != 0 ||
	    (buf = cpc_buf_create(cpc, set)) == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_skip("instructions cannot be counted here",
		    "user-space read of instructions");
		return;
	}
	n0 = cpc_perf_user_nreads;
	(void)sample();
	if ((why = no_access()) != NULL) {
		tap_ok(cpc_perf_user_nreads == n0, "no user access (%s): read() "
		    "instead", why);
		tap_skip(why, "user-space read of instructions");
		goto out;
	}
	tap_ok(cpc_perf_user_nreads == n0 + 1, "cpc_set_sample reads instructions "
	    "in user space (%lu reads)", cpc_perf_user_nreads - n0);

	/* Warm both paths up, then measure each twice. */
	(void)around(N1);
	u1 = around(N1);
	u2 = around(N2);
	n0 = cpc_perf_user_nreads;
	cpc_perf_user_off = 1;
	(void)around(N1);
	r1 = around(N1);
	r2 = around(N2);
	tap_ok(cpc_perf_user_nreads == n0, "with the user path off, read() only");
	tap_u64(u2 - u1, 2 * (N2 - N1),
	    "user-space read: exactly 2 instructions per loop iteration");
	tap_u64(r2 - r1, 2 * (N2 - N1),
	    "read(): exactly 2 instructions per loop iteration");
	printf("# around the loop: user read %llu + 2n, read() %llu + 2n\n",
	    (unsigned long long)(u1 - 2 * N1),
	    (unsigned long long)(r1 - 2 * N1));

	/* The same counter: user, read(), user, one after the other. */
	cpc_perf_user_off = 0;
	a = sample();
	cpc_perf_user_off = 1;
	b = sample();
	cpc_perf_user_off = 0;
	c = sample();
	tap_ok(a > 0 && a < b && b < c && c - a < 100000,
	    "user read %llu < read() %llu < user read %llu: one count",
	    (unsigned long long)a, (unsigned long long)b,
	    (unsigned long long)c);

	/*
	 * A forked child has no context for the set (its thread did not
	 * bind it): EINVAL, and no user-space read of the parent's pages.
	 */
	{
		pid_t pid = fork();
		int st = -1;

		if (pid == 0) {
			n0 = cpc_perf_user_nreads;
			_exit(cpc_set_sample(cpc, set, buf) == -1 &&
			    errno == EINVAL && cpc_perf_user_nreads == n0 ?
			    0 : 1);
		}
		tap_ok(pid > 0 && waitpid(pid, &st, 0) == pid &&
		    WIFEXITED(st) && WEXITSTATUS(st) == 0, "a forked child "
		    "has no context for the parent's set: EINVAL, no "
		    "user-space read (status %d)", st);
	}

	/* Stopped: the page has no counter; read() gives the frozen count. */
	n0 = cpc_perf_user_nreads;
	if (cpc_disable(cpc) == 0) {
		a = sample();
		loop(N1);
		b = sample();
		tap_ok(a == b && cpc_perf_user_nreads == n0, "a stopped set reads "
		    "with read(), its count frozen (%llu, %llu)",
		    (unsigned long long)a, (unsigned long long)b);
		(void)cpc_enable(cpc);
	} else
		tap_ok(0, "cpc_disable: %s", strerror(errno));
out:
	cpc_buf_destroy(cpc, buf);
	cpc_set_destroy(cpc, set);
}

int
main(void)
{
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	software();
	if (cpc_have_hw_pmu(cpc))
		hardware();
	else
		tap_skip("no hardware PMU (the hardware tier runs it)",
		    "user-space read of hardware counters");
	cpc_close(cpc);
	return tap_done();
}
