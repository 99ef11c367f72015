/*
 * cpc.c - the handle: open/close, capabilities, names, error reporting.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"

static const char *const subcode_text[] = {
	[CPC_INVALID_EVENT] = "Unknown event",
	[CPC_INVALID_PICNUM] = "Invalid counter number",
	[CPC_INVALID_ATTRIBUTE] = "Unknown attribute",
	[CPC_ATTRIBUTE_OUT_OF_RANGE] = "Attribute out of range",
	[CPC_RESOURCE_UNAVAIL] = "Hardware resource unavailable",
	[CPC_PIC_NOT_CAPABLE] = "Counter cannot count requested event",
	[CPC_REQ_INVALID_FLAGS] = "Invalid flags in a request",
	[CPC_CONFLICTING_REQS] = "Requests conflict with each other",
	[CPC_ATTR_REQUIRES_PRIVILEGE] =
	    "Attribute requires the cpc_cpu privilege",
	[CPC_PBIND_FAILED] = "Couldn't bind LWP to requested processor",
	[CPC_HV_NO_ACCESS] = "Hypervisor event access denied",
};

static void
default_errfn(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)subcode;
	fprintf(stderr, "libcpc: %s: ", fn);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Messages the calling thread reported (cpc_err_count). */
static __thread unsigned long err_count;

/*
 * Report through the handle's handler.  errno is preserved, so callers
 * set errno first and report second, or the other way round.
 */
void
cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
{
	int saved = errno;
	cpc_errhndlr_t *h = cpc != NULL && cpc->c_errfn != NULL ?
	    cpc->c_errfn : default_errfn;
	va_list ap;

	if (fn == NULL)		/* a quiet probe (events.c) */
		return;
	err_count++;
	if (fmt == NULL && subcode > 0 &&
	    (size_t)subcode < sizeof(subcode_text) / sizeof(*subcode_text))
		fmt = subcode_text[subcode];
	va_start(ap, fmt);
	h(fn, subcode, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* How many messages this thread has reported: did a call report one? */
unsigned long
cpc_err_count(void)
{
	return err_count;
}

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

/*
 * The one place that turns a failed counter open into advice.  target is
 * "cpu 3", "thread 1234", ...
 */
void
cpc_err_open(cpc_t *cpc, const char *fn, int err,
    const struct cpc_request *req, const char *target)
{
	int paranoid = 0;
	const char *ev = req->cr_event;

	errno = err;
	switch (err) {
	case EACCES:
	case EPERM:
		if (read_int_file("/proc/sys/kernel/perf_event_paranoid",
		    &paranoid) != 0)
			paranoid = 2;
		if (req->cr_ev.ev_kind == EVK_TRACEPOINT)
			cpc_err(cpc, fn, -1, "cannot count '%s' on %s: %s "
			    "(tracepoints need root or CAP_PERFMON; "
			    "perf_event_paranoid is %d)", ev, target,
			    strerror(err), paranoid);
		else if (strncmp(target, "cpu", 3) == 0)
			cpc_err(cpc, fn, -1, "cannot count on %s: %s "
			    "(per-CPU counting needs root, CAP_PERFMON, or "
			    "kernel.perf_event_paranoid <= 0; it is %d)",
			    target, strerror(err), paranoid);
		else
			cpc_err(cpc, fn, -1, "cannot count '%s' on %s: %s "
			    "(perf_event_paranoid is %d: without CAP_PERFMON "
			    "only user-mode events of your own threads can be "
			    "counted at 2, set it to 1 to count kernel mode "
			    "too)", ev, target, strerror(err), paranoid);
		break;
	case ENOENT:
	case EOPNOTSUPP:
		if (req->cr_ev.ev_hw && !cpc->c_hwpmu)
			cpc_err(cpc, fn, -1, "cannot count '%s': no hardware "
			    "PMU (virtual machine without a virtual PMU?)",
			    ev);
		else
			cpc_err(cpc, fn, -1, "cannot count '%s' on %s: the "
			    "kernel does not support this event (%s)", ev,
			    target, strerror(err));
		break;
	case EINVAL:
		if (req->cr_ev.ev_hw)
			cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL, "cannot count "
			    "'%s' on %s: Hardware resource unavailable (the "
			    "set's requests do not fit the PMU's counters "
			    "together, or an attribute is invalid)", ev,
			    target);
		else
			cpc_err(cpc, fn, -1, "cannot count '%s' on %s: %s "
			    "(the kernel refused the event's settings)", ev,
			    target, strerror(err));
		break;
	case ENODEV:
	case ENXIO:
		cpc_err(cpc, fn, -1, "cannot count '%s' on %s: %s (CPU "
		    "offline?)", ev, target, strerror(err));
		break;
	case EMFILE:
	case ENFILE:
		cpc_err(cpc, fn, -1, "cannot count '%s' on %s: %s (raise "
		    "the open-file limit: ulimit -n)", ev, target,
		    strerror(err));
		break;
	default:
		cpc_err(cpc, fn, -1, "cannot count '%s' on %s: %s", ev,
		    target, strerror(err));
		break;
	}
	errno = err;
}

hrtime_t
cpc_hrnow(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The cycle counter: TSC on x86, the virtual counter on arm64. */
uint64_t
cpc_ticknow(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#endif
}

/* The processor's description and counters, worked out once. */
static void
described(cpc_t *cpc)
{
	pthread_mutex_lock(&cpc->c_lock);
	if (!cpc->c_described) {
		cpc_describe(cpc);
		cpc->c_described = 1;
	}
	pthread_mutex_unlock(&cpc->c_lock);
}

CPC_EXPORT cpc_t *
cpc_open(int ver)
{
	cpc_t *cpc;

	if (ver != CPC_VER_CURRENT) {
		errno = EINVAL;
		return NULL;
	}
	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK) != 0) {
		errno = ENOSYS;		/* kernel without perf_event */
		return NULL;
	}
	if ((cpc = calloc(1, sizeof(*cpc))) == NULL)
		return NULL;
	pthread_mutex_init(&cpc->c_lock, NULL);
	cpc->c_be = &cpc_be_perf;
	cpc->c_hwpmu = cpc_hw_pmu_present();
	return cpc;
}

