/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libcpc.h - CPU performance counter library (Solaris libcpc v2 API) for
 * Linux perf_event.
 *
 * The handles are opaque.  Every function that can fail returns -1 (or
 * NULL) with errno set, and reports a one-line message through the
 * handle's error handler (see cpc_seterrhndlr).  The library never exits
 * and never prints except through that handler.
 */
#ifndef LIBCPC_H
#define LIBCPC_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
/*
 * What Solaris programs get from libcpc.h through the headers it
 * includes there: the signal calls and types an overflow handler uses,
 * strerror and bzero (the seed page's examples use them all), and the
 * thread ID for _lwp_self below.
 */
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CPC_VER_NONE		0
#define CPC_VER_CURRENT		2
/*
 * Solaris 11's cpc_open version for counting only: a handle opened so
 * refuses SMPL requests (CPC_HW_SMPL).  The value is this library's.
 */
#define CPC_VER_CPC_ONLY	3

/* Request flags (cpc_set_add_request). */
#define CPC_OVF_NOTIFY_EMT	0x1
#define CPC_COUNT_USER		0x2
#define CPC_COUNT_SYSTEM	0x4
#define CPC_COUNT_HV		0x8
#define CPC_HW_SMPL		0x10	/* a sampling (SMPL) request */

/* Bind flags. */
#define CPC_BIND_LWP_INHERIT	0x1
#define CPC_BIND_EMT_OVF	0x2
#define CPC_BIND_LWP_EVENTS	0x100	/* Linux: cpc_bind_pctx, see there */
#define CPC_BIND_LWP_FORKS	0x200	/* Linux: with CPC_BIND_LWP_EVENTS */
/* The former name of CPC_BIND_LWP_EVENTS, kept for old sources. */
#define CPC_BIND_LWP_ENDS	CPC_BIND_LWP_EVENTS

/* Capabilities (cpc_caps). */
#define CPC_CAP_OVERFLOW_INTERRUPT	0x1
#define CPC_CAP_OVERFLOW_PRECISE	0x2

#define CPC_MAX_EVENT_LEN	512
#define CPC_MAX_ATTR_LEN	32
#define CPC_MAX_IMPL_NAME	512
#define CPC_MAX_CPUREF		1024

/* Error subcodes passed to the error handler. */
#define CPC_INVALID_EVENT		1
#define CPC_INVALID_PICNUM		2
#define CPC_INVALID_ATTRIBUTE		3
#define CPC_ATTRIBUTE_OUT_OF_RANGE	4
#define CPC_RESOURCE_UNAVAIL		5
#define CPC_PIC_NOT_CAPABLE		6
#define CPC_REQ_INVALID_FLAGS		7
#define CPC_CONFLICTING_REQS		8
#define CPC_ATTR_REQUIRES_PRIVILEGE	9
#define CPC_PBIND_FAILED		10
#define CPC_HV_NO_ACCESS		11

/*
 * The Solaris types.  The declarations below use libcpc's own names for
 * them, so that a program that defines hrtime_t, uint_t or processorid_t
 * itself still compiles: as a macro (uperf: #define hrtime_t uint64_t),
 * behind a guard macro (_HRTIME_T, _UINT_T_DEFINED, _PROCESSORID_T), or
 * anywhere when it defines CPC_NO_SOLARIS_TYPES first.  Otherwise
 * libcpc.h defines each, as Solaris's headers do.  id_t and pid_t come
 * from <sys/types.h>.
 */
#ifndef _CPC_UINT_T
#define _CPC_UINT_T
typedef unsigned int	cpc_uint_t;
#endif
typedef int64_t		cpc_hrtime_t;
typedef int		cpc_processorid_t;

#ifndef CPC_NO_SOLARIS_TYPES
#if !defined(uint_t) && !defined(_UINT_T_DEFINED)
#define _UINT_T_DEFINED
typedef cpc_uint_t uint_t;
#endif
#if !defined(hrtime_t) && !defined(_HRTIME_T)
#define _HRTIME_T
typedef cpc_hrtime_t hrtime_t;
#endif
#if !defined(processorid_t) && !defined(_PROCESSORID_T)
#define _PROCESSORID_T
typedef cpc_processorid_t processorid_t;
#endif
#endif /* CPC_NO_SOLARIS_TYPES */

