/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * setgrp.h - the delta core: a ring of sets (one per -c) bound to one
 * target, and the sampling arithmetic both tools share: every sample is
 * turned into a delta against the previous one and added to the set's
 * total, here and nowhere else.
 *
 * Sets may carry sampling requests after their own (-S): their records
 * are handed to a drain after every sample.  The delta core knows
 * nothing of what the drain does with them (common/smpl fills it in).
 */
#ifndef SETGRP_H
#define SETGRP_H

#include <libcpc.h>

#include "strtoset.h"

/* Where the records of the sets' sampling requests go. */
struct setgrp_drain {
	int	  sd_nreqs;	/* sampling requests after each set's own */
	/*
	 * Read the records buf holds for the sampling requests from index
	 * first on: 1 when a request filled the buffer (more may wait in
	 * the kernel: the set is sampled again at once), else 0.
	 */
	int	(*sd_take)(void *arg, int first, cpc_buf_t *buf);
	void	 *sd_arg;
};

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
	struct setgrp_drain	 sg_drain;	/* sd_take NULL: none */
};

/* One set per spec; NULL with the reason in errh_last(). */
struct setgrp	*setgrp_create(cpc_t *cpc, const struct spec *specs, int n);
/*
 * The same, each set a copy of tmpl[i] (made from specs[i], with the
 * sampling requests of dr after its own when dr is not NULL; tmpl may be
 * NULL only without dr): nothing is resolved again (one setgrp per
 * thread).  Each sample then hands the
 * records to dr, and a set's values after its counting requests' are
 * the records each sampling request took.
 */
struct setgrp	*setgrp_create_like(cpc_t *cpc, const struct spec *specs,
		    int n, const struct setgrp_drain *dr,
		    cpc_set_t *const *tmpl);
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
