/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpc_impl.h - libcpc's private structures: the API objects (handle,
 * sets, requests, buffers) and the calls between their files.  Nothing
 * outside libcpc/ includes this file.
 *
 * libcpc's inside, in three layers; each calls only those below it:
 *
 *	libcpc/			the API objects: cpc.c (handle), set.c,
 *				buf.c, bind.c, walk.c (walkers), names.c
 *				(the handle's door to the catalogue)
 *	libcpc/events/		the event catalogue (catalogue.h)
 *	libcpc/backends/	the counter facilities (backend.h)
 *	libcpc/platform/	facts of the machine (platform.h)
 *
 * tests/layers checks the calls between the object files.
 */
#ifndef CPC_IMPL_H
#define CPC_IMPL_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "libcpc.h"
#include "platform.h"
#include "catalogue.h"

struct cpc_request {
	char		*cr_event;
	uint64_t	 cr_preset;	/* as added (cpc_walk_requests, bind) */
	uint64_t	 cr_cur;	/* in force in this binding */
	uint_t		 cr_flags;
	uint_t		 cr_nattrs;
	cpc_attr_t	*cr_attrs;	/* copied, names owned */
	int		 cr_picnum;	/* -1 when not pinned */
	int		 cr_ovf;	/* overflows in this binding: the
					   flag, or CPC_BIND_EMT_OVF */
	int		 cr_armed;	/* the next overflow stops the set */
	uint64_t	 cr_period;	/* overflow: 2^64 - preset, in force */
	uint64_t	 cr_next;	/* cpc_request_preset: the preset */
	int		 cr_hasnext;	/* from the next cpc_set_restart */
	struct cpc_event cr_ev;
	/* CPC_HW_SMPL (smpl.c); period= on a counting request too. */
	int		 cr_smpl;	/* a SMPL request */
	uint_t		 cr_nrecs;	/* smpl_nrecs */
	uint64_t	 cr_speriod;	/* period: events between records */
	uint_t		 cr_chain;	/* callchain: 0, 1 the kernel's
					   depth, else at most that */
	uint_t		 cr_recw;	/* uint64_t items of one record */
	int		 cr_hasperiod;	/* period= gave the preset */
};

#define CPC_REQ_FLAGS	(CPC_OVF_NOTIFY_EMT | CPC_COUNT_USER | \
			 CPC_COUNT_SYSTEM | CPC_COUNT_HV | CPC_HW_SMPL)

/*
 * The kernel side of a bound set's SMPL request (backend-owned): its
 * sampling events, outside the counting group, and the rings they write
 * (one; one per CPU for a thread bound with CPC_BIND_LWP_INHERIT, which
 * the kernel maps only per CPU), and the event that signals every
 * smpl_nrecs records (CPC_OVF_NOTIFY_EMT).
 */
struct cpc_smpl {
	int		 sm_nring;	/* 0: not a SMPL request */
	int		*sm_fds;	/* the sampling events, one a ring */
	void	       **sm_rings;	/* each: control page, then data */
	uint64_t	*sm_tails;	/* a read's place in each ring */
	void		*sm_rg;		/* the backend's view of the rings */
	size_t		 sm_maplen;
	int		 sm_notefd;	/* the signalling event, or -1 */
	uint64_t	 sm_lost;	/* lost since the bind */
	uint64_t	 sm_taken;	/* moved into buffers since the bind */
	uint64_t	 sm_lost0;	/* the kernel's lost count at the bind */
	int		 sm_fmtlost;	/* read() gives the lost count */
};

/* One SMPL request's records in a buffer. */
struct cpc_bufsmpl {
	uint_t		 bs_n;		/* records held */
	uint_t		 bs_cap;	/* smpl_nrecs */
	uint_t		 bs_recw;	/* uint64_t items a record */
	uint64_t	 bs_lost;	/* lost since the previous sample */
	uint64_t	*bs_recs;	/* bs_cap * bs_recw */
};

enum cpc_bindkind {
	CPC_BIND_NONE,
	CPC_BIND_CURLWP,
	CPC_BIND_CPU,
	CPC_BIND_PCTX,		/* another thread, by TID */
};

/* cs_ends, t_ends: CPC_BIND_LWP_FORKS as well (the forked processes). */
#define CPC_ENDS_TREE	2

/*
 * A set.  The kernel group (cs_fds) may outlive a binding: cpc_unbind only
 * disables it, so that binding the same set to the same target again just
 * resets and enables it.  cs_open says the fds exist; cs_bound says the
 * set is counting for the user.
 */
