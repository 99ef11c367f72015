/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sample.c - the calls on a bound set's context: cpc_set_sample, and
 * the calls that act on the calling thread's context (cpc_set_restart,
 * cpc_request_preset, cpc_enable, cpc_disable), which may run in the
 * overflow signal's handler: they take no lock.
 *
 * cpc_set_sample reads the calling thread's context of the set (bound
 * with cpc_bind_curlwp) when it has one: a thread-local pointer and a
 * comparison, then the backend's read.  Else the set's most recently
 * bound with cpc_bind_pctx or cpc_bind_cpu, under the set's lock.  A
 * thread never reads another's cpc_bind_curlwp context.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>

#include "backend.h"
#include "ctx.h"

/* cpc_set_sample for the contexts without a backend's own (cx_sample). */
static __attribute__((noinline)) int
sample_any(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
{
	static const char fn[] = "cpc_set_sample";

	if (cx->cx_kind == CPC_BIND_CPU && sched_getcpu() != cx->cx_cpu) {
		/* The CPU went away under us (offline) or the mask changed. */
		errno = EAGAIN;
		cpc_err(cpc, fn, -1, "no longer running on cpu %d (offline?)",
		    cx->cx_cpu);
		return -1;
	}
	if (cx->cx_be->be_read(cpc, cx, buf) != 0)
		return -1;
	buf->cb_hrtime = cpc_hrnow();
	buf->cb_tick = cpc_ticknow() - cx->cx_tick0;
	/* The SMPL requests' records since the last sample (smpl.c). */
	return cx->cx_set->cs_nsmpl > 0 ? cpc_smpl_sample(cpc, cx, buf) : 0;
}

/* The report of a thread that has no context for set. */
static int
no_context(cpc_t *cpc, const char *fn, cpc_set_t *set)
{
	if (set != NULL && cpc_set_lwp_bound(set))
		cpc_err(cpc, fn, -1, "this thread has no context for the set: "
		    "it is bound with cpc_bind_curlwp by other threads only "
		    "(each thread binds it to count its own work)");
	errno = EINVAL;
	return -1;
}

/* cpc_set_sample by a thread without a context of its own for set. */
static __attribute__((noinline)) int
sample_shared(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf)
{
	struct cpc_ctx *cx;
	int rc;

	if (set == NULL || buf == NULL || set->cs_cpc != cpc ||
	    buf->cb_nreqs != set->cs_nreqs) {
		errno = EINVAL;
		return -1;
	}
	if ((cx = cpc_ctx_shared(set)) == NULL)
		return no_context(cpc, "cpc_set_sample", set);
	rc = cx->cx_sample != NULL ? cx->cx_sample(cpc, cx, buf) :
	    sample_any(cpc, cx, buf);
	cpc_ctx_done(cx);
	return rc;
}

/*
 * The calling thread's own context: its backend's cx_sample alone (a
 * thread's plain group), a jump from here.
 */
CPC_EXPORT int
cpc_set_sample(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf)
{
	struct cpc_ctx *cx = cpc_ctx_here();

	if (cx == NULL || cx->cx_set != set || buf == NULL ||
	    cx->cx_cpc != cpc || buf->cb_nreqs != cx->cx_nreqs)
		return sample_shared(cpc, set, buf);
	if (cx->cx_sample != NULL)
		return cx->cx_sample(cpc, cx, buf);
	return sample_any(cpc, cx, buf);
}

/*
 * The calling thread's context, or NULL with EINVAL: no report, since
 * these calls name no set, and a program may try them to learn whether
 * it has one (or in a signal handler).
 */
static struct cpc_ctx *
bound_here(void)
{
	struct cpc_ctx *cx = cpc_ctx_here();

	if (cx == NULL)
		errno = EINVAL;
	return cx;
}

CPC_EXPORT int
cpc_request_preset(cpc_t *cpc, int index, uint64_t preset)
{
	struct cpc_ctx *cx = bound_here();
	const struct cpc_request *r;
	struct cpc_ctxreq *q;

	if (cx == NULL)
		return -1;
	if (index < 0 || index >= cx->cx_nreqs) {
		errno = EINVAL;
		return -1;
	}
	r = &cx->cx_set->cs_reqs[index];
	q = &cx->cx_rq[index];
	/*
	 * The same range as cpc_set_add_request's, the backend's shortest
	 * period included; no handler call, in a signal handler.
	 */
	if (q->cq_ovf &&
	    (preset == 0 || (0 - preset) > (uint64_t)INT64_MAX ||
	    0 - preset < cx->cx_be->be_min_period(&r->cr_ev))) {
		errno = EINVAL;
		return -1;
	}
	(void)cpc;
	q->cq_next = preset;
	q->cq_hasnext = 1;
	return 0;
}

/* Every request of the calling thread's context back at its preset. */
CPC_EXPORT int
cpc_set_restart(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_ctx *cx = cpc_ctx_here();
	int i;

	if (cx == NULL || (set != NULL && cx->cx_set != set))
		return no_context(cpc, "cpc_set_restart", set);
	for (i = 0; i < cx->cx_nreqs; i++)
		if (cx->cx_rq[i].cq_hasnext) {
			cx->cx_rq[i].cq_cur = cx->cx_rq[i].cq_next;
			cx->cx_rq[i].cq_hasnext = 0;
		}
	if (cx->cx_be->be_start(cpc, cx) != 0)
		return -1;
	cx->cx_disabled = 0;
	return 0;
}

CPC_EXPORT int
cpc_disable(cpc_t *cpc)
{
	struct cpc_ctx *cx = bound_here();

	if (cx == NULL)
		return -1;
	if (cx->cx_disabled) {
		errno = EINVAL;
		return -1;
	}
	if (cx->cx_be->be_stop(cpc, cx) != 0 ||
	    cpc->c_sbe->sb_enable(cpc, cx, 0) != 0)
		return -1;
	cx->cx_disabled = 1;
	return 0;
}

CPC_EXPORT int
cpc_enable(cpc_t *cpc)
{
	struct cpc_ctx *cx = bound_here();

	if (cx == NULL)
		return -1;
	if (!cx->cx_disabled) {
		errno = EINVAL;
		return -1;
	}
	if (cx->cx_be->be_resume(cpc, cx) != 0 ||
	    cpc->c_sbe->sb_enable(cpc, cx, 1) != 0)
		return -1;
	cx->cx_disabled = 0;
	return 0;
}
