/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smpl.c - hardware sampling (SMPL) requests, the Solaris 11 interface:
 * their attributes (smpl_nrecs, period, callchain), the records a buffer
 * holds for them, and the calls that read those records.  The kernel side
 * (a sampling event and its ring per request) is the backend's
 * (backends/perf_smpl.c); bind.c opens, starts and stops it with the
 * counting group.  libcpc.h states the contract.
 *
 * period= is also the overflow period of a counting request with
 * CPC_OVF_NOTIFY_EMT: it becomes the preset 2^64 - period.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* The attributes this file takes; the catalogue sees the others. */
static const char *const smpl_attrs[] = { "smpl_nrecs", "period",
    "callchain" };
#define NSMPL_ATTRS	(sizeof(smpl_attrs) / sizeof(*smpl_attrs))

int
cpc_smpl_attr(const char *name)
{
	size_t i;

	for (i = 0; i < NSMPL_ATTRS; i++)
		if (strcmp(name, smpl_attrs[i]) == 0)
			return 1;
	return 0;
}

/* The value of attribute name (its last one), or -1 when absent. */
static int
attr_of(const struct cpc_request *r, const char *name, uint64_t *val)
{
	int found = -1;
	uint_t i;

	for (i = 0; i < r->cr_nattrs; i++)
		if (strcmp(r->cr_attrs[i].ca_name, name) == 0) {
			*val = r->cr_attrs[i].ca_val;
			found = 0;
		}
	return found;
}

static int
inval(void)
{
	errno = EINVAL;
	return -1;
}

/* period= on a counting request: the overflow period. */
static int
counting_period(cpc_t *cpc, const char *fn, struct cpc_request *r)
{
	uint64_t v;

	if (attr_of(r, "smpl_nrecs", &v) == 0 ||
	    attr_of(r, "callchain", &v) == 0) {
		cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "'%s': smpl_nrecs and "
		    "callchain are attributes of sampling requests "
		    "(CPC_HW_SMPL)", r->cr_event);
		return inval();
	}
	if (attr_of(r, "period", &v) != 0)
		return 0;
	if (!(r->cr_flags & CPC_OVF_NOTIFY_EMT)) {
		cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "'%s': period=%llu "
		    "on a counting request is its overflow period, and needs "
		    "CPC_OVF_NOTIFY_EMT", r->cr_event, (unsigned long long)v);
		return inval();
	}
	if (v == 0 || v > (uint64_t)INT64_MAX) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "'%s': period "
		    "%llu out of range (1 to 2^63 - 1)", r->cr_event,
		    (unsigned long long)v);
		return inval();
	}
	if (r->cr_preset != 0 && r->cr_preset != 0 - v) {
		cpc_err(cpc, fn, CPC_CONFLICTING_REQS, "'%s': preset %#llx "
		    "and period=%llu disagree: give one of them",
		    r->cr_event, (unsigned long long)r->cr_preset,
		    (unsigned long long)v);
		return inval();
	}
	r->cr_preset = 0 - v;
	r->cr_hasperiod = 1;
	return 0;
}

/* Events between two records when the request names none. */
static uint64_t
default_period(const struct cpc_request *r, uint64_t min)
{
	if (min > 0)
		return min > 1000000 ? min : 1000000;	/* a clock: 1 ms */
	return r->cr_ev.ev_hw ? 100003 : 1;
}

static int
smpl_nrecs(cpc_t *cpc, const char *fn, struct cpc_request *r)
{
	uint_t max = cpc->c_sbe->sb_max_recs();
	uint64_t v;

	if (attr_of(r, "smpl_nrecs", &v) != 0) {
		cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE, "'%s': a sampling "
		    "request (CPC_HW_SMPL) needs the attribute smpl_nrecs, "
		    "the records one sample holds (1 to %u)", r->cr_event,
		    max);
		return inval();
	}
	if (v == 0 || v > max) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "'%s': "
		    "smpl_nrecs %llu out of range (1 to %u here: "
		    "cpc_get_smpl_max_rec_count)", r->cr_event,
		    (unsigned long long)v, max);
		return inval();
	}
	r->cr_nrecs = (uint_t)v;
	return 0;
}

static int
smpl_period(cpc_t *cpc, const char *fn, struct cpc_request *r)
{
	uint64_t min = cpc->c_be->be_min_period(&r->cr_ev), v;

	if (attr_of(r, "period", &v) != 0)
		v = default_period(r, min);
	if (v == 0 || v > (uint64_t)INT64_MAX) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "'%s': period "
		    "%llu out of range (1 to 2^63 - 1 events between two "
		    "records)", r->cr_event, (unsigned long long)v);
		return inval();
	}
	if (v < min) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "'%s': period "
		    "%llu is too short: this kernel cannot take a record "
		    "every fewer than %llu of these events (an interrupt "
		    "storm stalls the CPU)", r->cr_event,
		    (unsigned long long)v, (unsigned long long)min);
		return inval();
	}
	r->cr_speriod = v;
	return 0;
}

