/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * setgrp.c - rings of sets and the shared delta/total arithmetic.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errh.h"
#include "setgrp.h"
#include "smpl.h"

/* Samples of one interval, at most, while the buffer comes back full. */
#define MAXDRAIN	64

cpc_set_t *
setgrp_build(cpc_t *cpc, const struct spec *sp, struct smpl *sm, int *first)
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

/*
 * tmpl, when not NULL, is the set setgrp_build made from sp and sm: its
 * requests are copied, the sampling ones after sp's as there.
 */
static int
elem_init(cpc_t *cpc, struct setgrp_elem *e, const struct spec *sp,
    struct smpl *sm, const cpc_set_t *tmpl)
{
	e->se_spec = sp;
	if (tmpl != NULL) {
		if ((e->se_set = spec_build_like(cpc, tmpl)) == NULL)
			return -1;
		e->se_smpl = sm != NULL ? sp->sp_nreqs : -1;
	} else if ((e->se_set = setgrp_build(cpc, sp, sm, &e->se_smpl)) ==
	    NULL)
		return -1;
	e->se_nreqs = sp->sp_nreqs;
	if (sm != NULL) {
		e->se_nreqs = e->se_smpl + smpl_count(sm);
		if ((e->se_start = cpc_buf_create(cpc, e->se_set)) == NULL) {
			errh_set("cannot create buffers: %s",
			    strerror(errno));
			return -1;
		}
	}
	e->se_prev = cpc_buf_create(cpc, e->se_set);
	e->se_cur = cpc_buf_create(cpc, e->se_set);
	e->se_delta = cpc_buf_create(cpc, e->se_set);
	e->se_total = cpc_buf_create(cpc, e->se_set);
	if (e->se_prev == NULL || e->se_cur == NULL || e->se_delta == NULL ||
	    e->se_total == NULL) {
		errh_set("cannot create buffers: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct setgrp *
setgrp_create(cpc_t *cpc, const struct spec *specs, int n)
{
	return setgrp_create_smpl(cpc, specs, n, NULL);
}

struct setgrp *
setgrp_create_smpl(cpc_t *cpc, const struct spec *specs, int n,
    struct smpl *sm)
{
	return setgrp_create_like(cpc, specs, n, sm, NULL);
}

struct setgrp *
setgrp_create_like(cpc_t *cpc, const struct spec *specs, int n,
    struct smpl *sm, cpc_set_t *const *tmpl)
{
	struct setgrp *sg;
	int i;

	if ((sg = calloc(1, sizeof(*sg))) == NULL ||
	    (sg->sg_elems = calloc(n, sizeof(*sg->sg_elems))) == NULL) {
		free(sg);
		errh_set("out of memory");
		return NULL;
	}
	sg->sg_cpc = cpc;
	sg->sg_n = n;
	sg->sg_smpl = sm;
	for (i = 0; i < n; i++)
		if (elem_init(cpc, &sg->sg_elems[i], &specs[i], sm,
		    tmpl != NULL ? tmpl[i] : NULL) != 0) {
			setgrp_destroy(sg);
			return NULL;
		}
	return sg;
}

void
setgrp_destroy(struct setgrp *sg)
{
	int i;

	if (sg == NULL)
		return;
	for (i = 0; i < sg->sg_n; i++) {
		struct setgrp_elem *e = &sg->sg_elems[i];

		cpc_buf_destroy(sg->sg_cpc, e->se_prev);
		cpc_buf_destroy(sg->sg_cpc, e->se_cur);
		cpc_buf_destroy(sg->sg_cpc, e->se_delta);
		cpc_buf_destroy(sg->sg_cpc, e->se_total);
		cpc_buf_destroy(sg->sg_cpc, e->se_start);
		cpc_set_destroy(sg->sg_cpc, e->se_set);
	}
	free(sg->sg_elems);
	free(sg);
}

struct setgrp_elem *
setgrp_cur(struct setgrp *sg)
{
	return &sg->sg_elems[sg->sg_cur];
}

struct setgrp_elem *
setgrp_next(struct setgrp *sg)
{
	return setgrp_select(sg, sg->sg_cur + 1);
}

struct setgrp_elem *
setgrp_select(struct setgrp *sg, int i)
{
	sg->sg_cur = i % sg->sg_n;
	return setgrp_cur(sg);
}

void
setgrp_bound(struct setgrp *sg, struct setgrp_elem *e)
{
	cpc_buf_zero(sg->sg_cpc, e->se_prev);
}

/*
 * A set with sampling requests: its records go to smpl_take after each
 * cpc_set_sample, and while a buffer comes back full the set is sampled
 * again at once, so that the kernel's ring is emptied.  The interval's
 * delta is then the last sample less the one before the first: se_start
 * keeps that one's counts (cpc_buf_add copies no records).
 */
static int
sample_records(struct setgrp *sg, struct setgrp_elem *e)
{
	cpc_t *cpc = sg->sg_cpc;
	cpc_buf_t *t;
	int round, more;

	cpc_buf_zero(cpc, e->se_start);
	cpc_buf_add(cpc, e->se_start, e->se_start, e->se_prev);
	for (round = 0; round < MAXDRAIN; round++) {
		if (cpc_set_sample(cpc, e->se_set, e->se_cur) != 0)
			return -1;
		t = e->se_prev;
		e->se_prev = e->se_cur;
		e->se_cur = t;
		more = smpl_take(sg->sg_smpl, e->se_smpl, e->se_prev);
		if (!more)
			break;
	}
	cpc_buf_sub(cpc, e->se_delta, e->se_prev, e->se_start);
	cpc_buf_add(cpc, e->se_total, e->se_total, e->se_delta);
	e->se_nsamples++;
	return 0;
}

int
setgrp_sample(struct setgrp *sg, struct setgrp_elem *e)
{
	cpc_t *cpc = sg->sg_cpc;
	cpc_buf_t *t;

	if (e->se_smpl >= 0)
		return sample_records(sg, e);
	if (cpc_set_sample(cpc, e->se_set, e->se_cur) != 0)
		return -1;
	cpc_buf_sub(cpc, e->se_delta, e->se_cur, e->se_prev);
	cpc_buf_add(cpc, e->se_total, e->se_total, e->se_delta);
	t = e->se_prev;
	e->se_prev = e->se_cur;
	e->se_cur = t;
	e->se_nsamples++;
	return 0;
}
