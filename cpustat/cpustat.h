/*
 * cpustat.h - what cpustat.c (options) hands to sampler.c (the run).
 */
#ifndef CPUSTAT_H
#define CPUSTAT_H

#include <libcpc.h>

#include "smpl.h"
#include "strtoset.h"

struct opts {
	struct spec	*o_specs;	/* one per -c, in order */
	int		 o_nspecs;
	int		 o_default;	/* no -c: the machine's default set */
	double		 o_interval;	/* seconds */
	unsigned long long o_count;	/* samples per CPU; 0 = unlimited */
	double		 o_period;	/* -p seconds, 0 = none */
	int		 o_soak;	/* -s */
	int		 o_tick;	/* -t */
	int		 o_noheader;	/* -n */
	int		 o_debug;	/* -D */
	char		 o_tstamp;	/* -T: 'u', 'd' or 0 */
	struct smpl_opts o_smpl;	/* -S and its reports */
};

extern const char *progname;

/* Sample every online CPU as o asks; returns the exit status. */
int	run(cpc_t *cpc, const struct opts *o);

#endif
