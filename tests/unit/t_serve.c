/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_serve - the exporter of --listen (common/serve) over real sockets
 * on 127.0.0.1, a port from 20000 to 30000 picked at random:
 *
 *   parse	ADDR:PORT's syntax, each malformed form its own message
 *   errors	a port in use (EADDRINUSE named), an address not this
 *		machine's, a name that does not resolve: not usage errors
 *   serve	503 before anything is published; the text format without
 *		Accept, OpenMetrics when Accept asks (Prometheus's header,
 *		any case, not with q=0), each with its Content-Type and
 *		Content-Length; HEAD; a query; 404, 405 (Allow), 400 for
 *		garbage, 505, 431 for a head over SRV_MAXREQ; a request
 *		sent a byte at a time, or with bare LFs
 *   slow	silent clients, a half request and a client that never
 *		reads an 8 MB response block no other scrape; a silent
 *		connection is closed at its timeout
 *   many	more silent connections than SRV_MAXCONN: a scrape still
 *		gets through; 8 clients scraping while another thread
 *		publishes: every body is one of the texts published, whole
 *   end	every descriptor close-on-exec; after srv_destroy the
 *		port refuses
 *
 * Run under ThreadSanitizer too (make check-tsan).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"
#include "tap.h"

#define PROM_HDR "Accept: application/openmetrics-text;version=1.0.0;" \
	"q=0.5,application/openmetrics-text;version=0.0.1;q=0.4," \
	"text/plain;version=0.0.4;q=0.3,*/*;q=0.2\r\n"

#define SCRAPES	30	/* by each of 8 threads */

static unsigned port;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A server on 127.0.0.1 at a free random port (global port). */
static struct srv *
server(int timeout_ms)
{
	char arg[64], msg[256];
	struct srv *s;
	int i, usage;

	for (i = 0; i < 50; i++) {
		port = 20000 + (unsigned)(random() % 10000);
		snprintf(arg, sizeof(arg), "127.0.0.1:%u", port);
		if ((s = srv_create(arg, timeout_ms, &usage, msg,
		    sizeof(msg))) != NULL)
			return s;
	}
	fprintf(stderr, "# no free port: %s\n", msg);
	exit(1);
}

/* A connected socket to the server, a 5 s receive limit. */
static int
dial(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
	    .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = 5 };
	int fd;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read to EOF into buf (NUL-terminated); the length, -1 on an error. */
static ssize_t
slurp(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	return n < 0 ? -1 : (ssize_t)got;
}

/* Send req, read the whole response into buf; its status, or -1. */
static int
fetch(const char *req, size_t reqlen, char *buf, size_t len)
{
	int fd, st = -1;

	buf[0] = '\0';
	if ((fd = dial()) < 0)
		return -1;
	if (write(fd, req, reqlen) == (ssize_t)reqlen &&
	    slurp(fd, buf, len) > 12)
		sscanf(buf, "HTTP/1.1 %d", &st);
	close(fd);
	return st;
}

static int
get(const char *req, char *buf, size_t len)
{
	return fetch(req, strlen(req), buf, len);
}

/* A header's value in response buf (up to CR), or "" when absent. */
static const char *
header(const char *buf, const char *name, char *val, size_t len)
{
	const char *p = strcasestr(buf, name), *e;

	val[0] = '\0';
	if (p == NULL || (p = strchr(p, ':')) == NULL)
		return val;
	p += 2;
	e = strchr(p, '\r');
	snprintf(val, len, "%.*s", (int)(e != NULL ? e - p : 0), p);
	return val;
}

static const char *
body(const char *buf)
{
	const char *p = strstr(buf, "\r\n\r\n");

	return p != NULL ? p + 4 : "";
}