typedef struct cpc cpc_t;
typedef struct cpc_set cpc_set_t;
typedef struct cpc_buf cpc_buf_t;
#ifndef CPC_NO_SOLARIS_TYPES
/* The calling thread's ID (its Linux TID), as Solaris's _lwp_self(2). */
#ifndef _lwp_self
static __inline__ id_t
_lwp_self(void)
{
	return (id_t)syscall(SYS_gettid);
}
#endif
/*
 * The indexes of the program counter and the stack pointer in an
 * overflow handler's uc_mcontext.gregs, under their Solaris <sys/regset.h>
 * names (x86 only: Linux's arm64 mcontext has no gregs).
 */
#if !defined(PC) && !defined(SP) && !defined(CPC_NO_REGSET)
#if defined(__x86_64__)
#define PC	16		/* REG_RIP */
#define SP	15		/* REG_RSP */
#elif defined(__i386__)
#define PC	14		/* REG_EIP */
#define SP	17		/* REG_UESP */
#endif
#endif
#endif /* CPC_NO_SOLARIS_TYPES */

/* libpctx's handle (libpctx.h), for cpc_bind_pctx: either header first. */
#ifndef _PCTX_T_DEFINED
#define _PCTX_T_DEFINED
typedef struct pctx pctx_t;
#endif

typedef struct {
	char		*ca_name;
	uint64_t	 ca_val;
} cpc_attr_t;

/*
 * Error handler: fn is the libcpc function that failed, subcode one of
 * the CPC_* subcodes above or -1 for a plain errno failure, fmt/ap the
 * message (no trailing newline).  errno is preserved across the call.
 */
typedef void (cpc_errhndlr_t)(const char *fn, int subcode, const char *fmt,
    va_list ap);

/*
 * Handle.  cpc_open(CPC_VER_CURRENT), or CPC_VER_CPC_ONLY (no SMPL
 * requests), or NULL with errno (EINVAL for another version).
 */
cpc_t		*cpc_open(int ver);
/* Unbinds and destroys every set and buffer of the handle; always 0. */
int		 cpc_close(cpc_t *cpc);
/* Request slots ("pics") a set offers. */
cpc_uint_t		 cpc_npic(cpc_t *cpc);
cpc_uint_t		 cpc_caps(cpc_t *cpc);
/* Name of the counter interface and backend in use. */
const char	*cpc_cciname(cpc_t *cpc);
/* The document to read about this CPU's events. */
const char	*cpc_cpuref(cpc_t *cpc);
/* Install a handler; NULL restores the default (libcpc: fn: msg). */
int		 cpc_seterrhndlr(cpc_t *cpc, cpc_errhndlr_t *fn);

/* Catalogue walkers. */
void	cpc_walk_events_all(cpc_t *cpc, void *arg,
	    void (*fn)(void *arg, const char *event));
void	cpc_walk_generic_events_all(cpc_t *cpc, void *arg,
	    void (*fn)(void *arg, const char *event));
void	cpc_walk_events_pic(cpc_t *cpc, cpc_uint_t picno, void *arg,
	    void (*fn)(void *arg, cpc_uint_t picno, const char *event));
void	cpc_walk_generic_events_pic(cpc_t *cpc, cpc_uint_t picno, void *arg,
	    void (*fn)(void *arg, cpc_uint_t picno, const char *event));
/* Attribute names accepted by requests, then "picnum". */
void	cpc_walk_attrs(cpc_t *cpc, void *arg,
	    void (*fn)(void *arg, const char *attr));

/* Sets and requests. */
cpc_set_t	*cpc_set_create(cpc_t *cpc);
/* Unbinds if bound and frees; EINVAL for a foreign set. */
int		 cpc_set_destroy(cpc_t *cpc, cpc_set_t *set);
/* Returns the new request's index or -1 (unknown event, bad attribute). */
int		 cpc_set_add_request(cpc_t *cpc, cpc_set_t *set,
		    const char *event, uint64_t preset, cpc_uint_t flags,
		    cpc_uint_t nattrs, const cpc_attr_t *attrs);
/* One call per request, most recently added first. */
void		 cpc_walk_requests(cpc_t *cpc, cpc_set_t *set, void *arg,
		    void (*fn)(void *arg, int index, const char *event,
		    uint64_t preset, cpc_uint_t flags, int nattrs,
		    const cpc_attr_t *attrs));

/* Buffers: one 64-bit value per request, a timestamp and a tick. */
cpc_buf_t	*cpc_buf_create(cpc_t *cpc, cpc_set_t *set);
int		 cpc_buf_destroy(cpc_t *cpc, cpc_buf_t *buf);
int		 cpc_buf_get(cpc_t *cpc, cpc_buf_t *buf, int index,
		    uint64_t *val);
