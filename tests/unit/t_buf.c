/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_buf.c - libcpc handles, requests, buffers and their arithmetic, and
 * the error handler.  A libcpc-internal test: it reaches into struct
 * cpc_buf (cpc_impl.h) to plant ticks and timestamps, which the public
 * API can only produce by sampling.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcpc.h>

#include "cpc_impl.h"
#include "tap.h"

#define BIG	UINT64_C(0xffffffffffffffff)

/* What the error handler saw last, and how often it ran. */
static struct {
	int	h_calls;
	char	h_fn[64];
	int	h_sub;
	char	h_msg[2048];
} seen;

static void
handler(const char *fn, int subcode, const char *fmt, va_list ap)
{
	seen.h_calls++;
	snprintf(seen.h_fn, sizeof(seen.h_fn), "%s", fn);
	seen.h_sub = subcode;
	vsnprintf(seen.h_msg, sizeof(seen.h_msg), fmt, ap);
	errno = ERANGE;		/* libcpc must not let this escape */
}

static void
seen_reset(void)
{
	memset(&seen, 0, sizeof(seen));
}

static int
add(cpc_t *cpc, cpc_set_t *set, const char *ev, uint_t nattrs,
    const cpc_attr_t *attrs)
{
	return cpc_set_add_request(cpc, set, ev, 0, CPC_COUNT_USER, nattrs,
	    attrs);
}

static void
test_open(void)
{
	static const int bad[] = { CPC_VER_NONE, 1, CPC_VER_CPC_ONLY + 1, -1 };
	size_t i;
	cpc_t *cpc;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		errno = 0;
		cpc = cpc_open(bad[i]);
		tap_ok(cpc == NULL && errno == EINVAL,
		    "cpc_open(%d) fails with EINVAL", bad[i]);
		cpc_close(cpc);
	}
	cpc = cpc_open(CPC_VER_CURRENT);
	tap_ok(cpc != NULL, "cpc_open(2) gives a handle (uid %d)",
	    (int)geteuid());
	if (cpc != NULL) {
		tap_u64(cpc_npic(cpc), cpc_have_hw_pmu(cpc) ? cpc_npic(cpc) :
		    CPC_SOFT_NPIC, "without a PMU a set offers 8 slots");
		tap_ok(cpc_cciname(cpc)[0] != '\0' &&
		    cpc_cpuref(cpc)[0] != '\0', "cciname and cpuref are set");
	}
	tap_u64(cpc_close(cpc), 0, "cpc_close returns 0");
	tap_u64(cpc_close(NULL), 0, "cpc_close(NULL) is a no-op");
}

/* A two-request set: task-clock, page-faults. */
static cpc_set_t *
two_set(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);

	if (set == NULL)
		return NULL;
	if (add(cpc, set, "task-clock", 0, NULL) != 0 ||
	    add(cpc, set, "page-faults", 0, NULL) != 1) {
		cpc_set_destroy(cpc, set);
		return NULL;
	}
	return set;
}

struct arith {
	uint64_t	a, b;
	uint64_t	a_minus_b, b_minus_a, sum;
};

/* Expected results written out, not computed the way buf.c does. */
static const struct arith ariths[] = {
	{ 5, 3, 2, BIG - 1, 8 },
	{ 0, 0, 0, 0, 0 },
	{ 0, 1, BIG, 1, 1 },
	{ 1, BIG, 2, BIG - 1, 0 },
	{ BIG, BIG, 0, 0, BIG - 1 },
	{ UINT64_C(0x8000000000000000), UINT64_C(0x8000000000000000), 0, 0,
	  0 },
	{ UINT64_C(0x8000000000000001), 2, UINT64_C(0x7fffffffffffffff),
	  UINT64_C(0x8000000000000001), UINT64_C(0x8000000000000003) },
	{ 1000000000000ULL, 999999999999ULL, 1, BIG, 1999999999999ULL },
	{ 0xfffffffeULL, 0x100000002ULL, BIG - 3, 4, 0x200000000ULL },
};

static uint64_t
get(cpc_t *cpc, cpc_buf_t *b, int i)
{
	uint64_t v = 0xdeadbeef;

	if (cpc_buf_get(cpc, b, i, &v) != 0)
		return 0xbadbadbad;
	return v;
}

