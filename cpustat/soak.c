/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * soak.c - cpustat's soaker threads (soak.h).
 */
#include "config.h"

#include <err.h>
#include <sched.h>

#include "soak.h"

/*
 * Spin while told to, but only on the soaker's own CPU.  When that CPU
 * goes offline the kernel widens the thread's mask and moves it; spinning
 * on another CPU would keep that one out of idle instead.  So a soaker
 * found elsewhere parks until the CPU thread pins it again (soak_pin, when
 * the CPU is back).  It starts parked: nothing is pinned yet.
 */
static void *
soak_main(void *arg)
{
	struct soaker *sk = arg;
	struct sched_param sp = { .sched_priority = 0 };
	unsigned pin;
	int away, cpu;

	(void)pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	pthread_mutex_lock(&sk->sk_lock);
	for (;;) {
		while ((!atomic_load(&sk->sk_run) ||
		    sk->sk_parked == sk->sk_pin) && !sk->sk_quit)
			pthread_cond_wait(&sk->sk_cv, &sk->sk_lock);
		if (sk->sk_quit)
			break;
		pin = sk->sk_pin;
		pthread_mutex_unlock(&sk->sk_lock);
		away = 0;
		while (atomic_load_explicit(&sk->sk_run,
		    memory_order_relaxed) && !away)
			away = (cpu = sched_getcpu()) >= 0 && cpu != sk->sk_cpu;
		pthread_mutex_lock(&sk->sk_lock);
		/*
		 * Park until the pin after the one we spun under: one made
		 * meanwhile (the CPU already back) is not waited for again.
		 */
		if (away)
			sk->sk_parked = pin;
	}
	pthread_mutex_unlock(&sk->sk_lock);
	return NULL;
}

/*
 * Only a start wakes the soaker: a spinning one sees sk_run cleared, and
 * one waiting waits on.  (A wake-up to stop would leave it runnable for
 * a moment on a busy CPU, seen as running where it must not.)
 */
void
soak_set(struct soaker *sk, int run_it)
{
	if (!sk->sk_started)
		return;
	pthread_mutex_lock(&sk->sk_lock);
	if (run_it && !atomic_load(&sk->sk_run))
		pthread_cond_signal(&sk->sk_cv);
	atomic_store(&sk->sk_run, run_it);
	pthread_mutex_unlock(&sk->sk_lock);
}

/*
 * Pin the soaker to its CPU: at the start, and again when the CPU comes
 * back (going offline widened the soaker's mask for good).  If the CPU
 * is already away again this fails, and the soaker parks at once.
 */
void
soak_pin(struct soaker *sk)
{
	cpu_set_t mask;

	if (!sk->sk_started)
		return;
	CPU_ZERO(&mask);
	CPU_SET(sk->sk_cpu, &mask);
	(void)pthread_setaffinity_np(sk->sk_thr, sizeof(mask), &mask);
	pthread_mutex_lock(&sk->sk_lock);
	sk->sk_pin++;
	pthread_cond_signal(&sk->sk_cv);
	pthread_mutex_unlock(&sk->sk_lock);
}

void
soak_start(struct soaker *sk, int cpu)
{
	sk->sk_cpu = cpu;
	pthread_mutex_init(&sk->sk_lock, NULL);
	pthread_cond_init(&sk->sk_cv, NULL);
	if (pthread_create(&sk->sk_thr, NULL, soak_main, sk) == 0)
		sk->sk_started = 1;
	else
		warnx("cpu %d: cannot create the soaker thread", sk->sk_cpu);
}

void
soak_stop(struct soaker *sk)
{
	if (!sk->sk_started)
		return;
	pthread_mutex_lock(&sk->sk_lock);
	sk->sk_quit = 1;
	atomic_store(&sk->sk_run, 0);
	pthread_cond_signal(&sk->sk_cv);
	pthread_mutex_unlock(&sk->sk_lock);
	pthread_join(sk->sk_thr, NULL);
	pthread_mutex_destroy(&sk->sk_lock);
	pthread_cond_destroy(&sk->sk_cv);
	sk->sk_started = 0;
}

