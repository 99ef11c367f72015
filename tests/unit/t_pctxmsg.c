/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_pctxmsg - libpctx's default error handler (the client installed
 * none) prints its messages fit for a terminal, as libcpc's are
 * (msgsafe.h): a command's name with an escape sequence, a C1 control,
 * bytes that are not UTF-8 or hundreds of bytes, as pctx_create quotes
 * it.  A client's handler still gets the format and its arguments.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libpctx.h>

#include "tap.h"

struct mcase {
	const char	*mc_file;	/* the program pctx_create is given */
	const char	*mc_want;	/* the quoted name on stderr */
	const char	*mc_name;
};

static const struct mcase cases[] = {
	{ "/nonexistent/\033]0;title\a", "/nonexistent/\\e]0;title\\a",
	  "an OSC sequence: ESC and BEL escaped" },
	{ "/nonexistent/\xc2\x9b" "31m\xff caf\xc3\xa9",
	  "/nonexistent/\\xc2\\x9b31m\\xff caf\xc3\xa9",
	  "a C1 control and a stray byte escaped, printable UTF-8 kept" },
	{ "/nonexistent/\t\r\001\177", "/nonexistent/\\t\\r\\x01\\x7f",
	  "other controls and DEL" },
};

/* What pctx_create(file) with no handler writes to stderr, into got. */
static int
default_message(const char *file, char *got, size_t len)
{
	char *argv[] = { (char *)file, NULL };
	FILE *tmp = tmpfile();
	int saved = dup(2), e;
	pctx_t *p;
	size_t n;

	if (tmp == NULL || saved < 0) {
		if (tmp != NULL)
			fclose(tmp);
		return -1;
	}
	fflush(stderr);
	dup2(fileno(tmp), 2);
	p = pctx_create(file, argv, NULL, 0, NULL);
	e = errno;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(got, 1, len - 1, tmp);
	got[n] = '\0';
	fclose(tmp);
	if (p != NULL) {
		pctx_release(p);
		return -1;
	}
	errno = e;
	return 0;
}

static void
test_default(void)
{
	char got[2048], want[2048], file[320];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		if (!tap_ok(default_message(cases[i].mc_file, got,
		    sizeof(got)) == 0 && errno == ENOENT,
		    "pctx_create fails with ENOENT (%s)", cases[i].mc_name))
			continue;
		snprintf(want, sizeof(want), "libpctx: pctx_create: cannot "
		    "find program '%s'\n", cases[i].mc_want);
		tap_str(got, want, cases[i].mc_name);
	}
	/* a name of 313 bytes: its first 128 and "..." */
	snprintf(file, sizeof(file), "/nonexistent/%0300d", 0);
	if (tap_ok(default_message(file, got, sizeof(got)) == 0,
	    "pctx_create fails (a long name)")) {
		snprintf(want, sizeof(want), "libpctx: pctx_create: cannot "
		    "find program '%.128s...'\n", file);
		tap_str(got, want, "a long name cut at 128 bytes");
	}
}

static char kept[2048];

static void
keep(const char *fn, const char *fmt, va_list ap)
{
	int n = snprintf(kept, sizeof(kept), "%s: ", fn);

	vsnprintf(kept + n, sizeof(kept) - (size_t)n, fmt, ap);
}

/* A client's handler formats the message itself, as it chooses. */
static void
test_client(void)
{
	const char *file = cases[0].mc_file;
	char *argv[] = { (char *)file, NULL };
	char want[256];

	kept[0] = '\0';
	tap_ok(pctx_create(file, argv, NULL, 0, keep) == NULL &&
	    errno == ENOENT, "pctx_create with a handler fails with ENOENT");
	snprintf(want, sizeof(want), "create: cannot find program '%s'",
	    file);
	tap_str(kept, want, "the client's handler gets the name as it is");
}

int
main(void)
{
	test_default();
	test_client();
	return tap_done();
}
