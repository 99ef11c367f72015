/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timefmt.c - -T timestamps.
 */
#include "config.h"

#include <string.h>

#include "timefmt.h"

void
tf_date(char *buf, size_t len, time_t when)
{
	struct tm tm;

	localtime_r(&when, &tm);
	if (strftime(buf, len, "%a %b %e %H:%M:%S %Z %Y", &tm) == 0)
		buf[0] = '\0';
}

void
tf_print(FILE *fp, char kind, time_t when)
{
	char buf[128];

	if (kind == 'u') {
		fprintf(fp, "%lld\n", (long long)when);
		return;
	}
	tf_date(buf, sizeof(buf), when);
	fprintf(fp, "%s\n", buf);
}

int
tf_parse(const char *arg, char *kind)
{
	if (strcmp(arg, "u") != 0 && strcmp(arg, "d") != 0)
		return 0;
	*kind = arg[0];
	return 1;
}
