/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_bindrules - the binding rules of cpc_bind_curlwp(3CPC) (seed 000),
 * with the getpid oracle:
 *
 *  - CPC_BIND_LWP_INHERIT follows the threads the bound thread creates,
 *    never the processes it forks;
 *  - a set created with another handle is EINVAL, for binding, sampling
 *    and unbinding alike;
 *  - CPC_BIND_EMT_OVF on a bind makes every request whose preset can
 *    overflow an overflow request for that binding, and only for it;
 *  - CPC_BIND_LWP_INHERIT with an overflow request is refused with the
 *    reason (Linux cannot signal the overflows of inherited counters);
 *  - a request with neither CPC_COUNT_USER nor CPC_COUNT_SYSTEM counts
 *    nothing, a tracepoint or a clock included;
 *  - cpc_bind_cpu to a CPU that does not exist is EINVAL, to one that is
 *    offline ENOSYS (as root, with cpu 1 taken offline for the check);
 *  - an overflow period of a clock event shorter than the kernel survives
 *    is refused, naming the shortest, wherever a preset is given: at
 *    cpc_set_add_request, at a CPC_BIND_EMT_OVF bind, by
 *    cpc_request_preset.  Nothing here arms a short clock period: each
 *    case is refused before the kernel sees it;
 *  - cpc_unbind of a set never bound is EINVAL (illumos), and so are flag
 *    bits a bind does not take (cpc_bind_curlwp, cpc_bind_cpu,
 *    cpc_bind_pctx), with a message; the Linux extensions stay;
 *  - cpc_open(CPC_VER_CPC_ONLY) counts, and refuses SMPL requests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <libcpc.h>
#include <libpctx.h>

#include "errmsg.h"
#include "getpids.h"
#include "tap.h"

static volatile sig_atomic_t nsig;

static void
on_emt(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	nsig++;
}

static cpc_set_t *
one(cpc_t *cpc, const char *ev, uint64_t preset, uint_t flags)
{
	cpc_set_t *set = cpc_set_create(cpc);

	if (set != NULL &&
	    cpc_set_add_request(cpc, set, ev, preset, flags, 0, NULL) != 0) {
		cpc_set_destroy(cpc, set);
		return NULL;
	}
	return set;
}

/* Request 0 of a bound set, or UINT64_MAX. */
static uint64_t
value(cpc_t *cpc, cpc_set_t *set)
{
	cpc_buf_t *b = cpc_buf_create(cpc, set);
	uint64_t v = UINT64_MAX;

	if (b != NULL && cpc_set_sample(cpc, set, b) == 0)
		cpc_buf_get(cpc, b, 0, &v);
	cpc_buf_destroy(cpc, b);
	return v;
}

static void *
thread_300(void *arg)
{
	(void)arg;
	getpids(300);
	return NULL;
}

static void
inherit_threads_not_forks(cpc_t *cpc)
{
	cpc_set_t *set = one(cpc, EV, 0, CPC_COUNT_USER);
	pthread_t t;
	pid_t pid;
	int st = -1;

	if (!tap_ok(set != NULL && cpc_bind_curlwp(cpc, set,
	    CPC_BIND_LWP_INHERIT) == 0, "bind with CPC_BIND_LWP_INHERIT"))
		return;
	getpids(100);
	pthread_create(&t, NULL, thread_300, NULL);
	pthread_join(t, NULL);
	if ((pid = fork()) == 0) {
		getpids(777);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child ran");
	tap_u64(value(cpc, set), 400, "INHERIT: the thread's 300 calls "
	    "count, the forked child's 777 do not");
	cpc_unbind(cpc, set);
	cpc_set_destroy(cpc, set);
}

static void
other_handle(cpc_t *cpc, cpc_t *other)
{
	cpc_set_t *set = one(other, EV, 0, CPC_COUNT_USER);
	cpc_buf_t *b = cpc_buf_create(other, set);

	if (!tap_ok(set != NULL && b != NULL, "a set of the other handle"))
		return;
	errno = 0;
	errmsg[0] = '\0';
	tap_ok(cpc_bind_curlwp(cpc, set, 0) == -1 && errno == EINVAL &&
	    strstr(errmsg, "another handle") != NULL,
	    "cpc_bind_curlwp with another handle's set: EINVAL (%s)", errmsg);
	errno = 0;
	tap_ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == EINVAL,
	    "cpc_bind_cpu with another handle's set: EINVAL");
	tap_ok(cpc_bind_curlwp(other, set, 0) == 0, "bound with its own");
	getpids(7);
	errno = 0;
	tap_ok(cpc_set_sample(cpc, set, b) == -1 && errno == EINVAL,
	    "cpc_set_sample with another handle: EINVAL");
	errno = 0;
	tap_ok(cpc_unbind(cpc, set) == -1 && errno == EINVAL,
	    "cpc_unbind with another handle: EINVAL");
	tap_u64(value(other, set), 7, "the set still counts for its handle");
	cpc_unbind(other, set);
	cpc_buf_destroy(other, b);
	cpc_set_destroy(other, set);
}

