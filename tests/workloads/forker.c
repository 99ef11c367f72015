/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forker - a parent and its children each make a known number of getpid(2)
 * system calls: the oracle for following (or not following) children
 * created by fork(2) and vfork(2), and for an exec in a child.
 *
 * usage: forker [-p P] [-q Q] [-n N] [-v | -k sig] [-x status] [-w]
 *            [-- prog [args...]]
 *
 *	-p P		the parent makes P calls first (default 0)
 *	-q Q		each child makes Q calls (default 0; with -v, Q
 *			must be 0: a vfork child may only exec or _exit)
 *	-n N		start N children (default 1), one after another,
 *			each waited for (waitpid) before the next starts
 *	-v		make the children with vfork(2), not fork(2)
 *	-k sig		make the children with clone(2): a new process (no
 *			CLONE_THREAD) whose exit signal is sig, not SIGCHLD
 *			(0: none); the tracer sees it as a clone, not a fork
 *	-x status	the parent's exit status (default 0)
 *	-w		do not wait: start all N children back to back and
 *			exit at once; the children may outlive the parent
 *	prog [args...]	each child execvp(3)s this after its calls;
 *			without it a child _exits with status 0
 *
 * After each child ends, the parent prints to stdout
 *
 *	child <pid> exit <N>		or
 *	child <pid> signal <N>
 *
 * (nothing for a child under -w), and last
 *
 *	parent <pid> <P>
 *
 * where the parent's pid is its gettid(2) (it has one thread, so that is
 * the process ID; asking getpid would add a call).  stdout is flushed
 * after every line, so the lines interleave correctly with the output of
 * prog.  The calls go through syscall(2), so no libc cache can absorb one;
 * nothing else in this program calls getpid.
 *
 * A child whose exec fails writes the reason on stderr and exits 127 (a
 * vfork child leaves the message to the parent, which writes it once
 * vfork returns).  The parent exits with -x status when it got to the
 * end, 2 on a usage error, 1 when fork, vfork or waitpid failed or stdout
 * could not be written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl.h"

#define	PROG	"forker"

struct opts {
	long	o_p;		/* -p: parent's calls */
	long	o_q;		/* -q: each child's calls */
	long	o_n;		/* -n: number of children */
	int	o_vfork;	/* -v */
	int	o_clone;	/* -k: 1 + the exit signal, or 0 */
	int	o_status;	/* -x */
	int	o_nowait;	/* -w */
	char	**o_argv;	/* prog [args...], or NULL */
};

/*
 * Written by a vfork child, which shares this memory, when its exec
 * failed; read by the parent once vfork returns.  The child must not
 * touch stdio, so the parent does the reporting.
 */
static volatile int	vfork_errno;

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-p P] [-q Q] [-n N] [-v | -k sig] "
	    "[-x status] [-w] [-- prog [args...]]\n", PROG);
	exit(2);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->o_n = 1;
	/* '+': the command after the options is not scanned for options. */
	while ((ch = getopt(argc, argv, "+k:n:p:q:vwx:")) != -1) {
		switch (ch) {
		case 'k':
			o->o_clone = 1 + (int)wl_num(optarg, 0, 64, usage);
			break;
		case 'n':
			o->o_n = wl_num(optarg, 0, 100000, usage);
			break;
		case 'p':
			o->o_p = wl_num(optarg, 0, 1000000000L, usage);
			break;
		case 'q':
			o->o_q = wl_num(optarg, 0, 1000000000L, usage);
			break;
		case 'v':
			o->o_vfork = 1;
			break;
		case 'w':
			o->o_nowait = 1;
			break;
		case 'x':
			o->o_status = (int)wl_num(optarg, 0, 255, usage);
			break;
		default:
			usage();
		}
	}
	if (o->o_vfork && (o->o_q != 0 || o->o_clone))
		usage();
	if (optind < argc)
		o->o_argv = argv + optind;
}

static void
calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
}

/* One child by vfork: exec or _exit, nothing else.  Returns its pid. */
static pid_t
start_vfork(char **av)
{
	pid_t pid;

	vfork_errno = 0;
	if ((pid = vfork()) == 0) {
		if (av == NULL)
			_exit(0);
		execvp(av[0], av);
		vfork_errno = errno;
		_exit(127);
	}
	if (pid > 0 && vfork_errno != 0)
		fprintf(stderr, "%s: %s: %s\n", PROG, av[0],
		    strerror(vfork_errno));
	return pid;
}

/*
 * One child by fork, or by clone with another exit signal (clonesig is
 * 1 + the signal): Q calls, then exec or _exit.  Returns its pid.
 */
static pid_t
start_fork(long q, char **av, int clonesig)
{
	pid_t pid;

	pid = clonesig ? (pid_t)syscall(SYS_clone, (long)(clonesig - 1), 0L,
	    0L, 0L, 0L) : fork();
	if (pid == 0) {
		calls(q);
		if (av == NULL)
			_exit(0);
		execvp(av[0], av);
		fprintf(stderr, "%s: %s: %s\n", PROG, av[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Wait for pid and print its line; 0 on success. */
static int
reap(pid_t pid)
{
	int st;

	/* __WALL: a clone child with another exit signal is waited too. */
	while (waitpid(pid, &st, __WALL) == -1) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: waitpid %d: %s\n", PROG, (int)pid,
			    strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(st))
		printf("child %d exit %d\n", (int)pid, WEXITSTATUS(st));
	else
		printf("child %d signal %d\n", (int)pid, WTERMSIG(st));
	fflush(stdout);
	return 0;
}

static int
run(const struct opts *o)
{
	pid_t pid;
	long i;

	/* The children's exit signal must not end the parent. */
	if (o->o_clone > 1)
		signal(o->o_clone - 1, SIG_IGN);
	calls(o->o_p);
	for (i = 0; i < o->o_n; i++) {
		/* Nothing buffered may reach the child's copy of stdout. */
		fflush(stdout);
		if (o->o_vfork)
			pid = start_vfork(o->o_argv);
		else
			pid = start_fork(o->o_q, o->o_argv, o->o_clone);
		if (pid == -1) {
			fprintf(stderr, "%s: %s: %s\n", PROG, o->o_vfork ?
			    "vfork" : o->o_clone ? "clone" : "fork",
			    strerror(errno));
			return 1;
		}
		if (!o->o_nowait && reap(pid) != 0)
			return 1;
	}
	printf("parent %d %ld\n", (int)gettid(), o->o_p);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", PROG, strerror(errno));
		return 1;
	}
	return o->o_status;
}

int
main(int argc, char **argv)
{
	struct opts o;

	parse(argc, argv, &o);
	return run(&o);
}
