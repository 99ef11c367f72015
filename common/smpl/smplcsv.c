/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplcsv.c - the --samples file (see smplcsv.h).
 *
 * Most of what a record cost was printf: two fprintf calls of seven
 * conversions and two csv_field passes per line.  Now the numbers are
 * formatted by hand, the events' fields once at the start, a symbol
 * copied as it is in one pass when it needs no quotes (interned names
 * nearly never do), and the line goes out in one fwrite into a stream
 * whose buffer takes some thousands of lines per write(2).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "errh.h"
#include "smplcsv.h"
#include "smplout.h"

#define CSV_BUFSZ	(256 * 1024)	/* the stream's buffer */
#define LINE_NUMS	160	/* the numbers and commas of a line, at most */
#define LINE_SYM	512	/* a symbol copied into the line, at most */

struct smplcsv {
	FILE		*cv_fp;
	char		*cv_buf;	/* cv_fp's buffer */
	int		 cv_nreqs;
	char		**cv_event;	/* each request's field */
	size_t		*cv_evlen;
	char		*cv_line;	/* a line being made */
};

/* Request events as CSV fields, through csv_field: 0, or -1 (ENOMEM). */
static int
make_events(struct smplcsv *cv, const struct spec *sp)
{
	size_t len, max = 0;
	FILE *mf;
	int i;

	cv->cv_nreqs = sp->sp_nreqs;
	if ((cv->cv_event = calloc(sp->sp_nreqs + 1, sizeof(char *))) ==
	    NULL || (cv->cv_evlen = calloc(sp->sp_nreqs + 1,
	    sizeof(size_t))) == NULL)
		return -1;
	for (i = 0; i < sp->sp_nreqs; i++) {
		if ((mf = open_memstream(&cv->cv_event[i], &len)) == NULL)
			return -1;
		csv_field(mf, sp->sp_reqs[i].sr_event);
		if (fclose(mf) != 0)
			return -1;
		cv->cv_evlen[i] = len;
		if (len > max)
			max = len;
	}
	cv->cv_line = malloc(LINE_NUMS + max + LINE_SYM + 2);
	return cv->cv_line != NULL ? 0 : -1;
}

static void
cv_free(struct smplcsv *cv)
{
	int i;

	for (i = 0; cv->cv_event != NULL && i < cv->cv_nreqs; i++)
		free(cv->cv_event[i]);
	free(cv->cv_event);
	free(cv->cv_evlen);
	free(cv->cv_line);
	free(cv->cv_buf);
	free(cv);
}

struct smplcsv *
smplcsv_open(const char *path, const struct spec *sp)
{
	struct smplcsv *cv;

	if ((cv = calloc(1, sizeof(*cv))) == NULL ||
	    (cv->cv_buf = malloc(CSV_BUFSZ)) == NULL ||
	    make_events(cv, sp) != 0) {
		errh_set("out of memory");
		if (cv != NULL)
			cv_free(cv);
		return NULL;
	}
	if ((cv->cv_fp = fopen(path, "we")) == NULL) {
		errh_set("cannot open '%s' for writing: %s", path,
		    strerror(errno));
		cv_free(cv);
		return NULL;
	}
	setvbuf(cv->cv_fp, cv->cv_buf, _IOFBF, CSV_BUFSZ);
	fputs("time,cpu,pid,tid,event,ip,addr,symbol\n", cv->cv_fp);
	return cv;
}

int
smplcsv_close(struct smplcsv *cv)
{
	int rc, e;

	if (cv == NULL)
		return 0;
	rc = (ferror(cv->cv_fp) | fclose(cv->cv_fp)) != 0 ? -1 : 0;
	e = errno;
	cv_free(cv);
	errno = e;
	return rc;
}

/* v in decimal at p, as "%" PRIu64; past it. */
static char *
put_dec(char *p, uint64_t v)
{
	char tmp[24];
	const char *s = out_u64_cell(tmp + sizeof(tmp), v, 0);
	size_t n = (size_t)(tmp + sizeof(tmp) - 1 - s);

	memcpy(p, s, n);
	return p + n;
}

/* v at p as "%#" PRIx64: "0", or "0x" and its digits; past it. */
static char *
put_hex(char *p, uint64_t v)
{
	static const char digit[] = "0123456789abcdef";
	int sh = 60;

	if (v == 0) {
		*p++ = '0';
		return p;
	}
	*p++ = '0';
	*p++ = 'x';
	while ((v >> sh) == 0)
		sh -= 4;
	for (; sh >= 0; sh -= 4)
		*p++ = digit[(v >> sh) & 0xf];
	return p;
}

/* t ns as seconds with nine decimals ("%s%" PRId64 ".%09" PRId64). */
static char *
put_time(char *p, int64_t t)
{
	uint64_t a = t < 0 ? 0 - (uint64_t)t : (uint64_t)t, ns;
	int i;

	if (t < 0)
		*p++ = '-';
	p = put_dec(p, a / 1000000000);
	*p++ = '.';
	ns = a % 1000000000;
	for (i = 8; i >= 0; i--) {
		p[i] = (char)('0' + ns % 10);
		ns /= 10;
	}
	return p + 9;
}

/*
 * sym at p when it is a CSV field as it is and no longer than LINE_SYM:
 * past it; else NULL (csv_field writes it).
 */
static char *
put_plain(char *p, const char *sym)
{
	const char *s;

	for (s = sym; *s != '\0'; s++) {
		if (*s == ',' || *s == '"' || *s == '\r' || *s == '\n' ||
		    s - sym == LINE_SYM)
			return NULL;
		p[s - sym] = *s;
	}
	if (s > sym && (sym[0] == ' ' || s[-1] == ' '))
		return NULL;
	return p + (s - sym);
}

void
smplcsv_line(struct smplcsv *cv, const uint64_t *r, int req, int64_t t,
    const char *sym)
{
	char *p = cv->cv_line, *q;

	p = put_time(p, t);
	*p++ = ',';
	p = put_dec(p, r[CPC_SMPL_ITEM_CPU]);
	*p++ = ',';
	p = put_dec(p, r[CPC_SMPL_ITEM_PID]);
	*p++ = ',';
	p = put_dec(p, r[CPC_SMPL_ITEM_TID]);
	*p++ = ',';
	memcpy(p, cv->cv_event[req], cv->cv_evlen[req]);
	p += cv->cv_evlen[req];
	*p++ = ',';
	p = put_hex(p, r[CPC_SMPL_ITEM_PC]);
	*p++ = ',';
	p = put_hex(p, r[CPC_SMPL_ITEM_ADDR]);
	*p++ = ',';
	if ((q = put_plain(p, sym)) != NULL) {
		*q++ = '\n';
		fwrite_unlocked(cv->cv_line, 1, (size_t)(q - cv->cv_line),
		    cv->cv_fp);
		return;
	}
	fwrite_unlocked(cv->cv_line, 1, (size_t)(p - cv->cv_line), cv->cv_fp);
	csv_field(cv->cv_fp, sym);
	fputc_unlocked('\n', cv->cv_fp);
}
