/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spawn.h - what the benchmark helpers share: a command started held.
 * The child is forked with its standard streams on in, out and err, and
 * waits on a pipe before it execs, so that the parent can note the time
 * (and set up what it measures) first; the parent lets it go by writing
 * a byte to *go (go_release).  Header-only: each helper is one file,
 * compiled alone by its script.
 */
#ifndef SPAWN_H
#define SPAWN_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * Fork argv held; newpgrp puts it in a process group of its own.  The
 * pid, or -1 (reported as prog: ...).  *go is the pipe to release it by.
 */
static pid_t
spawn_held(const char *prog, char **argv, int in, int out, int err,
    int newpgrp, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC) != 0) {
		fprintf(stderr, "%s: pipe: %s\n", prog, strerror(errno));
		return -1;
	}
	fflush(stdout);
	if ((pid = fork()) < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (newpgrp)
			(void)setpgid(0, 0);
		if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		close(p[1]);
		if (read(p[0], &c, 1) != 1)	/* the parent gave up */
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[0],
		    strerror(errno));
		_exit(127);
	}
	if (newpgrp)
		(void)setpgid(pid, pid);	/* either side may win */
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Let the held command exec; 0, or -1 (reported). */
static int
go_release(const char *prog, int go)
{
	int rc = write(go, "g", 1) == 1 ? 0 : -1;

	if (rc != 0)
		fprintf(stderr, "%s: write: %s\n", prog, strerror(errno));
	close(go);
	return rc;
}

#endif /* SPAWN_H */
