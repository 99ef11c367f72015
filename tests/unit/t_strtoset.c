/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_strtoset.c - the -c grammar (libcpc/strtoset.c), table-driven.
 *
 * A parsed spec is rendered as one canonical line so that a table row
 * states the whole expected result:
 *
 *	pic<N>=<event>[<flags>]{<attr>=<val>,...} ... [sysonly]
 *
 * where <flags> is "u" (CPC_COUNT_USER), "s" (CPC_COUNT_SYSTEM), "us",
 * or "-" for neither, and the {...} part is left out when there are no
 * attributes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libcpc.h>

#include "errh.h"
#include "getpids.h"
#include "strtoset.h"
#include "tap.h"

#define NPIC	8

static const char *const attrs[] = {
	"umask", "cmask", "edge", "inv", "pc", "anythr", NULL
};

/* Render sp canonically into buf. */
static void
render(const struct spec *sp, char *buf, size_t len)
{
	size_t n = 0;
	int i;
	uint_t k;

	buf[0] = '\0';
	for (i = 0; i < sp->sp_nreqs && n < len; i++) {
		const struct spec_req *r = &sp->sp_reqs[i];
		uint_t f = r->sr_flags;

		n += snprintf(buf + n, len - n, "%spic%d=%s[%s%s%s]",
		    i == 0 ? "" : " ", r->sr_pic, r->sr_event,
		    f & CPC_COUNT_USER ? "u" : "",
		    f & CPC_COUNT_SYSTEM ? "s" : "",
		    (f & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) == 0 ? "-" : "");
		if (f & ~(uint_t)(CPC_COUNT_USER | CPC_COUNT_SYSTEM) &&
		    n < len)
			n += snprintf(buf + n, len - n, "<%#x>", f);
		for (k = 0; k < r->sr_nattrs && n < len; k++)
			n += snprintf(buf + n, len - n, "%s%s=%llu",
			    k == 0 ? "{" : ",", r->sr_attrs[k].ca_name,
			    (unsigned long long)r->sr_attrs[k].ca_val);
		if (r->sr_nattrs > 0 && n < len)
			n += snprintf(buf + n, len - n, "}");
	}
	if (sp->sp_sysonly && n < len)
		snprintf(buf + n, len - n, " sysonly");
}

struct good {
	const char	*g_text;
	const char	*g_want;
};

