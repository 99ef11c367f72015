/*
 * v1.c - the obsolete Solaris 8 interface (cpc_bind_event(3),
 * cpc_strtoevent(3)) on the v2 objects.
 *
 * One hidden handle serves every v1 call; its error handler passes the
 * messages on to the v1 handler (cpc_seterrfn) under the name of the v1
 * call being made.
 *
 * A cpc_event_t carries no event names: its control fields (ce_pes on
 * x86, ce_pcr elsewhere) hold the id of a specification that
 * cpc_strtoevent parsed and registered, with a check word so that an
 * event never made by cpc_strtoevent is refused.  Registered
 * specifications live as long as the process: any sample taken from a
 * binding can be bound again as it is, which the seed's overflow handler
 * does.
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

#include "cpc_impl.h"
#include "strtoset.h"

#define V1_NPIC		2	/* ce_pic[] */
#define V1_MAXCFG	4096	/* specifications a process registers */

#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
#define CE_TICK(e)	((e)->ce_tsc)
#else
#define CE_TICK(e)	((e)->ce_tick)
#endif

/* A registered specification; never freed. */
struct v1cfg {
	char		*vc_text;	/* as given to cpc_strtoevent */
	int		 vc_cpuver;
	struct spec	 vc_spec;	/* at most V1_NPIC requests */
};

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

static pthread_once_t v1_once = PTHREAD_ONCE_INIT;
static cpc_t *v1_cpc;			/* NULL: no perf_event here */
static int v1_cpuver = -1;
static pthread_key_t lwp_key;		/* releases lwp_ctx at thread exit */
static cpc_errfn_t *v1_errfn;
static __thread const char *v1_fn;	/* the v1 call being made */
static __thread struct v1ctx lwp_ctx;

static struct v1cfg *cfgs[V1_MAXCFG + 1];	/* by id, from 1 */
static uint32_t ncfgs;
static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;

static struct v1ctx *ctx_list;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- errors ---- */

static void
v1_verr(const char *fn, const char *fmt, va_list ap)
{
	cpc_errfn_t *h = __atomic_load_n(&v1_errfn, __ATOMIC_ACQUIRE);
	char msg[1024];

	if (h != NULL) {
		h(fn, fmt, ap);
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	cpc_err(NULL, fn, -1, "%s", msg);	/* the default handler */
}

/* Report for the v1 call being made; errno is kept. */
static void __attribute__((format(printf, 1, 2)))
v1_err(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	v1_verr(v1_fn != NULL ? v1_fn : "libcpc", fmt, ap);
	va_end(ap);
	errno = saved;
}

/* The hidden handle's handler: libcpc's messages under the v1 name. */
static void
forward(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)subcode;
	v1_verr(v1_fn != NULL ? v1_fn : fn, fmt, ap);
}

CPC_EXPORT void
cpc_seterrfn(cpc_errfn_t *errfn)
{
	__atomic_store_n(&v1_errfn, errfn, __ATOMIC_RELEASE);
}

/* ---- the hidden handle ---- */

static void ctx_release(cpc_t *cpc, struct v1ctx *x);

static void
lwp_exit(void *arg)
{
	ctx_release(v1_cpc, arg);
}

/* A child process has no context (the set counts the parent's thread). */
static void
fork_child(void)
{
	memset(&lwp_ctx, 0, sizeof(lwp_ctx));
}

static int
cpuver_of(cpc_t *cpc)
{
	if (!cpc_have_hw_pmu(cpc))
		return CPC_LINUX_NOPMU;
	switch (cpc_vendor(cpc)) {
	case CPC_VENDOR_INTEL:
		return CPC_LINUX_INTEL;
	case CPC_VENDOR_AMD:
		return CPC_LINUX_AMD;
	case CPC_VENDOR_ARM:
		return CPC_LINUX_ARM;
	default:
		return CPC_LINUX_PMU;
	}
}

static void
v1_init(void)
{
	int saved = errno;

	if ((v1_cpc = cpc_open(CPC_VER_CURRENT)) != NULL) {
		(void)cpc_seterrhndlr(v1_cpc, forward);
		v1_cpuver = cpuver_of(v1_cpc);
	}
	(void)pthread_key_create(&lwp_key, lwp_exit);
	(void)pthread_atfork(NULL, NULL, fork_child);
	errno = saved;
}

