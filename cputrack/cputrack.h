/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cputrack.h - what cputrack.c (main and the options) hands to track.c
 * (the run).
 */
#ifndef CPUTRACK_H
#define CPUTRACK_H

#include <stdio.h>
#include <sys/types.h>
#include <libcpc.h>

#include "cli.h"
#include "format.h"
#include "serve.h"
#include "smpl.h"
#include "strtoset.h"

/* The name in cputrack's own messages. */
#define PROGNAME	"cputrack"

/* Exit statuses of cputrack's own (time(1) and env(1) use the same). */
#define EXIT_OWNFAIL	125	/* cputrack failed, with a command */
#define EXIT_NOEXEC	126	/* the command cannot be executed */
#define EXIT_NOTFOUND	127	/* the command was not found */

/*
 * The options: filled while parsing, checked in one place, then the -c
 * texts resolved into o_specs and the output opened.
 */
struct topts {
	struct cli_common o_cli;	/* -c texts, -h, --list-events, -D */
	struct spec	*o_specs;	/* one per -c, in order */
	int		 o_nspecs;
	unsigned	 o_msec;	/* -T in ms; 0 = no ticks */
	unsigned	 o_count;	/* -N; 0 = unlimited */
	int		 o_followexec;	/* -e */
	int		 o_followfork;	/* -f */
	int		 o_noheader;	/* -n */
	int		 o_tick;	/* -t */
	int		 o_verbose;	/* -v */
	int		 o_debug;	/* -D */
	FILE		*o_out;		/* -o opened, or stdout */
	const char	*o_outname;	/* -o, or NULL */
	enum fmt_kind	 o_format;	/* --format */
	const char	*o_listen;	/* --listen, or NULL */
	struct srv	*o_srv;		/* its server, started by main */
	double		 o_grace;	/* --grace, seconds */
	int		 o_bycommand;	/* --by-command */
	pid_t		 o_pid;		/* -p, or 0 */
	char		**o_argv;	/* the command, or NULL */
	struct smpl_opts o_smpl;	/* -S and its reports */
};

struct tracker;

/* A run's state for o (which it keeps); NULL when out of memory. */
struct tracker	*tracker_create(cpc_t *cpc, const struct topts *o);
/*
 * Track the command or process as the options ask; returns the exit
 * status.  What the run opened is closed, but (-p) the processes let go:
 * see procs.c's proc_retire.
 */
int		 track(struct tracker *tr);
/* The processes let go freed too, and tr; NULL does nothing. */
void		 tracker_destroy(struct tracker *tr);

#endif
