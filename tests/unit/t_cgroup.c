/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_cgroup - cpc_bind_cpu_cgroup: a set per CPU bound for a cgroup made
 * for the test counts, over every CPU, exactly the getpid calls of the
 * process moved into that cgroup, and none of this process's own made
 * meanwhile outside it; a set rebound to another cgroup on the same CPU
 * counts for that one only; and the errors: no such cgroup, a file that
 * is not a directory, a directory outside the hierarchy, flags, and a
 * kernel without cgroup events (made with a seccomp filter that refuses
 * perf_event_open's cgroup mode with EINVAL, as such a kernel does).
 * Root only (a cgroup is made and a process moved), else skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>

#include <libcpc.h>

#include "errmsg.h"
#include "getpids.h"
#include "platform.h"
#include "tap.h"

#define INSIDE	30011
#define OUTSIDE	20011
#define MAXCPU	64

static char cgdir[1200], cgname[64];

static int
write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (f == NULL)
		return -1;
	ok = fputs(s, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* A child that makes n getpid calls once told (a byte on fd). */
static pid_t
start_child(long n, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p) != 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1)
			getpids(n);
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* pid into the test's cgroup. */
static int
move_into(pid_t pid)
{
	char path[1300], s[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgdir);
	snprintf(s, sizeof(s), "%d\n", (int)pid);
	return write_str(path, s);
}

/*
 * The sum over the sets of their counts, each sampled on its CPU (as
 * it must be); -1 when a sample failed.
 */
static long long
sum_sets(cpc_t *cpc, cpc_set_t **sets, const int *cpus, int n)
{
	long long sum = 0;
	cpc_buf_t *b;
	cpu_set_t one;
	uint64_t v;
	int i;

	for (i = 0; i < n; i++) {
		CPU_ZERO(&one);
		CPU_SET(cpus[i], &one);
		if (sched_setaffinity(0, sizeof(one), &one) != 0 ||
		    (b = cpc_buf_create(cpc, sets[i])) == NULL ||
		    cpc_set_sample(cpc, sets[i], b) != 0 ||
		    cpc_buf_get(cpc, b, 0, &v) != 0)
			return -1;
		sum += (long long)v;
		cpc_buf_destroy(cpc, b);
	}
	return sum;
}

static void
exact(cpc_t *cpc, cpc_set_t **sets, int *cpus, int n)
{
	int i, go = -1, bound = 1, st;
	long long got;
	pid_t pid = start_child(INSIDE, &go);

	if (!tap_ok(pid > 0 && move_into(pid) == 0, "child in the cgroup"))
		return;
	for (i = 0; i < n; i++)
		bound &= cpc_bind_cpu_cgroup(cpc, cpus[i], cgname, sets[i],
		    0) == 0;
	tap_ok(bound, "a set bound for the cgroup on each of %d cpus", n);
	getpids(OUTSIDE);	/* not the cgroup's */
	(void)!write(go, "g", 1);
	close(go);
	waitpid(pid, &st, 0);
	got = sum_sets(cpc, sets, cpus, n);
	tap_ok(got == INSIDE, "the cgroup's getpid calls, exactly (%d), none "
	    "of the %d outside (got %lld)", INSIDE, OUTSIDE, got);
}

/* Set 0 on cpus[0] from the test's cgroup to the root and back. */
static void
rebind(cpc_t *cpc, cpc_set_t **sets, int *cpus, int n)
{
	long long got;

	for (int i = 0; i < n; i++)
		(void)cpc_unbind(cpc, sets[i]);
	if (cpc_bind_cpu_cgroup(cpc, cpus[0], "/", sets[0], 0) != 0 ||
	    cpc_bind_cpu_cgroup(cpc, cpus[0], cgname, sets[0], 0) != 0) {
		tap_ok(0, "rebound for another cgroup");
		return;
	}
	getpids(1000);	/* this process is not in the test's cgroup */
	got = sum_sets(cpc, sets, cpus, 1);
	tap_ok(got == 0, "rebound to the test's cgroup: none of this "
	    "process's calls (got %lld)", got);
	(void)cpc_unbind(cpc, sets[0]);
}

/* The bind of set for cgroup on cpu fails with errno want. */
static void
refused(cpc_t *cpc, int cpu, const char *cgroup, cpc_set_t *set, int want,
    const char *what)
{
	int rc, e;

	errno = 0;
	rc = cpc_bind_cpu_cgroup(cpc, cpu, cgroup, set, 0);
	e = errno;
	tap_ok(rc != 0 && e == want, "%s: %s (got %s: %s)", what,
	    strerror(want), strerror(e), errmsg);
}

static void
errors(cpc_t *cpc, cpc_set_t *set, int cpu)
{
	refused(cpc, cpu, "no/such/cgroup", set, ENOENT, "no such cgroup");
	refused(cpc, cpu, "cgroup.procs", set, ENOTDIR, "a file");
	refused(cpc, cpu, "/..", set, EINVAL, "outside the hierarchy");
	errno = 0;
	tap_ok(cpc_bind_cpu_cgroup(cpc, cpu, cgname, set, 1) != 0 &&
	    errno == EINVAL, "flags: EINVAL");
	errno = 0;
	tap_ok(cpc_bind_cpu_cgroup(cpc, cpu, NULL, set, 0) != 0 &&
	    errno == EINVAL, "no cgroup: EINVAL");
}

/* From now on, perf_event_open in the cgroup mode fails with EINVAL. */
static int
no_cgroup_events(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 3),
		/* flags, the fifth argument (its low word: little endian) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, args[4])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PERF_FLAG_PID_CGROUP,
		    0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0 ? -1 : 0;
}

/*
 * In a child (the filter stays with it): the bind of a new set fails
 * with ENOTSUP and says the kernel has no cgroup events.  Its exit
 * status: 0 so, 1 the wrong error, 2 the message, 3 no filter.
 */
static int
kernel_without(cpc_t *cpc, int cpu)
{
	cpc_set_t *set;
	int rc, e;

	/* A new set: one bound before would be restarted, not opened. */
	if ((set = cpc_set_create(cpc)) == NULL || cpc_set_add_request(cpc,
	    set, EV, 0, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) < 0)
		return 1;
	if (no_cgroup_events() != 0)
		return 3;
	rc = cpc_bind_cpu_cgroup(cpc, cpu, cgname, set, 0);
	e = errno;
	if (rc == 0 || e != ENOTSUP)
		return 1;
	fprintf(stderr, "# %s\n", errmsg);
	return strstr(errmsg, "this kernel has no cgroup events (Invalid "
	    "argument: it needs CONFIG_CGROUP_PERF") != NULL ? 0 : 2;
}

static void
no_kernel_support(cpc_t *cpc, int cpu)
{
	pid_t pid;
	int st = -1;

	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(kernel_without(cpc, cpu));
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		tap_skip("no seccomp filter", "a kernel without cgroup events");
	else
		tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a kernel "
		    "without cgroup events: ENOTSUP, saying so (status %#x)",
		    st);
}

