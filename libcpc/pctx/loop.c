/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loop.c - libpctx's event loop: every waitpid report of the tree goes
 * to pctx_dispatch (dispatch.c); pctx_run polls SIGCHLD, pctx_terminate
 * and the tick timer; pctx_wait waits for a created command once the run
 * is over.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

#include "pctx_impl.h"

/*
 * The reports waiting, the first waited for when block: how many, or -1
 * with errno.  At most DRAIN_MAX, so that a process making threads
 * without end cannot hold off the ticks and pctx_terminate: p_more then
 * says that more may be waiting (their SIGCHLD may have been read), and
 * pctx_run looks at its timer and comes back without sleeping.
 */
#define DRAIN_MAX	256

int
pctx_drain(pctx_t *p, int block)
{
	int status, n = 0;
	pid_t tid;

	for (p->p_more = 0;; ) {
		if (n == DRAIN_MAX) {
			p->p_more = 1;
			return n;
		}
		tid = waitpid(-1, &status, __WALL | (block ? 0 : WNOHANG));
		if (tid == 0)
			return n;
		if (tid < 0) {
			if (errno == EINTR && !block)
				continue;
			return errno == EINTR ? n : -1;
		}
		pctx_dispatch(p, tid, status);
		n++;
		block = 0;
	}
}

static void
tick_all(pctx_t *p)
{
	struct proc *pr, *next;
	struct lwp *l;

	for (pr = p->p_procs; pr != NULL; pr = pr->pr_next) {
		if (pr->pr_state != PR_TRACKED || pr->pr_exited)
			continue;
		for (l = pr->pr_lwps; l != NULL; l = l->l_next)
			if (l->l_bound && l->l_state != LWP_ENDED &&
			    p->p_tick != NULL &&
			    p->p_tick(p, pr->pr_pid, l->l_tid, p->p_arg) != 0)
				pctx_fail(p);
		pr->pr_ticks++;
	}
	if (p->p_nsamples == 0)
		return;
	for (pr = p->p_procs; pr != NULL; pr = next) {
		next = pr->pr_next;
		if (pr->pr_state == PR_TRACKED && !pr->pr_exited &&
		    pr->pr_ticks >= p->p_nsamples)
			pctx_proc_release(p, pr, 1);
	}
}

