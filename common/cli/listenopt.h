/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listenopt.h - --listen=ADDR:PORT, both tools' exporter mode (serve.h):
 * the option, checked while parsing, and the server started before
 * counting does, or the tool exits saying why.
 */
#ifndef LISTENOPT_H
#define LISTENOPT_H

#include <stdio.h>

#include "serve.h"

#define CLI_OPT_LISTEN	0x240	/* --listen: no letter */
#define CLI_LONGOPT_LISTEN \
	{ "listen", required_argument, NULL, CLI_OPT_LISTEN }

/* --listen's argument, or a usage error when it is malformed. */
const char	*cli_listen_option(const char *arg);
/*
 * Listen on arg and start serving; NULL for no arg.  When it cannot (the
 * port in use, an address not this machine's, a name that does not
 * resolve), "--listen 'arg': why" and exit failstatus.
 */
struct srv	*cli_listen(const char *arg, int failstatus);
/* --help's lines for --listen. */
void		 cli_help_listen(FILE *fp);

#endif
