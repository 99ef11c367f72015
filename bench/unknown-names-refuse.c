/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unknown-names-refuse.c - the time cpc_set_add_request takes to refuse
 * a name, for bench/unknown-names: each name given is added to a new set
 * (which is destroyed) N times, through a handler of the program's own that
 * formats the message and drops it, and the mean time per call is
 * printed with the message.
 *
 *	unknown-names-refuse N NAME...
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <libcpc.h>

static char msg[2048];

static void
keep(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)fn;
	(void)subcode;
	vsnprintf(msg, sizeof(msg), fmt, ap);
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int
main(int argc, char **argv)
{
	cpc_set_t *set;
	cpc_t *cpc;
	double t0;
	long n, k;
	int i;

	if (argc < 3 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: unknown-names-refuse N NAME...\n");
		return 1;
	}
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		perror("cpc_open");
		return 1;
	}
	cpc_seterrhndlr(cpc, keep);
	for (i = 2; i < argc; i++) {
		t0 = now_us();
		for (k = 0; k < n; k++) {
			if ((set = cpc_set_create(cpc)) == NULL)
				return 1;
			msg[0] = '\0';
			(void)cpc_set_add_request(cpc, set, argv[i], 0,
			    CPC_COUNT_USER, 0, NULL);
			cpc_set_destroy(cpc, set);
		}
		printf("%10.1f us  %-22s %s\n", (now_us() - t0) / n, argv[i],
		    msg);
	}
	cpc_close(cpc);
	return 0;
}
