/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuinfo.c - what cpc_cciname, cpc_cpuref and cpc_npic say: the
 * processor's performance counter interface, the manual that documents
 * its events, and how many counters a set may use.
 *
 * Worked out on first use, not at cpc_open.  On x86 the name and the
 * counters come from CPUID; elsewhere the counters come from libpfm4,
 * initialised then (not for resolving a name such as cycles).  Under
 * LIBPFM_FORCE_PMU all of it describes the forced table.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "platform.h"

/* The manual to read, by the vendor of the catalogue's PMU. */
static const char *
manual(const char *pmu, const char *desc)
{
	if (strncmp(pmu, "amd64", 5) == 0)
		return "See the \"Processor Programming Reference (PPR)\" of "
		    "your AMD processor family, section \"Performance "
		    "Monitor Counters\", and --list-events for the names "
		    "libpfm4 knows";
	if (strncmp(pmu, "arm", 3) == 0 || strstr(desc, "ARM") != NULL)
		return "See chapter \"Performance Monitor Unit\" of the "
		    "processor's Technical Reference Manual, the Arm "
		    "Architecture Reference Manual for A-profile (PMUv3 "
		    "common events), and --list-events for the names libpfm4 "
		    "knows";
	return "See chapters \"Performance Monitoring\" and \"Performance "
	    "Monitoring Events\" of the \"Intel 64 and IA-32 Architectures "
	    "Software Developer's Manual Volume 3B\", and --list-events for "
	    "the names libpfm4 knows";
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * "Intel Arch PerfMon v5 on Family 6 Model 143" or "AMD Family 19h", and
 * the counters: general-purpose and fixed from leaf 0xa on Intel; on AMD
 * from PerfMonV2's leaf 0x80000022, else 6 with the core extension, 4
 * before it.
 */
static int
x86_probe(char *buf, size_t len, int *ngp, int *nfixed, const char **pmu)
{
	unsigned a, b, c, d, fam, model;
	char vendor[13];

	if (__get_cpuid(0, &a, &b, &c, &d) == 0)
		return -1;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	__get_cpuid(1, &a, &b, &c, &d);
	fam = (a >> 8 & 0xf) + (a >> 20 & 0xff);
	model = (a >> 4 & 0xf) | (a >> 12 & 0xf0);
	if (strcmp(vendor, "GenuineIntel") == 0) {
		unsigned ver = 0;

		*ngp = *nfixed = 0;
		if (__get_cpuid(0xa, &a, &b, &c, &d) != 0) {
			ver = a & 0xff;
			*ngp = (int)(a >> 8 & 0xff);
			*nfixed = ver > 1 ? (int)(d & 0x1f) : 0;
		}
		snprintf(buf, len, "Intel Arch PerfMon v%u on Family %u "
		    "Model %u", ver, fam, model);
		*pmu = "intel";
	} else if (strcmp(vendor, "AuthenticAMD") == 0 ||
	    strcmp(vendor, "HygonGenuine") == 0) {
		*ngp = 4;
		*nfixed = 0;
		if (__get_cpuid(0x80000001, &a, &b, &c, &d) != 0 &&
		    (c >> 23 & 1))
			*ngp = 6;
		if (__get_cpuid(0x80000022, &a, &b, &c, &d) != 0 && (a & 1) &&
		    (b & 0xf) != 0)
			*ngp = (int)(b & 0xf);
		snprintf(buf, len, "%s Family %Xh", vendor[0] == 'A' ? "AMD" :
		    "Hygon", fam);
		*pmu = "amd64";
	} else
		return -1;
	return 0;
}
#endif

#if defined(__aarch64__) || defined(__arm__)
/* "ARM Cortex-A57", from the MIDR fields /proc/cpuinfo shows. */
static int
arm_name(char *buf, size_t len)
{
	static const struct { unsigned part; const char *name; } parts[] = {
		{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" },
		{ 0xd05, "Cortex-A55" }, { 0xd07, "Cortex-A57" },
		{ 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" },
		{ 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" },
		{ 0xd0c, "Neoverse N1" }, { 0xd0d, "Cortex-A77" },
		{ 0xd40, "Neoverse V1" }, { 0xd41, "Cortex-A78" },
		{ 0xd49, "Neoverse N2" }, { 0xd4f, "Neoverse V2" },
	};
	unsigned impl = 0, part = 0, v;
	char line[256];
	size_t i;
	FILE *f;

	if ((f = fopen("/proc/cpuinfo", "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "CPU implementer : %x", &v) == 1)
			impl = v;
		else if (sscanf(line, "CPU part : %x", &v) == 1)
			part = v;
		if (impl != 0 && part != 0)
			break;
	}
	fclose(f);
	for (i = 0; impl == 0x41 && i < sizeof(parts) / sizeof(*parts); i++)
		if (parts[i].part == part) {
			snprintf(buf, len, "ARM %s", parts[i].name);
			return 0;
		}
	return -1;
}
#endif

/*
 * General-purpose and fixed counters.  libpfm4's ARM tables count the
 * event counters only: PMUv3 (and v7) always has the cycle counter too.
 */
static void
pmu_counters(struct cpc_platform *pf, const struct cpc_pmu *pmu)
{
	pf->pf_ngp = pmu->pm_ncntrs;
	pf->pf_nfixed = pmu->pm_nfixed;
	if (strncmp(pmu->pm_name, "arm", 3) == 0 && pmu->pm_nfixed == 0)
		pf->pf_nfixed = 1;
}

/*
 * Fill the name, the manual and the counters.  With no hardware PMU in the
 * kernel the catalogue has none either, unless LIBPFM_FORCE_PMU is set
 * (even empty: see cpc_pfm_forced): then it describes libpfm4's table
 * (tests, and a look at another processor's names); the kernel still
 * decides what can be counted.
 */
static enum cpc_vendor probe_vendor(void);

/*
 * The msr backend counts: the processor behind the device, whose CPUID
 * may not be this program's (a simulator), says it all.
 */
static void
msr_describe(struct cpc_platform *pf)
{
	struct cpc_msr_pmu p;
	int cpu = cpc_msr_first_cpu();

	pf->pf_npic = CPC_SOFT_NPIC;
	pf->pf_ngp = pf->pf_nfixed = 0;
	pf->pf_vendor = probe_vendor();
	if (cpc_msr_probe(cpu, &p) != 0) {
		snprintf(pf->pf_cciname, sizeof(pf->pf_cciname), "msr backend, "
		    "unusable: %.400s", p.mp_why);
		snprintf(pf->pf_cpuref, sizeof(pf->pf_cpuref), "The msr "
		    "backend (CPC_BACKEND=msr) programs the x86 counters "
		    "through %s/N/msr: %s", cpc_msr_root(), p.mp_why);
		return;
	}
	pf->pf_ngp = p.mp_ngp;
	pf->pf_nfixed = p.mp_nfixed;
	pf->pf_npic = (uint_t)(p.mp_ngp + p.mp_nfixed);
	snprintf(pf->pf_cciname, sizeof(pf->pf_cciname), "%s (msr backend: "
	    "%s/N/msr)", p.mp_name, cpc_msr_root());
	snprintf(pf->pf_cpuref, sizeof(pf->pf_cpuref), "%s. The msr backend "
	    "counts hardware events for whole CPUs only, without overflow "
	    "notification%s", manual(p.mp_vendor == CPC_VENDOR_AMD ? "amd64" :
	    "intel", p.mp_name), pf->pf_vendor != p.mp_vendor ? ". The "
	    "native names are libpfm4's for another processor than the "
	    "device's: set LIBPFM_FORCE_PMU to the device's table" : "");
	pf->pf_vendor = p.mp_vendor;
}

/*
 * The libpfm4 table LIBPFM_FORCE_PMU (forced) names describes the
 * processor: its name and counters, and the table in *pmu.  -1 when
 * there is no such table (pf says so).
 */
static int
forced_describe(struct cpc_platform *pf, const char *forced,
    struct cpc_pmu *pmu)
{
	char *name = pf->pf_cciname;
	size_t len = sizeof(pf->pf_cciname);

	if (cpc_pfm_describe(pmu) != 0) {
		snprintf(name, len, "no libpfm4 table '%s' (named by "
		    "LIBPFM_FORCE_PMU)", forced);
		snprintf(pf->pf_cpuref, sizeof(pf->pf_cpuref), "Unset "
		    "LIBPFM_FORCE_PMU, or name one of libpfm4's PMU tables");
		return -1;
	}
	snprintf(name, len, "%s (libpfm4 table %s, chosen by "
	    "LIBPFM_FORCE_PMU%s)", pmu->pm_desc, pmu->pm_name,
	    forced[0] == '\0' ? ", set but empty: libpfm4's first table" : "");
	pmu_counters(pf, pmu);
	return 0;
}

void
cpc_platform_describe(struct cpc_platform *pf)
{
	const char *forced = cpc_pfm_forced(), *vendor = "";
	char *name = pf->pf_cciname;
	size_t len = sizeof(pf->pf_cciname);
	struct cpc_pmu pmu;

	if (pf->pf_msr) {
		msr_describe(pf);
		return;
	}
	pf->pf_npic = CPC_SOFT_NPIC;
	pf->pf_ngp = pf->pf_nfixed = 0;
	pf->pf_vendor = probe_vendor();
	if (forced != NULL) {
		if (forced_describe(pf, forced, &pmu) != 0)
			return;
		vendor = pmu.pm_name;
	} else if (!pf->pf_hwpmu) {
		snprintf(name, len, "software events only (no hardware PMU)");
		snprintf(pf->pf_cpuref, sizeof(pf->pf_cpuref),
		    "The kernel offers no hardware PMU here (a virtual "
		    "machine without a virtual PMU?): software events, "
		    "tracepoints and sysfs PMU events can be counted. See "
		    "perf_event_open(2)");
		return;
	} else {
#if defined(__x86_64__) || defined(__i386__)
		if (x86_probe(name, len, &pf->pf_ngp, &pf->pf_nfixed,
		    &vendor) != 0)
			snprintf(name, len, "unknown x86 processor");
#else
		/* libpfm4 only here: its table has the counter numbers. */
		int have = cpc_pfm_describe(&pmu) == 0;

		if (have) {
			pmu_counters(pf, &pmu);
			vendor = pmu.pm_name;
		}
#if defined(__aarch64__) || defined(__arm__)
		if (arm_name(name, len) != 0)
#endif
			snprintf(name, len, "%s", have ? pmu.pm_desc :
			    "unknown processor (not in libpfm4's tables)");
		if (vendor[0] == '\0')
			vendor = "arm";
#endif
	}
	if (pf->pf_ngp + pf->pf_nfixed > 0)
		pf->pf_npic = (uint_t)(pf->pf_ngp + pf->pf_nfixed);
	snprintf(pf->pf_cpuref, sizeof(pf->pf_cpuref), "%s",
	    manual(vendor, name));
}

/*
 * Whose event-select layout the catalogue's events use: the forced
 * libpfm4 table's vendor, else the processor's.
 */
static enum cpc_vendor
probe_vendor(void)
{
	struct cpc_pmu pmu;

	if (cpc_pfm_forced() != NULL) {
		if (cpc_pfm_describe(&pmu) != 0)
			return CPC_VENDOR_OTHER;
		if (strncmp(pmu.pm_name, "amd64", 5) == 0)
			return CPC_VENDOR_AMD;
		if (strncmp(pmu.pm_name, "arm", 3) == 0)
			return CPC_VENDOR_ARM;
		return CPC_VENDOR_INTEL;
	}
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned a, b, c, d;

		if (__get_cpuid(0, &a, &b, &c, &d) == 0)
			return CPC_VENDOR_OTHER;
		if (b == 0x756e6547)		/* "Genu"ineIntel */
			return CPC_VENDOR_INTEL;
		if (b == 0x68747541 || b == 0x6f677948) /* Auth, Hygo */
			return CPC_VENDOR_AMD;
		return CPC_VENDOR_OTHER;
	}
#elif defined(__aarch64__) || defined(__arm__)
	return CPC_VENDOR_ARM;
#else
	return CPC_VENDOR_OTHER;
#endif
}

/*
 * Which fixed counter can take an event, from 1; 0 for none.  Each
 * counts one event: ARM's cycle counter cycles (event 0x11); Intel's
 * instructions (0xc0), core cycles (0x3c) and reference cycles, with no
 * unit mask.
 */
int
cpc_fixed_counter(enum cpc_vendor v, uint32_t type, uint64_t c)
{
	if (type == PERF_TYPE_HARDWARE && c == PERF_COUNT_HW_CPU_CYCLES)
		return v == CPC_VENDOR_INTEL ? 2 : 1;
	if (type == PERF_TYPE_HARDWARE && v == CPC_VENDOR_INTEL)
		return c == PERF_COUNT_HW_INSTRUCTIONS ? 1 :
		    c == PERF_COUNT_HW_REF_CPU_CYCLES ? 3 : 0;
	if (type != PERF_TYPE_RAW)
		return 0;
	if (v == CPC_VENDOR_ARM)
		return c == 0x11;
	return v != CPC_VENDOR_INTEL ? 0 : c == 0xc0 ? 1 : c == 0x3c ? 2 : 0;
}
