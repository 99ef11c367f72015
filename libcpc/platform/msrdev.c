/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msrdev.c - the x86 msr and cpuid devices (the kernel's msr and cpuid
 * modules): DIR/N/msr reads and writes the model-specific register whose
 * number is the file offset, 8 bytes at a time; DIR/N/cpuid gives the 16
 * bytes eax, ebx, ecx, edx of the leaf at offset (subleaf << 32) | leaf.
 * DIR is CPC_MSR_ROOT, /dev/cpu by default (the tests point it at a
 * simulator mounted through FUSE).
 *
 * And what the msr backend needs to know of the processor behind them,
 * read from that CPUID (not the one this program runs on: they differ
 * under a simulator): its vendor, its counters and their width.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

const char *
cpc_msr_root(void)
{
	const char *r = getenv("CPC_MSR_ROOT");

	return r != NULL && r[0] != '\0' ? r : "/dev/cpu";
}

void
cpc_msr_path(int cpu, const char *what, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d/%s", cpc_msr_root(), cpu, what);
}

int
cpc_msr_open(int cpu, int rdwr)
{
	char path[256];

	cpc_msr_path(cpu, "msr", path, sizeof(path));
	return open(path, (rdwr ? O_RDWR : O_RDONLY) | O_CLOEXEC);
}

/* A short transfer is the driver's EIO (a register that is not there). */
int
cpc_msr_read(int fd, uint32_t reg, uint64_t *val)
{
	ssize_t n = pread(fd, val, sizeof(*val), (off_t)reg);

	if (n == (ssize_t)sizeof(*val))
		return 0;
	if (n >= 0)
		errno = EIO;
	return -1;
}

int
cpc_msr_write(int fd, uint32_t reg, uint64_t val)
{
	ssize_t n = pwrite(fd, &val, sizeof(val), (off_t)reg);

	if (n == (ssize_t)sizeof(val))
		return 0;
	if (n >= 0)
		errno = EIO;
	return -1;
}

int
cpc_msr_cpuid(int cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	char path[256];
	ssize_t n;
	int fd, e;

	cpc_msr_path(cpu, "cpuid", path, sizeof(path));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = pread(fd, r, 16, (off_t)((uint64_t)sub << 32 | leaf));
	e = errno;
	close(fd);
	if (n == 16)
		return 0;
	errno = n >= 0 ? EIO : e;
	return -1;
}

/* The Intel PMU: leaf 0xa (architectural performance monitoring). */
static int
intel_pmu(int cpu, struct cpc_msr_pmu *p, uint32_t maxleaf)
{
	uint32_t r[4], n;

	if (maxleaf < 0xa || cpc_msr_cpuid(cpu, 0xa, 0, r) != 0 ||
	    (r[0] & 0xff) == 0) {
		snprintf(p->mp_why, sizeof(p->mp_why), "the processor behind "
		    "%s/%d/cpuid has no architectural performance monitoring "
		    "(CPUID leaf 0xa version 0)", cpc_msr_root(), cpu);
		errno = ENOTSUP;
		return -1;
	}
	p->mp_version = (int)(r[0] & 0xff);
	p->mp_ngp = (int)(r[0] >> 8 & 0xff);
	p->mp_width = (int)(r[0] >> 16 & 0xff);
	/* EBX: a set bit is an architectural event that is missing. */
	n = r[0] >> 24 & 0xff;
	if (n > 31)
		n = 31;
	/* Beyond EBX's length (EAX[31:24]) every event is missing too. */
	p->mp_noarch = (r[1] & ((1u << n) - 1)) | ~((1u << n) - 1);
	if (p->mp_version > 1) {
		p->mp_nfixed = (int)(r[3] & 0x1f);
		p->mp_fwidth = (int)(r[3] >> 5 & 0xff);
	}
	if (p->mp_ngp > CPC_MSR_MAXGP)
		p->mp_ngp = CPC_MSR_MAXGP;
	if (p->mp_nfixed > CPC_MSR_MAXFIXED)
		p->mp_nfixed = CPC_MSR_MAXFIXED;
	snprintf(p->mp_name, sizeof(p->mp_name), "Intel Arch PerfMon v%d on "
	    "Family %u Model %u", p->mp_version, p->mp_family, p->mp_model);
	return 0;
}

