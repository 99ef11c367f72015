/*
 * caps.c - the -h capabilities listing: interface name, the event
 * specification syntax, generic and platform events, attributes, the
 * reference document.  Names wrap before column 76; event continuation
 * lines start at column 17, attribute lines at column 20.
 */
#include "config.h"

#include <string.h>

#include "caps.h"

#define WRAP	76

struct col {
	FILE	*c_fp;
	int	 c_col;
	int	 c_margin;
};

static void
put_name(void *arg, const char *name)
{
	struct col *c = arg;
	int len = (int)strlen(name);

	if (c->c_col + len + 1 > WRAP) {
		fprintf(c->c_fp, "\n%*s", c->c_margin, "");
		c->c_col = c->c_margin;
	}
	fprintf(c->c_fp, "%s ", name);
	c->c_col += len + 1;
}

static void
put_attr(void *arg, const char *name)
{
	if (strcmp(name, "picnum") != 0)
		put_name(arg, name);
}

static void
event_block(FILE *fp, cpc_t *cpc, int generic)
{
	struct col c = { fp, 17, 17 };
	uint_t n = cpc_npic(cpc);

	fprintf(fp, "\n\tevent[0-%u]: ", n - 1);
	if (generic)
		cpc_walk_generic_events_all(cpc, &c, put_name);
	else
		cpc_walk_events_all(cpc, &c, put_name);
	fputc('\n', fp);
}

/* The reference text, split on spaces, wrapped at WRAP after a tab. */
static void
put_text(FILE *fp, const char *text)
{
	char buf[1024], *w, *save = NULL;
	int col = 8;

	snprintf(buf, sizeof(buf), "%s", text);
	fputc('\t', fp);
	for (w = strtok_r(buf, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		int len = (int)strlen(w);

		if (col > 8 && col + len + 1 > WRAP) {
			fputs("\n\t", fp);
			col = 8;
		}
		fprintf(fp, "%s ", w);
		col += len + 1;
	}
	fputc('\n', fp);
}

void
caps_print(FILE *fp, cpc_t *cpc)
{
	struct col c = { fp, 20, 20 };

	fprintf(fp, "\tCPU performance counter interface: %s\n\n",
	    cpc_cciname(cpc));
	fputs("\tevent specification syntax:\n"
	    "\t[picn=]<eventn>[,attr[n][=<val>]][,[picn=]<eventn>"
	    "[,attr[n][=<val>]],...]\n", fp);
	fputs("\n\tGeneric Events:\n", fp);
	event_block(fp, cpc, 1);
	fputs("\n\tSee generic_events(3CPC) for descriptions of these "
	    "events\n\n", fp);
	fputs("\tPlatform Specific Events:\n", fp);
	event_block(fp, cpc, 0);
	fputs("\n\tTracepoints: <system>:<event>, such as "
	    "sched:sched_switch\n"
	    "\tsysfs PMU events: <pmu>/<term>=<val>,.../, such as msr/tsc/\n"
	    "\tRaw event codes: a number, such as 0xc0, with attributes\n",
	    fp);
	fputs("\n\tattributes: ", fp);
	cpc_walk_attrs(cpc, &c, put_attr);
	put_name(&c, "nouser");
	put_name(&c, "sys");
	fputs("\n\n", fp);
	put_text(fp, cpc_cpuref(cpc));
}
