/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_ring.c - the sizes of perf_event rings (perf_ring.h).
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "backend.h"
#include "perf_ring.h"

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
