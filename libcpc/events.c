/*
 * events.c - the event catalogue: from a name a user typed to a perf
 * event.  Resolution order (the first match wins):
 *
 *	1. pmu/term=val,.../	a sysfs PMU event (msr/tsc/)
 *	2. system:event		a tracepoint
 *	3. generic names	perf's (cycles, task-clock, L1-dcache-...)
 *				and the Solaris PAPI_* names
 *	6. a raw code		0xc0, with umask/cmask/edge/inv/pc/anythr
 *
 * (Stages 4 and 5, the classic Solaris platform names and libpfm4's
 * native names, come with the full catalogue.)
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/perf_event.h>
#include <tracefs.h>

#include "backend.h"

#define SYSFS_PMUS	"/sys/bus/event_source/devices"
#define TRACEFS_MAGIC_NR	0x74726163
#define DEBUGFS_MAGIC_NR	0x64626720

/* Attributes of raw codes: x86 event-select fields. */
struct raw_attr {
	const char	*ra_name;
	uint64_t	 ra_max;
	int		 ra_shift;
};

static const struct raw_attr raw_attrs[] = {
	{ "umask", 0xff, 8 },
	{ "cmask", 0xff, 24 },
	{ "edge", 1, 18 },
	{ "inv", 1, 23 },
	{ "pc", 1, 19 },
	{ "anythr", 1, 21 },
};
#define NRAWATTR	(sizeof(raw_attrs) / sizeof(*raw_attrs))

/* LIBPFM_FORCE_PMU is set: the catalogue describes libpfm4's table. */
static int
forced_pmu(void)
{
	return cpc_pfm_forced() != NULL;
}

/*
 * Modifiers that libpfm4's Intel core tables offer beyond the event-select
 * fields above, passed to libpfm4 with the event's name (which checks
 * them against the event).  u, k, h and g are counting modes: nouser and
 * sys say those.  t_events checks this list against libpfm4's tables.
 */
static const char *const intel_mods[] = {
	"intx", "intxcp", "ldlat", "fe_thres", NULL
};

/* The attributes a request may carry on this processor. */
void
cpc_event_walk_attrs(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *attr))
{
	enum cpc_vendor v = cpc_vendor(cpc);
	size_t i;

	/* ARM's event numbers take no event-select fields. */
	if (v == CPC_VENDOR_ARM)
		return;
	for (i = 0; i < NRAWATTR; i++)
		fn(arg, raw_attrs[i].ra_name);
	if (!cpc->c_hwpmu && !forced_pmu())
		return;		/* no native events here */
	for (i = 0; v == CPC_VENDOR_INTEL && intel_mods[i] != NULL; i++)
		fn(arg, intel_mods[i]);
}

static int
is_modifier(cpc_t *cpc, const char *name)
{
	size_t i;

	for (i = 0; intel_mods[i] != NULL; i++)
		if (strcmp(name, intel_mods[i]) == 0)
			return cpc_vendor(cpc) == CPC_VENDOR_INTEL &&
			    (cpc->c_hwpmu || forced_pmu());
	return 0;
}

/* The kernel has a core PMU for the CPU (not just software events). */
int
cpc_hw_pmu_present(void)
{
	static const char *const fixed[] = { "cpu", "cpu_core", "cpu_atom" };
	char path[256];
	struct dirent *d;
	DIR *dir;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		snprintf(path, sizeof(path), SYSFS_PMUS "/%s", fixed[i]);
		if (access(path, F_OK) == 0)
			return 1;
	}
	if ((dir = opendir(SYSFS_PMUS)) == NULL)
		return 0;
	while (!found && (d = readdir(dir)) != NULL)
		found = strncmp(d->d_name, "armv8_", 6) == 0 ||
		    strncmp(d->d_name, "armv7_", 6) == 0 ||
		    strncmp(d->d_name, "arm_cortex", 10) == 0;
	closedir(dir);
	return found;
}

/*
 * The tracefs mount point, or NULL (errno ENOENT) when tracefs is not
 * mounted.  Checked with statfs so that an empty directory is not taken
 * for a mount.
 */
const char *
cpc_tracefs_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct statfs sf;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		if (statfs(dirs[i], &sf) == 0 &&
		    (unsigned long)sf.f_type == TRACEFS_MAGIC_NR)
			return dirs[i];
	errno = ENOENT;
	return NULL;
}

/*
 * Edit distance with adjacent transpositions, for suggestions, letter
 * case ignored when fold is set.
 */
