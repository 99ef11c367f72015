/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bind.c - binding sets to targets, sampling, unbinding.
 *
 * A bound set's group stays open after cpc_unbind (disabled), so that the
 * tools can rotate through several sets by enabling and disabling groups:
 * closing a tracepoint event costs tens of milliseconds in the kernel.
 * Binding a set whose group is open on the same target just restarts it.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "backend.h"
#include "libpctx.h"

/*
 * The set bound to this thread by cpc_bind_curlwp, for the calls that
 * name no set (cpc_set_restart, cpc_request_preset, cpc_enable,
 * cpc_disable): thread-local, so that they need no lock and may run in
 * the overflow signal's handler.
 *
 * A thread has one such set, as an LWP has one context on Solaris:
 * binding another replaces it, whatever handle either came from.  The
 * set points back at the slot (cs_slot), so that unbinding or destroying
 * it from another thread empties the slot instead of leaving it to
 * dangle, and a thread's exit (slot_key's destructor) empties the set's
 * pointer before the slot goes.  slot_lock guards both directions; it is
 * held with signals blocked, so that a handler binding a set cannot find
 * it taken by the code it interrupted.
 */
static __thread cpc_set_t *lwp_set;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static int slot_keyok;
static pthread_mutex_t tid_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread sigset_t fork_mask;

static void
slot_lock_take(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
	pthread_mutex_lock(&slot_lock);
}

