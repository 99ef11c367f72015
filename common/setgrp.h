/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * setgrp.h - a ring of sets (one per -c) bound to one target, and the
 * sampling arithmetic both tools share: every sample is turned into a
 * delta against the previous one and added to the set's total, here and
 * nowhere else.
 */
#ifndef SETGRP_H
#define SETGRP_H

#include <libcpc.h>

#include "strtoset.h"

struct smpl;

struct setgrp_elem {
	const struct spec	*se_spec;
	cpc_set_t		*se_set;
	int			 se_nreqs;	/* requests, sampling ones too */
	int			 se_smpl;	/* first sampling one, or -1 */
	cpc_buf_t		*se_start;	/* sampling: prev at the start */
	cpc_buf_t		*se_prev;	/* last sample since bind */
	cpc_buf_t		*se_cur;	/* this sample */
	cpc_buf_t		*se_delta;	/* cur - prev */
	cpc_buf_t		*se_total;	/* sum of deltas */
	unsigned long		 se_nsamples;
};

struct setgrp {
	cpc_t			*sg_cpc;
	int			 sg_n;
	int			 sg_cur;
	struct setgrp_elem	*sg_elems;
	struct smpl		*sg_smpl;	/* -S, or NULL */
};

/* One set per spec; NULL with the reason in errh_last(). */
struct setgrp	*setgrp_create(cpc_t *cpc, const struct spec *specs, int n);
/*
 * sp's set with sm's sampling requests after its own (sm NULL: none);
 * *first gets the first one's index, or -1.  NULL, errh_last() says why.
 */
cpc_set_t	*setgrp_build(cpc_t *cpc, const struct spec *sp,
		    struct smpl *sm, int *first);
/*
 * The same with sm's sampling requests added to every set; each sample
 * then hands their records to smpl_take (and samples again while the
 * buffer came back full), and a set's values after its counting
 * requests' are the records each sampling request took.
 */
struct setgrp	*setgrp_create_smpl(cpc_t *cpc, const struct spec *specs,
		    int n, struct smpl *sm);
/*
 * The same, each set a copy of tmpl[i], which setgrp_build made from
 * specs[i] and sm: nothing is resolved again (one setgrp per thread).
 */
struct setgrp	*setgrp_create_like(cpc_t *cpc, const struct spec *specs,
		    int n, struct smpl *sm, cpc_set_t *const *tmpl);
void		 setgrp_destroy(struct setgrp *sg);
struct setgrp_elem *setgrp_cur(struct setgrp *sg);
/* Advance to the next set of the ring (cyclically) and return it. */
struct setgrp_elem *setgrp_next(struct setgrp *sg);
/* Make set i (0 <= i, taken cyclically) the current one and return it. */
struct setgrp_elem *setgrp_select(struct setgrp *sg, int i);
/* The element's set was just bound: its counters start from zero. */
void		 setgrp_bound(struct setgrp *sg, struct setgrp_elem *e);
/* Sample e's bound set: se_delta = this - previous; total += delta. */
int		 setgrp_sample(struct setgrp *sg, struct setgrp_elem *e);

#endif
