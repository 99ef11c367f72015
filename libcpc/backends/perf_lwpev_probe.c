/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_lwpev_probe.c - whether this kernel reports an inherited counter's
 * thread at its end (CPC_BIND_LWP_EVENTS needs it).
 *
 * From Linux 5.13 (ef54c1a476ae) until c418d8b4d7a4 ("perf/core: Fix
 * missing read event generation on task exit", 6.18 and the stable
 * kernels it went back to), perf_event_exit_task_context marked the
 * context dead before its events' ends, and sync_child_event then wrote
 * no PERF_RECORD_READ: the bind would succeed and no thread's end would
 * ever come.  The kernel's version says too little (the fix went back
 * into stable kernels), so it is tried once: the calling thread counts
 * with an inherited inherit_stat event that writes into a ring, a thread
 * it creates ends, and its READ record must come.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "backend.h"
#include "perf_impl.h"
#include "perf_lwpev.h"
#include "perf_ring.h"
#include "perf_lwpev_impl.h"

/* How long the probe's thread may take to be gone (ms). */
#define PROBE_WAIT_MS	2000

static pthread_once_t	probe_once = PTHREAD_ONCE_INIT;
static int		probe_result;	/* 1 yes, 0 no, -errno cannot tell */

static long
open_dummy(int inherit, int group)
{
	struct perf_event_attr a;

	cpc_lwpev_dummy_attr(&a);
	a.inherit = inherit;
	a.inherit_thread = inherit;
	a.inherit_stat = inherit;
	return cpc_perf_open(&a, 0, -1, group);
}

static void *
probe_thread(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

/* Wait until thread tid of this process is gone: 0, or -1. */
static int
wait_gone(pid_t tid)
{
	struct timespec ms = { 0, 1000000 };
	char path[64];
	struct stat st;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (i = 0; i < PROBE_WAIT_MS; i++) {
		if (stat(path, &st) != 0)
			return 0;
		nanosleep(&ms, NULL);
	}
	return -1;
}

/* Whether ring (its data after the control page) holds tid's READ. */
static int
has_read(void *map, size_t data, pid_t tid)
{
	struct perf_event_header h;
	struct ring rg;
	uint64_t tail = 0;

	cpc_ring_init(&rg, map, data, &tail);
	cpc_ring_read_init(&rg);
	while (cpc_ring_next(&rg, &h) > 0) {
		if (h.type == PERF_RECORD_READ &&
		    (pid_t)u32_second(ring_u64(&rg, tail + 8)) == tid)
			return 1;
		cpc_ring_consume(&rg, &h);
	}
	return 0;
}

static void
probe(void)
{
	size_t data = cpc_ring_pagesz();
	long ring, ev = -1;
	void *map = MAP_FAILED;
	pthread_t thr;
	pid_t tid = 0;

	probe_result = -EIO;
	if ((ring = open_dummy(0, -1)) < 0 || (map = mmap(NULL,
	    cpc_ring_pagesz() + data, PROT_READ | PROT_WRITE, MAP_SHARED,
	    (int)ring, 0)) == MAP_FAILED || (ev = open_dummy(1, -1)) < 0 ||
	    ioctl((int)ev, PERF_EVENT_IOC_SET_OUTPUT, (int)ring) != 0) {
		probe_result = -errno;
		goto out;
	}
	if (pthread_create(&thr, NULL, probe_thread, &tid) != 0)
		goto out;
	pthread_join(thr, NULL);
	if (wait_gone(tid) == 0)
		probe_result = has_read(map, data, tid);
out:
	if (ev >= 0)
		close((int)ev);
	if (map != MAP_FAILED)
		munmap(map, cpc_ring_pagesz() + data);
	if (ring >= 0)
		close((int)ring);
}

int
cpc_perf_lwpev_probe(void)
{
	(void)pthread_once(&probe_once, probe);
	if (probe_result < 0)
		errno = -probe_result;
	return probe_result;
}
