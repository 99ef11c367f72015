/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_v1 - the obsolete v1 interface (cpc_bind_event(3),
 * cpc_strtoevent(3)) with exact oracles: syscalls:sys_enter_getpid counts
 * the getpid calls of the calling thread (getpids.h), of a pctx-created
 * workload (tests/workloads/getpid_n: exactly N calls) and of the calling
 * thread on its CPU; page-faults counts the faults of fresh pages
 * (pages.h).  Everything that waits is bounded by an alarm.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <libcpc.h>
#include <libpctx.h>

#include "getpids.h"
#include "pages.h"
#include "tap.h"

static int cpuver;

#if defined(__x86_64__) || defined(__i386__)
#define TICK(e)		((e).ce_tsc)
#else
#define TICK(e)		((e).ce_tick)
#endif

/* ---- the v1 error handler ---- */

static char err_fn[64], err_msg[512];
static int nerr;

static void
capture(const char *fn, const char *fmt, va_list ap)
{
	nerr++;
	snprintf(err_fn, sizeof(err_fn), "%s", fn);
	vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
}

static void
clear_err(void)
{
	err_fn[0] = err_msg[0] = '\0';
	nerr = 0;
	errno = 0;
}

static void
test_machine(void)
{
	cpc_t *cpc = cpc_open(CPC_VER_CURRENT);
	const char *u;

	tap_u64(cpc_version(CPC_VER_CURRENT), CPC_VER_CURRENT,
	    "cpc_version(CPC_VER_CURRENT) accepts the current version");
	tap_u64(cpc_version(CPC_VER_NONE), 2, "cpc_version(CPC_VER_NONE): "
	    "the library's version, 2");
	tap_u64(cpc_version(1), 1, "cpc_version(1): version 1 is supported");
	tap_u64(cpc_version(3), CPC_VER_NONE, "cpc_version(3): CPC_VER_NONE");
	tap_ok(cpc_access() == 0, "cpc_access: the counters are usable");
	cpuver = cpc_getcpuver();
	tap_ok(cpuver == (cpc_have_hw_pmu(cpc) ? cpuver : CPC_LINUX_NOPMU) &&
	    cpuver >= CPC_LINUX_NOPMU && cpuver <= CPC_LINUX_PMU,
	    "cpc_getcpuver: a CPC_LINUX_ code, NOPMU without a hardware PMU "
	    "(%d)", cpuver);
	tap_u64(cpc_getnpic(cpuver), 2, "cpc_getnpic: ce_pic[] has 2 counts");
	tap_u64(cpc_getnpic(CPC_PENTIUM_PRO), 0, "cpc_getnpic of a Pentium "
	    "Pro: 0");
	tap_str(cpc_getcciname(cpuver), cpc_cciname(cpc),
	    "cpc_getcciname is cpc_cciname");
	tap_str(cpc_getcpuref(cpuver), cpc_cpuref(cpc),
	    "cpc_getcpuref is cpc_cpuref");
	tap_ok(cpc_getcciname(CPC_ULTRA3) == NULL &&
	    cpc_getcpuref(CPC_ULTRA3) == NULL &&
	    cpc_getusage(CPC_ULTRA3) == NULL,
	    "another cpuver: no name, reference or usage");
	u = cpc_getusage(cpuver);
	tap_ok(u != NULL && strncmp(u, "[pic0=]<event>[,[pic1=]<event>]"
	    "[,sys[N]][,nouser[N]]", 50) == 0, "cpc_getusage: the syntax "
	    "(%s)", u != NULL ? u : "NULL");
	cpc_close(cpc);
}

struct names {
	int	n_calls;
	int	n_badreg;
	int	n_pf;
};

static void
walk_name(void *arg, int regno, const char *name, uint8_t bits)
{
	struct names *n = arg;

	n->n_calls++;
	if (regno != 1 || bits != 0)
		n->n_badreg++;
	if (strcmp(name, "page-faults") == 0)
		n->n_pf++;
}

