/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * serve.h - the HTTP exporter of --listen: one thread serves the latest
 * exposition a tool published at GET /metrics, in the flavour the
 * scraper's Accept header asks for (OpenMetrics 1.0, or the Prometheus
 * text format 0.0.4), so that Prometheus's up follows the tool.
 *
 * One thread and poll(2), never a thread per connection: at most
 * SRV_MAXCONN connections at once (one more closes the oldest), each
 * nonblocking, a request of at most SRV_MAXREQ bytes, and a connection
 * lives at most its timeout, reading the request and writing the
 * response together.  A slow or silent client therefore never blocks
 * the tool (which only copies its text in, srv_publish) or another
 * scraper.  Every response closes its connection (Connection: close).
 *
 * Only libc: no part of common/ below it.  Messages are returned, never
 * printed.
 */
#ifndef SERVE_H
#define SERVE_H

#include <stddef.h>

#define SRV_MAXCONN	16	/* connections served at once */
#define SRV_MAXREQ	8192	/* bytes of a request's head */
#define SRV_TIMEOUT_MS	10000	/* a connection's whole life */
#define SRV_HOSTMAX	256	/* an address or name, with its NUL */

/* The Content-Types of the two flavours. */
#define SRV_CT_OM	"application/openmetrics-text; version=1.0.0; " \
			"charset=utf-8"
#define SRV_CT_PROM	"text/plain; version=0.0.4; charset=utf-8"

struct srv;

/*
 * Split --listen's ADDR:PORT: an IPv4 address, a host name or an IPv6
 * address in brackets ([::1]:9464), and a port from 1 to 65535.  0, or
 * -1 with why in msg (the argument is malformed: a usage error).  host
 * (SRV_HOSTMAX bytes) gets the address without its brackets, *v6 1 when
 * it had them.
 */
int		 srv_parse(const char *arg, char *host, int *v6,
		    unsigned *port, char *msg, size_t msglen);
/*
 * Listen on arg (as srv_parse takes it; a name resolved, its first
 * address used), connections living timeout_ms.  NULL with why in msg:
 * malformed (*usage 1), or not possible here (*usage 0: the port in
 * use, not this machine's address, a name that does not resolve).
 * Every descriptor is close-on-exec: a command run never inherits them.
 */
struct srv	*srv_create(const char *arg, int timeout_ms, int *usage,
		    char *msg, size_t msglen);
/* The address listened on, numeric ("127.0.0.1:9464", "[::1]:9464"). */
const char	*srv_name(const struct srv *s);
/*
 * Start the server's thread, every signal blocked in it (the tool's
 * threads take them).  Until the first srv_publish, /metrics answers
 * 503.  0, or -1 with errno.
 */
int		 srv_start(struct srv *s);
/*
 * Serve these from now on (format.h's fmt_publish_fn; arg is the srv):
 * the texts are copied, under a lock, from any thread.  Out of memory,
 * the last ones stay.
 */
void		 srv_publish(void *arg, const char *om, size_t omlen,
		    const char *prom, size_t promlen);
/*
 * Stop the thread (a response being written is cut), close every
 * connection and the listening socket, free s; NULL does nothing.
 */
void		 srv_destroy(struct srv *s);

#endif
