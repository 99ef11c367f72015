/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * set.c - sets and their requests.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

CPC_EXPORT cpc_set_t *
cpc_set_create(cpc_t *cpc)
{
	struct cpc_set *set;
	pthread_mutexattr_t ma;

	if ((set = calloc(1, sizeof(*set))) == NULL)
		return NULL;
	set->cs_cpc = cpc;
	/* Recursive: a signal handler may bind it (ctx.c). */
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&set->cs_lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_mutex_lock(&cpc->c_lock);
	if (cpc_objtab_add(&cpc->c_sets, set) != 0) {
		pthread_mutex_unlock(&cpc->c_lock);
		cpc_set_free(set);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_unlock(&cpc->c_lock);
	return set;
}

static void
request_free(struct cpc_request *r)
{
	uint_t i;

	for (i = 0; i < r->cr_nattrs; i++)
		free(r->cr_attrs[i].ca_name);
	free(r->cr_attrs);
	free(r->cr_event);
}

void
cpc_set_free(cpc_set_t *set)
{
	int i;

	for (i = 0; i < set->cs_nreqs; i++)
		request_free(&set->cs_reqs[i]);
	free(set->cs_reqs);
	pthread_mutex_destroy(&set->cs_lock);
	free(set);
}

CPC_EXPORT int
cpc_set_destroy(cpc_t *cpc, cpc_set_t *set)
{
	int found;

	if (set == NULL)
		return 0;
	pthread_mutex_lock(&cpc->c_lock);
	found = cpc_objtab_del(&cpc->c_sets, set);
	pthread_mutex_unlock(&cpc->c_lock);
	if (!found) {
		errno = EINVAL;
		return -1;
	}
	cpc_set_release(cpc, set);
	cpc_set_free(set);
	return 0;
}

static int
copy_attrs(struct cpc_request *r, uint_t nattrs, const cpc_attr_t *attrs)
{
	uint_t i;

	if (nattrs == 0)
		return 0;
	if ((r->cr_attrs = calloc(nattrs, sizeof(*attrs))) == NULL)
		return -1;
	for (i = 0; i < nattrs; i++) {
		r->cr_attrs[i].ca_name = strndup(attrs[i].ca_name,
		    CPC_MAX_ATTR_LEN);
		if (r->cr_attrs[i].ca_name == NULL)
			return -1;
		r->cr_attrs[i].ca_val = attrs[i].ca_val;
		r->cr_nattrs = i + 1;
	}
	return 0;
}

/* The request's flags, and its preset where it overflows. */
static int
check_flags(cpc_t *cpc, const char *fn, const struct cpc_request *r)
{
	uint_t flags = r->cr_flags;
	uint64_t preset = r->cr_preset;

	if ((flags & ~CPC_REQ_FLAGS) != 0) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "invalid request flags "
		    "%#x (known: %#x)", flags, CPC_REQ_FLAGS);
		return -1;
	}
	if (r->cr_smpl)
		return 0;	/* cpc_smpl_request checked it */
	/* Overflow after 2^64 - preset events: 1 to 2^63 - 1 of them. */
	if ((flags & CPC_OVF_NOTIFY_EMT) &&
	    (preset == 0 || (0 - preset) > (uint64_t)INT64_MAX)) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "preset %#llx "
		    "with CPC_OVF_NOTIFY_EMT: overflow comes after 2^64 - "
		    "preset events, which must be 1 to 2^63 - 1 (a preset "
		    "from 2^63 + 1 to UINT64_MAX)", (unsigned long long)preset);
		return -1;
	}
	if ((flags & CPC_OVF_NOTIFY_EMT) &&
	    cpc_period_too_short(cpc, fn, r, preset) != 0)
		return -1;
	if ((flags & CPC_OVF_NOTIFY_EMT) && r->cr_ev.ev_derived) {
		cpc_err(cpc, fn, CPC_CONFLICTING_REQS, "'%s' counts the "
		    "difference of two counters: it cannot signal its "
		    "overflow", r->cr_event);
		return -1;
	}
	return 0;
}

/*
 * cpc_set_add_request's arguments before the event is looked at: the
 * set the handle's and bound nowhere, the attributes named, room for one
 * more request.  0, or -1 (EINVAL).
 */
static int
add_ok(cpc_t *cpc, const char *fn, cpc_set_t *set, const char *event,
    uint_t nattrs, const cpc_attr_t *attrs)
{
	uint_t a;

	if (set == NULL || event == NULL || !cpc_set_owned(cpc, set) ||
	    cpc_set_busy(set) || (nattrs > 0 && attrs == NULL)) {
		errno = EINVAL;
		return -1;
	}
	for (a = 0; a < nattrs; a++)
		if (attrs[a].ca_name == NULL) {
			cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "attribute %u "
			    "has no name", a);
			errno = EINVAL;
			return -1;
		}
	if ((uint_t)set->cs_nreqs >= cpc_platform(cpc)->pf_npic) {
		errno = EINVAL;
		cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL, "a set holds at most "
		    "%u requests here", cpc_platform(cpc)->pf_npic);
		return -1;
	}
	return 0;
}

