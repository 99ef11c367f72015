/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * subreaper - run a command as a child subreaper (PR_SET_CHILD_SUBREAPER),
 * so that the processes it leaves behind are reparented here instead of
 * to init: the oracle for "a tool reaps what it started before it exits".
 * Under init an orphaned zombie is reaped at init's own pace (in some
 * containers never), so seeing none there proves nothing; here it is
 * seen for sure.
 *
 * usage: subreaper command [args...]
 *
 * When command (the direct child) has ended, stdout gets
 *
 *	orphans <n>
 *	orphan <pid> <state>		(one per orphan, ascending pid)
 *
 * where the orphans are the processes that command left behind and that
 * still exist: each is a zombie (state Z: it ended and nobody reaped it)
 * or still runs (its /proc state letter).  A process is reparented when
 * its parent exits, before that parent's death is reported, so the list
 * is complete when command's wait returns.  The orphans are then killed
 * (SIGKILL) and reaped, so that nothing outlives subreaper.
 *
 * Exit status: command's, or 128 plus the signal that killed it, as a
 * shell reports it; 127 when command could not be executed, 2 on a usage
 * error, 1 when subreaper itself failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define	PROG		"subreaper"
#define	MAX_ORPHANS	1024

struct orphan {
	pid_t	o_pid;
	char	o_state;
};

/* The state letter and parent of pid from /proc/pid/stat; -1 if gone. */
static int
proc_stat(pid_t pid, char *state, pid_t *ppid)
{
	char path[64], buf[1024], *s;
	FILE *fp;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	ok = fgets(buf, sizeof(buf), fp) != NULL;
	fclose(fp);
	/* The command name may hold spaces and parentheses: after the last. */
	if (!ok || (s = strrchr(buf, ')')) == NULL ||
	    sscanf(s + 1, " %c %d", state, ppid) != 2)
		return -1;
	return 0;
}

static int
cmp_orphan(const void *a, const void *b)
{
	const struct orphan *x = a, *y = b;

	return (x->o_pid > y->o_pid) - (x->o_pid < y->o_pid);
}

/* The processes whose parent is this one; their number, or -1. */
static int
find_orphans(struct orphan *o, int max)
{
	struct dirent *de;
	DIR *d;
	pid_t pid, ppid, self = getpid();
	char state;
	int n = 0;

	if ((d = opendir("/proc")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL && n < max) {
		if ((pid = (pid_t)atoi(de->d_name)) <= 0)
			continue;
		if (proc_stat(pid, &state, &ppid) == 0 && ppid == self) {
			o[n].o_pid = pid;
			o[n].o_state = state;
			n++;
		}
	}
	closedir(d);
	qsort(o, n, sizeof(*o), cmp_orphan);
	return n;
}

int
main(int argc, char **argv)
{
	static struct orphan o[MAX_ORPHANS];
	int st, n, i;
	pid_t kid;

	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: %s command [args...]\n", PROG);
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		fprintf(stderr, "%s: prctl: %s\n", PROG, strerror(errno));
		return 1;
	}
	fflush(stdout);
	if ((kid = fork()) < 0) {
		fprintf(stderr, "%s: fork: %s\n", PROG, strerror(errno));
		return 1;
	}
	if (kid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "%s: %s: %s\n", PROG, argv[1],
		    strerror(errno));
		_exit(127);
	}
	while (waitpid(kid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "%s: waitpid: %s\n", PROG,
			    strerror(errno));
			return 1;
		}
	if ((n = find_orphans(o, MAX_ORPHANS)) < 0) {
		fprintf(stderr, "%s: /proc: %s\n", PROG, strerror(errno));
		return 1;
	}
	printf("orphans %d\n", n);
	for (i = 0; i < n; i++)
		printf("orphan %d %c\n", (int)o[i].o_pid, o[i].o_state);
	if (fflush(stdout) != 0)
		return 1;
	for (i = 0; i < n; i++)
		(void)kill(o[i].o_pid, SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR)
		;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
