/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_events - the event catalogue's resolution order and encodings.
 *
 * Names that need no hardware PMU are checked against the kernel's own
 * numbers (tracefs ids, sysfs PMU types).  libpfm4's native names are
 * checked under LIBPFM_FORCE_PMU, which libpfm4 reads once per process:
 * each forced table is checked in a child, which sends its results to
 * the parent over a pipe.  A derived request (EC_hit, two counters) is
 * checked with an exact oracle: getpid calls minus getppid calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib.h>

#include "cpc_impl.h"
#include "lazy.h"		/* libpfm4 through the table libcpc loaded */
#include "tap.h"

static char lastmsg[1024];

static void
keep_msg(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)fn;
	(void)subcode;
	vsnprintf(lastmsg, sizeof(lastmsg), fmt, ap);
}

/* In a child: results go to the parent, a line each. */
static FILE *out;

static void __attribute__((format(printf, 2, 3)))
check(int cond, const char *fmt, ...)
{
	char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (out == NULL)
		tap_ok(cond, "%s", name);
	else
		fprintf(out, "%c\t%s\t%s\n", cond ? 'P' : 'F', name,
		    cond ? "" : lastmsg);
}

static void
skip(const char *why, const char *name)
{
	if (out == NULL)
		tap_skip(why, name);
	else
		fprintf(out, "S\t%s\t%s\n", name, why);
}

/* name encodes to type/config (quietly, whatever the kernel offers). */
static void
enc_is(cpc_t *cpc, const char *name, uint32_t type, uint64_t config)
{
	struct cpc_event ev;
	int rc;

	lastmsg[0] = '\0';
	rc = cpc_event_encode(cpc, "t", name, &ev);
	check(rc == 0 && ev.ev_type == type && ev.ev_config == config,
	    "%s encodes to type %u config %#llx (got %d: %u %#llx)", name,
	    type, (unsigned long long)config, rc, ev.ev_type,
	    (unsigned long long)ev.ev_config);
}

/* name fails to encode with a message containing (exact: being) text. */
static void
enc_refused(cpc_t *cpc, const char *name, const char *text, int exact)
{
	struct cpc_event ev;
	int rc;

	lastmsg[0] = '\0';
	rc = cpc_event_encode(cpc, "t", name, &ev);
	check(rc != 0 && (exact ? strcmp(lastmsg, text) == 0 :
	    strstr(lastmsg, text) != NULL), "%s is refused, %s '%s'", name,
	    exact ? "with the message" : "saying", text);
}

static void
enc_fails(cpc_t *cpc, const char *name, const char *text)
{
	enc_refused(cpc, name, text, 0);
}

static void
enc_fails_with(cpc_t *cpc, const char *name, const char *text)
{
	enc_refused(cpc, name, text, 1);
}

/* Every name the Solaris walker offers is one the catalogue takes. */
static int nwalked, nrefused;
static char firstrefused[128];
static cpc_t *walkcpc;

static void
walked(void *arg, const char *event)
{
	struct cpc_event ev;

	(void)arg;
	nwalked++;
	if (cpc_event_encode(walkcpc, "t", event, &ev) != 0 &&
	    nrefused++ == 0)
		snprintf(firstrefused, sizeof(firstrefused), "%s", event);
}

static void
walk_encodes(cpc_t *cpc)
{
	nwalked = nrefused = 0;
	firstrefused[0] = '\0';
	walkcpc = cpc;
	cpc_walk_events_all(cpc, NULL, walked);
	check(nwalked > 50 && nrefused == 0, "each of the %d platform names "
	    "cpc_walk_events_all offers encodes (%d do not, such as '%s')",
	    nwalked, nrefused, firstrefused);
}