static void
test_arith(cpc_t *cpc, cpc_set_t *set)
{
	cpc_buf_t *a, *b, *d;
	size_t i;

	a = cpc_buf_create(cpc, set);
	b = cpc_buf_create(cpc, set);
	d = cpc_buf_create(cpc, set);
	if (!tap_ok(a != NULL && b != NULL && d != NULL, "three buffers"))
		return;
	tap_ok(get(cpc, a, 0) == 0 && get(cpc, a, 1) == 0 &&
	    cpc_buf_hrtime(cpc, a) == 0 && cpc_buf_tick(cpc, a) == 0 &&
	    cpc_buf_scaled(cpc, a) == 0, "a new buffer is all zero");

	for (i = 0; i < sizeof(ariths) / sizeof(*ariths); i++) {
		const struct arith *t = &ariths[i];
		char name[128];

		/* Index 0 holds (a, b), index 1 (b, a); the tick (a, b). */
		cpc_buf_set(cpc, a, 0, t->a);
		cpc_buf_set(cpc, a, 1, t->b);
		cpc_buf_set(cpc, b, 0, t->b);
		cpc_buf_set(cpc, b, 1, t->a);
		a->cb_tick = t->a;
		b->cb_tick = t->b;
		snprintf(name, sizeof(name), "row %zu: %#llx - %#llx", i,
		    (unsigned long long)t->a, (unsigned long long)t->b);
		cpc_buf_sub(cpc, d, a, b);
		tap_u64(get(cpc, d, 0), t->a_minus_b, name);
		tap_u64(get(cpc, d, 1), t->b_minus_a, "  reversed");
		tap_u64(cpc_buf_tick(cpc, d), t->a_minus_b, "  tick");
		snprintf(name, sizeof(name), "row %zu: %#llx + %#llx", i,
		    (unsigned long long)t->a, (unsigned long long)t->b);
		cpc_buf_add(cpc, d, a, b);
		tap_u64(get(cpc, d, 0), t->sum, name);
		tap_u64(get(cpc, d, 1), t->sum, "  reversed");
		tap_u64(cpc_buf_tick(cpc, d), t->sum, "  tick");
	}

	/* ds may be one of the operands (the tools do total += delta). */
	cpc_buf_set(cpc, a, 0, 10);
	cpc_buf_set(cpc, b, 0, 7);
	cpc_buf_add(cpc, a, a, b);
	tap_u64(get(cpc, a, 0), 17, "add in place: a = a + b");
	cpc_buf_sub(cpc, a, a, b);
	tap_u64(get(cpc, a, 0), 10, "sub in place: a = a - b");
	cpc_buf_sub(cpc, a, a, a);
	tap_u64(get(cpc, a, 0) | get(cpc, a, 1), 0, "a - a is zero");

	cpc_buf_destroy(cpc, a);
	cpc_buf_destroy(cpc, b);
	cpc_buf_destroy(cpc, d);
}

struct hrt {
	hrtime_t	a, b, want;
};

static const struct hrt hrts[] = {
	{ 10, 20, 20 },
	{ 20, 10, 20 },
	{ 0, 0, 0 },
	{ 0, 5, 5 },
	{ 7, 7, 7 },
	{ INT64_MAX, 1, INT64_MAX },
};

static void
test_hrtime(cpc_t *cpc, cpc_set_t *set)
{
	cpc_buf_t *a = cpc_buf_create(cpc, set), *b = cpc_buf_create(cpc, set);
	cpc_buf_t *d = cpc_buf_create(cpc, set);
	size_t i;

	for (i = 0; i < sizeof(hrts) / sizeof(*hrts); i++) {
		a->cb_hrtime = hrts[i].a;
		b->cb_hrtime = hrts[i].b;
		d->cb_hrtime = -1;
		cpc_buf_sub(cpc, d, a, b);
		tap_u64((uint64_t)cpc_buf_hrtime(cpc, d),
		    (uint64_t)hrts[i].want, "sub: hrtime is the later one");
		d->cb_hrtime = -1;
		cpc_buf_add(cpc, d, a, b);
		tap_u64((uint64_t)cpc_buf_hrtime(cpc, d),
		    (uint64_t)hrts[i].want, "add: hrtime is the later one");
	}

	/* A scaled operand makes the result scaled. */
	a->cb_scaled = 0;
	b->cb_scaled = 1;
	cpc_buf_sub(cpc, d, a, b);
	tap_ok(cpc_buf_scaled(cpc, d) == 1, "sub: scaled if b was");
	b->cb_scaled = 0;
	cpc_buf_add(cpc, d, a, b);
	tap_ok(cpc_buf_scaled(cpc, d) == 0, "add: not scaled if neither");

	/* copy takes everything; zero clears everything. */
	cpc_buf_set(cpc, a, 0, 11);
	cpc_buf_set(cpc, a, 1, BIG);
	a->cb_tick = 99;
	a->cb_hrtime = 1234;
	a->cb_scaled = 1;
	cpc_buf_copy(cpc, d, a);
	tap_ok(get(cpc, d, 0) == 11 && get(cpc, d, 1) == BIG &&
	    cpc_buf_tick(cpc, d) == 99 && cpc_buf_hrtime(cpc, d) == 1234 &&
	    cpc_buf_scaled(cpc, d) == 1, "copy takes values, tick, hrtime, "
	    "scaled");
	cpc_buf_copy(cpc, d, d);
	tap_ok(get(cpc, d, 0) == 11 && cpc_buf_tick(cpc, d) == 99,
	    "copy onto itself changes nothing");
	cpc_buf_zero(cpc, d);
	tap_ok(get(cpc, d, 0) == 0 && get(cpc, d, 1) == 0 &&
	    cpc_buf_tick(cpc, d) == 0 && cpc_buf_hrtime(cpc, d) == 0 &&
	    cpc_buf_scaled(cpc, d) == 0, "zero clears values, tick, hrtime, "
	    "scaled");
	tap_ok(get(cpc, a, 0) == 11 && cpc_buf_tick(cpc, a) == 99,
	    "zero leaves the copy's source alone");
	cpc_buf_destroy(cpc, a);
	cpc_buf_destroy(cpc, b);
	cpc_buf_destroy(cpc, d);
}