/* The hidden handle for the v1 call fn; NULL with ENOSYS. */
static cpc_t *
v1_handle(const char *fn)
{
	pthread_once(&v1_once, v1_init);
	v1_fn = fn;
	if (v1_cpc == NULL)
		errno = ENOSYS;
	return v1_cpc;
}

/* The handle when cpuver is this machine's, else NULL (quietly). */
static cpc_t *
v1_for(const char *fn, int cpuver)
{
	cpc_t *cpc = v1_handle(fn);

	return cpc != NULL && cpuver == v1_cpuver ? cpc : NULL;
}

/* ---- registered specifications ---- */

static uint32_t
cfg_check(uint32_t id)
{
	return id * 2654435761u ^ 0x43504331u;	/* "CPC1" */
}

static void
ctl_set(cpc_event_t *ev, uint32_t id)
{
#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
	ev->ce_pes[0] = id;
	ev->ce_pes[1] = cfg_check(id);
#else
	ev->ce_pcr = (uint64_t)cfg_check(id) << 32 | id;
#endif
}

static const struct v1cfg *
cfg_at(uint32_t id)
{
	if (id == 0 || id > V1_MAXCFG)
		return NULL;
	return __atomic_load_n(&cfgs[id], __ATOMIC_ACQUIRE);
}

/* The specification ev names, with its id; NULL (EINVAL) for none. */
static const struct v1cfg *
ctl_get(const cpc_event_t *ev, uint32_t *idp)
{
	const struct v1cfg *c = NULL;
	uint32_t id, check;

#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
	id = ev->ce_pes[0];
	check = ev->ce_pes[1];
#else
	id = (uint32_t)ev->ce_pcr;
	check = (uint32_t)(ev->ce_pcr >> 32);
#endif
	if (check == cfg_check(id))
		c = cfg_at(id);
	if (c == NULL || c->vc_cpuver != ev->ce_cpuver) {
		errno = EINVAL;
		v1_err("the event was not made by cpc_strtoevent (or its "
		    "ce_cpuver or control fields were changed)");
		return NULL;
	}
	*idp = id;
	return c;
}

/* Register sp (taken over) as text's; its id, or 0 when full. */
static uint32_t
cfg_add(int cpuver, const char *text, struct spec *sp)
{
	struct v1cfg *c;
	uint32_t id;

	pthread_mutex_lock(&cfg_lock);
	for (id = 1; id <= ncfgs; id++)
		if (cfgs[id]->vc_cpuver == cpuver &&
		    strcmp(cfgs[id]->vc_text, text) == 0)
			goto out;
	id = 0;
	if (ncfgs == V1_MAXCFG || (c = calloc(1, sizeof(*c))) == NULL)
		goto out;
	if ((c->vc_text = strdup(text)) == NULL) {
		free(c);
		goto out;
	}
	c->vc_cpuver = cpuver;
	c->vc_spec = *sp;
	memset(sp, 0, sizeof(*sp));
	id = ++ncfgs;
	__atomic_store_n(&cfgs[id], c, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&cfg_lock);
	spec_free(sp);
	return id;
}

CPC_EXPORT int
cpc_strtoevent(int cpuver, const char *spec, cpc_event_t *event)
{
	cpc_t *cpc = v1_handle("cpc_strtoevent");
	struct spec sp;
	cpc_set_t *set;
	char err[512];
	uint32_t id;

	if (cpc == NULL || spec == NULL || event == NULL) {
		errno = cpc == NULL ? ENOSYS : EINVAL;
		v1_err(cpc == NULL ? "no perf_event in this kernel" :
		    "no specification or no event");
		return 1;
	}
	if (cpuver != v1_cpuver) {
		errno = EINVAL;
		v1_err("cpuver %d is not this machine's (%d)", cpuver,
		    v1_cpuver);
		return 1;
	}
	if (spec_parse_npic(cpc, spec, V1_NPIC, &sp, err, sizeof(err)) != 0) {
		errno = EINVAL;
		v1_err("%s", err);
		return 1;
	}
	/* Unknown names and refused attributes are errors now. */
	if ((set = spec_build(cpc, &sp)) == NULL) {
		spec_free(&sp);
		errno = EINVAL;
		return 1;
	}
	(void)cpc_set_destroy(cpc, set);
	if ((id = cfg_add(cpuver, spec, &sp)) == 0) {
		errno = ENOMEM;
		v1_err("cannot register '%s' (at most %d specifications)",
		    spec, V1_MAXCFG);
		return 1;
	}
	memset(event, 0, sizeof(*event));
	event->ce_cpuver = cpuver;
	ctl_set(event, id);
	return 0;
}

