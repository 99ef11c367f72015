/*
 * cpc_impl.h - libcpc's private structures.  Nothing outside libcpc/
 * includes this file.
 */
#ifndef CPC_IMPL_H
#define CPC_IMPL_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "libcpc.h"

#define CPC_EXPORT	__attribute__((visibility("default")))

/* Request slots on a machine without a hardware PMU. */
#define CPC_SOFT_NPIC	8

/* What an event name resolved to (events.c). */
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

struct cpc_request {
	char		*cr_event;
	uint64_t	 cr_preset;	/* as added (cpc_walk_requests, bind) */
	uint64_t	 cr_cur;	/* in force in this binding */
	uint_t		 cr_flags;
	uint_t		 cr_nattrs;
	cpc_attr_t	*cr_attrs;	/* copied, names owned */
	int		 cr_picnum;	/* -1 when not pinned */
	int		 cr_armed;	/* the next overflow stops the set */
	uint64_t	 cr_period;	/* overflow: 2^64 - preset, in force */
	uint64_t	 cr_next;	/* cpc_request_preset: the preset */
	int		 cr_hasnext;	/* from the next cpc_set_restart */
	struct cpc_event cr_ev;
};

#define CPC_REQ_FLAGS	(CPC_OVF_NOTIFY_EMT | CPC_COUNT_USER | \
			 CPC_COUNT_SYSTEM | CPC_COUNT_HV)

enum cpc_bindkind {
	CPC_BIND_NONE,
	CPC_BIND_CURLWP,
	CPC_BIND_CPU,
	CPC_BIND_PCTX,		/* another thread, by TID */
};

/*
 * A set.  The kernel group (cs_fds) may outlive a binding: cpc_unbind only
 * disables it, so that binding the same set to the same target again just
 * resets and enables it.  cs_open says the fds exist; cs_bound says the
 * set is counting for the user.
 */
struct cpc_set {
	struct cpc_set		*cs_next;
	struct cpc_request	*cs_reqs;
	int			 cs_nreqs;
	int			 cs_nalloc;
	int			 cs_open;
	int			 cs_bound;
	enum cpc_bindkind	 cs_kind;	/* target of the open group */
	int			 cs_cpu;	/* CPC_BIND_CPU */
	pid_t			 cs_tid;	/* CURLWP, PCTX */
	int			 cs_inherit;	/* CPC_BIND_LWP_INHERIT */
	int			*cs_fds;	/* in open order: the leader, */
	int			 cs_nfds;	/* the rest, derived seconds */
	int			*cs_pos;	/* request -> its cs_fds index */
	int			 cs_ovf;	/* has CPC_OVF_NOTIFY_EMT requests */
	int			 cs_disabled;	/* cpc_disable */
	uint64_t		 cs_tick0;	/* tick at bind */
	cpu_set_t		 cs_oldmask;	/* affinity before bind_cpu */
	pid_t			 cs_pinned;	/* the thread bind_cpu pinned */
	uint64_t		 cs_ena0;	/* enabled/running ns at */
	uint64_t		 cs_run0;	/* the last bind */
	uint64_t		 cs_enalast;	/* enabled ns at the last read, */
	hrtime_t		 cs_hrlast;	/* and its CLOCK_MONOTONIC */
	void			*cs_rdbuf;	/* group read buffer */
	size_t			 cs_rdlen;
	struct cpc		*cs_cpc;	/* the handle it was made by */
	struct cpc_set	       **cs_slot;	/* bound with cpc_bind_curlwp:
						   that thread's slot */
	struct cpc_set		*cs_tnext;	/* bound with cpc_bind_pctx: */
	int			 cs_indexed;	/* in bind.c's TID index */
};

struct cpc_buf {
	struct cpc_buf	*cb_next;
	int		 cb_nreqs;
	int		 cb_scaled;
	hrtime_t	 cb_hrtime;
	uint64_t	 cb_tick;
	uint64_t	*cb_vals;
};

/* Names that cost file reads to resolve (tracepoints, sysfs PMUs). */
#define CPC_EVCACHE	8
struct cpc_evcache {
	char		 ec_name[CPC_MAX_EVENT_LEN];
	struct cpc_event ec_ev;
};

/* backend.h's table. */
struct cpc_backend;