/* Buffers of another shape are left alone by sub, add and copy. */
static void
test_mismatch(cpc_t *cpc, cpc_set_t *set2)
{
	cpc_set_t *set1 = cpc_set_create(cpc);
	cpc_buf_t *one, *a, *b;

	if (!tap_ok(set1 != NULL && add(cpc, set1, "task-clock", 0, NULL) == 0,
	    "a one-request set"))
		return;
	one = cpc_buf_create(cpc, set1);
	a = cpc_buf_create(cpc, set2);
	b = cpc_buf_create(cpc, set2);
	cpc_buf_set(cpc, one, 0, 5);
	one->cb_tick = 6;
	one->cb_hrtime = 7;
	cpc_buf_set(cpc, a, 0, 100);
	cpc_buf_set(cpc, a, 1, 200);
	a->cb_tick = 300;
	a->cb_hrtime = 400;
	cpc_buf_set(cpc, b, 0, 1);
	cpc_buf_set(cpc, b, 1, 2);

	cpc_buf_sub(cpc, one, a, b);
	cpc_buf_add(cpc, one, a, b);
	cpc_buf_copy(cpc, one, a);
	tap_ok(get(cpc, one, 0) == 5 && cpc_buf_tick(cpc, one) == 6 &&
	    cpc_buf_hrtime(cpc, one) == 7,
	    "sub/add/copy into a smaller buffer: no-op");
	cpc_buf_sub(cpc, a, one, b);
	cpc_buf_sub(cpc, a, b, one);
	cpc_buf_add(cpc, a, one, b);
	cpc_buf_add(cpc, a, b, one);
	cpc_buf_copy(cpc, a, one);
	tap_ok(get(cpc, a, 0) == 100 && get(cpc, a, 1) == 200 &&
	    cpc_buf_tick(cpc, a) == 300 && cpc_buf_hrtime(cpc, a) == 400,
	    "sub/add/copy with a smaller operand: no-op");

	/* The size is the set's request count when the buffer is made. */
	tap_ok(add(cpc, set1, "page-faults", 0, NULL) == 1,
	    "a second request on the one-request set");
	errno = 0;
	tap_ok(cpc_buf_set(cpc, one, 1, 1) == -1 && errno == EINVAL,
	    "an old buffer keeps its size: index 1 is EINVAL");
	cpc_buf_destroy(cpc, one);
	cpc_buf_destroy(cpc, a);
	cpc_buf_destroy(cpc, b);
	cpc_set_destroy(cpc, set1);
}

static void
test_index(cpc_t *cpc, cpc_set_t *set)
{
	static const int idx[] = { -1, 2, 3, 1000, INT32_MIN };
	cpc_buf_t *b = cpc_buf_create(cpc, set);
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(idx) / sizeof(*idx); i++) {
		v = 77;
		errno = 0;
		tap_ok(cpc_buf_get(cpc, b, idx[i], &v) == -1 &&
		    errno == EINVAL && v == 77,
		    "cpc_buf_get index %d: -1/EINVAL, value untouched", idx[i]);
		errno = 0;
		tap_ok(cpc_buf_set(cpc, b, idx[i], 5) == -1 && errno == EINVAL,
		    "cpc_buf_set index %d: -1/EINVAL", idx[i]);
	}
	tap_ok(get(cpc, b, 0) == 0 && get(cpc, b, 1) == 0,
	    "failed sets wrote nothing");
	tap_ok(cpc_buf_set(cpc, b, 1, BIG) == 0 && get(cpc, b, 1) == BIG &&
	    get(cpc, b, 0) == 0, "index 1 holds 2^64-1 and leaves index 0");
	cpc_buf_destroy(cpc, b);
}

