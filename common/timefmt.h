/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timefmt.h - the -T u|d timestamp lines.
 */
#ifndef TIMEFMT_H
#define TIMEFMT_H

#include <stdio.h>
#include <time.h>

/* 'u': seconds since the epoch; 'd': date(1)'s default format. */
void	tf_print(FILE *fp, char kind, time_t when);
/* 1 for a valid -T argument ("u" or "d"), with *kind set. */
int	tf_parse(const char *arg, char *kind);

#endif
