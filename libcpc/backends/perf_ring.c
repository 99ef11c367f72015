/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ring.c - the reader of perf_event rings and their sizes
 * (perf_ring.h).
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "backend.h"
#include "perf_ring.h"

void
cpc_ring_init(struct ring *rg, void *map, uint64_t size, uint64_t *tail)
{
	rg->rg_map = map;
	rg->rg_data = (const char *)map + cpc_ring_pagesz();
	rg->rg_size = size;
	rg->rg_head = *tail;
	rg->rg_tail = tail;
}

uint64_t
cpc_ring_head(const struct ring *rg)
{
	const struct perf_event_mmap_page *mp = rg->rg_map;

	return __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
}

void
cpc_ring_read_init(struct ring *rg)
{
	rg->rg_head = cpc_ring_head(rg);
}

struct perf_event_header
cpc_ring_header(const struct ring *rg, uint64_t off)
{
	struct perf_event_header h;
	uint64_t word = ring_u64(rg, off);

	memcpy(&h, &word, sizeof(h));
	return h;
}

int
cpc_ring_next(const struct ring *rg, struct perf_event_header *h)
{
	uint64_t tail = *rg->rg_tail;

	if (tail + sizeof(*h) > rg->rg_head)
		return 0;
	*h = cpc_ring_header(rg, tail);
	if (h->size < sizeof(*h) || tail + h->size > rg->rg_head)
		return -1;
	return 1;
}

void
cpc_ring_read_done(struct ring *rg)
{
	struct perf_event_mmap_page *mp = rg->rg_map;

	__atomic_store_n(&mp->data_tail, *rg->rg_tail, __ATOMIC_RELEASE);
}

void
cpc_ring_drop(struct ring *rg)
{
	cpc_ring_read_init(rg);
	*rg->rg_tail = rg->rg_head;
	cpc_ring_read_done(rg);
}

size_t
cpc_ring_pagesz(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

long
cpc_sysctl_long(const char *path, long dflt)
{
	char buf[32], *end;
	long v;

	if (cpc_read_small(path, buf, sizeof(buf)) != 0)
		return dflt;
	v = strtol(buf, &end, 10);
	return end != buf && *end == '\0' && v > 0 ? v : dflt;
}

size_t
cpc_ring_max_data(void)
{
	size_t pg = cpc_ring_pagesz(), d = pg;
	size_t lim = (size_t)cpc_sysctl_long(
	    "/proc/sys/kernel/perf_event_mlock_kb", 516) * 1024;

	while (d * 2 + pg <= lim)
		d *= 2;
	return d;
}
