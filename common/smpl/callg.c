/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callg.c - the call graph of --profile with -g (see callg.h): a hash
 * table of functions (scope, event, symbol, object) -> total, self, and
 * one of caller -> callee pairs of those functions -> samples.  Each
 * sample has a number (a stamp): a function or pair met again within
 * the same sample already bears it, and is not counted twice.
 */
#include "config.h"

#include <inttypes.h>
#include <libcpc.h>
#include <stdlib.h>
#include <string.h>

#include "callg.h"
#include "symtab.h"

#define NCHAIN	8192

struct cnode {
	struct cnode	*cn_next;
	long		 cn_scope;
	int		 cn_ev;
	int		 cn_rank;	/* in the report's top, or -1 */
	const char	*cn_sym;
	const char	*cn_obj;
	uint64_t	 cn_total;
	uint64_t	 cn_self;
	uint64_t	 cn_stamp;	/* the last sample that counted it */
};

struct cedge {
	struct cedge	*ce_next;
	struct cnode	*ce_from;	/* the caller */
	struct cnode	*ce_to;		/* the callee */
	uint64_t	 ce_n;
	uint64_t	 ce_stamp;
};

struct callg {
	struct cnode	*cg_node[NCHAIN];
	struct cedge	*cg_edge[NCHAIN];
	uint64_t	 cg_stamp;
	/* One sample's chain: names, then its functions (grown). */
	const char	**cg_sym;
	const char	**cg_obj;
	struct cnode	**cg_path;
	size_t		 cg_cap;
};

uint64_t
callg_frame_pc(const uint64_t *r, uint64_t i)
{
	uint64_t ip = r[CPC_SMPL_ITEM_FRAME(i)];
	uint64_t nk = r[CPC_SMPL_ITEM_NKFRAMES];

	return (i < nk ? i : i - nk) > 0 ? ip - 1 : ip;
}

static size_t
mix(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL;

	h ^= b * 0xc2b2ae3d27d4eb4fULL;
	h ^= c * 0x165667b19e3779f9ULL;
	h ^= h >> 29;
	return (size_t)(h % NCHAIN);
}

struct callg *
callg_create(void)
{
	return calloc(1, sizeof(struct callg));
}

/* Free the functions and pairs of scope, or all when all is set. */
static void
drop(struct callg *cg, long scope, int all)
{
	struct cedge **ep, *e;
	struct cnode **np, *n;
	size_t i;

	for (i = 0; i < NCHAIN; i++)
		for (ep = &cg->cg_edge[i]; (e = *ep) != NULL;) {
			if (!all && e->ce_from->cn_scope != scope) {
				ep = &e->ce_next;
				continue;
			}
			*ep = e->ce_next;
			free(e);
		}
	for (i = 0; i < NCHAIN; i++)
		for (np = &cg->cg_node[i]; (n = *np) != NULL;) {
			if (!all && n->cn_scope != scope) {
				np = &n->cn_next;
				continue;
			}
			*np = n->cn_next;
			free(n);
		}
}

void
callg_destroy(struct callg *cg)
{
	if (cg == NULL)
		return;
	drop(cg, 0, 1);
	free(cg->cg_sym);
	free(cg->cg_obj);
	free(cg->cg_path);
	free(cg);
}

void
callg_drop(struct callg *cg, long scope)
{
	drop(cg, scope, 0);
}

static struct cnode *
node_get(struct callg *cg, long scope, int ev, const char *sym,
    const char *obj)
{
	size_t h = mix((uint64_t)scope ^ (uint64_t)ev << 48,
	    (uint64_t)(uintptr_t)sym, (uint64_t)(uintptr_t)obj);
	struct cnode *n;

	for (n = cg->cg_node[h]; n != NULL; n = n->cn_next)
		if (n->cn_sym == sym && n->cn_obj == obj &&
		    n->cn_scope == scope && n->cn_ev == ev)
			return n;
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return NULL;
	n->cn_scope = scope;
	n->cn_ev = ev;
	n->cn_rank = -1;
	n->cn_sym = sym;
	n->cn_obj = obj;
	n->cn_next = cg->cg_node[h];
	cg->cg_node[h] = n;
	return n;
}

static struct cedge *
edge_get(struct callg *cg, struct cnode *from, struct cnode *to)
{
	size_t h = mix((uint64_t)(uintptr_t)from, (uint64_t)(uintptr_t)to, 1);
	struct cedge *e;

	for (e = cg->cg_edge[h]; e != NULL; e = e->ce_next)
		if (e->ce_from == from && e->ce_to == to)
			return e;
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	e->ce_from = from;
	e->ce_to = to;
	e->ce_next = cg->cg_edge[h];
	cg->cg_edge[h] = e;
	return e;
}

