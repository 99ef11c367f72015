/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_pctx - libpctx through its Solaris API (pctx_set_events) and
 * cpc_bind_pctx, with exact oracles: the test re-runs itself as the
 * target ("t_pctx child N M S": the main thread makes N getpid calls, a
 * second thread M, then it sleeps S ms), and syscalls:sys_enter_getpid
 * counts them per thread.  The life of a released command (pctx_kill,
 * pctx_wait, its parent-death signal) needs no counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <libcpc.h>
#include <libpctx.h>

#include "tap.h"

#define EV	"syscalls:sys_enter_getpid"
#define MAXT	8

static long child_m;

static void *
child_thread(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < child_m; i++)
		(void)syscall(SYS_getpid);
	return NULL;
}

static int
child_main(long n, long m, long sleep_ms)
{
	pthread_t t;
	long i;

	child_m = m;
	if (getenv("T_PCTX_CPU") != NULL) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(atoi(getenv("T_PCTX_CPU")), &one);
		(void)sched_setaffinity(0, sizeof(one), &one);
	}
	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	if (m > 0) {
		pthread_create(&t, NULL, child_thread, NULL);
		pthread_join(t, NULL);
	}
	if (sleep_ms > 0)
		usleep(sleep_ms * 1000);
	/* No exit-time work: a sanitizer's leak check fails under ptrace. */
	fflush(stdout);
	_exit(3);
}

/* What the callbacks saw. */
static struct {
	cpc_t		*cpc;
	char		 log[512];
	struct {
		id_t		 tid;
		cpc_set_t	*set;
		uint64_t	 count;
	} t[MAXT];
	int		 nt;
	int		 exitstatus;
	int		 ticks;
	int		 idles;		/* idle calls, with the pctx's arg */
	int		 idleticks;	/* ticks made before the last one */
	pid_t		 forkchild;
	int		 otherfork;	/* a handler never registered ran */
} S;

static void
note(const char *what)
{
	strncat(S.log, what, sizeof(S.log) - strlen(S.log) - 1);
	strncat(S.log, " ", sizeof(S.log) - strlen(S.log) - 1);
}

static int
slot(id_t tid)
{
	int i;

	for (i = 0; i < S.nt; i++)
		if (S.t[i].tid == tid)
			return i;
	return -1;
}

static int
cb_init(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	int i = S.nt++;

	note("init");
	S.t[i].tid = tid;
	if ((S.t[i].set = cpc_set_create(S.cpc)) == NULL ||
	    cpc_set_add_request(S.cpc, S.t[i].set, EV, 0, CPC_COUNT_USER, 0,
	    NULL) != 0)
		return -1;
	return cpc_bind_pctx(S.cpc, p, tid, S.t[i].set, 0);
}

static int
cb_fini(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	cpc_buf_t *b;
	int i = slot(tid);

	note("fini");
	if (i < 0 || (b = cpc_buf_create(S.cpc, S.t[i].set)) == NULL)
		return -1;
	if (cpc_set_sample(S.cpc, S.t[i].set, b) != 0)
		return -1;
	cpc_buf_get(S.cpc, b, 0, &S.t[i].count);
	cpc_buf_destroy(S.cpc, b);
	return cpc_unbind(S.cpc, S.t[i].set);
}

static int
cb_create(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	note("lwp_create");
	return 0;
}

static int
cb_lwpexit(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	note("lwp_exit");
	return 0;
}

static void
cb_exit(pctx_t *p, pid_t pid, id_t tid, int status, void *arg)
{
	note("exit");
	S.exitstatus = status;
}

static void
cb_fork(pctx_t *p, pid_t pid, id_t tid, pid_t child, void *arg)
{
	note("fork");
	S.forkchild = child;
}

static int
cb_fini_fails(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	(void)p, (void)pid, (void)tid, (void)arg;
	return 1;
}

static void
cb_fork_other(pctx_t *p, pid_t pid, id_t tid, pid_t child, void *arg)
{
	(void)p, (void)pid, (void)tid, (void)child, (void)arg;
	S.otherfork = 1;
}

static int
cb_tick(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	S.ticks++;
	return 0;
}

static void
cb_idle(pctx_t *p, void *arg)
{
	(void)p;
	if (arg == &S) {
		S.idles++;
		S.idleticks = S.ticks;
	}
}