static const struct good goods[] = {
	/* Placement: explicit, implicit, and implicit after explicit. */
	{ "a", "pic0=a[u]" },
	{ "a,b,c", "pic0=a[u] pic1=b[u] pic2=c[u]" },
	{ "pic3=a", "pic3=a[u]" },
	{ "pic7=a", "pic7=a[u]" },
	{ "pic3=a,b", "pic3=a[u] pic4=b[u]" },
	{ "a,pic3=b,c", "pic0=a[u] pic3=b[u] pic4=c[u]" },
	{ "pic1=y,a", "pic1=y[u] pic2=a[u]" },
	{ "pic5=x,pic1=y", "pic1=y[u] pic5=x[u]" },
	{ "pic5=x,pic1=y,z", "pic1=y[u] pic5=x[u] pic6=z[u]" },
	{ "a,b,c,d,e,f,g,h",
	  "pic0=a[u] pic1=b[u] pic2=c[u] pic3=d[u] pic4=e[u] pic5=f[u] "
	  "pic6=g[u] pic7=h[u]" },
	{ "pic7=h,pic6=g,pic5=f,pic4=e,pic3=d,pic2=c,pic1=b,pic0=a",
	  "pic0=a[u] pic1=b[u] pic2=c[u] pic3=d[u] pic4=e[u] pic5=f[u] "
	  "pic6=g[u] pic7=h[u]" },
	/* The same event twice is two requests. */
	{ "a,a", "pic0=a[u] pic1=a[u]" },
	/* Event names are kept as written. */
	{ "syscalls:sys_enter_getpid,sched:sched_switch",
	  "pic0=syscalls:sys_enter_getpid[u] pic1=sched:sched_switch[u]" },
	{ "PAPI_tot_ins,0xc0", "pic0=PAPI_tot_ins[u] pic1=0xc0[u]" },
	/* pmu/term=a,term=b/ spans are one token, commas and all. */
	{ "msr/tsc/", "pic0=msr/tsc/[u]" },
	{ "cpu/event=0x3c,umask=0x01/,b",
	  "pic0=cpu/event=0x3c,umask=0x01/[u] pic1=b[u]" },
	{ "a,cpu/event=0x3c,umask=1,cmask=2/,sys",
	  "pic0=a[us] pic1=cpu/event=0x3c,umask=1,cmask=2/[us]" },
	{ "pic2=cpu/event=0x3c,umask=1/",
	  "pic2=cpu/event=0x3c,umask=1/[u]" },
	{ "pic4=cpu/event=0xc0/,cpu/event=0x3c/",
	  "pic4=cpu/event=0xc0/[u] pic5=cpu/event=0x3c/[u]" },
	/* Mode flags: defaults, global, per counter, values. */
	{ "a,sys", "pic0=a[us]" },
	{ "sys,a", "pic0=a[us]" },
	{ "a,sys=1", "pic0=a[us]" },
	{ "a,sys=0", "pic0=a[u]" },
	{ "a,nouser", "pic0=a[-] sysonly" },
	{ "a,nouser=1", "pic0=a[-] sysonly" },
	{ "a,nouser=0", "pic0=a[u]" },
	{ "a,nouser,sys", "pic0=a[s] sysonly" },
	{ "nouser,sys,a,b", "pic0=a[s] pic1=b[s] sysonly" },
	{ "a,b,sys1", "pic0=a[u] pic1=b[us]" },
	{ "a,b,nouser0", "pic0=a[-] pic1=b[u]" },
	{ "a,b,nouser0,sys0", "pic0=a[s] pic1=b[u]" },
	{ "a,b,sys,sys0=0", "pic0=a[u] pic1=b[us]" },
	{ "a,b,nouser,nouser1=0", "pic0=a[-] pic1=b[u]" },
	{ "sys0,nouser0,pic0=a", "pic0=a[s] sysonly" },
	{ "pic3=a,sys3,nouser3", "pic3=a[s] sysonly" },
	/* Attributes: global, per counter overriding global, bases. */
	{ "a,umask=0x10", "pic0=a[u]{umask=16}" },
	{ "a,b,umask=0x10,umask0=3",
	  "pic0=a[u]{umask=3} pic1=b[u]{umask=16}" },
	{ "umask0=3,a,b,umask=0x10",
	  "pic0=a[u]{umask=3} pic1=b[u]{umask=16}" },
	{ "a,b,edge1", "pic0=a[u] pic1=b[u]{edge=1}" },
	{ "a,edge", "pic0=a[u]{edge=1}" },
	{ "a,edge=0", "pic0=a[u]{edge=0}" },
	{ "a,cmask=010", "pic0=a[u]{cmask=8}" },
	{ "a,cmask=10", "pic0=a[u]{cmask=10}" },
	{ "a,cmask=0", "pic0=a[u]{cmask=0}" },
	{ "a,cmask=0X1f", "pic0=a[u]{cmask=31}" },
	{ "a,umask=0xffffffffffffffff",
	  "pic0=a[u]{umask=18446744073709551615}" },
	{ "a,umask=0xff,cmask=2,edge,inv=0,pc=1,anythr",
	  "pic0=a[u]{umask=255,cmask=2,edge=1,inv=0,pc=1,anythr=1}" },
	{ "pic0=0xc0,umask0=0x01,pic1=PAPI_tot_cyc,sys",
	  "pic0=0xc0[us]{umask=1} pic1=PAPI_tot_cyc[us]" },
	{ "a,b,umask=1,cmask1=4,sys1",
	  "pic0=a[u]{umask=1} pic1=b[us]{umask=1,cmask=4}" },
	/* Keywords win over event names; near misses are events. */
	{ "edge,a", "pic0=a[u]{edge=1}" },
	{ "system,nousers,sys0x,umask2x",
	  "pic0=system[u] pic1=nousers[u] pic2=sys0x[u] pic3=umask2x[u]" },
	{ "a,pic", "pic0=a[u] pic1=pic[u]" },
};

struct bad {
	const char	*b_text;
	const char	*b_want;
};

