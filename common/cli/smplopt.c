/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplopt.c - the sampling options of both tools: taken while parsing,
 * then checked together in one place (smpl_check), each conflict with
 * its own message.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "errh.h"
#include "smplopt.h"
#include "smplreq.h"

#define PROFILE_MAX	1000000

int
smpl_opt(struct smpl_opts *so, int ch, const char *arg)
{
	switch (ch) {
	case 'S':
		if (so->so_text != NULL)
			cli_usage_error("-S given twice: one sampling set "
			    "('%s', then '%s')", so->so_text, arg);
		so->so_text = arg;
		return 1;
	case 'g':
		so->so_callchain = 1;
		return 1;
	case SMPL_OPT_PROFILE:
		so->so_profile = arg == NULL ? SMPL_PROFILE_DEFAULT :
		    (int)cli_count("--profile", arg, 1, PROFILE_MAX);
		return 1;
	case SMPL_OPT_SAMPLES:
		so->so_samples = arg;
		return 1;
	case SMPL_OPT_FOLDED:
		so->so_folded = arg;
		return 1;
	case SMPL_OPT_PERCPU:
		so->so_percpu = 1;
		return 1;
	case SMPL_OPT_SAMPLESFMT:
		if (strcmp(arg, "csv") == 0)
			so->so_samplesfmt = SMPL_FMT_CSV;
		else if (strcmp(arg, "perf") == 0)
			so->so_samplesfmt = SMPL_FMT_PERF;
		else
			cli_usage_error("invalid --samples-format '%s': use "
			    "csv or perf", arg);
		so->so_fmtgiven = 1;
		return 1;
	}
	return 0;
}

/* The same file named twice would be written twice over. */
static int
same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The options that need -S, and their relations. */
static void
check_combinations(const struct smpl_opts *so)
{
	const char *need = NULL;

	if (so->so_profile)
		need = "--profile";
	else if (so->so_samples != NULL)
		need = "--samples";
	else if (so->so_folded != NULL)
		need = "--folded";
	else if (so->so_callchain)
		need = "-g";
	else if (so->so_percpu)
		need = "--per-cpu";
	if (need != NULL && so->so_text == NULL)
		cli_usage_error("%s needs -S: it reports on the samples of a "
		    "sampling set", need);
	if (so->so_percpu && !so->so_profile)
		cli_usage_error("--per-cpu needs --profile: it splits the "
		    "profile by CPU");
	if (so->so_folded != NULL && !so->so_callchain)
		cli_usage_error("--folded needs -g: folded stacks are made "
		    "of call chains");
	if (so->so_samples != NULL && so->so_folded != NULL &&
	    same_file(so->so_samples, so->so_folded))
		cli_usage_error("--samples and --folded name the same file "
		    "'%s'", so->so_samples);
	if (so->so_fmtgiven && so->so_samples == NULL)
		cli_usage_error("--samples-format needs --samples: it is the "
		    "format of that file");
	if (so->so_samples != NULL && *so->so_samples == '\0')
		cli_usage_error("--samples needs a file name");
	if (so->so_folded != NULL && *so->so_folded == '\0')
		cli_usage_error("--folded needs a file name");
}

void
smpl_check(cpc_t *cpc, struct smpl_opts *so, int ncspecs, int failstatus)
{
	char msg[512];
	cpc_set_t *set;

	(void)ncspecs;
	check_combinations(so);
	if (so->so_text == NULL)
		return;
	if (spec_parse_common(cpc, so->so_text, &so->so_spec, msg,
	    sizeof(msg)) != 0)
		cli_usage_error("-S '%s': %s%s", so->so_text,
		    errh_debugging() ? "cpc_strtoset: " : "", msg);
	/* Add the requests once here, so that a bad name is a usage error. */
	if ((set = cpc_set_create(cpc)) == NULL)
		err(failstatus, "cannot create a set");
	if (smplreq_add(cpc, &so->so_spec, so->so_callchain, set) < 0) {
		cpc_set_destroy(cpc, set);
		if (errno != EINVAL)
			errx(failstatus, "-S '%s': %s", so->so_text,
			    errh_last());
		cli_usage_error("-S '%s': %s", so->so_text, errh_last());
	}
	cpc_set_destroy(cpc, set);
}
