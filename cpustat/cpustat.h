/*
 * cpustat.h - what cpustat.c (options) hands to sampler.c (the run).
 */
#ifndef CPUSTAT_H
#define CPUSTAT_H

#include <sched.h>
#include <libcpc.h>

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
	cpu_set_t	 o_cpus;	/* the CPUs to measure (-C, or all) */
};

extern const char *progname;

/* Sample the CPUs of o->o_cpus as o asks; returns the exit status. */
int	run(cpc_t *cpc, const struct opts *o);

/* cpus.c */
/* CPU id is online (1) or not (0); 1 when the kernel does not say. */
int	cpu_online(int id);
/* Every online CPU of our affinity mask (cpustat without -C). */
void	cpus_default(cpu_set_t *set);
/*
 * The CPUs of a -C list: a usage error when it is not a CPU list or names
 * a CPU the machine does not have, exit 1 when one is offline or outside
 * our affinity mask.
 */
void	cpus_from_list(const char *list, cpu_set_t *set);

#endif
