/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stdfds.c - /dev/null on the standard descriptors that are closed.
 *
 * open(2) returns the lowest free descriptor, so opening /dev/null while
 * 0, 1 or 2 is closed fills that one; a descriptor already open is left
 * as it is.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "stdfds.h"

void
stdfds_open(int status)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			_exit(status);
	}
}
