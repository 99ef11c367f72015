/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outfile.c - -o FILE without following a hostile symbolic link.
 *
 * The kernel's fs.protected_symlinks (fs/namei.c, may_follow_link)
 * lets a process follow a link in a sticky, world-writable directory
 * only when the process's fsuid owns the link or the link's owner owns
 * the directory; elsewhere every link is followed.  Refusing every link
 * (O_NOFOLLOW alone) would break "-o out" where out is the user's own
 * link; following them all would let another user of /tmp aim root's
 * output at /etc/passwd.  So: open without following; only when the
 * name is a link, apply the rule and open again.  The link cannot be
 * swapped meanwhile for one the rule refuses: in a sticky directory
 * only its owner (the caller or the directory's owner) may remove it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "outfile.h"

#define FLAGS	(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)

static int
is_link(const char *path)
{
	struct stat ls;
	int e = errno, r;

	r = lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode);
	errno = e;
	return r;
}

/* 0 when the rule lets us follow the link at path; -1 with msg. */
static int
may_follow(const char *path, char *msg, size_t len)
{
	struct stat ls, ds;
	char *dup, *dir;
	int rc = 0;

	if (lstat(path, &ls) != 0 || !S_ISLNK(ls.st_mode))
		return 0;	/* gone or not a link: open says why */
	if ((dup = strdup(path)) == NULL) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	dir = dirname(dup);
	if (stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) &&
	    (ds.st_mode & S_IWOTH) && ls.st_uid != geteuid() &&
	    ls.st_uid != ds.st_uid) {
		snprintf(msg, len, "not following the symbolic link of uid "
		    "%u in the sticky, world-writable directory '%s' "
		    "(the kernel's protected_symlinks rule)",
		    (unsigned)ls.st_uid, dir);
		rc = -1;
	}
	free(dup);
	return rc;
}

FILE *
outfile_open(const char *path, char *msg, size_t len)
{
	FILE *fp;
	int fd;

	/*
	 * A link gives ELOOP, or EACCES where the kernel applied its rule
	 * first (fs.protected_symlinks=1 looks before O_NOFOLLOW does).
	 */
	if ((fd = open(path, FLAGS | O_NOFOLLOW, 0666)) < 0 &&
	    (errno == ELOOP || errno == EACCES) && is_link(path)) {
		if (may_follow(path, msg, len) != 0)
			return NULL;
		fd = open(path, FLAGS, 0666);
	}
	if (fd < 0 || (fp = fdopen(fd, "w")) == NULL) {
		snprintf(msg, len, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return fp;
}
