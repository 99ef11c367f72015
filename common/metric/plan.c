/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan.c - where a metric's events are counted (metric.h's met_plan).
 *
 * A metric is computed in the -c sets that carry all its events: the
 * user who split events over rotating sets keeps the rotation.  When no
 * set carries them all, the events it lacks are added to every set (or
 * make the one set when there is no -c): each set then computes it.  A
 * set so grown past the slots a set holds is an error, not a metric
 * quietly left out.  The kernel time-shares a set of more events than
 * the processor has counters, and the counts are then scaled ("(scaled)"),
 * which the metrics use.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "metint.h"

/* Does sp count ev? */
static int
has_event(const struct spec *sp, const char *ev)
{
	int i;

	for (i = 0; i < sp->sp_nreqs; i++)
		if (strcmp(sp->sp_reqs[i].sr_event, ev) == 0)
			return 1;
	return 0;
}

static int
carries(const struct spec *sp, const struct metric *m)
{
	int i;

	for (i = 0; i < m->m_x.mx_nevents; i++)
		if (!has_event(sp, m->m_x.mx_events[i]))
			return 0;
	return 1;
}

/* Append ",ev" to *text unless sp (NULL: none) or *text has it. */
static int
append(char **text, const struct spec *sp, const char *ev)
{
	size_t n = strlen(*text), k = strlen(ev);
	const char *p;
	char *t;

	if (sp != NULL && has_event(sp, ev))
		return 0;
	for (p = *text; (p = strstr(p, ev)) != NULL; p++)
		if ((p == *text || p[-1] == ',' || p[-1] == '=') &&
		    (p[k] == ',' || p[k] == '\0'))
			return 0;
	if ((t = realloc(*text, n + k + 2)) == NULL)
		return -1;
	if (n > 0)
		t[n++] = ',';
	memcpy(t + n, ev, k + 1);
	*text = t;
	return 0;
}

/* The texts as given, ms's copies: one empty when there are none. */
static int
copy_texts(struct metrics *ms, const char *const *texts, int n)
{
	int i, nt = n > 0 ? n : 1;

	if ((ms->ms_texts = calloc(nt, sizeof(char *))) == NULL)
		return -1;
	for (i = 0; i < nt; i++) {
		if ((ms->ms_texts[i] = strdup(n > 0 ? texts[i] : "")) == NULL)
			return -1;
		ms->ms_ntexts = i + 1;
	}
	return 0;
}

/*
 * The sets parsed (a text that does not parse is left for the caller
 * to report: it carries nothing); which metrics none carries.
 */
static void
parse_sets(struct metrics *ms, cpc_t *cpc, struct spec *sp, int *ok,
    int *lacking)
{
	char msg[512];
	int i, j;

	for (j = 0; j < ms->ms_n; j++)
		lacking[j] = 1;
	for (i = 0; i < ms->ms_ntexts; i++) {
		ok[i] = *ms->ms_texts[i] != '\0' &&
		    spec_parse_cpc(cpc, ms->ms_texts[i], &sp[i], msg,
		    sizeof(msg)) == 0;
		for (j = 0; ok[i] && j < ms->ms_n; j++)
			if (carries(&sp[i], &ms->ms_m[j]))
				lacking[j] = 0;
	}
}

/* Do the grown texts of the sets that parsed still parse? */
static int
still_fit(struct metrics *ms, cpc_t *cpc, const char *const *texts,
    const int *ok, char *err, size_t errlen)
{
	char msg[512];
	struct spec sp;
	int i;

	for (i = 0; i < ms->ms_ntexts; i++) {
		if (!ok[i] || strcmp(texts[i], ms->ms_texts[i]) == 0)
			continue;
		if (spec_parse_cpc(cpc, ms->ms_texts[i], &sp, msg,
		    sizeof(msg)) != 0) {
			snprintf(err, errlen, "the metrics' events added to "
			    "-c '%s': %.300s", texts[i], msg);
			return -1;
		}
		spec_free(&sp);
	}
	return 0;
}

int
met_plan(struct metrics *ms, cpc_t *cpc, const char *const *texts, int n,
    const char *const **out, int *nout, char *err, size_t errlen)
{
	struct spec *sp;
	int *ok, lacking[MET_MAX], i, j, k, rc = 0;

	snprintf(err, errlen, "out of memory");
	if (ms->ms_n == 0 || copy_texts(ms, texts, n) != 0) {
		*out = texts;
		*nout = n;
		return ms->ms_n == 0 ? 0 : -1;
	}
	sp = calloc(ms->ms_ntexts, sizeof(*sp));
	ok = calloc(ms->ms_ntexts, sizeof(*ok));
	if (sp == NULL || ok == NULL)
		rc = -1;
	else
		parse_sets(ms, cpc, sp, ok, lacking);
	for (i = 0; rc == 0 && i < ms->ms_ntexts; i++)
		for (j = 0; rc == 0 && j < ms->ms_n; j++)
			for (k = 0; lacking[j] && rc == 0 &&
			    k < ms->ms_m[j].m_x.mx_nevents; k++)
				rc = append(&ms->ms_texts[i],
				    ok[i] ? &sp[i] : NULL,
				    ms->ms_m[j].m_x.mx_events[k]);
	for (i = 0; sp != NULL && ok != NULL && i < ms->ms_ntexts; i++)
		if (ok[i])
			spec_free(&sp[i]);
	if (rc == 0 && n > 0 && still_fit(ms, cpc, texts, ok, err, errlen) != 0)
		rc = -2;
	free(sp);
	free(ok);
	/* No -c, and metrics of no events: the tool's own default set. */
	if (n == 0 && *ms->ms_texts[0] == '\0') {
		free(ms->ms_texts[0]);
		ms->ms_ntexts = 0;
	}
	*out = (const char *const *)ms->ms_texts;
	*nout = ms->ms_ntexts;
	return rc;
}