struct cpc_set {
	struct cpc_request	*cs_reqs;
	int			 cs_nreqs;
	int			 cs_nalloc;
	int			 cs_open;
	int			 cs_bound;
	enum cpc_bindkind	 cs_kind;	/* target of the open group */
	int			 cs_cpu;	/* CPC_BIND_CPU */
	pid_t			 cs_tid;	/* CURLWP, PCTX */
	int			 cs_inherit;	/* CPC_BIND_LWP_INHERIT */
	int			 cs_ends;	/* CPC_BIND_LWP_ENDS: 1, or
						   CPC_ENDS_TREE with FORKS */
	struct cpc_ends		*cs_endst;	/* its reports (backend's) */
	int			 cs_emtovf;	/* CPC_BIND_EMT_OVF */
	int			*cs_fds;	/* in open order: the leader, */
	int			 cs_nfds;	/* the rest, derived seconds */
	int			*cs_pos;	/* request -> its cs_fds index */
	int			 cs_ovf;	/* has CPC_OVF_NOTIFY_EMT requests */
	int			 cs_fresh;	/* opened, never enabled: all 0 */
	int			 cs_onopen;	/* leader opened enabled */
	uint64_t		*cs_base;	/* per fd: its count at the bind */
	uint64_t		*cs_off;	/* per request: its preset less
						   its fd's cs_base (perf.c) */
	int			 cs_disabled;	/* cpc_disable */
	uint64_t		 cs_tick0;	/* tick at bind */
	cpu_set_t		 cs_oldmask;	/* affinity before bind_cpu */
	pid_t			 cs_pinned;	/* the thread bind_cpu pinned */
	uint64_t		 cs_ena0;	/* enabled/running ns at */
	uint64_t		 cs_run0;	/* the last bind */
	uint64_t		 cs_enalast;	/* enabled ns at the last read, */
	hrtime_t		 cs_hrlast;	/* and its CLOCK_MONOTONIC */
	uint64_t		 cs_ena;	/* enabled and running ns from */
	uint64_t		 cs_run;	/* the bind to the last read */
	void			*cs_rdbuf;	/* group read buffer */
	size_t			 cs_rdlen;
	struct cpc		*cs_cpc;	/* the handle it was made by */
	const struct cpc_backend *cs_be;	/* that opens and counts it */
	struct cpc_set	       **cs_slot;	/* bound with cpc_bind_curlwp:
						   that thread's slot */
	struct cpc_set		*cs_tnext;	/* bound with cpc_bind_pctx: */
	int			 cs_indexed;	/* in bind.c's TID index */
	int			 cs_nsmpl;	/* SMPL requests */
	struct cpc_smpl		*cs_smpl;	/* per request, when open */
	void			*cs_user;	/* backends/perf_user.c */
	/* The backend's whole cpc_set_sample for this set, or NULL. */
	int			(*cs_sample)(struct cpc *, struct cpc_set *,
				    struct cpc_buf *);
};

struct cpc_buf {
	int		 cb_nreqs;
	int		 cb_scaled;
	hrtime_t	 cb_hrtime;
	uint64_t	 cb_tick;
	uint64_t	 cb_ena;	/* enabled ns (cpc_buf_times) */
	uint64_t	 cb_run;	/* running ns */
	uint64_t	*cb_vals;	/* after the struct, one block */
	struct cpc_bufsmpl *cb_smpl;	/* per request; NULL without SMPL */
};

/* Names that cost file reads to resolve (tracepoints, sysfs PMUs). */
#define CPC_EVCACHE	8
struct cpc_evcache {
	char		 ec_name[CPC_MAX_EVENT_LEN];
	struct cpc_event ec_ev;
};

/*
 * The sets or buffers a handle owns: a table of their addresses (open
 * addressing), so that creating, destroying and checking ownership cost
 * the same with one object or with a set and buffers for each of
 * thousands of threads.  Under c_lock.
 */
struct cpc_objtab {
	uintptr_t	*ot_slot;	/* 0 empty, 1 deleted, or an object */
	unsigned	 ot_bits;	/* 1 << ot_bits slots (0: none yet) */
	size_t		 ot_n;		/* objects */
	size_t		 ot_used;	/* objects and deleted slots */
};

/* backend.h's tables. */
struct cpc_backend;
struct cpc_smpl_backend;

/*
 * Which backend counts (cpc.c, at cpc_open): perf_event, unless
 * CPC_BACKEND=msr, or (CPC_BACKEND unset) the kernel has no PMU driver
 * for the processor and the msr device works: then the msr backend
 * counts the sets that have hardware events (c_hwbe), perf the others.
 */
#define CPC_MSR_NONE	0
#define CPC_MSR_AUTO	1
#define CPC_MSR_FORCED	2

