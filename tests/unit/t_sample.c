/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_sample.c - exact counts through the shared sampling core (setgrp on
 * libcpc on perf_event), with software events and tracepoints only, so
 * that it runs without a hardware PMU.
 *
 * The oracle: writing one byte to each page of a fresh anonymous mapping
 * takes exactly one page fault per page (huge pages are refused with
 * madvise so that one fault cannot map many pages).  Everything else the
 * process does between the two samples of a measurement has already run
 * once (a warm-up round), so its code, stack and buffers are resident and
 * take no fault: the delta is N, not "about N".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include <libcpc.h>

#include "errh.h"
#include "setgrp.h"
#include "strtoset.h"
#include "pages.h"
#include "tap.h"

static int zerofd = -1;		/* /dev/zero */

/* n getpid system calls, not glibc's (possibly cached) wrapper. */
static void __attribute__((noinline))
getpids(int n)
{
	int i;

	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
}

static uint64_t
val(cpc_t *cpc, cpc_buf_t *b, int i)
{
	uint64_t v = UINT64_MAX;

	(void)cpc_buf_get(cpc, b, i, &v);
	return v;
}

/* The sum of every delta of request 0 seen by measure(). */
static uint64_t deltasum;

/*
 * Sample; touch u fresh pages from user mode, have the kernel write k
 * fresh pages (read from /dev/zero: kernel-mode faults), make g getpid
 * calls; sample.  The deltas are left in e->se_delta; -1 on failure.
 */
static int
measure(struct setgrp *sg, struct setgrp_elem *e, size_t u, size_t k,
    int g)
{
	char *p = fresh(u + 1), *q = fresh(k + 1);
	int rc = -1;

	if (p == NULL || q == NULL)
		goto out_unmap;
	if (setgrp_sample(sg, e) != 0)
		goto out_unmap;
	deltasum += val(sg->sg_cpc, e->se_delta, 0);
	touch(p, u);
	/* The system call itself: a libc or sanitizer wrapper may look. */
	if (k > 0 && syscall(SYS_pread64, zerofd, q, k * pagesz, (off_t)0) !=
	    (long)(k * pagesz))
		goto out_unmap;
	getpids(g);
	if (setgrp_sample(sg, e) != 0)
		goto out_unmap;
	deltasum += val(sg->sg_cpc, e->se_delta, 0);
	rc = 0;
out_unmap:
	if (p != NULL)
		munmap(p, (u + 1) * pagesz);
	if (q != NULL)
		munmap(q, (k + 1) * pagesz);
	return rc;
}

static int
bind(struct setgrp *sg, struct setgrp_elem *e)
{
	if (cpc_bind_curlwp(sg->sg_cpc, e->se_set, 0) != 0)
		return -1;
	setgrp_bound(sg, e);
	return 0;
}

/* Run every path measure() takes once, so that it is resident. */
static int
warm_up(struct setgrp *sg, struct setgrp_elem *e)
{
	return measure(sg, e, 8, 8, 2) | measure(sg, e, 8, 8, 2);
}

static int
parse(cpc_t *cpc, const char *text, struct spec *sp)
{
	char err[256];

	if (spec_parse_cpc(cpc, text, sp, err, sizeof(err)) != 0) {
		tap_ok(0, "parse '%s': %s", text, err);
		return -1;
	}
	return 0;
}

/*
 * Ring of three page-fault sets: user and kernel, kernel only, user
 * only.  Faults from touching pages are user-mode faults.
 */
