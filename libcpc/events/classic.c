/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * classic.c - the catalogue's classic Solaris platform names (EC_ref,
 * Cycle_cnt, ...), those with a faithful Linux meaning: each stands for a
 * generic or native name, and a derived one (EC_hit) counts the
 * difference of two.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "catalogue.h"

#define NELEM(a)	(sizeof(a) / sizeof(*(a)))
#define CL(n, d, e)		{ n, d, e, NULL }
#define CL_DIFF(n, d, e, m)	{ n, d, e, m }

/*
 * Solaris platform names with a faithful Linux meaning: the one table
 * generic_events(3) documents.  Each stands for a perf or PAPI_* name;
 * a derived one counts cl_event minus cl_minus on two counters.  The
 * PAPI_* targets follow illumos's own equivalences (its Niagara 2 and
 * Opteron generic-event tables).
 */
const struct cpc_classic cpc_classic_names[] = {
	/* UltraSPARC I-IV, Niagara */
	CL("Cycle_cnt", "CPU cycles", "cycles"),
	CL("Instr_cnt", "instructions completed", "instructions"),
	CL("EC_ref", "external (last-level) cache references",
	    "cache-references"),
	CL("EC_misses", "external (last-level) cache misses",
	    "cache-misses"),
	CL_DIFF("EC_hit", "external (last-level) cache hits: EC_ref minus "
	    "EC_misses, two counters", "cache-references", "cache-misses"),
	CL("EC_rd_miss", "external (last-level) cache read misses",
	    "LLC-load-misses"),
	CL("DC_rd", "data cache reads", "L1-dcache-loads"),
	CL("DC_rd_miss", "data cache read misses", "L1-dcache-load-misses"),
	CL_DIFF("DC_rd_hit", "data cache read hits: DC_rd minus DC_rd_miss, "
	    "two counters", "L1-dcache-loads", "L1-dcache-load-misses"),
	CL("DC_wr", "data cache writes", "L1-dcache-stores"),
	CL("DC_wr_miss", "data cache write misses", "L1-dcache-store-misses"),
	CL_DIFF("DC_wr_hit", "data cache write hits: DC_wr minus DC_wr_miss, "
	    "two counters", "L1-dcache-stores", "L1-dcache-store-misses"),
	CL("DC_miss", "data cache misses", "PAPI_l1_dcm"),
	CL("IC_ref", "instruction cache references", "L1-icache-loads"),
	CL("IC_miss", "instruction cache misses", "L1-icache-load-misses"),
	CL_DIFF("IC_hit", "instruction cache hits: IC_ref minus IC_miss, "
	    "two counters", "L1-icache-loads", "L1-icache-load-misses"),
	CL("ITLB_miss", "instruction TLB misses", "iTLB-load-misses"),
	CL("DTLB_miss", "data TLB misses", "PAPI_tlb_dm"),
	CL("Br_completed", "branch instructions completed",
	    "branch-instructions"),
	CL("Br_taken", "branch instructions taken", "PAPI_br_tkn"),
	CL("Instr_ld", "load instructions", "PAPI_ld_ins"),
	CL("Instr_st", "store instructions", "PAPI_sr_ins"),
	CL("Instr_FGU_arithmetic", "floating point arithmetic instructions",
	    "PAPI_fp_ins"),
	CL("L2_imiss", "level 2 cache misses for instruction fetches",
	    "PAPI_l2_icm"),
	CL("L2_dmiss_ld", "level 2 cache misses for loads", "PAPI_l2_ldm"),
	/* Pentium Pro, Pentium II and III (P6) */
	CL("cpu_clk_unhalted", "cycles the CPU was not halted", "cycles"),
	CL("inst_retired", "instructions retired", "instructions"),
	CL("br_inst_retired", "branch instructions retired",
	    "branch-instructions"),
	CL("br_miss_pred_retired", "mispredicted branches retired",
	    "branch-misses"),
	CL("hw_int_rx", "hardware interrupts received", "PAPI_hw_int"),
	CL("dcu_lines_in", "lines allocated in the data cache",
	    "PAPI_l1_dcm"),
	CL("ifu_ifetch_miss", "instruction fetch misses",
	    "L1-icache-load-misses"),
	CL("itlb_miss", "instruction TLB misses", "iTLB-load-misses"),
	/* Opteron (AMD family 0Fh-11h) */
	CL("BU_cpu_clk_unhalted", "cycles the CPU was not halted", "cycles"),
	CL("FR_retired_x86_instr_w_excp_intr", "x86 instructions retired, "
	    "exceptions and interrupts included", "instructions"),
	CL("FR_retired_branches_w_excp_intr", "branches retired, exceptions "
	    "and interrupts included", "branch-instructions"),
	CL("FR_retired_branches_mispred", "mispredicted branches retired",
	    "branch-misses"),
	CL("FR_taken_hardware_intrs", "hardware interrupts taken",
	    "PAPI_hw_int"),
	CL("DC_access", "data cache accesses", "PAPI_l1_dca"),
	CL("IC_fetch", "instruction cache fetches", "L1-icache-loads"),
	CL("FR_dispatch_stalls", "cycles dispatch stalled",
	    "stalled-cycles-backend"),
	CL("FR_nothing_to_dispatch", "cycles with nothing to dispatch "
	    "(decoder empty)", "stalled-cycles-frontend"),
};
const size_t cpc_nclassic_names = NELEM(cpc_classic_names);