static void
t_parse(void)
{
	static const struct { const char *arg, *want; } bad[] = {
		{ "127.0.0.1", "no port: give ADDR:PORT" },
		{ "127.0.0.1:", "no port after ':'" },
		{ ":9464", "no address before ':'" },
		{ "127.0.0.1:0", "port 0 out of range: 1 to 65535" },
		{ "127.0.0.1:65536", "port 65536 out of range" },
		{ "127.0.0.1:99999999999999999999", "out of range" },
		{ "127.0.0.1:94x", "port '94x' is not a number" },
		{ "127.0.0.1:-1", "is not a number" },
		{ "::1:9464", "an IPv6 address goes in brackets" },
		{ "[::1]9464", "no ':PORT' after ']'" },
		{ "[::1", "no ']' after the IPv6 address" },
		{ "[1.2.3.4]:80", "'1.2.3.4' is not an IPv6 address" },
		{ "[]:80", "'' is not an IPv6 address" },
	};
	char host[SRV_HOSTMAX], msg[256];
	unsigned p;
	size_t i;
	int v6;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		tap_ok(srv_parse(bad[i].arg, host, &v6, &p, msg,
		    sizeof(msg)) == -1 && strstr(msg, bad[i].want) != NULL,
		    "parse: '%s' refused: %s", bad[i].arg, msg);
	}
	tap_ok(srv_parse("127.0.0.1:9464", host, &v6, &p, msg, sizeof(msg))
	    == 0 && strcmp(host, "127.0.0.1") == 0 && p == 9464 && !v6,
	    "parse: 127.0.0.1:9464");
	tap_ok(srv_parse("[::1]:65535", host, &v6, &p, msg, sizeof(msg))
	    == 0 && strcmp(host, "::1") == 0 && p == 65535 && v6,
	    "parse: [::1]:65535");
	tap_ok(srv_parse("localhost:1", host, &v6, &p, msg, sizeof(msg))
	    == 0 && strcmp(host, "localhost") == 0 && p == 1 && !v6,
	    "parse: localhost:1");
}

static void
t_errors(void)
{
	struct srv *s = server(SRV_TIMEOUT_MS), *t;
	char arg[64], msg[256];
	int usage = -1;

	snprintf(arg, sizeof(arg), "127.0.0.1:%u", port);
	t = srv_create(arg, SRV_TIMEOUT_MS, &usage, msg, sizeof(msg));
	tap_ok(t == NULL && usage == 0 && strstr(msg, "cannot listen on "
	    "127.0.0.1:") && strstr(msg, "EADDRINUSE") != NULL,
	    "errors: the port in use: %s", msg);
	srv_destroy(t);
	snprintf(arg, sizeof(arg), "192.0.2.1:%u", port);
	t = srv_create(arg, SRV_TIMEOUT_MS, &usage, msg, sizeof(msg));
	tap_ok(t == NULL && usage == 0 && strstr(msg, "EADDRNOTAVAIL") !=
	    NULL, "errors: not this machine's address: %s", msg);
	t = srv_create("no-such-host.invalid:9464", SRV_TIMEOUT_MS, &usage,
	    msg, sizeof(msg));
	tap_ok(t == NULL && usage == 0 && strncmp(msg,
	    "cannot resolve 'no-such-host.invalid': ", 39) == 0,
	    "errors: a name that does not resolve: %s", msg);
	t = srv_create("127.0.0.1:0", SRV_TIMEOUT_MS, &usage, msg,
	    sizeof(msg));
	tap_ok(t == NULL && usage == 1 && strstr(msg, "out of range"),
	    "errors: a malformed argument is a usage error: %s", msg);
	snprintf(arg, sizeof(arg), "127.0.0.1:%u", port);
	tap_str(srv_name(s), arg, "errors: srv_name is numeric");
	srv_destroy(s);
}

/* The responses to one request each, against what is published. */
static void
t_statuses(void)
{
	static const struct { const char *req; int st; const char *what; }
	    cases[] = {
		{ "GET /metrics?x=1 HTTP/1.1\r\n\r\n", 200, "a query" },
		{ "GET /metrics HTTP/1.0\n\n", 200, "bare LFs, HTTP/1.0" },
		{ "GET / HTTP/1.1\r\n\r\n", 404, "/" },
		{ "GET /metricsx HTTP/1.1\r\n\r\n", 404, "/metricsx" },
		{ "POST /metrics HTTP/1.1\r\n\r\n", 405, "POST" },
		{ "garbage\r\n\r\n", 400, "garbage" },
		{ "GET /metrics HTTP/1.1\r\nno colon\r\n\r\n", 400,
		    "a header without ':'" },
		{ "GET /metrics HTTP/1.1\r\n folded\r\n\r\n", 400,
		    "a folded header" },
		{ "GET /metrics HTTP/2.0\r\n\r\n", 505, "HTTP/2.0" },
		{ "GET metrics HTTP/1.1\r\n\r\n", 400, "no '/'" },
		{ "\x16\x03\x01\x02\x01\n\n", 400, "a TLS hello" },
	};
	char buf[4096], v[128];
	size_t i;
	int st;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		st = get(cases[i].req, buf, sizeof(buf));
		tap_ok(st == cases[i].st, "serve: %s: %d (want %d)",
		    cases[i].what, st, cases[i].st);
	}
	st = get("PUT /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	tap_str(header(buf, "\r\nAllow", v, sizeof(v)), "GET, HEAD",
	    "serve: 405 says Allow: GET, HEAD");
	st = fetch("GET /metrics HTTP/1.1\r\nX: \0\r\n\r\n", 32, buf,
	    sizeof(buf));
	tap_ok(st == 400, "serve: a NUL byte: 400 (%d)", st);
}