static int
read_num(const char *path, unsigned long long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (f == NULL)
		return -1;
	ok = fscanf(f, "%llu", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* Attributes folded into a native x86 event, or passed to libpfm4. */
static void
attrs_are(cpc_t *cpc, const char *name, const char *attr, uint64_t val,
    uint64_t config, uint64_t mask)
{
	struct cpc_request req;
	cpc_attr_t a = { (char *)attr, val };
	int rc;

	memset(&req, 0, sizeof(req));
	req.cr_event = (char *)name;
	req.cr_attrs = &a;
	req.cr_nattrs = 1;
	lastmsg[0] = '\0';
	rc = cpc_event_encode(cpc, "t", name, &req.cr_ev);
	if (rc == 0)
		rc = cpc_event_apply_attrs(cpc, "t", &req);
	check(rc == 0 && (req.cr_ev.ev_config & mask) == config,
	    "%s with %s=%llu: config & %#llx is %#llx (got %#llx)", name,
	    attr, (unsigned long long)val, (unsigned long long)mask,
	    (unsigned long long)config,
	    (unsigned long long)req.cr_ev.ev_config);
}

static void
have_attr(void *arg, const char *attr)
{
	char *buf = arg;

	strcat(buf, " ");
	strcat(buf, attr);
}

/* A set of n requests, names from the list, for cpc_set_fits. */
static int
fits(cpc_t *cpc, const char *const *names)
{
	cpc_set_t *set = cpc_set_create(cpc);
	int i, rc;

	for (i = 0; names[i] != NULL; i++)
		if (cpc_set_add_request(cpc, set, names[i], 0, CPC_COUNT_USER,
		    0, NULL) < 0)
			return -2;
	lastmsg[0] = '\0';
	rc = cpc_set_fits(cpc, "t", set);
	cpc_set_destroy(cpc, set);
	return rc;
}

/* Bind refuses what the counters cannot hold at once (skl: 8 + 3). */
static void
skl_fits(cpc_t *cpc)
{
	static const char *const full[] = { "0x2e", "0x2e", "0x2e", "0x2e",
	    "0x2e", "0x2e", "0x2e", "0x2e", "cycles", "instructions",
	    "ref-cycles", NULL };
	static const char *const nine[] = { "0x2e", "0x2e", "0x2e", "0x2e",
	    "0x2e", "0x2e", "0x2e", "0x2e", "0x2e", NULL };
	static const char *const derived[] = { "0x2e", "0x2e", "0x2e",
	    "0x2e", "0x2e", "0x2e", "0x2e", "EC_hit", "task-clock", NULL };
	static const char *const cycles[] = { "0x2e", "0x2e", "0x2e", "0x2e",
	    "0x2e", "0x2e", "0x2e", "0x2e", "cycles", "Cycle_cnt", NULL };

	/* Pretend the kernel has this PMU: only the arithmetic is checked. */
	cpc->c_hwpmu = 1;
	check(fits(cpc, full) == 0, "8 general-purpose requests and the 3 "
	    "fixed events fit");
	check(fits(cpc, nine) == -1 && strstr(lastmsg, "Hardware resource "
	    "unavailable: the set needs 9 general-purpose counters and "
	    "this processor has 8") != NULL, "9 general-purpose requests "
	    "do not fit: Hardware resource unavailable");
	check(fits(cpc, derived) == -1 && strstr(lastmsg, "needs 9") != NULL,
	    "a derived request takes two counters; software events none");
	check(fits(cpc, cycles) == -1, "two cycles requests: one fixed "
	    "counter, so 9 general-purpose");
	cpc->c_hwpmu = 0;
}

/*
 * libpfm4's own modifiers of the forced table, beyond the counting modes
 * (u k h g) and the event-select fields (e i c t): events/native.c keeps
 * a list of them, which must not drift from libpfm4's tables.
 */
static void
pfm_modifiers(char *buf, size_t len)
{
	static const char *const known = " u k h g e i c t ";
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	char word[64];
	int p, i, a;

	buf[0] = '\0';
	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    pi.type != PFM_PMU_TYPE_CORE)
			continue;
		for (i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(i, PFM_OS_NONE, &ei) !=
			    PFM_SUCCESS)
				continue;
			for (a = 0; a < ei.nattrs; a++) {
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm_get_event_attr_info(i, a, PFM_OS_NONE,
				    &ai) != PFM_SUCCESS ||
				    ai.type == PFM_ATTR_UMASK)
					continue;
				snprintf(word, sizeof(word), " %s ", ai.name);
				if (strstr(known, word) == NULL &&
				    strstr(buf, word) == NULL &&
				    strlen(buf) + strlen(word) < len)
					strcat(buf, word + (buf[0] != '\0'));
			}
		}
	}
}