static int
timer_start(uint_t msec)
{
	struct itimerspec its;
	struct timespec now;
	int fd;

	if ((fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK |
	    TFD_CLOEXEC)) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	its.it_interval.tv_sec = msec / 1000;
	its.it_interval.tv_nsec = (long)(msec % 1000) * 1000000L;
	its.it_value.tv_sec = now.tv_sec + its.it_interval.tv_sec;
	its.it_value.tv_nsec = now.tv_nsec + its.it_interval.tv_nsec;
	if (its.it_value.tv_nsec >= 1000000000L) {
		its.it_value.tv_sec++;
		its.it_value.tv_nsec -= 1000000000L;
	}
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Block SIGCHLD (the old mask in *old) and return a signalfd for it; -1
 * with errno and the mask as it was.
 */
static int
chld_open(sigset_t *old)
{
	sigset_t chld;
	int sfd, e;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, old);
	if ((sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) {
		e = errno;
		pthread_sigmask(SIG_SETMASK, old, NULL);
		errno = e;
	}
	return sfd;
}

/*
 * pctx_run's descriptors: fds[0] the SIGCHLD signalfd, fds[1] the
 * pctx_terminate eventfd, fds[2] the tick timer (-1 without ticks).
 * 0, or -1 with errno (said why) and nothing left open.
 */
static int
loop_open(pctx_t *p, uint_t msec, struct pollfd fds[3], sigset_t *old)
{
	int sfd, tfd = -1, e;

	if ((sfd = chld_open(old)) < 0 ||
	    (msec > 0 && (tfd = timer_start(msec)) < 0)) {
		e = errno;
		pctx_err(p, "run", "cannot set up the event loop: %s",
		    strerror(e));
		if (sfd >= 0) {
			close(sfd);
			pthread_sigmask(SIG_SETMASK, old, NULL);
		}
		errno = e;
		return -1;
	}
	fds[0].fd = sfd;
	fds[1].fd = p->p_evfd;
	fds[2].fd = tfd;
	fds[0].events = fds[1].events = fds[2].events = POLLIN;
	return 0;
}

static void
loop_close(struct pollfd fds[3], const sigset_t *old)
{
	close(fds[0].fd);
	if (fds[2].fd >= 0)
		close(fds[2].fd);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * Discovery: init_lwp for the threads present at the start, which are
 * then resumed.  A failed callback said why itself, as everywhere else.
 */
static void
discover(pctx_t *p)
{
	struct proc *pr;
	struct lwp *l, *next;

	for (pr = p->p_procs; pr != NULL && !p->p_failed; pr = pr->pr_next)
		for (l = pr->pr_lwps; l != NULL; l = next) {
			next = l->l_next;
			if (!l->l_bound && l->l_state != LWP_ENDED &&
			    pctx_cb_init(p, l) != 0) {
				pctx_fail(p);
				break;
			}
			if (l->l_stopped)
				pctx_lwp_resume(p, l, 0);
		}
}

/*
 * Wait for something to do: a report (SIGCHLD), a pctx_terminate or a
 * tick, which is made here; not at all when reports may be waiting
 * (p_more).  The idle callback first (pctx_set_idle).  0, or -1 when
 * poll failed (said why).
 */
static int
loop_wait(pctx_t *p, struct pollfd fds[3])
{
	struct signalfd_siginfo si;
	uint64_t junk;

	if (p->p_idle != NULL)
		p->p_idle(p, p->p_arg);
	if (poll(fds, fds[2].fd >= 0 ? 3 : 2, p->p_more ? 0 : -1) < 0) {
		if (errno == EINTR)
			return 0;
		pctx_err(p, "run", "poll: %s", strerror(errno));
		pctx_fail(p);
		return -1;
	}
	/* SIGCHLD is pending once at most: one read takes it. */
	if (fds[0].revents & POLLIN)
		(void)!read(fds[0].fd, &si, sizeof(si));
	if (fds[1].revents & POLLIN)
		(void)!read(p->p_evfd, &junk, sizeof(junk));
	if (fds[2].fd >= 0 && (fds[2].revents & POLLIN) &&
	    read(fds[2].fd, &junk, sizeof(junk)) > 0 && !p->p_terminate) {
		/* Missed expirations are not made up for. */
		pctx_drain(p, 0);
		tick_all(p);
	}
	return 0;
}

PCTX_EXPORT int
pctx_run(pctx_t *p, uint_t msec, uint_t nsamples, pctx_tickfn_t *tick)
{
	struct pollfd fds[3];
	sigset_t old;

	if (p == NULL) {
		errno = EINVAL;
		return -1;
	}
	p->p_tick = tick;
	p->p_nsamples = msec ? nsamples : 0;
	p->p_ticking = msec > 0;
	if (loop_open(p, msec, fds, &old) != 0)
		return -1;
	discover(p);
	while (p->p_procs != NULL && !p->p_failed) {
		if (p->p_terminate && !p->p_terminated) {
			/* A last tick, then let every process go. */
			p->p_terminated = 1;
			if (p->p_ticking)
				tick_all(p);
			pctx_release_all(p, 1);
			continue;
		}
		if (pctx_drain(p, 0) < 0 && errno == ECHILD &&
		    p->p_procs != NULL) {
			pctx_err(p, "run", "lost control of every process");
			pctx_fail(p);
			break;
		}
		if (p->p_procs == NULL || p->p_failed)
			break;
		if (p->p_terminate && !p->p_terminated)
			continue;
		if (loop_wait(p, fds) != 0)
			break;
	}
	loop_close(fds, &old);
	/* Terminations from now on are pctx_wait's to report. */
	p->p_termseen = p->p_nterm;
	return p->p_failed ? -1 : 0;
}

/*
 * Reap what is ready until the created command is reaped.  Processes
 * still under control (pctx_run failed, or was not called) report too,
 * and are answered on the way: a stopped thread left alone would never
 * end, nor would the command if it is one of them.  So do threads that
 * ended while attached, whose processes were let go since: the command
 * cannot be reaped before them.  1 once the command is reaped, 0 when
 * nothing more is ready, -1 with errno.
 */
static int
reap_root(pctx_t *p)
{
	pid_t r;
	int st;

	while (!p->p_rootdone) {
		r = waitpid(p->p_procs != NULL || p->p_nhashed > 0 ? -1 :
		    p->p_pid, &st, __WALL | WNOHANG);
		if (r == 0)
			return 0;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		pctx_dispatch(p, r, st);
	}
	return 1;
}

/*
 * pctx_wait's loop, SIGCHLD blocked and read from sfd: 0 once the command
 * is reaped, -1 with errno, EINTR for a pctx_terminate pctx_run did not
 * answer (a signal handler's: the caller acts on it and waits again).
 */
static int
wait_loop(pctx_t *p, int sfd)
{
	struct signalfd_siginfo si;
	struct pollfd fds[2];
	uint64_t junk;
	int r;

	fds[0].fd = sfd;
	fds[1].fd = p->p_evfd;
	fds[0].events = fds[1].events = POLLIN;
	for (;;) {
		/* Empty both before looking: what comes later wakes poll. */
		while (read(sfd, &si, sizeof(si)) > 0)
			;
		(void)!read(p->p_evfd, &junk, sizeof(junk));
		if ((r = reap_root(p)) != 0)
			return r > 0 ? 0 : -1;
		if (p->p_nterm != p->p_termseen) {
			p->p_termseen = p->p_nterm;
			errno = EINTR;
			return -1;
		}
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			return -1;
	}
}

/* Threads held stopped (a failed discovery) go on. */
static void
resume_held(pctx_t *p)
{
	struct lwp *l, *next;
	int i;

	for (i = 0; i < HASHSZ; i++)
		for (l = p->p_hash[i]; l != NULL; l = next) {
			next = l->l_hnext;
			if (l->l_stopped && l->l_proc != NULL)
				pctx_lwp_resume(p, l, 0);
		}
}

/* Wait until the created command is reaped: 0, or -1 with errno. */
static int
wait_root(pctx_t *p)
{
	struct pctx_ops ops;
	sigset_t old;
	int sfd, r, e;

	if ((sfd = chld_open(&old)) < 0)
		return -1;
	/* No callbacks: the client's event loop is over. */
	ops = p->p_ops;
	memset(&p->p_ops, 0, sizeof(p->p_ops));
	resume_held(p);
	r = wait_loop(p, sfd);
	e = errno;
	p->p_ops = ops;
	close(sfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0)
		errno = e;
	return r;
}

PCTX_EXPORT int
pctx_wait(pctx_t *p, int *status)
{
	if (p == NULL || !p->p_created) {
		errno = ECHILD;
		return -1;
	}
	if (!p->p_rootdone && wait_root(p) != 0)
		return -1;
	if (status != NULL)
		*status = p->p_rootstatus;
	return 0;
}
