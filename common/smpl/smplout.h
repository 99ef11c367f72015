/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplout.h - the files the sampling options write: CSV fields
 * (--samples) and folded stacks (--folded), the one-line-per-stack
 * format "root;caller;leaf count" that flame-graph tools read.
 */
#ifndef SMPLOUT_H
#define SMPLOUT_H

#include <stdint.h>
#include <stdio.h>

/*
 * s as one CSV field (RFC 4180): as it is, or between double quotes
 * (with each " doubled) when it holds a comma, a quote, CR or LF, or
 * begins or ends with a space.
 */
void		 csv_field(FILE *fp, const char *s);

/* A 64-bit FNV-1a hash of s, for the tables of strings. */
uint64_t	 str_hash(const char *s);

struct folded;

struct folded	*folded_create(void);
void		 folded_destroy(struct folded *fd);
/* n more samples of stack (frames root first, joined by ';'). */
int		 folded_add(struct folded *fd, const char *stack, uint64_t n);
/*
 * Append a frame to the stack being built in *buf (size *len, grown as
 * needed): a ';' before it unless first, then "obj`name" (the object
 * that holds the function, as DTrace writes frames), or name alone when
 * obj is NULL.  Each ';', space, '`' or control character of obj and
 * name is replaced by '_' so that the line keeps its shape.  -1 when out
 * of memory.
 */
int		 folded_frame(char **buf, size_t *len, size_t *used,
		    const char *obj, const char *name);
/* Every stack and its count, sorted by stack; -1 on a write error. */
int		 folded_write(const struct folded *fd, FILE *fp);

#endif
