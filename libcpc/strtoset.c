/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strtoset.c - the -c grammar (see strtoset.h), shared by the tools, the
 * public cpc_strtoset and the v1 cpc_strtoevent.
 *
 * Tokens are separated by commas, except inside a sysfs PMU event
 * "pmu/term=val,term=val/", which stays one token.  Keywords win over
 * event names: a bare word equal to an attribute name, "sys" or "nouser"
 * is never taken for an event.  Implicit events go to the first slot
 * after the highest one already used.  Flags and attributes are kept per
 * slot and applied when the requests are made, so their position in the
 * string does not matter.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpc_impl.h"
#include "strtoset.h"

/* A setting for all slots (pic -1) or for one. */
struct setting {
	int		 st_pic;
	const char	*st_name;	/* "sys", "nouser" or an attribute */
	uint64_t	 st_val;
	char		 st_tok[64];	/* as written, for messages */
};

/* The function that libcpc's messages about a spec are reported for. */
#define SPEC_FN	"cpc_strtoset"

struct parse {
	const char		*p_text;
	uint_t			 p_npic;
	const char *const	*p_attrs;
	char			*p_events[SPEC_MAXPIC];
	struct setting		*p_set;
	int			 p_nset;
	char			*p_err;
	size_t			 p_errlen;
};

static int
fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->p_err, p->p_errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Split "name" into a keyword and a slot: "umask12" -> "umask", 12.
 * Returns 1 when base matches, with *pic -1 for no digits.
 */
static int
keyword(const char *key, const char *base, int *pic)
{
	size_t n = strlen(base);
	const char *d = key + n;
	long v;

	if (strncmp(key, base, n) != 0)
		return 0;
	if (*d == '\0') {
		*pic = -1;
		return 1;
	}
	for (v = 0; isdigit((unsigned char)*d); d++) {
		v = v * 10 + (*d - '0');
		if (v > 100000)
			return 0;
	}
	if (*d != '\0' || (key[n] == '0' && key[n + 1] != '\0'))
		return 0;
	*pic = (int)v;
	return 1;
}