CPC_EXPORT char *
cpc_eventtostr(cpc_event_t *event)
{
	const struct v1cfg *c;
	uint32_t id;
	char *text;

	(void)v1_handle("cpc_eventtostr");
	if (event == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if ((c = ctl_get(event, &id)) == NULL)
		return NULL;
	if ((text = spec_format(&c->vc_spec)) == NULL)
		errno = ENOMEM;
	return text;
}

static void
ctl_copy(cpc_event_t *to, const cpc_event_t *from)
{
	to->ce_cpuver = from->ce_cpuver;
#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
	to->ce_pes[0] = from->ce_pes[0];
	to->ce_pes[1] = from->ce_pes[1];
#else
	to->ce_pcr = from->ce_pcr;
#endif
}

CPC_EXPORT void
cpc_event_accum(cpc_event_t *accum, cpc_event_t *event)
{
	int i;

	for (i = 0; i < V1_NPIC; i++)
		accum->ce_pic[i] += event->ce_pic[i];
	CE_TICK(accum) += CE_TICK(event);
	if (event->ce_hrt > accum->ce_hrt)
		accum->ce_hrt = event->ce_hrt;
}

CPC_EXPORT void
cpc_event_diff(cpc_event_t *diff, cpc_event_t *left, cpc_event_t *right)
{
	int i;

	for (i = 0; i < V1_NPIC; i++)
		diff->ce_pic[i] = left->ce_pic[i] - right->ce_pic[i];
	CE_TICK(diff) = CE_TICK(left) - CE_TICK(right);
	diff->ce_hrt = left->ce_hrt;
	ctl_copy(diff, left);
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
	const struct spec *sp = &cfg_at(id)->vc_spec;
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

	if ((c = ctl_get(event, &id)) == NULL)
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
	sp = &cfg_at(x->vx_cfg)->vc_spec;
	ev->ce_cpuver = v1_cpuver;
	ev->ce_hrt = cpc_buf_hrtime(cpc, x->vx_buf);
	CE_TICK(ev) = cpc_buf_tick(cpc, x->vx_buf);
	ev->ce_pic[0] = ev->ce_pic[1] = 0;
	for (i = 0; i < sp->sp_nreqs; i++)
		if (cpc_buf_get(cpc, x->vx_buf, i, &v) == 0)
			ev->ce_pic[sp->sp_reqs[i].sr_pic] = v;
	ctl_set(ev, x->vx_cfg);
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
	cpc_t *cpc = v1_handle("cpc_bind_event");

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
	cpc_t *cpc = v1_handle("cpc_take_sample");

	return cpc == NULL ? -1 : ctx_sample(cpc, &lwp_ctx, event);
}

CPC_EXPORT int
cpc_rele(void)
{
	ctx_release(v1_handle("cpc_rele"), &lwp_ctx);
	return 0;
}

/*
 * Turn one mode on or off for every request of the calling thread's
 * binding: the counts so far become the presets of a new binding.
 */
static int
count_mode(const char *fn, uint_t mode, int on)
{
	cpc_t *cpc = v1_handle(fn);
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
	cpc_t *cpc = v1_handle("cpc_pctx_bind_event");
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
	cpc_t *cpc = v1_handle("cpc_pctx_take_sample");
	struct v1ctx *x;

	if (cpc == NULL || (x = pctx_ctx(pctx, lwpid)) == NULL)
		return -1;
	return ctx_sample(cpc, x, event);
}

CPC_EXPORT int
cpc_pctx_rele(pctx_t *pctx, id_t lwpid)
{
	cpc_t *cpc = v1_handle("cpc_pctx_rele");
	struct v1ctx *x;

	if (cpc == NULL || (x = pctx_ctx(pctx, lwpid)) == NULL)
		return -1;
	ctx_forget(cpc, x);
	return 0;
}

CPC_EXPORT int
cpc_pctx_invalidate(pctx_t *pctx, id_t lwpid)
{
	cpc_t *cpc = v1_handle("cpc_pctx_invalidate");
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
	cpc_t *cpc = v1_handle("cpc_shared_open");
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
	cpc_t *cpc = v1_handle("cpc_shared_bind_event");
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
	cpc_t *cpc = v1_handle("cpc_shared_take_sample");
	struct v1ctx *x;

	if (cpc == NULL || (x = shared_ctx(fd)) == NULL)
		return -1;
	return ctx_sample(cpc, x, event);
}

CPC_EXPORT int
cpc_shared_rele(int fd)
{
	cpc_t *cpc = v1_handle("cpc_shared_rele");
	struct v1ctx *x;

	if (cpc == NULL || (x = shared_ctx(fd)) == NULL)
		return -1;
	ctx_release(cpc, x);
	return 0;
}

CPC_EXPORT void
cpc_shared_close(int fd)
{
	cpc_t *cpc = v1_handle("cpc_shared_close");
	struct v1ctx *x;

	if (cpc != NULL && (x = shared_ctx(fd)) != NULL) {
		ctx_forget(cpc, x);
		(void)close(fd);
	}
}

/* ---- the machine ---- */

CPC_EXPORT uint_t
cpc_version(uint_t ver)
{
	switch (ver) {
	case CPC_VER_NONE:
	case CPC_VER_CURRENT:
		return CPC_VER_CURRENT;
	case 1:
		return 1;
	default:
		return CPC_VER_NONE;
	}
}

CPC_EXPORT int
cpc_access(void)
{
	if (v1_handle("cpc_access") == NULL) {
		v1_err("counters are inaccessible on this machine (the kernel "
		    "has no perf_event)");
		return -1;
	}
	return 0;
}

CPC_EXPORT int
cpc_getcpuver(void)
{
	return v1_handle("cpc_getcpuver") != NULL ? v1_cpuver : -1;
}

CPC_EXPORT const char *
cpc_getcciname(int cpuver)
{
	cpc_t *cpc = v1_for("cpc_getcciname", cpuver);

	return cpc != NULL ? cpc_cciname(cpc) : NULL;
}

CPC_EXPORT const char *
cpc_getcpuref(int cpuver)
{
	cpc_t *cpc = v1_for("cpc_getcpuref", cpuver);

	return cpc != NULL ? cpc_cpuref(cpc) : NULL;
}

CPC_EXPORT uint_t
cpc_getnpic(int cpuver)
{
	return v1_for("cpc_getnpic", cpuver) != NULL ? V1_NPIC : 0;
}

static pthread_once_t usage_once = PTHREAD_ONCE_INIT;
static char usage[512];

static void
usage_attr(void *arg, const char *attr)
{
	size_t n = strlen(usage);

	(void)arg;
	if (strcmp(attr, "picnum") != 0)
		snprintf(usage + n, sizeof(usage) - n, " %s", attr);
}

static void
usage_init(void)
{
	snprintf(usage, sizeof(usage), "[pic0=]<event>[,[pic1=]<event>]"
	    "[,sys[N]][,nouser[N]][,<attribute>[N]=<value>] (N: 0 or 1; "
	    "attributes:");
	cpc_walk_attrs(v1_cpc, NULL, usage_attr);
	if (usage[strlen(usage) - 1] == ':')
		snprintf(usage + strlen(usage), sizeof(usage) - strlen(usage),
		    " none");
	snprintf(usage + strlen(usage), sizeof(usage) - strlen(usage), ")");
}

CPC_EXPORT const char *
cpc_getusage(int cpuver)
{
	if (v1_for("cpc_getusage", cpuver) == NULL)
		return NULL;
	pthread_once(&usage_once, usage_init);
	return usage;
}

struct names {
	void	*n_arg;
	void	(*n_action)(void *, int, const char *, uint8_t);
};

static void
names_adapter(void *arg, uint_t picno, const char *event)
{
	struct names *n = arg;

	n->n_action(n->n_arg, (int)picno, event, 0);
}

CPC_EXPORT void
cpc_walk_names(int cpuver, int regno, void *arg,
    void (*action)(void *arg, int regno, const char *name, uint8_t bits))
{
	cpc_t *cpc = v1_for("cpc_walk_names", cpuver);
	struct names n = { arg, action };

	if (cpc != NULL && action != NULL && regno >= 0 && regno < V1_NPIC)
		cpc_walk_events_pic(cpc, (uint_t)regno, &n, names_adapter);
}
