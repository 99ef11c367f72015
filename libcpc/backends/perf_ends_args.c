/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ends_args.c - the command line of an exec that CPC_BIND_LWP_ENDS
 * reports, taken from the new program's stack as the kernel set it up,
 * so that it is known however soon the program ends (a read of
 * /proc/<pid>/cmdline later finds nothing once it has).
 *
 * The tracepoint sched:sched_process_exec fires once the new image is
 * loaded: the thread's user registers are then those the program will
 * start with, its stack pointer at argc, argv[0..argc-1], and the
 * strings argv[0] points to lie a little higher on the same stack (past
 * the environment's pointers and the auxiliary vector).  A sample of the
 * whole CPU at that tracepoint, with the user stack pointer
 * (PERF_SAMPLE_REGS_USER) and ARGS_DUMP bytes of the stack from it
 * (PERF_SAMPLE_STACK_USER), holds them, and goes into the ring of that
 * CPU's dummy (it is written by the exec'ing thread on that CPU, as the
 * dummy's records are: one writer at a time).  The sample comes after
 * the exec's COMM record: perf_ends_walk.c holds the exec's report back
 * until its sample (or the process's exit, or PEND_STALE) comes.
 *
 * Only where the dummies are the whole CPUs' (the caller may), the
 * tracepoint's ID can be read, and on x86-64 and arm64 (the index of the
 * stack pointer in perf's user registers); a program of another ABI (a
 * 32-bit one on x86-64) or whose arguments lie past the dump is left to
 * /proc.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_ring.h"
#include "perf_ends_impl.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)
#endif

#if defined(__x86_64__)
#define REG_SP_BIT	(1ULL << 7)	/* PERF_REG_X86_SP */
#elif defined(__aarch64__)
#define REG_SP_BIT	(1ULL << 31)	/* PERF_REG_ARM64_SP */
#else
#define REG_SP_BIT	0
#endif

/* The tracepoint's ID, or -1. */
static long
exec_tp_id(void)
{
	const char *dir = cpc_tracefs_dir();
	char path[512], buf[32];

	if (dir == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/events/sched/sched_process_exec/id",
	    dir);
	if (cpc_read_small(path, buf, sizeof(buf)) != 0)
		return -1;
	return strtol(buf, NULL, 10);
}

int
cpc_ends_args_open(struct ering *r, int cpu)
{
	static long id = -2;
	struct perf_event_attr a;
	long fd;

	if (REG_SP_BIT == 0)
		return -1;
	if (id == -2)
		id = exec_tp_id();
	if (id < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.sample_period = 1;
	a.exclude_hv = 1;
	cpc_ends_common(&a);
	a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = REG_SP_BIT;
	a.sample_stack_user = ARGS_DUMP;
	fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl((int)fd, PERF_EVENT_IOC_SET_OUTPUT, r->r_fd) != 0) {
		close((int)fd);
		return -1;
	}
	r->r_afd = (int)fd;
	if (r->r_maxrec < ARGS_MAXREC)
		r->r_maxrec = ARGS_MAXREC;
	return 0;
}

/* n bytes of the ring at off into dst. */
static void
ring_copy(const struct ring *rg, uint64_t off, char *dst, size_t n)
{
	size_t at = (size_t)(off & (rg->rg_size - 1)), first;

	first = rg->rg_size - at < n ? rg->rg_size - at : n;
	memcpy(dst, rg->rg_data + at, first);
	memcpy(dst + first, rg->rg_data, n - first);
}

/*
 * The arguments in the sample at off (after its header): into *buf (of
 * *cap bytes, grown), each ended by a NUL (those whole in the dump, if
 * it ends first); their length, 0 when none can be read from it.
 */
size_t
cpc_ends_args_parse(const struct ring *rg, uint64_t off, char **buf,
    size_t *cap)
{
	/* id, pid and tid, time, then the registers' ABI */
	uint64_t at = off + 24, abi = ring_u64(rg, at), sp, size, dyn;
	uint64_t argc, argv0, start, i, nul = 0, last = 0;

	if (abi != PERF_SAMPLE_REGS_ABI_64)
		return 0;
	sp = ring_u64(rg, at + 8);
	size = ring_u64(rg, at + 16);
	at += 24;			/* the dump */
	if (size == 0 || size > ARGS_DUMP ||
	    (dyn = ring_u64(rg, at + size)) > size || dyn < 16)
		return 0;
	argc = ring_u64(rg, at);
	argv0 = ring_u64(rg, at + 8);
	if (argc == 0 || argv0 < sp || argv0 - sp >= dyn)
		return 0;
	start = argv0 - sp;
	if (*cap < dyn - start) {
		char *nb = realloc(*buf, (size_t)dyn);

		if (nb == NULL)
			return 0;
		*buf = nb;
		*cap = (size_t)dyn;
	}
	ring_copy(rg, at + start, *buf, (size_t)(dyn - start));
	/* The whole arguments, or those before the dump's end. */
	for (i = 0; i < dyn - start; i++)
		if ((*buf)[i] == '\0') {
			last = i + 1;
			if (++nul == argc)
				break;
		}
	return (size_t)last;
}
