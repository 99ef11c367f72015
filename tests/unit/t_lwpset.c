/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_lwpset - a thread has one set bound with cpc_bind_curlwp, as an LWP
 * has one context on Solaris: binding another replaces it (from any
 * handle), and the calls that name no set (cpc_set_restart,
 * cpc_disable, ...) act on the one bound last.  Destroying the set from
 * another thread, or the thread's exit, leaves nothing dangling; another
 * thread cannot unbind or read the thread's context (EINVAL).  The same for cpc_bind_pctx: a thread has one set bound that
 * way, and binding another unbinds it.  Oracle: getpid calls counted by
 * the syscalls:sys_enter_getpid tracepoint, exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <libcpc.h>
#include <libpctx.h>

#include "getpids.h"
#include "steps.h"
#include "tap.h"

static cpc_set_t *
getpid_set(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);

	if (set == NULL || cpc_set_add_request(cpc, set, EV, 0,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) != 0)
		return NULL;
	return set;
}

/* The set's count now; ~0 when it cannot be sampled (errno says why). */
static uint64_t
value(cpc_t *cpc, cpc_set_t *set)
{
	cpc_buf_t *b = cpc_buf_create(cpc, set);
	uint64_t v = ~(uint64_t)0;

	if (b != NULL && cpc_set_sample(cpc, set, b) == 0)
		cpc_buf_get(cpc, b, 0, &v);
	cpc_buf_destroy(cpc, b);
	return v;
}

/* A thread that binds a set, waits to be told, then tries the no-set calls. */
struct peer {
	cpc_t		*cpc;
	cpc_set_t	*set;
	struct steps	 st;		/* 1 bound, 2 go on */
	int		 bound, restart, restart_errno, disable, disable_errno;
};

static void *
peer_main(void *arg)
{
	struct peer *p = arg;

	p->bound = cpc_bind_curlwp(p->cpc, p->set, 0);
	steps_go(&p->st, 1, 2);
	errno = 0;
	p->restart = cpc_set_restart(p->cpc, NULL);
	p->restart_errno = errno;
	errno = 0;
	p->disable = cpc_disable(p->cpc);
	p->disable_errno = errno;
	return NULL;
}

/* Binds the set on a stack (and TLS) the caller unmaps after the join. */
static void *
bind_and_exit(void *arg)
{
	struct peer *p = arg;

	p->bound = cpc_bind_curlwp(p->cpc, p->set, 0);
	getpids(7);
	return NULL;
}

static void
replace(cpc_t *cpc, cpc_t *other)
{
	cpc_set_t *a = getpid_set(cpc), *b = getpid_set(other);
	uint64_t v;

	if (!tap_ok(a != NULL && b != NULL, "two getpid sets")) {
		cpc_set_destroy(cpc, a);
		cpc_set_destroy(other, b);
		return;
	}
	tap_ok(cpc_bind_curlwp(cpc, a, 0) == 0, "set A bound");
	getpids(100);
	tap_ok(cpc_bind_curlwp(other, b, 0) == 0, "set B bound to the same "
	    "thread%s", cpc == other ? "" : ", from another handle");
	errno = 0;
	v = value(cpc, a);
	tap_ok(v == ~(uint64_t)0 && errno == EINVAL,
	    "A was replaced: sampling it is EINVAL (%s)", strerror(errno));
	getpids(50);
	tap_u64(value(other, b), 50, "B counts what came after");
	tap_ok(cpc_disable(cpc) == 0, "cpc_disable: acts on B");
	getpids(30);
	tap_u64(value(other, b), 50, "B frozen by cpc_disable");
	tap_ok(cpc_enable(cpc) == 0, "cpc_enable: B again");
	getpids(5);
	tap_u64(value(other, b), 55, "B counts after cpc_enable");
	tap_ok(cpc_bind_curlwp(cpc, a, 0) == 0, "A bound again");
	getpids(20);
	tap_u64(value(cpc, a), 20, "A counts from its new bind");
	errno = 0;
	tap_ok(value(other, b) == ~(uint64_t)0 && errno == EINVAL,
	    "and B was replaced in turn");
	tap_ok(cpc_unbind(cpc, a) == 0, "A unbound");
	errno = 0;
	tap_ok(cpc_disable(cpc) == -1 && errno == EINVAL,
	    "nothing bound: cpc_disable is EINVAL");
	cpc_set_destroy(cpc, a);
	cpc_set_destroy(other, b);
}

static void
quiet(const char *fn, const char *fmt, va_list ap)
{
	(void)fn, (void)fmt, (void)ap;
}

