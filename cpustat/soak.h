/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * soak.h - cpustat -s: a soaker thread per CPU keeps the CPU out of idle
 * while a set counts only system mode; the CPU threads (cputhread.c)
 * start, pin and stop it.
 */
#ifndef SOAK_H
#define SOAK_H

#include <pthread.h>
#include <stdatomic.h>

struct soaker {
	pthread_t	 sk_thr;
	int		 sk_cpu;	/* its CPU */
	int		 sk_started;
	atomic_int	 sk_run;	/* spin while set */
	int		 sk_quit;
	unsigned	 sk_pin;	/* soak_pin calls so far */
	unsigned	 sk_parked;	/* sk_pin when found off its CPU */
	pthread_mutex_t	 sk_lock;
	pthread_cond_t	 sk_cv;
};

/* Start sk for cpu, parked until soak_pin. */
void	soak_start(struct soaker *sk, int cpu);
/* Spin (run_it) or not. */
void	soak_set(struct soaker *sk, int run_it);
/* Pin it to its CPU: at the start, and when the CPU is back. */
void	soak_pin(struct soaker *sk);
/* End the thread; nothing when it never started. */
void	soak_stop(struct soaker *sk);

#endif
