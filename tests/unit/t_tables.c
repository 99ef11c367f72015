/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_tables.c - the named-event tables (libcpc/events/generic.c and
 * classic.c) and their
 * resolution under forced libpfm4 PMUs, and generic_events(3) against the
 * tables.
 *
 * libpfm4 reads LIBPFM_FORCE_PMU once, at its first use in a process, so
 * each PMU is checked in a child of its own.  The child reports one line
 * per result on a pipe ("ok MSG", "not MSG", "skip WHY\tMSG", "diag
 * TEXT") and the parent turns them into TAP, so that the numbering and
 * the plan stay in one process.
 *
 * The oracle for a PAPI name is libpfm4 itself, called directly: the
 * first '|' candidate of the table that libpfm4 encodes under the forced
 * PMU, else the perf name, else "no equivalent".  Chosen names are also
 * pinned to exact encodings read from the vendors' tables (event select
 * and unit mask) so that a change in either is caught.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include <libcpc.h>

#include "cpc_impl.h"
#include "lazy.h"		/* libpfm4 through the table libcpc loaded */
#include "tap.h"

#define MAN_PAGE	"man3/generic_events.3"

static FILE *rep;		/* the child's report pipe */

static void
report(int ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
report(int ok, const char *fmt, ...)
{
	va_list ap;

	fprintf(rep, "%s ", ok ? "ok" : "not");
	va_start(ap, fmt);
	vfprintf(rep, fmt, ap);
	va_end(ap);
	fputc('\n', rep);
}

/* The encoding libpfm4 gives a native name, or -1. */
static int
pfm_encode(const char *name, struct cpc_enc *en)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	attr.size = sizeof(attr);
	arg.attr = &attr;
	arg.size = sizeof(arg);
	if (pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
	    PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS)
		return -1;
	en->en_type = attr.type;
	en->en_config = attr.config;
	en->en_config1 = attr.config1;
	en->en_config2 = attr.config2;
	return 0;
}

/* What the table says a PAPI name must resolve to under this PMU. */
static int
expected(cpc_t *cpc, const struct cpc_generic *g, struct cpc_enc *en,
    char *via, size_t vialen)
{
	char cand[CPC_MAX_EVENT_LEN], *p, *save = NULL;
	struct cpc_event ev;

	if (g->gn_native != NULL) {
		snprintf(cand, sizeof(cand), "%s", g->gn_native);
		for (p = strtok_r(cand, "|", &save); p != NULL;
		    p = strtok_r(NULL, "|", &save))
			if (pfm_encode(p, en) == 0) {
				snprintf(via, vialen, "%s", p);
				return 0;
			}
	}
	if (g->gn_perf != NULL &&
	    cpc_event_encode(cpc, NULL, g->gn_perf, &ev) == 0) {
		en->en_type = ev.ev_type;
		en->en_config = ev.ev_config;
		en->en_config1 = ev.ev_config1;
		en->en_config2 = ev.ev_config2;
		snprintf(via, vialen, "%s", g->gn_perf);
		return 0;
	}
	return -1;
}

static int
same(const struct cpc_event *ev, const struct cpc_enc *en)
{
	return ev->ev_type == en->en_type && ev->ev_config == en->en_config &&
	    ev->ev_config1 == en->en_config1 &&
	    ev->ev_config2 == en->en_config2;
}

static int
same_ev(const struct cpc_event *a, const struct cpc_event *b)
{
	return a->ev_type == b->ev_type && a->ev_config == b->ev_config &&
	    a->ev_config1 == b->ev_config1 &&
	    a->ev_config2 == b->ev_config2 &&
	    a->ev_derived == b->ev_derived &&
	    a->ev_sub.en_type == b->ev_sub.en_type &&
	    a->ev_sub.en_config == b->ev_sub.en_config &&
	    a->ev_sub.en_config1 == b->ev_sub.en_config1 &&
	    a->ev_sub.en_config2 == b->ev_sub.en_config2;
}

