/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * serve.c - the exporter's thread: poll(2) over a wake-up pipe, the
 * listening socket and at most SRV_MAXCONN nonblocking connections.
 *
 * A connection reads its request's head (CONN_READ), then writes its
 * whole response from a copy of its own (CONN_WRITE: the published
 * texts may change meanwhile), then reads and drops what the client
 * still sends until it closes (CONN_DRAIN, a second at most), so that
 * closing never resets the response away.  Every connection has a
 * deadline, its timeout from its accept; one past it is closed, and
 * when every slot is taken a new connection closes the oldest.  The
 * tool's threads only ever take s_lock to swap the texts in.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "serve.h"
#include "srvint.h"

#define DRAIN_MS	1000	/* after the response, for the client's close */
#define PAUSE_MS	100	/* out of descriptors: accept again after */

#define SWAP(a, b)	do {			\
		char *swap_ = (a);		\
		(a) = (b);			\
		(b) = swap_;			\
	} while (0)

enum conn_state { CONN_FREE, CONN_READ, CONN_WRITE, CONN_DRAIN };

struct conn {
	enum conn_state	 c_state;
	int		 c_fd;
	int64_t		 c_deadline;	/* CLOCK_MONOTONIC ms */
	size_t		 c_inlen;
	char		*c_out;		/* the response, head and body */
	size_t		 c_outlen;
	size_t		 c_outpos;
	char		 c_in[SRV_MAXREQ];
};

struct srv {
	int		 s_lfd;		/* listening */
	int		 s_wake[2];	/* srv_destroy writes to [1] */
	int		 s_timeout;	/* ms */
	int64_t		 s_pause;	/* no accept before (EMFILE) */
	pthread_t	 s_thr;
	int		 s_started;
	char		 s_name[SRV_NAMEMAX];
	pthread_mutex_t	 s_lock;	/* the texts below */
	char		*s_om;		/* NULL: nothing published yet */
	size_t		 s_omlen;
	char		*s_prom;
	size_t		 s_promlen;
	struct conn	 s_conns[SRV_MAXCONN];
};

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct srv *
srv_create(const char *arg, int timeout_ms, int *usage, char *msg,
    size_t msglen)
{
	struct srv *s;
	int i;

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		*usage = 0;
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	s->s_timeout = timeout_ms;
	s->s_wake[0] = s->s_wake[1] = -1;
	for (i = 0; i < SRV_MAXCONN; i++)
		s->s_conns[i].c_fd = -1;
	pthread_mutex_init(&s->s_lock, NULL);
	if ((s->s_lfd = srv_listen_fd(arg, s->s_name, usage, msg,
	    msglen)) < 0) {
		srv_destroy(s);
		return NULL;
	}
	if (pipe2(s->s_wake, O_CLOEXEC | O_NONBLOCK) != 0) {
		*usage = 0;
		snprintf(msg, msglen, "cannot listen on %s: %s", s->s_name,
		    strerror(errno));
		srv_destroy(s);
		return NULL;
	}
	return s;
}

const char *
srv_name(const struct srv *s)
{
	return s->s_name;
}

void
srv_publish(void *arg, const char *om, size_t omlen, const char *prom,
    size_t promlen)
{
	struct srv *s = arg;
	char *a, *b;

	a = malloc(omlen + 1);
	b = malloc(promlen + 1);
	if (a == NULL || b == NULL) {
		free(a);
		free(b);
		return;
	}
	memcpy(a, om, omlen);
	memcpy(b, prom, promlen);
	pthread_mutex_lock(&s->s_lock);
	/* swapped: the old ones are freed outside the lock */
	SWAP(s->s_om, a);
	SWAP(s->s_prom, b);
	s->s_omlen = omlen;
	s->s_promlen = promlen;
	pthread_mutex_unlock(&s->s_lock);
	free(a);
	free(b);
}

static void
conn_close(struct conn *c)
{
	close(c->c_fd);
	free(c->c_out);
	memset(c, 0, offsetof(struct conn, c_in));
	c->c_fd = -1;
	c->c_state = CONN_FREE;
}

