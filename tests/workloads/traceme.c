/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * traceme - ask to be traced by the parent, as a program run under a
 * debugger does (ptrace(PTRACE_TRACEME)), then make N getpid(2) calls and
 * either take a signal or exec: both stop a traced process until its
 * tracer answers.
 *
 * usage: traceme signal N	TRACEME, SIGUSR1 to itself (caught), then
 *				N getpid calls
 *	  traceme exec N	TRACEME, then exec getpid_n N (beside it)
 *
 * "traceme R" on stdout says what TRACEME returned (0, or -1 when the
 * process was traced already).  Exit status 0, 2 on a usage error, 1 when
 * the exec failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "wl.h"

static volatile sig_atomic_t caught;

static void
usage(void)
{
	fprintf(stderr, "usage: traceme signal|exec N\n");
	exit(2);
}

static void
on_usr1(int sig)
{
	(void)sig;
	caught = 1;
}

/* Exec getpid_n, which sits in the same folder as this program. */
static void
exec_getpid_n(const char *self, const char *n)
{
	char path[PATH_MAX];
	const char *slash = strrchr(self, '/');
	int len = slash != NULL ? (int)(slash - self + 1) : 0;

	snprintf(path, sizeof(path), "%.*sgetpid_n", len, self);
	execl(path, "getpid_n", n, (char *)NULL);
	fprintf(stderr, "traceme: %s: %s\n", path, strerror(errno));
	exit(1);
}

int
main(int argc, char **argv)
{
	char self[64] = "";
	long i, n, pid, tid;
	long r;

	if (argc != 3)
		usage();
	n = wl_num(argv[2], 0, 100000000L, usage);
	r = ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	printf("traceme %ld\n", r);
	fflush(stdout);
	if (strcmp(argv[1], "exec") == 0)
		exec_getpid_n(argv[0], argv[2]);
	if (strcmp(argv[1], "signal") != 0)
		usage();
	signal(SIGUSR1, on_usr1);
	/* Not raise(3): glibc's asks getpid, one call more to count. */
	if (readlink("/proc/thread-self", self, sizeof(self) - 1) < 0 ||
	    sscanf(self, "%ld/task/%ld", &pid, &tid) != 2)
		return 1;
	(void)syscall(SYS_tgkill, pid, tid, SIGUSR1);
	if (!caught)
		return 1;
	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	return 0;
}
