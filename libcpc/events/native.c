/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * native.c - the catalogue's native names: libpfm4's event names of the
 * CPU's PMU (INST_RETIRED:ANY_P, skl::INST_RETIRED:ANY_P), and the Intel
 * modifiers libpfm4 takes with them (intx, ldlat, ...).
 *
 * libpfm4 (platform/pfm.c) is started by the first native name only.  It
 * knows the PMU from CPUID, not from the kernel: whether the kernel can
 * count what it encodes is the caller's question (ec_hwpmu).
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

#include "catalogue.h"
#include "lazy.h"

/* What the catalogue makes of a native name of the table. */
enum pfm_how {
	HOW_ENCODES,		/* a name -c takes */
	HOW_NEEDS_UMASK,	/* an event that takes only EVENT:UMASK */
	HOW_REFUSED,		/* libpfm4 cannot encode it (another reason) */
};

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
pfm_report(const struct ev_ctx *ec, const char *fn, const char *name,
    int idx, int rc)
{
	char attrs[768];

	switch (rc) {
	case PFM_ERR_UMASK:
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
	case PFM_ERR_ATTR_SET:
		attr_list(idx, attrs, sizeof(attrs));
		ev_err(ec, fn, rc == PFM_ERR_ATTR_VAL ?
		    CPC_ATTRIBUTE_OUT_OF_RANGE : CPC_INVALID_EVENT, "event "
		    "'%s': %s (%s)", name, rc == PFM_ERR_UMASK ? "a unit mask "
		    "is required" : rc == PFM_ERR_ATTR ? "unknown unit mask or "
		    "modifier" : pfm_strerror(rc), attrs[0] != '\0' ? attrs :
		    "it takes none");
		break;
	case PFM_ERR_FEATCOMB:
		ev_err(ec, fn, CPC_INVALID_EVENT, "event '%s': these unit "
		    "masks or modifiers cannot be combined", name);
		break;
	default:
		ev_err(ec, fn, CPC_INVALID_EVENT, "event '%s': %s", name,
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
 * 1 when libpfm4 has no such event (nothing reported); -1 when the event
 * exists but the rest of the name is wrong (reported).
 */
int
ev_native_lookup(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	struct perf_event_attr attr;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char base[CPC_MAX_EVENT_LEN];
	int rc, idx;

	if (!cpc_pfm_ready())
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
		pfm_report(ec, fn, name, idx, rc);
		return -1;
	}
	/* The mode comes from the request's flags (nouser, sys), not u/k. */
	if (attr.exclude_user || attr.exclude_kernel) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "event '%s': give the "
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
static enum pfm_how
name_how(const pfm_pmu_info_t *pi, const char *evname)
{
	struct perf_event_attr attr;
	char name[CPC_MAX_EVENT_LEN];
	int rc;

	if ((size_t)snprintf(name, sizeof(name), "%s::%s", pi->name,
	    evname) >= sizeof(name))
		return HOW_REFUSED;
	rc = pfm_encode(name, &attr);
	return rc == PFM_SUCCESS ? HOW_ENCODES : rc == PFM_ERR_UMASK ?
	    HOW_NEEDS_UMASK : HOW_REFUSED;
}

/*
 * The native events of the catalogue's PMU; with PW_UMASKS each event's
 * unit masks too, as EVENT:UMASK (the default one marked in its text);
 * with PW_HOW, what the catalogue makes of each name, which costs an
 * encoding per name (without, how is HOW_ENCODES whatever the name).
 */
#define PW_UMASKS	1
#define PW_HOW		2

static void
pfm_walk(int what, void *arg, void (*fn)(void *arg, const char *name,
    const char *desc, enum pfm_how how))
{
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	char name[CPC_MAX_EVENT_LEN], desc[512];
	int i, a, core = cpc_pfm_core();

	if (core < 0)
		return;
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_pmu_info(core, &pi) != PFM_SUCCESS)
		return;
	for (i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS)
			continue;
		fn(arg, ei.name, ei.desc != NULL ? ei.desc : "",
		    what & PW_HOW ? name_how(&pi, ei.name) : HOW_ENCODES);
		for (a = 0; (what & PW_UMASKS) && a < ei.nattrs; a++) {
			memset(&ai, 0, sizeof(ai));
			ai.size = sizeof(ai);
			if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai) !=
			    PFM_SUCCESS || ai.type != PFM_ATTR_UMASK)
				continue;
			snprintf(name, sizeof(name), "%s:%s", ei.name, ai.name);
			snprintf(desc, sizeof(desc), "%s%s", ai.desc != NULL ?
			    ai.desc : "", ai.is_dfl ? " (the default)" : "");
			fn(arg, name, desc, what & PW_HOW ?
			    name_how(&pi, name) : HOW_ENCODES);
		}
	}
}

