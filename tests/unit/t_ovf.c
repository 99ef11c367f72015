/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_ovf - presets and overflow through the Solaris API: a request added
 * with CPC_OVF_NOTIFY_EMT signals the bound thread (SIGEMT, which is
 * CPC_SIGOVF here) after 2^64 - preset events and stops the whole set
 * until cpc_set_restart; cpc_request_preset, cpc_enable and cpc_disable.
 *
 * The oracle is the page fault: one write to each page of a fresh mapping
 * takes exactly one fault (see t_sample.c), and page-faults is a software
 * event, so this runs without a hardware PMU.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <libcpc.h>

#include "pages.h"
#include "tap.h"

static volatile sig_atomic_t nsig, lastcode, lastfd;

static void
on_emt(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	nsig++;
	lastcode = si->si_code;
	lastfd = si->si_fd;
}

static void
calls(long nr, int n)
{
	while (n-- > 0)
		(void)syscall(nr);
}

static void
faults(size_t n)
{
	char *p = fresh(n);

	if (p != NULL) {
		touch(p, n);
		munmap(p, n * pagesz);
	}
}

/* cpc_walk_requests: the preset of request 1. */
static void
walk_preset(void *arg, int index, const char *event, uint64_t preset,
    uint_t flags, int nattrs, const cpc_attr_t *attrs)
{
	(void)event, (void)flags, (void)nattrs, (void)attrs;
	if (index == 1)
		*(uint64_t *)arg = preset;
}

static uint64_t
value(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *b, int i)
{
	uint64_t v = 0;

	if (cpc_set_sample(cpc, set, b) != 0)
		return 0xdeadbeef;
	(void)cpc_buf_get(cpc, b, i, &v);
	return v;
}

static void
errors(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);

	errno = 0;
	tap_ok(cpc_set_add_request(cpc, set, "page-faults", 0,
	    CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0, NULL) == -1 &&
	    errno == EINVAL, "preset 0 with overflow: EINVAL (no overflow "
	    "within 2^63 events)");
	tap_ok(cpc_set_add_request(cpc, set, "page-faults", 1ULL << 62,
	    CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0, NULL) == -1 &&
	    errno == EINVAL, "a preset 3 * 2^62 events from overflow: EINVAL");
	tap_ok(cpc_set_add_request(cpc, set, "page-faults", 0, 0x100, 0,
	    NULL) == -1 && errno == EINVAL, "an unknown request flag: EINVAL");
	tap_ok(cpc_set_add_request(cpc, set, "page-faults", UINT64_MAX,
	    CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0, NULL) == 0,
	    "preset UINT64_MAX: overflow at the first event");
	tap_ok(cpc_bind_curlwp(cpc, set, CPC_BIND_LWP_INHERIT) == -1 &&
	    errno == EINVAL, "overflow with CPC_BIND_LWP_INHERIT: EINVAL");
	tap_ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == EINVAL,
	    "overflow on a CPU binding: EINVAL");
	tap_ok(cpc_set_restart(cpc, set) == -1 && errno == EINVAL &&
	    cpc_request_preset(cpc, 0, 5) == -1 && errno == EINVAL &&
	    cpc_enable(cpc) == -1 && cpc_disable(cpc) == -1,
	    "no set bound to this thread: restart, preset, enable and "
	    "disable are EINVAL");
	cpc_set_destroy(cpc, set);
}

/* Spin until a signal comes, n iterations at the most. */
static void
spin(long n, int stop_at_signal)
{
	volatile long x = 0;
	int n0 = nsig;
	long i;

	for (i = 0; i < n && (!stop_at_signal || nsig == n0); i++)
		x++;
}

/*
 * The hardware case: the cycle counter, 10^6 cycles from overflow.  The
 * interrupt comes a little after the overflow (skid), so the frozen count
 * is a little past 0, and stays there.
 */
static void
hw_cycles(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_buf_t *b;
	uint64_t v, v2;
	int n0 = nsig;

	if (cpc_set_add_request(cpc, set, "cycles", UINT64_MAX - 999999,
	    CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0, NULL) != 0 ||
	    (b = cpc_buf_create(cpc, set)) == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_ok(0, "cycles with overflow: a set bound (%s)",
		    strerror(errno));
		return;
	}
	spin(100000000L, 1);
	tap_ok(nsig == n0 + 1 && lastcode == EMT_CPCOVF, "cycles: one "
	    "SIGEMT 10^6 cycles on (%d)", (int)(nsig - n0));
	v = value(cpc, set, b, 0);
	tap_ok(v < 100000, "cycles: stopped just past the overflow (%llu "
	    "past 0)", (unsigned long long)v);
	spin(5000000L, 0);
	v2 = value(cpc, set, b, 0);
	tap_ok(v2 == v && nsig == n0 + 1, "cycles: frozen while the thread "
	    "spins on (%llu, %d signals)", (unsigned long long)v2,
	    (int)(nsig - n0));
	tap_ok(cpc_set_restart(cpc, set) == 0, "cycles: cpc_set_restart");
	spin(100000000L, 1);
	tap_ok(nsig == n0 + 2, "cycles: the second overflow signals (%d)",
	    (int)(nsig - n0));
	cpc_set_destroy(cpc, set);
}