/* Every PAPI name under the PMU; returns how many are mapped. */
static int
check_generic(cpc_t *cpc, const char *pmu)
{
	char name[64], upper[64], via[CPC_MAX_EVENT_LEN], list[4096];
	struct cpc_event ev, ev2;
	struct cpc_enc en;
	size_t i, j, n = 0;
	int mapped = 0, rc, want;

	list[0] = '\0';
	for (i = 0; i < cpc_ngeneric_names; i++) {
		const struct cpc_generic *g = &cpc_generic_names[i];

		snprintf(name, sizeof(name), "PAPI_%s", g->gn_name);
		want = expected(cpc, g, &en, via, sizeof(via));
		rc = cpc_event_encode(cpc, NULL, name, &ev);
		if (want == 0)
			report(rc == 0 && same(&ev, &en), "%s: %s encodes as "
			    "%s (type %u config %#llx)", pmu, name, via,
			    en.en_type, (unsigned long long)en.en_config);
		else
			report(rc == -1, "%s: %s has no equivalent", pmu,
			    name);
		if (rc == 0) {
			mapped++;
		} else if (n < sizeof(list) - 16) {
			n += snprintf(list + n, sizeof(list) - n, " %s",
			    g->gn_name);
		}
		for (j = 0; name[j] != '\0'; j++)
			upper[j] = (char)toupper((unsigned char)name[j]);
		upper[j] = '\0';
		memset(&ev2, 0, sizeof(ev2));
		report(cpc_event_encode(cpc, NULL, upper, &ev2) == rc &&
		    (rc != 0 || same_ev(&ev, &ev2)), "%s: %s is %s", pmu,
		    upper, name);
		/* A name with no mapping anywhere must fail everywhere. */
		if (g->gn_native == NULL && g->gn_perf == NULL)
			report(rc == -1, "%s: %s (unmapped) fails", pmu, name);
	}
	fprintf(rep, "diag %s: %d of %zu PAPI names mapped; none for:%s\n",
	    pmu, mapped, cpc_ngeneric_names, list);
	return mapped;
}

/* Every classic name resolves exactly as the name it stands for. */
static void
check_classic(cpc_t *cpc, const char *pmu)
{
	struct cpc_event ev, target, sub;
	size_t i;
	int rc, trc;

	for (i = 0; i < cpc_nclassic_names; i++) {
		const struct cpc_classic *cl = &cpc_classic_names[i];

		rc = cpc_event_encode(cpc, NULL, cl->cl_name, &ev);
		trc = cpc_event_encode(cpc, NULL, cl->cl_event, &target);
		if (trc == 0 && cl->cl_minus != NULL) {
			trc = cpc_event_encode(cpc, NULL, cl->cl_minus, &sub);
			target.ev_derived = 1;
			target.ev_sub.en_type = sub.ev_type;
			target.ev_sub.en_config = sub.ev_config;
			target.ev_sub.en_config1 = sub.ev_config1;
			target.ev_sub.en_config2 = sub.ev_config2;
		}
		report(rc == trc && (rc != 0 || same_ev(&ev, &target)),
		    "%s: %s resolves as %s%s%s", pmu, cl->cl_name,
		    cl->cl_event, cl->cl_minus ? " minus " : "",
		    cl->cl_minus ? cl->cl_minus : "");
		/* A perf target is known everywhere: the name must encode. */
		if (strncmp(cl->cl_event, "PAPI_", 5) != 0)
			report(rc == 0, "%s: %s encodes", pmu, cl->cl_name);
	}
}

struct pin {
	const char	*pi_pmu;	/* NULL: every PMU */
	const char	*pi_name;
	uint32_t	 pi_type;
	uint64_t	 pi_config;
};

/*
 * Exact encodings.  Intel: config = umask << 8 | event select; AMD: the
 * same, with event-select bits 11:8 in config bits 35:32.  Sources: the
 * Intel SDM volume 3B event tables and the AMD PPRs, as libpfm4 4.13
 * encodes them.
 */