static void
quiet(const char *fn, const char *fmt, va_list ap)
{
	(void)fn; (void)fmt; (void)ap;
}

static void
quiet_cpc(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)fn; (void)subcode; (void)fmt; (void)ap;
}

static void
reset(void)
{
	int i;

	for (i = 0; i < S.nt; i++)
		cpc_set_destroy(S.cpc, S.t[i].set);
	memset(S.t, 0, sizeof(S.t));
	S.nt = 0;
	S.log[0] = '\0';
	S.exitstatus = -1;
	S.ticks = 0;
	S.idles = S.idleticks = 0;
	S.forkchild = 0;
}

/* The main thread's count of "child n 0 0" (a sanitizer's start-up). */
static uint64_t
baseline(char *self)
{
	char *argv[] = { self, "child", "0", "0", "0", NULL };
	pctx_t *p;

	reset();
	if ((p = pctx_create(self, argv, NULL, 0, NULL)) == NULL)
		return 0;
	pctx_set_events(p, PCTX_INIT_LWP_EVENT, cb_init, PCTX_FINI_LWP_EVENT,
	    cb_fini, PCTX_NULL_EVENT);
	(void)pctx_run(p, 0, 0, NULL);
	pctx_release(p);
	return S.t[0].count;
}

static void
test_counts(char *self)
{
	char *argv[] = { self, "child", "1000", "250", "0", NULL };
	uint64_t base = baseline(self);
	pctx_t *p;
	int st = -1;

	reset();
	p = pctx_create(self, argv, NULL, 0, NULL);
	if (!tap_ok(p != NULL, "pctx_create starts the target"))
		return;
	tap_ok(pctx_set_events(p, PCTX_INIT_LWP_EVENT, cb_init,
	    PCTX_FINI_LWP_EVENT, cb_fini, PCTX_SYSC_LWP_CREATE_EVENT,
	    cb_create, PCTX_SYSC_LWP_EXIT_EVENT, cb_lwpexit,
	    PCTX_SYSC_EXIT_EVENT, cb_exit, PCTX_NULL_EVENT) == 0,
	    "pctx_set_events takes the Solaris (tag, handler) pairs");
	tap_ok(pctx_run(p, 0, 0, NULL) == 0, "pctx_run returns 0 at exit");
	tap_str(S.log, "init init lwp_create fini lwp_exit fini exit ",
	    "callbacks in order");
	tap_u64(S.nt, 2, "two threads bound");
	tap_u64(S.t[0].count, 1000 + base, "the main thread's getpid calls");
	tap_u64(S.t[1].count, 250, "the second thread's getpid calls");
	tap_ok(WIFEXITED(S.exitstatus) && WEXITSTATUS(S.exitstatus) == 3,
	    "the exit callback has the wait status (exit 3)");
	tap_ok(pctx_wait(p, &st) == 0 && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 3, "pctx_wait gives the command's status");
	pctx_release(p);
}

/*
 * One set bound with cpc_bind_pctx to both threads of the target: a
 * context for each, and cpc_set_sample reads the most recently bound
 * (the second thread's), at its end and still at the main thread's.
 */
static cpc_set_t *shared;

static int
cb_init_shared(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	S.t[S.nt++].tid = tid;
	return cpc_bind_pctx(S.cpc, p, tid, shared, 0);
}

static int
cb_fini_shared(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	cpc_buf_t *b = cpc_buf_create(S.cpc, shared);
	int i = slot(tid), rc = -1;

	if (i >= 0 && b != NULL && cpc_set_sample(S.cpc, shared, b) == 0)
		rc = cpc_buf_get(S.cpc, b, 0, &S.t[i].count);
	cpc_buf_destroy(S.cpc, b);
	return rc;
}

static void
test_shared_set(char *self)
{
	char *argv[] = { self, "child", "1000", "250", "0", NULL };
	pctx_t *p;

	reset();
	if ((shared = cpc_set_create(S.cpc)) == NULL ||
	    cpc_set_add_request(S.cpc, shared, EV, 0, CPC_COUNT_USER, 0,
	    NULL) != 0 || (p = pctx_create(self, argv, NULL, 0, NULL)) ==
	    NULL) {
		tap_ok(0, "one set for two threads: a set and a target");
		return;
	}
	pctx_set_events(p, PCTX_INIT_LWP_EVENT, cb_init_shared,
	    PCTX_FINI_LWP_EVENT, cb_fini_shared, PCTX_NULL_EVENT);
	tap_ok(pctx_run(p, 0, 0, NULL) == 0 && S.nt == 2, "one set bound to "
	    "both threads of the target");
	tap_u64(S.t[1].count, 250, "one set, two threads: at the second "
	    "thread's end, the sample reads its context (bound last)");
	tap_u64(S.t[0].count, 250, "one set, two threads: at the main "
	    "thread's end, still the most recently bound context");
	tap_ok(cpc_unbind(S.cpc, shared) == 0, "one set, two threads: "
	    "unbound");
	pctx_release(p);
	cpc_set_destroy(S.cpc, shared);
}

