/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smpl.h - what the sampling options of both tools (-S, -g, --profile,
 * --samples, --folded, cpustat's --per-cpu: struct smpl_opts, taken and
 * checked by common/cli/smplopt.h) do with the records libcpc's SMPL
 * requests collect.
 *
 * The -S set is parsed once, in the -c grammar, and its requests are
 * added as CPC_HW_SMPL requests after the counting requests of every set
 * the tool binds (smpl_add_requests; smplset.h does it).  Each time
 * a set is sampled, smpl_take reads the records out of the buffer:
 * counted per function for the profile, written to the CSV file, folded
 * into stacks.  Several threads may call smpl_take at once (cpustat's
 * CPU threads): it takes the object's lock.
 */
#ifndef SMPL_H
#define SMPL_H

#include <stdio.h>
#include <sys/types.h>
#include <libcpc.h>

#include "strtoset.h"

#define SMPL_PROFILE_DEFAULT	10	/* --profile without =N */

struct smpl_opts {
	const char	*so_text;	/* -S, or NULL */
	struct spec	 so_spec;	/* -S parsed */
	int		 so_profile;	/* --profile: N hottest; 0 none */
	int		 so_percpu;	/* --per-cpu: a profile per CPU */
	int		 so_callchain;	/* -g */
	const char	*so_samples;	/* --samples=FILE */
	int		 so_samplesfmt;	/* --samples-format: SMPL_FMT_ */
	int		 so_fmtgiven;	/* --samples-format was given */
	const char	*so_folded;	/* --folded=FILE */
};

/* The formats of --samples. */
#define SMPL_FMT_CSV	0	/* the default */
#define SMPL_FMT_PERF	1	/* `perf script` text (perfout.h) */

/* Is sampling asked for? */
int	smpl_on(const struct smpl_opts *so);
/* The sampling requests per set (0 without -S). */
int	smpl_nreqs(const struct smpl_opts *so);
/* The -S set as parsed, or NULL without -S. */
const struct spec *smpl_spec(const struct smpl_opts *so);
/* The set with no counting request that -S alone binds. */
int	smpl_empty_spec(struct spec *sp);
void	smpl_opts_free(struct smpl_opts *so);

/* How profiles are scoped: by process (cputrack), CPU, or system. */
enum smpl_scope { SMPL_BY_PID, SMPL_BY_CPU, SMPL_SYSTEM };

struct smpl;

/*
 * The run's sampling state: opens --samples (the CSV's header written)
 * and --folded.  NULL with a message through errh_set.
 */
struct smpl *smpl_create(cpc_t *cpc, const struct smpl_opts *so,
	    enum smpl_scope scope);
/* The run starts at t0 (CLOCK_MONOTONIC ns): the CSV's time 0. */
void	smpl_start(struct smpl *sm, cpc_hrtime_t t0);
/* The sampling requests per set. */
int	smpl_count(const struct smpl *sm);
/*
 * Add the sampling requests to set; the index of the first (they are
 * consecutive), or -1 with the reason through the handler.
 */
int	smpl_add_requests(struct smpl *sm, cpc_set_t *set);
/*
 * Read the records buf holds for the sampling requests from index first
 * on.  Returns 1 when a request filled the buffer (more records may be
 * waiting in the kernel: sample again), else 0.
 */
int	smpl_take(struct smpl *sm, int first, cpc_buf_t *buf);
/*
 * cpustat's (SMPL_BY_CPU, SMPL_SYSTEM) records only wait in smpl_take:
 * name and report them now (the main thread, between intervals).
 * smpl_print_profile and smpl_finish do it first.  NULL is a no-op.
 */
void	smpl_flush(struct smpl *sm);
/* Read pid's mappings while it lives (at its first thread). */
void	smpl_note_pid(struct smpl *sm, pid_t pid);
/* pid exec'd a new image: its old mappings are forgotten. */
void	smpl_exec_pid(struct smpl *sm, pid_t pid);
/*
 * Print the profile of scope (a pid, a CPU, or anything for the system)
 * for each sampling request with samples, titled with what ("pid 12",
 * "cpu 0", "system"), and forget those samples.  No-op without
 * --profile.
 */
void	smpl_print_profile(struct smpl *sm, FILE *fp, long scope,
	    const char *what);
/*
 * The end: warn of lost records, write --folded, close --samples.  0,
 * or -1 after a message when a file could not be written.
 */
int	smpl_finish(struct smpl *sm);
void	smpl_destroy(struct smpl *sm);

#endif
