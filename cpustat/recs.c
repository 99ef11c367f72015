/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * recs.c - the records' pool (recs.h).  Only the CPU thread takes from
 * its pool, and it takes every record handed back at once (an exchange),
 * so the lock-free list has no ABA problem: a record cannot leave rp_back
 * and come back while a push reads it.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "recs.h"

struct rec *
rec_get(struct recpool *rp)
{
	struct rec *r;

	if (rp->rp_own == NULL)
		rp->rp_own = atomic_exchange(&rp->rp_back, NULL);
	if ((r = rp->rp_own) != NULL)
		rp->rp_own = r->r_next;
	else if ((r = malloc(sizeof(*r))) == NULL)
		abort();	/* cannot even report: nothing sane left */
	memset(r, 0, offsetof(struct rec, r_msg));
	r->r_msg[0] = '\0';
	return r;
}

void
rec_put(struct recpool *rp, struct rec *r)
{
	struct rec *last = r;

	if (r == NULL)
		return;
	while (last->r_next != NULL)
		last = last->r_next;
	last->r_next = atomic_load(&rp->rp_back);
	while (!atomic_compare_exchange_weak(&rp->rp_back, &last->r_next, r))
		;
}

static void
free_list(struct rec *r)
{
	struct rec *next;

	for (; r != NULL; r = next) {
		next = r->r_next;
		free(r);
	}
}

void
rec_pool_free(struct recpool *rp)
{
	free_list(atomic_exchange(&rp->rp_back, NULL));
	free_list(rp->rp_own);
	rp->rp_own = NULL;
}
