/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * generic.c - the catalogue's generic names: perf's (cycles, task-clock,
 * L1-dcache-load-misses, ...) and the PAPI_* generic events of Solaris,
 * which stand for a native event of the CPU's PMU or a perf name.  Each
 * has a one-line description; generic_events(3CPC) documents them.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>

#include "catalogue.h"

#define HW(n, c, d)	{ n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, 1, d }
#define SW(n, c, m, d)	{ n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, m, d }
#define NELEM(a)	(sizeof(a) / sizeof(*(a)))

/*
 * perf's generic names.  Faults are taken in user or kernel mode, so the
 * mode flags select them; clocks, switches and migrations happen in the
 * kernel whatever the task was doing, so the flags do not apply (setting
 * exclude_kernel would count nothing).
 */
const struct cpc_named cpc_perf_names[] = {
	HW("cycles", CPU_CYCLES, "CPU cycles"),
	HW("cpu-cycles", CPU_CYCLES, "CPU cycles"),
	HW("instructions", INSTRUCTIONS, "instructions retired"),
	HW("cache-references", CACHE_REFERENCES,
	    "last-level cache references"),
	HW("cache-misses", CACHE_MISSES, "last-level cache misses"),
	HW("branch-instructions", BRANCH_INSTRUCTIONS,
	    "branch instructions retired"),
	HW("branches", BRANCH_INSTRUCTIONS, "branch instructions retired"),
	HW("branch-misses", BRANCH_MISSES, "mispredicted branches"),
	HW("bus-cycles", BUS_CYCLES, "bus cycles"),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND,
	    "cycles the front end issued nothing"),
	HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
	    "cycles the front end issued nothing"),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND,
	    "cycles the back end retired nothing"),
	HW("idle-cycles-backend", STALLED_CYCLES_BACKEND,
	    "cycles the back end retired nothing"),
	HW("ref-cycles", REF_CPU_CYCLES,
	    "reference cycles, not scaled by frequency changes"),
	SW("cpu-clock", CPU_CLOCK, 0, "time on the CPU or target, in ns"),
	SW("task-clock", TASK_CLOCK, 0, "time the task ran, in ns"),
	SW("page-faults", PAGE_FAULTS, 1, "page faults"),
	SW("faults", PAGE_FAULTS, 1, "page faults"),
	SW("minor-faults", PAGE_FAULTS_MIN, 1,
	    "page faults served without I/O"),
	SW("major-faults", PAGE_FAULTS_MAJ, 1, "page faults that needed I/O"),
	SW("context-switches", CONTEXT_SWITCHES, 0, "context switches"),
	SW("cs", CONTEXT_SWITCHES, 0, "context switches"),
	SW("cpu-migrations", CPU_MIGRATIONS, 0,
	    "moves of a task to another CPU"),
	SW("migrations", CPU_MIGRATIONS, 0, "moves of a task to another CPU"),
	SW("alignment-faults", ALIGNMENT_FAULTS, 1,
	    "unaligned accesses fixed up by the kernel"),
	SW("emulation-faults", EMULATION_FAULTS, 1,
	    "instructions emulated by the kernel"),
	SW("dummy", DUMMY, 0, "counts nothing (a placeholder)"),
};
const size_t cpc_nperf_names = NELEM(cpc_perf_names);

const char *const cpc_cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};
const char *const cpc_cache_ops[][2] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load-misses" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store-misses" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches",
	    "prefetch-misses" },
};
const size_t cpc_ncache_names = NELEM(cpc_cache_names);
const size_t cpc_ncache_ops = NELEM(cpc_cache_ops);

/*
 * Native candidates, '|' between, the first the catalogue's PMU has wins.
 * Names are unprefixed so that one spelling serves every model that has
 * the event: BR_INST_RETIRED:CONDITIONAL (Skylake) and :COND (Ice Lake,
 * Sapphire Rapids) name the same count.  Intel first, then AMD Zen, then
 * the ARMv8 architected events (checked against libpfm4's Cortex-A57
 * table; none of them exists on an x86 PMU).
 */
#define ZEN_L2		"CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS"
#define ZEN_L2_DHIT	"LS_RD_BLK_C_S:LS_RD_BLK_L_HIT_X:LS_RD_BLK_L_HIT_S:" \
			"LS_RD_BLK_X"
