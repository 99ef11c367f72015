/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msrsim - a simulated x86 PMU behind the kernel's msr and cpuid device
 * interface, served through FUSE, for testing libcpc's msr backend where
 * no machine has the msr module.
 *
 *   msrsim [--pmu intel|intel-v0|amd|amd-k7|amd-v2] [--cpus N] [--mult M]
 *	    MOUNTPOINT
 *
 * runs in the foreground until unmounted (fusermount3 -u MOUNTPOINT) and
 * serves, as root's, mode 0600:
 *
 *	cpu/N/msr	8 bytes at offset = register number, read or written
 *			(a multiple of 8 repeats the register, as the
 *			driver does); EIO for a register the PMU has not or
 *			a reserved bit written; EINVAL for another size;
 *			ENXIO once the CPU went away
 *	cpu/N/cpuid	16 bytes eax, ebx, ecx, edx of the leaf at offset
 *			(subleaf << 32) | leaf; EINVAL for another size
 *	log		every register write, one a line:
 *			"cpuN wrmsr 0xREG 0xVALUE"
 *	ctl		commands, one a write: "offline N" (cpu/N goes
 *			away: new opens ENOENT, open files ENXIO), "online N"
 *			(it comes back, its registers reset), "mult M",
 *			"clearlog", "wrmsr N REG VALUE" (not logged: another
 *			user of the registers), "chmod MODE" (of the msr
 *			files, 0600 at first; %lli: 0400 is octal)
 *
 * The PMUs:
 *	intel	GenuineIntel Family 6 Model 85, arch perfmon v4: four
 *		general-purpose counters (PERFEVTSEL 0x186.., PMC 0xc1..,
 *		full-width 0x4c1..), three fixed (0x309.., FIXED_CTR_CTRL
 *		0x38d), GLOBAL_STATUS/CTRL/OVF_CTRL 0x38e-0x390, 48 bits
 *	amd	AuthenticAMD Family 17h Model 1: six counters in the core
 *		extension bank (PERF_CTL 0xc0010200 + 2n, PERF_CTR after),
 *		the first four also at the legacy K7 addresses, 48 bits
 *	amd-k7	AuthenticAMD Family 10h Model 4: the four legacy counters
 *		(EVNTSEL 0xc0010000.., PERFCTR 0xc0010004..)
 *	intel-v0 the Intel one without architectural perfmon (leaf 0xa 0)
 *	amd-v2	AuthenticAMD Family 19h Model 11h (Zen 4): the core extension
 *		bank and PerfMonV2 (CPUID 0x80000022): a counter counts only
 *		with its bit in PerfCntrGlobalCtl 0xc0000301 (0 at reset);
 *		GlobalStatus 0xc0000300, GlobalStatusClr 0xc0000302
 *
 * The rule the tests know: each read of an enabled counter first advances
 * it, modulo 2^48, by
 *
 *	step = base * ((USR ? 1000 : 0) + (OS ? 1 : 0)) * mult
 *
 * base: a general-purpose counter's event code (bits 7:0, and 35:32 << 8
 * on AMD) plus its unit mask (15:8); fixed counter 0, 1, 2: 0xc0, 0x3c,
 * 0x03.  USR and OS are the select's bits 16 and 17 (FIXED_CTR_CTRL's
 * 1 and 0 for a fixed counter).  An Intel counter is enabled by its
 * select's bit 22 (a fixed one by a mode bit) and its GLOBAL_CTRL bit; a
 * wrap sets its GLOBAL_STATUS bit.  Reading nothing else advances
 * anything.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXCPU		64
#define WIDTH_MASK	((1ULL << 48) - 1)
#define NGP_INTEL	4
#define NFIXED		3
#define NGP_AMD		6
#define LOG_MAX		(16 << 20)

enum pmu { P_INTEL, P_AMD, P_K7, P_INTEL_V0, P_AMD_V2 };
#define IS_AMD	(g_pmu == P_AMD || g_pmu == P_K7 || g_pmu == P_AMD_V2)
#define CORE_EXT (g_pmu == P_AMD || g_pmu == P_AMD_V2)

struct cpu {
	int		online;
	uint64_t	sel[NGP_AMD];
	uint64_t	ctr[NGP_AMD];
	uint64_t	fixed[NFIXED];
	uint64_t	fixed_ctrl;
	uint64_t	global_ctrl;
	uint64_t	global_status;
};

