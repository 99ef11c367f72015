/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_user.h - the perf backend's user-space read of hardware counters
 * through each event's perf_event_mmap_page (perf_user.c).  perf.c calls
 * these around its own open, start, stop, read and close.
 */
#ifndef CPC_PERF_USER_H
#define CPC_PERF_USER_H

#include <linux/perf_event.h>

#include "cpc_impl.h"

/* Ask for user access in the attributes where the kernel needs asking. */
void	cpc_pu_attr(const cpc_set_t *, const struct cpc_request *,
	    struct perf_event_attr *);
/* Map the pages of a set this thread just opened, when it qualifies. */
void	cpc_pu_map(cpc_set_t *);
void	cpc_pu_unmap(cpc_set_t *);
/* The group counts (1) or is stopped (0). */
void	cpc_pu_live(cpc_set_t *, int);
/*
 * Fill the set's read buffer as a group read() would, from user space;
 * -1: read() instead (not mapped, not this thread, not on the PMU now,
 * time-shared, the kernel gives no user access).
 */
int	cpc_pu_read(cpc_set_t *);

/* For tests and benches: reads done in user space; 1: never try. */
extern unsigned long	cpc_pu_nreads;
extern int		cpc_pu_off;

#endif /* CPC_PERF_USER_H */