static void
emt_ovf(cpc_t *cpc)
{
	cpc_set_t *set = one(cpc, EV, UINT64_MAX - 99, CPC_COUNT_USER);
	uint64_t v;

	if (!tap_ok(set != NULL, "a set whose request is preset, no "
	    "overflow flag"))
		return;
	nsig = 0;
	tap_ok(cpc_bind_curlwp(cpc, set, CPC_BIND_EMT_OVF) == 0,
	    "bind with CPC_BIND_EMT_OVF");
	getpids(150);
	v = value(cpc, set);
	tap_u64(nsig, 1, "CPC_BIND_EMT_OVF: the 100th call overflows once");
	tap_u64(v, 0, "the set stopped at the overflow: the preset wrapped "
	    "to 0");
	nsig = 0;
	tap_ok(cpc_bind_curlwp(cpc, set, 0) == 0, "bound again without it");
	getpids(150);
	tap_u64(nsig, 0, "without CPC_BIND_EMT_OVF: no overflow signal");
	tap_u64(value(cpc, set), (uint64_t)(UINT64_MAX - 99) + 150,
	    "it counts on from the preset past 2^64");
	cpc_unbind(cpc, set);
	cpc_set_destroy(cpc, set);
}

static void
inherit_overflow(cpc_t *cpc)
{
	cpc_set_t *set = one(cpc, EV, UINT64_MAX - 99,
	    CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT);

	errno = 0;
	errmsg[0] = '\0';
	tap_ok(set != NULL && cpc_bind_curlwp(cpc, set,
	    CPC_BIND_LWP_INHERIT) == -1 && errno == EINVAL &&
	    strstr(errmsg, "cannot go with CPC_BIND_LWP_INHERIT") != NULL &&
	    strstr(errmsg, "Linux") != NULL,
	    "INHERIT with an overflow request: EINVAL, with why (%s)",
	    errmsg);
	cpc_set_destroy(cpc, set);
}

static void
no_mode(cpc_t *cpc)
{
	static const char *const evs[] = { EV, "task-clock", "page-faults" };
	size_t i;

	for (i = 0; i < sizeof(evs) / sizeof(*evs); i++) {
		cpc_set_t *set = one(cpc, evs[i], 0, 0);
		char *p;

		if (!tap_ok(set != NULL && cpc_bind_curlwp(cpc, set, 0) == 0,
		    "%s without a mode flag: bound", evs[i]))
			continue;
		getpids(50);
		p = malloc(1 << 20);
		if (p != NULL)
			memset(p, 1, 1 << 20);
		free(p);
		tap_u64(value(cpc, set), 0, evs[i]);
		cpc_unbind(cpc, set);
		cpc_set_destroy(cpc, set);
	}
}

