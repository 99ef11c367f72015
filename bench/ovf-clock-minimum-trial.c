/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ovf-clock-minimum-trial.c - the experiment behind libcpc's minimum
 * overflow period for the clock events (bench/ovf-clock-minimum drives
 * it, one trial per period): bind a set of one clock event, preset
 * PERIOD nanoseconds short of overflow, to the calling thread, restart
 * it from the overflow handler as the seed page's Example 2 does, and
 * spin until COUNT overflows have come or two seconds have passed.  Prints "overflows N seconds S".
 *
 * usage: ovf-clock-minimum-trial EVENT PERIOD COUNT
 *
 * DANGER: a short period on task-clock or cpu-clock can put the CPU into
 * an interrupt storm that SIGKILL cannot end.  Run it only under
 * ovf-clock-minimum's watchdog.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libcpc.h>

static cpc_t *cpc;
static cpc_set_t *set;
static volatile sig_atomic_t novf;

static void
on_ovf(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	novf++;
	(void)cpc_set_restart(cpc, set);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	unsigned long long period;
	long count;
	double t0;

	if (argc != 4) {
		fprintf(stderr,
		    "usage: ovf-clock-minimum-trial EVENT PERIOD COUNT\n");
		return 2;
	}
	period = strtoull(argv[2], NULL, 0);
	count = strtol(argv[3], NULL, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_ovf;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGEMT, &sa, NULL);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL ||
	    (set = cpc_set_create(cpc)) == NULL ||
	    cpc_set_add_request(cpc, set, argv[1], 0 - (uint64_t)period,
	    CPC_COUNT_USER | CPC_COUNT_SYSTEM | CPC_OVF_NOTIFY_EMT, 0,
	    NULL) < 0) {
		fprintf(stderr, "ovf-clock-minimum-trial: %s\n",
		    strerror(errno));
		return 1;
	}
	t0 = now();
	if (cpc_bind_curlwp(cpc, set, 0) != 0) {
		fprintf(stderr, "ovf-clock-minimum-trial: bind: %s\n",
		    strerror(errno));
		return 1;
	}
	while (novf < count && now() - t0 < 2.0)
		;
	(void)cpc_unbind(cpc, set);
	printf("overflows %ld seconds %.3f\n", (long)novf, now() - t0);
	return 0;
}