static void
t_serve(void)
{
	static const char om[] = "a_total 1\n# EOF\n", prom[] = "a_total 1\n";
	struct srv *s = server(SRV_TIMEOUT_MS);
	char buf[20000], v[128];
	int st, fd, i;

	srv_start(s);
	st = get("GET /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	tap_ok(st == 503, "serve: 503 before anything is published (%d)", st);
	srv_publish(s, om, strlen(om), prom, strlen(prom));
	st = get("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", buf, sizeof(buf));
	tap_ok(st == 200 && strcmp(body(buf), prom) == 0 &&
	    strcmp(header(buf, "Content-Type", v, sizeof(v)), SRV_CT_PROM) ==
	    0 && atoi(header(buf, "Content-Length", v, sizeof(v))) ==
	    (int)strlen(prom) && strcmp(header(buf, "Connection", v,
	    sizeof(v)), "close") == 0,
	    "serve: no Accept: the text format 0.0.4, its length, close");
	st = get("GET /metrics HTTP/1.1\r\n" PROM_HDR "\r\n", buf,
	    sizeof(buf));
	tap_ok(st == 200 && strcmp(body(buf), om) == 0 &&
	    strcmp(header(buf, "Content-Type", v, sizeof(v)), SRV_CT_OM) == 0,
	    "serve: Prometheus's Accept: OpenMetrics 1.0");
	st = get("GET /metrics HTTP/1.1\r\naccept: text/html, APPLICATION/"
	    "OpenMetrics-Text ; version=1.0.0\r\n\r\n", buf, sizeof(buf));
	tap_ok(st == 200 && strcmp(body(buf), om) == 0,
	    "serve: Accept in any case, among others: OpenMetrics");
	st = get("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-"
	    "text; q=0, text/plain\r\n\r\n", buf, sizeof(buf));
	tap_ok(st == 200 && strcmp(body(buf), prom) == 0,
	    "serve: OpenMetrics refused with q=0: the text format");
	st = get("HEAD /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	tap_ok(st == 200 && *body(buf) == '\0' && atoi(header(buf,
	    "Content-Length", v, sizeof(v))) == (int)strlen(prom),
	    "serve: HEAD: the head alone, the body's length");
	t_statuses();
	memset(buf, 'x', SRV_MAXREQ + 10);
	memcpy(buf, "GET /metrics HTTP/1.1\r\nX: ", 26);
	st = fetch(buf, SRV_MAXREQ + 10, buf, sizeof(buf));
	tap_ok(st == 431, "serve: a head over %d bytes: 431 (%d)", SRV_MAXREQ,
	    st);
	/* a byte at a time */
	fd = dial();
	for (i = 0; "GET /metrics HTTP/1.1\r\n\r\n"[i] != '\0'; i++) {
		if (write(fd, "GET /metrics HTTP/1.1\r\n\r\n" + i, 1) != 1)
			break;
		usleep(2000);
	}
	slurp(fd, buf, sizeof(buf));
	close(fd);
	tap_ok(strncmp(buf, "HTTP/1.1 200 OK\r\n", 17) == 0 &&
	    strcmp(body(buf), prom) == 0, "serve: a request a byte at a time");
	srv_destroy(s);
}

