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

/* A request as added: a template that binding never changes. */
struct cpc_request {
	char		*cr_event;
	uint64_t	 cr_preset;	/* as added (cpc_walk_requests, bind) */
	uint_t		 cr_flags;
	uint_t		 cr_nattrs;
	cpc_attr_t	*cr_attrs;	/* copied, names owned */
	int		 cr_picnum;	/* -1 when not pinned */
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

/* A request in one binding (a context's, per request). */
struct cpc_ctxreq {
	uint64_t	 cq_cur;	/* the preset in force */
	int		 cq_ovf;	/* overflows: the flag, or
					   CPC_BIND_EMT_OVF */
	int		 cq_armed;	/* the next overflow stops the set */
	uint64_t	 cq_period;	/* overflow: 2^64 - preset, in force */
	uint64_t	 cq_next;	/* cpc_request_preset: the preset */
	int		 cq_hasnext;	/* from the next cpc_set_restart */
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

/* cx_lwpev, t_lwpev: CPC_BIND_LWP_FORKS as well (the forked processes). */
#define CPC_LWPEV_TREE	2

/*
 * A set is its requests: a template that binding never changes.  Each
 * bind makes a context (struct cpc_ctx, ctx.c) of what the backend
 * opened for that target, as the illumos kernel keeps a counter context
 * per LWP: one set may be bound by many threads at once.
 *
 * cs_ctx lists every context of the set, newest first.  A context is
 * added under cs_lock and stays in the list until the set is released
 * (cpc_set_destroy, cpc_set_add_request, or an error that closes it),
 * which no other call on the set may overlap; so the list may be walked
 * without the lock.  cs_cur is the context cpc_set_sample reads for a
 * thread that has no context of its own for the set: the most recently
 * bound with cpc_bind_pctx or cpc_bind_cpu (illumos's cs_id).
 */
struct cpc_set {
	struct cpc_request	*cs_reqs;
	int			 cs_nreqs;
	int			 cs_nalloc;
	int			 cs_nsmpl;	/* SMPL requests */
	struct cpc		*cs_cpc;	/* the handle it was made by */
	pthread_mutex_t		 cs_lock;	/* recursive: contexts */
	struct cpc_ctx		*cs_ctx;	/* every context, newest first */
	struct cpc_ctx		*cs_cur;	/* most recent pctx or cpu one */
};

/* A context's state: its transitions are atomic (ctx.c). */
#define CX_FREE		0	/* unbound: any bind may take it */
#define CX_TAKEN	1	/* a bind is opening or starting it */
#define CX_BOUND	2	/* counting for its target */

/*
 * A context: one binding of a set to one target (a thread, a thread of
 * a controlled process, a CPU), and all the kernel state it holds.  The
 * backend that counts it allocates it (be_ctxsize: its own state after
 * these fields; cx_rq after that).  A context kept after cpc_unbind
 * (CX_FREE, still open) makes binding the set to the same target again
 * a restart: closing a tracepoint event costs tens of milliseconds.
 */
struct cpc_ctx {
	struct cpc_set		*cx_set;
	struct cpc		*cx_cpc;	/* the set's handle */
	struct cpc_ctx		*cx_next;	/* in cs_ctx */
	int			 cx_state;	/* CX_*, atomic */
	int			 cx_nreqs;	/* the set's */
	struct cpc_ctxreq	*cx_rq;		/* per request */
	const struct cpc_backend *cx_be;	/* that opened it */
	int			 cx_open;	/* the backend's state exists */
	enum cpc_bindkind	 cx_kind;	/* its target */
	int			 cx_cpu;	/* CPC_BIND_CPU, else -1 */
	int			 cx_cgfd;	/* cpc_bind_cpu_cgroup: the
						   cgroup's directory, else -1 */
	uint64_t		 cx_cgid;	/* its inode: which cgroup */
	pid_t			 cx_tid;	/* CURLWP, PCTX */
	int			 cx_inherit;	/* CPC_BIND_LWP_INHERIT */
	int			 cx_lwpev;	/* CPC_BIND_LWP_EVENTS: 1, or
						   CPC_LWPEV_TREE with FORKS */
	int			 cx_emtovf;	/* CPC_BIND_EMT_OVF */
	int			 cx_disabled;	/* cpc_disable */
	uint64_t		 cx_tick0;	/* tick at bind */
	cpu_set_t		 cx_oldmask;	/* affinity before bind_cpu */
	pid_t			 cx_pinned;	/* the thread bind_cpu pinned */
	pid_t			 cx_binder;	/* the thread that bound it */
	struct cpc_ctx	       **cx_slot;	/* cpc_bind_curlwp: the bound
						   thread's (ctx.c) */
	struct cpc_ctx		*cx_tnext;	/* cpc_bind_pctx: TID index */
	int			 cx_indexed;	/* in that index */
	struct cpc_smpl		*cx_smpl;	/* per request, when open */
	/* The backend's whole cpc_set_sample for it, or NULL. */
	int			(*cx_sample)(struct cpc *, struct cpc_ctx *,
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
	int			 c_cpconly;	/* CPC_VER_CPC_ONLY: no SMPL */
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
int	cpc_smpl_sample(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf);
void	cpc_smpl_buf_copy(cpc_buf_t *ds, const cpc_buf_t *src);
void	cpc_smpl_buf_zero(cpc_buf_t *buf);

/* ctx.c (and ctx.h for the binding files) */
/* Every context of set closed and freed. */
void	cpc_set_release(cpc_t *cpc, cpc_set_t *set);
/* Whether any context of set is bound (or being bound). */
int	cpc_set_busy(cpc_set_t *set);
/* The backend that counts set's requests (see CPC_MSR_NONE). */
const struct cpc_backend *cpc_set_backend(cpc_t *cpc, const cpc_set_t *set);

/* bind.c */
/*
 * A preset that would overflow r's event sooner than the backend can
 * safely arm: reported (fn), errno EINVAL, -1.  0 when it is long enough.
 */
int	cpc_period_too_short(cpc_t *cpc, const char *fn,
	    const struct cpc_request *r, uint64_t preset);
/* The set's hardware requests fit the PMU's counters together. */
int	cpc_set_fits(cpc_t *cpc, const char *fn, const cpc_set_t *set);

#endif /* CPC_IMPL_H */
