/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary-setsample.c - the cost of one cpc_set_sample beside the raw
 * read(2) of a perf group it makes, on the same events, in the same
 * thread (bench/summary runs it, and so does the hardware tier).
 *
 *	summary-setsample [-n calls] [-r rounds] [events]
 *
 * events: a -c style list of libcpc names (default
 * task-clock,page-faults; cycles and instructions are the hardware
 * ones it knows).  The raw side opens the same encodings as
 * one group (leader first, PERF_FORMAT_GROUP with the enabled and
 * running times and ids, as libcpc reads) on the calling thread.  Each
 * round times calls of each (the order rotates), and the medians over
 * rounds are printed as
 *
 *	sample <ns per cpc_set_sample> raw <ns per read> ratio <r> user <u> \
 *	    floor <ns per lean sample>
 *
 * and then, from calls of the three taken one at a time in turn (each
 * timed alone by the cycle counter, the cost of timing nothing taken
 * off), the medians' ratios to the raw read's:
 *
 *	percall ratio <cpc_set_sample's> floor <lean_sample's>
 *
 * Block times move with the machine from round to round by more than
 * the 5% the target allows; calls a few microseconds apart see the same
 * machine.
 *
 * u: the share of the cpc_set_sample calls libcpc answered in user space
 * (backends/perf_user.c: rdpmc, or the arm64 counter registers, on
 * hardware events of the calling thread), 0 where it used read().
 *
 * floor: lean_sample below, the least any sample of the group can do:
 * what cpc_set_sample costs above it is libcpc's own.
 *
 * bench/summary runs it.  It exits 1 when libcpc or perf_event_open
 * refuses the events.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include <libcpc.h>

#define MAXEV	8

/* libcpc's count of reads done in user space (libcpc.a, not the API). */
extern unsigned long cpc_perf_user_nreads;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The cycle counter, read in order with the code around it: the TSC
 * between fences, the arm64 virtual counter between barriers, else the
 * clock in ns.
 */
static inline uint64_t
stamp(void)
{
#if defined(__x86_64__)
	uint64_t t;

	__asm__ __volatile__("lfence" ::: "memory");
	t = __builtin_ia32_rdtsc();
	__asm__ __volatile__("lfence" ::: "memory");
	return t;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) ::
	    "memory");
	return v;
#else
	return (uint64_t)now();
#endif
}

/*
 * The floor: the least any sample of a group can do.  It checks its
 * arguments, reads, stamps the time and the tick (as a cpc_buf_t is
 * stamped) and turns the counts into values (less the counts at the bind,
 * plus the presets), with the scaled flag.  No library, no indirection.
 */
struct lean {
	int		 l_fd, l_n, l_scaled;
	uint64_t	*l_rb;
	size_t		 l_len;
	uint64_t	 l_base[MAXEV], l_cur[MAXEV], l_val[MAXEV];
	int64_t		 l_hrtime;
	uint64_t	 l_tick, l_ena, l_run;
};

static __attribute__((noinline)) int
lean_sample(struct lean *l)
{
	struct timespec ts;
	int i;

	if (l == NULL || l->l_rb == NULL)
		return -1;
	if (read(l->l_fd, l->l_rb, l->l_len) != (ssize_t)l->l_len ||
	    l->l_rb[0] != (uint64_t)l->l_n)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	l->l_hrtime = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#if defined(__x86_64__)
	l->l_tick = __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(l->l_tick));
#endif
	l->l_ena = l->l_rb[1];
	l->l_run = l->l_rb[2];
	l->l_scaled = l->l_run < l->l_ena;
	for (i = 0; i < l->l_n; i++)
		l->l_val[i] = l->l_rb[3 + 2 * i] - l->l_base[i] + l->l_cur[i];
	return 0;
}

/*
 * calls of each of the three, and of nothing, one at a time in turn;
 * prints the medians' ratios to the raw read's, less the median of
 * nothing (the timing's own cost).
 */
static void
percall(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf, int fd, uint64_t *rb,
    size_t len, struct lean *lean, long calls)
{
	uint64_t *t[4] = { NULL, NULL, NULL, NULL }, a;
	long j;
	int k, op;

	for (k = 0; k < 4; k++)
		if ((t[k] = malloc((size_t)calls * sizeof(uint64_t))) == NULL)
			goto out;
	for (j = 0; j < calls; j++)
		for (k = 0; k < 4; k++) {
			op = (int)((j + k) % 4);
			a = stamp();
			if (op == 0)
				(void)cpc_set_sample(cpc, set, buf);
			else if (op == 1)
				(void)!read(fd, rb, len);
			else if (op == 2)
				(void)lean_sample(lean);
			t[op][j] = stamp() - a;
		}
	for (k = 0; k < 4; k++)
		qsort(t[k], (size_t)calls, sizeof(uint64_t), cmp64);
	j = calls / 2;
	/* Nothing printed unless every median is above nothing's. */
	if (t[0][j] > t[3][j] && t[1][j] > t[3][j] && t[2][j] > t[3][j])
		printf("percall ratio %.3f floor %.3f\n",
		    (double)(t[0][j] - t[3][j]) / (double)(t[1][j] - t[3][j]),
		    (double)(t[2][j] - t[3][j]) / (double)(t[1][j] - t[3][j]));
out:
	for (k = 0; k < 4; k++)
		free(t[k]);
}

