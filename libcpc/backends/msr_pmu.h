/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msr_pmu.h - the x86 PMU registers as the msr backend programs them
 * (msr_pmu.c): which model-specific register holds what, the event-select
 * bits, and the event codes of perf's generic hardware events.  Numbers
 * from Linux's arch/x86/include/asm/msr-index.h and perf_event.h.
 */
#ifndef CPC_MSR_PMU_H
#define CPC_MSR_PMU_H

#include <stdint.h>

#include "platform.h"

/* Event select (IA32_PERFEVTSELx, AMD PERF_CTLn). */
#define MSR_SEL_USR		(1ULL << 16)
#define MSR_SEL_OS		(1ULL << 17)
#define MSR_SEL_INT		(1ULL << 20)
#define MSR_SEL_EN		(1ULL << 22)

/* Intel architectural perfmon. */
#define MSR_IA32_PERFEVTSEL0	0x186
#define MSR_IA32_PMC0		0xc1
#define MSR_FIXED_CTR0		0x309
#define MSR_FIXED_CTR_CTRL	0x38d
#define MSR_PERF_GLOBAL_STATUS	0x38e
#define MSR_PERF_GLOBAL_CTRL	0x38f
#define MSR_PERF_GLOBAL_OVF_CTRL 0x390
/* FIXED_CTR_CTRL: four bits a counter; these two pick the modes. */
#define MSR_FIXED_OS		0x1ULL
#define MSR_FIXED_USR		0x2ULL

/* AMD. */
#define MSR_K7_EVNTSEL0		0xc0010000
#define MSR_K7_PERFCTR0		0xc0010004
#define MSR_F15H_PERF_CTL0	0xc0010200
#define MSR_F15H_PERF_CTR0	0xc0010201
#define MSR_AMD_GLOBAL_CTL	0xc0000301

/* General-purpose counter n's event select and count registers. */
uint32_t msr_sel_reg(const struct cpc_msr_pmu *p, int n);
uint32_t msr_ctr_reg(const struct cpc_msr_pmu *p, int n);
/* The bits of an event code that name the event (not modes, enable). */
uint64_t msr_code_mask(const struct cpc_msr_pmu *p);
/*
 * The event code of perf's generic hardware event config (cycles,
 * instructions, ...) on p; -1 when p has none.
 */
int	msr_generic_code(const struct cpc_msr_pmu *p, uint64_t config,
	    uint64_t *code);
/* A name for a generic hardware event (messages). */
const char *msr_generic_name(uint64_t config);

#endif /* CPC_MSR_PMU_H */
