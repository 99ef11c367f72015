/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctx.c - counter contexts: one per binding of a set (cpc_impl.h), as
 * the illumos kernel keeps one per LWP.  Here they are made, taken for a
 * bind, handed to the calling thread or indexed by their thread, let go
 * at an unbind and closed with their set.
 *
 * A context's state (cx_state) moves FREE -> TAKEN -> BOUND -> FREE by
 * atomic operations.  A bind takes a FREE context (or its own, or a new
 * one) under the set's lock, opens and starts it unlocked, and then
 * publishes it BOUND.  A context is found:
 *
 *	bound with cpc_bind_curlwp	in its thread's lwp_ctx (thread-local:
 *					no lock, so the calls that name no
 *					set may run in a signal handler)
 *	bound with cpc_bind_pctx	in the TID index (tid_hash), and as
 *					its set's cs_cur when most recent
 *	bound with cpc_bind_cpu		as its set's cs_cur (one at a time)
 *
 * A context another thread may read (cs_cur) is read under the set's
 * lock, which every take holds: no bind closes a group under a reader,
 * and a context seen FREE or BOUND under the lock keeps its fields until
 * the lock is let go (only its taker writes them, once TAKEN).
 * The lock is recursive, so that a signal handler binding a set cannot
 * find it taken by the code it interrupted; the list and the states
 * change by atomic operations only, which such a handler may interleave.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "backend.h"
#include "ctx.h"

/*
 * The context bound to this thread by cpc_bind_curlwp.  A thread has
 * one, as an LWP has one context on Solaris: binding another set
 * replaces it, whatever handle either came from.  The context points
 * back at the slot (cx_slot), so that closing it from another thread
 * (its set destroyed) empties the slot instead of leaving it to dangle,
 * and the thread's exit (slot_key's destructor) lets the context go.
 * slot_lock guards both directions; it is held with signals blocked, so
 * that a handler binding a set cannot find it taken by the code it
 * interrupted.
 */
static __thread struct cpc_ctx *lwp_ctx
    __attribute__((tls_model("initial-exec")));
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static int slot_keyok;
static pthread_mutex_t tid_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread sigset_t fork_mask;
/* The calling thread's TID, asked once (0: not yet; a fork forgets it). */
static __thread pid_t self_tid __attribute__((tls_model("initial-exec")));


static void
slot_lock_take(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
	pthread_mutex_lock(&slot_lock);
}

static void
slot_lock_drop(const sigset_t *old)
{
	pthread_mutex_unlock(&slot_lock);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* BOUND (or TAKEN) to FREE, last: another bind may take it from then. */
static void
let_go(struct cpc_ctx *cx)
{
	__atomic_store_n(&cx->cx_state, CX_FREE, __ATOMIC_RELEASE);
}

/* Stop counting and sampling: an unbind, or another set taking over. */
static void
ctx_stop(struct cpc_ctx *cx)
{
	if (__atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) != CX_BOUND)
		return;
	(void)cx->cx_be->be_stop(cx->cx_cpc, cx);
	(void)cx->cx_cpc->c_sbe->sb_enable(cx->cx_cpc, cx, 0);
}

/* Thread exit: its context no longer counts for anyone. */
static void
slot_exit(void *unused)
{
	struct cpc_ctx *cx;
	sigset_t old;

	(void)unused;
	slot_lock_take(&old);
	if ((cx = lwp_ctx) != NULL) {
		__atomic_store_n(&cx->cx_slot, NULL, __ATOMIC_RELEASE);
		let_go(cx);
	}
	lwp_ctx = NULL;
	slot_lock_drop(&old);
}

/*
 * fork(2) in a threaded program: the child must not inherit slot_lock or
 * tid_lock taken by a thread it does not have (it would hang, signals
 * blocked).  Nor does it inherit the calling thread's context: on
 * Solaris a new process has none, and the counters count the parent.
 */
static void
fork_prepare(void)
{
	slot_lock_take(&fork_mask);
	pthread_mutex_lock(&tid_lock);
}

static void
fork_parent(void)
{
	pthread_mutex_unlock(&tid_lock);
	slot_lock_drop(&fork_mask);
}