static int
smpl_chain(cpc_t *cpc, const char *fn, struct cpc_request *r)
{
	uint_t max = cpc->c_sbe->sb_max_stack();
	uint64_t v = 0;

	(void)attr_of(r, "callchain", &v);
	if (v > max) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "'%s': callchain "
		    "%llu out of range (0 none, 1 the kernel's depth, or at "
		    "most %u frames: kernel.perf_event_max_stack)",
		    r->cr_event, (unsigned long long)v, max);
		return inval();
	}
	r->cr_chain = (uint_t)v;
	r->cr_recw = CPC_SMPL_ITEM_FRAMES +
	    (v == 0 ? 0 : v == 1 ? max : (uint_t)v);
	return 0;
}

int
cpc_smpl_request(cpc_t *cpc, const char *fn, struct cpc_request *r)
{
	if (!(r->cr_flags & CPC_HW_SMPL))
		return counting_period(cpc, fn, r);
	if (cpc->c_cpconly) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "'%s': a sampling "
		    "request (CPC_HW_SMPL) needs a handle opened with "
		    "CPC_VER_CURRENT; this one was opened with "
		    "CPC_VER_CPC_ONLY (counting only)", r->cr_event);
		return inval();
	}
	if (r->cr_preset != 0) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS, "'%s': a sampling "
		    "request (CPC_HW_SMPL) takes no preset (%#llx): the "
		    "attribute period sets the events between two records",
		    r->cr_event, (unsigned long long)r->cr_preset);
		return inval();
	}
	if (r->cr_ev.ev_derived) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "'%s' counts the "
		    "difference of two counters: it cannot be sampled",
		    r->cr_event);
		return inval();
	}
	if (smpl_nrecs(cpc, fn, r) != 0 || smpl_period(cpc, fn, r) != 0 ||
	    smpl_chain(cpc, fn, r) != 0)
		return -1;
	/* The signal comes after smpl_nrecs * period events. */
	if ((r->cr_flags & CPC_OVF_NOTIFY_EMT) &&
	    r->cr_speriod > (uint64_t)INT64_MAX / r->cr_nrecs) {
		cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE, "'%s': "
		    "smpl_nrecs %u times period %llu is over 2^63 events: "
		    "the signal would never come", r->cr_event, r->cr_nrecs,
		    (unsigned long long)r->cr_speriod);
		return inval();
	}
	r->cr_smpl = 1;
	return 0;
}

/* ---- the records in buffers ---- */

int
cpc_smpl_buf_init(cpc_buf_t *buf, const cpc_set_t *set)
{
	int k;

	buf->cb_smpl = NULL;
	if (set->cs_nsmpl == 0)
		return 0;
	if ((buf->cb_smpl = calloc(set->cs_nreqs, sizeof(*buf->cb_smpl))) ==
	    NULL)
		return -1;
	for (k = 0; k < set->cs_nreqs; k++) {
		const struct cpc_request *r = &set->cs_reqs[k];
		struct cpc_bufsmpl *bs = &buf->cb_smpl[k];

		if (!r->cr_smpl)
			continue;
		bs->bs_cap = r->cr_nrecs;
		bs->bs_recw = r->cr_recw;
		bs->bs_recs = malloc((size_t)bs->bs_cap * bs->bs_recw *
		    sizeof(uint64_t));
		if (bs->bs_recs == NULL) {
			cpc_smpl_buf_free(buf);
			errno = ENOMEM;
			return -1;
		}
		/*
		 * Written now, so that moving records in never faults a page
		 * in (page-faults samples would see the library's own).
		 */
		memset(bs->bs_recs, 0, (size_t)bs->bs_cap * bs->bs_recw *
		    sizeof(uint64_t));
	}
	return 0;
}

void
cpc_smpl_buf_free(cpc_buf_t *buf)
{
	int k;

	if (buf->cb_smpl == NULL)
		return;
	for (k = 0; k < buf->cb_nreqs; k++)
		free(buf->cb_smpl[k].bs_recs);
	free(buf->cb_smpl);
	buf->cb_smpl = NULL;
}

/* buf was made for a set whose SMPL requests were these. */
static int
same_records(const cpc_buf_t *buf, const cpc_set_t *set)
{
	int k;

	for (k = 0; k < set->cs_nreqs; k++) {
		const struct cpc_request *r = &set->cs_reqs[k];

		if (!r->cr_smpl)
			continue;
		if (buf->cb_smpl == NULL ||
		    buf->cb_smpl[k].bs_cap != r->cr_nrecs ||
		    buf->cb_smpl[k].bs_recw != r->cr_recw)
			return 0;
	}
	return 1;
}

