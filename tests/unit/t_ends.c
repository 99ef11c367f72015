/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_ends - cpc_bind_pctx with CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS
 * and cpc_lwp_events, with exact oracles.  The test re-runs itself as
 * the target, which pctx_detach lets go untraced:
 *
 *	t_ends child threads N K M	M getpid calls, then N threads one
 *					after the other, thread i making K*i
 *	t_ends child fork		4 calls; a child process makes 50
 *	t_ends child crowd N		N threads at once, thread i making
 *					2*i calls, the odd ones creating a
 *					thread that makes 1001+i; all of them
 *					end together (a barrier)
 *	t_ends child exec W		4 calls; a thread makes 3 and joins
 *					(W main) or waits while the thread
 *					execs (W thread) "t_ends child idle",
 *					which makes 100 calls
 *	t_ends child tree		4 calls; a child A makes 50, a thread
 *					of A's 7, a grandchild of A's 30; a
 *					child B makes 20 and execs "t_ends
 *					child idle" (100 more)
 *
 * syscalls:sys_enter_getpid counts them per thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <libcpc.h>
#include <libpctx.h>

#include "errmsg.h"
#include "tap.h"

#define EV	"syscalls:sys_enter_getpid"
#define MAXR	4096
#define CROWD_MAX	100

static char self[4096];
static long calls_k;
static long exec_thread;

static void
getpids(long n)
{
	while (n-- > 0)
		(void)syscall(SYS_getpid);
}

static void *
thread_calls(void *arg)
{
	getpids((long)arg);
	return NULL;
}

static pthread_barrier_t crowd_end;

/* A sub-thread of the crowd: its calls, then the end with the others. */
static void *
thread_crowd_sub(void *arg)
{
	getpids((long)arg);
	pthread_barrier_wait(&crowd_end);
	return NULL;
}

/* A thread of the crowd: its calls, maybe a thread, the end together. */
static void *
thread_crowd(void *arg)
{
	long i = (long)arg;
	pthread_t t;

	getpids(2 * i);
	if (i % 2 == 1)
		pthread_create(&t, NULL, thread_crowd_sub, (void *)(1001 + i));
	pthread_barrier_wait(&crowd_end);
	if (i % 2 == 1)
		pthread_join(t, NULL);
	return NULL;
}

static void
crowd(long n)
{
	pthread_t t[CROWD_MAX];
	long i;

	pthread_barrier_init(&crowd_end, NULL, (unsigned)(n + (n + 1) / 2));
	for (i = 1; i <= n; i++)
		pthread_create(&t[i - 1], NULL, thread_crowd, (void *)i);
	for (i = 1; i <= n; i++)
		pthread_join(t[i - 1], NULL);
}

static void *
thread_seven(void *arg)
{
	(void)arg;
	getpids(7);
	return NULL;
}

/* The tree: see the top. */
static void
tree(void)
{
	pthread_t t;
	pid_t a, b, g;

	getpids(4);
	if ((a = fork()) == 0) {
		getpids(50);
		pthread_create(&t, NULL, thread_seven, NULL);
		pthread_join(t, NULL);
		if ((g = fork()) == 0) {
			getpids(30);
			_exit(0);
		}
		waitpid(g, NULL, 0);
		_exit(0);
	}
	if ((b = fork()) == 0) {
		getpids(20);
		execl(self, self, "child", "idle", (char *)NULL);
		_exit(1);
	}
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
}

static void *
thread_exec(void *arg)
{
	(void)arg;
	getpids(3);
	if (exec_thread)
		execl(self, self, "child", "idle", (char *)NULL);
	return NULL;
}