static void
test_faults(cpc_t *cpc)
{
	/* User-mode pages, kernel-mode pages: the count is their sum. */
	static const size_t rows[][2] = {
		{ 1, 0 }, { 2, 0 }, { 3, 0 }, { 10, 0 }, { 100, 0 },
		{ 1000, 0 }, { 4096, 0 }, { 0, 1 }, { 0, 100 }, { 25, 75 },
	};
#define NROWS	(sizeof(rows) / sizeof(*rows))
	struct spec specs[3];
	struct setgrp *sg;
	struct setgrp_elem *e;
	uint64_t got[NROWS], d;
	size_t i, done;
	int ok;

	memset(specs, 0, sizeof(specs));
	if (parse(cpc, "page-faults,sys", &specs[0]) != 0 ||
	    parse(cpc, "page-faults,nouser,sys", &specs[1]) != 0 ||
	    parse(cpc, "pic3=minor-faults", &specs[2]) != 0)
		goto out_specs;
	sg = setgrp_create(cpc, specs, 3);
	if (!tap_ok(sg != NULL, "setgrp of three page-fault sets (%s)",
	    errh_last()))
		goto out_specs;

	e = setgrp_cur(sg);
	deltasum = 0;
	ok = bind(sg, e) == 0 && warm_up(sg, e) == 0;
	if (!tap_ok(ok, "bind set 0 to this thread and warm up (%s)",
	    errh_last()))
		goto out_sg;
	/* Results are kept and reported afterwards: printing may fault. */
	for (i = 0; i < NROWS; i++)
		got[i] = UINT64_MAX;
	for (done = 0; done < NROWS; done++) {
		if (measure(sg, e, rows[done][0], rows[done][1], 0) != 0)
			break;
		got[done] = val(cpc, e->se_delta, 0);
	}
	for (i = 0; i < NROWS; i++) {
		char name[128];

		snprintf(name, sizeof(name), "page-faults,sys: %zu user-mode "
		    "and %zu kernel-mode faults -> delta %zu", rows[i][0],
		    rows[i][1], rows[i][0] + rows[i][1]);
		tap_u64(got[i], rows[i][0] + rows[i][1], name);
	}
	/*
	 * The total is the sum of every delta since the bind, and since
	 * the counters started from zero, also the last absolute count.
	 */
	tap_u64(val(cpc, e->se_total, 0), val(cpc, e->se_prev, 0),
	    "total == last absolute count (counting started at zero)");
	tap_u64(val(cpc, e->se_total, 0), deltasum,
	    "total == the sum of every delta");
	tap_ok(e->se_nsamples == 4 + 2 * done, "se_nsamples counts samples "
	    "(%lu)", e->se_nsamples);

	/* Rotate: set 1 counts kernel-mode faults only. */
	d = val(cpc, e->se_total, 0);
	tap_u64(cpc_unbind(cpc, e->se_set), 0, "unbind set 0");
	e = setgrp_next(sg);
	tap_ok(e == &sg->sg_elems[1], "setgrp_next: set 1");
	ok = bind(sg, e) == 0 && warm_up(sg, e) == 0 &&
	    measure(sg, e, 50, 0, 0) == 0;
	tap_ok(ok, "bind set 1 and measure (%s)", errh_last());
	tap_u64(val(cpc, e->se_delta, 0), 0,
	    "page-faults,nouser,sys: 50 user-mode faults -> delta 0");
	ok = measure(sg, e, 50, 40, 0) == 0;
	tap_u64(ok ? val(cpc, e->se_delta, 0) : UINT64_MAX, 40,
	    "page-faults,nouser,sys: 50 user, 40 kernel faults -> delta 40");
	tap_u64(cpc_unbind(cpc, e->se_set), 0, "unbind set 1");

	/* Set 2: user-mode minor faults, on pic3 (one request). */
	e = setgrp_next(sg);
	tap_ok(e == &sg->sg_elems[2], "setgrp_next: set 2");
	ok = bind(sg, e) == 0 && warm_up(sg, e) == 0 &&
	    measure(sg, e, 77, 0, 0) == 0;
	tap_ok(ok, "bind set 2 and measure (%s)", errh_last());
	tap_u64(val(cpc, e->se_delta, 0), 77,
	    "minor-faults (user): 77 fresh pages -> delta 77");
	ok = measure(sg, e, 0, 60, 0) == 0;
	tap_u64(ok ? val(cpc, e->se_delta, 0) : UINT64_MAX, 0,
	    "minor-faults (user): 60 kernel-mode faults -> delta 0");
	tap_u64(cpc_unbind(cpc, e->se_set), 0, "unbind set 2");

	/* Back to set 0: its total continues, its counters restart. */
	e = setgrp_next(sg);
	tap_ok(e == &sg->sg_elems[0], "setgrp_next wraps to set 0");
	tap_u64(val(cpc, e->se_total, 0), d, "set 0's total kept while "
	    "unbound");
	ok = bind(sg, e) == 0 && measure(sg, e, 33, 22, 0) == 0;
	tap_ok(ok, "re-bind set 0 and measure (%s)", errh_last());
	tap_u64(val(cpc, e->se_delta, 0), 55,
	    "set 0 after re-bind: 33 user + 22 kernel faults -> delta 55");
	tap_ok(val(cpc, e->se_total, 0) >= d + 55,
	    "set 0's total carries on from before the rotation");
	tap_u64(val(cpc, e->se_total, 0) - d, val(cpc, e->se_prev, 0),
	    "total grew by exactly the counts since the re-bind");
	cpc_unbind(cpc, e->se_set);
out_sg:
	setgrp_destroy(sg);
#undef NROWS
out_specs:
	for (i = 0; i < 3; i++)
		spec_free(&specs[i]);
}