int		 cpc_buf_set(cpc_t *cpc, cpc_buf_t *buf, int index,
		    uint64_t val);
/* CLOCK_MONOTONIC nanoseconds of the sample, 0 when never sampled. */
cpc_hrtime_t	 cpc_buf_hrtime(cpc_t *cpc, cpc_buf_t *buf);
/* Cycle-counter (TSC) ticks elapsed while the set was bound. */
uint64_t	 cpc_buf_tick(cpc_t *cpc, cpc_buf_t *buf);
/* ds = a - b (modulo 2^64), tick likewise, hrtime = max. */
void		 cpc_buf_sub(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a,
		    cpc_buf_t *b);
void		 cpc_buf_add(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a,
		    cpc_buf_t *b);
void		 cpc_buf_copy(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *src);
void		 cpc_buf_zero(cpc_t *cpc, cpc_buf_t *buf);

/* Binding. */
int	cpc_bind_curlwp(cpc_t *cpc, cpc_set_t *set, cpc_uint_t flags);
/*
 * Count on one CPU for every process.  The calling thread is bound to that
 * CPU until cpc_unbind, so samples are read locally.
 */
int	cpc_bind_cpu(cpc_t *cpc, cpc_processorid_t cpu, cpc_set_t *set,
	    cpc_uint_t flags);
/*
 * (Linux) As cpc_bind_cpu, counting only while a task of cgroup (or of
 * a cgroup below it) runs on cpu: the kernel's cgroup mode of perf_event.
 * cgroup is a path under the cgroup v2 hierarchy, wherever it is mounted
 * ("system.slice/cron.service"; a leading '/' or none; "/" the root).
 * A set is bound to one CPU (and cgroup) at a time, as with cpc_bind_cpu:
 * make a set for each cgroup to count several on one CPU.  flags: none.
 * ENOENT: no such cgroup, or cgroup2 not mounted; ENOTDIR, EINVAL: not
 * a cgroup v2 directory; ENOTSUP: a kernel without cgroup events, or the
 * msr backend.
 */
int	cpc_bind_cpu_cgroup(cpc_t *cpc, cpc_processorid_t cpu,
	    const char *cgroup, cpc_set_t *set, cpc_uint_t flags);
/*
 * Count thread id (a TID) of a process under pctx control, from a pctx
 * callback (init_lwp): the thread has not run since it was announced.
 * The counts can be sampled at any time, also after the thread ended.
 */
int	cpc_bind_pctx(cpc_t *cpc, pctx_t *pctx, id_t id, cpc_set_t *set,
	    cpc_uint_t flags);
/*
 * cpc_bind_pctx's flags (Linux): CPC_BIND_LWP_INHERIT counts, in the
 * same set, the threads the thread creates from then on (the kernel
 * copies the counters into each at its creation; nothing stops it).
 * CPC_BIND_LWP_ENDS, with it, also keeps each such thread's own counts
 * when it ends, and makes the set stop counting at the process's next
 * successful exec, where the counts freeze; cpc_lwp_events reports the
 * new threads, their ends with their counts, the processes they fork
 * (never counted) and the exec, in order.  A set bound so has no SMPL
 * or overflow requests.  Linux 5.13 and later (EINVAL before), with the
 * fix "perf/core: Fix missing read event generation on task exit" (6.18
 * and the stable kernels it went to; ENOTSUP without it).
 *
 * CPC_BIND_LWP_FORKS, with both, counts the processes forked from then
 * on too, each with copies of the same set from its fork to its own exec
 * or end, and their children likewise: cpc_lwp_events then reports the
 * threads, forks, ends and execs of every such process (le_pid says
 * which; after its exec a process is no longer counted or reported), and
 * CPC_LWP_EXIT once the last thread of one has ended.  The set's count
 * is the whole tree's: the target's own threads' and every ended or
 * exec'd process's.  It needs the whole processors' side-band records
 * (root, CAP_PERFMON, or perf_event_paranoid 0 or less) and every
 * processor online at the bind; ENOTSUP otherwise.
 */
typedef enum {
	CPC_LWP_CREATE = 1,	/* le_tid was created, counting from 0 */
	CPC_LWP_END,		/* le_tid ended: buf holds its counts */
	CPC_LWP_FORK,		/* le_tid forked process le_child */
	CPC_LWP_EXEC,		/* the process exec'd: the set counts no more */
	CPC_LWP_LOST,		/* le_lost reports did not fit the ring (0:
				   some, how many is not known) */
	CPC_LWP_EXIT		/* CPC_BIND_LWP_FORKS: process le_pid ended,
				   le_tid its last thread, after its ENDs */
} cpc_lwp_what_t;

