/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctx.h - counter contexts (ctx.c), for the files that bind, sample and
 * unbind: bind.c, sample.c, lwpevents.c.
 */
#ifndef CPC_CTX_H
#define CPC_CTX_H

#include "cpc_impl.h"

struct cpc_target;

/* The calling thread's TID (asked of the kernel once). */
pid_t	cpc_ctx_self(void);
/* The calling thread's context (cpc_bind_curlwp), or NULL. */
struct cpc_ctx *cpc_ctx_here(void);
/* Before a cpc_bind_curlwp: the thread's exit will let its context go. */
void	cpc_ctx_prepare(void);
/*
 * A context of set for a bind to t, TAKEN (the one that bind replaces,
 * stopped, else one open on t, else any free one, else a new one; it
 * may be open on another target); NULL with ENOMEM.
 */
struct cpc_ctx *cpc_ctx_take(cpc_set_t *set, const struct cpc_target *t);
/* A taken context counts for its target now (bound). */
void	cpc_ctx_publish(struct cpc_ctx *cx);
/* A taken context whose bind failed: free for another bind. */
void	cpc_ctx_fail(struct cpc_ctx *cx);
/* A bound context stopped, unpinned and free. */
void	cpc_ctx_unbind(struct cpc_ctx *cx);
/* Close what the backends opened for cx (the context stays). */
void	cpc_ctx_close(struct cpc_ctx *cx);
/* The thread cpc_bind_cpu pinned gets its affinity back. */
void	cpc_ctx_unpin(struct cpc_ctx *cx);
/*
 * cpc_unbind for a thread without a context of its own for set: every
 * context bound with cpc_bind_pctx or cpc_bind_cpu let go; how many.
 */
int	cpc_set_unbind_shared(cpc_set_t *set);
/* Whether set is bound with cpc_bind_curlwp by some thread. */
int	cpc_set_lwp_bound(cpc_set_t *set);
/*
 * The bound context of set that a thread without its own reads: the
 * most recently bound with cpc_bind_pctx or cpc_bind_cpu.  Returned
 * with the set's lock held, until cpc_ctx_done; NULL when none.
 */
struct cpc_ctx *cpc_ctx_shared(cpc_set_t *set);
void	cpc_ctx_done(struct cpc_ctx *cx);

#endif /* CPC_CTX_H */