static int
distance(const char *a, const char *b, int fold)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int d[CPC_MAX_ATTR_LEN * 3][CPC_MAX_ATTR_LEN * 3];

	if (la >= sizeof(d) / sizeof(*d) || lb >= sizeof(d) / sizeof(*d))
		return 1000;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int ai = fold ? tolower((unsigned char)a[i - 1]) :
			    a[i - 1];
			int bj = fold ? tolower((unsigned char)b[j - 1]) :
			    b[j - 1];
			int ai2 = i < 2 ? 0 : fold ?
			    tolower((unsigned char)a[i - 2]) : a[i - 2];
			int bj2 = j < 2 ? 0 : fold ?
			    tolower((unsigned char)b[j - 2]) : b[j - 2];
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + (ai != bj) < v)
				v = d[i - 1][j - 1] + (ai != bj);
			if (i > 1 && j > 1 && ai == bj2 && ai2 == bj &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * The best few close names, collected into a "did you mean" text.  Each
 * candidate is a name the catalogue accepts (shown), compared by a part
 * of it (key) with a part of the typed name (want): sched:sched_switch is
 * offered for sched_switch by its event part.  Closeness ignores letter
 * case, so a name typed in the wrong case has its right spelling first;
 * among equally close names, the closer in case come first.
 */
struct suggest {
	const char	*sg_typed;	/* never offered back */
	char		 sg_best[3][CPC_MAX_EVENT_LEN];
	int		 sg_dist[3];
	int		 sg_n;
};

static void
suggest_init(struct suggest *sg, const char *typed)
{
	memset(sg, 0, sizeof(*sg));
	sg->sg_typed = typed;
}

static void
suggest_offer(struct suggest *sg, const char *want, const char *key,
    const char *shown)
{
	int d, i, max;

	if (strlen(shown) >= sizeof(sg->sg_best[0]) ||
	    strcmp(shown, sg->sg_typed) == 0)
		return;
	d = distance(want, key, 1);
	max = (int)strlen(want) / 3 + 1;
	if (d > max)
		return;
	d = d * 1024 + distance(want, key, 0);
	for (i = 0; i < sg->sg_n; i++)
		if (strcmp(sg->sg_best[i], shown) == 0)
			return;
	if (sg->sg_n == 3 && d >= sg->sg_dist[2])
		return;
	for (i = sg->sg_n < 3 ? sg->sg_n++ : 2; i > 0 &&
	    sg->sg_dist[i - 1] > d; i--) {
		memcpy(sg->sg_best[i], sg->sg_best[i - 1],
		    sizeof(sg->sg_best[i]));
		sg->sg_dist[i] = sg->sg_dist[i - 1];
	}
	snprintf(sg->sg_best[i], sizeof(sg->sg_best[i]), "%s", shown);
	sg->sg_dist[i] = d;
}

/* A candidate compared as a whole with want. */
static void
suggest_name(struct suggest *sg, const char *want, const char *name)
{
	suggest_offer(sg, want, name, name);
}

static void
suggest_text(const struct suggest *sg, char *buf, size_t len)
{
	int i;
	size_t n;

	buf[0] = '\0';
	if (sg->sg_n == 0)
		return;
	snprintf(buf, len, "; did you mean ");
	for (i = 0; i < sg->sg_n; i++) {
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s'%s'", i == 0 ? "" :
		    i == sg->sg_n - 1 ? " or " : ", ", sg->sg_best[i]);
	}
	n = strlen(buf);
	snprintf(buf + n, len - n, "?");
}

static void
offer_generic(struct suggest *sg, const char *want)
{
	size_t i, c, o;
	char name[64];

	for (i = 0; i < cpc_nperf_names; i++)
		suggest_name(sg, want, cpc_perf_names[i].nm_name);
	for (i = 0; i < cpc_ngeneric_names; i++) {
		snprintf(name, sizeof(name), "PAPI_%s",
		    cpc_generic_names[i].gn_name);
		suggest_name(sg, want, name);
	}
	for (i = 0; i < cpc_nclassic_names; i++)
		suggest_name(sg, want, cpc_classic_names[i].cl_name);
	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++) {
			snprintf(name, sizeof(name), "%s-%s", cpc_cache_names[c],
			    cpc_cache_ops[o][0]);
			suggest_name(sg, want, name);
			snprintf(name, sizeof(name), "%s-%s", cpc_cache_names[c],
			    cpc_cache_ops[o][1]);
			suggest_name(sg, want, name);
		}
}

/* Native names, shown under the table's name when one was typed. */
struct native_offer {
	struct suggest	*no_sg;
	const char	*no_want;
	const char	*no_table;	/* "skl", or NULL */
};

static void
offer_native(void *arg, const char *name, const char *desc,
    enum cpc_pfm_how how)
{
	struct native_offer *no = arg;
	char shown[CPC_MAX_EVENT_LEN];

	(void)desc;
	(void)how;
	if (no->no_table == NULL) {
		suggest_name(no->no_sg, no->no_want, name);
		return;
	}
	snprintf(shown, sizeof(shown), "%s::%s", no->no_table, name);
	suggest_offer(no->no_sg, no->no_want, name, shown);
}

/* ---- stage 3: generic names ---- */

