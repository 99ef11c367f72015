/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pmu.c - the catalogue's sysfs PMU events, in perf's syntax
 * pmu/term=val,.../ (msr/tsc/, cpu/event=0xc0,umask=0/): the PMU's type
 * and the terms' bit fields come from
 * /sys/bus/event_source/devices/PMU/{type,format,events}.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"

/*
 * Put val into the bit ranges of a format such as "config:0-7,32-35" or
 * "config1:3" (low bits of val first).
 */
static int
apply_format(const char *fmt, uint64_t val, struct cpc_event *ev)
{
	uint64_t *field;
	const char *p;
	char *end;
	int used = 0;

	if (strncmp(fmt, "config2:", 8) == 0) {
		field = &ev->ev_config2;
		p = fmt + 8;
	} else if (strncmp(fmt, "config1:", 8) == 0) {
		field = &ev->ev_config1;
		p = fmt + 8;
	} else if (strncmp(fmt, "config:", 7) == 0) {
		field = &ev->ev_config;
		p = fmt + 7;
	} else
		return -1;
	while (*p != '\0') {
		long lo = strtol(p, &end, 10), hi = lo;
		int b;

		if (end == p || lo < 0 || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 63)
				return -1;
			p = end;
		}
		for (b = (int)lo; b <= hi; b++, used++)
			if (val >> used & 1)
				*field |= 1ULL << b;
			else
				*field &= ~(1ULL << b);
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return -1;
	}
	if (used < 64 && (val >> used) != 0)
		return -2;		/* value wider than the field */
	return 0;
}

/*
 * The terms of pmu/term[=val],.../.  A term is a plain name (perf's
 * syntax: a letter or '_', then letters, digits, '_', '-', '.'), which
 * keeps a name such as ../../etc/hostname from becoming a path.  It is
 * either a field of the PMU's format directory or, without a value, an
 * event of its events directory, which stands for the terms in its file.
 * A field may be given once; one event at most, whose own fields the
 * fields given with it override (cpu/mem-loads,ldlat=50/).
 */
#define PMU_TERM_MAX	127

struct pmu_term {
	const char	*pt_text;	/* in the terms string, ',' ends it */
	size_t		 pt_len;
	char		 pt_name[PMU_TERM_MAX + 1];
	const char	*pt_val;	/* after '=', or NULL */
	uint64_t	 pt_num;
	int		 pt_event;	/* an event, not a format field */
	char		 pt_file[256];	/* the format, or the event's terms */
};

/* The name typed, whose terms a suggestion rewrites, and its PMU. */
struct pmu_ctx {
	const char	*pc_name;	/* msr/tsx/ */
	const char	*pc_pmu;	/* msr */
};

static int
plain_term(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return 0;
	return 1;
}

/* Each event and field of a PMU, offered in place of an unknown term. */
static void
offer_pmu_terms(const struct pmu_ctx *pc, const struct pmu_term *t,
    const char *sub, struct ev_suggest *sg)
{
	char dirpath[512], shown[CPC_MAX_EVENT_LEN];
	size_t off = (size_t)(t->pt_text - pc->pc_name);	/* before */
	const char *rest = t->pt_text + strlen(t->pt_name);	/* after */
	struct dirent *d;
	DIR *dir;

	snprintf(dirpath, sizeof(dirpath), CPC_SYSFS_PMUS "/%s/%s", pc->pc_pmu,
	    sub);
	if ((dir = opendir(dirpath)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (!plain_term(d->d_name) || strchr(d->d_name, '.') != NULL)
			continue;
		snprintf(shown, sizeof(shown), "%.*s%s%s", (int)off,
		    pc->pc_name, d->d_name, rest);
		ev_suggest_offer(sg, t->pt_name, d->d_name, shown);
	}
	closedir(dir);
}

/*
 * Suggestions only for a term typed (depth 0), not one of an event's,
 * and for a message that goes somewhere.
 */
static void
unknown_term(const struct ev_ctx *ec, const char *fn, const struct pmu_ctx *pc,
    const struct pmu_term *t, int depth)
{
	char hint[3 * CPC_MAX_EVENT_LEN + 64] = "";
	struct ev_suggest sg;

	if (depth == 0 && !ev_quiet(fn)) {
		ev_suggest_init(&sg, pc->pc_name);
		if (t->pt_val == NULL)
			offer_pmu_terms(pc, t, "events", &sg);
		offer_pmu_terms(pc, t, "format", &sg);
		ev_suggest_text(&sg, hint, sizeof(hint));
	}
	ev_err(ec, fn, CPC_INVALID_EVENT, "PMU '%s' has no event or "
	    "format term '%s' (see " CPC_SYSFS_PMUS "/%s/events and format)%s",
	    pc->pc_pmu, t->pt_name, pc->pc_pmu, hint);
	errno = EINVAL;
}

/* Split and check one term, and find what it names. */
static int
pmu_term_parse(const struct ev_ctx *ec, const char *fn,
    const struct pmu_ctx *pc, int depth, struct pmu_term *t)
{
	const char *eq = memchr(t->pt_text, '=', t->pt_len);
	size_t n = eq != NULL ? (size_t)(eq - t->pt_text) : t->pt_len;
	char path[512], val[PMU_TERM_MAX + 1], *end;

	if (t->pt_len > PMU_TERM_MAX) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "PMU term '%.16s...' too "
		    "long (at most %d characters)", t->pt_text, PMU_TERM_MAX);
		return -1;
	}
	memcpy(t->pt_name, t->pt_text, n);
	t->pt_name[n] = '\0';
	if (n == 0) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "PMU term '%.*s' of PMU "
		    "'%s' has no name (expected term=value)", (int)t->pt_len,
		    t->pt_text, pc->pc_pmu);
		return -1;
	}
	if (!plain_term(t->pt_name)) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "PMU '%s' has no term "
		    "'%s'", pc->pc_pmu, t->pt_name);
		return -1;
	}
	t->pt_num = 1;
	if (eq != NULL) {
		snprintf(val, sizeof(val), "%.*s", (int)(t->pt_len - n - 1),
		    eq + 1);
		t->pt_val = eq + 1;
		errno = 0;
		t->pt_num = strtoull(val, &end, 0);
		if (val[0] == '\0' || *end != '\0' || errno != 0 ||
		    !isdigit((unsigned char)val[0])) {
			ev_err(ec, fn, CPC_ATTRIBUTE_OUT_OF_RANGE,
			    "invalid value '%s' for term '%s' of PMU '%s'",
			    val, t->pt_name, pc->pc_pmu);
			return -1;
		}
	}
	snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s/format/%s", pc->pc_pmu,
	    t->pt_name);
	if (cpc_read_small(path, t->pt_file, sizeof(t->pt_file)) == 0)
		return 0;
	snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s/events/%s", pc->pc_pmu,
	    t->pt_name);
	if (eq == NULL && depth == 0 &&
	    cpc_read_small(path, t->pt_file, sizeof(t->pt_file)) == 0) {
		t->pt_event = 1;
		return 0;
	}
	unknown_term(ec, fn, pc, t, depth);
	return -1;
}

