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
#include <signal.h>
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

int
outfile_replaceable(const char *path, char *msg, size_t len)
{
	struct stat st;

	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(msg, len, "%s", strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		return 0;
	snprintf(msg, len, "%s, not a regular file: not replaced",
	    S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ?
	    "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
	return -1;
}

/*
 * The temporary file being written, for the signal handler: a file-local
 * buffer because a handler can reach nothing else, and it must not
 * allocate.  Empty when none is.
 */
static char tmpname[4096];
static volatile sig_atomic_t tmpset;

/* The signals that end a process by default and that a handler can catch. */
static const int fatal_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
	SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU,
	SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGSYS
};

/* Remove the temporary file, then die of sig as if never caught. */
static void
on_fatal(int sig)
{
	int e = errno;

	if (tmpset)
		(void)unlink(tmpname);
	tmpset = 0;
	signal(sig, SIG_DFL);
	(void)raise(sig);
	errno = e;
}

/*
 * Catch the fatal signals nobody else handles, once: a signal the tool
 * takes in a thread of its own (sigwait) or ignores keeps its way, since
 * a caught or ignored signal never ends the process.
 */
static void
catch_fatal(void)
{
	static int done;
	struct sigaction sa, old;
	size_t i;

	if (done)
		return;
	done = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		if (sigaction(fatal_sigs[i], NULL, &old) == 0 &&
		    !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			(void)sigaction(fatal_sigs[i], &sa, NULL);
}

/* tmpname = ".BASE.tmp" beside path: 0, or -1 (too long). */
static int
name_tmp(const char *path)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash != NULL ? (int)(slash - path + 1) : 0;
	int n;

	n = snprintf(tmpname, sizeof(tmpname), "%.*s.%s.tmp", dlen, path,
	    path + dlen);
	return n < 0 || (size_t)n >= sizeof(tmpname) ? -1 : 0;
}

FILE *
outfile_begin(const char *path, char *msg, size_t len)
{
	FILE *fp;
	int fd, tries;

	catch_fatal();
	if (outfile_replaceable(path, msg, len) != 0)
		return NULL;
	if (name_tmp(path) != 0) {
		snprintf(msg, len, "%s", strerror(ENAMETOOLONG));
		return NULL;
	}
	/*
	 * Removed first, then created anew (O_EXCL): whatever a killed run
	 * or another user left at the name is never written through.
	 */
	for (tries = 0; tries < 3; tries++) {
		(void)unlink(tmpname);
		fd = open(tmpname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		    O_NOFOLLOW, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(msg, len, "cannot create '%s': %s", tmpname,
		    strerror(errno));
		return NULL;
	}
	tmpset = 1;
	if (fchmod(fd, 0644) != 0 || (fp = fdopen(fd, "w")) == NULL) {
		snprintf(msg, len, "'%s': %s", tmpname, strerror(errno));
		close(fd);
		(void)unlink(tmpname);
		tmpset = 0;
		return NULL;
	}
	return fp;
}

int
outfile_commit(FILE *fp, const char *path, char *msg, size_t len)
{
	int bad = fflush(fp) != 0 || ferror(fp);
	int e = errno;

	if (fclose(fp) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		snprintf(msg, len, "cannot write '%s': %s", tmpname,
		    strerror(e));
		goto out_unlink;
	}
	/* Looked at again: the name may have become a device meanwhile. */
	if (outfile_replaceable(path, msg, len) != 0)
		goto out_unlink;
	if (rename(tmpname, path) != 0) {
		snprintf(msg, len, "cannot rename '%s' to '%s': %s", tmpname,
		    path, strerror(errno));
		goto out_unlink;
	}
	tmpset = 0;
	return 0;
out_unlink:
	(void)unlink(tmpname);
	tmpset = 0;
	return -1;
}