static int
child_main(int argc, char **argv)
{
	pthread_t t;
	long i;

	if (strcmp(argv[2], "threads") == 0 && argc == 6) {
		calls_k = atol(argv[4]);
		getpids(atol(argv[5]));
		for (i = 1; i <= atol(argv[3]); i++) {
			pthread_create(&t, NULL, thread_calls,
			    (void *)(calls_k * i));
			pthread_join(t, NULL);
		}
	} else if (strcmp(argv[2], "crowd") == 0 && argc == 4) {
		crowd(atol(argv[3]));
	} else if (strcmp(argv[2], "fork") == 0) {
		pid_t kid;

		getpids(4);
		if ((kid = fork()) == 0) {
			getpids(50);
			_exit(0);
		}
		waitpid(kid, NULL, 0);
	} else if (strcmp(argv[2], "exec") == 0 && argc == 4) {
		exec_thread = strcmp(argv[3], "thread") == 0;
		getpids(4);
		pthread_create(&t, NULL, thread_exec, NULL);
		if (exec_thread)
			pause();
		pthread_join(t, NULL);
		execl(self, self, "child", "idle", (char *)NULL);
	} else if (strcmp(argv[2], "tree") == 0) {
		tree();
	} else if (strcmp(argv[2], "idle") == 0) {
		getpids(100);
	}
	_exit(0);
}

static cpc_t *cpc;
/* The first thread's calls that are not the test's (a sanitizer's). */
static uint64_t base;

/* What the reports said, in order. */
static struct rep {
	cpc_lwp_event_t	ev;
	uint64_t	count;
} R[MAXR];
static int nr;

static int
keep(void *arg, const cpc_lwp_event_t *ev, cpc_buf_t *buf)
{
	(void)arg;
	if (nr < MAXR) {
		R[nr].ev = *ev;
		cpc_buf_get(cpc, buf, 0, &R[nr].count);
		nr++;
	}
	return 0;
}

static cpc_set_t *
getpid_set(int smpl)
{
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_attr_t a = { "smpl_nrecs", 8 };

	if (set == NULL || cpc_set_add_request(cpc, set, EV, 0,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) != 0 ||
	    cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER |
	    (smpl ? CPC_HW_SMPL : 0), smpl ? 1 : 0, smpl ? &a : NULL) < 0)
		return NULL;
	return set;
}

/* Read the reports while the target runs, as cputrack does (run). */
static int live;
static volatile int live_stop;

struct liveargs {
	cpc_set_t	*set;
	cpc_buf_t	*buf;
};

/* The reader: a walk every millisecond until told to stop. */
static void *
live_reader(void *arg)
{
	struct liveargs *la = arg;
	struct timespec ms = { 0, 1000000 };

	while (!live_stop) {
		if (cpc_lwp_events(cpc, la->set, la->buf, keep, NULL) < 0)
			break;
		nanosleep(&ms, NULL);
	}
	return NULL;
}

/*
 * A live reader for set, with every signal blocked (pctx_wait's SIGCHLD
 * is the main thread's): 0, or -1.
 */
static int
live_start(pthread_t *thr, struct liveargs *la)
{
	sigset_t all, old;
	int e;

	if (!live || (la->buf = cpc_buf_create(cpc, la->set)) == NULL)
		return -1;
	live_stop = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(thr, NULL, live_reader, la);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		cpc_buf_destroy(cpc, la->buf);
		return -1;
	}
	return 0;
}

/*
 * Run "t_ends child ARGS" counted with flags: fills R, and *total with
 * the set's count after the end, read live when live is set.  0, or -1
 * (said why).
 */