/*
 * ev_native_where's index: the event names of every core table libpfm4
 * has, active or not, each with its table; sorted by name, letter case
 * ignored, and for one name in libpfm4's order of the tables.  Made once
 * per process (the tables are libpfm4's static ones): looking through
 * every table for each name that no kind knew made such names cost
 * milliseconds.  Empty when memory ran short.
 */
struct where_ent {
	const char	*we_name;	/* libpfm4's event name */
	const char	*we_pmu;	/* its table's */
	int		 we_order;	/* the table's place in libpfm4's */
};

static pthread_once_t where_once = PTHREAD_ONCE_INIT;
static struct where_ent *where_ents;
static size_t where_n;

static int
where_cmp(const void *a, const void *b)
{
	const struct where_ent *x = a, *y = b;
	int c = strcasecmp(x->we_name, y->we_name);

	return c != 0 ? c : (x->we_order > y->we_order) -
	    (x->we_order < y->we_order);
}

static void
where_index(void)
{
	struct where_ent *ents = NULL, *grown;
	size_t n = 0, cap = 0;
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	int p, i;

	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS ||
		    pi.type != PFM_PMU_TYPE_CORE)
			continue;
		for (i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(i, PFM_OS_NONE, &ei) !=
			    PFM_SUCCESS)
				continue;
			if (n == cap) {
				cap = cap != 0 ? cap * 2 : 4096;
				if ((grown = realloc(ents, cap *
				    sizeof(*ents))) == NULL) {
					free(ents);
					return;
				}
				ents = grown;
			}
			ents[n].we_name = ei.name;
			ents[n].we_pmu = pi.name;
			ents[n++].we_order = p;
		}
	}
	qsort(ents, n, sizeof(*ents), where_cmp);
	where_ents = ents;
	where_n = n;
}

/* The first entry of the index named ev (any case), or NULL. */
static const struct where_ent *
where_first(const char *ev)
{
	size_t lo = 0, hi = where_n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcasecmp(where_ents[mid].we_name, ev) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < where_n && strcasecmp(where_ents[lo].we_name, ev) == 0 ?
	    &where_ents[lo] : NULL;
}

/*
 * A name libpfm4 did not find may belong to the table of a PMU that is
 * not active here (libpfm4 does not know this CPU, or it is another
 * CPU's name).
 */
