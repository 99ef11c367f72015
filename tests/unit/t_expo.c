/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_expo.c - the exposition (common/out/expo.c, exporender.c) through
 * fmt_expose: published at fmt_header and each fmt_flush, in both
 * flavours, beside any writer's own output; the families and their
 * metadata, clocks in seconds, label values made valid UTF-8, exec and
 * fork, the grace period and --by-command.  No counter is opened.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "strtoset.h"
#include "tap.h"

/* Where the writers' own lines go when not looked at. */
static FILE *devnull;

/* What the publisher was handed last, and how often. */
struct pubbed {
	char	*p_om;
	char	*p_prom;
	int	 p_calls;
};

static void
pub(void *arg, const char *om, size_t omlen, const char *prom,
    size_t promlen)
{
	struct pubbed *p = arg;

	free(p->p_om);
	free(p->p_prom);
	p->p_om = strndup(om, omlen);
	p->p_prom = strndup(prom, promlen);
	p->p_calls++;
}

static int
has(const char *text, const char *line, const char *name)
{
	int ok = text != NULL && strstr(text, line) != NULL;

	if (!ok)
		fprintf(stderr, "# want: %s\n# in:\n%s", line,
		    text != NULL ? text : "(null)\n");
	return tap_ok(ok, "%s", name);
}

static int
lacks(const char *text, const char *part, const char *name)
{
	return tap_ok(text != NULL && strstr(text, part) == NULL, "%s", name);
}

/* A writer of kind over the one set text, exposed to p. */
static struct fmt *
exposed(enum fmt_kind kind, enum fmt_tool tool, const char *text,
    struct spec *sp, FILE *fp, struct pubbed *p,
    const struct fmt_runinfo *ri)
{
	char err[256];
	struct fmt *f;

	memset(p, 0, sizeof(*p));
	if (spec_parse(text, 64, NULL, sp, err, sizeof(err)) != 0) {
		tap_ok(0, "parse '%s': %s", text, err);
		return NULL;
	}
	f = fmt_create(kind, tool, fp, NULL, sp, 1, 0, "first");
	if (f == NULL || fmt_expose(f, pub, p) != 0) {
		tap_ok(0, "fmt_create, fmt_expose");
		fmt_destroy(f);
		return NULL;
	}
	fmt_runinfo(f, ri);
	return f;
}

static void
done(struct fmt *f, struct spec *sp, struct pubbed *p)
{
	fmt_destroy(f);
	spec_free(sp);
	free(p->p_om);
	free(p->p_prom);
}

static void
test_cpustat(void)
{
	static const uint64_t v[] = { 2500000001ULL, 7 };
	struct fmt_runinfo ri = { 5, "perf_event", 0, 0 };
	struct fmt_row r = { .fr_kind = "tick", .fr_cpu = 3, .fr_set = 0,
	    .fr_vals = v, .fr_nvals = 2, .fr_ena = 2000000000,
	    .fr_run = 500000000 };
	struct pubbed p;
	struct spec sp;
	struct fmt *f;
	char *buf;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	if ((f = exposed(FMT_CSV, FMT_CPUSTAT, "cpu-clock,x", &sp, fp, &p,
	    &ri)) == NULL)
		return;
	fmt_header(f);
	tap_ok(p.p_calls == 1, "published once at fmt_header");
	has(p.p_om, "# TYPE cpustat info\n# HELP cpustat ", "om: info type");
	has(p.p_om, "cpustat_info{version=\"" PACKAGE_VERSION "\",backend="
	    "\"perf_event\",events=\"cpu-clock,x\",sets=\"cpu-clock,x\"} 1\n",
	    "om: the info sample");
	has(p.p_prom, "# HELP cpustat_info ", "prom: info's help");
	has(p.p_prom, "# TYPE cpustat_info gauge\n", "prom: info a gauge");
	has(p.p_om, "cpustat_interval_seconds 5.000000000\n", "interval");
	lacks(p.p_om, "cpustat_events", "no counter before a row");
	tap_str(p.p_om + strlen(p.p_om) - 6, "# EOF\n", "om ends # EOF");
	fmt_row(f, &r);
	fmt_row(f, &r);
	tap_ok(fmt_flush(f) == 0 && p.p_calls == 2, "published at fmt_flush");
	has(p.p_om, "# TYPE cpustat_events counter\n",
	    "om: TYPE on the family");
	has(p.p_om, "\ncpustat_events_total{cpu=\"3\",event=\"x\"} 14\n"
	    "cpustat_events_created{cpu=\"3\",event=\"x\"} ",
	    "om: the count, then _created");
	has(p.p_om, "# TYPE cpustat_clock_seconds counter\n# UNIT "
	    "cpustat_clock_seconds seconds\n", "om: the clock's unit");
	has(p.p_om, "\ncpustat_clock_seconds_total{cpu=\"3\",event="
	    "\"cpu-clock\"} 5.000000002\n", "a clock in seconds, exactly");
	has(p.p_prom, "# HELP cpustat_events_total Events counted",
	    "prom: HELP on the sample's name");
	has(p.p_prom, "# TYPE cpustat_events_total counter\ncpustat_events_"
	    "total{cpu=\"3\",event=\"x\"} 14\n", "prom: TYPE on the sample");
	has(p.p_prom, "\ncpustat_running_seconds_total{cpu=\"3\",event="
	    "\"cpu-clock\"} 1.000000000\ncpustat_running_seconds_total{"
	    "cpu=\"3\",event=\"x\"} 1.000000000\n", "running seconds");
	has(p.p_prom, "\ncpustat_enabled_seconds_total{cpu=\"3\",event="
	    "\"x\"} 4.000000000\n", "enabled seconds");
	lacks(p.p_prom, "_created", "prom: no _created");
	lacks(p.p_prom, "# EOF", "prom: no # EOF");
	fclose(fp);
	tap_ok(strncmp(buf, "time,cpu,", 9) == 0 &&
	    strchr(strchr(strchr(buf, '\n') + 1, '\n') + 1, '\n') ==
	    buf + len - 1, "csv's own output: its header and two rows");
	free(buf);
	done(f, &sp, &p);
}

