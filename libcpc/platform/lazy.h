/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lazy.h - libpfm4 and libtracefs are not linked: platform/lazy.c loads
 * each with dlopen the first time a name needs it (a native event name,
 * a tracepoint), so that a program counting software events or
 * cycles never maps them (libpfm4's tables alone were half of cpustat's
 * resident memory, and their relocation a good part of its start-up).
 *
 * Included after <perfmon/pfmlib_perf_event.h>, this header turns the
 * libpfm4 calls of the file into calls through the loaded table; before
 * cpc_pfm_load() succeeds every entry answers PFM_ERR_NOINIT (or -1,
 * or a message for pfm_strerror), so no call can reach a NULL pointer.
 */
#ifndef CPC_LAZY_H
#define CPC_LAZY_H

#include <perfmon/pfmlib_perf_event.h>

struct cpc_pfm_fns {
	__typeof__(pfm_initialize)		*pf_initialize;
	__typeof__(pfm_get_pmu_info)		*pf_get_pmu_info;
	__typeof__(pfm_get_event_info)		*pf_get_event_info;
	__typeof__(pfm_get_event_attr_info)	*pf_get_event_attr_info;
	__typeof__(pfm_get_event_next)		*pf_get_event_next;
	__typeof__(pfm_get_os_event_encoding)	*pf_get_os_event_encoding;
	__typeof__(pfm_find_event)		*pf_find_event;
	__typeof__(pfm_strerror)		*pf_strerror;
};
extern struct cpc_pfm_fns cpc_pfm_fns;

/* Load libpfm4 (once); 0 when it is there, -1 when it is not. */
int	cpc_pfm_load(void);

#define pfm_initialize			(*cpc_pfm_fns.pf_initialize)
#define pfm_get_pmu_info		(*cpc_pfm_fns.pf_get_pmu_info)
#define pfm_get_event_info		(*cpc_pfm_fns.pf_get_event_info)
#define pfm_get_event_attr_info		(*cpc_pfm_fns.pf_get_event_attr_info)
#define pfm_get_event_next		(*cpc_pfm_fns.pf_get_event_next)
#define pfm_get_os_event_encoding	(*cpc_pfm_fns.pf_get_os_event_encoding)
#define pfm_find_event			(*cpc_pfm_fns.pf_find_event)
#define pfm_strerror			(*cpc_pfm_fns.pf_strerror)

#endif