static const struct bad bads[] = {
	{ "", "empty event specification" },
	{ "   ", "empty event specification" },
	{ " \t ", "empty event specification" },
	{ "a,,b", "empty token (two commas, or a comma at an end)" },
	{ "a,", "empty token (two commas, or a comma at an end)" },
	{ ",a", "empty token (two commas, or a comma at an end)" },
	{ ",", "empty token (two commas, or a comma at an end)" },
	{ "pic0=a,pic0=b", "repeated 'pic0' token" },
	{ "a,pic0=b", "repeated 'pic0' token" },
	{ "pic5=a,b,pic6=c", "repeated 'pic6' token" },
	{ "pic0=", "missing 'pic0' value" },
	{ "pic0", "missing 'pic0' value" },
	{ "a,pic3=", "missing 'pic3' value" },
	{ "pic8=a", "'pic8': no counter pic8 (this machine has pic0-pic7)" },
	{ "pic99=a",
	  "'pic99': no counter pic99 (this machine has pic0-pic7)" },
	{ "a,umask9=1",
	  "'umask9': no counter pic9 (this machine has pic0-pic7)" },
	{ "a,sys8", "'sys8': no counter pic8 (this machine has pic0-pic7)" },
	{ "a,b,c,d,e,f,g,h,i",
	  "too many events at 'i': a set holds at most 8 (pic0-pic7)" },
	{ "x=y",
	  "bad token 'x=y' (not pic<N>=, sys, nouser or an attribute)" },
	{ "a,pic=b",
	  "bad token 'pic=b' (not pic<N>=, sys, nouser or an attribute)" },
	{ "a,pic0x=b",
	  "bad token 'pic0x=b' (not pic<N>=, sys, nouser or an attribute)" },
	{ "a,pic01=b",
	  "bad token 'pic01=b' (not pic<N>=, sys, nouser or an attribute)" },
	{ "a,umask=zz", "invalid value 'zz' for attribute 'umask'" },
	{ "a,umask=0x10zz", "invalid value '0x10zz' for attribute 'umask'" },
	{ "a,umask=", "invalid value '' for attribute 'umask'" },
	{ "a,umask=-1", "invalid value '-1' for attribute 'umask'" },
	{ "a,umask0= 1", "invalid value ' 1' for attribute 'umask0'" },
	{ "a,umask=18446744073709551616",
	  "invalid value '18446744073709551616' for attribute 'umask'" },
	{ "a,sys=2", "invalid value '2' for 'sys' (0 or 1)" },
	{ "a,sys=", "invalid value '' for 'sys' (0 or 1)" },
	{ "a,sys0=2", "invalid value '2' for 'sys0' (0 or 1)" },
	{ "a,nouser=yes", "invalid value 'yes' for 'nouser' (0 or 1)" },
	{ "a,umask=1,umask=2", "repeated 'umask' token" },
	{ "a,umask0=1,umask0=2", "repeated 'umask0' token" },
	{ "a,edge,edge=0", "repeated 'edge' token" },
	{ "a,sys,sys", "repeated 'sys' token" },
	{ "a,nouser1,b,nouser1=0", "repeated 'nouser1' token" },
	{ "a,umask3=1", "'umask3' applies to pic3, which has no event" },
	{ "a,sys1", "'sys1' applies to pic1, which has no event" },
	{ "nouser2,a", "'nouser2' applies to pic2, which has no event" },
	{ "sys", "no event in the specification" },
	{ "sys,nouser,umask=3", "no event in the specification" },
	{ "cpu/event=1,umask=2",
	  "unterminated PMU event 'cpu/event=1,umask=2' "
	  "(expected pmu/term=value,.../)" },
	{ "a,cpu/event=1",
	  "unterminated PMU event 'cpu/event=1' "
	  "(expected pmu/term=value,.../)" },
};

static void
test_good(void)
{
	char got[1024], err[256];
	struct spec sp;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(goods) / sizeof(*goods); i++) {
		const struct good *g = &goods[i];

		err[0] = '\0';
		rc = spec_parse(g->g_text, NPIC, attrs, &sp, err, sizeof(err));
		if (!tap_ok(rc == 0, "parse '%s' succeeds", g->g_text)) {
			printf("#   error: %s\n", err);
			continue;
		}
		render(&sp, got, sizeof(got));
		tap_str(got, g->g_want, g->g_text);
		spec_free(&sp);
	}
}

static void
test_bad(void)
{
	char err[256], name[300];
	struct spec sp;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bads) / sizeof(*bads); i++) {
		const struct bad *b = &bads[i];

		memset(&sp, 0xa5, sizeof(sp));
		strcpy(err, "(untouched)");
		rc = spec_parse(b->b_text, NPIC, attrs, &sp, err, sizeof(err));
		tap_ok(rc == -1, "parse '%s' fails", b->b_text);
		snprintf(name, sizeof(name), "message for '%s'", b->b_text);
		tap_str(err, b->b_want, name);
		/* Nothing is left allocated or dangling on failure. */
		tap_ok(sp.sp_nreqs == 0 && sp.sp_reqs == NULL &&
		    sp.sp_text == NULL && sp.sp_sysonly == 0,
		    "'%s': the spec is left empty", b->b_text);
	}
}