/* A cputrack row of pid: a count of 1 in the set "getpid". */
static void
track_row(struct fmt *f, const char *kind, long pid, uint64_t n,
    const char *comm)
{
	uint64_t v[1] = { n };
	struct fmt_row r = { .fr_kind = kind, .fr_pid = pid, .fr_lwp = pid,
	    .fr_set = 0, .fr_vals = v, .fr_nvals = 1, .fr_comm = comm };

	fmt_row(f, &r);
}

static void
track_note(struct fmt *f, long pid, long child, const char *cmd,
    const char *comm)
{
	struct fmt_row r = { .fr_kind = child ? "fork" : "exec",
	    .fr_pid = pid, .fr_lwp = pid, .fr_set = -1, .fr_child = child,
	    .fr_command = cmd, .fr_comm = comm };

	fmt_row(f, &r);
}

/* cputrack's rows of the set "getpid", exposed to p, with the run's grace. */
static struct fmt *
tracked(double grace, int bycommand, struct spec *sp, struct pubbed *p)
{
	struct fmt_runinfo ri = { 1, NULL, grace, bycommand };

	return exposed(FMT_JSON, FMT_CPUTRACK, "getpid", sp, devnull, p, &ri);
}

static void
test_labels(void)
{
	struct pubbed p;
	struct spec sp;
	struct fmt *f;

	if ((f = tracked(1000, 0, &sp, &p)) == NULL)
		return;
	track_row(f, "tick", 10, 3, "q\"b\\{} \n\xff\x01z");
	track_note(f, 10, 11, NULL, NULL);
	track_row(f, "exit", 11, 4, NULL);
	track_note(f, 10, 0, "/bin/sp ace arg", NULL);
	track_row(f, "tick", 10, 5, NULL);
	(void)fmt_flush(f);
	has(p.p_om, "\ncputrack_events_total{pid=\"10\",command=\"q\\\"b\\\\{}"
	    " \\n\xef\xbf\xbd\xef\xbf\xbdz\",event=\"getpid\"} 3\n",
	    "hostile name: escaped, invalid byte and control replaced");
	has(p.p_prom, "\ncputrack_events_total{pid=\"11\",command=\"q\\\"b"
	    "\\\\{} \\n\xef\xbf\xbd\xef\xbf\xbdz\",event=\"getpid\"} 4\n",
	    "a forked child takes its parent's name");
	has(p.p_prom, "\ncputrack_events_total{pid=\"10\",command=\"sp\","
	    "event=\"getpid\"} 5\n",
	    "exec without a name now: the command line's first word");
	track_note(f, 10, 0, "/bin/x", "sp ace");
	track_row(f, "tick", 10, 6, NULL);
	(void)fmt_flush(f);
	has(p.p_prom, "\ncputrack_events_total{pid=\"10\",command=\"sp ace\","
	    "event=\"getpid\"} 6\n", "exec: the process's name, spaces kept");
	done(f, &sp, &p);
}

