/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v1.c - the obsolete Solaris 8 interface (cpc_bind_event(3),
 * cpc_strtoevent(3)) on the v2 objects: the bindings.  v1_event.c, below
 * it, has the hidden handle, the registered specifications a cpc_event_t
 * names and the machine's calls.
 *
 * A binding is a context: a set, a buffer, the specification and flags
 * it was bound with.  The calling thread's context (cpc_bind_event) is
 * thread-local and released when the thread ends; those of pctx threads
 * and shared descriptors are in one list under ctx_lock.
 *
 * Binding the calling thread again with the same specification and flags
 * only presets its set again and restarts it (cpc_request_preset and
 * cpc_set_restart: no allocation, no lock), so that an overflow handler
 * may call cpc_take_sample and cpc_bind_event as the seed's does.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "v1_impl.h"


enum v1kind {
	V1_LWP,			/* the calling thread: cpc_bind_event */
	V1_PCTX,		/* a thread of a pctx: cpc_pctx_* */
	V1_SHARED,		/* a CPU: cpc_shared_* */
};

struct v1ctx {
	struct v1ctx	*vx_next;	/* ctx_list (V1_PCTX, V1_SHARED) */
	enum v1kind	 vx_kind;
	pctx_t		*vx_pctx;	/* V1_PCTX: the process */
	id_t		 vx_id;		/* its thread; V1_SHARED: the fd */
	int		 vx_cpu;	/* V1_SHARED: the CPU */
	cpc_set_t	*vx_set;	/* NULL: nothing bound */
	cpc_buf_t	*vx_buf;
	uint32_t	 vx_cfg;	/* the bound specification */
	int		 vx_flags;	/* the bind flags */
	uint_t		 vx_modes[V1_NPIC];	/* CPC_COUNT_* per request */
	uint_t		 vx_rflags[V1_NPIC];	/* as added: modes, overflow */
	int		 vx_invalid;	/* cpc_pctx_invalidate */
};


static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static pthread_key_t lwp_key;		/* releases lwp_ctx at thread exit */
static __thread struct v1ctx lwp_ctx;
static struct v1ctx *ctx_list;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;

static void ctx_release(cpc_t *cpc, struct v1ctx *x);

static void
lwp_exit(void *arg)
{
	ctx_release(v1_handle("cpc_rele"), arg);
}

/* A child process has no context (the set counts the parent's thread). */
static void
fork_child(void)
{
	memset(&lwp_ctx, 0, sizeof(lwp_ctx));
}

static void
ctx_init(void)
{
	(void)pthread_key_create(&lwp_key, lwp_exit);
	(void)pthread_atfork(NULL, NULL, fork_child);
}

/* v1_handle, with the contexts' thread-exit and fork hooks set up. */
static cpc_t *
ctx_handle(const char *fn)
{
	pthread_once(&ctx_once, ctx_init);
	return v1_handle(fn);
}

/* ---- contexts ---- */

static void
ctx_release(cpc_t *cpc, struct v1ctx *x)
{
	if (x == NULL || cpc == NULL)
		return;
	if (x->vx_set != NULL)
		(void)cpc_set_destroy(cpc, x->vx_set);	/* unbinds, unpins */
	if (x->vx_buf != NULL)
		(void)cpc_buf_destroy(cpc, x->vx_buf);
	x->vx_set = NULL;
	x->vx_buf = NULL;
	x->vx_cfg = 0;
	x->vx_invalid = 0;
}

/* Still bound, with what a new binding would give it: restart only. */
static int
restartable(cpc_t *cpc, const struct v1ctx *x, uint32_t id,
    const uint_t *rflags, int flags)
{
	if (x->vx_kind != V1_LWP || x->vx_set == NULL || x->vx_cfg != id ||
	    x->vx_flags != flags || (flags & CPC_BIND_LWP_INHERIT) ||
	    memcmp(x->vx_rflags, rflags, sizeof(x->vx_rflags)) != 0)
		return 0;
	/* Unbound if the thread bound another set with cpc_bind_curlwp. */
	return cpc_set_sample(cpc, x->vx_set, x->vx_buf) == 0;
}

static int
bind_kind(cpc_t *cpc, struct v1ctx *x, cpc_set_t *set, int flags)
{
	switch (x->vx_kind) {
	case V1_LWP:
		return cpc_bind_curlwp(cpc, set,
		    (uint_t)flags & CPC_BIND_LWP_INHERIT);
	case V1_PCTX:
		return cpc_bind_pctx(cpc, x->vx_pctx, x->vx_id, set, 0);
	case V1_SHARED:
		return cpc_bind_cpu(cpc, x->vx_cpu, set, 0);
	}
	errno = EINVAL;
	return -1;
}

