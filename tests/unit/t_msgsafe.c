/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_msgsafe - messages fit for a terminal (libcpc/toolapi/msgsafe.h): control
 * bytes, C1 controls and bytes that are not UTF-8 escaped, long quoted
 * arguments cut, a message too long for its buffer cut, every output
 * passed through again unchanged; and libcpc's own messages, to a
 * program's handler and from the default one, made so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcpc.h"
#include "msgsafe.h"
#include "errmsg.h"
#include "tap.h"

struct tcase {
	const char	*tc_in;
	const char	*tc_want;
	const char	*tc_name;
};

static const struct tcase cases[] = {
	{ "plain text", "plain text", "plain ASCII passes" },
	{ "-c '\033[31mX\a'", "-c '\\e[31mX\\a'", "ESC and BEL" },
	{ "\t\n\r\v\f\b", "\\t\\n\\r\\v\\f\\b", "the C escapes" },
	{ "a\001b\177c", "a\\x01b\\x7fc", "other controls and DEL" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 "
	    "\xe2\x82\xac \xf0\x9f\x98\x80", "printable UTF-8 passes" },
	{ "\xc2\x9b" "31m", "\\xc2\\x9b31m", "a C1 control (8-bit CSI)" },
	{ "\x9b" "31m", "\\x9b31m", "a lone 8-bit CSI byte" },
	{ "\xc0\xaf \xed\xa0\x80 \xf5\x80\x80\x80 \xe2\x82",
	    "\\xc0\\xaf \\xed\\xa0\\x80 \\xf5\\x80\\x80\\x80 \\xe2\\x82",
	    "overlong, surrogate, too high, truncated UTF-8" },
	{ "back\\slash \\e", "back\\slash \\e", "a backslash is kept" },
	{ "libpfm4's table 'x'", "libpfm4's table 'x'",
	    "an apostrophe in a word is no quote" },
};

