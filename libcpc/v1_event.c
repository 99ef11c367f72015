/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v1_event.c - the obsolete Solaris 8 interface, its machine side: the
 * hidden handle that serves every v1 call, whose error handler passes the
 * messages on to the v1 handler (cpc_seterrfn) under the name of the v1
 * call being made; the registered specifications behind cpc_event_t
 * (cpc_strtoevent, cpc_eventtostr, cpc_event_accum, cpc_event_diff); and
 * the calls that describe the machine (cpc_version, cpc_getcpuver, ...).
 * v1.c, above it, binds.
 *
 * A cpc_event_t carries no event names: its control fields (ce_pes on
 * x86, ce_pcr elsewhere) hold the id of a specification that
 * cpc_strtoevent parsed and registered, with a check word so that an
 * event never made by cpc_strtoevent is refused.  Registered
 * specifications live as long as the process: any sample taken from a
 * binding can be bound again as it is, which the seed's overflow handler
 * does.
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

#include "msgsafe.h"
#include "v1_impl.h"

static pthread_once_t v1_once = PTHREAD_ONCE_INIT;
static cpc_t *v1_cpc;			/* NULL: no perf_event here */
static int v1_cpuver_ = -1;
static cpc_errfn_t *v1_errfn;
static __thread const char *v1_fn;	/* the v1 call being made */

static struct v1cfg *cfgs[V1_MAXCFG + 1];	/* by id, from 1 */
static uint32_t ncfgs;
static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- errors ---- */

/* Call the v1 handler h with the arguments after fmt. */
static void __attribute__((format(printf, 3, 4)))
v1_call(cpc_errfn_t *h, const char *fn, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	h(fn, fmt, ap);
	va_end(ap);
}

/* The message made safe to print (msgsafe.h), as every libcpc message. */
static void
v1_verr(const char *fn, const char *fmt, va_list ap)
{
	cpc_errfn_t *h = __atomic_load_n(&v1_errfn, __ATOMIC_ACQUIRE);
	char msg[CPC_MSG_MAX];

	cpc_vmsgsafe(msg, sizeof(msg), fmt, ap);
	if (h != NULL)
		v1_call(h, fn, "%s", msg);
	else
		cpc_err(NULL, fn, -1, "%s", msg);	/* the default handler */
}

void
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
		v1_cpuver_ = cpuver_of(v1_cpc);
	}
	errno = saved;
}

cpc_t *
v1_handle(const char *fn)
{
	pthread_once(&v1_once, v1_init);
	v1_fn = fn;
	if (v1_cpc == NULL)
		errno = ENOSYS;
	return v1_cpc;
}

int
v1_cpuver(void)
{
	return v1_cpuver_;
}

/* The handle when cpuver is this machine's, else NULL (quietly). */
static cpc_t *
v1_for(const char *fn, int cpuver)
{
	cpc_t *cpc = v1_handle(fn);

	return cpc != NULL && cpuver == v1_cpuver_ ? cpc : NULL;
}

/* ---- registered specifications ---- */

static uint32_t
cfg_check(uint32_t id)
{
	return id * 2654435761u ^ 0x43504331u;	/* "CPC1" */
}

void
v1_ctl_set(cpc_event_t *ev, uint32_t id)
{
#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
	ev->ce_pes[0] = id;
	ev->ce_pes[1] = cfg_check(id);
#else
	ev->ce_pcr = (uint64_t)cfg_check(id) << 32 | id;
#endif
}

const struct v1cfg *
v1_cfg_at(uint32_t id)
{
	if (id == 0 || id > V1_MAXCFG)
		return NULL;
	return __atomic_load_n(&cfgs[id], __ATOMIC_ACQUIRE);
}

const struct v1cfg *
v1_ctl_get(const cpc_event_t *ev, uint32_t *idp)
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
		c = v1_cfg_at(id);
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
	if (cpuver != v1_cpuver_) {
		errno = EINVAL;
		v1_err("cpuver %d is not this machine's (%d)", cpuver,
		    v1_cpuver_);
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
	v1_ctl_set(event, id);
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
	if ((c = v1_ctl_get(event, &id)) == NULL)
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
	return v1_handle("cpc_getcpuver") != NULL ? v1_cpuver_ : -1;
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

