/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * srvint.h - the server's own parts (serve.h is its interface): the
 * listening socket (listen.c) and HTTP's requests and responses
 * (http.c), which serve.c's loop calls.
 */
#ifndef SRVINT_H
#define SRVINT_H

#include <stddef.h>

#include "serve.h"

#define SRV_NAMEMAX	(SRV_HOSTMAX + 16)	/* "[host]:port" */

/*
 * A nonblocking, close-on-exec socket listening on arg (srv_parse's
 * form), its numeric address in name (SRV_NAMEMAX bytes).  The
 * descriptor, or -1 with why in msg and *usage as srv_create's.
 */
int	srv_listen_fd(const char *arg, char *name, int *usage, char *msg,
	    size_t msglen);

/* What a request asks. */
struct http_req {
	int	hr_status;	/* 200, or the error to answer */
	int	hr_head;	/* HEAD: the head alone */
	int	hr_om;		/* Accept asks for OpenMetrics */
};

/*
 * The head of a request (len bytes), or NULL while incomplete: the
 * byte after its empty line.
 */
const char *http_head_end(const char *buf, size_t len);
/*
 * Parse a complete head: 200 for GET or HEAD of /metrics (a query
 * ignored), else 400 (malformed), 404 (another path), 405 (another
 * method), 505 (not HTTP/1.x).
 */
void	http_parse(const char *buf, size_t len, struct http_req *r);
/*
 * A response's head for status with a body of clen bytes of ctype:
 * its length, or -1 when it does not fit in len.
 */
int	http_response_head(char *buf, size_t len, int status,
	    const char *ctype, size_t clen);
/* The body of an error response ("404 Not Found\n"). */
const char *http_error_body(int status);

#endif