/* ---- lookup ---- */

/* What a classic name stands for: a generic or a native name. */
static int
classic_target(const struct ev_ctx *ec, const char *target,
    struct cpc_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (ev_generic_lookup(ec, NULL, target, ev) == 0)
		return 0;
	if (!ev_hw_known(ec))
		return -1;
	return ev_native_lookup(ec, NULL, target, ev) == 0 ? 0 : -1;
}

/*
 * The classic Solaris names, each standing for another name; a derived
 * one counts the difference of two.
 */
static int
ev_classic_lookup(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const struct cpc_classic *cl = NULL;
	struct cpc_event sub;
	struct cpc_pmu pmu;
	size_t i;

	for (i = 0; i < cpc_nclassic_names && cl == NULL; i++)
		if (strcmp(name, cpc_classic_names[i].cl_name) == 0)
			cl = &cpc_classic_names[i];
	if (cl == NULL)
		return 1;
	if (classic_target(ec, cl->cl_event, ev) != 0 ||
	    (cl->cl_minus != NULL &&
	    classic_target(ec, cl->cl_minus, &sub) != 0)) {
		if (!ev_hw_known(ec))
			ev_no_pmu_error(ec, fn, name);
		else
			ev_err(ec, fn, CPC_INVALID_EVENT, "'%s' (%s) "
			    "stands for %s%s%s, which this processor (%s) "
			    "cannot count", name, cl->cl_desc, cl->cl_event,
			    cl->cl_minus != NULL ? " minus " : "",
			    cl->cl_minus != NULL ? cl->cl_minus : "",
			    cpc_pfm_describe(&pmu) == 0 ? pmu.pm_desc :
			    "not in libpfm4's tables");
		errno = ENOTSUP;
		return -1;
	}
	if (cl->cl_minus == NULL)
		return 0;
	ev->ev_derived = 1;
	ev->ev_sub.en_type = sub.ev_type;
	ev->ev_sub.en_config = sub.ev_config;
	ev->ev_sub.en_config1 = sub.ev_config1;
	ev->ev_sub.en_config2 = sub.ev_config2;
	return 0;
}

/* ---- suggestions and listing ---- */

static void
ev_classic_suggest(const struct ev_ctx *ec, struct ev_suggest *sg,
    const char *name, const char *want)
{
	size_t i;

	(void)ec;
	(void)name;
	for (i = 0; i < cpc_nclassic_names; i++)
		ev_suggest_name(sg, want, cpc_classic_names[i].cl_name);
}

static void
ev_classic_walk(const struct ev_ctx *ec, struct ev_walk *w)
{
	const struct cpc_classic *cl;
	char desc[EV_DESC_LEN];
	size_t i;

	for (i = 0; i < cpc_nclassic_names; i++) {
		cl = &cpc_classic_names[i];
		if (!w->ew_want(w, cl->cl_name))
			continue;
		if (cl->cl_minus != NULL)
			snprintf(desc, sizeof(desc), "%s (%s - %s)",
			    cl->cl_desc, cl->cl_event, cl->cl_minus);
		else
			snprintf(desc, sizeof(desc), "%s (%s)", cl->cl_desc,
			    cl->cl_event);
		ev_emit(ec, w, cl->cl_name, "classic", desc,
		    ev_classic_lookup);
	}
}

const struct ev_kind ev_kind_classic = {
	.ek_name = "classic",
	.ek_lookup = ev_classic_lookup,
	.ek_walk = ev_classic_walk,
	.ek_suggest = ev_classic_suggest,
};
