/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ctx.h - the perf backend's context: what one binding of a set
 * opened (struct cpc_ctx first, then the group's descriptors and the
 * state of its reads).  Shared by the perf backend's files.
 */
#ifndef CPC_PERF_CTX_H
#define CPC_PERF_CTX_H

#include "backend.h"

struct cpc_lwpev;

struct perf_ctx {
	struct cpc_ctx	 pc_cx;
	int		*pc_fds;	/* in open order: the leader, */
	int		 pc_nfds;	/* the rest, derived seconds */
	int		*pc_pos;	/* request -> its pc_fds index */
	int		 pc_ovf;	/* has CPC_OVF_NOTIFY_EMT requests */
	int		 pc_fresh;	/* opened, never enabled: all 0 */
	int		 pc_onopen;	/* leader opened enabled */
	uint64_t	*pc_base;	/* per fd: its count at the bind */
	uint64_t	*pc_off;	/* per request: its preset less its
					   fd's pc_base */
	uint64_t	 pc_ena0;	/* enabled/running ns at */
	uint64_t	 pc_run0;	/* the last bind */
	uint64_t	 pc_enalast;	/* CPU: enabled ns at the last read, */
	hrtime_t	 pc_hrlast;	/* and its CLOCK_MONOTONIC */
	uint64_t	*pc_rdbuf;	/* group read buffer */
	size_t		 pc_rdlen;
	void		*pc_user;	/* perf_user.c */
	struct cpc_lwpev *pc_lwpev;	/* CPC_BIND_LWP_EVENTS reports */
};

static inline struct perf_ctx *
perf_ctx(struct cpc_ctx *cx)
{
	return (struct perf_ctx *)cx;
}

#endif /* CPC_PERF_CTX_H */
