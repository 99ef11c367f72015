/* SPDX-License-Identifier: BSD-2-Clause */
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

/*
 * CPC_BACKEND=perf or msr chooses who counts the sets that have hardware
 * events; unset, perf does, unless the kernel has no PMU driver for the
 * processor (perf cannot open them) and the msr device works.  Sets of
 * software events and tracepoints are perf's whatever the choice.  0, or
 * -1 with errno (ENOSYS: nothing can count).
 */
static int
choose_backend(cpc_t *cpc)
{
	const char *b = getenv("CPC_BACKEND");
	/* A kernel without perf_event has no such file. */
	int perf = access("/proc/sys/kernel/perf_event_paranoid", F_OK) == 0;
	struct cpc_msr_pmu pmu;

	cpc->c_be = cpc->c_hwbe = &cpc_be_perf;
	cpc->c_hwpmu = perf && cpc_hw_pmu_present();
	if (b != NULL && strcmp(b, "msr") == 0) {
		cpc->c_hwbe = &cpc_be_msr;
		cpc->c_msr = CPC_MSR_FORCED;
		cpc->c_hwpmu = 1;
		return 0;
	}
	if (b != NULL && b[0] != '\0' && strcmp(b, "perf") != 0) {
		cpc_report(NULL, "cpc_open", -1, "CPC_BACKEND=%s: the backends "
		    "are perf (perf_event, the default) and msr (the x86 msr "
		    "device, for CPUs only)", b);
		errno = EINVAL;
		return -1;
	}
	if ((b == NULL || b[0] == '\0') && !cpc->c_hwpmu &&
	    cpc_msr_probe(cpc_msr_first_cpu(), &pmu) == 0) {
		cpc->c_hwbe = &cpc_be_msr;
		cpc->c_msr = CPC_MSR_AUTO;
		cpc->c_hwpmu = 1;
	}
	if (!perf && cpc->c_msr == CPC_MSR_NONE) {
		errno = ENOSYS;		/* kernel without perf_event */
		return -1;
	}
	return 0;
}

CPC_EXPORT cpc_t *
cpc_open(int ver)
{
	cpc_t *cpc;

	if (ver != CPC_VER_CURRENT && ver != CPC_VER_CPC_ONLY) {
		errno = EINVAL;
		return NULL;
	}
	if ((cpc = calloc(1, sizeof(*cpc))) == NULL)
		return NULL;
	if (choose_backend(cpc) != 0) {
		int e = errno;

		free(cpc);
		errno = e;
		return NULL;
	}
	pthread_mutex_init(&cpc->c_lock, NULL);
	cpc->c_sbe = &cpc_sbe_perf;
	cpc->c_cpconly = ver == CPC_VER_CPC_ONLY;
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
		cpc_smpl_buf_free(b);
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
	 * overflowed comes only as si_fd, which names no request.  Hardware
	 * events sample precisely where the PMU says it can (x86 PEBS, IBS).
	 * The msr backend has no interrupt handler: its binds refuse
	 * overflow, and only perf samples.
	 */
	return CPC_CAP_OVERFLOW_INTERRUPT |
	    (cpc->c_hwpmu && cpc->c_hwbe == &cpc_be_perf &&
	    cpc->c_sbe->sb_precise() ?
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