static int
run(char **args, uint_t flags, uint64_t *total)
{
	char *argv[8] = { self, "child" };
	cpc_set_t *set = getpid_set(0);
	struct liveargs la = { set, NULL };
	pthread_t reader;
	cpc_buf_t *buf;
	pctx_t *p;
	int i, st, reading;

	for (i = 0; args[i] != NULL && i < 5; i++)
		argv[2 + i] = args[i];
	nr = 0;
	if (set == NULL || (buf = cpc_buf_create(cpc, set)) == NULL ||
	    (p = pctx_create(self, argv, NULL, 0, NULL)) == NULL)
		return tap_ok(0, "start %s: %s", args[0], errmsg) - 1;
	if (cpc_bind_pctx(cpc, p, pctx_pid(p), set, flags) != 0) {
		tap_ok(0, "bind %s: %s", args[0], errmsg);
		pctx_release(p);
		return -1;
	}
	reading = live_start(&reader, &la) == 0;
	pctx_detach(p);
	if (pctx_wait(p, &st) != 0 || !WIFEXITED(st))
		tap_ok(0, "the target %s ends", args[0]);
	if (reading) {
		live_stop = 1;
		pthread_join(reader, NULL);
		cpc_buf_destroy(cpc, la.buf);
	}
	if (cpc_lwp_events(cpc, set, buf, keep, NULL) < 0)
		tap_ok(0, "cpc_lwp_events: %s", errmsg);
	tap_ok(cpc_lwp_events(cpc, set, buf, keep, NULL) == 0,
	    "%s: nothing is reported twice", args[0]);
	if (cpc_set_sample(cpc, set, buf) != 0)
		tap_ok(0, "cpc_set_sample %s: %s", args[0], errmsg);
	cpc_buf_get(cpc, buf, 0, total);
	pctx_release(p);
	cpc_buf_destroy(cpc, buf);
	cpc_set_destroy(cpc, set);
	return 0;
}

static int
count_what(cpc_lwp_what_t w)
{
	int i, n = 0;

	for (i = 0; i < nr; i++)
		n += R[i].ev.le_what == w;
	return n;
}

static void
test_errors(void)
{
	char *argv[] = { self, "child", "idle", NULL };
	cpc_set_t *set = getpid_set(0), *sset = getpid_set(1);
	cpc_buf_t *buf = cpc_buf_create(cpc, set);
	pctx_t *p = pctx_create(self, argv, NULL, 0, NULL);

	if (!tap_ok(p != NULL && set != NULL && sset != NULL && buf != NULL,
	    "set up: %s", errmsg))
		return;
	errno = 0;
	tap_ok(cpc_bind_pctx(cpc, p, pctx_pid(p), set, CPC_BIND_LWP_ENDS) ==
	    -1 && errno == EINVAL, "CPC_BIND_LWP_ENDS alone: EINVAL");
	errno = 0;
	tap_ok(cpc_bind_pctx(cpc, p, pctx_pid(p), set, 0x400) == -1 &&
	    errno == EINVAL, "an unknown bind flag: EINVAL");
	errno = 0;
	errmsg[0] = '\0';
	tap_ok(cpc_bind_pctx(cpc, p, pctx_pid(p), sset, CPC_BIND_LWP_INHERIT |
	    CPC_BIND_LWP_ENDS) == -1 && errno == EINVAL &&
	    strstr(errmsg, "this one samples") != NULL,
	    "a set that samples: EINVAL (%s)", errmsg);
	tap_ok(cpc_bind_pctx(cpc, p, pctx_pid(p), set, 0) == 0,
	    "bound without CPC_BIND_LWP_ENDS");
	errno = 0;
	tap_ok(cpc_lwp_events(cpc, set, buf, keep, NULL) == -1 &&
	    errno == EINVAL, "cpc_lwp_events on it: EINVAL");
	errno = 0;
	tap_ok(cpc_lwp_events_fd(cpc, set) == -1 && errno == EINVAL,
	    "cpc_lwp_events_fd on it: EINVAL");
	tap_ok(cpc_bind_pctx(cpc, p, pctx_pid(p), set, CPC_BIND_LWP_INHERIT |
	    CPC_BIND_LWP_ENDS) == 0, "bound again with CPC_BIND_LWP_ENDS");
	errno = 0;
	tap_ok(cpc_lwp_events(cpc, set, buf, NULL, NULL) == -1 &&
	    errno == EINVAL, "no function: EINVAL");
	tap_ok(cpc_lwp_events_fd(cpc, set) >= 0, "a descriptor to poll");
	pctx_release(p);
	cpc_buf_destroy(cpc, buf);
	cpc_set_destroy(cpc, sset);
	cpc_set_destroy(cpc, set);
}