/* n times c, then a NUL, into a new string. */
static char *
rep(int c, size_t n)
{
	char *s = malloc(n + 1);

	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void
check(const char *in, const char *want, const char *name)
{
	char out[CPC_MSG_MAX], again[CPC_MSG_MAX];

	cpc_msgsafe(out, sizeof(out), in);
	tap_str(out, want, name);
	cpc_msgsafe(again, sizeof(again), out);
	tap_str(again, out, "... and passes again unchanged");
}

/* A quoted argument longer than CPC_MSG_ARGMAX + 3 bytes is cut. */
static void
test_cut(void)
{
	char in[4096], want[4096], *x = rep('x', 5000), *e = rep('\033', 100);
	char *esc = malloc(2 * 64 + 1), *p;
	int i;

	snprintf(in, sizeof(in), "-c '%.131s': unknown event '%.131s'", x, x);
	check(in, in, "a quoted argument of 131 bytes is shown whole");
	snprintf(in, sizeof(in), "-c '%.132s': unknown event 'y'", x);
	snprintf(want, sizeof(want), "-c '%.128s...': unknown event 'y'", x);
	check(in, want, "one of 132 bytes: its first 128 and ...");
	/* escapes count as what they print; a cut never splits one */
	for (i = 0, p = esc; i < 64; i++, p += 2)
		memcpy(p, "\\e", 2);
	*p = '\0';
	snprintf(in, sizeof(in), "'%s' end", e);
	snprintf(want, sizeof(want), "'%s...' end", esc);
	check(in, want, "100 ESC: 64 escapes (128 bytes) and ...");
	snprintf(in, sizeof(in), "'a%s' end", e);
	snprintf(want, sizeof(want), "'a%.126s...' end", esc);
	check(in, want, "no escape is split at the cut");
	/* a quote that is not closed runs to the end */
	snprintf(in, sizeof(in), "unknown event '%.500s", x);
	snprintf(want, sizeof(want), "unknown event '%.128s...", x);
	check(in, want, "an unclosed quoted argument is cut too");
	free(x);
	free(e);
	free(esc);
}

/* A message longer than its buffer ends in "..." at a character. */
static void
test_room(void)
{
	char out[16], again[16];

	cpc_msgsafe(out, sizeof(out), "0123456789abcdefgh");
	tap_str(out, "0123456789ab...", "a long message: 12 bytes and ...");
	cpc_msgsafe(out, sizeof(out), "0123456789abcde");
	tap_str(out, "0123456789abcde", "15 bytes fit in 16 whole");
	cpc_msgsafe(out, sizeof(out), "0123456789\033\033\033");
	tap_str(out, "0123456789\\e...", "an escape is not split by the end");
	cpc_msgsafe(again, sizeof(again), out);
	tap_str(again, out, "... and passes again unchanged");
}

/*
 * libcpc's message for an unknown name to a program's handler, and what
 * the default handler writes to stderr: escaped and cut, both the same.
 */
static void
test_libcpc(cpc_t *cpc)
{
	char name[300], want[600], got[2048];
	cpc_set_t *set = cpc_set_create(cpc);
	int pfd[2], saved;
	ssize_t n;

	cpc_seterrhndlr(cpc, keep_errmsg);
	errmsg[0] = '\0';
	tap_ok(cpc_set_add_request(cpc, set, "\033[31mX\a", 0, CPC_COUNT_USER,
	    0, NULL) == -1 && errno == EINVAL, "an unknown name with ESC: EINVAL");
	tap_str(errmsg, "unknown event '\\e[31mX\\a'", "the handler's message");
	memset(name, 'z', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	errmsg[0] = '\0';
	(void)cpc_set_add_request(cpc, set, name, 0, CPC_COUNT_USER, 0, NULL);
	snprintf(want, sizeof(want), "unknown event '%.128s...'", name);
	tap_str(errmsg, want, "a name of 299 bytes: 128 of them and ...");

	/* the default handler, its stderr read back through a pipe */
	saved = dup(2);
	if (saved < 0 || pipe(pfd) != 0) {
		tap_skip("no pipe", "the default handler's message");
		cpc_set_destroy(cpc, set);
		return;
	}
	dup2(pfd[1], 2);
	close(pfd[1]);
	cpc_seterrhndlr(cpc, NULL);
	(void)cpc_set_add_request(cpc, set, "\033]0;title\a", 0,
	    CPC_COUNT_USER, 0, NULL);
	dup2(saved, 2);
	close(saved);
	n = read(pfd[0], got, sizeof(got) - 1);
	close(pfd[0]);
	got[n > 0 ? n : 0] = '\0';
	tap_str(got, "libcpc: cpc_set_add_request: unknown event "
	    "'\\e]0;title\\a'\n", "the default handler prints it escaped");
	cpc_set_destroy(cpc, set);
}

static char v1msg[2048];

static void
keep_v1(const char *fn, const char *fmt, va_list ap)
{
	(void)fn;
	vsnprintf(v1msg, sizeof(v1msg), fmt, ap);
}

/* The v1 layer's own messages (cpc_seterrfn) are made safe too. */
static void
test_v1(void)
{
	cpc_event_t ev;

	cpc_seterrfn(keep_v1);
	tap_ok(cpc_strtoevent(cpc_getcpuver(), "cpu-clock,\033x=1", &ev) != 0,
	    "cpc_strtoevent refuses an attribute with ESC");
	tap_ok(strchr(v1msg, '\033') == NULL && strstr(v1msg, "\\ex") !=
	    NULL, "the v1 handler's message escapes it: %s", v1msg);
	cpc_seterrfn(NULL);
}

int
main(void)
{
	cpc_t *cpc;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		check(cases[i].tc_in, cases[i].tc_want, cases[i].tc_name);
	test_cut();
	test_room();
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	test_libcpc(cpc);
	cpc_close(cpc);
	test_v1();
	return tap_done();
}
