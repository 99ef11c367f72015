/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpulist.h - the kernel's CPU list syntax (Documentation/admin-guide/
 * kernel-parameters.rst, "cpu lists"; what /sys/devices/system/cpu/online
 * holds): comma-separated CPU numbers N, ranges N-M, and ranges with a
 * stride N-M:USED/GROUP (the first USED CPUs of every GROUP from N).
 */
#ifndef CPULIST_H
#define CPULIST_H

#include <sched.h>
#include <stddef.h>

/*
 * Parse s into set (CPUs 0 to CPU_SETSIZE - 1).  0, or -1 with a message
 * in err (which quotes the part at fault).  Duplicates and overlaps are
 * allowed, as the kernel allows them; no spaces, no empty list.
 */
int	cpulist_parse(const char *s, cpu_set_t *set, char *err,
	    size_t errlen);
/* set in the same syntax, ranges merged ("0-2,5"), into buf; "" if empty. */
char	*cpulist_format(const cpu_set_t *set, char *buf, size_t len);

#endif
