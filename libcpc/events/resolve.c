/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * resolve.c - the catalogue's front door: a name typed by a user, tried
 * against each kind of name in the order of the table below; the message
 * for a name no kind knows, with the closest names of every kind; and the
 * attributes a request may carry.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "catalogue.h"

/* The forms a name can take: each kind looks at some of them. */
enum {
	SYN_PMU = 1,		/* has a '/': pmu/term=val,.../ */
	SYN_TABLE = 2,		/* has "::": a libpfm4 table's name */
	SYN_COLON = 4,		/* has a ':': system:event, EVENT:UMASK */
	SYN_PLAIN = 8,		/* none of those */
};

/*
 * The resolution order: each kind that takes the name's form is asked in
 * turn, and the first that knows the name (or knows it is wrong and said
 * so) ends the search.  design.md numbers the kinds 1-6; raw codes come
 * before libpfm4's names here because no native name starts with a digit
 * and a raw code must not start libpfm4.  The last row takes what looks
 * like a tracepoint of a system tracefs lacks, to say so.
 */
static const struct {
	int			 st_forms;
	const struct ev_kind	*st_kind;
	ev_lookup_fn		*st_lookup;	/* NULL: the kind's */
} stages[] = {
	{ SYN_PMU,				&ev_kind_pmu, NULL },
	{ SYN_COLON,				&ev_kind_tracepoint, NULL },
	{ SYN_PLAIN,				&ev_kind_generic, NULL },
	{ SYN_PLAIN,				&ev_kind_classic, NULL },
	{ SYN_PLAIN,				&ev_kind_raw, NULL },
	{ SYN_PLAIN | SYN_COLON | SYN_TABLE,	&ev_kind_native, NULL },
	{ SYN_COLON,				&ev_kind_tracepoint,
						ev_tp_explain },
};
#define NSTAGES	(sizeof(stages) / sizeof(*stages))

/*
 * The order of the listing (--list-events) and of the names offered for
 * an unknown one: perf's and the generic names first.
 */
static const struct ev_kind *const shown[] = {
	&ev_kind_generic, &ev_kind_classic, &ev_kind_native, &ev_kind_pmu,
	&ev_kind_tracepoint, &ev_kind_raw,
};
#define NSHOWN	(sizeof(shown) / sizeof(*shown))

static int
form(const char *name)
{
	if (strchr(name, '/') != NULL)
		return SYN_PMU;
	if (strstr(name, "::") != NULL)
		return SYN_TABLE;
	return strchr(name, ':') != NULL ? SYN_COLON : SYN_PLAIN;
}

/*
 * Unknown everywhere: say so, with the closest names of every kind.  The
 * typed name is compared without its unit masks (INST_RETIRD:ANY_P by
 * INST_RETIRD) and without a table prefix: skl::INST_RETIRD gets
 * skl::INST_RETIRED, perf::cycles (libpfm4's perf table, which the
 * catalogue leaves to stage 3) gets cycles.  The close names are looked
 * for only when the message goes somewhere (not for a quiet probe); the
 * files read for them leave errno alone: the name is EINVAL.
 */
static void
unknown_event(const struct ev_ctx *ec, const char *fn, const char *name)
{
	char hint[3 * CPC_MAX_EVENT_LEN + 64];
	char where[256], base[CPC_MAX_EVENT_LEN], *colon;
	const char *sep = strstr(name, "::");
	struct cpc_pmu pmu;
	struct ev_suggest sg;
	size_t i;

	/* Another CPU's native name, or one of a CPU libpfm4 does not know. */
	if (ev_native_where(name, where, sizeof(where)) == 0) {
		if (!ev_hw_known(ec)) {
			ev_err(ec, fn, CPC_INVALID_EVENT, "cannot count "
			    "'%s': no hardware PMU (virtual machine without a "
			    "virtual PMU?); it is a libpfm4 event of %s", name,
			    where);
			errno = ENOTSUP;
			return;
		}
		if (cpc_pfm_describe(&pmu) == 0)
			ev_err(ec, fn, CPC_INVALID_EVENT, "'%s' is not an "
			    "event of this processor (%s): libpfm4 has it for "
			    "%s", name, pmu.pm_desc, where);
		else
			ev_err(ec, fn, CPC_INVALID_EVENT, "'%s' is a "
			    "libpfm4 event of %s, but libpfm4 does not know "
			    "this processor; use a raw code or the cpu PMU's "
			    "terms (cpu/event=0x..,umask=0x../)", name, where);
		goto out;
	}
	if (ev_quiet(fn))
		goto out;
	snprintf(base, sizeof(base), "%s", sep != NULL ? sep + 2 : name);
	if ((colon = strchr(base, ':')) != NULL)
		*colon = '\0';
	ev_suggest_init(&sg, name);
	for (i = 0; i < NSHOWN; i++)
		if (shown[i]->ek_suggest != NULL)
			shown[i]->ek_suggest(ec, &sg, name, base);
	ev_suggest_text(&sg, hint, sizeof(hint));
	ev_err(ec, fn, CPC_INVALID_EVENT, "unknown event '%s'%s", name,
	    hint);
out:
	errno = EINVAL;
}

