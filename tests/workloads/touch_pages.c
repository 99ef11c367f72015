/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * touch_pages - take exactly N page faults: a known count for the
 * page-faults software event.
 *
 * usage: touch_pages [-c cpu] [-d delay_ms] [-a after_ms] count
 *
 *	-c cpu		pin to this CPU first, so every fault happens there
 *	-d delay_ms	sleep this long before faulting
 *	-a after_ms	sleep this long afterwards, before exiting
 *
 * A small anonymous mapping (never huge pages) is written one byte per
 * page; each write to a page that has no frame is one fault.  After every
 * pass the mapping is emptied with MADV_DONTNEED, so the next pass faults
 * on every page again.  The memory used stays small whatever the count.
 *
 * One pass is made before pinning, so that whatever else the first pass
 * faults in (the sanitizers' shadow of the mapping, lazily bound library
 * calls) is done on the CPU the program started on, not counted on cpu.
 * Exit status 0 when done, 2 on a usage error, 1 on a system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wl.h"

#define CHUNK	256	/* pages per pass */

/*
 * Write the first npages pages of mem, then give their frames back.  The
 * system call is made directly: AddressSanitizer's madvise() would also
 * drop the shadow of the mapping, to be faulted in again on every pass.
 */
static int
touch(volatile char *mem, long npages, size_t pagesz)
{
	long i;

	for (i = 0; i < npages; i++)
		mem[(size_t)i * pagesz] = 1;
	if (syscall(SYS_madvise, mem, CHUNK * pagesz, MADV_DONTNEED) != 0) {
		perror("touch_pages: madvise");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct wl_args a;
	long n, done, pass;
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *mem;

	wl_parse(argc, argv, "touch_pages", "count", &a);
	n = a.n;
	mem = mmap(NULL, CHUNK * pagesz, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("touch_pages: mmap");
		return 1;
	}
	/* One fault per 4 KiB page, never one per 2 MiB. */
	(void)madvise((void *)mem, CHUNK * pagesz, MADV_NOHUGEPAGE);
	if (touch(mem, CHUNK, pagesz) != 0)
		return 1;
	wl_sleep_ms(0);
	if (wl_pin(a.cpu, "touch_pages") != 0)
		return 1;
	wl_sleep_ms(a.delay);
	for (done = 0; done < n; done += pass) {
		pass = n - done < CHUNK ? n - done : CHUNK;
		if (touch(mem, pass, pagesz) != 0)
			return 1;
	}
	wl_sleep_ms(a.after);
	/* No exit-time work (a sanitizer's leak check) on the pinned CPU. */
	_exit(0);
}
