/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_advice.c - the one place that turns a failed perf_event_open(2)
 * into advice: what the user can do about the errno (the value of
 * perf_event_paranoid, CAP_PERFMON, a missing PMU, the open-file limit,
 * a kernel without cgroup events).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_impl.h"

#define report(cpc, ...)	cpc_report((cpc)->c_errfn, __VA_ARGS__)

static int
read_int_file(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (f == NULL)
		return -1;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* Not allowed: what perf_event_paranoid says, and what would allow it. */
static void
advise_perm(cpc_t *cpc, const char *fn, int err,
    const struct cpc_request *req, const char *target)
{
	const char *ev = req->cr_event;
	int paranoid = 0;

	if (read_int_file("/proc/sys/kernel/perf_event_paranoid",
	    &paranoid) != 0)
		paranoid = 2;
	if (req->cr_ev.ev_kind == EVK_TRACEPOINT)
		report(cpc, fn, -1, "cannot count '%s' on %s: %s (tracepoints "
		    "need root or CAP_PERFMON; perf_event_paranoid is %d)", ev,
		    target, strerror(err), paranoid);
	else if (strncmp(target, "cpu", 3) == 0)
		report(cpc, fn, -1, "cannot count on %s: %s (per-CPU counting "
		    "needs root, CAP_PERFMON, or kernel.perf_event_paranoid <= "
		    "0; it is %d)", target, strerror(err), paranoid);
	else
		report(cpc, fn, -1, "cannot count '%s' on %s: %s "
		    "(perf_event_paranoid is %d: without CAP_PERFMON only "
		    "user-mode events of your own threads can be counted at 2, "
		    "set it to 1 to count kernel mode too)", ev, target,
		    strerror(err), paranoid);
}

/* Refused as invalid: a hardware group that does not fit, or settings. */
static void
advise_inval(cpc_t *cpc, const char *fn, int err,
    const struct cpc_request *req, const char *target)
{
	if (req->cr_ev.ev_hw)
		report(cpc, fn, CPC_RESOURCE_UNAVAIL, "cannot count '%s' on "
		    "%s: Hardware resource unavailable (the set's requests do "
		    "not fit the PMU's counters together, or an attribute is "
		    "invalid)", req->cr_event, target);
	else
		report(cpc, fn, -1, "cannot count '%s' on %s: %s (the kernel "
		    "refused the event's settings)", req->cr_event, target,
		    strerror(err));
}

/*
 * The one place that turns a failed counter open into advice.  target is
 * "cpu 3", "thread 1234", ...
 */
void
cpc_perf_open_error(cpc_t *cpc, const char *fn, int err,
    const struct cpc_request *req, const char *target)
{
	const char *ev = req->cr_event, *why = NULL;

	switch (err) {
	case EACCES:
	case EPERM:
		advise_perm(cpc, fn, err, req, target);
		break;
	case ENOENT:
	case EOPNOTSUPP:
		if (req->cr_ev.ev_hw && !cpc->c_hwpmu)
			report(cpc, fn, -1, "cannot count '%s': no hardware "
			    "PMU (virtual machine without a virtual PMU?)", ev);
		else
			why = "the kernel does not support this event";
		break;
	case EINVAL:
		advise_inval(cpc, fn, err, req, target);
		break;
	case ENODEV:
	case ENXIO:
		why = "CPU offline?";
		break;
	case EMFILE:
	case ENFILE:
		why = "raise the open-file limit: ulimit -n";
		break;
	default:
		report(cpc, fn, -1, "cannot count '%s' on %s: %s", ev, target,
		    strerror(err));
		break;
	}
	if (why != NULL && (err == ENOENT || err == EOPNOTSUPP))
		report(cpc, fn, -1, "cannot count '%s' on %s: %s (%s)", ev,
		    target, why, strerror(err));
	else if (why != NULL)
		report(cpc, fn, -1, "cannot count '%s' on %s: %s (%s)", ev,
		    target, strerror(err), why);
	errno = err;
}

/*
 * Whether the kernel counts per cgroup at all: a software event in the
 * cgroup mode on cx's CPU.  The errno of its refusal, or 0.
 */
static int
cgroup_refusal(const struct cpc_ctx *cx)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	if ((fd = cpc_perf_open_ctx(&a, cx, cx->cx_cpu, -1)) >= 0) {
		close((int)fd);
		return 0;
	}
	return errno;
}

/*
 * An open in the cgroup mode (cpc_bind_cpu_cgroup) refused as invalid or
 * unsupported: when the kernel refuses that mode itself, say so and
 * return 1 (errno ENOTSUP); else 0, for the event's own advice.
 */
int
cpc_perf_cgroup_error(cpc_t *cpc, const char *fn, int err,
    const struct cpc_ctx *cx, const struct cpc_target *t)
{
	int e;

	if (t->t_cgid == 0 || (err != EINVAL && err != EOPNOTSUPP &&
	    err != ENOENT && err != EBADF) ||
	    ((e = cgroup_refusal(cx)) != EINVAL && e != EOPNOTSUPP &&
	    e != ENOENT && e != EBADF))
		return 0;
	report(cpc, fn, -1, "cannot count on cpu %d for cgroup '%s': this "
	    "kernel has no cgroup events (%s: it needs CONFIG_CGROUP_PERF, "
	    "and the perf_event controller on the cgroup v2 hierarchy, not "
	    "on a v1 one)", t->t_cpu, t->t_cgroup, strerror(e));
	errno = ENOTSUP;
	return 1;
}

/* "cpu 3", "cpu 3 for cgroup 'a/b'", "thread 1234": t in a message. */
void
cpc_perf_target_name(const struct cpc_target *t, char *buf, size_t len)
{
	if (t->t_kind == CPC_BIND_CPU && t->t_cgid != 0)
		snprintf(buf, len, "cpu %d for cgroup '%s'", t->t_cpu,
		    t->t_cgroup);
	else if (t->t_kind == CPC_BIND_CPU)
		snprintf(buf, len, "cpu %d", t->t_cpu);
	else
		snprintf(buf, len, "thread %d", (int)t->t_tid);
}
