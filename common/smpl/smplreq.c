/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplreq.c - the -S set as the options left it (struct smpl_opts) and
 * its SMPL requests (see smplreq.h).  The period a request samples at is the library's default
 * for the kind of event (1 for software events and tracepoints, 1 ms
 * for the clocks, which never go below libcpc's 100 us minimum) unless
 * the set says period=N.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpl.h"
#include "smplreq.h"

/* The value of attribute name in r, or def. */
static uint64_t
attr_of(const struct spec_req *r, const char *name, uint64_t def)
{
	uint_t k;

	for (k = 0; k < r->sr_nattrs; k++)
		if (strcmp(r->sr_attrs[k].ca_name, name) == 0)
			return r->sr_attrs[k].ca_val;
	return def;
}

unsigned
smplreq_nrecs(cpc_t *cpc, const struct spec *sp, int i, int chain)
{
	cpc_uint_t max = 0;
	unsigned n = chain ? SMPLREQ_NRECS_CHAIN : SMPLREQ_NRECS;

	if (cpc_get_smpl_max_rec_count(cpc, &max) == 0 && max > 0 && max < n)
		n = max;
	return (unsigned)attr_of(&sp->sp_reqs[i], "smpl_nrecs", n);
}

uint64_t
smplreq_period(const struct spec *sp, int i)
{
	return attr_of(&sp->sp_reqs[i], "period", 0);
}

int
smplreq_add(cpc_t *cpc, const struct spec *sp, int chain, cpc_set_t *set)
{
	cpc_attr_t attrs[SPEC_MAXATTR + 2];
	int i, idx, first = -1;
	uint_t n;

	for (i = 0; i < sp->sp_nreqs; i++) {
		const struct spec_req *r = &sp->sp_reqs[i];

		n = r->sr_nattrs;
		memcpy(attrs, r->sr_attrs, n * sizeof(*attrs));
		if (attr_of(r, "smpl_nrecs", UINT64_MAX) == UINT64_MAX) {
			attrs[n].ca_name = "smpl_nrecs";
			attrs[n++].ca_val = smplreq_nrecs(cpc, sp, i, chain);
		}
		if (chain && attr_of(r, "callchain", UINT64_MAX) ==
		    UINT64_MAX) {
			attrs[n].ca_name = "callchain";
			attrs[n++].ca_val = 1;
		}
		idx = cpc_set_add_request(cpc, set, r->sr_event, 0,
		    r->sr_flags | CPC_HW_SMPL, n, attrs);
		if (idx < 0)
			return -1;
		if (first < 0)
			first = idx;
	}
	return first;
}

int
smpl_on(const struct smpl_opts *so)
{
	return so->so_text != NULL;
}

int
smpl_nreqs(const struct smpl_opts *so)
{
	return so->so_text != NULL ? so->so_spec.sp_nreqs : 0;
}

const struct spec *
smpl_spec(const struct smpl_opts *so)
{
	return so->so_text != NULL ? &so->so_spec : NULL;
}

int
smpl_empty_spec(struct spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	return (sp->sp_text = strdup("")) == NULL ? -1 : 0;
}

void
smpl_opts_free(struct smpl_opts *so)
{
	if (so->so_text != NULL)
		spec_free(&so->so_spec);
}