static hrtime_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A sample's hrtime is CLOCK_MONOTONIC taken during cpc_set_sample; its
 * tick grows while the set is bound; software events are never
 * time-shared, so nothing is scaled.
 */
static void
test_stamps(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *b)
{
	hrtime_t t0, t1, h1, h2;
	uint64_t k1, k2;
	int rc;

	rc = cpc_bind_curlwp(cpc, set, 0);
	t0 = now();
	rc |= cpc_set_sample(cpc, set, b);
	t1 = now();
	h1 = cpc_buf_hrtime(cpc, b);
	k1 = cpc_buf_tick(cpc, b);
	getpids(1000);
	rc |= cpc_set_sample(cpc, set, b);
	h2 = cpc_buf_hrtime(cpc, b);
	k2 = cpc_buf_tick(cpc, b);
	rc |= cpc_unbind(cpc, set);
	tap_ok(rc == 0, "bind, sample twice, unbind");
	tap_ok(t0 <= h1 && h1 <= t1, "hrtime is CLOCK_MONOTONIC at the "
	    "sample (%lld <= %lld <= %lld)", (long long)t0, (long long)h1,
	    (long long)t1);
	tap_ok(h2 > h1, "a later sample has a later hrtime");
	tap_ok(k1 > 0 && k2 > k1, "tick grows while bound (%llu, %llu)",
	    (unsigned long long)k1, (unsigned long long)k2);
	tap_ok(cpc_buf_scaled(cpc, b) == 0, "a software event is not scaled");
}

/*
 * Directly on libcpc: cpc_unbind, then binding the same set again,
 * starts the counters from zero (the kernel group is kept open and
 * reset); a set that is not bound cannot be sampled.
 */
static void
test_rebind(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_buf_t *b = NULL;
	uint64_t first = UINT64_MAX, zero = UINT64_MAX, after = UINT64_MAX;
	char *p = NULL, *q = NULL;
	int rc = -1, k;

	if (set == NULL || cpc_set_add_request(cpc, set, "page-faults", 0,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) != 0 ||
	    (b = cpc_buf_create(cpc, set)) == NULL) {
		tap_ok(0, "a {page-faults} set and buffer (%s)", errh_last());
		goto out;
	}
	/* Twice: the first round makes the second round's path resident. */
	for (k = 0; k < 2; k++) {
		p = fresh(20);
		q = fresh(5);
		if (p == NULL || q == NULL)
			goto out;
		rc = cpc_bind_curlwp(cpc, set, 0);
		touch(p, 20);
		rc |= cpc_set_sample(cpc, set, b);
		first = val(cpc, b, 0);
		rc |= cpc_unbind(cpc, set);
		rc |= cpc_bind_curlwp(cpc, set, 0);
		rc |= cpc_set_sample(cpc, set, b);
		zero = val(cpc, b, 0);
		touch(q, 5);
		rc |= cpc_set_sample(cpc, set, b);
		after = val(cpc, b, 0);
		rc |= cpc_unbind(cpc, set);
		munmap(p, 20 * pagesz);
		munmap(q, 5 * pagesz);
		p = q = NULL;
	}
	tap_ok(rc == 0, "bind, sample, unbind, bind, sample (%s)",
	    errh_last());
	tap_u64(first, 20, "first binding: 20 pages -> 20");
	tap_u64(zero, 0, "re-bound: the count restarts at 0");
	tap_u64(after, 5, "re-bound: 5 more pages -> 5, not 25");
	test_stamps(cpc, set, b);
	errno = 0;
	tap_ok(cpc_set_sample(cpc, set, b) == -1 && errno == EINVAL,
	    "sampling an unbound set: -1/EINVAL");
	errno = 0;
	tap_ok(cpc_unbind(cpc, set) == -1 && errno == EINVAL,
	    "unbinding an unbound set: -1/EINVAL");
out:
	cpc_buf_destroy(cpc, b);
	cpc_set_destroy(cpc, set);
}