/*
 * Bind specification id to x, request i counting from the preset in
 * from->ce_pic[] of its pic, in the modes modes[i].  With
 * CPC_BIND_EMT_OVF a request signals its overflow when its preset lets
 * one come within 2^63 events; one counting from farther (such as 0)
 * never overflows in practice and is counted without.
 */
static int
ctx_bind(cpc_t *cpc, struct v1ctx *x, uint32_t id,
    const cpc_event_t *from, const uint_t *modes, int flags)
{
	const struct spec *sp = &v1_cfg_at(id)->vc_spec;
	uint64_t presets[V1_NPIC] = { 0 };
	uint_t rflags[V1_NPIC] = { 0 };
	cpc_set_t *set;
	cpc_buf_t *buf;
	int i, e;

	for (i = 0; i < sp->sp_nreqs; i++) {
		presets[i] = from->ce_pic[sp->sp_reqs[i].sr_pic];
		rflags[i] = modes[i];
		if ((flags & CPC_BIND_EMT_OVF) && presets[i] != 0 &&
		    0 - presets[i] <= (uint64_t)INT64_MAX)
			rflags[i] |= CPC_OVF_NOTIFY_EMT;
	}
	if (restartable(cpc, x, id, rflags, flags)) {
		for (i = 0; i < sp->sp_nreqs; i++)
			if (cpc_request_preset(cpc, i, presets[i]) != 0)
				return -1;
		return cpc_set_restart(cpc, x->vx_set);
	}
	if ((set = spec_build_with(cpc, sp, presets, rflags)) == NULL)
		return -1;
	if ((buf = cpc_buf_create(cpc, set)) == NULL) {
		e = errno;
		(void)cpc_set_destroy(cpc, set);
		errno = e;
		return -1;
	}
	ctx_release(cpc, x);
	if (bind_kind(cpc, x, set, flags) != 0) {
		e = errno;
		(void)cpc_set_destroy(cpc, set);
		(void)cpc_buf_destroy(cpc, buf);
		errno = e;
		return -1;
	}
	x->vx_set = set;
	x->vx_buf = buf;
	x->vx_cfg = id;
	x->vx_flags = flags;
	memcpy(x->vx_modes, modes, sizeof(x->vx_modes));
	memcpy(x->vx_rflags, rflags, sizeof(x->vx_rflags));
	if (x->vx_kind == V1_LWP)
		(void)pthread_setspecific(lwp_key, x);
	return 0;
}

/* Bind event as cpc_strtoevent made it (its own modes). */
static int
ctx_bind_event(cpc_t *cpc, struct v1ctx *x, const cpc_event_t *event,
    int flags)
{
	const struct v1cfg *c;
	uint_t modes[V1_NPIC] = { 0 };
	uint32_t id;
	int i;

	if ((c = v1_ctl_get(event, &id)) == NULL)
		return -1;
	for (i = 0; i < c->vc_spec.sp_nreqs; i++)
		modes[i] = c->vc_spec.sp_reqs[i].sr_flags;
	return ctx_bind(cpc, x, id, event, modes, flags);
}

