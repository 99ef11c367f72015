/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpulist.c - the kernel's CPU list syntax (see cpulist.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"

/*
 * A CPU number at *sp (digits only), moved past; -1 when there are none,
 * -2 when it is CPU_SETSIZE or more.
 */
static long
number(const char **sp)
{
	const char *s = *sp;
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++)
		if ((v = v * 10 + (*s - '0')) >= CPU_SETSIZE)
			v = CPU_SETSIZE;	/* no overflow, however long */
	*sp = s;
	return v >= CPU_SETSIZE ? -2 : v;
}

/* One element: N, N-M or N-M:USED/GROUP, ending at ',' or the end. */
static int
element(const char *s, size_t n, cpu_set_t *set, char *err, size_t errlen)
{
	const char *p = s, *end = s + n;
	long lo, hi = 0, used = 1, group = 1, i;

	if (n == 0) {
		snprintf(err, errlen, "empty element (two commas, or a comma "
		    "at an end)");
		return -1;
	}
	if ((lo = number(&p)) < 0)
		goto bad;
	hi = lo;
	if (p < end && *p == '-') {
		p++;
		if ((hi = number(&p)) < 0)
			goto bad;
		if (p < end && *p == ':') {
			p++;
			if ((used = number(&p)) < 0 || p >= end || *p != '/')
				goto bad;
			p++;
			if ((group = number(&p)) < 0)
				goto bad;
		}
	}
	if (p != end)
		goto bad;
	if (hi < lo) {
		snprintf(err, errlen, "'%.*s': a range goes up (N-M with N <= M)", (int)n, s);
		return -1;
	}
	if (used == 0 || group == 0 || used > group) {
		snprintf(err, errlen, "'%.*s': a stride USED/GROUP needs "
		    "1 <= USED <= GROUP", (int)n, s);
		return -1;
	}
	for (i = lo; i <= hi; i++)
		if ((i - lo) % group < used)
			CPU_SET(i, set);
	return 0;
bad:
	if (lo == -2 || hi == -2 || used == -2 || group == -2)
		snprintf(err, errlen, "'%.*s': CPU numbers go up to %d", (int)n,
		    s, CPU_SETSIZE - 1);
	else
		snprintf(err, errlen, "'%.*s' is not N, N-M or N-M:USED/GROUP",
		    (int)n, s);
	return -1;
}

int
cpulist_parse(const char *s, cpu_set_t *set, char *err, size_t errlen)
{
	cpu_set_t tmp;
	size_t n;

	CPU_ZERO(&tmp);
	if (*s == '\0') {
		snprintf(err, errlen, "empty list");
		return -1;
	}
	for (;;) {
		n = strcspn(s, ",");
		if (element(s, n, &tmp, err, errlen) != 0)
			return -1;
		if (s[n] == '\0')
			break;
		s += n + 1;
	}
	*set = tmp;
	return 0;
}

char *
cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int i, j;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < CPU_SETSIZE; i = j) {
		if (!CPU_ISSET(i, set)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < CPU_SETSIZE && CPU_ISSET(j, set); j++)
			;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off,
			    j - 1 > i ? "%s%d-%d" : "%s%d", off ? "," : "", i,
			    j - 1);
	}
	return buf;
}