static int
lookup_perf(const char *name, struct cpc_event *ev)
{
	size_t i, c, o;
	int r;
	char buf[64];

	for (i = 0; i < cpc_nperf_names; i++)
		if (strcmp(name, cpc_perf_names[i].nm_name) == 0) {
			const struct cpc_named *ne = &cpc_perf_names[i];

			ev->ev_type = ne->nm_type;
			ev->ev_config = ne->nm_config;
			ev->ev_modes = ne->nm_modes;
			ev->ev_hw = ne->nm_type == PERF_TYPE_HARDWARE;
			ev->ev_kind = ev->ev_hw ? EVK_HARDWARE : EVK_SOFTWARE;
			return 0;
		}
	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(buf, sizeof(buf), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				if (strcmp(name, buf) != 0)
					continue;
				ev->ev_kind = EVK_HWCACHE;
				ev->ev_type = PERF_TYPE_HW_CACHE;
				ev->ev_config = c | o << 8 |
				    (uint64_t)(r ? PERF_COUNT_HW_CACHE_RESULT_MISS :
				    PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
				ev->ev_modes = 1;
				ev->ev_hw = 1;
				return 0;
			}
	return -1;
}

static void
no_pmu_error(cpc_t *cpc, const char *fn, const char *name)
{
	cpc_err(cpc, fn, CPC_INVALID_EVENT, "cannot count '%s': no hardware "
	    "PMU (virtual machine without a virtual PMU?); software events "
	    "and tracepoints can be counted instead, such as cpu-clock, "
	    "task-clock, context-switches, page-faults or "
	    "sched:sched_switch", name);
}

/* The catalogue's PMU has a native event for a generic name. */
static int
generic_native(cpc_t *cpc, const struct cpc_generic *g,
    struct cpc_event *ev)
{
	char cand[CPC_MAX_EVENT_LEN], *p, *save = NULL;
	struct cpc_pmu pmu;

	/* Without a PMU to count on, libpfm4 is not worth starting. */
	if (g->gn_native == NULL || (!cpc->c_hwpmu && !forced_pmu()) ||
	    cpc_pfm_pmu(cpc, &pmu) != 0)
		return -1;
	snprintf(cand, sizeof(cand), "%s", g->gn_native);
	for (p = strtok_r(cand, "|", &save); p != NULL;
	    p = strtok_r(NULL, "|", &save))
		if (cpc_pfm_lookup(cpc, NULL, p, ev) == 0)
			return 0;
	return -1;
}

/*
 * Stage 3: perf's names and PAPI_* (either spelling).  0 found; 1 not a
 * generic name; -1 reported.
 */
static int
lookup_generic(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const struct cpc_generic *g = NULL;
	struct cpc_pmu pmu;
	size_t i;

	if (strncasecmp(name, "PAPI_", 5) != 0)
		return lookup_perf(name, ev) == 0 ? 0 : 1;
	for (i = 0; i < cpc_ngeneric_names && g == NULL; i++)
		if (strcasecmp(name + 5, cpc_generic_names[i].gn_name) == 0)
			g = &cpc_generic_names[i];
	if (g == NULL)
		return 1;
	if (generic_native(cpc, g, ev) == 0)
		return 0;
	if (g->gn_perf != NULL && lookup_perf(g->gn_perf, ev) == 0)
		return 0;
	if (!cpc->c_hwpmu && !forced_pmu()) {
		no_pmu_error(cpc, fn, name);
		errno = ENOTSUP;
		return -1;
	}
	cpc_err(cpc, fn, CPC_INVALID_EVENT, "generic event '%s' (%s) has no "
	    "equivalent on this processor (%s); see generic_events(3)", name,
	    g->gn_desc, cpc_pfm_pmu(cpc, &pmu) == 0 ? pmu.pm_desc :
	    "no hardware PMU known to libpfm4");
	errno = ENOTSUP;
	return -1;
}

/* What a classic name stands for: a generic or a native name. */
static int
classic_target(cpc_t *cpc, const char *target, struct cpc_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (lookup_generic(cpc, NULL, target, ev) == 0)
		return 0;
	if (!cpc->c_hwpmu && !forced_pmu())
		return -1;
	return cpc_pfm_lookup(cpc, NULL, target, ev) == 0 ? 0 : -1;
}

/*
 * Stage 4: the classic Solaris names, each standing for another name; a
 * derived one counts the difference of two.  0, 1 or -1 as above.
 */
static int
lookup_classic(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const struct cpc_classic *cl = NULL;
	struct cpc_event sub;
	struct cpc_pmu pmu;
	size_t i;

	for (i = 0; i < cpc_nclassic_names && cl == NULL; i++)
		if (strcmp(name, cpc_classic_names[i].cl_name) == 0)
			cl = &cpc_classic_names[i];
	if (cl == NULL)
		return 1;
	if (classic_target(cpc, cl->cl_event, ev) != 0 ||
	    (cl->cl_minus != NULL &&
	    classic_target(cpc, cl->cl_minus, &sub) != 0)) {
		if (!cpc->c_hwpmu && !forced_pmu())
			no_pmu_error(cpc, fn, name);
		else
			cpc_err(cpc, fn, CPC_INVALID_EVENT, "'%s' (%s) "
			    "stands for %s%s%s, which this processor (%s) "
			    "cannot count", name, cl->cl_desc, cl->cl_event,
			    cl->cl_minus != NULL ? " minus " : "",
			    cl->cl_minus != NULL ? cl->cl_minus : "",
			    cpc_pfm_pmu(cpc, &pmu) == 0 ? pmu.pm_desc :
			    "not in libpfm4's tables");
		errno = ENOTSUP;
		return -1;
	}
	if (cl->cl_minus == NULL)
		return 0;
	ev->ev_derived = 1;
	ev->ev_sub.en_type = sub.ev_type;
	ev->ev_sub.en_config = sub.ev_config;
	ev->ev_sub.en_config1 = sub.ev_config1;
	ev->ev_sub.en_config2 = sub.ev_config2;
	return 0;
}

/* ---- stage 1: sysfs PMU events, pmu/term=val,.../ ---- */

static int
read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

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
    const char *sub, struct suggest *sg)
{
	char dirpath[512], shown[CPC_MAX_EVENT_LEN];
	size_t off = (size_t)(t->pt_text - pc->pc_name);	/* before */
	const char *rest = t->pt_text + strlen(t->pt_name);	/* after */
	struct dirent *d;
	DIR *dir;

	snprintf(dirpath, sizeof(dirpath), SYSFS_PMUS "/%s/%s", pc->pc_pmu,
	    sub);
	if ((dir = opendir(dirpath)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (!plain_term(d->d_name) || strchr(d->d_name, '.') != NULL)
			continue;
		snprintf(shown, sizeof(shown), "%.*s%s%s", (int)off,
		    pc->pc_name, d->d_name, rest);
		suggest_offer(sg, t->pt_name, d->d_name, shown);
	}
	closedir(dir);
}

/* Suggestions only for a term typed (depth 0), not one of an event's. */
static void
unknown_term(cpc_t *cpc, const char *fn, const struct pmu_ctx *pc,
    const struct pmu_term *t, int depth)
{
	char hint[3 * CPC_MAX_EVENT_LEN + 64] = "";
	struct suggest sg;

	if (depth == 0) {
		suggest_init(&sg, pc->pc_name);
		if (t->pt_val == NULL)
			offer_pmu_terms(pc, t, "events", &sg);
		offer_pmu_terms(pc, t, "format", &sg);
		suggest_text(&sg, hint, sizeof(hint));
	}
	cpc_err(cpc, fn, CPC_INVALID_EVENT, "PMU '%s' has no event or "
	    "format term '%s' (see " SYSFS_PMUS "/%s/events and format)%s",
	    pc->pc_pmu, t->pt_name, pc->pc_pmu, hint);
}

/* Split and check one term, and find what it names. */
static int
pmu_term_parse(cpc_t *cpc, const char *fn, const struct pmu_ctx *pc,
    int depth, struct pmu_term *t)
{
	const char *eq = memchr(t->pt_text, '=', t->pt_len);
	size_t n = eq != NULL ? (size_t)(eq - t->pt_text) : t->pt_len;
	char path[512], val[PMU_TERM_MAX + 1], *end;

	if (t->pt_len > PMU_TERM_MAX) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "PMU term '%.16s...' too "
		    "long (at most %d characters)", t->pt_text, PMU_TERM_MAX);
		return -1;
	}
	memcpy(t->pt_name, t->pt_text, n);
	t->pt_name[n] = '\0';
	if (!plain_term(t->pt_name)) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "PMU '%s' has no term "
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
			cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE,
			    "invalid value '%s' for term '%s' of PMU '%s'",
			    val, t->pt_name, pc->pc_pmu);
			return -1;
		}
	}
	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/format/%s", pc->pc_pmu,
	    t->pt_name);
	if (read_small(path, t->pt_file, sizeof(t->pt_file)) == 0)
		return 0;
	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/events/%s", pc->pc_pmu,
	    t->pt_name);
	if (eq == NULL && depth == 0 &&
	    read_small(path, t->pt_file, sizeof(t->pt_file)) == 0) {
		t->pt_event = 1;
		return 0;
	}
	unknown_term(cpc, fn, pc, t, depth);
	return -1;
}

