/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpus.c - which CPUs cpustat measures: every online CPU of its affinity
 * mask, or those of -C, each of which must exist, be online and be in
 * that mask when cpustat starts.  (Later, a measured CPU that goes
 * offline is reported and skipped until it returns: cputhread.c.)  And
 * whether cpustat may count on a CPU at all, and for its cgroups
 * (cpu_preflight).
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cpulist.h"
#include "cpustat.h"
#include "errh.h"

#define SYS_CPU	"/sys/devices/system/cpu"

int
cpu_online(int id)
{
	char path[64];
	FILE *f;
	int v = 1;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/online", id);
	if ((f = fopen(path, "r")) == NULL)
		return 1;		/* cpu0 often has no such file */
	if (fscanf(f, "%d", &v) != 1)
		v = 1;
	fclose(f);
	return v;
}

/* The CPUs the kernel has (present); 0, or -1 when it does not say. */
static int
present_cpus(cpu_set_t *set)
{
	char buf[4096], msg[128];
	FILE *f;
	int rc = -1;

	if ((f = fopen(SYS_CPU "/present", "r")) == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = cpulist_parse(buf, set, msg, sizeof(msg));
	}
	fclose(f);
	return rc;
}

/* The CPUs of s that are not in allowed; 0 when there are none. */
static int
missing(const cpu_set_t *s, const cpu_set_t *allowed, cpu_set_t *out)
{
	int i;

	CPU_ZERO(out);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, s) && !CPU_ISSET(i, allowed))
			CPU_SET(i, out);
	return CPU_COUNT(out);
}

void
cpus_default(cpu_set_t *set)
{
	cpu_set_t mask;
	int i;

	if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
		err(1, "sched_getaffinity");
	CPU_ZERO(set);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &mask) && cpu_online(i))
			CPU_SET(i, set);
}

void
cpus_from_list(const char *list, cpu_set_t *set)
{
	char msg[256], bad[256], have[256];
	cpu_set_t present, usable, out;
	int n;

	if (cpulist_parse(list, set, msg, sizeof(msg)) != 0)
		cli_usage_error("invalid -C list '%s': %s", list, msg);
	/* A CPU the machine does not have is a mistake in the command. */
	if (present_cpus(&present) == 0 &&
	    (n = missing(set, &present, &out)) != 0)
		cli_usage_error("-C '%s': no %s %s on this machine (it has %s)",
		    list, n > 1 ? "cpus" : "cpu",
		    cpulist_format(&out, bad, sizeof(bad)),
		    cpulist_format(&present, have, sizeof(have)));
	/* One offline or out of reach now is the machine's state. */
	CPU_ZERO(&out);
	for (n = 0; n < CPU_SETSIZE; n++)
		if (CPU_ISSET(n, set) && !cpu_online(n))
			CPU_SET(n, &out);
	if ((n = CPU_COUNT(&out)) != 0)
		cli_errx(1, "-C '%s': %s %s %s offline", list,
		    n > 1 ? "cpus" : "cpu", cpulist_format(&out, bad,
		    sizeof(bad)), n > 1 ? "are" : "is");
	cpus_default(&usable);
	if ((n = missing(set, &usable, &out)) != 0)
		cli_errx(1, "-C '%s': %s %s %s outside the CPU affinity of "
		    "cpustat (taskset, cpuset)", list, n > 1 ? "cpus" : "cpu",
		    cpulist_format(&out, bad, sizeof(bad)), n > 1 ? "are" :
		    "is");
}

/*
 * Can we count on this CPU at all, and for each cgroup of -G?  Per-CPU
 * permission is the same for every event and CPU, so one cheap software
 * event on the first CPU turns a refusal into one message instead of one
 * per CPU; a cgroup that does not exist, or a kernel without cgroup
 * events, likewise.
 */
int
cpu_preflight(cpc_t *cpc, int cpu, const struct opts *o)
{
	cpc_set_t *set;
	int rc = -1, g;

	if ((set = cpc_set_create(cpc)) == NULL)
		return -1;
	errh_clear();
	if (cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 0,
	    NULL) >= 0 && cpc_bind_cpu(cpc, cpu, set, 0) == 0) {
		(void)cpc_unbind(cpc, set);
		rc = 0;
	}
	for (g = 0; rc == 0 && g < o->o_ncgroups; g++)
		if ((rc = cpc_bind_cpu_cgroup(cpc, cpu, o->o_cgroups[g], set,
		    0)) == 0)
			(void)cpc_unbind(cpc, set);
	if (rc != 0)
		warnx("%s", errh_last()[0] != '\0' ? errh_last() :
		    strerror(errno));
	cpc_set_destroy(cpc, set);
	return rc;
}
