/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pages.h - the page-fault oracle of the unit tests: one write to each
 * page of a fresh anonymous mapping takes exactly one page fault (huge
 * pages are refused with madvise, so one fault cannot map many pages).
 * Header-only: each test is one program.
 */
#ifndef PAGES_H
#define PAGES_H

#include <stddef.h>
#include <unistd.h>
#include <sys/mman.h>

static size_t pagesz;

/* A fresh mapping of n pages, none of them faulted in yet. */
static inline char *
fresh(size_t n)
{
	void *p;

	if (pagesz == 0)
		pagesz = (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, n * pagesz, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, n * pagesz, MADV_NOHUGEPAGE);
	return p;
}

/*
 * One write per page: n user-mode page faults on a fresh mapping.  Not
 * instrumented by AddressSanitizer, whose check of each store would read
 * (and fault in) the shadow of the fresh pages too.
 */
static void __attribute__((noinline, no_sanitize_address, unused))
touch(char *p, size_t n)
{
	volatile char *v = p;
	size_t i;

	for (i = 0; i < n; i++)
		v[i * pagesz] = 1;
}

#endif /* PAGES_H */