typedef struct cpc_lwp_event {
	cpc_lwp_what_t	le_what;
	pid_t		le_pid;		/* the process */
	pid_t		le_tid;		/* the thread */
	pid_t		le_child;	/* CPC_LWP_FORK: the new process */
	cpc_hrtime_t	le_time;	/* when, as cpc_buf_hrtime */
	uint64_t	le_lost;	/* CPC_LWP_LOST */
	char		le_comm[17];	/* CPC_LWP_EXEC: the program's name,
					   "" if unknown */
} cpc_lwp_event_t;

/*
 * Each report waiting for a set bound with CPC_BIND_LWP_ENDS, oldest
 * first, to fn with buf (a buffer of the set): for CPC_LWP_END it holds
 * the thread's counts and its time, else zeros and the time.  A non-zero
 * return from fn stops the walk after that report.  Nothing is reported
 * after CPC_LWP_EXEC.  The number of reports walked, or -1 with errno.
 */
typedef int (cpc_lwp_fn_t)(void *arg, const cpc_lwp_event_t *ev,
    cpc_buf_t *buf);
int	cpc_lwp_events(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf,
	    cpc_lwp_fn_t *fn, void *arg);
/* A descriptor that polls readable when reports wait, or -1 (EINVAL). */
int	cpc_lwp_events_fd(cpc_t *cpc, cpc_set_t *set);
/*
 * Stop counting.  The kernel counters are kept, disabled, so that binding
 * the same set to the same target again is cheap (tracepoints cost tens of
 * milliseconds to close); cpc_set_destroy releases them.
 */
int	cpc_unbind(cpc_t *cpc, cpc_set_t *set);
/* Snapshot a bound set: every request from one consistent group read. */
int	cpc_set_sample(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf);

/*
 * Presets and overflow, for the set bound to the calling thread with
 * cpc_bind_curlwp (no other binding, and not with CPC_BIND_LWP_INHERIT).
 * A request counts up from its preset.  With CPC_OVF_NOTIFY_EMT, when it
 * passes UINT64_MAX (after 2^64 - preset events; the preset must leave
 * 1 to 2^63 - 1 of them) the thread gets the signal CPC_SIGOVF, and the
 * whole set stops counting until cpc_set_restart.  Linux has no SIGEMT
 * on most machines: CPC_SIGOVF is SIGIO, or the signal named by the
 * environment variable CPC_SIGOVF (a number, or a name such as SIGUSR2),
 * and SIGEMT stands for it where the system has none.  The signal's
 * si_code is EMT_CPCOVF (POLL_HUP, the counting stopped) and si_fd the
 * kernel counter; si_addr carries no program counter.  Instead of a
 * preset, a counting request with CPC_OVF_NOTIFY_EMT may take the
 * attribute period=N (preset 0): it overflows every N events, as with the
 * preset 2^64 - N, which cpc_walk_requests then shows.  SMPL requests
 * (CPC_HW_SMPL, below) are not stopped by an overflow, and
 * cpc_set_restart leaves them sampling; cpc_disable and cpc_enable stop
 * and resume them with the rest of the set.
 *
 * cpc_request_preset changes the preset of request index of the calling
 * thread's bound set, from the next cpc_set_restart, which sets every
 * request back to its preset and counts again (the set argument is not
 * used: the calling thread's bound set is).  cpc_disable and cpc_enable
 * stop and resume the calling thread's bound set.  All four are safe in a
 * signal handler; EINVAL when the thread has no set bound (or, for
 * cpc_enable/cpc_disable, when it is already in that state).
 */
int	cpc_request_preset(cpc_t *cpc, int index, uint64_t preset);
int	cpc_set_restart(cpc_t *cpc, cpc_set_t *set);
int	cpc_enable(cpc_t *cpc);
int	cpc_disable(cpc_t *cpc);
int	cpc_sigovf(void);
#define CPC_SIGOVF	(cpc_sigovf())
/*
 * SIGEMT, where the system has none, is SIGIO: the overflow signal when
 * the environment does not name another.  It is a constant, so that
 * Solaris sources can write case SIGEMT:; a program run with CPC_SIGOVF
 * set in its environment gets that signal instead, and only code that
 * asks CPC_SIGOVF sees it (see cpc_sigovf(3)).
 */
#ifndef SIGEMT
#define SIGEMT		SIGIO
#endif
#ifndef EMT_CPCOVF
#define EMT_CPCOVF	6	/* POLL_HUP */
#endif

