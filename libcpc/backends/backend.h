/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend.h - the interface between libcpc's objects and a counter
 * facility.  A backend opens a set's requests as one group on a target,
 * enables and disables it as a whole, reads every request from one
 * consistent snapshot, and closes it; it also says whether one event can
 * be opened at all (for listings).  Backends, one file each:
 *
 *	perf.c		perf_event_open(2), the default (perf_impl.h: its
 *			files, one job each)
 *	msr.c		the x86 PMU through the msr device, for CPUs only
 *			(the kernel-module fallback; msr_pmu.c its registers)
 *	perf_smpl.c	its SMPL requests (struct cpc_smpl_backend below)
 *
 * A backend works on the context it is given (cpc_impl.h's struct
 * cpc_ctx: the set's requests, the target, the binding's presets), keeps
 * its own state behind it (be_ctxsize), and reports through the handle's
 * error handler with cpc_report; it calls nothing above it.
 */
#ifndef CPC_BACKEND_H
#define CPC_BACKEND_H

#include "cpc_impl.h"

struct cpc_target {
	enum cpc_bindkind	t_kind;
	int			t_cpu;		/* CPC_BIND_CPU, else -1 */
	int			t_cgfd;		/* cpc_bind_cpu_cgroup: the
						   cgroup's directory; else -1 */
	uint64_t		t_cgid;		/* its inode, else 0 */
	const char		*t_cgroup;	/* its path, for messages */
	pid_t			t_tid;		/* thread, 0 = caller */
	int			t_inherit;	/* CPC_BIND_LWP_INHERIT */
	int			t_emtovf;	/* CPC_BIND_EMT_OVF */
	int			t_lwpev;	/* CPC_BIND_LWP_EVENTS (1, or
						   CPC_LWPEV_TREE) */
	const char		*t_fn;		/* the API call, for errors */
};

struct cpc_backend {
	const char	*be_name;
	/*
	 * The size of its contexts: a struct that begins with struct
	 * cpc_ctx and goes on with the backend's state, zeroed at first.
	 */
	size_t		 be_ctxsize;
	/*
	 * Open the group disabled on the context's target (cx_kind, cx_cpu,
	 * cx_tid, ...); -1 with errno and a reported message.
	 */
	int		(*be_open)(cpc_t *, struct cpc_ctx *,
			    const struct cpc_target *);
	/* Zero every counter and start counting. */
	int		(*be_start)(cpc_t *, struct cpc_ctx *);
	/* Stop counting; the counts stay readable. */
	int		(*be_stop)(cpc_t *, struct cpc_ctx *);
	/* Count again from where be_stop left the counts. */
	int		(*be_resume)(cpc_t *, struct cpc_ctx *);
	/*
	 * Read every request into buf: its count since the bind plus its
	 * preset in force (cq_cur), cb_scaled when time-shared, and the
	 * enabled and running times since the bind.
	 */
	int		(*be_read)(cpc_t *, struct cpc_ctx *, cpc_buf_t *);
	/* Close what be_open opened (not the context itself). */
	void		(*be_close)(cpc_t *, struct cpc_ctx *);
	/*
	 * Can the encoding be opened on pid/cpu (perf_event_open's pair),
	 * counting user mode only where modes?  A CPC_AVAIL_* value.
	 */
	int		(*be_probe)(const struct cpc_enc *en, int modes,
			    pid_t pid, int cpu);
	/*
	 * The shortest overflow period (events between two overflows) the
	 * facility can arm for the event without harm; 0: no limit.
	 */
	uint64_t	(*be_min_period)(const struct cpc_event *ev);
	/*
	 * CPC_BIND_LWP_EVENTS (NULL: not supported): walk the LWP event
	 * reports of a context bound so (cpc_lwp_events), and the
	 * descriptor to poll.
	 */
	int		(*be_lwp_events)(cpc_t *, struct cpc_ctx *, cpc_buf_t *,
			    cpc_lwp_fn_t *fn, void *arg);
	int		(*be_lwp_fd)(struct cpc_ctx *);
	/* Counts a CPU's share of one cgroup (cpc_bind_cpu_cgroup). */
	int		 be_cgroup;
};

extern const struct cpc_backend cpc_be_perf, cpc_be_msr;

/*
 * Sampling: a set's SMPL requests (CPC_HW_SMPL), each opened alone on
 * the set's target, outside the counting group that the table above
 * opens, and writing its records into a ring (struct cpc_smpl, in
 * the context's cx_smpl).  The counting group never holds a SMPL request.
 *
 *	perf_smpl.c	perf_event_open(2) with an mmap ring
 */
struct cpc_smpl_backend {
	/* Open every SMPL request disabled; -1 with errno and a report. */
	int		(*sb_open)(cpc_t *, struct cpc_ctx *,
			    const struct cpc_target *);
	/* Forget what the rings hold, count from 0, and sample. */
	int		(*sb_start)(cpc_t *, struct cpc_ctx *);
	/* Stop (on 0) or resume (on 1) sampling; the records stay. */
	int		(*sb_enable)(cpc_t *, struct cpc_ctx *, int on);
	/*
	 * Move request k's records, oldest first, into bs (at most
	 * bs_cap), and the number lost since the last call into bs_lost.
	 */
	int		(*sb_read)(cpc_t *, struct cpc_ctx *, int k,
			    struct cpc_bufsmpl *bs);
	void		(*sb_close)(cpc_t *, struct cpc_ctx *);
	/* The most records smpl_nrecs may ask for. */
	uint_t		(*sb_max_recs)(void);
	/* The deepest call chain the kernel records. */
	uint_t		(*sb_max_stack)(void);
	/* Hardware events sample precisely here (CPC_CAP_OVERFLOW_PRECISE). */
	int		(*sb_precise)(void);
};

extern const struct cpc_smpl_backend cpc_sbe_perf;

#endif /* CPC_BACKEND_H */
