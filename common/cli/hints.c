/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hints.c - perf's habits met with the option to use (hints.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "hints.h"
#include "strtoset.h"

/* perf's event modifiers; only u and k have a -c spelling (nouser, sys). */
#define PERF_MODS	"ukhIGHpPSDWeb"

struct pev {
	const char	*pe_name;	/* the event, without its modifiers */
	size_t		 pe_len;
	int		 pe_user, pe_sys;
};

/*
 * One event of perf's list, s[0..n): its name and modes.  -1 when it has
 * a modifier without a -c spelling.
 */
static int
perf_event(const char *s, size_t n, struct pev *e)
{
	const char *mods = NULL, *p;
	size_t i;

	/* pmu/terms/MODS; or NAME:MODS when all after the last ':' are */
	for (i = n; i > 0 && s[i - 1] != '/' && s[i - 1] != ':'; i--)
		;
	if (i > 0 && (s[i - 1] == '/' || i < n)) {
		for (p = s + i; p < s + n && strchr(PERF_MODS, *p) != NULL &&
		    *p != '\0'; p++)
			;
		if (p == s + n)
			mods = s + i;
	}
	e->pe_name = s;
	e->pe_len = mods == NULL ? n : (size_t)(mods - s) -
	    (mods[-1] == ':');
	e->pe_user = e->pe_sys = 1;	/* perf counts both by default */
	if (mods == NULL || mods == s + n)
		return e->pe_len == 0 ? -1 : 0;
	e->pe_user = e->pe_sys = 0;
	for (p = mods; p < s + n; p++) {
		if (*p == 'u')
			e->pe_user = 1;
		else if (*p == 'k')
			e->pe_sys = 1;
		else
			return -1;
	}
	return e->pe_len == 0 ? -1 : 0;
}

/* Append n bytes of text to buf at *off; -1 when they do not fit. */
static int
append(char *buf, size_t len, size_t *off, const char *text, size_t n)
{
	if (*off + n + 1 > len)
		return -1;
	memcpy(buf + *off, text, n);
	*off += n;
	buf[*off] = '\0';
	return 0;
}

/* The modes of event i (all, when i < 0): ",sys" and ",nouser" as set. */
static int
add_modes(char *buf, size_t len, size_t *off, const struct pev *e, int i)
{
	char t[32];
	int n;

	if (e->pe_sys) {
		n = i < 0 ? snprintf(t, sizeof(t), ",sys") :
		    snprintf(t, sizeof(t), ",sys%d", i);
		if (append(buf, len, off, t, (size_t)n) != 0)
			return -1;
	}
	if (!e->pe_user) {
		n = i < 0 ? snprintf(t, sizeof(t), ",nouser") :
		    snprintf(t, sizeof(t), ",nouser%d", i);
		if (append(buf, len, off, t, (size_t)n) != 0)
			return -1;
	}
	return 0;
}

/* perf's list split at its commas, outside pmu/.../ and without {}. */
static int
perf_list(const char *perf, struct pev *ev, int max)
{
	const char *s = perf, *start;
	int n = 0, in_pmu;

	while (*s != '\0') {
		if (*s == '{' || *s == '}' || *s == ',') {
			/* a group's own modifiers ({a,b}:u) are not spelt */
			if (*s == '}' && s[1] == ':')
				return -1;
			s++;
			continue;
		}
		for (start = s, in_pmu = 0; *s != '\0' && (in_pmu ||
		    (*s != ',' && *s != '{' && *s != '}')); s++)
			if (*s == '/')
				in_pmu = !in_pmu;
		if (n == max || perf_event(start, (size_t)(s - start),
		    &ev[n]) != 0)
			return -1;
		n++;
	}
	return n;
}

int
hint_perf_events(cpc_t *cpc, const char *perf, char *buf, size_t len)
{
	struct pev ev[SPEC_MAXPIC];
	struct spec sp;
	char msg[256];
	size_t off = 0;
	int n, i, same = 1;

	if (len == 0 || (n = perf_list(perf, ev, SPEC_MAXPIC)) <= 0)
		return -1;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		same &= ev[i].pe_user == ev[0].pe_user &&
		    ev[i].pe_sys == ev[0].pe_sys;
		if ((i > 0 && append(buf, len, &off, ",", 1) != 0) ||
		    append(buf, len, &off, ev[i].pe_name, ev[i].pe_len) != 0)
			return -1;
	}
	/* the modes: once for all, or per pic (event i is on pic i) */
	for (i = 0; i < (same ? 1 : n); i++)
		if (add_modes(buf, len, &off, &ev[i], same ? -1 : i) != 0)
			return -1;
	if (spec_parse_cpc(cpc, buf, &sp, msg, sizeof(msg)) != 0)
		return -1;
	spec_free(&sp);
	return 0;
}