/*
 * A tracepoint that overflows every 5 getpid calls, three rounds of
 * restarts, with a getppid count after it that must keep its place.  As
 * the leader (member 0) its overflow freezes the set; as a member after
 * an overflow request that never fires, it stops alone.  The kernel
 * never restarts a tracepoint stopped by its overflow: the library
 * reopens it, and this checks that the reads still line up.
 */
static void
tracepoints(cpc_t *cpc, int member)
{
	const char *how = member ? "a member" : "the leader";
	int g = member ? 1 : 0, round, sig0;
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_buf_t *b = NULL;

	if ((member && cpc_set_add_request(cpc, set, "page-faults",
	    UINT64_MAX - 999999, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0,
	    NULL) != 0) || cpc_set_add_request(cpc, set,
	    "syscalls:sys_enter_getpid", UINT64_MAX - 4, CPC_COUNT_USER |
	    CPC_OVF_NOTIFY_EMT, 0, NULL) != g || cpc_set_add_request(cpc, set,
	    "syscalls:sys_enter_getppid", 0, CPC_COUNT_USER, 0, NULL) !=
	    g + 1 || (b = cpc_buf_create(cpc, set)) == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_skip("needs the getpid and getppid tracepoints (tracefs)",
		    "tracepoint overflow");
		cpc_set_destroy(cpc, set);
		return;
	}
	for (round = 0; round < 3; round++) {
		sig0 = nsig;
		calls(SYS_getpid, 3);
		calls(SYS_getppid, 2);
		tap_ok(value(cpc, set, b, g) == UINT64_MAX - 1 && nsig == sig0 &&
		    value(cpc, set, b, g + 1) == 2, "getpid overflow, %s, "
		    "round %d: 3 calls counted, no signal; 2 getppid", how,
		    round);
		calls(SYS_getpid, 4);
		calls(SYS_getppid, 3);
		tap_ok(nsig == sig0 + 1 && value(cpc, set, b, g) == 0,
		    "  4 more: one signal at the 5th, and the count stopped "
		    "at 0 (%d signals, %llu)", (int)(nsig - sig0),
		    (unsigned long long)value(cpc, set, b, g));
		tap_u64(value(cpc, set, b, g + 1), member ? 5 : 2,
		    member ? "  the set runs on: getppid counted 5" :
		    "  the set froze: getppid stayed at 2");
		tap_ok(cpc_set_restart(cpc, set) == 0 &&
		    value(cpc, set, b, g) == UINT64_MAX - 4 &&
		    value(cpc, set, b, g + 1) == 0, "  cpc_set_restart: back "
		    "at the presets");
	}
	cpc_set_destroy(cpc, set);
	cpc_buf_destroy(cpc, b);
}