static void
test_walk(void)
{
	struct names n = { 0, 0, 0 };

	cpc_walk_names(cpuver, 1, &n, walk_name);
	tap_ok(n.n_calls > 0 && n.n_badreg == 0 && n.n_pf == 1,
	    "cpc_walk_names(1): %d names, for regno 1, bits 0, page-faults "
	    "once", n.n_calls);
	memset(&n, 0, sizeof(n));
	cpc_walk_names(cpuver, 2, &n, walk_name);
	cpc_walk_names(cpuver + 100, 0, &n, walk_name);
	tap_u64(n.n_calls, 0, "cpc_walk_names: nothing for regno 2 or "
	    "another cpuver");
}

static void
test_layout(void)
{
#if defined(__x86_64__) || defined(__i386__)
	cpc_event_t e;

	tap_ok(offsetof(cpc_event_t, ce_cpuver) == 0 &&
	    offsetof(cpc_event_t, ce_hrt) == 8 &&
	    offsetof(cpc_event_t, ce_tsc) == 16 &&
	    offsetof(cpc_event_t, ce_pic) == 24 &&
	    offsetof(cpc_event_t, ce_pes) == 40 &&
	    sizeof(e.ce_pes[0]) == 4,
	    "x86 cpc_event_t: ce_cpuver ce_hrt ce_tsc ce_pic[2] ce_pes[2]");
	e.ce_pes[0] = 7;
	tap_u64(e.ce_cesr, 7, "ce_cesr is ce_pes[0]");
#else
	tap_ok(offsetof(cpc_event_t, ce_tick) == 16 &&
	    offsetof(cpc_event_t, ce_pic) == 24 &&
	    offsetof(cpc_event_t, ce_pcr) == 40,
	    "cpc_event_t: ce_cpuver ce_hrt ce_tick ce_pic[2] ce_pcr");
#endif
}

/* ---- specifications ---- */

static void
roundtrip(const char *text, const char *want)
{
	cpc_event_t a, b;
	char *s1 = NULL, *s2 = NULL;

	clear_err();
	if (cpc_strtoevent(cpuver, text, &a) == 0)
		s1 = cpc_eventtostr(&a);
	if (s1 != NULL && cpc_strtoevent(cpuver, s1, &b) == 0)
		s2 = cpc_eventtostr(&b);
	tap_str(s1, want, text);
	tap_str(s2, want, "  and back through cpc_strtoevent");
	tap_ok(a.ce_cpuver == cpuver && a.ce_pic[0] == 0 &&
	    a.ce_pic[1] == 0 && nerr == 0, "  ce_cpuver set, presets 0, no "
	    "message");
	free(s1);
	free(s2);
}

struct bad {
	const char	*b_text;
	const char	*b_msg;
};

