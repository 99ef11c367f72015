/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * profile.c - per-function sample counts (see profile.h): one hash table
 * of (scope, event, symbol, object) -> count.  The report collects a
 * scope's entries, sorts them and prints the first N.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

#define NCHAIN	8192

struct pent {
	struct pent	*pe_next;
	long		 pe_scope;
	int		 pe_ev;
	const char	*pe_sym;
	const char	*pe_obj;
	uint64_t	 pe_n;
};

struct profile {
	struct pent	*pf_chain[NCHAIN];
};

static size_t
chain_of(long scope, int ev, const char *sym, const char *obj)
{
	uint64_t h = (uint64_t)scope * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)ev * 0xc2b2ae3d27d4eb4fULL;
	h ^= (uint64_t)(uintptr_t)sym * 0x165667b19e3779f9ULL;
	h ^= (uint64_t)(uintptr_t)obj;
	h ^= h >> 29;
	return (size_t)(h % NCHAIN);
}

struct profile *
profile_create(void)
{
	return calloc(1, sizeof(struct profile));
}

void
profile_destroy(struct profile *pf)
{
	struct pent *e, *n;
	size_t i;

	if (pf == NULL)
		return;
	for (i = 0; i < NCHAIN; i++)
		for (e = pf->pf_chain[i]; e != NULL; e = n) {
			n = e->pe_next;
			free(e);
		}
	free(pf);
}

int
profile_add(struct profile *pf, long scope, int ev, const char *sym,
    const char *obj, uint64_t n)
{
	size_t h = chain_of(scope, ev, sym, obj);
	struct pent *e;

	for (e = pf->pf_chain[h]; e != NULL; e = e->pe_next)
		if (e->pe_scope == scope && e->pe_ev == ev &&
		    e->pe_sym == sym && e->pe_obj == obj) {
			e->pe_n += n;
			return 0;
		}
	if ((e = malloc(sizeof(*e))) == NULL)
		return -1;
	e->pe_scope = scope;
	e->pe_ev = ev;
	e->pe_sym = sym;
	e->pe_obj = obj;
	e->pe_n = n;
	e->pe_next = pf->pf_chain[h];
	pf->pf_chain[h] = e;
	return 0;
}

/* The entries of scope and ev (malloc'd array), their count in *n. */
static struct pent **
collect(const struct profile *pf, long scope, int ev, size_t *n)
{
	struct pent **v = NULL, **nv, *e;
	size_t i, cap = 0;

	*n = 0;
	for (i = 0; i < NCHAIN; i++)
		for (e = pf->pf_chain[i]; e != NULL; e = e->pe_next) {
			if (e->pe_scope != scope || e->pe_ev != ev)
				continue;
			if (*n == cap) {
				cap = cap ? 2 * cap : 64;
				if ((nv = realloc(v, cap * sizeof(*v))) ==
				    NULL) {
					free(v);
					*n = 0;
					return NULL;
				}
				v = nv;
			}
			v[(*n)++] = e;
		}
	return v;
}

uint64_t
profile_total(const struct profile *pf, long scope, int ev)
{
	const struct pent *e;
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < NCHAIN; i++)
		for (e = pf->pf_chain[i]; e != NULL; e = e->pe_next)
			if (e->pe_scope == scope && e->pe_ev == ev)
				t += e->pe_n;
	return t;
}

static int
hotter(const void *a, const void *b)
{
	const struct pent *x = *(const struct pent *const *)a;
	const struct pent *y = *(const struct pent *const *)b;
	int c;

	if (x->pe_n != y->pe_n)
		return x->pe_n > y->pe_n ? -1 : 1;
	if ((c = strcmp(x->pe_sym, y->pe_sym)) != 0)
		return c;
	return strcmp(x->pe_obj, y->pe_obj);
}

int
profile_print(const struct profile *pf, FILE *fp, long scope, int ev,
    const char *what, const char *evname, int top)
{
	struct pent **v;
	uint64_t total = 0;
	size_t n, i;

	if ((v = collect(pf, scope, ev, &n)) == NULL)
		return 0;
	for (i = 0; i < n; i++)
		total += v[i]->pe_n;
	qsort(v, n, sizeof(*v), hotter);
	fprintf(fp, "# profile: %s, %s, %" PRIu64 " samples\n", what, evname,
	    total);
	fprintf(fp, "#%7s %9s %s %s\n", "pct", "samples", "symbol", "object");
	for (i = 0; i < n && i < (size_t)top; i++)
		fprintf(fp, "%8.2f %9" PRIu64 " %s %s\n",
		    100.0 * (double)v[i]->pe_n / (double)total, v[i]->pe_n,
		    v[i]->pe_sym, v[i]->pe_obj);
	free(v);
	return (int)i;
}

void
profile_drop(struct profile *pf, long scope)
{
	struct pent **pp, *e;
	size_t i;

	for (i = 0; i < NCHAIN; i++)
		for (pp = &pf->pf_chain[i]; (e = *pp) != NULL;) {
			if (e->pe_scope != scope) {
				pp = &e->pe_next;
				continue;
			}
			*pp = e->pe_next;
			free(e);
		}
}
