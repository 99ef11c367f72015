/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_v1sol - a program written as for Solaris 8: <libcpc.h> and the v1
 * calls only, after the example of cpc_bind_event(3CPC), with the
 * measured computation replaced by a known one.  Iteration i makes 10 * i
 * getpid calls and i getppid calls, which the tracepoints count exactly;
 * each iteration's counts are reported as a TAP line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libcpc.h>

static int ntest;

static void
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void) printf("not ok %d - ", ++ntest);
	(void) vprintf(fmt, ap);
	(void) printf("\n1..%d\n", ntest);
	va_end(ap);
	exit(1);
}

int
main(int argc, char *argv[])
{
	int cpuver, iter, i;
	char *setting = NULL;
	cpc_event_t event;

	(void) alarm(60);
	if (cpc_version(CPC_VER_CURRENT) != CPC_VER_CURRENT)
		error("application:library cpc version mismatch!");

	if ((cpuver = cpc_getcpuver()) == -1)
		error("no performance counter hardware!");

	if ((setting = getenv("PERFEVENTS")) == NULL)
		setting = "pic0=syscalls:sys_enter_getpid,"
		    "pic1=syscalls:sys_enter_getppid";

	if (geteuid() != 0) {
		(void) printf("ok 1 - tracepoints # skip needs root\n1..1\n");
		return (0);
	}
	if (cpc_strtoevent(cpuver, setting, &event) != 0)
		error("can't measure '%s' on this processor", setting);
	setting = cpc_eventtostr(&event);

	if (cpc_access() == -1)
		error("can't access perf counters: %s", strerror(errno));

	if (cpc_bind_event(&event, 0) == -1)
		error("can't bind lwp%d: %s", (int)getpid(), strerror(errno));

	for (iter = 1; iter <= 20; iter++) {
		cpc_event_t before, after;
		uint64_t want = 10 * iter;

		if (cpc_take_sample(&before) == -1)
			break;

		for (i = 0; i < 10 * iter; i++)
			(void) getpid();
		for (i = 0; i < iter; i++)
			(void) getppid();

		if (cpc_take_sample(&after) == -1)
			break;
		(void) printf("%sok %d - %3d: %" PRId64 " %" PRId64 "\n",
		    after.ce_pic[0] - before.ce_pic[0] == want &&
		    after.ce_pic[1] - before.ce_pic[1] == (uint64_t)iter ?
		    "" : "not ",
		    ++ntest, iter, after.ce_pic[0] - before.ce_pic[0],
		    after.ce_pic[1] - before.ce_pic[1]);
	}

	if (iter != 21)
		error("can't sample '%s': %s", setting, strerror(errno));

	(void) cpc_rele();
	ntest++;
	(void) printf("ok %d - %s\n1..%d\n", ntest, setting, ntest);
	free(setting);
	return (0);
}