/*
 * pctx_release kills a command still tracked, and reaps it: the process
 * may be dropped before the command's own death report comes.  Here a
 * thread's fini_lwp fails, pctx_run gives up, and the release kills the
 * two-thread command; no zombie may be left to the caller.
 */
static void
test_release_reaps(char *self)
{
	char *argv[] = { self, "child", "1", "1", "3000", NULL };
	pid_t pid, r = 0;
	pctx_t *p;
	int st, i;

	p = pctx_create(self, argv, NULL, 0, quiet);
	if (!tap_ok(p != NULL, "release: a command"))
		return;
	pid = pctx_pid(p);
	pctx_set_events(p, PCTX_FINI_LWP_EVENT, cb_fini_fails,
	    PCTX_NULL_EVENT);
	tap_ok(pctx_run(p, 0, 0, NULL) == -1, "release: a failing fini_lwp "
	    "ends pctx_run with -1");
	pctx_release(p);
	for (i = 0; i < 50 && (r = waitpid(pid, &st, WNOHANG | __WALL)) == 0;
	    i++)
		usleep(20000);
	tap_ok(r == -1 && errno == ECHILD, "release: the killed command was "
	    "reaped (waitpid says %d, errno %d)", (int)r, errno);
}

static void
test_fork_and_ticks(char *self)
{
	char *argv[] = { "sh", "-c", "", NULL };
	char script[4200];
	pctx_t *p;
	int st = -1;

	reset();
	snprintf(script, sizeof(script), "'%s' child 5 0 300; exit 4", self);
	argv[2] = script;
	p = pctx_create("sh", argv, &S, 0, NULL);
	if (!tap_ok(p != NULL, "pctx_create searches PATH"))
		return;
	pctx_set_events(p, PCTX_SYSC_FORK_EVENT, cb_fork, PCTX_NULL_EVENT);
	tap_ok(pctx_set_idle(p, cb_idle) == 0, "pctx_set_idle: 0");
	/* A failed call changes no callback, the fork one included. */
	tap_ok(pctx_set_events(p, PCTX_SYSC_FORK_EVENT, cb_fork_other, 99,
	    cb_fork_other, PCTX_NULL_EVENT) == -1 && errno == EINVAL,
	    "pctx_set_events with an unknown tag: EINVAL");
	tap_ok(pctx_run(p, 20, 3, cb_tick) == 0,
	    "pctx_run returns 0 when the sample budget is spent");
	tap_u64(S.ticks, 3, "three ticks of the one thread");
	tap_ok(S.idles >= 2 && S.idleticks >= 2, "the idle callback, with the "
	    "pctx's arg, before each wait: after the ticks too (%d calls, "
	    "the last after tick %d)", S.idles, S.idleticks);
	tap_ok(S.forkchild > 0, "the fork handler named the child");
	tap_ok(!S.otherfork, "the handler of the failed call never ran");
	tap_ok(pctx_wait(p, &st) == 0 && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 4, "released, the command ran to its end");
	pctx_release(p);
}

/*
 * Bound to a running thread, a set of two requests starts as one group:
 * the thread's getpid calls counted by each are the same (but for the
 * one the kernel may be counting at each end).
 * The first tick binds, the second samples (the target loops on getpid
 * throughout), and the run ends there (two ticks).  The target runs on
 * CPU 1, this test on CPU 0: a bind from the target's own CPU would find
 * it preempted, not running.
 */
static struct {
	cpc_set_t	*set;
	int		 ticks, bound;
	uint64_t	 v[2];
	int		 sampled;
} G;

