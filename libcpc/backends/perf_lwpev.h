/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_lwpev.h - the perf backend's CPC_BIND_LWP_EVENTS (perf_lwpev.c):
 * perf.c calls these around its own attributes, open, read and close.
 */
#ifndef CPC_PERF_LWPEV_H
#define CPC_PERF_LWPEV_H

#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ctx.h"

/*
 * A counting event's attributes for it: inherit_stat, remove_on_exec.
 */
void	cpc_perf_lwpev_attr(struct perf_event_attr *);
/*
 * perf_lwpev_probe.c: whether the kernel reports a thread's end (1), not
 * (0), or cannot tell (-1 with errno); tried once.
 */
int	cpc_perf_lwpev_probe(void);
/* The rings, after the group: 0, or -1 reported. */
int	cpc_perf_lwpev_open(cpc_t *, struct perf_ctx *,
	    const struct cpc_target *);
void	cpc_perf_lwpev_close(struct perf_ctx *);
/* A group read after an exec parted the group: each event alone. */
int	cpc_perf_lwpev_read(struct perf_ctx *);
/* The backend's be_lwp_events and be_lwp_fd. */
int	cpc_perf_lwp_events(cpc_t *, struct cpc_ctx *, cpc_buf_t *,
	    cpc_lwp_fn_t *, void *);
int	cpc_perf_lwp_fd(struct cpc_ctx *);

/*
 * perf_values.c: the requests' values from a group read's shape;
 * with base NULL, rb's times are the span's.
 */
void	cpc_perf_values(const struct perf_ctx *, const uint64_t *rb,
	    const uint64_t *base, uint64_t *vals, int *scaled);

#endif /* CPC_PERF_LWPEV_H */