static enum pmu g_pmu = P_INTEL;
static int g_ncpu = 2;
static uint64_t g_mult = 1;
static unsigned g_msrmode = 0600;
static struct cpu g_cpu[MAXCPU];
static char *g_log;
static size_t g_loglen;

/* What an open file is, in fi->fh. */
enum kind { K_MSR = 1, K_CPUID, K_LOG, K_CTL };
#define FH(kind, cpu)	((uint64_t)(kind) << 32 | (uint32_t)(cpu))

static void
cpu_reset(struct cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->online = 1;
	/* At reset every general-purpose counter's global bit is set. */
	if (!IS_AMD)
		c->global_ctrl = (1ULL << NGP_INTEL) - 1;
}

static void
log_write(int cpu, uint32_t reg, uint64_t v)
{
	char line[80];
	int n = snprintf(line, sizeof(line), "cpu%d wrmsr 0x%x 0x%llx\n", cpu,
	    reg, (unsigned long long)v);
	char *p;

	if (g_loglen + (size_t)n > LOG_MAX)
		return;
	if ((p = realloc(g_log, g_loglen + (size_t)n)) == NULL)
		return;
	g_log = p;
	memcpy(g_log + g_loglen, line, (size_t)n);
	g_loglen += (size_t)n;
}

static uint64_t
modes_factor(int usr, int os)
{
	return ((usr ? 1000 : 0) + (os ? 1 : 0)) * g_mult;
}

/* Advance a counter by step; 1 when it wrapped. */
static int
advance(uint64_t *ctr, uint64_t step)
{
	uint64_t sum = *ctr + step;

	*ctr = sum & WIDTH_MASK;
	return sum > WIDTH_MASK;
}

static uint64_t
gp_base(uint64_t sel)
{
	uint64_t ev = sel & 0xff;

	if (IS_AMD)
		ev |= (sel >> 32 & 0xf) << 8;
	return ev + (sel >> 8 & 0xff);
}

static void
tick_gp(struct cpu *c, int n)
{
	uint64_t s = c->sel[n];

	if (!(s >> 22 & 1))
		return;
	if ((!IS_AMD || g_pmu == P_AMD_V2) && !(c->global_ctrl >> n & 1))
		return;
	if (advance(&c->ctr[n], gp_base(s) * modes_factor(s >> 16 & 1,
	    s >> 17 & 1)) && (!IS_AMD || g_pmu == P_AMD_V2))
		c->global_status |= 1ULL << n;
}

static void
tick_fixed(struct cpu *c, int i)
{
	static const uint64_t base[NFIXED] = { 0xc0, 0x3c, 0x03 };
	uint64_t f = c->fixed_ctrl >> (4 * i) & 0xf;

	if (!(f & 3) || !(c->global_ctrl >> (32 + i) & 1))
		return;
	if (advance(&c->fixed[i], base[i] * modes_factor(f >> 1 & 1, f & 1)))
		c->global_status |= 1ULL << (32 + i);
}

/* AMD: the counter number of a select (*sel) or count register. */
static int
amd_reg(uint32_t reg, int *sel)
{
	if (CORE_EXT && reg >= 0xc0010200 && reg < 0xc0010200 +
	    2 * NGP_AMD) {
		*sel = (reg & 1) == 0;
		return (int)(reg - 0xc0010200) / 2;
	}
	if (reg >= 0xc0010000 && reg < 0xc0010004) {
		*sel = 1;
		return (int)(reg - 0xc0010000);
	}
	if (reg >= 0xc0010004 && reg < 0xc0010008) {
		*sel = 0;
		return (int)(reg - 0xc0010004);
	}
	return -1;
}

static int
rdmsr(struct cpu *c, uint32_t reg, uint64_t *v)
{
	int n, sel;

	if (g_pmu == P_AMD_V2 && reg >= 0xc0000300 && reg <= 0xc0000302) {
		*v = reg == 0xc0000300 ? c->global_status : reg == 0xc0000301 ?
		    c->global_ctrl : 0;
		return 0;
	}
	if (IS_AMD) {
		if ((n = amd_reg(reg, &sel)) < 0)
			return -EIO;
		if (!sel)
			tick_gp(c, n);
		*v = sel ? c->sel[n] : c->ctr[n];
		return 0;
	}
	if (reg >= 0x186 && reg < 0x186 + NGP_INTEL) {
		*v = c->sel[reg - 0x186];
	} else if ((reg >= 0xc1 && reg < 0xc1 + NGP_INTEL) ||
	    (reg >= 0x4c1 && reg < 0x4c1 + NGP_INTEL)) {
		n = (int)(reg & 0xf) - 1;
		tick_gp(c, n);
		*v = c->ctr[n];
	} else if (reg >= 0x309 && reg < 0x309 + NFIXED) {
		tick_fixed(c, (int)(reg - 0x309));
		*v = c->fixed[reg - 0x309];
	} else if (reg == 0x38d)
		*v = c->fixed_ctrl;
	else if (reg == 0x38e)
		*v = c->global_status;
	else if (reg == 0x38f)
		*v = c->global_ctrl;
	else if (reg == 0x390)
		*v = 0;
	else if (reg == 0x345)
		*v = 1ULL << 13;	/* full-width counter writes */
	else
		return -EIO;
	return 0;
}