/*
 * An implicit event after an explicit pic7 has nowhere to go.  It must
 * fail and name the token; the wording is checked loosely (see the
 * report: "a set holds at most 8" is misleading when it holds 1).
 */
static void
test_no_slot_after_top(void)
{
	char err[256];
	struct spec sp;
	int rc;

	rc = spec_parse("pic7=a,b", NPIC, attrs, &sp, err, sizeof(err));
	tap_ok(rc == -1, "'pic7=a,b' fails: no slot after pic7");
	tap_ok(rc == -1 && strstr(err, "'b'") != NULL,
	    "'pic7=a,b': the message names the token 'b' (%s)", err);
}

/* Settings depend on the machine: npic and the attribute table. */
static void
test_machine(void)
{
	static const char *const none[] = { NULL };
	char err[256], got[512];
	struct spec sp;
	int rc;

	rc = spec_parse("a,b", 2, attrs, &sp, err, sizeof(err));
	tap_ok(rc == 0, "npic 2: two implicit events fit");
	spec_free(&sp);
	rc = spec_parse("a,b,c", 2, attrs, &sp, err, sizeof(err));
	tap_ok(rc == -1, "npic 2: a third event fails");
	tap_str(err, "too many events at 'c': a set holds at most 2 "
	    "(pic0-pic1)", "npic 2: too-many message");
	rc = spec_parse("pic2=a", 2, attrs, &sp, err, sizeof(err));
	tap_str(rc == -1 ? err : "(parsed)",
	    "'pic2': no counter pic2 (this machine has pic0-pic1)",
	    "npic 2: pic2 is out of range");

	/* Without attributes, "edge" is an event and umask= a bad token. */
	rc = spec_parse("edge,inv", 8, none, &sp, err, sizeof(err));
	if (tap_ok(rc == 0, "no attributes: 'edge,inv' parses")) {
		render(&sp, got, sizeof(got));
		tap_str(got, "pic0=edge[u] pic1=inv[u]",
		    "no attributes: bare names are events");
		spec_free(&sp);
	}
	rc = spec_parse("a,umask=1", 8, NULL, &sp, err, sizeof(err));
	tap_str(rc == -1 ? err : "(parsed)", "bad token 'umask=1' (not "
	    "pic<N>=, sys, nouser or an attribute)",
	    "NULL attributes: umask=1 is a bad token");
	rc = spec_parse("a,sys", 8, NULL, &sp, err, sizeof(err));
	tap_ok(rc == 0 && sp.sp_reqs[0].sr_flags ==
	    (CPC_COUNT_USER | CPC_COUNT_SYSTEM),
	    "NULL attributes: sys is still a keyword");
	spec_free(&sp);

	/* Slots beyond SPEC_MAXPIC are clamped. */
	rc = spec_parse("pic64=a", 1000, attrs, &sp, err, sizeof(err));
	tap_str(rc == -1 ? err : "(parsed)",
	    "'pic64': no counter pic64 (this machine has pic0-pic63)",
	    "npic above SPEC_MAXPIC is clamped to 64");
	rc = spec_parse("pic63=a", 1000, attrs, &sp, err, sizeof(err));
	tap_ok(rc == 0 && sp.sp_nreqs == 1 && sp.sp_reqs[0].sr_pic == 63,
	    "pic63 is usable with npic 1000");
	spec_free(&sp);
}

/* The text is kept as written; spec_free empties; free twice is safe. */
static void
test_free(void)
{
	const char *text = "pic1=a,umask=3,sys";
	char err[256];
	struct spec sp;
	int rc;

	rc = spec_parse(text, NPIC, attrs, &sp, err, sizeof(err));
	tap_ok(rc == 0, "parse '%s'", text);
	tap_str(sp.sp_text, text, "sp_text is the text as written");
	tap_ok(sp.sp_text != text, "sp_text is a copy");
	tap_u64(sp.sp_nreqs, 1, "one request");
	spec_free(&sp);
	tap_ok(sp.sp_nreqs == 0 && sp.sp_reqs == NULL && sp.sp_text == NULL,
	    "spec_free leaves an empty spec");
	spec_free(&sp);
	tap_ok(1, "spec_free twice is harmless");
	spec_free(NULL);
	tap_ok(1, "spec_free(NULL) is a no-op");

	/* A truncated message is still terminated. */
	rc = spec_parse("x=y", NPIC, attrs, &sp, err, 8);
	tap_str(rc == -1 ? err : "(parsed)", "bad tok",
	    "the message is truncated to errlen");
}

