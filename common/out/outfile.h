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

#endif