static void
slot_lock_drop(const sigset_t *old)
{
	pthread_mutex_unlock(&slot_lock);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Stop counting and sampling: an unbind, or another set taking over. */
static void
set_stop(cpc_t *cpc, cpc_set_t *set)
{
	(void)set->cs_be->be_stop(cpc, set);
	(void)cpc->c_sbe->sb_enable(cpc, set, 0);
}

/* Thread exit: the set bound here no longer has a slot to empty. */
static void
slot_exit(void *unused)
{
	sigset_t old;

	(void)unused;
	slot_lock_take(&old);
	if (lwp_set != NULL)
		__atomic_store_n(&lwp_set->cs_slot, NULL, __ATOMIC_RELEASE);
	lwp_set = NULL;
	slot_lock_drop(&old);
}

/*
 * fork(2) in a threaded program: the child must not inherit slot_lock or
 * tid_lock taken by a thread it does not have (it would hang, signals
 * blocked).  Nor does it inherit the calling thread's set: on Solaris a
 * new process has no context, and the set's counters count the parent.
 */
static void
fork_prepare(void)
{
	slot_lock_take(&fork_mask);
	pthread_mutex_lock(&tid_lock);
}

static void
fork_parent(void)
{
	pthread_mutex_unlock(&tid_lock);
	slot_lock_drop(&fork_mask);
}

static void
fork_child(void)
{
	if (lwp_set != NULL)
		lwp_set->cs_slot = NULL;
	lwp_set = NULL;
	fork_parent();
}

static void
slot_init(void)
{
	slot_keyok = pthread_key_create(&slot_key, slot_exit) == 0;
	(void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/*
 * Before binding: the thread's exit will empty its slot.  Done before the
 * counters start, since it may allocate (and fault pages in) the first
 * time: the set would count the library's own work.
 */
static void
slot_prepare(void)
{
	pthread_once(&slot_once, slot_init);
	if (slot_keyok && pthread_getspecific(slot_key) == NULL)
		(void)pthread_setspecific(slot_key, &lwp_set);
}

/* set is no longer any thread's: empty the slot it was in. */
static void
slot_clear(cpc_set_t *set)
{
	sigset_t old;

	/* Not bound with cpc_bind_curlwp: the usual case, without a lock. */
	if (__atomic_load_n(&set->cs_slot, __ATOMIC_ACQUIRE) == NULL &&
	    lwp_set != set)
		return;
	slot_lock_take(&old);
	if (set->cs_slot != NULL && *set->cs_slot == set)
		*set->cs_slot = NULL;
	set->cs_slot = NULL;
	slot_lock_drop(&old);
}

/*
 * set becomes the calling thread's: the set bound here before is
 * unbound (its group stays open, disabled, for a later bind), and the
 * slot of another thread holding set is emptied.
 */
static void
slot_take(cpc_set_t *set)
{
	cpc_set_t *prev;
	sigset_t old;

	slot_lock_take(&old);
	prev = lwp_set;
	if (prev != NULL && prev != set) {
		if (prev->cs_bound)
			set_stop(prev->cs_cpc, prev);
		prev->cs_bound = 0;
		/* Last: slot_clear may then go on, and free prev, unlocked. */
		__atomic_store_n(&prev->cs_slot, NULL, __ATOMIC_RELEASE);
	}
	if (set->cs_slot != NULL && set->cs_slot != &lwp_set &&
	    *set->cs_slot == set)
		*set->cs_slot = NULL;
	lwp_set = set;
	set->cs_slot = &lwp_set;
	slot_lock_drop(&old);
}

/*
 * The sets bound with cpc_bind_pctx, by thread.  A thread has one, as an
 * LWP has one context on Solaris, so binding another (from any handle)
 * unbinds the one before; hashed by TID, so that cputrack's rotation over
 * thousands of threads stays linear.  A set's cs_tid does not change
 * while it is indexed: every rebind drops it first.
 */
#define TIDHASH		16384
static cpc_set_t *tid_hash[TIDHASH];

static cpc_set_t **
tid_bucket(pid_t tid)
{
	return &tid_hash[(unsigned)tid % TIDHASH];
}

/*
 * Always under the lock: a tid_take in another thread may be unbinding
 * set right now (and the caller may be about to free it).
 */
static void
tid_drop(cpc_set_t *set)
{
	cpc_set_t **pp;

	pthread_once(&slot_once, slot_init);
	pthread_mutex_lock(&tid_lock);
	if (!set->cs_indexed) {
		pthread_mutex_unlock(&tid_lock);
		return;
	}
	for (pp = tid_bucket(set->cs_tid); *pp != NULL; pp = &(*pp)->cs_tnext)
		if (*pp == set) {
			*pp = set->cs_tnext;
			break;
		}
	set->cs_tnext = NULL;
	set->cs_indexed = 0;
	pthread_mutex_unlock(&tid_lock);
}

/* set is bound to its thread now: another set bound there is unbound. */
static void
tid_take(cpc_set_t *set)
{
	cpc_set_t **pp, *prev;

	pthread_mutex_lock(&tid_lock);
	for (pp = tid_bucket(set->cs_tid); (prev = *pp) != NULL; ) {
		if (prev == set || prev->cs_tid != set->cs_tid) {
			pp = &prev->cs_tnext;
			continue;
		}
		*pp = prev->cs_tnext;
		prev->cs_tnext = NULL;
		if (prev->cs_bound)
			set_stop(prev->cs_cpc, prev);
		prev->cs_bound = 0;
		prev->cs_indexed = 0;
	}
	if (!set->cs_indexed) {
		set->cs_tnext = *tid_bucket(set->cs_tid);
		*tid_bucket(set->cs_tid) = set;
		set->cs_indexed = 1;
	}
	pthread_mutex_unlock(&tid_lock);
}

/*
 * The thread cpc_bind_cpu pinned runs where it ran before, whichever
 * thread of the process unbinds, rebinds or destroys the set.
 */
static void
unpin(cpc_set_t *set)
{
	pid_t tid = set->cs_pinned;

	if (!set->cs_bound || set->cs_kind != CPC_BIND_CPU || tid <= 0)
		return;
	if (tid == (pid_t)syscall(SYS_gettid))
		tid = 0;
	else if (syscall(SYS_tgkill, getpid(), tid, 0) != 0)
		return;		/* that thread has ended */
	(void)sched_setaffinity(tid, sizeof(set->cs_oldmask),
	    &set->cs_oldmask);
	set->cs_pinned = 0;
}

const struct cpc_backend *
cpc_set_backend(cpc_t *cpc, const cpc_set_t *set)
{
	int i;

	if (cpc->c_msr != CPC_MSR_NONE)
		for (i = 0; i < set->cs_nreqs; i++)
			if (set->cs_reqs[i].cr_ev.ev_hw)
				return cpc->c_hwbe;
	return cpc->c_be;
}

/* Close a group kept open for re-binding (or still bound). */
void
cpc_set_release(cpc_t *cpc, cpc_set_t *set)
{
	slot_clear(set);
	tid_drop(set);
	unpin(set);
	if (set->cs_open) {
		cpc->c_sbe->sb_close(cpc, set);
		set->cs_be->be_close(cpc, set);
	}
	set->cs_open = 0;
	set->cs_bound = 0;
	set->cs_kind = CPC_BIND_NONE;
}

/* The open group counts for t already (an inheriting group is another). */
/*
 * Solaris semantics: a set whose hardware requests cannot all have a
 * counter at once fails at bind, rather than being time-shared in
 * silence.  The kernel does not always refuse such a group itself (the
 * ARMv8 driver opens seven event-counter requests on six counters, and
 * never schedules them), so the counters are counted here.
 */
int
cpc_set_fits(cpc_t *cpc, const char *fn, const cpc_set_t *set)
{
	const struct cpc_platform *pf;
	int taken[4] = { 0 };
	int i, k, gp = 0;

	if (!cpc->c_hwpmu)
		return 0;
	pf = cpc_platform(cpc);
	if (pf->pf_ngp + pf->pf_nfixed == 0)
		return 0;		/* nothing known: the kernel decides */
	for (i = 0; i < set->cs_nreqs; i++) {
		const struct cpc_event *ev = &set->cs_reqs[i].cr_ev;

		if (!ev->ev_hw)
			continue;
		/* One request per fixed counter; the others need a gp one. */
		k = ev->ev_derived ? 0 : cpc_fixed_counter(pf->pf_vendor,
		    ev->ev_type, ev->ev_config);
		if (k > 0 && k <= pf->pf_nfixed && !taken[k]++)
			continue;
		gp += 1 + ev->ev_derived;
	}
	if (gp <= pf->pf_ngp)
		return 0;
	cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL, "Hardware resource "
	    "unavailable: the set needs %d general-purpose counters and this "
	    "processor has %d (and %d fixed, each for one event: %s)", gp,
	    pf->pf_ngp, pf->pf_nfixed, pf->pf_vendor == CPC_VENDOR_INTEL ?
	    "instructions, cycles, ref-cycles" : "cycles");
	errno = EINVAL;
	return -1;
}

static int
same_target(const cpc_set_t *set, const struct cpc_target *t)
{
	if (!set->cs_open || set->cs_kind != t->t_kind ||
	    set->cs_inherit != t->t_inherit || set->cs_ends != t->t_ends)
		return 0;
	if (t->t_kind == CPC_BIND_CPU)
		return set->cs_cpu == t->t_cpu;
	return set->cs_tid == t->t_tid;
}

int
cpc_period_too_short(cpc_t *cpc, const char *fn,
    const struct cpc_request *r, uint64_t preset)
{
	uint64_t min = cpc->c_be->be_min_period(&r->cr_ev);

	if (min == 0 || 0 - preset >= min)
		return 0;
	cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "preset %#llx of '%s' "
	    "would overflow every %llu events; this kernel cannot take an "
	    "overflow period under %llu for it (an interrupt storm stalls "
	    "the CPU): use a preset of at most %#llx",
	    (unsigned long long)preset, r->cr_event,
	    (unsigned long long)(0 - preset), (unsigned long long)min,
	    (unsigned long long)(0 - min));
	errno = EINVAL;
	return -1;
}

/* A preset cpc_set_add_request takes with CPC_OVF_NOTIFY_EMT. */
static int
can_overflow(const struct cpc_request *r)
{
	return r->cr_preset != 0 && (0 - r->cr_preset) <= (uint64_t)INT64_MAX &&
	    !r->cr_ev.ev_derived;
}

/*
 * Which requests overflow in this binding: those added with
 * CPC_OVF_NOTIFY_EMT, and with CPC_BIND_EMT_OVF every request whose
 * preset lets it overflow (a preset of 0 would overflow after 2^64
 * events: never).  1 when any does.
 */
static int
mark_overflow(cpc_set_t *set, int emtovf)
{
	int i, any = 0;

	for (i = 0; i < set->cs_nreqs; i++) {
		struct cpc_request *r = &set->cs_reqs[i];

		/* A SMPL request signals, but overflows nothing. */
		r->cr_ovf = !r->cr_smpl &&
		    ((r->cr_flags & CPC_OVF_NOTIFY_EMT) != 0 ||
		    (emtovf && can_overflow(r)));
		any |= r->cr_ovf;
	}
	return any;
}

/*
 * A SMPL request's signal (CPC_OVF_NOTIFY_EMT) goes to the thread bound
 * with cpc_bind_curlwp, as a counting overflow's: the kernel signals the
 * owner of the descriptor, which only the bound thread's opens have.
 */
static int
smpl_signal_ok(cpc_t *cpc, const char *fn, const cpc_set_t *set,
    const struct cpc_target *t)
{
	int i;

	for (i = 0; i < set->cs_nreqs; i++) {
		const struct cpc_request *r = &set->cs_reqs[i];

		if (!r->cr_smpl || !(r->cr_flags & CPC_OVF_NOTIFY_EMT) ||
		    (t->t_kind == CPC_BIND_CURLWP && !t->t_inherit))
			continue;
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "the signal of "
		    "sampling request '%s' (CPC_OVF_NOTIFY_EMT) is for sets "
		    "bound with cpc_bind_curlwp, without "
		    "CPC_BIND_LWP_INHERIT", r->cr_event);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* CPC_BIND_LWP_ENDS: counting requests only, on a backend that can. */
static int
ends_ok(cpc_t *cpc, const char *fn, const cpc_set_t *set,
    const struct cpc_target *t)
{
	if (!t->t_ends)
		return 0;
	if (set->cs_nsmpl > 0) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "CPC_BIND_LWP_ENDS "
		    "is for sets of counting requests; this one samples");
		errno = EINVAL;
		return -1;
	}
	if (cpc_set_backend(cpc, set)->be_lwp_events == NULL) {
		cpc_err(cpc, fn, -1, "CPC_BIND_LWP_ENDS: the %s backend "
		    "cannot count threads", cpc_set_backend(cpc, set)->be_name);
		errno = ENOTSUP;
		return -1;
	}
	return 0;
}