CPC_EXPORT int
cpc_set_add_request(cpc_t *cpc, cpc_set_t *set, const char *event,
    uint64_t preset, uint_t flags, uint_t nattrs, const cpc_attr_t *attrs)
{
	static const char fn[] = "cpc_set_add_request";
	struct cpc_request r, *nr;
	int e;

	if (add_ok(cpc, fn, set, event, nattrs, attrs) != 0)
		return -1;
	memset(&r, 0, sizeof(r));
	r.cr_preset = preset;
	r.cr_flags = flags;
	r.cr_picnum = -1;
	if ((r.cr_event = strdup(event)) == NULL ||
	    copy_attrs(&r, nattrs, attrs) != 0)
		goto out_nomem;
	if (cpc_event_resolve(cpc, fn, r.cr_event, &r.cr_ev) != 0)
		goto out_resolve;
	if ((flags & ~CPC_REQ_FLAGS) == 0 &&
	    cpc_smpl_request(cpc, fn, &r) != 0)
		goto out_inval;
	if (cpc_event_apply_attrs(cpc, fn, &r) != 0)
		goto out_inval;
	if (check_flags(cpc, fn, &r) != 0)
		goto out_inval;
	if (set->cs_nreqs == set->cs_nalloc) {
		int n = set->cs_nalloc ? set->cs_nalloc * 2 : 4;

		nr = realloc(set->cs_reqs, n * sizeof(*nr));
		if (nr == NULL)
			goto out_nomem;
		set->cs_reqs = nr;
		set->cs_nalloc = n;
	}
	/* A new request invalidates the contexts kept for re-binding. */
	cpc_set_release(cpc, set);
	set->cs_reqs[set->cs_nreqs] = r;
	set->cs_nsmpl += r.cr_smpl;
	return set->cs_nreqs++;

out_nomem:
	request_free(&r);
	errno = ENOMEM;
	return -1;
out_resolve:
	e = errno;
	request_free(&r);
	errno = e;
	return -1;
out_inval:
	request_free(&r);
	errno = EINVAL;
	return -1;
}

/*
 * A new set with tmpl's requests as cpc_set_add_request made them: the
 * names, attributes and resolved events are copied, not looked up
 * again, and what a bind or cpc_request_preset set in them is left out.
 * For the tools' one set per thread or CPU.  NULL with errno.
 */
cpc_set_t *
cpc_set_copy(cpc_t *cpc, const cpc_set_t *tmpl)
{
	cpc_set_t *set;

	if ((set = cpc_set_create(cpc)) == NULL)
		return NULL;
	if (tmpl->cs_nreqs > 0 && (set->cs_reqs = calloc(tmpl->cs_nreqs,
	    sizeof(*set->cs_reqs))) == NULL)
		goto nomem;
	set->cs_nalloc = tmpl->cs_nreqs;
	for (; set->cs_nreqs < tmpl->cs_nreqs; set->cs_nreqs++) {
		const struct cpc_request *t = &tmpl->cs_reqs[set->cs_nreqs];
		struct cpc_request *r = &set->cs_reqs[set->cs_nreqs];

		r->cr_preset = t->cr_preset;
		r->cr_flags = t->cr_flags;
		r->cr_picnum = t->cr_picnum;
		r->cr_ev = t->cr_ev;
		r->cr_smpl = t->cr_smpl;
		r->cr_nrecs = t->cr_nrecs;
		r->cr_speriod = t->cr_speriod;
		r->cr_chain = t->cr_chain;
		r->cr_recw = t->cr_recw;
		r->cr_hasperiod = t->cr_hasperiod;
		if ((r->cr_event = strdup(t->cr_event)) == NULL ||
		    copy_attrs(r, t->cr_nattrs, t->cr_attrs) != 0) {
			set->cs_nreqs++;	/* freed with the set */
			goto nomem;
		}
	}
	set->cs_nsmpl = tmpl->cs_nsmpl;
	return set;
nomem:
	(void)cpc_set_destroy(cpc, set);
	errno = ENOMEM;
	return NULL;
}

CPC_EXPORT void
cpc_walk_requests(cpc_t *cpc, cpc_set_t *set, void *arg,
    void (*fn)(void *arg, int index, const char *event, uint64_t preset,
    uint_t flags, int nattrs, const cpc_attr_t *attrs))
{
	int i;

	if (set == NULL || !cpc_set_owned(cpc, set))
		return;
	for (i = set->cs_nreqs - 1; i >= 0; i--) {
		struct cpc_request *r = &set->cs_reqs[i];

		fn(arg, i, r->cr_event, r->cr_preset, r->cr_flags,
		    (int)r->cr_nattrs, r->cr_attrs);
	}
}