/* Room for a chain of n frames; -1 when out of memory. */
static int
grow(struct callg *cg, size_t n)
{
	const char **s, **o;
	struct cnode **p;

	if (n <= cg->cg_cap)
		return 0;
	n = n < 128 ? 128 : 2 * n;
	if ((s = realloc(cg->cg_sym, n * sizeof(*s))) == NULL)
		return -1;
	cg->cg_sym = s;
	if ((o = realloc(cg->cg_obj, n * sizeof(*o))) == NULL)
		return -1;
	cg->cg_obj = o;
	if ((p = realloc(cg->cg_path, n * sizeof(*p))) == NULL)
		return -1;
	cg->cg_path = p;
	cg->cg_cap = n;
	return 0;
}

int
callg_add(struct callg *cg, long scope, int ev, const char *const *sym,
    const char *const *obj, size_t n)
{
	struct cnode *f;
	struct cedge *e;
	size_t i;

	if (n == 0)
		return 0;
	if (grow(cg, n) != 0)
		return -1;
	cg->cg_stamp++;
	for (i = 0; i < n; i++) {
		if ((f = node_get(cg, scope, ev, sym[i], obj[i])) == NULL)
			return -1;
		if (f->cn_stamp != cg->cg_stamp) {
			f->cn_stamp = cg->cg_stamp;
			f->cn_total++;
		}
		cg->cg_path[i] = f;
	}
	cg->cg_path[0]->cn_self++;
	/* Frame i called frame i - 1. */
	for (i = 1; i < n; i++) {
		if ((e = edge_get(cg, cg->cg_path[i], cg->cg_path[i - 1])) ==
		    NULL)
			return -1;
		if (e->ce_stamp != cg->cg_stamp) {
			e->ce_stamp = cg->cg_stamp;
			e->ce_n++;
		}
	}
	return 0;
}

int
callg_record(struct callg *cg, struct symtab *st, long scope, int ev,
    const uint64_t *r)
{
	pid_t pid = (pid_t)r[CPC_SMPL_ITEM_PID];
	uint64_t i, nf = r[CPC_SMPL_ITEM_NFRAMES];

	if (grow(cg, nf + 1) != 0)
		return -1;
	if (nf == 0) {
		symtab_resolve(st, pid, r[CPC_SMPL_ITEM_PC], &cg->cg_sym[0],
		    &cg->cg_obj[0]);
		nf = 1;
	} else
		for (i = 0; i < nf; i++)
			symtab_resolve(st, pid, callg_frame_pc(r, i),
			    &cg->cg_sym[i], &cg->cg_obj[i]);
	return callg_add(cg, scope, ev, cg->cg_sym, cg->cg_obj, nf);
}

/*
 * Append p to the array *v (n used, *cap allocated); -1 when out of
 * memory, *v then freed.
 */
static int
push(void ***v, size_t *n, size_t *cap, void *p)
{
	void **nv;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		if ((nv = realloc(*v, *cap * sizeof(**v))) == NULL) {
			free(*v);
			*v = NULL;
			return -1;
		}
		*v = nv;
	}
	(*v)[(*n)++] = p;
	return 0;
}

/* The functions of scope and ev (malloc'd), their count in *n. */
static struct cnode **
nodes_of(const struct callg *cg, long scope, int ev, size_t *n)
{
	void **v = NULL;
	struct cnode *f;
	size_t i, cap = 0;

	*n = 0;
	for (i = 0; i < NCHAIN; i++)
		for (f = cg->cg_node[i]; f != NULL; f = f->cn_next)
			if (f->cn_scope == scope && f->cn_ev == ev &&
			    push(&v, n, &cap, f) != 0) {
				*n = 0;
				return NULL;
			}
	return (struct cnode **)v;
}

/*
 * The pairs whose end (the callee when callee is set, else the caller)
 * is in the report's top (malloc'd), their count in *n.
 */
static struct cedge **
edges_of(const struct callg *cg, int callee, size_t *n)
{
	void **v = NULL;
	struct cedge *e;
	size_t i, cap = 0;

	*n = 0;
	for (i = 0; i < NCHAIN; i++)
		for (e = cg->cg_edge[i]; e != NULL; e = e->ce_next)
			if ((callee ? e->ce_to : e->ce_from)->cn_rank >= 0 &&
			    push(&v, n, &cap, e) != 0) {
				*n = 0;
				return NULL;
			}
	return (struct cedge **)v;
}

static int
by_name(const struct cnode *x, const struct cnode *y)
{
	int c;

	if ((c = strcmp(x->cn_sym, y->cn_sym)) != 0)
		return c;
	return strcmp(x->cn_obj, y->cn_obj);
}