/*
 * The event specification of cpustat -c and cputrack -c, as one set:
 *	[picN=]event[,attr[N][=val]][,[picN=]event[,attr[N][=val]]]...
 * with the keywords sys[N] and nouser[N] (see cpc_strtoset(3)).  NULL
 * with EINVAL and a message through the handler (fn "cpc_strtoset") when
 * the text is malformed or a request is refused.  smt is not used.
 */
cpc_set_t	*cpc_strtoset(cpc_t *cpc, const char *spec, int smt);

/*
 * ---------------------------------------------------------------------
 * Hardware sampling (SMPL), the Solaris 11 interface, and its Linux
 * extensions (marked so).
 *
 * A request added with CPC_HW_SMPL samples instead of counting: every
 * `period' events the kernel writes a record of where the program was
 * (its program counter, data address, thread, time, CPU and, when asked,
 * its call chain).  The request's attributes:
 *
 *	smpl_nrecs=N	required: the records one cpc_set_sample hands
 *			over for the request, 1 to cpc_get_smpl_max_rec_count;
 *			with CPC_OVF_NOTIFY_EMT the signal comes each time
 *			that many records have been collected
 *	period=N	events between two records (N >= 1; the clocks
 *			task-clock and cpu-clock at least 100000 ns); default
 *			1 for software events and tracepoints, 1000000 for
 *			the clocks (1 ms), 100003 for hardware events
 *	callchain=N	(Linux) record the call chain too: 1 as deep as the
 *			kernel allows (kernel.perf_event_max_stack), N >= 2
 *			at most N frames; 0 (the default) not
 *
 * with the counting attributes of the event (cpc_walk_attrs_common names
 * them all).  The preset must be 0: a SMPL request has no count to start
 * from.  Any other value, a missing or out-of-range smpl_nrecs, a period
 * of 0, an event that cannot be sampled (EC_hit, a difference of two
 * counters) or an attribute a counting request cannot take fails with
 * EINVAL and a message through the error handler.  CPC_OVF_NOTIFY_EMT
 * on a SMPL request is for sets bound with cpc_bind_curlwp without
 * CPC_BIND_LWP_INHERIT, as for counting requests.
 *
 * A SMPL request is never part of the set's counting group: a counting
 * request's overflow, which stops the counting requests until
 * cpc_set_restart, never stops sampling, and a SMPL request's signal
 * stops nothing.  That signal is CPC_SIGOVF with si_code POLL_IN (a
 * counting overflow has EMT_CPCOVF) and si_fd a descriptor the library
 * holds for the request; smpl_nrecs times period must stay under 2^63.
 * SMPL requests sample with every binding: cpc_bind_curlwp (with
 * CPC_BIND_LWP_INHERIT, the threads created later too, into the same
 * records: the kernel then keeps one ring per CPU online at the bind,
 * and cpc_set_sample merges them oldest first), cpc_bind_pctx (the
 * thread named; bind each thread the pctx reports, as for counting) and
 * cpc_bind_cpu (every process on the CPU: CPC_SMPL_ITEM_PID says whose).
 * Hardware events sample precisely (the PC of the instruction that
 * caused the event) where the PMU can; cpc_caps then has
 * CPC_CAP_OVERFLOW_PRECISE.
 *
 * The records.  The kernel collects a bound set's records into a ring
 * the library owns (sized for at least smpl_nrecs records of the
 * request).  cpc_set_sample moves the records collected since the
 * previous cpc_set_sample (or the bind) into the buffer, at most
 * smpl_nrecs per request, oldest first; records beyond that stay in the
 * ring for the next cpc_set_sample (so a buffer with exactly smpl_nrecs
 * records may mean more are waiting).  Records the ring had no room for
 * are lost: the kernel counts them, and cpc_buf_smpl_lost gives the
 * number lost since the previous sample; never silently dropped.
 * cpc_buf_get on a SMPL request gives the number of records the samples
 * have moved out of the ring since the bind, plus those lost (a count
 * like any other: cpc_buf_sub of two samples is the records taken in
 * between).
 *
 * A buffer (cpc_buf_create) holds smpl_nrecs records per SMPL request of
 * its set, allocated by the library with the buffer.  A record is an
 * array of uint64_t indexed by the CPC_SMPL_ITEM_ constants below.  The
 * pointer cpc_buf_smpl_get_record returns points into the buffer: it is
 * valid until the next cpc_set_sample, cpc_buf_copy or cpc_buf_zero into
 * that buffer or its cpc_buf_destroy; the caller never frees it.
 * cpc_buf_copy copies the records, cpc_buf_zero empties them,
 * cpc_buf_sub and cpc_buf_add leave the destination's records as they
 * were (they do arithmetic on counts only).
 */