static void
clock_periods(cpc_t *cpc)
{
	static const char *const clocks[] = { "task-clock", "cpu-clock" };
	cpc_set_t *set;
	size_t i;

	for (i = 0; i < 2; i++) {
		set = cpc_set_create(cpc);
		errno = 0;
		errmsg[0] = '\0';
		tap_ok(set != NULL && cpc_set_add_request(cpc, set, clocks[i],
		    UINT64_MAX - 999, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0,
		    NULL) == -1 && errno == EINVAL &&
		    strstr(errmsg, "overflow period under 100000") != NULL,
		    "%s overflowing every 1000 ns (the seed's Example 2): "
		    "EINVAL, naming the shortest (%s)", clocks[i], errmsg);
		cpc_set_destroy(cpc, set);
	}
	/* A preset that leaves the shortest period is taken. */
	set = cpc_set_create(cpc);
	tap_ok(set != NULL && cpc_set_add_request(cpc, set, "task-clock",
	    0 - 100000ULL, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0,
	    NULL) == 0, "task-clock every 100000 ns: taken");
	cpc_set_destroy(cpc, set);
	/* CPC_BIND_EMT_OVF makes a short preset an overflow period. */
	set = one(cpc, "task-clock", UINT64_MAX - 999, CPC_COUNT_USER);
	errno = 0;
	errmsg[0] = '\0';
	tap_ok(set != NULL && cpc_bind_curlwp(cpc, set, CPC_BIND_EMT_OVF) ==
	    -1 && errno == EINVAL && strstr(errmsg, "100000") != NULL,
	    "task-clock preset 1000 ns short, bound with CPC_BIND_EMT_OVF: "
	    "EINVAL (%s)", errmsg);
	cpc_set_destroy(cpc, set);
	/* cpc_request_preset: a long period bound, a short one refused. */
	set = one(cpc, "task-clock", 0 - 1000000000ULL,
	    CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT);
	if (tap_ok(set != NULL && cpc_bind_curlwp(cpc, set, 0) == 0,
	    "task-clock overflowing every second: bound")) {
		errno = 0;
		tap_ok(cpc_request_preset(cpc, 0, UINT64_MAX - 999) == -1 &&
		    errno == EINVAL, "cpc_request_preset of 1000 ns: EINVAL");
		cpc_unbind(cpc, set);
	}
	cpc_set_destroy(cpc, set);
}