static int
parse_value(const char *s, uint64_t *v)
{
	char *end;

	if (s == NULL) {
		*v = 1;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return *end != '\0' || errno != 0 ? -1 : 0;
}

static int
add_setting(struct parse *p, const char *tok, const char *name, int pic,
    uint64_t val)
{
	struct setting *s;
	int i;

	for (i = 0; i < p->p_nset; i++)
		if (p->p_set[i].st_pic == pic &&
		    strcmp(p->p_set[i].st_name, name) == 0)
			return fail(p, "repeated '%s' token", tok);
	s = realloc(p->p_set, (p->p_nset + 1) * sizeof(*s));
	if (s == NULL)
		return fail(p, "out of memory");
	p->p_set = s;
	s = &s[p->p_nset++];
	s->st_pic = pic;
	s->st_name = name;
	s->st_val = val;
	snprintf(s->st_tok, sizeof(s->st_tok), "%s", tok);
	return 0;
}

static int
check_pic(struct parse *p, const char *tok, int pic)
{
	if (pic >= 0 && (uint_t)pic >= p->p_npic)
		return fail(p, "'%s': no counter pic%d (this machine has "
		    "pic0-pic%u)", tok, pic, p->p_npic - 1);
	return 0;
}

static int
place_event(struct parse *p, const char *tok, int pic, const char *ev)
{
	int i, top = -1;

	if (pic < 0) {
		for (i = 0; i < (int)p->p_npic; i++)
			if (p->p_events[i] != NULL)
				top = i;
		pic = top + 1;
		if ((uint_t)pic >= p->p_npic) {
			for (i = 0; i < top; i++)
				if (p->p_events[i] == NULL)
					return fail(p, "no counter after "
					    "pic%d for '%s' (an event without "
					    "picN= goes after the highest pic "
					    "used; write pic%d=%s)", top, tok,
					    i, tok);
			return fail(p, "too many events at '%s': a set holds "
			    "at most %u (pic0-pic%u)", tok, p->p_npic,
			    p->p_npic - 1);
		}
	} else if (p->p_events[pic] != NULL)
		return fail(p, "repeated 'pic%d' token", pic);
	if ((p->p_events[pic] = strdup(ev)) == NULL)
		return fail(p, "out of memory");
	return 0;
}

static int
parse_token(struct parse *p, char *tok)
{
	char *eq, *slash, *colon;
	const char *val = NULL;
	uint64_t v;
	int pic, i;

	if (*tok == '\0')
		return fail(p, "empty token (two commas, or a comma at an "
		    "end)");
	eq = strchr(tok, '=');
	slash = strchr(tok, '/');
	if (slash != NULL && (eq == NULL || slash < eq))
		return place_event(p, tok, -1, tok);	/* pmu/.../ */
	colon = strchr(tok, ':');
	if (colon != NULL && eq != NULL && colon < eq)
		return place_event(p, tok, -1, tok);	/* EV:UMASK:c=2 */
	if (eq != NULL) {
		*eq = '\0';
		val = eq + 1;
	}
	if (keyword(tok, "pic", &pic) && pic >= 0) {
		if (check_pic(p, tok, pic) != 0)
			return -1;
		if (val == NULL || *val == '\0')
			return fail(p, "missing 'pic%d' value", pic);
		return place_event(p, tok, pic, val);
	}
	if (keyword(tok, "sys", &pic) || keyword(tok, "nouser", &pic)) {
		const char *name = tok[0] == 's' ? "sys" : "nouser";

		if (check_pic(p, tok, pic) != 0)
			return -1;
		if (parse_value(val, &v) != 0 || v > 1)
			return fail(p, "invalid value '%s' for '%s' (0 or 1)",
			    val, tok);
		return add_setting(p, tok, name, pic, v);
	}
	for (i = 0; p->p_attrs != NULL && p->p_attrs[i] != NULL; i++) {
		if (!keyword(tok, p->p_attrs[i], &pic))
			continue;
		if (check_pic(p, tok, pic) != 0)
			return -1;
		if (parse_value(val, &v) != 0)
			return fail(p, "invalid value '%s' for attribute "
			    "'%s'", val != NULL ? val : "", tok);
		return add_setting(p, tok, p->p_attrs[i], pic, v);
	}
	if (eq != NULL) {
		*eq = '=';
		return fail(p, "bad token '%s' (not pic<N>=, sys, nouser or "
		    "an attribute)", tok);
	}
	return place_event(p, tok, -1, tok);
}

/* Split at commas outside pmu/.../ spans. */
static int
tokenize(struct parse *p, char *s)
{
	char *start = s;
	int inside = 0;

	for (;; s++) {
		if (*s == '/')
			inside = !inside;
		if (*s == '\0' || (*s == ',' && !inside)) {
			int end = *s == '\0';

			if (inside)
				return fail(p, "unterminated PMU event '%s' "
				    "(expected pmu/term=value,.../)", start);
			*s = '\0';
			if (parse_token(p, start) != 0)
				return -1;
			if (end)
				return 0;
			start = s + 1;
		}
	}
}

static uint_t
flags_for(const struct parse *p, int pic)
{
	uint_t f = CPC_COUNT_USER;
	int pass, i;

	/* Global settings first, then the slot's own. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->p_nset; i++) {
			const struct setting *s = &p->p_set[i];
			uint_t bit;

			if ((pass == 0) != (s->st_pic < 0) ||
			    (pass == 1 && s->st_pic != pic))
				continue;
			if (strcmp(s->st_name, "sys") == 0)
				bit = CPC_COUNT_SYSTEM;
			else if (strcmp(s->st_name, "nouser") == 0)
				bit = CPC_COUNT_USER;
			else
				continue;
			if ((bit == CPC_COUNT_SYSTEM) == (s->st_val != 0))
				f |= bit;
			else
				f &= ~bit;
		}
	return f;
}

static int
attrs_for(struct parse *p, int pic, struct spec_req *r)
{
	int pass, i;
	uint_t k;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->p_nset; i++) {
			const struct setting *s = &p->p_set[i];

			if ((pass == 0) != (s->st_pic < 0) ||
			    (pass == 1 && s->st_pic != pic) ||
			    strcmp(s->st_name, "sys") == 0 ||
			    strcmp(s->st_name, "nouser") == 0)
				continue;
			for (k = 0; k < r->sr_nattrs; k++)
				if (strcmp(r->sr_attrs[k].ca_name,
				    s->st_name) == 0)
					break;
			if (k == SPEC_MAXATTR)
				return fail(p, "too many attributes");
			if (k == r->sr_nattrs) {
				r->sr_attrs[k].ca_name = strdup(s->st_name);
				if (r->sr_attrs[k].ca_name == NULL)
					return fail(p, "out of memory");
				r->sr_nattrs++;
			}
			r->sr_attrs[k].ca_val = s->st_val;
		}
	return 0;
}

static int
assemble(struct parse *p, struct spec *sp)
{
	int i, n = 0;

	for (i = 0; i < p->p_nset; i++) {
		int pic = p->p_set[i].st_pic;

		if (pic >= 0 && p->p_events[pic] == NULL)
			return fail(p, "'%s' applies to pic%d, which has no "
			    "event", p->p_set[i].st_tok, pic);
	}
	for (i = 0; i < (int)p->p_npic; i++)
		n += p->p_events[i] != NULL;
	if (n == 0)
		return fail(p, "no event in the specification");
	if ((sp->sp_reqs = calloc(n, sizeof(*sp->sp_reqs))) == NULL)
		return fail(p, "out of memory");
	sp->sp_sysonly = 1;
	for (i = 0; i < (int)p->p_npic; i++) {
		struct spec_req *r;

		if (p->p_events[i] == NULL)
			continue;
		r = &sp->sp_reqs[sp->sp_nreqs++];
		r->sr_pic = i;
		r->sr_event = p->p_events[i];
		p->p_events[i] = NULL;
		r->sr_flags = flags_for(p, i);
		if (r->sr_flags & CPC_COUNT_USER)
			sp->sp_sysonly = 0;
		if (attrs_for(p, i, r) != 0)
			return -1;
	}
	return 0;
}

int
spec_parse(const char *text, uint_t npic, const char *const *attrs,
    struct spec *sp, char *err, size_t errlen)
{
	struct parse p;
	char *copy;
	int rc = -1, i;

	memset(sp, 0, sizeof(*sp));
	memset(&p, 0, sizeof(p));
	p.p_text = text;
	p.p_npic = npic > SPEC_MAXPIC ? SPEC_MAXPIC : npic;
	p.p_attrs = attrs;
	p.p_err = err;
	p.p_errlen = errlen;
	if (text[strspn(text, " \t")] == '\0') {
		fail(&p, "empty event specification");
		return -1;
	}
	if ((copy = strdup(text)) == NULL ||
	    (sp->sp_text = strdup(text)) == NULL) {
		free(copy);
		fail(&p, "out of memory");
		return -1;
	}
	if (tokenize(&p, copy) == 0 && assemble(&p, sp) == 0)
		rc = 0;
	free(copy);
	for (i = 0; i < SPEC_MAXPIC; i++)
		free(p.p_events[i]);
	free(p.p_set);
	if (rc != 0)
		spec_free(sp);
	return rc;
}

void
spec_free(struct spec *sp)
{
	int i;
	uint_t k;

	if (sp == NULL)
		return;
	for (i = 0; i < sp->sp_nreqs; i++) {
		free(sp->sp_reqs[i].sr_event);
		for (k = 0; k < sp->sp_reqs[i].sr_nattrs; k++)
			free(sp->sp_reqs[i].sr_attrs[k].ca_name);
	}
	free(sp->sp_reqs);
	free(sp->sp_text);
	memset(sp, 0, sizeof(*sp));
}

/*
 * Each event with its slot, then that slot's own settings: spec_parse
 * takes the text back to the same requests.
 */
char *
spec_format(const struct spec *sp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;
	uint_t k;

	if ((f = open_memstream(&text, &len)) == NULL)
		return NULL;
	for (i = 0; i < sp->sp_nreqs; i++) {
		const struct spec_req *r = &sp->sp_reqs[i];

		fprintf(f, "%spic%d=%s", i == 0 ? "" : ",", r->sr_pic,
		    r->sr_event);
		if (r->sr_flags & CPC_COUNT_SYSTEM)
			fprintf(f, ",sys%d", r->sr_pic);
		if (!(r->sr_flags & CPC_COUNT_USER))
			fprintf(f, ",nouser%d", r->sr_pic);
		for (k = 0; k < r->sr_nattrs; k++)
			fprintf(f, ",%s%d=%#llx", r->sr_attrs[k].ca_name,
			    r->sr_pic,
			    (unsigned long long)r->sr_attrs[k].ca_val);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

cpc_set_t *
spec_build(cpc_t *cpc, const struct spec *sp)
{
	return spec_build_with(cpc, sp, NULL, NULL);
}

cpc_set_t *
spec_build_with(cpc_t *cpc, const struct spec *sp, const uint64_t *presets,
    const uint_t *flags)
{
	cpc_attr_t attrs[SPEC_MAXATTR + 1];
	cpc_set_t *set;
	unsigned long seen;
	int i;

	if ((set = cpc_set_create(cpc)) == NULL) {
		cpc_err(cpc, SPEC_FN, -1, "cannot create a set: %s",
		    strerror(errno));
		return NULL;
	}
	for (i = 0; i < sp->sp_nreqs; i++) {
		const struct spec_req *r = &sp->sp_reqs[i];

		memcpy(attrs, r->sr_attrs, r->sr_nattrs * sizeof(*attrs));
		attrs[r->sr_nattrs].ca_name = "picnum";
		attrs[r->sr_nattrs].ca_val = (uint64_t)r->sr_pic;
		seen = cpc_err_count();
		if (cpc_set_add_request(cpc, set, r->sr_event,
		    presets != NULL ? presets[i] : 0,
		    flags != NULL ? flags[i] : r->sr_flags,
		    r->sr_nattrs + 1, attrs) < 0) {
			int e = errno;

			/* A failure libcpc gave no message for gets one. */
			if (cpc_err_count() == seen)
				cpc_err(cpc, SPEC_FN, -1, "cannot add '%s': %s",
				    r->sr_event, strerror(e));
			cpc_set_destroy(cpc, set);
			errno = e;
			return NULL;
		}
	}
	return set;
}

cpc_set_t *
spec_build_like(cpc_t *cpc, const cpc_set_t *tmpl)
{
	cpc_set_t *set;

	if ((set = cpc_set_copy(cpc, tmpl)) == NULL)
		cpc_err(cpc, SPEC_FN, -1, "cannot create a set: %s",
		    strerror(errno));
	return set;
}

static void
collect_attr(void *arg, const char *name)
{
	const char **list = arg;
	int i;

	if (strcmp(name, "picnum") == 0)
		return;
	for (i = 0; i < SPEC_MAXATTR - 1 && list[i] != NULL; i++)
		;
	if (i < SPEC_MAXATTR - 1)
		list[i] = name;
}

int
spec_parse_cpc(cpc_t *cpc, const char *text, struct spec *sp, char *err,
    size_t errlen)
{
	return spec_parse_npic(cpc, text, cpc_npic(cpc), sp, err, errlen);
}

int
spec_parse_common(cpc_t *cpc, const char *text, struct spec *sp, char *err,
    size_t errlen)
{
	const char *attrs[SPEC_MAXATTR] = { NULL };

	cpc_walk_attrs_common(cpc, attrs, collect_attr);
	return spec_parse(text, cpc_npic(cpc), attrs, sp, err, errlen);
}

int
spec_parse_npic(cpc_t *cpc, const char *text, uint_t npic, struct spec *sp,
    char *err, size_t errlen)
{
	const char *attrs[SPEC_MAXATTR] = { NULL };

	cpc_walk_attrs(cpc, attrs, collect_attr);
	return spec_parse(text, npic, attrs, sp, err, errlen);
}

CPC_EXPORT cpc_set_t *
cpc_strtoset(cpc_t *cpc, const char *text, int smt)
{
	struct spec sp;
	cpc_set_t *set;
	char err[512];

	(void)smt;	/* SMT sibling attributes were a Pentium 4 matter */
	if (cpc == NULL || text == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (spec_parse_cpc(cpc, text, &sp, err, sizeof(err)) != 0) {
		errno = EINVAL;
		cpc_err(cpc, SPEC_FN, -1, "%s", err);
		return NULL;
	}
	set = spec_build(cpc, &sp);
	spec_free(&sp);
	if (set == NULL)
		errno = EINVAL;
	return set;
}
