/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * command.h - the command cputrack runs, or the process it attaches to
 * (command.c): its start, the signals that end the tracking and their
 * forwarding, its wait and exit status, its release.
 */
#ifndef COMMAND_H
#define COMMAND_H

#include "tracker.h"

/*
 * Start the command (stopped before its first instruction) or capture
 * the -p process, with tr as libpctx's arg: tr->tr_pctx, 0; or -1 with
 * errno (said by libpctx).
 */
int	command_start(struct tracker *tr);
/* The exit status of a command that could not be started (errno e). */
int	exec_status(int e);
/* Let the signals that end the tracking reach tr (and the command). */
void	catch_signals(struct tracker *tr);
/* Send the command the signal caught since the last call, if any. */
void	forward(struct tracker *tr);
/* The exit status for the command's wait status. */
int	wait_status(int st);
/*
 * Wait for the command, forwarding the signals meanwhile; its exit
 * status.  After a failure, kill it first and return EXIT_OWNFAIL.
 */
int	end_command(struct tracker *tr, int failed);
/*
 * Kill what is still tracked of a command, or detach a -p process, and
 * free the handle.
 */
void	command_release(struct tracker *tr);

#endif