/* Objects of one handle are refused by another; nothing is lost. */
static void
test_foreign(cpc_t *cpc, cpc_set_t *set)
{
	cpc_t *other = cpc_open(CPC_VER_CURRENT);
	cpc_set_t *oset;
	cpc_buf_t *ob, *b;

	if (!tap_ok(other != NULL, "a second handle"))
		return;
	oset = two_set(other);
	ob = cpc_buf_create(other, oset);
	tap_ok(oset != NULL && ob != NULL, "a set and buffer of the second");

	errno = 0;
	tap_ok(cpc_buf_destroy(cpc, ob) == -1 && errno == EINVAL,
	    "cpc_buf_destroy of a foreign buffer: -1/EINVAL");
	errno = 0;
	tap_ok(cpc_buf_create(cpc, oset) == NULL && errno == EINVAL,
	    "cpc_buf_create on a foreign set: NULL/EINVAL");
	errno = 0;
	tap_ok(cpc_set_destroy(cpc, oset) == -1 && errno == EINVAL,
	    "cpc_set_destroy of a foreign set: -1/EINVAL");
	errno = 0;
	tap_ok(add(cpc, oset, "task-clock", 0, NULL) == -1 && errno == EINVAL,
	    "cpc_set_add_request on a foreign set: -1/EINVAL");
	errno = 0;
	tap_ok(cpc_buf_create(cpc, NULL) == NULL && errno == EINVAL,
	    "cpc_buf_create(NULL set): NULL/EINVAL");

	tap_ok(cpc_buf_set(other, ob, 1, 42) == 0 && get(other, ob, 1) == 42,
	    "the foreign buffer still works in its own handle");
	tap_u64(cpc_buf_destroy(other, ob), 0, "and is destroyed there");
	errno = 0;
	tap_ok(cpc_buf_destroy(other, ob) == -1 && errno == EINVAL,
	    "destroying it twice: -1/EINVAL");
	tap_u64(cpc_set_destroy(other, oset), 0,
	    "the foreign set is destroyed by its own handle");
	tap_u64(cpc_buf_destroy(cpc, NULL), 0, "cpc_buf_destroy(NULL): 0");
	tap_u64(cpc_set_destroy(cpc, NULL), 0, "cpc_set_destroy(NULL): 0");

	/* Buffers left behind are freed by cpc_close (ASan checks). */
	b = cpc_buf_create(other, two_set(other));
	tap_ok(b != NULL, "a buffer left for cpc_close");
	cpc_close(other);
	(void)set;
}

/* cpc_walk_requests: most recent first, everything as given. */
struct walk {
	int	w_n;
	char	w_text[1024];
};

static void
walk_fn(void *arg, int index, const char *event, uint64_t preset,
    uint_t flags, int nattrs, const cpc_attr_t *attrs)
{
	struct walk *w = arg;
	size_t n = strlen(w->w_text);
	int k;

	w->w_n++;
	n += snprintf(w->w_text + n, sizeof(w->w_text) - n, "%s%d:%s:%llu:%#x",
	    n ? " " : "", index, event, (unsigned long long)preset, flags);
	for (k = 0; k < nattrs && n < sizeof(w->w_text); k++)
		n += snprintf(w->w_text + n, sizeof(w->w_text) - n, ":%s=%llu",
		    attrs[k].ca_name, (unsigned long long)attrs[k].ca_val);
}

static void
test_walk(cpc_t *cpc)
{
	char pname[16] = "picnum";
	cpc_attr_t pin[1] = { { pname, 5 } };
	cpc_set_t *set = cpc_set_create(cpc);
	struct walk w;

	tap_u64(cpc_set_add_request(cpc, set, "task-clock", 0, CPC_COUNT_USER,
	    0, NULL), 0, "first request is index 0");
	tap_u64(cpc_set_add_request(cpc, set, "page-faults", 7,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 1, pin), 1,
	    "second request is index 1");
	tap_u64(cpc_set_add_request(cpc, set, "context-switches", 0, 0, 0,
	    NULL), 2, "third request (flags 0 accepted) is index 2");
	/* The attribute array was copied: changing ours changes nothing. */
	pname[0] = 'X';
	pin[0].ca_val = 6;
	memset(&w, 0, sizeof(w));
	cpc_walk_requests(cpc, set, &w, walk_fn);
	tap_str(w.w_text, "2:context-switches:0:0 1:page-faults:7:0x6:"
	    "picnum=5 0:task-clock:0:0x2", "walk: most recent first");
	memset(&w, 0, sizeof(w));
	cpc_walk_requests(cpc, NULL, &w, walk_fn);
	tap_u64(w.w_n, 0, "walk over NULL set: no calls");
	cpc_set_destroy(cpc, set);
}

struct errcase {
	const char	*e_event;
	const char	*e_attr;	/* NULL: no attribute */
	uint64_t	 e_val;
	int		 e_sub;
	int		 e_errno;
	const char	*e_msg;
};