/*
 * cpc_bind_pctx to a thread of the controlled process (the created
 * command, stopped before its first instruction until pctx_run, so that
 * it counts exactly nothing): each bind replaces the set bound there
 * before, from either handle.  A thread the pctx does not control, this
 * very one, is refused with ESRCH (seed 000).
 */
static void
replace_pctx(cpc_t *cpc, cpc_t *other)
{
	char *argv[] = { "sleep", "30", NULL };
	cpc_set_t *a = getpid_set(cpc), *b = getpid_set(cpc);
	cpc_set_t *c = getpid_set(other);
	id_t me = (id_t)syscall(SYS_gettid), them;
	pctx_t *pctx = pctx_create("sleep", argv, NULL, 0, quiet);

	if (!tap_ok(a != NULL && b != NULL && c != NULL && pctx != NULL,
	    "three getpid sets and a pctx")) {
		pctx_release(pctx);
		return;
	}
	them = (id_t)pctx_pid(pctx);
	errno = 0;
	tap_ok(cpc_bind_pctx(cpc, pctx, me, a, 0) == -1 && errno == ESRCH,
	    "pctx: a thread the pctx does not control: ESRCH");
	tap_ok(cpc_bind_pctx(cpc, pctx, them, a, 0) == 0, "pctx: A bound");
	getpids(10);
	tap_ok(cpc_bind_pctx(cpc, pctx, them, b, 0) == 0, "pctx: B bound to "
	    "the same thread");
	errno = 0;
	tap_ok(value(cpc, a) == ~(uint64_t)0 && errno == EINVAL,
	    "pctx: A was replaced: sampling it is EINVAL");
	getpids(5);
	tap_u64(value(cpc, b), 0, "pctx: B counts the stopped thread: none");
	tap_ok(cpc_bind_pctx(other, pctx, them, c, 0) == 0, "pctx: C, from "
	    "another handle, bound there");
	errno = 0;
	tap_ok(value(cpc, b) == ~(uint64_t)0 && errno == EINVAL,
	    "pctx: B was replaced in turn");
	getpids(3);
	tap_u64(value(other, c), 0, "pctx: C counts none");
	tap_ok(cpc_unbind(other, c) == 0 &&
	    cpc_bind_pctx(cpc, pctx, them, a, 0) == 0, "pctx: C unbound, A "
	    "bound again");
	tap_u64(value(cpc, a), 0, "pctx: A counts from its new bind: none");
	cpc_set_destroy(cpc, a);
	cpc_set_destroy(cpc, b);
	cpc_set_destroy(other, c);
	pctx_release(pctx);
}

/* Binds and unbinds a set on its own thread until told to stop. */
static volatile int churning;

static void *
churn(void *arg)
{
	cpc_t *cpc = arg;
	cpc_set_t *set = getpid_set(cpc);

	while (set != NULL && churning) {
		(void)cpc_bind_curlwp(cpc, set, 0);
		(void)cpc_unbind(cpc, set);
	}
	cpc_set_destroy(cpc, set);
	return NULL;
}

/*
 * Wait for the child pid; SIGKILL it after 5 s (a child hung with its
 * signals blocked ignores everything else).  0, or -1 if waitpid fails.
 */