/* Put a field's value into its bits. */
static int
pmu_term_apply(cpc_t *cpc, const char *fn, const char *pmu,
    const struct pmu_term *t, struct cpc_event *ev)
{
	int rc;

	if ((rc = apply_format(t->pt_file, t->pt_num, ev)) == 0)
		return 0;
	if (rc == -2)
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "value %llu of "
		    "term '%s' does not fit PMU '%s' (%s)",
		    (unsigned long long)t->pt_num, t->pt_name, pmu,
		    t->pt_file);
	else
		cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "cannot use format "
		    "'%s' of term '%s' of PMU '%s'", t->pt_file, t->pt_name,
		    pmu);
	return -1;
}

/* Two terms that may not go together: a field twice, or two events. */
static int
pmu_term_repeated(cpc_t *cpc, const char *fn, const char *pmu,
    const struct pmu_term *t, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (t[i].pt_event && t[j].pt_event) {
				cpc_err(cpc, fn, CPC_INVALID_EVENT, "'%s' and "
				    "'%s' are two events of PMU '%s': give "
				    "one", t[i].pt_name, t[j].pt_name, pmu);
				return -1;
			}
			if (!t[i].pt_event && !t[j].pt_event &&
			    strcmp(t[i].pt_name, t[j].pt_name) == 0) {
				cpc_err(cpc, fn, CPC_INVALID_EVENT, "term '%s' "
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
pmu_terms(cpc_t *cpc, const char *fn, const struct pmu_ctx *pc,
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
			cpc_err(cpc, fn, CPC_INVALID_EVENT, "empty term in "
			    "'%.*s' of PMU '%s'", (int)len, terms, pc->pc_pmu);
			goto out_free;
		}
		if (pmu_term_parse(cpc, fn, pc, depth, &t[i]) != 0)
			goto out_free;
	}
	if (pmu_term_repeated(cpc, fn, pc->pc_pmu, t, n) != 0)
		goto out_free;
	for (i = 0; i < n; i++)
		if (t[i].pt_event && pmu_terms(cpc, fn, pc, t[i].pt_file,
		    strlen(t[i].pt_file), depth + 1, ev) != 0)
			goto out_free;
	for (i = 0; i < n; i++)
		if (!t[i].pt_event &&
		    pmu_term_apply(cpc, fn, pc->pc_pmu, &t[i], ev) != 0)
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

static int
lookup_pmu(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	char pmu[128], path[256], buf[64], *slash, *end;
	size_t len = strlen(name);
	struct pmu_ctx pc;
	unsigned long type;

	slash = strchr(name, '/');
	if ((size_t)(slash - name) >= sizeof(pmu) || len < 3 ||
	    name[len - 1] != '/') {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "bad PMU event syntax "
		    "'%s' (expected pmu/term=value,.../)", name);
		return -1;
	}
	memcpy(pmu, name, slash - name);
	pmu[slash - name] = '\0';
	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/type", pmu);
	if (pmu[0] == '\0' || strchr(pmu, '.') != NULL ||
	    read_small(path, buf, sizeof(buf)) != 0) {
		/* The machine lacks it, not the name: as for cycles. */
		if (core_pmu(pmu) && !cpc->c_hwpmu) {
			no_pmu_error(cpc, fn, name);
			errno = ENOTSUP;
			return -1;
		}
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "unknown PMU '%s' in '%s' "
		    "(the PMUs are in " SYSFS_PMUS ")", pmu, name);
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
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "'%s' names no event of "
		    "PMU '%s'", name, pmu);
		return -1;
	}
	pc.pc_name = name;
	pc.pc_pmu = pmu;
	return pmu_terms(cpc, fn, &pc, slash + 1,
	    (size_t)(name + len - 1 - (slash + 1)), 0, ev);
}

