/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ring.h - the one reader of perf_event mmap rings (perf_ring.c),
 * used by sampling (perf_smpl.c), the LWP event reports (perf_lwpev*.c)
 * and the probe of the kernel (perf_lwpev_probe.c), as libperf reads:
 *
 *	cpc_ring_init		the ring of a mapping, read from *tail
 *	cpc_ring_read_init	the kernel's head taken: records before it
 *				are whole
 *	cpc_ring_next		the record at the tail, checked
 *	cpc_ring_consume	past it
 *	cpc_ring_read_done	the room read handed back (data_tail)
 *
 * The data pages as the kernel writes them: records 8-byte aligned, the
 * size a power of two pages, so one uint64_t never straddles the wrap.
 * And how large a ring may be.
 */
#ifndef CPC_PERF_RING_H
#define CPC_PERF_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

struct ring {
	void		*rg_map;	/* the control page, then the data */
	const char	*rg_data;
	uint64_t	 rg_size;	/* of the data: a power of two */
	uint64_t	 rg_head;	/* where this read stops */
	uint64_t	*rg_tail;	/* where the reader is */
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

/* The ring of map (a control page, then size bytes of data), at *tail. */
void	cpc_ring_init(struct ring *rg, void *map, uint64_t size,
	    uint64_t *tail);
/* The kernel's head now: the records before it are whole. */
uint64_t cpc_ring_head(const struct ring *rg);
/* A read begins: it stops at the head now (rg_head). */
void	cpc_ring_read_init(struct ring *rg);
/* The header of the record at off. */
struct perf_event_header cpc_ring_header(const struct ring *rg,
	    uint64_t off);
/*
 * The record at the tail: 1 and its header in *h; 0 when the read has
 * reached rg_head; -1 when damaged (shorter than its header, or going
 * past rg_head), *h then its header as it is.
 */
int	cpc_ring_next(const struct ring *rg, struct perf_event_header *h);
/* The reader past the record h, at its tail. */
static inline void
cpc_ring_consume(struct ring *rg, const struct perf_event_header *h)
{
	*rg->rg_tail += h->size;
}
/* The room read handed back to the kernel (data_tail at the tail). */
void	cpc_ring_read_done(struct ring *rg);
/* Every record written so far dropped, unread. */
void	cpc_ring_drop(struct ring *rg);

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
