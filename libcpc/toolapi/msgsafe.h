/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msgsafe.h - messages fit for a terminal.  Messages quote what the user
 * typed ("-c 'foo': unknown event 'foo'"), and what the user typed may
 * hold escape sequences, bells or megabytes.  Every message libcpc hands
 * to an error handler has been through cpc_msgsafe (platform/report.c),
 * and the tools put their own messages through it.
 *
 * Part of libcpc, for its own messages and for the tools (which link the
 * static archive), like strtoset.h: not installed, and not exported from
 * libcpc.so.1.  libpctx has the same code under its own names,
 * pctx_msgsafe, pctx_vmsgsafe and pctx_utf8_len (libcpc/pctx/msgsafe.c).
 */
#ifndef CPC_MSGSAFE_H
#define CPC_MSGSAFE_H

#include <stdarg.h>
#include <stddef.h>

/* The longest quoted argument a message shows whole, in bytes. */
#define CPC_MSG_ARGMAX	128
/* Room for a message: longer ones end in "...". */
#define CPC_MSG_MAX	1024

/*
 * msg as it may be printed, into dst (len bytes, NUL-terminated):
 *  - control bytes (below 0x20, 0x7f), the C1 controls (U+0080 to U+009F)
 *    and bytes that are not UTF-8 become C escapes: \a \b \t \n \v \f \r,
 *    \e for ESC, else \xNN (a backslash itself is left as it is);
 *  - a quoted span ('...', the opening quote not after a letter or
 *    digit, the closing one not before one) longer than CPC_MSG_ARGMAX + 3
 *    bytes, escapes counted, keeps its first CPC_MSG_ARGMAX bytes (whole
 *    characters and escapes) and "...";
 *  - when dst is too small, the end is cut at a character with "...".
 * Its output passes through it unchanged.  Returns dst.
 */
char	*cpc_msgsafe(char *dst, size_t len, const char *msg);
/*
 * The length of the well-formed UTF-8 sequence at s, of at most n bytes
 * (1 for an ASCII byte), or 0 when none begins there: a stray or bad
 * byte, an overlong form, a surrogate, beyond U+10FFFF, or cut by n.
 */
size_t	cpc_utf8_len(const unsigned char *s, size_t n);
/* The message fmt formats, through cpc_msgsafe into dst. */
char	*cpc_vmsgsafe(char *dst, size_t len, const char *fmt, va_list ap)
	    __attribute__((format(printf, 3, 0)));

#endif