static void
test_threads(void)
{
	char *args[] = { "threads", "6", "2", "3", NULL };
	uint64_t total, sum = 0;
	int i, ok = 1, created = 0, order = 1;

	if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS, &total) != 0)
		return;
	tap_u64(count_what(CPC_LWP_CREATE), 6, "6 threads created");
	tap_u64(count_what(CPC_LWP_END), 6, "6 threads ended");
	for (i = 0; i < nr; i++) {
		if (R[i].ev.le_what == CPC_LWP_CREATE)
			created++;
		if (R[i].ev.le_what != CPC_LWP_END)
			continue;
		/* One after the other: the n-th to end made 2n calls. */
		ok &= R[i].count == (uint64_t)(2 * created);
		order &= i > 0 && R[i - 1].ev.le_what == CPC_LWP_CREATE &&
		    R[i - 1].ev.le_tid == R[i].ev.le_tid &&
		    R[i - 1].ev.le_time <= R[i].ev.le_time;
		sum += R[i].count;
	}
	tap_ok(ok, "each thread's own count: 2, 4, ... 12");
	tap_ok(order, "each end follows its thread's creation, in time");
	tap_u64(sum, 42, "the threads' counts sum to 42");
	tap_u64(total, base + 45, "the set's total: 3 of the first thread "
	    "and 42");
}

/* Whether every END in R follows a CREATE of its thread. */
static int
ends_created(void)
{
	int i, j, ok = 1;

	for (i = 0; i < nr; i++) {
		if (R[i].ev.le_what != CPC_LWP_END)
			continue;
		for (j = i - 1; j >= 0; j--)
			if (R[j].ev.le_what == CPC_LWP_CREATE &&
			    R[j].ev.le_tid == R[i].ev.le_tid)
				break;
		ok &= j >= 0;
	}
	return ok;
}

/*
 * Threads that end at once on every CPU, created by the first thread
 * and by others, their counts exact run after run: two CPUs writing
 * into one ring at once lose records (see perf_lwpev.c).
 */
static void
test_crowd(void)
{
	char n[16], *args[] = { "crowd", n, NULL };
	int run_i, i, runs = 10, good = 0, created = 0;
	long want = CROWD_MAX + CROWD_MAX / 2;
	uint64_t total, sum;

	snprintf(n, sizeof(n), "%d", CROWD_MAX);
	for (run_i = 0; run_i < runs; run_i++) {
		static unsigned char seen[2 * CROWD_MAX + 1102];
		int ok = 1;

		live = run_i % 2;
		if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS,
		    &total) != 0)
			return;
		memset(seen, 0, sizeof(seen));
		sum = 0;
		for (i = 0; i < nr; i++) {
			uint64_t c = R[i].count;

			if (R[i].ev.le_what != CPC_LWP_END)
				continue;
			/* Each count once: 2, 4, ... 200; 1002, 1004, ... */
			ok &= c < sizeof(seen) && !seen[c] && (c % 2 == 0) &&
			    ((c >= 2 && c <= 2 * CROWD_MAX) ||
			    (c > 1001 && c <= 1001 + CROWD_MAX));
			if (c < sizeof(seen))
				seen[c] = 1;
			sum += c;
		}
		created = count_what(CPC_LWP_CREATE);
		ok &= count_what(CPC_LWP_END) == want && created == want &&
		    count_what(CPC_LWP_LOST) == 0 && ends_created() &&
		    total == base + sum;
		good += ok;
	}
	live = 0;
	tap_ok(good == runs, "%d of %d runs of %ld threads ending at once, "
	    "read at the end and while they run: every thread's creation, "
	    "its own count once after it (%d created in the last)", good,
	    runs, want, created);
}

