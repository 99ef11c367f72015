/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplcsv.h - the --samples file: one CSV line per record,
 *
 *	time,cpu,pid,tid,event,ip,addr,symbol
 *
 * time in seconds since the run's start with nine decimals, ip and addr
 * as printf's "%#" PRIx64 (0 without "0x"), event and symbol as CSV
 * fields (csv_field).  At 10 kHz a line is written every 100 us of a
 * CPU's time: each is formatted by hand into the stream's large buffer,
 * without printf, in one fwrite.
 */
#ifndef SMPLCSV_H
#define SMPLCSV_H

#include <stdint.h>

#include "strtoset.h"

struct smplcsv;

/*
 * path opened and its title line written, for the requests of sp (their
 * events' fields made once).  NULL with a message through errh_set.
 */
struct smplcsv	*smplcsv_open(const char *path, const struct spec *sp);
/* Record r of request req, t ns after the run's start, named sym. */
void		 smplcsv_line(struct smplcsv *cv, const uint64_t *r, int req,
		    int64_t t, const char *sym);
/* Flushed and closed: 0, or -1 with errno when it could not be written. */
int		 smplcsv_close(struct smplcsv *cv);

#endif