/*
 * c's response to r (status, for 200 the texts r's Accept asks for),
 * copied whole into c_out; a HEAD gets the head alone.  -1: no memory.
 */
static int
conn_respond(struct srv *s, struct conn *c, const struct http_req *r)
{
	const char *body, *ctype = "text/plain; charset=utf-8";
	int status = r->hr_status, hl;
	char head[512];
	size_t blen;

	pthread_mutex_lock(&s->s_lock);
	if (status == 200 && s->s_om == NULL)
		status = 503;
	if (status == 200) {
		body = r->hr_om ? s->s_om : s->s_prom;
		blen = r->hr_om ? s->s_omlen : s->s_promlen;
		ctype = r->hr_om ? SRV_CT_OM : SRV_CT_PROM;
	} else {
		body = http_error_body(status);
		blen = strlen(body);
	}
	hl = http_response_head(head, sizeof(head), status, ctype, blen);
	if (r->hr_head)
		blen = 0;
	if (hl > 0 && (c->c_out = malloc((size_t)hl + blen)) != NULL) {
		memcpy(c->c_out, head, (size_t)hl);
		memcpy(c->c_out + hl, body, blen);
	}
	pthread_mutex_unlock(&s->s_lock);
	if (c->c_out == NULL)
		return -1;
	c->c_outlen = (size_t)hl + blen;
	c->c_outpos = 0;
	c->c_state = CONN_WRITE;
	return 0;
}

/*
 * Write what the socket takes; all written, half-close and drain for at
 * most DRAIN_MS.
 */
static void
conn_write(struct conn *c, int64_t now)
{
	ssize_t n;

	while (c->c_outpos < c->c_outlen) {
		n = send(c->c_fd, c->c_out + c->c_outpos,
		    c->c_outlen - c->c_outpos, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0) {
			conn_close(c);
			return;
		}
		c->c_outpos += (size_t)n;
	}
	free(c->c_out);
	c->c_out = NULL;
	(void)shutdown(c->c_fd, SHUT_WR);
	c->c_state = CONN_DRAIN;
	if (c->c_deadline > now + DRAIN_MS)
		c->c_deadline = now + DRAIN_MS;
}

/* Read and drop until the client closes (or the deadline). */
static void
conn_drain(struct conn *c)
{
	char drop[1024];
	ssize_t n;

	while ((n = recv(c->c_fd, drop, sizeof(drop), 0)) > 0)
		continue;
	if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
	    errno != EINTR))
		conn_close(c);
}

/* Read the request's head; complete (or too long), respond. */
static void
conn_read(struct srv *s, struct conn *c, int64_t now)
{
	struct http_req r = { .hr_status = 431 };
	const char *end;
	ssize_t n;

	n = recv(c->c_fd, c->c_in + c->c_inlen, sizeof(c->c_in) - c->c_inlen,
	    0);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(c);
		return;
	}
	c->c_inlen += (size_t)n;
	if ((end = http_head_end(c->c_in, c->c_inlen)) != NULL)
		http_parse(c->c_in, (size_t)(end - c->c_in), &r);
	else if (c->c_inlen < sizeof(c->c_in))
		return;
	if (conn_respond(s, c, &r) != 0) {
		conn_close(c);
		return;
	}
	conn_write(c, now);
}

/* A slot for a new connection: a free one, else the oldest closed. */
static struct conn *
take_slot(struct srv *s)
{
	struct conn *c, *old = NULL;
	int i;

	for (i = 0; i < SRV_MAXCONN; i++) {
		c = &s->s_conns[i];
		if (c->c_state == CONN_FREE)
			return c;
		/* a draining one first: its response is out */
		if (old == NULL || (c->c_state == CONN_DRAIN) >
		    (old->c_state == CONN_DRAIN) ||
		    ((c->c_state == CONN_DRAIN) ==
		    (old->c_state == CONN_DRAIN) &&
		    c->c_deadline < old->c_deadline))
			old = c;
	}
	conn_close(old);
	return old;
}