/*
 * The items of a SMPL record: indexes into the record's uint64_t array.
 *	PC	program counter of the event
 *	ADDR	data address (page faults, memory events); 0 when the event
 *		has none
 *	TID	thread (Linux TID)
 *	TIME	CLOCK_MONOTONIC ns, as cpc_buf_hrtime
 *	CPU	the CPU it ran on
 * Linux extensions:
 *	PID	process of the thread
 *	MODE	where the PC is: CPC_COUNT_USER, CPC_COUNT_SYSTEM or
 *		CPC_COUNT_HV; 0 unknown
 *	NFRAMES	frames of the call chain (0 without callchain)
 *	NKFRAMES how many of them, the first, are kernel frames
 *	FRAMES	the first frame, innermost (the PC's own function) first;
 *		CPC_SMPL_ITEM_FRAME(i) is frame i, 0 <= i < record[NFRAMES]
 */
#define CPC_SMPL_ITEM_PC	0
#define CPC_SMPL_ITEM_ADDR	1
#define CPC_SMPL_ITEM_TID	2
#define CPC_SMPL_ITEM_TIME	3
#define CPC_SMPL_ITEM_CPU	4
#define CPC_SMPL_ITEM_PID	5
#define CPC_SMPL_ITEM_MODE	6
#define CPC_SMPL_ITEM_NFRAMES	7
#define CPC_SMPL_ITEM_NKFRAMES	8
#define CPC_SMPL_ITEM_FRAMES	9
#define CPC_SMPL_ITEM_FRAME(i)	(CPC_SMPL_ITEM_FRAMES + (i))

/*
 * The most records smpl_nrecs may ask for here, in *max_rec_count: the
 * records of the smallest size that fit the ring an unprivileged user
 * may lock (kernel.perf_event_mlock_kb).  0, or -1 with errno.  The
 * Solaris signature was not established; this is in the style of
 * cpc_buf_smpl_rec_count.  cpc_get_max_smpl_rec_count is the same call,
 * under the spelling of cpc_set_create(3CPC).
 */
int	 cpc_get_smpl_max_rec_count(cpc_t *cpc, cpc_uint_t *max_rec_count);
int	 cpc_get_max_smpl_rec_count(cpc_t *cpc, cpc_uint_t *max_rec_count);
/*
 * The records the last cpc_set_sample put in buf for request
 * request_index, in *rec_count.  -1 with EINVAL when the request is not
 * a SMPL request or the index is out of range.
 */
int	 cpc_buf_smpl_rec_count(cpc_t *cpc, cpc_buf_t *buf,
	    int request_index, cpc_uint_t *rec_count);
/*
 * Record record_index (0 to rec_count - 1, oldest first) of request
 * request_index: a pointer into buf (see above for its lifetime), or
 * NULL with EINVAL.
 */
uint64_t *cpc_buf_smpl_get_record(cpc_t *cpc, cpc_buf_t *buf,
	    int request_index, int record_index);
/*
 * One item of that record (a CPC_SMPL_ITEM_ index, or
 * CPC_SMPL_ITEM_FRAME(i) for a frame of its call chain) in *val; -1 with
 * EINVAL for an index outside the record.
 */
int	 cpc_buf_smpl_get_item(cpc_t *cpc, cpc_buf_t *buf,
	    int request_index, int record_index, int record_item_index,
	    uint64_t *val);
/*
 * The walkers of the SMPL interface: the events a SMPL request accepts
 * (every one can be counted too: these are the events common to both
 * kinds of request), per pic like cpc_walk_events_pic; and the
 * attributes a SMPL request accepts: those of cpc_walk_attrs (the ones
 * common to both kinds), then smpl_nrecs, period and callchain.
 */
void	cpc_walk_events_all_common(cpc_t *cpc, void *arg,
	    void (*fn)(void *arg, const char *event));
void	cpc_walk_events_pic_common(cpc_t *cpc, cpc_uint_t picno, void *arg,
	    void (*fn)(void *arg, cpc_uint_t picno, const char *event));
void	cpc_walk_attrs_common(cpc_t *cpc, void *arg,
	    void (*fn)(void *arg, const char *attr));
/*
 * Linux extension: the records of request request_index that were lost
 * (the ring was full) since the sample before the one in buf, in *lost.
 * -1 with EINVAL when the request is not a SMPL request.
 */
