/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * raw.c - the catalogue's raw codes: an x86 event select (0xc0, strtoull
 * base 0) as PERF_TYPE_RAW, with the umask, cmask, edge, inv, pc and
 * anythr attributes folded into the event-select layout.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "catalogue.h"

/* The attributes of raw codes: x86 event-select fields. */
static const struct ev_raw_attr raw_attrs[] = {
	{ "umask", 0xff, 8 },
	{ "cmask", 0xff, 24 },
	{ "edge", 1, 18 },
	{ "inv", 1, 23 },
	{ "pc", 1, 19 },
	{ "anythr", 1, 21 },
};
#define NRAWATTR	(sizeof(raw_attrs) / sizeof(*raw_attrs))

const struct ev_raw_attr *
ev_raw_attr(const char *name)
{
	size_t k;

	for (k = 0; k < NRAWATTR; k++)
		if (strcmp(name, raw_attrs[k].ra_name) == 0)
			return &raw_attrs[k];
	return NULL;
}

void
ev_raw_attrs(void *arg, void (*fn)(void *arg, const char *attr))
{
	size_t k;

	for (k = 0; k < NRAWATTR; k++)
		fn(arg, raw_attrs[k].ra_name);
}

/* A raw code: a name with a digit first. */
static int
ev_raw_lookup(const struct ev_ctx *ec, const char *fn, const char *name,
    struct cpc_event *ev)
{
	char *end;
	uint64_t code;

	if (!isdigit((unsigned char)name[0]))
		return 1;
	errno = 0;
	code = strtoull(name, &end, 0);
	if (*end != '\0') {
		ev_err(ec, fn, CPC_INVALID_EVENT, "invalid raw event code "
		    "'%s': not a decimal, 0x hexadecimal or 0 octal number",
		    name);
		return -1;
	}
	if (errno != 0) {
		ev_err(ec, fn, CPC_INVALID_EVENT, "invalid raw event code "
		    "'%s': out of range (at most 0xffffffffffffffff)", name);
		return -1;
	}
	memset(ev, 0, sizeof(*ev));
	ev->ev_kind = EVK_RAW;
	ev->ev_type = PERF_TYPE_RAW;
	ev->ev_config = code;
	ev->ev_hw = 1;
	ev->ev_modes = 1;
	ev->ev_attrs = 1;
	return 0;
}

const struct ev_kind ev_kind_raw = {
	.ek_name = "raw",
	.ek_lookup = ev_raw_lookup,
	.ek_walk = NULL,
	.ek_suggest = NULL,
};
