/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * columns.h - the column model every writer shares: which column each
 * request of each set lands in, and the columns of the -S requests.
 *
 * Every requested event gets a column named as written in -c; the same
 * name in two sets shares one column, the same name twice in one set
 * gets "#2", "#3" after the second.  The -S requests (added after every
 * set's own) get columns of their own, named by the same rule within
 * the -S set.  CSV prints them as columns, JSON as keys, OpenMetrics as
 * event labels, text as the picN and smplN cells of the title.
 */
#ifndef COLUMNS_H
#define COLUMNS_H

#include "strtoset.h"

struct cols;

/* The columns of specs (n); NULL when out of memory. */
struct cols	*cols_create(const struct spec *specs, int n);
void		 cols_destroy(struct cols *c);
/* Add the -S requests' columns (smpl NULL: none); 0, or -1 (memory). */
int		 cols_add_samples(struct cols *c, const struct spec *smpl);
/* The sets as given to cols_create, and their number. */
const struct spec *cols_spec(const struct cols *c, int set);
int		 cols_nsets(const struct cols *c);
/* The event columns: how many, the name of one. */
int		 cols_n(const struct cols *c);
const char	*cols_name(const struct cols *c, int col);
/* The column of request req of set. */
int		 cols_of(const struct cols *c, int set, int req);
/* The -S requests: how many, the name of request i's samples. */
int		 cols_nsmpl(const struct cols *c);
const char	*cols_smplname(const struct cols *c, int i);
/* -M's metrics (names kept): how many, the name of one. */
void		 cols_add_metrics(struct cols *c, const char *const *names,
		    int n);
int		 cols_nmet(const struct cols *c);
const char	*cols_metname(const struct cols *c, int i);

#endif