/* The tracepoint, where this machine offers it. */
static const char *
no_tracepoint(void)
{
	if (geteuid() != 0)
		return "tracepoints need root";
	if (access("/sys/kernel/tracing/events/syscalls/sys_enter_getpid/id",
	    R_OK) != 0 && access("/sys/kernel/debug/tracing/events/syscalls/"
	    "sys_enter_getpid/id", R_OK) != 0)
		return "no tracefs with syscalls:sys_enter_getpid";
	return NULL;
}

static void
test_tracepoint(cpc_t *cpc)
{
	static const int counts[] = { 1, 7, 1000 };
	const char *why = no_tracepoint();
	struct spec specs[2];
	struct setgrp *sg;
	struct setgrp_elem *e;
	uint64_t got[3][2];
	size_t i;
	int ok;

	if (why != NULL) {
		tap_skip(why, "syscalls:sys_enter_getpid counts getpid calls");
		tap_skip(why, "a group of a tracepoint and page-faults");
		return;
	}
	memset(specs, 0, sizeof(specs));
	if (parse(cpc, "syscalls:sys_enter_getpid", &specs[0]) != 0 ||
	    parse(cpc, "page-faults,syscalls:sys_enter_getpid,sys",
	    &specs[1]) != 0)
		goto out_specs;
	sg = setgrp_create(cpc, specs, 2);
	if (!tap_ok(sg != NULL, "setgrp with the tracepoint (%s)",
	    errh_last()))
		goto out_specs;
	e = setgrp_cur(sg);
	ok = bind(sg, e) == 0 && warm_up(sg, e) == 0;
	tap_ok(ok, "bind {syscalls:sys_enter_getpid} (%s)", errh_last());
	for (i = 0; ok && i < 3; i++) {
		ok = measure(sg, e, 0, 0, counts[i]) == 0;
		got[i][0] = val(cpc, e->se_delta, 0);
	}
	for (i = 0; ok && i < 3; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%d getpid calls -> %d",
		    counts[i], counts[i]);
		tap_u64(got[i][0], (uint64_t)counts[i], name);
	}
	cpc_unbind(cpc, e->se_set);

	/* One group: both counts from one snapshot, each exact. */
	e = setgrp_next(sg);
	ok = bind(sg, e) == 0 && warm_up(sg, e) == 0;
	tap_ok(ok, "bind {page-faults, syscalls:sys_enter_getpid} (%s)",
	    errh_last());
	for (i = 0; ok && i < 3; i++) {
		ok = measure(sg, e, (size_t)counts[i] * 3, 0, counts[i]) == 0;
		got[i][0] = val(cpc, e->se_delta, 0);
		got[i][1] = val(cpc, e->se_delta, 1);
	}
	for (i = 0; ok && i < 3; i++) {
		char name[96];

		snprintf(name, sizeof(name), "group: %d pages and %d getpids "
		    "-> pic0 %d", counts[i] * 3, counts[i], counts[i] * 3);
		tap_u64(got[i][0], (uint64_t)counts[i] * 3, name);
		snprintf(name, sizeof(name), "group: %d pages and %d getpids "
		    "-> pic1 %d", counts[i] * 3, counts[i], counts[i]);
		tap_u64(got[i][1], (uint64_t)counts[i], name);
	}
	cpc_unbind(cpc, e->se_set);
	setgrp_destroy(sg);
out_specs:
	spec_free(&specs[0]);
	spec_free(&specs[1]);
}

int
main(void)
{
	cpc_t *cpc;

	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	if ((zerofd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0) {
		tap_ok(0, "open /dev/zero: %s", strerror(errno));
		return tap_done();
	}
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	errh_install(cpc, 1);
	test_faults(cpc);
	test_rebind(cpc);
	test_tracepoint(cpc);
	cpc_close(cpc);
	close(zerofd);
	return tap_done();
}
