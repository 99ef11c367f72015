/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pfm.c - libpfm4 as a fact of the platform: loaded (lazy.c) and
 * initialised on first use only, so that resolving cycles or a tracepoint never pays for it, and
 * the one core PMU whose table the catalogue describes.
 *
 * libpfm4 detects the PMU from CPUID, not from the kernel: whether the
 * kernel can count what it encodes is the caller's question.
 * LIBPFM_FORCE_PMU makes a named PMU the only active one, which gives
 * tests a deterministic table.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

#include "platform.h"
#include "lazy.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_ok;		/* pfm_initialize succeeded */
static int pfm_core = -1;	/* the catalogue's PMU, or -1 */
static int pfm_used;

/* The first active core PMU: the CPU's own, or the forced one. */
static void
pfm_init(void)
{
	pfm_pmu_info_t pi;
	int p;

	if (cpc_pfm_load() != 0 || pfm_initialize() != PFM_SUCCESS)
		return;
	pfm_ok = 1;
	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS ||
		    !pi.is_present || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		pfm_core = p;
		break;
	}
}

int
cpc_pfm_ready(void)
{
	pthread_once(&pfm_once, pfm_init);
	pfm_used = 1;
	return pfm_ok;
}

int
cpc_pfm_used(void)
{
	return pfm_used;
}

/*
 * LIBPFM_FORCE_PMU as libpfm4 reads it, NULL when unset.  Set but empty,
 * it still forces a table: libpfm4 takes the first of its list (netburst
 * on x86).  The catalogue follows libpfm4 rather than take "" for unset
 * and describe one table while libpfm4 encodes with another; unsetting
 * the variable for libpfm4 is no answer, a library does not change its
 * caller's environment (nor can it safely, with threads about).
 */
const char *
cpc_pfm_forced(void)
{
	return getenv("LIBPFM_FORCE_PMU");
}

int
cpc_pfm_core(void)
{
	return cpc_pfm_ready() ? pfm_core : -1;
}

int
cpc_pfm_describe(struct cpc_pmu *pmu)
{
	pfm_pmu_info_t pi;
	const char *forced = cpc_pfm_forced();

	memset(pmu, 0, sizeof(*pmu));
	if (!cpc_pfm_ready() || pfm_core < 0)
		return -1;
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_pmu_info(pfm_core, &pi) != PFM_SUCCESS)
		return -1;
	snprintf(pmu->pm_name, sizeof(pmu->pm_name), "%s", pi.name);
	snprintf(pmu->pm_desc, sizeof(pmu->pm_desc), "%s", pi.desc);
	pmu->pm_ncntrs = pi.num_cntrs;
	pmu->pm_nfixed = pi.num_fixed_cntrs;
	pmu->pm_forced = forced != NULL;
	return 0;
}
