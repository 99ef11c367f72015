/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lwpevents.c - the LWP event reports of a set bound with
 * CPC_BIND_LWP_EVENTS (cpc_bind_pctx): the threads its target created,
 * their ends with their own counts, its forks and its exec, as the
 * backend collects them (backends/perf_lwpev.c).  They are the context's
 * that cpc_set_sample reads: the set's most recently bound.
 */
#include "config.h"

#include <errno.h>

#include "cpc_impl.h"
#include "backend.h"
#include "ctx.h"

/*
 * The context of set bound with CPC_BIND_LWP_EVENTS by cpc, held (the
 * set's lock, until cpc_ctx_done), or NULL with EINVAL.
 */
static struct cpc_ctx *
lwpev_ctx(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_ctx *cx;

	if (cpc == NULL || set == NULL || set->cs_cpc != cpc ||
	    (cx = cpc_ctx_shared(set)) == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (!cx->cx_lwpev || cx->cx_be->be_lwp_events == NULL) {
		cpc_ctx_done(cx);
		errno = EINVAL;
		return NULL;
	}
	return cx;
}

CPC_EXPORT int
cpc_lwp_events(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf,
    cpc_lwp_fn_t *fn, void *arg)
{
	struct cpc_ctx *cx;
	int n;

	if (buf == NULL || fn == NULL || (cx = lwpev_ctx(cpc, set)) == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (buf->cb_nreqs != set->cs_nreqs) {
		cpc_ctx_done(cx);
		errno = EINVAL;
		return -1;
	}
	n = cx->cx_be->be_lwp_events(cpc, cx, buf, fn, arg);
	cpc_ctx_done(cx);
	return n;
}

CPC_EXPORT int
cpc_lwp_events_fd(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_ctx *cx;
	int fd;

	if ((cx = lwpev_ctx(cpc, set)) == NULL)
		return -1;
	fd = cx->cx_be->be_lwp_fd(cx);
	cpc_ctx_done(cx);
	return fd;
}
