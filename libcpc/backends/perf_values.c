/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_values.c - a perf group read made the requests' values: the
 * counts less those at the bind, derived requests' differences, scaling
 * when time-shared.  perf.c reads the group; perf_lwpev.c makes the same
 * shape of an ended thread's READ records.
 */
#include "config.h"

#include "backend.h"
#include "perf_ctx.h"
#include "perf_lwpev.h"

/*
 * The requests' values from a group read's shape rb (nr, enabled and
 * running ns, then per event in open order its value and id), less base
 * (per event; NULL: nothing), scaled when rb's times say time-shared.
 */
void
cpc_perf_values(const struct perf_ctx *pc, const uint64_t *rb,
    const uint64_t *base, uint64_t *vals, int *scaled)
{
	const cpc_set_t *set = pc->pc_cx.cx_set;
	uint64_t ena = rb[1] - (base != NULL ? pc->pc_ena0 : 0);
	uint64_t run = rb[2] - (base != NULL ? pc->pc_run0 : 0);
	int i, d;

	/* 1: time-shared; 3: never had a counter (the values are 0). */
	*scaled = run < ena ? (run == 0 ? 3 : 1) : 0;
	for (i = 0, d = set->cs_nreqs - set->cs_nsmpl; i < set->cs_nreqs;
	    i++) {
		int pos = pc->pc_pos[i];
		uint64_t v;

		if (pos < 0)
			continue;	/* SMPL: bind.c counts its records */
		v = rb[3 + 2 * pos] - (base != NULL ? base[pos] : 0);

		/* A derived count; a difference of two never goes below 0. */
		if (set->cs_reqs[i].cr_ev.ev_derived) {
			uint64_t s = rb[3 + 2 * d] - (base != NULL ? base[d] :
			    0);

			d++;

			v = v > s ? v - s : 0;
		}

		/* Time-shared by the kernel: scale, and say so. */
		if (*scaled && run > 0)
			v = (uint64_t)((long double)v * ena / run);
		vals[i] = v;
	}
}
