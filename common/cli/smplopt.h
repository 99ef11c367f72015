/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplopt.h - the sampling options of both tools on the command line
 * (-S, -g, --profile, --samples, --samples-format, --folded, cpustat's
 * --per-cpu): taken
 * while parsing into a struct smpl_opts (smpl.h), then checked together
 * in one place, each conflict a usage error with its own message.
 */
#ifndef SMPLOPT_H
#define SMPLOPT_H

#include <libcpc.h>

#include "smpl.h"

/* getopt_long values of the long-only options. */
#define SMPL_OPT_PROFILE	0x301
#define SMPL_OPT_SAMPLES	0x302
#define SMPL_OPT_FOLDED		0x303
#define SMPL_OPT_PERCPU		0x304
#define SMPL_OPT_SAMPLESFMT	0x305

/* The short letters, for the tools' getopt strings. */
#define SMPL_SHORTOPTS	"S:g"

/* The long options of both tools (cpustat adds SMPL_LONGOPT_PERCPU). */
#define SMPL_LONGOPTS \
	{ "sample",	required_argument,	NULL, 'S' }, \
	{ "callchain",	no_argument,		NULL, 'g' }, \
	{ "profile",	optional_argument,	NULL, SMPL_OPT_PROFILE }, \
	{ "samples",	required_argument,	NULL, SMPL_OPT_SAMPLES }, \
	{ "folded",	required_argument,	NULL, SMPL_OPT_FOLDED }, \
	{ "samples-format", required_argument,	NULL, SMPL_OPT_SAMPLESFMT }
#define SMPL_LONGOPT_PERCPU \
	{ "per-cpu",	no_argument,		NULL, SMPL_OPT_PERCPU }

/*
 * Take option ch if it is a sampling option (1), else leave it (0).  A
 * repeated -S, a bad --profile number or --samples-format name is a
 * usage error.
 */
int	smpl_opt(struct smpl_opts *so, int ch, const char *arg);
/*
 * After the options: every conflict is a usage error with its own
 * message; -S is parsed and its requests tried once on a set (a bad
 * spec is a usage error, a machine that cannot sample exits with
 * failstatus).  ncspecs: the -c sets given.
 */
void	smpl_check(cpc_t *cpc, struct smpl_opts *so, int ncspecs,
	    int failstatus);

#endif