/* The CPUs this test may run on (at most MAXCPU). */
static int
our_cpus(int *cpus)
{
	cpu_set_t m;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(m), &m) != 0)
		return 0;
	for (i = 0; i < CPU_SETSIZE && n < MAXCPU; i++)
		if (CPU_ISSET(i, &m))
			cpus[n++] = i;
	return n;
}

int
main(void)
{
	cpc_set_t *sets[MAXCPU];
	int cpus[MAXCPU], n, i;
	char root[1024];
	cpc_t *cpc;

	if (geteuid() != 0 || cpc_cgroup2_root(root, sizeof(root)) != 0) {
		tap_skip("needs root and cgroup2 mounted", "cgroup counts");
		return tap_done();
	}
	snprintf(cgname, sizeof(cgname), "cpc-t-cgroup-%d", (int)getpid());
	snprintf(cgdir, sizeof(cgdir), "%s/%s", root, cgname);
	if (mkdir(cgdir, 0755) != 0 || (cpc = cpc_open(CPC_VER_CURRENT)) ==
	    NULL) {
		tap_ok(0, "cgroup %s made: %s", cgdir, strerror(errno));
		return tap_done();
	}
	(void)cpc_seterrhndlr(cpc, keep_errmsg);
	n = our_cpus(cpus);
	for (i = 0; i < n; i++)
		if ((sets[i] = cpc_set_create(cpc)) == NULL ||
		    cpc_set_add_request(cpc, sets[i], EV, 0, CPC_COUNT_USER |
		    CPC_COUNT_SYSTEM, 0, NULL) < 0)
			return tap_ok(0, "set for cpu %d", cpus[i]), tap_done();
	exact(cpc, sets, cpus, n);
	rebind(cpc, sets, cpus, n);
	errors(cpc, sets[0], cpus[0]);
	no_kernel_support(cpc, cpus[0]);
	cpc_close(cpc);
	if (rmdir(cgdir) != 0)
		tap_ok(0, "cgroup %s removed: %s", cgdir, strerror(errno));
	return tap_done();
}
