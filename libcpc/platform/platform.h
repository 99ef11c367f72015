/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * platform.h - the bottom layer of libcpc: facts about this machine and
 * this process that every layer above may ask for, and the one function
 * that hands a message to an error handler.  Nothing here knows a handle,
 * a set or an event name.
 *
 *	report.c	cpc_report: the handler call, the default handler
 *	msgsafe.c	messages made safe to print (../msgsafe.h)
 *	clock.c		the overflow signal (the clocks of a sample: here)
 *	sysfs.c		the kernel's PMUs and tracefs
 *	pfm.c		libpfm4: initialised on first use, its core PMU
 *	cpuinfo.c	the processor: name, manual, counters, vendor
 *	msrdev.c	the x86 msr and cpuid devices (/dev/cpu/N/msr)
 *	cgroup.c	cgroups of the cgroup v2 hierarchy, wherever mounted
 */
#ifndef CPC_PLATFORM_H
#define CPC_PLATFORM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "libcpc.h"

#define CPC_EXPORT	__attribute__((visibility("default")))

/* report.c */
/*
 * Report through handler h (NULL: the default one, which prints
 * "libcpc: fn: message" to stderr).  fn NULL is a quiet probe: nothing
 * is reported.  fmt NULL uses the subcode's text.  errno is preserved.
 */
