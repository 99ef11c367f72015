/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.h - what the libFuzzer targets share: the handle they all use,
 * and the input as C strings.
 *
 * The handle (cpc) is opened once per process, by the
 * LLVMFuzzerInitialize every target shares, before the first input.  Its
 * error handler formats each message (so that a bad argument to a format
 * is found) and drops it: a user's handler gets the same complete
 * message the default one prints.  It pretends the kernel has a core
 * PMU, so that hardware names on a machine without one go on to their
 * attributes and flags instead of stopping at "no hardware PMU"; the
 * targets never bind, so nothing is counted and no perf event is opened.
 * LIBPFM_FORCE_PMU (skl unless set) gives libpfm4's native names a table
 * wherever the fuzzer runs.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpc_impl.h"

static void
fuzz_errfn(const char *fn, int subcode, const char *fmt, va_list ap)
{
	char msg[2048];

	(void)fn;
	(void)subcode;
	vsnprintf(msg, sizeof(msg), fmt, ap);
}

static cpc_t *
fuzz_open(void)
{
	cpc_t *cpc;

	setenv("LIBPFM_FORCE_PMU", "skl", 0);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		perror("fuzz: cpc_open");
		exit(2);
	}
	cpc_seterrhndlr(cpc, fuzz_errfn);
	cpc->c_hwpmu = 1;
	return cpc;
}

/* The input as a C string (a NUL byte in it ends the string early). */
static char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The handle every target uses. */
static cpc_t *cpc;

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A target that needs more at the start defines FUZZ_OWN_INIT and its own. */
#ifndef FUZZ_OWN_INIT
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cpc = fuzz_open();
	return 0;
}
#endif

#endif /* FUZZ_H */
