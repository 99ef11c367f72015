/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * openmetrics.h - --format=openmetrics: cumulative counters per CPU
 * (cpustat) or per process (cputrack), written to a textfile for
 * node_exporter, rewritten atomically (a temporary file in the same
 * directory, then rename(2)) at every fmt_flush.
 */
#ifndef OPENMETRICS_H
#define OPENMETRICS_H

#include "format.h"

struct om;

/* For path; track: cputrack's series (pid, command), comm its first. */
struct om	*om_create(const char *path, int track, const char *comm);
void		 om_destroy(struct om *om);
/* Add a row's counts to the series. */
void		 om_row(struct om *om, const struct fmt *f,
		    const struct fmt_row *r);
/* Rewrite the file: 0, or -1 with the reason in errh_last(). */
int		 om_write(struct om *om, const struct fmt *f);

#endif
