/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * steps.h - the handshake of the unit tests that run a second thread:
 * each side announces the step it reached and waits for the other's.
 * Header-only: each test is one program.
 */
#ifndef STEPS_H
#define STEPS_H

#include <pthread.h>

struct steps {
	pthread_mutex_t	mu;
	pthread_cond_t	cv;
	int		step;
};

#define	STEPS_INIT	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }

/* Announce step (when not 0), then wait until wait_for (when not 0). */
static inline void
steps_go(struct steps *s, int step, int wait_for)
{
	pthread_mutex_lock(&s->mu);
	if (step)
		s->step = step;
	pthread_cond_broadcast(&s->cv);
	while (wait_for && s->step < wait_for)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

#endif
