/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * expr.c - a derived metric's expression (expr.h): a recursive descent
 * parser over the text with one token of look-ahead, the tree it builds,
 * and its evaluation.  Every error is one line naming the position.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

struct mx_parser {
	const char	*p_text;
	size_t		 p_pos;		/* the next character */
	int		 p_base;
	int		 p_depth;
	int		 p_nodes;
	struct mx_expr	*p_x;
	char		*p_err;
	size_t		 p_errlen;
	int		 p_failed;
};

/* The first error only: at position pos (from 0 in the text). */
static struct mx_node *
fail(struct mx_parser *p, size_t pos, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (p->p_failed++)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->p_err, p->p_errlen, "position %d: %s",
	    p->p_base + (int)pos + 1, msg);
	return NULL;
}

static void
skip_blanks(struct mx_parser *p)
{
	while (p->p_text[p->p_pos] == ' ' || p->p_text[p->p_pos] == '\t')
		p->p_pos++;
}

static struct mx_node *
node(struct mx_parser *p, enum mx_op op, struct mx_node *l,
    struct mx_node *r)
{
	struct mx_node *n;

	if (++p->p_nodes > MX_MAXNODES)
		return fail(p, p->p_pos, "expression too long (over %d terms)",
		    MX_MAXNODES);
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return fail(p, p->p_pos, "out of memory");
	n->mn_op = op;
	n->mn_l = l;
	n->mn_r = r;
	return n;
}

static void
node_free(struct mx_node *n)
{
	if (n == NULL)
		return;
	node_free(n->mn_l);
	node_free(n->mn_r);
	free(n);
}

/* A binary node of l and r, or NULL (and both freed) on a failure. */
static struct mx_node *
binary(struct mx_parser *p, enum mx_op op, struct mx_node *l,
    struct mx_node *r)
{
	struct mx_node *n;

	if (l == NULL || r == NULL || (n = node(p, op, l, r)) == NULL) {
		node_free(l);
		node_free(r);
		return NULL;
	}
	return n;
}

/* "digits[.digits][e[+-]digits]" or ".digits[...]" */
static struct mx_node *
number(struct mx_parser *p)
{
	const char *s = p->p_text + p->p_pos, *e = s;
	char buf[64];
	struct mx_node *n;

	while (isdigit((unsigned char)*e))
		e++;
	if (*e == '.')
		for (e++; isdigit((unsigned char)*e); e++)
			;
	if ((*e == 'e' || *e == 'E') && (isdigit((unsigned char)e[1]) ||
	    ((e[1] == '+' || e[1] == '-') && isdigit((unsigned char)e[2]))))
		for (e += 2; isdigit((unsigned char)*e); e++)
			;
	if (e - s >= (long)sizeof(buf) || (e - s == 1 && *s == '.'))
		return fail(p, p->p_pos, "not a number");
	if (isalpha((unsigned char)*e) || *e == '_' || *e == '.')
		return fail(p, (size_t)(e - p->p_text),
		    "a name cannot start with a digit");
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	if ((n = node(p, MX_NUM, NULL, NULL)) == NULL)
		return NULL;
	n->mn_num = strtod(buf, NULL);
	if (!isfinite(n->mn_num)) {
		free(n);
		return fail(p, p->p_pos, "number out of range");
	}
	p->p_pos += (size_t)(e - s);
	return n;
}

/* The event's index in the expression's list, added when new. */
static int
event_index(struct mx_parser *p, const char *name, size_t len, size_t pos)
{
	struct mx_expr *x = p->p_x;
	int i;

	for (i = 0; i < x->mx_nevents; i++)
		if (strlen(x->mx_events[i]) == len &&
		    memcmp(x->mx_events[i], name, len) == 0)
			return i;
	if (x->mx_nevents == MX_MAXEVENTS) {
		fail(p, pos, "more than %d events", MX_MAXEVENTS);
		return -1;
	}
	if ((x->mx_events[i] = strndup(name, len)) == NULL) {
		fail(p, pos, "out of memory");
		return -1;
	}
	x->mx_evpos[i] = p->p_base + (int)pos + 1;
	return x->mx_nevents++;
}

/* An event named by name[0..len), or secs (bare only). */
static struct mx_node *
name_node(struct mx_parser *p, const char *name, size_t len, size_t pos,
    int quoted)
{
	struct mx_node *n;
	int ev = 0;

	if (!quoted && len == 4 && memcmp(name, "secs", 4) == 0) {
		p->p_x->mx_secs = 1;
		return node(p, MX_SECS, NULL, NULL);
	}
	if ((ev = event_index(p, name, len, pos)) < 0)
		return NULL;
	if ((n = node(p, MX_EVENT, NULL, NULL)) != NULL)
		n->mn_ev = ev;
	return n;
}

static int
name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':';
}

/* '"' event '"': any characters but '"', at least one. */
static struct mx_node *
quoted(struct mx_parser *p)
{
	size_t start = p->p_pos, len;
	const char *s = p->p_text + start + 1, *e = strchr(s, '"');

	if (e == NULL)
		return fail(p, start, "'\"' not closed");
	if ((len = (size_t)(e - s)) == 0)
		return fail(p, start, "empty event name \"\"");
	for (e = s; e < s + len; e++)
		if ((unsigned char)*e < 0x20 || *e == 0x7f)
			return fail(p, (size_t)(e - p->p_text),
			    "a control character (0x%02x) in an event name",
			    (unsigned char)*e);
	p->p_pos = start + len + 2;
	return name_node(p, s, len, start + 1, 1);
}