int
ev_native_where(const char *name, char *buf, size_t len)
{
	char base[CPC_MAX_EVENT_LEN], pmu[64] = "";
	const char *ev = base, *sep, *names[5];
	const struct where_ent *e, *end;
	size_t used = 0;
	int i, found = 0, last = -1;

	buf[0] = '\0';
	if (!cpc_pfm_ready())
		return -1;
	pthread_once(&where_once, where_index);
	base_name(name, base, sizeof(base));
	if ((sep = strstr(base, "::")) != NULL) {
		snprintf(pmu, sizeof(pmu), "%.*s", (int)(sep - base), base);
		ev = sep + 2;
	}
	/* Each table that has the name once, in libpfm4's order. */
	end = where_ents + where_n;
	for (e = where_first(ev); e != NULL && e < end &&
	    strcasecmp(e->we_name, ev) == 0; e++) {
		if (e->we_order == last ||
		    (pmu[0] != '\0' && strcmp(pmu, e->we_pmu) != 0))
			continue;
		last = e->we_order;
		names[found++ % 5] = e->we_pmu;
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

/* ---- modifiers ---- */

/*
 * Modifiers that libpfm4's Intel core tables offer beyond the event-select
 * fields of raw codes, passed to libpfm4 with the event's name (which checks
 * them against the event).  u, k, h and g are counting modes: nouser and
 * sys say those.  t_events checks this list against libpfm4's tables.
 */
static const char *const intel_mods[] = {
	"intx", "intxcp", "ldlat", "fe_thres", NULL
};

int
ev_native_is_modifier(const struct ev_ctx *ec, const char *name)
{
	size_t i;

	for (i = 0; intel_mods[i] != NULL; i++)
		if (strcmp(name, intel_mods[i]) == 0)
			return ev_vendor(ec) == CPC_VENDOR_INTEL &&
			    ev_hw_known(ec);
	return 0;
}

/* The modifiers of the catalogue's PMU (Intel's; none elsewhere). */
void
ev_native_modifiers(const struct ev_ctx *ec, void *arg,
    void (*fn)(void *arg, const char *attr))
{
	size_t i;

	if (!ev_hw_known(ec) || ev_vendor(ec) != CPC_VENDOR_INTEL)
		return;		/* no native events here */
	for (i = 0; intel_mods[i] != NULL; i++)
		fn(arg, intel_mods[i]);
}

/*
 * libpfm4 modifiers go into the native name, which is encoded again:
 * INST_RETIRED:ANY_P with intx=1 becomes INST_RETIRED:ANY_P:intx=1.
 */
int
ev_native_modify(const struct ev_ctx *ec, const char *fn, const char *event,
    const cpc_attr_t *attrs, uint_t nattrs, struct cpc_event *ev)
{
	char name[CPC_MAX_EVENT_LEN];
	struct cpc_event mod;
	size_t n;
	uint_t i;
	int any = 0;

	for (i = 0; i < nattrs; i++) {
		const cpc_attr_t *a = &attrs[i];

		if (!ev_native_is_modifier(ec, a->ca_name))
			continue;
		if (ev->ev_kind != EVK_NATIVE) {
			ev_err(ec, fn, CPC_INVALID_ATTRIBUTE, "attribute "
			    "'%s' is a libpfm4 modifier and applies only to "
			    "native events (such as INST_RETIRED:ANY_P), not "
			    "to '%s'", a->ca_name, event);
			return -1;
		}
		if (!any)
			snprintf(name, sizeof(name), "%s", event);
		n = strlen(name);
		if ((size_t)snprintf(name + n, sizeof(name) - n, ":%s=%llu",
		    a->ca_name, (unsigned long long)a->ca_val) >=
		    sizeof(name) - n) {
			ev_err(ec, fn, CPC_INVALID_EVENT, "event name too "
			    "long with its modifiers (at most %d characters)",
			    CPC_MAX_EVENT_LEN - 1);
			return -1;
		}
		any = 1;
	}
	if (!any)
		return 0;
	if (ev_native_lookup(ec, fn, name, &mod) != 0)
		return -1;
	*ev = mod;
	return 0;
}

/* ---- suggestions and listing ---- */

/*
 * The native names offered for an unknown one, made once per process
 * (the catalogue's table does not change): each with its sketch, and as
 * shown under the table's name (skl::INST_RETIRED) when one was typed.
 * Walking libpfm4's table for each unknown name made it cost more than
 * the rest of the catalogue together.  Empty when memory ran short.
 */
static pthread_once_t names_once = PTHREAD_ONCE_INIT;
static struct ev_cand *names, *tabled;	/* tabled: "skl::NAME" shown */
static size_t nnames, names_cap;
static int names_short;		/* out of memory while made */

static void
add_name(void *arg, const char *name, const char *desc, enum pfm_how how)
{
	const struct cpc_pmu *pmu = arg;
	struct ev_cand *grown;
	char *shown;

	(void)desc;
	(void)how;
	if (names_short)
		return;
	if (nnames == names_cap) {
		size_t cap = names_cap != 0 ? names_cap * 2 : 512;

		if ((grown = realloc(names, cap * sizeof(*grown))) == NULL)
			goto out_short;
		names = grown;
		if ((grown = realloc(tabled, cap * sizeof(*grown))) == NULL)
			goto out_short;
		tabled = grown;
		names_cap = cap;
	}
	if (asprintf(&shown, "%s::%s", pmu != NULL ? pmu->pm_name : "",
	    name) < 0)
		goto out_short;
	ev_cand_set(&names[nnames], name, name);
	ev_cand_set(&tabled[nnames++], name, shown);
	return;
out_short:
	names_short = 1;
}

static void
names_make(void)
{
	struct cpc_pmu pmu;
	int described = cpc_pfm_describe(&pmu) == 0;
	size_t i;

	pfm_walk(0, described ? &pmu : NULL, add_name);
	for (i = 0; (names_short || !described) && i < nnames; i++)
		free((char *)tabled[i].cd_shown);
	if (!described) {		/* shown without the table's name */
		free(tabled);
		tabled = NULL;
	}
	if (names_short) {
		free(names);
		free(tabled);
		names = tabled = NULL;
		nnames = 0;
	}
}

/*
 * Native names close to want, shown with the table's name when the name
 * typed had one (skl::INST_RETIRD gets skl::INST_RETIRED).
 */
static void
ev_native_suggest(const struct ev_ctx *ec, struct ev_suggest *sg,
    const char *name, const char *want)
{
	(void)ec;
	pthread_once(&names_once, names_make);
	ev_suggest_offer_list(sg, want, strstr(name, "::") != NULL &&
	    tabled != NULL ? tabled : names, nnames);
}

/* libpfm4's descriptions may run over several sentences: keep the line. */
static void
one_line(const char *in, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", in);
	for (i = 0; buf[i] != '\0'; i++)
		if (buf[i] == '\n' || buf[i] == '\t' || buf[i] == '\r')
			buf[i] = ' ';
}

struct native_walk {
	const struct ev_ctx	*nw_ec;
	struct ev_walk		*nw_w;
};

/*
 * A native name that -c refuses is listed (its unit masks follow it) and
 * says why at the end of its description, which is cut to make room.
 */
static void
native_event(void *arg, const char *name, const char *desc,
    enum pfm_how how)
{
	static const char *const why[] = {
		[HOW_ENCODES] = "",
		[HOW_NEEDS_UMASK] = " (needs a unit mask: one of the "
		    "EVENT:UMASK lines below)",
		[HOW_REFUSED] = " (libpfm4 cannot encode it)",
	};
	const struct native_walk *nw = arg;
	char line[EV_DESC_LEN];
	size_t room;

	if (!nw->nw_w->ew_want(nw->nw_w, name))
		return;
	if (how == HOW_NEEDS_UMASK && strchr(name, ':') != NULL)
		how = HOW_REFUSED;	/* a unit mask that needs another */
	room = sizeof(line) - strlen(why[how]);
	one_line(desc, line, room);
	strcat(line, why[how]);
	ev_emit(nw->nw_ec, nw->nw_w, name, "native", line, ev_native_lookup);
}

/* Every native name and its unit masks, as --list-events shows them. */
static void
ev_native_walk(const struct ev_ctx *ec, struct ev_walk *w)
{
	struct native_walk nw = { ec, w };

	pfm_walk(PW_UMASKS | PW_HOW, &nw, native_event);
}

struct name_walk {
	void	 *nw_arg;
	void	(*nw_fn)(void *, const char *);
};

/* Only names -c takes: not an event that needs one of its unit masks. */
static void
name_adapter(void *arg, const char *name, const char *desc,
    enum pfm_how how)
{
	struct name_walk *nw = arg;

	(void)desc;
	if (how == HOW_ENCODES)
		nw->nw_fn(nw->nw_arg, name);
}

void
ev_native_names(void *arg, void (*fn)(void *arg, const char *name))
{
	struct name_walk nw = { arg, fn };

	pfm_walk(PW_HOW, &nw, name_adapter);
}

const struct ev_kind ev_kind_native = {
	.ek_name = "native",
	.ek_lookup = ev_native_lookup,
	.ek_walk = ev_native_walk,
	.ek_suggest = ev_native_suggest,
};