/* Put a field's value into its bits. */
static int
pmu_term_apply(const struct ev_ctx *ec, const char *fn, const char *pmu,
    const struct pmu_term *t, struct cpc_event *ev)
{
	int rc;

	if ((rc = apply_format(t->pt_file, t->pt_num, ev)) == 0)
		return 0;
	if (rc == -2)
		ev_err(ec, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "value %llu of "
		    "term '%s' does not fit PMU '%s' (%s)",
		    (unsigned long long)t->pt_num, t->pt_name, pmu,
		    t->pt_file);
	else
		ev_err(ec, fn, CPC_INVALID_ATTRIBUTE, "cannot use format "
		    "'%s' of term '%s' of PMU '%s'", t->pt_file, t->pt_name,
		    pmu);
	return -1;
}

/* Two terms that may not go together: a field twice, or two events. */
static int
pmu_term_repeated(const struct ev_ctx *ec, const char *fn, const char *pmu,
    const struct pmu_term *t, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (t[i].pt_event && t[j].pt_event) {
				ev_err(ec, fn, CPC_INVALID_EVENT, "'%s' and "
				    "'%s' are two events of PMU '%s': give "
				    "one", t[i].pt_name, t[j].pt_name, pmu);
				return -1;
			}
			if (!t[i].pt_event && !t[j].pt_event &&
			    strcmp(t[i].pt_name, t[j].pt_name) == 0) {
				ev_err(ec, fn, CPC_INVALID_EVENT, "term '%s' "
				    "of PMU '%s' given twice", t[i].pt_name,
				    pmu);
				return -1;
			}
		}
	return 0;
}

/*
 * Apply terms (len characters, ',' between them) to ev: the event's own
 * terms first, then the fields given.
 */
static int
pmu_terms(const struct ev_ctx *ec, const char *fn, const struct pmu_ctx *pc,
    const char *terms, size_t len, int depth, struct cpc_event *ev)
{
	struct pmu_term *t;
	const char *p = terms, *end = terms + len, *comma;
	size_t n = 1, i;
	int rc = -1;

	for (i = 0; i < len; i++)
		n += terms[i] == ',';
	if ((t = calloc(n, sizeof(*t))) == NULL)
		return -1;
	for (i = 0; i < n; i++, p = comma + 1) {
		if ((comma = memchr(p, ',', (size_t)(end - p))) == NULL)
			comma = end;
		t[i].pt_text = p;
		t[i].pt_len = (size_t)(comma - p);
		if (t[i].pt_len == 0) {
			ev_err(ec, fn, CPC_INVALID_EVENT, "empty term in "
			    "'%.*s' of PMU '%s'", (int)len, terms, pc->pc_pmu);
			goto out_free;
		}
		if (pmu_term_parse(ec, fn, pc, depth, &t[i]) != 0)
			goto out_free;
	}
	if (pmu_term_repeated(ec, fn, pc->pc_pmu, t, n) != 0)
		goto out_free;
	for (i = 0; i < n; i++)
		if (t[i].pt_event && pmu_terms(ec, fn, pc, t[i].pt_file,
		    strlen(t[i].pt_file), depth + 1, ev) != 0)
			goto out_free;
	for (i = 0; i < n; i++)
		if (!t[i].pt_event &&
		    pmu_term_apply(ec, fn, pc->pc_pmu, &t[i], ev) != 0)
			goto out_free;
	rc = 0;
out_free:
	free(t);
	return rc;
}

