/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tracer - hold one thread under ptrace(2), as a debugger or strace(1)
 * does, so that a second tracer of that thread is refused: the oracle for
 * the "already being traced by pid N (name)" message.
 *
 * usage: tracer tid
 *
 * Seizes the thread tid (PTRACE_SEIZE: it is not stopped and runs on),
 * then answers its ptrace-stops, passing its signals on, until tracer
 * gets SIGTERM or SIGINT; its exit detaches the thread, which runs on.
 * Only tid is traced: the other threads of its process stay free.
 * "ready" on stdout says the thread is seized.
 *
 * Exit status 0 after a signal, 2 on a usage error, 1 when tid could not
 * be seized (the reason is on stderr) or was lost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "wl.h"

#define	PROG	"tracer"

static volatile sig_atomic_t done;

static void
usage(void)
{
	fprintf(stderr, "usage: %s tid\n", PROG);
	exit(2);
}

static void
on_term(int sig)
{
	(void)sig;
	done = 1;
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	pid_t tid, r;
	int st, sig;

	if (argc != 2)
		usage();
	tid = (pid_t)wl_num(argv[1], 1, 0x7fffffffL, usage);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;	/* no SA_RESTART: waitpid returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) != 0) {
		fprintf(stderr, "%s: cannot seize %d: %s\n", PROG, (int)tid,
		    strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (!done) {
		if ((r = waitpid(tid, &st, __WALL)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: lost %d: %s\n", PROG, (int)tid,
			    strerror(errno));
			return 1;
		}
		if (!WIFSTOPPED(st))
			return 1;	/* it ended */
		/* A signal-delivery-stop: deliver it; anything else: go on. */
		sig = (st >> 16) == 0 ? WSTOPSIG(st) : 0;
		(void)ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig);
	}
	return 0;
}
