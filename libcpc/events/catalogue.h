/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * catalogue.h - the event catalogue: from a name a user typed to a perf
 * event, every name that can be typed, and the close names offered for
 * a name that is not one.  One file per kind of name:
 *
 *	pmu.c		pmu/term=val,.../	a sysfs PMU event (msr/tsc/)
 *	tracepoint.c	system:event		a tracefs tracepoint
 *	generic.c	cycles, PAPI_tot_cyc	perf's and Solaris's generics
 *	classic.c	EC_ref, EC_hit		classic Solaris platform names
 *	raw.c		0xc0,umask=1		a raw event-select code
 *	native.c	INST_RETIRED:ANY_P	libpfm4's names of the CPU's PMU
 *
 * and resolve.c, the front door: the resolution order (one table), the
 * message for an unknown name, and request attributes.  suggest.c ranks
 * close names for that message.
 *
 * The catalogue sits between libcpc's API objects and the platform: it
 * knows no handle, set or request.  What it needs of the handle comes in
 * a struct ev_ctx: where messages go, and the platform's facts.
 */
#ifndef CPC_CATALOGUE_H
#define CPC_CATALOGUE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libcpc.h"
#include "platform.h"

/* What an event name resolved to. */
enum cpc_evkind {
	EVK_HARDWARE,		/* PERF_TYPE_HARDWARE */
	EVK_HWCACHE,		/* PERF_TYPE_HW_CACHE */
	EVK_SOFTWARE,		/* PERF_TYPE_SOFTWARE */
	EVK_TRACEPOINT,		/* PERF_TYPE_TRACEPOINT */
	EVK_PMU,		/* a sysfs PMU: pmu/term=val/ */
	EVK_RAW,		/* PERF_TYPE_RAW */
	EVK_NATIVE,		/* a libpfm4 name of the CPU's PMU */
};

/* A perf encoding: the attr fields that name an event. */
struct cpc_enc {
	uint32_t	en_type;
	uint64_t	en_config;
	uint64_t	en_config1;
	uint64_t	en_config2;
};

struct cpc_event {
	enum cpc_evkind	ev_kind;
	uint32_t	ev_type;	/* perf_event_attr.type */
	uint64_t	ev_config;
	uint64_t	ev_config1;
	uint64_t	ev_config2;
	unsigned	ev_modes:1;	/* user/system flags apply */
	unsigned	ev_hw:1;	/* needs a hardware counter */
	unsigned	ev_attrs:1;	/* takes umask/cmask/... */
	unsigned	ev_derived:1;	/* the count is this minus ev_sub */
	struct cpc_enc	ev_sub;		/* ev_derived: a second counter */
};

/* What the catalogue is told of its caller. */
struct ev_ctx {
	cpc_errhndlr_t	*ec_errfn;	/* messages; NULL: the default */
	int		 ec_hwpmu;	/* the kernel has a core PMU */
	/* The platform's facts, worked out on the first call. */
	const struct cpc_platform *(*ec_platform)(void *arg);
	void		*ec_arg;
};

#define ev_err(ec, ...)	cpc_report((ec)->ec_errfn, __VA_ARGS__)
/*
 * fn NULL: a quiet probe, whose messages go nowhere (cpc_report), so
 * that what only a message needs (close names) need not be worked out.
 */
#define ev_quiet(fn)	((fn) == NULL)
#define ev_vendor(ec)	((ec)->ec_platform((ec)->ec_arg)->pf_vendor)
#define ev_npic(ec)	((ec)->ec_platform((ec)->ec_arg)->pf_npic)
/* Hardware names are known: a PMU, or LIBPFM_FORCE_PMU's table. */
#define ev_hw_known(ec)	((ec)->ec_hwpmu || cpc_pfm_forced() != NULL)

/* ---- resolve.c: the front door ---- */

/*
 * Every kind, in the resolution order; 0 with ev filled, or -1 reported
 * (fn NULL: quietly) with errno EINVAL, or ENOSYS (tracefs missing),
 * EACCES (tracefs unreadable), ENOTSUP (a name this machine lacks).
 * Whether the kernel can count the result is not checked.
 */
int	ev_encode(const struct ev_ctx *ec, const char *fn, const char *name,
	    struct cpc_event *ev);
/*
 * Check a request's attributes against its event and fold them into ev;
 * "picnum" pins the request to a slot (*picnum, else left alone).
 */
