/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * setgrp.c - the delta core: rings of sets and the shared delta/total
 * arithmetic (setgrp.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errh.h"
#include "setgrp.h"

/* Samples of one interval, at most, while the buffer comes back full. */
#define MAXDRAIN	64

/*
 * tmpl, when not NULL, is sp's set with the drain's sampling requests
 * (if any) after sp's own: its requests are copied, not resolved again.
 */
static int
elem_init(cpc_t *cpc, struct setgrp_elem *e, const struct spec *sp,
    const struct setgrp_drain *dr, const cpc_set_t *tmpl)
{
	e->se_spec = sp;
	e->se_smpl = -1;
	if (tmpl != NULL)
		e->se_set = spec_build_like(cpc, tmpl);
	else
		e->se_set = spec_build(cpc, sp);
	if (e->se_set == NULL)
		return -1;
	e->se_nreqs = sp->sp_nreqs;
	if (dr != NULL) {
		e->se_smpl = sp->sp_nreqs;
		e->se_nreqs = e->se_smpl + dr->sd_nreqs;
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
	return setgrp_create_like(cpc, specs, n, NULL, NULL);
}

struct setgrp *
setgrp_create_like(cpc_t *cpc, const struct spec *specs, int n,
    const struct setgrp_drain *dr, cpc_set_t *const *tmpl)
{
	struct setgrp *sg;
	int i;

	/* Only a template carries the sampling requests. */
	if (dr != NULL && tmpl == NULL) {
		errh_set("sampling sets need templates");
		return NULL;
	}
	if ((sg = calloc(1, sizeof(*sg))) == NULL ||
	    (sg->sg_elems = calloc(n, sizeof(*sg->sg_elems))) == NULL) {
		free(sg);
		errh_set("out of memory");
		return NULL;
	}
	sg->sg_cpc = cpc;
	sg->sg_n = n;
	if (dr != NULL)
		sg->sg_drain = *dr;
	for (i = 0; i < n; i++)
		if (elem_init(cpc, &sg->sg_elems[i], &specs[i], dr,
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
 * A set with sampling requests: its records go to the drain after each
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
		more = sg->sg_drain.sd_take(sg->sg_drain.sd_arg, e->se_smpl,
		    e->se_prev);
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