/* Two specs alive at once do not share anything. */
static void
test_interleaved(void)
{
	char err1[256], err2[256], got[512];
	struct spec a, b, c;
	int ra, rb, rc;

	err1[0] = '\0';
	ra = spec_parse("pic2=x,umask=5,sys", NPIC, attrs, &a, err1,
	    sizeof(err1));
	rc = spec_parse("a,b,umask=1,umask=2", NPIC, attrs, &c, err2,
	    sizeof(err2));
	rb = spec_parse("y,z,nouser1,edge1", NPIC, attrs, &b, err2,
	    sizeof(err2));
	tap_ok(ra == 0 && rb == 0 && rc == -1,
	    "interleaved: two parse, the failure between them fails");
	render(&a, got, sizeof(got));
	tap_str(got, "pic2=x[us]{umask=5}", "interleaved: first spec intact");
	render(&b, got, sizeof(got));
	tap_str(got, "pic0=y[u] pic1=z[-]{edge=1}",
	    "interleaved: second spec independent");
	tap_str(err1, "", "interleaved: the first err buffer is untouched");
	spec_free(&a);
	render(&b, got, sizeof(got));
	tap_str(got, "pic0=y[u] pic1=z[-]{edge=1}",
	    "interleaved: freeing the first leaves the second");
	spec_free(&b);
}

/* The same from two threads at once: no hidden static state. */
struct worker {
	const char	*w_text;
	const char	*w_want;
	int		 w_bad;
};

#define ROUNDS	2000

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	char got[512], err[256];
	struct spec sp;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		if (spec_parse(w->w_text, NPIC, attrs, &sp, err,
		    sizeof(err)) != 0) {
			w->w_bad++;
			continue;
		}
		render(&sp, got, sizeof(got));
		if (strcmp(got, w->w_want) != 0)
			w->w_bad++;
		spec_free(&sp);
	}
	return NULL;
}

static void
test_threads(void)
{
	struct worker w[2] = {
		{ "a,b,c,umask1=7,nouser", "pic0=a[-] pic1=b[-]{umask=7} "
		  "pic2=c[-] sysonly", 0 },
		{ "pic6=q,r,sys7,cmask=2", "pic6=q[u]{cmask=2} "
		  "pic7=r[us]{cmask=2}", 0 },
	};
	pthread_t t[2];
	int i, started = 0;

	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker_run, &w[i]) == 0)
			started++;
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	tap_ok(started == 2, "two parser threads started");
	tap_u64(w[0].w_bad, 0, "thread 1: every parse right");
	tap_u64(w[1].w_bad, 0, "thread 2: every parse right");
}

/* The Solaris-compatible cpc_strtoset and spec_build on a real handle. */
struct seen_req {
	int		 sr_n;
	char		 sr_text[512];
};

static void
collect_req(void *arg, int index, const char *event, uint64_t preset,
    uint_t flags, int nattrs, const cpc_attr_t *a)
{
	struct seen_req *s = arg;
	size_t n = strlen(s->sr_text);
	int k;

	s->sr_n++;
	n += snprintf(s->sr_text + n, sizeof(s->sr_text) - n,
	    "%s%d:%s:%llu:%#x", n ? " " : "", index, event,
	    (unsigned long long)preset, flags);
	for (k = 0; k < nattrs && n < sizeof(s->sr_text); k++)
		n += snprintf(s->sr_text + n, sizeof(s->sr_text) - n,
		    ":%s=%llu", a[k].ca_name, (unsigned long long)a[k].ca_val);
}