static void
fork_child(void)
{
	self_tid = 0;
	if (lwp_ctx != NULL)
		lwp_ctx->cx_slot = NULL;
	lwp_ctx = NULL;
	fork_parent();
}

static void
slot_init(void)
{
	slot_keyok = pthread_key_create(&slot_key, slot_exit) == 0;
	(void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* The TID is kept from when fork_child, which forgets it, is in place. */
pid_t
cpc_ctx_self(void)
{
	if (self_tid == 0) {
		pthread_once(&slot_once, slot_init);
		self_tid = (pid_t)syscall(SYS_gettid);
	}
	return self_tid;
}

/*
 * Before binding: the thread's exit will let its context go.  Done
 * before the counters start, since it may allocate (and fault pages in)
 * the first time: the set would count the library's own work.
 */
void
cpc_ctx_prepare(void)
{
	pthread_once(&slot_once, slot_init);
	if (slot_keyok && pthread_getspecific(slot_key) == NULL)
		(void)pthread_setspecific(slot_key, &lwp_ctx);
}

struct cpc_ctx *
cpc_ctx_here(void)
{
	return lwp_ctx;
}

/* cx is no longer its thread's: empty the slot it was in. */
static void
slot_clear(struct cpc_ctx *cx)
{
	sigset_t old;

	/* Not bound with cpc_bind_curlwp: the usual case, without a lock. */
	if (__atomic_load_n(&cx->cx_slot, __ATOMIC_ACQUIRE) == NULL &&
	    lwp_ctx != cx)
		return;
	slot_lock_take(&old);
	if (cx->cx_slot != NULL && *cx->cx_slot == cx)
		*cx->cx_slot = NULL;
	cx->cx_slot = NULL;
	slot_lock_drop(&old);
}

/*
 * cx becomes the calling thread's: the context bound here before (of
 * another set) is unbound; its group stays open, stopped, for a later
 * bind.
 */
static void
slot_take(struct cpc_ctx *cx)
{
	struct cpc_ctx *prev;
	sigset_t old;

	slot_lock_take(&old);
	prev = lwp_ctx;
	if (prev != NULL && prev != cx) {
		ctx_stop(prev);
		__atomic_store_n(&prev->cx_slot, NULL, __ATOMIC_RELEASE);
		let_go(prev);
	}
	lwp_ctx = cx;
	cx->cx_slot = &lwp_ctx;
	slot_lock_drop(&old);
}

/*
 * The contexts bound with cpc_bind_pctx, by thread.  A thread has one,
 * as an LWP has one context on Solaris, so binding another (from any
 * set or handle) unbinds the one before; hashed by TID, so that
 * cputrack's rotation over thousands of threads stays linear.  A
 * context in the index is BOUND, and leaves it, stopped and FREE, under
 * tid_lock only: nobody takes it while its thread's next bind stops it.
 */
#define TIDHASH		16384
static struct cpc_ctx *tid_hash[TIDHASH];

static struct cpc_ctx **
tid_bucket(pid_t tid)
{
	return &tid_hash[(unsigned)tid % TIDHASH];
}

/* cx out of the index, stopped; FREE unless keep (then TAKEN). */
static void
tid_unlink(struct cpc_ctx **pp, struct cpc_ctx *cx, int keep)
{
	*pp = cx->cx_tnext;
	cx->cx_tnext = NULL;
	cx->cx_indexed = 0;
	ctx_stop(cx);
	if (keep)
		__atomic_store_n(&cx->cx_state, CX_TAKEN, __ATOMIC_RELEASE);
	else
		let_go(cx);
}

static void
tid_drop(struct cpc_ctx *cx, int keep)
{
	struct cpc_ctx **pp;

	pthread_once(&slot_once, slot_init);
	pthread_mutex_lock(&tid_lock);
	if (cx->cx_indexed)
		for (pp = tid_bucket(cx->cx_tid); *pp != NULL;
		    pp = &(*pp)->cx_tnext)
			if (*pp == cx) {
				tid_unlink(pp, cx, keep);
				break;
			}
	pthread_mutex_unlock(&tid_lock);
}

/*
 * The context of set bound to thread tid with cpc_bind_pctx, out of the
 * index and TAKEN, for a bind that binds it again; or NULL.
 */
static struct cpc_ctx *
tid_retake(const cpc_set_t *set, pid_t tid)
{
	struct cpc_ctx **pp, *cx = NULL;

	pthread_once(&slot_once, slot_init);
	pthread_mutex_lock(&tid_lock);
	for (pp = tid_bucket(tid); *pp != NULL; pp = &(*pp)->cx_tnext)
		if ((*pp)->cx_tid == tid && (*pp)->cx_set == set) {
			cx = *pp;
			tid_unlink(pp, cx, 1);
			break;
		}
	pthread_mutex_unlock(&tid_lock);
	return cx;
}

/*
 * cx is bound to its thread now (BOUND as it enters the index): another
 * context bound there is let go.
 */
static void
tid_take(struct cpc_ctx *cx)
{
	struct cpc_ctx **pp, *prev;

	pthread_mutex_lock(&tid_lock);
	__atomic_store_n(&cx->cx_state, CX_BOUND, __ATOMIC_RELEASE);
	for (pp = tid_bucket(cx->cx_tid); (prev = *pp) != NULL; ) {
		if (prev == cx || prev->cx_tid != cx->cx_tid)
			pp = &prev->cx_tnext;
		else
			tid_unlink(pp, prev, 0);
	}
	if (!cx->cx_indexed) {
		cx->cx_tnext = *tid_bucket(cx->cx_tid);
		*tid_bucket(cx->cx_tid) = cx;
		cx->cx_indexed = 1;
	}
	pthread_mutex_unlock(&tid_lock);
}

/*
 * The thread cpc_bind_cpu pinned runs where it ran before, whichever
 * thread of the process unbinds, rebinds or destroys the set.
 */
void
cpc_ctx_unpin(struct cpc_ctx *cx)
{
	pid_t tid = cx->cx_pinned;

	if (cx->cx_kind != CPC_BIND_CPU || tid <= 0)
		return;
	if (tid == cpc_ctx_self())
		tid = 0;
	else if (syscall(SYS_tgkill, getpid(), tid, 0) != 0)
		tid = -1;	/* that thread has ended */
	if (tid >= 0)
		(void)sched_setaffinity(tid, sizeof(cx->cx_oldmask),
		    &cx->cx_oldmask);
	cx->cx_pinned = 0;
}

const struct cpc_backend *
cpc_set_backend(cpc_t *cpc, const cpc_set_t *set)
{
	int i;

	if (cpc->c_msr != CPC_MSR_NONE)
		for (i = 0; i < set->cs_nreqs; i++)
			if (set->cs_reqs[i].cr_ev.ev_hw)
				return cpc->c_hwbe;
	return cpc->c_be;
}

/* Close what the backends opened for cx; the context stays. */
void
cpc_ctx_close(struct cpc_ctx *cx)
{
	if (cx->cx_open) {
		cx->cx_cpc->c_sbe->sb_close(cx->cx_cpc, cx);
		cx->cx_be->be_close(cx->cx_cpc, cx);
	}
	if (cx->cx_cgfd >= 0)
		close(cx->cx_cgfd);
	cx->cx_cgfd = -1;
	cx->cx_open = 0;
}

/* A new context of set, TAKEN, in its list; NULL with ENOMEM. */
static struct cpc_ctx *
ctx_new(cpc_set_t *set)
{
	const struct cpc_backend *be = cpc_set_backend(set->cs_cpc, set);
	size_t size = (be->be_ctxsize + 15) & ~(size_t)15;
	struct cpc_ctx *cx;

	cx = calloc(1, size + (size_t)set->cs_nreqs * sizeof(*cx->cx_rq));
	if (cx == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	cx->cx_set = set;
	cx->cx_cpc = set->cs_cpc;
	cx->cx_be = be;
	cx->cx_nreqs = set->cs_nreqs;
	cx->cx_rq = (struct cpc_ctxreq *)((char *)cx + size);
	cx->cx_kind = CPC_BIND_NONE;
	cx->cx_cpu = -1;
	cx->cx_cgfd = -1;
	cx->cx_state = CX_TAKEN;
	cx->cx_next = __atomic_load_n(&set->cs_ctx, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&set->cs_ctx, &cx->cx_next, cx,
	    0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
		continue;
	return cx;
}

static int
take_free(struct cpc_ctx *cx)
{
	int free_ = CX_FREE;

	return __atomic_compare_exchange_n(&cx->cx_state, &free_, CX_TAKEN, 0,
	    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static int
same_target(const struct cpc_ctx *cx, const struct cpc_target *t)
{
	if (!cx->cx_open || cx->cx_kind != t->t_kind ||
	    cx->cx_inherit != t->t_inherit || cx->cx_lwpev != t->t_lwpev)
		return 0;
	if (t->t_kind == CPC_BIND_CPU)
		return cx->cx_cpu == t->t_cpu && cx->cx_cgid == t->t_cgid;
	return cx->cx_tid == t->t_tid;
}

/*
 * The context the bind of set to t replaces, stopped and TAKEN, or
 * NULL: the calling thread's own (cpc_bind_curlwp), that of the same
 * thread (cpc_bind_pctx), the set's CPU one (cpc_bind_cpu, and a bind
 * of any kind from the thread that bound it to its CPU).
 */
static struct cpc_ctx *
take_bound(cpc_set_t *set, const struct cpc_target *t, pid_t self)
{
	struct cpc_ctx *cx = lwp_ctx;
	int bound = CX_BOUND;

	if (t->t_kind == CPC_BIND_CURLWP && cx != NULL && cx->cx_set == set) {
		ctx_stop(cx);
		__atomic_store_n(&cx->cx_state, CX_TAKEN, __ATOMIC_RELEASE);
		return cx;
	}
	if (t->t_kind == CPC_BIND_PCTX && (cx = tid_retake(set, t->t_tid)))
		return cx;
	/* Its state first: a TAKEN context's fields are its taker's. */
	for (cx = set->cs_ctx; cx != NULL; cx = cx->cx_next)
		if (__atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) ==
		    CX_BOUND && cx->cx_kind == CPC_BIND_CPU &&
		    (t->t_kind == CPC_BIND_CPU || cx->cx_binder == self)) {
			ctx_stop(cx);
			if (__atomic_compare_exchange_n(&cx->cx_state, &bound,
			    CX_TAKEN, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return cx;
			bound = CX_BOUND;
		}
	return NULL;
}

/*
 * A context of set for a bind to t, TAKEN: the one it replaces, else a
 * FREE one open on t already (the bind is a restart), else any FREE
 * one, else a new one.  NULL with ENOMEM.
 */
struct cpc_ctx *
cpc_ctx_take(cpc_set_t *set, const struct cpc_target *t)
{
	pid_t self = cpc_ctx_self();
	struct cpc_ctx *cx, *any = NULL;

	pthread_mutex_lock(&set->cs_lock);
	if ((cx = take_bound(set, t, self)) != NULL)
		goto out;
	for (cx = set->cs_ctx; cx != NULL; cx = cx->cx_next)
		if (__atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) ==
		    CX_FREE && same_target(cx, t) && take_free(cx))
			goto out;
	for (any = set->cs_ctx; any != NULL; any = any->cx_next)
		if (take_free(any))
			break;
	cx = any != NULL ? any : ctx_new(set);
out:
	pthread_mutex_unlock(&set->cs_lock);
	return cx;
}

/* A taken context bound no more (its bind failed): FREE, unpinned. */
void
cpc_ctx_fail(struct cpc_ctx *cx)
{
	slot_clear(cx);
	cpc_ctx_unpin(cx);
	let_go(cx);
}

/*
 * A taken context counts for its target now.  Once BOUND, a CPU's
 * context may be taken by another thread's bind at once: nothing of it
 * is read after that.
 */
void
cpc_ctx_publish(struct cpc_ctx *cx)
{
	cpc_set_t *set = cx->cx_set;
	enum cpc_bindkind kind = cx->cx_kind;

	/* The most recent other than a thread's own (which no other reads). */
	pthread_mutex_lock(&set->cs_lock);
	if (kind != CPC_BIND_CURLWP)
		set->cs_cur = cx;
	else if (set->cs_cur == cx)
		set->cs_cur = NULL;
	pthread_mutex_unlock(&set->cs_lock);
	if (kind == CPC_BIND_PCTX) {
		tid_take(cx);
	} else {
		__atomic_store_n(&cx->cx_state, CX_BOUND, __ATOMIC_RELEASE);
		if (kind == CPC_BIND_CURLWP)
			slot_take(cx);
	}
}

/* cx, BOUND, counts no more: stopped, unpinned, FREE. */
void
cpc_ctx_unbind(struct cpc_ctx *cx)
{
	if (cx->cx_kind == CPC_BIND_PCTX) {
		tid_drop(cx, 0);
		return;
	}
	ctx_stop(cx);
	slot_clear(cx);
	cpc_ctx_unpin(cx);
	let_go(cx);
}

/*
 * Every context of set closed and freed: its requests change, or it
 * goes.  No other call on the set may run meanwhile.
 */
void
cpc_set_release(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_ctx *cx, *next;

	(void)cpc;
	pthread_mutex_lock(&set->cs_lock);
	for (cx = set->cs_ctx; cx != NULL; cx = next) {
		next = cx->cx_next;
		slot_clear(cx);
		tid_drop(cx, 0);
		cpc_ctx_unpin(cx);
		cpc_ctx_close(cx);
		free(cx);
	}
	set->cs_ctx = NULL;
	set->cs_cur = NULL;
	pthread_mutex_unlock(&set->cs_lock);
}

/*
 * cpc_unbind for a thread without a context of its own for set: every
 * context bound with cpc_bind_pctx or cpc_bind_cpu let go.  How many.
 */
int
cpc_set_unbind_shared(cpc_set_t *set)
{
	struct cpc_ctx *cx;
	int n = 0;

	pthread_mutex_lock(&set->cs_lock);
	for (cx = set->cs_ctx; cx != NULL; cx = cx->cx_next)
		if (__atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) ==
		    CX_BOUND && cx->cx_kind != CPC_BIND_CURLWP) {
			cpc_ctx_unbind(cx);
			n++;
		}
	pthread_mutex_unlock(&set->cs_lock);
	return n;
}

/* Whether any context of set is bound (or being bound). */
int
cpc_set_busy(cpc_set_t *set)
{
	struct cpc_ctx *cx;

	for (cx = __atomic_load_n(&set->cs_ctx, __ATOMIC_ACQUIRE); cx != NULL;
	    cx = cx->cx_next)
		if (__atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) !=
		    CX_FREE)
			return 1;
	return 0;
}

/*
 * Whether set is bound with cpc_bind_curlwp by some thread.  Under the
 * set's lock: a context seen BOUND keeps its fields while it is held.
 */
int
cpc_set_lwp_bound(cpc_set_t *set)
{
	struct cpc_ctx *cx;
	int found = 0;

	pthread_mutex_lock(&set->cs_lock);
	for (cx = set->cs_ctx; cx != NULL && !found; cx = cx->cx_next)
		found = __atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) ==
		    CX_BOUND && cx->cx_kind == CPC_BIND_CURLWP;
	pthread_mutex_unlock(&set->cs_lock);
	return found;
}

/*
 * The set's context that a thread without its own reads (cs_cur), with
 * the set's lock held until cpc_ctx_done; NULL (the lock released) when
 * it is not bound.
 */
struct cpc_ctx *
cpc_ctx_shared(cpc_set_t *set)
{
	struct cpc_ctx *cx;

	pthread_mutex_lock(&set->cs_lock);
	cx = set->cs_cur;
	if (cx != NULL &&
	    __atomic_load_n(&cx->cx_state, __ATOMIC_ACQUIRE) == CX_BOUND &&
	    cx->cx_kind != CPC_BIND_CURLWP)
		return cx;
	pthread_mutex_unlock(&set->cs_lock);
	return NULL;
}

void
cpc_ctx_done(struct cpc_ctx *cx)
{
	pthread_mutex_unlock(&cx->cx_set->cs_lock);
}