static const struct pin pins[] = {
	/* perf generic names: PERF_TYPE_HARDWARE whatever the PMU */
	{ NULL, "PAPI_tot_cyc", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ NULL, "PAPI_TOT_CYC", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ NULL, "PAPI_tot_ins", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_INSTRUCTIONS },
	{ NULL, "Cycle_cnt", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ NULL, "Instr_cnt", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ NULL, "EC_ref", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ NULL, "EC_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	/* L1D (0) | READ (0) << 8 | MISS (1) << 16 */
	{ NULL, "DC_rd_miss", PERF_TYPE_HW_CACHE, 0x10000 },
	/* Skylake */
	{ "skl", "PAPI_br_cn", PERF_TYPE_RAW, 0x01c4 },	/* C4/01 */
	{ "skl", "PAPI_br_msp", PERF_TYPE_RAW, 0x01c5 },	/* C5/01 */
	{ "skl", "PAPI_br_ntk", PERF_TYPE_RAW, 0x10c4 },	/* C4/10 */
	{ "skl", "PAPI_br_tkn", PERF_TYPE_RAW, 0x20c4 },	/* NEAR_TAKEN */
	{ "skl", "PAPI_hw_int", PERF_TYPE_RAW, 0x01cb },	/* CB/01 */
	{ "skl", "PAPI_l1_dcm", PERF_TYPE_RAW, 0x0151 },	/* 51/01 */
	{ "skl", "PAPI_l2_stm", PERF_TYPE_RAW, 0x2224 },	/* 24/22 */
	{ "skl", "PAPI_l3_tca", PERF_TYPE_RAW, 0x4f2e },	/* 2E/4F */
	{ "skl", "PAPI_l3_tcm", PERF_TYPE_RAW, 0x412e },	/* 2E/41 */
	{ "skl", "PAPI_ld_ins", PERF_TYPE_RAW, 0x81d0 },	/* D0/81 */
	{ "skl", "PAPI_tlb_im", PERF_TYPE_RAW, 0x0185 },	/* 85/01 */
	{ "skl", "PAPI_fp_ins", PERF_TYPE_RAW, 0xffc7 },	/* C7/FF */
	{ "skl", "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0x00c0 },
	{ "skl", "DC_miss", PERF_TYPE_RAW, 0x0151 },
	/* Ice Lake: 0x01c4 is COND_TAKEN here, conditional is umask 0x11 */
	{ "icl", "PAPI_br_cn", PERF_TYPE_RAW, 0x11c4 },
	{ "icl", "PAPI_br_tkn", PERF_TYPE_RAW, 0x01c4 },
	{ "icl", "PAPI_br_msp", PERF_TYPE_RAW, 0x11c5 },
	{ "icl", "PAPI_tlb_im", PERF_TYPE_RAW, 0x0e85 },	/* WALK_COMPLETED */
	{ "icl", "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0x00c0 },
	/* Zen 3 */
	{ "amd64_fam19h_zen3", "PAPI_br_cn", PERF_TYPE_RAW, 0x00d1 },
	{ "amd64_fam19h_zen3", "PAPI_br_msp", PERF_TYPE_RAW, 0x1000000c7 },
	{ "amd64_fam19h_zen3", "PAPI_hw_int", PERF_TYPE_RAW, 0x002c },
	{ "amd64_fam19h_zen3", "PAPI_l1_icm", PERF_TYPE_RAW, 0x10000188e },
	{ "amd64_fam19h_zen3", "PAPI_l2_dcm", PERF_TYPE_RAW, 0x0864 },
	{ "amd64_fam19h_zen3", "PAPI_tlb_dm", PERF_TYPE_RAW, 0xff45 },
	{ "amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW, 0xc0 },
	/* Zen 4 */
	{ "amd64_fam19h_zen4", "PAPI_br_ucn", PERF_TYPE_RAW, 0x1000000c9 },
	{ "amd64_fam19h_zen4", "PAPI_fp_ops", PERF_TYPE_RAW, 0x1f03 },
	{ "amd64_fam19h_zen4", "PAPI_l1_dcm", PERF_TYPE_RAW, 0xdf43 },
	{ "amd64_fam19h_zen4", "PAPI_l2_tcm", PERF_TYPE_RAW, 0x0964 },
	{ "amd64_fam19h_zen4", "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW, 0xc0 },
};

static void
check_pins(cpc_t *cpc, const char *pmu)
{
	struct cpc_event ev;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(pins) / sizeof(*pins); i++) {
		const struct pin *p = &pins[i];

		if (p->pi_pmu != NULL && strcmp(p->pi_pmu, pmu) != 0)
			continue;
		rc = cpc_event_encode(cpc, NULL, p->pi_name, &ev);
		report(rc == 0 && ev.ev_type == p->pi_type &&
		    ev.ev_config == p->pi_config, "%s: %s is type %u config "
		    "%#llx (got %s type %u config %#llx)", pmu, p->pi_name,
		    p->pi_type, (unsigned long long)p->pi_config,
		    rc == 0 ? "ok" : "failure", ev.ev_type,
		    (unsigned long long)ev.ev_config);
	}
}

/* EC_hit is a derived request: references minus misses. */
static void
check_ec_hit(cpc_t *cpc, const char *pmu)
{
	struct cpc_event ev;
	int rc = cpc_event_encode(cpc, NULL, "EC_hit", &ev);

	report(rc == 0 && ev.ev_derived && ev.ev_type == PERF_TYPE_HARDWARE &&
	    ev.ev_config == PERF_COUNT_HW_CACHE_REFERENCES &&
	    ev.ev_sub.en_type == PERF_TYPE_HARDWARE &&
	    ev.ev_sub.en_config == PERF_COUNT_HW_CACHE_MISSES,
	    "%s: EC_hit = cache-references minus cache-misses", pmu);
	report(cpc_event_encode(cpc, NULL, "PAPI_nosuch", &ev) == -1,
	    "%s: PAPI_nosuch is unknown", pmu);
}

/* Mapped PAPI names per PMU: pins the tables (see generic_events(3)). */
static const struct {
	const char	*pm_name;
	int		 pm_mapped;
} counts[] = {
	{ "skl", 45 },
	{ "icl", 41 },
	{ "spr", 39 },
	{ "amd64_fam17h_zen2", 36 },
	{ "amd64_fam19h_zen3", 37 },
	{ "amd64_fam19h_zen4", 38 },
};

static void
child(const char *pmu)
{
	struct cpc_pmu info;
	cpc_t *cpc;
	size_t i;
	int mapped;

	if (setenv("LIBPFM_FORCE_PMU", pmu, 1) != 0 ||
	    (cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		report(0, "%s: cpc_open: %s", pmu, strerror(errno));
		return;
	}
	if (cpc_pfm_pmu(cpc, &info) != 0 || strcmp(info.pm_name, pmu) != 0) {
		fprintf(rep, "skip this libpfm4 has no %s table (x86 builds "
		    "carry no ARM tables)\t%s: forced PMU\n", pmu, pmu);
		cpc_close(cpc);
		return;
	}
	report(1, "%s: forced PMU is active (%s)", pmu, info.pm_desc);
	mapped = check_generic(cpc, pmu);
	for (i = 0; i < sizeof(counts) / sizeof(*counts); i++)
		if (strcmp(counts[i].pm_name, pmu) == 0)
			report(mapped == counts[i].pm_mapped, "%s: %d PAPI "
			    "names mapped (want %d)", pmu, mapped,
			    counts[i].pm_mapped);
	check_classic(cpc, pmu);
	check_pins(cpc, pmu);
	check_ec_hit(cpc, pmu);
	cpc_close(cpc);
}

/* Run child(pmu) in a fresh process and turn its report into TAP. */
static void
run_pmu(const char *pmu)
{
	char line[8192], *tab;
	int fds[2], status;
	size_t n;
	pid_t pid;
	FILE *in;

	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		tap_ok(0, "%s: fork: %s", pmu, strerror(errno));
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		rep = fdopen(fds[1], "w");
		child(pmu);
		fclose(rep);
		_exit(0);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (fgets(line, sizeof(line), in) != NULL) {
		if ((n = strlen(line)) > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (strncmp(line, "ok ", 3) == 0)
			tap_ok(1, "%s", line + 3);
		else if (strncmp(line, "not ", 4) == 0)
			tap_ok(0, "%s", line + 4);
		else if (strncmp(line, "skip ", 5) == 0 &&
		    (tab = strchr(line, '\t')) != NULL) {
			*tab = '\0';
			tap_skip(line + 5, tab + 1);
		} else if (strncmp(line, "diag ", 5) == 0)
			printf("# %s\n", line + 5);
		else
			tap_ok(0, "%s: bad report line '%s'", pmu, line);
	}
	fclose(in);
	tap_ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "%s: child exited cleanly", pmu);
}

/* The name appears in text as a whole word. */
static int
has_word(const char *text, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = strstr(text, word); p != NULL; p = strstr(p + 1, word)) {
		int before = p == text ? 0 :
		    isalnum((unsigned char)p[-1]) || p[-1] == '_';
		int after = isalnum((unsigned char)p[len]) || p[len] == '_';

		if (!before && !after)
			return 1;
	}
	return 0;
}

/* generic_events(3) documents every name of both tables. */
static void
check_man(void)
{
	const char *dir = getenv("TESTS_DIR");
	char path[4096], name[64], *text;
	size_t i, len = 0, missing = 0;
	FILE *f;
	long sz;

	if (dir != NULL)
		snprintf(path, sizeof(path), "%s/../%s", dir, MAN_PAGE);
	else
		snprintf(path, sizeof(path), "%s", MAN_PAGE);
	if ((f = fopen(path, "r")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (text = malloc((size_t)sz + 1)) == NULL) {
		tap_ok(0, "read %s: %s", path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return;
	}
	len = fread(text, 1, (size_t)sz, f);
	text[len] = '\0';
	fclose(f);
	for (i = 0; i < cpc_ngeneric_names; i++) {
		snprintf(name, sizeof(name), "PAPI_%s",
		    cpc_generic_names[i].gn_name);
		if (!has_word(text, name) && missing++ < 5)
			printf("#   not documented: %s\n", name);
	}
	for (i = 0; i < cpc_nclassic_names; i++)
		if (!has_word(text, cpc_classic_names[i].cl_name) &&
		    missing++ < 5)
			printf("#   not documented: %s\n",
			    cpc_classic_names[i].cl_name);
	tap_ok(missing == 0, "%s documents all %zu PAPI and %zu classic "
	    "names", MAN_PAGE, cpc_ngeneric_names, cpc_nclassic_names);
	free(text);
}

/* Table invariants that need no PMU. */
static void
check_tables(void)
{
	size_t i, j;
	int dup = 0, lower = 1;

	for (i = 0; i < cpc_ngeneric_names; i++) {
		const char *n = cpc_generic_names[i].gn_name;

		for (j = 0; n[j] != '\0'; j++)
			if (isupper((unsigned char)n[j]))
				lower = 0;
		for (j = i + 1; j < cpc_ngeneric_names; j++)
			if (strcasecmp(n, cpc_generic_names[j].gn_name) == 0)
				dup++;
		if (cpc_generic_names[i].gn_desc == NULL)
			dup++;
	}
	tap_ok(dup == 0 && lower, "PAPI names unique, Solaris spelling, "
	    "described");
	/* spec 5.6: 36 others + 3 x 17 cache names + 17 more; + ref_cyc */
	tap_u64(cpc_ngeneric_names, 104 + 1, "PAPI table size");
	dup = 0;
	for (i = 0; i < cpc_nclassic_names; i++)
		for (j = i + 1; j < cpc_nclassic_names; j++)
			if (strcmp(cpc_classic_names[i].cl_name,
			    cpc_classic_names[j].cl_name) == 0)
				dup++;
	tap_ok(dup == 0, "classic names unique");
	for (i = 0, dup = 0; i < cpc_nperf_names; i++)
		if (cpc_perf_names[i].nm_desc == NULL ||
		    cpc_perf_names[i].nm_desc[0] == '\0')
			dup++;
	tap_ok(dup == 0, "every perf name has a description");
}

int
main(void)
{
	static const char *const pmus[] = {
		"skl", "icl", "spr", "amd64_fam17h_zen2",
		"amd64_fam19h_zen3", "amd64_fam19h_zen4", "arm_ac57",
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	check_tables();
	check_man();
	for (i = 0; i < sizeof(pmus) / sizeof(*pmus); i++) {
		fflush(stdout);
		run_pmu(pmus[i]);
	}
	return tap_done();
}
