/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tap.h - a tiny TAP producer for the C unit tests.
 */
#ifndef TAP_H
#define TAP_H

#include <stdint.h>

/* Report one test; returns cond. */
int	tap_ok(int cond, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* String and integer comparisons that print both sides on failure. */
int	tap_str(const char *got, const char *want, const char *name);
int	tap_u64(uint64_t got, uint64_t want, const char *name);
void	tap_skip(const char *why, const char *name);
/* Print the plan ("1..N") and return the exit status. */
int	tap_done(void);

#endif