int
ev_encode(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	int f, rc;
	size_t i;

	memset(ev, 0, sizeof(*ev));
	if (name[0] == '\0') {
		ev_err(ec, fn, CPC_INVALID_EVENT, "empty event name");
		return -1;
	}
	if (strlen(name) >= CPC_MAX_EVENT_LEN) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "event name too long (at "
		    "most %d characters)", CPC_MAX_EVENT_LEN - 1);
		return -1;
	}
	f = form(name);
	for (i = 0; i < NSTAGES; i++) {
		ev_lookup_fn *lookup = stages[i].st_lookup != NULL ?
		    stages[i].st_lookup : stages[i].st_kind->ek_lookup;

		if ((stages[i].st_forms & f) != 0 &&
		    (rc = lookup(ec, fn, name, ev)) != 1)
			return rc;
	}
	unknown_event(ec, fn, name);
	return -1;
}

void
ev_walk_all(const struct ev_ctx *ec, struct ev_walk *w)
{
	size_t i;

	for (i = 0; i < NSHOWN; i++)
		if (shown[i]->ek_walk != NULL)
			shown[i]->ek_walk(ec, w);
}

/* ---- attributes ---- */

/* The attributes a request may carry on this processor. */
void
ev_walk_attrs(const struct ev_ctx *ec, void *arg,
    void (*fn)(void *arg, const char *attr))
{
	/* ARM's event numbers take no event-select fields. */
	if (ev_vendor(ec) == CPC_VENDOR_ARM)
		return;
	ev_raw_attrs(arg, fn);
	ev_native_modifiers(ec, arg, fn);
}

/* The attribute names a request may carry here, for a message. */
static void
add_attr_name(void *arg, const char *attr)
{
	char *buf = arg;
	size_t n = strlen(buf);

	snprintf(buf + n, 256 - n, "%s%s", n > 0 ? " " : "", attr);
}

int
ev_apply_attrs(const struct ev_ctx *ec, const char *fn, const char *event,
    const cpc_attr_t *attrs, uint_t nattrs, struct cpc_event *ev,
    int *picnum)
{
	const struct ev_raw_attr *ra;
	char known[256] = "";
	uint_t i;

	if (ev_native_modify(ec, fn, event, attrs, nattrs, ev) != 0)
		return -1;
	for (i = 0; i < nattrs; i++) {
		const cpc_attr_t *a = &attrs[i];

		if (strcmp(a->ca_name, "picnum") == 0) {
			if (a->ca_val >= ev_npic(ec)) {
				ev_err(ec, fn, CPC_INVALID_PICNUM, "counter "
				    "number %llu out of range (0-%u)",
				    (unsigned long long)a->ca_val,
				    ev_npic(ec) - 1);
				return -1;
			}
			*picnum = (int)a->ca_val;
			continue;
		}
		if (ev_native_is_modifier(ec, a->ca_name))
			continue;
		ra = ev_raw_attr(a->ca_name);
		if (ra == NULL || ev_vendor(ec) == CPC_VENDOR_ARM) {
			ev_walk_attrs(ec, known, add_attr_name);
			ev_err(ec, fn, CPC_INVALID_ATTRIBUTE, "unknown "
			    "attribute '%s' (known: picnum%s%s)", a->ca_name,
			    known[0] != '\0' ? " " : "", known);
			return -1;
		}
		if (!ev->ev_attrs) {
			ev_err(ec, fn, CPC_INVALID_ATTRIBUTE, "attribute "
			    "'%s' applies only to raw event codes and x86 "
			    "native events, not to '%s'", a->ca_name, event);
			return -1;
		}
		if (a->ca_val > ra->ra_max) {
			ev_err(ec, fn, CPC_ATTRIBUTE_OUT_OF_RANGE,
			    "attribute '%s' value %#llx out of range "
			    "(0-%#llx)", a->ca_name,
			    (unsigned long long)a->ca_val,
			    (unsigned long long)ra->ra_max);
			return -1;
		}
		ev->ev_config &= ~(ra->ra_max << ra->ra_shift);
		ev->ev_config |= a->ca_val << ra->ra_shift;
	}
	return 0;
}
