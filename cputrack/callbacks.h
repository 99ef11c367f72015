/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callbacks.h - the ptrace run (callbacks.c): libpctx stops every thread
 * at its birth and end, and the callbacks bind, sample and print.
 */
#ifndef CALLBACKS_H
#define CALLBACKS_H

#include "tracker.h"

/* The callbacks on tr->tr_pctx (created with tr as its arg). */
void	callbacks_set(struct tracker *tr);
/* pctx_run with the ticks the options ask: 0, or -1 when it failed. */
int	callbacks_run(struct tracker *tr);

#endif
