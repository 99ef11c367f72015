/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mrow.c - the metrics on the rows (metric.h's met_attach): each set's
 * requests found for every metric's events, and each row's values and
 * length in seconds handed to the expressions.
 *
 * A row's length (secs): an interval's row (tick, and cputrack's
 * init_lwp and lwp_create, which sample the thread too) lasts from the
 * previous such row of its CPU (cpustat) or thread (cputrack), or from
 * the start; any other row (total, exit, lwp_exit, fini_lwp, exec, a -f
 * tree) holds the counts of the whole run so far, and lasts from the
 * start.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metint.h"

/* The last interval row's time by CPU or thread: open addressing. */
struct met_span {
	int64_t		*sp_key;	/* 0: free */
	int64_t		*sp_ns;
	size_t		 sp_size;	/* a power of 2 */
	size_t		 sp_used;
};

static size_t
slot(const struct met_span *s, int64_t key)
{
	size_t i = (size_t)((uint64_t)key * 0x9e3779b97f4a7c15ULL >> 20);

	for (i &= s->sp_size - 1; s->sp_key[i] != 0 && s->sp_key[i] != key;
	    i = (i + 1) & (s->sp_size - 1))
		;
	return i;
}

static int
span_grow(struct met_span *s)
{
	struct met_span n = { .sp_size = s->sp_size ? s->sp_size * 2 : 64 };
	size_t i, j;

	n.sp_key = calloc(n.sp_size, sizeof(*n.sp_key));
	n.sp_ns = calloc(n.sp_size, sizeof(*n.sp_ns));
	if (n.sp_key == NULL || n.sp_ns == NULL) {
		free(n.sp_key);
		free(n.sp_ns);
		return -1;
	}
	for (i = 0; i < s->sp_size; i++) {
		if (s->sp_key[i] == 0)
			continue;
		j = slot(&n, s->sp_key[i]);
		n.sp_key[j] = s->sp_key[i];
		n.sp_ns[j] = s->sp_ns[i];
	}
	n.sp_used = s->sp_used;
	free(s->sp_key);
	free(s->sp_ns);
	*s = n;
	return 0;
}

static int
interval_row(const char *kind)
{
	return strcmp(kind, "tick") == 0 || strcmp(kind, "init_lwp") == 0 ||
	    strcmp(kind, "lwp_create") == 0;
}

/*
 * The key of the row's previous interval: its thread, or its CPU and
 * with cpustat -G its cgroup (each cgroup's sample of a CPU is taken at
 * its own time), the cgroup by a 40-bit FNV-1a hash of its name.
 */
static int64_t
span_key(const struct fmt_row *r)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const char *c;

	if (r->fr_lwp > 0)
		return r->fr_lwp;
	if (r->fr_cgroup == NULL)
		return -1 - (int64_t)r->fr_cpu;
	for (c = r->fr_cgroup; *c != '\0'; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	return -1 - (int64_t)((h & 0xffffffffffULL) << 20 |
	    ((uint64_t)r->fr_cpu & 0xfffff));
}

/* Seconds the row's counts cover; NaN when not known. */
static double
row_secs(struct met_span *s, const struct fmt_row *r)
{
	int64_t key = span_key(r);
	int64_t from = 0;
	size_t i;

	if (!interval_row(r->fr_kind))
		return (double)r->fr_ns / 1e9;
	if (2 * (s->sp_used + 1) > s->sp_size && span_grow(s) != 0)
		return NAN;
	i = slot(s, key);
	if (s->sp_key[i] == key)
		from = s->sp_ns[i];
	else
		s->sp_used++;
	s->sp_key[i] = key;
	s->sp_ns[i] = r->fr_ns;
	return (double)(r->fr_ns - from) / 1e9;
}

/* fmt_derive_fn: the row's metrics, NaN where there is none. */
static void
derive(void *arg, const struct fmt_row *r, double *out)
{
	struct metrics *ms = arg;
	const int *map;
	double vals[MX_MAXEVENTS], secs = row_secs(ms->ms_span, r);
	int i, j;

	for (i = 0; i < ms->ms_n; i++) {
		out[i] = NAN;
		if (r->fr_set < 0 || r->fr_set >= ms->ms_nsets ||
		    r->fr_vals == NULL)
			continue;
		map = ms->ms_map + ((size_t)r->fr_set * MET_MAX + i) *
		    MX_MAXEVENTS;
		for (j = 0; j < ms->ms_m[i].m_x.mx_nevents; j++)
			if (map[j] < 0 || map[j] >= r->fr_nvals)
				break;
			else
				vals[j] = (double)r->fr_vals[map[j]];
		if (j == ms->ms_m[i].m_x.mx_nevents)
			out[i] = mx_eval(&ms->ms_m[i].m_x, vals, secs);
	}
}

/* The request of sp counting ev, or -1. */
static int
request_of(const struct spec *sp, const char *ev)
{
	int i;

	for (i = 0; i < sp->sp_nreqs; i++)
		if (strcmp(sp->sp_reqs[i].sr_event, ev) == 0)
			return i;
	return -1;
}

int
met_attach(struct metrics *ms, struct fmt *f, const struct spec *specs,
    int nspecs)
{
	const struct mx_expr *x;
	int s, i, j, *map;

	if (ms == NULL || ms->ms_n == 0)
		return 0;
	met_unattach(ms);
	ms->ms_map = calloc((size_t)nspecs * MET_MAX * MX_MAXEVENTS,
	    sizeof(int));
	ms->ms_span = calloc(1, sizeof(*ms->ms_span));
	if (ms->ms_map == NULL || ms->ms_span == NULL) {
		met_unattach(ms);
		errno = ENOMEM;
		return -1;
	}
	ms->ms_nsets = nspecs;
	for (s = 0; s < nspecs; s++)
		for (i = 0; i < ms->ms_n; i++) {
			x = &ms->ms_m[i].m_x;
			map = ms->ms_map + ((size_t)s * MET_MAX + i) *
			    MX_MAXEVENTS;
			for (j = 0; j < x->mx_nevents; j++)
				map[j] = request_of(&specs[s],
				    x->mx_events[j]);
		}
	for (i = 0; i < ms->ms_n; i++)
		ms->ms_names[i] = ms->ms_m[i].m_name;
	return fmt_derive(f, ms->ms_names, ms->ms_n, derive, ms);
}

void
met_unattach(struct metrics *ms)
{
	if (ms->ms_span != NULL) {
		free(ms->ms_span->sp_key);
		free(ms->ms_span->sp_ns);
		free(ms->ms_span);
	}
	free(ms->ms_map);
	ms->ms_span = NULL;
	ms->ms_map = NULL;
	ms->ms_nsets = 0;
}
