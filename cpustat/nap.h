/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nap.h - sleep to an absolute CLOCK_MONOTONIC time unless woken: one
 * system call per sleep (a futex wait with an absolute timeout), and no
 * file descriptor.
 */
#ifndef NAP_H
#define NAP_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * Sleep until the CLOCK_MONOTONIC time t (ns) or until *word is non-zero
 * (set by nap_wake).  Returns *word: 0 when the time came.
 */
int	nap_until(atomic_int *word, int64_t t);
/* Set *word and wake the thread sleeping on it, if any. */
void	nap_wake(atomic_int *word);

#endif
