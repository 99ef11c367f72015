/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lwpevlines.h - the state of the LWP event run (lwpevents.c) and what
 * its reports print (lwpevlines.c).
 */
#ifndef LWPEVLINES_H
#define LWPEVLINES_H

#include <pthread.h>
#include <sys/types.h>
#include <libcpc.h>

#include "lines.h"
#include "tracker.h"

/* -f: a process forked in the tree, until its exit or exec. */
struct kid {
	pid_t		 k_pid;
	int		 k_gone;	/* drains since it was seen gone */
	cpc_buf_t	*k_acc;		/* its ended threads' counts */
	pid_t		 k_held;	/* the last end's thread, or 0 */
	cpc_buf_t	*k_hbuf;	/* its counts */
};

struct lwpev {
	struct tracker	*lr_tr;
	struct setgrp	*lr_sg;
	cpc_set_t	*lr_set;
	cpc_buf_t	*lr_buf;	/* the reader's, for each report */
	cpc_buf_t	*lr_acc;	/* the ended threads' counts, summed */
	cpc_buf_t	*lr_tot;	/* the set's counts */
	pid_t		 lr_pid;	/* the command */
	int		 lr_stopfd;	/* eventfd: the reader ends */
	pthread_t	 lr_reader;
	int		 lr_reading;	/* the reader runs */
	int		 lr_over;	/* exec or totals printed: no more */
	int		 lr_execthr;	/* a thread not the first exec'd */
	int		 lr_lostsaid;
	int		 lr_tree;	/* -f: the kids too */
	struct kid	*lr_kids;
	int		 lr_nkids;
	int		 lr_kidcap;
	int		 lr_kidlost;	/* a kid was given up */
	cpc_buf_t	*lr_kidsum;	/* every kid's counts */
	int		 lr_rootlive;	/* no end or exec of the command yet */
	int		 lr_rootgone;	/* drains since it was reaped */
	int		 lr_reaped;	/* the command was waited for (the
					   reader stopped) */
	int		 lr_rootexec;	/* -f: the command exec'd, then: */
	hrtime_t	 lr_roott;	/*  when it exec'd or exited */
	pid_t		 lr_roottid;	/*  the thread that exec'd */
	char		 lr_rootcmd[CMDMAX];
};

/*
 * One report of the library (a cpc_lwp_fn_t, arg the struct lwpev): its
 * lines.  Non-zero: no more reports.
 */
int	lwpev_report(void *arg, const cpc_lwp_event_t *ev, cpc_buf_t *buf);
/*
 * -f, the command waited for: the processes whose end was not reported
 * (their EXIT lost) given up once gone, and the command's lines once
 * nothing more can come.
 */
void	lwpev_give_up_lost(struct lwpev *lr);
/*
 * The reports all read: the set's line of kind (exit, or total after a
 * signal), under -f the lines of the processes still counted first.
 */
void	lwpev_last_lines(struct lwpev *lr, const char *kind);

#endif