static const char no_pmu_tail[] = ": no hardware PMU (virtual machine "
    "without a virtual PMU?); software events and tracepoints can be "
    "counted instead, such as cpu-clock, task-clock, context-switches, "
    "page-faults or sched:sched_switch";

static const struct errcase errcases[] = {
	{ "zzzzzzzzzzzzzzzzzzzz", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "unknown event 'zzzzzzzzzzzzzzzzzzzz'" },
	{ "", NULL, 0, CPC_INVALID_EVENT, EINVAL, "empty event name" },
	{ "task-clok", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "unknown event 'task-clok'; did you mean 'task-clock'?" },
	{ "page-fualts", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "unknown event 'page-fualts'; did you mean 'page-faults'?" },
	{ "PAPI_tot_ccy", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "unknown event 'PAPI_tot_ccy'; did you mean 'PAPI_tot_cyc', "
	  "'PAPI_ful_ccy' or 'PAPI_tot_iis'?" },
	{ "task-clock", "umask", 1, CPC_INVALID_ATTRIBUTE, EINVAL,
	  "attribute 'umask' applies only to raw event codes and x86 native "
	  "events, not to 'task-clock'" },
	{ "page-faults", "edge", 1, CPC_INVALID_ATTRIBUTE, EINVAL,
	  "attribute 'edge' applies only to raw event codes and x86 native "
	  "events, not to 'page-faults'" },
	{ "task-clock", "bogus", 1, CPC_INVALID_ATTRIBUTE, EINVAL,
	  "unknown attribute 'bogus' (known: picnum umask cmask edge inv pc "
	  "anythr)" },
	{ "task-clock", "", 1, CPC_INVALID_ATTRIBUTE, EINVAL,
	  "unknown attribute '' (known: picnum umask cmask edge inv pc "
	  "anythr)" },
	{ "task-clock", "picnum", 8, CPC_INVALID_PICNUM, EINVAL,
	  "counter number 8 out of range (0-7)" },
	{ "nosuchpmu/event=1/", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "unknown PMU 'nosuchpmu' in 'nosuchpmu/event=1/' (the PMUs are in "
	  "/sys/bus/event_source/devices)" },
	/* A digit first: a raw code, or an error that says why not. */
	{ "08", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "invalid raw event code '08': not a decimal, 0x hexadecimal or 0 "
	  "octal number" },
	{ "0x", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "invalid raw event code '0x': not a decimal, 0x hexadecimal or 0 "
	  "octal number" },
	{ "0x1ffffffffffffffff", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "invalid raw event code '0x1ffffffffffffffff': out of range (at "
	  "most 0xffffffffffffffff)" },
	{ "18446744073709551616", NULL, 0, CPC_INVALID_EVENT, EINVAL,
	  "invalid raw event code '18446744073709551616': out of range (at "
	  "most 0xffffffffffffffff)" },
	/* No system or no event: not a tracepoint. */
	{ ":x", NULL, 0, CPC_INVALID_EVENT, EINVAL, "unknown event ':x'" },
};

static void
test_errors(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);
	char name[64];
	size_t i;
	int rc;

	cpc_seterrhndlr(cpc, handler);
	tap_u64(add(cpc, set, "task-clock", 0, NULL), 0,
	    "a good request before the bad ones");
	for (i = 0; i < sizeof(errcases) / sizeof(*errcases); i++) {
		const struct errcase *e = &errcases[i];
		cpc_attr_t a = { (char *)e->e_attr, e->e_val };

		seen_reset();
		errno = 0;
		rc = add(cpc, set, e->e_event, e->e_attr != NULL, &a);
		tap_ok(rc == -1 && errno == e->e_errno,
		    "'%s'%s%s: -1 with errno %d (got %d, errno %d)",
		    e->e_event, e->e_attr ? " " : "", e->e_attr ? e->e_attr :
		    "", e->e_errno, rc, errno);
		tap_ok(seen.h_calls == 1 && seen.h_sub == e->e_sub,
		    "  handler called once with subcode %d (got %d calls, "
		    "subcode %d)", e->e_sub, seen.h_calls, seen.h_sub);
		tap_str(seen.h_fn, "cpc_set_add_request", "  function name");
		snprintf(name, sizeof(name), "  message for '%s'", e->e_event);
		tap_str(seen.h_msg, e->e_msg, name);
	}
	/* An attribute without a name: refused, not followed. */
	{
		cpc_attr_t a[2] = { { "picnum", 1 }, { NULL, 1 } };

		seen_reset();
		errno = 0;
		rc = add(cpc, set, "task-clock", 2, a);
		tap_ok(rc == -1 && errno == EINVAL && seen.h_calls == 1 &&
		    seen.h_sub == CPC_INVALID_ATTRIBUTE, "an attribute whose "
		    "name is NULL: EINVAL, CPC_INVALID_ATTRIBUTE (got %d, "
		    "errno %d, subcode %d)", rc, errno, seen.h_sub);
		tap_str(seen.h_msg, "attribute 1 has no name",
		    "  message for the NULL name");
	}
	/* Nothing lost: the set still holds its one request. */
	tap_u64(add(cpc, set, "page-faults", 0, NULL), 1,
	    "after the failures the next request is index 1");
	cpc_set_destroy(cpc, set);
}

