/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msr_pmu.c - the register map of the two x86 PMUs the msr backend
 * programs, and perf's generic hardware events as their event codes:
 *
 *	Intel	architectural perfmon (CPUID leaf 0xa): IA32_PERFEVTSELx at
 *		0x186 + x over IA32_PMCx at 0xc1 + x, and the fixed counters
 *		(msr.c); the generic events are the architectural ones
 *	AMD	the core extension's bank (Fam15h on, Zen): PERF_CTLn at
 *		0xc0010200 + 2n, PERF_CTRn after each; before it the legacy
 *		K7 bank, EVNTSELn at 0xc0010000 + n, PERFCTRn at 0xc0010004
 *		+ n.  Event codes take bits 35:32 beside 7:0.
 *
 * The generic codes are the kernel's (arch/x86/events/intel/core.c,
 * amd/core.c), so that cycles means here what it means through perf.
 */
#include "config.h"

#include <linux/perf_event.h>

#include "msr_pmu.h"

uint32_t
msr_sel_reg(const struct cpc_msr_pmu *p, int n)
{
	if (p->mp_vendor == CPC_VENDOR_INTEL)
		return MSR_IA32_PERFEVTSEL0 + (uint32_t)n;
	return p->mp_core_ext ? MSR_F15H_PERF_CTL0 + 2 * (uint32_t)n :
	    MSR_K7_EVNTSEL0 + (uint32_t)n;
}

uint32_t
msr_ctr_reg(const struct cpc_msr_pmu *p, int n)
{
	if (p->mp_vendor == CPC_VENDOR_INTEL)
		return MSR_IA32_PMC0 + (uint32_t)n;
	return p->mp_core_ext ? MSR_F15H_PERF_CTR0 + 2 * (uint32_t)n :
	    MSR_K7_PERFCTR0 + (uint32_t)n;
}

/*
 * Event, unit mask, edge, invert and counter mask everywhere; Intel's
 * AnyThread (bit 21); AMD's event bits 35:32 and host/guest (41:40).
 */
uint64_t
msr_code_mask(const struct cpc_msr_pmu *p)
{
	uint64_t m = 0xffffULL | 1ULL << 18 | 1ULL << 23 | 0xffULL << 24;

	if (p->mp_vendor == CPC_VENDOR_INTEL)
		return m | 1ULL << 21;
	return m | 0xfULL << 32 | 3ULL << 40;
}

struct generic {
	uint64_t	 g_config;	/* PERF_COUNT_HW_* */
	const char	*g_name;
	int		 g_arch;	/* Intel: leaf 0xa EBX bit, -1 none */
	uint64_t	 g_intel;
	uint64_t	 g_amd;		/* before Zen */
	uint64_t	 g_zen;		/* family 17h on */
};

static const struct generic generics[] = {
	{ PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0x003c, 0x0076, 0x0076 },
	{ PERF_COUNT_HW_INSTRUCTIONS, "instructions", 1, 0x00c0, 0x00c0,
	    0x00c0 },
	{ PERF_COUNT_HW_CACHE_REFERENCES, "cache-references", 3, 0x4f2e,
	    0x077d, 0xff60 },
	{ PERF_COUNT_HW_CACHE_MISSES, "cache-misses", 4, 0x412e, 0x077e,
	    0x0964 },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branch-instructions", 5, 0x00c4,
	    0x00c2, 0x00c2 },
	{ PERF_COUNT_HW_BRANCH_MISSES, "branch-misses", 6, 0x00c5, 0x00c3,
	    0x00c3 },
	{ PERF_COUNT_HW_BUS_CYCLES, "bus-cycles", 2, 0x013c, 0, 0 },
	{ PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles", 2, 0x013c, 0, 0 },
};

int
msr_generic_code(const struct cpc_msr_pmu *p, uint64_t config,
    uint64_t *code)
{
	size_t i;

	for (i = 0; i < sizeof(generics) / sizeof(*generics); i++) {
		const struct generic *g = &generics[i];

		if (g->g_config != config)
			continue;
		if (p->mp_vendor == CPC_VENDOR_INTEL) {
			if (p->mp_noarch >> g->g_arch & 1)
				return -1;
			*code = g->g_intel;
		} else
			*code = p->mp_family >= 0x17 ? g->g_zen : g->g_amd;
		return *code != 0 ? 0 : -1;
	}
	return -1;
}

const char *
msr_generic_name(uint64_t config)
{
	size_t i;

	for (i = 0; i < sizeof(generics) / sizeof(*generics); i++)
		if (generics[i].g_config == config)
			return generics[i].g_name;
	return "a generic hardware event";
}
