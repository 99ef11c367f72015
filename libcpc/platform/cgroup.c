/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cgroup.c - a cgroup of the cgroup v2 hierarchy, by its path under
 * that hierarchy, opened for the kernel's cgroup mode of perf_event
 * (cpc_bind_cpu_cgroup).  The hierarchy is found wherever this process's
 * mount namespace has cgroup2 mounted (/proc/self/mountinfo), not at a
 * fixed place: /sys/fs/cgroup on most systems, /sys/fs/cgroup/unified
 * on a hybrid one.  The mount point is looked up once, and kept (a
 * process that finds none looks again the next time).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "platform.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

/*
 * A mountinfo field in place, its octal escapes (\040 a space) undone;
 * the next field after it, or NULL at the end of the line.
 */
static char *
field(char *s, char **next)
{
	char *w = s, *r = s;

	for (; *r != '\0' && *r != ' ' && *r != '\n'; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
			    (r[3] - '0'));
			r += 3;
		} else
			*w++ = *r;
	}
	*next = *r == ' ' ? r + 1 : NULL;
	*w = '\0';
	return s;
}

/*
 * The mount point of one mountinfo line when its file system is cgroup2
 * (after the " - " separator), else NULL.
 */
static const char *
cgroup2_point(char *line)
{
	char *sep = strstr(line, " - "), *next = line, *point = NULL;
	int i;

	if (sep == NULL || strncmp(sep + 3, "cgroup2 ", 8) != 0)
		return NULL;
	*sep = '\0';
	/* id parent major:minor root point ... */
	for (i = 0; i < 5 && next != NULL; i++)
		point = field(next, &next);
	return i == 5 ? point : NULL;
}

/* The mount point found first, kept: cpustat binds every interval. */
static pthread_mutex_t root_lock = PTHREAD_MUTEX_INITIALIZER;
static char root_kept[1024];

static int
find_root(char *buf, size_t len)
{
	char line[4096];
	const char *p;
	FILE *f;
	int found = 0;

	if ((f = fopen("/proc/self/mountinfo", "r")) == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		if ((p = cgroup2_point(line)) != NULL &&
		    (size_t)snprintf(buf, len, "%s", p) < len)
			found = 1;
	fclose(f);
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int
cpc_cgroup2_root(char *buf, size_t len)
{
	int rc = 0;

	pthread_mutex_lock(&root_lock);
	if (root_kept[0] == '\0')
		rc = find_root(root_kept, sizeof(root_kept));
	if (rc == 0 && (size_t)snprintf(buf, len, "%s", root_kept) >= len) {
		errno = ENAMETOOLONG;
		rc = -1;
	}
	pthread_mutex_unlock(&root_lock);
	return rc;
}

/* Opened: a cgroup v2 directory, or -1 with errno and msg. */
static int
checked(int fd, const char *path, const char *full, const char *root,
    char *msg, size_t len)
{
	struct statfs fs;
	struct stat st;

	if (fstat(fd, &st) != 0 || fstatfs(fd, &fs) != 0) {
		snprintf(msg, len, "cgroup '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(msg, len, "cgroup '%s': %s is not a directory",
		    path, full);
		errno = ENOTDIR;
		return -1;
	}
	if ((unsigned long)fs.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(msg, len, "cgroup '%s' is not a directory of the "
		    "cgroup v2 hierarchy (%s)", path, root);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
cpc_cgroup_open(const char *path, char *msg, size_t len)
{
	char root[1024], full[4096];
	const char *rel = path;
	int fd, e;

	if (cpc_cgroup2_root(root, sizeof(root)) != 0) {
		e = errno;
		snprintf(msg, len, "cgroup '%s': the cgroup v2 hierarchy is "
		    "not mounted (mount -t cgroup2 none /sys/fs/cgroup)", path);
		errno = e == ENOENT ? ENOENT : e;
		return -1;
	}
	while (*rel == '/')
		rel++;
	if ((size_t)snprintf(full, sizeof(full), "%s/%s", root, rel) >=
	    sizeof(full)) {
		snprintf(msg, len, "cgroup '%.64s...': the path is too long",
		    path);
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = open(full, O_RDONLY | O_CLOEXEC)) < 0) {
		e = errno;
		if (e == ENOENT)
			snprintf(msg, len, "there is no cgroup '%s' (no %s)",
			    path, full);
		else
			snprintf(msg, len, "cgroup '%s': %s: %s", path, full,
			    strerror(e));
		errno = e;
		return -1;
	}
	if (checked(fd, path, full, root, msg, len) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}
