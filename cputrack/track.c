/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track.c - cputrack's run: the sets built once, the command started or
 * the process captured, then one of two runs: the LWP event run
 * (lwpevents.c), where the options let the threads run without a stop,
 * else the ptrace run (callbacks.c); then the totals and the exit status.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <libpctx.h>

#include "callbacks.h"
#include "cli.h"
#include "command.h"
#include "errh.h"
#include "lines.h"
#include "lwpevents.h"
#include "procs.h"
#include "setgrp.h"
#include "smpl.h"
#include "smplset.h"

struct tracker *
tracker_create(cpc_t *cpc, const struct topts *o)
{
	struct tracker *tr;

	if ((tr = calloc(1, sizeof(*tr))) == NULL)
		return NULL;
	if ((tr->tr_tmpl = calloc(o->o_nspecs, sizeof(*tr->tr_tmpl))) ==
	    NULL) {
		free(tr);
		return NULL;
	}
	tr->tr_cpc = cpc;
	tr->tr_o = o;
	tr->tr_out = o->o_out;
	return tr;
}

/* What the run made, but the processes retired (see procs.c). */
static void
cleanup(struct tracker *tr)
{
	int i;

	procs_free(tr);
	for (i = 0; i < tr->tr_o->o_nspecs; i++) {
		if (tr->tr_tree != NULL)
			cpc_buf_destroy(tr->tr_cpc, tr->tr_tree[i]);
		cpc_set_destroy(tr->tr_cpc, tr->tr_tmpl[i]);
	}
	free(tr->tr_tree);
	free(tr->tr_tmpl);
	fmt_destroy(tr->tr_fmt);
	smpl_destroy(tr->tr_sm);
	tr->tr_tree = NULL;
	tr->tr_tmpl = NULL;
	tr->tr_fmt = NULL;
	tr->tr_sm = NULL;
}

void
tracker_destroy(struct tracker *tr)
{
	if (tr == NULL)
		return;
	retired_free(tr);
	free(tr);
}

/* The sampler (-S), the sets once as templates, the output; 0 or -1. */
static int
prepare(struct tracker *tr)
{
	const struct topts *o = tr->tr_o;
	int i, first;

	if (smpl_on(&o->o_smpl) && (tr->tr_sm = smpl_create(tr->tr_cpc,
	    &o->o_smpl, SMPL_BY_PID)) == NULL) {
		warnmsg(tr, "-S: %s", errh_last());
		return -1;
	}
	for (i = 0; i < o->o_nspecs; i++)
		if ((tr->tr_tmpl[i] = smpl_set_build(tr->tr_cpc, &o->o_specs[i],
		    tr->tr_sm, &first)) == NULL) {
			warnmsg(tr, "-c '%s': %s", o->o_specs[i].sp_text,
			    errh_last());
			return -1;
		}
	return lines_open(tr);
}

/*
 * Open every set once on cputrack itself and leave it disabled.  A
 * tracepoint is registered in the kernel while any event uses it, and
 * unregistering costs tens of milliseconds (RCU grace periods): without
 * this anchor, the exec of a single-threaded command under -e would close
 * the last user of each tracepoint and reopen it at once.  Where a set
 * cannot be opened here (a user's per-thread rules) nothing is lost.
 */
static void
anchor_tracepoints(struct tracker *tr)
{
	int i;

	for (i = 0; i < tr->tr_o->o_nspecs; i++)
		if (cpc_bind_curlwp(tr->tr_cpc, tr->tr_tmpl[i], 0) == 0)
			(void)cpc_unbind(tr->tr_cpc, tr->tr_tmpl[i]);
	errh_clear();
}

/* The run without stops (lr started): wait, the lines, the status. */
static int
run_lwpevents(struct tracker *tr, struct lwpev *lr, int fail)
{
	int rc;

	rc = lwpev_wait(lr);
	command_release(tr);
	if (tree_total(tr) != 0 && rc == 0)
		rc = fail;
	lwpev_destroy(lr);
	return rc;
}

/*
 * The ptrace run to its end, then the command's status (a -p process's
 * only when a signal killed it, as a shell would say).
 */
static int
run_ptrace(struct tracker *tr, int fail)
{
	int rc, failed;

	failed = callbacks_run(tr) != 0;
	out_flush(tr);	/* before a wait for the command */
	if (outfailed(tr))
		failed = 1;
	if (tr->tr_o->o_pid == 0)
		rc = end_command(tr, failed);
	else if (failed)
		rc = 1;
	else
		rc = tr->tr_rootexited && WIFSIGNALED(tr->tr_rootstatus) ?
		    wait_status(tr->tr_rootstatus) : 0;
	command_release(tr);
	if (tree_total(tr) != 0 && rc == 0)
		rc = fail;
	if (tr->tr_sm != NULL && smpl_finish(tr->tr_sm) != 0 && rc == 0)
		rc = fail;
	return rc;
}

int
track(struct tracker *tr)
{
	const struct topts *o = tr->tr_o;
	int fail = o->o_pid ? 1 : EXIT_OWNFAIL;
	struct lwpev *lr;
	int rc, e;

	setvbuf(tr->tr_out, NULL, _IOFBF, 0);
	if (prepare(tr) != 0) {
		cleanup(tr);
		return fail;
	}
	anchor_tracepoints(tr);
	if (command_start(tr) != 0) {
		e = errno;
		cleanup(tr);
		return o->o_pid ? 1 : exec_status(e);
	}
	/*
	 * -p: we end right after the run, and the kernel then detaches
	 * every thread at once, not stopping one (see pctx_set_ops(3)).
	 */
	if (o->o_pid != 0)
		(void)pctx_detach_at_exit(tr->tr_pctx);
	tr->tr_rootpid = pctx_pid(tr->tr_pctx);
	/* Only now: the command keeps the limit it was given. */
	cli_raise_nofile();
	callbacks_set(tr);
	catch_signals(tr);
	tr->tr_t0 = now();
	smpl_start(tr->tr_sm, tr->tr_t0);
	if ((lr = lwpev_start(tr)) != NULL)
		rc = run_lwpevents(tr, lr, fail);
	else
		rc = run_ptrace(tr, fail);
	cleanup(tr);
	return rc;
}