struct cpc {
	pthread_mutex_t		 c_lock;	/* c_sets, c_bufs */
	struct cpc_set		*c_sets;
	struct cpc_buf		*c_bufs;
	cpc_errhndlr_t		*c_errfn;
	const struct cpc_backend *c_be;
	uint_t			 c_npic;		/* c_described */
	int			 c_ngp;		/* general-purpose counters */
	int			 c_nfixed;	/* fixed ones; 0, 0: unknown */
	int			 c_hwpmu;	/* kernel has a core PMU */
	int			 c_described;	/* c_lock: npic, names */
	int			 c_vendor;	/* enum cpc_vendor, described */
	char			 c_cciname[CPC_MAX_IMPL_NAME];
	char			 c_cpuref[CPC_MAX_CPUREF];
	struct cpc_evcache	 c_evcache[CPC_EVCACHE];	/* c_lock */
	int			 c_evnext;
};

/* cpc.c */
void	cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
unsigned long cpc_err_count(void);
void	cpc_err_open(cpc_t *cpc, const char *fn, int err,
	    const struct cpc_request *req, const char *target);
int	cpc_set_owned(cpc_t *cpc, cpc_set_t *set);
int	cpc_buf_owned(cpc_t *cpc, cpc_buf_t *buf);
hrtime_t cpc_hrnow(void);
uint64_t cpc_ticknow(void);

/* ev_tables.c: the named events, a table each. */
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

struct cpc_classic {			/* Solaris platform names */
	const char	*cl_name;	/* EC_ref */
	const char	*cl_desc;
	const char	*cl_event;	/* the name it stands for */
	const char	*cl_minus;	/* derived: cl_event minus this */
};
extern const struct cpc_classic cpc_classic_names[];
extern const size_t cpc_nclassic_names;

/* ev_pfm.c: libpfm4, initialised on first use. */
struct cpc_pmu {
	char	pm_name[64];		/* libpfm4's: skl, arm_ac57 */
	char	pm_desc[128];		/* libpfm4's description */
	int	pm_ncntrs;		/* general-purpose counters */
	int	pm_nfixed;		/* fixed counters */
	int	pm_forced;		/* chosen by LIBPFM_FORCE_PMU */
};
const char *cpc_pfm_forced(void);
int	cpc_pfm_pmu(cpc_t *cpc, struct cpc_pmu *pmu);
int	cpc_pfm_lookup(cpc_t *cpc, const char *fn, const char *name,
	    struct cpc_event *ev);
/* What cpc_pfm_walk says of a name: what the catalogue makes of it. */
enum cpc_pfm_how {
	CPC_PFM_ENCODES,	/* a name -c takes */
	CPC_PFM_NEEDS_UMASK,	/* an event that takes only EVENT:UMASK */
	CPC_PFM_REFUSED,	/* libpfm4 cannot encode it (another reason) */
};
void	cpc_pfm_walk(cpc_t *cpc, int umasks, void *arg,
	    void (*fn)(void *arg, const char *name, const char *desc,
	    enum cpc_pfm_how how));
int	cpc_pfm_where(const char *name, char *buf, size_t len);
int	cpc_pfm_used(void);

/* cpuinfo.c: c_cciname, c_cpuref, c_npic; called once, c_lock held. */
void	cpc_describe(cpc_t *cpc);
enum cpc_vendor {
	CPC_VENDOR_OTHER, CPC_VENDOR_INTEL, CPC_VENDOR_AMD, CPC_VENDOR_ARM
};
enum cpc_vendor cpc_vendor(cpc_t *cpc);
int	cpc_set_fits(cpc_t *cpc, const char *fn, const cpc_set_t *set);

/* events.c */
/* Encode a name whatever the kernel offers (tests, listings). */
int	cpc_event_encode(cpc_t *cpc, const char *fn, const char *name,
	    struct cpc_event *ev);
int	cpc_event_resolve(cpc_t *cpc, const char *fn, const char *name,
	    struct cpc_event *ev);
int	cpc_event_apply_attrs(cpc_t *cpc, const char *fn,
	    struct cpc_request *req);
void	cpc_event_walk_attrs(cpc_t *cpc, void *arg,
	    void (*fn)(void *arg, const char *attr));
int	cpc_hw_pmu_present(void);
const char *cpc_tracefs_dir(void);

/* set.c */
void	cpc_set_free(cpc_set_t *set);

/* bind.c */
void	cpc_set_release(cpc_t *cpc, cpc_set_t *set);

#endif /* CPC_IMPL_H */
