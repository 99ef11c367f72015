/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * handle.c - what every object file asks of the handle: its error
 * handler, the platform's facts (worked out once), and whether a set or
 * a buffer is one of its own.  The bottom of the API layer: it calls
 * only the platform below it.
 */
#include "config.h"

#include <stdarg.h>

#include "cpc_impl.h"

/*
 * Report through the handle's handler (platform/report.c says how);
 * errno is preserved.
 */
void
cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cpc_vreport(cpc != NULL ? cpc->c_errfn : NULL, fn, subcode, fmt, ap);
	va_end(ap);
}

/* The processor's description and counters, worked out once. */
const struct cpc_platform *
cpc_platform(cpc_t *cpc)
{
	pthread_mutex_lock(&cpc->c_lock);
	if (!cpc->c_described) {
		cpc->c_pf.pf_hwpmu = cpc->c_hwpmu;
		cpc->c_pf.pf_msr = cpc->c_msr != CPC_MSR_NONE;
		cpc_platform_describe(&cpc->c_pf);
		cpc->c_described = 1;
	}
	pthread_mutex_unlock(&cpc->c_lock);
	return &cpc->c_pf;
}

/* The vendor, probed once with the rest (a bind asks: no CPUID then). */
enum cpc_vendor
cpc_vendor(cpc_t *cpc)
{
	return cpc_platform(cpc)->pf_vendor;
}

int
cpc_set_owned(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_set *s;

	pthread_mutex_lock(&cpc->c_lock);
	for (s = cpc->c_sets; s != NULL && s != set; s = s->cs_next)
		;
	pthread_mutex_unlock(&cpc->c_lock);
	return s != NULL;
}

int
cpc_buf_owned(cpc_t *cpc, cpc_buf_t *buf)
{
	struct cpc_buf *b;

	pthread_mutex_lock(&cpc->c_lock);
	for (b = cpc->c_bufs; b != NULL && b != buf; b = b->cb_next)
		;
	pthread_mutex_unlock(&cpc->c_lock);
	return b != NULL;
}
