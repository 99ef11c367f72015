/*
 * ev_tables.c - the named events: perf's generic names, the PAPI_*
 * generic events of Solaris, and the classic Solaris platform names, each
 * with a one-line description.  events.c resolves them; catalogue.c lists
 * them; generic_events(3CPC) documents them.
 */
#include "config.h"

#include <stddef.h>
#include <linux/perf_event.h>

#include "cpc_impl.h"

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