static int
cb_tick_group(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	cpc_buf_t *b;

	(void)pid, (void)arg;
	if (G.ticks++ == 0) {
		G.bound = cpc_bind_pctx(S.cpc, p, tid, G.set, 0) == 0;
		return 0;
	}
	if (!G.bound || G.sampled ||
	    (b = cpc_buf_create(S.cpc, G.set)) == NULL)
		return 0;
	if (cpc_set_sample(S.cpc, G.set, b) == 0) {
		cpc_buf_get(S.cpc, b, 0, &G.v[0]);
		cpc_buf_get(S.cpc, b, 1, &G.v[1]);
		G.sampled = 1;
	}
	cpc_buf_destroy(S.cpc, b);
	return 0;
}

static void
test_group_start(char *self)
{
	char *argv[] = { self, "child", "3000000", "0", "0", NULL };
	cpu_set_t old, one;
	pctx_t *p;

	memset(&G, 0, sizeof(G));
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_getaffinity(0, sizeof(old), &old) == 0 &&
	    CPU_ISSET(1, &old) && sched_setaffinity(0, sizeof(one), &one) == 0)
		setenv("T_PCTX_CPU", "1", 1);
	if ((G.set = cpc_set_create(S.cpc)) == NULL ||
	    cpc_set_add_request(S.cpc, G.set, EV, 0, CPC_COUNT_USER, 0,
	    NULL) != 0 || cpc_set_add_request(S.cpc, G.set, EV, 0,
	    CPC_COUNT_USER, 0, NULL) != 1) {
		tap_ok(0, "a set of two getpid requests");
		return;
	}
	p = pctx_create(self, argv, NULL, 0, NULL);
	if (getenv("T_PCTX_CPU") != NULL) {
		unsetenv("T_PCTX_CPU");
		(void)sched_setaffinity(0, sizeof(old), &old);
	}
	if (!tap_ok(p != NULL, "pctx_create starts a getpid loop"))
		return;
	tap_ok(pctx_run(p, 20, 2, cb_tick_group) == 0,
	    "two ticks: a bind to the running thread, a sample");
	tap_ok(G.sampled && G.v[0] > 0,
	    "the group counted the running thread (%llu calls)",
	    (unsigned long long)G.v[0]);
	/*
	 * One call apart at most at each end: the kernel may start or read
	 * the group between the two events' counts of one tracepoint hit.
	 */
	tap_ok(G.v[1] + 2 >= G.v[0] && G.v[0] + 2 >= G.v[1],
	    "both requests of the group count from one start: %llu and %llu "
	    "calls", (unsigned long long)G.v[0], (unsigned long long)G.v[1]);
	(void)pctx_kill(p, SIGKILL);
	(void)pctx_wait(p, NULL);
	pctx_release(p);
	cpc_set_destroy(S.cpc, G.set);
}

static pctx_t *alarm_pctx;

static void
on_alarm(int sig)
{
	(void)sig;
	pctx_terminate(alarm_pctx);
}

