/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listenopt.c - --listen: its argument's syntax a usage error while
 * parsing (exit 2), the server's start an error of the run (the tool's
 * failure status), both before anything is counted.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "listenopt.h"
#include "usage.h"

const char *
cli_listen_option(const char *arg)
{
	char host[SRV_HOSTMAX], msg[512];
	unsigned port;
	int v6;

	if (srv_parse(arg, host, &v6, &port, msg, sizeof(msg)) != 0)
		cli_usage_error("invalid --listen '%s': %s", arg, msg);
	return arg;
}

struct srv *
cli_listen(const char *arg, int failstatus)
{
	char msg[512];
	struct srv *s;
	int usage;

	if (arg == NULL)
		return NULL;
	if ((s = srv_create(arg, SRV_TIMEOUT_MS, &usage, msg,
	    sizeof(msg))) == NULL) {
		if (usage)
			cli_usage_error("invalid --listen '%s': %s", arg, msg);
		cli_errx(failstatus, "--listen '%s': %s", arg, msg);
	}
	if (srv_start(s) != 0)
		cli_errx(failstatus, "--listen '%s': cannot start the "
		    "server's thread: %s", arg, strerror(errno));
	return s;
}

void
cli_help_listen(FILE *fp)
{
	fputs("\t--listen=addr:port\n"
	    "\t\t\tserve the counters over HTTP at /metrics as well\n"
	    "\t\t\t(Prometheus: OpenMetrics or the text format 0.0.4);\n"
	    "\t\t\taddr an IPv4 address, [IPv6] or a name, for example\n"
	    "\t\t\t127.0.0.1:9464 (loopback only)\n", fp);
}