/* ---- stage 2: tracepoints, system:event ---- */

/* The systems (sys NULL), or the events of system sys as sys:event. */
static void
offer_tracepoints(const char *dir, const char *sys, const char *want,
    struct suggest *sg)
{
	char **list, **p;

	if (sys == NULL) {
		if ((list = tracefs_event_systems(dir)) == NULL)
			return;
		for (p = list; *p != NULL; p++)
			suggest_name(sg, want, *p);
	} else {
		char full[CPC_MAX_EVENT_LEN];

		if ((list = tracefs_system_events(dir, sys)) == NULL)
			return;
		for (p = list; *p != NULL; p++) {
			snprintf(full, sizeof(full), "%s:%s", sys, *p);
			suggest_name(sg, want, full);
		}
	}
	tracefs_list_free(list);
}

/*
 * Every tracepoint, for a name no stage knew: compared as a whole with a
 * system:event name (SCHED:sched_switch), by its event part with a bare
 * name (sched_switch).  Read from available_events only here, on the way
 * to an error; nothing when tracefs is not there or not readable.
 */
static void
offer_all_tracepoints(const char *name, struct suggest *sg)
{
	const char *dir = cpc_tracefs_dir(), *colon;
	int bare = strchr(name, ':') == NULL;
	char path[512], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	if (dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/available_events", dir);
	if ((f = fopen(path, "re")) == NULL)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		suggest_offer(sg, name, bare ? colon + 1 : line, line);
	}
	free(line);
	fclose(f);
}

/* tracefs is there but this user may not read it. */
static int
no_access(cpc_t *cpc, const char *fn, const char *name, const char *path)
{
	cpc_err(cpc, fn, CPC_INVALID_EVENT, "cannot look up tracepoint '%s': "
	    "%s: %s (tracepoints need root)", name, path, strerror(EACCES));
	errno = EACCES;
	return -1;
}