/*
 * Whether set can be bound to t as it is: its handle, its requests, the
 * overflow and sampling rules, the counters it needs.  0, or -1 with
 * errno and a reported message.  Marks the overflowing requests.
 */
static int
bind_check(cpc_t *cpc, const char *fn, cpc_set_t *set,
    const struct cpc_target *t)
{
	int i, ovf;

	if (set->cs_cpc != cpc) {
		errno = EINVAL;
		cpc_err(cpc, fn, -1, "the set was created with another handle");
		return -1;
	}
	if (set->cs_nreqs == 0) {
		errno = EINVAL;
		cpc_err(cpc, fn, -1, "the set has no requests");
		return -1;
	}
	/* The group's sampling periods follow the overflow requests. */
	if (set->cs_open && set->cs_emtovf != t->t_emtovf)
		cpc_set_release(cpc, set);
	set->cs_emtovf = t->t_emtovf;
	ovf = mark_overflow(set, t->t_emtovf);
	for (i = 0; i < set->cs_nreqs; i++)
		if (set->cs_reqs[i].cr_ovf && cpc_period_too_short(cpc, fn,
		    &set->cs_reqs[i], set->cs_reqs[i].cr_preset) != 0)
			return -1;
	if (ovf && t->t_inherit) {
		errno = EINVAL;
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "overflow notification "
		    "(CPC_OVF_NOTIFY_EMT) cannot go with CPC_BIND_LWP_INHERIT "
		    "here: Linux signals the overflow of a counter only through "
		    "the descriptor that opened it, and a new thread's counters "
		    "are copies the kernel opens, with no descriptor, so its "
		    "overflows would reach nobody");
		return -1;
	}
	if (ovf && t->t_kind != CPC_BIND_CURLWP) {
		errno = EINVAL;
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "overflow notification "
		    "(CPC_OVF_NOTIFY_EMT) is for sets bound with "
		    "cpc_bind_curlwp, without CPC_BIND_LWP_INHERIT");
		return -1;
	}
	if (smpl_signal_ok(cpc, fn, set, t) != 0 ||
	    ends_ok(cpc, fn, set, t) != 0 ||
	    cpc_set_fits(cpc, fn, set) != 0)
		return -1;
	return 0;
}

