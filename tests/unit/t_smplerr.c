/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_smplerr - the SMPL interface refuses what it cannot do: every bad
 * request fails with EINVAL and a message that says what was wrong, and
 * the record calls refuse indexes outside what a buffer holds.  Also the
 * walkers of the SMPL interface and the request walk's CPC_HW_SMPL flag.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libcpc.h>

#include "errmsg.h"
#include "tap.h"

#define SMPL	(CPC_COUNT_USER | CPC_HW_SMPL)

static cpc_t *cpc;
static uint_t maxrecs;

/*
 * Add event with preset, flags and the attributes given (name, value
 * pairs, NULL-ended) to a fresh set; the index, or -1 with errno.
 */
static int
add(const char *event, uint64_t preset, uint_t flags, ...)
{
	cpc_attr_t attrs[8];
	cpc_set_t *set = cpc_set_create(cpc);
	va_list ap;
	uint_t n = 0;
	int rc, e;

	va_start(ap, flags);
	while (n < 8 && (attrs[n].ca_name = va_arg(ap, char *)) != NULL) {
		attrs[n].ca_val = va_arg(ap, uint64_t);
		n++;
	}
	va_end(ap);
	errmsg[0] = '\0';
	errno = 0;
	rc = cpc_set_add_request(cpc, set, event, preset, flags, n, attrs);
	e = errno;
	cpc_set_destroy(cpc, set);
	errno = e;
	return rc;
}

/* add failed with EINVAL and a message containing want. */
static void
refused(int rc, const char *want, const char *what)
{
	tap_ok(rc == -1 && errno == EINVAL && strstr(errmsg, want) != NULL,
	    "%s: EINVAL, \"%s\" (%d, %s, \"%s\")", what, want, rc,
	    strerror(errno), errmsg);
}

static void
bad_requests(void)
{
	char want[64];

	refused(add("page-faults", 0, SMPL, NULL), "needs the attribute "
	    "smpl_nrecs", "SMPL without smpl_nrecs");
	refused(add("page-faults", 0, SMPL, "smpl_nrecs", (uint64_t)0,
	    NULL), "smpl_nrecs 0 out of range", "smpl_nrecs 0");
	snprintf(want, sizeof(want), "smpl_nrecs %u out of range (1 to %u",
	    maxrecs + 1, maxrecs);
	refused(add("page-faults", 0, SMPL, "smpl_nrecs",
	    (uint64_t)maxrecs + 1, NULL), want, "smpl_nrecs over the maximum");
	tap_ok(add("page-faults", 0, SMPL, "smpl_nrecs", (uint64_t)maxrecs,
	    NULL) == 0, "smpl_nrecs at the maximum (%u) is taken", maxrecs);
	refused(add("page-faults", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "period", (uint64_t)0, NULL), "period 0 out of range",
	    "SMPL period 0");
	refused(add("page-faults", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "period", (uint64_t)1 << 63, NULL), "out of range",
	    "SMPL period 2^63");
	refused(add("page-faults", 5, SMPL, "smpl_nrecs", (uint64_t)8,
	    NULL), "takes no preset (0x5)", "SMPL with a preset");
	refused(add("task-clock", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "period", (uint64_t)1000, NULL), "period 1000 is too short",
	    "task-clock sampled every 1000 ns (the clock minimum)");
	refused(add("cpu-clock", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "period", (uint64_t)99999, NULL), "fewer than 100000",
	    "cpu-clock sampled every 99999 ns");
	tap_ok(add("task-clock", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "period", (uint64_t)100000, NULL) == 0, "task-clock every "
	    "100000 ns is taken");
	refused(add("page-faults", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "callchain", (uint64_t)100000, NULL), "callchain 100000 out of "
	    "range", "callchain deeper than the kernel records");
	refused(add("page-faults", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    "colour", (uint64_t)1, NULL), "unknown attribute 'colour'",
	    "SMPL with an unknown attribute");
	refused(add("no-such-event", 0, SMPL, "smpl_nrecs", (uint64_t)8,
	    NULL), "no-such-event", "SMPL of an unknown event");
}

