/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * expr.h - the arithmetic of a derived metric (-M NAME=EXPR): parsed
 * once into a tree, then evaluated for every row, never handed to a
 * shell or an eval.
 *
 *	expr	:= term { ('+' | '-') term }
 *	term	:= unary { ('*' | '/') unary }
 *	unary	:= '-' unary | primary
 *	primary	:= number | name | '"' event '"' | '(' expr ')'
 *
 * A number is decimal, with an optional fraction and exponent (2, 0.5,
 * 1e9).  A bare name is a letter or '_' then letters, digits, '_', '.'
 * and ':' (EC_hit, syscalls:sys_enter_getpid); any other event name
 * (cache-misses) is written between double quotes; check_event in
 * metric.c refuses a name with ',', '=' or a blank.
 * The bare name "secs" is the row's length in seconds, not an event.
 * Blanks between the tokens are ignored.
 */
#ifndef EXPR_H
#define EXPR_H

#include <stddef.h>

/* Nesting and size limits: an expression past them is refused. */
#define MX_MAXDEPTH	32
#define MX_MAXNODES	256
#define MX_MAXEVENTS	32

enum mx_op {
	MX_NUM,
	MX_EVENT,
	MX_SECS,
	MX_NEG,
	MX_ADD,
	MX_SUB,
	MX_MUL,
	MX_DIV,
};

struct mx_node {
	enum mx_op	 mn_op;
	double		 mn_num;	/* MX_NUM */
	int		 mn_ev;		/* MX_EVENT: in mx_events */
	struct mx_node	*mn_l, *mn_r;
};

struct mx_expr {
	struct mx_node	*mx_root;
	/* The distinct events in order, and where each is first named. */
	char		*mx_events[MX_MAXEVENTS];
	int		 mx_evpos[MX_MAXEVENTS];
	int		 mx_nevents;
	int		 mx_secs;	/* uses secs */
};

/*
 * Parse text into x.  Positions in messages count from base + 1 (the
 * expression's place in the argument the user typed).  0, or -1 with a
 * one-line message naming the position in err.
 */
int	mx_parse(const char *text, int base, struct mx_expr *x, char *err,
	    size_t errlen);
void	mx_free(struct mx_expr *x);
/*
 * The value with event i counting vals[i] and the row lasting secs
 * seconds; NaN where a division by zero (or an overflow) left none.
 */
double	mx_eval(const struct mx_expr *x, const double *vals, double secs);

#endif