static struct mx_node *expr(struct mx_parser *p);

/* The token found where a term was expected, for the message. */
static struct mx_node *
expected(struct mx_parser *p, const char *what)
{
	char c = p->p_text[p->p_pos];

	if (c == '\0')
		return fail(p, p->p_pos, "expected %s, found the end", what);
	if (!isprint((unsigned char)c))
		return fail(p, p->p_pos, "expected %s, found byte 0x%02x",
		    what, (unsigned char)c);
	return fail(p, p->p_pos, "expected %s, found '%c'", what, c);
}

/* '(' expr ')', the '(' at start. */
static struct mx_node *
group(struct mx_parser *p, size_t start)
{
	struct mx_node *n;

	if (++p->p_depth > MX_MAXDEPTH)
		return fail(p, start, "nested deeper than %d", MX_MAXDEPTH);
	p->p_pos++;
	if ((n = expr(p)) == NULL)
		return NULL;
	skip_blanks(p);
	if (p->p_text[p->p_pos] != ')') {
		node_free(n);
		if (p->p_text[p->p_pos] == '\0')
			return fail(p, start, "'(' not closed");
		return expected(p, "an operator or ')'");
	}
	p->p_pos++;
	p->p_depth--;
	return n;
}

static struct mx_node *
primary(struct mx_parser *p)
{
	size_t start;
	char c;

	skip_blanks(p);
	start = p->p_pos;
	c = p->p_text[start];
	if (isdigit((unsigned char)c) || c == '.')
		return number(p);
	if (c == '"')
		return quoted(p);
	if (c == '(')
		return group(p, start);
	if (!isalpha((unsigned char)c) && c != '_')
		return expected(p, "a number, an event or '('");
	while (name_char((unsigned char)p->p_text[p->p_pos]))
		p->p_pos++;
	return name_node(p, p->p_text + start, p->p_pos - start, start, 0);
}

/* '-' unary | primary: a run of minus signs nests, so it is counted. */
static struct mx_node *
unary(struct mx_parser *p)
{
	struct mx_node *n, *neg;

	skip_blanks(p);
	if (p->p_text[p->p_pos] != '-')
		return primary(p);
	if (++p->p_depth > MX_MAXDEPTH)
		return fail(p, p->p_pos, "nested deeper than %d", MX_MAXDEPTH);
	p->p_pos++;
	if ((n = unary(p)) == NULL)
		return NULL;
	p->p_depth--;
	if ((neg = node(p, MX_NEG, n, NULL)) == NULL)
		node_free(n);
	return neg;
}

/*
 * expr := term { ('+' | '-') term } (term 0), term := unary { ('*' |
 * '/') unary } (term 1): each operator joins what is on its left.
 */
static struct mx_node *
binops(struct mx_parser *p, int term)
{
	static const char ops[2][3] = { "+-", "*/" };
	static const enum mx_op kinds[2][2] = { { MX_ADD, MX_SUB },
	    { MX_MUL, MX_DIV } };
	struct mx_node *l = term ? unary(p) : binops(p, 1);
	const char *o;
	char c;

	while (l != NULL) {
		skip_blanks(p);
		c = p->p_text[p->p_pos];
		if (c == '\0' || (o = strchr(ops[term], c)) == NULL)
			break;
		p->p_pos++;
		l = binary(p, kinds[term][o - ops[term]], l,
		    term ? unary(p) : binops(p, 1));
	}
	return l;
}

static struct mx_node *
expr(struct mx_parser *p)
{
	return binops(p, 0);
}

int
mx_parse(const char *text, int base, struct mx_expr *x, char *err,
    size_t errlen)
{
	struct mx_parser p = { .p_text = text, .p_base = base, .p_x = x,
	    .p_err = err, .p_errlen = errlen };

	memset(x, 0, sizeof(*x));
	skip_blanks(&p);
	if (text[p.p_pos] == '\0') {
		fail(&p, p.p_pos, "empty expression");
		return -1;
	}
	x->mx_root = expr(&p);
	if (x->mx_root != NULL && text[p.p_pos] != '\0') {
		if (text[p.p_pos] == ')')
			fail(&p, p.p_pos, "')' without its '('");
		else
			expected(&p, "an operator");
	}
	if (p.p_failed) {
		mx_free(x);
		return -1;
	}
	return 0;
}

void
mx_free(struct mx_expr *x)
{
	int i;

	node_free(x->mx_root);
	for (i = 0; i < x->mx_nevents; i++)
		free(x->mx_events[i]);
	memset(x, 0, sizeof(*x));
}

static double
eval(const struct mx_node *n, const double *vals, double secs)
{
	double l, r;

	switch (n->mn_op) {
	case MX_NUM:
		return n->mn_num;
	case MX_EVENT:
		return vals[n->mn_ev];
	case MX_SECS:
		return secs;
	case MX_NEG:
		return -eval(n->mn_l, vals, secs);
	default:
		break;
	}
	l = eval(n->mn_l, vals, secs);
	r = eval(n->mn_r, vals, secs);
	switch (n->mn_op) {
	case MX_ADD:
		return l + r;
	case MX_SUB:
		return l - r;
	case MX_MUL:
		return l * r;
	default:
		return r == 0 ? NAN : l / r;
	}
}

double
mx_eval(const struct mx_expr *x, const double *vals, double secs)
{
	double v = eval(x->mx_root, vals, secs);

	return isfinite(v) ? v : NAN;
}
