/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ring.h - reading a perf_event mmap ring: its data pages as the
 * kernel writes them (records 8-byte aligned, the size a power of two
 * pages, so one uint64_t never straddles the wrap), and how large a ring
 * may be.  Shared by perf_smpl.c (sampling) and perf_ends.c (the counts
 * of ended threads); the sizes are in perf_ring.c.
 */
#ifndef CPC_PERF_RING_H
#define CPC_PERF_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ring {
	const char	*rg_data;
	uint64_t	 rg_size;
	uint64_t	 rg_head;
	uint64_t	*rg_tail;
};

static inline uint64_t
ring_u64(const struct ring *rg, uint64_t off)
{
	uint64_t v;

	memcpy(&v, rg->rg_data + (off & (rg->rg_size - 1)), sizeof(v));
	return v;
}

/* Two u32 in one u64, in memory order: the first, the second. */
static inline uint32_t
u32_first(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (uint32_t)(v >> 32);
#else
	return (uint32_t)v;
#endif
}

static inline uint32_t
u32_second(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (uint32_t)v;
#else
	return (uint32_t)(v >> 32);
#endif
}

/* The system's page size. */
size_t	cpc_ring_pagesz(void);
/* A positive number from a /proc/sys file, else dflt. */
long	cpc_sysctl_long(const char *path, long dflt);
/*
 * The largest ring data an unprivileged user may lock for one event: a
 * power of two of pages that, with the control page, fits
 * kernel.perf_event_mlock_kb (516 KiB by default: 512 KiB of data).
 */
size_t	cpc_ring_max_data(void);

#endif