static void
test_specs(void)
{
	static const struct bad bad[] = {
		{ "", "empty event specification" },
		{ "page-faults,page-faults,page-faults", "too many events at "
		    "'page-faults': a set holds at most 2 (pic0-pic1)" },
		{ "pic2=page-faults", "'pic2': no counter pic2 (this machine "
		    "has pic0-pic1)" },
		{ "pic0=page-faults,pic0=cpu-clock",
		    "repeated 'pic0' token" },
		{ "page-faults,sys3", "'sys3': no counter pic3 (this machine "
		    "has pic0-pic1)" },
		{ "zzzzzzzzzzzzzzzzzz", "unknown event 'zzzzzzzzzzzzzzzzzz'" },
	};
	char want[128];
	cpc_event_t e;
	size_t i;

	roundtrip("syscalls:sys_enter_getpid,page-faults,sys1",
	    "pic0=syscalls:sys_enter_getpid,pic1=page-faults,sys1");
	roundtrip("pic1=page-faults,nouser1,pic0=cpu-clock,sys",
	    "pic0=cpu-clock,sys0,pic1=page-faults,sys1,nouser1");
	roundtrip("pic1=task-clock", "pic1=task-clock");
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		clear_err();
		memset(&e, 0, sizeof(e));
		tap_ok(cpc_strtoevent(cpuver, bad[i].b_text, &e) != 0 &&
		    errno == EINVAL && nerr == 1 &&
		    strcmp(err_fn, "cpc_strtoevent") == 0,
		    "'%s': refused, EINVAL, one message for cpc_strtoevent",
		    bad[i].b_text);
		tap_str(err_msg, bad[i].b_msg, "  the message");
	}
	clear_err();
	tap_ok(cpc_strtoevent(cpuver + 1, "page-faults", &e) != 0 &&
	    errno == EINVAL, "another cpuver: refused");
	snprintf(want, sizeof(want), "cpuver %d is not this machine's (%d)",
	    cpuver + 1, cpuver);
	tap_str(err_msg, want, "  the message");
	clear_err();
	memset(&e, 0, sizeof(e));
	tap_ok(cpc_eventtostr(&e) == NULL && errno == EINVAL && nerr == 1 &&
	    strcmp(err_fn, "cpc_eventtostr") == 0,
	    "cpc_eventtostr of an event cpc_strtoevent never made: NULL, "
	    "EINVAL, a message");
	clear_err();
	tap_ok(cpc_bind_event(&e, 0) == -1 && errno == EINVAL && nerr == 1,
	    "cpc_bind_event of that event: EINVAL, a message");
}