struct cpc {
	pthread_mutex_t		 c_lock;	/* c_sets, c_bufs */
	struct cpc_objtab	 c_sets;
	struct cpc_objtab	 c_bufs;
	cpc_errhndlr_t		*c_errfn;
	const struct cpc_backend *c_be;		/* counts the other sets */
	const struct cpc_backend *c_hwbe;	/* counts hardware events */
	int			 c_msr;		/* CPC_MSR_AUTO, _FORCED */
	int			 c_hwpmu;	/* kernel has a core PMU, or
						   the msr backend counts */
	const struct cpc_smpl_backend *c_sbe;	/* SMPL requests (perf) */
	int			 c_described;	/* c_lock: c_pf filled */
	struct cpc_platform	 c_pf;		/* npic, names, vendor */
	struct cpc_evcache	 c_evcache[CPC_EVCACHE];	/* c_lock */
	int			 c_evnext;
};

/* handle.c */
void	cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
int	cpc_set_owned(cpc_t *cpc, cpc_set_t *set);
int	cpc_buf_owned(cpc_t *cpc, cpc_buf_t *buf);
int	cpc_objtab_add(struct cpc_objtab *t, void *obj);
int	cpc_objtab_del(struct cpc_objtab *t, void *obj);
void	*cpc_objtab_next(const struct cpc_objtab *t, size_t *pos);
void	cpc_objtab_free(struct cpc_objtab *t);
/* The platform's facts, worked out on the first call. */
const struct cpc_platform *cpc_platform(cpc_t *cpc);
enum cpc_vendor cpc_vendor(cpc_t *cpc);
/* The libpfm4 table the handle's catalogue describes (tests). */
static inline int
cpc_pfm_pmu(cpc_t *cpc, struct cpc_pmu *pmu)
{
	(void)cpc;
	return cpc_pfm_describe(pmu);
}

/* names.c: the handle's door to the catalogue. */
/* The catalogue's view of cpc, in ec; returns ec. */
struct ev_ctx *cpc_ev_ctx(cpc_t *cpc, struct ev_ctx *ec);
/* Encode a name whatever the kernel offers (tests, listings). */
int	cpc_event_encode(cpc_t *cpc, const char *fn, const char *name,
	    struct cpc_event *ev);
/*
 * Resolve name into ev for a request, or report and return -1; a
 * hardware event where the kernel has no PMU is ENOTSUP.
 */
int	cpc_event_resolve(cpc_t *cpc, const char *fn, const char *name,
	    struct cpc_event *ev);
int	cpc_event_apply_attrs(cpc_t *cpc, const char *fn,
	    struct cpc_request *req);

/* set.c */
void	cpc_set_free(cpc_set_t *set);
cpc_set_t *cpc_set_copy(cpc_t *cpc, const cpc_set_t *tmpl);

/* smpl.c: SMPL requests, their records in buffers. */
/*
 * Take r's SMPL attributes (smpl_nrecs, period, callchain) out of its
 * attributes and check them with its flags and preset; -1 (EINVAL)
 * with a message.  Before cpc_event_apply_attrs, which then sees the
 * others.
 */
int	cpc_smpl_request(cpc_t *cpc, const char *fn, struct cpc_request *r);
/* name is one of those attributes (the catalogue does not see them). */
int	cpc_smpl_attr(const char *name);
void	cpc_smpl_walk_attrs(void *arg, void (*fn)(void *arg, const char *attr));
/* The records of buf, for set's requests; -1 (ENOMEM). */
int	cpc_smpl_buf_init(cpc_buf_t *buf, const cpc_set_t *set);
void	cpc_smpl_buf_free(cpc_buf_t *buf);
/* Move the records collected since the last sample into buf. */
int	cpc_smpl_sample(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf);
void	cpc_smpl_buf_copy(cpc_buf_t *ds, const cpc_buf_t *src);
void	cpc_smpl_buf_zero(cpc_buf_t *buf);

/* bind.c */
void	cpc_set_release(cpc_t *cpc, cpc_set_t *set);
/* The backend that counts set's requests (see CPC_MSR_NONE). */
const struct cpc_backend *cpc_set_backend(cpc_t *cpc, const cpc_set_t *set);
/*
 * A preset that would overflow r's event sooner than the backend can
 * safely arm: reported (fn), errno EINVAL, -1.  0 when it is long enough.
 */
int	cpc_period_too_short(cpc_t *cpc, const char *fn,
	    const struct cpc_request *r, uint64_t preset);
/* The set's hardware requests fit the PMU's counters together. */
int	cpc_set_fits(cpc_t *cpc, const char *fn, const cpc_set_t *set);

#endif /* CPC_IMPL_H */
