/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callg.h - the call graph of --profile with -g: per scope (a process,
 * a CPU or the system) and sampled event, each function's samples in
 * total (the samples whose call chain holds it: the time in it and in
 * what it calls) and self (those it is the innermost frame of), and
 * the samples each caller -> callee pair of frames carried.  A function
 * a chain holds twice (recursion) counts once in that sample, and so
 * does a pair.
 *
 * The symbol and object strings are compared by address: they must be
 * interned (symtab's strings are).  Not locked: the caller serializes.
 */
#ifndef CALLG_H
#define CALLG_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct symtab;
struct callg;

/*
 * The address to name frame i of record r (a CPC_SMPL_ITEM_ array) by:
 * the chain is innermost first, kernel frames then user frames; every
 * frame after the first of its part is a return address, looked up one
 * byte back so that a call that ends its function is named for that
 * function.
 */
uint64_t	 callg_frame_pc(const uint64_t *r, uint64_t i);

struct callg	*callg_create(void);
void		 callg_destroy(struct callg *cg);
/*
 * One sample, record r of event ev in scope: its call chain named
 * through st (the record's program counter alone when it has no
 * chain).  -1 when out of memory.
 */
int		 callg_record(struct callg *cg, struct symtab *st, long scope,
		    int ev, const uint64_t *r);
/*
 * One sample of event ev in scope whose chain is sym[0..n-1] in
 * obj[0..n-1], innermost first (n >= 1).  -1 when out of memory.
 */
int		 callg_add(struct callg *cg, long scope, int ev,
		    const char *const *sym, const char *const *obj, size_t n);
/*
 * Print the profile of scope and ev: the title "# profile: <what>,
 * <evname>, N samples", the top functions by total (ties: less self
 * first, then by symbol and object) with their total and self
 * percentages and samples, then "# calls: ..." and for each of those
 * functions its
 * callers, itself and its callees (hottest first), every percentage of
 * the scope's samples.  Nothing when the scope has no sample of ev.
 * Returns the functions' count.
 */
int		 callg_print(const struct callg *cg, FILE *fp, long scope,
		    int ev, const char *what, const char *evname, int top);
/* Forget scope's samples. */
void		 callg_drop(struct callg *cg, long scope);

#endif