CPC_EXPORT int
cpc_close(cpc_t *cpc)
{
	struct cpc_set *s, *sn;
	struct cpc_buf *b, *bn;

	if (cpc == NULL)
		return 0;
	for (s = cpc->c_sets; s != NULL; s = sn) {
		sn = s->cs_next;
		cpc_set_release(cpc, s);
		cpc_set_free(s);
	}
	for (b = cpc->c_bufs; b != NULL; b = bn) {
		bn = b->cb_next;
		free(b->cb_vals);
		free(b);
	}
	pthread_mutex_destroy(&cpc->c_lock);
	free(cpc);
	return 0;
}

CPC_EXPORT uint_t
cpc_npic(cpc_t *cpc)
{
	described(cpc);
	return cpc->c_npic;
}

CPC_EXPORT uint_t
cpc_caps(cpc_t *cpc)
{
	/*
	 * perf_event signals overflow for every kind of event; which counter
	 * overflowed comes only as si_fd, which names no request.
	 */
	(void)cpc;
	return CPC_CAP_OVERFLOW_INTERRUPT;
}

static pthread_once_t sigovf_once = PTHREAD_ONCE_INIT;
static int sigovf = SIGIO;

/* CPC_SIGOVF from the environment: a number or a name; else SIGIO. */
static void
sigovf_init(void)
{
	static const struct { const char *n; int s; } names[] = {
		{ "IO", SIGIO }, { "POLL", SIGPOLL }, { "USR1", SIGUSR1 },
		{ "USR2", SIGUSR2 }, { "PROF", SIGPROF }, { "TRAP", SIGTRAP },
		{ "URG", SIGURG }, { "WINCH", SIGWINCH },
	};
	const char *v = getenv("CPC_SIGOVF");
	char *end;
	size_t i;
	long n;

	if (v == NULL || *v == '\0')
		return;
	if (strncmp(v, "SIG", 3) == 0)
		v += 3;
	if (strncmp(v, "RTMIN+", 6) == 0) {
		n = strtol(v + 6, &end, 10);
		if (*end == '\0' && n >= 0 && SIGRTMIN + n <= SIGRTMAX)
			sigovf = (int)(SIGRTMIN + n);
		return;
	}
	n = strtol(v, &end, 10);
	if (end != v && *end == '\0' && n > 0 && n <= SIGRTMAX &&
	    n != SIGKILL && n != SIGSTOP) {
		sigovf = (int)n;
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(v, names[i].n) == 0)
			sigovf = names[i].s;
}

/* The overflow signal (CPC_SIGOVF): read once from the environment. */
CPC_EXPORT int
cpc_sigovf(void)
{
	pthread_once(&sigovf_once, sigovf_init);
	return sigovf;
}

CPC_EXPORT const char *
cpc_cciname(cpc_t *cpc)
{
	described(cpc);
	return cpc->c_cciname;
}

CPC_EXPORT const char *
cpc_cpuref(cpc_t *cpc)
{
	described(cpc);
	return cpc->c_cpuref;
}

CPC_EXPORT int
cpc_seterrhndlr(cpc_t *cpc, cpc_errhndlr_t *fn)
{
	cpc->c_errfn = fn;
	return 0;
}

CPC_EXPORT int
cpc_have_hw_pmu(cpc_t *cpc)
{
	return cpc->c_hwpmu;
}

int
cpc_set_owned(cpc_t *cpc, cpc_set_t *set)
{
	struct cpc_set *s;

	pthread_mutex_lock(&cpc->c_lock);
	for (s = cpc->c_sets; s != NULL && s != set; s = s->cs_next)
		;
	pthread_mutex_unlock(&cpc->c_lock);
	return s != NULL;
}

int
cpc_buf_owned(cpc_t *cpc, cpc_buf_t *buf)
{
	struct cpc_buf *b;

	pthread_mutex_lock(&cpc->c_lock);
	for (b = cpc->c_bufs; b != NULL && b != buf; b = b->cb_next)
		;
	pthread_mutex_unlock(&cpc->c_lock);
	return b != NULL;
}