/* Close the set's group and SMPL requests, kept open until now. */
static void
close_open(cpc_t *cpc, cpc_set_t *set)
{
	cpc->c_sbe->sb_close(cpc, set);
	set->cs_be->be_close(cpc, set);
	set->cs_open = 0;
}

/* Open the set on t, its group and its SMPL requests: 0, or -1. */
static int
open_target(cpc_t *cpc, cpc_set_t *set, const struct cpc_target *t)
{
	set->cs_be = cpc_set_backend(cpc, set);
	set->cs_kind = t->t_kind;
	set->cs_cpu = t->t_cpu;
	set->cs_tid = t->t_tid;
	set->cs_inherit = t->t_inherit;
	set->cs_ends = t->t_ends;
	if (set->cs_be->be_open(cpc, set, t) != 0)
		return -1;
	/* The SMPL requests, outside the group (backend.h). */
	if (cpc->c_sbe->sb_open(cpc, set, t) != 0) {
		int e = errno;

		set->cs_be->be_close(cpc, set);
		errno = e;
		return -1;
	}
	set->cs_open = 1;
	return 0;
}

static int
bind_target(cpc_t *cpc, const char *fn, cpc_set_t *set,
    const struct cpc_target *t)
{
	int i;

	if (bind_check(cpc, fn, set, t) != 0)
		return -1;
	for (i = 0; i < set->cs_nreqs; i++) {
		set->cs_reqs[i].cr_cur = set->cs_reqs[i].cr_preset;
		set->cs_reqs[i].cr_hasnext = 0;
	}
	if (set->cs_bound)
		set_stop(cpc, set);
	/* From a CPU to a thread: the pinned thread runs where it ran. */
	if (t->t_kind != CPC_BIND_CPU)
		unpin(set);
	set->cs_bound = 0;
	tid_drop(set);
	if (t->t_kind != CPC_BIND_CURLWP)
		slot_clear(set);
	if (set->cs_open && (set->cs_be != cpc_set_backend(cpc, set) ||
	    !same_target(set, t)))
		close_open(cpc, set);
	if (!set->cs_open && open_target(cpc, set, t) != 0)
		return -1;
	set->cs_tick0 = cpc_ticknow();
	/* The clock's vDSO pages in now, not as a fault the set sees. */
	(void)cpc_hrnow();
	if (set->cs_be->be_start(cpc, set) != 0 ||
	    cpc->c_sbe->sb_start(cpc, set) != 0)
		return -1;
	set->cs_bound = 1;
	set->cs_disabled = 0;
	if (t->t_kind == CPC_BIND_CURLWP)
		slot_take(set);
	else if (t->t_kind == CPC_BIND_PCTX)
		tid_take(set);
	return 0;
}

