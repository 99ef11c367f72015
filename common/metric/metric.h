/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metric.h - derived metrics (-M): ratios and rates printed beside the
 * counts, each a column of its own in every format but OpenMetrics.
 *
 * A metric is a built-in (met_builtins: ipc, cpi, ghz, branch-miss%,
 * cache-miss%, ec-hit%, rate:EVENT) or the user's NAME=EXPR (expr.h).
 * Its events come from the -c sets (met_plan): a metric is computed in
 * the sets that carry all its events; when no set does, the events it
 * lacks are added to every set.  A row of a set without them, or a
 * division by zero, has no value (text "-", CSV empty, JSON null).
 */
#ifndef METRIC_H
#define METRIC_H

#include <stddef.h>

#include <libcpc.h>

#include "expr.h"
#include "format.h"
#include "strtoset.h"

#define MET_MAX		32

struct metric {
	char		*m_name;	/* its column */
	int		 m_builtin;	/* positions are not the user's */
	struct mx_expr	 m_x;
};

struct metrics;

/* The built-ins, for the usage: name, meaning; a NULL name ends it. */
struct met_builtin {
	const char	*mb_name;
	const char	*mb_expr;	/* over the events; secs: seconds */
	const char	*mb_unit;
};
extern const struct met_builtin met_builtins[];

struct metrics	*met_create(void);
void		 met_destroy(struct metrics *ms);
/*
 * Add the metrics of one -M argument, comma-separated.  0, or -1 with
 * a one-line message naming the position in err.
 */
int		 met_add(struct metrics *ms, const char *arg, char *err,
		    size_t errlen);
int		 met_n(const struct metrics *ms);
const struct metric *met_get(const struct metrics *ms, int i);
/*
 * The events of every metric from the from'th on resolved on cpc: 0,
 * or -1 with err naming the metric (built-ins) or the position, and
 * *usage 1 when a name is wrong (0: this machine cannot count it).
 */
int		 met_check(const struct metrics *ms, int from, cpc_t *cpc,
		    char *err, size_t errlen, int *usage);
/*
 * The -c texts (n of them, maybe none) with the events added that the
 * metrics need: *out gets ms's own array of *nout texts, valid until
 * met_destroy.  0; -1 (memory) or -2 (a set grown past the slots a
 * set holds) with a message in err.
 */
int		 met_plan(struct metrics *ms, cpc_t *cpc,
		    const char *const *texts, int n, const char *const **out,
		    int *nout, char *err, size_t errlen);
/*
 * Print the metrics on f's rows of specs' sets (those the -c texts
 * made): 0, or -1 with errno.  Before fmt_header.
 */
int		 met_attach(struct metrics *ms, struct fmt *f,
		    const struct spec *specs, int nspecs);

#endif