static void
test_strtoset(void)
{
	struct seen_req s;
	cpc_set_t *set;
	cpc_t *cpc;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_skip(strerror(errno), "cpc_strtoset tests");
		return;
	}
	errh_install(cpc, 0);
	set = cpc_strtoset(cpc, "pic2=task-clock,page-faults,sys3", 0);
	tap_ok(set != NULL, "cpc_strtoset builds a set (%s)", errh_last());
	memset(&s, 0, sizeof(s));
	cpc_walk_requests(cpc, set, &s, collect_req);
	tap_str(s.sr_text, "1:page-faults:0:0x6:picnum=3 "
	    "0:task-clock:0:0x2:picnum=2",
	    "cpc_strtoset: requests in pic order, pinned by picnum");
	cpc_set_destroy(cpc, set);

	errh_clear();
	errno = 0;
	set = cpc_strtoset(cpc, "task-clock,,page-faults", 0);
	tap_ok(set == NULL && errno == EINVAL,
	    "cpc_strtoset: a parse error gives NULL/EINVAL");
	tap_str(errh_last(), "empty token (two commas, or a comma at an end)",
	    "cpc_strtoset: the parse message is kept");

	errh_clear();
	errno = 0;
	set = cpc_strtoset(cpc, "task-clock,zzzzzzzzzzzzzzzzzzzz", 0);
	tap_ok(set == NULL && errno == EINVAL,
	    "cpc_strtoset: an unknown event gives NULL/EINVAL");
	tap_str(errh_last(), "unknown event 'zzzzzzzzzzzzzzzzzzzz'",
	    "cpc_strtoset: libcpc's message is kept");

	errh_clear();
	set = cpc_strtoset(cpc, "task-clock,umask=1", 0);
	tap_ok(set == NULL, "cpc_strtoset: umask on a software event fails");
	tap_str(errh_last(), "attribute 'umask' applies only to raw event "
	    "codes and x86 native events, not to 'task-clock'",
	    "cpc_strtoset: attribute message");
	cpc_close(cpc);
}

/*
 * spec_build_like: a copy of a set spec_build made has the same requests,
 * whatever a bind and cpc_request_preset did to the template, outlives
 * it, and counts exactly.
 */
static void
test_build_like(void)
{
	struct seen_req a, b;
	struct spec sp;
	char err[256] = "";
	cpc_set_t *tmpl, *set;
	cpc_buf_t *buf;
	uint64_t v = 0;
	cpc_t *cpc;
	int ok;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_skip(strerror(errno), "spec_build_like tests");
		return;
	}
	errh_install(cpc, 0);
	errh_clear();
	if (!tap_ok(spec_parse_cpc(cpc, "pic0=page-faults,sys0,nouser0,"
	    "pic1=" EV, &sp, err, sizeof(err)) == 0,
	    "spec_build_like: parsed (%s)", err)) {
		cpc_close(cpc);
		return;
	}
	tmpl = spec_build(cpc, &sp);
	if (!tap_ok(tmpl != NULL && cpc_bind_curlwp(cpc, tmpl, 0) == 0 &&
	    cpc_request_preset(cpc, 0, 5) == 0,
	    "spec_build_like: the template bound, a preset asked")) {
		spec_free(&sp);
		cpc_close(cpc);
		return;
	}
	memset(&a, 0, sizeof(a));
	cpc_walk_requests(cpc, tmpl, &a, collect_req);
	set = spec_build_like(cpc, tmpl);
	tap_ok(set != NULL && set != tmpl, "spec_build_like: a new set");
	tap_ok(cpc_unbind(cpc, tmpl) == 0 && cpc_set_destroy(cpc, tmpl) == 0,
	    "spec_build_like: the template destroyed first");
	memset(&b, 0, sizeof(b));
	cpc_walk_requests(cpc, set, &b, collect_req);
	tap_str(b.sr_text, a.sr_text, "spec_build_like: the same requests");
	tap_ok(b.sr_n == 2, "spec_build_like: two requests (%d)", b.sr_n);
	buf = cpc_buf_create(cpc, set);
	tap_ok(buf != NULL && cpc_bind_curlwp(cpc, set, 0) == 0,
	    "spec_build_like: the copy binds (%s)", errh_last());
	getpids(1234);
	ok = cpc_set_sample(cpc, set, buf) == 0 &&
	    cpc_buf_get(cpc, buf, 1, &v) == 0;
	tap_ok(ok && v == 1234,
	    "spec_build_like: the copy counts exactly (%llu of 1234)",
	    (unsigned long long)v);
	tap_ok(cpc_unbind(cpc, set) == 0 && cpc_set_destroy(cpc, set) == 0 &&
	    cpc_set_destroy(cpc, set) == -1 && errno == EINVAL,
	    "spec_build_like: the copy is the handle's, destroyed once");
	cpc_buf_destroy(cpc, buf);
	spec_free(&sp);
	cpc_close(cpc);
}

int
main(void)
{
	test_good();
	test_bad();
	test_no_slot_after_top();
	test_machine();
	test_free();
	test_interleaved();
	test_threads();
	test_strtoset();
	test_build_like();
	return tap_done();
}