static int
wrmsr(struct cpu *c, uint32_t reg, uint64_t v)
{
	int n, sel;

	if (g_pmu == P_AMD_V2 && reg == 0xc0000301) {
		if (v >> NGP_AMD != 0)
			return -EIO;
		c->global_ctrl = v;
		return 0;
	}
	if (g_pmu == P_AMD_V2 && reg == 0xc0000302) {
		c->global_status &= ~v;
		return 0;
	}
	if (IS_AMD) {
		if ((n = amd_reg(reg, &sel)) < 0)
			return -EIO;
		if (sel && (v >> 42) != 0)
			return -EIO;		/* reserved */
		if (sel)
			c->sel[n] = v;
		else
			c->ctr[n] = v & WIDTH_MASK;
		return 0;
	}
	if (reg >= 0x186 && reg < 0x186 + NGP_INTEL) {
		if (v >> 32 != 0)
			return -EIO;
		c->sel[reg - 0x186] = v;
	} else if (reg >= 0xc1 && reg < 0xc1 + NGP_INTEL) {
		/* The legacy address: 32 bits, sign-extended. */
		c->ctr[reg - 0xc1] = (uint64_t)(int64_t)(int32_t)v & WIDTH_MASK;
	} else if (reg >= 0x4c1 && reg < 0x4c1 + NGP_INTEL) {
		if (v & ~WIDTH_MASK)
			return -EIO;
		c->ctr[reg - 0x4c1] = v;
	} else if (reg >= 0x309 && reg < 0x309 + NFIXED) {
		if (v & ~WIDTH_MASK)
			return -EIO;
		c->fixed[reg - 0x309] = v;
	} else if (reg == 0x38d) {
		if (v >> (4 * NFIXED) != 0)
			return -EIO;
		c->fixed_ctrl = v;
	} else if (reg == 0x38f) {
		if (v & ~(((1ULL << NGP_INTEL) - 1) |
		    ((1ULL << NFIXED) - 1) << 32))
			return -EIO;
		c->global_ctrl = v;
	} else if (reg == 0x390)
		c->global_status &= ~v;
	else
		return -EIO;		/* read-only or not there */
	return 0;
}

static void
put_str(uint32_t *r, const char *s)	/* ebx, edx, ecx order */
{
	memcpy(&r[1], s, 4);
	memcpy(&r[3], s + 4, 4);
	memcpy(&r[2], s + 8, 4);
}

static void
cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	(void)sub;
	memset(r, 0, 16);
	if (g_pmu == P_INTEL || g_pmu == P_INTEL_V0) {
		switch (leaf) {
		case 0:
			r[0] = 0x16;
			put_str(r, "GenuineIntel");
			break;
		case 1:
			r[0] = 0x00050654;	/* family 6, model 0x55 */
			break;
		case 0xa:
			if (g_pmu == P_INTEL_V0)
				break;
			r[0] = 4 | NGP_INTEL << 8 | 48 << 16 | 7 << 24;
			r[3] = NFIXED | 48 << 5;
			break;
		case 0x80000000:
			r[0] = 0x80000008;
			break;
		}
		return;
	}
	switch (leaf) {
	case 0:
		r[0] = 0xd;
		put_str(r, "AuthenticAMD");
		break;
	case 1:
		/* 17h: base family 0xf + extended 8; 10h: + 1; 19h: + 0xa. */
		r[0] = g_pmu == P_AMD ? 0x00800f11 : g_pmu == P_AMD_V2 ?
		    0x00a10f11 : 0x00100f42;
		break;
	case 0x80000000:
		r[0] = g_pmu == P_AMD_V2 ? 0x80000028 : 0x8000001f;
		break;
	case 0x80000001:
		r[2] = CORE_EXT ? 1u << 23 : 0;		/* PerfCtrExtCore */
		break;
	case 0x80000022:
		if (g_pmu == P_AMD_V2) {
			r[0] = 1;			/* PerfMonV2 */
			r[1] = NGP_AMD;			/* NumPerfCtrCore */
		}
		break;
	}
}

