/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpustat.h - what cpustat.c (main and the options) hands to run.c (the
 * run), and what the run's files share with report.c and cpus.c.
 */
#ifndef CPUSTAT_H
#define CPUSTAT_H

#include <sched.h>
#include <stdio.h>
#include <libcpc.h>

#include "cli.h"
#include "format.h"
#include "serve.h"
#include "smpl.h"
#include "strtoset.h"

/*
 * The options: filled while parsing, checked in one place, then the -c
 * texts resolved into o_specs, the -C list into o_cpus and the output
 * opened.
 */
struct opts {
	struct cli_common o_cli;	/* -c texts, -h, --list-events, -D */
	const char	*o_cpulist;	/* -C as given, or NULL */
	const char	*o_periodtext;	/* -p as given, or NULL */
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
	FILE		*o_out;		/* -o opened, or stdout */
	const char	*o_outname;	/* -o, or NULL */
	enum fmt_kind	 o_format;	/* --format */
	const char	*o_listen;	/* --listen, or NULL */
	struct srv	*o_srv;		/* its server, started by main */
	cpu_set_t	 o_cpus;	/* the CPUs to measure (-C, or all) */
	struct smpl_opts o_smpl;	/* -S and its reports */
};

/* One CPU's counts of one interval. */
struct sample {
	int		 s_cpu;
	int		 s_elem;	/* the set's index */
	hrtime_t	 s_hr;		/* when sampled */
	uint64_t	 s_tick;
	const uint64_t	*s_vals;
	int		 s_nvals;
	int		 s_scaled;
	uint64_t	 s_ena;		/* enabled, running ns */
	uint64_t	 s_run;
};

/* Sample the CPUs of o->o_cpus as o asks; returns the exit status. */
int	run(cpc_t *cpc, const struct opts *o);

/*
 * report.c: the lines, in o's format, to o->o_out.  rep_init (0, or -1
 * said) at the start, with the clocks' offsets and cpc's backend for the
 * exposition's info; rep_flush after each
 * interval's lines and after the totals (the writer's end of a batch:
 * openmetrics rewrites its file, text's next -T stamp; 0, or -1 said).
 */
int	rep_init(cpc_t *cpc, const struct opts *o, hrtime_t base,
	    hrtime_t walloff);
void	rep_fini(void);
void	rep_title(void);
void	rep_sample(const struct sample *s);
/* A total line: set's sums over ncpu CPUs, stamped t. */
void	rep_total(cpc_t *cpc, int set, int ncpu, hrtime_t t, cpc_buf_t *acc);
int	rep_flush(void);

/* cpus.c */
/* CPU id is online (1) or not (0); 1 when the kernel does not say. */
int	cpu_online(int id);
/* Can we count on cpu at all?  0, or -1 and a message. */
int	cpu_preflight(cpc_t *cpc, int cpu);
/* Every online CPU of our affinity mask (cpustat without -C). */
void	cpus_default(cpu_set_t *set);
/*
 * The CPUs of a -C list: a usage error when it is not a CPU list or names
 * a CPU the machine does not have, exit 1 when one is offline or outside
 * our affinity mask.
 */
void	cpus_from_list(const char *list, cpu_set_t *set);

#endif