static int
ctx_sample(cpc_t *cpc, struct v1ctx *x, cpc_event_t *ev)
{
	const struct spec *sp;
	uint64_t v;
	int i;

	if (x == NULL || x->vx_set == NULL || ev == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (x->vx_invalid) {
		errno = EAGAIN;
		return -1;
	}
	if (cpc_set_sample(cpc, x->vx_set, x->vx_buf) != 0)
		return -1;
	sp = &v1_cfg_at(x->vx_cfg)->vc_spec;
	ev->ce_cpuver = v1_cpuver();
	ev->ce_hrt = cpc_buf_hrtime(cpc, x->vx_buf);
	CE_TICK(ev) = cpc_buf_tick(cpc, x->vx_buf);
	ev->ce_pic[0] = ev->ce_pic[1] = 0;
	for (i = 0; i < sp->sp_nreqs; i++)
		if (cpc_buf_get(cpc, x->vx_buf, i, &v) == 0)
			ev->ce_pic[sp->sp_reqs[i].sr_pic] = v;
	v1_ctl_set(ev, x->vx_cfg);
	return 0;
}

/* The listed context of (kind, pctx, id); made when create is set. */
static struct v1ctx *
ctx_find(enum v1kind kind, pctx_t *pctx, id_t id, int create)
{
	struct v1ctx *x;

	pthread_mutex_lock(&ctx_lock);
	for (x = ctx_list; x != NULL; x = x->vx_next)
		if (x->vx_kind == kind && x->vx_pctx == pctx &&
		    x->vx_id == id)
			break;
	if (x == NULL && create && (x = calloc(1, sizeof(*x))) != NULL) {
		x->vx_kind = kind;
		x->vx_pctx = pctx;
		x->vx_id = id;
		x->vx_next = ctx_list;
		ctx_list = x;
	}
	pthread_mutex_unlock(&ctx_lock);
	return x;
}

/* Release a listed context and free it. */
static void
ctx_forget(cpc_t *cpc, struct v1ctx *x)
{
	struct v1ctx **pp;

	ctx_release(cpc, x);
	pthread_mutex_lock(&ctx_lock);
	for (pp = &ctx_list; *pp != NULL; pp = &(*pp)->vx_next)
		if (*pp == x) {
			*pp = x->vx_next;
			break;
		}
	pthread_mutex_unlock(&ctx_lock);
	free(x);
}

/* ---- the calling thread ---- */

CPC_EXPORT int
cpc_bind_event(cpc_event_t *event, int flags)
{
	cpc_t *cpc = ctx_handle("cpc_bind_event");

	if (cpc == NULL)
		return -1;
	if (event == NULL) {
		ctx_release(cpc, &lwp_ctx);
		return 0;
	}
	if ((flags & ~(CPC_BIND_LWP_INHERIT | CPC_BIND_EMT_OVF)) != 0) {
		errno = EINVAL;
		v1_err("unknown flags %#x (known: CPC_BIND_LWP_INHERIT, "
		    "CPC_BIND_EMT_OVF)", (unsigned)flags);
		return -1;
	}
	lwp_ctx.vx_kind = V1_LWP;
	return ctx_bind_event(cpc, &lwp_ctx, event, flags);
}

CPC_EXPORT int
cpc_take_sample(cpc_event_t *event)
{
	cpc_t *cpc = ctx_handle("cpc_take_sample");

	return cpc == NULL ? -1 : ctx_sample(cpc, &lwp_ctx, event);
}

CPC_EXPORT int
cpc_rele(void)
{
	ctx_release(ctx_handle("cpc_rele"), &lwp_ctx);
	return 0;
}

/*
 * Turn one mode on or off for every request of the calling thread's
 * binding: the counts so far become the presets of a new binding.
 */
static int
count_mode(const char *fn, uint_t mode, int on)
{
	cpc_t *cpc = ctx_handle(fn);
	struct v1ctx *x = &lwp_ctx;
	uint_t modes[V1_NPIC];
	cpc_event_t now;
	int i;

	if (cpc == NULL || ctx_sample(cpc, x, &now) != 0)
		return -1;
	for (i = 0; i < V1_NPIC; i++)
		modes[i] = on ? x->vx_modes[i] | mode : x->vx_modes[i] & ~mode;
	return ctx_bind(cpc, x, x->vx_cfg, &now, modes, x->vx_flags);
}

CPC_EXPORT int
cpc_count_usr_events(int on)
{
	return count_mode("cpc_count_usr_events", CPC_COUNT_USER, on);
}

CPC_EXPORT int
cpc_count_sys_events(int on)
{
	return count_mode("cpc_count_sys_events", CPC_COUNT_SYSTEM, on);
}

/* ---- threads of a pctx ---- */

CPC_EXPORT int
cpc_pctx_bind_event(pctx_t *pctx, id_t lwpid, cpc_event_t *event,
    int flags)
{
	cpc_t *cpc = ctx_handle("cpc_pctx_bind_event");
	struct v1ctx *x;

	if (cpc == NULL)
		return -1;
	if (pctx == NULL || flags != 0) {
		errno = EINVAL;
		v1_err(pctx == NULL ? "no pctx" : "flags must be 0");
		return -1;
	}
	if (event == NULL)
		return cpc_pctx_rele(pctx, lwpid);
	if ((x = ctx_find(V1_PCTX, pctx, lwpid, 1)) == NULL)
		return -1;
	if (ctx_bind_event(cpc, x, event, 0) != 0) {
		if (x->vx_set == NULL) {
			int e = errno;

			ctx_forget(cpc, x);
			errno = e;
		}
		return -1;
	}
	return 0;
}

/* The bound context of a pctx thread, or NULL with EINVAL. */
static struct v1ctx *
pctx_ctx(pctx_t *pctx, id_t lwpid)
{
	struct v1ctx *x = ctx_find(V1_PCTX, pctx, lwpid, 0);

	if (x == NULL)
		errno = EINVAL;
	return x;
}

CPC_EXPORT int
cpc_pctx_take_sample(pctx_t *pctx, id_t lwpid, cpc_event_t *event)
{
	cpc_t *cpc = ctx_handle("cpc_pctx_take_sample");
	struct v1ctx *x;

	if (cpc == NULL || (x = pctx_ctx(pctx, lwpid)) == NULL)
		return -1;
	return ctx_sample(cpc, x, event);
}

CPC_EXPORT int
cpc_pctx_rele(pctx_t *pctx, id_t lwpid)
{
	cpc_t *cpc = ctx_handle("cpc_pctx_rele");
	struct v1ctx *x;

	if (cpc == NULL || (x = pctx_ctx(pctx, lwpid)) == NULL)
		return -1;
	ctx_forget(cpc, x);
	return 0;
}

CPC_EXPORT int
cpc_pctx_invalidate(pctx_t *pctx, id_t lwpid)
{
	cpc_t *cpc = ctx_handle("cpc_pctx_invalidate");
	struct v1ctx *x;

	if (cpc == NULL || (x = pctx_ctx(pctx, lwpid)) == NULL)
		return -1;
	if (x->vx_set != NULL && !x->vx_invalid)
		(void)cpc_unbind(cpc, x->vx_set);
	x->vx_invalid = 1;
	return 0;
}

/* ---- the calling thread's CPU ---- */

/* The CPU the calling thread is bound to, else the one it runs on. */
static int
own_cpu(void)
{
	cpu_set_t mask;

	if (sched_getaffinity(0, sizeof(mask), &mask) == 0 &&
	    CPU_COUNT(&mask) == 1) {
		int cpu;

		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &mask))
				return cpu;
	}
	return sched_getcpu();
}