CPC_EXPORT int
cpc_bind_curlwp(cpc_t *cpc, cpc_set_t *set, uint_t flags)
{
	struct cpc_target t = {
		.t_kind = CPC_BIND_CURLWP,
		.t_cpu = -1,
		.t_tid = (pid_t)syscall(SYS_gettid),
		.t_inherit = (flags & CPC_BIND_LWP_INHERIT) != 0,
		.t_emtovf = (flags & CPC_BIND_EMT_OVF) != 0,
		.t_fn = "cpc_bind_curlwp",
	};

	if (set == NULL ||
	    (flags & ~(CPC_BIND_LWP_INHERIT | CPC_BIND_EMT_OVF)) != 0) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * An inheriting group keeps the counts of the threads that ended
	 * (the kernel adds them to it): bind it afresh each time.
	 */
	if (set->cs_open && (t.t_inherit || set->cs_inherit))
		cpc_set_release(cpc, set);
	slot_prepare();
	return bind_target(cpc, "cpc_bind_curlwp", set, &t);
}

CPC_EXPORT int
cpc_bind_cpu(cpc_t *cpc, processorid_t cpu, cpc_set_t *set, uint_t flags)
{
	static const char fn[] = "cpc_bind_cpu";
	struct cpc_target t = {
		.t_kind = CPC_BIND_CPU, .t_cpu = cpu, .t_tid = -1, .t_fn = fn,
	};
	cpu_set_t old, mask;

	if (set == NULL || flags != 0 || cpu < 0 || cpu >= CPU_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	switch (cpc_cpu_state(cpu)) {
	case -1:
		cpc_err(cpc, fn, -1, "there is no cpu %d", cpu);
		errno = EINVAL;
		return -1;
	case 0:
		cpc_err(cpc, fn, -1, "cpu %d is offline", cpu);
		errno = ENOSYS;
		return -1;
	}
	if (sched_getaffinity(0, sizeof(old), &old) != 0)
		CPU_ZERO(&old);
	if (set->cs_bound && set->cs_kind == CPC_BIND_CPU) {
		if (set->cs_pinned == (pid_t)syscall(SYS_gettid))
			old = set->cs_oldmask;	/* keep the pre-bind mask */
		else
			unpin(set);		/* another thread's pin */
	}
	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	/*
	 * A thread that runs only on cpu already (cpustat's, which binds
	 * set after set there) is neither pinned nor, at unbind, unpinned.
	 */
	if (CPU_EQUAL(&old, &mask) && !(set->cs_bound &&
	    set->cs_kind == CPC_BIND_CPU && set->cs_pinned != 0)) {
		if (bind_target(cpc, fn, set, &t) != 0)
			return -1;
		set->cs_pinned = 0;
		return 0;
	}
	if (sched_setaffinity(0, sizeof(mask), &mask) != 0) {
		int e = errno;

		cpc_err(cpc, fn, CPC_PBIND_FAILED, "cannot run on cpu %d: %s",
		    cpu, strerror(e));
		errno = e == ESRCH ? EINVAL : e;
		return -1;
	}
	if (bind_target(cpc, fn, set, &t) != 0) {
		int e = errno;

		(void)sched_setaffinity(0, sizeof(old), &old);
		set->cs_pinned = 0;
		errno = e;
		return -1;
	}
	set->cs_oldmask = old;
	set->cs_pinned = (pid_t)syscall(SYS_gettid);
	return 0;
}

CPC_EXPORT int
cpc_bind_pctx(cpc_t *cpc, pctx_t *pctx, id_t id, cpc_set_t *set,
    uint_t flags)
{
	static const char fn[] = "cpc_bind_pctx";
	struct cpc_target t = {
		.t_kind = CPC_BIND_PCTX, .t_cpu = -1, .t_tid = (pid_t)id,
		.t_fn = fn,
	};

	if (set == NULL || pctx == NULL || (pid_t)id <= 0 ||
	    (flags & ~(CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS |
	    CPC_BIND_LWP_FORKS)) != 0 ||
	    ((flags & CPC_BIND_LWP_ENDS) && !(flags & CPC_BIND_LWP_INHERIT)) ||
	    ((flags & CPC_BIND_LWP_FORKS) && !(flags & CPC_BIND_LWP_ENDS))) {
		errno = EINVAL;
		return -1;
	}
	t.t_inherit = (flags & CPC_BIND_LWP_INHERIT) != 0;
	t.t_ends = (flags & CPC_BIND_LWP_FORKS) ? CPC_ENDS_TREE :
	    (flags & CPC_BIND_LWP_ENDS) != 0;
	/* An inheriting group holds the ended threads' counts: afresh. */
	if (set->cs_open && (t.t_inherit || set->cs_inherit))
		cpc_set_release(cpc, set);
	if (!pctx_has_lwp(pctx, id)) {
		cpc_err(cpc, fn, -1, "thread %d is not one of the controlled "
		    "process's", (int)id);
		errno = ESRCH;
		return -1;
	}
	return bind_target(cpc, fn, set, &t);
}

CPC_EXPORT int
cpc_unbind(cpc_t *cpc, cpc_set_t *set)
{
	if (set == NULL || set->cs_cpc != cpc || !set->cs_bound) {
		errno = EINVAL;
		return -1;
	}
	set_stop(cpc, set);
	unpin(set);
	set->cs_bound = 0;
	slot_clear(set);
	tid_drop(set);
	return 0;
}

/* The calling thread's bound set, or NULL with EINVAL. */
static cpc_set_t *
bound_here(void)
{
	cpc_set_t *set = lwp_set;

	if (set == NULL || !set->cs_bound) {
		errno = EINVAL;
		return NULL;
	}
	return set;
}

CPC_EXPORT int
cpc_request_preset(cpc_t *cpc, int index, uint64_t preset)
{
	cpc_set_t *set = bound_here();
	struct cpc_request *r;

	if (set == NULL)
		return -1;
	if (index < 0 || index >= set->cs_nreqs) {
		errno = EINVAL;
		return -1;
	}
	r = &set->cs_reqs[index];
	/*
	 * The same range as cpc_set_add_request's, the backend's shortest
	 * period included; no handler call, in a signal handler.
	 */
	if (r->cr_ovf &&
	    (preset == 0 || (0 - preset) > (uint64_t)INT64_MAX ||
	    0 - preset < set->cs_be->be_min_period(&r->cr_ev))) {
		errno = EINVAL;
		return -1;
	}
	(void)cpc;
	r->cr_next = preset;
	r->cr_hasnext = 1;
	return 0;
}

/* Every request of the calling thread's set back at its preset. */
CPC_EXPORT int
cpc_set_restart(cpc_t *cpc, cpc_set_t *unused)
{
	cpc_set_t *set = bound_here();
	int i;

	(void)unused;
	if (set == NULL)
		return -1;
	for (i = 0; i < set->cs_nreqs; i++)
		if (set->cs_reqs[i].cr_hasnext) {
			set->cs_reqs[i].cr_cur = set->cs_reqs[i].cr_next;
			set->cs_reqs[i].cr_hasnext = 0;
		}
	if (set->cs_be->be_start(cpc, set) != 0)
		return -1;
	set->cs_disabled = 0;
	return 0;
}

CPC_EXPORT int
cpc_disable(cpc_t *cpc)
{
	cpc_set_t *set = bound_here();

	if (set == NULL)
		return -1;
	if (set->cs_disabled) {
		errno = EINVAL;
		return -1;
	}
	if (set->cs_be->be_stop(cpc, set) != 0 ||
	    cpc->c_sbe->sb_enable(cpc, set, 0) != 0)
		return -1;
	set->cs_disabled = 1;
	return 0;
}

CPC_EXPORT int
cpc_enable(cpc_t *cpc)
{
	cpc_set_t *set = bound_here();

	if (set == NULL)
		return -1;
	if (!set->cs_disabled) {
		errno = EINVAL;
		return -1;
	}
	if (set->cs_be->be_resume(cpc, set) != 0 ||
	    cpc->c_sbe->sb_enable(cpc, set, 1) != 0)
		return -1;
	set->cs_disabled = 0;
	return 0;
}

/* cpc_set_sample for the sets without a backend's own (cs_sample). */
static __attribute__((noinline)) int
sample_any(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf)
{
	static const char fn[] = "cpc_set_sample";
	int scaled = 0;

	if (set->cs_kind == CPC_BIND_CPU && sched_getcpu() != set->cs_cpu) {
		/* The CPU went away under us (offline) or the mask changed. */
		errno = EAGAIN;
		cpc_err(cpc, fn, -1, "no longer running on cpu %d (offline?)",
		    set->cs_cpu);
		return -1;
	}
	if (set->cs_be->be_read(cpc, set, buf->cb_vals, &scaled) != 0)
		return -1;
	buf->cb_hrtime = cpc_hrnow();
	buf->cb_tick = cpc_ticknow() - set->cs_tick0;
	buf->cb_scaled = scaled;
	buf->cb_ena = set->cs_ena;
	buf->cb_run = set->cs_run;
	/* The SMPL requests' records since the last sample (smpl.c). */
	return set->cs_nsmpl > 0 ? cpc_smpl_sample(cpc, set, buf) : 0;
}

/*
 * A thread's plain group (never a CPU's) is sampled by its backend's
 * cs_sample alone: a jump from here, no frame of this function's.
 */
CPC_EXPORT int
cpc_set_sample(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf)
{
	if (set == NULL || buf == NULL || set->cs_cpc != cpc ||
	    !set->cs_bound || buf->cb_nreqs != set->cs_nreqs) {
		errno = EINVAL;
		return -1;
	}
	if (set->cs_sample != NULL)
		return set->cs_sample(cpc, set, buf);
	return sample_any(cpc, set, buf);
}
