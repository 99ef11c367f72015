/*
 * ev_pfm.c - stage 5 of the catalogue: libpfm4's native event names of the
 * CPU's PMU (INST_RETIRED:ANY_P, skl::INST_RETIRED:ANY_P).
 *
 * libpfm4 is initialised on first use only, so resolving cycles or a
 * tracepoint never pays for it.  It detects the PMU from CPUID, not from
 * the kernel: whether the kernel can count what it encodes is the
 * caller's question (cpc_t's c_hwpmu).  LIBPFM_FORCE_PMU makes a named
 * PMU the only active one, which gives tests a deterministic table.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "cpc_impl.h"

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

	if (pfm_initialize() != PFM_SUCCESS)
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

static int
pfm_ready(void)
{
	pthread_once(&pfm_once, pfm_init);
	pfm_used = 1;
	return pfm_ok;
}

/* libpfm4 has been initialised (tests: resolving cycles must not). */
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
cpc_pfm_pmu(cpc_t *cpc, struct cpc_pmu *pmu)
{
	pfm_pmu_info_t pi;
	const char *forced = cpc_pfm_forced();

	(void)cpc;
	memset(pmu, 0, sizeof(*pmu));
	if (!pfm_ready() || pfm_core < 0)
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

/* The unit masks and modifiers of event idx, for an error message. */
static void
attr_list(int idx, char *buf, size_t len)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	size_t used = 0;
	int a, pass;

	buf[0] = '\0';
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return;
	for (pass = 0; pass < 2; pass++) {
		int n = 0;

		for (a = 0; a < ei.nattrs; a++) {
			memset(&ai, 0, sizeof(ai));
			ai.size = sizeof(ai);
			if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) !=
			    PFM_SUCCESS ||
			    (ai.type == PFM_ATTR_UMASK) != (pass == 0))
				continue;
			if (used + strlen(ai.name) + 24 >= len)
				break;
			used += snprintf(buf + used, len - used, "%s%s%s",
			    n++ > 0 ? " " : used > 0 ? "; modifiers " :
			    "unit masks ", ai.name,
			    ai.is_dfl ? " (default)" : "");
		}
	}
}

/* libpfm4's error for a name, in words a user can act on. */
static void
pfm_report(cpc_t *cpc, const char *fn, const char *name, int idx, int rc)
{
	char attrs[768];

	switch (rc) {
	case PFM_ERR_UMASK:
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
	case PFM_ERR_ATTR_SET:
		attr_list(idx, attrs, sizeof(attrs));
		cpc_err(cpc, fn, rc == PFM_ERR_ATTR_VAL ?
		    CPC_ATTRIBUTE_OUT_OF_RANGE : CPC_INVALID_EVENT, "event "
		    "'%s': %s (%s)", name, rc == PFM_ERR_UMASK ? "a unit mask "
		    "is required" : rc == PFM_ERR_ATTR ? "unknown unit mask or "
		    "modifier" : pfm_strerror(rc), attrs[0] != '\0' ? attrs :
		    "it takes none");
		break;
	case PFM_ERR_FEATCOMB:
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "event '%s': these unit "
		    "masks or modifiers cannot be combined", name);
		break;
	default:
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "event '%s': %s", name,
		    pfm_strerror(rc));
	}
}

/*
 * The event part of a native name: "skl::INST_RETIRED:ANY_P" gives
 * "skl::INST_RETIRED", so that an unknown unit mask is told apart from an
 * unknown event.
 */
static void
base_name(const char *name, char *buf, size_t len)
{
	const char *p = strstr(name, "::");
	const char *colon = strchr(p != NULL ? p + 2 : name, ':');
	size_t n = colon != NULL ? (size_t)(colon - name) : strlen(name);

	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
}

/* libpfm4's perf encoding of name, counting both modes, into *attr. */
static int
pfm_encode(const char *name, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	attr->size = sizeof(*attr);
	arg.attr = attr;
	arg.size = sizeof(arg);
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
	    PFM_OS_PERF_EVENT, &arg);
}

/*
 * 0 and ev filled; 1 when libpfm4 has no such event (nothing reported);
 * -1 when the event exists but the rest of the name is wrong (reported).
 */