#define ZEN_L2_IHIT	"IC_FILL_HIT_X:IC_FILL_HIT_S"
#define ZEN_DC_FILLS \
	"DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX:" \
	"NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:" \
	"ALT_MEM_NEAR_FAR" \
	"|DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:" \
	"EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT" \
	"|DATA_CACHE_REFILLS_FROM_SYSTEM:MABRESP_LCL_L2:" \
	"LS_MABRESP_LCL_CACHE:LS_MABRESP_LCL_DRAM:LS_MABRESP_RMT_CACHE:" \
	"LS_MABRESP_RMT_DRAM"
#define ZEN_DTLB \
	"L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:" \
	"TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS:" \
	"TLB_RELOAD_1G_L2_HIT:TLB_RELOAD_2M_L2_HIT:" \
	"TLB_RELOAD_COALESCED_PAGE_HIT:TLB_RELOAD_4K_L2_HIT"
#define ZEN_ITLB \
	"L1_ITLB_MISS_L2_ITLB_MISS:IF4K:IF2M:IF1G:COALESCED4K" \
	"|L1_ITLB_MISS_L2_ITLB_MISS"
#define SKL_FP_ARITH \
	"FP_ARITH_INST_RETIRED:SCALAR_DOUBLE:SCALAR_SINGLE:" \
	"128B_PACKED_DOUBLE:128B_PACKED_SINGLE:256B_PACKED_DOUBLE:" \
	"256B_PACKED_SINGLE:512B_PACKED_DOUBLE:512B_PACKED_SINGLE"

#define GN(n, d, p, x)	{ n, d, p, x }
#define NONE(n, d)	{ n, d, NULL, NULL }

/*
 * The Solaris generic events, generic_events(3CPC): spec 5.6's complete
 * list plus PAPI's ref_cyc.  A name no PMU can count faithfully stays
 * here with no mapping, so that it is reported as "no equivalent", not
 * as unknown.  gn_perf only where perf's name means the same everywhere:
 * cache-references and cache-misses are L2 on AMD Zen and L1D on ARMv8,
 * so they stand for no PAPI_l3_* name.
 */