/* The software events by name: all this bench needs. */
static int
encode(const char *name, struct perf_event_attr *a)
{
	static const struct { const char *n; int c; } sw[] = {
		{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
	};
	size_t i;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	for (i = 0; i < sizeof(sw) / sizeof(*sw); i++)
		if (strcmp(name, sw[i].n) == 0) {
			a->type = PERF_TYPE_SOFTWARE;
			a->config = (uint64_t)sw[i].c;
			return 0;
		}
	if (strcmp(name, "cycles") == 0 || strcmp(name, "instructions") == 0) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = name[0] == 'c' ? PERF_COUNT_HW_CPU_CYCLES :
		    PERF_COUNT_HW_INSTRUCTIONS;
		return 0;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	const char *events = "task-clock,page-faults";
	char list[256], *tok, *save = NULL;
	long calls = 200000, i;
	int rounds = 9, ch, r, nev = 0, fds[MAXEV];
	double ts[64], tr[64], tf[64], t0;
	struct lean lean;
	unsigned long u0;
	uint64_t rb[3 + 2 * MAXEV];
	cpc_t *cpc;
	cpc_set_t *set;
	cpc_buf_t *buf;

	while ((ch = getopt(argc, argv, "n:r:")) != -1) {
		if (ch == 'n')
			calls = strtol(optarg, NULL, 10);
		else if (ch == 'r')
			rounds = (int)strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (optind < argc)
		events = argv[optind];
	if (calls <= 0 || rounds <= 0 || rounds > 64)
		return 2;
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL ||
	    (set = cpc_set_create(cpc)) == NULL)
		return 1;
	snprintf(list, sizeof(list), "%s", events);
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		struct perf_event_attr a;

		if (nev == MAXEV || encode(tok, &a) != 0 ||
		    cpc_set_add_request(cpc, set, tok, 0,
		    CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) < 0) {
			fprintf(stderr, "summary-setsample: '%s' refused\n",
			    tok);
			return 1;
		}
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		    PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING;
		fds[nev] = (int)syscall(SYS_perf_event_open, &a, 0, -1,
		    nev == 0 ? -1 : fds[0], PERF_FLAG_FD_CLOEXEC);
		if (fds[nev] < 0) {
			perror("summary-setsample: perf_event_open");
			return 1;
		}
		nev++;
	}
	if ((buf = cpc_buf_create(cpc, set)) == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0) {
		perror("summary-setsample: bind");
		return 1;
	}
	memset(&lean, 0, sizeof(lean));
	lean.l_fd = fds[0];
	lean.l_n = nev;
	lean.l_len = (3 + 2 * (size_t)nev) * sizeof(uint64_t);
	if ((lean.l_rb = malloc(lean.l_len)) == NULL)
		return 1;
	u0 = cpc_perf_user_nreads;
	for (r = 0; r < rounds; r++) {
		int k;

		for (k = 0; k < 3; k++) {
			t0 = now();
			switch ((k + r) % 3) {
			case 0:
				for (i = 0; i < calls; i++)
					(void)cpc_set_sample(cpc, set, buf);
				ts[r] = (now() - t0) / (double)calls;
				break;
			case 1:
				for (i = 0; i < calls; i++)
					(void)!read(fds[0], rb, sizeof(rb));
				tr[r] = (now() - t0) / (double)calls;
				break;
			default:
				for (i = 0; i < calls; i++)
					(void)lean_sample(&lean);
				tf[r] = (now() - t0) / (double)calls;
			}
		}
	}
	qsort(ts, (size_t)rounds, sizeof(double), cmp);
	qsort(tr, (size_t)rounds, sizeof(double), cmp);
	qsort(tf, (size_t)rounds, sizeof(double), cmp);
	printf("sample %.1f raw %.1f ratio %.3f user %.2f floor %.1f\n",
	    ts[rounds / 2], tr[rounds / 2], ts[rounds / 2] / tr[rounds / 2],
	    (double)(cpc_perf_user_nreads - u0) / ((double)calls * rounds),
	    tf[rounds / 2]);
	percall(cpc, set, buf, fds[0], rb, sizeof(rb), &lean, calls);
	free(lean.l_rb);
	cpc_close(cpc);
	return 0;
}