int
cpc_pfm_lookup(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	struct perf_event_attr attr;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char base[CPC_MAX_EVENT_LEN];
	int rc, idx;

	if (!pfm_ready())
		return 1;
	base_name(name, base, sizeof(base));
	if ((idx = pfm_find_event(base)) < 0)
		return 1;
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
	    pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS)
		return 1;
	/* perf:: and perf_raw:: repeat stage 3 and 6; they are not native. */
	if (pi.type == PFM_PMU_TYPE_OS_GENERIC)
		return 1;
	if ((rc = pfm_encode(name, &attr)) != PFM_SUCCESS) {
		pfm_report(cpc, fn, name, idx, rc);
		return -1;
	}
	/* The mode comes from the request's flags (nouser, sys), not u/k. */
	if (attr.exclude_user || attr.exclude_kernel) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "event '%s': give the "
		    "counting mode with nouser and sys, not the u or k "
		    "modifier", name);
		return -1;
	}
	memset(ev, 0, sizeof(*ev));
	ev->ev_kind = EVK_NATIVE;
	ev->ev_type = attr.type;
	ev->ev_config = attr.config;
	ev->ev_config1 = attr.config1;
	ev->ev_config2 = attr.config2;
	ev->ev_hw = 1;
	ev->ev_modes = 1;
	/* x86 event selects take umask/cmask/edge/inv folded in. */
#if defined(__x86_64__) || defined(__i386__)
	ev->ev_attrs = attr.type == PERF_TYPE_RAW &&
	    strncmp(pi.name, "netburst", 8) != 0;
#endif
	return 0;
}

/* What the catalogue makes of a name of table pi (EVENT or EVENT:UMASK). */
static enum cpc_pfm_how
name_how(const pfm_pmu_info_t *pi, const char *evname)
{
	struct perf_event_attr attr;
	char name[CPC_MAX_EVENT_LEN];
	int rc;

	snprintf(name, sizeof(name), "%s::%s", pi->name, evname);
	rc = pfm_encode(name, &attr);
	return rc == PFM_SUCCESS ? CPC_PFM_ENCODES : rc == PFM_ERR_UMASK ?
	    CPC_PFM_NEEDS_UMASK : CPC_PFM_REFUSED;
}

/*
 * The native events of the catalogue's PMU, each with what the catalogue
 * makes of its bare name, and with umasks each event's unit masks too, as
 * EVENT:UMASK (the default one marked in its text).
 */
void
cpc_pfm_walk(cpc_t *cpc, int umasks, void *arg,
    void (*fn)(void *arg, const char *name, const char *desc,
    enum cpc_pfm_how how))
{
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	char name[CPC_MAX_EVENT_LEN], desc[512];
	int i, a;

	(void)cpc;
	if (!pfm_ready() || pfm_core < 0)
		return;
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_pmu_info(pfm_core, &pi) != PFM_SUCCESS)
		return;
	for (i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS)
			continue;
		fn(arg, ei.name, ei.desc != NULL ? ei.desc : "",
		    name_how(&pi, ei.name));
		for (a = 0; umasks && a < ei.nattrs; a++) {
			memset(&ai, 0, sizeof(ai));
			ai.size = sizeof(ai);
			if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai) !=
			    PFM_SUCCESS || ai.type != PFM_ATTR_UMASK)
				continue;
			snprintf(name, sizeof(name), "%s:%s", ei.name, ai.name);
			snprintf(desc, sizeof(desc), "%s%s", ai.desc != NULL ?
			    ai.desc : "", ai.is_dfl ? " (the default)" : "");
			fn(arg, name, desc, name_how(&pi, name));
		}
	}
}

/*
 * A name libpfm4 did not find may belong to the table of a PMU that is
 * not active here (libpfm4 does not know this CPU, or it is another
 * CPU's name).  Put the core PMUs whose table has the event in buf, as
 * "skx, icl, spr" (the newest five); 0 when some do, -1 when none.
 */
int
cpc_pfm_where(const char *name, char *buf, size_t len)
{
	char base[CPC_MAX_EVENT_LEN], pmu[64] = "";
	const char *ev = base, *sep;
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	const char *names[5];
	size_t used = 0;
	int p, i, found = 0;

	buf[0] = '\0';
	if (!pfm_ready())
		return -1;
	base_name(name, base, sizeof(base));
	if ((sep = strstr(base, "::")) != NULL) {
		snprintf(pmu, sizeof(pmu), "%.*s", (int)(sep - base), base);
		ev = sep + 2;
	}
	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS ||
		    pi.type != PFM_PMU_TYPE_CORE ||
		    (pmu[0] != '\0' && strcmp(pmu, pi.name) != 0))
			continue;
		for (i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(i, PFM_OS_NONE, &ei) !=
			    PFM_SUCCESS || strcasecmp(ei.name, ev) != 0)
				continue;
			names[found++ % 5] = pi.name;
			break;
		}
	}
	/* The newest five: libpfm4 numbers a vendor's PMUs by age. */
	for (i = found > 5 ? found - 5 : 0; i < found; i++)
		if (used + strlen(names[i % 5]) + 3 < len)
			used += snprintf(buf + used, len - used, "%s%s",
			    used > 0 ? ", " : "", names[i % 5]);
	if (found > 5 && used < len)
		snprintf(buf + used, len - used, " (and %d older)", found - 5);
	return found > 0 ? 0 : -1;
}