static int
set_online(int cpu, int on)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
	    cpu);
	if ((fd = open(path, O_WRONLY)) < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static void
cpus(cpc_t *cpc)
{
	cpc_set_t *set = one(cpc, "cpu-clock", 0, CPC_COUNT_USER);

	errno = 0;
	tap_ok(set != NULL && cpc_bind_cpu(cpc, 4000, set, 0) == -1 &&
	    errno == EINVAL, "cpc_bind_cpu to a CPU that does not exist: "
	    "EINVAL");
	if (geteuid() != 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    set_online(1, 0) != 0) {
		tap_skip("needs root and a cpu 1 to take offline",
		    "cpc_bind_cpu to an offline CPU: ENOSYS");
	} else {
		errno = 0;
		errmsg[0] = '\0';
		tap_ok(cpc_bind_cpu(cpc, 1, set, 0) == -1 && errno == ENOSYS &&
		    strstr(errmsg, "offline") != NULL,
		    "cpc_bind_cpu to an offline CPU: ENOSYS (%s)", errmsg);
		tap_ok(set_online(1, 1) == 0, "cpu 1 online again");
	}
	cpc_set_destroy(cpc, set);
}

static void
quiet(const char *fn, const char *fmt, va_list ap)
{
	(void)fn;
	(void)fmt;
	(void)ap;
}

/* What a bind does not take, and cpc_unbind of a set never bound. */
static void
conformance(cpc_t *cpc)
{
	char *argv[] = { "sleep", "30", NULL };
	cpc_set_t *set = cpc_set_create(cpc);
	pctx_t *pctx;
	int rc;

	if (!tap_ok(set != NULL && cpc_set_add_request(cpc, set, EV, 0,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) == 0, "a getpid set"))
		return;
	errno = 0;
	tap_ok(cpc_unbind(cpc, set) == -1 && errno == EINVAL,
	    "cpc_unbind of a set never bound: EINVAL");
	errno = 0;
	errmsg[0] = '\0';
	tap_ok(cpc_bind_curlwp(cpc, set, 0x400) == -1 && errno == EINVAL &&
	    strstr(errmsg, "flags 0x400") != NULL, "cpc_bind_curlwp with a "
	    "flag it does not take: EINVAL (%s)", errmsg);
	errno = 0;
	errmsg[0] = '\0';
	tap_ok(cpc_bind_cpu(cpc, 0, set, CPC_BIND_LWP_INHERIT) == -1 &&
	    errno == EINVAL && strstr(errmsg, "takes none") != NULL,
	    "cpc_bind_cpu with CPC_BIND_LWP_INHERIT: EINVAL (%s)", errmsg);
	pctx = pctx_create("sleep", argv, NULL, 0, quiet);
	if (tap_ok(pctx != NULL, "a pctx")) {
		errno = 0;
		errmsg[0] = '\0';
		tap_ok(cpc_bind_pctx(cpc, pctx, pctx_pid(pctx), set,
		    CPC_BIND_EMT_OVF) == -1 && errno == EINVAL &&
		    strstr(errmsg, "flags 0x2") != NULL, "cpc_bind_pctx with "
		    "CPC_BIND_EMT_OVF: EINVAL (%s)", errmsg);
		errno = 0;
		rc = cpc_bind_pctx(cpc, pctx, pctx_pid(pctx), set,
		    CPC_BIND_LWP_INHERIT | CPC_BIND_LWP_EVENTS);
		tap_ok(rc == 0 || errno != EINVAL, "cpc_bind_pctx with the "
		    "Linux extension CPC_BIND_LWP_EVENTS: taken (%s)",
		    rc == 0 ? "bound" : strerror(errno));
		tap_ok(cpc_bind_pctx(cpc, pctx, pctx_pid(pctx), set,
		    CPC_BIND_LWP_INHERIT) == 0, "and with "
		    "CPC_BIND_LWP_INHERIT: bound");
		tap_ok(cpc_unbind(cpc, set) == 0, "unbound");
		pctx_release(pctx);
	}
	cpc_set_destroy(cpc, set);
}

/* CPC_VER_CPC_ONLY: a handle that counts and does not sample. */
static void
cpc_only(void)
{
	cpc_t *cpc = cpc_open(CPC_VER_CPC_ONLY);
	cpc_set_t *set = cpc != NULL ? cpc_set_create(cpc) : NULL;
	cpc_attr_t nrecs = { "smpl_nrecs", 8 };

	tap_ok(CPC_VER_CPC_ONLY != CPC_VER_CURRENT && set != NULL,
	    "cpc_open(CPC_VER_CPC_ONLY): a handle");
	if (set == NULL) {
		cpc_close(cpc);
		return;
	}
	cpc_seterrhndlr(cpc, keep_errmsg);
	errmsg[0] = '\0';
	tap_ok(cpc_set_add_request(cpc, set, "task-clock", 0,
	    CPC_COUNT_USER | CPC_HW_SMPL, 1, &nrecs) == -1 &&
	    errno == EINVAL && strstr(errmsg, "CPC_VER_CPC_ONLY") != NULL,
	    "it refuses a SMPL request: EINVAL (%s)", errmsg);
	tap_ok(cpc_set_add_request(cpc, set, EV, 0, CPC_COUNT_USER |
	    CPC_COUNT_SYSTEM, 0, NULL) == 0 && cpc_bind_curlwp(cpc, set, 0) ==
	    0, "it counts: a getpid set bound");
	cpc_close(cpc);
	errno = 0;
	tap_ok(cpc_open(CPC_VER_CPC_ONLY + 1) == NULL && errno == EINVAL,
	    "cpc_open of a version it does not know: EINVAL");
}

int
main(void)
{
	struct sigaction sa;
	cpc_t *cpc, *other;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL ||
	    (other = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	cpc_seterrhndlr(cpc, keep_errmsg);
	cpc_seterrhndlr(other, keep_errmsg);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_emt;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGEMT, &sa, NULL);
	inherit_threads_not_forks(cpc);
	other_handle(cpc, other);
	emt_ovf(cpc);
	inherit_overflow(cpc);
	no_mode(cpc);
	clock_periods(cpc);
	cpus(cpc);
	conformance(cpc);
	cpc_only();
	cpc_close(other);
	cpc_close(cpc);
	return tap_done();
}