const struct cpc_generic cpc_generic_names[] = {
	GN("br_cn", "conditional branch instructions", NULL,
	    "BR_INST_RETIRED:CONDITIONAL|BR_INST_RETIRED:COND|"
	    "RETIRED_CONDITIONAL_BRANCH_INSTRUCTIONS"),
	GN("br_ins", "branch instructions", "branch-instructions", NULL),
	GN("br_msp", "conditional branch instructions mispredicted",
	    "branch-misses",
	    "BR_MISP_RETIRED:CONDITIONAL|BR_MISP_RETIRED:COND|"
	    "RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH"),
	GN("br_ntk", "conditional branch instructions not taken", NULL,
	    "BR_INST_RETIRED:NOT_TAKEN|BR_INST_RETIRED:COND_NTAKEN"),
	NONE("br_prc", "conditional branch instructions correctly predicted"),
	GN("br_tkn", "conditional branch instructions taken", NULL,
	    "BR_INST_RETIRED:COND_TAKEN|BR_INST_RETIRED:NEAR_TAKEN|"
	    "RETIRED_TAKEN_BRANCH_INSTRUCTIONS"),
	GN("br_ucn", "unconditional branch instructions", NULL,
	    "RETIRED_UNCONDITIONAL_BRANCH_INSTRUCTIONS"),
	NONE("bru_idl", "cycles branch units are idle"),
	NONE("btac_m", "branch target address cache misses"),
	NONE("ca_cln", "requests for exclusive access to a clean cache line"),
	NONE("ca_inv", "requests for cache line invalidation"),
	NONE("ca_itv", "requests for cache line intervention"),
	NONE("ca_shr", "requests for exclusive access to a shared cache "
	    "line"),
	NONE("ca_snp", "requests for a snoop"),
	GN("csr_fal", "failed store conditional instructions", NULL,
	    "INST_SPEC_EXEC_STREX_FAIL"),
	GN("csr_suc", "successful store conditional instructions", NULL,
	    "INST_SPEC_EXEC_STREX_PASS"),
	NONE("csr_tot", "total store conditional instructions"),
	NONE("fad_ins", "floating point add instructions"),
	NONE("fdv_ins", "floating point divide instructions"),
	NONE("fma_ins", "FMA instructions completed"),
	NONE("fml_ins", "floating point multiply instructions"),
	NONE("fnv_ins", "floating point inverse instructions"),
	GN("fp_ins", "floating point instructions", NULL, SKL_FP_ARITH),
	GN("fp_ops", "floating point operations", NULL,
	    "RETIRED_SSE_AVX_FLOPS:ANY"),
	NONE("fp_stal", "cycles the floating point units are stalled"),
	NONE("fpu_idl", "cycles the floating point units are idle"),
	NONE("fsq_ins", "floating point square root instructions"),
	NONE("ful_ccy", "cycles with the maximum number of instructions "
	    "completed"),
	NONE("ful_icy", "cycles with the maximum instruction issue"),
	NONE("fxu_idl", "cycles the integer units are idle"),
	GN("hw_int", "hardware interrupts", NULL,
	    "HW_INTERRUPTS:RECEIVED|INTERRUPT_TAKEN|EXCEPTION_IRQ"),
	GN("int_ins", "integer instructions", NULL,
	    "INST_SPEC_EXEC_INTEGER_INST"),
	GN("tot_cyc", "total cycles", "cycles", NULL),
	GN("tot_iis", "instructions issued", NULL, "INST_SPEC_EXEC"),
	GN("tot_ins", "instructions completed", "instructions", NULL),
	GN("vec_ins", "vector/SIMD instructions", NULL,
	    "INST_SPEC_EXEC_SIMD"),

	GN("l1_dca", "level 1 data cache accesses", NULL,
	    "MEM_INST_RETIRED:ANY|"
	    "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH:LD_ST_DISPATCH|"
	    "L1D_CACHE_ACCESS"),
	NONE("l1_dch", "level 1 data cache hits"),
	GN("l1_dcm", "level 1 data cache misses", NULL,
	    "L1D:REPLACEMENT|" ZEN_DC_FILLS "|L1D_CACHE_REFILL"),
	GN("l1_dcr", "level 1 data cache reads", "L1-dcache-loads",
	    "MEM_INST_RETIRED:ALL_LOADS|LS_DISPATCH:LD_DISPATCH|"
	    "L1D_READ_ACCESS"),
	GN("l1_dcw", "level 1 data cache writes", "L1-dcache-stores",
	    "MEM_INST_RETIRED:ALL_STORES|LS_DISPATCH:STORE_DISPATCH|"
	    "L1D_WRITE_ACCESS"),
	GN("l1_ica", "level 1 instruction cache accesses", "L1-icache-loads",
	    "IC_TAG_HIT_MISS:ALL_IC_ACCESS|L1I_CACHE_ACCESS"),
	GN("l1_ich", "level 1 instruction cache hits", NULL,
	    "ICACHE_64B:IFTAG_HIT|IC_TAG_HIT_MISS:IC_HIT"),
	GN("l1_icm", "level 1 instruction cache misses",
	    "L1-icache-load-misses",
	    "ICACHE_64B:IFTAG_MISS|IC_TAG_HIT_MISS:IC_MISS|L1I_CACHE_REFILL"),
	GN("l1_icr", "level 1 instruction cache reads", "L1-icache-loads",
	    "IC_TAG_HIT_MISS:ALL_IC_ACCESS|L1I_CACHE_ACCESS"),
	NONE("l1_icw", "level 1 instruction cache writes"),
	GN("l1_ldm", "level 1 load misses", "L1-dcache-load-misses",
	    "MEM_LOAD_RETIRED:L1_MISS|L1D_READ_REFILL"),
	GN("l1_stm", "level 1 store misses", "L1-dcache-store-misses",
	    "L1D_WRITE_REFILL"),
	NONE("l1_tca", "level 1 total cache accesses"),
	NONE("l1_tch", "level 1 total cache hits"),
	GN("l1_tcm", "level 1 total cache misses", NULL,
	    "L2_RQSTS:ALL_DEMAND_REFERENCES|"
	    ZEN_L2 ":" ZEN_L2_DHIT ":LS_RD_BLK_C:" ZEN_L2_IHIT
	    ":IC_FILL_MISS"),
	NONE("l1_tcr", "level 1 total cache reads"),
	NONE("l1_tcw", "level 1 total cache writes"),

	GN("l2_dca", "level 2 data cache accesses", NULL,
	    ZEN_L2 ":" ZEN_L2_DHIT ":LS_RD_BLK_C|L2D_CACHE_ACCESS"),
	GN("l2_dch", "level 2 data cache hits", NULL,
	    ZEN_L2 ":" ZEN_L2_DHIT),
	GN("l2_dcm", "level 2 data cache misses", NULL,
	    ZEN_L2 ":LS_RD_BLK_C|L2D_CACHE_REFILL"),
	GN("l2_dcr", "level 2 data cache reads", NULL,
	    "L2_RQSTS:ALL_DEMAND_DATA_RD|L2D_READ_ACCESS"),
	GN("l2_dcw", "level 2 data cache writes", NULL,
	    "L2_RQSTS:ALL_RFO|L2D_WRITE_ACCESS"),
	GN("l2_ica", "level 2 instruction cache accesses", NULL,
	    "L2_RQSTS:ALL_CODE_RD|" ZEN_L2 ":" ZEN_L2_IHIT ":IC_FILL_MISS"),
	GN("l2_ich", "level 2 instruction cache hits", NULL,
	    "L2_RQSTS:CODE_RD_HIT|" ZEN_L2 ":" ZEN_L2_IHIT),
	GN("l2_icm", "level 2 instruction cache misses", NULL,
	    "L2_RQSTS:CODE_RD_MISS|" ZEN_L2 ":IC_FILL_MISS"),
	GN("l2_icr", "level 2 instruction cache reads", NULL,
	    "L2_RQSTS:ALL_CODE_RD|" ZEN_L2 ":" ZEN_L2_IHIT ":IC_FILL_MISS"),
	NONE("l2_icw", "level 2 instruction cache writes"),
	GN("l2_ldm", "level 2 load misses", NULL,
	    "L2_RQSTS:DEMAND_DATA_RD_MISS|L2D_READ_REFILL"),
	GN("l2_stm", "level 2 store misses", NULL,
	    "L2_RQSTS:RFO_MISS|L2D_WRITE_REFILL"),
	GN("l2_tca", "level 2 total cache accesses", NULL,
	    "L2_RQSTS:REFERENCES|"
	    ZEN_L2 ":" ZEN_L2_DHIT ":LS_RD_BLK_C:" ZEN_L2_IHIT
	    ":IC_FILL_MISS"),
	GN("l2_tch", "level 2 total cache hits", NULL,
	    ZEN_L2 ":" ZEN_L2_DHIT ":" ZEN_L2_IHIT),
	GN("l2_tcm", "level 2 total cache misses", NULL,
	    "L2_RQSTS:MISS|L2_RQSTS:ALL_DEMAND_MISS|"
	    ZEN_L2 ":LS_RD_BLK_C:IC_FILL_MISS"),
	NONE("l2_tcr", "level 2 total cache reads"),
	GN("l2_tcw", "level 2 total cache writes", NULL, "L2_RQSTS:ALL_RFO"),

	NONE("l3_dca", "level 3 data cache accesses"),
	NONE("l3_dch", "level 3 data cache hits"),
	NONE("l3_dcm", "level 3 data cache misses"),
	NONE("l3_dcr", "level 3 data cache reads"),
	NONE("l3_dcw", "level 3 data cache writes"),
	NONE("l3_ica", "level 3 instruction cache accesses"),
	NONE("l3_ich", "level 3 instruction cache hits"),
	NONE("l3_icm", "level 3 instruction cache misses"),
	NONE("l3_icr", "level 3 instruction cache reads"),
	NONE("l3_icw", "level 3 instruction cache writes"),
	GN("l3_ldm", "level 3 load misses", NULL, "MEM_LOAD_RETIRED:L3_MISS"),
	GN("l3_stm", "level 3 store misses", NULL,
	    "OFFCORE_RESPONSE_0:DMND_RFO:L3_MISS"),
	GN("l3_tca", "level 3 total cache accesses", NULL,
	    "LONGEST_LAT_CACHE:REFERENCE|LONGEST_LAT_CACHE:REFERENCES"),
	NONE("l3_tch", "level 3 total cache hits"),
	GN("l3_tcm", "level 3 total cache misses", NULL,
	    "LONGEST_LAT_CACHE:MISS"),
	NONE("l3_tcr", "level 3 total cache reads"),
	NONE("l3_tcw", "level 3 total cache writes"),

	GN("ld_ins", "load instructions", NULL,
	    "MEM_INST_RETIRED:ALL_LOADS|LS_DISPATCH:LD_DISPATCH|"
	    "INST_SPEC_EXEC_LOAD"),
	GN("lst_ins", "load/store instructions completed", NULL,
	    "MEM_INST_RETIRED:ANY|"
	    "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH:LD_ST_DISPATCH|"
	    "INST_SPEC_EXEC_LOAD_STORE"),
	NONE("lsu_idl", "cycles load/store units are idle"),
	GN("mem_rcy", "cycles stalled waiting for memory reads", NULL,
	    "CYCLE_ACTIVITY:STALLS_MEM_ANY"),
	NONE("mem_scy", "cycles stalled waiting for memory accesses"),
	GN("mem_wcy", "cycles stalled waiting for memory writes", NULL,
	    "EXE_ACTIVITY:BOUND_ON_STORES"),
	NONE("prf_dm", "data prefetch cache misses"),
	GN("ref_cyc", "reference clock cycles", "ref-cycles", NULL),
	GN("res_stl", "cycles stalled on any resource",
	    "stalled-cycles-backend", "RESOURCE_STALLS:ANY"),
	GN("sr_ins", "store instructions", NULL,
	    "MEM_INST_RETIRED:ALL_STORES|LS_DISPATCH:STORE_DISPATCH|"
	    "INST_SPEC_EXEC_STORE"),
	GN("stl_ccy", "cycles with no instructions completed", NULL,
	    "UOPS_RETIRED:STALL_CYCLES"),
	GN("stl_icy", "cycles with no instruction issue",
	    "stalled-cycles-frontend", "UOPS_ISSUED:STALL_CYCLES"),
	NONE("syc_ins", "synchronization instructions completed"),
	GN("tlb_dm", "data translation lookaside buffer misses", NULL,
	    ZEN_DTLB "|L1D_TLB_REFILL"),
	GN("tlb_im", "instruction translation lookaside buffer misses",
	    "iTLB-load-misses",
	    "ITLB_MISSES:MISS_CAUSES_A_WALK|ITLB_MISSES:WALK_COMPLETED|"
	    ZEN_ITLB "|L1I_TLB_REFILL"),
	NONE("tlb_sd", "translation lookaside buffer shootdowns"),
	NONE("tlb_tl", "total translation lookaside buffer misses"),
	NONE("tlb_tm", "total translation lookaside buffer misses"),
};
const size_t cpc_ngeneric_names = NELEM(cpc_generic_names);