/* A GET that must succeed within secs; 1 when it did. */
static int
quick_get(double secs, const char *want)
{
	static char buf[1 << 16];
	double t0 = now_s();
	int st = get("GET /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));

	return st == 200 && strcmp(body(buf), want) == 0 &&
	    now_s() - t0 < secs;
}

static void
t_slow(void)
{
	struct srv *s = server(SRV_TIMEOUT_MS);
	size_t big = 8u << 20;
	char *text = malloc(big), buf[64];
	int fds[6], i, n, fd;
	double t0;

	srv_start(s);
	srv_publish(s, "x\n", 2, "y\n", 2);
	for (i = 0; i < 5; i++)
		fds[i] = dial();
	fds[5] = dial();
	n = write(fds[5], "GET /metr", 9);
	tap_ok(n == 9 && quick_get(1.0, "y\n"),
	    "slow: 5 silent clients and a half request block no scrape");
	memset(text, 'z', big);
	srv_publish(s, text, big, text, big);
	fd = dial();
	n = write(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25);
	usleep(100000);
	srv_publish(s, "x\n", 2, "y\n", 2);
	tap_ok(n == 25 && quick_get(1.0, "y\n"),
	    "slow: a client not reading an 8 MB response blocks no scrape");
	for (i = 0; i < 6; i++)
		close(fds[i]);
	close(fd);
	srv_destroy(s);
	free(text);
	/* A silent connection is closed at the timeout. */
	s = server(300);
	srv_start(s);
	fd = dial();
	t0 = now_s();
	n = (int)read(fd, buf, sizeof(buf));
	tap_ok(n == 0 && now_s() - t0 > 0.25 && now_s() - t0 < 2.0,
	    "slow: a silent client is closed at its timeout (%d after %.2f s)",
	    n, now_s() - t0);
	close(fd);
	srv_destroy(s);
}

struct scraper {
	int	ok;
	int	bad;
};

static void *
scrape(void *arg)
{
	struct scraper *sc = arg;
	char buf[4096];
	const char *b;
	int i;

	for (i = 0; i < SCRAPES; i++) {
		if (get("GET /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf))
		    != 200) {
			sc->bad++;
			continue;
		}
		b = body(buf);
		/* one text published whole: "vN\n" repeated, N one digit */
		if (strlen(b) == 300 && b[0] == 'v' &&
		    memcmp(b, b + 3, 297) == 0)
			sc->ok++;
		else
			sc->bad++;
	}
	return NULL;
}

static void
t_many(void)
{
	struct srv *s = server(SRV_TIMEOUT_MS);
	struct scraper sc[8] = { { 0, 0 } };
	pthread_t thr[8];
	int fds[40], i, j, good = 1;
	char text[300];

	srv_start(s);
	srv_publish(s, "x\n", 2, "y\n", 2);
	for (i = 0; i < 40; i++)
		fds[i] = dial();
	tap_ok(quick_get(1.0, "y\n"), "many: 40 silent connections (%d "
	    "served at once) block no scrape", SRV_MAXCONN);
	for (i = 0; i < 40; i++)
		close(fds[i]);
	memset(text, 'v', 300);
	srv_publish(s, text, 300, text, 300);
	for (i = 0; i < 8; i++)
		pthread_create(&thr[i], NULL, scrape, &sc[i]);
	for (i = 0; i < 200; i++) {
		for (j = 0; j < 100; j++)
			memcpy(text + 3 * j, (char []){ 'v',
			    (char)('0' + i % 10), '\n' }, 3);
		srv_publish(s, text, 300, text, 300);
		usleep(500);
	}
	for (i = 0; i < 8; i++) {
		pthread_join(thr[i], NULL);
		good &= sc[i].ok == SCRAPES && sc[i].bad == 0;
	}
	tap_ok(good, "many: 8 clients scraping while another thread "
	    "publishes: every body one text, whole");
	srv_destroy(s);
}

/* The descriptors open at the start (inherited, not ours). */
static char inherited[4096];

static void
note_inherited(void)
{
	int fd;

	for (fd = 0; fd < (int)sizeof(inherited); fd++)
		inherited[fd] = fcntl(fd, F_GETFD) != -1;
}

/*
 * Every descriptor opened since the start close-on-exec (a command run
 * never has them).
 */
static int
all_cloexec(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fd, bad = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		fd = atoi(e->d_name);
		if (fd < (int)sizeof(inherited) && inherited[fd])
			continue;
		if (fd == dirfd(d))
			continue;
		if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC)) {
			printf("# fd %d is not close-on-exec\n", fd);
			bad++;
		}
	}
	if (d != NULL)
		closedir(d);
	return d != NULL && bad == 0;
}

static void
t_end(void)
{
	struct srv *s = server(SRV_TIMEOUT_MS);
	int fd;

	srv_start(s);
	fd = dial();
	tap_ok(fd >= 0 && all_cloexec(),
	    "end: the server's descriptors are close-on-exec");
	if (fd >= 0)
		close(fd);
	fd = dial();		/* left open: destroy closes its side */
	srv_destroy(s);
	tap_ok(dial() < 0 && errno == ECONNREFUSED,
	    "end: after srv_destroy the port refuses");
	if (fd >= 0)
		close(fd);
	srv_destroy(NULL);
}

int
main(void)
{
	note_inherited();
	srandom((unsigned)getpid() ^ (unsigned)time(NULL));
	t_parse();
	t_errors();
	t_serve();
	t_slow();
	t_many();
	t_end();
	return tap_done();
}
