/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplset.h - the sets of a sampling run: each -c set with the -S
 * requests after its own, and rings of them (setgrp.h) whose samples
 * hand their records to smpl_take.
 */
#ifndef SMPLSET_H
#define SMPLSET_H

#include <libcpc.h>

#include "setgrp.h"
#include "smpl.h"
#include "strtoset.h"

/*
 * sp's set with sm's sampling requests after its own (sm NULL: none);
 * *first gets the first one's index, or -1.  NULL, errh_last() says why.
 */
cpc_set_t	*smpl_set_build(cpc_t *cpc, const struct spec *sp,
		    struct smpl *sm, int *first);
/*
 * A ring of the sets of specs (n), each with sm's sampling requests
 * (sm NULL: none), whose samples hand the records to smpl_take (and
 * sample again while the buffer came back full).  tmpl, when not NULL,
 * holds the sets smpl_set_build made from specs and sm: they are copied,
 * nothing is resolved again.  NULL, errh_last() says why.
 */
struct setgrp	*smpl_setgrp_create(cpc_t *cpc, const struct spec *specs,
		    int n, struct smpl *sm, cpc_set_t *const *tmpl);

#endif