static int
lookup_tracepoint(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	char sys[256], path[768], buf[32], hint[3 * CPC_MAX_EVENT_LEN + 64];
	const char *colon = strchr(name, ':'), *evn = colon + 1, *dir;
	struct suggest sg;
	struct stat st;
	char *end;

	/* No directory has a longer name (NAME_MAX). */
	if ((size_t)(colon - name) >= sizeof(sys)) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "unknown event: tracepoint "
		    "system name too long (at most %zu characters)",
		    sizeof(sys) - 1);
		return -1;
	}
	memcpy(sys, name, colon - name);
	sys[colon - name] = '\0';
	if ((dir = cpc_tracefs_dir()) == NULL) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "cannot look up "
		    "tracepoint '%s': tracefs is not mounted (as root: "
		    "mount -t tracefs nodev /sys/kernel/tracing)", name);
		errno = ENOSYS;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	if (stat(path, &st) != 0) {
		if (errno == EACCES)
			return no_access(cpc, fn, name, path);
		suggest_init(&sg, sys);
		offer_tracepoints(dir, NULL, sys, &sg);
		suggest_text(&sg, hint, sizeof(hint));
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "unknown event '%s': no "
		    "tracepoint system '%s'%s", name, sys, hint);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, evn);
	if (evn[0] == '\0' || strchr(evn, '/') != NULL ||
	    read_small(path, buf, sizeof(buf)) != 0) {
		if (errno == EACCES)
			return no_access(cpc, fn, name, path);
		suggest_init(&sg, name);
		offer_tracepoints(dir, sys, name, &sg);
		suggest_text(&sg, hint, sizeof(hint));
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "unknown event '%s': "
		    "system '%s' has no tracepoint '%s'%s", name, sys, evn,
		    hint);
		return -1;
	}
	memset(ev, 0, sizeof(*ev));
	ev->ev_kind = EVK_TRACEPOINT;
	ev->ev_type = PERF_TYPE_TRACEPOINT;
	ev->ev_config = strtoull(buf, &end, 10);
	return 0;
}

/* ---- stage 6: raw codes ---- */

/* 0 and ev filled; 1 not a raw code (no digit first); -1 reported. */
static int
lookup_raw(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	char *end;
	uint64_t code;

	if (!isdigit((unsigned char)name[0]))
		return 1;
	errno = 0;
	code = strtoull(name, &end, 0);
	if (*end != '\0') {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "invalid raw event code "
		    "'%s': not a decimal, 0x hexadecimal or 0 octal number",
		    name);
		return -1;
	}
	if (errno != 0) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "invalid raw event code "
		    "'%s': out of range (at most 0xffffffffffffffff)", name);
		return -1;
	}
	memset(ev, 0, sizeof(*ev));
	ev->ev_kind = EVK_RAW;
	ev->ev_type = PERF_TYPE_RAW;
	ev->ev_config = code;
	ev->ev_hw = 1;
	ev->ev_modes = 1;
	ev->ev_attrs = 1;
	return 0;
}

/*
 * Unknown everywhere: say so, with the closest names of every kind.  The
 * typed name is compared without its unit masks (INST_RETIRD:ANY_P by
 * INST_RETIRD) and without a table prefix: skl::INST_RETIRD gets
 * skl::INST_RETIRED, perf::cycles (libpfm4's perf table, which the
 * catalogue leaves to stage 3) gets cycles.
 */
static void
unknown_event(cpc_t *cpc, const char *fn, const char *name)
{
	char hint[3 * CPC_MAX_EVENT_LEN + 64];
	char where[256], base[CPC_MAX_EVENT_LEN], *colon;
	const char *sep = strstr(name, "::");
	struct native_offer no;
	struct cpc_pmu pmu;
	struct suggest sg;

	/* Another CPU's native name, or one of a CPU libpfm4 does not know. */
	if (cpc_pfm_where(name, where, sizeof(where)) == 0) {
		if (!cpc->c_hwpmu && !forced_pmu()) {
			cpc_err(cpc, fn, CPC_INVALID_EVENT, "cannot count "
			    "'%s': no hardware PMU (virtual machine without a "
			    "virtual PMU?); it is a libpfm4 event of %s", name,
			    where);
			errno = ENOTSUP;
		} else if (cpc_pfm_pmu(cpc, &pmu) == 0)
			cpc_err(cpc, fn, CPC_INVALID_EVENT, "'%s' is not an "
			    "event of this processor (%s): libpfm4 has it for "
			    "%s", name, pmu.pm_desc, where);
		else
			cpc_err(cpc, fn, CPC_INVALID_EVENT, "'%s' is a "
			    "libpfm4 event of %s, but libpfm4 does not know "
			    "this processor; use a raw code or the cpu PMU's "
			    "terms (cpu/event=0x..,umask=0x../)", name, where);
		return;
	}
	snprintf(base, sizeof(base), "%s", sep != NULL ? sep + 2 : name);
	if ((colon = strchr(base, ':')) != NULL)
		*colon = '\0';
	suggest_init(&sg, name);
	offer_generic(&sg, base);
	no.no_sg = &sg;
	no.no_want = base;
	no.no_table = NULL;
	if (sep != NULL && cpc_pfm_pmu(cpc, &pmu) == 0)
		no.no_table = pmu.pm_name;
	cpc_pfm_walk(cpc, 0, &no, offer_native);
	if (sep == NULL)
		offer_all_tracepoints(name, &sg);
	suggest_text(&sg, hint, sizeof(hint));
	cpc_err(cpc, fn, CPC_INVALID_EVENT, "unknown event '%s'%s", name,
	    hint);
}

