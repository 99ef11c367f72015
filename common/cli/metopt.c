/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metopt.c - -M (--metrics) on the command line: the metrics parsed and
 * checked, and their events put into the -c texts (cli.h).
 */
#include "config.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void
cli_metrics(cpc_t *cpc, struct cli_common *cc, int failstatus)
{
	const char *const *texts;
	const char **nt;
	char msg[1024];
	int i, n, usage;

	if (cc->cc_nmtexts == 0)
		return;
	if ((cc->cc_met = met_create()) == NULL)
		err(failstatus, "out of memory");
	for (i = 0; i < cc->cc_nmtexts; i++) {
		n = met_n(cc->cc_met);
		if (met_add(cc->cc_met, cc->cc_mtexts[i], msg,
		    sizeof(msg)) != 0)
			cli_usage_error("-M '%s': %s", cc->cc_mtexts[i], msg);
		if (met_check(cc->cc_met, n, cpc, msg, sizeof(msg),
		    &usage) == 0)
			continue;
		if (usage)
			cli_usage_error("-M '%s': %s", cc->cc_mtexts[i], msg);
		cli_errx(failstatus, "-M '%s': %s", cc->cc_mtexts[i], msg);
	}
	free(cc->cc_mtexts);
	cc->cc_mtexts = NULL;
	switch (met_plan(cc->cc_met, cpc, (const char *const *)cc->cc_texts,
	    cc->cc_ntexts, &texts, &n, msg, sizeof(msg))) {
	case 0:
		break;
	case -2:
		cli_usage_error("-M: %s", msg);
	default:
		cli_errx(failstatus, "-M: %s", msg);
	}
	if ((nt = calloc(n, sizeof(*nt))) == NULL)
		err(failstatus, "out of memory");
	memcpy(nt, texts, n * sizeof(*nt));
	free(cc->cc_texts);
	cc->cc_texts = nt;
	cc->cc_ntexts = n;
}

const char *
cli_help_metrics(void)
{
	return
	    "\t-M metrics\tderived metrics after the counts: ipc, cpi, ghz,\n"
	    "\t\t\tbranch-miss%, cache-miss%, ec-hit%, rate:EVENT, or\n"
	    "\t\t\tNAME=EXPR (+ - * / ( ), numbers, events, secs);\n"
	    "\t\t\ttheir events join the -c sets (see METRICS)\n";
}