static int
hotter(const void *a, const void *b)
{
	const struct cnode *x = *(const struct cnode *const *)a;
	const struct cnode *y = *(const struct cnode *const *)b;

	if (x->cn_total != y->cn_total)
		return x->cn_total > y->cn_total ? -1 : 1;
	/* Less self first: a caller before the callee it passes on to. */
	if (x->cn_self != y->cn_self)
		return x->cn_self < y->cn_self ? -1 : 1;
	return by_name(x, y);
}

/*
 * Pairs by the rank of their end in the top (the callee's with
 * by_callee set, else the caller's), then hottest, then by the other
 * end's name.
 */
static int
pair_order(const struct cedge *x, const struct cedge *y, int by_callee)
{
	const struct cnode *xe = by_callee ? x->ce_to : x->ce_from;
	const struct cnode *ye = by_callee ? y->ce_to : y->ce_from;

	if (xe->cn_rank != ye->cn_rank)
		return xe->cn_rank < ye->cn_rank ? -1 : 1;
	if (x->ce_n != y->ce_n)
		return x->ce_n > y->ce_n ? -1 : 1;
	return by_name(by_callee ? x->ce_from : x->ce_to,
	    by_callee ? y->ce_from : y->ce_to);
}

/* The callers of each function of the top, together. */
static int
caller_order(const void *a, const void *b)
{
	return pair_order(*(const struct cedge *const *)a,
	    *(const struct cedge *const *)b, 1);
}

/* The callees of each function of the top, together. */
static int
callee_order(const void *a, const void *b)
{
	return pair_order(*(const struct cedge *const *)a,
	    *(const struct cedge *const *)b, 0);
}

/* A line of the calls; a caller's or callee's name indented. */
static void
call_line(FILE *fp, uint64_t n, uint64_t total, const char *role,
    const struct cnode *f)
{
	fprintf(fp, "%8.2f %9" PRIu64 " %-8s %s%s %s\n",
	    100.0 * (double)n / (double)total, n, role,
	    strcmp(role, "function") == 0 ? "" : "  ", f->cn_sym, f->cn_obj);
}

/*
 * The calls of the top functions v[0..top-1] (ranked): for each, its
 * callers, itself, its callees.
 */
static void
print_calls(const struct callg *cg, FILE *fp, struct cnode **v, size_t top,
    uint64_t total)
{
	struct cedge **in, **out;
	size_t nin, nout, i, a = 0, b = 0;

	in = edges_of(cg, 1, &nin);
	out = edges_of(cg, 0, &nout);
	if ((in == NULL && nin > 0) || (out == NULL && nout > 0))
		goto out_free;
	if (nin > 0)
		qsort(in, nin, sizeof(*in), caller_order);
	if (nout > 0)
		qsort(out, nout, sizeof(*out), callee_order);
	fprintf(fp, "#%7s %9s %-8s %s %s\n", "pct", "samples", "role",
	    "symbol", "object");
	for (i = 0; i < top; i++) {
		for (; a < nin && in[a]->ce_to == v[i]; a++)
			call_line(fp, in[a]->ce_n, total, "caller",
			    in[a]->ce_from);
		call_line(fp, v[i]->cn_total, total, "function", v[i]);
		for (; b < nout && out[b]->ce_from == v[i]; b++)
			call_line(fp, out[b]->ce_n, total, "callee",
			    out[b]->ce_to);
	}
out_free:
	free(in);
	free(out);
}

int
callg_print(const struct callg *cg, FILE *fp, long scope, int ev,
    const char *what, const char *evname, int top)
{
	struct cnode **v;
	uint64_t total = 0;
	size_t n, i, ntop;

	if ((v = nodes_of(cg, scope, ev, &n)) == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		total += v[i]->cn_self;	/* one self per sample */
		v[i]->cn_rank = -1;
	}
	qsort(v, n, sizeof(*v), hotter);
	ntop = n < (size_t)top ? n : (size_t)top;
	fprintf(fp, "# profile: %s, %s, %" PRIu64 " samples\n", what, evname,
	    total);
	fprintf(fp, "#%7s %8s %9s %9s %s %s\n", "total%", "self%", "total",
	    "self", "symbol", "object");
	for (i = 0; i < ntop; i++) {
		v[i]->cn_rank = (int)i;
		fprintf(fp, "%8.2f %8.2f %9" PRIu64 " %9" PRIu64 " %s %s\n",
		    100.0 * (double)v[i]->cn_total / (double)total,
		    100.0 * (double)v[i]->cn_self / (double)total,
		    v[i]->cn_total, v[i]->cn_self, v[i]->cn_sym, v[i]->cn_obj);
	}
	fprintf(fp, "# calls: %s, %s: the callers and callees of the %zu "
	    "above\n", what, evname, ntop);
	print_calls(cg, fp, v, ntop, total);
	for (i = 0; i < ntop; i++)
		v[i]->cn_rank = -1;
	free(v);
	return (int)ntop;
}
