/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ptfloor.c - the floor of a tracer that sees every thread: runs a
 * command under the least ptrace can do and still stop each new thread
 * before it runs and each ending thread with its counts complete
 * (PTRACE_O_TRACECLONE | TRACEEXIT, plus FORK, VFORK and EXEC with -f),
 * and nothing else: no counters, no /proc, a blocking waitpid loop.
 *
 *	ptfloor [-f] cmd [arg...]
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
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>

int
main(int argc, char **argv)
{
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT |
	    PTRACE_O_EXITKILL;
	int status, rc = 0, arg = 1;
	pid_t pid, tid;

	if (argc > 1 && strcmp(argv[1], "-f") == 0) {
		opts |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		    PTRACE_O_TRACEEXEC;
		arg++;
	}
	if (arg >= argc) {
		fprintf(stderr, "usage: ptfloor [-f] cmd [arg...]\n");
		return 2;
	}
	if ((pid = fork()) < 0) {
		perror("ptfloor: fork");
		return 1;
	}
	if (pid == 0) {
		raise(SIGSTOP);
		execvp(argv[arg], argv + arg);
		_exit(127);
	}
	if (waitpid(pid, &status, WSTOPPED) != pid ||
	    ptrace(PTRACE_SEIZE, pid, NULL, (void *)opts) != 0) {
		perror("ptfloor: seize");
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
		if (sig == SIGSTOP && ev == 0)
			sig = 0;
		(void)ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig);
	}
	return rc;
}
