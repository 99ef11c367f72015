/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * http.c - the little of HTTP/1.x the exporter speaks: a request's head
 * read strictly (a malformed one is answered 400, never guessed at), the
 * Accept header's choice between OpenMetrics and the text format, and
 * the responses' heads.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "srvint.h"

#define OM_TYPE		"application/openmetrics-text"

const char *
http_head_end(const char *buf, size_t len)
{
	size_t i;

	/* The empty line: CRLF CRLF, or bare LFs (RFC 9112 2.2). */
	for (i = 1; i < len; i++)
		if (buf[i] == '\n' && (buf[i - 1] == '\n' ||
		    (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\n')))
			return buf + i + 1;
	return NULL;
}

/* The line at p (to end): its length without CR LF; *next after it. */
static size_t
line_len(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n;

	if (nl == NULL)
		nl = end;
	*next = nl < end ? nl + 1 : end;
	n = (size_t)(nl - p);
	if (n > 0 && p[n - 1] == '\r')
		n--;
	return n;
}

/* Is q=VALUE zero (the range refused)?  Only "0", "0.", "0.000". */
static int
q_zero(const char *v, size_t n)
{
	size_t i;

	if (n == 0 || v[0] != '0')
		return 0;
	for (i = 1; i < n; i++)
		if (v[i] != '.' && v[i] != '0')
			return 0;
	return 1;
}

/* One media range (n bytes): OpenMetrics, not refused with q=0? */
static int
range_is_om(const char *r, size_t n)
{
	const char *semi, *p, *next, *end = r + n;
	size_t tl;

	while (r < end && (*r == ' ' || *r == '\t'))
		r++;
	semi = memchr(r, ';', (size_t)(end - r));
	tl = (size_t)((semi != NULL ? semi : end) - r);
	while (tl > 0 && (r[tl - 1] == ' ' || r[tl - 1] == '\t'))
		tl--;
	if (tl != strlen(OM_TYPE) || strncasecmp(r, OM_TYPE, tl) != 0)
		return 0;
	/* its parameters: ;name=value... */
	for (p = semi; p != NULL; p = next) {
		const char *v = p + 1, *stop;

		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		next = v < end ? memchr(v, ';', (size_t)(end - v)) : NULL;
		stop = next != NULL ? next : end;
		while (stop > v && (stop[-1] == ' ' || stop[-1] == '\t'))
			stop--;
		if (stop - v >= 2 && (v[0] == 'q' || v[0] == 'Q') &&
		    v[1] == '=' && q_zero(v + 2, (size_t)(stop - v - 2)))
			return 0;
	}
	return 1;
}

/* An Accept header's value: does any of its ranges ask for OpenMetrics? */
static int
accept_om(const char *v, size_t n)
{
	const char *end = v + n, *comma;

	while (v < end) {
		comma = memchr(v, ',', (size_t)(end - v));
		if (comma == NULL)
			comma = end;
		if (range_is_om(v, (size_t)(comma - v)))
			return 1;
		v = comma + 1;
	}
	return 0;
}

/* A header line (n bytes): 0, or -1 when malformed; Accept noted. */
static int
header_line(const char *l, size_t n, struct http_req *r)
{
	const char *colon = memchr(l, ':', n);

	/* No name, or a folded line (obsolete: RFC 9112 5.2 says 400). */
	if (colon == NULL || colon == l || l[0] == ' ' || l[0] == '\t')
		return -1;
	if (memchr(l, ' ', (size_t)(colon - l)) != NULL)
		return -1;
	if ((size_t)(colon - l) == 6 && strncasecmp(l, "Accept", 6) == 0 &&
	    accept_om(colon + 1, (size_t)(l + n - colon - 1)))
		r->hr_om = 1;
	return 0;
}

/* The request line's three words; the status they ask. */
static int
request_line(const char *l, size_t n)
{
	const char *sp1 = memchr(l, ' ', n), *sp2, *end = l + n, *p;
	size_t ml, tl;

	if (sp1 == NULL || sp1 == l)
		return 400;
	sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1));
	if (sp2 == NULL || sp2 == sp1 + 1)
		return 400;
	ml = (size_t)(sp1 - l);
	tl = (size_t)(sp2 - sp1 - 1);
	for (p = l; p < sp1; p++)
		if (*p < 'A' || *p > 'Z')
			return 400;
	if (sp1[1] != '/' || memchr(sp2 + 1, ' ', (size_t)(end - sp2 - 1)))
		return 400;
	if ((size_t)(end - sp2 - 1) != 8 || strncmp(sp2 + 1, "HTTP/", 5) != 0 ||
	    sp2[7] != '.' || sp2[6] < '0' || sp2[6] > '9' || sp2[8] < '0' ||
	    sp2[8] > '9')
		return 400;
	if (sp2[6] != '1')
		return 505;
	if (!(ml == 3 && memcmp(l, "GET", 3) == 0) &&
	    !(ml == 4 && memcmp(l, "HEAD", 4) == 0))
		return 405;
	/* /metrics, and /metrics?anything (Prometheus's params) */
	if (tl < 8 || memcmp(sp1 + 1, "/metrics", 8) != 0 ||
	    (tl > 8 && sp1[9] != '?'))
		return 404;
	return 200;
}

void
http_parse(const char *buf, size_t len, struct http_req *r)
{
	const char *end = buf + len, *p = buf, *next;
	size_t n, i;

	memset(r, 0, sizeof(*r));
	/* Control bytes other than CR LF HT make it garbage. */
	for (i = 0; i < len; i++)
		if (((unsigned char)buf[i] < 0x20 && buf[i] != '\r' &&
		    buf[i] != '\n' && buf[i] != '\t') || buf[i] == 0x7f) {
			r->hr_status = 400;
			return;
		}
	n = line_len(p, end, &next);
	r->hr_status = request_line(p, n);
	r->hr_head = n > 5 && memcmp(p, "HEAD ", 5) == 0;
	for (p = next; p < end; p = next) {
		if ((n = line_len(p, end, &next)) == 0)
			break;
		if (header_line(p, n, r) != 0) {
			r->hr_status = 400;
			return;
		}
	}
}

/* The statuses answered: reason phrase, and the body of an error. */
static const struct status {
	int		 st_code;
	const char	*st_reason;
	const char	*st_body;
} statuses[] = {
	{ 200, "OK", "" },
	{ 400, "Bad Request", "400 Bad Request\n" },
	{ 404, "Not Found", "404 Not Found: the metrics are at /metrics\n" },
	{ 405, "Method Not Allowed", "405 Method Not Allowed: GET or HEAD\n" },
	{ 408, "Request Timeout", "408 Request Timeout\n" },
	{ 431, "Request Header Fields Too Large",
	    "431 Request Header Fields Too Large\n" },
	{ 503, "Service Unavailable",
	    "503 Service Unavailable: nothing counted yet\n" },
	{ 505, "HTTP Version Not Supported",
	    "505 HTTP Version Not Supported: HTTP/1.x only\n" },
	{ 500, "Internal Server Error", "500 Internal Server Error\n" },
};

/* status's entry; the last (500) for any other. */
static const struct status *
status_of(int code)
{
	size_t i, n = sizeof(statuses) / sizeof(statuses[0]);

	for (i = 0; i < n - 1 && statuses[i].st_code != code; i++)
		continue;
	return &statuses[i];
}

const char *
http_error_body(int status)
{
	return status_of(status)->st_body;
}

int
http_response_head(char *buf, size_t len, int status, const char *ctype,
    size_t clen)
{
	int n;

	n = snprintf(buf, len, "HTTP/1.1 %d %s\r\n"
	    "Content-Type: %s\r\n"
	    "Content-Length: %zu\r\n"
	    "%s%s"
	    "Connection: close\r\n"
	    "\r\n", status_of(status)->st_code,
	    status_of(status)->st_reason, ctype, clen,
	    status == 405 ? "Allow: GET, HEAD\r\n" : "",
	    status == 503 ? "Retry-After: 1\r\n" : "");
	return n < 0 || (size_t)n >= len ? -1 : n;
}
