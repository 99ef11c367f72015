/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_msr.c - the msr backend without a device: its register map and
 * generic event codes (backends/msr_pmu.c), the device probe's answers
 * where there is no device (platform/msrdev.c), and the choice of backend
 * at cpc_open with what binding under it says (per cgroup too).  msr.bats
 * counts through it over the simulator.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "msr_pmu.h"
#include "errmsg.h"
#include "tap.h"

static void
registers(void)
{
	struct cpc_msr_pmu p;

	memset(&p, 0, sizeof(p));
	p.mp_vendor = CPC_VENDOR_INTEL;
	tap_u64(msr_sel_reg(&p, 0), 0x186, "Intel PERFEVTSEL0");
	tap_u64(msr_sel_reg(&p, 3), 0x189, "Intel PERFEVTSEL3");
	tap_u64(msr_ctr_reg(&p, 2), 0xc3, "Intel PMC2");
	tap_u64(msr_code_mask(&p), 0xffa4ffffULL, "Intel code mask: "
	    "event, umask, edge, any, inv, cmask");
	p.mp_vendor = CPC_VENDOR_AMD;
	tap_u64(msr_sel_reg(&p, 3), 0xc0010003, "K7 EVNTSEL3");
	tap_u64(msr_ctr_reg(&p, 3), 0xc0010007, "K7 PERFCTR3");
	p.mp_core_ext = 1;
	tap_u64(msr_sel_reg(&p, 5), 0xc001020a, "F15h PERF_CTL5");
	tap_u64(msr_ctr_reg(&p, 5), 0xc001020b, "F15h PERF_CTR5");
	tap_u64(msr_code_mask(&p), 0x30fff84ffffULL, "AMD code mask: "
	    "and event 35:32, host/guest");
}

static void
generics(void)
{
	struct cpc_msr_pmu p;
	uint64_t code = 0;

	memset(&p, 0, sizeof(p));
	p.mp_vendor = CPC_VENDOR_INTEL;
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_CACHE_MISSES, &code) == 0 &&
	    code == 0x412e, "Intel cache-misses: 0x412e");
	p.mp_noarch = 1u << 4;		/* LLC misses missing */
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_CACHE_MISSES, &code) != 0,
	    "Intel cache-misses refused when leaf 0xa says it is missing");
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	    &code) != 0, "no stalled-cycles-frontend on Intel");
	p.mp_vendor = CPC_VENDOR_AMD;
	p.mp_family = 0x10;
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_CACHE_REFERENCES, &code) ==
	    0 && code == 0x077d, "AMD 10h cache-references: 0x077d");
	p.mp_family = 0x19;
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_CACHE_REFERENCES, &code) ==
	    0 && code == 0xff60, "Zen cache-references: 0xff60");
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_CPU_CYCLES, &code) == 0 &&
	    code == 0x76, "AMD cycles: 0x76");
	tap_ok(msr_generic_code(&p, PERF_COUNT_HW_REF_CPU_CYCLES, &code) != 0,
	    "no ref-cycles on AMD");
	tap_str(msr_generic_name(PERF_COUNT_HW_BRANCH_MISSES), "branch-misses",
	    "a generic event's name");
}