/* The default v1 handler prints "libcpc: fn: message" on stderr. */
static void
test_default_handler(void)
{
	char path[] = "/tmp/t_v1.XXXXXX", line[256] = "";
	cpc_event_t e;
	int fd, saved;
	FILE *f;

	if ((fd = mkstemp(path)) < 0) {
		tap_skip("no temporary file", "the default handler");
		return;
	}
	unlink(path);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	cpc_seterrfn(NULL);
	(void)cpc_strtoevent(cpuver, "pic9=x", &e);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	cpc_seterrfn(capture);
	lseek(fd, 0, SEEK_SET);
	if ((f = fdopen(fd, "r")) != NULL) {
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	tap_str(line, "libcpc: cpc_strtoevent: 'pic9': no counter pic9 (this "
	    "machine has pic0-pic1)\n", "cpc_seterrfn(NULL): the default "
	    "handler prints libcpc: fn: message");
}

static void
test_arith(void)
{
	cpc_event_t a, b, d;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.ce_cpuver = b.ce_cpuver = cpuver;
	a.ce_hrt = 2000;
	b.ce_hrt = 1000;
	a.ce_pic[0] = 1000;
	a.ce_pic[1] = 2;
	b.ce_pic[0] = 400;
	b.ce_pic[1] = 5;
	TICK(a) = 900;
	TICK(b) = 100;
#if defined(__x86_64__) || defined(__i386__)
	a.ce_pes[0] = 11;
	a.ce_pes[1] = 12;
#else
	a.ce_pcr = 11;
#endif
	memset(&d, 0xff, sizeof(d));
	cpc_event_diff(&d, &a, &b);
	tap_ok(d.ce_pic[0] == 600 && d.ce_pic[1] == UINT64_MAX - 2 &&
	    d.ce_hrt == 2000 && d.ce_cpuver == cpuver,
	    "cpc_event_diff: left - right modulo 2^64, left's time");
#if defined(__x86_64__) || defined(__i386__)
	tap_ok(TICK(d) == 800 && d.ce_pes[0] == 11 && d.ce_pes[1] == 12,
	    "cpc_event_diff: ticks subtracted, controls from left");
#else
	tap_ok(TICK(d) == 800 && d.ce_pcr == 11,
	    "cpc_event_diff: ticks subtracted, controls from left");
#endif
	cpc_event_accum(&b, &a);
	tap_ok(b.ce_pic[0] == 1400 && b.ce_pic[1] == 7 && b.ce_hrt == 2000,
	    "cpc_event_accum: counts added, the later time");
	a.ce_hrt = 10;
	cpc_event_accum(&b, &a);
	tap_ok(b.ce_pic[0] == 2400 && b.ce_hrt == 2000,
	    "cpc_event_accum: an earlier sample keeps the later time");
	tap_u64(TICK(b), 1900, "cpc_event_accum: ticks added");
}

/* ---- the calling thread ---- */

static uint64_t
pic0_now(void)
{
	cpc_event_t s;

	return cpc_take_sample(&s) == 0 ? s.ce_pic[0] : 0xdeadbeef;
}

static void *
inherit_thread(void *arg)
{
	getpids(300);
	return arg;
}

static void
test_lwp(void)
{
	cpc_event_t ev, s1, s2, d;
	pthread_t t;

	clear_err();
	tap_ok(cpc_take_sample(&s1) == -1 && errno == EINVAL,
	    "cpc_take_sample before a bind: EINVAL");
	if (cpc_strtoevent(cpuver, "pic0=" EV ",pic1=syscalls:"
	    "sys_enter_getppid", &ev) != 0) {
		tap_skip(err_msg, "per-thread exact counts");
		return;
	}
	ev.ce_pic[0] = 5000;
	tap_ok(cpc_bind_event(&ev, 0x100) == -1 && errno == EINVAL,
	    "cpc_bind_event with an unknown flag: EINVAL");
	clear_err();
	tap_ok(cpc_bind_event(&ev, 0) == 0, "cpc_bind_event (%s)", err_msg);
	getpids(1000);
	tap_ok(cpc_take_sample(&s1) == 0, "cpc_take_sample");
	tap_u64(s1.ce_pic[0], 6000, "1000 getpid calls from the preset 5000");
	tap_u64(s1.ce_pic[1], 0, "pic1: no getppid call");
	getpids(234);
	(void)syscall(SYS_getppid);
	(void)cpc_take_sample(&s2);
	cpc_event_diff(&d, &s2, &s1);
	tap_ok(d.ce_pic[0] == 234 && d.ce_pic[1] == 1,
	    "cpc_event_diff of two samples: 234 getpid, 1 getppid");
	tap_ok(s1.ce_hrt > 0 && s2.ce_hrt > s1.ce_hrt &&
	    TICK(s2) > TICK(s1), "ce_hrt and the tick grow");
	tap_ok(s2.ce_cpuver == cpuver,
	    "the sample carries the cpuver");
	{
		char *a = cpc_eventtostr(&ev), *b = cpc_eventtostr(&s2);

		tap_ok(a != NULL && b != NULL && strcmp(a, b) == 0,
		    "the sample names the bound specification (%s)",
		    b != NULL ? b : "NULL");
		free(a);
		free(b);
	}
	/* A sample binds again as it is: counting from its counts. */
	tap_ok(cpc_bind_event(&s2, 0) == 0, "bind a sample");
	getpids(10);
	tap_u64(pic0_now(), s2.ce_pic[0] + 10, "  counts on from its values");
	tap_ok(cpc_rele() == 0 && cpc_take_sample(&s1) == -1 &&
	    errno == EINVAL, "cpc_rele: then cpc_take_sample is EINVAL");
	tap_ok(cpc_rele() == 0, "cpc_rele twice: 0");
	ev.ce_pic[0] = 0;
	tap_ok(cpc_bind_event(&ev, 0) == 0 && cpc_bind_event(NULL, 0) == 0 &&
	    cpc_take_sample(&s1) == -1 && errno == EINVAL,
	    "cpc_bind_event(NULL, 0) releases");

	/* CPC_BIND_LWP_INHERIT: threads created afterwards count too. */
	tap_ok(cpc_bind_event(&ev, CPC_BIND_LWP_INHERIT) == 0,
	    "cpc_bind_event with CPC_BIND_LWP_INHERIT");
	getpids(200);
	pthread_create(&t, NULL, inherit_thread, NULL);
	pthread_join(t, NULL);
	tap_u64(pic0_now(), 500, "200 calls here and 300 in a new thread");
	cpc_rele();
}

static void
test_fork(void)
{
	cpc_event_t ev, s;
	pid_t pid;
	int st = -1;

	if (cpc_strtoevent(cpuver, EV, &ev) != 0 || cpc_bind_event(&ev, 0)) {
		tap_skip(err_msg, "fork");
		return;
	}
	if ((pid = fork()) == 0) {
		alarm(10);
		getpids(5);
		_exit(cpc_take_sample(&s) == -1 && errno == EINVAL ? 0 : 1);
	}
	getpids(3);
	(void)waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "a forked child has no binding (EINVAL)");
	tap_u64(pic0_now(), 3, "the parent counted its own 3 calls only");
	cpc_rele();
}