int	ev_apply_attrs(const struct ev_ctx *ec, const char *fn,
	    const char *event, const cpc_attr_t *attrs, uint_t nattrs,
	    struct cpc_event *ev, int *picnum);
/* The attribute names a request may carry on this processor. */
void	ev_walk_attrs(const struct ev_ctx *ec, void *arg,
	    void (*fn)(void *arg, const char *attr));

/*
 * Listing: a kind's walker offers each of its names to ew_want (the
 * pattern) before it works out the rest, then emits it with its kind,
 * a description and its encoding (NULL: it does not encode here).
 */
struct ev_walk {
	int	(*ew_want)(struct ev_walk *w, const char *name);
	/* shared: one test of ev stands for every name emitted so. */
	void	(*ew_emit)(struct ev_walk *w, const char *name,
		    const char *kind, const char *desc,
		    const struct cpc_event *ev, int shared);
};
#define EV_DESC_LEN	256

typedef int ev_lookup_fn(const struct ev_ctx *ec, const char *fn,
    const char *name, struct cpc_event *ev);

/* Emit a name with what lookup makes of it. */
static inline void
ev_emit(const struct ev_ctx *ec, struct ev_walk *w, const char *name,
    const char *kind, const char *desc, ev_lookup_fn *lookup)
{
	struct cpc_event ev;

	memset(&ev, 0, sizeof(ev));
	w->ew_emit(w, name, kind, desc,
	    lookup(ec, NULL, name, &ev) == 0 ? &ev : NULL, 0);
}

/* A hardware event named on a machine without a hardware PMU. */
static inline void
ev_no_pmu_error(const struct ev_ctx *ec, const char *fn, const char *name)
{
	ev_err(ec, fn, CPC_INVALID_EVENT, "cannot count '%s': no hardware "
	    "PMU (virtual machine without a virtual PMU?); software events "
	    "and tracepoints can be counted instead, such as cpu-clock, "
	    "task-clock, context-switches, page-faults or "
	    "sched:sched_switch", name);
}

/* ---- suggest.c: close names for an unknown one ---- */

/* What rules a name out quickly: its length and its letters. */
struct ev_sketch {
	size_t		 sk_len;
	uint64_t	 sk_mask;
};
void	ev_sketch(const char *s, struct ev_sketch *sk);

struct ev_suggest {
	const char	*sg_typed;	/* never offered back */
	char		 sg_best[3][CPC_MAX_EVENT_LEN];
	int		 sg_dist[3];
	int		 sg_n;
	const char	*sg_want;	/* the last want, */
	struct ev_sketch sg_wsk;	/* and its sketch */
};
void	ev_suggest_init(struct ev_suggest *sg, const char *typed);
/* A candidate shown as shown, compared by key with want. */
void	ev_suggest_offer(struct ev_suggest *sg, const char *want,
	    const char *key, const char *shown);
/*
 * A candidate offered for name after name, made once: shown as cd_shown,
 * compared by cd_key, whose sketch is cd_sk (ev_cand_set).
 */
struct ev_cand {
	const char	*cd_shown;
	const char	*cd_key;
	struct ev_sketch cd_sk;
};
void	ev_cand_set(struct ev_cand *cd, const char *key, const char *shown);
/* Offer n candidates, in their order. */
void	ev_suggest_offer_list(struct ev_suggest *sg, const char *want,
	    const struct ev_cand *cd, size_t n);
#define ev_suggest_name(sg, want, name) \
	ev_suggest_offer(sg, want, name, name)
/* "; did you mean 'a', 'b' or 'c'?", or "" with no candidate. */
void	ev_suggest_text(const struct ev_suggest *sg, char *buf, size_t len);

/* ---- the kinds: a lookup, a walker and suggestions each ---- */

/*
 * One kind of name, one file.  lookup: 0 found (ev filled), 1 not a name
 * of this kind, -1 a name of this kind that is wrong (reported, errno
 * set).  walk: every name, for listings (NULL: none to list).  suggest:
 * offer the names close to base, the name typed without its unit masks
 * and table prefix (NULL: none to offer).
 */
