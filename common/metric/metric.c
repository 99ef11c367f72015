/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metric.c - the list of -M metrics (metric.h): the built-ins, the
 * arguments parsed into it, and their events checked on the machine.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errh.h"
#include "metint.h"

const struct met_builtin met_builtins[] = {
	{ "ipc", "instructions / cycles", "instructions per cycle" },
	{ "cpi", "cycles / instructions", "cycles per instruction" },
	{ "ghz", "cycles / \"task-clock\"", "GHz" },
	{ "branch-miss%", "100 * \"branch-misses\" / branches", "%" },
	{ "cache-miss%", "100 * \"cache-misses\" / \"cache-references\"",
	    "%" },
	{ "ec-hit%", "100 * EC_hit / EC_ref", "%" },
	{ "rate:EVENT", "\"EVENT\" / secs", "per second" },
	{ NULL, NULL, NULL },
};

struct metrics *
met_create(void)
{
	return calloc(1, sizeof(struct metrics));
}

void
met_destroy(struct metrics *ms)
{
	int i;

	if (ms == NULL)
		return;
	for (i = 0; i < ms->ms_n; i++) {
		free(ms->ms_m[i].m_name);
		mx_free(&ms->ms_m[i].m_x);
	}
	for (i = 0; i < ms->ms_ntexts; i++)
		free(ms->ms_texts[i]);
	free(ms->ms_texts);
	met_unattach(ms);
	free(ms);
}

int
met_n(const struct metrics *ms)
{
	return ms == NULL ? 0 : ms->ms_n;
}

const struct metric *
met_get(const struct metrics *ms, int i)
{
	return &ms->ms_m[i];
}

/* A metric's name: letters, digits and _ . % : - */
static size_t
name_ok(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isalnumc(s[i]) && strchr("_.%:-", s[i]) == NULL)
			return i;
	return len;
}

/* Has s[0..len) a control character (which would break a line)? */
static int
has_control(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 1;
	return 0;
}

/* rate:EVENT, EVENT bare or quoted: "EVENT" / secs. */
static int
rate_expr(const char *ev, size_t len, char *buf, size_t buflen, char *name,
    size_t namelen)
{
	if (len >= 2 && ev[0] == '"' && ev[len - 1] == '"') {
		ev++;
		len -= 2;
	}
	if (len == 0 || memchr(ev, '"', len) != NULL ||
	    has_control(ev, len) || len + 16 > buflen || len + 6 > namelen)
		return -1;
	snprintf(buf, buflen, "\"%.*s\" / secs", (int)len, ev);
	snprintf(name, namelen, "rate:%.*s", (int)len, ev);
	return 0;
}

/* A built-in's expression, its name in name; NULL with err. */
static const char *
builtin(const char *item, size_t len, size_t pos, char *name,
    size_t namelen, char *err, size_t errlen)
{
	const struct met_builtin *b;

	for (b = met_builtins; b->mb_name != NULL; b++)
		if (strlen(b->mb_name) == len &&
		    strncmp(b->mb_name, item, len) == 0 &&
		    strchr(b->mb_name, ':') == NULL) {
			snprintf(name, namelen, "%s", b->mb_name);
			return b->mb_expr;
		}
	if (has_control(item, len))
		met_err(err, errlen, pos, "unknown metric (with a control "
		    "character)");
	else
		met_err(err, errlen, pos, "unknown metric '%.*s': the "
		    "built-ins are %s; or NAME=EXPR", (int)len, item,
		    met_list());
	return NULL;
}

/*
 * NAME=EXPR: the name into name, the expression into ebuf; its place
 * in the argument, or -1 with err.
 */
static int
user_metric(const char *item, size_t len, size_t nlen, size_t pos,
    char *name, size_t namelen, char *ebuf, size_t elen, char *err,
    size_t errlen)
{
	size_t bad = 0;

	if (nlen == 0 || (bad = name_ok(item, nlen)) < nlen ||
	    nlen >= namelen)
		return met_err(err, errlen, pos + bad, "a metric's name is "
		    "letters, digits and _ . %% : - (NAME=EXPR)");
	if (len - nlen - 1 >= elen)
		return met_err(err, errlen, pos + nlen + 1,
		    "expression too long");
	snprintf(name, namelen, "%.*s", (int)nlen, item);
	snprintf(ebuf, elen, "%.*s", (int)(len - nlen - 1), item + nlen + 1);
	return (int)(pos + nlen + 1);
}

