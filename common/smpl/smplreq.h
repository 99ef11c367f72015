/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplreq.h - the -S set's requests (parsed by spec_parse_common, in
 * the -c grammar with the attributes a SMPL request takes), added to a
 * set as CPC_HW_SMPL requests.
 */
#ifndef SMPLREQ_H
#define SMPLREQ_H

#include <stddef.h>
#include <stdint.h>
#include <libcpc.h>

#include "strtoset.h"

/* Records one cpc_set_sample hands over per request, unless -S says. */
#define SMPLREQ_NRECS		4096
#define SMPLREQ_NRECS_CHAIN	1024	/* with call chains (bigger) */

/*
 * Add sp's requests to set as SMPL requests (smpl_nrecs and, with
 * chain, callchain=1 unless sp sets them): the first one's index, or -1
 * with errno and the reason through the handler.
 */
int	smplreq_add(cpc_t *cpc, const struct spec *sp, int chain,
	    cpc_set_t *set);
/* The smpl_nrecs request i of sp is added with. */
unsigned smplreq_nrecs(cpc_t *cpc, const struct spec *sp, int i,
	    int chain);
/* The period=N request i of sp names, or 0 (the library's default). */
uint64_t smplreq_period(const struct spec *sp, int i);

#endif
