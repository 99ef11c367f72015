/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forkexec-ptfloor.c - the floor of a tracer that sees every thread: runs a
 * command under the least ptrace can do and still stop each new thread
 * before it runs and each ending thread with its counts complete
 * (PTRACE_O_TRACECLONE | TRACEEXIT, plus FORK, VFORK and EXEC with -f),
 * and nothing else: no counters, no /proc, a blocking waitpid loop.
 *
 *	forkexec-ptfloor [-f | -x [-c | -i]] cmd [arg...]
 *
 * -x: as -f, but a process other than the command is let go (detached)
 * at its exec, as cputrack -f lets it go without -e: the floor of that
 * run (a child stops at its birth and its exec, its parent at the fork
 * and at the child's SIGCHLD).  -c (with -x): and as cputrack, counts
 * task-clock and page-faults of each child as a group of its own, opened
 * and enabled at its first stop, read and closed at its exec: the floor
 * of a tracer that opens each child's counters itself.  -i (with -x):
 * the kernel copies the command's group into each child at its fork
 * (inherit, inherit_stat, remove_on_exec: no call per child), and each
 * child's counts come as PERF_RECORD_READ at its exec into a ring that
 * is emptied at each exec stop: the floor of that way of counting.
 *
 * bench/cputrack times it beside cputrack and perf stat: what cputrack
 * costs per new thread above this is its own; this much is the price of
 * two ptrace stops per thread (clone and exit), whatever the tracer does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#define NTID	65536
static int grp[NTID][2];	/* a child's group, +1: 0 none */

static int
open1(pid_t tid, unsigned long long config, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.disabled = group < 0;
	a.exclude_kernel = config == PERF_COUNT_SW_PAGE_FAULTS;
	a.exclude_hv = a.exclude_kernel;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, tid, -1, group, 8UL);
}

static struct perf_event_mmap_page *ring;

/*
 * -i: the command's group, inherited by the processes it makes; their
 * READ records go to a dummy's ring (the kernel maps no ring for an
 * inherited per-task event).
 */
static void
inh_open(pid_t tid)
{
	struct perf_event_attr a;
	int l, m, d;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = a.inherit_stat = a.remove_on_exec = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	l = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, 8UL);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.exclude_kernel = a.exclude_hv = 1;
	m = (int)syscall(SYS_perf_event_open, &a, tid, -1, l, 8UL);
	a.config = PERF_COUNT_SW_DUMMY;
	a.exclude_kernel = a.exclude_hv = 0;
	a.inherit = a.inherit_stat = a.remove_on_exec = 0;
	a.read_format = 0;
	d = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, 8UL);
	ring = mmap(NULL, 9 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, d, 0);
	if (l < 0 || m < 0 || d < 0 || ring == MAP_FAILED ||
	    ioctl(l, PERF_EVENT_IOC_SET_OUTPUT, d) != 0 ||
	    ioctl(m, PERF_EVENT_IOC_SET_OUTPUT, d) != 0) {
		perror("forkexec-ptfloor: -i");
		exit(1);
	}
}

/* -i: the records written so far (a child's at its exec), consumed. */
static void
inh_drain(void)
{
	unsigned long long head;

	head = __atomic_load_n(&ring->data_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&ring->data_tail, head, __ATOMIC_RELEASE);
}

/* A child's first stop: its group, opened and enabled. */
static void
count_start(pid_t tid)
{
	int *g = grp[tid % NTID];

	if (g[0] != 0)
		return;
	g[0] = open1(tid, PERF_COUNT_SW_TASK_CLOCK, -1) + 1;
	g[1] = open1(tid, PERF_COUNT_SW_PAGE_FAULTS, g[0] - 1) + 1;
	(void)ioctl(g[0] - 1, PERF_EVENT_IOC_ENABLE, 0);
}

/* Its exec: read and closed. */
static void
count_end(pid_t tid)
{
	int *g = grp[tid % NTID];
	unsigned long long v[8];

	if (g[0] == 0)
		return;
	(void)!read(g[0] - 1, v, sizeof(v));
	close(g[1] - 1);
	close(g[0] - 1);
	g[0] = g[1] = 0;
}

/*
 * The options: the ptrace options, *letgo (-x), *count (1: -c, 2: -i);
 * the index of the command in argv.  Exits on a usage error.
 */
static int
options(int argc, char **argv, long *opts, int *letgo, int *count)
{
	int arg = 1;

	if (argc > 1 && (strcmp(argv[1], "-f") == 0 ||
	    strcmp(argv[1], "-x") == 0)) {
		*opts |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		    PTRACE_O_TRACEEXEC;
		*letgo = argv[1][1] == 'x';
		arg++;
		if (*letgo && argc > 2 && strcmp(argv[2], "-i") == 0) {
			*count = 2;
			arg++;
		} else if (*letgo && argc > 2 && strcmp(argv[2], "-c") == 0) {
			/*
			 * One page-faults counter stays open, disabled, as
			 * cputrack's anchor: else each child's would be the
			 * only one, and its open and close would patch the
			 * kernel's text (the software event's static key).
			 */
			*count = open1(0, PERF_COUNT_SW_PAGE_FAULTS, -1) >= 0;
			arg++;
		}
	}
	if (arg >= argc) {
		fprintf(stderr, "usage: forkexec-ptfloor [-f | -x [-c | -i]] "
		    "cmd [arg...]\n");
		exit(2);
	}
	return arg;
}

int
main(int argc, char **argv)
{
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT |
	    PTRACE_O_EXITKILL;
	int status, rc = 0, arg, letgo = 0, count = 0;
	pid_t pid, tid;

	arg = options(argc, argv, &opts, &letgo, &count);
	if ((pid = fork()) < 0) {
		perror("forkexec-ptfloor: fork");
		return 1;
	}
	if (pid == 0) {
		raise(SIGSTOP);
		execvp(argv[arg], argv + arg);
		_exit(127);
	}
	if (waitpid(pid, &status, WSTOPPED) != pid ||
	    ptrace(PTRACE_SEIZE, pid, NULL, (void *)opts) != 0) {
		perror("forkexec-ptfloor: seize");
		kill(pid, SIGKILL);
		return 1;
	}
	kill(pid, SIGCONT);
	for (;;) {
		int sig = 0, ev;

		if ((tid = waitpid(-1, &status, __WALL)) < 0) {
			if (errno == EINTR)
				continue;
			break;		/* ECHILD: all done */
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == pid)
				rc = WIFEXITED(status) ? WEXITSTATUS(status) :
				    128 + WTERMSIG(status);
			continue;
		}
		ev = (unsigned)status >> 16;
		if (ev == 0)
			sig = WSTOPSIG(status);
		else if (ev == PTRACE_EVENT_STOP)
			sig = 0;	/* a new thread's first stop */
		if (count == 1 && ev == PTRACE_EVENT_STOP && tid != pid)
			count_start(tid);
		if (count == 2 && ev == PTRACE_EVENT_EXEC && tid == pid &&
		    ring == NULL)
			inh_open(tid);
		if (sig == SIGSTOP && ev == 0)
			sig = 0;
		if (letgo && ev == PTRACE_EVENT_EXEC && tid != pid) {
			if (count == 1)
				count_end(tid);
			else if (count == 2 && ring != NULL)
				inh_drain();
			(void)ptrace(PTRACE_DETACH, tid, NULL, NULL);
			continue;
		}
		(void)ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig);
	}
	return rc;
}
