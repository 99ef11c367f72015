/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * renamed - take another name with prctl(PR_SET_NAME), then make exactly
 * N getpid(2) system calls: the oracle for a command label that comes
 * from the process's own name (/proc/PID/comm), not its executable's.
 *
 * usage: renamed NAME N
 *
 * NAME is what /proc/PID/comm says afterwards (the kernel keeps its first
 * 15 bytes).  Exit status 0, 1 when prctl failed, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl.h"

int
main(int argc, char **argv)
{
	long n, i;

	if (argc != 3) {
		fprintf(stderr, "usage: renamed NAME N\n");
		return 2;
	}
	n = wl_number(argv[2], 0, 1000000000L, "renamed", "NAME N");
	if (prctl(PR_SET_NAME, argv[1], 0, 0, 0) != 0) {
		perror("renamed: prctl");
		return 1;
	}
	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	return 0;
}