const char *
hint_option(cpc_t *cpc, const char *tool, int ch, const char *arg,
    char *buf, size_t len)
{
	int cpustat = strcmp(tool, "cpustat") == 0;
	char spell[512];
	double secs = 0;

	switch (ch) {
	case 'e':
	case HINT_EVENT:
		if (arg != NULL && hint_perf_events(cpc, arg, spell,
		    sizeof(spell)) == 0)
			snprintf(buf, len, "invalid option '%s': events are "
			    "given with -c (perf's -e '%s' is -c '%s')",
			    ch == 'e' ? "-e" : "--event", arg, spell);
		else
			snprintf(buf, len, "invalid option '%s': events are "
			    "given with -c (see -h and --list-events)",
			    ch == 'e' ? "-e" : "--event");
		return buf;
	case 'a':
		snprintf(buf, len, cpustat ? "invalid option '-a': cpustat "
		    "always counts every CPU (-C cpulist counts some)" :
		    "invalid option '-a': cputrack counts a command or a "
		    "process (-p pid); cpustat counts every CPU");
		return buf;
	case 'I':
		if (arg != NULL && args_seconds(arg, 1, 1e9, &secs) == ARGS_OK)
			snprintf(spell, sizeof(spell), " (perf's -I %s is %s%g)",
			    arg, cpustat ? "the operand " : "-T ", secs / 1000);
		else
			spell[0] = '\0';
		snprintf(buf, len, "invalid option '-I': the interval is %s, "
		    "in seconds%s", cpustat ? "the first operand" : "-T",
		    spell);
		return buf;
	case 'x':
		snprintf(buf, len, "invalid option '-x': for comma-separated "
		    "output use --format=csv");
		return buf;
	}
	return NULL;
}

/*
 * The events of -c text are known names (this machine may still lack
 * them): a command's name is not taken for perf's event list.
 */
static int
known_events(cpc_t *cpc, const char *text)
{
	struct spec sp;
	cpc_set_t *set;
	char msg[256];
	int known;

	if (spec_parse_cpc(cpc, text, &sp, msg, sizeof(msg)) != 0)
		return 0;
	set = spec_build(cpc, &sp);
	known = set != NULL || errno != EINVAL;
	cpc_set_destroy(cpc, set);
	spec_free(&sp);
	return known;
}

const char *
hint_cputrack_e(cpc_t *cpc, const char *operand, char *buf, size_t len)
{
	char spell[512];

	if (operand != NULL && hint_perf_events(cpc, operand, spell,
	    sizeof(spell)) == 0 && known_events(cpc, spell))
		snprintf(buf, len, "; -e follows exec(2) here (perf's -e '%s' "
		    "is -c '%s')", operand, spell);
	else
		snprintf(buf, len, "; -e follows exec(2) here");
	return buf;
}

/* Process or thread pid exists and is not a kernel thread. */
static int
user_task(long pid)
{
	char path[64], line[1024], *p;
	unsigned long flags = 0;
	FILE *f;
	int i, ok = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), f) != NULL &&
	    (p = strrchr(line, ')')) != NULL) {
		/* after "pid (comm)": state, ppid, ... field 9 is flags */
		for (i = 3, p++; i < 9 && p != NULL; i++)
			p = strchr(p + 1, ' ');
		ok = p != NULL && sscanf(p, " %lu", &flags) == 1 &&
		    !(flags & 0x00200000);	/* PF_KTHREAD */
	}
	fclose(f);
	return ok;
}

const char *
hint_period(const char *arg, int nsets, char *buf, size_t len)
{
	unsigned long long pid;

	if (nsets > 1 || args_ulong(arg, 1, 0x7fffffff, &pid) != ARGS_OK ||
	    (pid_t)pid == getpid() || !user_task((long)pid))
		return NULL;
	snprintf(buf, len, "-p %s is the period, in seconds, of the rotation "
	    "of the -c sets; process %s is counted with cputrack -p %s", arg,
	    arg, arg);
	return buf;
}
