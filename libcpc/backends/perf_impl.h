/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_impl.h - the calls between the perf backend's files, one job
 * each:
 *
 *	perf_open.c	the one open of an event, its signal's owner
 *	perf_advice.c	advice for a failed open
 *	perf_group.c	attributes, and a context's group opened and closed
 *	perf_read.c	a context's group read
 *	perf.c		started, stopped, restarted; the backend's table
 *	perf_smpl.c	SMPL requests; perf_lwpev*.c the LWP event reports;
 *	perf_user.c	user-space reads; perf_ring.c the ring reader
 */
#ifndef CPC_PERF_IMPL_H
#define CPC_PERF_IMPL_H

#include "backend.h"

struct perf_event_attr;
struct perf_ctx;

/*
 * perf_open.c: open a on pid/cpu in group (-1: none), close-on-exec; a
 * clock refused for privilege again with the kernel excluded (a is
 * changed so).  The descriptor, or -1 with errno.
 */
long	cpc_perf_open(struct perf_event_attr *a, pid_t pid, int cpu,
	    int group);
/* The same on cx's target: its thread, its CPU, or its CPU's cgroup. */
long	cpc_perf_open_ctx(struct perf_event_attr *a, const struct cpc_ctx *cx,
	    int cpu, int group);
/* Overflow signals of fd go to thread tid (CPC_SIGOVF): 0, or -1. */
int	cpc_perf_signal(int fd, pid_t tid);

/*
 * perf_advice.c: report a failed open of req's event on target ("cpu
 * 3", "thread 1234", from cpc_perf_target_name) with what to do.
 */
void	cpc_perf_open_error(cpc_t *cpc, const char *fn, int err,
	    const struct cpc_request *req, const char *target);
#define CPC_TARGET_NAME	1100	/* a cgroup's path in it */
void	cpc_perf_target_name(const struct cpc_target *t, char *buf,
	    size_t len);
/*
 * A cgroup-mode open of cx refused (err) because the kernel has no
 * cgroup events: reported, errno ENOTSUP, 1; else 0.
 */
int	cpc_perf_cgroup_error(cpc_t *cpc, const char *fn, int err,
	    const struct cpc_ctx *cx, const struct cpc_target *t);

/*
 * perf_group.c: the event part of an attribute (zeroed first: r's
 * event, or with sub its derived event's second half; the dummy event
 * in neither mode; the mode exclusions); the context's group opened
 * (be_open), closed (be_close), and opened again from position from on.
 */
void	cpc_perf_event_attr(const struct cpc_request *r, int sub,
	    struct perf_event_attr *a);
int	cpc_perf_open_set(cpc_t *, struct cpc_ctx *, const struct cpc_target *);
void	cpc_perf_close(cpc_t *, struct cpc_ctx *);
int	cpc_perf_reopen_from(struct perf_ctx *pc, int from);

/*
 * perf_read.c: the group read into pc_rdbuf; be_read; cpc_set_sample
 * whole for a thread's plain group (cx_sample).
 */
int	cpc_perf_read_raw(struct perf_ctx *pc);
int	cpc_perf_read(cpc_t *, struct cpc_ctx *, cpc_buf_t *);
int	cpc_perf_sample_plain(cpc_t *, struct cpc_ctx *, cpc_buf_t *);

#endif /* CPC_PERF_IMPL_H */