static void
test_lost(void)
{
	char *args[] = { "threads", "400", "1", "5", NULL };
	uint64_t total, sum = 0;
	int i;

	/* One page: the reports overflow it, read only at the end. */
	setenv("CPC_ENDS_RING", "4096", 1);
	if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS, &total) != 0)
		return;
	unsetenv("CPC_ENDS_RING");
	for (i = 0; i < nr; i++) {
		if (R[i].ev.le_what == CPC_LWP_END)
			sum += R[i].count;
	}
	tap_ok(count_what(CPC_LWP_LOST) > 0, "a small ring: the loss is "
	    "reported");
	tap_ok(sum < 80200, "the reports kept hold less (%llu)",
	    (unsigned long long)sum);
	tap_u64(total, base + 5 + 80200, "the set's total is whole");
}

static void
test_fork(void)
{
	char *args[] = { "fork", NULL };
	uint64_t total;
	int i, forks = 0;

	if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS, &total) != 0)
		return;
	for (i = 0; i < nr; i++)
		forks += R[i].ev.le_what == CPC_LWP_FORK &&
		    R[i].ev.le_child > 0 && R[i].ev.le_child != R[i].ev.le_pid;
	tap_u64(forks, 1, "one fork, naming the child");
	tap_u64(count_what(CPC_LWP_END), 0, "the child is not counted");
	tap_u64(total, base + 4, "the total: the parent's 4 calls only");
}

static void
test_exec(const char *arg, const char *who)
{
	char *args[] = { "exec", (char *)arg, NULL };
	uint64_t total;
	int i, ex = -1;

	if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS, &total) != 0)
		return;
	for (i = 0; i < nr; i++)
		if (R[i].ev.le_what == CPC_LWP_EXEC)
			ex = i;
	if (!tap_ok(ex == nr - 1, "exec from %s thread: reported last",
	    who))
		return;
	tap_ok(strcmp(R[ex].ev.le_comm, "t_ends") == 0,
	    "the exec names the program ('%s')", R[ex].ev.le_comm);
	tap_u64(R[ex].ev.le_tid, R[ex].ev.le_pid, "the exec: the pid's thread");
	tap_u64(count_what(CPC_LWP_END), 1, "one thread's end before it");
	for (i = 0; i < ex; i++)
		if (R[i].ev.le_what == CPC_LWP_END)
			tap_u64(R[i].count, 3, "the thread's own 3 calls");
	tap_u64(total, base + 7, "counts frozen at the exec: 4 + 3, not the "
	    "new image's 100");
}

/* The report of what for pid (tid, if not 0), or NULL. */
static const struct rep *
rep_of(cpc_lwp_what_t what, pid_t pid, pid_t tid)
{
	int i;

	for (i = 0; i < nr; i++)
		if (R[i].ev.le_what == what && R[i].ev.le_pid == pid &&
		    (tid == 0 || R[i].ev.le_tid == tid))
			return &R[i];
	return NULL;
}

/* The position of r in R, or -1. */
#define AT(r)	((r) == NULL ? -1 : (int)((r) - R))