/* "/cpu/N/what": N, and what in *kind; -1 when no such path. */
static int
parse(const char *path, enum kind *kind, int *dir)
{
	char what[16];
	int cpu, n = -1;

	*dir = 0;
	if (sscanf(path, "/cpu/%d%n", &cpu, &n) != 1 || n < 0)
		return -1;
	if (cpu < 0 || cpu >= g_ncpu || !g_cpu[cpu].online)
		return -1;
	if (path[n] == '\0') {
		*dir = 1;
		return cpu;
	}
	if (sscanf(path + n, "/%15s", what) != 1)
		return -1;
	if (strcmp(what, "msr") == 0)
		*kind = K_MSR;
	else if (strcmp(what, "cpuid") == 0)
		*kind = K_CPUID;
	else
		return -1;
	return cpu;
}

static int
sim_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	enum kind kind;
	int dir;

	(void)fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0 || strcmp(path, "/cpu") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/log") == 0 || strcmp(path, "/ctl") == 0) {
		st->st_mode = S_IFREG | (path[1] == 'l' ? 0444 : 0200);
		st->st_nlink = 1;
		return 0;
	}
	if (parse(path, &kind, &dir) < 0)
		return -ENOENT;
	st->st_mode = dir ? S_IFDIR | 0755 : S_IFREG | (kind == K_MSR ? g_msrmode :
	    0400);
	st->st_nlink = dir ? 2 : 1;
	return 0;
}

static int
sim_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
    struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	enum kind kind;
	char name[16];
	int i, dir;

	(void)off;
	(void)fi;
	(void)flags;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	if (strcmp(path, "/") == 0) {
		fill(buf, "cpu", NULL, 0, 0);
		fill(buf, "log", NULL, 0, 0);
		fill(buf, "ctl", NULL, 0, 0);
		return 0;
	}
	if (strcmp(path, "/cpu") == 0) {
		for (i = 0; i < g_ncpu; i++)
			if (g_cpu[i].online) {
				snprintf(name, sizeof(name), "%d", i);
				fill(buf, name, NULL, 0, 0);
			}
		return 0;
	}
	if (parse(path, &kind, &dir) < 0 || !dir)
		return -ENOENT;
	fill(buf, "msr", NULL, 0, 0);
	fill(buf, "cpuid", NULL, 0, 0);
	return 0;
}

