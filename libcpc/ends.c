/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ends.c - the reports of a set bound with CPC_BIND_LWP_ENDS
 * (cpc_bind_pctx): the threads its target created, their ends with their
 * own counts, its forks and its exec, as the backend collects them
 * (backends/perf_ends.c).
 */
#include "config.h"

#include <errno.h>

#include "cpc_impl.h"
#include "backend.h"

/* The set bound with CPC_BIND_LWP_ENDS by cpc, or NULL with EINVAL. */
static cpc_set_t *
ends_set(cpc_t *cpc, cpc_set_t *set)
{
	if (cpc == NULL || set == NULL || set->cs_cpc != cpc ||
	    !set->cs_open || !set->cs_ends || set->cs_endst == NULL ||
	    set->cs_be->be_lwp_events == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return set;
}

CPC_EXPORT int
cpc_lwp_events(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf,
    cpc_lwp_fn_t *fn, void *arg)
{
	if (ends_set(cpc, set) == NULL || buf == NULL || fn == NULL ||
	    buf->cb_nreqs != set->cs_nreqs) {
		errno = EINVAL;
		return -1;
	}
	return set->cs_be->be_lwp_events(cpc, set, buf, fn, arg);
}

CPC_EXPORT int
cpc_lwp_events_fd(cpc_t *cpc, cpc_set_t *set)
{
	if (ends_set(cpc, set) == NULL)
		return -1;
	return set->cs_be->be_lwp_fd(set);
}