/* Modes: page-faults counts user-mode faults only while user is on. */
static void
test_modes(void)
{
	cpc_event_t ev;
	uint64_t a, b, c;
	char *p;

	if (cpc_strtoevent(cpuver, "page-faults", &ev) != 0 ||
	    cpc_bind_event(&ev, 0) != 0) {
		tap_skip(err_msg, "cpc_count_usr_events");
		return;
	}
	tap_ok(cpc_count_usr_events(0) == 0 && cpc_count_usr_events(1) == 0 &&
	    cpc_count_sys_events(1) == 0 && cpc_count_sys_events(0) == 0,
	    "a round of the mode calls (warm-up)");
	p = fresh(30);
	touch(p, 10);
	a = pic0_now();
	touch(p + 10 * pagesz, 10);
	b = pic0_now();
	tap_u64(b - a, 10, "user mode: 10 faults counted");
	tap_ok(cpc_count_usr_events(0) == 0, "cpc_count_usr_events(0)");
	b = pic0_now();
	touch(p + 20 * pagesz, 10);
	c = pic0_now();
	tap_ok(c == b && b >= a + 10, "user mode off: 10 more faults not "
	    "counted, the count kept (%llu, %llu)", (unsigned long long)b,
	    (unsigned long long)c);
	munmap(p, 30 * pagesz);
	tap_ok(cpc_count_usr_events(1) == 0, "cpc_count_usr_events(1)");
	p = fresh(10);
	b = pic0_now();
	touch(p, 10);
	tap_u64(pic0_now() - b, 10, "user mode on again: 10 faults");
	munmap(p, 10 * pagesz);
	cpc_rele();
	tap_ok(cpc_count_usr_events(1) == -1 && errno == EINVAL &&
	    cpc_count_sys_events(1) == -1 && errno == EINVAL,
	    "nothing bound: the mode calls are EINVAL");
}

/* ---- overflow: the seed's handler, on the getpid tracepoint ---- */

#define PRESET0		(UINT64_MAX - UINT64_C(9))

static volatile sig_atomic_t novf, ovf_bad;

static void
emt_handler(int sig, siginfo_t *sip, void *arg)
{
	cpc_event_t sample;

	(void)arg;
	if (sig != SIGEMT || sip->si_code != EMT_CPCOVF) {
		ovf_bad = 1;
		return;
	}
	novf++;
	if (cpc_take_sample(&sample) == -1 || sample.ce_pic[0] != 0)
		ovf_bad = 1;
	sample.ce_pic[0] = PRESET0;
	sample.ce_pic[1] = 0;
	if (cpc_bind_event(&sample, CPC_BIND_EMT_OVF) == -1)
		ovf_bad = 1;
}

