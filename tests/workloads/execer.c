/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * execer - make exactly A getpid(2) system calls, then execvp(3) a
 * program: the oracle for counts that must carry across an exec (the
 * process keeps its pid, the image changes).
 *
 * usage: execer [-t] A prog [args...]
 *
 *	-t		exec from a second thread, created after the calls,
 *			while the main thread blocks in pthread_join(3).
 *			The kernel then makes the exec'ing thread the
 *			leader: it takes over the pid, and the old leader's
 *			thread disappears without a normal exit.
 *
 * The calls go through syscall(2), so no libc cache can absorb one;
 * nothing else in this program calls getpid.  Nothing is printed on
 * success, so the new image's output is the only output.
 *
 * Exit status: the new image's on success; 127 when the exec failed (the
 * reason is on stderr), 2 on a usage error, 1 when the thread could not
 * be created.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl.h"

#define	PROG	"execer"

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-t] A prog [args...]\n", PROG);
	exit(2);
}

/* Only returns (to exit 127) when the exec failed. */
static void
do_exec(char **av)
{
	execvp(av[0], av);
	fprintf(stderr, "%s: %s: %s\n", PROG, av[0], strerror(errno));
}

static void *
exec_thread(void *arg)
{
	do_exec(arg);
	exit(127);
}

int
main(int argc, char **argv)
{
	pthread_t thr;
	long a, i;
	int ch, threaded = 0, e;

	/* '+': the command after A is not scanned for options. */
	while ((ch = getopt(argc, argv, "+t")) != -1) {
		switch (ch) {
		case 't':
			threaded = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 2)
		usage();
	a = wl_num(argv[optind], 0, 1000000000L, usage);
	for (i = 0; i < a; i++)
		(void)syscall(SYS_getpid);
	if (!threaded) {
		do_exec(argv + optind + 1);
		return 127;
	}
	if ((e = pthread_create(&thr, NULL, exec_thread,
	    argv + optind + 1)) != 0) {
		fprintf(stderr, "%s: pthread_create: %s\n", PROG, strerror(e));
		return 1;
	}
	/* Never returns: the exec (or exit 127) ends this thread too. */
	pthread_join(thr, NULL);
	return 127;
}
