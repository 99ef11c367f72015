/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_smpl - SMPL requests (CPC_HW_SMPL) take exactly the records the
 * oracles say, with every binding:
 *
 *	page-faults, period 1	one record per page written in a fresh
 *				mapping, its data address in that page
 *	sys_enter_getpid	one record per getpid call through
 *				syscall(2) (period 1), floor(N / 3) every 3
 *
 * and the records' items (thread, process, time, CPU, mode, the PC in
 * the syscall(2) wrapper); the signal every smpl_nrecs records; records
 * lost when the ring is full, counted so that kept + lost = taken; a
 * counting request's overflow never stops sampling; cpc_disable stops
 * it; CPC_BIND_LWP_INHERIT samples later threads; cpc_bind_cpu every
 * process on the CPU; cpc_bind_pctx each thread of a controlled
 * process (the test re-runs itself: "t_smpl child N M").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <libcpc.h>
#include <libpctx.h>

#include "errmsg.h"
#include "getpids.h"
#include "pages.h"
#include "tap.h"

#define SMPL	(CPC_COUNT_USER | CPC_HW_SMPL)

/*
 * Faults of the thread outside the test's mapping: none, but under
 * AddressSanitizer, whose shadow memory the library's own code may fault
 * in between a bind and a sample (the records in the mapping stay exact).
 */
#ifdef __SANITIZE_ADDRESS__
#define SLACK	3
#else
#define SLACK	0
#endif

static cpc_t *cpc;
static volatile sig_atomic_t nsig, lastcode;

static void
on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	nsig++;
	lastcode = si->si_code;
}

static pid_t
tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* A set of one SMPL request of event, nrecs and period; NULL skips. */
static cpc_set_t *
smpl_set(const char *event, uint64_t nrecs, uint64_t period, uint_t flags,
    int *index)
{
	cpc_attr_t a[2] = { { "smpl_nrecs", nrecs }, { "period", period } };
	cpc_set_t *set = cpc_set_create(cpc);

	*index = cpc_set_add_request(cpc, set, event, 0, flags, 2, a);
	if (*index < 0) {
		cpc_set_destroy(cpc, set);
		return NULL;
	}
	return set;
}

static uint_t
nrecs(cpc_buf_t *b, int i)
{
	uint_t n = 0;

	if (cpc_buf_smpl_rec_count(cpc, b, i, &n) != 0)
		return 0xdead;
	return n;
}

static uint64_t
item(cpc_buf_t *b, int i, uint_t r, int it)
{
	uint64_t v = 0xdeadbeef;

	(void)cpc_buf_smpl_get_item(cpc, b, i, (int)r, it, &v);
	return v;
}

/*
 * Page faults, period 1: n records, one per page of the fresh mapping,
 * each page once, with this thread, this process, user mode, times
 * within the binding.
 */