/* The kernel's PMU for the CPU: cpu, cpu_core, cpu_atom, armv8_pmuv3... */
static int
core_pmu(const char *pmu)
{
	return strcmp(pmu, "cpu") == 0 || strncmp(pmu, "cpu_", 4) == 0 ||
	    strncmp(pmu, "armv", 4) == 0 || strncmp(pmu, "arm_cortex", 10) == 0;
}

/*
 * pmu/term=val,.../: every name with a '/' is this kind's.  The terms
 * lie between the first '/' and the last, so a name whose only '/' ends
 * it (msr/) has none and no length: it is refused here, before the term
 * list's length is worked out from the two.
 */
static int
ev_pmu_lookup(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	char pmu[128], path[256], buf[64], *slash, *end;
	size_t len = strlen(name);
	struct pmu_ctx pc;
	unsigned long type;

	slash = strchr(name, '/');
	if ((size_t)(slash - name) >= sizeof(pmu) || len < 3 ||
	    name[len - 1] != '/' || slash == name + len - 1) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "bad PMU event syntax "
		    "'%s' (expected pmu/term=value,.../)", name);
		return -1;
	}
	memcpy(pmu, name, slash - name);
	pmu[slash - name] = '\0';
	snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s/type", pmu);
	if (pmu[0] == '\0' || strchr(pmu, '.') != NULL ||
	    cpc_read_small(path, buf, sizeof(buf)) != 0) {
		/* The machine lacks it, not the name: as for cycles. */
		if (core_pmu(pmu) && !ec->ec_hwpmu) {
			ev_no_pmu_error(ec, fn, name);
			errno = ENOTSUP;
			return -1;
		}
		ev_err(ec, fn, CPC_INVALID_EVENT, "unknown PMU '%s' in '%s' "
		    "(the PMUs are in " CPC_SYSFS_PMUS ")", pmu, name);
		return -1;
	}
	type = strtoul(buf, &end, 10);
	memset(ev, 0, sizeof(*ev));
	ev->ev_kind = EVK_PMU;
	ev->ev_type = (uint32_t)type;
	/* The core PMU honours user/kernel filtering; others may refuse it. */
	ev->ev_hw = core_pmu(pmu);
	ev->ev_modes = ev->ev_hw;
	if (slash + 1 == name + len - 1) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "'%s' names no event of "
		    "PMU '%s'", name, pmu);
		return -1;
	}
	pc.pc_name = name;
	pc.pc_pmu = pmu;
	return pmu_terms(ec, fn, &pc, slash + 1,
	    (size_t)(name + len - 1 - (slash + 1)), 0, ev);
}

/* ---- listing ---- */

/* The events of one sysfs PMU, "pmu/event/"; .scale and .unit skipped. */
static void
walk_pmu_events(const struct ev_ctx *ec, struct ev_walk *w, const char *pmu)
{
	char path[512], name[CPC_MAX_EVENT_LEN], terms[128];
	char desc[EV_DESC_LEN];
	struct dirent **ents = NULL;
	int i, n;

	snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s/events", pmu);
	if ((n = scandir(path, &ents, NULL, alphasort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (e[0] == '.' || strchr(e, '.') != NULL)
			continue;
		snprintf(name, sizeof(name), "%s/%s/", pmu, e);
		if (!w->ew_want(w, name))
			continue;
		snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s/events/%s",
		    pmu, e);
		if (cpc_read_small(path, terms, sizeof(terms)) != 0)
			terms[0] = '\0';
		snprintf(desc, sizeof(desc), "event of the %s PMU (%s)", pmu,
		    terms);
		ev_emit(ec, w, name, "pmu", desc, ev_pmu_lookup);
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
}

/* The events of every sysfs PMU, as --list-events shows them. */
static void
ev_pmu_walk(const struct ev_ctx *ec, struct ev_walk *w)
{
	struct dirent **ents = NULL;
	int i, n;

	if ((n = scandir(CPC_SYSFS_PMUS, &ents, NULL, alphasort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.')
			walk_pmu_events(ec, w, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
}

const struct ev_kind ev_kind_pmu = {
	.ek_name = "pmu",
	.ek_lookup = ev_pmu_lookup,
	.ek_walk = ev_pmu_walk,
	.ek_suggest = NULL,
};