int	 cpc_buf_smpl_lost(cpc_t *cpc, cpc_buf_t *buf, int request_index,
	    uint64_t *lost);

/*
 * Linux extensions.
 * cpc_buf_scaled: 1 if the kernel time-shared the set's counters for part
 * of the sample (the values were scaled by enabled/running time); 3 if
 * the set never had its counters since it was bound (others held them:
 * the values are 0, not counts); 0 otherwise.
 */
int	cpc_buf_scaled(cpc_t *cpc, cpc_buf_t *buf);
/*
 * cpc_buf_times: the nanoseconds the set was enabled and running (had
 * its counters) over the span of buf's values, from the bind to the
 * sample, or what cpc_buf_sub and cpc_buf_add made of them.  0, or -1
 * with EINVAL for a NULL buf.
 */
int	cpc_buf_times(cpc_t *cpc, cpc_buf_t *buf, uint64_t *enabled,
	    uint64_t *running);
/* 1 if the kernel has a hardware PMU for the CPU. */
int	cpc_have_hw_pmu(cpc_t *cpc);

/*
 * The whole catalogue: every event name the library accepts (except raw
 * codes and pmu/term=value/ spellings), with its kind ("hardware",
 * "cache", "software", "generic", "classic", "native", "pmu",
 * "tracepoint"), a one-line description, and the result of a test open
 * made now with the default flags (user mode where the mode flags apply).
 * The strings are valid during the call only.
 */
typedef struct {
	const char	*ei_name;	/* as written in a request */
	const char	*ei_kind;
	const char	*ei_desc;
	int		 ei_avail;	/* CPC_AVAIL_* */
} cpc_evinfo_t;

#define CPC_AVAIL_NO	0	/* this machine cannot count it */
#define CPC_AVAIL_YES	1	/* the test open succeeded */
#define CPC_AVAIL_PRIV	2	/* refused to this user (EACCES, EPERM) */

/* Test opens count one CPU, as cpc_bind_cpu; default: the calling thread. */
#define CPC_WALK_CPU	0x1

/*
 * Call fn for each name that matches pattern: NULL or "" for all; a shell
 * pattern (fnmatch(3)) for the whole name when it has * ? or [; otherwise
 * a substring.  Both ignore case.  Returns the number of calls, or -1
 * (EINVAL).  An unreadable tracefs is reported through the error handler
 * and its tracepoints are left out.
 */
int	cpc_walk_catalogue(cpc_t *cpc, const char *pattern, cpc_uint_t flags,
	    void *arg, void (*fn)(void *arg, const cpc_evinfo_t *ev));


/*
 * ---------------------------------------------------------------------
 * v1 (obsolete) API: the Solaris 8 interface (cpc_bind_event(3) and
 * cpc_strtoevent(3)), implemented on the calls above with hidden sets.
 * New programs use the v2 calls.  An event specification is the text of
 * cpustat -c with at most two events (pic0 and pic1).
 * ---------------------------------------------------------------------
 */

/*
 * cpc_getcpuver() values.  The Solaris processors' codes are defined for
 * programs that compare with them; Linux returns one of CPC_LINUX_*: the
 * kind of counters perf_event offers on this machine.
 */
#define CPC_ULTRA1		1000
#define CPC_ULTRA2		1001
#define CPC_ULTRA3		1002
#define CPC_ULTRA3_PLUS		1003
#define CPC_ULTRA3_I		1004
#define CPC_ULTRA4_PLUS		1005
#define CPC_PENTIUM		2000
#define CPC_PENTIUM_MMX		2001
#define CPC_PENTIUM_PRO		2002
#define CPC_PENTIUM_PRO_MMX	2003
#define CPC_SPARC64_III		3000
#define CPC_SPARC64_V		3002
#define CPC_LINUX_NOPMU		4000	/* no hardware PMU: software events,
					   tracepoints, sysfs PMUs */
#define CPC_LINUX_INTEL		4001	/* Intel PMU */
#define CPC_LINUX_AMD		4002	/* AMD or Hygon PMU */
#define CPC_LINUX_ARM		4003	/* Arm PMU */
#define CPC_LINUX_PMU		4004	/* another hardware PMU */

/*
 * The sample of a v1 binding.  ce_pic[] are 64-bit counts (from the
 * preset the binding began with), ce_hrt CLOCK_MONOTONIC nanoseconds of
 * the sample, ce_tsc (ce_tick) the cycle counter ticks since the binding.
 * The control fields (ce_pes, ce_cesr, ce_pcr) identify the event
 * specification that cpc_strtoevent parsed: do not change them.
 */
