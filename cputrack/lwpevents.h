/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lwpevents.h - cputrack without a stop at each thread (lwpevents.c):
 * the command's counters inherited by its threads, their LWP event
 * reports printed by a reader thread.
 */
#ifndef LWPEVENTS_H
#define LWPEVENTS_H

#include "tracker.h"

struct lwpev;

/*
 * Where the options allow it: the one set bound to the command with the
 * LWP event reports, the reader started and the command let go (no
 * callback follows).  NULL when the ptrace run must do.
 */
struct lwpev	*lwpev_start(struct tracker *tr);
/*
 * Wait for the command (and with -f its children), printing; the exit
 * status.  Call command_release, then lwpev_destroy after it.
 */
int		 lwpev_wait(struct lwpev *lr);
/* The reader stopped, everything freed; NULL does nothing. */
void		 lwpev_destroy(struct lwpev *lr);

#endif
