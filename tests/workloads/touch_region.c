/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * touch_region - map N fresh pages, say where they are, and write one
 * byte to each once: exactly N page faults whose data addresses lie in
 * the region, one per page, for sampling page-faults with period 1.
 *
 * usage: touch_region N
 *
 * Prints "region <start> <end>" (hex, end exclusive) and "pagesize <n>"
 * on stdout, flushed, before the first write.  The mapping is anonymous,
 * private and never backed by huge pages.  N from 1 to 1000000.  Exit
 * status 0, 2 on a usage error, 1 when the mapping fails.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wl.h"

static void
usage(void)
{
	wl_usage("touch_region", "N");
}

int
main(int argc, char **argv)
{
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *mem;
	long n, i;

	if (argc != 2)
		usage();
	n = wl_num(argv[1], 1, 1000000, usage);
	mem = mmap(NULL, (size_t)n * pagesz, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("touch_region: mmap");
		return 1;
	}
	(void)madvise((void *)mem, (size_t)n * pagesz, MADV_NOHUGEPAGE);
	printf("region %#lx %#lx\npagesize %zu\n", (unsigned long)mem,
	    (unsigned long)(mem + (size_t)n * pagesz), pagesz);
	fflush(stdout);
	for (i = 0; i < n; i++)
		mem[(size_t)i * pagesz] = 1;
	return 0;
}