#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
typedef struct {
	int		ce_cpuver;
	cpc_hrtime_t	ce_hrt;
	uint64_t	ce_tsc;
	uint64_t	ce_pic[2];
	uint32_t	ce_pes[2];
#define ce_cesr	ce_pes[0]
} cpc_event_t;
#else
typedef struct {
	int		ce_cpuver;
	cpc_hrtime_t	ce_hrt;
	uint64_t	ce_tick;
	uint64_t	ce_pic[2];
	uint64_t	ce_pcr;
} cpc_event_t;
#endif

/* The v1 error handler: like cpc_errhndlr_t, without a subcode. */
typedef void (cpc_errfn_t)(const char *fn, const char *fmt, va_list ap);

/* CPC_VER_NONE: the library's version; 1 or 2: that one if supported. */
cpc_uint_t	 cpc_version(cpc_uint_t ver);
/* 0 if this process can count, else -1 with errno and a message. */
int	 cpc_access(void);
/* This machine's code, a CPC_LINUX_ value; -1 without perf_event. */
int	 cpc_getcpuver(void);
/* For cpc_getcpuver()'s code: as cpc_cciname, cpc_cpuref; else NULL. */
const char *cpc_getcciname(int cpuver);
const char *cpc_getcpuref(int cpuver);
/* The syntax of cpc_strtoevent's text; NULL for another cpuver. */
const char *cpc_getusage(int cpuver);
/* The entries of ce_pic[] that count: 2; 0 for another cpuver. */
cpc_uint_t	 cpc_getnpic(int cpuver);
/* Every event name pic regno (0 or 1) takes; bits is 0 (no encoding). */
void	 cpc_walk_names(int cpuver, int regno, void *arg,
	    void (*action)(void *arg, int regno, const char *name,
	    uint8_t bits));
/* Parse spec into event: 0, or non-zero with a message (errno EINVAL). */
int	 cpc_strtoevent(int cpuver, const char *spec, cpc_event_t *event);
/* The canonical spec of event, malloc'd (cpc_strtoevent takes it back). */
char	*cpc_eventtostr(cpc_event_t *event);
/* accum->ce_pic += event->ce_pic, ticks too; ce_hrt the later. */
void	 cpc_event_accum(cpc_event_t *accum, cpc_event_t *event);
/* diff = left - right (counts and ticks); ce_hrt and controls left's. */
void	 cpc_event_diff(cpc_event_t *diff, cpc_event_t *left,
	    cpc_event_t *right);
/*
 * Count event on the calling thread from the presets in ce_pic[]
 * (replacing what the thread counted before); NULL releases.  flags:
 * CPC_BIND_LWP_INHERIT, CPC_BIND_EMT_OVF (signal SIGEMT at overflow).
 */
int	 cpc_bind_event(cpc_event_t *event, int flags);
/* The calling thread's counts; EINVAL when nothing is bound. */
int	 cpc_take_sample(cpc_event_t *event);
/* Stop counting on the calling thread and forget the binding; 0. */
int	 cpc_rele(void);
/* Count user (kernel) mode from now on, or stop: on 1, off 0. */
int	 cpc_count_usr_events(int on);
int	 cpc_count_sys_events(int on);
/* The same for thread lwpid of a process under pctx control. */
int	 cpc_pctx_bind_event(pctx_t *pctx, id_t lwpid, cpc_event_t *event,
	    int flags);
int	 cpc_pctx_take_sample(pctx_t *pctx, id_t lwpid, cpc_event_t *event);
int	 cpc_pctx_rele(pctx_t *pctx, id_t lwpid);
/* Stop the thread's counting; its samples fail with EAGAIN until bound. */
int	 cpc_pctx_invalidate(pctx_t *pctx, id_t lwpid);
/*
 * Count the calling thread's CPU for every process: cpc_shared_open
 * takes the CPU the thread is bound to (or runs on), and binding pins the
 * thread there until cpc_shared_rele.  Returns a descriptor, or -1.
 */
int	 cpc_shared_open(void);
int	 cpc_shared_bind_event(int fd, cpc_event_t *event, int flags);
int	 cpc_shared_take_sample(int fd, cpc_event_t *event);
int	 cpc_shared_rele(int fd);
void	 cpc_shared_close(int fd);
/* Install the v1 handler; NULL restores the default (libcpc: fn: msg). */
void	 cpc_seterrfn(cpc_errfn_t *errfn);

#ifdef __cplusplus
}
#endif

#endif /* LIBCPC_H */