/* The metric item[0..len) at pos (from 0) of the argument. */
static int
add_one(struct metrics *ms, const char *item, size_t len, size_t pos,
    char *err, size_t errlen)
{
	char name[CPC_MAX_EVENT_LEN + 16], ebuf[CPC_MAX_EVENT_LEN + 32];
	const char *eq = memchr(item, '=', len), *ex = ebuf;
	struct metric *m;
	int i, base = 0;

	if (len == 0)
		return met_err(err, errlen, pos, "empty metric");
	if (eq != NULL)
		base = user_metric(item, len, (size_t)(eq - item), pos, name,
		    sizeof(name), ebuf, sizeof(ebuf), err, errlen);
	else if (len >= 5 && strncmp(item, "rate:", 5) == 0)
		base = rate_expr(item + 5, len - 5, ebuf, sizeof(ebuf), name,
		    sizeof(name)) != 0 ? met_err(err, errlen, pos + 5, "rate: "
		    "needs an event name (of no '\"' or control character)") :
		    0;
	else if ((ex = builtin(item, len, pos, name, sizeof(name), err,
	    errlen)) == NULL)
		return -1;
	if (base < 0)
		return -1;
	for (i = 0; i < ms->ms_n; i++)
		if (strcmp(ms->ms_m[i].m_name, name) == 0)
			return met_err(err, errlen, pos, "metric '%s' given "
			    "twice", name);
	if (ms->ms_n == MET_MAX)
		return met_err(err, errlen, pos, "more than %d metrics",
		    MET_MAX);
	m = &ms->ms_m[ms->ms_n];
	if (mx_parse(ex, base, &m->m_x, err, errlen) != 0)
		return -1;
	m->m_builtin = eq == NULL;
	if ((m->m_name = strdup(name)) == NULL) {
		mx_free(&m->m_x);
		return met_err(err, errlen, pos, "out of memory");
	}
	ms->ms_n++;
	return 0;
}

/* Split arg at the commas outside double quotes. */
int
met_add(struct metrics *ms, const char *arg, char *err, size_t errlen)
{
	size_t start = 0, i;
	int quoted = 0;

	if (*arg == '\0')
		return met_err(err, errlen, 0, "no metric named");
	for (i = 0;; i++) {
		if (arg[i] == '"')
			quoted = !quoted;
		if ((arg[i] != ',' || quoted) && arg[i] != '\0')
			continue;
		if (add_one(ms, arg + start, i - start, start, err,
		    errlen) != 0)
			return -1;
		if (arg[i] == '\0')
			return 0;
		start = i + 1;
	}
}

/*
 * Event ev resolved as cpustat -c would: 0, or -1 with the reason in
 * err and *usage set when the name is wrong.
 */
static int
check_event(cpc_t *cpc, const char *ev, char *err, size_t errlen,
    int *usage)
{
	char msg[512];
	struct spec sp;
	cpc_set_t *set;
	int one;

	*usage = 1;
	if (strpbrk(ev, ",= \t") != NULL) {
		snprintf(err, errlen, "event '%s' cannot be named in a -c set",
		    ev);
		return -1;
	}
	if (spec_parse_cpc(cpc, ev, &sp, msg, sizeof(msg)) != 0) {
		snprintf(err, errlen, "event '%s': %.300s", ev, msg);
		return -1;
	}
	one = sp.sp_nreqs == 1 && strcmp(sp.sp_reqs[0].sr_event, ev) == 0;
	set = one ? spec_build(cpc, &sp) : NULL;
	*usage = !one || errno == EINVAL;
	spec_free(&sp);
	if (set == NULL) {
		if (one)
			snprintf(err, errlen, "%s", errh_last());
		else
			snprintf(err, errlen, "'%s' is not an event name", ev);
		return -1;
	}
	cpc_set_destroy(cpc, set);
	return 0;
}

int
met_check(const struct metrics *ms, int from, cpc_t *cpc, char *err,
    size_t errlen, int *usage)
{
	const struct metric *m;
	char msg[512];
	int i, j;

	for (i = from; i < ms->ms_n; i++) {
		m = &ms->ms_m[i];
		for (j = 0; j < m->m_x.mx_nevents; j++) {
			if (check_event(cpc, m->m_x.mx_events[j], msg,
			    sizeof(msg), usage) == 0)
				continue;
			if (m->m_builtin)
				snprintf(err, errlen, "metric '%s': %s",
				    m->m_name, msg);
			else
				snprintf(err, errlen, "position %d: %s",
				    m->m_x.mx_evpos[j], msg);
			return -1;
		}
	}
	return 0;
}

int
met_err(char *err, size_t errlen, size_t pos, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "position %zu: %s", pos + 1, msg);
	return -1;
}

const char *
met_list(void)
{
	static char list[256];
	const struct met_builtin *b;
	size_t n = 0;

	if (list[0] != '\0')
		return list;
	for (b = met_builtins; b->mb_name != NULL; b++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
		    n > 0 ? ", " : "", b->mb_name);
	return list;
}
