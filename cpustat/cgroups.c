/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cgroups.c - cpustat -G: the cgroups whose tasks each CPU counts apart
 * (cpc_bind_cpu_cgroup), from the list as typed to the names every
 * format prints, and whether that many fit: every CPU opens each set's
 * events once per cgroup, each a descriptor.
 */
#include "config.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "cpustat.h"

/* Descriptors kept for stdio, the output, libcpc's own files. */
#define FD_SPARE	64

/*
 * A cgroup as printed: its path under the hierarchy from a '/', without
 * repeated or trailing slashes ("/" the root).
 */
static char *
canonical(const char *s)
{
	char *out = malloc(strlen(s) + 2), *w = out;

	if (out == NULL)
		err(1, "out of memory");
	for (; *s != '\0'; s++)
		if (*s != '/' || (w > out && w[-1] != '/'))
			*w++ = *s;
		else if (w == out)
			*w++ = '/';
	if (w == out)
		*w++ = '/';
	if (w > out + 1 && w[-1] == '/')
		w--;
	*w = '\0';
	if (out[0] != '/') {
		memmove(out + 1, out, strlen(out) + 1);
		out[0] = '/';
	}
	return out;
}

static void
add_cgroup(struct opts *o, const char *name)
{
	char *c;
	int i;

	if (*name == '\0')
		cli_usage_error("-G '%s': an empty cgroup name", o->o_cgtext);
	if (o->o_ncgroups == CPUSTAT_MAXCG)
		cli_usage_error("-G: at most %d cgroups", CPUSTAT_MAXCG);
	c = canonical(name);
	for (i = 0; i < o->o_ncgroups; i++)
		if (strcmp(o->o_cgroups[i], c) == 0)
			cli_usage_error("-G: cgroup '%s' is named twice", c);
	o->o_cgroups[o->o_ncgroups++] = c;
}

/* -G's list, comma-separated (each -G adds to it). */
void
cgroups_parse(struct opts *o, const char *list)
{
	char *copy, *p, *next;

	if (o->o_cgroups == NULL && (o->o_cgroups = calloc(CPUSTAT_MAXCG,
	    sizeof(*o->o_cgroups))) == NULL)
		err(1, "out of memory");
	o->o_cgtext = list;
	if ((copy = strdup(list)) == NULL)
		err(1, "out of memory");
	for (p = copy; p != NULL; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		add_cgroup(o, p);
	}
	free(copy);
}

/*
 * Each CPU keeps every set open for every cgroup: a descriptor per
 * event and one for the cgroup's directory.  More than the open-file
 * limit allows is a usage error that says by how much.
 */
void
cgroups_check_fit(const struct opts *o)
{
	unsigned long long need = 0, ncpu = (unsigned)CPU_COUNT(&o->o_cpus);
	struct rlimit rl;
	int i;

	if (o->o_ncgroups == 0)
		return;
	for (i = 0; i < o->o_nspecs; i++)
		need += (unsigned)o->o_specs[i].sp_nreqs + 1;
	need *= ncpu * (unsigned)o->o_ncgroups;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY || need + FD_SPARE <= rl.rlim_cur)
		return;
	cli_usage_error("-G: %d cgroups on %llu cpus need %llu open files, "
	    "more than the limit of %llu allows (ulimit -n; or fewer cgroups, "
	    "cpus (-C) or events)", o->o_ncgroups, ncpu, need + FD_SPARE,
	    (unsigned long long)rl.rlim_cur);
}

void
cgroups_free(struct opts *o)
{
	int i;

	for (i = 0; i < o->o_ncgroups; i++)
		free(o->o_cgroups[i]);
	free(o->o_cgroups);
}
