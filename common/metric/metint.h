/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metint.h - inside common/metric: the list's state, shared by the
 * parsing (metric.c), the sets (plan.c) and the rows (mrow.c).
 */
#ifndef METINT_H
#define METINT_H

#include <ctype.h>

#include "metric.h"

struct met_span;

struct metrics {
	struct metric	 ms_m[MET_MAX];
	int		 ms_n;
	char		**ms_texts;	/* met_plan's -c texts */
	int		 ms_ntexts;
	/* met_attach: */
	int		*ms_map;	/* [set][metric][event]: request
					   (-1: none) */
	int		 ms_nsets;
	const char	*ms_names[MET_MAX];
	struct met_span	*ms_span;	/* the rows' lengths (mrow.c) */
};

/* "position N: msg" (N = pos + 1) in err; returns -1. */
int		 met_err(char *err, size_t errlen, size_t pos,
		    const char *fmt, ...)
		    __attribute__((format(printf, 4, 5)));
/* The built-ins' names, "ipc, cpi, ..." (static). */
const char	*met_list(void);
/* What met_attach made, freed. */
void		 met_unattach(struct metrics *ms);

static inline int
isalnumc(char c)
{
	return isalnum((unsigned char)c);
}

#endif