static void
probe(const char *dir)
{
	struct cpc_msr_pmu p;
	char want[600], path[512];
	int rc, e;
	FILE *f;

	unsetenv("CPC_MSR_ROOT");
	tap_str(cpc_msr_root(), "/dev/cpu", "the default root");
	setenv("CPC_MSR_ROOT", dir, 1);
	tap_str(cpc_msr_root(), dir, "CPC_MSR_ROOT");
	rc = cpc_msr_probe(0, &p);
	e = errno;
	tap_ok(rc == -1 && e == ENOENT, "no device: ENOENT (errno %d)", e);
	snprintf(want, sizeof(want), "no msr device %s/0/msr: load the msr "
	    "module (modprobe msr), or set CPC_MSR_ROOT to where the devices "
	    "are", dir);
	tap_str(p.mp_why, want, "no device: the message");
	/* An msr file but no cpuid device. */
	snprintf(path, sizeof(path), "%s/0", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/0/msr", dir);
	if ((f = fopen(path, "w")) != NULL)
		fclose(f);
	rc = cpc_msr_probe(0, &p);
	e = errno;
	tap_ok(rc == -1 && e == ENOENT, "no cpuid device: ENOENT (errno %d)",
	    e);
	snprintf(want, sizeof(want), "cannot read CPUID from %s/0/cpuid: No "
	    "such file or directory (load the cpuid module: modprobe cpuid)",
	    dir);
	tap_str(p.mp_why, want, "no cpuid device: the message");
	unlink(path);
	snprintf(path, sizeof(path), "%s/0", dir);
	rmdir(path);
}

/* A set of hardware events under msr counts whole CPUs only. */
static void
cgroup(cpc_t *cpc, cpc_set_t *set)
{
	char root[1024];
	int rc, e;

	if (cpc_cgroup2_root(root, sizeof(root)) != 0) {
		tap_skip("cgroup2 is not mounted",
		    "cpc_bind_cpu_cgroup under msr");
		return;
	}
	errmsg[0] = '\0';
	rc = cpc_bind_cpu_cgroup(cpc, 0, "/", set, 0);
	e = errno;
	tap_ok(rc == -1 && e == ENOTSUP, "cpc_bind_cpu_cgroup under msr: "
	    "ENOTSUP (errno %d)", e);
	tap_str(errmsg, "cgroup '/': the msr backend counts whole CPUs only, "
	    "not per cgroup (the kernel's cgroup mode of perf_event is "
	    "needed)", "cpc_bind_cpu_cgroup: the message");
}

static void
choice(const char *dir)
{
	cpc_t *cpc;
	cpc_set_t *set;
	char want[600];
	int rc, e;

	setenv("CPC_MSR_ROOT", dir, 1);
	setenv("CPC_BACKEND", "bogus", 1);
	errno = 0;
	cpc = cpc_open(CPC_VER_CURRENT);
	e = errno;
	tap_ok(cpc == NULL && e == EINVAL, "CPC_BACKEND=bogus: cpc_open fails "
	    "with EINVAL (errno %d)", e);
	setenv("CPC_BACKEND", "perf", 1);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_skip("no perf_event", "CPC_BACKEND=perf");
	} else {
		tap_ok(strstr(cpc_cciname(cpc), "msr") == NULL,
		    "CPC_BACKEND=perf: the interface is not msr's");
		cpc_close(cpc);
	}
	setenv("CPC_BACKEND", "msr", 1);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "CPC_BACKEND=msr: cpc_open: %s", strerror(errno));
		return;
	}
	cpc_seterrhndlr(cpc, keep_errmsg);
	tap_ok(cpc_have_hw_pmu(cpc) == 1, "CPC_BACKEND=msr: hardware events "
	    "are named");
	snprintf(want, sizeof(want), "msr backend, unusable: no msr device "
	    "%s/0/msr: load the msr module (modprobe msr), or set "
	    "CPC_MSR_ROOT to where the devices are", dir);
	tap_str(cpc_cciname(cpc), want, "cpc_cciname without the device");
	set = cpc_set_create(cpc);
	tap_ok(set != NULL && cpc_set_add_request(cpc, set, "cycles", 0,
	    CPC_COUNT_USER, 0, NULL) == 0, "cycles added");
	errmsg[0] = '\0';
	rc = cpc_bind_curlwp(cpc, set, 0);
	e = errno;
	tap_ok(rc == -1 && e == ENOTSUP, "cpc_bind_curlwp under msr: ENOTSUP "
	    "(errno %d)", e);
	tap_str(errmsg, "the msr backend counts whole CPUs only "
	    "(cpc_bind_cpu, cpustat): a thread's counts (cpc_bind_curlwp, "
	    "cpc_bind_pctx, cputrack) need perf_event and its PMU driver",
	    "cpc_bind_curlwp: the message");
	errmsg[0] = '\0';
	rc = cpc_bind_cpu(cpc, 0, set, 0);
	e = errno;
	tap_ok(rc == -1 && e == ENOENT, "cpc_bind_cpu without the device: "
	    "ENOENT (errno %d)", e);
	snprintf(want, sizeof(want), "no msr device %s/0/msr: load the msr "
	    "module (modprobe msr), or set CPC_MSR_ROOT to where the devices "
	    "are", dir);
	tap_str(errmsg, want, "cpc_bind_cpu: the message");
	cgroup(cpc, set);
	cpc_close(cpc);
	unsetenv("CPC_BACKEND");
}

int
main(void)
{
	char dir[] = "/tmp/t_msr.XXXXXX";

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	registers();
	generics();
	probe(dir);
	choice(dir);
	rmdir(dir);
	return tap_done();
}