static int
sim_open(const char *path, struct fuse_file_info *fi)
{
	enum kind kind;
	int cpu, dir;

	fi->direct_io = 1;
	fi->nonseekable = 0;
	if (strcmp(path, "/log") == 0) {
		fi->fh = FH(K_LOG, 0);
		return 0;
	}
	if (strcmp(path, "/ctl") == 0) {
		fi->fh = FH(K_CTL, 0);
		return 0;
	}
	if ((cpu = parse(path, &kind, &dir)) < 0 || dir)
		return -ENOENT;
	if (kind == K_CPUID && (fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	fi->fh = FH(kind, cpu);
	return 0;
}

static int
sim_read(const char *path, char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	enum kind kind = (enum kind)(fi->fh >> 32);
	int cpu = (int)(uint32_t)fi->fh, rc;
	uint64_t v;
	uint32_t r[4];
	size_t i;

	(void)path;
	if (kind == K_LOG) {
		if ((size_t)off >= g_loglen)
			return 0;
		if (size > g_loglen - (size_t)off)
			size = g_loglen - (size_t)off;
		memcpy(buf, g_log + off, size);
		return (int)size;
	}
	if (kind == K_CTL)
		return -EINVAL;
	if (!g_cpu[cpu].online)
		return -ENXIO;
	if (kind == K_CPUID) {
		if (size % 16 != 0)
			return -EINVAL;
		cpuid((uint32_t)off, (uint32_t)((uint64_t)off >> 32), r);
		for (i = 0; i < size; i += 16)
			memcpy(buf + i, r, 16);
		return (int)size;
	}
	if (size % 8 != 0)
		return -EINVAL;
	for (i = 0; i < size; i += 8) {
		if ((rc = rdmsr(&g_cpu[cpu], (uint32_t)off, &v)) != 0)
			return rc;
		memcpy(buf + i, &v, 8);
	}
	return (int)size;
}

static int
ctl(const char *cmd)
{
	unsigned long long a, b, c;
	char verb[16];
	int n;

	n = sscanf(cmd, "%15s %lli %lli %lli", verb, &a, &b, &c);
	if (n == 1 && strcmp(verb, "clearlog") == 0) {
		g_loglen = 0;
		return 0;
	}
	if (n == 2 && strcmp(verb, "mult") == 0) {
		g_mult = a;
		return 0;
	}
	if (n == 2 && strcmp(verb, "chmod") == 0) {
		g_msrmode = (unsigned)a & 0777;
		return 0;
	}
	if (n >= 2 && a >= (unsigned long long)g_ncpu)
		return -EINVAL;
	if (n == 2 && strcmp(verb, "offline") == 0) {
		g_cpu[a].online = 0;
		return 0;
	}
	if (n == 2 && strcmp(verb, "online") == 0) {
		if (!g_cpu[a].online)
			cpu_reset(&g_cpu[a]);
		return 0;
	}
	if (n == 4 && strcmp(verb, "wrmsr") == 0)
		return wrmsr(&g_cpu[a], (uint32_t)b, c);
	return -EINVAL;
}

static int
sim_write(const char *path, const char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	enum kind kind = (enum kind)(fi->fh >> 32);
	int cpu = (int)(uint32_t)fi->fh, rc;
	char cmd[128];
	uint64_t v;
	size_t i;

	(void)path;
	if (kind == K_CTL) {
		if (size >= sizeof(cmd))
			return -EINVAL;
		memcpy(cmd, buf, size);
		cmd[size] = '\0';
		return (rc = ctl(cmd)) != 0 ? rc : (int)size;
	}
	if (kind != K_MSR)
		return -EBADF;
	if (!g_cpu[cpu].online)
		return -ENXIO;
	if (size % 8 != 0)
		return -EINVAL;
	for (i = 0; i < size; i += 8) {
		memcpy(&v, buf + i, 8);
		if ((rc = wrmsr(&g_cpu[cpu], (uint32_t)off, v)) != 0)
			return rc;
		log_write(cpu, (uint32_t)off, v);
	}
	return (int)size;
}

static int
sim_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)path;
	(void)size;
	(void)fi;
	return 0;
}

static void *
sim_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->kernel_cache = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = sim_init,
	.getattr = sim_getattr,
	.readdir = sim_readdir,
	.open = sim_open,
	.read = sim_read,
	.write = sim_write,
	.truncate = sim_truncate,
};

static void
usage(void)
{
	fprintf(stderr, "usage: msrsim [--pmu intel|intel-v0|amd|amd-k7|"
	    "amd-v2] [--cpus N] "
	    "[--mult M] MOUNTPOINT\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	char *fargv[8];
	const char *mnt = NULL;
	int i, fargc = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--pmu") == 0 && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "intel") == 0)
				g_pmu = P_INTEL;
			else if (strcmp(argv[i], "amd") == 0)
				g_pmu = P_AMD;
			else if (strcmp(argv[i], "amd-k7") == 0)
				g_pmu = P_K7;
			else if (strcmp(argv[i], "intel-v0") == 0)
				g_pmu = P_INTEL_V0;
			else if (strcmp(argv[i], "amd-v2") == 0)
				g_pmu = P_AMD_V2;
			else
				usage();
		} else if (strcmp(argv[i], "--cpus") == 0 && i + 1 < argc) {
			g_ncpu = atoi(argv[++i]);
			if (g_ncpu < 1 || g_ncpu > MAXCPU)
				usage();
		} else if (strcmp(argv[i], "--mult") == 0 && i + 1 < argc)
			g_mult = strtoull(argv[++i], NULL, 0);
		else if (argv[i][0] != '-' && mnt == NULL)
			mnt = argv[i];
		else
			usage();
	}
	if (mnt == NULL)
		usage();
	for (i = 0; i < g_ncpu; i++)
		cpu_reset(&g_cpu[i]);
	fargv[fargc++] = argv[0];
	fargv[fargc++] = (char *)"-f";
	fargv[fargc++] = (char *)"-s";
	fargv[fargc++] = (char *)"-o";
	fargv[fargc++] = (char *)"allow_other,default_permissions,fsname=msrsim";
	fargv[fargc++] = (char *)mnt;
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL);
}