/* The connections waiting, SRV_MAXCONN at most at a time. */
static void
accept_new(struct srv *s, int64_t now)
{
	struct conn *c;
	int fd, i;

	for (i = 0; i < SRV_MAXCONN; i++) {
		fd = accept4(s->s_lfd, NULL, NULL, SOCK_NONBLOCK |
		    SOCK_CLOEXEC);
		if (fd < 0 && (errno == ECONNABORTED || errno == EINTR))
			continue;
		if (fd < 0) {
			/* out of descriptors: it would poll readable again */
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM)
				s->s_pause = now + PAUSE_MS;
			return;
		}
		c = take_slot(s);
		c->c_fd = fd;
		c->c_state = CONN_READ;
		c->c_deadline = now + s->s_timeout;
	}
}

/* poll's array: the pipe, the listener, the connections; *ms to wait. */
static int
poll_set(struct srv *s, struct pollfd *pfd, struct conn **who, int64_t now,
    int *ms)
{
	int64_t next = s->s_pause > now ? s->s_pause : INT64_MAX;
	int i, n = 2;

	pfd[0] = (struct pollfd){ .fd = s->s_wake[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = s->s_pause > now ? -1 : s->s_lfd,
	    .events = POLLIN };
	for (i = 0; i < SRV_MAXCONN; i++) {
		struct conn *c = &s->s_conns[i];

		if (c->c_state == CONN_FREE)
			continue;
		if (c->c_deadline < next)
			next = c->c_deadline;
		who[n] = c;
		pfd[n++] = (struct pollfd){ .fd = c->c_fd,
		    .events = c->c_state == CONN_WRITE ? POLLOUT : POLLIN };
	}
	*ms = next == INT64_MAX ? -1 : next <= now ? 0 :
	    next - now > INT32_MAX ? INT32_MAX : (int)(next - now);
	return n;
}

/* One connection poll woke. */
static void
conn_event(struct srv *s, struct conn *c, int64_t now)
{
	switch (c->c_state) {
	case CONN_READ:
		conn_read(s, c, now);
		break;
	case CONN_WRITE:
		conn_write(c, now);
		break;
	case CONN_DRAIN:
		conn_drain(c);
		break;
	case CONN_FREE:
		break;
	}
}

static void *
srv_main(void *arg)
{
	struct pollfd pfd[SRV_MAXCONN + 2];
	struct conn *who[SRV_MAXCONN + 2];
	struct srv *s = arg;
	int64_t now;
	int i, n, ms;

	for (;;) {
		n = poll_set(s, pfd, who, now_ms(), &ms);
		if (poll(pfd, (nfds_t)n, ms) < 0)
			continue;	/* EINTR; ENOMEM: try again */
		if (pfd[0].revents != 0)
			return NULL;
		now = now_ms();
		for (i = 2; i < n; i++)
			if (pfd[i].revents != 0)
				conn_event(s, who[i], now);
		if (pfd[1].revents != 0)
			accept_new(s, now);
		now = now_ms();
		for (i = 0; i < SRV_MAXCONN; i++)
			if (s->s_conns[i].c_state != CONN_FREE &&
			    s->s_conns[i].c_deadline <= now)
				conn_close(&s->s_conns[i]);
	}
}

int
srv_start(struct srv *s)
{
	sigset_t all, old;
	int e;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&s->s_thr, NULL, srv_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		errno = e;
		return -1;
	}
	s->s_started = 1;
	return 0;
}

void
srv_destroy(struct srv *s)
{
	int i;

	if (s == NULL)
		return;
	if (s->s_started) {
		/* the pipe is never full: one byte, once */
		(void)!write(s->s_wake[1], "", 1);
		pthread_join(s->s_thr, NULL);
	}
	for (i = 0; i < SRV_MAXCONN; i++)
		if (s->s_conns[i].c_state != CONN_FREE)
			conn_close(&s->s_conns[i]);
	if (s->s_lfd >= 0)
		close(s->s_lfd);
	for (i = 0; i < 2; i++)
		if (s->s_wake[i] >= 0)
			close(s->s_wake[i]);
	pthread_mutex_destroy(&s->s_lock);
	free(s->s_om);
	free(s->s_prom);
	free(s);
}