static void
test_overflow(void)
{
	struct sigaction act;
	cpc_event_t ev;

	if (cpc_strtoevent(cpuver, "pic0=" EV ",pic1=syscalls:"
	    "sys_enter_getppid", &ev) != 0) {
		tap_skip(err_msg, "overflow");
		return;
	}
	memset(&act, 0, sizeof(act));
	act.sa_sigaction = emt_handler;
	act.sa_flags = SA_RESTART | SA_SIGINFO;
	sigaction(SIGEMT, &act, NULL);
	ev.ce_pic[0] = PRESET0;
	ev.ce_pic[1] = 0;
	clear_err();
	tap_ok(cpc_bind_event(&ev, CPC_BIND_EMT_OVF) == 0,
	    "cpc_bind_event with CPC_BIND_EMT_OVF, pic0 10 from overflow, "
	    "pic1 at 0 (%s)", err_msg);
	getpids(9);
	tap_ok(novf == 0 && pic0_now() == UINT64_MAX, "9 calls: no signal");
	getpids(1);
	tap_ok(novf == 1 && !ovf_bad, "the 10th: SIGEMT with EMT_CPCOVF; the "
	    "handler sampled 0 and bound again");
	getpids(95);
	tap_ok(novf == 10 && !ovf_bad, "95 more: 9 more signals (%d)",
	    (int)novf);
	tap_u64(pic0_now(), PRESET0 + 5, "and 5 counted since the last");
	(void)syscall(SYS_getppid);
	cpc_bind_event(NULL, 0);
	getpids(20);
	tap_ok(novf == 10, "released: no more signals");
	signal(SIGEMT, SIG_DFL);
}

/* ---- a thread of a pctx ---- */

static cpc_event_t pctx_ev;
static struct {
	int		 nbound;
	uint64_t	 count;
	int		 eagain;
	int		 rele;
} P;

static int
pc_init(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	cpc_event_t s;

	(void)pid, (void)arg;
	if (cpc_pctx_bind_event(p, tid, &pctx_ev, 1) != -1 || errno != EINVAL)
		return -1;
	if (cpc_pctx_bind_event(p, tid, &pctx_ev, 0) != 0 ||
	    cpc_pctx_invalidate(p, tid) != 0)
		return -1;
	P.eagain = cpc_pctx_take_sample(p, tid, &s) == -1 && errno == EAGAIN;
	pctx_ev.ce_pic[0] = 7;
	if (cpc_pctx_bind_event(p, tid, &pctx_ev, 0) != 0)
		return -1;
	P.nbound++;
	return 0;
}

static int
pc_fini(pctx_t *p, pid_t pid, id_t tid, void *arg)
{
	cpc_event_t s;

	(void)pid, (void)arg;
	if (cpc_pctx_take_sample(p, tid, &s) != 0)
		return -1;
	P.count = s.ce_pic[0];
	P.rele = cpc_pctx_rele(p, tid) == 0 &&
	    cpc_pctx_take_sample(p, tid, &s) == -1 && errno == EINVAL &&
	    cpc_pctx_rele(p, tid) == -1;
	return 0;
}

static void
test_pctx(const char *self)
{
	char prog[4200], *argv[] = { prog, "1000", NULL };
	const char *slash = strrchr(self, '/');
	pctx_t *p;
	int st = -1;

	snprintf(prog, sizeof(prog), "%.*s/../workloads/getpid_n",
	    (int)(slash - self), self);
	if (access(prog, X_OK) != 0 ||
	    cpc_strtoevent(cpuver, EV, &pctx_ev) != 0) {
		tap_skip("needs tests/workloads/getpid_n and " EV,
		    "cpc_pctx_bind_event");
		return;
	}
	if (!tap_ok((p = pctx_create(prog, argv, NULL, 0, NULL)) != NULL,
	    "pctx_create getpid_n 1000"))
		return;
	pctx_set_events(p, PCTX_INIT_LWP_EVENT, pc_init, PCTX_FINI_LWP_EVENT,
	    pc_fini, PCTX_NULL_EVENT);
	tap_ok(pctx_run(p, 0, 0, NULL) == 0, "pctx_run: the callbacks bound "
	    "and sampled");
	tap_ok(P.nbound == 1, "init_lwp: flags 1 refused (EINVAL), bound");
	tap_ok(P.eagain, "cpc_pctx_invalidate: the sample fails with EAGAIN "
	    "until bound again");
	tap_u64(P.count, 1007, "fini_lwp: the workload's 1000 calls from "
	    "the preset 7");
	tap_ok(P.rele, "cpc_pctx_rele: then EINVAL, and twice -1");
	tap_ok(pctx_wait(p, &st) == 0 && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0, "the workload exited 0");
	pctx_release(p);
	tap_ok(cpc_pctx_take_sample(NULL, 1, &pctx_ev) == -1 &&
	    errno == EINVAL &&
	    cpc_pctx_bind_event(NULL, 1, &pctx_ev, 0) == -1 &&
	    errno == EINVAL, "no pctx: EINVAL");
}

