/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timefmt.h - cpustat's -T timestamps: seconds since the epoch ('u') or
 * date(1)'s default format ('d'), as text lines or as the machine
 * formats' columns.
 */
#ifndef TIMEFMT_H
#define TIMEFMT_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

/* 'u': seconds since the epoch; 'd': date(1)'s default format. */
void	tf_print(FILE *fp, char kind, time_t when);
/* when in date(1)'s default format into buf ("" if it does not fit). */
void	tf_date(char *buf, size_t len, time_t when);
/* 1 for a valid -T argument ("u" or "d"), with *kind set. */
int	tf_parse(const char *arg, char *kind);

#endif
