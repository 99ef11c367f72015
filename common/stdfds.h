/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stdfds.h - make sure descriptors 0, 1 and 2 are open before anything
 * else is: a tool started with one closed would otherwise open its -o
 * file or a perf event there, and write its messages into that.
 */
#ifndef STDFDS_H
#define STDFDS_H

/*
 * Open /dev/null on each of 0, 1 and 2 that is closed (readable on 0,
 * writable on 1 and 2).  Exits with status when /dev/null cannot be
 * opened: nothing can be said then, with nowhere safe to say it.
 */
void	stdfds_open(int status);

#endif