/* A command released by its sample budget, signalled, then reaped. */
static void
test_kill(char *self)
{
	char *argv[] = { self, "child", "0", "0", "5000", NULL };
	struct itimerval it = { { 0, 0 }, { 0, 100000 } };
	struct sigaction sa;
	pctx_t *p;
	int st = -1, r;

	errno = 0;
	tap_ok(pctx_kill(NULL, SIGTERM) == -1 && errno == ECHILD,
	    "pctx_kill without a pctx: ECHILD");
	p = pctx_create(self, argv, NULL, 0, quiet);
	if (!tap_ok(p != NULL, "pctx_create starts a sleeper"))
		return;
	tap_ok(pctx_run(p, 20, 1, NULL) == 0, "released after one tick");
	pctx_terminate(p);
	errno = 0;
	r = pctx_wait(p, &st);
	tap_ok(r == -1 && errno == EINTR,
	    "a pctx_terminate after pctx_run: pctx_wait returns EINTR");
	/* The same from a signal handler while pctx_wait sleeps. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm_pctx = p;
	setitimer(ITIMER_REAL, &it, NULL);
	errno = 0;
	r = pctx_wait(p, &st);
	tap_ok(r == -1 && errno == EINTR,
	    "pctx_terminate in a handler interrupts pctx_wait (EINTR)");
	signal(SIGALRM, SIG_DFL);
	tap_ok(pctx_kill(p, SIGTERM) == 0,
	    "pctx_kill signals the released command");
	tap_ok(pctx_wait(p, &st) == 0 && WIFSIGNALED(st) &&
	    WTERMSIG(st) == SIGTERM, "pctx_wait: the signal ended it");
	errno = 0;
	tap_ok(pctx_kill(p, 0) == -1 && errno == ESRCH,
	    "pctx_kill once it was reaped: ESRCH (its pid is not used)");
	pctx_release(p);
}

/*
 * A released command is killed when the thread that created it ends: a
 * helper process creates it, releases it, and exits; as a subreaper, we
 * inherit the orphan and see how it ended.
 */
static void
test_pdeathsig(char *self)
{
	char *argv[] = { self, "child", "0", "0", "5000", NULL };
	pid_t helper, cmd = 0;
	pctx_t *p;
	int fds[2], st = -1;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 || pipe(fds) != 0) {
		tap_skip("cannot be a subreaper", "parent-death signal");
		return;
	}
	if ((helper = fork()) == 0) {
		close(fds[0]);
		p = pctx_create(self, argv, NULL, 0, quiet);
		if (p != NULL && pctx_run(p, 20, 1, NULL) == 0)
			cmd = pctx_pid(p);
		(void)!write(fds[1], &cmd, sizeof(cmd));
		_exit(0);	/* no pctx_wait: the command is released */
	}
	close(fds[1]);
	if (helper < 0 || read(fds[0], &cmd, sizeof(cmd)) != sizeof(cmd))
		cmd = 0;
	close(fds[0]);
	if (helper > 0)
		(void)waitpid(helper, NULL, 0);
	tap_ok(cmd > 0 && waitpid(cmd, &st, 0) == cmd && WIFSIGNALED(st) &&
	    WTERMSIG(st) == SIGKILL,
	    "a released command is killed when its creator ends");
	(void)prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void
test_errors(void)
{
	char *argv[] = { "no-such-program-xyz", NULL };
	pctx_t *p;

	errno = 0;
	p = pctx_create(argv[0], argv, NULL, 0, quiet);
	tap_ok(p == NULL && errno == ENOENT, "a missing program: ENOENT");
	errno = 0;
	p = pctx_capture(getpid(), NULL, 0, quiet);
	tap_ok(p == NULL && errno == EINVAL, "capturing itself: EINVAL");
	p = pctx_create("true", (char *[]){ "true", NULL }, NULL, 0, quiet);
	tap_ok(p != NULL && pctx_set_events(p, (pctx_event_t)99, cb_tick,
	    PCTX_NULL_EVENT) == -1 && errno == EINVAL,
	    "an unknown event tag: -1, EINVAL");
	errno = 0;
	tap_ok(p != NULL && pctx_detach_at_exit(p) == -1 && errno == EINVAL,
	    "pctx_detach_at_exit on a created command: -1, EINVAL");
	errno = 0;
	tap_ok(pctx_set_idle(NULL, cb_idle) == -1 && errno == EINVAL,
	    "pctx_set_idle without a pctx: -1, EINVAL");
	errno = 0;
	tap_ok(pctx_detach_at_exit(NULL) == -1 && errno == EINVAL,
	    "pctx_detach_at_exit without a pctx: -1, EINVAL");
	pctx_release(p);
	tap_ok(cpc_bind_pctx(S.cpc, NULL, 1, NULL, 0) == -1 &&
	    errno == EINVAL, "cpc_bind_pctx without a pctx: EINVAL");
}

int
main(int argc, char **argv)
{
	char self[4096];
	ssize_t n;

	if (argc == 5 && strcmp(argv[1], "child") == 0)
		return child_main(atol(argv[2]), atol(argv[3]),
		    atol(argv[4]));
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		return 1;
	self[n] = '\0';
	S.cpc = cpc_open(CPC_VER_CURRENT);
	cpc_seterrhndlr(S.cpc, quiet_cpc);
	test_errors();
	test_kill(self);
	test_pdeathsig(self);
	test_release_reaps(self);
	if (geteuid() != 0 || access("/sys/kernel/tracing/events/syscalls",
	    R_OK) != 0) {
		tap_skip("needs root and tracefs", "per-thread exact counts");
		tap_skip("needs root and tracefs", "fork handler and ticks");
		tap_skip("needs root and tracefs", "a group's start");
	} else {
		test_counts(self);
		test_shared_set(self);
		test_fork_and_ticks(self);
		test_group_start(self);
	}
	reset();
	cpc_close(S.cpc);
	return tap_done();
}
