/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nap.c - see nap.h.  FUTEX_WAIT_BITSET takes an absolute timeout on
 * CLOCK_MONOTONIC (without FUTEX_CLOCK_REALTIME), so the deadline does
 * not drift however late the call is made; the wait returns at once when
 * the word is no longer 0, so a wake between the caller's test and the
 * wait is not lost.  The timer honours the thread's timer slack.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nap.h"

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
nap_until(atomic_int *word, int64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };

	while (atomic_load(word) == 0 && now_ns() < t) {
		if (syscall(SYS_futex, word, FUTEX_WAIT_BITSET_PRIVATE, 0, &ts,
		    NULL, FUTEX_BITSET_MATCH_ANY) != 0 && errno == ETIMEDOUT)
			break;
	}
	return atomic_load(word);
}

void
nap_wake(atomic_int *word)
{
	atomic_store(word, 1);
	(void)syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
	    NULL, 0);
}