static void
page_faults(void)
{
	enum { N = 100 };
	char seen[N] = { 0 };
	char *p = fresh(N);
	cpc_set_t *set;
	cpc_buf_t *b, *b2;
	struct timespec ts;
	hrtime_t t0;
	uint_t r, inside = 0, once = 1, mine = 1, times = 1, n;
	uint64_t v = 0;
	int i, rc, rc2;

	if ((set = smpl_set("page-faults", 256, 1, SMPL, &i)) == NULL ||
	    (b = cpc_buf_create(cpc, set)) == NULL ||
	    (b2 = cpc_buf_create(cpc, set)) == NULL || p == NULL) {
		tap_ok(0, "page-faults SMPL set (%s)", errmsg);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (hrtime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	/* Nothing between the bind and the sample may fault (no output). */
	rc = cpc_bind_curlwp(cpc, set, 0);
	touch(p, N);
	rc2 = rc == 0 ? cpc_set_sample(cpc, set, b) : -1;
	rc2 |= rc == 0 ? cpc_set_sample(cpc, set, b2) : -1;
	if (!tap_ok(rc == 0 && rc2 == 0, "page-faults SMPL bound to this "
	    "thread and sampled (%s)", errmsg))
		return;
	n = nrecs(b, i);
	tap_ok(n >= N && n <= N + SLACK, "page-faults, period 1: one record "
	    "per page written (%u of %d)", n, N);
	for (r = 0; r < n; r++) {
		uint64_t a = item(b, i, r, CPC_SMPL_ITEM_ADDR);
		size_t pg = (a - (uint64_t)(uintptr_t)p) / pagesz;

		if (a >= (uint64_t)(uintptr_t)p && pg < N) {
			inside++;
			once &= !seen[pg]++;
		} else
			printf("# a fault outside the mapping: pc %#llx addr "
			    "%#llx\n", (unsigned long long)item(b, i, r,
			    CPC_SMPL_ITEM_PC), (unsigned long long)a);
		mine &= item(b, i, r, CPC_SMPL_ITEM_TID) == (uint64_t)tid() &&
		    item(b, i, r, CPC_SMPL_ITEM_PID) == (uint64_t)getpid() &&
		    item(b, i, r, CPC_SMPL_ITEM_MODE) == CPC_COUNT_USER &&
		    item(b, i, r, CPC_SMPL_ITEM_CPU) < 4096;
		times &= (hrtime_t)item(b, i, r, CPC_SMPL_ITEM_TIME) >= t0 &&
		    (hrtime_t)item(b, i, r, CPC_SMPL_ITEM_TIME) <=
		    cpc_buf_hrtime(cpc, b) && (r == 0 ||
		    item(b, i, r, CPC_SMPL_ITEM_TIME) >=
		    item(b, i, r - 1, CPC_SMPL_ITEM_TIME));
	}
	tap_ok(inside == N && once, "every record's data address is in a "
	    "page of the mapping, each page once (%u inside)", inside);
	tap_ok(mine, "every record: this thread, this process, user mode, "
	    "a CPU");
	tap_ok(times, "record times: CLOCK_MONOTONIC, in order, within the "
	    "binding and before the sample's hrtime");
	(void)cpc_buf_get(cpc, b, i, &v);
	tap_u64(v, n, "cpc_buf_get: the records taken");
	tap_ok(nrecs(b2, i) <= SLACK && cpc_buf_get(cpc, b2, i, &v) == 0 &&
	    v == n + nrecs(b2, i), "the next sample has no new record, and "
	    "the count stays %u", n);
	cpc_set_destroy(cpc, set);
	munmap(p, N * pagesz);
}

/* The PC of a syscall tracepoint's record: in the syscall(2) wrapper. */
static int
in_syscall(uint64_t pc)
{
	Dl_info pi, si;

	return dladdr((void *)(uintptr_t)pc, &pi) != 0 &&
	    dladdr((void *)(uintptr_t)&syscall, &si) != 0 &&
	    pi.dli_saddr == si.dli_saddr;
}

/* getpid, period 1 and 3; callchain: the user PC is its first frame. */
static void
getpid_calls(uint64_t period, int chain)
{
	enum { N = 50 };
	cpc_attr_t a[3] = { { "smpl_nrecs", 64 }, { "period", 0 },
	    { "callchain", 1 } };
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_buf_t *b;
	uint_t r, n, ok = 1, pcs = 1;

	a[1].ca_val = period;
	if (cpc_set_add_request(cpc, set, EV, 0, SMPL, chain ? 3 : 2, a) !=
	    0 || (b = cpc_buf_create(cpc, set)) == NULL) {
		tap_skip("needs the getpid tracepoint (tracefs)", EV);
		cpc_set_destroy(cpc, set);
		return;
	}
	if (!tap_ok(cpc_bind_curlwp(cpc, set, 0) == 0, "bind %s SMPL", EV))
		return;
	getpids(N);
	(void)cpc_set_sample(cpc, set, b);
	n = nrecs(b, 0);
	tap_u64(n, N / period, period == 1 ? "getpid, period 1: one record "
	    "per call" : "getpid, period 3: floor(N / 3) records");
	for (r = 0; r < n; r++) {
		uint64_t pc = item(b, 0, r, CPC_SMPL_ITEM_PC);

		ok &= item(b, 0, r, CPC_SMPL_ITEM_TID) == (uint64_t)tid() &&
		    item(b, 0, r, CPC_SMPL_ITEM_ADDR) == 0 &&
		    item(b, 0, r, CPC_SMPL_ITEM_MODE) == CPC_COUNT_USER;
		pcs &= in_syscall(pc);
		if (chain) {
			uint64_t *rec = cpc_buf_smpl_get_record(cpc, b, 0,
			    (int)r);
			uint64_t nk = rec[CPC_SMPL_ITEM_NKFRAMES];

			pcs &= rec[CPC_SMPL_ITEM_NFRAMES] > nk &&
			    rec[CPC_SMPL_ITEM_FRAME(nk)] == pc;
		}
	}
	tap_ok(ok, "every getpid record: this thread, no data address, user "
	    "mode (the syscall's user registers)");
	tap_ok(pcs, chain ? "callchain: the first user frame is the PC, in "
	    "syscall(2)" : "every PC is in the syscall(2) wrapper");
	cpc_set_destroy(cpc, set);
}

/* With CPC_OVF_NOTIFY_EMT: a signal per smpl_nrecs records, never stop. */
static void
notify(void)
{
	char *p = fresh(35);
	cpc_set_t *set;
	cpc_buf_t *b;
	uint_t n[4];
	int i, k, sig;

	if ((set = smpl_set("page-faults", 10, 1, SMPL | CPC_OVF_NOTIFY_EMT,
	    &i)) == NULL || (b = cpc_buf_create(cpc, set)) == NULL ||
	    p == NULL || cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_ok(0, "page-faults SMPL with CPC_OVF_NOTIFY_EMT (%s)",
		    errmsg);
		return;
	}
	nsig = 0;
	touch(p, 35);
	sig = nsig;
	/* Every sample before any output: printing may fault pages in. */
	for (k = 0; k < 4; k++) {
		(void)cpc_set_sample(cpc, set, b);
		n[k] = nrecs(b, i);
	}
	tap_ok(sig == 3 && lastcode == POLL_IN, "35 records, smpl_nrecs "
	    "10: three signals, si_code POLL_IN (%d, %d)", sig,
	    (int)lastcode);
	tap_ok(n[0] == 10 && n[1] == 10 && n[2] == 10 && n[3] >= 5 &&
	    n[3] <= 5 + SLACK, "a sample hands over smpl_nrecs records, the "
	    "rest waits for the next: 10, 10, 10, then 5 (%u %u %u %u)",
	    n[0], n[1], n[2], n[3]);
	cpc_set_destroy(cpc, set);
	munmap(p, 35 * pagesz);
}

/*
 * A ring too small for what comes, never drained while it comes: every
 * record is either kept or counted lost (N in all), some are lost.
 */
static void
lost(void)
{
	enum { N = 2000 };
	cpc_set_t *set;
	cpc_buf_t *b;
	uint64_t kept = 0, nlost = 0, l, v = 0;
	int i, k;

	if ((set = smpl_set(EV, 8, 1, SMPL, &i)) == NULL ||
	    (b = cpc_buf_create(cpc, set)) == NULL) {
		tap_skip("needs the getpid tracepoint (tracefs)", "lost");
		return;
	}
	if (cpc_bind_curlwp(cpc, set, 0) != 0)
		return;
	getpids(N);
	for (k = 0; k < 1000 && cpc_set_sample(cpc, set, b) == 0; k++) {
		(void)cpc_buf_smpl_lost(cpc, b, i, &l);
		kept += nrecs(b, i);
		nlost += l;
		if (nrecs(b, i) == 0)
			break;
	}
	tap_ok(nlost > 0 && kept + nlost == N, "a full ring: %llu kept and "
	    "%llu lost of %d, none unaccounted", (unsigned long long)kept,
	    (unsigned long long)nlost, N);
	(void)cpc_buf_get(cpc, b, i, &v);
	tap_u64(v, N, "cpc_buf_get counts the lost records too");
	cpc_set_destroy(cpc, set);
}

/*
 * A counting request that overflows after 5 faults (period=5) freezes
 * the counting requests; the SMPL request in the same set samples on.
 */
static void
overflow_does_not_stop(void)
{
	cpc_attr_t pa = { "period", 5 };
	cpc_attr_t sa = { "smpl_nrecs", 256 };
	cpc_set_t *set = cpc_set_create(cpc);
	char *p = fresh(50);
	cpc_buf_t *b;
	uint64_t v = 1;

	if (cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER |
	    CPC_OVF_NOTIFY_EMT, 1, &pa) != 0 || cpc_set_add_request(cpc,
	    set, "page-faults", 0, SMPL, 1, &sa) != 1 ||
	    (b = cpc_buf_create(cpc, set)) == NULL || p == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_ok(0, "a counting request with period=5 and a SMPL one "
		    "(%s)", errmsg);
		return;
	}
	nsig = 0;
	touch(p, 50);
	(void)cpc_set_sample(cpc, set, b);
	(void)cpc_buf_get(cpc, b, 0, &v);
	tap_ok(nsig == 1 && lastcode == EMT_CPCOVF && v < 3, "the counting "
	    "request overflowed once and stopped (%d signals, count %llu)",
	    (int)nsig, (unsigned long long)v);
	tap_u64(nrecs(b, 1), 50, "the SMPL request sampled all 50 faults");
	cpc_set_destroy(cpc, set);
	munmap(p, 50 * pagesz);
}

/* cpc_disable stops sampling, cpc_enable resumes it. */
static void
disable_enable(void)
{
	char *p = fresh(20);
	cpc_set_t *set;
	cpc_buf_t *b;
	int i;

	if ((set = smpl_set("page-faults", 64, 1, SMPL, &i)) == NULL ||
	    (b = cpc_buf_create(cpc, set)) == NULL || p == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0)
		return;
	(void)cpc_disable(cpc);
	touch(p, 10);
	(void)cpc_enable(cpc);
	touch(p + 10 * pagesz, 10);
	(void)cpc_set_sample(cpc, set, b);
	tap_u64(nrecs(b, i), 10, "cpc_disable stops sampling: only the 10 "
	    "faults after cpc_enable");
	cpc_set_destroy(cpc, set);
	munmap(p, 20 * pagesz);
}

static void *
faulter(void *arg)
{
	char *p = arg;

	touch(p, 30);
	*(pid_t *)(void *)arg = tid();	/* a page already faulted */
	return NULL;
}

/* CPC_BIND_LWP_INHERIT: a thread created later samples into the set. */
static void
inherit(void)
{
	char *p = fresh(30);
	cpc_set_t *set;
	cpc_buf_t *b;
	pthread_t t;
	pid_t child;
	uint_t r, theirs = 0;
	int i;

	if ((set = smpl_set("page-faults", 256, 1, SMPL, &i)) == NULL ||
	    (b = cpc_buf_create(cpc, set)) == NULL || p == NULL ||
	    cpc_bind_curlwp(cpc, set, CPC_BIND_LWP_INHERIT) != 0) {
		tap_ok(0, "bind with CPC_BIND_LWP_INHERIT (%s)", errmsg);
		return;
	}
	pthread_create(&t, NULL, faulter, p);
	pthread_join(t, NULL);
	child = *(pid_t *)(void *)p;
	(void)cpc_set_sample(cpc, set, b);
	for (r = 0; r < nrecs(b, i); r++) {
		uint64_t a = item(b, i, r, CPC_SMPL_ITEM_ADDR);

		if (a >= (uint64_t)(uintptr_t)p &&
		    a < (uint64_t)(uintptr_t)p + 30 * pagesz)
			theirs += item(b, i, r, CPC_SMPL_ITEM_TID) ==
			    (uint64_t)child ? 1 : 1000;
	}
	tap_u64(theirs, 30, "CPC_BIND_LWP_INHERIT: the new thread's 30 "
	    "faults in the mapping, all under its TID");
	cpc_set_destroy(cpc, set);
	munmap(p, 30 * pagesz);
}

/* cpc_bind_cpu: every process on the CPU; this thread's calls exactly. */
static void
cpu_binding(void)
{
	enum { N = 40 };
	cpc_set_t *set;
	cpc_buf_t *b;
	uint_t r, mine = 0, cpuok = 1;
	int i, rc, cpu = sched_getcpu();

	if ((set = smpl_set(EV, 4096, 1, SMPL, &i)) == NULL ||
	    (b = cpc_buf_create(cpc, set)) == NULL) {
		tap_skip("needs the getpid tracepoint (tracefs)", "cpu");
		return;
	}
	errmsg[0] = '\0';
	if (!tap_ok(cpc_bind_cpu(cpc, cpu, set, 0) == 0, "bind %s SMPL to "
	    "cpu %d (%s)", EV, cpu, errmsg))
		return;
	getpids(N);
	/* A set of SMPL requests alone has no group whose time says that the
	   CPU went offline: a late sample must not fail so. */
	usleep(20000);
	rc = cpc_set_sample(cpc, set, b);
	tap_ok(rc == 0, "cpc_set_sample of a CPU's SMPL-only set 20 ms on "
	    "(%s)", rc == 0 ? "" : errmsg);
	for (r = 0; r < nrecs(b, i); r++) {
		mine += item(b, i, r, CPC_SMPL_ITEM_TID) == (uint64_t)tid();
		cpuok &= item(b, i, r, CPC_SMPL_ITEM_CPU) == (uint64_t)cpu;
	}
	tap_ok(mine == N && cpuok, "cpc_bind_cpu: this thread's %d calls "
	    "among the CPU's records, all on cpu %d (%u)", N, cpu, mine);
	cpc_unbind(cpc, set);
	cpc_set_destroy(cpc, set);
}

/* ---- cpc_bind_pctx: "t_smpl child N M" ---- */

static long child_m;

static void *
child_thread(void *arg)
{
	(void)arg;
	getpids(child_m);
	return NULL;
}

static int
child_main(long n, long m)
{
	pthread_t t;

	child_m = m;
	getpids(n);
	pthread_create(&t, NULL, child_thread, NULL);
	pthread_join(t, NULL);
	_exit(0);
}

static struct {
	int		 nt;
	pid_t		 pid;
	id_t		 tid[4];
	cpc_set_t	*set[4];
	uint_t		 recs[4];	/* records with the thread's TID */
	uint_t		 other[4];	/* records of another */
} P;

static int
pc_init(pctx_t *p, pid_t pid, id_t id, void *arg)
{
	int i = P.nt;

	(void)arg;
	if (i == 4 || (P.set[i] = smpl_set(EV, 4096, 1, SMPL, &(int){0})) ==
	    NULL)
		return -1;
	P.nt++;
	P.pid = pid;
	P.tid[i] = id;
	return cpc_bind_pctx(cpc, p, id, P.set[i], 0);
}

static int
pc_fini(pctx_t *p, pid_t pid, id_t id, void *arg)
{
	cpc_buf_t *b;
	uint_t r;
	int i;

	(void)p, (void)pid, (void)arg;
	for (i = 0; i < P.nt && P.tid[i] != id; i++)
		;
	if (i == P.nt || (b = cpc_buf_create(cpc, P.set[i])) == NULL ||
	    cpc_set_sample(cpc, P.set[i], b) != 0)
		return -1;
	for (r = 0; r < nrecs(b, 0); r++) {
		if (item(b, 0, r, CPC_SMPL_ITEM_TID) == (uint64_t)id &&
		    item(b, 0, r, CPC_SMPL_ITEM_PID) == (uint64_t)P.pid)
			P.recs[i]++;
		else
			P.other[i]++;
	}
	cpc_buf_destroy(cpc, b);
	return cpc_unbind(cpc, P.set[i]);
}

static void
pctx_run_child(char *self, const char *n, const char *m)
{
	char *argv[] = { self, "child", (char *)n, (char *)m, NULL };
	pctx_t *p;
	int i;

	for (i = 0; i < P.nt; i++)
		cpc_set_destroy(cpc, P.set[i]);
	memset(&P, 0, sizeof(P));
	if ((p = pctx_create(self, argv, NULL, 0, NULL)) == NULL)
		return;
	pctx_set_events(p, PCTX_INIT_LWP_EVENT, pc_init, PCTX_FINI_LWP_EVENT,
	    pc_fini, PCTX_NULL_EVENT);
	(void)pctx_run(p, 0, 0, NULL);
	pctx_release(p);
}

static void
pctx_threads(char *self)
{
	uint_t base;

	pctx_run_child(self, "0", "0");	/* a sanitizer's own calls */
	base = P.recs[0];
	pctx_run_child(self, "300", "120");
	tap_ok(P.nt == 2 && P.recs[0] == 300 + base && P.recs[1] == 120 &&
	    P.other[0] == 0 && P.other[1] == 0, "cpc_bind_pctx: each thread "
	    "of the controlled process sampled apart: %u (+%u) and %u, "
	    "with its TID and PID", P.recs[0], base, P.recs[1]);
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	cpc_set_t *probe;
	int i;

	if (argc == 4 && strcmp(argv[1], "child") == 0)
		return child_main(atol(argv[2]), atol(argv[3]));
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	cpc_seterrhndlr(cpc, keep_errmsg);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(CPC_SIGOVF, &sa, NULL);
	page_faults();
	notify();
	overflow_does_not_stop();
	disable_enable();
	inherit();
	if ((probe = smpl_set(EV, 8, 1, SMPL, &i)) == NULL) {
		tap_skip("needs the getpid tracepoint (tracefs)", EV);
		cpc_close(cpc);
		return tap_done();
	}
	cpc_set_destroy(cpc, probe);
	getpid_calls(1, 0);
	getpid_calls(3, 0);
	getpid_calls(1, 1);
	lost();
	cpu_binding();
	pctx_threads(argv[0]);
	cpc_close(cpc);
	return tap_done();
}