static void
bad_counting(void)
{
	refused(add("page-faults", 0, CPC_COUNT_USER, "smpl_nrecs",
	    (uint64_t)8, NULL), "attributes of sampling requests",
	    "smpl_nrecs on a counting request");
	refused(add("page-faults", 0, CPC_COUNT_USER, "callchain",
	    (uint64_t)1, NULL), "attributes of sampling requests",
	    "callchain on a counting request");
	refused(add("page-faults", 0, CPC_COUNT_USER, "period", (uint64_t)5,
	    NULL), "needs CPC_OVF_NOTIFY_EMT", "period on a counting request "
	    "without CPC_OVF_NOTIFY_EMT");
	refused(add("page-faults", 0, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT,
	    "period", (uint64_t)0, NULL), "period 0 out of range",
	    "counting period 0");
	refused(add("page-faults", 7, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT,
	    "period", (uint64_t)5, NULL), "disagree", "a preset and a "
	    "period that disagree");
	tap_ok(add("page-faults", 0 - (uint64_t)5, CPC_COUNT_USER |
	    CPC_OVF_NOTIFY_EMT, "period", (uint64_t)5, NULL) == 0,
	    "the preset 2^64 - period with that period is taken");
	refused(add("task-clock", 0, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT,
	    "period", (uint64_t)5000, NULL), "this kernel cannot take an "
	    "overflow period under 100000", "counting task-clock period 5000");
}

/* A SMPL request's signal is for cpc_bind_curlwp without inheritance. */
static void
bad_binds(void)
{
	cpc_attr_t a = { "smpl_nrecs", 4 };
	cpc_set_t *set = cpc_set_create(cpc);

	if (cpc_set_add_request(cpc, set, "page-faults", 0, SMPL |
	    CPC_OVF_NOTIFY_EMT, 1, &a) != 0) {
		tap_ok(0, "a SMPL request with CPC_OVF_NOTIFY_EMT (%s)",
		    errmsg);
		return;
	}
	errmsg[0] = '\0';
	tap_ok(cpc_bind_curlwp(cpc, set, CPC_BIND_LWP_INHERIT) == -1 &&
	    errno == EINVAL && strstr(errmsg, "without CPC_BIND_LWP_INHERIT"),
	    "SMPL signal with CPC_BIND_LWP_INHERIT: EINVAL (%s)", errmsg);
	errmsg[0] = '\0';
	tap_ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == EINVAL &&
	    strstr(errmsg, "cpc_bind_curlwp") != NULL,
	    "SMPL signal on a CPU binding: EINVAL (%s)", errmsg);
	cpc_set_destroy(cpc, set);
}

/* The record calls on a buffer that holds no records. */
static void
bad_reads(void)
{
	cpc_attr_t a = { "smpl_nrecs", 4 };
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_buf_t *b;
	uint64_t v;
	uint_t n = 99;

	if (cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER,
	    0, NULL) != 0 || cpc_set_add_request(cpc, set, "page-faults", 0,
	    SMPL, 1, &a) != 1 || (b = cpc_buf_create(cpc, set)) == NULL) {
		tap_ok(0, "a set of a counting and a SMPL request (%s)",
		    errmsg);
		return;
	}
	tap_ok(cpc_buf_smpl_rec_count(cpc, b, 0, &n) == -1 &&
	    errno == EINVAL && n == 99, "rec_count of a counting request: "
	    "EINVAL");
	tap_ok(cpc_buf_smpl_rec_count(cpc, b, 2, &n) == -1 &&
	    errno == EINVAL, "rec_count of request 2 of 2: EINVAL");
	tap_ok(cpc_buf_smpl_rec_count(cpc, b, 1, &n) == 0 && n == 0,
	    "a new buffer holds no records");
	tap_ok(cpc_buf_smpl_get_record(cpc, b, 1, 0) == NULL &&
	    errno == EINVAL, "record 0 of none: NULL, EINVAL");
	tap_ok(cpc_buf_smpl_get_item(cpc, b, 1, 0, CPC_SMPL_ITEM_PC, &v) ==
	    -1 && errno == EINVAL, "an item of no record: EINVAL");
	tap_ok(cpc_buf_smpl_lost(cpc, b, 0, &v) == -1 && errno == EINVAL &&
	    cpc_buf_smpl_lost(cpc, b, 1, &v) == 0 && v == 0,
	    "lost: EINVAL for a counting request, 0 in a new buffer");
	tap_ok(cpc_set_sample(cpc, set, b) == -1 && errno == EINVAL,
	    "cpc_set_sample of an unbound set: EINVAL");
	cpc_set_destroy(cpc, set);
}

