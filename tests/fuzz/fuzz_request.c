/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_request - libFuzzer target for cpc_set_add_request: event names,
 * attributes (names and values), flags and presets, as an API caller
 * passes them.  Requests go into a new set, which is destroyed; nothing
 * is bound.
 *
 * An input is text, one request after another with a blank line between
 * them, each
 *
 *	event name
 *	flags			a number (strtoull, base 0)
 *	preset			a number
 *	attr=value		any number of lines (up to MAXATTR)
 *
 * Missing lines are 0; a number that does not parse is what strtoull
 * makes of it.  tests/fuzz/corpus/fuzz_request/ has the seeds.
 */
#include "fuzz.h"

#define MAXATTR	20

/* The next line of *s (cut at '\n'), NULL at the end of a request. */
static char *
next_line(char **s)
{
	char *line = *s, *nl;

	if (line == NULL || *line == '\n' || *line == '\0')
		return NULL;
	if ((nl = strchr(line, '\n')) != NULL) {
		*nl = '\0';
		*s = nl + 1;
	} else
		*s = line + strlen(line);
	return line;
}

static uint64_t
number(const char *s)
{
	return s != NULL ? strtoull(s, NULL, 0) : 0;
}

/* One request from *s; *s is left at the next one (or NULL). */
static void
add_one(cpc_set_t *set, char **s)
{
	cpc_attr_t attrs[MAXATTR];
	const char *event;
	uint64_t preset;
	uint_t flags, n = 0;
	char *line, *eq;

	if ((event = next_line(s)) == NULL)
		event = "";
	flags = (uint_t)number(next_line(s));
	preset = number(next_line(s));
	while ((line = next_line(s)) != NULL && n < MAXATTR) {
		if ((eq = strchr(line, '=')) != NULL)
			*eq++ = '\0';
		attrs[n].ca_name = line;
		attrs[n++].ca_val = number(eq);
	}
	(void)cpc_set_add_request(cpc, set, event, preset, flags, n,
	    n > 0 ? attrs : NULL);
	/* Past the blank line that ends this request. */
	while (**s == '\n')
		(*s)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *s = text;
	cpc_set_t *set;

	if ((set = cpc_set_create(cpc)) == NULL)
		abort();
	do
		add_one(set, &s);
	while (*s != '\0');
	if (cpc_set_destroy(cpc, set) != 0)
		abort();
	free(text);
	return 0;
}
