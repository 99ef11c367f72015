/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_pmuterms - malformed sysfs PMU names (pmu/term=val,.../) given to
 * cpc_set_add_request: each is EINVAL with its own message, and none
 * reads past the name.
 *
 * Each name is tried in a child, so that a name that crashes the
 * catalogue (msr/ once read past the end of its string) fails its own
 * test with the signal, and the other names are still tried.  The child
 * sends the return value, errno and the message over a pipe.
 *
 * The software and tracepoint PMUs are in sysfs wherever perf events
 * are; the msr PMU is an x86 one, its names are skipped without it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <libcpc.h>

#include "errmsg.h"
#include "tap.h"

#define PMUS	"/sys/bus/event_source/devices"

/* In the child: add name, write "rc errno message". */
static void
try_name(const char *name, int fd)
{
	cpc_set_t *set;
	cpc_t *cpc;
	FILE *f;
	int rc, e;

	if ((f = fdopen(fd, "w")) == NULL ||
	    (cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		_exit(2);
	cpc_seterrhndlr(cpc, keep_errmsg);
	if ((set = cpc_set_create(cpc)) == NULL)
		_exit(2);
	errno = 0;
	rc = cpc_set_add_request(cpc, set, name, 0, CPC_COUNT_USER, 0, NULL);
	e = errno;
	fprintf(f, "%d %d %s", rc, e, errmsg);
	fclose(f);
	cpc_set_destroy(cpc, set);
	cpc_close(cpc);
	_exit(0);
}

/* name is refused with EINVAL and exactly the message want. */
static void
refused(const char *name, const char *want)
{
	char got[1200] = "", text[1024] = "";
	int pfd[2], status, rc = 0, e = 0;
	ssize_t n;
	size_t len = 0;
	pid_t pid;

	if (pipe(pfd) != 0 || (pid = fork()) < 0) {
		tap_ok(0, "'%s': cannot fork: %s", name, strerror(errno));
		return;
	}
	if (pid == 0) {
		close(pfd[0]);
		try_name(name, pfd[1]);
	}
	close(pfd[1]);
	while (len < sizeof(got) - 1 &&
	    (n = read(pfd[0], got + len, sizeof(got) - 1 - len)) > 0)
		len += (size_t)n;
	got[len] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		tap_ok(0, "'%s' is refused (the child %s %d)", name,
		    WIFSIGNALED(status) ? "died of signal" : "exited",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
		return;
	}
	if (sscanf(got, "%d %d %1023[^\n]", &rc, &e, text) < 2)
		rc = 0;
	tap_ok(rc == -1 && e == EINVAL, "'%s' is refused with EINVAL (got "
	    "%d, errno %d)", name, rc, e);
	tap_str(text, want, name);
}

static int
have_pmu(const char *pmu)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), PMUS "/%s/type", pmu);
	return stat(path, &st) == 0;
}

int
main(void)
{
	static const char *const bare[] = { "software/", "tracepoint/",
	    "msr/", "cpu/", "a/", "ab/", "/", "//" };
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(bare) / sizeof(*bare); i++) {
		snprintf(want, sizeof(want), "bad PMU event syntax '%s' "
		    "(expected pmu/term=value,.../)", bare[i]);
		refused(bare[i], want);
	}
	refused("///", "unknown PMU '' in '///' (the PMUs are in " PMUS ")");
	refused("software/,/", "empty term in ',' of PMU 'software'");
	refused("tracepoint/,x/", "empty term in ',x' of PMU 'tracepoint'");
	refused("software/=1/", "PMU term '=1' of PMU 'software' has no "
	    "name (expected term=value)");
	refused("software/=/", "PMU term '=' of PMU 'software' has no name "
	    "(expected term=value)");
	refused("software/config/", "PMU 'software' has no event or format "
	    "term 'config' (see " PMUS "/software/events and format)");
	if (!have_pmu("msr")) {
		tap_skip("no msr PMU here", "msr/ terms");
		return tap_done();
	}
	refused("msr/tsc", "bad PMU event syntax 'msr/tsc' (expected "
	    "pmu/term=value,.../)");
	refused("msr/tsc,/", "empty term in 'tsc,' of PMU 'msr'");
	refused("msr/,tsc/", "empty term in ',tsc' of PMU 'msr'");
	refused("msr/event=/", "invalid value '' for term 'event' of PMU "
	    "'msr'");
	refused("msr/event==1/", "invalid value '=1' for term 'event' of "
	    "PMU 'msr'");
	refused("msr/event=-1/", "invalid value '-1' for term 'event' of "
	    "PMU 'msr'");
	refused("msr/event=99999999999999999999999/", "invalid value "
	    "'99999999999999999999999' for term 'event' of PMU 'msr'");
	refused("msr/event=0x1ffffffffffffffff/", "invalid value "
	    "'0x1ffffffffffffffff' for term 'event' of PMU 'msr'");
	refused("msr//tsc/", "PMU 'msr' has no term '/tsc'");
	refused("msr/tsc//", "PMU 'msr' has no term 'tsc/'");
	refused("msr/ tsc/", "PMU 'msr' has no term ' tsc'");
	return tap_done();
}
