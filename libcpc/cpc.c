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
	cpc->c_hwpmu = cpc_hw_pmu_present();
	return cpc;
}

CPC_EXPORT int
cpc_close(cpc_t *cpc)
{
	struct cpc_set *s;
	struct cpc_buf *b;
	size_t pos;

	if (cpc == NULL)
		return 0;
	for (pos = 0; (s = cpc_objtab_next(&cpc->c_sets, &pos)) != NULL; ) {
		cpc_set_release(cpc, s);
		cpc_set_free(s);
	}
	for (pos = 0; (b = cpc_objtab_next(&cpc->c_bufs, &pos)) != NULL; ) {
		free(b->cb_vals);
		free(b);
	}
	cpc_objtab_free(&cpc->c_sets);
	cpc_objtab_free(&cpc->c_bufs);
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
	 * overflowed comes only as si_fd, which names no request.
	 */
	(void)cpc;
	return CPC_CAP_OVERFLOW_INTERRUPT;
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