int
cpc_smpl_sample(cpc_t *cpc, struct cpc_ctx *cx, cpc_buf_t *buf)
{
	const cpc_set_t *set = cx->cx_set;
	int k;

	if (set->cs_nsmpl == 0)
		return 0;
	if (!same_records(buf, set) || cx->cx_smpl == NULL) {
		cpc_err(cpc, "cpc_set_sample", -1, "the buffer was not "
		    "created for this set's sampling requests");
		return inval();
	}
	for (k = 0; k < set->cs_nreqs; k++) {
		const struct cpc_smpl *sm = &cx->cx_smpl[k];

		if (!set->cs_reqs[k].cr_smpl)
			continue;
		if (cpc->c_sbe->sb_read(cpc, cx, k, &buf->cb_smpl[k]) != 0)
			return -1;
		/* Records taken since the bind, lost ones included. */
		buf->cb_vals[k] = sm->sm_taken + sm->sm_lost;
	}
	return 0;
}

void
cpc_smpl_buf_copy(cpc_buf_t *ds, const cpc_buf_t *src)
{
	int k;

	if (ds->cb_smpl == NULL || src->cb_smpl == NULL)
		return;
	for (k = 0; k < ds->cb_nreqs; k++) {
		struct cpc_bufsmpl *d = &ds->cb_smpl[k];
		const struct cpc_bufsmpl *s = &src->cb_smpl[k];

		if (d->bs_cap != s->bs_cap || d->bs_recw != s->bs_recw)
			continue;
		d->bs_n = s->bs_n;
		d->bs_lost = s->bs_lost;
		if (s->bs_n > 0)
			memcpy(d->bs_recs, s->bs_recs, (size_t)s->bs_n *
			    s->bs_recw * sizeof(uint64_t));
	}
}

void
cpc_smpl_buf_zero(cpc_buf_t *buf)
{
	int k;

	for (k = 0; buf->cb_smpl != NULL && k < buf->cb_nreqs; k++) {
		buf->cb_smpl[k].bs_n = 0;
		buf->cb_smpl[k].bs_lost = 0;
	}
}

/* ---- the calls ---- */

/* Request request_index's records in buf, or NULL with EINVAL. */
static struct cpc_bufsmpl *
records(cpc_t *cpc, cpc_buf_t *buf, int request_index)
{
	if (cpc == NULL || buf == NULL || !cpc_buf_owned(cpc, buf) ||
	    request_index < 0 || request_index >= buf->cb_nreqs ||
	    buf->cb_smpl == NULL ||
	    buf->cb_smpl[request_index].bs_recs == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return &buf->cb_smpl[request_index];
}

CPC_EXPORT int
cpc_get_smpl_max_rec_count(cpc_t *cpc, uint_t *max_rec_count)
{
	if (cpc == NULL || max_rec_count == NULL)
		return inval();
	*max_rec_count = cpc->c_sbe->sb_max_recs();
	return 0;
}

CPC_EXPORT int
cpc_get_max_smpl_rec_count(cpc_t *cpc, uint_t *max_rec_count)
{
	return cpc_get_smpl_max_rec_count(cpc, max_rec_count);
}

CPC_EXPORT int
cpc_buf_smpl_rec_count(cpc_t *cpc, cpc_buf_t *buf, int request_index,
    uint_t *rec_count)
{
	struct cpc_bufsmpl *bs = records(cpc, buf, request_index);

	if (bs == NULL || rec_count == NULL)
		return inval();
	*rec_count = bs->bs_n;
	return 0;
}

CPC_EXPORT uint64_t *
cpc_buf_smpl_get_record(cpc_t *cpc, cpc_buf_t *buf, int request_index,
    int record_index)
{
	struct cpc_bufsmpl *bs = records(cpc, buf, request_index);

	if (bs == NULL || record_index < 0 || (uint_t)record_index >= bs->bs_n) {
		errno = EINVAL;
		return NULL;
	}
	return bs->bs_recs + (size_t)record_index * bs->bs_recw;
}

CPC_EXPORT int
cpc_buf_smpl_get_item(cpc_t *cpc, cpc_buf_t *buf, int request_index,
    int record_index, int record_item_index, uint64_t *val)
{
	uint64_t *rec = cpc_buf_smpl_get_record(cpc, buf, request_index,
	    record_index);

	if (rec == NULL || val == NULL || record_item_index < 0 ||
	    (uint64_t)record_item_index >= CPC_SMPL_ITEM_FRAMES +
	    rec[CPC_SMPL_ITEM_NFRAMES])
		return inval();
	*val = rec[record_item_index];
	return 0;
}

CPC_EXPORT int
cpc_buf_smpl_lost(cpc_t *cpc, cpc_buf_t *buf, int request_index,
    uint64_t *lost)
{
	struct cpc_bufsmpl *bs = records(cpc, buf, request_index);

	if (bs == NULL || lost == NULL)
		return inval();
	*lost = bs->bs_lost;
	return 0;
}

/* The attributes of SMPL requests (after cpc_walk_attrs's). */
void
cpc_smpl_walk_attrs(void *arg, void (*fn)(void *arg, const char *attr))
{
	size_t i;

	for (i = 0; i < NSMPL_ATTRS; i++)
		fn(arg, smpl_attrs[i]);
}