static void
walk_req(void *arg, int index, const char *event, uint64_t preset,
    uint_t flags, int nattrs, const cpc_attr_t *attrs)
{
	uint_t *f = arg;

	(void)event, (void)preset, (void)nattrs, (void)attrs;
	if (index < 2)
		f[index] = flags;
}

static void
count_name(void *arg, const char *name)
{
	const char **want = arg;

	for (; *want != NULL; want++)
		if (strcmp(*want, name) == 0)
			want[0] = "";	/* seen */
}

static void
count_all(void *arg, const char *name)
{
	int *n = arg;

	(void)name;
	(*n)++;
}

static void
walkers(void)
{
	const char *want[] = { "smpl_nrecs", "period", "callchain", "picnum",
	    NULL };
	const char *ev[] = { "page-faults", "cpu-clock", NULL };
	cpc_attr_t a = { "smpl_nrecs", 4 };
	cpc_set_t *set = cpc_set_create(cpc);
	uint_t f[2] = { 0, 0 }, max2 = 0;
	int i, seen = 1, nall = 0, ncommon = 0;

	cpc_walk_attrs_common(cpc, want, count_name);
	for (i = 0; want[i] != NULL; i++)
		seen &= want[i][0] == '\0';
	tap_ok(seen, "cpc_walk_attrs_common names smpl_nrecs, period, "
	    "callchain and picnum");
	cpc_walk_events_all_common(cpc, ev, count_name);
	tap_ok(ev[0][0] == '\0' && ev[1][0] == '\0', "cpc_walk_events_all_"
	    "common names page-faults and cpu-clock");
	cpc_walk_events_all(cpc, &nall, count_all);
	cpc_walk_events_all_common(cpc, &ncommon, count_all);
	tap_ok(ncommon > 0 && ncommon <= nall, "the events a SMPL request "
	    "takes are among those a counting request takes (%d of %d)",
	    ncommon, nall);
	tap_ok(cpc_get_max_smpl_rec_count(cpc, &max2) == 0 &&
	    max2 == maxrecs && cpc_get_smpl_max_rec_count(cpc, NULL) == -1 &&
	    errno == EINVAL, "cpc_get_max_smpl_rec_count is the same call");
	if (cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER,
	    0, NULL) == 0 && cpc_set_add_request(cpc, set, "page-faults", 0,
	    SMPL, 1, &a) == 1)
		cpc_walk_requests(cpc, set, f, walk_req);
	tap_ok(f[0] == CPC_COUNT_USER && f[1] == SMPL, "cpc_walk_requests "
	    "shows CPC_HW_SMPL on the SMPL request only (%#x, %#x)", f[0],
	    f[1]);
	cpc_set_destroy(cpc, set);
}

int
main(void)
{
	int rc;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	cpc_seterrhndlr(cpc, keep_errmsg);
	rc = cpc_get_smpl_max_rec_count(cpc, &maxrecs);
	tap_ok(rc == 0 && maxrecs >= 1000, "cpc_get_smpl_max_rec_count: %u",
	    maxrecs);
	bad_requests();
	bad_counting();
	bad_binds();
	bad_reads();
	walkers();
	cpc_close(cpc);
	return tap_done();
}
