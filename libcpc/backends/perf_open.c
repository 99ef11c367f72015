/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_open.c - the one way the perf backend opens an event, and directs
 * an event's signal to a thread.
 *
 * Every descriptor is opened close-on-exec (PERF_FLAG_FD_CLOEXEC, Linux
 * 3.14; an older kernel refuses the flag with EINVAL, and then gets
 * FD_CLOEXEC set after the open, which a fork in another thread could
 * race: once learned, the flag is not asked again).  A clock (task-clock,
 * cpu-clock) counts the same whatever exclude_kernel says, and a user at
 * perf_event_paranoid 2 may open one only with it set: a clock refused
 * with EACCES or EPERM is opened again so.  A CPU context bound with
 * cpc_bind_cpu_cgroup opens its events in the kernel's cgroup mode
 * (PERF_FLAG_PID_CGROUP, the cgroup's directory for the pid).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_impl.h"

#ifndef PERF_FLAG_PID_CGROUP
#define PERF_FLAG_PID_CGROUP	(1UL << 2)
#endif
#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)
#endif

/* 1: the kernel refused PERF_FLAG_FD_CLOEXEC once. */
static int no_cloexec_flag;

static long
open_cloexec(struct perf_event_attr *a, pid_t pid, int cpu, int group,
    unsigned long flags)
{
	long fd;

	if (!__atomic_load_n(&no_cloexec_flag, __ATOMIC_RELAXED)) {
		fd = syscall(SYS_perf_event_open, a, pid, cpu, group,
		    flags | PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0 || errno != EINVAL)
			return fd;
	}
	fd = syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
	if (fd >= 0) {
		__atomic_store_n(&no_cloexec_flag, 1, __ATOMIC_RELAXED);
		(void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	}
	return fd;
}

static int
is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_TASK_CLOCK ||
	    a->config == PERF_COUNT_SW_CPU_CLOCK);
}

static long
open_flags(struct perf_event_attr *a, pid_t pid, int cpu, int group,
    unsigned long flags)
{
	long fd = open_cloexec(a, pid, cpu, group, flags);

	if (fd < 0 && (errno == EACCES || errno == EPERM) && is_clock(a) &&
	    !a->exclude_kernel) {
		a->exclude_kernel = 1;
		fd = open_cloexec(a, pid, cpu, group, flags);
	}
	return fd;
}

long
cpc_perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return open_flags(a, pid, cpu, group, 0UL);
}

/*
 * On cx's target: its thread, its CPU, or (cpc_bind_cpu_cgroup) the
 * tasks of its cgroup on its CPU: pid is then the cgroup's directory.
 */
long
cpc_perf_open_ctx(struct perf_event_attr *a, const struct cpc_ctx *cx,
    int cpu, int group)
{
	if (cx->cx_kind == CPC_BIND_CPU && cx->cx_cgfd >= 0)
		return open_flags(a, cx->cx_cgfd, cpu, group,
		    PERF_FLAG_PID_CGROUP);
	return open_flags(a, cx->cx_kind == CPC_BIND_CPU ? -1 : cx->cx_tid,
	    cpu, group, 0UL);
}

/* Overflow signals go to the bound thread. */
int
cpc_perf_signal(int fd, pid_t tid)
{
	struct f_owner_ex owner = { F_OWNER_TID, tid };
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
	    fcntl(fd, F_SETSIG, cpc_sigovf()) != 0 ||
	    fcntl(fd, F_SETFL, fl | O_ASYNC) != 0)
		return -1;
	return 0;
}
