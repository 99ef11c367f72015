/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * caps.c - the -h capabilities listing, laid out as illumos prints it:
 * interface name, the event specification syntax, generic events, the
 * generic_events reference, platform events, attributes, the reference
 * document.  Then one paragraph of our own on the other forms of event
 * names, after everything a Solaris reader or script expects.
 *
 * Every name is followed by one space.  Before a name, if the column plus
 * its length plus one would pass column 76, a newline and the margin
 * (17 spaces for events, 20 for attributes) are written.  A list's first
 * line starts after its title ("\tevent[0-10]: "), counted as printed.
 * Text paragraphs start after a tab (column 8) and wrap with a newline
 * and a tab.
 */
#include "config.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"

#define WRAP		76
#define EVENT_MARGIN	17
#define ATTR_MARGIN	20
#define TEXT_COL	8

struct col {
	FILE	*c_fp;
	int	 c_col;
	int	 c_margin;
};

static void
put_name(struct col *c, const char *name)
{
	int len = (int)strlen(name);

	if (c->c_col + len + 1 > WRAP) {
		fprintf(c->c_fp, "\n%*s", c->c_margin, "");
		c->c_col = c->c_margin;
	}
	fprintf(c->c_fp, "%s ", name);
	c->c_col += len + 1;
}

static void
put_event(void *arg, uint_t pic, const char *name)
{
	(void)pic;
	put_name(arg, name);
}

/* The attributes a user may write: not the internal ones. */
static void
put_attr(void *arg, const char *name)
{
	if (strcmp(name, "picnum") != 0 &&
	    strcmp(name, "count_sibling_usr") != 0 &&
	    strcmp(name, "count_sibling_sys") != 0)
		put_name(arg, name);
}

/* One pic's platform events, concatenated, to compare the pics. */
struct evlist {
	char	*el_buf;
	size_t	 el_len;
};

static void
collect(void *arg, uint_t pic, const char *name)
{
	struct evlist *l = arg;
	size_t n = strlen(name);
	char *nb;

	(void)pic;
	if ((nb = realloc(l->el_buf, l->el_len + n + 2)) == NULL)
		err(1, "out of memory");
	l->el_buf = nb;
	memcpy(l->el_buf + l->el_len, name, n);
	l->el_len += n;
	l->el_buf[l->el_len++] = ' ';
	l->el_buf[l->el_len] = '\0';
}

/* Every pic has the same platform events (then one block serves all). */
static int
allpics_equal(cpc_t *cpc)
{
	struct evlist first = { NULL, 0 }, other;
	uint_t i, n = cpc_npic(cpc);
	int equal = 1;

	cpc_walk_events_pic(cpc, 0, &first, collect);
	for (i = 1; i < n && equal; i++) {
		other.el_buf = NULL;
		other.el_len = 0;
		cpc_walk_events_pic(cpc, i, &other, collect);
		equal = other.el_len == first.el_len &&
		    (first.el_len == 0 ||
		    memcmp(other.el_buf, first.el_buf, first.el_len) == 0);
		free(other.el_buf);
	}
	free(first.el_buf);
	return equal;
}

/* A list's title after a tab; the column where its names start. */
static int
put_title(FILE *fp, const char *title)
{
	fprintf(fp, "\n\t%s", title);
	return TEXT_COL + (int)strlen(title);
}

static void
event_blocks(FILE *fp, cpc_t *cpc, int generic, int equal)
{
	struct col c = { fp, EVENT_MARGIN, EVENT_MARGIN };
	uint_t i, n = cpc_npic(cpc);
	char title[32];

	if (equal) {
		snprintf(title, sizeof(title), "event[0-%u]: ", n - 1);
		c.c_col = put_title(fp, title);
		if (generic)
			cpc_walk_generic_events_pic(cpc, 0, &c, put_event);
		else
			cpc_walk_events_pic(cpc, 0, &c, put_event);
		fputc('\n', fp);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(title, sizeof(title), "event%u: %s", i,
		    i < 10 ? " " : "");
		c.c_col = put_title(fp, title);
		if (generic)
			cpc_walk_generic_events_pic(cpc, i, &c, put_event);
		else
			cpc_walk_events_pic(cpc, i, &c, put_event);
		fputc('\n', fp);
	}
}

/* A paragraph split on spaces, wrapped at WRAP after a tab. */
static void
put_text(FILE *fp, const char *text)
{
	char *buf, *w, *save = NULL;
	int col = TEXT_COL;

	if ((buf = strdup(text)) == NULL)
		err(1, "out of memory");
	fputc('\t', fp);
	for (w = strtok_r(buf, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		int len = (int)strlen(w);

		if (col > TEXT_COL && col + len + 1 > WRAP) {
			fputs("\n\t", fp);
			col = TEXT_COL;
		}
		fprintf(fp, "%s ", w);
		col += len + 1;
	}
	fputc('\n', fp);
	free(buf);
}

void
caps_print(FILE *fp, cpc_t *cpc)
{
	struct col c = { fp, ATTR_MARGIN, ATTR_MARGIN };
	const char *s;
	int equal = allpics_equal(cpc);

	if ((s = cpc_cciname(cpc)) == NULL || s[0] == '\0')
		s = "No information available";
	fprintf(fp, "\tCPU performance counter interface: %s\n\n", s);
	fputs("\tevent specification syntax:\n"
	    "\t[picn=]<eventn>[,attr[n][=<val>]][,[picn=]<eventn>"
	    "[,attr[n][=<val>]],...]\n", fp);
	fputs("\n\tGeneric Events:\n", fp);
	event_blocks(fp, cpc, 1, equal);
	fputs("\n\tSee generic_events(3) for descriptions of these "
	    "events\n\n", fp);
	fputs("\tPlatform Specific Events:\n", fp);
	event_blocks(fp, cpc, 0, equal);
	c.c_col = put_title(fp, "attributes: ");
	cpc_walk_attrs(cpc, &c, put_attr);
	put_name(&c, "nouser");
	put_name(&c, "sys");
	fputs("\n\n", fp);
	if ((s = cpc_cpuref(cpc)) == NULL || s[0] == '\0')
		s = "No information available";
	put_text(fp, s);
	fputc('\n', fp);
	put_text(fp, "Also accepted: tracepoints as system:event "
	    "(sched:sched_switch); sysfs PMU events as pmu/event/ or "
	    "pmu/term=val,.../ (msr/tsc/); the native names above, and "
	    "their EVENT:UMASK forms, with the name of their libpfm4 table "
	    "in front as pmu::EVENT:UMASK (skl::INST_RETIRED:ANY_P), for "
	    "the tables libpfm4 uses on this processor; raw event codes "
	    "(0xc0) with the attributes "
	    "above. --list-events[=PATTERN] lists every name with its kind "
	    "and whether it can be counted here.");
}
