/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * suggest.c - close names for a name the catalogue does not know: each
 * kind offers its names (ev_suggest_offer) and the best three are said.
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"

#define DIST_MAX	(CPC_MAX_ATTR_LEN * 3)	/* longer: never close */

/*
 * The fuzzing build (make fuzz) traces every comparison for coverage.
 * Those of the distance and of ruling candidates out are arithmetic on
 * letters and lengths, thousands per unknown name, which tell the fuzzer
 * nothing about the catalogue: tracing them took most of its time.
 */
#if defined(__clang__)
#define NO_COVERAGE	__attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE
#endif

/* s, letter case folded when fold is set, into buf; its length. */
static NO_COVERAGE size_t
folded(const char *s, int fold, char *buf)
{
	size_t n;

	for (n = 0; s[n] != '\0' && n < DIST_MAX; n++)
		buf[n] = fold ? (char)tolower((unsigned char)s[n]) : s[n];
	return s[n] == '\0' ? n : DIST_MAX;
}

/*
 * Edit distance with adjacent transpositions, for suggestions, letter
 * case ignored when fold is set; any number above limit when the
 * distance is.  A row's smallest value is at least the smaller of the
 * two rows before it, so once two rows in a row are above limit, so is
 * the distance, and the rest is not worked out.
 */
static NO_COVERAGE int
distance(const char *sa, const char *sb, int fold, int limit)
{
	char a[DIST_MAX], b[DIST_MAX];
	size_t la = folded(sa, fold, a), lb = folded(sb, fold, b), i, j;
	int d[DIST_MAX][DIST_MAX], rowmin, prevmin = 0;

	if (la >= DIST_MAX || lb >= DIST_MAX)
		return 1000;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++) {
		rowmin = d[i][0];
		for (j = 1; j <= lb; j++) {
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + (a[i - 1] != b[j - 1]) < v)
				v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
			if (v < rowmin)
				rowmin = v;
		}
		if (rowmin > limit && prevmin > limit)
			return limit + 1;
		prevmin = rowmin;
	}
	return d[la][lb];
}

/*
 * A lower bound of the distance, cheap to work out: an edit changes the
 * counts of at most two letters by one each (a transposition none), so
 * the distance is at least half the sum of the differences in the
 * letters' counts (case folded; letters that share a bucket only make
 * the bound lower).
 */
static NO_COVERAGE int
letters_apart(const char *a, const char *b)
{
	int cnt[128] = { 0 }, sum = 0;
	const char *p;

	for (p = a; *p != '\0'; p++)
		cnt[tolower((unsigned char)*p) & 127]++;
	for (p = b; *p != '\0'; p++)
		cnt[tolower((unsigned char)*p) & 127]--;
	/* Each bucket once: counted, then emptied. */
	for (p = a; *p != '\0'; p++) {
		sum += abs(cnt[tolower((unsigned char)*p) & 127]);
		cnt[tolower((unsigned char)*p) & 127] = 0;
	}
	for (p = b; *p != '\0'; p++) {
		sum += abs(cnt[tolower((unsigned char)*p) & 127]);
		cnt[tolower((unsigned char)*p) & 127] = 0;
	}
	return (sum + 1) / 2;
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

/*
 * A name's sketch: its length and the letters in it (case folded, 64
 * buckets).  Each letter that one of two names has and the other lacks
 * takes an edit of its own, so the distance is at least the number of
 * such letters on either side (letters sharing a bucket only lower it),
 * and at least the difference in length.
 */
NO_COVERAGE void
ev_sketch(const char *s, struct ev_sketch *sk)
{
	size_t n;

	sk->sk_mask = 0;
	for (n = 0; s[n] != '\0'; n++)
		sk->sk_mask |= 1ULL << (tolower((unsigned char)s[n]) & 63);
	sk->sk_len = n;
}

/* ev_suggest_offer with key's sketch sk. */
static NO_COVERAGE void
offer(struct ev_suggest *sg, const char *want, const char *key,
    const struct ev_sketch *sk, const char *shown)
{
	const struct ev_sketch *w = &sg->sg_wsk;
	int d, i, max;

	if (sg->sg_want != want) {	/* the same want, offer after offer */
		sg->sg_want = want;
		ev_sketch(want, &sg->sg_wsk);
	}
	max = (int)w->sk_len / 3 + 1;
	/*
	 * With three names kept, one further than the third is never kept
	 * (the case-blind distance weighs 1024 times the other, which is
	 * below 1024): a tighter bound for what follows.
	 */
	if (sg->sg_n == 3 && sg->sg_dist[2] / 1024 < max)
		max = sg->sg_dist[2] / 1024;
	/* Ruled out cheaply first, then by counting letters. */
	if ((w->sk_len > sk->sk_len ? w->sk_len - sk->sk_len :
	    sk->sk_len - w->sk_len) > (size_t)max ||
	    __builtin_popcountll(w->sk_mask & ~sk->sk_mask) > max ||
	    __builtin_popcountll(sk->sk_mask & ~w->sk_mask) > max ||
	    letters_apart(want, key) > max)
		return;
	if ((d = distance(want, key, 1, max)) > max ||
	    strlen(shown) >= sizeof(sg->sg_best[0]) ||
	    strcmp(shown, sg->sg_typed) == 0)
		return;
	d = d * 1024 + distance(want, key, 0, INT_MAX);
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
ev_suggest_offer(struct ev_suggest *sg, const char *want, const char *key,
    const char *shown)
{
	struct ev_sketch sk;

	ev_sketch(key, &sk);
	offer(sg, want, key, &sk, shown);
}

void
ev_cand_set(struct ev_cand *cd, const char *key, const char *shown)
{
	cd->cd_key = key;
	cd->cd_shown = shown;
	ev_sketch(key, &cd->cd_sk);
}

/* Most candidates are ruled out by their sketch: this loop is the cost. */
NO_COVERAGE void
ev_suggest_offer_list(struct ev_suggest *sg, const char *want,
    const struct ev_cand *cd, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		offer(sg, want, cd[i].cd_key, &cd[i].cd_sk, cd[i].cd_shown);
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
