/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock.c - the signal that announces an overflow (CPC_SIGOVF), read
 * once from the environment.  (The clocks a sample is stamped with are
 * inline, in platform.h.)
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform.h"

static pthread_once_t sigovf_once = PTHREAD_ONCE_INIT;
static int sigovf = SIGEMT;	/* SIGIO where the system has none */

/* CPC_SIGOVF from the environment: a number or a name; else SIGIO. */
static void
sigovf_init(void)
{
	static const struct { const char *n; int s; } names[] = {
		{ "IO", SIGIO }, { "POLL", SIGPOLL }, { "USR1", SIGUSR1 },
		{ "USR2", SIGUSR2 }, { "PROF", SIGPROF }, { "TRAP", SIGTRAP },
		{ "URG", SIGURG }, { "WINCH", SIGWINCH },
	};
	const char *v = getenv("CPC_SIGOVF");
	char *end;
	size_t i;
	long n;

	if (v == NULL || *v == '\0')
		return;
	if (strncmp(v, "SIG", 3) == 0)
		v += 3;
	if (strncmp(v, "RTMIN+", 6) == 0) {
		n = strtol(v + 6, &end, 10);
		if (*end == '\0' && n >= 0 && SIGRTMIN + n <= SIGRTMAX)
			sigovf = (int)(SIGRTMIN + n);
		return;
	}
	n = strtol(v, &end, 10);
	if (end != v && *end == '\0' && n > 0 && n <= SIGRTMAX &&
	    n != SIGKILL && n != SIGSTOP) {
		sigovf = (int)n;
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(v, names[i].n) == 0)
			sigovf = names[i].s;
}

/* The overflow signal (CPC_SIGOVF): read once from the environment. */
CPC_EXPORT int
cpc_sigovf(void)
{
	pthread_once(&sigovf_once, sigovf_init);
	return sigovf;
}

