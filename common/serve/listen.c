/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listen.c - --listen's ADDR:PORT: its syntax, its resolution and the
 * listening socket, with a message that says what went wrong and what
 * to do (another program has the port, the address is not this
 * machine's, the name does not resolve).
 */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "serve.h"
#include "srvint.h"

#define EXAMPLE		"(127.0.0.1:9464, [::1]:9464)"

/* The port of text: 1 to 65535, digits only; 0, or -1 with msg. */
static int
parse_port(const char *text, unsigned *port, char *msg, size_t msglen)
{
	unsigned long v = 0;
	const char *p;

	if (*text == '\0') {
		snprintf(msg, msglen, "no port after ':' %s", EXAMPLE);
		return -1;
	}
	for (p = text; *p != '\0'; p++) {
		if (*p < '0' || *p > '9') {
			snprintf(msg, msglen, "port '%s' is not a number",
			    text);
			return -1;
		}
		if (v <= 65535)
			v = v * 10 + (unsigned long)(*p - '0');
	}
	if (v < 1 || v > 65535) {
		snprintf(msg, msglen, "port %s out of range: 1 to 65535",
		    text);
		return -1;
	}
	*port = (unsigned)v;
	return 0;
}

/* "[v6]:port": host the part in brackets; rest what follows ']'. */
static int
split_v6(const char *arg, char *host, const char **rest, char *msg,
    size_t msglen)
{
	const char *close = strchr(arg, ']');
	struct in6_addr a;
	size_t n;

	if (close == NULL) {
		snprintf(msg, msglen, "no ']' after the IPv6 address %s",
		    EXAMPLE);
		return -1;
	}
	n = (size_t)(close - arg - 1);
	if (n >= SRV_HOSTMAX) {
		snprintf(msg, msglen, "the address is too long");
		return -1;
	}
	memcpy(host, arg + 1, n);
	host[n] = '\0';
	/* a zone (fe80::1%eth0) is left to getaddrinfo */
	if (strchr(host, '%') == NULL && inet_pton(AF_INET6, host, &a) != 1) {
		snprintf(msg, msglen, "'%s' is not an IPv6 address", host);
		return -1;
	}
	if (close[1] != ':') {
		snprintf(msg, msglen, "no ':PORT' after ']' %s", EXAMPLE);
		return -1;
	}
	*rest = close + 2;
	return 0;
}

int
srv_parse(const char *arg, char *host, int *v6, unsigned *port, char *msg,
    size_t msglen)
{
	const char *colon, *portp;
	size_t n;

	*v6 = arg[0] == '[';
	if (*v6) {
		if (split_v6(arg, host, &portp, msg, msglen) != 0)
			return -1;
		return parse_port(portp, port, msg, msglen);
	}
	if ((colon = strrchr(arg, ':')) == NULL) {
		snprintf(msg, msglen, "no port: give ADDR:PORT %s", EXAMPLE);
		return -1;
	}
	if (strchr(arg, ':') != colon) {
		snprintf(msg, msglen, "an IPv6 address goes in brackets "
		    "([::1]:9464)");
		return -1;
	}
	if ((n = (size_t)(colon - arg)) == 0) {
		snprintf(msg, msglen, "no address before ':' (127.0.0.1 "
		    "listens on loopback only, 0.0.0.0 everywhere)");
		return -1;
	}
	if (n >= SRV_HOSTMAX) {
		snprintf(msg, msglen, "the address is too long");
		return -1;
	}
	memcpy(host, arg, n);
	host[n] = '\0';
	return parse_port(colon + 1, port, msg, msglen);
}

/* A bind or listen failure, its errno named with what to do. */
static void
say_bind_error(int e, const char *name, char *msg, size_t msglen)
{
	const char *why;

	switch (e) {
	case EADDRINUSE:
		why = "address in use (EADDRINUSE): another program "
		    "listens on that port";
		break;
	case EADDRNOTAVAIL:
		why = "cannot assign the address (EADDRNOTAVAIL): it is "
		    "not one of this machine's";
		break;
	case EACCES:
		why = "permission denied (EACCES): a port below 1024 needs "
		    "CAP_NET_BIND_SERVICE";
		break;
	default:
		why = strerror(e);
	}
	snprintf(msg, msglen, "cannot listen on %s: %s", name, why);
}

/* ai's address, numeric, as "a.b.c.d:port" or "[v6]:port". */
static void
numeric_name(const struct addrinfo *ai, char *name)
{
	char h[SRV_HOSTMAX], p[16];

	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, h, sizeof(h), p,
	    sizeof(p), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(name, SRV_NAMEMAX, "?");
		return;
	}
	snprintf(name, SRV_NAMEMAX, ai->ai_family == AF_INET6 ? "[%s]:%s" :
	    "%s:%s", h, p);
}

/* A socket listening on ai; -1 with msg. */
static int
listen_on(const struct addrinfo *ai, const char *name, char *msg,
    size_t msglen)
{
	int fd, one = 1, e;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	if (fd < 0) {
		snprintf(msg, msglen, "cannot listen on %s: %s", name,
		    strerror(errno));
		return -1;
	}
	/* A restart binds again at once, past the last TIME_WAIT. */
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
	    listen(fd, SRV_MAXCONN * 4) != 0) {
		e = errno;
		close(fd);
		say_bind_error(e, name, msg, msglen);
		return -1;
	}
	return fd;
}

int
srv_listen_fd(const char *arg, char *name, int *usage, char *msg,
    size_t msglen)
{
	struct addrinfo hints, *res = NULL;
	char host[SRV_HOSTMAX], port[8];
	unsigned pn;
	int v6, rc, fd;

	*usage = 1;
	if (srv_parse(arg, host, &v6, &pn, msg, msglen) != 0)
		return -1;
	*usage = 0;
	snprintf(port, sizeof(port), "%u", pn);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = v6 ? AF_INET6 : AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | (v6 ? AI_NUMERICHOST : 0);
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(msg, msglen, "cannot resolve '%s': %s", host,
		    rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	numeric_name(res, name);
	fd = listen_on(res, name, msg, msglen);
	freeaddrinfo(res);
	return fd;
}
