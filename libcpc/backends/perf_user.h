/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_user.h - the perf backend's user-space read of hardware counters
 * through each event's perf_event_mmap_page (perf_user.c).  perf.c calls
 * these around its own open, start, stop, read and close.
 */
#ifndef CPC_PERF_USER_H
#define CPC_PERF_USER_H

#include <linux/perf_event.h>

#include "perf_ctx.h"

/* Ask for user access in the attributes where the kernel needs asking. */
void	cpc_perf_user_attr(const struct perf_ctx *, const struct cpc_request *,
	    struct perf_event_attr *);
/* Map the pages of a context this thread just opened, if it qualifies. */
void	cpc_perf_user_map(struct perf_ctx *);
void	cpc_perf_user_unmap(struct perf_ctx *);
/* The group counts (1) or is stopped (0). */
void	cpc_perf_user_live(struct perf_ctx *, int);
/*
 * Fill the context's read buffer as a group read() would, from user space;
 * -1: read() instead (not mapped, not this thread, not on the PMU now,
 * time-shared, the kernel gives no user access).
 */
int	cpc_perf_user_read(struct perf_ctx *);

/* For tests and benches: reads done in user space; 1: never try. */
extern unsigned long	cpc_perf_user_nreads;
extern int		cpc_perf_user_off;

#endif /* CPC_PERF_USER_H */