/* Tracepoint names: a near miss gets the right name first. */
static void
test_tracepoint_names(cpc_t *cpc)
{
	static const char want[] = "unknown event 'sched:sched_swich': "
	    "system 'sched' has no tracepoint 'sched_swich'; did you mean "
	    "'sched:sched_switch'";
	static const char nosys[] = "unknown event 'nosuchsystem:foo': no "
	    "tracepoint system 'nosuchsystem'";
	cpc_set_t *set;
	int rc;

	if (geteuid() != 0 || access("/sys/kernel/tracing/events/sched/"
	    "sched_switch", F_OK) != 0) {
		tap_skip("needs root and tracefs at /sys/kernel/tracing",
		    "tracepoint near miss suggests sched:sched_switch");
		return;
	}
	set = cpc_set_create(cpc);
	cpc_seterrhndlr(cpc, handler);
	seen_reset();
	errno = 0;
	rc = add(cpc, set, "sched:sched_swich", 0, NULL);
	tap_ok(rc == -1 && errno == EINVAL && seen.h_sub == CPC_INVALID_EVENT,
	    "'sched:sched_swich': -1/EINVAL, CPC_INVALID_EVENT");
	tap_ok(strncmp(seen.h_msg, want, sizeof(want) - 1) == 0,
	    "  best suggestion first: %s", seen.h_msg);
	seen_reset();
	rc = add(cpc, set, "nosuchsystem:foo", 0, NULL);
	tap_ok(rc == -1 && strncmp(seen.h_msg, nosys, sizeof(nosys) - 1) == 0,
	    "unknown tracepoint system: %s", seen.h_msg);
	tap_u64(add(cpc, set, "sched:sched_switch", 0, NULL), 0,
	    "sched:sched_switch is accepted");
	cpc_set_destroy(cpc, set);
}

/* add refuses ev with EINVAL, CPC_INVALID_EVENT and a message from want. */
static void
refused(cpc_t *cpc, cpc_set_t *set, const char *ev, const char *want,
    const char *what)
{
	int rc;

	seen_reset();
	errno = 0;
	rc = add(cpc, set, ev, 0, NULL);
	tap_ok(rc == -1 && errno == EINVAL && seen.h_calls == 1 &&
	    seen.h_sub == CPC_INVALID_EVENT && strncmp(seen.h_msg, want,
	    strlen(want)) == 0, "%s: EINVAL, '%s...' (got %d, errno %d: %s)",
	    what, want, rc, errno, seen.h_msg);
}

/*
 * Names too long for the catalogue are refused, not cut; a misspelt name
 * gets its right spelling first, in any letter case.
 */
static void
test_names(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);
	char name[CPC_MAX_EVENT_LEN + 100], want[128];
	int rc;

	cpc_seterrhndlr(cpc, handler);
	memset(name, 'a', sizeof(name));
	name[CPC_MAX_EVENT_LEN] = '\0';
	snprintf(want, sizeof(want), "event name too long (at most %d "
	    "characters)", CPC_MAX_EVENT_LEN - 1);
	refused(cpc, set, name, want, "an event name of CPC_MAX_EVENT_LEN");
	tap_str(seen.h_msg, want, "  the whole message");
	name[CPC_MAX_EVENT_LEN - 1] = '\0';
	refused(cpc, set, name, "unknown event 'aaaa", "one shorter: unknown, "
	    "not too long");
	memset(name, 's', 300);
	strcpy(name + 300, ":x");
	refused(cpc, set, name, "unknown event: tracepoint system name too "
	    "long (at most 255 characters)", "a tracepoint system of 300 "
	    "characters");
	refused(cpc, set, "Cycles", "unknown event 'Cycles'; did you mean "
	    "'cycles'", "Cycles");
	refused(cpc, set, "CS", "unknown event 'CS'; did you mean 'cs'", "CS");
	refused(cpc, set, "TASK-CLOCK", "unknown event 'TASK-CLOCK'; did you "
	    "mean 'task-clock'", "TASK-CLOCK");
	refused(cpc, set, "ec_hit", "unknown event 'ec_hit'; did you mean "
	    "'EC_hit'", "ec_hit");
	refused(cpc, set, "l1-dcache-loads", "unknown event 'l1-dcache-loads'; "
	    "did you mean 'L1-dcache-loads'", "l1-dcache-loads");
	refused(cpc, set, "perf::cycles", "unknown event 'perf::cycles'; did "
	    "you mean 'cycles'", "perf::cycles (libpfm4's perf table)");
	/* Nothing lost. */
	rc = add(cpc, set, "task-clock", 0, NULL);
	tap_u64(rc, 0, "after the refusals, task-clock is request 0");
	cpc_set_destroy(cpc, set);
}

