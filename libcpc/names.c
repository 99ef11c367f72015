/*
 * names.c - the handle's door to the event catalogue (events/): what the
 * catalogue is told of the handle (its error handler, its PMU, the
 * platform's facts), and the names of requests resolved, cached for the
 * names that cost file reads.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpc_impl.h"

static const struct cpc_platform *
platform_of(void *arg)
{
	return cpc_platform(arg);
}

struct ev_ctx *
cpc_ev_ctx(cpc_t *cpc, struct ev_ctx *ec)
{
	ec->ec_errfn = cpc->c_errfn;
	ec->ec_hwpmu = cpc->c_hwpmu;
	ec->ec_platform = platform_of;
	ec->ec_arg = cpc;
	return ec;
}

int
cpc_event_encode(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	struct ev_ctx ec;

	return ev_encode(cpc_ev_ctx(cpc, &ec), fn, name, ev);
}

static int
resolve(cpc_t *cpc, const char *fn, const char *name, struct cpc_event *ev)
{
	struct ev_ctx ec;

	if (ev_encode(cpc_ev_ctx(cpc, &ec), fn, name, ev) != 0)
		return -1;
	if (ev->ev_hw && !cpc->c_hwpmu) {
		ev_no_pmu_error(&ec, fn, name);
		errno = ENOTSUP;
		return -1;
	}
	return 0;
}

/*
 * errno on failure: EINVAL for a name that is wrong; ENOSYS when tracefs
 * is missing, EACCES when it is not readable, ENOTSUP for a hardware event
 * on a machine without a hardware PMU (the name is right, the machine
 * cannot count it).
 */
int
cpc_event_resolve(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	int i, slow = strchr(name, '/') != NULL || strchr(name, ':') != NULL;

	/*
	 * cputrack builds a set per thread: remember the names that need
	 * tracefs or sysfs reads, so a new thread costs no file access.
	 */
	if (slow && strlen(name) < CPC_MAX_EVENT_LEN) {
		pthread_mutex_lock(&cpc->c_lock);
		for (i = 0; i < CPC_EVCACHE; i++)
			if (strcmp(cpc->c_evcache[i].ec_name, name) == 0) {
				*ev = cpc->c_evcache[i].ec_ev;
				pthread_mutex_unlock(&cpc->c_lock);
				return 0;
			}
		pthread_mutex_unlock(&cpc->c_lock);
	}
	errno = 0;
	if (resolve(cpc, fn, name, ev) == 0) {
		if (slow && strlen(name) < CPC_MAX_EVENT_LEN) {
			struct cpc_evcache *c;

			pthread_mutex_lock(&cpc->c_lock);
			c = &cpc->c_evcache[cpc->c_evnext];
			cpc->c_evnext = (cpc->c_evnext + 1) % CPC_EVCACHE;
			strcpy(c->ec_name, name);
			c->ec_ev = *ev;
			pthread_mutex_unlock(&cpc->c_lock);
		}
		return 0;
	}
	if (errno != ENOSYS && errno != EACCES && errno != ENOTSUP)
		errno = EINVAL;
	return -1;
}

/* The catalogue sees the attributes smpl.c does not take. */
int
cpc_event_apply_attrs(cpc_t *cpc, const char *fn, struct cpc_request *req)
{
	struct ev_ctx ec;
	cpc_attr_t *a = NULL;
	uint_t i, n = 0;
	int rc;

	if (req->cr_nattrs > 0 &&
	    (a = malloc(req->cr_nattrs * sizeof(*a))) == NULL)
		return -1;
	for (i = 0; i < req->cr_nattrs; i++)
		if (!cpc_smpl_attr(req->cr_attrs[i].ca_name))
			a[n++] = req->cr_attrs[i];
	rc = ev_apply_attrs(cpc_ev_ctx(cpc, &ec), fn, req->cr_event, a, n,
	    &req->cr_ev, &req->cr_picnum);
	free(a);
	return rc;
}
