/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * columns.c - the column model of the writers (columns.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libcpc.h>

#include "columns.h"

struct cols {
	const struct spec *c_specs;
	int		 c_nspecs;
	char		**c_names;	/* the event columns' names */
	int		 c_n;
	int		**c_of;		/* [set][request] -> column */
	char		**c_snames;	/* the -S requests' names */
	int		 c_nsmpl;
	const char *const *c_mnames;	/* -M's metrics */
	int		 c_nmet;
};

/* A column's name: ev, or "ev#N" for the Nth (N > 1) of ev in a set. */
static char *
col_name(const char *ev, int nth)
{
	char name[CPC_MAX_EVENT_LEN + 16];

	if (nth <= 1)
		snprintf(name, sizeof(name), "%s", ev);
	else
		snprintf(name, sizeof(name), "%s#%d", ev, nth);
	return strdup(name);
}

/* Is column name ev itself, or ev's "ev#N"? */
static int
names_event(const char *name, const char *ev)
{
	size_t n = strlen(ev);

	return strncmp(name, ev, n) == 0 &&
	    (name[n] == '\0' || name[n] == '#');
}

/*
 * Request req of set s takes the first column of its name that no
 * earlier request of s took; else a new one, "name" or "name#N" for the
 * Nth of that name in one set.
 */
static int
add_col(struct cols *c, int s, int req)
{
	const char *ev = c->c_specs[s].sp_reqs[req].sr_event;
	char **nc;
	int col, r, taken, nth = 0;

	for (col = 0; col < c->c_n; col++) {
		if (!names_event(c->c_names[col], ev))
			continue;
		nth++;
		for (r = 0, taken = 0; r < req; r++)
			taken |= c->c_of[s][r] == col;
		if (!taken)
			return col;
	}
	if ((nc = realloc(c->c_names, (c->c_n + 1) * sizeof(*nc))) == NULL)
		return -1;
	c->c_names = nc;
	if ((nc[c->c_n] = col_name(ev, nth + 1)) == NULL)
		return -1;
	return c->c_n++;
}

struct cols *
cols_create(const struct spec *specs, int n)
{
	struct cols *c;
	int s, r;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->c_specs = specs;
	c->c_nspecs = n;
	if ((c->c_of = calloc(n, sizeof(*c->c_of))) == NULL)
		goto out_destroy;
	for (s = 0; s < n; s++) {
		c->c_of[s] = calloc(specs[s].sp_nreqs + 1, sizeof(int));
		if (c->c_of[s] == NULL)
			goto out_destroy;
		for (r = 0; r < specs[s].sp_nreqs; r++)
			if ((c->c_of[s][r] = add_col(c, s, r)) < 0)
				goto out_destroy;
	}
	return c;
out_destroy:
	cols_destroy(c);
	return NULL;
}

void
cols_destroy(struct cols *c)
{
	int i;

	if (c == NULL)
		return;
	for (i = 0; i < c->c_n; i++)
		free(c->c_names[i]);
	for (i = 0; i < c->c_nsmpl; i++)
		free(c->c_snames[i]);
	for (i = 0; c->c_of != NULL && i < c->c_nspecs; i++)
		free(c->c_of[i]);
	free(c->c_snames);
	free(c->c_of);
	free(c->c_names);
	free(c);
}

int
cols_add_samples(struct cols *c, const struct spec *smpl)
{
	const struct spec_req *rq;
	int i, j, nth;

	if (smpl == NULL || smpl->sp_nreqs == 0)
		return 0;
	c->c_snames = calloc(smpl->sp_nreqs, sizeof(*c->c_snames));
	if (c->c_snames == NULL)
		return -1;
	rq = smpl->sp_reqs;
	for (i = 0; i < smpl->sp_nreqs; i++) {
		for (j = 0, nth = 1; j < i; j++)
			nth += strcmp(rq[j].sr_event, rq[i].sr_event) == 0;
		c->c_nsmpl = i + 1;
		if ((c->c_snames[i] = col_name(rq[i].sr_event, nth)) == NULL)
			return -1;
	}
	return 0;
}

const struct spec *
cols_spec(const struct cols *c, int set)
{
	return &c->c_specs[set];
}

int
cols_nsets(const struct cols *c)
{
	return c->c_nspecs;
}

int
cols_n(const struct cols *c)
{
	return c->c_n;
}

const char *
cols_name(const struct cols *c, int col)
{
	return c->c_names[col];
}

int
cols_of(const struct cols *c, int set, int req)
{
	return c->c_of[set][req];
}

int
cols_nsmpl(const struct cols *c)
{
	return c->c_nsmpl;
}

const char *
cols_smplname(const struct cols *c, int i)
{
	return c->c_snames[i];
}

void
cols_add_metrics(struct cols *c, const char *const *names, int n)
{
	c->c_mnames = names;
	c->c_nmet = n;
}

int
cols_nmet(const struct cols *c)
{
	return c->c_nmet;
}

const char *
cols_metname(const struct cols *c, int i)
{
	return c->c_mnames[i];
}
