/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * handle.c - what every object file asks of the handle: its error
 * handler, the platform's facts (worked out once), and whether a set or
 * a buffer is one of its own.  The bottom of the API layer: it calls
 * only the platform below it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cpc_impl.h"

/*
 * Report through the handle's handler (platform/report.c says how);
 * errno is preserved.
 */
void
cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cpc_vreport(cpc != NULL ? cpc->c_errfn : NULL, fn, subcode, fmt, ap);
	va_end(ap);
}

/* The processor's description and counters, worked out once. */
const struct cpc_platform *
cpc_platform(cpc_t *cpc)
{
	pthread_mutex_lock(&cpc->c_lock);
	if (!cpc->c_described) {
		cpc->c_pf.pf_hwpmu = cpc->c_hwpmu;
		cpc->c_pf.pf_msr = cpc->c_msr != CPC_MSR_NONE;
		cpc_platform_describe(&cpc->c_pf);
		cpc->c_described = 1;
	}
	pthread_mutex_unlock(&cpc->c_lock);
	return &cpc->c_pf;
}

/* The vendor, probed once with the rest (a bind asks: no CPUID then). */
enum cpc_vendor
cpc_vendor(cpc_t *cpc)
{
	return cpc_platform(cpc)->pf_vendor;
}

/*
 * The object tables.  Linear probing from a hash of the address; a
 * deleted slot keeps its probe chains whole until the table is rebuilt,
 * which happens when objects and deleted slots fill three quarters of
 * it.
 *
 * The hash keeps neighbours together: the objects of one kilobyte of
 * memory (a multiplicative hash of the address's kilobyte) share a run
 * of 16 slots, two cache lines, each at its 64-byte line's place in the
 * run.  A thread's set and buffers, made one after the other, are mostly
 * in one kilobyte: cputrack's attach and detach of thousands of threads
 * then touch a line or two of the table per thread, not one per object
 * (each a cache miss: a fifth of its user time at 4000 threads).
 * Objects are larger than 64 bytes, so those of a kilobyte do not
 * collide.
 */
#define OT_EMPTY	((uintptr_t)0)
#define OT_DELETED	((uintptr_t)1)
#define OT_RUN		16

static size_t
ot_home(const struct cpc_objtab *t, uintptr_t key)
{
	size_t run;

	/* A table has 16 slots at least (ot_grow): a run fits in it. */
	run = (size_t)(((uint64_t)(key >> 10) * 0x9e3779b97f4a7c15ULL) >>
	    (64 - t->ot_bits));
	return (run & ~(size_t)(OT_RUN - 1)) | ((key >> 6) & (OT_RUN - 1));
}

/* The slot of key, or of the empty slot that ends its chain. */
static size_t
ot_find(const struct cpc_objtab *t, uintptr_t key)
{
	size_t mask = ((size_t)1 << t->ot_bits) - 1, i = ot_home(t, key);

	while (t->ot_slot[i] != OT_EMPTY && t->ot_slot[i] != key)
		i = (i + 1) & mask;
	return i;
}

static int
ot_grow(struct cpc_objtab *t)
{
	struct cpc_objtab n = { .ot_bits = t->ot_bits < 4 ? 4 : t->ot_bits };
	size_t i;

	while (((size_t)1 << n.ot_bits) < 4 * (t->ot_n + 1))
		n.ot_bits++;
	if ((n.ot_slot = calloc((size_t)1 << n.ot_bits,
	    sizeof(*n.ot_slot))) == NULL)
		return -1;
	for (i = 0; t->ot_bits > 0 && i < ((size_t)1 << t->ot_bits); i++)
		if (t->ot_slot[i] > OT_DELETED) {
			n.ot_slot[ot_find(&n, t->ot_slot[i])] = t->ot_slot[i];
			n.ot_n++;
		}
	n.ot_used = n.ot_n;
	free(t->ot_slot);
	*t = n;
	return 0;
}

int
cpc_objtab_add(struct cpc_objtab *t, void *obj)
{
	if (4 * (t->ot_used + 1) > 3 * ((size_t)1 << t->ot_bits) ||
	    t->ot_bits == 0) {
		if (ot_grow(t) != 0)
			return -1;
	}
	t->ot_slot[ot_find(t, (uintptr_t)obj)] = (uintptr_t)obj;
	t->ot_n++;
	t->ot_used++;
	return 0;
}

static int
ot_has(const struct cpc_objtab *t, const void *obj)
{
	return t->ot_bits > 0 && obj != NULL &&
	    t->ot_slot[ot_find(t, (uintptr_t)obj)] == (uintptr_t)obj;
}

/* 1 when obj was in the table (and is not any more), else 0. */
int
cpc_objtab_del(struct cpc_objtab *t, void *obj)
{
	size_t i;

	if (t->ot_bits == 0 || obj == NULL ||
	    t->ot_slot[i = ot_find(t, (uintptr_t)obj)] != (uintptr_t)obj)
		return 0;
	t->ot_slot[i] = OT_DELETED;
	t->ot_n--;
	return 1;
}

/* The objects one after another from *pos = 0; NULL after the last. */
void *
cpc_objtab_next(const struct cpc_objtab *t, size_t *pos)
{
	for (; t->ot_bits > 0 && *pos < ((size_t)1 << t->ot_bits); (*pos)++)
		if (t->ot_slot[*pos] > OT_DELETED)
			return (void *)t->ot_slot[(*pos)++];
	return NULL;
}

void
cpc_objtab_free(struct cpc_objtab *t)
{
	free(t->ot_slot);
	memset(t, 0, sizeof(*t));
}

int
cpc_set_owned(cpc_t *cpc, cpc_set_t *set)
{
	int r;

	pthread_mutex_lock(&cpc->c_lock);
	r = ot_has(&cpc->c_sets, set);
	pthread_mutex_unlock(&cpc->c_lock);
	return r;
}

int
cpc_buf_owned(cpc_t *cpc, cpc_buf_t *buf)
{
	int r;

	pthread_mutex_lock(&cpc->c_lock);
	r = ot_has(&cpc->c_bufs, buf);
	pthread_mutex_unlock(&cpc->c_lock);
	return r;
}
