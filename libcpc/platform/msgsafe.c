/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msgsafe.c - messages fit for a terminal (msgsafe.h): escape what is
 * not printable, cut what is too long.
 *
 * The text is read as units: one character (an ASCII byte, or a UTF-8
 * sequence of a printable code point), or one escaped byte.  Whether a
 * quote opens or closes a span is decided on the output (the units'
 * escaped text), so that the output, read again, pairs its quotes the
 * same way and passes unchanged.
 *
 * libpctx, which calls nothing of libcpc, compiles this same file into
 * itself (libcpc/pctx/msgsafe.c), its two functions renamed there:
 * both libraries find the header in libcpc/toolapi/ on their include
 * path.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msgsafe.h"

struct unit {
	char	u_text[5];	/* what is printed, NUL-terminated */
	size_t	u_len;		/* its length */
	size_t	u_in;		/* bytes of the message it stands for */
};

size_t
cpc_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * The length of a valid UTF-8 sequence at s (NUL-terminated: the checks
 * stop at the NUL) of a code point >= U+00A0, not a C1 control.
 */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n = cpc_utf8_len(s, 4);

	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0 ? 0 : n;
}

/* The unit at s (not at the end). */
static void
next_unit(const char *s, struct unit *u)
{
	static const char esc[] = "\aa\bb\tt\nn\vv\ff\rr\033e";
	const unsigned char *p = (const unsigned char *)s;
	const char *e;
	size_t n;

	u->u_in = 1;
	if (*p >= 0x20 && *p < 0x7f) {
		u->u_text[0] = (char)*p;
		u->u_text[1] = '\0';
	} else if (*p >= 0x80 && (n = utf8_len(p)) != 0) {
		memcpy(u->u_text, s, n);
		u->u_text[n] = '\0';
		u->u_in = n;
	} else if (*p != '\0' && (e = strchr(esc, *p)) != NULL &&
	    (e - esc) % 2 == 0) {
		u->u_text[0] = '\\';
		u->u_text[1] = e[1];
		u->u_text[2] = '\0';
	} else {
		snprintf(u->u_text, sizeof(u->u_text), "\\x%02x", *p);
	}
	u->u_len = strlen(u->u_text);
}

static int
alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* The output so far: dst, its room, and where "..." still fits. */
struct out {
	char	*o_buf;
	size_t	 o_len;		/* room, NUL included */
	size_t	 o_n;		/* used */
	size_t	 o_lastfit;	/* o_n when "..." and NUL still fitted */
	int	 o_full;
};

/* Append text; when it does not fit, end the output with "...". */
static void
put(struct out *o, const char *text, size_t n)
{
	if (o->o_full)
		return;
	if (o->o_n + n + 1 > o->o_len) {
		o->o_n = o->o_lastfit;
		memcpy(o->o_buf + o->o_n, "...", 3);
		o->o_n += 3;
		o->o_full = 1;
		return;
	}
	memcpy(o->o_buf + o->o_n, text, n);
	o->o_n += n;
	if (o->o_n + 4 <= o->o_len)
		o->o_lastfit = o->o_n;
}

char *
cpc_msgsafe(char *dst, size_t len, const char *msg)
{
	struct out o = { dst, len, 0, 0, 0 };
	struct unit u, nx;
	char prev = '\0';		/* the last character printed */
	size_t span = 0, keep = 0;	/* span's length, where a cut goes */
	int in_span = 0, skipping = 0;

	if (len < 4) {
		if (len > 0)
			dst[0] = '\0';
		return dst;
	}
	if (*msg != '\0')
		next_unit(msg, &nx);
	while (*msg != '\0' && !o.o_full) {
		u = nx;
		msg += u.u_in;
		if (*msg != '\0')
			next_unit(msg, &nx);
		if (u.u_text[0] == '\'' && in_span &&
		    (*msg == '\0' || !alnum(nx.u_text[0]))) {
			in_span = skipping = 0;	/* the closing quote */
		} else if (u.u_text[0] == '\'' && !in_span && !alnum(prev)) {
			in_span = 1;		/* an opening quote */
			span = 0;
			keep = o.o_n + 1;
		} else if (in_span) {
			if (skipping)
				continue;
			span += u.u_len;
			if (span <= CPC_MSG_ARGMAX)
				keep = o.o_n + u.u_len;
			if (span > CPC_MSG_ARGMAX + 3) {
				o.o_n = keep;	/* shorter: fits as it did */
				if (o.o_lastfit > keep)
					o.o_lastfit = keep;
				put(&o, "...", 3);
				skipping = 1;
				prev = '.';
				continue;
			}
		}
		put(&o, u.u_text, u.u_len);
		prev = u.u_text[u.u_len - 1];
	}
	dst[o.o_n] = '\0';
	return dst;
}

char *
cpc_vmsgsafe(char *dst, size_t len, const char *fmt, va_list ap)
{
	char small[CPC_MSG_MAX], *raw = small;
	va_list aq;
	int n;

	/* Whole, however long its arguments: the cut keeps the end. */
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small) && (raw = malloc((size_t)n + 1)) != NULL)
		vsnprintf(raw, (size_t)n + 1, fmt, ap);
	else if (raw == NULL)
		raw = small;	/* no memory: the start of it */
	cpc_msgsafe(dst, len, n < 0 ? "" : raw);
	if (raw != small)
		free(raw);
	return dst;
}