CPC_EXPORT int
cpc_shared_open(void)
{
	cpc_t *cpc = ctx_handle("cpc_shared_open");
	struct v1ctx *x;
	int fd, cpu;

	if (cpc == NULL)
		return -1;
	if ((cpu = own_cpu()) < 0) {
		v1_err("cannot tell the calling thread's CPU: %s",
		    strerror(errno));
		return -1;
	}
	/* The descriptor only names the binding; closing it ends it. */
	if ((fd = eventfd(0, EFD_CLOEXEC)) < 0) {
		v1_err("cannot make a descriptor: %s", strerror(errno));
		return -1;
	}
	/* A context left by a descriptor closed with close(2). */
	if ((x = ctx_find(V1_SHARED, NULL, fd, 0)) != NULL)
		ctx_forget(cpc, x);
	if ((x = ctx_find(V1_SHARED, NULL, fd, 1)) == NULL) {
		(void)close(fd);
		errno = ENOMEM;
		return -1;
	}
	x->vx_cpu = cpu;
	return fd;
}

/* The context of a shared descriptor, or NULL with EBADF. */
static struct v1ctx *
shared_ctx(int fd)
{
	struct v1ctx *x = ctx_find(V1_SHARED, NULL, fd, 0);

	if (x == NULL)
		errno = EBADF;
	return x;
}

CPC_EXPORT int
cpc_shared_bind_event(int fd, cpc_event_t *event, int flags)
{
	cpc_t *cpc = ctx_handle("cpc_shared_bind_event");
	struct v1ctx *x;

	if (cpc == NULL || (x = shared_ctx(fd)) == NULL)
		return -1;
	if (flags != 0) {
		errno = EINVAL;
		v1_err("flags must be 0");
		return -1;
	}
	if (event == NULL) {
		ctx_release(cpc, x);
		return 0;
	}
	return ctx_bind_event(cpc, x, event, 0);
}

CPC_EXPORT int
cpc_shared_take_sample(int fd, cpc_event_t *event)
{
	cpc_t *cpc = ctx_handle("cpc_shared_take_sample");
	struct v1ctx *x;

	if (cpc == NULL || (x = shared_ctx(fd)) == NULL)
		return -1;
	return ctx_sample(cpc, x, event);
}

CPC_EXPORT int
cpc_shared_rele(int fd)
{
	cpc_t *cpc = ctx_handle("cpc_shared_rele");
	struct v1ctx *x;

	if (cpc == NULL || (x = shared_ctx(fd)) == NULL)
		return -1;
	ctx_release(cpc, x);
	return 0;
}

CPC_EXPORT void
cpc_shared_close(int fd)
{
	cpc_t *cpc = ctx_handle("cpc_shared_close");
	struct v1ctx *x;

	if (cpc != NULL && (x = shared_ctx(fd)) != NULL) {
		ctx_forget(cpc, x);
		(void)close(fd);
	}
}