static int
wait_or_kill(pid_t pid, int *st)
{
	pid_t r;
	int i;

	for (i = 0; i < 500; i++) {
		if ((r = waitpid(pid, st, WNOHANG)) != 0)
			return r == pid ? 0 : -1;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	return waitpid(pid, st, 0) == pid ? 0 : -1;
}

/*
 * fork(2) while another thread binds: the child must not inherit the
 * library's locks taken (it would hang in its first bind, its signals
 * blocked), nor the set bound to the thread that forked.  A child that
 * hangs is killed after 5 s.
 */
static void
fork_while_binding(cpc_t *cpc)
{
	cpc_set_t *mine = getpid_set(cpc);
	int i, st, hung = 0, inherited = 0, failed = 0;
	pthread_t t;
	pid_t pid;

	if (!tap_ok(mine != NULL && cpc_bind_curlwp(cpc, mine, 0) == 0,
	    "fork: a set bound to the forking thread"))
		return;
	churning = 1;
	pthread_create(&t, NULL, churn, cpc);
	for (i = 0; i < 100 && !hung; i++) {
		if ((pid = fork()) == 0) {
			cpc_t *c2;
			cpc_set_t *s;
			int inh;

			/* Nothing of the parent's: EINVAL. */
			inh = cpc_disable(cpc) != -1 || errno != EINVAL;
			if ((c2 = cpc_open(CPC_VER_CURRENT)) == NULL ||
			    (s = getpid_set(c2)) == NULL ||
			    cpc_bind_curlwp(c2, s, 0) != 0)
				_exit(3);
			_exit(inh ? 4 : 0);
		}
		if (pid < 0 || wait_or_kill(pid, &st) != 0)
			break;
		hung += WIFSIGNALED(st) && (WTERMSIG(st) == SIGALRM ||
		    WTERMSIG(st) == SIGKILL);
		inherited += WIFEXITED(st) && WEXITSTATUS(st) == 4;
		failed += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	churning = 0;
	pthread_join(t, NULL);
	tap_ok(i == 100 && !hung, "fork while another thread binds: 100 "
	    "children bind at once (%d forks, %d hung)", i, hung);
	tap_ok(!inherited, "no child inherits the set bound to the thread "
	    "that forked (%d did)", inherited);
	tap_ok(!failed, "every child bound its own set (%d did not)", failed);
	cpc_set_destroy(cpc, mine);
}

/*
 * Main, which has no context for the set, tries to unbind it (EINVAL:
 * the peer's context is the peer's), or destroys it, while the peer has
 * it bound.
 */
static void
from_another_thread(cpc_t *cpc, int destroy)
{
	struct peer p = {
		.cpc = cpc, .st = STEPS_INIT,
	};
	pthread_t t;

	if (!tap_ok((p.set = getpid_set(cpc)) != NULL, "a getpid set"))
		return;
	pthread_create(&t, NULL, peer_main, &p);
	steps_go(&p.st, 0, 1);
	tap_ok(p.bound == 0, "the set bound by a second thread");
	errno = 0;
	if (destroy)
		tap_ok(cpc_set_destroy(cpc, p.set) == 0, "destroyed by main");
	else
		tap_ok(cpc_unbind(cpc, p.set) == -1 && errno == EINVAL,
		    "unbound by main, which has no context for it: EINVAL");
	steps_go(&p.st, 2, 0);
	pthread_join(t, NULL);
	if (destroy) {
		tap_ok(p.restart == -1 && p.restart_errno == EINVAL,
		    "set destroyed elsewhere: the thread's cpc_set_restart is "
		    "EINVAL");
		tap_ok(p.disable == -1 && p.disable_errno == EINVAL,
		    "set destroyed elsewhere: the thread's cpc_disable is "
		    "EINVAL");
		return;
	}
	tap_ok(p.restart == 0, "the thread's cpc_set_restart still acts on "
	    "its own context (%s)", strerror(p.restart_errno));
	tap_ok(p.disable == 0, "the thread's cpc_disable too (%s)",
	    strerror(p.disable_errno));
	cpc_set_destroy(cpc, p.set);
}

/*
 * The thread's slot lives in its TLS, on the stack given here; after the
 * thread ends and the stack is unmapped, destroying the set must not
 * touch the slot.
 */
static void
after_exit(cpc_t *cpc)
{
	struct peer p = { .cpc = cpc };
	size_t len = 1 << 20;
	pthread_attr_t at;
	pthread_t t;
	void *stk;

	if (!tap_ok((p.set = getpid_set(cpc)) != NULL, "a getpid set"))
		return;
	stk = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_attr_init(&at);
	pthread_attr_setstack(&at, stk, len);
	pthread_create(&t, &at, bind_and_exit, &p);
	pthread_join(t, NULL);
	pthread_attr_destroy(&at);
	tap_ok(p.bound == 0, "bound by a thread that then ended");
	munmap(stk, len);
	errno = 0;
	tap_ok(value(cpc, p.set) == ~(uint64_t)0 && errno == EINVAL,
	    "another thread cannot read its context: EINVAL (%s)",
	    strerror(errno));
	tap_ok(cpc_set_destroy(cpc, p.set) == 0,
	    "destroyed after the thread and its stack are gone");
}

int
main(void)
{
	cpc_t *cpc, *other;
	cpc_set_t *probe;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL ||
	    (other = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	if ((probe = getpid_set(cpc)) == NULL ||
	    cpc_bind_curlwp(cpc, probe, 0) != 0) {
		tap_skip("needs the " EV " tracepoint (tracefs)", "one set "
		    "per thread");
		cpc_close(other);
		cpc_close(cpc);
		return tap_done();
	}
	cpc_set_destroy(cpc, probe);
	replace(cpc, cpc);
	replace(cpc, other);
	replace_pctx(cpc, other);
	from_another_thread(cpc, 0);
	from_another_thread(cpc, 1);
	after_exit(cpc);
	fork_while_binding(cpc);
	cpc_close(other);
	cpc_close(cpc);
	return tap_done();
}