struct ev_kind {
	const char	*ek_name;
	ev_lookup_fn	*ek_lookup;
	void		(*ek_walk)(const struct ev_ctx *ec, struct ev_walk *w);
	void		(*ek_suggest)(const struct ev_ctx *ec,
			    struct ev_suggest *sg, const char *name,
			    const char *base);
};
extern const struct ev_kind ev_kind_pmu, ev_kind_tracepoint,
    ev_kind_generic, ev_kind_classic, ev_kind_raw, ev_kind_native;

/* resolve.c: every kind's names, in the order --list-events shows. */
void	ev_walk_all(const struct ev_ctx *ec, struct ev_walk *w);

/* ---- what the kinds offer beyond struct ev_kind ---- */

/* tracepoint.c */
/* A lower-case system:event no kind took: said to be no tracepoint. */
int	ev_tp_explain(const struct ev_ctx *ec, const char *fn,
	    const char *name, struct cpc_event *ev);

/* generic.c: perf's names (hardware, cache, software) and PAPI_*. */
struct cpc_named {			/* perf's generic names */
	const char	*nm_name;
	uint32_t	 nm_type;	/* PERF_TYPE_HARDWARE or _SOFTWARE */
	uint64_t	 nm_config;
	unsigned	 nm_modes:1;	/* user/system flags apply */
	const char	*nm_desc;
};
extern const struct cpc_named cpc_perf_names[];
extern const size_t cpc_nperf_names;
/* PERF_TYPE_HW_CACHE: "L1-dcache" + "-" + "load-misses" */
extern const char *const cpc_cache_names[];	/* PERF_COUNT_HW_CACHE_* */
extern const char *const cpc_cache_ops[][2];	/* op: access, miss */
extern const size_t cpc_ncache_names, cpc_ncache_ops;

struct cpc_generic {			/* the PAPI_* generic events */
	const char	*gn_name;	/* after PAPI_, Solaris spelling */
	const char	*gn_desc;
	const char	*gn_perf;	/* a perf name that means the same */
	const char	*gn_native;	/* or libpfm4 names, '|' between, */
};					/* the first the PMU has is used */
extern const struct cpc_generic cpc_generic_names[];
extern const size_t cpc_ngeneric_names;

int	ev_generic_lookup(const struct ev_ctx *ec, const char *fn,
	    const char *name, struct cpc_event *ev);
/* The names cpc_walk_events_all offers: hardware ones when hw. */
void	ev_generic_names(int hw, void *arg,
	    void (*fn)(void *arg, const char *name));

/* classic.c */
struct cpc_classic {			/* Solaris platform names */
	const char	*cl_name;	/* EC_ref */
	const char	*cl_desc;
	const char	*cl_event;	/* the name it stands for */
	const char	*cl_minus;	/* derived: cl_event minus this */
};
extern const struct cpc_classic cpc_classic_names[];
extern const size_t cpc_nclassic_names;

/* raw.c */
/* The x86 event-select field an attribute sets, or NULL. */
struct ev_raw_attr {
	const char	*ra_name;
	uint64_t	 ra_max;
	int		 ra_shift;
};
const struct ev_raw_attr *ev_raw_attr(const char *name);
void	ev_raw_attrs(void *arg, void (*fn)(void *arg, const char *attr));

/* native.c: libpfm4's names of the catalogue's PMU. */
int	ev_native_lookup(const struct ev_ctx *ec, const char *fn,
	    const char *name, struct cpc_event *ev);
/* Only names -c takes, as cpc_walk_events_all offers them. */
void	ev_native_names(void *arg, void (*fn)(void *arg, const char *name));
/*
 * A name libpfm4 has for a PMU not active here: the newest five such
 * PMUs in buf ("skx, icl, spr"); 0 when some have it, -1 when none.
 */
int	ev_native_where(const char *name, char *buf, size_t len);
/* An Intel modifier of libpfm4's (intx, ldlat, ...) usable here. */
int	ev_native_is_modifier(const struct ev_ctx *ec, const char *attr);
void	ev_native_modifiers(const struct ev_ctx *ec, void *arg,
	    void (*fn)(void *arg, const char *attr));
/*
 * Fold the modifiers among attrs into a native event's name, encoded
 * again: INST_RETIRED:ANY_P with intx=1 is INST_RETIRED:ANY_P:intx=1.
 */
int	ev_native_modify(const struct ev_ctx *ec, const char *fn,
	    const char *event, const cpc_attr_t *attrs, uint_t nattrs,
	    struct cpc_event *ev);

#endif /* CPC_CATALOGUE_H */