/*
 * The terms of a sysfs PMU event: plain names, each once, of a bounded
 * length, never a path; a near miss gets the PMU's own names.
 */
static void
test_pmu_terms(cpc_t *cpc)
{
	cpc_set_t *set;
	char name[256], want[128];

	if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) != 0 ||
	    access("/sys/bus/event_source/devices/msr/events/smi", R_OK) != 0) {
		tap_skip("no msr PMU with tsc and smi here", "PMU terms");
		return;
	}
	set = cpc_set_create(cpc);
	cpc_seterrhndlr(cpc, handler);
	refused(cpc, set, "msr/../../../../../../etc/hostname/",
	    "PMU 'msr' has no term '../../../../../../etc/hostname'",
	    "a term that climbs out of sysfs");
	tap_str(seen.h_msg, "PMU 'msr' has no term "
	    "'../../../../../../etc/hostname'", "  the whole message: no "
	    "file read");
	refused(cpc, set, "msr/./", "PMU 'msr' has no term '.'", "term '.'");
	refused(cpc, set, "msr/tsx/", "PMU 'msr' has no event or format term "
	    "'tsx' (see /sys/bus/event_source/devices/msr/events and format); "
	    "did you mean 'msr/tsc/'?", "a near miss");
	refused(cpc, set, "msr/tsc,smi/", "'tsc' and 'smi' are two events of "
	    "PMU 'msr': give one", "two events");
	refused(cpc, set, "msr/event=0,event=4/", "term 'event' of PMU 'msr' "
	    "given twice", "a field twice");
	snprintf(name, sizeof(name), "msr/event=0x%0130d/", 4);
	snprintf(want, sizeof(want), "PMU term 'event=0x00000000...' too long "
	    "(at most 127 characters)");
	refused(cpc, set, name, want, "a term of 135 characters");
	tap_u64(add(cpc, set, "msr/event=0x4/", 0, NULL), 0,
	    "msr/event=0x4/ is accepted");
	cpc_set_destroy(cpc, set);
}

/* Hardware events and raw codes: what this machine can do. */
static void
test_hw(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_attr_t a = { "umask", 0x100 };
	char want[1024];
	int rc;

	cpc_seterrhndlr(cpc, handler);
	if (cpc_have_hw_pmu(cpc)) {
		tap_skip("this machine has a hardware PMU",
		    "raw code without a PMU: no-PMU message");
		seen_reset();
		errno = 0;
		rc = add(cpc, set, "0xc0", 1, &a);
		tap_ok(rc == -1 && errno == EINVAL,
		    "umask=0x100 on a raw code: -1/EINVAL");
		tap_u64(seen.h_sub, CPC_ATTRIBUTE_OUT_OF_RANGE,
		    "  subcode CPC_ATTRIBUTE_OUT_OF_RANGE");
		tap_str(seen.h_msg, "attribute 'umask' value 0x100 out of "
		    "range (0-0xff)", "  message");
		a.ca_val = 0xff;
		tap_ok(add(cpc, set, "0xc0", 1, &a) == 0,
		    "umask=0xff on a raw code is accepted");
		cpc_set_destroy(cpc, set);
		return;
	}
	seen_reset();
	errno = 0;
	rc = add(cpc, set, "0xc0", 1, &a);
	tap_ok(rc == -1 && errno == ENOTSUP,
	    "no PMU: raw code 0xc0 fails with ENOTSUP (rc %d errno %d)", rc,
	    errno);
	tap_u64(seen.h_sub, CPC_INVALID_EVENT, "  subcode CPC_INVALID_EVENT");
	snprintf(want, sizeof(want), "cannot count '0xc0'%s", no_pmu_tail);
	tap_str(seen.h_msg, want, "  message says there is no hardware PMU");
	seen_reset();
	rc = add(cpc, set, "cycles", 0, NULL);
	snprintf(want, sizeof(want), "cannot count 'cycles'%s", no_pmu_tail);
	tap_ok(rc == -1 && errno == ENOTSUP, "no PMU: 'cycles' fails");
	tap_str(seen.h_msg, want, "  message says there is no hardware PMU");
	/* The core PMU's own syntax: the machine lacks it, not the name. */
	{
		static const char *const core[] = { "cpu/event=0x3c/",
		    "cpu_core/event=0x3c/", "cpu_atom/event=0xc0/",
		    "armv8_pmuv3_0/event=0x11/", "armv7_cortex_a15/event=8/" };
		size_t i;

		for (i = 0; i < sizeof(core) / sizeof(*core); i++) {
			seen_reset();
			errno = 0;
			rc = add(cpc, set, core[i], 0, NULL);
			snprintf(want, sizeof(want), "cannot count '%s'%s",
			    core[i], no_pmu_tail);
			tap_ok(rc == -1 && errno == ENOTSUP &&
			    seen.h_sub == CPC_INVALID_EVENT, "no PMU: '%s' "
			    "fails with ENOTSUP (rc %d errno %d)", core[i], rc,
			    errno);
			tap_str(seen.h_msg, want, "  message says there is no "
			    "hardware PMU");
		}
	}
	tap_skip("no hardware PMU on this machine",
	    "umask=0x100 on a raw code: CPC_ATTRIBUTE_OUT_OF_RANGE");
	cpc_set_destroy(cpc, set);
}

