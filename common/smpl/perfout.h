/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perfout.h - --samples-format=perf: the samples in the text that
 * `perf script` prints by default for a recording with call chains,
 * which Firefox Profiler and speedscope import.  One block per sample:
 *
 *	COMM PID/TID [CPU] SECS.NANOSECS: [PERIOD ]EVENT:
 *	\tADDRESS SYMBOL+0xOFFSET (OBJECT)	one line per frame,
 *	...					innermost first
 *	(an empty line)
 *
 * COMM is the thread's name (/proc/PID/task/TID/comm, read at its first
 * sample; ":TID" when it cannot be read), padded to 15 columns; the time
 * is CLOCK_MONOTONIC; PERIOD (the events one sample stands for) is
 * there when -S names it with period=N; ADDRESS is hexadecimal without
 * 0x, SYMBOL "[unknown]" (and no +0x) when it cannot be named, OBJECT the
 * file's base name, [kernel.kallsyms] or a [module].  Without a call
 * chain (no -g) the one frame is the sample's program counter.  No
 * header: the first line is the first sample's.
 *
 * Not locked: the caller serializes.
 */
#ifndef PERFOUT_H
#define PERFOUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "strtoset.h"

struct perfout;
struct symtab;

/* A writer of records of the requests of sp to fp (the caller's). */
struct perfout	*perfout_create(FILE *fp, const struct spec *sp);
void		 perfout_destroy(struct perfout *po);
/* Read tid's name now, while it lives, if it is not known yet. */
void		 perfout_note(struct perfout *po, pid_t pid, pid_t tid);
/* pid exec'd: its threads' names are read again. */
void		 perfout_forget(struct perfout *po, pid_t pid);
/* Write record r of request req, named through st.  -1 out of memory. */
int		 perfout_record(struct perfout *po, struct symtab *st,
		    const uint64_t *r, int req);

#endif