/* ---- lookup ---- */

static int
lookup_perf(const char *name, struct cpc_event *ev)
{
	size_t i, c, o;
	int r;
	char buf[64];

	for (i = 0; i < cpc_nperf_names; i++)
		if (strcmp(name, cpc_perf_names[i].nm_name) == 0) {
			const struct cpc_named *ne = &cpc_perf_names[i];

			ev->ev_type = ne->nm_type;
			ev->ev_config = ne->nm_config;
			ev->ev_modes = ne->nm_modes;
			ev->ev_hw = ne->nm_type == PERF_TYPE_HARDWARE;
			ev->ev_kind = ev->ev_hw ? EVK_HARDWARE : EVK_SOFTWARE;
			return 0;
		}
	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(buf, sizeof(buf), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				if (strcmp(name, buf) != 0)
					continue;
				ev->ev_kind = EVK_HWCACHE;
				ev->ev_type = PERF_TYPE_HW_CACHE;
				ev->ev_config = c | o << 8 |
				    (uint64_t)(r ? PERF_COUNT_HW_CACHE_RESULT_MISS :
				    PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
				ev->ev_modes = 1;
				ev->ev_hw = 1;
				return 0;
			}
	return -1;
}

/* The catalogue's PMU has a native event for a generic name. */
static int
generic_native(const struct ev_ctx *ec, const struct cpc_generic *g,
    struct cpc_event *ev)
{
	char cand[CPC_MAX_EVENT_LEN], *p, *save = NULL;
	struct cpc_pmu pmu;

	/* Without a PMU to count on, libpfm4 is not worth starting. */
	if (g->gn_native == NULL || !ev_hw_known(ec) ||
	    cpc_pfm_describe(&pmu) != 0)
		return -1;
	snprintf(cand, sizeof(cand), "%s", g->gn_native);
	for (p = strtok_r(cand, "|", &save); p != NULL;
	    p = strtok_r(NULL, "|", &save))
		if (ev_native_lookup(ec, NULL, p, ev) == 0)
			return 0;
	return -1;
}

/* perf's names and PAPI_* (either spelling). */
int
ev_generic_lookup(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	const struct cpc_generic *g = NULL;
	struct cpc_pmu pmu;
	size_t i;

	memset(ev, 0, sizeof(*ev));
	if (strncasecmp(name, "PAPI_", 5) != 0)
		return lookup_perf(name, ev) == 0 ? 0 : 1;
	for (i = 0; i < cpc_ngeneric_names && g == NULL; i++)
		if (strcasecmp(name + 5, cpc_generic_names[i].gn_name) == 0)
			g = &cpc_generic_names[i];
	if (g == NULL)
		return 1;
	if (generic_native(ec, g, ev) == 0)
		return 0;
	if (g->gn_perf != NULL && lookup_perf(g->gn_perf, ev) == 0)
		return 0;
	if (!ev_hw_known(ec)) {
		ev_no_pmu_error(ec, fn, name);
		errno = ENOTSUP;
		return -1;
	}
	ev_err(ec, fn, CPC_INVALID_EVENT, "generic event '%s' (%s) has no "
	    "equivalent on this processor (%s); see generic_events(3)", name,
	    g->gn_desc, cpc_pfm_describe(&pmu) == 0 ? pmu.pm_desc :
	    "no hardware PMU known to libpfm4");
	errno = ENOTSUP;
	return -1;
}

/* ---- suggestions: every generic name ---- */

/*
 * The names offered for an unknown one, in this order: perf's, PAPI_*,
 * the cache events.  Made and sketched once per process (the tables do
 * not change); empty when memory ran short.
 */
static pthread_once_t names_once = PTHREAD_ONCE_INIT;
static struct ev_cand *names;
static size_t nnames;

static int
add_name(size_t *n, const char *fmt, const char *a, const char *b)
{
	char *name;

	if (asprintf(&name, fmt, a, b) < 0)
		return -1;
	ev_cand_set(&names[(*n)++], name, name);
	return 0;
}

static void
names_make(void)
{
	size_t i, c, o, n = 0;

	names = calloc(cpc_nperf_names + cpc_ngeneric_names +
	    2 * cpc_ncache_names * cpc_ncache_ops, sizeof(*names));
	if (names == NULL)
		return;
	for (i = 0; i < cpc_nperf_names; i++)
		if (add_name(&n, "%s%s", cpc_perf_names[i].nm_name, "") != 0)
			goto out_short;
	for (i = 0; i < cpc_ngeneric_names; i++)
		if (add_name(&n, "%s%s", "PAPI_",
		    cpc_generic_names[i].gn_name) != 0)
			goto out_short;
	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			if (add_name(&n, "%s-%s", cpc_cache_names[c],
			    cpc_cache_ops[o][0]) != 0 ||
			    add_name(&n, "%s-%s", cpc_cache_names[c],
			    cpc_cache_ops[o][1]) != 0)
				goto out_short;
	nnames = n;
	return;
out_short:
	while (n > 0)
		free((char *)names[--n].cd_key);
	free(names);
	names = NULL;
}

static void
ev_generic_suggest(const struct ev_ctx *ec, struct ev_suggest *sg,
    const char *name, const char *want)
{
	(void)ec;
	(void)name;
	pthread_once(&names_once, names_make);
	ev_suggest_offer_list(sg, want, names, nnames);
}

/* ---- listing ---- */

/* perf's hardware names (hw) or its software names (!hw). */
static void
walk_named(const struct ev_ctx *ec, struct ev_walk *w, int hw)
{
	const struct cpc_named *nm;
	size_t i;

	for (i = 0; i < cpc_nperf_names; i++) {
		nm = &cpc_perf_names[i];
		if ((nm->nm_type == PERF_TYPE_HARDWARE) != hw ||
		    !w->ew_want(w, nm->nm_name))
			continue;
		ev_emit(ec, w, nm->nm_name, hw ? "hardware" : "software",
		    nm->nm_desc, ev_generic_lookup);
	}
}

/* In the order of PERF_COUNT_HW_CACHE_*, as cpc_cache_names. */
static const char *const cache_desc[] = {
	"level 1 data cache", "level 1 instruction cache",
	"last-level cache", "data TLB", "instruction TLB",
	"branch prediction unit", "local memory node",
};
static const char *const op_desc[][2] = {
	{ "loads", "load misses" },
	{ "stores", "store misses" },
	{ "prefetches", "prefetch misses" },
};

static void
walk_cache(const struct ev_ctx *ec, struct ev_walk *w)
{
	char name[64], desc[EV_DESC_LEN];
	size_t c, o;
	int r;

	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(name, sizeof(name), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				if (!w->ew_want(w, name))
					continue;
				if (c < sizeof(cache_desc) / sizeof(*cache_desc) &&
				    o < sizeof(op_desc) / sizeof(*op_desc))
					snprintf(desc, sizeof(desc), "%s %s",
					    cache_desc[c], op_desc[o][r]);
				else
					snprintf(desc, sizeof(desc), "%s %s",
					    cpc_cache_names[c],
					    cpc_cache_ops[o][r]);
				ev_emit(ec, w, name, "cache", desc,
				    ev_generic_lookup);
			}
}

/* What a generic name stands for here, as the catalogue resolves it. */
static void
generic_target(const struct ev_ctx *ec, const struct cpc_generic *g,
    const struct cpc_event *ev, char *buf, size_t len)
{
	char cand[CPC_MAX_EVENT_LEN], *p, *save = NULL;
	struct cpc_event nev;

	snprintf(buf, len, "%s", g->gn_perf != NULL ? g->gn_perf : "?");
	if (ev->ev_kind != EVK_NATIVE || g->gn_native == NULL)
		return;
	snprintf(cand, sizeof(cand), "%s", g->gn_native);
	for (p = strtok_r(cand, "|", &save); p != NULL;
	    p = strtok_r(NULL, "|", &save))
		if (ev_native_lookup(ec, NULL, p, &nev) == 0) {
			snprintf(buf, len, "%s", p);
			return;
		}
}

static void
walk_generic(const struct ev_ctx *ec, struct ev_walk *w)
{
	const struct cpc_generic *g;
	char name[64], desc[EV_DESC_LEN], target[128];
	struct cpc_event ev;
	size_t i;
	int ok;

	for (i = 0; i < cpc_ngeneric_names; i++) {
		g = &cpc_generic_names[i];
		snprintf(name, sizeof(name), "PAPI_%s", g->gn_name);
		if (!w->ew_want(w, name))
			continue;
		if ((ok = ev_generic_lookup(ec, NULL, name, &ev) == 0)) {
			generic_target(ec, g, &ev, target, sizeof(target));
			snprintf(desc, sizeof(desc), "%s (%s)", g->gn_desc,
			    target);
		} else
			snprintf(desc, sizeof(desc), "%s (no equivalent on "
			    "this processor)", g->gn_desc);
		w->ew_emit(w, name, "generic", desc, ok ? &ev : NULL, 0);
	}
}

/* Every generic name, as --list-events shows them. */
static void
ev_generic_walk(const struct ev_ctx *ec, struct ev_walk *w)
{
	walk_named(ec, w, 1);
	walk_cache(ec, w);
	walk_named(ec, w, 0);
	walk_generic(ec, w);
}

/*
 * perf's names, as cpc_walk_events_all offers them: the hardware and
 * cache ones when hw, then the software ones.
 */
void
ev_generic_names(int hw, void *arg, void (*fn)(void *arg, const char *name))
{
	char name[64];
	size_t i, c, o;
	int r;

	for (i = 0; i < cpc_nperf_names; i++)
		if (cpc_perf_names[i].nm_type == PERF_TYPE_HARDWARE && hw)
			fn(arg, cpc_perf_names[i].nm_name);
	for (c = 0; c < cpc_ncache_names && hw; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(name, sizeof(name), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				fn(arg, name);
			}
	for (i = 0; i < cpc_nperf_names; i++)
		if (cpc_perf_names[i].nm_type != PERF_TYPE_HARDWARE)
			fn(arg, cpc_perf_names[i].nm_name);
}

const struct ev_kind ev_kind_generic = {
	.ek_name = "generic",
	.ek_lookup = ev_generic_lookup,
	.ek_walk = ev_generic_walk,
	.ek_suggest = ev_generic_suggest,
};
