/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplset.c - the sets of a sampling run (smplset.h): the delta core
 * (setgrp) drains their records into smpl_take through a setgrp_drain,
 * so that it never calls into sampling itself.
 */
#include "config.h"

#include <stdlib.h>

#include "errh.h"
#include "smplset.h"

cpc_set_t *
smpl_set_build(cpc_t *cpc, const struct spec *sp, struct smpl *sm,
    int *first)
{
	cpc_set_t *set;

	*first = -1;
	if ((set = spec_build(cpc, sp)) == NULL)
		return NULL;
	if (sm != NULL && (*first = smpl_add_requests(sm, set)) < 0) {
		cpc_set_destroy(cpc, set);
		return NULL;
	}
	return set;
}

static int
drain_to_smpl(void *arg, int first, cpc_buf_t *buf)
{
	return smpl_take(arg, first, buf);
}

/* The templates of specs with sm's requests, into tmpl (n); 0 or -1. */
static int
build_all(cpc_t *cpc, const struct spec *specs, int n, struct smpl *sm,
    cpc_set_t **tmpl)
{
	int i, first;

	for (i = 0; i < n; i++)
		if ((tmpl[i] = smpl_set_build(cpc, &specs[i], sm, &first)) ==
		    NULL)
			return -1;
	return 0;
}

struct setgrp *
smpl_setgrp_create(cpc_t *cpc, const struct spec *specs, int n,
    struct smpl *sm, cpc_set_t *const *tmpl)
{
	struct setgrp_drain dr = { 0, drain_to_smpl, sm };
	struct setgrp *sg = NULL;
	cpc_set_t **own;
	int i;

	if (sm == NULL)
		return setgrp_create_like(cpc, specs, n, NULL, tmpl);
	dr.sd_nreqs = smpl_count(sm);
	if (tmpl != NULL)
		return setgrp_create_like(cpc, specs, n, &dr, tmpl);
	if ((own = calloc(n, sizeof(*own))) == NULL) {
		errh_set("out of memory");
		return NULL;
	}
	if (build_all(cpc, specs, n, sm, own) == 0)
		sg = setgrp_create_like(cpc, specs, n, &dr, own);
	for (i = 0; i < n; i++)
		cpc_set_destroy(cpc, own[i]);
	free(own);
	return sg;
}