static int
has_upper(const char *s, const char *end)
{
	for (; s < end; s++)
		if (isupper((unsigned char)*s))
			return 1;
	return 0;
}

/* A tracefs system of that name exists (tracefs mounted, dir there). */
static int
is_trace_system(const char *name)
{
	const char *dir = cpc_tracefs_dir(), *colon = strchr(name, ':');
	char path[512];
	struct stat st;

	if (dir == NULL || colon - name > 255)
		return 0;
	snprintf(path, sizeof(path), "%s/events/%.*s", dir,
	    (int)(colon - name), name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* system:event (one colon, neither part empty), or another name. */
static int
lookup_colon(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const char *colon = strchr(name, ':');
	int tp = colon > name && colon[1] != '\0';
	char where[256];
	int rc;

	if (tp && is_trace_system(name))
		return lookup_tracepoint(cpc, fn, name, ev);
	if ((rc = cpc_pfm_lookup(cpc, fn, name, ev)) != 1)
		return rc;
	/* Tracepoint systems are lower case; native names not. */
	if (!tp || cpc_pfm_where(name, where, sizeof(where)) == 0 ||
	    has_upper(name, colon)) {
		unknown_event(cpc, fn, name);
		return -1;
	}
	return lookup_tracepoint(cpc, fn, name, ev);
}

/*
 * Every stage, in order; 0 with ev filled, or -1 reported.  The kernel's
 * ability to count the result is not checked here.
 */
int
cpc_event_encode(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	int rc;

	memset(ev, 0, sizeof(*ev));
	if (name[0] == '\0') {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "empty event name");
		return -1;
	}
	if (strlen(name) >= CPC_MAX_EVENT_LEN) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "event name too long (at "
		    "most %d characters)", CPC_MAX_EVENT_LEN - 1);
		return -1;
	}
	if (strchr(name, '/') != NULL)
		return lookup_pmu(cpc, fn, name, ev);
	if (strstr(name, "::") != NULL) {
		if ((rc = cpc_pfm_lookup(cpc, fn, name, ev)) == 1)
			unknown_event(cpc, fn, name);
		return rc == 0 ? 0 : -1;
	}
	if (strchr(name, ':') != NULL)
		return lookup_colon(cpc, fn, name, ev);
	/* A number is never a native name: no libpfm4 for raw codes. */
	if ((rc = lookup_generic(cpc, fn, name, ev)) != 1 ||
	    (rc = lookup_classic(cpc, fn, name, ev)) != 1 ||
	    (rc = lookup_raw(cpc, fn, name, ev)) != 1)
		return rc;
	if ((rc = cpc_pfm_lookup(cpc, fn, name, ev)) != 1)
		return rc;
	unknown_event(cpc, fn, name);
	return -1;
}

static int
resolve(cpc_t *cpc, const char *fn, const char *name, struct cpc_event *ev)
{
	if (cpc_event_encode(cpc, fn, name, ev) != 0)
		return -1;
	if (ev->ev_hw && !cpc->c_hwpmu) {
		no_pmu_error(cpc, fn, name);
		errno = ENOTSUP;
		return -1;
	}
	return 0;
}

/*
 * Resolve name into ev, or report through the handler and return -1.
 * errno on failure: EINVAL for a name that is wrong; ENOSYS when tracefs
 * is missing, EACCES when it is not readable, ENOTSUP for a hardware event
 * on a machine without a hardware PMU (the name is right, the machine
 * cannot count it).
 */
int
cpc_event_resolve(cpc_t *cpc, const char *fn, const char *name,
    struct cpc_event *ev)
{
	int i, slow = strchr(name, '/') != NULL || strchr(name, ':') != NULL;

