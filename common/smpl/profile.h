/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * profile.h - samples counted per function, within a scope (a process,
 * a CPU or the whole system) and per sampled event, and the report of
 * the hottest: percentage, samples, symbol, object.
 *
 * The symbol and object strings are compared by address: they must be
 * interned (symtab's strings are).  Not locked: the caller serializes.
 */
#ifndef PROFILE_H
#define PROFILE_H

#include <stdint.h>
#include <stdio.h>

struct profile;

struct profile	*profile_create(void);
void		 profile_destroy(struct profile *pf);
/* One more sample (n of them) of event ev at sym in obj, in scope. */
int		 profile_add(struct profile *pf, long scope, int ev,
		    const char *sym, const char *obj, uint64_t n);
/* The samples of scope and ev so far. */
uint64_t	 profile_total(const struct profile *pf, long scope, int ev);
/*
 * Print the top hottest functions of scope and ev, hottest first (ties
 * by symbol, then object), after the title line "# profile: <what>,
 * <evname>, N samples" and "#     pct   samples symbol object".
 * Nothing when the scope has no sample of ev.  Returns the lines'
 * count.
 */
int		 profile_print(const struct profile *pf, FILE *fp, long scope,
		    int ev, const char *what, const char *evname, int top);
/* Forget scope's samples (a process that exec'd or was reported). */
void		 profile_drop(struct profile *pf, long scope);

#endif