static void
forced_skl(cpc_t *cpc)
{
	char mods[256];
	char attrs[256] = "";

	enc_is(cpc, "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0xc0);
	enc_is(cpc, "skl::INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0xc0);
	enc_is(cpc, "INST_RETIRED", PERF_TYPE_RAW, 0xc0);
	enc_is(cpc, "BR_INST_RETIRED:CONDITIONAL", PERF_TYPE_RAW, 0x1c4);
	enc_is(cpc, "UNHALTED_CORE_CYCLES", PERF_TYPE_RAW, 0x3c);
	enc_is(cpc, "INST_RETIRED:ANY_P:c=2", PERF_TYPE_RAW, 0x20000c0);
	/* Generic and classic names keep the kernel's mapping. */
	enc_is(cpc, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	enc_is(cpc, "Cycle_cnt", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_CPU_CYCLES);
	enc_fails(cpc, "INST_RETIRED:BOGUS", "unit masks ANY_P");
	enc_fails(cpc, "INST_RETIRED:ANY_P:u", "nouser and sys");
	enc_fails(cpc, "RETIRED_INSTRUCTIONS", "not an event of this "
	    "processor (Intel Skylake)");
	enc_fails(cpc, "INST_RETIRD", "'INST_RETIRED'");
	/* The table's prefix is kept, and not compared. */
	enc_fails(cpc, "skl::INST_RETIRD:ANY_P", "did you mean "
	    "'skl::INST_RETIRED'");
	enc_fails(cpc, "CYCLE_ACTIVITY", "a unit mask is required");
	walk_encodes(cpc);
	check(cpc_npic(cpc) == 11, "8 general-purpose and 3 fixed "
	    "counters make npic 11 (got %u)", cpc_npic(cpc));
	check(strstr(cpc_cciname(cpc), "Intel Skylake") != NULL,
	    "cciname names it (%s)", cpc_cciname(cpc));
	check(strstr(cpc_cpuref(cpc), "Intel 64 and IA-32") != NULL,
	    "cpuref is Intel's manual");
	cpc_walk_attrs(cpc, attrs, have_attr);
	check(strstr(attrs, " umask cmask edge inv pc anythr intx intxcp "
	    "ldlat fe_thres") != NULL, "attributes are the event "
	    "select's and libpfm4's modifiers (%s)", attrs);
	pfm_modifiers(mods, sizeof(mods));
	check(strcmp(mods, " intx intxcp ldlat fe_thres ") == 0, "libpfm4's "
	    "own modifiers of skl are those (got '%s')", mods);
	attrs_are(cpc, "INST_RETIRED:ANY_P", "cmask", 2, 0x20000c0,
	    0xff00ffff);
	attrs_are(cpc, "INST_RETIRED:ANY_P", "umask", 3, 0x3c0, 0xffff);
	attrs_are(cpc, "INST_RETIRED:ANY_P", "inv", 1, 1 << 23, 1 << 23);
	/* in_tx is bit 32 of the cpu PMU's config (its sysfs format). */
	attrs_are(cpc, "INST_RETIRED:ANY_P", "intx", 1, 1ULL << 32,
	    1ULL << 32);
	skl_fits(cpc);
}

static void
forced_zen3(cpc_t *cpc)
{
	char attrs[256] = "";

	enc_is(cpc, "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW, 0xc0);
	enc_is(cpc, "amd64_fam19h_zen3::RETIRED_BRANCH_INSTRUCTIONS",
	    PERF_TYPE_RAW, 0xc2);
	enc_fails(cpc, "INST_RETIRED:ANY_P", "unknown event");
	enc_fails(cpc, "LS_DISPATCH", "a unit mask is required");
	walk_encodes(cpc);
	check(cpc_npic(cpc) == 6, "npic 6 (got %u)", cpc_npic(cpc));
	check(strstr(cpc_cciname(cpc), "Zen3") != NULL, "cciname "
	    "names it (%s)", cpc_cciname(cpc));
	check(strstr(cpc_cpuref(cpc), "AMD") != NULL, "cpuref is "
	    "AMD's manual");
	cpc_walk_attrs(cpc, attrs, have_attr);
	check(strstr(attrs, "umask") != NULL && strstr(attrs, "intx") ==
	    NULL, "no Intel modifiers among the attributes (%s)",
	    attrs);
}

static void
forced_ac57(cpc_t *cpc)
{
	char attrs[256] = "";

	/* ARMv8 common event numbers: INST_RETIRED 0x08, CPU_CYCLES 0x11. */
	enc_is(cpc, "INST_RETIRED", PERF_TYPE_RAW, 0x08);
	enc_is(cpc, "CPU_CYCLES", PERF_TYPE_RAW, 0x11);
	check(cpc_npic(cpc) == 7, "6 event counters and the cycle counter "
	    "make npic 7 (got %u)", cpc_npic(cpc));
	cpc_walk_attrs(cpc, attrs, have_attr);
	check(strcmp(attrs, " picnum") == 0, "ARM events take no "
	    "attributes (%s)", attrs);
}

/*
 * Set but empty, LIBPFM_FORCE_PMU makes libpfm4 take the first table of
 * its list: the catalogue describes that table, as libpfm4 encodes with it.
 */
static void
forced_empty(cpc_t *cpc)
{
	struct cpc_pmu pmu;
	char want[256];

	check(cpc_pfm_pmu(cpc, &pmu) == 0 && pmu.pm_forced, "libpfm4 has "
	    "a forced table (%s)", pmu.pm_name);
	snprintf(want, sizeof(want), "(libpfm4 table %s, chosen by "
	    "LIBPFM_FORCE_PMU, set but empty: libpfm4's first table)",
	    pmu.pm_name);
	check(strstr(cpc_cciname(cpc), want) != NULL, "cciname names it, "
	    "and says why (%s)", cpc_cciname(cpc));
	check(cpc_npic(cpc) == (uint_t)(pmu.pm_ncntrs + pmu.pm_nfixed) ||
	    pmu.pm_ncntrs + pmu.pm_nfixed == 0, "npic is its counters (%u)",
	    cpc_npic(cpc));
}

static const struct {
	const char	*pmu;
	void		(*fn)(cpc_t *);
} tables[] = {
	{ "skl", forced_skl },
	{ "amd64_fam19h_zen3", forced_zen3 },
	{ "arm_ac57", forced_ac57 },
	{ "", forced_empty },
};

/* "t_events forced PMU FD": check one table, results to FD. */
static int
forced_child(const char *pmu, int fd)
{
	cpc_t *cpc;
	size_t i;

	if ((out = fdopen(fd, "w")) == NULL ||
	    (cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		return 1;
	cpc_seterrhndlr(cpc, keep_msg);
	for (i = 0; i < sizeof(tables) / sizeof(*tables); i++) {
		if (strcmp(tables[i].pmu, pmu) != 0)
			continue;
		if (strncmp(cpc_cciname(cpc), "no libpfm4 table", 16) == 0)
			skip("this libpfm4 has no such table (it carries its "
			    "own architecture's only)", pmu);
		else
			tables[i].fn(cpc);
	}
	cpc_close(cpc);
	fclose(out);
	return 0;
}

static int npicev;

static void
count_pic(void *arg, uint_t pic, const char *event)
{
	(void)arg;
	(void)pic;
	(void)event;
	npicev++;
}

/* Run a table's checks in a child under LIBPFM_FORCE_PMU; relay them. */
static void
forced(const char *pmu)
{
	const char *label = pmu[0] != '\0' ? pmu : "LIBPFM_FORCE_PMU=''";
	char line[2048], *name, *detail;
	int fds[2], status;
	pid_t pid;
	FILE *in;

	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		tap_ok(0, "%s: fork", label);
		return;
	}
	if (pid == 0) {
		char fd[16];

		/* A fresh process: libpfm4 reads the variable once. */
		close(fds[0]);
		snprintf(fd, sizeof(fd), "%d", fds[1]);
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		execl("/proc/self/exe", "t_events", "forced", pmu, fd,
		    (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (fgets(line, sizeof(line), in) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		name = line + 2;
		if ((detail = strchr(name, '\t')) != NULL)
			*detail++ = '\0';
		if (line[0] == 'S')
			tap_skip(detail, name);
		else if (tap_ok(line[0] == 'P', "%s: %s", label, name) == 0 &&
		    detail != NULL && *detail != '\0')
			printf("#   message: %s\n", detail);
	}
	fclose(in);
	tap_ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "%s: the child ran to its end", label);
}

/* EC_hit's machinery: a request counting one event minus another. */
static void
derived_oracle(cpc_t *cpc)
{
	struct cpc_event sub;
	cpc_set_t *set;
	cpc_buf_t *b0, *b1;
	uint64_t v0 = 0, v1 = 0;
	int i;

	if (cpc_event_encode(cpc, NULL, "syscalls:sys_enter_getppid",
	    &sub) != 0 || (set = cpc_set_create(cpc)) == NULL ||
	    cpc_set_add_request(cpc, set, "syscalls:sys_enter_getpid", 0,
	    CPC_COUNT_USER, 0, NULL) != 0) {
		tap_skip("tracepoints not readable here (root and tracefs)",
		    "derived request: getpid minus getppid");
		return;
	}
	set->cs_reqs[0].cr_ev.ev_derived = 1;
	set->cs_reqs[0].cr_ev.ev_sub.en_type = sub.ev_type;
	set->cs_reqs[0].cr_ev.ev_sub.en_config = sub.ev_config;
	b0 = cpc_buf_create(cpc, set);
	b1 = cpc_buf_create(cpc, set);
	if (cpc_bind_curlwp(cpc, set, 0) != 0) {
		tap_skip("cannot bind tracepoints here", "derived request");
		return;
	}
	cpc_set_sample(cpc, set, b0);
	for (i = 0; i < 1000; i++)
		(void)syscall(SYS_getpid);
	for (i = 0; i < 300; i++)
		(void)syscall(SYS_getppid);
	cpc_set_sample(cpc, set, b1);
	cpc_buf_get(cpc, b0, 0, &v0);
	cpc_buf_get(cpc, b1, 0, &v1);
	tap_u64(v1 - v0, 700, "derived request: 1000 getpid minus 300 "
	    "getppid reads 700");
	for (i = 0; i < 1000; i++)
		(void)syscall(SYS_getppid);
	cpc_set_sample(cpc, set, b1);
	cpc_buf_get(cpc, b1, 0, &v1);
	tap_u64(v1, 0, "derived request: more subtracted than counted "
	    "reads 0, not a wrapped number");
	cpc_unbind(cpc, set);
	cpc_set_destroy(cpc, set);
}

int
main(int argc, char **argv)
{
	unsigned long long id, type;
	struct cpc_event ev, ev2;
	const char *dir;
	cpc_set_t *set;
	char path[512], avail[512];
	cpc_t *cpc;

	size_t i;

	if (argc == 4 && strcmp(argv[1], "forced") == 0)
		return forced_child(argv[2], atoi(argv[3]));
	unsetenv("LIBPFM_FORCE_PMU");
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	cpc_seterrhndlr(cpc, keep_msg);
	/* First thing on a fresh handle: the counters are worked out. */
	npicev = 0;
	cpc_walk_events_pic(cpc, 0, NULL, count_pic);
	tap_ok(npicev > 0, "cpc_walk_events_pic on a fresh handle walks "
	    "(%d events on pic 0)", npicev);
	npicev = 0;
	cpc_walk_events_pic(cpc, cpc_npic(cpc), NULL, count_pic);
	tap_ok(npicev == 0 && errno == EINVAL, "a pic past npic walks "
	    "nothing, EINVAL");

	/* Stages 1-4 and 6, and none of them starts libpfm4. */
	enc_is(cpc, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	enc_is(cpc, "task-clock", PERF_TYPE_SOFTWARE,
	    PERF_COUNT_SW_TASK_CLOCK);
	enc_is(cpc, "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	    PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
	    PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	enc_is(cpc, "PAPI_tot_cyc", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_CPU_CYCLES);
	enc_is(cpc, "PAPI_TOT_CYC", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_CPU_CYCLES);
	enc_is(cpc, "PAPI_tot_ins", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_INSTRUCTIONS);
	enc_is(cpc, "Cycle_cnt", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	enc_is(cpc, "Instr_cnt", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_INSTRUCTIONS);
	enc_is(cpc, "EC_ref", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_CACHE_REFERENCES);
	enc_is(cpc, "EC_misses", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_CACHE_MISSES);
	tap_ok(cpc_event_encode(cpc, "t", "EC_hit", &ev) == 0 &&
	    ev.ev_derived && ev.ev_config == PERF_COUNT_HW_CACHE_REFERENCES &&
	    ev.ev_sub.en_type == PERF_TYPE_HARDWARE &&
	    ev.ev_sub.en_config == PERF_COUNT_HW_CACHE_MISSES,
	    "EC_hit is cache-references minus cache-misses, two counters");
	enc_is(cpc, "0xc0", PERF_TYPE_RAW, 0xc0);
	if ((dir = cpc_tracefs_dir()) != NULL) {
		snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id",
		    dir);
		if (read_num(path, &id) == 0)
			enc_is(cpc, "sched:sched_switch", PERF_TYPE_TRACEPOINT,
			    id);
		else
			tap_skip("tracefs not readable", "sched:sched_switch");
	} else
		tap_skip("tracefs not mounted", "sched:sched_switch");
	if (read_num("/sys/bus/event_source/devices/msr/type", &type) == 0)
		enc_is(cpc, "msr/tsc/", (uint32_t)type, 0);
	else
		tap_skip("no msr PMU here", "msr/tsc/");
	tap_ok(!cpc_pfm_used(), "resolving generic, classic, raw, tracepoint "
	    "and PMU names does not start libpfm4");
	/* The listing's test of the tracepoints asks for their PMU. */
	if (read_num("/sys/bus/event_source/devices/tracepoint/type",
	    &type) == 0) {
		tap_u64(type, PERF_TYPE_TRACEPOINT, "the tracepoint PMU's "
		    "type is PERF_TYPE_TRACEPOINT");
		tap_ok(cpc_pmu_registered("tracepoint") == 1,
		    "cpc_pmu_registered: the tracepoint PMU is there");
		tap_ok(cpc_pmu_registered("no_such_pmu") == 0,
		    "cpc_pmu_registered: a PMU the kernel lacks is not");
	} else
		tap_skip("no tracepoint PMU in sysfs", "cpc_pmu_registered");
	if (read_num("/sys/bus/event_source/devices/msr/type", &type) == 0) {
		/* A field given with an event overrides the event's own. */
		enc_is(cpc, "msr/event=0x4/", (uint32_t)type, 4);
		enc_is(cpc, "msr/tsc,event=4/", (uint32_t)type, 4);
		enc_is(cpc, "msr/event=4,tsc/", (uint32_t)type, 4);
	} else
		tap_skip("no msr PMU here", "msr/event=0x4/");
	snprintf(avail, sizeof(avail), "%s/available_events",
	    dir != NULL ? dir : "/nonexistent");
	if (dir != NULL && access(avail, R_OK) == 0) {
		enc_fails(cpc, "sched_switch", "unknown event 'sched_switch'; "
		    "did you mean 'sched:sched_switch'");
		enc_fails(cpc, "SCHED:sched_switch", "did you mean "
		    "'sched:sched_switch'");
		enc_fails(cpc, "sched:SCHED_SWITCH", "did you mean "
		    "'sched:sched_switch'");
		enc_fails_with(cpc, "sched:", "unknown event 'sched:'");
	} else
		tap_skip("tracefs not readable", "tracepoint suggestions");
	enc_fails(cpc, "PAPI_no_such", "unknown event");
	enc_fails(cpc, "instrutcions", "did you mean 'instructions'");
	enc_fails(cpc, "sched:sched_swtch", "did you mean "
	    "'sched:sched_switch'");
	tap_ok(cpc_event_encode(cpc, NULL, "PAPI_tot_cyc", &ev) == 0 &&
	    cpc_event_encode(cpc, NULL, "PAPI_ToT_cYc", &ev2) == 0 &&
	    memcmp(&ev, &ev2, sizeof(ev)) == 0, "PAPI names are compared "
	    "without case");

	/* This machine: the kernel's PMU decides what can be counted. */
	if (!cpc_have_hw_pmu(cpc)) {
		set = cpc_set_create(cpc);
		lastmsg[0] = '\0';
		errno = 0;
		tap_ok(cpc_set_add_request(cpc, set, "EC_ref", 0,
		    CPC_COUNT_USER, 0, NULL) == -1 && errno == ENOTSUP &&
		    strstr(lastmsg, "no hardware PMU") != NULL,
		    "without a hardware PMU, EC_ref is refused as not "
		    "countable here (ENOTSUP), not as unknown");
		lastmsg[0] = '\0';
		tap_ok(cpc_set_add_request(cpc, set, "INST_RETIRED:ANY_P", 0,
		    CPC_COUNT_USER, 0, NULL) == -1 &&
		    strstr(lastmsg, "no hardware PMU") != NULL,
		    "without a hardware PMU, a native name is refused as not "
		    "countable here (%s)", lastmsg);
		tap_str(cpc_cciname(cpc), "software events only (no hardware "
		    "PMU)", "cciname says there is no PMU");
		tap_u64(cpc_npic(cpc), CPC_SOFT_NPIC, "npic is the request "
		    "slots");
		cpc_set_destroy(cpc, set);
	} else
		tap_skip("this machine has a hardware PMU", "no-PMU messages");
	derived_oracle(cpc);
	cpc_close(cpc);

	for (i = 0; i < sizeof(tables) / sizeof(*tables); i++)
		forced(tables[i].pmu);
	return tap_done();
}
