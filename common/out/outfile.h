/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outfile.h - open the file of -o as the kernel's protected_symlinks
 * rule would, whatever the sysctl says: root must not write through a
 * link another user planted in /tmp.
 */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * path opened for writing (created, truncated), or NULL with the reason
 * in msg.  A symbolic link at path is followed unless it lies in a
 * sticky, world-writable directory and belongs neither to the caller
 * nor to the directory's owner.
 */
FILE	*outfile_open(const char *path, char *msg, size_t len);

/*
 * Whether path may be replaced whole (rename): it does not exist, or is
 * a regular file or a symbolic link (the link is replaced, never its
 * target).  0, or -1 with the reason in msg: a device, a FIFO, a socket
 * or a directory is never replaced.
 */
int	 outfile_replaceable(const char *path, char *msg, size_t len);

/*
 * The replacement of path, written beside it as ".NAME.tmp" (a stale one
 * from a killed run is removed first, not left beside a new one), or
 * NULL with the reason in msg.  Until outfile_commit or outfile_abort,
 * a signal that would end the process removes the temporary file first.
 * One replacement at a time in a process.
 */
FILE	*outfile_begin(const char *path, char *msg, size_t len);
/* Close fp and rename it over path: 0, or -1 with msg (fp removed). */
int	 outfile_commit(FILE *fp, const char *path, char *msg, size_t len);

#endif