/* The name is asked for only when a row would begin a series. */
static void
test_wants_comm(void)
{
	struct pubbed p;
	struct spec sp;
	struct fmt *f;

	if ((f = tracked(1000, 0, &sp, &p)) == NULL)
		return;
	tap_ok(fmt_wants_comm(f, 40), "a new process: its name wanted");
	track_row(f, "tick", 40, 1, "n");
	tap_ok(!fmt_wants_comm(f, 40), "its series begun: no name wanted");
	tap_ok(fmt_wants_comm(f, -1), "a note: a name wanted");
	track_note(f, 40, 0, "/bin/m", "m");
	tap_ok(fmt_wants_comm(f, 40), "after its exec: a name wanted again");
	done(f, &sp, &p);
	if ((f = fmt_create(FMT_CSV, FMT_CPUTRACK, devnull, NULL, NULL, 0, 0,
	    "x")) != NULL) {
		tap_ok(!fmt_wants_comm(f, 40), "no exposition: no name wanted");
		fmt_destroy(f);
	}
}

static void
test_grace(void)
{
	struct pubbed p;
	struct spec sp;
	struct fmt *f;

	if ((f = tracked(0, 0, &sp, &p)) == NULL)
		return;
	track_row(f, "tick", 20, 2, "a");
	track_row(f, "exit", 21, 9, "b");
	track_row(f, "tick", 22, 1, "c");
	track_note(f, 22, 0, "c2", "c2");
	track_row(f, "tick", 22, 1, NULL);
	(void)fmt_flush(f);
	has(p.p_om, "{pid=\"20\",command=\"a\",event=\"getpid\"} 2\n",
	    "grace 0: a live process stays");
	lacks(p.p_om, "pid=\"21\"", "grace 0: an ended process leaves");
	lacks(p.p_om, "command=\"c\"", "grace 0: a series before exec leaves");
	has(p.p_om, "{pid=\"22\",command=\"c2\",event=\"getpid\"} 1\n",
	    "the series after exec stays");
	done(f, &sp, &p);
}

static void
test_bycommand(void)
{
	struct pubbed p;
	struct spec sp;
	struct fmt *f;

	if ((f = tracked(1000, 1, &sp, &p)) == NULL)
		return;
	track_row(f, "tick", 30, 2, "w");
	track_row(f, "tick", 31, 3, "w");
	track_row(f, "exit", 31, 5, "w");
	track_row(f, "tick", 32, 7, "v");
	(void)fmt_flush(f);
	has(p.p_prom, "\ncputrack_events_total{command=\"w\",event=\"getpid\"}"
	    " 7\n", "by command: a live and an ended process summed");
	lacks(p.p_prom, "pid=", "by command: no pid label");
	track_row(f, "exit", 30, 4, "w");
	(void)fmt_flush(f);
	has(p.p_prom, "\ncputrack_events_total{command=\"w\",event=\"getpid\"}"
	    " 9\n", "by command: both ended, still summed in the grace");
	has(p.p_om, "\ncputrack_events_total{command=\"v\",event=\"getpid\"}"
	    " 7\n", "by command: another command");
	done(f, &sp, &p);
}

/* -S requests added after fmt_create and fmt_expose: their own family. */
static void
test_samples(void)
{
	static const uint64_t v[] = { 5, 40, 4 };
	struct fmt_row r = { .fr_kind = "tick", .fr_cpu = 0, .fr_set = 0,
	    .fr_vals = v, .fr_nvals = 3, .fr_smpl = v + 1 };
	struct fmt_runinfo ri = { 1, NULL, 0, 0 };
	struct spec sp, smpl;
	struct pubbed p;
	struct fmt *f;
	char err[256];

	if (spec_parse("s,s", 64, NULL, &smpl, err, sizeof(err)) != 0 ||
	    (f = exposed(FMT_CSV, FMT_CPUSTAT, "x", &sp, devnull, &p,
	    &ri)) == NULL) {
		tap_ok(0, "the -S set");
		return;
	}
	if (tap_ok(fmt_add_samples(f, &smpl) == 0, "fmt_add_samples")) {
		fmt_row(f, &r);
		(void)fmt_flush(f);
		has(p.p_prom, "# TYPE cpustat_samples_total counter\n"
		    "cpustat_samples_total{cpu=\"0\",event=\"s\"} 40\n"
		    "cpustat_samples_total{cpu=\"0\",event=\"s#2\"} 4\n",
		    "the samples of each request");
	}
	done(f, &sp, &p);
	spec_free(&smpl);
}

static void
test_parse(void)
{
	enum fmt_kind k = FMT_TEXT;

	tap_ok(fmt_parse("prometheus", &k) && k == FMT_PROMETHEUS,
	    "fmt_parse prometheus");
}

int
main(void)
{
	if ((devnull = fopen("/dev/null", "w")) == NULL)
		return 1;
	test_cpustat();
	test_labels();
	test_wants_comm();
	test_grace();
	test_bycommand();
	test_samples();
	test_parse();
	return tap_done();
}
