/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procfs.c - what /proc says about a tracee: a field of its status, its
 * command line, whether it runs a set-id program.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pctx_impl.h"

/* One "Key:\tvalue" number of /proc/<tid>/status; -1 when absent. */
long
pctx_status_field(pid_t tid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(fp);
	return v;
}

PCTX_EXPORT void
pctx_cmdline(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, i;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	buf[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
}

/*
 * An unprivileged tracer makes the kernel run a set-id program without
 * its privileges.  Say so: the program may behave differently.
 */
void
pctx_setid_note(pctx_t *p, const char *fn, pid_t pid)
{
	char path[64], exe[4096];
	struct stat st;
	ssize_t n;

	if (geteuid() == 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &st) != 0)
		return;
	if (((st.st_mode & S_ISUID) == 0 || st.st_uid == geteuid()) &&
	    ((st.st_mode & S_ISGID) == 0 || st.st_gid == getegid()))
		return;
	if ((n = readlink(path, exe, sizeof(exe) - 1)) < 0)
		n = 0;
	exe[n] = '\0';
	pctx_err(p, fn, "note: '%s' is set-%s-ID: under tracing it runs "
	    "without its privileges, as under a debugger", exe,
	    (st.st_mode & S_ISUID) ? "user" : "group");
}
