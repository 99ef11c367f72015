/*
 * cpc.c - the handle's public calls: open and close (which frees every
 * set and buffer), capabilities and names.  handle.c has what the other
 * object files ask of the handle.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"

CPC_EXPORT cpc_t *
cpc_open(int ver)
{
	cpc_t *cpc;

	if (ver != CPC_VER_CURRENT) {
		errno = EINVAL;
		return NULL;
	}
	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK) != 0) {
		errno = ENOSYS;		/* kernel without perf_event */
		return NULL;
	}
	if ((cpc = calloc(1, sizeof(*cpc))) == NULL)
		return NULL;
	pthread_mutex_init(&cpc->c_lock, NULL);
	cpc->c_be = &cpc_be_perf;
	cpc->c_sbe = &cpc_sbe_perf;
	cpc->c_hwpmu = cpc_hw_pmu_present();
	return cpc;
}

CPC_EXPORT int
cpc_close(cpc_t *cpc)
{
	struct cpc_set *s, *sn;
	struct cpc_buf *b, *bn;

	if (cpc == NULL)
		return 0;
	for (s = cpc->c_sets; s != NULL; s = sn) {
		sn = s->cs_next;
		cpc_set_release(cpc, s);
		cpc_set_free(s);
	}
	for (b = cpc->c_bufs; b != NULL; b = bn) {
		bn = b->cb_next;
		cpc_smpl_buf_free(b);
		free(b->cb_vals);
		free(b);
	}
	pthread_mutex_destroy(&cpc->c_lock);
	free(cpc);
	return 0;
}

CPC_EXPORT uint_t
cpc_npic(cpc_t *cpc)
{
	return cpc_platform(cpc)->pf_npic;
}

CPC_EXPORT uint_t
cpc_caps(cpc_t *cpc)
{
	/*
	 * perf_event signals overflow for every kind of event; which counter
	 * overflowed comes only as si_fd, which names no request.  Hardware
	 * events sample precisely where the PMU says it can (x86 PEBS, IBS).
	 */
	return CPC_CAP_OVERFLOW_INTERRUPT |
	    (cpc->c_hwpmu && cpc->c_sbe->sb_precise() ?
	    CPC_CAP_OVERFLOW_PRECISE : 0);
}

CPC_EXPORT const char *
cpc_cciname(cpc_t *cpc)
{
	return cpc_platform(cpc)->pf_cciname;
}

CPC_EXPORT const char *
cpc_cpuref(cpc_t *cpc)
{
	return cpc_platform(cpc)->pf_cpuref;
}

CPC_EXPORT int
cpc_seterrhndlr(cpc_t *cpc, cpc_errhndlr_t *fn)
{
	cpc->c_errfn = fn;
	return 0;
}

CPC_EXPORT int
cpc_have_hw_pmu(cpc_t *cpc)
{
	return cpc->c_hwpmu;
}