void	cpc_report(cpc_errhndlr_t *h, const char *fn, int subcode,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void	cpc_vreport(cpc_errhndlr_t *h, const char *fn, int subcode,
	    const char *fmt, va_list ap);
/* How many messages this thread has reported: did a call report one? */
unsigned long cpc_err_count(void);

/*
 * The clocks a sample is stamped with, inline: a sample runs them right
 * after its read(), where every instruction counts.
 */
/* CLOCK_MONOTONIC, ns */
static inline hrtime_t
cpc_hrnow(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The cycle counter: TSC on x86, the virtual counter on arm64. */
static inline uint64_t
cpc_ticknow(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#endif
}

/* sysfs.c */
#define CPC_SYSFS_PMUS	"/sys/bus/event_source/devices"
/* The kernel has a core PMU for the CPU (not just software events). */
int	cpc_hw_pmu_present(void);
/* The kernel has the PMU of that name: 1, 0, or -1 when sysfs cannot say. */
int	cpc_pmu_registered(const char *name);
/* The tracefs mount point, or NULL with errno ENOENT. */
const char *cpc_tracefs_dir(void);
/* CPU cpu is online (1), offline (0), or does not exist (-1). */
int	cpc_cpu_state(int cpu);
/* A small file's content without its trailing newline; -1 with errno. */
int	cpc_read_small(const char *path, char *buf, size_t len);

/*
 * The tracepoint systems of tracefs dir, and the events of one system:
 * NULL-ended lists of names, NULL when unreadable or empty.
 */
char	**cpc_tracefs_systems(const char *dir);
char	**cpc_tracefs_events(const char *dir, const char *sys);
void	cpc_tracefs_list_free(char **list);

/* lazy.c: libtracefs, loaded on first use. */
/* Its tracing directory (it mounts tracefs if need be), or NULL. */
const char *cpc_tracefs_lookup(void);

/* pfm.c: libpfm4, initialised on first use. */
struct cpc_pmu {
	char	pm_name[64];		/* libpfm4's: skl, arm_ac57 */
	char	pm_desc[128];		/* libpfm4's description */
	int	pm_ncntrs;		/* general-purpose counters */
	int	pm_nfixed;		/* fixed counters */
	int	pm_forced;		/* chosen by LIBPFM_FORCE_PMU */
};
/* libpfm4 is ready (initialised now if it was not); 0 when it failed. */
int	cpc_pfm_ready(void);
/* The catalogue's core PMU (libpfm4's index), -1 for none; inits. */
int	cpc_pfm_core(void);
/* LIBPFM_FORCE_PMU, NULL when unset (set but empty still forces). */
const char *cpc_pfm_forced(void);
/* The core PMU's description; -1 when libpfm4 has none. */
int	cpc_pfm_describe(struct cpc_pmu *pmu);
/* libpfm4 has been initialised (tests: resolving cycles must not). */
int	cpc_pfm_used(void);

/* cpuinfo.c */
enum cpc_vendor {
	CPC_VENDOR_OTHER, CPC_VENDOR_INTEL, CPC_VENDOR_AMD, CPC_VENDOR_ARM
};

/* Request slots on a machine without a hardware PMU. */
#define CPC_SOFT_NPIC	8

/* What cpc_cciname, cpc_cpuref and cpc_npic say, and whose layout. */
struct cpc_platform {
	int		 pf_hwpmu;	/* in: the kernel has a core PMU */
	int		 pf_msr;	/* in: the msr backend counts */
	uint_t		 pf_npic;
	int		 pf_ngp;	/* general-purpose counters */
	int		 pf_nfixed;	/* fixed ones; 0, 0: unknown */
	enum cpc_vendor	 pf_vendor;
	char		 pf_cciname[CPC_MAX_IMPL_NAME];
	char		 pf_cpuref[CPC_MAX_CPUREF];
};
/* Fill pf from the processor (or the forced libpfm4 table). */
void	cpc_platform_describe(struct cpc_platform *pf);
/*
 * Which fixed counter counts the event of perf type and config alone,
 * from 1; 0 for none.
 */
int	cpc_fixed_counter(enum cpc_vendor v, uint32_t type, uint64_t config);

/* msrdev.c: the msr and cpuid devices, under CPC_MSR_ROOT. */
#define CPC_MSR_MAXGP		8
#define CPC_MSR_MAXFIXED	4
struct cpc_msr_pmu {
	enum cpc_vendor	 mp_vendor;
	unsigned	 mp_family, mp_model;
	int		 mp_version;	/* Intel: leaf 0xa; AMD: 2 PerfMonV2 */
	int		 mp_ngp;	/* general-purpose counters */
	int		 mp_width;	/* their bits */
	int		 mp_nfixed;	/* Intel's fixed counters */
	int		 mp_fwidth;
	uint32_t	 mp_noarch;	/* Intel: missing architectural
					   events, bit n = leaf 0xa's n */
	int		 mp_core_ext;	/* AMD: the Fam15h+ PERF_CTL bank */
	char		 mp_name[96];	/* "Intel Arch PerfMon v4 on ..." */
	char		 mp_why[800];	/* why not, when the probe failed */
};
/* CPC_MSR_ROOT, else /dev/cpu. */
const char *cpc_msr_root(void);
/* ROOT/cpu/what into buf. */
void	cpc_msr_path(int cpu, const char *what, char *buf, size_t len);
/* ROOT/cpu/msr opened (read-write when rdwr); -1 with errno. */
int	cpc_msr_open(int cpu, int rdwr);
/* One register at offset reg; -1 with errno (EIO: no such register). */
int	cpc_msr_read(int fd, uint32_t reg, uint64_t *val);
int	cpc_msr_write(int fd, uint32_t reg, uint64_t val);
/* eax, ebx, ecx, edx of CPUID leaf/sub on cpu, from ROOT/cpu/cpuid. */
int	cpc_msr_cpuid(int cpu, uint32_t leaf, uint32_t sub, uint32_t r[4]);
/*
 * The counters of cpu's processor; -1 with errno and p->mp_why: ENOENT
 * (no device), EACCES (permission), ENOTSUP (no PMU the backend knows).
 */
int	cpc_msr_probe(int cpu, struct cpc_msr_pmu *p);
/* The first CPU with devices under the root (0 when none). */
int	cpc_msr_first_cpu(void);

/* cgroup.c */
/*
 * Where cgroup2 is mounted (the first such mount, found once), or -1
 * (ENOENT).
 */
int	cpc_cgroup2_root(char *buf, size_t len);
/*
 * The directory of the cgroup path names under the cgroup v2 hierarchy
 * (a leading '/' or none), opened read-only and close-on-exec; -1 with
 * errno and a message in msg: ENOENT (no such cgroup, or cgroup2 not
 * mounted), ENOTDIR, EINVAL (not of the cgroup v2 hierarchy).
 */
int	cpc_cgroup_open(const char *path, char *msg, size_t len);

#endif /* CPC_PLATFORM_H */
