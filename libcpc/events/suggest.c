/*
 * suggest.c - close names for a name the catalogue does not know: each
 * kind offers its names (ev_suggest_offer) and the best three are said.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "catalogue.h"

/*
 * Edit distance with adjacent transpositions, for suggestions, letter
 * case ignored when fold is set.
 */
static int
distance(const char *a, const char *b, int fold)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int d[CPC_MAX_ATTR_LEN * 3][CPC_MAX_ATTR_LEN * 3];

	if (la >= sizeof(d) / sizeof(*d) || lb >= sizeof(d) / sizeof(*d))
		return 1000;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int ai = fold ? tolower((unsigned char)a[i - 1]) :
			    a[i - 1];
			int bj = fold ? tolower((unsigned char)b[j - 1]) :
			    b[j - 1];
			int ai2 = i < 2 ? 0 : fold ?
			    tolower((unsigned char)a[i - 2]) : a[i - 2];
			int bj2 = j < 2 ? 0 : fold ?
			    tolower((unsigned char)b[j - 2]) : b[j - 2];
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + (ai != bj) < v)
				v = d[i - 1][j - 1] + (ai != bj);
			if (i > 1 && j > 1 && ai == bj2 && ai2 == bj &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * The best few close names (struct ev_suggest), collected into a "did
 * you mean" text.  Each
 * candidate is a name the catalogue accepts (shown), compared by a part
 * of it (key) with a part of the typed name (want): sched:sched_switch is
 * offered for sched_switch by its event part.  Closeness ignores letter
 * case, so a name typed in the wrong case has its right spelling first;
 * among equally close names, the closer in case come first.
 */

void
ev_suggest_init(struct ev_suggest *sg, const char *typed)
{
	memset(sg, 0, sizeof(*sg));
	sg->sg_typed = typed;
}

void
ev_suggest_offer(struct ev_suggest *sg, const char *want, const char *key,
    const char *shown)
{
	int d, i, max;

	if (strlen(shown) >= sizeof(sg->sg_best[0]) ||
	    strcmp(shown, sg->sg_typed) == 0)
		return;
	d = distance(want, key, 1);
	max = (int)strlen(want) / 3 + 1;
	if (d > max)
		return;
	d = d * 1024 + distance(want, key, 0);
	for (i = 0; i < sg->sg_n; i++)
		if (strcmp(sg->sg_best[i], shown) == 0)
			return;
	if (sg->sg_n == 3 && d >= sg->sg_dist[2])
		return;
	for (i = sg->sg_n < 3 ? sg->sg_n++ : 2; i > 0 &&
	    sg->sg_dist[i - 1] > d; i--) {
		memcpy(sg->sg_best[i], sg->sg_best[i - 1],
		    sizeof(sg->sg_best[i]));
		sg->sg_dist[i] = sg->sg_dist[i - 1];
	}
	snprintf(sg->sg_best[i], sizeof(sg->sg_best[i]), "%s", shown);
	sg->sg_dist[i] = d;
}

void
ev_suggest_text(const struct ev_suggest *sg, char *buf, size_t len)
{
	int i;
	size_t n;

	buf[0] = '\0';
	if (sg->sg_n == 0)
		return;
	snprintf(buf, len, "; did you mean ");
	for (i = 0; i < sg->sg_n; i++) {
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s'%s'", i == 0 ? "" :
		    i == sg->sg_n - 1 ? " or " : ", ", sg->sg_best[i]);
	}
	n = strlen(buf);
	snprintf(buf + n, len - n, "?");
}
