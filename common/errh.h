/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * errh.h - the tools' libcpc error handler.  libcpc reports a failure
 * through the handler; the tool keeps the message (per thread) and prints
 * it with its own context ("cpustat: -c 'foo': unknown event 'foo'").
 */
#ifndef ERRH_H
#define ERRH_H

#include <libcpc.h>

/* Install the capturing handler; debug adds the libcpc function name. */
void		 errh_install(cpc_t *cpc, int debug);
/* -D: messages name the function (libcpc's, or cpc_strtoset). */
int		 errh_debugging(void);
/* The calling thread's last libcpc message, "" when none; then clear. */
const char	*errh_last(void);
void		 errh_clear(void);
/*
 * Keep a message of the tool's own (for errors found in common/), made
 * safe to print (msgsafe.h) as libcpc's are.
 */
void		 errh_set(const char *fmt, ...)
		    __attribute__((format(printf, 1, 2)));

#endif
