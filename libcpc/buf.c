/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * buf.c - sample buffers and their arithmetic.  All arithmetic is modulo
 * 2^64, so a delta across a wrapped counter is still right.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

CPC_EXPORT cpc_buf_t *
cpc_buf_create(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_buf *b;

	if (set == NULL || !cpc_set_owned(cpc, set)) {
		errno = EINVAL;
		return NULL;
	}
	/* The values follow the buffer, in the same block. */
	if ((b = calloc(1, sizeof(*b) + (size_t)set->cs_nreqs *
	    sizeof(uint64_t))) == NULL)
		return NULL;
	b->cb_nreqs = set->cs_nreqs;
	b->cb_vals = (uint64_t *)(b + 1);
	/* The records of its SMPL requests (smpl.c). */
	if (cpc_smpl_buf_init(b, set) != 0) {
		free(b);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&cpc->c_lock);
	if (cpc_objtab_add(&cpc->c_bufs, b) != 0) {
		pthread_mutex_unlock(&cpc->c_lock);
		cpc_smpl_buf_free(b);
		free(b);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_unlock(&cpc->c_lock);
	return b;
}

CPC_EXPORT int
cpc_buf_destroy(cpc_t *cpc, cpc_buf_t *buf)
{
	int found;

	if (buf == NULL)
		return 0;
	pthread_mutex_lock(&cpc->c_lock);
	found = cpc_objtab_del(&cpc->c_bufs, buf);
	pthread_mutex_unlock(&cpc->c_lock);
	if (!found) {
		errno = EINVAL;
		return -1;
	}
	cpc_smpl_buf_free(buf);
	free(buf);
	return 0;
}

CPC_EXPORT int
cpc_buf_get(cpc_t *cpc, cpc_buf_t *buf, int index, uint64_t *val)
{
	(void)cpc;
	if (index < 0 || index >= buf->cb_nreqs) {
		errno = EINVAL;
		return -1;
	}
	*val = buf->cb_vals[index];
	return 0;
}

CPC_EXPORT int
cpc_buf_set(cpc_t *cpc, cpc_buf_t *buf, int index, uint64_t val)
{
	(void)cpc;
	if (index < 0 || index >= buf->cb_nreqs) {
		errno = EINVAL;
		return -1;
	}
	buf->cb_vals[index] = val;
	return 0;
}

CPC_EXPORT hrtime_t
cpc_buf_hrtime(cpc_t *cpc, cpc_buf_t *buf)
{
	(void)cpc;
	return buf->cb_hrtime;
}

CPC_EXPORT uint64_t
cpc_buf_tick(cpc_t *cpc, cpc_buf_t *buf)
{
	(void)cpc;
	return buf->cb_tick;
}

CPC_EXPORT int
cpc_buf_scaled(cpc_t *cpc, cpc_buf_t *buf)
{
	(void)cpc;
	return buf->cb_scaled;
}

CPC_EXPORT int
cpc_buf_times(cpc_t *cpc, cpc_buf_t *buf, uint64_t *enabled,
    uint64_t *running)
{
	(void)cpc;
	if (buf == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (enabled != NULL)
		*enabled = buf->cb_ena;
	if (running != NULL)
		*running = buf->cb_run;
	return 0;
}

static int
same_shape(cpc_buf_t *a, cpc_buf_t *b, cpc_buf_t *c)
{
	return a->cb_nreqs == b->cb_nreqs && a->cb_nreqs == c->cb_nreqs;
}

CPC_EXPORT void
cpc_buf_sub(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b)
{
	int i;

	(void)cpc;
	if (!same_shape(ds, a, b))
		return;
	for (i = 0; i < ds->cb_nreqs; i++)
		ds->cb_vals[i] = a->cb_vals[i] - b->cb_vals[i];
	ds->cb_tick = a->cb_tick - b->cb_tick;
	ds->cb_ena = a->cb_ena - b->cb_ena;
	ds->cb_run = a->cb_run - b->cb_run;
	ds->cb_hrtime = a->cb_hrtime > b->cb_hrtime ? a->cb_hrtime :
	    b->cb_hrtime;
	ds->cb_scaled = a->cb_scaled | b->cb_scaled;
}

CPC_EXPORT void
cpc_buf_add(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b)
{
	int i;

	(void)cpc;
	if (!same_shape(ds, a, b))
		return;
	for (i = 0; i < ds->cb_nreqs; i++)
		ds->cb_vals[i] = a->cb_vals[i] + b->cb_vals[i];
	ds->cb_tick = a->cb_tick + b->cb_tick;
	ds->cb_ena = a->cb_ena + b->cb_ena;
	ds->cb_run = a->cb_run + b->cb_run;
	ds->cb_hrtime = a->cb_hrtime > b->cb_hrtime ? a->cb_hrtime :
	    b->cb_hrtime;
	ds->cb_scaled = a->cb_scaled | b->cb_scaled;
}

CPC_EXPORT void
cpc_buf_copy(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *src)
{
	(void)cpc;
	if (ds->cb_nreqs != src->cb_nreqs || ds == src)
		return;
	if (ds->cb_nreqs > 0)
		memcpy(ds->cb_vals, src->cb_vals,
		    ds->cb_nreqs * sizeof(uint64_t));
	ds->cb_tick = src->cb_tick;
	ds->cb_ena = src->cb_ena;
	ds->cb_run = src->cb_run;
	ds->cb_hrtime = src->cb_hrtime;
	ds->cb_scaled = src->cb_scaled;
	cpc_smpl_buf_copy(ds, src);
}

CPC_EXPORT void
cpc_buf_zero(cpc_t *cpc, cpc_buf_t *buf)
{
	(void)cpc;
	if (buf->cb_nreqs > 0)
		memset(buf->cb_vals, 0, buf->cb_nreqs * sizeof(uint64_t));
	buf->cb_tick = 0;
	buf->cb_ena = 0;
	buf->cb_run = 0;
	buf->cb_hrtime = 0;
	buf->cb_scaled = 0;
	cpc_smpl_buf_zero(buf);
}