/* ---- the calling thread's CPU ---- */

static void
test_shared(void)
{
	cpu_set_t before, during, after;
	cpc_event_t ev, s;
	int fd, try, cpu;
	uint64_t got = 0;

	if (cpc_strtoevent(cpuver, "pic0=" EV ",sys0", &ev) != 0) {
		tap_skip(err_msg, "cpc_shared_*");
		return;
	}
	sched_getaffinity(0, sizeof(before), &before);
	clear_err();
	fd = cpc_shared_open();
	if (!tap_ok(fd >= 0, "cpc_shared_open (%s)", err_msg))
		return;
	tap_ok(cpc_shared_bind_event(fd, &ev, 1) == -1 && errno == EINVAL,
	    "cpc_shared_bind_event with flags: EINVAL");
	tap_ok(cpc_shared_take_sample(fd, &s) == -1 && errno == EINVAL,
	    "cpc_shared_take_sample before a bind: EINVAL");
	/* Other processes on the CPU may call getpid: three tries. */
	for (try = 0; try < 3 && got != 1000; try++) {
		if (cpc_shared_bind_event(fd, &ev, 0) != 0)
			break;
		getpids(1000);
		got = cpc_shared_take_sample(fd, &s) == 0 ? s.ce_pic[0] : 0;
	}
	tap_u64(got, 1000, "cpc_shared_bind_event: the CPU counted this "
	    "thread's 1000 calls (user and system mode)");
	cpu = sched_getcpu();
	sched_getaffinity(0, sizeof(during), &during);
	tap_ok(CPU_COUNT(&during) == 1 && CPU_ISSET(cpu, &during),
	    "bound: the thread is pinned to the CPU (%d)", cpu);
	tap_ok(cpc_shared_rele(fd) == 0 &&
	    cpc_shared_take_sample(fd, &s) == -1 && errno == EINVAL,
	    "cpc_shared_rele: then the sample is EINVAL");
	sched_getaffinity(0, sizeof(after), &after);
	tap_ok(CPU_EQUAL(&before, &after), "released: the thread runs where "
	    "it ran before");
	tap_ok(cpc_shared_bind_event(fd, &ev, 0) == 0,
	    "bound again on the same descriptor");
	cpc_shared_close(fd);
	sched_getaffinity(0, sizeof(after), &after);
	tap_ok(CPU_EQUAL(&before, &after) &&
	    cpc_shared_bind_event(fd, &ev, 0) == -1 && errno == EBADF &&
	    cpc_shared_rele(fd) == -1 && errno == EBADF,
	    "cpc_shared_close: unpinned, and the descriptor is gone (EBADF)");
}

int
main(void)
{
	char self[4096];
	ssize_t n;

	alarm(120);		/* nothing here may hang the suite */
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		return 1;
	self[n] = '\0';
	cpc_seterrfn(capture);
	test_machine();
	if (cpuver < 0) {
		tap_ok(0, "no perf_event here");
		return tap_done();
	}
	test_walk();
	test_layout();
	test_arith();
	test_default_handler();
	if (geteuid() != 0 ||
	    access("/sys/kernel/tracing/events/syscalls", R_OK) != 0) {
		tap_skip("needs root and tracefs", "v1 exact counts");
		return tap_done();
	}
	test_specs();
	test_lwp();
	test_fork();
	test_modes();
	test_overflow();
	test_pctx(self);
	test_shared();
	return tap_done();
}