	/*
	 * cputrack builds a set per thread: remember the names that need
	 * tracefs or sysfs reads, so a new thread costs no file access.
	 */
	if (slow && strlen(name) < CPC_MAX_EVENT_LEN) {
		pthread_mutex_lock(&cpc->c_lock);
		for (i = 0; i < CPC_EVCACHE; i++)
			if (strcmp(cpc->c_evcache[i].ec_name, name) == 0) {
				*ev = cpc->c_evcache[i].ec_ev;
				pthread_mutex_unlock(&cpc->c_lock);
				return 0;
			}
		pthread_mutex_unlock(&cpc->c_lock);
	}
	errno = 0;
	if (resolve(cpc, fn, name, ev) == 0) {
		if (slow && strlen(name) < CPC_MAX_EVENT_LEN) {
			struct cpc_evcache *c;

			pthread_mutex_lock(&cpc->c_lock);
			c = &cpc->c_evcache[cpc->c_evnext];
			cpc->c_evnext = (cpc->c_evnext + 1) % CPC_EVCACHE;
			strcpy(c->ec_name, name);
			c->ec_ev = *ev;
			pthread_mutex_unlock(&cpc->c_lock);
		}
		return 0;
	}
	if (errno != ENOSYS && errno != EACCES && errno != ENOTSUP)
		errno = EINVAL;
	return -1;
}

/* The attribute names a request may carry here, for a message. */
static void
add_attr_name(void *arg, const char *attr)
{
	char *buf = arg;
	size_t n = strlen(buf);

	snprintf(buf + n, 256 - n, "%s%s", n > 0 ? " " : "", attr);
}

/*
 * libpfm4 modifiers go into the native name, which is encoded again:
 * INST_RETIRED:ANY_P with intx=1 becomes INST_RETIRED:ANY_P:intx=1.
 */
static int
apply_modifiers(cpc_t *cpc, const char *fn, struct cpc_request *req)
{
	char name[CPC_MAX_EVENT_LEN];
	struct cpc_event ev;
	size_t n;
	uint_t i;
	int any = 0;

	snprintf(name, sizeof(name), "%s", req->cr_event);
	for (i = 0; i < req->cr_nattrs; i++) {
		const cpc_attr_t *a = &req->cr_attrs[i];

		if (!is_modifier(cpc, a->ca_name))
			continue;
		if (req->cr_ev.ev_kind != EVK_NATIVE) {
			cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "attribute "
			    "'%s' is a libpfm4 modifier and applies only to "
			    "native events (such as INST_RETIRED:ANY_P), not "
			    "to '%s'", a->ca_name, req->cr_event);
			return -1;
		}
		n = strlen(name);
		if ((size_t)snprintf(name + n, sizeof(name) - n, ":%s=%llu",
		    a->ca_name, (unsigned long long)a->ca_val) >=
		    sizeof(name) - n) {
			cpc_err(cpc, fn, CPC_INVALID_EVENT, "event name too "
			    "long with its modifiers (at most %d characters)",
			    CPC_MAX_EVENT_LEN - 1);
			return -1;
		}
		any = 1;
	}
	if (!any)
		return 0;
	if (cpc_pfm_lookup(cpc, fn, name, &ev) != 0)
		return -1;
	req->cr_ev = ev;
	return 0;
}

/*
 * Check a request's attributes against its event and fold them into the
 * event's encoding.  "picnum" pins a request to a slot.
 */
int
cpc_event_apply_attrs(cpc_t *cpc, const char *fn, struct cpc_request *req)
{
	char known[256] = "";
	uint_t i;
	size_t k;

	if (apply_modifiers(cpc, fn, req) != 0)
		return -1;
	for (i = 0; i < req->cr_nattrs; i++) {
		const cpc_attr_t *a = &req->cr_attrs[i];

		if (strcmp(a->ca_name, "picnum") == 0) {
			if (a->ca_val >= cpc_npic(cpc)) {
				cpc_err(cpc, fn, CPC_INVALID_PICNUM, "counter "
				    "number %llu out of range (0-%u)",
				    (unsigned long long)a->ca_val,
				    cpc_npic(cpc) - 1);
				return -1;
			}
			req->cr_picnum = (int)a->ca_val;
			continue;
		}
		if (is_modifier(cpc, a->ca_name))
			continue;
		for (k = 0; k < NRAWATTR; k++)
			if (strcmp(a->ca_name, raw_attrs[k].ra_name) == 0)
				break;
		if (k == NRAWATTR || cpc_vendor(cpc) == CPC_VENDOR_ARM) {
			cpc_event_walk_attrs(cpc, known, add_attr_name);
			cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "unknown "
			    "attribute '%s' (known: picnum%s%s)", a->ca_name,
			    known[0] != '\0' ? " " : "", known);
			return -1;
		}
		if (!req->cr_ev.ev_attrs) {
			cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "attribute "
			    "'%s' applies only to raw event codes and x86 "
			    "native events, not to '%s'", a->ca_name,
			    req->cr_event);
			return -1;
		}
		if (a->ca_val > raw_attrs[k].ra_max) {
			cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE,
			    "attribute '%s' value %#llx out of range "
			    "(0-%#llx)", a->ca_name,
			    (unsigned long long)a->ca_val,
			    (unsigned long long)raw_attrs[k].ra_max);
			return -1;
		}
		req->cr_ev.ev_config &= ~(raw_attrs[k].ra_max <<
		    raw_attrs[k].ra_shift);
		req->cr_ev.ev_config |= a->ca_val << raw_attrs[k].ra_shift;
	}
	return 0;
}