/* CPC_BIND_LWP_FORKS: every process of the tree, to its exec or exit. */
static void
test_tree(void)
{
	char *args[] = { "tree", NULL };
	const struct rep *fa = NULL, *fb = NULL, *fg = NULL, *r, *e;
	uint64_t total;
	pid_t root = 0, a, b, g;
	int i, nfork = 0;

	if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS |
	    CPC_BIND_LWP_FORKS, &total) != 0)
		return;
	for (i = 0; i < nr; i++)
		if (R[i].ev.le_what == CPC_LWP_FORK) {
			nfork++;
			if (root == 0)
				root = R[i].ev.le_pid;
			if (R[i].ev.le_pid != root)
				fg = &R[i];
			else if (fa == NULL)
				fa = &R[i];
			else
				fb = &R[i];
		}
	if (!tap_u64(nfork, 3, "three forks: two children, a grandchild") ||
	    fa == NULL || fb == NULL || fg == NULL)
		return;
	a = fa->ev.le_child;
	b = fb->ev.le_child;
	g = fg->ev.le_child;
	tap_u64(fg->ev.le_pid, a, "the grandchild is the first child's");
	r = rep_of(CPC_LWP_END, a, a);
	tap_u64(r ? r->count : 0, 50, "the first child: its 50 calls");
	r = rep_of(CPC_LWP_CREATE, a, 0);
	tap_ok(r != NULL && AT(r) > AT(fa), "its thread's creation, after "
	    "its fork");
	e = r ? rep_of(CPC_LWP_END, a, r->ev.le_tid) : NULL;
	tap_u64(e ? e->count : 0, 7, "its thread: 7 calls");
	r = rep_of(CPC_LWP_END, g, g);
	tap_u64(r ? r->count : 0, 30, "the grandchild: 30 calls");
	e = rep_of(CPC_LWP_EXIT, g, 0);
	tap_ok(e != NULL && AT(e) > AT(r), "the grandchild's exit, after "
	    "its end");
	e = rep_of(CPC_LWP_EXIT, a, 0);
	tap_ok(e != NULL && AT(e) > AT(rep_of(CPC_LWP_END, a, a)) &&
	    AT(e) > AT(fg), "the first child's exit, after its ends");
	r = rep_of(CPC_LWP_END, b, b);
	tap_u64(r ? r->count : 0, 20, "the second child: 20 calls to its "
	    "exec");
	e = rep_of(CPC_LWP_EXEC, b, 0);
	tap_ok(e != NULL && AT(e) > AT(r) && strcmp(e->ev.le_comm,
	    "t_ends") == 0, "its exec, after its end, naming the program");
	tap_ok(rep_of(CPC_LWP_EXIT, b, 0) == NULL, "nothing of it after its "
	    "exec");
	tap_u64(count_what(CPC_LWP_END), 4, "four ends: nothing of the "
	    "new image's");
	tap_ok(rep_of(CPC_LWP_EXIT, root, 0) != NULL && nr > 0 &&
	    R[nr - 1].ev.le_what == CPC_LWP_EXIT, "the target's exit, last");
	tap_u64(total, base + 4 + 50 + 7 + 30 + 20, "the total: the tree's");
}

int
main(int argc, char **argv)
{
	ssize_t n;

	if (argc >= 3 && strcmp(argv[1], "child") == 0) {
		if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <
		    0)
			return 1;
		self[n] = '\0';
		return child_main(argc, argv);
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		return 1;
	self[n] = '\0';
	if (geteuid() != 0 || access("/sys/kernel/tracing/events/syscalls",
	    R_OK) != 0) {
		tap_skip("needs root and tracefs", "thread reports");
		return tap_done();
	}
	cpc = cpc_open(CPC_VER_CURRENT);
	cpc_seterrhndlr(cpc, keep_errmsg);
	{
		char *args[] = { "threads", "0", "0", "0", NULL };

		if (run(args, CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_ENDS,
		    &base) != 0)
			base = 0;
		tap_ok(base < 10, "a target that makes no call: %llu (a "
		    "sanitizer's start-up)", (unsigned long long)base);
	}
	test_errors();
	test_threads();
	test_crowd();
	test_lost();
	test_fork();
	test_exec("main", "the main");
	test_exec("thread", "another");
	test_tree();
	/* The same, the reports read while the target runs. */
	live = 1;
	test_tree();
	test_threads();
	test_fork();
	test_exec("main", "the main");
	test_exec("thread", "another");
	live = 0;
	cpc_close(cpc);
	return tap_done();
}
