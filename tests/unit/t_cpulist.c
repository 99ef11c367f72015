/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_cpulist - the -C list syntax (common/cli/cpulist.c): what each list
 * selects, shown in the same syntax, and each malformed list refused with
 * its message; and perf's -e lists in the -c syntax (common/cli/hints.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cpulist.h"
#include "hints.h"
#include "tap.h"

static const struct {
	const char	*in;
	const char	*want;	/* the set, formatted */
} good[] = {
	{ "0", "0" },
	{ "3", "3" },
	{ "0,2-3", "0,2-3" },
	{ "2-3,0", "0,2-3" },
	{ "0-3,1,2", "0-3" },		/* overlaps are allowed */
	{ "1,1", "1" },
	{ "0-15:2/4", "0-1,4-5,8-9,12-13" },
	{ "1-10:1/3", "1,4,7,10" },
	{ "0-3:4/4", "0-3" },
	{ "1023", "1023" },
	{ "0007", "7" },
};

static const struct {
	const char	*in;
	const char	*msg;
} bad[] = {
	{ "", "empty list" },
	{ "0,,1", "empty element (two commas, or a comma at an end)" },
	{ "0,", "empty element (two commas, or a comma at an end)" },
	{ ",0", "empty element (two commas, or a comma at an end)" },
	{ "3-1", "'3-1': a range goes up (N-M with N <= M)" },
	{ "1024", "'1024': CPU numbers go up to 1023" },
	{ "0-99999999999999999999", "'0-99999999999999999999': CPU numbers "
	    "go up to 1023" },
	{ "x", "'x' is not N, N-M or N-M:USED/GROUP" },
	{ "-1", "'-1' is not N, N-M or N-M:USED/GROUP" },
	{ "+1", "'+1' is not N, N-M or N-M:USED/GROUP" },
	{ "1-", "'1-' is not N, N-M or N-M:USED/GROUP" },
	{ "0 1", "'0 1' is not N, N-M or N-M:USED/GROUP" },
	{ "0-3:2", "'0-3:2' is not N, N-M or N-M:USED/GROUP" },
	{ "0:1/2", "'0:1/2' is not N, N-M or N-M:USED/GROUP" },
	{ "0-3:0/2", "'0-3:0/2': a stride USED/GROUP needs 1 <= USED <= "
	    "GROUP" },
	{ "0-3:3/2", "'0-3:3/2': a stride USED/GROUP needs 1 <= USED <= "
	    "GROUP" },
	{ "0-3:1/0", "'0-3:1/0': a stride USED/GROUP needs 1 <= USED <= "
	    "GROUP" },
	{ "1;2", "'1;2' is not N, N-M or N-M:USED/GROUP" },
};

/* perf's -e and its -c spelling ("" = none). */
static const struct {
	const char	*perf;
	const char	*want;
} perf[] = {
	{ "cpu-clock", "cpu-clock,sys" },
	{ "cpu-clock:u", "cpu-clock" },
	{ "cpu-clock:k", "cpu-clock,sys,nouser" },
	{ "cpu-clock:uk", "cpu-clock,sys" },
	{ "cpu-clock:u,page-faults:u", "cpu-clock,page-faults" },
	{ "cpu-clock:u,page-faults:k", "cpu-clock,page-faults,sys1,nouser1" },
	{ "cpu-clock,page-faults:u", "cpu-clock,page-faults,sys0" },
	{ "{cpu-clock,page-faults}", "cpu-clock,page-faults,sys" },
	{ "sched:sched_switch", "sched:sched_switch,sys" },
	{ "INST_RETIRED:ANY_P:u", "INST_RETIRED:ANY_P" },
	{ "msr/tsc/u", "msr/tsc/" },
	{ "cpu/event=0x3c,umask=0/k,cs", "cpu/event=0x3c,umask=0/,cs,sys0,"
	    "nouser0,sys1" },
	{ "cycles:pp", "" },		/* precise: no -c spelling */
	{ "cpu-clock:h", "" },
	{ "{cpu-clock,cs}:u", "" },	/* a group's modifiers */
	{ ":u", "" },
	{ "", "" },
};

int
main(void)
{
	char err[256], buf[512], name[128];
	cpu_set_t set;
	cpc_t *cpc;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		rc = cpulist_parse(good[i].in, &set, err, sizeof(err));
		snprintf(name, sizeof(name), "'%s' is %s", good[i].in,
		    good[i].want);
		if (!tap_ok(rc == 0, "%s: parses", name))
			printf("#   %s\n", err);
		tap_str(cpulist_format(&set, buf, sizeof(buf)), good[i].want,
		    name);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CPU_ZERO(&set);
		CPU_SET(5, &set);
		rc = cpulist_parse(bad[i].in, &set, err, sizeof(err));
		tap_ok(rc == -1 && CPU_ISSET(5, &set) && CPU_COUNT(&set) == 1,
		    "'%s' is refused, the set untouched", bad[i].in);
		tap_str(err, bad[i].msg, "... with its message");
	}
	CPU_ZERO(&set);
	tap_str(cpulist_format(&set, buf, sizeof(buf)), "", "no CPU: ''");

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		return tap_done();
	for (i = 0; i < sizeof(perf) / sizeof(*perf); i++) {
		rc = hint_perf_events(cpc, perf[i].perf, buf, sizeof(buf));
		if (perf[i].want[0] == '\0')
			tap_ok(rc == -1, "perf's -e '%s' has no -c spelling",
			    perf[i].perf);
		else if (tap_ok(rc == 0, "perf's -e '%s' is spelt",
		    perf[i].perf))
			tap_str(buf, perf[i].want, "... as its -c");
	}
	rc = hint_perf_events(cpc, "cpu-clock:u,page-faults:k", buf, 20);
	tap_ok(rc == -1, "a spelling longer than its buffer is none");
	cpc_close(cpc);
	return tap_done();
}