int
main(void)
{
	struct sigaction sa;
	cpc_set_t *set;
	cpc_buf_t *b;
	uint64_t clk, v, walked;
	cpc_t *cpc;
	int fd0;

	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	tap_ok(cpc_caps(cpc) & CPC_CAP_OVERFLOW_INTERRUPT,
	    "cpc_caps offers the overflow interrupt");
	tap_ok(SIGEMT == SIGIO || getenv("CPC_SIGOVF") != NULL,
	    "SIGEMT is CPC_SIGOVF, SIGIO by default");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_emt;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGEMT, &sa, NULL);
	errors(cpc);

	/* 100 faults from overflow; the clock follows the set. */
	set = cpc_set_create(cpc);
	if (cpc_set_add_request(cpc, set, "task-clock", 0, CPC_COUNT_USER, 0,
	    NULL) != 0 || cpc_set_add_request(cpc, set, "page-faults",
	    UINT64_MAX - 99, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0, NULL) != 1 ||
	    (b = cpc_buf_create(cpc, set)) == NULL) {
		tap_ok(0, "a set with an overflowing request");
		return tap_done();
	}
	faults(5);		/* the code and stack of the loop, resident */
	/*
	 * The buffer written once before the counting starts: calloc may
	 * hand out pages never touched (AddressSanitizer's allocator does),
	 * and the first sample's write would be a fault of its own.
	 */
	cpc_buf_zero(cpc, b);
	if (cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_ok(0, "cpc_bind_curlwp: %s", strerror(errno));
		return tap_done();
	}
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 99, "bound: the request "
	    "reads its preset");
	/*
	 * A warm-up round of what follows (its first run takes a fault or
	 * two of its own), then back to the preset.
	 */
	faults(5);
	v = value(cpc, set, b, 1);
	tap_ok(nsig == 0 && v - (UINT64_MAX - 99) >= 5 &&
	    v - (UINT64_MAX - 99) < 20 && cpc_set_restart(cpc, set) == 0,
	    "a warm-up round: 5 faults and a few of its own counted, no "
	    "signal; cpc_set_restart");
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 99, "restarted: the "
	    "preset again");
	faults(99);
	tap_ok(nsig == 0, "99 faults: no signal yet (%d, code %d)", (int)nsig,
	    (int)lastcode);
	faults(1);
	tap_ok(nsig == 1 && lastcode == EMT_CPCOVF, "the 100th fault: one "
	    "SIGEMT, si_code EMT_CPCOVF (%d signals, code %d)", (int)nsig,
	    (int)lastcode);
	fd0 = lastfd;
	v = value(cpc, set, b, 1);
	tap_u64(v, 0, "the counter wrapped to 0 and stopped there");
	clk = value(cpc, set, b, 0);
	faults(50);
	usleep(20000);
	tap_u64(value(cpc, set, b, 1), 0, "frozen: 50 more faults not "
	    "counted");
	tap_ok(clk > 0 && value(cpc, set, b, 0) == clk, "frozen: the set's "
	    "other request (task-clock, %llu ns) stopped too",
	    (unsigned long long)clk);
	tap_ok(nsig == 1, "frozen: no more signals");
	tap_ok(cpc_enable(cpc) == -1 && errno == EINVAL, "cpc_enable of a "
	    "set frozen by overflow (not cpc_disable): EINVAL");

	/* A new preset from the restart on. */
	tap_ok(cpc_request_preset(cpc, 1, UINT64_MAX - 9) == 0,
	    "cpc_request_preset");
	tap_u64(value(cpc, set, b, 1), 0, "the new preset waits for the "
	    "restart");
	tap_ok(cpc_set_restart(cpc, NULL) == 0, "cpc_set_restart");
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 9, "restarted at the new "
	    "preset");
	faults(10);
	tap_ok(nsig == 2 && lastfd == fd0, "10 faults: the second signal, "
	    "from the same counter");
	tap_u64(value(cpc, set, b, 1), 0, "stopped again at the overflow");

	/* Restarts without an overflow do not pile up refreshes. */
	cpc_set_restart(cpc, set);
	faults(3);
	cpc_set_restart(cpc, set);
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 9, "a restart before "
	    "the overflow starts again from the preset");
	faults(10);
	faults(10);
	tap_ok(nsig == 3, "after two restarts, 20 faults: one signal (%d)",
	    (int)nsig);
	tap_u64(value(cpc, set, b, 1), 0, "and the set stopped at it");

	/* cpc_disable and cpc_enable. */
	cpc_set_restart(cpc, set);
	faults(4);
	tap_ok(cpc_disable(cpc) == 0, "cpc_disable");
	tap_ok(cpc_disable(cpc) == -1 && errno == EINVAL, "twice: EINVAL");
	faults(7);
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 5, "disabled: 7 faults "
	    "not counted");
	tap_ok(cpc_enable(cpc) == 0, "cpc_enable");
	faults(5);
	tap_u64(value(cpc, set, b, 1), UINT64_MAX, "enabled again: 5 more "
	    "counted, one short of overflow");
	tap_ok(nsig == 3, "no signal before the overflow");
	faults(1);
	tap_ok(nsig == 4, "the overflow signals after enable");

	/*
	 * Presets requested since are the binding's, not the set's: bound
	 * again, it starts from what cpc_set_add_request was given, and a
	 * preset requested but not restarted with is gone with the binding.
	 */
	tap_ok(cpc_request_preset(cpc, 1, UINT64_MAX - 49) == 0 &&
	    cpc_unbind(cpc, set) == 0 && cpc_bind_curlwp(cpc, set, 0) == 0,
	    "a preset requested, then unbound and bound again");
	walked = 0;
	cpc_walk_requests(cpc, set, &walked, walk_preset);
	tap_u64(walked, UINT64_MAX - 99, "cpc_walk_requests: the preset as "
	    "given to cpc_set_add_request");
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 99, "bound again: at the "
	    "set's own preset");
	tap_ok(cpc_set_restart(cpc, set) == 0, "cpc_set_restart");
	tap_u64(value(cpc, set, b, 1), UINT64_MAX - 99, "the preset "
	    "requested before the unbind is not applied");
	faults(99);
	tap_ok(nsig == 4, "99 faults: no signal");
	faults(1);
	tap_ok(nsig == 5, "the 100th signals");
	tap_ok(cpc_unbind(cpc, set) == 0 && cpc_set_restart(cpc, set) == -1 &&
	    errno == EINVAL, "unbound: cpc_set_restart is EINVAL");
	cpc_set_destroy(cpc, set);
	tracepoints(cpc, 0);
	tracepoints(cpc, 1);
	if (cpc_have_hw_pmu(cpc))
		hw_cycles(cpc);
	else
		tap_skip("no hardware PMU (the hardware tier runs it)",
		    "overflow of the cycle counter");
	cpc_close(cpc);
	return tap_done();
}