/*
 * AMD: six counters in the core extension's bank (CPUID 0x80000001 ECX
 * bit 23), else the four legacy K7 ones; PerfMonV2 (0x80000022 EAX bit 0)
 * adds a global control and gives the number.  48 bits wide.
 */
static int
amd_pmu(int cpu, struct cpc_msr_pmu *p)
{
	uint32_t r[4], maxext = 0;

	if (cpc_msr_cpuid(cpu, 0x80000000, 0, r) == 0)
		maxext = r[0];
	p->mp_ngp = 4;
	p->mp_width = 48;
	if (maxext >= 0x80000001 && cpc_msr_cpuid(cpu, 0x80000001, 0, r) == 0 &&
	    (r[2] >> 23 & 1)) {
		p->mp_core_ext = 1;
		p->mp_ngp = 6;
	}
	if (maxext >= 0x80000022 && cpc_msr_cpuid(cpu, 0x80000022, 0, r) == 0 &&
	    (r[0] & 1)) {
		p->mp_version = 2;
		if ((r[1] & 0xf) != 0)
			p->mp_ngp = (int)(r[1] & 0xf);
	}
	if (p->mp_ngp > CPC_MSR_MAXGP)
		p->mp_ngp = CPC_MSR_MAXGP;
	snprintf(p->mp_name, sizeof(p->mp_name), "AMD Family %Xh Model %Xh, "
	    "%s counters%s", p->mp_family, p->mp_model, p->mp_core_ext ?
	    "core extension" : "legacy K7", p->mp_version >= 2 ?
	    ", PerfMonV2" : "");
	return 0;
}

int
cpc_msr_probe(int cpu, struct cpc_msr_pmu *p)
{
	char path[256];
	uint32_t r[4], maxleaf;
	char vendor[13];
	int fd, e;

	memset(p, 0, sizeof(*p));
	if ((fd = cpc_msr_open(cpu, 1)) < 0) {
		e = errno;
		cpc_msr_path(cpu, "msr", path, sizeof(path));
		if (e == ENOENT || e == ENXIO || e == ENODEV)
			snprintf(p->mp_why, sizeof(p->mp_why), "no msr device "
			    "%s: load the msr module (modprobe msr), or set "
			    "CPC_MSR_ROOT to where the devices are", path);
		else if (e == EACCES || e == EPERM)
			snprintf(p->mp_why, sizeof(p->mp_why), "no permission "
			    "to open %s: the msr backend needs root (read and "
			    "write access, and CAP_SYS_RAWIO)", path);
		else
			snprintf(p->mp_why, sizeof(p->mp_why), "cannot open "
			    "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	close(fd);
	if (cpc_msr_cpuid(cpu, 0, 0, r) != 0) {
		e = errno;
		cpc_msr_path(cpu, "cpuid", path, sizeof(path));
		snprintf(p->mp_why, sizeof(p->mp_why), "cannot read CPUID "
		    "from %s: %s (load the cpuid module: modprobe cpuid)", path,
		    strerror(e));
		errno = e;
		return -1;
	}
	maxleaf = r[0];
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = '\0';
	if (cpc_msr_cpuid(cpu, 1, 0, r) == 0) {
		p->mp_family = (r[0] >> 8 & 0xf) + (r[0] >> 20 & 0xff);
		p->mp_model = (r[0] >> 4 & 0xf) | (r[0] >> 12 & 0xf0);
	}
	if (strcmp(vendor, "GenuineIntel") == 0) {
		p->mp_vendor = CPC_VENDOR_INTEL;
		return intel_pmu(cpu, p, maxleaf);
	}
	if (strcmp(vendor, "AuthenticAMD") == 0 ||
	    strcmp(vendor, "HygonGenuine") == 0) {
		p->mp_vendor = CPC_VENDOR_AMD;
		return amd_pmu(cpu, p);
	}
	snprintf(p->mp_why, sizeof(p->mp_why), "the processor behind %s/%d "
	    "(%s) has no performance counters the msr backend knows (Intel "
	    "architectural perfmon or AMD)", cpc_msr_root(), cpu, vendor);
	errno = ENOTSUP;
	return -1;
}

/* The first CPU that has a device directory, else 0. */
int
cpc_msr_first_cpu(void)
{
	char path[256];
	int cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		cpc_msr_path(cpu, "cpuid", path, sizeof(path));
		if (access(path, F_OK) == 0)
			return cpu;
		if (cpc_cpu_state(cpu) < 0)
			break;
	}
	return 0;
}