/*
 * errno set before a report survives a handler that clobbers it, and
 * the handler does not change what the call returns.
 */
static void
test_errno(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc), *empty = cpc_set_create(cpc);
	int i, rc;

	cpc_seterrhndlr(cpc, handler);
	for (i = 0; i < 8; i++)
		if (add(cpc, set, "task-clock", 0, NULL) != i)
			break;
	tap_u64(i, 8, "eight requests fill the eight slots");
	seen_reset();
	errno = 0;
	rc = add(cpc, set, "task-clock", 0, NULL);
	tap_ok(rc == -1 && errno == EINVAL,
	    "a ninth request: -1/EINVAL, not the handler's ERANGE (errno %d)",
	    errno);
	tap_ok(seen.h_calls == 1 && seen.h_sub == CPC_RESOURCE_UNAVAIL,
	    "  handler: CPC_RESOURCE_UNAVAIL");
	tap_str(seen.h_msg, "a set holds at most 8 requests here",
	    "  message");

	seen_reset();
	errno = 0;
	rc = cpc_bind_curlwp(cpc, empty, 0);
	tap_ok(rc == -1 && errno == EINVAL,
	    "binding an empty set: -1/EINVAL after the handler (errno %d)",
	    errno);
	tap_str(seen.h_msg, "the set has no requests", "  message");
	tap_str(seen.h_fn, "cpc_bind_curlwp", "  function name");
	errno = 0;
	tap_ok(cpc_bind_curlwp(cpc, set, 0x80) == -1 && errno == EINVAL,
	    "cpc_bind_curlwp with unknown flags: -1/EINVAL");
	cpc_set_destroy(cpc, set);
	cpc_set_destroy(cpc, empty);
}

/* With no handler installed, messages go to stderr as "libcpc: fn: m". */
static void
test_default_handler(cpc_t *cpc)
{
	cpc_set_t *set = cpc_set_create(cpc);
	char out[512];
	FILE *tmp = tmpfile();
	int saved;
	size_t n;

	if (tmp == NULL) {
		tap_skip("no tmpfile", "default handler");
		return;
	}
	cpc_seterrhndlr(cpc, NULL);
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	errno = 0;
	(void)add(cpc, set, "zzzzzzzzzzzzzzzzzzzz", 0, NULL);
	tap_ok(errno == EINVAL, "default handler: errno EINVAL");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	tap_str(out, "libcpc: cpc_set_add_request: unknown event "
	    "'zzzzzzzzzzzzzzzzzzzz'\n", "default handler prints one line");
	cpc_set_destroy(cpc, set);
}

static void
attr_fn(void *arg, const char *attr)
{
	char *s = arg;
	size_t n = strlen(s);

	snprintf(s + n, 256 - n, "%s%s", n ? " " : "", attr);
}

int
main(void)
{
	char attrs[256] = "";
	cpc_set_t *set;
	cpc_t *cpc;

	test_open();
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	set = two_set(cpc);
	if (!tap_ok(set != NULL, "set {task-clock, page-faults}"))
		return tap_done();
	test_arith(cpc, set);
	test_hrtime(cpc, set);
	test_mismatch(cpc, set);
	test_index(cpc, set);
	test_foreign(cpc, set);
	test_walk(cpc);
	test_errors(cpc);
	test_hw(cpc);
	test_names(cpc);
	test_pmu_terms(cpc);
	test_tracepoint_names(cpc);
	test_errno(cpc);
	test_default_handler(cpc);
	cpc_walk_attrs(cpc, attrs, attr_fn);
	tap_str(attrs, "umask cmask edge inv pc anythr picnum",
	    "cpc_walk_attrs: the raw attributes, then picnum");
	cpc_close(cpc);
	return tap_done();
}
